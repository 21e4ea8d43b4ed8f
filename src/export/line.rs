//! One statement of an exported test, and the JavaScript text it becomes. Every format writes the same text:
//! the statements of a test body do not depend on the runner.

use super::js_string;

/// One statement of a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// One JavaScript statement, e.g. `var list = new LinkedList();`.
    Code(String),
    /// `actual` is `Object.is`-equal to `expected`, a literal or expression (`NaN`, `-0`, `undefined`, a variable).
    StrictEqual {
        /// The expression under test.
        actual: String,
        /// The expected value's JavaScript source.
        expected: String,
    },
    /// `actual` is within a few units in the last place of `expected`, a number literal: a result of
    /// operations that engines round differently (`Math.sin`, `**`), where strict equality would fail under
    /// another engine than the one that recorded it.
    Close {
        /// The expression under test.
        actual: String,
        /// The expected number's JavaScript source.
        expected: String,
    },
    /// `actual` is deeply and strictly equal to `expected`, an array or object literal.
    DeepStrictEqual {
        /// The expression under test.
        actual: String,
        /// The expected value's JavaScript source.
        expected: String,
    },
    /// `expression` is truthy, e.g. `r instanceof Node`.
    Ok {
        /// The expression under test.
        expression: String,
        /// Shown when the expression is falsy.
        message: String,
    },
    /// The statement `code` throws `thrown`.
    Throws {
        /// One JavaScript statement.
        code: String,
        /// What it must throw.
        thrown: Expected,
    },
}

/// What an assertion expects a statement to throw, as the suite checks it. Not to be confused with
/// [`crate::model::observed::Thrown`], what a run in the sandbox observed: the suite builds this from that,
/// leaving out what another engine would not reproduce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expected {
    /// An error, told by name and message rather than by class: the class may belong to another realm.
    Error {
        /// The error's `name`, e.g. `TypeError`.
        name: String,
        /// The error's `message`, when it is the code's own; `None` for errors made by the engine,
        /// whose messages differ between engines.
        message: Option<String>,
    },
    /// Any other value, deeply and strictly equal to a JavaScript literal.
    Value {
        /// The literal's JavaScript source.
        literal: String,
    },
    /// A value no literal writes (an object whose `name` is not a string, an instance): what can be said
    /// of it, as assertions on `Object(thrown)` (`any` in TypeScript, the value itself for an object).
    Described {
        /// The assertions, as test lines.
        checks: Vec<Line>,
    },
}

/// How far, in units in the last place, a [`Line::Close`] number may be from the value recorded.
const CLOSE_ULPS: u32 = 4;

/// The JavaScript statement of one test line.
pub(crate) fn statement(line: &Line) -> String {
    match line {
        Line::Code(code) => code.clone(),
        Line::StrictEqual { actual, expected } => format!("assert.strictEqual({actual}, {expected});"),
        Line::DeepStrictEqual { actual, expected } => format!("assert.deepStrictEqual({actual}, {expected});"),
        // `Number.EPSILON * |e|` is one or two units in the last place of `e`. Below 1 the units are those
        // of 1: a small result is often a difference of larger terms (a quaternion from angles, a power
        // through exp and log), and engines' rounding of the terms shows there as many of its own units.
        Line::Close { actual, expected } => format!(
            "assert.ok(Math.abs(({actual}) - ({expected})) <= {CLOSE_ULPS} * Number.EPSILON * Math.max(1, Math.abs({expected})), {});",
            js_string(&format!("within {CLOSE_ULPS} units in the last place of {expected} (of 1 below 1)"))
        ),
        Line::Ok { expression, message } => format!("assert.ok({expression}, {});", js_string(message)),
        Line::Throws { code, thrown } => {
            let check = match thrown {
                Expected::Error { name, message: Some(message) } => {
                    format!("{{ name: {}, message: {} }}", js_string(name), js_string(message))
                }
                Expected::Error { name, message: None } => format!("{{ name: {} }}", js_string(name)),
                Expected::Value { literal } => {
                    format!("(thrown) => {{\n  assert.deepStrictEqual(thrown, {literal});\n  return true;\n}}")
                }
                Expected::Described { checks } => {
                    let checks: String = checks.iter().map(|line| format!("  {}\n", statement(line))).collect();
                    format!("(thrown) => {{\n{checks}  return true;\n}}")
                }
            };
            // A call of an asynchronous method fails by rejecting its promise.
            if code.starts_with("await ") {
                format!("await assert.rejects(async () => {{ {code} }}, {check});")
            } else {
                format!("assert.throws(() => {{ {code} }}, {check});")
            }
        }
    }
}
