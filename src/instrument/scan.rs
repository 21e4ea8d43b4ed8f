//! Finding a function's own first probe in its printed source text.
//!
//! `Function.prototype.toString()` gives back the instrumented text of a function. Its first `__fc$s[N]`
//! is not always its own: a parameter default or a computed key may hold a function with probes. The
//! function's own first statement is the first probe directly inside its body, the first `{` outside any
//! parentheses or brackets. A small scanner over the printed code finds it, skipping strings, template
//! literals, regular expressions and comments so that no text inside them counts as a bracket.

/// Marks a `${` of a template literal on the bracket stack.
const TEMPLATE: u8 = b'`';
/// The statement probe as printed, up to its id.
const PROBE: &[u8] = b"__fc$s[";

/// See [`super::first_probe_in`].
pub(super) fn first_probe_in(text: &str) -> Option<u32> {
    let b = text.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut in_body = false;
    // Whether a `/` here starts a regular expression rather than a division.
    let mut regex_allowed = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' | b'\'' => {
                i = skip_quoted(b, i + 1, c);
                regex_allowed = false;
                continue;
            }
            b'`' => {
                i = template_part(b, i + 1, &mut stack);
                regex_allowed = false;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| i + n);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = b[i + 2..].windows(2).position(|w| w == b"*/").map_or(b.len(), |n| i + 2 + n + 2);
                continue;
            }
            b'/' if regex_allowed => {
                i = skip_regex(b, i + 1);
                regex_allowed = false;
                continue;
            }
            b'(' | b'[' => stack.push(c),
            b'{' => {
                in_body |= stack.is_empty();
                stack.push(c);
            }
            b'}' if stack.last() == Some(&TEMPLATE) => {
                stack.pop();
                i = template_part(b, i + 1, &mut stack);
                regex_allowed = false;
                continue;
            }
            b')' | b']' | b'}' => {
                stack.pop();
                if in_body && stack.is_empty() {
                    return None;
                }
            }
            _ if is_word(c) => {
                let end = i + b[i..].iter().position(|&c| !is_word(c)).unwrap_or(b.len() - i);
                if in_body && stack.len() == 1 && b[i..].starts_with(PROBE) {
                    let digits = &b[i + PROBE.len()..];
                    let n = digits.iter().take_while(|c| c.is_ascii_digit()).count();
                    return std::str::from_utf8(&digits[..n]).ok()?.parse().ok();
                }
                regex_allowed = KEYWORDS_BEFORE_EXPRESSION.contains(&&text[i..end]);
                i = end;
                continue;
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            regex_allowed = !matches!(c, b')' | b']' | b'}');
        }
        i += 1;
    }
    None
}

const KEYWORDS_BEFORE_EXPRESSION: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'\\') || c >= 0x80
}

/// Index just past the closing `quote`.
fn skip_quoted(b: &[u8], mut i: usize, quote: u8) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// Scans template text from `i`: returns the index just past the closing backquote, or past a `${`
/// (pushed on `stack`) where code resumes.
fn template_part(b: &[u8], mut i: usize, stack: &mut Vec<u8>) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'`' => return i + 1,
            b'$' if b.get(i + 1) == Some(&b'{') => {
                stack.push(TEMPLATE);
                return i + 2;
            }
            _ => i += 1,
        }
    }
    b.len()
}

/// Index just past a regular expression literal's flags.
fn skip_regex(b: &[u8], mut i: usize) -> usize {
    let mut in_class = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => {
                i += 1;
                while i < b.len() && is_word(b[i]) {
                    i += 1;
                }
                return i;
            }
            b'\n' => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}
