//! The user's own text of each function and class, for `Function.prototype.toString`.
//!
//! QuickJS answers `toString` with the function's text in the code it compiled: the instrumented copy,
//! probes and all (`text({ text }) {\n __fc$s[815] = 1;\n return text; }`), where Node prints the text
//! as written. A function's text holds the statement probes of its body and of the functions nested in
//! it, whose ids are contiguous (see `probes.rs`): their lowest and highest id name the function-like node
//! whose statement range they span, and a class the class whose members they are. QuickJS and V8 cut the
//! same piece of text for each kind (a method from its key, with `async`, `*`, `get` or `set` before it but
//! not `static`; an arrow with its `async`; a class from `class`), so the original text is the same piece
//! of the user's file.

use std::ops::Range;
use std::sync::Arc;

use crate::js::STATEMENTS;

/// Where one function or class of the user's file is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceText {
    /// The statement probes its text holds (its own and its nested functions').
    pub statements: Range<u32>,
    /// Byte offset of its start in the original text, where V8's `toString` starts it.
    pub start: u32,
    /// Byte offset just past its end.
    pub end: u32,
    /// Whether it is a class (whose text starts with `class`).
    pub class: bool,
}

/// The functions and classes of one file, and the file's original text, shared by every sandbox that
/// loads it.
#[derive(Debug, Default)]
pub struct SourceTexts {
    /// The file as the user wrote it; empty for a file whose text Node does not run as written
    /// (TypeScript, compiled before it runs).
    pub original: String,
    /// Every function and class with a probe, in source pre-order.
    pub texts: Vec<SourceText>,
}

impl SourceTexts {
    /// The user's text of the function or class QuickJS prints as `instrumented`, when its probes name
    /// one.
    pub fn original_of(&self, instrumented: &str) -> Option<&str> {
        let ids = probe_ids(instrumented);
        let (low, high) = (ids.clone().min()?, ids.max()?);
        let class = instrumented.starts_with("class");
        // Pre-order: a class that holds nothing but another class has its range; the innermost is
        // the one whose text QuickJS cut (the outer one's text holds more than the inner class).
        let found = self.texts.iter().rev().find(|t| t.class == class && t.statements == (low..high + 1))?;
        self.original.get(found.start as usize..found.end as usize)
    }
}

/// The ids of the statement probes in an instrumented text.
fn probe_ids(text: &str) -> impl Iterator<Item = u32> + Clone + '_ {
    let marker = format!("{STATEMENTS}[");
    text.match_indices(&marker).collect::<Vec<_>>().into_iter().filter_map(move |(at, _)| {
        let digits = &text[at + marker.len()..];
        let end = digits.find(|c: char| !c.is_ascii_digit())?;
        digits[..end].parse().ok()
    })
}

/// Where V8 starts the text of a method whose key starts at byte `key` of `source`: at the key, or at
/// the `async`, `*`, `get` or `set` written before it (never at `static`, which V8 leaves out).
pub(super) fn method_start(source: &str, key: u32) -> u32 {
    let bytes = source.as_bytes();
    let mut start = key as usize;
    let mut at = start;
    loop {
        while at > 0 && bytes[at - 1].is_ascii_whitespace() {
            at -= 1;
        }
        if at > 0 && bytes[at - 1] == b'*' {
            at -= 1;
            start = at;
            continue;
        }
        let word = ["async", "get", "set"].into_iter().find(|w| {
            at >= w.len()
                && &source[at - w.len()..at] == *w
                && (at == w.len() || !is_identifier_byte(bytes[at - w.len() - 1]))
        });
        match word {
            Some(word) => {
                at -= word.len();
                start = at;
            }
            None => return start as u32,
        }
    }
}

/// Where V8 starts a class's text: at its `class` keyword, at or after `start` (a class's span may
/// begin with decorators).
pub(super) fn class_start(source: &str, start: u32, end: u32) -> u32 {
    source.get(start as usize..end as usize).and_then(|text| text.find("class")).map_or(start, |at| start + at as u32)
}

fn is_identifier_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$' || byte >= 0x80
}

/// The texts of a file whose functions were probed, `texts` in pre-order.
pub(super) fn collect(original: Option<&str>, texts: Vec<SourceText>) -> Arc<SourceTexts> {
    match original {
        Some(original) => Arc::new(SourceTexts { original: original.to_string(), texts }),
        None => Arc::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_starts_at_its_modifiers_but_not_at_static() {
        let source = "class A { static async *gen() {} get x() {} static() {} }";
        let at = |needle: &str| source.find(needle).unwrap() as u32;
        assert_eq!(method_start(source, at("gen")), at("async"));
        assert_eq!(method_start(source, at("x()")), at("get x"));
        assert_eq!(method_start(source, at("static()")), at("static()"));
    }
}
