//! JavaScript regular expressions as generators: random strings that a pattern matches in full.
//!
//! Patterns are parsed here with JavaScript's grammar and semantics (including the web-compatibility
//! rules of Annex B, such as a lone `{` being a literal), built into a `regex_syntax` HIR and sampled by
//! `rand_regex`. Parsing them with `regex_syntax` itself would give Rust's meaning instead: Unicode `\d`,
//! set operators inside classes, and errors on valid JavaScript like `x{` or `[[]`.

use std::fmt;
use std::sync::OnceLock;

use rand::Rng;
use rand::distr::Distribution;
use regex_syntax::hir::{Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Repetition};

use super::number::JS_WHITESPACE;

/// How many repetitions beyond the minimum `*`, `+` and `{n,}` may produce: enough to exercise loops
/// over the content, few enough to keep generated tests readable.
const MAX_EXTRA_REPEAT: u32 = 8;

/// The longest output, in UTF-8 bytes, a pattern may be able to produce. It bounds memory per sample
/// and keeps `rand_regex`'s `u32` repeat counters far from overflow.
const MAX_OUTPUT_BYTES: usize = 10_000;

/// The deepest group nesting accepted, because the parser recurses once per level.
const MAX_NESTING: usize = 100;

/// A class bigger than this is sampled half of the time from its printable ASCII part (see
/// [`Parser::class_hir`]).
const LARGE_CLASS: usize = 256;

/// Why a pattern was rejected, phrased for the user who wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError {
    pattern: String,
    message: String,
    position: Option<usize>,
}

impl RegexError {
    /// The pattern exactly as given.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// What is wrong, without the pattern or position.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The 0-based character (not byte) offset in [`pattern`](Self::pattern) of the construct at
    /// fault, when one construct is to blame.
    pub fn position(&self) -> Option<usize> {
        self.position
    }
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid regex `{}`: {}", self.pattern, self.message)?;
        if let Some(position) = self.position {
            write!(f, " (at character {})", position + 1)?;
        }
        Ok(())
    }
}

impl std::error::Error for RegexError {}

/// Random strings that a JavaScript regular expression matches in full.
#[derive(Clone)]
pub struct RegexGenerator {
    pattern: String,
    regex: rand_regex::Regex,
}

/// Shows the pattern only: the compiled sampler holds whole Unicode class tables.
impl fmt::Debug for RegexGenerator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegexGenerator").field("pattern", &self.pattern).finish_non_exhaustive()
    }
}

impl RegexGenerator {
    /// Parses a JavaScript pattern, written bare (`\d{3}-[A-Z]+`) or as a literal with flags
    /// (`/^\d{3}$/i`).
    ///
    /// A leading `^` and a trailing `$` (per top-level alternative) are dropped, since every sample is
    /// a whole string anyway. Flags `i`, `s` and `u` are honoured, `d`, `g`, `m` and `y` change nothing
    /// about which strings match and are ignored, and `v` is rejected. `*`, `+` and `{n,}` repeat at
    /// most 8 times more than their minimum.
    ///
    /// A text starting with `/` is a literal only when a later unescaped `/` outside a class is
    /// followed by nothing but letters; otherwise the whole text is a bare pattern.
    ///
    /// # Errors
    ///
    /// Invalid syntax, constructs a generator cannot honour (anchors elsewhere, `\b`, lookarounds,
    /// backreferences, lone surrogates), patterns that match nothing or can produce more than
    /// 10 000 bytes.
    pub fn parse(pattern: &str) -> Result<RegexGenerator, RegexError> {
        let error = |fault: Fault, offset: usize| RegexError {
            pattern: pattern.to_owned(),
            message: fault.message,
            position: fault.at.map(|at| at + offset),
        };
        let (body, flags) = match split_literal(pattern) {
            Some((body, flags)) => (body, Flags::parse(flags).map_err(|fault| error(fault, body.chars().count() + 2))?),
            None => (pattern, Flags::default()),
        };
        let body_offset = usize::from(flags.literal);
        let mut parser = Parser { chars: body.chars().collect(), pos: 0, flags, depth: 0 };
        let hir = parser.pattern().map_err(|fault| error(fault, body_offset))?;
        let properties = hir.properties();
        if properties.minimum_len().is_none() {
            return Err(error(
                Fault::general(
                    "the pattern can never match any string: it requires a character from an empty class such as `[]`",
                ),
                0,
            ));
        }
        if properties.maximum_len().is_none_or(|len| len > MAX_OUTPUT_BYTES) {
            return Err(error(
                Fault::general(format!(
                    "the pattern can produce strings longer than {MAX_OUTPUT_BYTES} bytes; lower its repetition counts"
                )),
                0,
            ));
        }
        let regex = rand_regex::Regex::with_hir(hir, MAX_EXTRA_REPEAT)
            .map_err(|e| error(Fault::general(format!("cannot generate strings for it: {e}")), 0))?;
        Ok(RegexGenerator { pattern: pattern.to_owned(), regex })
    }

