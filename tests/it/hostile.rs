//! A hostile corpus: code that patches, freezes or replaces built-ins, returns values no encoder likes,
//! has awkward names, odd first lines or a size of megabytes, in a folder whose path has spaces and
//! non-ASCII letters. Whatever the code does, the run ends with exit 0 (or one clear line and exit 2 where
//! the input is unusable), writes only under `--out`, shows positions of the user's text, and the
//! exported suite passes under `node --test`.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

/// A run of `generate` in a folder of its own, with the code under test in a subfolder.
struct Hostile {
    dir: tempfile::TempDir,
    files: Vec<PathBuf>,
    /// Most memory a run may take, in MiB.
    memory_mib: i64,
}

impl Hostile {
    /// Writes `files` (name, text) under `<tmp>/code dir é/`.
    fn new(files: &[(&str, &str)]) -> Hostile {
        let dir = tempfile::tempdir().unwrap();
        let code = dir.path().join("code dir é");
        std::fs::create_dir(&code).unwrap();
        let files = files
            .iter()
            .map(|(name, text)| {
                let path = code.join(name);
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect();
        Hostile { dir, files, memory_mib: MEMORY_MIB }
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    /// Runs `generate` on every file from the folder itself; checks that nothing was written outside
    /// `--out` and that no engine position leaked.
    fn generate(&self, extra: &[&str]) -> Output {
        let before = tree(self.dir.path());
        let out = self.out();
        let mut args: Vec<String> = vec!["generate".into()];
        args.extend(self.files.iter().map(|f| f.display().to_string()));
        args.extend(["--out".into(), out.display().to_string()]);
        if !extra.contains(&"--timeout") {
            args.extend(["--timeout".into(), "1".into()]);
        }
        args.extend(["--seed".into(), "7".into()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut command = Command::new(env!("CARGO_BIN_EXE_flycatcher"));
        command.args(&args).current_dir(self.dir.path());
        let (output, peak) = output_and_peak_memory_mib(command);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{}", text(&output));
        let limit = self.memory_mib;
        assert!(peak < limit, "the run took {peak} MiB (limit {limit}): {}", text(&output));
        let after: BTreeSet<PathBuf> = tree(self.dir.path()).into_iter().filter(|p| !p.starts_with(&out)).collect();
        assert_eq!(after, before, "written outside --out: {}", text(&output));
        let mut seen = format!("{}{stderr}", String::from_utf8_lossy(&output.stdout));
        for file in tree(&out) {
            seen.push_str(&std::fs::read_to_string(&file).unwrap_or_default());
        }
        self.positions_are_the_users(&seen);
        output
    }

    /// Runs `generate`, which must succeed, and the exported suites under `node --test`.
    fn passes(&self, extra: &[&str]) -> String {
        let output = self.generate(extra);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        node_test_passes(&suites(&self.out()));
        text(&output)
    }

    /// Every `name:line:column` naming a file of the corpus is a position of that file's text.
    fn positions_are_the_users(&self, seen: &str) {
        for file in &self.files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(file).unwrap();
            let lines: Vec<&str> = text.split('\n').collect();
            for (at, _) in seen.match_indices(&format!("{name}:")) {
                let mut numbers = seen[at + name.len() + 1..].split(':');
                let line = numbers.next().and_then(|l| l.parse::<usize>().ok());
                let column = numbers.next().map(|c| c.chars().take_while(char::is_ascii_digit).collect::<String>());
                let (Some(line), Some(Ok(column))) = (line, column.map(|c| c.parse::<usize>())) else { continue };
                assert!(
                    line >= 1 && line <= lines.len() && column <= lines[line - 1].chars().count() + 1,
                    "{name}:{line}:{column} is not a position of the user's text: {seen}"
                );
            }
        }
    }
}

/// Most memory a run may take: what a test may allocate (256 MiB) and the process around it. Measured:
/// 215 MiB for the run whose tests allocate without end, 20 MiB or less for the others.
const MEMORY_MIB: i64 = 512;

/// Most memory the run on a bundle of several megabytes may take: what the engine may allocate while
/// loading (1 GiB) and the process around it. Measured: about 1,000 MiB (its syntax tree, and two
/// engines holding it: the session's and the mutation analysis's). Building a mutant of it takes 500 MiB and
/// seconds more: the analysis, given one second, judges none.
const BUNDLE_MEMORY_MIB: i64 = 1280;

/// Runs `command` to its end, as `Command::output` does, and reads the peak resident memory of that
/// process alone, in MiB: `wait4` gives one child's resources, where `getrusage` would give the largest
/// of every child this test binary (its tests run in parallel) waited for so far.
fn output_and_peak_memory_mib(mut command: Command) -> (Output, i64) {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("flycatcher runs");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("the pipe reads");
            bytes
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let mut status = 0;
    // SAFETY: wait4 only writes the status and the struct it is given; the child is ours, and dropping
    // `child` below neither waits for it nor kills it.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage), child.id() as libc::pid_t);
        usage
    };
    drop(child);
    let status = std::process::ExitStatus::from_raw(status);
    let output = Output { status, stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() };
    // Linux counts `ru_maxrss` in KiB.
    (output, usage.ru_maxrss / 1024)
}

/// Every file under `dir`.
fn tree(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return found };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(tree(&path));
        }
        found.insert(path);
    }
    found
}

