//! The parser of JavaScript's pattern syntax: alternatives, atoms, quantifiers and groups, read into
//! `regex_syntax` HIR as they are met.

use regex_syntax::hir::{Capture, ClassUnicode, ClassUnicodeRange, Hir, Repetition};

use super::{Flags, MAX_EXTRA_REPEAT, MAX_NESTING};

/// A parse failure before it is tied to the whole pattern.
pub(super) struct Fault {
    pub(super) message: String,
    pub(super) at: Option<usize>,
}

impl Fault {
    pub(super) fn at(at: usize, message: impl Into<String>) -> Fault {
        Fault { message: message.into(), at: Some(at) }
    }

    pub(super) fn general(message: impl Into<String>) -> Fault {
        Fault { message: message.into(), at: None }
    }
}

pub(super) type Parsed<T> = Result<T, Fault>;

/// A parsed atom, before any quantifier.
pub(super) struct Atom {
    pub(super) hir: Hir,
    pub(super) at: usize,
    /// Without `u`, JavaScript sees a character above U+FFFF as two UTF-16 units, so a quantifier
    /// after it repeats only the second one, which no Rust string can hold.
    pub(super) astral: bool,
}

/// A recursive-descent parser for JavaScript's pattern grammar over the body of one pattern.
pub(super) struct Parser {
    pub(super) chars: Vec<char>,
    pub(super) pos: usize,
    pub(super) flags: Flags,
    pub(super) depth: usize,
}

impl Parser {
    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    pub(super) fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.pos += 1;
        }
        found
    }

    pub(super) fn pattern(&mut self) -> Parsed<Hir> {
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

    pub(super) fn literal(&self, c: char, at: usize) -> Atom {
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
}

/// An alternation whose branches stay equally likely. `Hir::alternation` alone merges single-character
/// branches into one class and lifts common prefixes, which would reweight them; a capture around each
/// branch prevents that and is transparent to `rand_regex`.
pub(super) fn choice(branches: Vec<Hir>) -> Hir {
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

pub(super) fn nothing_to_repeat(at: usize, c: char) -> Fault {
    Fault::at(at, format!("nothing to repeat: `{c}` must follow a character, class or group"))
}

pub(super) fn unsupported(at: usize, construct: &str) -> Fault {
    Fault::at(at, format!("{construct} is not supported in a generator pattern"))
}

pub(super) fn lone_surrogate(at: usize, unit: u32) -> Fault {
    Fault::at(at, format!("lone surrogate `\\u{unit:04X}` is not supported: generated strings hold whole characters"))
}
