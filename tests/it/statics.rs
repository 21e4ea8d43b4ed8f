//! Static members of classes: a class's own static methods are tested on the class (`Version.parse(text)`),
//! in a unit of their own (`Version (static)`), and the static methods, getters and fields that make the
//! class's instances make receivers and arguments where its constructor takes an internal form. The suites
//! pass under every runner and are read back from their manifests.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

fn statics_fixture(name: &str) -> PathBuf {
    fixture(&format!("statics/{name}"))
}

/// The regression suite written in `out` whose file name starts with `stem.test.`.
fn suite_text(out: &Path, stem: &str) -> String {
    let prefix = format!("{stem}.test.");
    let found =
        suites(out).into_iter().find(|p| p.file_name().unwrap_or_default().to_string_lossy().starts_with(&prefix));
    let path = found.unwrap_or_else(|| panic!("no suite {stem} in {:?}", suites(out)));
    std::fs::read_to_string(path).expect("suite readable")
}

#[test]
fn static_methods_are_tested_on_their_class_and_its_factories_make_its_instances() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[statics_fixture("version.mjs")], out.path(), BUDGET);
    // The constructor refuses every call but the factories': the instance methods are reached through them.
    fully_covered(&report, "Version", &["bump", "isStable", "newerThan", "toString"]);
    fully_covered(&report, "Version (static)", &["of", "parse", "compare", "isValid"]);
    let statics = suite_text(out.path(), "Version.static");
    assert!(statics.contains("describe(\"Version (static)"), "{statics}");
    for call in ["Version.of(", "Version.parse(", "Version.compare(", "Version.isValid("] {
        assert!(statics.contains(call), "{call} is not called on the class: {statics}");
    }
    // A getter is a way to make an instance, no method under test.
    assert!(!methods(&report).iter().any(|m| m.0.ends_with(".ZERO")), "{report}");
    let instances = suite_text(out.path(), "Version");
    let made = ["= Version.of(", "= Version.parse(", "= Version.ZERO;"];
    assert!(made.iter().any(|m| instances.contains(m)), "no receiver made by a factory: {instances}");
    assert!(!instances.contains("new Version("), "the constructor refuses users: {instances}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn static_members_set_on_an_es5_constructor_are_tested_and_private_ones_are_not() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[statics_fixture("color.cjs")], out.path(), BUDGET);
    fully_covered(&report, "Color", &["hex", "lighter", "isDark"]);
    fully_covered(&report, "Color (static)", &["fromHex", "mix"]);
    assert!(!methods(&report).iter().any(|m| m.0.ends_with("._clamp")), "a private static was tested: {report}");
    // A static field holding an instance (`Color.BLACK`) or a factory makes the receivers.
    let instances = suite_text(out.path(), "Color");
    assert!(instances.contains("= Color.BLACK;") || instances.contains("= Color.fromHex("), "{instances}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn suites_of_static_members_pass_under_every_runner() {
    for format in ["jest", "mocha", "vitest"] {
        let out = tempfile::tempdir().unwrap();
        let verify = out.path().join("verify.json").display().to_string();
        let node_modules = root().join("tests/runners/node_modules").display().to_string();
        let mut all = vec!["generate".to_string(), statics_fixture("version.mjs").display().to_string()];
        all.extend(["--out".to_string(), out.path().display().to_string()]);
        all.extend(BUDGET.iter().map(|s| s.to_string()));
        let more = ["--format", format, "--verify", "--node-modules", &node_modules, "--report", &verify];
        all.extend(more.iter().map(|s| s.to_string()));
        let output = flycatcher(&all.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(output.status.success(), "{format}: {}", text(&output));
        let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&verify).unwrap()).unwrap();
        let verified = &report["verify"];
        assert_eq!(verified["failed"], 0, "{format}: {verified}");
        assert!(verified["passed"].as_u64().unwrap() > 4, "{format}: {verified}");
        let names: Vec<&str> =
            verified["tests"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
        assert!(names.iter().any(|n| n.starts_with("Version (static)")), "{format}: {names:?}");
    }
}

#[test]
fn a_suite_of_static_members_is_read_back_from_its_manifest() {
    let out = tempfile::tempdir().unwrap();
    let file = statics_fixture("version.mjs");
    generate(std::slice::from_ref(&file), out.path(), BUDGET);
    let before = written(out.path());
    let report = generate(&[file], out.path(), &[BUDGET, &["--update"]].concat());
    // Every test, the static members' and those whose receivers a factory made, still holds as written.
    for (name, _, _, stop) in methods(&report) {
        assert_eq!(stop, "kept", "{name}: {report}");
    }
    let after = written(out.path());
    for name in ["Version.test.mjs", "Version.static.test.mjs"] {
        assert_eq!(before.get(name), after.get(name), "{name} changed");
    }
}

#[test]
fn a_static_function_that_loops_on_what_discovery_passes_it_ends_alone() {
    // Whether a static function makes instances is tried by calling it: `lexWord` loops for ever over an
    // inert lexer. That call used to run inside the walk, whose time limit then ended discovery itself
    // ("discovering classes: interrupted"): no class was found at all.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[statics_fixture("lexer.cjs")], out.path(), BUDGET);
    fully_covered(&report, "Lexer", &["next", "words"]);
    let tested: Vec<String> = methods(&report).into_iter().map(|m| m.0).collect();
    assert!(tested.iter().any(|m| m.ends_with(".lexWord")), "{tested:?}");
    let instances = suite_text(out.path(), "Lexer");
    assert!(instances.contains("= Lexer.of(") || instances.contains("new Lexer("), "{instances}");
    node_test_passes(&suites(out.path()));
}
