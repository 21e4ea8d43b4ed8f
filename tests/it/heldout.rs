//! Regressions found by running Flycatcher on held-out code (real npm packages), each reproduced on a
//! small self-written fixture: the exported suite must pass where the sandbox passed.

use crate::common;

use common::{fixture, generate, methods, node_test_passes, suites};

/// Generates for a fixture with the seed and budget every test here uses; returns the out folder and the
/// report.
fn generate_for(name: &str) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture(name)], out.path(), &["--seed", "7", "--budget", "120000", "--timeout", "600"]);
    (out, report)
}

/// Panics unless every method of the report is fully covered.
fn fully_covered(report: &serde_json::Value) {
    for (method, covered, statements, _) in methods(report) {
        assert_eq!(covered, statements, "{method} not fully covered");
    }
}

#[test]
fn a_stored_callback_text_is_asserted_up_to_the_text() {
    let (out, _) = generate_for("callback-text.js");
    let suite = std::fs::read_to_string(out.path().join("Handlers.test.js")).unwrap();
    // `describe` returns callbacks' texts: the suite writes each callback, and a runner that compiles the
    // suite (tsx, vitest) prints it back its own way, so a value holding one is asserted a string, up to
    // the text, never whole; nor does the harness's own code show in it.
    assert!(!suite.contains("\"function () { return "), "{suite}");
    assert!(suite.contains("assert.strictEqual(typeof result, \"string\")"), "{suite}");
    assert!(!suite.contains("return result;"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn an_options_object_gets_each_member_typed_like_a_parameter() {
    let (out, report) = generate_for("options-object.js");
    let type_of = |parameter: &str| {
        report["types"].as_array().unwrap().iter().find(|t| t["parameter"] == parameter).map(|t| t["type"].clone())
    };
    assert_eq!(type_of("options"), Some("object".into()));
    assert_eq!(type_of("options.limit"), Some("number".into()));
    assert_eq!(type_of("options.onEvict"), Some("function".into()));
    // A member that is an object itself has typed members too: `clock.now()` must be a function.
    assert_eq!(type_of("options.clock.now"), Some("function".into()));
    fully_covered(&report);
    node_test_passes(&suites(out.path()));
}

#[test]
fn options_read_only_when_another_is_set_are_learnt_too() {
    let (out, report) = generate_for("later-options.js");
    let type_of = |parameter: &str| {
        report["types"].as_array().unwrap().iter().find(|t| t["parameter"] == parameter).map(|t| t["type"].clone())
    };
    // `pad` is read after `prefix` decided the object, `width` and `fill` only on runs that set `pad`:
    // the object passed reports the members it lacks, so each gets a record and a type of its own.
    assert_eq!(type_of("options"), Some("object".into()));
    assert_eq!(type_of("options.pad"), Some("boolean".into()));
    assert_eq!(type_of("options.width"), Some("number".into()));
    assert_eq!(type_of("options.fill"), Some("string".into()));
    fully_covered(&report);
    node_test_passes(&suites(out.path()));
}

#[test]
fn calls_that_return_promises_are_awaited_and_their_rejections_asserted() {
    let (out, report) = generate_for("async-cache.cjs");
    fully_covered(&report);
    let path = out.path().join("AsyncCache.test.js");
    let suite = std::fs::read_to_string(&path).unwrap();
    // `get` rejects for a key that is not a string; `put` builds its promise without `async`.
    assert!(suite.contains("await assert.rejects(async () => { await asyncCache.get("), "{suite}");
    assert!(suite.contains("async function (AsyncCache)"), "{suite}");
    assert!(suite.contains("asyncCache.size()") && !suite.contains("await asyncCache.size()"), "{suite}");
    node_test_passes(&suites(out.path()));

    // The awaited value is what is compared: another expected value fails under node.
    let awaited = suite.lines().find(|l| l.contains("assert.strictEqual(await asyncCache.put(")).expect("put's result");
    let (head, _) = awaited.rsplit_once(", ").unwrap();
    std::fs::write(&path, suite.replace(awaited, &format!("{head}, -1);"))).unwrap();
    let output = std::process::Command::new("node").arg("--test").arg(&path).output().unwrap();
    assert!(!output.status.success(), "a wrong awaited value must fail: {}", String::from_utf8_lossy(&output.stdout));
}

#[test]
fn code_that_logs_runs_as_under_node() {
    let (out, report) = generate_for("console-warnings.js");
    // Without a `console` every constructor call threw `ReferenceError` and nothing was covered.
    fully_covered(&report);
    node_test_passes(&suites(out.path()));
}

#[test]
fn calls_change_their_argument_count_where_the_code_reads_it() {
    let (out, report) = generate_for("optional-arguments.js");
    // `switch (arguments.length)` and `suffix === undefined` need calls with fewer arguments, its
    // default case and `push()`'s loop over `arguments` calls with more.
    fully_covered(&report);
    // The suite writes the shorter calls as they ran.
    let suite = std::fs::read_to_string(out.path().join("Relay.test.js")).unwrap();
    assert!(suite.contains(".label()") && suite.contains(".send()"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn mined_patterns_keep_their_flags() {
    let (out, report) = generate_for("unicode-patterns.js");
    // `rule`'s `unicode` and `unicodeSets` branches need the class's own `/u` and `/v` patterns, flags
    // and all; the suite writes them as literals with their flags, which node must accept.
    fully_covered(&report);
    let suite = std::fs::read_to_string(out.path().join("Tokenizer.test.js")).unwrap();
    assert!(suite.contains("/^\\p{L}+$/u)") && suite.contains("/^[\\p{L}--[aeiouAEIOU]]/v)"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn dictionaries_without_a_prototype_are_asserted_as_such() {
    let (out, _) = generate_for("null-prototype.js");
    let suite = std::fs::read_to_string(out.path().join("Registry.test.js")).unwrap();
    // `snapshot()` and the fields after `reset()` are dictionaries: a `{}` literal fails deep equality.
    assert!(suite.contains("Object.create(null)"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn returned_iterators_are_consumed_and_their_items_asserted() {
    let (out, report) = generate_for("iterators.js");
    // A generator's body and an iterator's `next` run only when the result is consumed.
    fully_covered(&report);
    let suite = std::fs::read_to_string(out.path().join("Bag.test.js")).unwrap();
    assert!(suite.contains("assert.deepStrictEqual(Array.from(result), ["), "{suite}");
    // The endless generator is consumed up to a limit in the sandbox, and not asserted.
    assert!(!suite.contains("Array.from(bag.counter())"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn an_instanceof_check_names_the_type_except_a_copy_constructors_own_class() {
    let (out, report) = generate_for("instanceof-checks.js");
    fully_covered(&report);
    let type_of = |function: &str| {
        let types = report["types"].as_array().unwrap();
        types.iter().find(|t| t["function"] == function).map(|t| t["type"].as_str().unwrap().to_string())
    };
    assert_eq!(type_of("put").as_deref(), Some("Money"));
    assert_eq!(type_of("stamp").as_deref(), Some("Date"));
    assert_eq!(type_of("constructor").as_deref(), Some("number"), "Money's own check is a copy constructor's");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_parameter_of_several_types_gets_each_type_its_code_checks() {
    let (out, report) = generate_for("object-or-name.js");
    let spec = report["types"].as_array().unwrap().iter().find(|t| t["parameter"] == "spec").map(|t| t["type"].clone());
    // The proxy shows only the members the object form reads: the decision is "an object"...
    assert_eq!(spec, Some("object".into()));
    // ...and the string form, which only the `typeof` check names, is reached too.
    fully_covered(&report);
    let suite = std::fs::read_to_string(out.path().join("Swatch.test.js")).unwrap();
    assert!(suite.contains("new Swatch(\"#"), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_value_checked_before_the_options_and_later_rebound_is_inferred_from_the_check() {
    let (out, report) = generate_for("validated-link.js");
    let link = report["types"].as_array().unwrap().iter().find(|t| t["parameter"] == "link").cloned().unwrap();
    // The message names no parameter, but only `link`'s proxy was used before the helper threw; and
    // `link === false` compares what `stripScheme` returned, not what was passed.
    assert_eq!(link["type"], "string", "{link}");
    // "Expected a string but received a null" is about the `null` passed for `link`, not about the
    // options the call passed beside it.
    let types = report["types"].as_array().unwrap();
    assert!(types.iter().all(|t| t["parameter"] != "options.allowLocal" || t["type"] != "string"), "{types:?}");
    fully_covered(&report);
    node_test_passes(&suites(out.path()));
}
