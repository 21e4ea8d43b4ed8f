//! Every export format on a sample, run by its real runner (installed by `npm ci --prefix tests/runners`).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

/// Formats added for today's runners; each is checked on a few samples three runs in a row.
const NEW_FORMATS: [&str; 3] = ["jest", "mocha", "vitest"];

fn runner(name: &str) -> std::path::PathBuf {
    let bin = root().join("tests/runners/node_modules/.bin").join(name);
    assert!(bin.exists(), "{} is missing: run `npm ci --prefix tests/runners`", bin.display());
    bin
}

/// Runs one suite file with the runner of `format`, from its folder.
fn run(format: &str, suite: &Path) -> Output {
    run_together(format, suite.parent().unwrap(), &[suite.to_path_buf()])
}

/// Runs `suites` (files below `dir`) with one start of the runner of `format`, from `dir`: a runner's
/// start (jest's above all) costs more than the tests of a small suite.
fn run_together(format: &str, dir: &Path, suites: &[PathBuf]) -> Output {
    let mut command = match format {
        "node-test" => {
            let mut c = Command::new("node");
            c.arg("--test");
            c
        }
        "assert" => Command::new("node"),
        "jest" => {
            // Jest wants a configuration (its defaults do) and loads ES modules only with this flag.
            let mut c = Command::new(runner("jest"));
            c.args(["--ci", "--config", "{}"]).env("NODE_OPTIONS", "--experimental-vm-modules");
            c
        }
        "vitest" => {
            let mut c = Command::new(runner("vitest"));
            c.args(["run", "--root", "."]);
            c
        }
        other => Command::new(runner(other)),
    };
    // vows suites require('vows'), which users have in their node_modules; here it is the runners'.
    command.env("NODE_PATH", root().join("tests/runners/node_modules")).env("NO_COLOR", "1");
    command.args(suites.iter().map(|s| s.strip_prefix(dir).unwrap())).current_dir(dir).output().unwrap()
}

/// Runs one suite file with the runner of `format`; panics with the output on failure.
fn passes(format: &str, suite: &Path) {
    passes_together(format, suite.parent().unwrap(), &[suite.to_path_buf()]);
}

/// Runs `suites` (files below `dir`) with the runner of `format`, all at once but with `assert` (a
/// script is one file); panics with the output unless every suite passes.
fn passes_together(format: &str, dir: &Path, suites: &[PathBuf]) {
    let groups: Vec<&[PathBuf]> = if format == "assert" { suites.chunks(1).collect() } else { vec![suites] };
    for group in groups {
        let output = run_together(format, dir, group);
        assert!(output.status.success(), "{format} failed on {group:?}: {}", text(&output));
    }
}

/// The suites of a generation: the regression suites, and the skipped error-revealing ones.
fn split(out: &Path) -> (Vec<std::path::PathBuf>, Vec<std::path::PathBuf>) {
    suites(out).into_iter().partition(|p| !p.to_string_lossy().contains(".failing.test."))
}

/// Script, ES-module and CommonJS samples, with the class tested.
const SAMPLES: [(&str, &str); 3] =
    [("linked-list.js", "LinkedList"), ("shapes.mjs", "Rectangle"), ("bank-account.cjs", "BankAccount")];

#[test]
fn every_format_passes_its_runner() {
    for format in ["node-test", "assert", "nodeunit", "expresso", "vows"].into_iter().chain(NEW_FORMATS) {
        // The three samples' suites, each generated into a folder of its own, run together.
        let dir = tempfile::tempdir().unwrap();
        let (mut regression, mut skipped) = (Vec::new(), Vec::new());
        for (sample_file, class) in SAMPLES {
            let out = dir.path().join(class);
            generate(
                &[sample(sample_file)],
                &out,
                &["--seed", "2", "--format", format, "--class", class, "--budget", "120000", "--timeout", "600"],
            );
            let (suites, failing) = split(&out);
            assert_eq!(suites.len(), 1, "{format}: {suites:?}");
            // Error-revealing tests are skipped, so their suite passes too; runners without a skip get none.
            let can_skip = !matches!(format, "nodeunit" | "expresso" | "vows");
            assert_eq!(failing.len(), usize::from(can_skip), "{format} on {sample_file}: {failing:?}");
            regression.extend(suites);
            skipped.extend(failing);
        }
        // The skipped suites run with the first of the regression suites' runs.
        passes_together(format, dir.path(), &[regression.clone(), skipped].concat());
        let runs = if NEW_FORMATS.contains(&format) { 3 } else { 1 };
        for _ in 1..runs {
            passes_together(format, dir.path(), &regression);
        }
    }
}

