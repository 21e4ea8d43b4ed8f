//! Structured object arguments built to fit: members a function passes back to a function under test
//! (`evaluate(node.left)`, `validate(item, schema.items)`, `validate(v, props[key])`) are built in that
//! parameter's shape, and a member compared with several literals (`node.type`) is given them.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "20000", "--timeout", "600"];
/// Three times [`BUDGET`], for the evaluator of syntax trees (see its test).
const TREE_BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

/// (covered, statements) of `unit.method` in `report`.
fn coverage(report: &serde_json::Value, method: &str) -> (u64, u64) {
    let methods = methods(report);
    let found = methods.iter().find(|m| m.0 == method).unwrap_or_else(|| panic!("no {method} in {methods:?}"));
    (found.1, found.2)
}

#[test]
fn a_syntax_tree_is_built_of_nodes_its_evaluator_reads() {
    let out = tempfile::tempdir().unwrap();
    // Each operator's branch needs a tree whose every node is well formed: under `BUDGET` the last one or
    // two statements rested on the draw, three times that reaches them at each seed tried.
    let report = generate(&[fixture("structured/expr.cjs")], out.path(), TREE_BUDGET);
    // Before, `node.left` was an object of its own kind (`{ type: 1 }`), and `node.type` one of its
    // literals a third of the time: 6 of 15 statements.
    let (covered, statements) = coverage(&report, "expr.evaluate");
    assert!(covered + 1 >= statements, "evaluate covered {covered}/{statements}");
    fully_covered(&report, "expr", &["depth"]);
    let suite = std::fs::read_to_string(out.path().join("expr.test.js")).unwrap();
    assert!(suite.contains("type: \"bin\"") && suite.contains("type: \"num\""), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_schema_is_built_of_schemas_under_its_keys_and_items() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("structured/schema.cjs")], out.path(), BUDGET);
    // Before, `schema.properties` was never read (no instance was an object), nor were the branches of
    // nested schemas: 32 of 47 statements.
    let (covered, statements) = coverage(&report, "schema.validate");
    assert!(covered >= 40, "validate covered {covered}/{statements}");
    let suite = std::fs::read_to_string(out.path().join("schema.test.js")).unwrap();
    assert!(suite.contains("properties: { "), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn an_options_object_takes_each_mode_it_is_compared_with() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("structured/modes.cjs")], out.path(), BUDGET);
    fully_covered(&report, "modes", &["tokenize"]);
    let suite = std::fs::read_to_string(out.path().join("modes.test.js")).unwrap();
    for mode in ["strict", "loose", "chars"] {
        assert!(suite.contains(&format!("mode: \"{mode}\"")), "{mode}: {suite}");
    }
    node_test_passes(&suites(out.path()));
}
