//! JavaScript regular expressions as generators: random strings that a pattern matches in full.
//!
//! Patterns are parsed here with JavaScript's grammar and semantics (including the web-compatibility
//! rules of Annex B, such as a lone `{` being a literal), built into a `regex_syntax` HIR and sampled by
//! `rand_regex`. Parsing them with `regex_syntax` itself would give Rust's meaning instead: Unicode `\d`,
//! set operators inside classes, and errors on valid JavaScript like `x{` or `[[]`.

//!
//! Here: the generator and the flags; [`syntax`] reads the pattern's grammar, [`escapes`] its escapes,
//! [`classes`] its bracketed classes and case folding.

mod classes;
mod escapes;
mod syntax;
#[cfg(test)]
mod tests;

use std::fmt;

use rand::Rng;
use rand::distr::Distribution;

use syntax::{Fault, Parser};

/// How many repetitions beyond the minimum `*`, `+` and `{n,}` may produce: enough to exercise loops
/// over the content, few enough to keep generated tests readable.
const MAX_EXTRA_REPEAT: u32 = 8;

/// The longest output, in UTF-8 bytes, a pattern may be able to produce. It bounds memory per sample
/// and keeps `rand_regex`'s `u32` repeat counters far from overflow.
const MAX_OUTPUT_BYTES: usize = 10_000;

/// The deepest group nesting accepted, because the parser recurses once per level.
const MAX_NESTING: usize = 100;

/// A class bigger than this is sampled half of the time from its printable ASCII part (see
/// `Parser::class_hir`).
const LARGE_CLASS: usize = 256;

/// Why a pattern was rejected, phrased for the user who wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegexError {
    /// The pattern exactly as given.
    pattern: String,
    /// What is wrong, without the pattern or position.
    message: String,
    /// The 0-based character (not byte) offset in `pattern` of the construct at fault, when one
    /// construct is to blame.
    position: Option<usize>,
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
    pub(crate) fn parse(pattern: &str) -> Result<RegexGenerator, RegexError> {
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
    pub(crate) fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Draws one string that the pattern matches in full.
    pub(crate) fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> String {
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
