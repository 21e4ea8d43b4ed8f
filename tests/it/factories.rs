//! Objects a factory builds: a function whose calls return new plain objects of closures makes a unit of
//! state, whose methods are the object's function members and whose instances its calls make; the factory
//! stays a function under test too.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "15000", "--timeout", "600"];

fn roster() -> PathBuf {
    fixture("factories/roster.cjs")
}

fn read(out: &Path, file: &str) -> String {
    std::fs::read_to_string(out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn the_objects_a_factory_builds_are_tested_through_their_methods() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[roster()], out.path(), BUDGET);
    let methods = methods(&report);
    let names: Vec<&str> = methods.iter().map(|m| m.0.as_str()).collect();
    // Named by what the factory makes; the listeners another file mixed in are not its own methods; the
    // registry every call of `sharedRegistry` answers is shared state, not a unit; the factory stays a
    // function of its module.
    assert_eq!(
        names,
        [
            "Roster.enroll",
            "Roster.gradeOf",
            "Roster.drop",
            "Roster.best",
            "Roster.size",
            "Roster.isFull",
            "roster.createRoster",
            "roster.sharedRegistry"
        ],
        "{methods:?}"
    );
    // `gradeOf` answers only for a name an earlier `enroll` added: its last statement needs that state.
    for (name, covered, total, stop) in methods.iter().filter(|m| m.0.starts_with("Roster.")) {
        assert_eq!(covered, total, "{name} covered {covered}/{total} (stop: {stop})");
    }
    let suite = read(out.path(), "Roster.test.js");
    assert!(suite.contains("describe(\"Roster\"") && suite.contains("= createRoster("), "{suite}");
    assert!(!suite.contains("new Roster") && !suite.contains("new createRoster"), "{suite}");
    // The factory has one name, as the maker of its objects and as a function of its module, whose
    // suite is numbered: `roster` differs from `Roster` in case alone (see `export::suite_stem`).
    let functions = read(out.path(), "roster.2.test.js");
    assert!(functions.contains("function (createRoster, sharedRegistry)"), "{functions}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn the_suite_of_a_factorys_objects_passes_under_jest() {
    let out = tempfile::tempdir().unwrap();
    generate(&[roster()], out.path(), &[BUDGET, &["--format", "jest"]].concat());
    let regression: Vec<PathBuf> =
        suites(out.path()).into_iter().filter(|p| !p.to_string_lossy().contains(".failing.")).collect();
    assert_eq!(regression.len(), 2, "{regression:?}");
    let jest = root().join("tests/runners/node_modules/.bin/jest");
    assert!(jest.exists(), "{} is missing: run `npm ci --prefix tests/runners`", jest.display());
    let output = Command::new(jest)
        .args(["--ci", "--config", "{}"])
        .args(regression.iter().map(|p| p.file_name().unwrap()))
        .env("NODE_PATH", root().join("tests/runners/node_modules"))
        .env("NO_COLOR", "1")
        .current_dir(out.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "jest failed: {}", text(&output));
}

#[test]
fn a_class_a_factory_returns_is_found_when_its_prototype_has_no_constructor_of_its_own() {
    // ES5 libraries that pick one of several hidden representations fill prototypes made by
    // `Object.create(Base.prototype)` member by member: no `constructor` of their own leads to the class.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("factories/lengths.cjs")], out.path(), BUDGET);
    let methods = methods(&report);
    let names: Vec<&str> = methods.iter().map(|m| m.0.as_str()).collect();
    // Named as Node names the class of its instances: after the constructor the prototype inherits.
    for name in ["Length.plus", "Length.isZero", "Length.compare", "Length.valueOf", "Length.toString"] {
        assert!(names.contains(&name), "{name} is not tested: {methods:?}");
    }
    for (name, covered, total, stop) in methods.iter().filter(|m| m.0.starts_with("Length.")) {
        assert_eq!(covered, total, "{name} covered {covered}/{total} (stop: {stop})");
    }
    let suite = read(out.path(), "Length.test.js");
    assert!(suite.contains("= Length(") && !suite.contains("new Length"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn what_a_factorys_class_returns_keeps_its_assertions_through_the_mutation_analysis() {
    // `amount(...)` makes instances of a class the module keeps to itself, and every method returns a new
    // one. The analysis must describe those results as instances of the class, as the election did:
    // described as plain objects there, they looked unstable and every assertion on them was dropped.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("factories/amounts.cjs")], out.path(), &[BUDGET, &["--mutation"]].concat());
    assert_eq!(report["unstable"], serde_json::json!([]), "{:#}", report["warnings"]);
    let suite = read(out.path(), "Amount.test.js");
    for method in ["plus", "times", "negated", "share"] {
        let tests =
            suite.split(&format!("describe(\"{method}\"")).nth(1).unwrap_or_else(|| panic!("{method}:\n{suite}"));
        let tests = tests.split("describe(").next().unwrap_or_default();
        assert!(
            tests.contains("assert.strictEqual(result.cents,"),
            "no assertion on what `{method}` returned:\n{suite}"
        );
    }
    node_test_passes(&suites(out.path()));
}

#[test]
fn classes_behind_factories_that_refuse_an_empty_list_are_bound_in_every_context() {
    // Discovery's inert arguments answer `length` at random: each factory refuses some tries, and every
    // context of the run binds each class again. The base the four classes share is exported by none:
    // its methods are tested once, on the first of them.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("factories/groups.cjs")], out.path(), BUDGET);
    let methods = methods(&report);
    let names: Vec<&str> = methods.iter().map(|m| m.0.as_str()).collect();
    for class in ["AnyOf", "AllOf", "NoneOf", "OneOf"] {
        assert!(names.contains(&format!("{class}.joiner").as_str()), "{class}: {names:?}");
    }
    for inherited in ["add", "render"] {
        let testing =
            names.iter().filter(|n| n.ends_with(&format!(".{inherited}")) && !n.starts_with("NoneOf.")).count();
        assert_eq!(testing, 1, "{inherited}: {names:?}");
    }
    for (name, covered, total, stop) in &methods {
        assert_eq!(covered, total, "{name} covered {covered}/{total} (stop: {stop})");
    }
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_factory_that_refuses_probing_arguments_still_makes_a_unit_of_its_objects() {
    // `createMachine` throws for no arguments, for as many inert values (functions) as it declares, and for
    // numbers or strings: only a transition function with its optional parameters left out makes a
    // machine. Its objects are still the unit, built by calling the factory with arguments the engine
    // infers, and the suite calls the factory then the methods.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("factories/machines.cjs")], out.path(), BUDGET);
    let methods = methods(&report);
    let names: Vec<&str> = methods.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(
        names,
        ["Machine.send", "Machine.current", "Machine.watch", "Machine.count", "machines.createMachine"],
        "{methods:?}"
    );
    for (name, covered, total, stop) in methods.iter().filter(|m| m.0.starts_with("Machine.")) {
        assert_eq!(covered, total, "{name} covered {covered}/{total} (stop: {stop})");
    }
    let suite = read(out.path(), "Machine.test.js");
    assert!(suite.contains("= createMachine(function") && suite.contains(".send({"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn the_closures_of_a_factory_reached_through_re_exports_are_its_methods() {
    // The entry only re-exports `createTally` from a file the user never names: the closures it returns are
    // in the factory's own file, so they are the unit's methods, not functions mixed in from elsewhere.
    // `beginTally`, walked first, only forwards to it: its objects are the same unit, named by the factory
    // that defines their closures, and it stays a function of its module, under its own name.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("factories/tally/index.mjs")], out.path(), BUDGET);
    let methods = methods(&report);
    let names: Vec<&str> = methods.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(
        names,
        ["Tally.add", "Tally.countOf", "Tally.leader", "tally.beginTally", "tally.createTally"],
        "{methods:?}"
    );
    for (name, covered, total, stop) in methods.iter().filter(|m| m.0.starts_with("Tally.")) {
        assert_eq!(covered, total, "{name} covered {covered}/{total} (stop: {stop})");
    }
    let suite = read(out.path(), "Tally.test.mjs");
    assert!(suite.contains("= createTally(") && suite.contains(".add(\""), "{suite}");
    let functions = read(out.path(), "tally.2.test.mjs");
    assert!(functions.contains("function (beginTally, createTally)"), "{functions}");
    node_test_passes(&suites(out.path()));
}
