//! Assertions from observed results.
//!
//! The harness describes each result of the method under test right after the call (`harness.js`,
//! `describe`): primitives by value, variables of the test by identity, arrays and plain objects by
//! structure, class instances by their observable own fields. This module turns a description into
//! assertion lines: strict equality for primitives (`NaN` and `-0` included: `assert.strictEqual` uses
//! `Object.is`), deep equality where a literal can be written, and field by field otherwise.

use std::collections::BTreeMap;

use crate::export::Line;
use crate::js::literal;
use crate::model::observed::Observed;
use crate::model::program::ProgramInfo;
use crate::model::test::TestCase;

/// Most assertion lines written for one result, so a large structure does not drown the test.
const MAX_LINES: usize = 12;

/// Writes assertions that `actual` (a JavaScript expression) has the described value.
pub fn assert_described(
    description: &Observed,
    actual: &str,
    test: &TestCase,
    program: &ProgramInfo,
    lines: &mut Vec<Line>,
) {
    let start = lines.len();
    describe_into(description, actual, test, program, lines, true);
    lines.truncate(start + MAX_LINES);
}

/// Writes assertions on the fields of a receiver after a call that returned `undefined`.
pub fn assert_fields(
    description: &Observed,
    receiver: &str,
    test: &TestCase,
    program: &ProgramInfo,
    lines: &mut Vec<Line>,
) {
    let start = lines.len();
    for (name, field) in description.fields().into_iter().flatten() {
        describe_into(field, &member(receiver, name), test, program, lines, true);
    }
    lines.truncate(start + MAX_LINES);
}

/// The JavaScript literal of a described value, when it has one (primitives, and arrays and plain
/// objects of such values).
pub fn literal_of(description: &Observed) -> Option<String> {
    match description {
        Observed::Undefined => Some("undefined".into()),
        Observed::Null => Some("null".into()),
        Observed::Boolean { value } => Some(value.to_string()),
        Observed::Number { text } => Some(text.clone()),
        Observed::String { value } => Some(literal::string(value)),
        Observed::BigInt { digits } => Some(format!("{digits}n")),
        Observed::Array { items, extra: false } => array_literal(items),
        Observed::Object { fields, cut: false, bare } => object_literal(fields, *bare),
        _ => None,
    }
}

/// `[1, , 3]`, when every item but the holes has a literal.
fn array_literal(items: &[Observed]) -> Option<String> {
    let hole = |item: &Observed| matches!(item, Observed::Hole);
    let texts: Option<Vec<String>> =
        items.iter().map(|item| if hole(item) { Some(String::new()) } else { literal_of(item) }).collect();
    // A trailing hole needs its own comma: `[1, ,]` has length 2.
    let trailing = if items.last().is_some_and(hole) { "," } else { "" };
    Some(format!("[{}{trailing}]", texts?.join(", ")))
}

/// `{ a: 1 }`, when every field has a literal; `bare` for an object without a prototype.
fn object_literal(fields: &BTreeMap<String, Observed>, bare: bool) -> Option<String> {
    let parts: Option<Vec<String>> =
        fields.iter().map(|(k, v)| literal_of(v).map(|v| format!("{}: {v}", property_key(k)))).collect();
    let parts = parts?;
    let object = if parts.is_empty() { "{}".into() } else { format!("{{ {} }}", parts.join(", ")) };
    Some(match bare {
        // A dictionary without a prototype (`Object.create(null)`) is not deep-equal to `{}`.
        true if parts.is_empty() => "Object.create(null)".into(),
        true => format!("Object.assign(Object.create(null), {object})"),
        false => object,
    })
}

