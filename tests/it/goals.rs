//! What a method's coverage goal holds: the functions of its file it calls by plain name or through the
//! members of the file's own objects (not under test themselves), and not the closures a factory
//! returns, which the goals of what it makes hold; nor what never runs as a statement.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

/// The report's entry of method `name` of unit `unit`.
fn method<'a>(report: &'a serde_json::Value, unit: &str, name: &str) -> &'a serde_json::Value {
    let classes = report["classes"].as_array().expect("classes");
    let class = classes.iter().find(|c| c["name"] == unit).unwrap_or_else(|| panic!("no unit {unit}: {report:#}"));
    let methods = class["methods"].as_array().expect("methods");
    methods.iter().find(|m| m["name"] == name).unwrap_or_else(|| panic!("no {unit}.{name}: {report:#}"))
}

#[test]
fn an_exported_function_covers_the_module_functions_it_calls() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/duration.cjs")], out.path(), BUDGET);
    let duration = method(&report, "duration", "duration");
    // `parse` and `format` by name, and the arrow `plural` through `format`.
    assert_eq!(duration["helpers"], serde_json::json!(["parse", "format", "plural"]), "{duration:#}");
    fully_covered(&report, "duration", &["duration"]);
    let statements = duration["statements"].as_u64().unwrap();
    assert!(statements > 20, "the helpers' statements count: {duration:#}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn exported_functions_share_the_helper_they_both_call() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/shapes.mjs")], out.path(), BUDGET);
    for name in ["area", "larger"] {
        assert_eq!(method(&report, "shapes", name)["helpers"], serde_json::json!(["measure"]), "{report:#}");
    }
    fully_covered(&report, "shapes", &["area", "larger"]);
    // A branch of `measure` one of them reached is covered for the other: together they keep at most a
    // test per statement of their own code and of `measure`'s.
    let elected: u64 =
        ["area", "larger"].iter().map(|m| method(&report, "shapes", m)["elected"].as_u64().unwrap()).sum();
    assert!(elected <= 3 + 1 + 9, "{report:#}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_factory_covers_its_own_code_and_its_closures_are_the_made_methods_goals() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/stream.mjs")], out.path(), BUDGET);
    // The factory's own run defines `feed`, `reset` and `dispatch` without running them: its goal is the
    // rest, which one call covers.
    let factory = method(&report, "stream", "createParser");
    assert_eq!(factory["stop"], "covered", "{factory:#}");
    assert_eq!(factory["statements"], 5, "{factory:#}");
    // The closures stay in the goals of what it makes, `dispatch` in `feed`'s, which calls it.
    assert_eq!(method(&report, "Parser", "feed")["helpers"], serde_json::json!(["dispatch"]), "{report:#}");
    fully_covered(&report, "Parser", &["feed", "reset"]);
    let feed = method(&report, "Parser", "feed");
    assert!(feed["statements"].as_u64().unwrap() > 20, "{feed:#}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn statements_that_never_run_are_no_part_of_a_goal() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/hoisted.js")], out.path(), BUDGET);
    // `toHex`'s `var` after its `return`, `clamp`'s declarations without an initialiser and the statement
    // after `describe`'s `throw` are not counted: what is left is covered, and each stops as soon as it is.
    for (name, statements) in [("toHex", 2), ("clamp", 4), ("describe", 4)] {
        let found = method(&report, "hoisted", name);
        assert_eq!(found["statements"], statements, "{found:#}");
        assert_eq!(found["stop"], "covered", "{found:#}");
    }
    node_test_passes(&suites(out.path()));
}

