//! Stability: what an elected test asserts must come out the same every time it runs.
//!
//! Before export every elected test runs again, several times and in different orders (see
//! `Session::check_stability`). This module compares those runs with the run the test was elected on: a
//! described value that differs keeps the parts every run agrees on (fields of an object, items of an
//! array of one length); the parts that differ become [`Observed::Unstable`], which nothing asserts, except
//! a number that moved by as much as an earlier result of the test did: its difference from that result
//! is asserted instead ([`Observed::Offset`]). A test that ends differently (passes once, throws another
//! time) is dropped whole. Every change is reported.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
pub(crate) fn stabilize(program: &ProgramInfo, elected: &mut ElectedTest, runs: &[Execution]) -> Vec<Unstable> {
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
    // The results of the run the test was elected on: offsets are measured between them.
    let elected_run = elected.results.clone();
    for run in runs {
        for index in 0..elected.results.len() {
            let Some(other) = run.results.iter().find(|r| r.at == elected.results[index].at) else { continue };
            let checked = elected.field_checks(program, &elected.results[index]);
            let inspectors = elected.inspectors().to_vec();
            let result = &mut elected.results[index];
            let mut changes = Vec::new();
            let expression = |at: usize| elected.test.expression(at, program);
            let runs = (&elected_run[..], &run.results[..]);
            if !relate(&mut result.value, &other.value, result.at, runs, &expression, &mut changes) {
                agree(&mut result.value, &other.value, &expression(result.at), &mut changes);
            }
            agree_state(result, other, &checked, &inspectors, &elected.test, &mut changes);
            dropped.extend(changes.into_iter().map(|what| unstable(what, false)));
        }
    }
    dropped
}

/// Relates a number that changed between runs to an earlier result of its test: when `value` (what the
/// call at `at` returned in the elected run, the first of `runs`) differs from `other` (what it returned
/// in another, the second of `runs`) by as much as the result of an earlier call did, it becomes an
/// [`Observed::Offset`] of the nearest such call, so that the test still asserts the step (ticket numbers
/// from a counter that outlives a test: the second is one more than the first, in any order of the
/// tests). An offset already made stays while every run agrees with it. `false` when `value` is no
/// integer that changed, which [`agree`] then handles; `expression` names a call's result in reports.
fn relate(
    value: &mut Observed,
    other: &Observed,
    at: usize,
    (elected, run): (&[DescribedResult], &[DescribedResult]),
    expression: &dyn Fn(usize) -> String,
    changes: &mut Vec<String>,
) -> bool {
    match *value {
        Observed::Offset { from, by } => {
            let theirs = offset(run, at, from);
            if theirs != Some(by) {
                let theirs = theirs.map_or_else(|| words(other), |b| format!("{b:+}"));
                changes.push(format!(
                    "{}: {by:+} from `{}` in one run, {theirs} in another",
                    expression(at),
                    expression(from)
                ));
                *value = Observed::Unstable;
            }
            true
        }
        Observed::Number { .. } if value != other => {
            let (Some(ours), Some(theirs)) = (integer(value), integer(other)) else { return false };
            // The nearest earlier call that moved by as much: (its statement, the difference).
            let steady = |earlier: &DescribedResult| {
                let by = ours - integer(&earlier.value)?;
                (integer_at(run, earlier.at)? == theirs - by).then_some((earlier.at, by))
            };
            let Some((from, by)) = elected.iter().rev().filter(|r| r.at < at).find_map(steady) else { return false };
            changes.push(format!(
                "{}: {} in one run, {} in another; its difference from `{}` is asserted instead",
                expression(at),
                words(value),
                words(other),
                expression(from)
            ));
            *value = Observed::Offset { from, by };
            true
        }
        _ => false,
    }
}

/// What the call at `at` returned minus what the call at `from` did, among `results` (a run's), when
/// both are integers a double holds exactly.
pub(crate) fn offset(results: &[DescribedResult], at: usize, from: usize) -> Option<i64> {
    Some(integer_at(results, at)? - integer_at(results, from)?)
}

fn integer_at(results: &[DescribedResult], at: usize) -> Option<i64> {
    results.iter().find(|r| r.at == at).and_then(|r| integer(&r.value))
}

/// A described number that is an integer a double holds exactly (beyond 2^53 differences lose bits).
fn integer(value: &Observed) -> Option<i64> {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    let Observed::Number { text } = value else { return None };
    let x: f64 = text.parse().ok()?;
    (x.fract() == 0.0 && x.abs() <= SAFE && text != "-0").then_some(x as i64)
}

/// What changed between runs in a test's results, as its exported form asserts them: the parts left
/// out, and the numbers asserted as offsets from earlier results. A manifest keeps it, so that a run of
/// the test read back asserts what the exported test does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Instability {
    /// The calls whose results are offsets, as (call, earlier call).
    pub offsets: Vec<(usize, usize)>,
    /// The parts left out.
    pub unstable: Vec<UnstablePart>,
}