#[test]
fn tests_that_await_promises_pass_every_runner() {
    for format in ["node-test", "assert", "nodeunit", "expresso", "vows"].into_iter().chain(NEW_FORMATS) {
        let out = tempfile::tempdir().unwrap();
        generate(
            &[fixture("async-cache.cjs")],
            out.path(),
            &["--seed", "7", "--format", format, "--budget", "120000", "--timeout", "600"],
        );
        let (suites, failing) = split(out.path());
        assert_eq!(suites.len(), 1, "{format}: {suites:?}");
        let suite = std::fs::read_to_string(&suites[0]).unwrap();
        assert!(suite.contains("await assert.rejects("), "{format}: {suite}");
        passes_together(format, out.path(), &[suites, failing].concat());
    }
}

#[test]
fn promises_deferred_and_left_pending_pass_every_runner() {
    for format in ["node-test"].into_iter().chain(NEW_FORMATS) {
        let out = tempfile::tempdir().unwrap();
        generate(
            &[fixture("async/signals.js")],
            out.path(),
            &["--seed", "3", "--format", format, "--budget", "120000", "--timeout", "600"],
        );
        let (suites, failing) = split(out.path());
        let text: String = suites.iter().map(|s| std::fs::read_to_string(s).unwrap()).collect();
        assert!(text.contains("await promise") && text.contains("\"pending\");"), "{format}: {text}");
        passes_together(format, out.path(), &[suites, failing].concat());
    }
}

#[test]
fn a_failing_expectation_fails_under_every_runner() {
    for format in ["node-test"].into_iter().chain(NEW_FORMATS) {
        let out = tempfile::tempdir().unwrap();
        generate(&[sample("circle.js")], out.path(), &["--seed", "2", "--format", format]);
        let suite = &split(out.path()).0[0];
        let text = std::fs::read_to_string(suite).unwrap();
        let broken = text.replacen("assert.strictEqual(", "assert.notStrictEqual(", 1);
        assert_ne!(text, broken, "the suite has a strict equality to break");
        std::fs::write(suite, broken).unwrap();
        let output = run(format, suite);
        assert!(!output.status.success(), "{format}: a broken expectation must fail: {}", common::text(&output));
    }
}

#[test]
fn error_revealing_tests_are_skipped_and_fail_once_unskipped() {
    let out = tempfile::tempdir().unwrap();
    generate(&[sample("circle.js")], out.path(), &["--seed", "2", "--class", "Circle"]);
    let failing = &split(out.path()).1[0];
    let text = std::fs::read_to_string(failing).unwrap();
    // Each test names the error it threw in the sandbox, in its title and in a comment.
    assert!(text.contains("test.skip(\"threw "), "{text}");
    assert!(text.contains("// Threw in the sandbox: "), "{text}");
    let skipped = run("node-test", failing);
    assert!(skipped.status.success(), "{}", common::text(&skipped));
    let count = text.matches("test.skip(").count();
    assert!(
        String::from_utf8_lossy(&skipped.stdout).contains(&format!("# skipped {count}")),
        "{}",
        common::text(&skipped)
    );
    std::fs::write(failing, text.replace("test.skip(", "test(")).unwrap();
    let unskipped = run("node-test", failing);
    assert!(!unskipped.status.success(), "unskipped, they fail: {}", common::text(&unskipped));
    assert!(String::from_utf8_lossy(&unskipped.stdout).contains(&format!("# fail {count}")));
}

#[test]
fn replay_tests_with_rebuilt_receivers_pass_every_runner() {
    for format in ["node-test", "assert", "nodeunit", "expresso", "vows"].into_iter().chain(NEW_FORMATS) {
        let dir = tempfile::tempdir().unwrap();
        let entry = purse(dir.path());
        let out = dir.path().join("out");
        let output =
            flycatcher(&["record", entry.to_str().unwrap(), "--out", out.to_str().unwrap(), "--format", format]);
        assert!(output.status.success(), "{format}: {}", text(&output));
        let written = suites(&out);
        assert_eq!(written.len(), 2, "{format}: {written:?}");
        let purse_suite = std::fs::read_to_string(&written[1]).unwrap();
        assert!(purse_suite.contains("Object.assign(Object.create(Purse.prototype), {"), "{format}: {purse_suite}");
        passes_together(format, &out, &written);
    }
}

