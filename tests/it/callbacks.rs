//! Callbacks with a meaning: a parameter the code calls gets, beside callbacks returning constants,
//! callbacks of a shape that fits how it is called (a consistent comparator for two numbers, a predicate
//! or a key function for one), so that branches depending on the callback's answer are reached.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

#[test]
fn callbacks_whose_answer_depends_on_their_arguments_reach_what_constants_cannot() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("callbacks/tally.js")], out.path(), BUDGET);
    for (name, covered, total, stop) in methods(&report) {
        assert_eq!(covered, total, "{name} covered {covered}/{total} (stop: {stop})");
    }
    let suite = std::fs::read_to_string(out.path().join("Tally.test.js")).unwrap();
    // `trend` says "mixed" only to a callback whose answer depends on the two numbers it is given.
    assert!(suite.contains("\"mixed\"") && suite.contains("function (a, b) { return "), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn comparators_declared_by_a_generic_alias_or_an_interface_are_consistent_orders() {
    // ranked.ts: `Comparator<T>` (an alias of a function type, left to the class's type parameter) and
    // `Ordering<number>` (an interface with a call signature). `relation` says "before" and "after" only to
    // a comparator that orders, both ways round; constants say "same" or are refused.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("comparators/ranked.ts")], out.path(), BUDGET);
    fully_covered(&report, "Ranked", &["relation"]);
    fully_covered(&report, "Ladder", &["relation"]);
    let suites: Vec<_> =
        typescript_suites(out.path()).into_iter().filter(|s| !s.to_string_lossy().contains(".failing.")).collect();
    let written: String = suites.iter().map(|s| std::fs::read_to_string(s).unwrap()).collect();
    assert!(written.contains("new Ladder(function (a, b) { return "), "{written}");
    assert!(written.contains("\"before\"") && written.contains("\"after\""), "{written}");
    let loader = runners_with(&["tsx/dist/loader.mjs"]).join("tsx/dist/loader.mjs");
    let run =
        std::process::Command::new("node").arg("--import").arg(&loader).arg("--test").args(&suites).output().unwrap();
    assert!(run.status.success() && String::from_utf8_lossy(&run.stdout).contains("# fail 0"), "{}", text(&run));
}

#[test]
fn a_comparator_javascript_keeps_and_only_calls_is_learnt_to_be_one() {
    // ranked.js: `this.cmp(a, b)` in another method than the one given it; nothing declares it.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("comparators/ranked.js")], out.path(), BUDGET);
    fully_covered(&report, "Ranked", &["relation"]);
    node_test_passes(&suites(out.path()));
}