impl Instability {
    /// What changed in `results` (a stable suite's).
    pub(crate) fn of(results: &[DescribedResult]) -> Instability {
        Instability { offsets: offsets(results), unstable: unstable_parts(results) }
    }

    /// Makes `results` (a fresh run's) what the exported test asserts: offsets measured, unstable parts
    /// left out.
    pub(crate) fn apply(&self, results: &mut [DescribedResult]) {
        measure_offsets(results, &self.offsets);
        mark_unstable(results, &self.unstable);
    }
}

/// The offsets among `results`, as (the call, the earlier call it is measured from).
pub(crate) fn offsets(results: &[DescribedResult]) -> Vec<(usize, usize)> {
    results
        .iter()
        .filter_map(|r| match r.value {
            Observed::Offset { from, .. } => Some((r.at, from)),
            _ => None,
        })
        .collect()
}

/// Turns the results `offsets` name (a fresh run's) into offsets, where both calls returned integers.
fn measure_offsets(results: &mut [DescribedResult], offsets: &[(usize, usize)]) {
    for &(at, from) in offsets {
        let Some(by) = offset(results, at, from) else { continue };
        if let Some(result) = results.iter_mut().find(|r| r.at == at) {
            result.value = Observed::Offset { from, by };
        }
    }
}

/// A part of a test's results that changed between runs, by where it sits: what a manifest keeps so
/// that a run read back leaves out what the exported test leaves out (see [`Instability`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnstablePart {
    /// The call after which it was described.
    pub at: usize,
    /// Where it starts: what the call returned (neither set), the fields of a variable of the test, or
    /// an inspector's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variable: Option<usize>,
    /// See `variable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inspector: Option<String>,
    /// Field names and item indexes from there down to it.
    pub path: Vec<Step>,
}

/// A step down a described value: an item of an array, or a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Step {
    /// An item.
    Item(usize),
    /// A field.
    Field(String),
}

/// The parts of `results` (a stable suite's) that are [`Observed::Unstable`].
fn unstable_parts(results: &[DescribedResult]) -> Vec<UnstablePart> {
    let mut parts = Vec::new();
    for result in results {
        let mut add = |variable: Option<usize>, inspector: Option<&String>, value: &Observed| {
            let mut paths = Vec::new();
            unstable_paths(value, &mut Vec::new(), &mut paths);
            parts.extend(paths.into_iter().map(|path| UnstablePart {
                at: result.at,
                variable,
                inspector: inspector.cloned(),
                path,
            }));
        };
        add(None, None, &result.value);
        for state in &result.state {
            add(Some(state.variable), None, &state.description);
        }
        for inspected in &result.inspected {
            if let Some(value) = &inspected.value {
                add(None, Some(&inspected.name), value);
            }
        }
    }
    parts
}

fn unstable_paths(value: &Observed, path: &mut Vec<Step>, paths: &mut Vec<Vec<Step>>) {
    let mut down = |step: Step, member: &Observed, paths: &mut Vec<Vec<Step>>| {
        path.push(step);
        unstable_paths(member, path, paths);
        path.pop();
    };
    match value {
        Observed::Unstable => paths.push(path.clone()),
        Observed::Array { items, .. } | Observed::Collection { items, .. } => {
            for (i, item) in items.iter().enumerate() {
                down(Step::Item(i), item, paths);
            }
        }
        Observed::Object { fields, .. } | Observed::Instance { fields, .. } => {
            for (name, field) in fields {
                down(Step::Field(name.clone()), field, paths);
            }
        }
        _ => {}
    }
}

