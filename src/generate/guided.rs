//! Guided primitive inputs: the constants mined from the method under test and its class, mutated
//! (fuzzed) part of the time, mixed with the default random values.
//!
//! Numbers come as mined or moved by a step (±1, negated, doubled, halved, a Gaussian step) to probe
//! boundaries like `index >= this.length`. Strings come as mined, generated from the code's own regular
//! expressions (a `/^\d{13}$/` test yields 13-digit strings, sometimes with a mined literal such as
//! `'978'` written over their start), spelled from the characters of short literals at mined lengths,
//! as digits at mined lengths (`if (id.length < 13) return`; now and then with one letter among them,
//! for the check that refuses a character that is not a digit), or edited by inserting, deleting or
//! replacing characters. Now and then a string is the literals of one condition guarding a statement no
//! test covered yet, together (`s.indexOf('KKK') > -1 && s.indexOf('AA') > -1` gives `"KKKAA"`): a
//! conjunction of containment tests that random draws of single literals meet once in thousands of
//! candidates, and each such draw aims at a different uncovered statement.

use std::cell::RefCell;

use rand::Rng;
use rand::RngExt;

use crate::analysis::constants::Constant;
use crate::js::regex::RegexGenerator;

/// Chance of a mined (possibly fuzzed) number when the pool has numbers.
const MINED_NUMBER: f64 = 0.4;
/// Chance of a guided string when the pool has strings or patterns.
const GUIDED_STRING: f64 = 0.5;
/// Chance of a string with a character whose code is a mined number, when there are such characters.
const CODE_CHARACTER: f64 = 0.1;
/// Longest string spelled from mined characters.
const MAX_SPELLED: usize = 32;
/// Chance that digits at a mined length have one letter among them: code that parses an identifier
/// digit by digit refuses one that is long enough but not all digits (`isNaN(parseInt(c, 10))`), a
/// call search measures no distance to, and a class without string literals has none to write over
/// the digits.
const NOT_A_DIGIT: f64 = 0.25;
/// Longest mined string taken for a name in a composed string.
const MAX_WORD: usize = 24;
/// How many sets of joiners [`ConstantPool::word`] keeps the words of.
const MEMO_JOINERS: usize = 8;
/// Chance, among guided strings, of the literals of a condition guarding a statement not covered yet.
const TARGETED: f64 = 0.25;

/// The character a mined number may be the code of, past ASCII (which default strings have): code
/// that reads `charCodeAt` compares with the bounds of UTF-8's lengths (`0x80`, `0x800`), of
/// surrogates (`0xd800`) and of bytes (`a > 255`), which no ASCII string crosses. A surrogate's code
/// becomes a character written with that surrogate (a string holds whole characters only).
fn character_of_code(n: f64) -> Option<char> {
    if n.fract() != 0.0 || !(128.0..=f64::from(u32::from(char::MAX))).contains(&n) {
        return None;
    }
    let code = n as u32;
    let code = match code {
        0xd800..=0xdbff => 0x10000 + ((code - 0xd800) << 10),
        0xdc00..=0xdfff => 0x10000 + (code - 0xdc00),
        _ => code,
    };
    char::from_u32(code)
}

/// Sorts `characters` and drops repeats: a character is as likely as any other, however often mined.
fn sort_unique(characters: &mut Vec<char>) {
    characters.sort_unstable();
    characters.dedup();
}