/// Writes the assertions on one described value: the value as a whole when it has a literal, else what
/// can be said of it (identity, type, length, fields or items one by one). `top` says it is the result
/// itself rather than a part of one: only there is an empty array asserted.
fn describe_into(
    description: &Observed,
    actual: &str,
    test: &TestCase,
    program: &ProgramInfo,
    lines: &mut Vec<Line>,
    top: bool,
) {
    let strict = |expected: String| Line::StrictEqual { actual: actual.to_string(), expected };
    if let Some(expected) = literal_of(description) {
        match description {
            Observed::Array { .. } if expected == "[]" && !top => {}
            Observed::Array { .. } | Observed::Object { .. } => {
                lines.push(Line::DeepStrictEqual { actual: actual.to_string(), expected })
            }
            _ => lines.push(strict(expected)),
        }
        return;
    }
    match description {
        Observed::Variable { index } => {
            if let Some(variable) = test.variables.get(*index) {
                lines.push(strict(variable.name.clone()));
            }
        }
        Observed::Class { class } => {
            if let Some(class) = program.classes.get(*class) {
                lines.push(strict(class.alias.clone()));
            }
        }
        Observed::Function => {
            lines.push(Line::StrictEqual { actual: format!("typeof {actual}"), expected: "\"function\"".into() })
        }
        Observed::Array { items, .. } => {
            lines.push(Line::StrictEqual { actual: format!("{actual}.length"), expected: items.len().to_string() });
            for (i, item) in items.iter().enumerate() {
                describe_into(item, &format!("{actual}[{i}]"), test, program, lines, false);
            }
        }
        Observed::Iterator { done: true, items } => {
            // The items the iterator gave, taken once: `Array.from` consumes it as the sandbox did.
            let taken = format!("Array.from({actual})");
            match array_literal(items) {
                Some(expected) => lines.push(Line::DeepStrictEqual { actual: taken, expected }),
                None => lines
                    .push(Line::StrictEqual { actual: format!("{taken}.length"), expected: items.len().to_string() }),
            }
        }
        Observed::LongArray { length } => {
            lines.push(Line::StrictEqual { actual: format!("{actual}.length"), expected: length.to_string() })
        }
        Observed::Object { fields, .. } | Observed::Instance { fields, .. } => {
            if let Observed::Instance { class, .. } = description
                && let Some(class) = program.classes.get(*class)
            {
                lines.push(Line::Ok {
                    expression: format!("{actual} instanceof {}", class.alias),
                    message: format!("an instance of {}", class.name),
                });
            }
            for (name, field) in fields {
                describe_into(field, &member(actual, name), test, program, lines, false);
            }
        }
        Observed::Date { time } => {
            if let Some(time) = time.as_ref().and_then(serde_json::Number::as_f64) {
                lines
                    .push(Line::StrictEqual { actual: format!("{actual}.getTime()"), expected: literal::number(time) });
            }
        }
        Observed::RegExp { source } => {
            lines.push(Line::StrictEqual { actual: format!("String({actual})"), expected: literal::string(source) })
        }
        Observed::Error { name, message } => {
            for (key, text) in [("name", name), ("message", message)] {
                lines.push(Line::StrictEqual { actual: member(actual, key), expected: literal::string(text) });
            }
        }
        // Cycles, depth cut-offs, symbols and built-in objects other than the above are not asserted:
        // their structure is either already asserted elsewhere or not stable to write down.
        _ => {}
    }
}

fn member(object: &str, name: &str) -> String {
    if literal::is_identifier_name(name) {
        format!("{object}.{name}")
    } else {
        format!("{object}[{}]", literal::string(name))
    }
}

fn property_key(name: &str) -> String {
    if literal::is_identifier_name(name) { name.to_string() } else { literal::string(name) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value as Json, json};

    /// A description from the harness's JSON.
    fn observed(json: Json) -> Observed {
        serde_json::from_value(json).expect("a description")
    }

    #[test]
    fn literals_of_primitives_and_plain_structures() {
        assert_eq!(literal_of(&observed(json!({"t": "n", "v": "-0"}))).unwrap(), "-0");
        assert_eq!(literal_of(&observed(json!({"t": "n", "v": "NaN"}))).unwrap(), "NaN");
        assert_eq!(literal_of(&observed(json!({"t": "s", "v": "a\"b"}))).unwrap(), "\"a\\\"b\"");
        let array =
            json!({"t": "arr", "items": [{"t": "n", "v": "1"}, {"t": "obj", "fields": {"x-y": {"t": "null"}}}]});
        assert_eq!(literal_of(&observed(array)).unwrap(), "[1, { \"x-y\": null }]");
        let sparse = json!({"t": "arr", "items": [{"t": "hole"}, {"t": "n", "v": "2"}, {"t": "hole"}]});
        assert_eq!(literal_of(&observed(sparse)).unwrap(), "[, 2, ,]");
        assert_eq!(literal_of(&observed(json!({"t": "inst", "c": 0, "fields": {}}))), None);
        assert_eq!(
            literal_of(&observed(json!({"t": "obj", "fields": {}, "bare": true}))).unwrap(),
            "Object.create(null)"
        );
        let dictionary = json!({"t": "obj", "fields": {"a": {"t": "n", "v": "1"}}, "bare": true});
        assert_eq!(literal_of(&observed(dictionary)).unwrap(), "Object.assign(Object.create(null), { a: 1 })");
    }

    #[test]
    fn iterators_are_asserted_by_their_items_once_they_ended() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let lines_of = |description: Json| {
            let mut lines = Vec::new();
            assert_described(&observed(description), "result", &test, &program, &mut lines);
            lines
        };
        let taken =
            |expected: &str| Line::DeepStrictEqual { actual: "Array.from(result)".into(), expected: expected.into() };
        assert_eq!(lines_of(json!({"t": "iter", "done": true, "items": [{"t": "n", "v": "1"}]})), vec![taken("[1]")]);
        let instances = json!({"t": "iter", "done": true, "items": [{"t": "inst", "c": 0, "fields": {}}]});
        let length = Line::StrictEqual { actual: "Array.from(result).length".into(), expected: "1".into() };
        assert_eq!(lines_of(instances), vec![length]);
        assert_eq!(lines_of(json!({"t": "iter", "done": false, "items": [{"t": "n", "v": "1"}]})), vec![]);
    }

    #[test]
    fn instances_are_asserted_field_by_field() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let description = json!({"t": "obj", "fields": {"size": {"t": "n", "v": "2"}, "items": {"t": "arr", "items": [{"t": "cycle"}]}}});
        let mut lines = Vec::new();
        assert_described(&observed(description), "result", &test, &program, &mut lines);
        assert_eq!(
            lines,
            vec![
                Line::StrictEqual { actual: "result.items.length".into(), expected: "1".into() },
                Line::StrictEqual { actual: "result.size".into(), expected: "2".into() },
            ]
        );
    }
}