const PATCHER: &str = r#"class Patcher {
  toJson(x) {
    if (x !== 0) Object.prototype.toJSON = function () { throw new Error('boom'); };
    return { x };
  }
  push(x) {
    if (x !== 0) Array.prototype.push = function () { throw new Error('no push'); };
    return [x];
  }
  json(x) {
    if (x > 2) globalThis.JSON = { stringify() { throw new Error('json'); }, parse() { return 1; } };
    return x;
  }
  proxies(x) {
    if (x === 0) { globalThis.Proxy = function () { throw new Error('proxy'); }; globalThis.Reflect = {}; }
    return typeof x;
  }
  promise(x) {
    if (x < 0) globalThis.Promise = function () { throw new Error('promise'); };
    return x;
  }
  freeze(x) {
    if (x === 2) { Object.freeze(Object.prototype); Object.freeze(Array.prototype); }
    return String(x);
  }
  primitive(x) {
    Object.prototype[Symbol.toPrimitive] = x > 0 ? function () { throw new Error('prim'); } : function () { for (;;) {} };
    return 1;
  }
  getter(x) {
    Object.defineProperty(Object.prototype, 'length', { get() { throw new Error('len'); }, configurable: true });
    return x;
  }
  add(a, b) { return a + b; }
}
module.exports = { Patcher };
"#;

#[test]
fn built_ins_patched_frozen_or_replaced() {
    let corpus = Hostile::new(&[("patcher.js", PATCHER)]);
    let output = corpus.passes(&[]);
    // Before, the first test that patched `Object.prototype.toJSON` ended the run with exit 2.
    assert!(output.contains("tests that change a built-in (Object.prototype.toJSON)"), "{output}");
    assert!(output.contains("Patcher.add"), "{output}");
}