/// The constants one method under test draws its guided inputs from.
#[derive(Debug, Clone, Default)]
pub struct ConstantPool {
    numbers: Vec<f64>,
    strings: Vec<String>,
    patterns: Vec<RegexGenerator>,
    /// The regular expressions of the code, as written: pattern and flags (for `RegExp` parameters).
    regexes: Vec<(String, String)>,
    alphabet: Vec<char>,
    /// Characters past ASCII whose codes are mined numbers (see [`character_of_code`]); kept apart from
    /// the alphabet, whose strings they would dilute (base64's `'='` among its symbols).
    code_characters: Vec<char>,
    /// Whether the method reads character codes, where the code characters are worth their share of
    /// strings (see [`ConstantPool::reading_character_codes`]).
    reads_codes: bool,
    lengths: Vec<usize>,
    /// Per condition of the method that compares with string literals, the statement (an offset into
    /// the method's statements) one of its outcomes guards and the literals joined; those whose
    /// statement is covered are dropped (see [`ConstantPool::retire`]).
    targets: Vec<(u32, String)>,
    /// The indices of the strings [`ConstantPool::word`] draws from, by the joiners asked with: it is
    /// asked once or more per composed argument, and filtering the strings anew each time was much of
    /// generating one on a class of many constants. Emptied when the strings change.
    words: RefCell<Vec<(Vec<String>, Vec<usize>)>>,
}

