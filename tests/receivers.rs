//! Results as receivers: a call's result that is a new instance of a class of the program becomes a
//! variable of the test (`const stack2 = stack.push(1);`), which later calls use as receiver and as
//! argument, so that persistent APIs (whose methods return a new instance and leave `this` alone) are
//! tested past their empty state. The suites bind those results, assert them and pass under Node, and
//! `generate --update` reads their manifests back.

mod common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

fn stack() -> std::path::PathBuf {
    fixture("receivers/persistent-stack.js")
}

fn suite_text(out: &std::path::Path) -> String {
    let suites = suites(out);
    assert_eq!(suites.len(), 1, "{suites:?}");
    std::fs::read_to_string(&suites[0]).unwrap()
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
    // Every variable a test declares from a result is used after its declaration (minimisation unbinds
    // the others).
    for test in suite.split("test(").skip(1) {
        for line in test.lines() {
            let Some(rest) = line.trim().strip_prefix("const ") else { continue };
            let Some((name, expression)) = rest.split_once(" = ") else { continue };
            if name.starts_with("result") || expression.starts_with("new ") {
                continue;
            }
            let after = &test[test.find(line).unwrap() + line.len()..];
            assert!(after.contains(&format!("{name}.")) || after.contains(&format!("{name})")) || after.contains(&format!("{name},")), "{name} is bound and unused in:\n{test}");
        }
    }
}