const ODD_RESULTS: &str = r#"class Odd {
  revoked() { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; }
  getter() { return { get bad() { throw new Error('getter'); }, ok: 1 }; }
  toJsonThrows() { return { toJSON() { throw new Error('tojson'); } }; }
  cyclic(n) { const a = { n }; a.self = a; a.list = [a, [a]]; return a; }
  deep() { let o = {}; for (let i = 0; i < 100000; i++) o = { o }; return o; }
  huge(n) { return new Array(1e7).fill(n); }
  noisy() { return 'x'.repeat(1e8); }
  big(n) { return BigInt(n | 0) * 12345678901234567890n; }
  sym(s) { return Symbol(String(s)); }
  never() { return new Promise(() => {}); }
  primitive() { return { [Symbol.toPrimitive]() { throw new Error('p'); } }; }
  // Reaches for the harness's describers while its result is being described.
  sneaky() {
    const e = new Error('x');
    const options = { classes: [], maxDepth: 1, maxItems: 1, maxNodes: 1, cycles: true, complete: true, exactDates: false };
    Object.defineProperty(e, 'name', { get() { __fc$describe.make(options); return 'made'; } });
    return e;
  }
  // Makes a describer of options it cannot read (the process aborted at its end before).
  misuse() {
    try { __fc$describe.make({ classes: [], vars: [], maxDepth: Symbol('no') }); } catch (e) { return 'refused'; }
    return 'made';
  }
  loops() { return { [Symbol.toPrimitive]() { for (;;) {} } }; }
  add(a, b) { return a + b; }
}
module.exports = { Odd };
"#;

#[test]
fn results_no_encoder_likes() {
    let corpus = Hostile::new(&[("odd.js", ODD_RESULTS)]);
    let output = corpus.passes(&[]);
    // A test that runs out of memory alone is no sign that the code keeps state between tests.
    assert!(!output.contains("fresh context"), "{output}");
    assert!(output.contains("Odd.add"), "{output}");
}

// Built-ins that loop in C, where QuickJS checks no interrupt, over sparse arrays 134 million long: each
// call ran for seconds past the test's limit (minutes at the longest length an array can have).
const SPARSE: &str = r#"class Sparse {
  reverse(n) { const a = []; a.length = 2 ** 27; a.reverse(); return n; }
  indexOf(n) { const a = [n]; a[2 ** 27] = n; return a.indexOf(-1); }
  add(a, b) { return a + b; }
}
module.exports = { Sparse };
"#;

