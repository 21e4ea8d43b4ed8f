//! The "done when" checks on exported suites: minimising keeps what c8 measures on the suite,
//! results that change between runs never reach a suite, and suites go through the public surface.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use flycatcher::export::Format;
use flycatcher::model::settings::Settings;
use flycatcher::session::{Session, SessionOptions};

/// Statements of `subject` that the suites in `dir` cover under c8, as (line, column) starts.
fn c8_covered(dir: &Path, subject: &Path) -> Vec<(u64, u64)> {
    let report = dir.join("coverage");
    let mut command = Command::new(root().join("tests/runners/node_modules/.bin/c8"));
    command
        .args(["--reporter=json", "--allowExternal"])
        .arg(format!("--report-dir={}", report.display()))
        .arg(format!("--temp-directory={}", report.join("tmp").display()))
        .args(["node", "--test"])
        .args(suites(dir))
        .current_dir(dir);
    let output = command.output().unwrap();
    assert!(output.status.success(), "c8 on {}: {}", dir.display(), text(&output));
    let coverage: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("coverage-final.json")).unwrap()).unwrap();
    let subject = subject.canonicalize().unwrap();
    let entry = &coverage[subject.to_str().unwrap()];
    assert!(entry.is_object(), "{} is not in c8's report", subject.display());
    let mut covered: Vec<(u64, u64)> = entry["statementMap"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(id, _)| entry["s"][id.as_str()].as_u64().unwrap() > 0)
        .map(|(_, at)| (at["start"]["line"].as_u64().unwrap(), at["start"]["column"].as_u64().unwrap()))
        .collect();
    covered.sort_unstable();
    covered
}

/// Lines of test code in the suites of `dir`, header and loader left out.
fn test_lines(dir: &Path) -> usize {
    suites(dir)
        .iter()
        .map(|suite| {
            let text = std::fs::read_to_string(suite).unwrap();
            text.lines().skip_while(|l| !l.starts_with("describe(")).count()
        })
        .sum()
}

/// What a reader meets in the suites of `dir`, as corpus/refactor.mjs measures it: the median and the
/// 90th percentile of the string lengths, then of the number magnitudes, of the literals the tests pass
/// (their inputs, assertions left out).
fn literal_spread(dir: &Path) -> [f64; 4] {
    let files: Vec<String> = suites(dir).iter().map(|s| s.display().to_string()).collect();
    let script = format!(
        "import({:?}).then(({{ readability }}) => {{ const r = readability({}); \
         const at = (s) => (s.match(/^(\\S+) \\(p90 (\\S+),/) || [0, 0, 0]).slice(1); \
         console.log([...at(r.strings), ...at(r.numbers)].map(Number).join(' ')); }})",
        root().join("corpus/refactor.mjs").display().to_string(),
        serde_json::to_string(&files).unwrap()
    );
    let output = Command::new("node").args(["--input-type=module", "-e", &script]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let figures: Vec<f64> =
        String::from_utf8_lossy(&output.stdout).split_whitespace().map(|x| x.parse().unwrap()).collect();
    [figures[0], figures[1], figures[2], figures[3]]
}

#[test]
fn the_minimised_suite_keeps_what_c8_measures_and_is_shorter_with_simpler_values() {
    let mut simpler = Vec::new();
    for name in ["linked-list.js", "circle.js", "triangle.js"] {
        let options = SessionOptions { files: vec![sample(name)], ..Default::default() };
        let mut session = Session::new(&options, Settings { seed: 5, ..Settings::default() }).unwrap();
        session.run_to_end(|_, _| {}).unwrap();
        let dirs = tempfile::tempdir().unwrap();
        let (full, minimised): (PathBuf, PathBuf) = (dirs.path().join("full"), dirs.path().join("minimised"));
        session
            .suite()
            .write(session.subject().program(), session.subject().code(), &[], Format::NodeTest, &full, &[])
            .unwrap();
        session.export(Format::NodeTest, &minimised, "test").unwrap();
        let (before, after) = (c8_covered(&full, &sample(name)), c8_covered(&minimised, &sample(name)));
        let lost: Vec<&(u64, u64)> = before.iter().filter(|s| !after.contains(s)).collect();
        assert!(lost.is_empty(), "{name}: statements (line, column) no longer covered: {lost:?}");
        assert!(test_lines(&minimised) < test_lines(&full), "{name}: minimising did not shorten the suite");
        simpler.push((name, literal_spread(&full), literal_spread(&minimised)));
    }
    // Values a reader understands: the literals the minimised tests pass are no longer strings and no
    // larger numbers than those the elected tests passed, and some fall.
    let grew = simpler.iter().any(|(_, full, minimised)| minimised.iter().zip(full).any(|(m, f)| m > f));
    let fell = simpler.iter().any(|(_, full, minimised)| minimised.iter().zip(full).any(|(m, f)| m < f));
    assert!(!grew && fell, "string and number (median, p90) full -> minimised: {simpler:?}");
}

#[test]
fn values_that_change_between_runs_are_dropped_and_reported() {
    // Tickets are numbered from a counter on globalThis: the sandbox runs each test alone, but a runner
    // that runs a suite in one process reloads the module, not the global object.
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[sample("ticket-queue.cjs")], out.path(), &["--seed", "1"]);
    let unstable = report["unstable"].as_array().unwrap();
    assert!(!unstable.is_empty(), "{report}");
    assert!(unstable.iter().any(|u| u["method"] == "issue" && u["what"].as_str().unwrap().contains("issue()")));
    let warnings = report["warnings"].as_array().unwrap();
    assert!(warnings.iter().any(|w| w.as_str().unwrap().contains("changed between runs")), "{report}");
    // What stays is what every run agreed on: the suite passes, however often it runs.
    for _ in 0..3 {
        node_test_passes(&suites(out.path()));
    }
    let suite = std::fs::read_to_string(out.path().join("TicketQueue.test.js")).unwrap();
    assert!(suite.contains("assert.strictEqual(ticketQueue.size(), 0)"), "stable assertions stay: {suite}");
    let summary = flycatcher(&[
        "generate",
        sample("ticket-queue.cjs").to_str().unwrap(),
        "--seed",
        "1",
        "--out",
        out.path().join("again").to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&summary.stdout).contains("assertions and 0 tests dropped"), "{}", text(&summary));
}

