//! `flycatcher verify`: the exported suite under its real runner (installed by `npm ci --prefix
//! tests/runners`), several times and in another order, with c8's coverage as a user measures it by hand.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::Value as Json;

fn runners() -> PathBuf {
    root().join("tests/runners/node_modules")
}

fn bin(name: &str) -> String {
    runners().join(".bin").join(name).display().to_string()
}

/// Runs `flycatcher verify` on `dir` with the test runners' node_modules; returns its exit code and
/// JSON report.
fn verify(dir: &Path, extra: &[&str]) -> (Option<i32>, Json, String) {
    let report = dir.join("verify.json");
    let mut args = vec!["verify", dir.to_str().unwrap(), "--node-modules", "tests/runners/node_modules"];
    args.extend(["--report", report.to_str().unwrap()]);
    args.extend(extra);
    let output = flycatcher(&args);
    let json = std::fs::read_to_string(&report).map(|t| serde_json::from_str(&t).unwrap()).unwrap_or(Json::Null);
    (output.status.code(), json, text(&output))
}

/// c8's summary entry for `subject`, from the suite in `dir` run by hand as its user would:
/// `c8 --reporter=json-summary -- <runner> <suite>`.
fn c8_by_hand(dir: &Path, runner: &[String], subject: &Path) -> Json {
    let reports = dir.join("by-hand");
    let output = Command::new(bin("c8"))
        .args(["--reporter=json-summary", "--allowExternal"])
        .arg(format!("--reports-dir={}", reports.display()))
        .arg(format!("--temp-directory={}", reports.join("raw").display()))
        .arg("--")
        .args(runner)
        .env("NODE_PATH", runners())
        .env("NODE_OPTIONS", "--experimental-vm-modules")
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "c8 by hand: {}", text(&output));
    let summary: Json =
        serde_json::from_str(&std::fs::read_to_string(reports.join("coverage-summary.json")).unwrap()).unwrap();
    summary[subject.canonicalize().unwrap().to_str().unwrap()].clone()
}

#[test]
fn verify_reports_the_coverage_c8_measures_by_hand_under_every_runner() {
    let subject = sample("linked-list.js");
    for format in ["node-test", "jest", "mocha", "vitest"] {
        let out = tempfile::tempdir().unwrap();
        let dir = out.path();
        generate(
            std::slice::from_ref(&subject),
            dir,
            &["--seed", "3", "--budget", "60000", "--timeout", "600", "--format", format],
        );
        let suite = suites(dir).into_iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
        let file = suite.file_name().unwrap().to_str().unwrap().to_string();
        let lcov = dir.join("lcov.info");
        let (code, report, output) = verify(dir, &["--lcov", lcov.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{format}: {output}");
        assert_eq!(report["format"], format, "{report}");
        assert_eq!(report["runs"], 4, "three runs as written, one in reverse order");
        let tests = report["tests"].as_array().unwrap();
        assert!(tests.len() >= 5, "{format}: {report}");
        assert_eq!((report["failed"].as_u64(), report["flaky"].as_u64()), (Some(0), Some(0)), "{report}");
        assert!(tests.iter().all(|t| t["passed_runs"] == 4), "{report}");
        let runner: Vec<String> = match format {
            "node-test" => vec!["node".into(), "--test".into(), file],
            "jest" => vec![bin("jest"), "--ci".into(), "--config".into(), "{}".into(), file],
            "mocha" => vec![bin("mocha"), file],
            _ => vec![bin("vitest"), "run".into(), "--root".into(), ".".into(), "--pool=threads".into(), file],
        };
        let by_hand = c8_by_hand(dir, &runner, &subject);
        let measured = report["coverage"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| Path::new(f["file"].as_str().unwrap()) == subject.canonicalize().unwrap())
            .unwrap_or_else(|| panic!("{format}: the subject is not in {report}"))
            .clone();
        for kind in ["lines", "branches"] {
            for count in ["covered", "total"] {
                assert_eq!(
                    measured[kind][count], by_hand[kind][count],
                    "{format} {kind} {count}: {measured} vs {by_hand}"
                );
            }
        }
        assert!(measured["lines"]["total"].as_u64().unwrap() > 0, "{measured}");
        let lcov = std::fs::read_to_string(&lcov).unwrap();
        assert!(lcov.contains("linked-list.js"), "the lcov file names the code under test");
        let left: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("reversed"))
            .collect();
        assert!(left.is_empty(), "the reversed copies are removed: {left:?}");
    }
}

#[test]
fn a_failing_test_is_named_with_its_reason_and_the_exit_status_says_so() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path();
    generate(&[sample("circle.js")], dir, &["--seed", "1", "--budget", "60000", "--timeout", "600"]);
    let suite = dir.join("Circle.test.js");
    let mut text = std::fs::read_to_string(&suite).unwrap();
    text.push_str("\ntest(\"planted\", () => { assert.strictEqual(1 + 1, 3); });\n");
    std::fs::write(&suite, text).unwrap();
    let (code, report, output) = verify(dir, &["--runs", "1"]);
    assert_eq!(code, Some(1), "{output}");
    assert_eq!(report["runs"], 2);
    let planted = report["tests"].as_array().unwrap().iter().find(|t| t["name"] == "planted").unwrap().clone();
    assert_eq!(planted["status"], "failed", "{planted}");
    assert!(planted["reason"].as_str().unwrap().contains("2 !== 3"), "{planted}");
    assert!(output.contains("failed (2 of 2 runs failed): planted: "), "{output}");
}

#[test]
fn suites_of_the_older_formats_and_folders_without_a_suite_are_refused_with_a_message() {
    let out = tempfile::tempdir().unwrap();
    let (code, _, output) = verify(out.path(), &[]);
    assert_eq!(code, Some(2), "{output}");
    assert!(output.contains("no suite manifest"), "{output}");
    generate(
        &[sample("circle.js")],
        out.path(),
        &["--seed", "1", "--budget", "60000", "--timeout", "600", "--format", "nodeunit"],
    );
    let (code, _, output) = verify(out.path(), &[]);
    assert_eq!(code, Some(2), "{output}");
    assert!(output.contains("verify runs node-test, jest, mocha and vitest suites; this one is nodeunit"), "{output}");
}

#[test]
fn generate_with_verify_puts_the_verification_in_its_report() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("suite");
    let report = out.path().join("run.json");
    let output = flycatcher(&[
        "generate",
        sample("circle.js").to_str().unwrap(),
        "--seed",
        "1",
        "--budget",
        "60000",
        "--timeout",
        "600",
        "--out",
        dir.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--verify",
        "--node-modules",
        "tests/runners/node_modules",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let verified = &json["verify"];
    assert_eq!((verified["format"].as_str(), verified["runs"].as_u64()), (Some("node-test"), Some(4)), "{json:#}");
    assert_eq!((verified["failed"].as_u64(), verified["flaky"].as_u64()), (Some(0), Some(0)), "{verified}");
    assert!(verified["passed"].as_u64().unwrap() >= 3, "{verified}");
    let files = verified["coverage"]["files"].as_array().unwrap();
    assert!(files.iter().any(|f| f["file"].as_str().unwrap().ends_with("circle.js")), "{verified}");
    assert!(text(&output).contains("coverage of the code under test (c8): lines "), "{}", text(&output));
}
