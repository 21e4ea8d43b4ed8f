//! `generate --jobs N` and `--shard K/N`, and `flycatcher merge`: the same suite whatever the split.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use common::*;

/// The tests of this file run one at a time: each runs `generate` with several workers, and a
/// candidate cut off by its time limit on a loaded machine would change the suite (see `run`).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// `generate` on the four-class fixture into `out` with `extra` options, seed 5; (files, report).
fn run(out: &Path, extra: &[&str]) -> (BTreeMap<String, String>, serde_json::Value) {
    let _ = std::fs::remove_dir_all(out);
    // A long test time limit: a generated candidate cut off by the clock on a loaded machine would change
    // the suite (the mutation analysis limits mutants by work, the same on any machine).
    let mut args = vec!["--seed", "5", "--test-timeout-ms", "1000"];
    args.extend(extra);
    let report = generate(&[fixture("four-classes.js")], out, &args);
    (written(out), report)
}

#[test]
fn one_and_two_workers_write_the_same_suite_and_it_passes() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (one, one_report) = run(&out, &["--jobs", "1"]);
    let (two, two_report) = run(&out, &["--jobs", "2"]);
    assert_eq!(one_report["time"]["workers"], 1);
    assert_eq!(two_report["time"]["workers"], 2, "the report says how many workers ran");
    assert_eq!(one.keys().collect::<Vec<_>>(), two.keys().collect::<Vec<_>>());
    for (name, text) in &one {
        assert_eq!(text, &two[name], "{name} differs between --jobs 1 and --jobs 2");
    }
    assert_eq!(untimed(one_report), untimed(two_report.clone()));
    let classes: Vec<&str> =
        two_report["classes"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(classes, ["Thermostat", "Ledger", "Playlist", "Shelf"], "classes in source order");
    for (method, covered, statements, _) in methods(&two_report) {
        assert_eq!(covered, statements, "{method}");
    }
    node_test_passes(&suites(&out));
    let summary = flycatcher(&[
        "generate",
        &fixture("four-classes.js").display().to_string(),
        "--seed",
        "5",
        "--jobs",
        "2",
        "--out",
        &out.display().to_string(),
    ]);
    assert!(text(&summary).contains("workers: 2 ("), "{}", text(&summary));
}

#[test]
fn shards_write_the_whole_suite_between_them_and_merge_into_the_whole_report() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let (whole, whole_report) = run(&dir.path().join("whole"), &[]);
    let mut together = BTreeMap::new();
    let mut reports = Vec::new();
    for shard in ["2/2", "1/2"] {
        let out = dir.path().join(shard.replace('/', "-of-"));
        let (files, _) = run(&out, &["--shard", shard]);
        assert!(!files.is_empty() && files.len() < whole.len(), "shard {shard} takes a share: {:?}", files.keys());
        for (name, text) in files {
            assert!(together.insert(name.clone(), text).is_none(), "{name} written by two shards");
        }
        reports.push(out.join("report.json").display().to_string());
    }
    let strip_command = |files: &BTreeMap<String, String>| -> BTreeMap<String, String> {
        files.iter().map(|(n, t)| (n.clone(), t.lines().filter(|l| !l.contains("command:")).collect())).collect()
    };
    assert_eq!(strip_command(&together), strip_command(&whole), "the shards write what one run writes");

    let merged_dir = dir.path().join("merged");
    let merging = |reports: &[&str]| {
        let mut args = vec!["merge", "--out", merged_dir.to_str().unwrap()];
        args.extend(reports);
        flycatcher(&args)
    };
    let output = merging(&[&reports[0], &reports[1]]);
    assert!(output.status.success(), "{}", text(&output));
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(merged_dir.join("report.json")).unwrap()).unwrap();
    let mut expected = methods(&whole_report);
    let mut got = methods(&merged);
    expected.sort();
    got.sort();
    assert_eq!(got, expected);
    assert_eq!(merged["seed"], whole_report["seed"]);
    assert_eq!(merged["executions"], whole_report["executions"], "counts add up");

    let twice = merging(&[&reports[0], &reports[0]]);
    assert_eq!(twice.status.code(), Some(2), "{}", text(&twice));
    assert!(text(&twice).contains("overlap"), "{}", text(&twice));
    let other_seed = dir.path().join("other");
    let other = generate(&[fixture("four-classes.js")], &other_seed, &["--seed", "6", "--shard", "1/2"]);
    assert_eq!(other["shard"], "1/2");
    let mixed = merging(&[&reports[0], other_seed.join("report.json").to_str().unwrap()]);
    assert_eq!(mixed.status.code(), Some(2), "{}", text(&mixed));
    assert!(text(&mixed).contains("another run (seed"), "{}", text(&mixed));
    assert_eq!(text(&mixed).matches("flycatcher: ").count(), 1, "one line: {}", text(&mixed));
}