impl ConstantPool {
    /// A pool of `constants`; those listed twice are drawn twice as often (the method's own constants
    /// are passed along with its class's).
    pub(crate) fn new<'a>(constants: impl IntoIterator<Item = &'a Constant>) -> ConstantPool {
        let mut pool = ConstantPool::default();
        for constant in constants {
            match constant {
                Constant::Number(n) => {
                    pool.numbers.push(*n);
                    if n.fract() == 0.0 && (0.0..=MAX_SPELLED as f64).contains(n) {
                        pool.lengths.push(*n as usize);
                    }
                    // Both sides of a bound: `c < 0x80` and `a > 255` alike.
                    pool.code_characters.extend(character_of_code(*n));
                    pool.code_characters.extend(character_of_code(*n + 1.0));
                }
                Constant::String(s) => {
                    if s.chars().count() <= 3 {
                        pool.alphabet.extend(s.chars());
                    }
                    pool.strings.push(s.clone());
                }
                Constant::Regex { pattern, flags } => {
                    pool.regexes.push((pattern.clone(), flags.clone()));
                    // A pattern the generator cannot sample (lookarounds, back-references) is just not used.
                    if let Ok(regex) = RegexGenerator::parse(&format!("/{pattern}/{flags}")) {
                        pool.patterns.push(regex);
                    }
                }
            }
        }
        sort_unique(&mut pool.alphabet);
        sort_unique(&mut pool.code_characters);
        pool
    }

    /// This pool, for a method that reads character codes (`charCodeAt`) or not: only where it does
    /// are strings given characters whose codes are mined numbers (elsewhere they only take strings
    /// from the rest of the pool: base64's `decode` wants its own symbols).
    pub(crate) fn reading_character_codes(mut self, reads: bool) -> ConstantPool {
        self.reads_codes = reads;
        self
    }

    /// This pool, with the literals of the conditions guarding the method's statements: per branch
    /// outcome, the statement it guards and the string literals of its condition, in order.
    pub(crate) fn aiming_at(mut self, targets: impl IntoIterator<Item = (u32, Vec<String>)>) -> ConstantPool {
        self.targets = targets.into_iter().filter(|(_, l)| !l.is_empty()).map(|(s, l)| (s, l.concat())).collect();
        self.targets.sort_unstable();
        self.targets.dedup();
        self
    }

    /// Drops the targets whose statement `covered` (by offset into the method's statements) marks.
    pub(crate) fn retire(&mut self, covered: &[bool]) {
        self.targets.retain(|(s, _)| !covered.get(*s as usize).copied().unwrap_or(true));
    }

    /// Adds the values of `other` to this pool (recorded values join the mined constants).
    pub(crate) fn merge(&mut self, other: ConstantPool) {
        self.numbers.extend(other.numbers);
        self.strings.extend(other.strings);
        self.words.get_mut().clear();
        self.patterns.extend(other.patterns);
        self.lengths.extend(other.lengths);
        self.alphabet.extend(other.alphabet);
        sort_unique(&mut self.alphabet);
        self.code_characters.extend(other.code_characters);
        sort_unique(&mut self.code_characters);
    }

    /// A number: mined and maybe moved, or from `fallback`.
    pub(crate) fn number<R: Rng + ?Sized>(&self, rng: &mut R, fallback: impl FnOnce(&mut R) -> f64) -> f64 {
        if self.numbers.is_empty() || !rng.random_bool(MINED_NUMBER) {
            return fallback(rng);
        }
        let n = self.numbers[rng.random_range(0..self.numbers.len())];
        match rng.random_range(0..10u32) {
            0..5 => n,
            5 => n + 1.0,
            6 => n - 1.0,
            7 => -n,
            8 => {
                if rng.random_bool(0.5) {
                    n * 2.0
                } else {
                    (n / 2.0).trunc()
                }
            }
            _ => (n + gaussian(rng) * n.abs().max(1.0) / 4.0).round(),
        }
    }

    /// A regular expression's source and flags for a `RegExp` parameter: one of the code's own half of
    /// the time when it has some, else `None` (the caller takes a default).
    pub(crate) fn regex<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<(&str, &str)> {
        if self.regexes.is_empty() || !rng.random_bool(0.5) {
            return None;
        }
        let (pattern, flags) = &self.regexes[rng.random_range(0..self.regexes.len())];
        Some((pattern, flags))
    }

    /// A string: mined, from a mined pattern, spelled from mined characters, digits at a mined length (a
    /// card number, an ISBN, an identifier), edited, or from `fallback`, sometimes with a character
    /// whose code is a mined number.
    pub(crate) fn string<R: Rng + ?Sized>(&self, rng: &mut R, fallback: impl FnOnce(&mut R) -> String) -> String {
        if self.reads_codes && !self.code_characters.is_empty() && rng.random_bool(CODE_CHARACTER) {
            let mut chars: Vec<char> = fallback(rng).chars().collect();
            let at = rng.random_range(0..=chars.len());
            chars.insert(at, self.code_characters[rng.random_range(0..self.code_characters.len())]);
            return chars.into_iter().collect();
        }
        let nothing = self.strings.is_empty() && self.patterns.is_empty() && self.lengths.is_empty();
        if nothing || !rng.random_bool(GUIDED_STRING) {
            return fallback(rng);
        }
        if !self.targets.is_empty() && rng.random_bool(TARGETED) {
            return self.targets[rng.random_range(0..self.targets.len())].1.clone();
        }
        match rng.random_range(0..5u32) {
            0 if !self.patterns.is_empty() => {
                let text = self.patterns[rng.random_range(0..self.patterns.len())].sample(rng);
                self.mined_prefix(text, rng)
            }
            1 if !self.alphabet.is_empty() => {
                let length = if self.lengths.is_empty() {
                    rng.random_range(0..=8)
                } else {
                    self.lengths[rng.random_range(0..self.lengths.len())]
                };
                (0..length).map(|_| self.alphabet[rng.random_range(0..self.alphabet.len())]).collect()
            }
            2 if !self.strings.is_empty() => self.edit(&self.strings[rng.random_range(0..self.strings.len())], rng),
            3 if !self.lengths.is_empty() => {
                let length = self.lengths[rng.random_range(0..self.lengths.len())];
                let mut digits: Vec<char> = (0..length).map(|_| char::from(b'0' + rng.random_range(0..10u8))).collect();
                if !digits.is_empty() && rng.random_bool(NOT_A_DIGIT) {
                    let at = rng.random_range(0..digits.len());
                    digits[at] = char::from(rng.random_range(b'a'..=b'z'));
                }
                self.mined_prefix(digits.into_iter().collect(), rng)
            }
            _ if !self.strings.is_empty() => self.strings[rng.random_range(0..self.strings.len())].clone(),
            _ => fallback(rng),
        }
    }

    /// A string one of the code's own regular expressions matches, if it has any.
    pub(crate) fn pattern_sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<String> {
        if self.patterns.is_empty() {
            return None;
        }
        Some(self.patterns[rng.random_range(0..self.patterns.len())].sample(rng))
    }

    /// A mined string that none of `joiners` cuts, if there is one: a name the code may compare the
    /// pieces of its input with (`'max-age'`), for strings composed of those pieces (see
    /// [`super::composed`]).
    pub(crate) fn word<R: Rng + ?Sized>(&self, rng: &mut R, joiners: &[String]) -> Option<&str> {
        let mut memo = self.words.borrow_mut();
        let at = match memo.iter().position(|(asked, _)| asked == joiners) {
            Some(at) => at,
            None => {
                let is_word = |s: &String| {
                    !s.trim().is_empty()
                        && s.chars().count() <= MAX_WORD
                        && !joiners.iter().any(|j| s.contains(j.as_str()))
                };
                let words = self.strings.iter().enumerate().filter(|(_, s)| is_word(s)).map(|(i, _)| i).collect();
                // A method's parameters have a few sets of joiners between them.
                if memo.len() >= MEMO_JOINERS {
                    memo.clear();
                }
                memo.push((joiners.to_vec(), words));
                memo.len() - 1
            }
        };
        let words = &memo[at].1;
        if words.is_empty() {
            return None;
        }
        Some(self.strings[words[rng.random_range(0..words.len())]].as_str())
    }

    /// `text`, sometimes with a mined string written over its start (a `978` prefix on 13 digits).
    fn mined_prefix<R: Rng + ?Sized>(&self, mut text: String, rng: &mut R) -> String {
        if !self.strings.is_empty() && rng.random_bool(0.4) {
            let prefix = &self.strings[rng.random_range(0..self.strings.len())];
            if prefix.len() <= text.len() && text.is_char_boundary(prefix.len()) {
                text.replace_range(..prefix.len(), prefix);
            }
        }
        text
    }

    /// How many items a list gets (the pieces of a split argument): a mined small number half of the
    /// time (`cards.length !== 5`), else 1 to 6.
    pub(crate) fn count<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let mined: Vec<usize> = self.lengths.iter().copied().filter(|n| *n > 0).collect();
        if !mined.is_empty() && rng.random_bool(0.5) {
            return mined[rng.random_range(0..mined.len())];
        }
        rng.random_range(1..=6)
    }

    /// One random edit of `text`: insert, delete or replace a character, take a substring, or append
    /// another mined string.
    fn edit<R: Rng + ?Sized>(&self, text: &str, rng: &mut R) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        let any_char = |rng: &mut R| {
            if !self.alphabet.is_empty() && rng.random_bool(0.5) {
                self.alphabet[rng.random_range(0..self.alphabet.len())]
            } else {
                char::from(rng.random_range(b' '..=b'~'))
            }
        };
        match rng.random_range(0..5u32) {
            0 => {
                let at = rng.random_range(0..=chars.len());
                chars.insert(at, any_char(rng));
            }
            1 if !chars.is_empty() => {
                chars.remove(rng.random_range(0..chars.len()));
            }
            2 if !chars.is_empty() => {
                let at = rng.random_range(0..chars.len());
                chars[at] = any_char(rng);
            }
            3 if !chars.is_empty() => {
                let start = rng.random_range(0..chars.len());
                let end = rng.random_range(start..=chars.len());
                chars = chars[start..end].to_vec();
            }
            _ => chars.extend(self.strings[rng.random_range(0..self.strings.len())].chars()),
        }
        chars.into_iter().collect()
    }
}

