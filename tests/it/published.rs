//! Loading what people publish (`tests/fixtures/published`, one fixture per shape, written fresh): plain
//! scripts with ES2015 top-level declarations, compiled CommonJS (TypeScript, Babel, esbuild, webpack,
//! rollup's UMD), package folders (`exports` and `main`, subpath `imports`) and ES-module packages, classes only a factory
//! makes, Node's built-in modules and globals, and suites that must pass under Node although engines round
//! some results differently. Each suite runs under `node --test`, loading the subject as Node does.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;

fn published(name: &str) -> PathBuf {
    fixture(&format!("published/{name}"))
}

/// Generates a suite for `target` into a fresh folder, checks that it passes under `node --test`, and
/// returns the report and the folder.
fn generate_passing(target: &Path) -> (serde_json::Value, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let report =
        generate(&[target.to_path_buf()], out.path(), &["--seed", "1", "--budget", "20000", "--timeout", "600"]);
    node_test_passes(&suites(out.path()));
    (report, out)
}

fn class_names(report: &serde_json::Value) -> Vec<String> {
    report["classes"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect()
}

fn read(out: &Path, name: &str) -> String {
    std::fs::read_to_string(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_script_with_top_level_class_let_and_const_runs_once() {
    let (report, out) = generate_passing(&published("script-class.js"));
    assert_eq!(class_names(&report), ["Shelf"]);
    let suite = read(out.path(), "Shelf.test.js");
    // Its top level ran once in the sandbox, as it does in the suite's vm context.
    assert!(suite.contains("assert.strictEqual(shelf.opened(), 1);"), "{suite}");
    assert!(suite.contains("new vm.Script"), "{suite}");
}

#[test]
fn typescript_output_is_tested_through_the_entry_its_package_exports_to_require() {
    let (report, out) = generate_passing(&published("ts-compiled"));
    let mut names = class_names(&report);
    names.sort();
    // Named by export path: `Rates` is the compiled `export { default as Rates }`, `Entry` comes through
    // `__exportStar`; all are getters on `exports`.
    assert_eq!(names, ["Entry", "Ledger", "Rates"]);
    let suite = read(out.path(), "Ledger.test.js");
    assert!(suite.contains("dist/cjs/index.js\""), "the CommonJS build, not the one for bundlers: {suite}");
    assert!(suite.contains("required[0].Ledger"), "{suite}");
    assert!(report["warnings"].as_array().unwrap().is_empty(), "{}", report["warnings"]);
}

#[test]
fn a_package_whose_main_hands_on_another_file() {
    let (report, out) = generate_passing(&published("redirect"));
    assert_eq!(class_names(&report), ["Meter"]);
    assert!(read(out.path(), "Meter.test.js").contains("src/main.js\""));
}

#[test]
fn bundles_that_export_through_getters_and_universal_wrappers() {
    for (file, class) in [("esbuild-cjs.js", "Tally"), ("webpack-umd.js", "Length"), ("umd-rollup.js", "Span")] {
        let (report, out) = generate_passing(&published(file));
        // Classes come first; a bundle's exported functions (esbuild's `tally`) form a unit after them.
        assert_eq!(class_names(&report)[0], class, "{file}");
        let suite = read(out.path(), &format!("{class}.test.js"));
        assert!(suite.contains("requireFresh()"), "{file} loads as CommonJS, as under Node: {suite}");
    }
}

#[test]
fn an_es_module_package_is_imported_with_its_names_as_exported() {
    let (report, out) = generate_passing(&published("esm-package"));
    let mut names = class_names(&report);
    names.sort();
    assert_eq!(names, ["CircularBuffer", "Queue", "Stack"]);
    let suite = read(out.path(), "CircularBuffer.test.mjs");
    assert!(suite.contains("importFresh()") && suite.contains("imported[0].CircularBuffer"), "{suite}");
    // `Queue` extends Node's EventEmitter, imported as `node:events`: its own methods are tested, not
    // those it inherits. It imports `readFileSync` from `fs` by name: the stand-in has it, and a test
    // that calls it is no regression test.
    let queue: Vec<String> = methods(&report).into_iter().map(|m| m.0).filter(|m| m.starts_with("Queue.")).collect();
    assert_eq!(queue, ["Queue.enqueue", "Queue.dequeue", "Queue.restore"]);
    assert!(!read(out.path(), "Queue.test.mjs").contains(".restore("));
}

#[test]
fn a_package_imports_its_own_files_through_its_imports_field() {
    // `#internal/x.js` is `lib/node/x.js` by the `node` condition under a pattern; the browser file it is
    // not throws, so a suite that passes under Node loaded the file Node loads.
    let (report, out) = generate_passing(&published("subpath-imports"));
    assert_eq!(class_names(&report), ["Gauge"]);
    assert!(methods(&report).iter().all(|(_, covered, total, _)| covered == total), "{:?}", methods(&report));
    assert!(read(out.path(), "Gauge.test.mjs").contains("imported[0].Gauge"));
}

#[test]
fn classes_only_a_factory_makes_are_built_through_it() {
    let (report, out) = generate_passing(&published("factory.js"));
    assert_eq!(class_names(&report), ["Tally"]);
    let suite = read(out.path(), "Tally.test.js");
    assert!(suite.contains("= createTally(") && !suite.contains("new Tally"), "{suite}");
    assert!(methods(&report).iter().all(|(_, covered, total, _)| covered == total), "{:?}", methods(&report));
}

#[test]
fn node_built_ins_work_and_host_access_never_becomes_a_regression_test() {
    let (report, out) = generate_passing(&published("builtins.js"));
    let names: Vec<String> = methods(&report).into_iter().map(|m| m.0).collect();
    assert_eq!(names, ["Bell.ring", "Bell.where", "Bell.heard", "Bell.decode", "Bell.save", "Chime.play"]);
    let bell = read(out.path(), "Bell.test.js");
    assert!(!bell.contains(".save("), "a test that reached the file system is no regression test: {bell}");
    let log = read(out.path(), "Bell.failing.log");
    assert!(log.contains("HostAccessError: no host access in the sandbox: fs.writeFileSync()"), "{log}");
}

#[test]
fn node_built_ins_answer_as_nodes_own_do() {
    // Each method feeds fixed inputs to `util`, `path`, `assert`, `events`, `string_decoder` and the
    // globals and answers one string: the suite passing under Node is the comparison.
    let (_, out) = generate_passing(&published("node-parity.js"));
    let suite = read(out.path(), "Parity.test.js");
    for method in ["inspect", "format", "paths", "asserts", "events", "bytes"] {
        assert!(suite.contains(&format!("assert.strictEqual(parity.{method}(), \"")), "{method}: {suite}");
    }
}

#[test]
fn a_string_spread_into_an_object_copies_its_characters_as_under_node() {
    let (_, out) = generate_passing(&published("spread.js"));
    let suite = read(out.path(), "Record.test.js");
    assert!(suite.contains("record.letters(") && suite.contains("\"0\": "), "{suite}");
}

#[test]
fn date_setters_given_nan_make_the_date_invalid_as_under_node() {
    let (_, out) = generate_passing(&published("dates.js"));
    let suite = read(out.path(), "Day.test.js");
    assert!(suite.contains("assert.strictEqual(day.forget(), NaN)"), "{suite}");
}

#[test]
fn typed_arrays_never_store_the_key_nan_as_under_node() {
    let (_, out) = generate_passing(&published("typed-nan.js"));
    let suite = read(out.path(), "Samples.test.js");
    assert!(suite.contains("assert.strictEqual(samples.stored("), "{suite}");
}

#[test]
fn numbers_engines_round_differently_are_compared_within_a_tolerance() {
    let (_, out) = generate_passing(&published("floats.js"));
    let suite = read(out.path(), "Curve.test.js");
    assert!(suite.contains("within 1e-12 of "), "{suite}");
}

#[test]
fn a_power_s_last_bit_grown_by_the_arithmetic_after_it_stays_within_the_tolerance() {
    // `swatches()` differs from Node by 17 to 100 units in the last place of its results (QuickJS's
    // `**` rounds one bit otherwise, then cube roots, a difference of larger terms and a scaling by 100):
    // the suite passing under Node is the check.
    let (_, out) = generate_passing(&published("powers.js"));
    let suite = read(out.path(), "Tone.test.js");
    assert!(suite.contains("tone.swatches()") && suite.contains("within 1e-12 of 0.30472627135771"), "{suite}");
}

#[test]
fn a_test_that_reads_a_global_the_sandbox_lacks_is_no_regression_test() {
    // `Intl`, `fetch` and `process` exist under Node: what the sandbox saw without them (a ReferenceError,
    // another path) would fail there.
    let (_, out) = generate_passing(&published("absent-globals.js"));
    let suite = read(out.path(), "Formats.test.js");
    assert!(suite.contains(".fixed(") && suite.contains("formats.shared(), true"), "{suite}");
    for absent in [".money(", ".link(", ".platform("] {
        assert!(!suite.contains(absent), "{absent}: {suite}");
    }
}

#[test]
fn node_globals_are_there_as_under_node() {
    let (_, out) = generate_passing(&published("node-globals.js"));
    let suite = read(out.path(), "Codec.test.js");
    assert!(!suite.contains("no Buffer") && !suite.contains("no TextDecoder"), "{suite}");
}

#[test]
fn classes_the_assertions_name_are_in_the_tests_scope() {
    let (_, out) = generate_passing(&published("unbound-class.js"));
    let suite = read(out.path(), "Deck.test.js");
    assert!(suite.contains("instanceof Card"), "{suite}");
}

#[test]
fn a_folder_without_an_entry_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("package.json"), "{ \"name\": \"empty\" }").unwrap();
    let output =
        flycatcher(&["generate", dir.path().to_str().unwrap(), "--out", dir.path().join("out").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no main file and no index.js"), "{stderr}");
}

#[test]
fn an_es_module_node_cannot_load_is_said_to_be() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[published("ts-compiled/dist/esm/index.js")], out.path(), &["--seed", "1"]);
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("imports './ledger' without its file extension"), "{warnings}");
}

#[test]
fn sorting_with_a_comparator_orders_and_compares_as_under_node() {
    // Each method sorts fixed arrays: the order an inconsistent comparator gives and the comparisons
    // made are the engine's own, so the suite passing under Node is the comparison.
    let (_, out) = generate_passing(&published("sorting.js"));
    let suite = read(out.path(), "Sorter.test.js");
    assert!(suite.contains("assert.strictEqual(sorter.constant(), \"true,false,3,1,2,5,4,9,7\")"), "{suite}");
    assert!(suite.contains("assert.strictEqual(sorter.calls(), \"2:4 9:2 9:4 1:4 "), "{suite}");
}