#[test]
fn functions_kept_on_an_object_cover_the_private_members_they_call_through_its_name() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/packer.cjs")], out.path(), BUDGET);
    // `Packer._encode(...)` and `Packer['_decode'](...)`: members of the object literal the module keeps.
    for name in ["pack", "packWide"] {
        assert_eq!(method(&report, "packer", name)["helpers"], serde_json::json!(["_encode"]), "{report:#}");
    }
    let unpack = method(&report, "packer", "unpack");
    assert_eq!(unpack["helpers"], serde_json::json!(["_decode"]), "{unpack:#}");
    assert!(unpack["statements"].as_u64().unwrap() > 10, "the helper's statements count: {unpack:#}");
    fully_covered(&report, "packer", &["pack", "packWide", "unpack"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn calls_through_the_exports_and_through_a_name_holding_this_reach_their_helpers() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/ledger.cjs")], out.path(), BUDGET);
    // `module.exports._round(exports._sum(amounts))`.
    let total = method(&report, "ledger", "total");
    assert_eq!(total["helpers"], serde_json::json!(["_sum", "_round"]), "{total:#}");
    // `self._add(item)` in the callback, `self` holding the method's `this`.
    let add_all = method(&report, "Ledger", "addAll");
    assert_eq!(add_all["helpers"], serde_json::json!(["_add"]), "{add_all:#}");
    fully_covered(&report, "ledger", &["total"]);
    fully_covered(&report, "Ledger", &["addAll"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn an_entry_point_that_delegates_to_other_files_of_its_package_covers_their_functions() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/delegate/index.cjs")], out.path(), BUDGET);
    // `scan.tokens(text)` on `require('./lib/scan.cjs')`, whose IIFE returns `{ tokens: tokens }`, and the
    // destructured `tree`; then what they call in their own files.
    let parse = method(&report, "delegate", "parse");
    assert_eq!(parse["helpers"], serde_json::json!(["tokens", "tree", "isDigit", "operand"]), "{parse:#}");
    assert!(parse["statements"].as_u64().unwrap() > 25, "the other files' statements count: {parse:#}");
    fully_covered(&report, "delegate", &["parse"]);
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_constructor_that_parses_is_a_goal_of_its_own() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/values.cjs")], out.path(), BUDGET);
    // `new Values(text)` runs `tokenize`, which no method calls: the constructor's goal holds it, and
    // its tests build instances from inputs that reach each kind of token, and the errors.
    // Reported apart from the methods, which it is not one of.
    let class = &report["classes"][0];
    assert!(class["methods"].as_array().unwrap().iter().all(|m| m["name"] != "constructor"), "{class:#}");
    let constructor = &class["constructor"];
    assert_eq!(constructor["helpers"], serde_json::json!(["tokenize"]), "{constructor:#}");
    assert_eq!(constructor["stop"], "covered", "{constructor:#}");
    assert!(constructor["statements"].as_u64().unwrap() > 30, "{constructor:#}");
    let suite = std::fs::read_to_string(out.path().join("Values.test.js")).unwrap();
    // A construction refused is asserted as a call that throws is; one accepted, by what a method that
    // takes no argument answers on the instance.
    assert!(suite.contains("assert.throws(() => { new Values("), "{suite}");
    assert!(suite.contains("Unterminated string at"), "{suite}");
    assert!(suite.contains("describe(\"constructor\""), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_class_with_nothing_but_fields_and_getters_is_tested_by_how_it_is_built() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("goals/records.cjs")], out.path(), BUDGET);
    // Beside `Meter`, whose method is tested, the classes with nothing of their own to call were left
    // untested: each has its constructor as its goal, reported as constructors are, its straight code too.
    for name in ["Temperature", "QuotaError", "Refusal", "Options"] {
        let classes = report["classes"].as_array().unwrap();
        let class = classes.iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no {name}: {report:#}"));
        assert_eq!(class["constructor"]["stop"], "covered", "{class:#}");
    }
    let suite = |name: &str| std::fs::read_to_string(out.path().join(format!("{name}.test.js"))).unwrap();
    // Each branch of the constructor is built, and asserted by the fields it set and the getter.
    let temperature = suite("Temperature");
    for wanted in
        ["builds an instance when unit === 'F'", "when unit !== 'F' and unit === 'K'", "temperature.celsius, "]
    {
        assert!(temperature.contains(wanted), "{wanted} in {temperature}");
    }
    assert!(temperature.contains("assert.strictEqual(temperature.freezing, true);"), "{temperature}");
    // An error by its fields and its message (never its stack, which engines write apart).
    let quota = suite("QuotaError");
    for wanted in ["quotaError.name, \"QuotaError\")", "quotaError.over, "] {
        assert!(quota.contains(wanted), "{wanted} in {quota}");
    }
    let refusal = suite("Refusal");
    assert!(refusal.contains("assert.strictEqual(refusal.message, \"refused: "), "{refusal}");
    assert!(!quota.contains(".stack") && !refusal.contains(".stack"), "{quota}{refusal}");
    assert!(suite("Options").contains("assert.strictEqual(options.retries, 3);"));
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_class_with_nothing_to_build_or_call_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("marker.cjs");
    std::fs::write(&file, "class Marker {}\nmodule.exports = { Marker };\n").unwrap();
    let output = flycatcher(&["generate", file.to_str().unwrap(), "--out", dir.path().to_str().unwrap()]);
    assert!(!output.status.success(), "{}", text(&output));
    let said = text(&output);
    assert!(said.contains("have nothing to test: Marker (no method, and no constructor code"), "{said}");
}
