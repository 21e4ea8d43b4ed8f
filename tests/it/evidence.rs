//! Evidence of a parameter's type that a recording proxy cannot see by itself, each on a fixture of
//! `tests/fixtures/evidence/`: options copied before they are read, `Array.isArray` checks and
//! iteration, a value converted with `toString()` before the code that uses it as a string, and items
//! read by index and computed with, and a value compared with its own `parseInt`.

use crate::common;

use common::{fixture, fully_covered, generate, node_test_passes, suites};

/// Generates for a fixture at a fixed seed and counted budget; returns the out folder and the report.
fn generate_for(name: &str) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let path = fixture(&format!("evidence/{name}"));
    let report = generate(&[path], out.path(), &["--seed", "7", "--budget", "20000", "--timeout", "600"]);
    (out, report)
}

/// The type the report gives `parameter`.
fn type_of(report: &serde_json::Value, parameter: &str) -> Option<String> {
    let types = report["types"].as_array().unwrap();
    types.iter().find(|t| t["parameter"] == parameter).and_then(|t| t["type"].as_str().map(String::from))
}

#[test]
fn members_read_on_a_copy_of_the_options_are_members_of_the_options() {
    let (out, report) = generate_for("durations.js");
    // `var o = assign({}, DEFAULTS, options)`: the proxy only saw its keys listed; `unit`, `precision`...
    // are read on `o`, in the helpers it is passed to, and so are the checks that type them.
    assert_eq!(type_of(&report, "options").as_deref(), Some("object"));
    assert_eq!(type_of(&report, "options.unit").as_deref(), Some("string"));
    assert_eq!(type_of(&report, "options.compact").as_deref(), Some("boolean"));
    assert_eq!(type_of(&report, "options.precision").as_deref(), Some("number"));
    fully_covered(&report, "durations", &["formatDuration"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn an_array_is_array_check_or_an_iteration_asks_for_an_array() {
    let (out, report) = generate_for("lists.js");
    // `widest` returns -1 for anything but an array and throws nothing: only the check says what it wants.
    assert_eq!(type_of(&report, "rows").as_deref(), Some("array"));
    assert_eq!(type_of(&report, "values").as_deref(), Some("array"));
    // `for (const word of words)` and `[...items]` iterate them: arrays, not objects that threw.
    assert_eq!(type_of(&report, "words").as_deref(), Some("array"));
    assert_eq!(type_of(&report, "items").as_deref(), Some("array"));
    fully_covered(&report, "lists", &["total", "widest", "longest", "copyOf"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_value_converted_with_to_string_is_a_string() {
    let (out, report) = generate_for("ini.js");
    // `parser.parse(input.toString())`: the conversion is the only use of `input` itself.
    assert_eq!(type_of(&report, "input").as_deref(), Some("string"));
    fully_covered(&report, "ini", &["parse"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_value_whose_items_are_read_by_index_and_computed_with_is_an_array_of_many() {
    let (out, report) = generate_for("outlines.js");
    // `points[b] - points[a]`, in helpers it is handed to: only the items' use tells it from a string,
    // whose characters `initials` compares and joins.
    assert_eq!(type_of(&report, "points").as_deref(), Some("array"));
    assert_eq!(type_of(&report, "name").as_deref(), Some("string"));
    // Every answer but `degenerate` wants six items or more: the loops over `points` ask for them.
    fully_covered(&report, "outlines", &["classify", "initials"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_value_compared_with_its_own_parse_int_is_a_number() {
    let (out, report) = generate_for("equalizer.js");
    // `parseInt(value, 10) === value`, two helpers below the constructor: parseInt asks the proxy for a
    // string, but only a number passes. Taken for a string, no array of five passed, and every
    // construction threw.
    assert_eq!(type_of(&report, "levels[i]").as_deref(), Some("number"));
    let constructor = &report["classes"][0]["constructor"];
    assert_eq!(constructor["covered"], constructor["statements"], "{constructor}");
    fully_covered(&report, "Equalizer", &["loudest"]);
    node_test_passes(&suites(out.path()));
}
