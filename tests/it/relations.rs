//! Arguments that must fit each other: an object read by the names another value gives (a template's
//! context, a route's parameters, declared as a dictionary or not), edges that must join the nodes
//! given beside them, and lists and bytes of the lengths the code demands, alone or of another's, or read
//! in pairs.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "20000", "--timeout", "600"];

#[test]
fn an_object_read_by_a_pattern_s_names_is_fitted_to_them() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("relations/fill.cjs")], out.path(), BUDGET);
    // Before, the context held the names of earlier patterns only: 15 of 16 statements, never an array
    // under a name the pattern asked for.
    fully_covered(&report, "compileObject", &["fill"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_declared_dictionary_is_fitted_to_the_names_read_on_it() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("relations/declared/route.js")], out.path(), BUDGET);
    // Before, a declared `Record<string, ...>` was not watched: 17 of 20 statements.
    fully_covered(&report, "routeObject", &["build"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn edges_are_drawn_from_the_nodes_beside_them() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("relations/order.cjs")], out.path(), BUDGET);
    // Before, `nodes` was taken for a plain object (QuickJS's "iterator must return an object") and no
    // edge joined two given nodes: 3 of 27 statements.
    fully_covered(&report, "order", &["order", "position"]);
    let suite = std::fs::read_to_string(out.path().join("order.test.js")).unwrap();
    assert!(suite.contains("Error\", message: \"cycle\""), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn bytes_are_built_at_the_lengths_their_checks_demand() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("relations/declared/sealing.ts")], out.path(), BUDGET);
    // Before, bytes came at fixed sizes only, none of them 24, 6 or 10, nor a salt's 18, 26 or 40 (checked
    // by a helper, through `includes`), nor a tag's 14 (named by a constant): 2 of 12 statements of seal,
    // 3 of 9 of derive, 2 of 3 of matches.
    fully_covered(&report, "sealing", &["seal", "derive", "matches"]);
}

#[test]
fn lists_are_built_at_the_lengths_their_checks_demand_and_of_each_other_s() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("relations/lengths.cjs")], out.path(), BUDGET);
    // Before, lists were 5 items long at most, never 9 or 7, and a second list never as long as the
    // first: 2 of 6 statements of grid, 4 of 8 of week.
    fully_covered(&report, "lengths", &["grid", "week"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn lists_read_in_pairs_are_built_of_several_pairs() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("relations/polygon.cjs")], out.path(), BUDGET);
    // Before, lists were 5 items long at most, two points: 3 of 12 statements of turn.
    fully_covered(&report, "Polygon", &["turn"]);
    node_test_passes(&suites(out.path()));
}
