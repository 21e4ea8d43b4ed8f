//! Helpers shared by the integration tests: running the binary and the real test runners.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use flycatcher::discovery::sandbox_expression;
use flycatcher::model::settings::Settings;
use flycatcher::sandbox::{Sandbox, Watch};
use flycatcher::session::{Session, SessionOptions};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A sample file by name.
pub fn sample(name: &str) -> PathBuf {
    root().join("samples").join(name)
}

/// Runs `flycatcher` with `args` in the repository root.
pub fn flycatcher(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flycatcher")).args(args).current_dir(root()).output().expect("flycatcher runs")
}

/// Text of stdout and stderr, for failure messages.
pub fn text(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs `generate` on `files` into `out` with a JSON report; panics unless it exits 0. Returns the
/// report.
pub fn generate(files: &[PathBuf], out: &Path, extra: &[&str]) -> serde_json::Value {
    let report = out.join("report.json");
    let mut args: Vec<String> = vec!["generate".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(["--out".into(), out.display().to_string(), "--report".into(), report.display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = flycatcher(&refs);
    assert!(output.status.success(), "generate failed: {}", text(&output));
    serde_json::from_str(&std::fs::read_to_string(&report).expect("report written")).expect("report is JSON")
}

/// The exported suites in `out`.
pub fn suites(out: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .expect("out folder exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
            name.ends_with(".test.js") || name.ends_with(".test.mjs")
        })
        .collect();
    files.sort();
    files
}

/// Runs `node --test` on `files`; panics with the runner's output unless every test passes.
pub fn node_test_passes(files: &[PathBuf]) {
    assert!(!files.is_empty(), "no suite to run");
    let output = Command::new("node").arg("--test").args(files).output().expect("node runs");
    assert!(output.status.success(), "node --test failed: {}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("# fail 0"), "{stdout}");
    assert!(!stdout.contains("# pass 0\n"), "no test ran: {stdout}");
}

/// Per method of the report: (class.method, covered, statements, stop).
pub fn methods(report: &serde_json::Value) -> Vec<(String, u64, u64, String)> {
    let mut out = Vec::new();
    for class in report["classes"].as_array().expect("classes") {
        for m in class["methods"].as_array().expect("methods") {
            out.push((
                format!("{}.{}", class["name"].as_str().unwrap(), m["name"].as_str().unwrap()),
                m["covered"].as_u64().unwrap(),
                m["statements"].as_u64().unwrap(),
                m["stop"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

/// A CommonJS library whose factory builds its instances inside the module (those constructions are
/// the library's business: not recorded), and a constructor that refuses bad input; an entry using both.
pub fn purse(dir: &Path) -> PathBuf {
    std::fs::write(
        dir.join("purse.cjs"),
        "class Coin {\n\
           constructor(value, label) {\n\
             if (!(value > 0)) throw new RangeError(`a coin is worth more than 0, not ${value}`);\n\
             this.value = value;\n\
             this.label = label;\n\
           }\n\
           worth(count) { return this.value * count; }\n\
         }\n\
         class Purse {\n\
           constructor(owner) { this.owner = owner; this.coins = []; }\n\
           put(coin) { this.coins.push(coin); return this.coins.length; }\n\
           total() { let sum = 0; for (const c of this.coins) sum += c.value; return sum; }\n\
           richest() {\n\
             if (this.coins.length === 0) return 'nobody';\n\
             let best = this.coins[0];\n\
             for (const c of this.coins) if (c.value > best.value) best = c;\n\
             return `${this.owner}: ${best.label}`;\n\
           }\n\
         }\n\
         function purseOf(owner, values) {\n\
           const purse = new Purse(owner);\n\
           for (const v of values) purse.coins.push(new Coin(v, v + 'c'));\n\
           return purse;\n\
         }\n\
         module.exports = { Coin, Purse, purseOf };\n",
    )
    .unwrap();
    let entry = dir.join("purse-demo.cjs");
    std::fs::write(
        &entry,
        "const { Coin, purseOf } = require('./purse.cjs');\n\
         const mine = purseOf('Ann', [5, 20, 2]);\n\
         console.log(mine.total(), mine.richest(), mine.coins[1].worth(3));\n\
         console.log(purseOf('Bob', []).richest());\n\
         try { new Coin(0, 'zero'); } catch (e) { console.log(e.message); }\n",
    )
    .unwrap();
    entry
}

/// A self-written fixture under `tests/fixtures` by name.
pub fn fixture(name: &str) -> PathBuf {
    root().join("tests").join("fixtures").join(name)
}

/// The candidates and the contexts built for them, read from a bench report.
pub fn candidates_and_contexts(report: &str) -> (u64, u64) {
    let line = report.lines().find(|l| l.starts_with("flycatcher:")).expect("a flycatcher line");
    let number_before = |word: &str| -> u64 {
        let head = &line[..line.find(word).expect(word)];
        head.split_whitespace().last().and_then(|n| n.parse().ok()).expect("a number")
    };
    (number_before(" candidates in"), number_before(" contexts built"))
}

/// A session on `source` (a CommonJS file), and a sandbox of its own with the classes bound, watching
/// every probe: for tests of the sandbox as a library.
pub fn load_sandbox(source: &str) -> (Session, Sandbox, Watch) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("subject.cjs");
    std::fs::write(&file, source).unwrap();
    let session = Session::new(&SessionOptions { files: vec![file], ..Default::default() }, Settings::default());
    let session = session.unwrap_or_else(|e| panic!("{e}"));
    let mut sandbox = Sandbox::new(session.subject().code(), session.settings().limits.clone()).unwrap();
    let expressions: Vec<String> =
        session.subject().program().classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    sandbox.bind_classes(&expressions).unwrap();
    let watch = Watch::of(0..session.subject().code().statement_count, 0..session.subject().code().branch_count);
    (session, sandbox, watch)
}

/// Every file `generate` wrote into `out` (the report aside), by name.
pub fn written(out: &Path) -> std::collections::BTreeMap<String, String> {
    std::fs::read_dir(out)
        .expect("out folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n != "report.json"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

/// The report without what measures time or the machine.
pub fn untimed(mut report: serde_json::Value) -> serde_json::Value {
    fn strip(json: &mut serde_json::Value) {
        match json {
            serde_json::Value::Object(map) => {
                map.retain(|key, _| !key.ends_with("_ms") && key != "workers");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut report);
    report
}

/// Every method of `unit` named in `wanted` is in the report and fully covered.
pub fn fully_covered(report: &serde_json::Value, unit: &str, wanted: &[&str]) {
    let methods = methods(report);
    for name in wanted {
        let method = format!("{unit}.{name}");
        let found = methods.iter().find(|m| m.0 == method).unwrap_or_else(|| panic!("no {method} in {methods:?}"));
        assert_eq!(found.1, found.2, "{method} covered {}/{} (stop: {})", found.1, found.2, found.3);
    }
}

/// The test runners' `node_modules` (tests/runners), checked to hold each of `needed` (paths below it).
pub fn runners_with(needed: &[&str]) -> PathBuf {
    let modules = root().join("tests/runners/node_modules");
    for item in needed {
        assert!(modules.join(item).exists(), "{item} is missing: run `npm ci --prefix tests/runners`");
    }
    modules
}

/// The `.test.ts` suites in `out`, the failing ones included, in name order.
pub fn typescript_suites(out: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".test.ts"))
        .collect();
    found.sort();
    found
}