#[test]
fn a_run_that_elects_nothing_writes_a_suite_that_says_why_and_passes_every_runner() {
    // Issue 17: mnemonist's kd-tree.js elected nothing in 0.2 s, and nothing at all was written.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cache.js");
    std::fs::write(
        &file,
        "class Cache {\n  constructor(store) {\n    if (!(store instanceof Map)) throw new TypeError('a Map is needed');\n    \
         this.store = store;\n  }\n  put(k) { this.store.set(k, 1); return this.store.size; }\n}\nmodule.exports = Cache;\n",
    )
    .unwrap();
    for format in ["node-test", "assert", "nodeunit", "expresso", "vows"].into_iter().chain(NEW_FORMATS) {
        let out = dir.path().join(format);
        let (file, out_text) = (file.display().to_string(), out.display().to_string());
        let output = flycatcher(&["generate", &file, "--seed", "1", "--format", format, "--out", &out_text, "-q"]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        assert!(String::from_utf8_lossy(&output.stderr).contains("no test was elected"), "{}", text(&output));
        let (suites, failing) = split(&out);
        assert_eq!((suites.len(), failing.len()), (1, 0), "{format}: {suites:?} {failing:?}");
        let suite = std::fs::read_to_string(&suites[0]).unwrap();
        assert!(suite.contains("put: 0/2 statements covered") && suite.contains("every construction of Cache threw"));
        let log = std::fs::read_to_string(out.join("Cache.failing.log")).unwrap();
        assert!(log.contains("put: 0/2 statements covered"), "{log}");
        passes(format, &suites[0]);
    }
}

#[test]
fn web_classes_declared_beside_javascript_are_built_and_asserted_alike_under_every_runner() {
    // fetcher.js declares (fetcher.d.ts) a `URL`, a `Headers` and an `AbortSignal`, and a rest parameter of
    // parts: the suites build them as Node's globals, assert the URLs and headers returned, and pass
    // under each runner as they did in the sandbox.
    for format in ["node-test"].into_iter().chain(NEW_FORMATS) {
        let dir = tempfile::tempdir().unwrap();
        for name in ["fetcher.js", "fetcher.d.ts"] {
            std::fs::copy(fixture("declared").join(name), dir.path().join(name)).unwrap();
        }
        let out = dir.path().join("out");
        let report = generate(
            &[dir.path().join("fetcher.js")],
            &out,
            &["--seed", "1", "--format", format, "--budget", "120000", "--timeout", "600"],
        );
        for (method, covered, statements, stop) in methods(&report) {
            assert_eq!((covered, stop.as_str()), (statements, "covered"), "{format}: {method}\n{report}");
        }
        let (suites, failing) = split(&out);
        let text: String = suites.iter().map(|s| std::fs::read_to_string(s).unwrap()).collect();
        for built in
            ["new Fetcher(new URL(\"", "new Headers(", "new URLSearchParams(\"", ".href, \"", "Object.fromEntries("]
        {
            assert!(text.contains(built), "{format}: no `{built}`:\n{text}");
        }
        assert!(text.contains("AbortSignal.abort()") || text.contains("new AbortController().signal"), "{text}");
        passes_together(format, &out, &[suites, failing].concat());
    }
}

#[test]
fn functions_calls_returned_are_called_alike_under_every_runner() {
    for format in ["node-test"].into_iter().chain(NEW_FORMATS) {
        let out = tempfile::tempdir().unwrap();
        generate(
            &[fixture("returned/signal-hub.js")],
            out.path(),
            &["--seed", "1", "--format", format, "--budget", "20000", "--timeout", "600"],
        );
        let (suites, failing) = split(out.path());
        let text: String = suites.iter().map(|s| std::fs::read_to_string(s).unwrap()).collect();
        assert!(text.contains("const off = signalHub.on(") && text.contains("off()"), "{format}: {text}");
        passes_together(format, out.path(), &[suites, failing].concat());
    }
}

#[test]
fn maps_sets_and_typed_arrays_are_asserted_alike_under_every_runner() {
    // Their items are compared as `Array.from` takes them, with an array literal, which every runner's
    // deep equality reads alike; a typed array's constructor by `instanceof`.
    for format in ["node-test"].into_iter().chain(NEW_FORMATS) {
        let out = tempfile::tempdir().unwrap();
        generate(
            &[fixture("held-collections.js")],
            out.path(),
            &["--seed", "1", "--format", format, "--budget", "20000", "--timeout", "600"],
        );
        let (suites, failing) = split(out.path());
        let text: String = suites.iter().map(|s| std::fs::read_to_string(s).unwrap()).collect();
        for asserted in ["Array.from(roster.teams)", "Array.from(roster.names)", "roster.points instanceof Uint16Array"]
        {
            assert!(text.contains(asserted), "{format}: no `{asserted}`:\n{text}");
        }
        passes_together(format, out.path(), &[suites, failing].concat());
    }
}
