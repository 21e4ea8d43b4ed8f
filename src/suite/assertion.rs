//! Assertions from observed results.
//!
//! The harness describes each result of the method under test right after the call (`harness.js`,
//! `describe`): primitives by value, variables of the test by identity, arrays and plain objects by
//! structure, class instances by their observable own fields. This module turns a description into
//! assertion lines: strict equality for primitives (`NaN` and `-0` included: `assert.strictEqual` uses
//! `Object.is`), deep equality where a literal can be written, and field by field otherwise.

use serde_json::Value as Json;

use super::export::Line;
use crate::generate::{TestCase, literal};
use crate::program::ProgramInfo;

/// Most assertion lines written for one result, so a large structure does not drown the test.
const MAX_LINES: usize = 12;

/// Writes assertions that `actual` (a JavaScript expression) has the described value.
pub fn assert_described(
    description: &Json,
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
    description: &Json,
    receiver: &str,
    test: &TestCase,
    program: &ProgramInfo,
    lines: &mut Vec<Line>,
) {
    let start = lines.len();
    if let Some(fields) = description.get("fields").and_then(Json::as_object) {
        for (name, field) in fields {
            describe_into(field, &member(receiver, name), test, program, lines, true);
        }
    }
    lines.truncate(start + MAX_LINES);
}

/// The JavaScript literal of a described value, when it has one (primitives, and arrays and plain
/// objects of such values).
pub fn literal_of(description: &Json) -> Option<String> {
    let text = |k: &str| description.get(k).and_then(Json::as_str);
    match description.get("t")?.as_str()? {
        "u" => Some("undefined".into()),
        "null" => Some("null".into()),
        "b" => Some(description.get("v")?.as_bool()?.to_string()),
        "n" => Some(text("v")?.to_string()),
        "s" => Some(literal::string(text("v")?)),
        "big" => Some(format!("{}n", text("v")?)),
        "arr" if description.get("extra").is_none() => {
            let items = description.get("items")?.as_array()?;
            let hole = |item: &Json| item.get("t").and_then(Json::as_str) == Some("hole");
            let texts: Option<Vec<String>> =
                items.iter().map(|item| if hole(item) { Some(String::new()) } else { literal_of(item) }).collect();
            // A trailing hole needs its own comma: `[1, ,]` has length 2.
            let trailing = if items.last().is_some_and(hole) { "," } else { "" };
            Some(format!("[{}{trailing}]", texts?.join(", ")))
        }
        "obj" if description.get("cut").is_none() => {
            let fields = description.get("fields")?.as_object()?;
            let parts: Option<Vec<String>> =
                fields.iter().map(|(k, v)| literal_of(v).map(|v| format!("{}: {v}", property_key(k)))).collect();
            let parts = parts?;
            let object = if parts.is_empty() { "{}".into() } else { format!("{{ {} }}", parts.join(", ")) };
            Some(match description.get("bare") {
                // A dictionary without a prototype (`Object.create(null)`) is not deep-equal to `{}`.
                Some(_) if parts.is_empty() => "Object.create(null)".into(),
                Some(_) => format!("Object.assign(Object.create(null), {object})"),
                None => object,
            })
        }
        _ => None,
    }
}