    /// The pattern text exactly as given to [`parse`](Self::parse).
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Draws one string that the pattern matches in full.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> String {
        // Only Unicode classes and UTF-8 literals go into the HIR, so the bytes are always UTF-8; the
        // lossy conversion just avoids `rand_regex`'s panicking `String` sampler.
        let bytes: Vec<u8> = self.regex.sample(rng);
        String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// Splits `/body/flags` into body and flags; `None` for a bare pattern.
fn split_literal(pattern: &str) -> Option<(&str, &str)> {
    let end = super::literal::regex_end(pattern)?;
    let flags = &pattern[end + 1..];
    (end > 1 && flags.chars().all(|c| c.is_ascii_alphabetic())).then_some((&pattern[1..end], flags))
}

/// How a pattern was written, and the flags that change which strings it matches.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    /// Written as `/…/flags`, so positions in the body are one character further in the text.
    literal: bool,
    ignore_case: bool,
    dot_all: bool,
    unicode: bool,
}

impl Flags {
    /// Positions in faults are relative to the flags text.
    fn parse(text: &str) -> Result<Flags, Fault> {
        let mut flags = Flags { literal: true, ..Flags::default() };
        for (at, c) in text.chars().enumerate() {
            if text.chars().take(at).any(|seen| seen == c) {
                return Err(Fault::at(at, format!("flag `{c}` is given twice")));
            }
            match c {
                'i' => flags.ignore_case = true,
                's' => flags.dot_all = true,
                'u' => flags.unicode = true,
                'd' | 'g' | 'm' | 'y' => {}
                'v' => {
                    return Err(Fault::at(at, "flag `v` (unicodeSets) is not supported; use `u` instead"));
                }
                _ => {
                    return Err(Fault::at(
                        at,
                        format!("unknown flag `{c}`; JavaScript's flags are d, g, i, m, s, u, v and y"),
                    ));
                }
            }
        }
        Ok(flags)
    }
}

/// A parse failure before it is tied to the whole pattern.
struct Fault {
    message: String,
    at: Option<usize>,
}

impl Fault {
    fn at(at: usize, message: impl Into<String>) -> Fault {
        Fault { message: message.into(), at: Some(at) }
    }

