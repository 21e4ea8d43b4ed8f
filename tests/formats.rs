//! Every export format on a sample, run by its real runner (installed by `npm ci --prefix tests/runners`).

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

fn runner(name: &str) -> std::path::PathBuf {
    let bin = root().join("tests/runners/node_modules/.bin").join(name);
    assert!(bin.exists(), "{} is missing: run `npm ci --prefix tests/runners`", bin.display());
    bin
}

/// Runs one suite file with the runner of `format`, from its folder; panics with the output on failure.
fn passes(format: &str, suite: &Path) {
    let mut command = match format {
        "node-test" => {
            let mut c = Command::new("node");
            c.arg("--test");
            c
        }
        "assert" => Command::new("node"),
        other => Command::new(runner(other)),
    };
    // vows suites require('vows'), which users have in their node_modules; here it is the runners'.
    command.env("NODE_PATH", root().join("tests/runners/node_modules")).env("NO_COLOR", "1");
    let output = command.arg(suite.file_name().unwrap()).current_dir(suite.parent().unwrap()).output().unwrap();
    assert!(output.status.success(), "{format} failed on {}: {}", suite.display(), text(&output));
}

#[test]
fn every_format_passes_its_runner() {
    for (sample_file, class) in
        [("linked-list.js", "LinkedList"), ("shapes.mjs", "Rectangle"), ("bank-account.cjs", "BankAccount")]
    {
        for format in ["node-test", "assert", "nodeunit", "expresso", "vows"] {
            let out = tempfile::tempdir().unwrap();
            generate(
                &[sample(sample_file)],
                out.path(),
                &["--seed", "2", "--format", format, "--class", class, "--timeout", "2"],
            );
            let suites = suites(out.path());
            assert_eq!(suites.len(), 1, "{format}: {suites:?}");
            passes(format, &suites[0]);
        }
    }
}

#[test]
fn a_failing_expectation_fails_under_the_runner() {
    let out = tempfile::tempdir().unwrap();
    generate(&[sample("circle.js")], out.path(), &["--seed", "2"]);
    let suite = &suites(out.path())[0];
    let text = std::fs::read_to_string(suite).unwrap();
    let broken = text.replacen("assert.strictEqual(", "assert.notStrictEqual(", 1);
    assert_ne!(text, broken, "the suite has a strict equality to break");
    std::fs::write(suite, broken).unwrap();
    let output = Command::new("node").arg("--test").arg(suite).output().unwrap();
    assert!(!output.status.success(), "a broken expectation must fail: {}", common::text(&output));
}
