//! Stability: what an elected test asserts must come out the same every time it runs.
//!
//! Before export every elected test runs again, several times and in different orders (see
//! `Session::check_stability`). This module compares those runs with the run the test was elected on: a
//! described value that differs keeps the parts every run agrees on (fields of an object, items of an
//! array of one length); the parts that differ become [`Observed::Unstable`], which nothing asserts. A test
//! that ends differently (passes once, throws another time) is dropped whole. Every change is reported.

use std::collections::BTreeMap;

use super::ElectedTest;
use super::assertion::literal_of;
use crate::model::observed::{DescribedResult, Observed};
use crate::model::program::{ClassId, ProgramInfo};
use crate::sandbox::Execution;

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
    let describe = |outcome: &crate::model::observed::Outcome| outcome.describe(&Default::default());
    if let Some(run) = runs.iter().find(|run| run.outcome != elected.outcome) {
        let what = format!("{} once, {} another time", describe(&elected.outcome), describe(&run.outcome));
        return vec![unstable(what, true)];
    }
    let mut dropped = Vec::new();
    for run in runs {
        for index in 0..elected.results.len() {
            let Some(other) = run.results.iter().find(|r| r.at == elected.results[index].at) else { continue };
            let checked = elected.field_checks(&elected.results[index]);
            let inspectors = elected.inspectors().to_vec();
            let result = &mut elected.results[index];
            let mut changes = Vec::new();
            agree(&mut result.value, &other.value, &elected.test.expression(result.at, program), &mut changes);
            agree_state(result, other, &checked, &inspectors, &elected.test, &mut changes);
            dropped.extend(changes.into_iter().map(|what| unstable(what, false)));
        }
    }
    dropped
}

/// Agrees the asserted state after a call: the fields checked, and the inspectors' answers.
fn agree_state(
    result: &mut DescribedResult,
    other: &DescribedResult,
    checked: &[(usize, String)],
    inspectors: &[String],
    test: &crate::model::test::TestCase,
    changes: &mut Vec<String>,
) {
    for (variable, field) in checked {
        let Some(theirs) = other.field(*variable, field).cloned() else { continue };
        let name = test.variables.get(*variable).map_or("the receiver", |v| v.name.as_str());
        let Some(state) = result.state.iter_mut().find(|s| s.variable == *variable) else { continue };
        let Some(fields) = state.description.fields_mut() else { continue };
        let ours = fields.entry(field.clone()).or_insert(Observed::Undefined);
        agree(ours, &theirs, &format!("{name}.{field}"), changes);
    }
    for name in inspectors {
        let theirs = other.answer(name).cloned();
        let Some(ours) = result.inspected.iter_mut().find(|i| i.name == *name).and_then(|i| i.value.as_mut()) else {
            continue;
        };
        match theirs {
            Some(theirs) => agree(ours, &theirs, &format!("{name}()"), changes),
            None => {
                changes.push(format!("{name}(): {} in one run, no answer in another", words(ours)));
                *ours = Observed::Unstable;
            }
        }
    }
}

/// Turns the parts of `value` that differ from `other` into [`Observed::Unstable`], noting each under its
/// path. Only the members of two structures of one kind and shape are agreed one by one: the same
/// class, the same flags, and the same field names or number of items.
fn agree(value: &mut Observed, other: &Observed, path: &str, changes: &mut Vec<String>) {
    if value == other || *value == Observed::Unstable {
        return;
    }
    let members_agreed = match (&mut *value, other) {
        (Observed::Array { items, extra }, Observed::Array { items: other_items, extra: other_extra })
            if extra == other_extra && items.len() == other_items.len() =>
        {
            for (i, (item, other_item)) in items.iter_mut().zip(other_items).enumerate() {
                agree(item, other_item, &format!("{path}[{i}]"), changes);
            }
            true
        }
        (
            Observed::Object { fields, cut, bare },
            Observed::Object { fields: other_fields, cut: other_cut, bare: other_bare },
        ) if (*cut, *bare) == (*other_cut, *other_bare) => agree_fields(fields, other_fields, path, changes),
        (Observed::Instance { class, fields }, Observed::Instance { class: other_class, fields: other_fields })
            if class == other_class =>
        {
            agree_fields(fields, other_fields, path, changes)
        }
        _ => false,
    };
    if !members_agreed {
        changes.push(format!("{path}: {} in one run, {} in another", words(value), words(other)));
        *value = Observed::Unstable;
    }
}

/// Agrees fields of the same names one by one; `false`, touching nothing, when the names differ.
fn agree_fields(
    fields: &mut BTreeMap<String, Observed>,
    other_fields: &BTreeMap<String, Observed>,
    path: &str,
    changes: &mut Vec<String>,
) -> bool {
    if !fields.keys().eq(other_fields.keys()) {
        return false;
    }
    for (name, field) in fields.iter_mut() {
        agree(field, &other_fields[name], &format!("{path}.{name}"), changes);
    }
    true
}

/// A value in a report line: its literal, or its kind.
fn words(value: &Observed) -> String {
    literal_of(value)
        .map(|literal| crate::instrument::shorten(&literal, 40))
        .unwrap_or_else(|| format!("a value of kind `{}`", value.tag()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value as Json, json};

    fn number(n: i32) -> Json {
        json!({ "t": "n", "v": n.to_string() })
    }

    /// A description from the harness's JSON.
    fn observed(json: Json) -> Observed {
        serde_json::from_value(json).expect("a description")
    }

    #[test]
    fn only_the_parts_that_changed_are_dropped() {
        let mut value = observed(json!({ "t": "obj", "fields": { "id": number(1), "name": { "t": "s", "v": "a" } } }));
        let other = observed(json!({ "t": "obj", "fields": { "id": number(2), "name": { "t": "s", "v": "a" } } }));
        let mut changes = Vec::new();
        agree(&mut value, &other, "result", &mut changes);
        assert_eq!(changes, vec!["result.id: 1 in one run, 2 in another".to_string()]);
        assert_eq!(value.to_json()["fields"]["id"], json!({ "t": "unstable" }));
        assert_eq!(value.to_json()["fields"]["name"], json!({ "t": "s", "v": "a" }));
        // No literal is left to compare the object with as a whole: its stable fields are asserted one by one.
        assert_eq!(literal_of(&value), None);
    }

    #[test]
    fn arrays_of_another_length_and_values_of_another_kind_are_dropped_whole() {
        let mut array = observed(json!({ "t": "arr", "items": [number(1)] }));
        let mut changes = Vec::new();
        agree(&mut array, &observed(json!({ "t": "arr", "items": [number(1), number(2)] })), "xs", &mut changes);
        assert_eq!(array, Observed::Unstable);
        let mut value = observed(number(3));
        agree(&mut value, &observed(json!({ "t": "s", "v": "3" })), "x", &mut changes);
        assert_eq!(value, Observed::Unstable);
        assert_eq!(changes, vec!["xs: [1] in one run, [1, 2] in another", "x: 3 in one run, \"3\" in another"]);
        // Equal values stay, and an unstable part stays unstable whatever comes later.
        let mut same = observed(number(4));
        agree(&mut same, &observed(number(4)), "y", &mut changes);
        agree(&mut value, &observed(number(5)), "x", &mut changes);
        assert_eq!((same, changes.len()), (observed(number(4)), 2));
    }
}