    fn general(message: impl Into<String>) -> Fault {
        Fault { message: message.into(), at: None }
    }
}

type Parsed<T> = Result<T, Fault>;

/// A parsed atom, before any quantifier.
struct Atom {
    hir: Hir,
    at: usize,
    /// Without `u`, JavaScript sees a character above U+FFFF as two UTF-16 units, so a quantifier
    /// after it repeats only the second one, which no Rust string can hold.
    astral: bool,
}

/// One item of a bracketed class.
enum ClassItem {
    Char(char),
    Set(ClassUnicode),
}

/// A recursive-descent parser for JavaScript's pattern grammar over the body of one pattern.
struct Parser {
    chars: Vec<char>,
    pos: usize,
    flags: Flags,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.pos += 1;
        }
        found
    }

    fn pattern(&mut self) -> Parsed<Hir> {
        let hir = self.disjunction(true)?;
        if self.pos < self.chars.len() {
            return Err(Fault::at(self.pos, "unmatched `)`: there is no `(` before it"));
        }
        Ok(hir)
    }

    /// `top` is true outside all groups, the only place where anchors are accepted.
    fn disjunction(&mut self, top: bool) -> Parsed<Hir> {
        let mut branches = vec![self.alternative(top)?];
        while self.eat('|') {
            branches.push(self.alternative(top)?);
        }
        // `rand_regex` rejects a whole alternation if one branch can never match.
        branches.retain(|branch| branch.properties().minimum_len().is_some());
        Ok(choice(branches))
    }

    fn alternative(&mut self, top: bool) -> Parsed<Hir> {
        let mut items = Vec::new();
        if top {
            while self.eat('^') {}
        }
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => break,
                '$' if top && self.anchors_end_branch() => {
                    while self.eat('$') {}
                    break;
                }
                '^' => {
                    return Err(Fault::at(
                        self.pos,
                        "anchor `^` is only supported at the start of the pattern or of a top-level alternative",
                    ));
                }
                '$' => {
                    return Err(Fault::at(
                        self.pos,
                        "anchor `$` is only supported at the end of the pattern or of a top-level alternative",
                    ));
                }
                _ => {
                    let atom = self.atom()?;
                    items.push(self.quantifier(atom)?);
                }
            }
        }
        Ok(Hir::concat(items))
    }

    fn anchors_end_branch(&self) -> bool {
        let rest = &self.chars[self.pos..];
        let dollars = rest.iter().take_while(|&&c| c == '$').count();
        matches!(rest.get(dollars), None | Some('|' | ')'))
    }

    fn atom(&mut self) -> Parsed<Atom> {
        let at = self.pos;
        let Some(c) = self.bump() else {
            return Err(Fault::at(at, "unexpected end of pattern"));
        };
        let hir = match c {
            '(' => self.group(at)?,
            '[' => {
                let class = self.class(at)?;
                self.class_hir(class)
            }
            '.' => {
                let mut class = ClassUnicode::new([ClassUnicodeRange::new('\0', char::MAX)]);
                if !self.flags.dot_all {
                    class.difference(&ClassUnicode::new(
                        ['\n', '\r', '\u{2028}', '\u{2029}'].map(|c| ClassUnicodeRange::new(c, c)),
                    ));
                }
                self.class_hir(class)
            }
            '\\' => return self.atom_escape(at),
            '*' | '+' | '?' => return Err(nothing_to_repeat(at, c)),
            '{' if quantifier_braces(&self.chars[at..]).is_some() => return Err(nothing_to_repeat(at, c)),
            c => return Ok(self.literal(c, at)),
        };
        Ok(Atom { hir, at, astral: false })
    }

    fn literal(&self, c: char, at: usize) -> Atom {
        let astral = !self.flags.unicode && c > '\u{FFFF}';
        let hir = if self.flags.ignore_case && !astral {
            let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
            self.fold_case(&mut class);
            self.class_hir(class)
        } else {
            Hir::literal(c.encode_utf8(&mut [0; 4]).as_bytes())
        };
        Atom { hir, at, astral }
    }

    fn quantifier(&mut self, atom: Atom) -> Parsed<Hir> {
        let at = self.pos;
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match quantifier_braces(&self.chars[at..]) {
                Some((min, max, len)) => {
                    self.pos += len - 1;
                    (min, max)
                }
                None => return Ok(atom.hir),
            },
            _ => return Ok(atom.hir),
        };
        self.pos += 1;
        // A lazy `?` changes which match is found, not which strings match.
        self.eat('?');
        let written: String = self.chars[at..self.pos].iter().collect();
        if atom.astral {
            return Err(Fault::at(
                atom.at,
                "without the `u` flag a quantifier after a character above U+FFFF repeats only its second UTF-16 half; add the `u` flag",
            ));
        }
        if max.is_some_and(|max| max < min) {
            return Err(Fault::at(at, format!("numbers out of order in quantifier `{written}`")));
        }
        let too_large = || Fault::at(at, format!("repetition count in `{written}` is too large"));
        let min = u32::try_from(min).map_err(|_| too_large())?;
        let max = match max {
            Some(max) => u32::try_from(max).map_err(|_| too_large())?,
            None => min.saturating_add(MAX_EXTRA_REPEAT),
        };
        if atom.hir.properties().minimum_len().is_none() {
            // Repeating something that never matches zero times still matches, which `rand_regex`
            // cannot compile.
            return Ok(if min == 0 { Hir::empty() } else { Hir::fail() });
        }
        Ok(Hir::repetition(Repetition { min, max: Some(max), greedy: true, sub: Box::new(atom.hir) }))
    }

    fn group(&mut self, at: usize) -> Parsed<Hir> {
        if self.eat('?') {
            match self.bump() {
                Some(':') => {}
                Some('=') => return Err(unsupported(at, "lookahead `(?=…)`")),
                Some('!') => return Err(unsupported(at, "negative lookahead `(?!…)`")),
                Some('<') if self.eat('=') => return Err(unsupported(at, "lookbehind `(?<=…)`")),
                Some('<') if self.eat('!') => return Err(unsupported(at, "negative lookbehind `(?<!…)`")),
                Some('<') => self.group_name(at)?,
                _ => {
                    return Err(Fault::at(
                        at,
                        "unsupported group `(?…`: only `(…)`, `(?:…)` and `(?<name>…)` groups are supported",
                    ));
                }
            }
        }
        if self.depth == MAX_NESTING {
            return Err(Fault::at(at, format!("groups are nested more than {MAX_NESTING} deep")));
        }
        self.depth += 1;
        let inner = self.disjunction(false)?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(Fault::at(at, "unclosed group: this `(` has no matching `)`"));
        }
        Ok(inner)
    }

    /// Skips the name of `(?<name>…)` after the `<`.
    fn group_name(&mut self, at: usize) -> Parsed<()> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c != '>' && c != ')') {
            self.pos += 1;
        }
        let name = &self.chars[start..self.pos];
        let valid = name.first().is_some_and(|&c| c.is_alphabetic() || c == '$' || c == '_')
            && name.iter().all(|&c| c.is_alphanumeric() || c == '$' || c == '_');
        if !self.eat('>') || !valid {
            return Err(Fault::at(at, "invalid group name: write a named group as `(?<name>…)`"));
        }
        Ok(())
    }

    /// An escape outside a class; `at` is the backslash.
    fn atom_escape(&mut self, at: usize) -> Parsed<Atom> {
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
    fn escape_class(&self, c: char) -> ClassUnicode {
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
    fn property(&mut self, at: usize, negated: bool) -> Parsed<ClassUnicode> {
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
    fn char_escape(&mut self, at: usize, in_class: bool) -> Parsed<char> {
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

    /// A bracketed class after its `[` at `at`, case-folded and negated as written.
    fn class(&mut self, at: usize) -> Parsed<ClassUnicode> {
        let negated = self.eat('^');
        let mut class = ClassUnicode::empty();
        let add = |class: &mut ClassUnicode, item: ClassItem| match item {
            ClassItem::Char(c) => class.push(ClassUnicodeRange::new(c, c)),
            ClassItem::Set(set) => class.union(&set),
        };
        loop {
            match self.peek() {
                None => return Err(Fault::at(at, "unclosed character class: this `[` has no matching `]`")),
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => {}
            }
            let first_at = self.pos;
            let first = self.class_item(at)?;
            let is_range = self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&c| c != ']');
            if !is_range {
                add(&mut class, first);
                continue;
            }
            self.pos += 1;
            match (first, self.class_item(at)?) {
                (ClassItem::Char(low), ClassItem::Char(high)) => {
                    if low > high {
                        return Err(Fault::at(
                            first_at,
                            format!("range out of order in character class: `{low}` comes after `{high}`"),
                        ));
                    }
                    class.push(ClassUnicodeRange::new(low, high));
                }
                // Annex B: a class escape cannot bound a range, so the `-` is literal.
                (first, second) => {
                    add(&mut class, first);
                    add(&mut class, ClassItem::Char('-'));
                    add(&mut class, second);
                }
            }
        }
        // JavaScript compares case-folded characters against the written set, so folding comes
        // before negation.
        if self.flags.ignore_case {
            self.fold_case(&mut class);
        }
        if negated {
            class.negate();
        }
        Ok(class)
    }

    /// One character or escape inside a class opened at `class_at`.
    fn class_item(&mut self, class_at: usize) -> Parsed<ClassItem> {
        let at = self.pos;
        let Some(c) = self.bump() else {
            return Err(Fault::at(class_at, "unclosed character class: this `[` has no matching `]`"));
        };
        let c = if c == '\\' {
            match self.peek() {
                Some('b') => {
                    self.pos += 1;
                    '\u{8}'
                }
                Some('-') => {
                    self.pos += 1;
                    '-'
                }
                Some(e @ ('d' | 'D' | 'w' | 'W' | 's' | 'S')) => {
                    self.pos += 1;
                    return Ok(ClassItem::Set(self.escape_class(e)));
                }
                Some(e @ ('p' | 'P')) if self.flags.unicode => {
                    self.pos += 1;
                    return Ok(ClassItem::Set(self.property(at, e == 'P')?));
                }
                _ => self.char_escape(at, true)?,
            }
        } else {
            c
        };
        if !self.flags.unicode && c > '\u{FFFF}' {
            return Err(Fault::at(
                at,
                "without the `u` flag a character above U+FFFF in a class stands for its two UTF-16 halves; add the `u` flag",
            ));
        }
        Ok(ClassItem::Char(c))
    }

    /// Adds every character JavaScript's `i` flag treats as equal to one in `class`.
    fn fold_case(&self, class: &mut ClassUnicode) {
        // With `u`, JavaScript folds by Unicode simple case folding, which regex-syntax implements.
        if self.flags.unicode && class.try_case_fold_simple().is_ok() {
            return;
        }
        let groups = case_groups();
        let mut extra = Vec::new();
        for range in class.ranges() {
            let first = groups.members.partition_point(|&(c, _)| c < range.start());
            for &(_, group) in groups.members[first..].iter().take_while(|&&(c, _)| c <= range.end()) {
                extra.extend(groups.groups[group].iter().map(|&c| ClassUnicodeRange::new(c, c)));
            }
        }
        class.union(&ClassUnicode::new(extra));
    }

    /// Turns a finished class into HIR sampled readably.
    fn class_hir(&self, mut class: ClassUnicode) -> Hir {
        if !self.flags.unicode {
            // Without `u` a class matches one UTF-16 unit, so a character above U+FFFF would not match.
            class.intersect(&ClassUnicode::new([ClassUnicodeRange::new('\0', '\u{FFFF}')]));
        }
        let size: usize = class.ranges().iter().map(|range| range.len()).sum();
        let mut printable = ClassUnicode::new([ClassUnicodeRange::new(' ', '~')]);
        printable.intersect(&class);
        // Sampling is uniform over code points, so `.`, `\D` or `[^,]` would almost never give ASCII;
        // half of the draws come from the printable ASCII part instead.
        if size > LARGE_CLASS && !printable.ranges().is_empty() {
            choice(vec![Hir::class(Class::Unicode(printable)), Hir::class(Class::Unicode(class))])
        } else {
            Hir::class(Class::Unicode(class))
        }
    }
}

/// An alternation whose branches stay equally likely. `Hir::alternation` alone merges single-character
/// branches into one class and lifts common prefixes, which would reweight them; a capture around each
/// branch prevents that and is transparent to `rand_regex`.
fn choice(branches: Vec<Hir>) -> Hir {
    if branches.len() < 2 {
        return Hir::alternation(branches);
    }
    Hir::alternation(
        branches.into_iter().map(|sub| Hir::capture(Capture { index: 0, name: None, sub: Box::new(sub) })).collect(),
    )
}

/// Reads `{n}`, `{n,}` or `{n,m}` at the start of `chars`: the counts and how many characters it
/// spans. `None` when it is not a quantifier, so (by Annex B) a literal `{`.
fn quantifier_braces(chars: &[char]) -> Option<(u64, Option<u64>, usize)> {
    let number = |from: usize| -> (Option<u64>, usize) {
        let digits = chars[from..].iter().take_while(|c| c.is_ascii_digit()).count();
        let value = chars[from..from + digits]
            .iter()
            .try_fold(0u64, |value, c| Some(value.saturating_mul(10).saturating_add(u64::from(c.to_digit(10)?))));
        (value.filter(|_| digits > 0), from + digits)
    };
    if chars.first() != Some(&'{') {
        return None;
    }
    let (min, mut end) = number(1);
    let min = min?;
    let max = if chars.get(end) == Some(&',') {
        let (max, after) = number(end + 1);
        end = after;
        max
    } else {
        Some(min)
    };
    (chars.get(end) == Some(&'}')).then_some((min, max, end + 1))
}

fn nothing_to_repeat(at: usize, c: char) -> Fault {
    Fault::at(at, format!("nothing to repeat: `{c}` must follow a character, class or group"))
}

fn unsupported(at: usize, construct: &str) -> Fault {
    Fault::at(at, format!("{construct} is not supported in a generator pattern"))
}

fn lone_surrogate(at: usize, unit: u32) -> Fault {
    Fault::at(at, format!("lone surrogate `\\u{unit:04X}` is not supported: generated strings hold whole characters"))
}

/// Characters that JavaScript's `i` flag without `u` treats as equal, grouped.
struct CaseGroups {
    /// Every member of a group with its group's index, sorted by character.
    members: Vec<(char, usize)>,
    groups: Vec<Vec<char>>,
}

/// Groups by JavaScript's non-Unicode `Canonicalize` (ES2024 22.2.2.7.3): a UTF-16 unit is upper-cased,
/// unless that takes more than one unit or takes a non-ASCII unit to ASCII.
fn case_groups() -> &'static CaseGroups {
    static GROUPS: OnceLock<CaseGroups> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let canonicalize = |c: char| {
            let mut upper = c.to_uppercase();
            match (upper.next(), upper.next()) {
                (Some(u), None) if u <= '\u{FFFF}' && (c.is_ascii() || !u.is_ascii()) => u,
                _ => c,
            }
        };
        let mut pairs: Vec<(char, char)> = ('\0'..='\u{FFFF}')
            .filter_map(|c| {
                let canonical = canonicalize(c);
                (canonical != c).then_some((canonical, c))
            })
            .collect();
        pairs.sort_unstable();
        let mut groups: Vec<Vec<char>> = Vec::new();
        for chunk in pairs.chunk_by(|a, b| a.0 == b.0) {
            let canonical = chunk[0].0;
            let mut group: Vec<char> = chunk.iter().map(|&(_, c)| c).collect();
            if canonicalize(canonical) == canonical {
                group.push(canonical);
            }
            if group.len() > 1 {
                groups.push(group);
            }
        }
        let mut members: Vec<(char, usize)> =
            groups.iter().enumerate().flat_map(|(index, group)| group.iter().map(move |&c| (c, index))).collect();
        members.sort_unstable();
        CaseGroups { members, groups }
    })
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng as _};

    use super::*;

    fn generator(pattern: &str) -> RegexGenerator {
        RegexGenerator::parse(pattern).unwrap_or_else(|e| panic!("{e}"))
    }

    fn samples(pattern: &str, count: usize) -> Vec<String> {
        let generator = generator(pattern);
        let mut rng = StdRng::seed_from_u64(7);
        (0..count).map(|_| generator.sample(&mut rng)).collect()
    }

    fn error(pattern: &str) -> RegexError {
        match RegexGenerator::parse(pattern) {
            Ok(_) => panic!("`{pattern}` should be rejected"),
            Err(e) => e,
        }
    }

    #[test]
    fn digit_and_word_classes_are_ascii() {
        for s in samples(r"\d{13}", 200) {
            assert!(s.len() == 13 && s.bytes().all(|b| b.is_ascii_digit()), "{s:?}");
        }
        for s in samples(r"\w{5}", 200) {
            assert!(s.len() == 5 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'), "{s:?}");
        }
        for s in samples(r"\s", 200) {
            assert!(s.len() == 1 && s.bytes().all(|b| b.is_ascii_whitespace() || b == 0x0B), "{s:?}");
        }
    }

    #[test]
    fn anchors_are_stripped_and_literals_read() {
        assert!(samples(r"/^\d{3}$/", 50).iter().all(|s| s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit())));
        assert!(samples("^abc$", 5).iter().all(|s| s == "abc"));
        let branches = samples("^ab$|^cd$$", 100);
        assert!(branches.iter().all(|s| s == "ab" || s == "cd"));
        assert!(branches.iter().any(|s| s == "ab") && branches.iter().any(|s| s == "cd"));
        assert!(samples(r"/a\/b/g", 5).iter().all(|s| s == "a/b"));
        // Not a literal: nothing but flags may follow the closing slash.
        assert!(samples("/usr/lib/x", 5).iter().all(|s| s == "/usr/lib/x"));
        assert_eq!(generator("/^a$/m").pattern(), "/^a$/m");
        assert_eq!(format!("{:?}", generator("/^a$/m")), r#"RegexGenerator { pattern: "/^a$/m", .. }"#);
    }

    #[test]
    fn flags() {
        let cased = samples("/ab/i", 200);
        assert!(cased.iter().all(|s| s.eq_ignore_ascii_case("ab")));
        for variant in ["ab", "aB", "Ab", "AB"] {
            assert!(cased.iter().any(|s| s == variant), "{variant} never drawn");
        }
        // Without `u`, JavaScript's `i` never maps a non-ASCII character to ASCII: no Kelvin sign.
        assert!(samples("/k/i", 300).iter().all(|s| s == "k" || s == "K"));
        assert!(samples("/k/iu", 300).iter().any(|s| s == "\u{212A}"));
        assert!(samples("/é/i", 100).iter().any(|s| s == "É"));
        assert!(samples("/[^a-z]/i", 500).iter().all(|s| !s.chars().any(|c| c.is_ascii_alphabetic())));
        assert!(samples(".{40}", 100).iter().all(|s| !s.contains(['\n', '\r', '\u{2028}', '\u{2029}'])));
        assert!(samples(".{40}", 100).iter().all(|s| s.chars().all(|c| c <= '\u{FFFF}')));
        assert!(samples("/.{40}/u", 100).iter().any(|s| s.chars().any(|c| c > '\u{FFFF}')));
        assert!(error("/a/v").message().contains("`v`"));
        assert!(error("/a/q").message().contains("unknown flag `q`"));
        let twice = error("/abc/gig");
        assert!(twice.message().contains("twice") && twice.position() == Some(7), "{twice}");
    }

    #[test]
    fn unbounded_repetition_is_capped() {
        for (pattern, min, max) in [("a*", 0, 8), ("a+", 1, 9), ("a{2,}", 2, 10), ("(?:ab)*", 0, 16)] {
            let lengths: Vec<usize> = samples(pattern, 500).iter().map(String::len).collect();
            assert_eq!(lengths.iter().min(), Some(&min), "{pattern}");
            assert_eq!(lengths.iter().max(), Some(&max), "{pattern}");
        }
    }

    #[test]
    fn branches_are_equally_likely() {
        let drawn = samples("a|b|[c-z]|cat", 4000);
        for (name, hit) in [
            ("a", drawn.iter().filter(|s| *s == "a").count()),
            ("b", drawn.iter().filter(|s| *s == "b").count()),
            ("class", drawn.iter().filter(|s| s.len() == 1 && s.as_str() > "b").count()),
            ("cat", drawn.iter().filter(|s| *s == "cat").count()),
        ] {
            assert!((800..1200).contains(&hit), "{name}: {hit}");
        }
    }

    #[test]
    fn large_classes_favour_printable_ascii() {
        let drawn = samples("[^,]", 1000);
        let ascii = drawn.iter().filter(|s| s.len() == 1 && (' '..='~').contains(&s.chars().next().unwrap())).count();
        assert!((400..650).contains(&ascii), "{ascii}");
        assert!(drawn.iter().all(|s| s != ","));
    }

    #[test]
    fn invalid_patterns_are_explained() {
        for (pattern, needle, position) in [
            ("ab(c", "unclosed group", Some(2)),
            ("/ab(c/", "unclosed group", Some(3)),
            ("ab)", "unmatched `)`", Some(2)),
            ("a{3,2}", "out of order", Some(1)),
            ("*a", "nothing to repeat", Some(0)),
            ("a|{2}", "nothing to repeat", Some(2)),
            ("x(?=a)", "lookahead `(?=…)`", Some(1)),
            ("(?!a)", "negative lookahead", Some(0)),
            ("(?<=a)b", "lookbehind", Some(0)),
            ("(?<!a)b", "negative lookbehind", Some(0)),
            ("(a)\\1", "backreference `\\1`", Some(3)),
            ("(?<x>a)\\k<x>", "named backreference", Some(7)),
            ("a^b", "anchor `^`", Some(1)),
            ("(^a)", "anchor `^`", Some(1)),
            ("a$b", "anchor `$`", Some(1)),
            ("\\bword", "word boundary `\\b`", Some(0)),
            ("[abc", "unclosed character class", Some(0)),
            ("[z-a]", "range out of order", Some(1)),
            ("a[]", "never match", None),
            ("a[^\\s\\S]|[]", "never match", None),
            ("a{20000}", "longer than", None),
            ("(a{1000}){1000}", "longer than", None),
            ("a{99999999999}", "too large", Some(1)),
            ("ab\\", "lone `\\`", Some(2)),
            ("(?i)a", "unsupported group", Some(0)),
            ("(?<1>a)", "group name", Some(0)),
            ("/\\p{Nope}/u", "unknown Unicode property `Nope`", Some(1)),
            ("/\\uD800/", "lone surrogate", Some(1)),
            ("/\\u{D800}/u", "lone surrogate", Some(1)),
            ("😀+", "`u` flag", Some(0)),
            ("[😀]", "`u` flag", Some(1)),
            ("\\01", "octal", Some(0)),
        ] {
            let e = error(pattern);
            assert!(e.message().contains(needle), "`{pattern}`: {e}");
            assert_eq!(e.position(), position, "`{pattern}`: {e}");
            let shown = e.to_string();
            assert!(shown.contains(pattern) && shown.contains(needle), "{shown}");
        }
        assert_eq!(
            error("ab(c").to_string(),
            "invalid regex `ab(c`: unclosed group: this `(` has no matching `)` (at character 3)"
        );
        assert!(error(&"(".repeat(200)).message().contains("nested"));
    }

    #[test]
    fn annex_b_forms_are_literals() {
        for (pattern, expected) in [
            ("x{", "x{"),
            ("a{2}}", "aa}"),
            ("{a}", "{a}"),
            ("]", "]"),
            ("\\c", "\\c"),
            ("\\ca", "\u{1}"),
            ("\\k", "k"),
            ("\\x41\\u0042\\x4", "ABx4"),
            ("\\uD83D\\uDE00", "😀"),
            ("/\\u{1F600}/u", "😀"),
            ("[\\b]", "\u{8}"),
            ("\\0", "\0"),
            ("(?<year>19)(?:9)9", "1999"),
        ] {
            assert!(samples(pattern, 3).iter().all(|s| s == expected), "`{pattern}`");
        }
        assert!(samples("[\\d-z]", 300).iter().all(|s| s == "-" || s == "z" || s.bytes().all(|b| b.is_ascii_digit())));
    }

    #[test]
    fn parsing_arbitrary_text_never_panics() {
        const PIECES: [&str; 40] = [
            "a", "Z", "0", "9", "(", ")", "[", "]", "{", "}", "|", "*", "+", "?", ".", "^", "$", "\\", "-", ",", "\\d",
            "\\W", "\\u{", "\\uD83D", "\\x", "\\c", "\\k<", "\\p{L}", "(?:", "(?<n>", "(?=", "{2,", "{1,3}", "😀", "é",
            "/", "/i", "/u", "\\b", "[^",
        ];
        let mut rng = StdRng::seed_from_u64(1);
        let mut accepted = 0;
        for _ in 0..20_000 {
            let len = rng.random_range(0..12);
            let pattern: String = (0..len).map(|_| PIECES[rng.random_range(0..PIECES.len())]).collect();
            if let Ok(generator) = RegexGenerator::parse(&pattern) {
                accepted += 1;
                for _ in 0..3 {
                    assert!(generator.sample(&mut rng).len() <= MAX_OUTPUT_BYTES);
                }
            }
        }
        assert!(accepted > 1000, "{accepted}");
    }

    /// Every sample must match in JavaScript itself, which is the semantics promised.
    #[test]
    fn samples_match_in_node() {
        let patterns = [
            r"\d{3}-[A-Z]+",
            r"/^\d{3}$/",
            r"[a-z]{2,5}@[a-z]+\.(com|org)",
            r"\w+\s\W\D\S",
            r".{0,10}",
            r"/.{5}/s",
            r"[^abc]{3}",
            r"[\d\-x]+",
            r"[\w-]",
            r"[\d-z]",
            r"a|b|cd",
            r"(?:ab)+c*?",
            r"(?<year>\d{4})-\d\d",
            r"\x41\u0042\cJ[\cJ\c_]",
            r"[\b]\0",
            r"x{",
            r"a{2}}",
            r"]",
            r"\c",
            r"\k",
            r"/[^]/",
            r"/café/i",
            r"/[a-f]+/i",
            r"/[^a-z]/i",
            r"/\W/i",
            r"/\W\w/iu",
            r"/k[^k]/iu",
            r"/ſ[^s]/i",
            r"/\p{Lu}{3}/u",
            r"/\P{L}[\p{Nd}x]/u",
            r"/\P{Lu}/iu",
            r"/\p{Script=Greek}+/u",
            r"/\u{1F600}+/u",
            r"😀",
            r"/.+/u",
            r"/[😀-😂]/u",
            r"[\s\S]",
            r"[^\s]",
            r"\uD83D\uDE00",
            r"/\//",
            r"[/]",
            r"(|a)(a|)+",
            r"a??b{0}[]?",
            r"^a|b$",
            r"/[\w$]+/gimsyd",
        ];
        let mut rng = StdRng::seed_from_u64(13);
        let cases: Vec<serde_json::Value> = patterns
            .iter()
            .map(|pattern| {
                let generator = generator(pattern);
                let (body, flags) = split_literal(pattern).unwrap_or((pattern, ""));
                let drawn: Vec<String> = (0..100).map(|_| generator.sample(&mut rng)).collect();
                serde_json::json!({ "body": body, "flags": flags.replace(['g', 'y'], ""), "samples": drawn })
            })
            .collect();
        let script = format!(
            "const bad = [];\n\
             for (const c of {}) {{\n\
               const re = new RegExp('^(?:' + c.body + ')$', c.flags);\n\
               for (const s of c.samples) if (!re.test(s)) bad.push([c.body, s]);\n\
             }}\n\
             console.log(JSON.stringify(bad.slice(0, 10)));",
            serde_json::Value::Array(cases)
        );
        assert_eq!(crate::js::literal::tests::node(&script), "[]");
    }
}
