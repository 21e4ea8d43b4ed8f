//! `generate --update`: a suite written by `generate` is brought up to date with the code without churn.
//! With the code unchanged, an update writes nothing; after a one-line edit of one method, only that
//! method's tests differ, the tests whose behaviour changed are named with the reason in the report and
//! in `<Class>.changed.log`, and under `--accept-changes` they are rewritten so that the suite passes
//! again under its real runner. For a JavaScript class under `node --test` and a TypeScript class under
//! `node --import tsx --test`, and for a class of asynchronous methods; the fixtures are in `tests/fixtures/update/`, each with an edited copy.
//! An edit of a helper alone (a private method, a module-private function) reopens exactly the methods
//! reaching it, named with the helper in the report, and keeps the others' tests as they were.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{root, text};

/// Counted budgets and a fixed seed: the same suites on any machine.
const BUDGET: [&str; 6] = ["--budget", "3000", "--timeout", "600", "--seed", "1"];

/// A class to bring up to date: its fixture, the edited copy, the method the edit is in.
struct Case {
    file: &'static str,
    edited: &'static str,
    method: &'static str,
    suite: &'static str,
}

const SHELF: Case = Case { file: "shelf.js", edited: "shelf-edited.js", method: "label", suite: "Shelf.test.js" };
const INBOX: Case = Case { file: "inbox.js", edited: "inbox-edited.js", method: "label", suite: "Inbox.test.js" };
const METER: Case = Case { file: "meter.ts", edited: "meter-edited.ts", method: "describe", suite: "Meter.test.ts" };

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/update").join(name)
}

/// A project holding a copy of the fixture `file`, a `node_modules` link to the runners (where
/// `--import tsx` looks), and the suite generated for it in `out/`.
fn generated(file: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root().join("tests/runners/node_modules"), dir.path().join("node_modules")).unwrap();
    let code = dir.path().join(file);
    std::fs::copy(fixture(file), &code).unwrap();
    let out = dir.path().join("out");
    run(&code, &out, &[]);
    (dir, code, out)
}

/// Runs `generate` on `code` into `out` with `extra` options; returns its JSON report, which is
/// written outside `out` so that `out` holds only what `generate` wrote.
fn run(code: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    run_telling(code, out, extra).0
}