#[test]
fn errors_in_results_assert_the_message_only_when_the_code_wrote_it() {
    // `parse` returns the SyntaxError JSON.parse made (QuickJS words it otherwise than V8), `refuse` a
    // RangeError the code builds: the suite asserts both names, the second message alone, and passes.
    let out = tempfile::tempdir().unwrap();
    generate(&[fixture("error-results.js")], out.path(), &["--seed", "1", "--budget", "20000", "--timeout", "600"]);
    let suite = std::fs::read_to_string(out.path().join("Attempt.test.js")).unwrap();
    assert!(suite.contains("\"SyntaxError\""), "{suite}");
    assert!(suite.contains("\"refused: "), "the code's own message is asserted: {suite}");
    let messages: Vec<&str> = suite.lines().filter(|l| l.contains(".error.message)")).collect();
    assert!(messages.iter().all(|l| l.contains("\"refused: ")), "an engine's message is asserted: {messages:?}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn titles_say_what_each_test_exercises_once_per_group() {
    let out = tempfile::tempdir().unwrap();
    generate(&[sample("linked-list.js")], out.path(), &["--seed", "7"]);
    let suite = std::fs::read_to_string(out.path().join("LinkedList.test.js")).unwrap();
    // One describe per method under test, inside the class's.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for line in suite.lines() {
        if let Some(group) = line.strip_prefix("  describe(\"").and_then(|l| l.split('"').next()) {
            groups.push((group.to_string(), Vec::new()));
        } else if let Some(title) = line.strip_prefix("    test(") {
            let title: String = serde_json::Deserializer::from_str(title)
                .into_iter::<String>()
                .next()
                .expect("a title literal")
                .unwrap();
            groups.last_mut().expect("tests are in a group").1.push(title);
        }
    }
    let names: Vec<&str> = groups.iter().map(|(g, _)| g.as_str()).collect();
    assert!(names.contains(&"get") && names.contains(&"add"), "{names:?}");
    for (group, titles) in &groups {
        let mut unique = titles.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), titles.len(), "{group}: {titles:?}");
        assert!(titles.iter().all(|t| !t.starts_with(group.as_str())), "the group names the method: {titles:?}");
    }
    let get = &groups.iter().find(|(g, _)| g == "get").unwrap().1;
    // Decisions quoted from the code, then what the call did.
    assert!(get.iter().any(|t| t.contains("when index")), "{get:?}");
    assert!(get.iter().any(|t| t.contains("throws RangeError \"index out of bounds")), "{get:?}");
    assert!(get.iter().any(|t| t.contains("returns ")), "{get:?}");
}

