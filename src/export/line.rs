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
    /// `actual` is within [`CLOSE`] of `expected` (relative above 1), a number literal: a result of
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

/// How far a [`Line::Close`] number may be from the value recorded, relative to it above 1 and absolute
/// below. The sandbox computes `Math`'s functions with V8's own (`js/inexact.js`), but not the `**`
/// operator, and one unit in the last place of a power grows through the arithmetic after it: a
/// difference of larger terms and a scaling by 100 (an sRGB to Oklab conversion) made it a hundred units
/// of the result. The tolerance leaves room for far more than that, and is still far below any
/// difference a mutant of the code makes.
const CLOSE: &str = "1e-12";

/// The JavaScript statement of one test line.
pub(crate) fn statement(line: &Line) -> String {
    match line {
        Line::Code(code) => code.clone(),
        Line::StrictEqual { actual, expected } => format!("assert.strictEqual({actual}, {expected});"),
        Line::DeepStrictEqual { actual, expected } => format!("assert.deepStrictEqual({actual}, {expected});"),
        // Absolute below 1: a small result is often a difference of larger terms (a quaternion from angles,
        // a power through exp and log), and engines' rounding of the terms shows there in units of 1.
        Line::Close { actual, expected } => format!(
            "assert.ok(Math.abs(({actual}) - ({expected})) <= {CLOSE} * Math.max(1, Math.abs({expected})), {});",
            js_string(&format!("within {CLOSE} of {expected} (relative above 1)"))
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
