//! Reading QuickJS stack positions in instrumented code back as original byte offsets.
//!
//! Two numbering schemes meet here:
//!
//! - swc codegen records `(original BytePos, generated LineCol)` at the start and end of tokens, with a
//!   0-based line and a 0-based column in UTF-16 code units;
//! - QuickJS-ng prints `file:line:column` with a 1-based line and a column counted in **bytes** of UTF-8.
//!   An identifier's column is its byte index in the line plus one. Every other position is the parser's
//!   "mark" (the last identifier start or the first byte after whitespace, a line break or a comment)
//!   minus the byte before the line, which is the last `\n`; on the first line there is no `\n`, so those
//!   columns are the 0-based byte index, one less than on later lines (and at least 1).
//!
//! Marks only fall on word starts or after whitespace, so on the first line a column `c` whose byte
//! `c - 1` starts a word is an identifier at `c - 1`, and otherwise a mark at `c`.

use swc_common::{BytePos, LineCol};

/// Instrumented `(line, column)` to original byte offset.
#[derive(Debug, Clone)]
pub struct PositionMap {
    /// Per generated line: `(byte column, original offset)`, sorted.
    lines: Vec<Vec<(u32, u32)>>,
    /// Which bytes of the first generated line start a word, to read its shifted columns.
    first_line_word_starts: Vec<bool>,
}

impl PositionMap {
    /// Builds the map from codegen's source map `entries` for `code`, whose original file spans
    /// `start..end` in its source map.
    pub(super) fn new(code: &str, entries: &[(BytePos, LineCol)], start: BytePos, end: BytePos) -> Self {
        let lines_text: Vec<&str> = code.split('\n').collect();
        let mut lines: Vec<Vec<(u32, u32)>> = vec![Vec::new(); lines_text.len()];
        let mut sorted: Vec<&(BytePos, LineCol)> =
            entries.iter().filter(|(pos, _)| *pos >= start && *pos <= end).collect();
        sorted.sort_by_key(|(_, lc)| (lc.line, lc.col));
        // Entries are sorted, so each line's UTF-16 to byte conversion walks the line once.
        let mut cursor = (u32::MAX, 0usize, 0u32);
        for (pos, lc) in sorted {
            let Some(text) = lines_text.get(lc.line as usize) else { continue };
            if cursor.0 != lc.line {
                cursor = (lc.line, 0, 0);
            }
            let (_, ref mut byte, ref mut utf16) = cursor;
            while *utf16 < lc.col && *byte < text.len() {
                let ch = text[*byte..].chars().next().expect("inside the line");
                *byte += ch.len_utf8();
                *utf16 += ch.len_utf16() as u32;
            }
            lines[lc.line as usize].push((*byte as u32, pos.0 - start.0));
        }
        for line in &mut lines {
            line.sort_unstable();
            line.dedup();
        }
        let first = lines_text.first().map_or(&[][..], |l| l.as_bytes());
        let first_line_word_starts =
            (0..first.len()).map(|i| is_word(first[i]) && (i == 0 || !is_word(first[i - 1]))).collect();
        PositionMap { lines, first_line_word_starts }
    }

    /// The original byte offset of the token at `line:column` as QuickJS prints it in a stack frame of the
    /// instrumented code (evaluated as is: with a prefix on its first line, subtract the prefix's length
    /// in bytes from first-line columns first). A position between tokens reads as the nearest token
    /// before it on the same line; `None` when there is none.
    pub(crate) fn original_offset(&self, line: u32, column: u32) -> Option<u32> {
        let entries = self.lines.get(line.checked_sub(1)? as usize)?;
        let column = column.max(1);
        let byte = if line == 1 {
            let identifier = self.first_line_word_starts.get(column as usize - 1).copied().unwrap_or(false);
            if identifier { column - 1 } else { column }
        } else {
            column - 1
        };
        // Several entries can share a byte: ends of earlier tokens and starts of this one. Sorting by
        // original offset puts the start of the token that begins there last.
        let after = entries.partition_point(|&(col, _)| col <= byte);
        after.checked_sub(1).map(|i| entries[i].1)
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'\\') || c >= 0x80
}
