//! Escapes in patterns and classes: character escapes, `\d`-like classes and Unicode properties.

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

use super::super::number::JS_WHITESPACE;
use super::syntax::{Atom, Fault, Parsed, Parser, lone_surrogate, unsupported};

impl Parser {
    /// An escape outside a class; `at` is the backslash.
    pub(super) fn atom_escape(&mut self, at: usize) -> Parsed<Atom> {
        let Some(c) = self.peek() else {
            return Err(Fault::at(at, "the pattern ends with a lone `\\`; write `\\\\` to match a backslash"));
        };
        let mut class = match c {
            'b' => return Err(unsupported(at, "word boundary `\\b`")),
            'B' => return Err(unsupported(at, "non-word-boundary `\\B`")),
            '1'..='9' => {
                let digits: String = self.chars[self.pos..].iter().take_while(|c| c.is_ascii_digit()).collect();
                return Err(unsupported(at, &format!("backreference `\\{digits}`")));
            }
            'k' if self.chars.get(self.pos + 1) == Some(&'<') => {
                return Err(unsupported(at, "named backreference `\\k<…>`"));
            }
            // A readable subset: every character here is whitespace to JavaScript, but most of the
            // full set are exotic spaces. Inside a class the full set is needed, for `[^\s]`.
            's' => {
                self.pos += 1;
                ClassUnicode::new([ClassUnicodeRange::new('\t', '\r'), ClassUnicodeRange::new(' ', ' ')])
            }
            'd' | 'D' | 'w' | 'W' | 'S' => {
                self.pos += 1;
                self.escape_class(c)
            }
            'p' | 'P' if self.flags.unicode => {
                self.pos += 1;
                self.property(at, c == 'P')?
            }
            _ => {
                let c = self.char_escape(at, false)?;
                return Ok(self.literal(c, at));
            }
        };
        if self.flags.ignore_case {
            self.fold_case(&mut class);
        }
        Ok(Atom { hir: self.class_hir(class), at, astral: false })
    }

    /// `\d`, `\w`, `\s` and their negations, with JavaScript's ASCII meaning.
    pub(super) fn escape_class(&self, c: char) -> ClassUnicode {
        let ranges: &[(char, char)] = match c.to_ascii_lowercase() {
            'd' => &[('0', '9')],
            'w' => &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')],
            _ => &JS_WHITESPACE,
        };
        let mut class = ClassUnicode::new(ranges.iter().map(|&(low, high)| ClassUnicodeRange::new(low, high)));
        if c.eq_ignore_ascii_case(&'w') && self.flags.unicode && self.flags.ignore_case {
            // With `u` and `i`, JavaScript's `\w` also holds what case-folds to a word character
            // (U+017F, U+212A), and `\W` excludes them.
            self.fold_case(&mut class);
        }
        if c.is_ascii_uppercase() {
            class.negate();
        }
        class
    }

    /// `\p{…}` or `\P{…}` after the letter; `at` is the backslash.
    pub(super) fn property(&mut self, at: usize, negated: bool) -> Parsed<ClassUnicode> {
        let invalid = || Fault::at(at, "write a Unicode property escape as `\\p{Name}` or `\\p{Name=Value}`");
        if !self.eat('{') {
            return Err(invalid());
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=') {
            self.pos += 1;
        }
        let name: String = self.chars[start..self.pos].iter().collect();
        if name.is_empty() || !self.eat('}') {
            return Err(invalid());
        }
        // regex-syntax holds the Unicode tables. `regex_syntax::parse` builds a fresh parser, which
        // matters: 0.8.11 panics when one is reused.
        let unknown = || Fault::at(at, format!("unknown Unicode property `{name}`"));
        let hir = regex_syntax::parse(&format!("\\p{{{name}}}")).map_err(|_| unknown())?;
        let HirKind::Class(Class::Unicode(mut class)) = hir.into_kind() else {
            return Err(unknown());
        };
        if negated {
            class.negate();
        }
        Ok(class)
    }

    /// A character escape, with `pos` on the character after the backslash at `at`.
    pub(super) fn char_escape(&mut self, at: usize, in_class: bool) -> Parsed<char> {
        let Some(c) = self.bump() else {
            return Err(Fault::at(at, "the pattern ends with a lone `\\`; write `\\\\` to match a backslash"));
        };
        Ok(match c {
            't' => '\t',
            'n' => '\n',
            'v' => '\u{B}',
            'f' => '\u{C}',
            'r' => '\r',
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => '\0',
            '0'..='9' => {
                return Err(Fault::at(
                    at,
                    "octal escapes and backreferences are not supported; write `\\xHH` for a character code",
                ));
            }
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() || (in_class && (l.is_ascii_digit() || l == '_')) => {
                    self.pos += 1;
                    char::from(l as u8 % 32)
                }
                // Annex B: a `\c` without a control letter is a backslash, and the `c` is read again.
                _ => {
                    self.pos -= 1;
                    '\\'
                }
            },
            'x' => self.hex_digits(2).map_or('x', |code| char::from(code as u8)),
            'u' => self.unicode_escape(at)?,
            c => c,
        })
    }

    /// The rest of `\uXXXX` or `\u{…}`; a surrogate pair written as two escapes is one character.
    fn unicode_escape(&mut self, at: usize) -> Parsed<char> {
        if self.flags.unicode && self.eat('{') {
            let start = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.pos += 1;
            }
            let digits: String = self.chars[start..self.pos].iter().collect();
            let code = u32::from_str_radix(&digits, 16).ok().filter(|&code| code <= 0x10FFFF);
            return match code {
                Some(code) if self.eat('}') => char::from_u32(code).ok_or_else(|| lone_surrogate(at, code)),
                _ => Err(Fault::at(at, "invalid escape `\\u{…}`: write 1 to 6 hex digits up to 10FFFF")),
            };
        }
        let Some(unit) = self.hex_digits(4) else {
            if self.flags.unicode {
                return Err(Fault::at(at, "invalid escape `\\u`: write `\\uXXXX` or `\\u{X…}`"));
            }
            // Annex B: without `u`, `\u` not followed by four hex digits is a plain `u`.
            return Ok('u');
        };
        let mut code = unit;
        if (0xD800..0xDC00).contains(&unit) && self.chars[self.pos..].starts_with(&['\\', 'u']) {
            let before = self.pos;
            self.pos += 2;
            match self.hex_digits(4) {
                Some(low @ 0xDC00..0xE000) => code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00),
                _ => self.pos = before,
            }
        }
        char::from_u32(code).ok_or_else(|| lone_surrogate(at, unit))
    }

    /// Consumes exactly `count` hex digits if they are there.
    fn hex_digits(&mut self, count: usize) -> Option<u32> {
        let digits = self.chars.get(self.pos..self.pos + count)?;
        let mut value = 0;
        for c in digits {
            value = value * 16 + c.to_digit(16)?;
        }
        self.pos += count;
        Some(value)
    }
}