fn describe_into(
    description: &Json,
    actual: &str,
    test: &TestCase,
    program: &ProgramInfo,
    lines: &mut Vec<Line>,
    top: bool,
) {
    let Some(kind) = description.get("t").and_then(Json::as_str) else { return };
    let index = |k: &str| description.get(k).and_then(Json::as_u64).map(|i| i as usize);
    match kind {
        "arr" | "obj" if literal_of(description).is_some() => {
            let expected = literal_of(description).unwrap_or_default();
            let deep = kind == "obj" || expected != "[]" || top;
            if deep {
                lines.push(Line::DeepStrictEqual { actual: actual.to_string(), expected });
            }
        }
        _ if literal_of(description).is_some() => {
            lines.push(Line::StrictEqual {
                actual: actual.to_string(),
                expected: literal_of(description).unwrap_or_default(),
            });
        }
        "var" => {
            if let Some(variable) = index("i").and_then(|i| test.variables.get(i)) {
                lines.push(Line::StrictEqual { actual: actual.to_string(), expected: variable.name.clone() });
            }
        }
        "cls" => {
            if let Some(class) = index("i").and_then(|i| program.classes.get(i)) {
                lines.push(Line::StrictEqual { actual: actual.to_string(), expected: class.alias.clone() });
            }
        }
        "fn" => lines.push(Line::StrictEqual { actual: format!("typeof {actual}"), expected: "\"function\"".into() }),
        "arr" => {
            let items = description.get("items").and_then(Json::as_array).cloned().unwrap_or_default();
            lines.push(Line::StrictEqual { actual: format!("{actual}.length"), expected: items.len().to_string() });
            for (i, item) in items.iter().enumerate() {
                describe_into(item, &format!("{actual}[{i}]"), test, program, lines, false);
            }
        }
        "iter" if description.get("done").and_then(Json::as_bool) == Some(true) => {
            // The items the iterator gave, taken once: `Array.from` consumes it as the sandbox did.
            let items = description.get("items").and_then(Json::as_array).cloned().unwrap_or_default();
            let count = items.len();
            let taken = format!("Array.from({actual})");
            match literal_of(&serde_json::json!({ "t": "arr", "items": items })) {
                Some(expected) => lines.push(Line::DeepStrictEqual { actual: taken, expected }),
                None => {
                    lines.push(Line::StrictEqual { actual: format!("{taken}.length"), expected: count.to_string() })
                }
            }
        }
        "arrlen" => {
            if let Some(n) = index("n") {
                lines.push(Line::StrictEqual { actual: format!("{actual}.length"), expected: n.to_string() });
            }
        }
        "obj" | "inst" => {
            if kind == "inst"
                && let Some(class) = index("c").and_then(|c| program.classes.get(c))
            {
                lines.push(Line::Ok {
                    expression: format!("{actual} instanceof {}", class.alias),
                    message: format!("an instance of {}", class.name),
                });
            }
            if let Some(fields) = description.get("fields").and_then(Json::as_object) {
                for (name, field) in fields {
                    describe_into(field, &member(actual, name), test, program, lines, false);
                }
            }
        }
        "date" => {
            if let Some(time) = description.get("v").and_then(Json::as_f64) {
                lines
                    .push(Line::StrictEqual { actual: format!("{actual}.getTime()"), expected: literal::number(time) });
            }
        }
        "re" => {
            if let Some(text) = description.get("v").and_then(Json::as_str) {
                lines.push(Line::StrictEqual { actual: format!("String({actual})"), expected: literal::string(text) });
            }
        }
        "err" => {
            for key in ["name", "message"] {
                if let Some(text) = description.get(key).and_then(Json::as_str) {
                    lines.push(Line::StrictEqual { actual: member(actual, key), expected: literal::string(text) });
                }
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
    use serde_json::json;

    #[test]
    fn literals_of_primitives_and_plain_structures() {
        assert_eq!(literal_of(&json!({"t": "n", "v": "-0"})).unwrap(), "-0");
        assert_eq!(literal_of(&json!({"t": "n", "v": "NaN"})).unwrap(), "NaN");
        assert_eq!(literal_of(&json!({"t": "s", "v": "a\"b"})).unwrap(), "\"a\\\"b\"");
        let array =
            json!({"t": "arr", "items": [{"t": "n", "v": "1"}, {"t": "obj", "fields": {"x-y": {"t": "null"}}}]});
        assert_eq!(literal_of(&array).unwrap(), "[1, { \"x-y\": null }]");
        let sparse = json!({"t": "arr", "items": [{"t": "hole"}, {"t": "n", "v": "2"}, {"t": "hole"}]});
        assert_eq!(literal_of(&sparse).unwrap(), "[, 2, ,]");
        assert_eq!(literal_of(&json!({"t": "inst", "c": 0, "fields": {}})), None);
        assert_eq!(literal_of(&json!({"t": "obj", "fields": {}, "bare": true})).unwrap(), "Object.create(null)");
        let dictionary = json!({"t": "obj", "fields": {"a": {"t": "n", "v": "1"}}, "bare": true});
        assert_eq!(literal_of(&dictionary).unwrap(), "Object.assign(Object.create(null), { a: 1 })");
    }

    #[test]
    fn iterators_are_asserted_by_their_items_once_they_ended() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let lines_of = |description: Json| {
            let mut lines = Vec::new();
            assert_described(&description, "result", &test, &program, &mut lines);
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
        assert_described(&description, "result", &test, &program, &mut lines);
        assert_eq!(
            lines,
            vec![
                Line::StrictEqual { actual: "result.items.length".into(), expected: "1".into() },
                Line::StrictEqual { actual: "result.size".into(), expected: "2".into() },
            ]
        );
    }
}
