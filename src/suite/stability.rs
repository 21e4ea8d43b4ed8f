//! Stability: what an elected test asserts must come out the same every time it runs.
//!
//! Before export every elected test runs again, several times and in different orders (see
//! `Session::check_stability`). This module compares those runs with the run the test was elected on: a
//! described value that differs keeps the parts every run agrees on (fields of an object, items of an
//! array of one length); the parts that differ become `{"t": "unstable"}`, which nothing asserts. A test
//! that ends differently (passes once, throws another time) is dropped whole. Every change is reported.

use serde_json::{Value as Json, json};

use super::ElectedTest;
use super::assertion::literal_of;
use crate::program::{ClassId, ProgramInfo};
use crate::sandbox::{DescribedResult, Execution};

/// An assertion, or a whole test, dropped because it changed between runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unstable {
    /// The class of the test.
    pub class: ClassId,
    /// Its method under test.
    pub method: String,
    /// What changed: the expression and two of the values it had, or how the test ended.
    pub what: String,
    /// Whether the whole test was dropped (rather than some of its assertions).
    pub test_dropped: bool,
}

/// The description of a value that changed: asserted by nothing.
const UNSTABLE: &str = "unstable";

/// Keeps in `elected` only what every run in `runs` agrees with; returns what was dropped. When a run
/// ended differently, the test is left as it was and the only entry returned says so, with
/// `test_dropped` set: the caller drops the test.
pub fn stabilize(program: &ProgramInfo, elected: &mut ElectedTest, runs: &[Execution]) -> Vec<Unstable> {
    let unstable = |what: String, test_dropped: bool| Unstable {
        class: elected.test.class,
        method: elected.test.method.clone(),
        what,
        test_dropped,
    };
    let describe = |outcome: &crate::sandbox::Outcome| outcome.describe(&Default::default());
    if let Some(run) = runs.iter().find(|run| run.outcome != elected.outcome) {
        let what = format!("{} once, {} another time", describe(&elected.outcome), describe(&run.outcome));
        return vec![unstable(what, true)];
    }
    let mut dropped = Vec::new();
    for run in runs {
        for result in elected.results.iter_mut() {
            let Some(other) = run.results.iter().find(|r| r.at == result.at) else { continue };
            let expression = elected.test.expression(result.at, program);
            let mut changes = Vec::new();
            agree(&mut result.value, &other.value, &expression, &mut changes);
            agree_state(result, other, &elected.test, &mut changes);
            dropped.extend(changes.into_iter().map(|what| unstable(what, false)));
        }
    }
    dropped
}

/// Agrees the state of the variable described after a call, field by field.
fn agree_state(
    result: &mut DescribedResult,
    other: &DescribedResult,
    test: &crate::generate::TestCase,
    changes: &mut Vec<String>,
) {
    let (Some(state), Some(other)) = (result.state.as_mut(), other.state.as_ref()) else { return };
    let name = test.variables.get(state.variable).map_or("the receiver", |v| v.name.as_str());
    agree(&mut state.description, &other.description, name, changes);
}

/// Turns the parts of `value` that differ from `other` into [`UNSTABLE`], noting each under its path.
fn agree(value: &mut Json, other: &Json, path: &str, changes: &mut Vec<String>) {
    if value == other || kind(value) == Some(UNSTABLE) {
        return;
    }
    let same_kind = kind(value).is_some() && kind(value) == kind(other);
    let structured = matches!(kind(value), Some("obj" | "inst" | "arr"));
    // Everything but the members (an instance's class, an array's extra properties) must match.
    let members_key = if kind(value) == Some("arr") { "items" } else { "fields" };
    let rest_equal = |a: &Json, b: &Json| {
        let strip = |v: &Json| {
            let mut v = v.clone();
            if let Some(object) = v.as_object_mut() {
                object.remove(members_key);
            }
            v
        };
        strip(a) == strip(b)
    };
    if same_kind && structured && rest_equal(value, other) {
        match members_key {
            "items" => {
                let other_items = other.get("items").and_then(Json::as_array);
                if let (Some(items), Some(other_items)) =
                    (value.get_mut("items").and_then(Json::as_array_mut), other_items)
                    && items.len() == other_items.len()
                {
                    for (i, (item, other_item)) in items.iter_mut().zip(other_items).enumerate() {
                        agree(item, other_item, &format!("{path}[{i}]"), changes);
                    }
                    return;
                }
            }
            _ => {
                let other_fields = other.get("fields").and_then(Json::as_object);
                if let (Some(fields), Some(other_fields)) =
                    (value.get_mut("fields").and_then(Json::as_object_mut), other_fields)
                    && fields.keys().eq(other_fields.keys())
                {
                    for (name, field) in fields.iter_mut() {
                        agree(field, &other_fields[name], &format!("{path}.{name}"), changes);
                    }
                    return;
                }
            }
        }
    }
    changes.push(format!("{path}: {} in one run, {} in another", words(value), words(other)));
    *value = json!({ "t": UNSTABLE });
}

fn kind(value: &Json) -> Option<&str> {
    value.get("t").and_then(Json::as_str)
}

/// A value in a report line: its literal, or its kind.
fn words(value: &Json) -> String {
    literal_of(value)
        .map(|literal| crate::instrument::shorten(&literal, 40))
        .unwrap_or_else(|| format!("a value of kind `{}`", kind(value).unwrap_or("?")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(n: i32) -> Json {
        json!({ "t": "n", "v": n.to_string() })
    }

    #[test]
    fn only_the_parts_that_changed_are_dropped() {
        let mut value = json!({ "t": "obj", "fields": { "id": number(1), "name": { "t": "s", "v": "a" } } });
        let other = json!({ "t": "obj", "fields": { "id": number(2), "name": { "t": "s", "v": "a" } } });
        let mut changes = Vec::new();
        agree(&mut value, &other, "result", &mut changes);
        assert_eq!(changes, vec!["result.id: 1 in one run, 2 in another".to_string()]);
        assert_eq!(value["fields"]["id"], json!({ "t": "unstable" }));
        assert_eq!(value["fields"]["name"], json!({ "t": "s", "v": "a" }));
        // No literal is left to compare the object with as a whole: its stable fields are asserted one by one.
        assert_eq!(literal_of(&value), None);
    }

    #[test]
    fn arrays_of_another_length_and_values_of_another_kind_are_dropped_whole() {
        let mut array = json!({ "t": "arr", "items": [number(1)] });
        let mut changes = Vec::new();
        agree(&mut array, &json!({ "t": "arr", "items": [number(1), number(2)] }), "xs", &mut changes);
        assert_eq!(array, json!({ "t": "unstable" }));
        let mut value = number(3);
        agree(&mut value, &json!({ "t": "s", "v": "3" }), "x", &mut changes);
        assert_eq!(value, json!({ "t": "unstable" }));
        assert_eq!(changes.len(), 2);
        // Equal values stay, and an unstable part stays unstable whatever comes later.
        let mut same = number(4);
        agree(&mut same, &number(4), "y", &mut changes);
        agree(&mut value, &number(5), "x", &mut changes);
        assert_eq!((same, changes.len()), (number(4), 2));
    }
}