#[test]
fn every_samples_titles_say_the_behaviour_first_then_each_condition_once() {
    let out = tempfile::tempdir().unwrap();
    let mut samples: Vec<PathBuf> = std::fs::read_dir(root().join("samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| ["js", "cjs", "mjs", "ts"].contains(&x.to_str().unwrap())))
        .collect();
    samples.sort();
    let mut titles = 0;
    for sample in &samples {
        let name = sample.file_name().unwrap().to_str().unwrap();
        let dir = out.path().join(name);
        // An entry script needs the scripts a page loads before it: it has no suite of its own. Every
        // other sample's suites are checked (modules of functions get one for their functions).
        let output = flycatcher(&[
            "generate",
            sample.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
            "--seed",
            "1",
            "--budget",
            "3000",
            "--timeout",
            "600",
            "--jobs",
            "1",
            "-q",
        ]);
        if !output.status.success() {
            assert!(name.starts_with("demo-"), "{name}: {}", text(&output));
            continue;
        }
        let mut checked = 0;
        for suite in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
            let file = suite.file_name().unwrap().to_str().unwrap().to_string();
            if !file.contains(".test.") {
                continue;
            }
            checked += 1;
            let mut groups: Vec<Vec<String>> = Vec::new();
            for line in std::fs::read_to_string(&suite).unwrap().lines() {
                let line = line.trim_start();
                if line.starts_with("describe(") {
                    groups.push(Vec::new());
                } else if let Some(title) = line.strip_prefix("test(").or_else(|| line.strip_prefix("it(")) {
                    let title: String =
                        serde_json::Deserializer::from_str(title).into_iter::<String>().next().unwrap().unwrap();
                    groups.last_mut().expect("tests are in a group").push(title);
                }
            }
            for group in &groups {
                let mut unique = group.clone();
                unique.sort();
                unique.dedup();
                assert_eq!(unique.len(), group.len(), "{file}: titles repeat within a describe: {group:?}");
                for title in group {
                    titles += 1;
                    let path = title.split_once(" when ").map_or("", |(_, path)| path);
                    assert!(!path.contains(" when "), "{file}: {title}");
                    let conditions: Vec<&str> = path.split(" and ").filter(|c| !c.is_empty()).collect();
                    let mut once = conditions.clone();
                    once.sort();
                    once.dedup();
                    assert_eq!(once.len(), conditions.len(), "{file}: a condition repeats in {title:?}");
                    let behaviour = title.find("returns ").or_else(|| title.find("throws "));
                    assert!(behaviour.is_none_or(|at| at == 0), "{file}: the behaviour comes first: {title:?}");
                }
            }
        }
        assert!(checked > 0, "{name}: no suite written");
    }
    assert!(titles > 100, "{titles} titles");
}

/// The lines of a suite's tests that run code (titles, groups and comments left out: a title may quote a
/// condition on private state, and renaming the state leaves it true).
fn code_lines(suite: &str) -> Vec<&str> {
    let inside = suite.split_once("describe(").map_or("", |(_, rest)| rest);
    inside
        .lines()
        .map(str::trim)
        .filter(|l| !(l.starts_with("test(") || l.starts_with("test.skip(") || l.starts_with("describe(")))
        .filter(|l| !l.starts_with("//"))
        .collect()
}

#[test]
fn suites_neither_call_nor_assert_private_members_and_their_mutants_still_count() {
    // A min-queue over a private heap (`_items`) with private helpers (`_siftUp`, `_swap`...) and a
    // private counter shown only in what `stats` returns: suites called `minQueue._siftUp(2)`, asserted
    // `minQueue._items` and `stats()` whole, `_pushes` included, and failed once the underscore members
    // were renamed (a refactoring that changes no behaviour).
    let out = tempfile::tempdir().unwrap();
    let suite_dir = out.path().join("suite");
    let report = generate(
        &[fixture("private-queue.cjs")],
        &suite_dir,
        &["--seed", "1", "--budget", "40000", "--timeout", "600"],
    );
    let suite = std::fs::read_to_string(suite_dir.join("MinQueue.test.js")).unwrap();
    let named: Vec<&str> =
        code_lines(&suite).into_iter().filter(|l| l.contains("._") || l.contains("_pushes")).collect();
    assert!(named.is_empty(), "private members named: {named:?}\n{suite}");
    assert!(suite.contains(".stats()"), "what stats returns is asserted by its public keys: {suite}");
    let tested: Vec<String> = methods(&report).into_iter().map(|m| m.0).collect();
    assert!(tested.iter().all(|m| !m.contains("._")) && tested.contains(&"MinQueue.pop".to_string()), "{tested:?}");
    node_test_passes(&suites(&suite_dir));
    // The private helpers' mutants are judged by the tests that reach them through `push` and `pop`.
    let report_path = out.path().join("mutants.json");
    let subject = fixture("private-queue.cjs");
    let output = flycatcher(&[
        "mutate",
        subject.to_str().unwrap(),
        "--report",
        report_path.to_str().unwrap(),
        "-q",
        "--suite",
        suite_dir.to_str().unwrap(),
        "--seed",
        "1",
        "--budget",
        "40000",
        "--timeout",
        "600",
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let mutants: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    let helpers: Vec<&serde_json::Value> = mutants["classes"][0]["methods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["name"].as_str().is_some_and(|n| n.starts_with("_sift")))
        .collect();
    assert!(!helpers.is_empty(), "{mutants:#}");
    let killed: usize = helpers.iter().map(|m| m["killed_mutants"].as_array().map_or(0, Vec::len)).sum();
    assert!(killed > 0, "{mutants:#}");
}

#[test]
fn the_refactoring_check_leaves_names_callers_pass_as_data_as_they_are() {
    // fast-json-patch compares `operation.op === '_get'`: the check renamed its `'_get'` strings too, and
    // 2 of 28 tests, which pass `op: "_get"` through the public `applyPatch`, failed under a renaming
    // that changes what a caller's data means.
    let script = format!(
        "import({:?}).then(({{ underscoreMembers }}) => console.log(underscoreMembers({:?}, null).join(' ')))",
        root().join("corpus/refactor.mjs").display().to_string(),
        fixture("refactor").display().to_string()
    );
    let output = Command::new("node").args(["--input-type=module", "-e", &script]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "_apply _cache");
}

#[test]
fn the_refactoring_check_leaves_the_names_a_package_exports_as_they_are() {
    // micro-packed exports its reader and writer under `_TEST = { _Reader, _Writer }`, @ethersproject/hash a
    // class as `_TypedDataEncoder`: renaming them renamed the package's interface, and 158 of 336 and 4 of
    // 22 tests that reached them by those names failed. The writer's own underscore members stay private.
    let dir = fixture("refactor-exports");
    let script = format!(
        "import({:?}).then(({{ exportedNames, underscoreMembers }}) => {{ const e = exportedNames([{:?}], {:?}); \
         console.log(underscoreMembers({:?}, null).filter((n) => !e.has(n)).join(' ')); }})",
        root().join("corpus/refactor.mjs").display().to_string(),
        dir.join("codec.test.mjs").display().to_string(),
        dir.display().to_string(),
        dir.display().to_string()
    );
    let output = Command::new("node").args(["--input-type=module", "-e", &script]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "_bytes _packed");
}

#[test]
fn a_class_built_through_a_private_initializer_is_tested_through_its_public_constructor_only() {
    // jQuery's and jStat's pattern: `Series()` answers `new Series._init(arguments)`, whose prototype is
    // `Series.prototype`. Both constructors were units of their own, the same methods tested twice, and
    // the initializer's suite built `new _init(...)` by its private name: renaming `_init`, a refactoring
    // that changes no behaviour, turned 132 of jstat's 705 tests red.
    let out = tempfile::tempdir().unwrap();
    let code = out.path().join("initializer-series.js");
    std::fs::copy(fixture("initializer-series.js"), &code).unwrap();
    let suite_dir = out.path().join("suite");
    let report =
        generate(std::slice::from_ref(&code), &suite_dir, &["--seed", "1", "--budget", "2000", "--timeout", "600"]);
    let classes: Vec<&str> = report["classes"].as_array().unwrap().iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(classes, ["Series"], "{report}");
    let suite = std::fs::read_to_string(suite_dir.join("Series.test.js")).unwrap();
    let named: Vec<&str> = code_lines(&suite).into_iter().filter(|l| l.contains("_init")).collect();
    assert!(named.is_empty(), "the initializer named: {named:?}\n{suite}");
    node_test_passes(&suites(&suite_dir));
    let renamed = std::fs::read_to_string(&code).unwrap().replace("_init", "renamed_init");
    std::fs::write(&code, renamed).unwrap();
    node_test_passes(&suites(&suite_dir));
}