#[test]
fn built_in_loops_over_sparse_arrays_end_at_the_test_limit() {
    let corpus = Hostile::new(&[("sparse.js", SPARSE)]);
    // Every sequence calling `reverse` or `indexOf` runs to the test limit: a budget of a few such tests
    // per method would leave them no candidate that fails alone.
    let output = corpus.generate(&["--test-timeout-ms", "50", "--budget", "120000", "--timeout", "600"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let log = std::fs::read_to_string(corpus.out().join("Sparse.failing.log")).unwrap();
    for method in ["reverse", "indexOf"] {
        assert!(log.contains(&format!("## {method}: did not finish within 50 ms")), "{method}: {log}");
    }
    let suite = std::fs::read_to_string(corpus.out().join("Sparse.test.js")).unwrap();
    assert!(!suite.contains(".reverse(") && !suite.contains(".indexOf("), "{suite}");
    node_test_passes(&suites(&corpus.out()));
}

// Loops whose work is in a promise executor: QuickJS's `Promise` constructor turns an interrupt in the
// executor into a rejection, so the test's limit never ended them (the process ran until killed).
const EXECUTORS: &str = r#"class Executors {
  spin(n) {
    for (;;) new Promise((resolve) => { let s = 0; for (let i = 0; i < 50; i++) s += i; resolve(s + n); });
  }
  pending(n) {
    for (;;) new Promise(() => { let s = 0; for (let i = 0; i < 50; i++) s += i; });
  }
  later(n) { return new Promise((resolve) => resolve(n + 1)); }
  refuse(n) { return new Promise(() => { throw new RangeError('no ' + n); }).catch((e) => e.message); }
}
module.exports = { Executors };
"#;

#[test]
fn loops_around_promise_executors_end_at_the_test_limit() {
    let corpus = Hostile::new(&[("executors.js", EXECUTORS)]);
    // A budget whose eighth (a candidate's share) is above the test limit: the limit ends the loops.
    let output = corpus.generate(&["--test-timeout-ms", "50", "--budget", "40000", "--timeout", "600"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let log = std::fs::read_to_string(corpus.out().join("Executors.failing.log")).unwrap();
    for method in ["spin", "pending"] {
        assert!(log.contains(&format!("## {method}: did not finish within 50 ms")), "{method}: {log}");
    }
    // Executors that end still resolve and reject as the native constructor has them do.
    let suite = std::fs::read_to_string(corpus.out().join("Executors.test.js")).unwrap();
    assert!(suite.contains(".later(") && suite.contains(".refuse("), "{suite}");
    node_test_passes(&suites(&corpus.out()));
}

const NAMES: &str = r#"export class $Names {
  then(x) { return x; }
  delete(x) { return x === null ? 'none' : 'some'; }
  new(x) { return [x]; }
  $(x) { return typeof x; }
  ['__proto__'](x) { return x; }
  'ünï'(x) { return x; }
  get class() { return 1; }
  constructor$(x) { return x; }
}
export class Ünïcode { default(a) { return a ? 1 : 2; } }
"#;

#[test]
fn names_that_are_keywords_or_unicode() {
    let corpus = Hostile::new(&[("names.mjs", NAMES)]);
    corpus.passes(&[]);
}

/// A shebang line, a byte-order mark and CRLF endings, where the failing log must show the user's lines.
#[test]
fn shebang_byte_order_mark_and_crlf() {
    let method = "  m(x) {\r\n    if (x > 1) return null.y;\r\n    return x;\r\n  }\r\n";
    let cjs =
        format!("#!/usr/bin/env node\r\n'use strict';\r\nclass S {{\r\n{method}}}\r\nmodule.exports = {{ S }};\r\n");
    let mjs = format!("\u{feff}// marked\r\nexport class B {{\r\n{method}}}\r\n");
    let shebang_mjs = format!("#!/usr/bin/env node\nexport class E {{\n{}}}\n", method.replace('\r', ""));
    let corpus = Hostile::new(&[("shebang.cjs", &cjs), ("bom.mjs", &mjs), ("shebang.mjs", &shebang_mjs)]);
    corpus.passes(&[]);
    let log = std::fs::read_to_string(corpus.out().join("S.failing.log")).unwrap();
    assert!(log.contains("null"), "{log}");
}

#[test]
fn a_shebang_after_a_byte_order_mark_is_refused_in_one_line() {
    let corpus =
        Hostile::new(&[("both.js", "\u{feff}#!/usr/bin/env node\nclass A { m() {} }\nmodule.exports = { A };\n")]);
    let output = corpus.generate(&[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("both.js:1:1") && stderr.contains("byte-order mark"), "{stderr}");
}

/// A bundle of several megabytes (60,000 small functions and one class), generated here: loading needs
/// more stack than a test has.
#[test]
fn a_multi_megabyte_bundle_loads() {
    let mut bundle = String::new();
    for i in 0..60_000 {
        bundle.push_str(&format!(
            "function helper_{i}(alpha, beta) {{ var gamma = alpha * {i} + beta; return gamma > 10 ? gamma : -gamma; }}\n"
        ));
    }
    bundle.push_str("class Bundle { pick(x) { return x > 3 ? helper_1(x, 2) : helper_59999(x, 1); } }\n");
    bundle.push_str("module.exports = { Bundle };\n");
    assert!(bundle.len() > 6 << 20);
    let mut corpus = Hostile::new(&[("bundle.js", &bundle)]);
    corpus.memory_mib = BUNDLE_MEMORY_MIB;
    let output = corpus.passes(&[]);
    assert!(output.contains("Bundle.pick"), "{output}");
}

/// A load error names the user's line, not the instrumented code's.
#[test]
fn load_errors_show_the_users_positions() {
    let code = "class L {\n  m() { return 1; }\n}\nfunction boom() {\n  return undefined.x;\n}\nboom();\nmodule.exports = { L };\n";
    let corpus = Hostile::new(&[("late.js", code)]);
    let output = corpus.generate(&[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("late.js:5:"), "{stderr}");
}
