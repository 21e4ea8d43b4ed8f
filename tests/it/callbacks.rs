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
