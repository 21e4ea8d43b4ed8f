//! Modules of functions: the functions a module exports (or a namespace object holds) are methods under
//! test without a receiver, and their suites call them by name and pass under Node.

use crate::common;

use std::path::Path;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

fn functions_fixture(name: &str) -> std::path::PathBuf {
    fixture(&format!("functions/{name}"))
}

/// The suite written for unit `name` in `out`.
fn suite_text(out: &Path, name: &str) -> String {
    let found = suites(out).into_iter().find(|p| {
        let file = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
        file == format!("{name}.test.js") || file == format!("{name}.test.mjs")
    });
    let path = found.unwrap_or_else(|| panic!("no suite for {name} in {:?}", suites(out)));
    std::fs::read_to_string(path).expect("suite readable")
}

#[test]
fn a_module_of_functions_gives_a_suite_that_calls_them_without_a_receiver() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[functions_fixture("ranges.cjs")], out.path(), BUDGET);
    fully_covered(&report, "ranges", &["clamp", "gcd", "nextId"]);
    let suite = suite_text(out.path(), "ranges");
    // Titles and groups name the module; calls name the function alone.
    assert!(suite.contains("describe(\"ranges"), "{suite}");
    for call in ["clamp(", "gcd(", "nextId("] {
        assert!(suite.contains(call) && !suite.contains(&format!(".{call}")), "{call}: {suite}");
    }
    assert!(!suite.contains(".clamp("), "called on a receiver: {suite}");
    assert!(suite.contains("assert.throws(() => { clamp("), "the refused range: {suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn classes_come_first_and_the_functions_of_their_module_are_tested_too() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[functions_fixture("words.mjs")], out.path(), BUDGET);
    let units: Vec<&str> = report["classes"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(units, ["Sentence", "words"], "{report}");
    fully_covered(&report, "words", &["capitalize", "summary", "default"]);
    let suite = suite_text(out.path(), "words");
    // An instance of the module's class is built for a function that takes one; the default export is
    // called by its own name.
    assert!(suite.contains("new Sentence("), "{suite}");
    assert!(suite.contains("initials("), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_function_exported_whole_and_the_functions_set_on_it_are_tested() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[functions_fixture("slug.cjs")], out.path(), BUDGET);
    fully_covered(&report, "slug", &["slug", "isSlug"]);
    let suite = suite_text(out.path(), "slug");
    assert!(suite.contains("isSlug("), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_namespace_of_functions_is_tested_and_a_static_method_on_its_class() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[functions_fixture("namespace.js")], out.path(), BUDGET);
    fully_covered(&report, "Text", &["repeat", "pad"]);
    // The static method is no function of the namespace: it is called on its class, in a unit of its own.
    fully_covered(&report, "Counter (static)", &["zero"]);
    let methods = methods(&report);
    assert!(!methods.iter().any(|m| m.0 == "Text.zero"), "{methods:?}");
    let statics = suite_text(out.path(), "Counter.static");
    assert!(statics.contains("Counter.zero()"), "{statics}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn class_and_method_select_a_function() {
    let out = tempfile::tempdir().unwrap();
    let file = functions_fixture("ranges.cjs");
    let report = generate(&[file], out.path(), &[BUDGET, &["--class", "ranges", "--method", "gcd"]].concat());
    let methods = methods(&report);
    assert_eq!(methods.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(), ["ranges.gcd"], "{methods:?}");
    node_test_passes(&suites(out.path()));
}
