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
    /// one, or, for one without probes (`noop() {}`, a class of fields), when the file wrote one of
    /// the same tokens.
    pub fn original_of(&self, instrumented: &str) -> Option<&str> {
        let class = instrumented.starts_with("class");
        let ids = probe_ids(instrumented);
        let text = |t: &SourceText| self.original.get(t.start as usize..t.end as usize);
        let Some((low, high)) = ids.clone().min().zip(ids.max()) else {
            let squeezed = squeeze(instrumented);
            let unprobed = self.texts.iter().filter(|t| t.class == class && t.statements.is_empty());
            return unprobed.filter_map(text).find(|original| squeeze(original) == squeezed);
        };
        let mut spanning = self.texts.iter().filter(|t| t.class == class && t.statements == (low..high + 1));
        let first = spanning.next()?;
        // Pre-order: a function (or class) whose own statements are all in the one function it holds
        // spans that function's range too. Their heads tell them apart (`function outer(` is not
        // `function inner(`); failing that, the innermost is the likelier.
        let head = squeeze(head_of(instrumented));
        let mut last = first;
        for t in std::iter::once(first).chain(spanning) {
            if text(t).is_some_and(|original| squeeze(head_of(original)) == head) {
                return text(t);
            }
            last = t;
        }
        text(last)
    }
}

/// A function's or class's text up to the `{` or `=>` that starts its body (its signature).
fn head_of(text: &str) -> &str {
    let end = [text.find('{'), text.find("=>")].into_iter().flatten().min().unwrap_or(text.len());
    &text[..end]
}

/// `text` without what codegen may write otherwise than the user did: whitespace, semicolons and
/// comments (a comment's start inside a string is taken for one: the texts then differ, and the
/// function prints as compiled).
fn squeeze(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |at| &after[at..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |at| &after[at + 2..]);
        } else {
            if !c.is_whitespace() && c != ';' {
                out.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
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

    #[test]
    fn a_function_without_probes_is_found_by_its_tokens_and_one_spanning_another_by_its_head() {
        let original = "function noop( ) { /* nothing */ }\nfunction outer() {\n  function inner() { go(); }\n}\n";
        let at = |needle: &str| original.find(needle).unwrap() as u32;
        let texts = SourceTexts {
            original: original.to_string(),
            texts: vec![
                SourceText { statements: 0..0, start: 0, end: at("\nfunction outer"), class: false },
                SourceText {
                    statements: 0..1,
                    start: at("function outer"),
                    end: original.len() as u32 - 1,
                    class: false,
                },
                SourceText { statements: 0..1, start: at("function inner"), end: at("\n}"), class: false },
            ],
        };
        assert_eq!(texts.original_of("function noop() {}"), Some("function noop( ) { /* nothing */ }"));
        let outer = format!(
            "function outer() {{\n    function inner() {{\n        {STATEMENTS}[0] = 1;\n        go();\n    }}\n}}"
        );
        assert_eq!(texts.original_of(&outer), Some(&original[at("function outer") as usize..original.len() - 1]));
        let inner = format!("function inner() {{\n    {STATEMENTS}[0] = 1;\n    go();\n}}");
        assert_eq!(texts.original_of(&inner), Some("function inner() { go(); }"));
    }
}