/// A standard normal sample (Box–Muller).
fn gaussian<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u: f64 = rng.random_range(f64::EPSILON..1.0);
    let v: f64 = rng.random_range(0.0..1.0);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn mined_shapes_come_out() {
        let isbn = Constant::Regex { pattern: "^\\d{13}$".into(), flags: String::new() };
        let constants = [isbn, Constant::String("978".into()), Constant::Number(13.0)];
        let pool = ConstantPool::new(constants.iter());
        let mut rng = StdRng::seed_from_u64(1);
        let strings: Vec<String> = (0..2000).map(|_| pool.string(&mut rng, |_| String::from("x"))).collect();
        let isbn_like = |s: &&String| s.len() == 13 && s.starts_with("978") && s.bytes().all(|b| b.is_ascii_digit());
        assert!(strings.iter().filter(isbn_like).count() > 20, "13-digit strings with the mined prefix");
        assert!(strings.iter().any(|s| s == "978"));
        assert!(strings.iter().any(|s| s == "x"), "the fallback still gets its share");
        let numbers: Vec<f64> = (0..2000).map(|_| pool.number(&mut rng, |_| 0.5)).collect();
        for expected in [13.0, 12.0, 14.0, -13.0] {
            assert!(numbers.contains(&expected), "{expected}");
        }
    }

    #[test]
    fn numbers_past_ascii_spell_the_characters_they_are_the_codes_of() {
        let codes = [0x80, 0x800, 0xd800, 0xdc00, 0xff, 0x41, 12].map(|n| Constant::Number(f64::from(n)));
        let pool = ConstantPool::new(codes.iter()).reading_character_codes(true);
        let mut rng = StdRng::seed_from_u64(3);
        let text: String = (0..2000).map(|_| pool.string(&mut rng, |_| String::new())).collect();
        let units: Vec<u16> = text.encode_utf16().collect();
        // Each code and the one after it: `a > 255` needs 256.
        for code in [0x80, 0x81, 0x800, 0xd800, 0xdc00, 0xff, 0x100] {
            assert!(units.contains(&code), "{code:#x}");
        }
        assert!(!text.contains('A'), "ASCII codes are left to the default strings");
        let ignored = ConstantPool::new(codes.iter());
        assert!((0..500).all(|_| ignored.string(&mut rng, |_| String::new()).is_ascii()), "without code reads");
        assert_eq!(character_of_code(0.5), None);
        assert_eq!(character_of_code(1_114_112.0), None);
    }

    #[test]
    fn the_literals_of_a_condition_come_together_until_its_statement_is_covered() {
        // Other literals than the condition's, so that no edit of a mined string spells them together.
        let constants = [Constant::String("x".into())];
        let targets = vec![(3, vec!["KKK".to_string(), "AA".to_string()]), (4, Vec::new())];
        let mut pool = ConstantPool::new(constants.iter()).aiming_at(targets);
        let mut rng = StdRng::seed_from_u64(4);
        let drawn =
            |pool: &ConstantPool, rng: &mut StdRng| (0..400).any(|_| pool.string(rng, |_| String::new()) == "KKKAA");
        assert!(drawn(&pool, &mut rng));
        pool.retire(&[false, false, false, false, false]);
        assert!(drawn(&pool, &mut rng), "statement 3 is not covered yet");
        pool.retire(&[false, false, false, true, false]);
        assert!(!drawn(&pool, &mut rng), "statement 3 is covered");
    }

    #[test]
    fn names_are_the_mined_strings_no_joiner_cuts() {
        let constants = ["max-age", "a=b", "; ", " ", "secure"].map(|s| Constant::String(s.into()));
        let pool = ConstantPool::new(constants.iter());
        let mut rng = StdRng::seed_from_u64(5);
        let joiners = [";".to_string(), "=".to_string()];
        let mut names: Vec<&str> = (0..200).filter_map(|_| pool.word(&mut rng, &joiners)).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names, ["max-age", "secure"]);
        assert_eq!(ConstantPool::new([].iter()).word(&mut rng, &joiners), None);
    }

    #[test]
    fn an_empty_pool_always_falls_back() {
        let pool = ConstantPool::new([].iter());
        let mut rng = StdRng::seed_from_u64(2);
        assert!(
            (0..100).all(|_| pool.number(&mut rng, |_| 7.0) == 7.0 && pool.string(&mut rng, |_| "d".into()) == "d")
        );
    }
}