/// [`run`], with the summary it printed.
fn run_telling(code: &Path, out: &Path, extra: &[&str]) -> (serde_json::Value, String) {
    let report = out.with_extension("report.json");
    let mut args = vec!["generate".to_string(), code.display().to_string()];
    args.extend(["--out", &out.display().to_string(), "--report", &report.display().to_string()].map(String::from));
    args.extend(BUDGET.iter().chain(extra).map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = common::flycatcher(&refs);
    assert!(output.status.success(), "generate failed: {}", text(&output));
    let json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    (json, String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Every file in `out`, by name, as bytes.
fn files(out: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}

/// The names of the files that differ between `before` and `after` (written, changed or gone).
fn differing(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let names: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    names.into_iter().filter(|n| before.get(*n) != after.get(*n)).cloned().collect()
}

/// The groups of a suite written for node:test (`describe("method", ...)` blocks), by method, as text.
fn groups(suite: &str) -> BTreeMap<String, String> {
    let mut groups = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in suite.lines() {
        if let Some(rest) = line.strip_prefix("  describe(\"") {
            let name = rest.split('"').next().unwrap().to_string();
            current = Some((name, String::new()));
        }
        if let Some((_, text)) = &mut current {
            text.push_str(line);
            text.push('\n');
        }
        if line == "  });"
            && let Some((name, text)) = current.take()
        {
            groups.insert(name, text);
        }
    }
    assert!(!groups.is_empty(), "no describe group in:\n{suite}");
    groups
}

/// The manifest's test entries whose method is not `method`.
fn other_entries(out: &Path, class: &str, method: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(out.join(format!("{class}.flycatcher.json"))).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    manifest["tests"].as_array().unwrap().iter().filter(|t| t["method"] != method).cloned().collect()
}

/// Runs the suite `name` in `out` under `node --test` (through tsx for TypeScript), from the project
/// folder; panics unless every test passes.
fn passes(out: &Path, name: &str) {
    let mut command = Command::new("node");
    if name.ends_with(".ts") {
        command.args(["--import", "tsx"]);
    }
    let output = command.args(["--test", name]).current_dir(out).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && stdout.contains("# fail 0"), "{name} failed: {}", text(&output));
    assert!(!stdout.contains("# pass 0\n"), "no test ran: {stdout}");
}

/// What every case checks: an update of unchanged code writes nothing; after the edit, only the edited
/// method's tests differ and the changed ones are reported with their reason; `--accept-changes` gives a
/// suite that passes again, and a later update of it writes nothing.
fn brought_up_to_date(case: &Case) {
    let (_dir, code, out) = generated(case.file);
    passes(&out, case.suite);
    let before = files(&out);
    let class = case.suite.split('.').next().unwrap();

    let report = run(&code, &out, &["--update"]);
    assert_eq!(differing(&before, &files(&out)), Vec::<String>::new(), "an update of unchanged code wrote these");
    assert!(report["kept"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(report["changed"], serde_json::json!([]), "{report}");

    std::fs::copy(fixture(case.edited), &code).unwrap();
    let report = run(&code, &out, &["--update"]);
    let changed = report["changed"].as_array().unwrap();
    assert!(!changed.is_empty(), "the edit changed no test's behaviour: {report}");
    for change in changed {
        assert_eq!(change["method"], case.method, "{report}");
        assert_eq!(change["accepted"], false, "{report}");
        assert!(change["reason"].as_str().unwrap().contains("assert"), "the reason names no assertion: {change}");
    }
    let log = std::fs::read_to_string(out.join(format!("{class}.changed.log"))).unwrap();
    for change in changed {
        let heading = format!(
            "## {}: {} (set aside)\n{}\n",
            case.method,
            change["title"].as_str().unwrap(),
            change["reason"].as_str().unwrap()
        );
        assert!(log.contains(&heading), "{heading} is not in the changed log:\n{log}");
    }
    let suite = |out: &Path| String::from_utf8(files(out)[case.suite].clone()).unwrap();
    let (old, new) = (groups(&String::from_utf8(before[case.suite].clone()).unwrap()), groups(&suite(&out)));
    assert_eq!(old.keys().collect::<Vec<_>>(), new.keys().collect::<Vec<_>>(), "groups came or went");
    for (method, text) in &old {
        if method == case.method {
            assert_ne!(&new[method], text, "the edited method's tests did not change");
        } else {
            assert_eq!(&new[method], text, "the tests of {method}, which the edit does not touch, changed");
        }
    }
    let original = tempfile::tempdir().unwrap();
    for (name, bytes) in &before {
        std::fs::write(original.path().join(name), bytes).unwrap();
    }
    assert_eq!(other_entries(&out, class, case.method), other_entries(original.path(), class, case.method));
    passes(&out, case.suite);

    // The same edit, accepted: the tests that changed are rewritten where they were.
    for (name, bytes) in &before {
        std::fs::write(out.join(name), bytes).unwrap();
    }
    std::fs::remove_file(out.join(format!("{class}.changed.log"))).unwrap();
    let report = run(&code, &out, &["--update", "--accept-changes"]);
    let changed = report["changed"].as_array().unwrap();
    assert!(!changed.is_empty() && changed.iter().all(|c| c["accepted"] == true), "{report}");
    let log = std::fs::read_to_string(out.join(format!("{class}.changed.log"))).unwrap();
    assert!(log.contains("(rewritten)"), "{log}");
    let new = groups(&suite(&out));
    for (method, text) in old.iter().filter(|(method, _)| *method != case.method) {
        assert_eq!(&new[method], text, "the tests of {method}, which the edit does not touch, changed");
    }
    passes(&out, case.suite);
    let accepted = files(&out);
    run(&code, &out, &["--update"]);
    assert_eq!(
        differing(&accepted, &files(&out)),
        Vec::<String>::new(),
        "an update after --accept-changes wrote these"
    );
}

#[test]
fn a_javascript_suite_is_brought_up_to_date_without_churn() {
    brought_up_to_date(&SHELF);
}

/// The session that updates learns which methods are asynchronous from the kept tests' own runs, before
/// it compares their assertions: without that it read every awaited call as a synchronous one, and set
/// every test of an asynchronous method aside as changed.
#[test]
fn an_asynchronous_suite_is_brought_up_to_date_without_churn() {
    brought_up_to_date(&INBOX);
}

#[test]
fn a_typescript_suite_is_brought_up_to_date_without_churn() {
    brought_up_to_date(&METER);
}

/// A fixture whose edited copy changes only a helper, which two of its three methods reach.
struct HelperEdit {
    file: &'static str,
    edited: &'static str,
    helper: &'static str,
    callers: [&'static str; 2],
    other: &'static str,
    suite: &'static str,
}

const TALLY: HelperEdit = HelperEdit {
    file: "tally.js",
    edited: "tally-edited.js",
    helper: "_key",
    callers: ["add", "count"],
    other: "size",
    suite: "Tally.test.js",
};
const UNITS: HelperEdit = HelperEdit {
    file: "units.js",
    edited: "units-edited.js",
    helper: "parse",
    callers: ["sum", "larger"],
    other: "kind",
    suite: "units.test.js",
};

/// The report's methods, by name: (how each stopped, statements covered, statements).
fn stops(report: &serde_json::Value) -> BTreeMap<String, (String, u64, u64)> {
    let methods = report["classes"].as_array().unwrap().iter().flat_map(|c| c["methods"].as_array().unwrap());
    methods
        .map(|m| {
            let number = |key: &str| m[key].as_u64().unwrap();
            let stop = m["stop"].as_str().unwrap().to_string();
            (m["name"].as_str().unwrap().to_string(), (stop, number("covered"), number("statements")))
        })
        .collect()
}

/// The methods the report says were reopened, with why.
fn reopened(report: &serde_json::Value) -> BTreeMap<String, String> {
    let reopened = report["reopened"].as_array().unwrap().iter();
    reopened.map(|r| (r["method"].as_str().unwrap().to_string(), r["why"].as_str().unwrap().to_string())).collect()
}

/// After an edit of the helper alone, an update reopens the two methods reaching it and no other, says
/// so naming the helper, and generates for the helper's new branch; the third method's tests are kept as
/// they were, and the suite passes.
fn helper_edit_reopens_its_callers(case: &HelperEdit) {
    let (_dir, code, out) = generated(case.file);
    passes(&out, case.suite);
    let before = files(&out);
    let report = run(&code, &out, &["--update"]);
    assert_eq!(differing(&before, &files(&out)), Vec::<String>::new(), "an update of unchanged code wrote these");
    assert_eq!(report["reopened"], serde_json::json!([]), "{report}");

    std::fs::copy(fixture(case.edited), &code).unwrap();
    let (report, summary) = run_telling(&code, &out, &["--update"]);
    let reopened = reopened(&report);
    assert_eq!(reopened.keys().cloned().collect::<Vec<_>>(), sorted(&case.callers), "{report}");
    let class = case.suite.split('.').next().unwrap();
    for (method, why) in &reopened {
        assert_eq!(why, &format!("its helper `{}` changed", case.helper), "{report}");
        let line = format!("reopened: {class}.{method}: {why}\n");
        assert!(summary.contains(&line), "the summary does not say {line}{summary}");
    }
    assert_eq!(report["changed"], serde_json::json!([]), "{report}");
    let stops = stops(&report);
    assert_eq!(stops[case.other].0, "kept", "{report}");
    for caller in case.callers {
        let (stop, covered, statements) = &stops[caller];
        assert_ne!(stop, "kept", "{report}");
        assert_eq!(covered, statements, "the helper's new branch is not covered: {report}");
    }
    let suite = |files: &BTreeMap<String, Vec<u8>>| groups(&String::from_utf8(files[case.suite].clone()).unwrap());
    let (old, new) = (suite(&before), suite(&files(&out)));
    assert_eq!(new[case.other], old[case.other], "the tests of {}, which reaches no helper, changed", case.other);
    assert!(case.callers.iter().any(|c| new[*c] != old[*c]), "no test was added for the helper's new branch");
    let original = tempfile::tempdir().unwrap();
    for (name, bytes) in &before {
        std::fs::write(original.path().join(name), bytes).unwrap();
    }
    let entries = |dir: &Path| {
        let all = other_entries(dir, class, "");
        all.into_iter().filter(|e| e["method"] == case.other).collect::<Vec<_>>()
    };
    assert_eq!(entries(&out), entries(original.path()), "the manifest's entries of {} changed", case.other);
    passes(&out, case.suite);
    let updated = files(&out);
    let report = run(&code, &out, &["--update"]);
    assert_eq!(differing(&updated, &files(&out)), Vec::<String>::new(), "an update after the helper's wrote these");
    assert_eq!(report["reopened"], serde_json::json!([]), "{report}");
}

/// `names`, sorted.
fn sorted(names: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    names.sort();
    names
}

#[test]
fn an_edit_of_a_private_method_reopens_the_methods_calling_it() {
    helper_edit_reopens_its_callers(&TALLY);
}

#[test]
fn an_edit_of_a_module_private_function_reopens_the_functions_calling_it() {
    helper_edit_reopens_its_callers(&UNITS);
}

/// A suite whose manifest was written before helpers were fingerprinted (format version 4) is still
/// read: it cannot vouch for the helpers, so the methods reaching some are generated again (their tests
/// still kept), the others kept; the suite written then carries the fingerprints, and the next update
/// keeps everything.
#[test]
fn a_manifest_without_helper_fingerprints_reopens_the_methods_reaching_helpers_once() {
    let case = TALLY;
    let (_dir, code, out) = generated(case.file);
    let path = out.join("Tally.flycatcher.json");
    let mut manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    manifest["version"] = serde_json::json!(4);
    for mark in manifest["methods"].as_object_mut().unwrap().values_mut() {
        mark.as_object_mut().unwrap().remove("helpers").expect("a version 5 mark has helpers");
    }
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    let report = run(&code, &out, &["--update"]);
    let reopened = reopened(&report);
    assert_eq!(reopened.keys().cloned().collect::<Vec<_>>(), sorted(&case.callers), "{report}");
    for why in reopened.values() {
        assert!(why.contains("predates") && why.contains(&format!("`{}`", case.helper)), "{report}");
    }
    assert_eq!(stops(&report)[case.other].0, "kept", "{report}");
    assert_eq!(report["changed"], serde_json::json!([]), "{report}");
    passes(&out, case.suite);
    let migrated = files(&out);
    let report = run(&code, &out, &["--update"]);
    assert_eq!(differing(&migrated, &files(&out)), Vec::<String>::new(), "the update after the migration wrote these");
    assert_eq!(report["reopened"], serde_json::json!([]), "{report}");
}

#[test]
fn accept_changes_needs_update() {
    let output = common::flycatcher(&["generate", "samples/circle.js", "--accept-changes"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--update"), "{}", text(&output));
}