/// Makes the `parts` of `results` (a fresh run's) [`Observed::Unstable`], where the run has them.
fn mark_unstable(results: &mut [DescribedResult], parts: &[UnstablePart]) {
    for part in parts {
        let Some(result) = results.iter_mut().find(|r| r.at == part.at) else { continue };
        let start = match (&part.variable, &part.inspector) {
            (Some(variable), _) => {
                result.state.iter_mut().find(|s| s.variable == *variable).map(|s| &mut s.description)
            }
            (None, Some(name)) => result.inspected.iter_mut().find(|i| i.name == *name).and_then(|i| i.value.as_mut()),
            (None, None) => Some(&mut result.value),
        };
        let mut place = start;
        for step in &part.path {
            place = place.and_then(|value| match (step, value) {
                (Step::Item(i), Observed::Array { items, .. } | Observed::Collection { items, .. }) => {
                    items.get_mut(*i)
                }
                (Step::Field(name), Observed::Object { fields, .. } | Observed::Instance { fields, .. }) => {
                    fields.get_mut(name)
                }
                _ => None,
            });
        }
        if let Some(value) = place {
            *value = Observed::Unstable;
        }
    }
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
            agree_items(items, other_items, path, changes);
            true
        }
        // A typed array's bytes the code never wrote (`Buffer.allocUnsafe`'s) differ; its length does not.
        (Observed::Collection { class, items }, Observed::Collection { class: other_class, items: other_items })
            if class == other_class && items.len() == other_items.len() =>
        {
            agree_items(items, other_items, path, changes);
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

/// Agrees items of two lists of one length one by one.
fn agree_items(items: &mut [Observed], other_items: &[Observed], path: &str, changes: &mut Vec<String>) {
    for (i, (item, other_item)) in items.iter_mut().zip(other_items).enumerate() {
        agree(item, other_item, &format!("{path}[{i}]"), changes);
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
    fn results(values: &[(usize, i32)]) -> Vec<DescribedResult> {
        values.iter().map(|&(at, n)| DescribedResult::bare(at, observed(number(n)))).collect()
    }

    #[test]
    fn a_number_that_moved_with_an_earlier_one_is_asserted_as_its_difference() {
        // Ticket numbers from a counter that outlives a test: 1 and 2 in the elected run, 5 and 6 after
        // other tests.
        let elected = results(&[(1, 1), (2, 2)]);
        let expression = |at: usize| format!("q.issue{at}()");
        let mut changes = Vec::new();
        let mut second = observed(number(2));
        let other = results(&[(1, 5), (2, 6)]);
        assert!(relate(&mut second, &observed(number(6)), 2, (&elected, &other), &expression, &mut changes));
        assert_eq!(second, Observed::Offset { from: 1, by: 1 });
        assert_eq!(
            changes,
            vec!["q.issue2(): 2 in one run, 6 in another; its difference from `q.issue1()` is asserted instead"]
        );
        // The first has nothing earlier to be measured from: left to `agree`.
        let mut first = observed(number(1));
        assert!(!relate(&mut first, &observed(number(5)), 1, (&elected, &other), &expression, &mut changes));
        // An offset stays while other runs agree with it, and is dropped when one does not.
        let agrees = results(&[(1, 8), (2, 9)]);
        assert!(relate(&mut second, &observed(number(9)), 2, (&elected, &agrees), &expression, &mut changes));
        assert_eq!((second.clone(), changes.len()), (Observed::Offset { from: 1, by: 1 }, 1));
        let disagrees = results(&[(1, 8), (2, 10)]);
        assert!(relate(&mut second, &observed(number(10)), 2, (&elected, &disagrees), &expression, &mut changes));
        assert_eq!(second, Observed::Unstable);
        assert_eq!(changes[1], "q.issue2(): +1 from `q.issue1()` in one run, +2 in another");
        // Numbers that moved by another step than any earlier one, and fractions, are not related.
        let mut value = observed(number(2));
        let apart = results(&[(1, 5), (2, 7)]);
        assert!(!relate(&mut value, &observed(number(7)), 2, (&elected, &apart), &expression, &mut changes));
        let halves = vec![DescribedResult::bare(1, observed(json!({ "t": "n", "v": "0.5" })))];
        let mut half = observed(json!({ "t": "n", "v": "1.5" }));
        let moved = vec![DescribedResult::bare(1, observed(json!({ "t": "n", "v": "2.5" })))];
        assert!(!relate(
            &mut half,
            &observed(json!({ "t": "n", "v": "3.5" })),
            2,
            (&halves, &moved),
            &expression,
            &mut changes
        ));
    }

    #[test]
    fn what_changed_between_runs_is_carried_to_a_fresh_run_as_the_exported_test_asserts_it() {
        // A stable suite's results: the first call's value unstable, the second an offset, and one item
        // of a field of the receiver unstable.
        let waiting = |item: Json| json!({ "t": "obj", "fields": { "waiting": { "t": "arr", "items": [item] } } });
        let stable: Vec<DescribedResult> = serde_json::from_value(json!([
            { "at": 1, "value": { "t": "unstable" } },
            { "at": 2, "value": { "t": "offset", "from": 1, "by": 1 }, "state": [{ "i": 0, "d": waiting(json!({ "t": "unstable" })) }] },
        ]))
        .unwrap();
        let instability = Instability::of(&stable);
        assert_eq!(instability.offsets, vec![(2, 1)]);
        assert_eq!(instability.unstable.len(), 2);
        // Through a manifest's JSON and back.
        let written = serde_json::to_value(&instability.unstable).unwrap();
        assert_eq!(written[1], json!({ "at": 2, "variable": 0, "path": ["waiting", 0] }));
        let read: Vec<UnstablePart> = serde_json::from_value(written).unwrap();
        // A fresh run (on this code or a mutant) is compared as the exported test asserts it.
        let mut fresh: Vec<DescribedResult> = serde_json::from_value(json!([
            { "at": 1, "value": number(3) },
            { "at": 2, "value": number(4), "state": [{ "i": 0, "d": waiting(number(4)) }] },
        ]))
        .unwrap();
        Instability { offsets: instability.offsets.clone(), unstable: read }.apply(&mut fresh);
        assert_eq!(fresh, stable);
        // A mutant whose counter stands still gives another offset.
        let mut mutant = results(&[(1, 0), (2, 0)]);
        instability.apply(&mut mutant);
        assert_eq!(mutant[1].value, Observed::Offset { from: 1, by: 0 });
    }
}
