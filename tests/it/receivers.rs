//! Results as receivers: a call's result that is a new instance of a class of the program becomes a
//! variable of the test (`const stack2 = stack.push(1);`), which later calls use as receiver and as
//! argument, so that persistent APIs (whose methods return a new instance and leave `this` alone) are
//! tested past their empty state. The suites bind those results, assert them and pass under Node, and
//! `generate --update` reads their manifests back.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

fn stack() -> std::path::PathBuf {
    fixture("receivers/persistent-stack.js")
}

/// The regression suite written in `out` (not the failing one).
fn suite_text(out: &std::path::Path) -> String {
    let suite = out.join("Stack.test.js");
    std::fs::read_to_string(&suite).unwrap_or_else(|e| panic!("{}: {e}; {:?}", suite.display(), suites(out)))
}

#[test]
fn a_persistent_stack_is_grown_along_its_results_and_its_deeper_branches_covered() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[stack()], out.path(), BUDGET);
    for (method, covered, statements, stop) in methods(&report) {
        assert_eq!(covered, statements, "{method} covered {covered}/{statements} (stop: {stop})");
    }
    let suite = suite_text(out.path());
    // `describe` of two items needs a stack pushed twice: each result is the next call's receiver.
    assert!(suite.contains("const stack2 = stack.push("), "{suite}");
    assert!(suite.contains("= stack2.push("), "{suite}");
    node_test_passes(&suites(out.path()));
    // The manifest keeps the bound results: an update keeps every test as it was.
    let again = flycatcher(&[
        "generate",
        &stack().display().to_string(),
        "--out",
        &out.path().display().to_string(),
        "--update",
        "--seed",
        "1",
        "--budget",
        "60000",
        "--timeout",
        "600",
    ]);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(suite_text(out.path()), suite, "the suite changed on --update: {}", text(&again));
}

#[test]
fn results_that_feed_nothing_are_not_bound_in_the_suite() {
    let out = tempfile::tempdir().unwrap();
    generate(&[stack()], out.path(), BUDGET);
    let suite = suite_text(out.path());
    let tests = &suite[suite.find("describe(\"Stack\"").expect("the class's group")..];
    // Every stack a test declares from a result is used after its declaration (minimisation unbinds the
    // others, whose calls are then asserted as results).
    let mut bound = 0;
    for test in tests.split("test(").skip(1) {
        for (at, line) in test.lines().enumerate() {
            let Some((name, _)) = line.trim().strip_prefix("const stack").and_then(|rest| rest.split_once(" = "))
            else {
                continue;
            };
            if name.is_empty() {
                continue;
            }
            bound += 1;
            let name = format!("stack{name}");
            let later: Vec<&str> = test.lines().skip(at + 1).collect();
            assert!(
                later.iter().any(|l| l.contains(&format!("{name}.")) || l.contains(&format!("{name})"))),
                "{name} is bound and unused in:\n{test}"
            );
        }
    }
    assert!(bound > 0, "no result bound:\n{tests}");
}
