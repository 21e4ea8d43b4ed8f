//! Loading: module formats, namespaces, re-exports, and a sandbox without host objects.

use crate::common;

use std::path::Path;

use common::*;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn namespace_option_finds_the_classes_under_it() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[sample("namespace.js")], out.path(), &["--seed", "1", "--namespace", "Geo"]);
    let names: Vec<String> = methods(&report).into_iter().map(|m| m.0).collect();
    assert!(names.iter().any(|n| n.starts_with("Geo.Point.")), "{names:?}");
    assert!(names.iter().any(|n| n.starts_with("Geo.Shapes.Rect.")), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("QuadTree.")), "QuadTree is outside Geo: {names:?}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn es_modules_with_extensionless_imports_and_re_exports() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "utils.mjs", "export function clamp(x, lo, hi) { return Math.min(hi, Math.max(lo, x)); }\n");
    write(
        dir.path(),
        "meter.mjs",
        "import { clamp } from './utils';\nexport class Meter {\n  constructor() { this.level = 0; }\n  \
         set(v) { this.level = clamp(v * 1, 0, 10); return this.level; }\n}\n",
    );
    let index = write(dir.path(), "index.mjs", "export * from './meter.mjs';\n");
    let out = dir.path().join("out");
    let report = generate(&[index], &out, &["--seed", "1"]);
    assert_eq!(methods(&report)[0].0, "Meter.set");
    // Node itself does not resolve extensionless ES imports: the suite cannot run there, but the
    // sandbox loaded and tested it.
    assert!(methods(&report)[0].1 > 0);
}

#[test]
fn commonjs_requires_between_given_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "unit.js", "module.exports = { scale: function (x) { return x * 2; } };\n");
    let counter = write(
        dir.path(),
        "counter.js",
        "const unit = require('./unit');\nclass Counter {\n  constructor() { this.n = 0; }\n  \
         add(k) { if (k > 3) { this.n += unit.scale(k); } else { this.n += 1; } return this.n; }\n}\nexports.Counter = Counter;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[counter], &out, &["--seed", "1"]);
    let (name, covered, total, _) = &methods(&report)[0];
    assert_eq!((name.as_str(), covered), ("Counter.add", total));
    node_test_passes(&suites(&out));
}

#[test]
fn an_es_module_a_commonjs_file_requires_gives_its_namespace_as_under_node() {
    // Node 20.19 and later give `require` of an ES module its namespace, with `__esModule` added where
    // there is a default export: TypeScript's `__importDefault` then reads the default export itself.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "scale.mjs",
        "export const units = ['cm', 'm'];\nexport default function double(x) { return x * 2; }\n",
    );
    write(dir.path(), "start.mjs", "const start = 3;\nexport { start as 'module.exports' };\n");
    let gauge = write(
        dir.path(),
        "gauge.cjs",
        "var __importDefault = function (mod) { return mod && mod.__esModule ? mod : { default: mod }; };\n\
         const scale = require('./scale.mjs');\nconst double = __importDefault(require('./scale.mjs'));\n\
         const start = require('./start.mjs');\n\
         class Gauge {\n  constructor() { this.units = scale.units.length; this.count = start; }\n  \
         size(x) {\n    if (double.default(x) > 10) { return 'big'; }\n    return 'small';\n  }\n}\n\
         module.exports = { Gauge };\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[gauge], &out, &["--seed", "1"]);
    let (name, covered, total, _) = &methods(&report)[0];
    assert_eq!((name.as_str(), covered), ("Gauge.size", total));
    let suite = std::fs::read_to_string(out.join("Gauge.test.js")).unwrap();
    assert!(suite.contains("count, 3"), "the 'module.exports' export is what require gives:\n{suite}");
    assert!(suite.contains("units, 2"), "the namespace is what require gives:\n{suite}");
    node_test_passes(&suites(&out));
}

#[test]
fn the_class_of_an_instance_a_module_exports_is_tested_through_its_constructor() {
    // `module.exports = new Jexl()`: users call the instance, or build more through its class.
    let dir = tempfile::tempdir().unwrap();
    let counter = write(
        dir.path(),
        "counter.cjs",
        "class Counter {\n  constructor() { this.n = 0; }\n  \
         add(k) { if (k > 3) { this.n += k; } else { this.n += 1; } return this.n; }\n}\nmodule.exports = new Counter();\n",
    );
    let tally = write(
        dir.path(),
        "tally.mjs",
        "class Tally {\n  constructor() { this.marks = []; }\n  \
         mark(label) { if (label === 'x') { return 0; } return this.marks.push(label); }\n}\nexport default new Tally();\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[counter, tally], &out, &["--seed", "1"]);
    let found: Vec<(String, u64, u64)> = methods(&report).into_iter().map(|(name, c, t, _)| (name, c, t)).collect();
    assert_eq!(found.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(), ["Counter.add", "Tally.mark"], "{found:?}");
    assert!(found.iter().all(|(_, covered, total)| covered == total), "{found:?}");
    node_test_passes(&suites(&out));
}

#[test]
fn json_files_are_required_as_node_requires_them() {
    let dir = tempfile::tempdir().unwrap();
    // `__proto__` is an own key under `JSON.parse`, where an object literal would set the prototype.
    write(dir.path(), "package.json", "\u{feff}{ \"version\": \"1.2.3\", \"__proto__\": { \"x\": 1 } }\n");
    write(dir.path(), "data.json", "[1, 2, 3]\n");
    let meter = write(
        dir.path(),
        "meta.js",
        "const meta = require('./package.json');\nconst data = require('./data');\nclass Meta {\n  \
         version() { return meta.version; }\n  keys() { return Object.keys(meta).join(); }\n  \
         sum() { return data.reduce((a, b) => a + b, 0); }\n}\nmodule.exports = { Meta };\n",
    );
    let out = dir.path().join("out");
    generate(&[meter], &out, &["--seed", "1"]);
    let suite = std::fs::read_to_string(out.join("Meta.test.js")).unwrap();
    for result in ["\"1.2.3\"", "\"version,__proto__\"", "6"] {
        assert!(suite.contains(result), "{result}: {suite}");
    }
    node_test_passes(&suites(&out));
}

#[test]
fn the_sandbox_has_no_host_objects() {
    let dir = tempfile::tempdir().unwrap();
    let probe = write(
        dir.path(),
        "probe.js",
        "function Probe() {}\nProbe.prototype.host = function () {\n  return [typeof require, typeof global, \
         typeof setTimeout, typeof setInterval, typeof print, typeof XMLHttpRequest, \
         typeof std, typeof os, typeof module].join(',') + ' ' + typeof console.log + ' ' + console.log('x');\n};\n",
    );
    let out = dir.path().join("out");
    generate(&[probe], &out, &["--seed", "1"]);
    let suite = std::fs::read_to_string(out.join("Probe.test.js")).unwrap();
    // `global`, `console` and timers are there, as under Node, but console's methods do nothing and
    // answer `undefined`, and timers run on a virtual clock. (A test that reads `process` or `fetch`,
    // which Node has, is no regression test: see `tests/it/published.rs`.)
    let expected = "undefined,object,function,function,undefined,undefined,undefined,undefined,undefined";
    assert!(suite.contains(&format!("\"{expected} function undefined\"")), "{suite}");
}

#[test]
fn state_shared_between_tests_is_never_observed() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "ticket.js",
        "var issued = 0;\nfunction Ticket() { issued++; this.number = issued; }\n\
         Ticket.prototype.label = function () { if (this.number > 1) { return 'later'; } return 'first'; };\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1", "--budget", "120000", "--timeout", "600"]);
    // Every test starts from a fresh context: the receiver is the test's first ticket, number 1, so
    // 'later' is out of reach of any test on its own (state left by earlier tests or by class
    // discovery must not make it look reachable), and the suite passes in any order.
    let (_, covered, total, _) = &methods(&report)[0];
    assert_eq!((*covered, *total), (2, 3));
    let suite = std::fs::read_to_string(out.join("Ticket.test.js")).unwrap();
    assert!(suite.contains("\"first\""), "{suite}");
    // Only a test that makes a second ticket itself (one made longer to tell a mutant apart) sees one.
    for test in suite.split("    test(").skip(1) {
        assert!(!test.contains("\"later\"") || test.matches("new Ticket()").count() > 1, "{test}");
    }
    node_test_passes(&suites(&out));
}

#[test]
fn suites_written_under_a_module_package_still_load_as_commonjs() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", "{ \"type\": \"module\" }\n");
    let out = dir.path().join("out");
    generate(&[sample("circle.js")], &out, &["--seed", "1"]);
    assert!(out.join("package.json").exists());
    node_test_passes(&suites(&out));
}

#[test]
fn class_constructors_are_found_whatever_the_member_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "pt.js",
        "class Pt {\n  get norm() { return Math.abs(this.x); }\n  scale(k, m) { return this.x * k; }\n  \
         constructor(x) { if (typeof x !== 'number') throw new TypeError('x'); this.x = x; }\n}\n\
         class Pt3 extends Pt { twice() { return this.x * 2; } }\nmodule.exports = { Pt, Pt3 };\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    let constructors: Vec<(String, String)> = report["types"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["function"] == "constructor")
        .map(|t| (t["class"].as_str().unwrap().to_string(), t["parameter"].as_str().unwrap().to_string()))
        .collect();
    assert!(constructors.contains(&("Pt".into(), "x".into())), "{constructors:?}");
    assert!(
        constructors.contains(&("Pt3".into(), "x".into())),
        "an implicit constructor takes its parent's: {constructors:?}"
    );
    assert!(methods(&report).iter().all(|(_, covered, total, _)| covered == total), "{:?}", methods(&report));
    node_test_passes(&suites(&out));
}

#[test]
fn default_exports_are_named_after_the_class() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "queue.js",
        "\"use strict\";\nexports.default = void 0;\nclass Queue { constructor() { this.n = 0; } size() { return this.n; } }\n\
         exports.default = Queue;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    assert_eq!(methods(&report)[0].0, "Queue.size");
    node_test_passes(&suites(&out));
}

#[test]
fn methods_of_built_in_parents_are_not_tested() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "counter.js",
        "class Counter extends Map { bump(k) { this.set(k, (this.get(k) || 0) + 1); return this.get(k); } }\n\
         module.exports = Counter;\n",
    );
    let out = dir.path().join("out");
    for seed in ["1", "2", "3"] {
        generate(std::slice::from_ref(&file), &out, &["--seed", seed]);
        let suite = std::fs::read_to_string(out.join("Counter.test.js")).unwrap();
        for line in suite.lines().filter(|l| l.contains("counter.") && l.contains('(')) {
            assert!(line.contains("counter.bump("), "only the class's own method is called: {line}");
        }
        node_test_passes(&suites(&out));
    }
}

#[test]
fn a_class_whose_code_looks_for_native_functions_is_no_built_in() {
    // Its text holds `[native code]`, as a built-in's does: discovery took its prototype for a built-in
    // one and found no method to test.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "probe.js",
        "class Probe {\n  isNative(f) { return typeof f === 'function' && String(f).includes('[native code]'); }\n}\n\
         module.exports = Probe;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    assert_eq!(methods(&report)[0].0, "Probe.isNative");
    node_test_passes(&suites(&out));
}

#[test]
fn a_class_that_can_never_be_built_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    // Only a Map will do, and a recording proxy cannot tell: every primitive the leap of faith tries
    // is rejected.
    let file = write(
        dir.path(),
        "cache.js",
        "class Cache {\n  constructor(store) {\n    if (!(store instanceof Map)) throw new TypeError('a Map is needed');\n    \
         this.store = store;\n  }\n  put(k) { this.store.set(k, 1); return this.store.size; }\n}\nmodule.exports = Cache;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    let put = &report["classes"][0]["methods"][0];
    assert_eq!(put["stop"], "aborted");
    let warnings = put["warnings"].to_string();
    assert!(warnings.contains("every construction of Cache threw"), "{warnings}");
}

#[test]
fn a_parameter_used_as_an_array_is_an_array() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "heap.js",
        "class Heap { constructor(data) { this.data = data; this.length = data.length; }\n  \
         push(i) { this.data.push(i); this.length++; }\n  peek() { return this.data[0]; } }\nmodule.exports = Heap;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    assert!(methods(&report).iter().all(|(_, covered, total, _)| covered == total), "{:?}", methods(&report));
    node_test_passes(&suites(&out));
}

#[test]
fn state_the_static_analysis_misses_is_caught_when_electing() {
    let dir = tempfile::tempdir().unwrap();
    // The write goes through a local alias of a global: invisible to the static analysis.
    let file = write(
        dir.path(),
        "tag.js",
        "var registry = {};\nfunction Tag(name) { this.name = name; }\n\
         Tag.prototype.register = function () {\n  var r = registry;\n  if (r[this.name]) { return 'again'; }\n  \
         r[this.name] = true;\n  this.name = this.name + '!';\n  return 'first';\n};\n",
    );
    // Within one test a tag never meets its own name again: 'again' is reached only through names
    // registered by earlier tests, which the re-run of an elected test alone exposes.
    let out = dir.path().join("out");
    let report = generate(
        &[file],
        &out,
        &["--seed", "1", "--delay", "2", "--max-stale", "2000", "--budget", "60000", "--timeout", "600"],
    );
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("fresh context"), "{warnings}");
    let suite = std::fs::read_to_string(out.join("Tag.test.js")).unwrap();
    assert!(!suite.contains("\"again\""), "{suite}");
    node_test_passes(&suites(&out));
}

#[test]
fn an_alias_of_a_method_is_tested_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "num.js",
        "function Num(v) { this.v = v; }\nNum.prototype.abs = function () { return this.v < 0 ? -this.v : this.v; };\n\
         Num.prototype.absoluteValue = Num.prototype.abs;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    let names: Vec<String> = methods(&report).into_iter().map(|m| m.0).collect();
    assert_eq!(names, vec!["Num.abs"]);
}

#[test]
fn an_empty_method_is_covered_by_calling_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "noop.js",
        "class Quiet { constructor() { this.n = 0; } noop() {} }\nmodule.exports = Quiet;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    assert_eq!(methods(&report), vec![("Quiet.noop".to_string(), 1, 1, "covered".to_string())]);
    node_test_passes(&suites(&out));
}

#[test]
fn typeof_checks_are_evidence() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "hooks.js",
        "class Hooks {\n  constructor() { this.list = []; }\n  \
         use(fn) {\n    if (typeof fn !== 'function') throw new TypeError('a function is needed');\n    this.list.push(fn);\n    return this.list.length;\n  }\n}\n\
         module.exports = Hooks;\n",
    );
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1"]);
    let fn_type = &report["types"].as_array().unwrap().iter().find(|t| t["parameter"] == "fn").unwrap()["evidence"];
    assert!(fn_type.as_str().unwrap().contains("typeof fn against 'function'"), "{fn_type}");
    let (_, covered, total, _) = &methods(&report)[0];
    assert_eq!(covered, total, "a non-function now and then reaches the throw");
    node_test_passes(&suites(&out));
}

#[test]
fn a_constructor_whose_trailing_arguments_are_optional_is_called_without_them() {
    // kdbush@4.0.2: `constructor(numItems, nodeSize = 64, ArrayType = Float64Array, data)` refuses every
    // array class but its own; `data` has no default but is tested for truth (`data && ...`), so calls
    // may leave both out. Counting `data` as required, every construction threw and nothing was elected.
    let out = tempfile::tempdir().unwrap();
    let report =
        generate(&[fixture("typed-grid.mjs")], out.path(), &["--seed", "1", "--budget", "60000", "--timeout", "600"]);
    let covered: Vec<String> = methods(&report)
        .into_iter()
        .filter(|(_, covered, total, _)| covered == total && *total > 0)
        .map(|m| m.0)
        .collect();
    assert!(covered.contains(&"Grid.add".to_string()) && covered.contains(&"Grid.full".to_string()), "{covered:?}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn the_numbers_a_test_passes_are_the_literals_its_exported_form_passes() {
    use flycatcher::discovery::sandbox_expression;
    use flycatcher::model::settings::Settings;
    use flycatcher::sandbox::{Sandbox, Test, Watch};
    use flycatcher::session::{Session, SessionOptions};
    // The harness turns the doubles `JSON.parse` makes into integers where they are whole, for speed:
    // negative zero, fractions and numbers past 32 bits must reach the code as they were written.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "probe.js",
        "function Probe() { this.cells = [10, 20, 30]; }\n\
         Probe.prototype.read = function (n) { return (Object.is(n, -0) ? '-0' : String(n)) + ' ' + this.cells[n]; };\n",
    );
    let options = SessionOptions { files: vec![file], ..Default::default() };
    let session = Session::new(&options, Settings::default()).unwrap();
    let expressions: Vec<String> =
        session.subject().program().classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let mut sandbox = Sandbox::new(session.subject().code(), session.settings().limits.clone()).unwrap();
    sandbox.bind_classes(&expressions).unwrap();
    let json =
        r#"[[0,0,[],0],[1,0,"read",[-0],1],[1,0,"read",[1],1],[1,0,"read",[2.5],1],[1,0,"read",[4294967298],1]]"#;
    let run = sandbox.run_isolated(Test::Json(json), 1, &Watch::default(), true).unwrap();
    let results: Vec<String> = run.results.iter().map(|r| format!("{:?}", r.value)).collect();
    let expected = ["-0 10", "1 20", "2.5 undefined", "4294967298 undefined"];
    assert_eq!(results.len(), expected.len(), "{results:?}");
    for (result, text) in results.iter().zip(expected) {
        assert!(result.contains(&format!("{text:?}")), "{result} should be {text:?}");
    }
}

#[test]
fn a_work_limit_set_later_applies_to_the_context_tests_run_alone_in() {
    use flycatcher::discovery::sandbox_expression;
    use flycatcher::model::observed::Outcome;
    use flycatcher::model::settings::Settings;
    use flycatcher::sandbox::{Sandbox, Test, Watch};
    use flycatcher::session::{Session, SessionOptions};
    // Mutation analysis runs every test on a mutant alone, in one kept context, each within a work limit
    // of its own: the limit set before a run must be the one that run gets, whichever context it uses.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "spin.js",
        "function Spin() {}\n\
         Spin.prototype.turn = function (n) { var x = 0; for (var i = 0; i < n; i++) x += i % 7; return x; };\n",
    );
    let options = SessionOptions { files: vec![file], ..Default::default() };
    let session = Session::new(&options, Settings::default()).unwrap();
    let expressions: Vec<String> =
        session.subject().program().classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    // The turns take about half the usual 100 ms per test on a quiet machine, and timed out under a
    // loaded one: the time limit here is one no run reaches, so that the work limit alone decides.
    let mut limits = session.settings().limits.clone();
    limits.test_time = std::time::Duration::from_secs(60);
    let mut sandbox = Sandbox::new(session.subject().code(), limits).unwrap();
    sandbox.bind_classes(&expressions).unwrap();
    sandbox.keep_loaded_for_tests_alone();
    let json = r#"[[0,0,[],0],[1,0,"turn",[300000],1]]"#;
    let free = sandbox.run_isolated(Test::Json(json), 1, &Watch::default(), false).unwrap();
    assert_eq!(free.outcome, Outcome::Passed, "three hundred thousand turns fit without a work limit");
    sandbox.set_work_limit(Some(free.work / 4));
    let limited = sandbox.run_isolated(Test::Json(json), 1, &Watch::default(), false).unwrap();
    assert_eq!(limited.outcome, Outcome::TimedOut, "a quarter of the work it needs ends it");
    sandbox.set_work_limit(None);
    let again = sandbox.run_isolated(Test::Json(json), 1, &Watch::default(), false).unwrap();
    assert_eq!(again.outcome, Outcome::Passed);
}

/// What `new Meter().read(5)` answers in `sandbox`, run alone, the classes bound by `expressions`.
fn read_five(sandbox: &mut flycatcher::sandbox::Sandbox, expressions: &[String]) -> String {
    use flycatcher::model::observed::Observed;
    use flycatcher::sandbox::{Test, Watch};
    sandbox.bind_classes(expressions).unwrap();
    let json = r#"[[0,0,[],0],[1,0,"read",[5],1]]"#;
    let run = sandbox.run_isolated(Test::Json(json), 1, &Watch::default(), true).unwrap();
    match &run.results[0].value {
        Observed::Number { text } => text.clone(),
        other => panic!("read answered {other:?}"),
    }
}

#[test]
fn a_mutant_shares_the_files_it_did_not_change_and_runs_its_own() {
    use std::rc::Rc;

    use flycatcher::analysis::parse::parse_source;
    use flycatcher::discovery::sandbox_expression;
    use flycatcher::model::settings::Settings;
    use flycatcher::sandbox::{CodeBase, Sandbox};
    use flycatcher::session::{Session, SessionOptions};
    // Mutation analysis builds a mutant's code from the session's: the edited file alone is parsed,
    // instrumented and compiled again; the others, and their bytecode, are the original's.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "meter.js",
        "const scale = require('./scale');\nconst unit = require('./unit');\n\
         function Meter() {}\n\
         Meter.prototype.read = function (n) { return scale.twice(n) + unit.one; };\n\
         module.exports = Meter;\n",
    );
    write(dir.path(), "scale.js", "exports.twice = function (n) { return n * 2; };\n");
    write(dir.path(), "unit.js", "exports.one = (function () { return 1; })();\n");
    let options = SessionOptions { files: vec![file], ..Default::default() };
    let session = Session::new(&options, Settings::default()).unwrap();
    let code = session.subject().code();
    let scale = code.files.iter().position(|f| f.entry.parsed.display.ends_with("scale.js")).unwrap();
    let unit = code.files.iter().position(|f| f.entry.parsed.display.ends_with("unit.js")).unwrap();
    assert!(scale < unit, "files are in the order `require` reached them");
    let expressions: Vec<String> =
        session.subject().program().classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let limits = session.settings().limits.clone();
    let read = |sandbox: &mut Sandbox| read_five(sandbox, &expressions);
    let mutant = |text: &str| -> CodeBase {
        let parsed = &code.files[scale].entry.parsed;
        code.with_file(scale, parse_source(&parsed.path, &parsed.display, text.to_string()).unwrap())
    };
    let mut original = Sandbox::new(code, limits.clone()).unwrap();
    assert_eq!(read(&mut original), "11");

    let tripled = mutant("exports.twice = function (n) { return n * 3; };\n");
    for (i, file) in tripled.files.iter().enumerate() {
        assert_eq!(Rc::ptr_eq(file, &code.files[i]), i != scale, "file {i} is shared unless it was edited");
        assert_eq!((&file.statements, &file.branches), (&code.files[i].statements, &code.files[i].branches));
    }
    assert_eq!(read(&mut Sandbox::new_beside(&tripled, limits.clone(), &original).unwrap()), "16");
    assert_eq!(read(&mut original), "11", "the original still runs its own code");

    // An edit that adds probes takes ids past every file's, so that no other file's move.
    let longer = mutant("exports.twice = function (n) { n = n + 1; return n * 2; };\n");
    assert_eq!(longer.files[scale].statements.start, code.statement_count);
    assert_eq!(longer.statement_count, code.statement_count + longer.files[scale].statements.len() as u32);
    assert_eq!(longer.files[unit].statements, code.files[unit].statements);
    assert_eq!(read(&mut Sandbox::new_beside(&longer, limits.clone(), &original).unwrap()), "13");
}

#[test]
fn es_modules_read_from_bytecode_run_as_compiled_and_a_mutant_compiles_its_own() {
    use flycatcher::analysis::parse::parse_source;
    use flycatcher::discovery::sandbox_expression;
    use flycatcher::model::settings::Settings;
    use flycatcher::sandbox::Sandbox;
    use flycatcher::session::{Session, SessionOptions};
    // The first engine compiles the program's ES modules and keeps their bytecode; every later engine (a
    // test run alone, a fresh context, a mutant's sandbox) reads it, and imports must link as before. The
    // bytecode is keyed by the module's text: a mutant's edited module is compiled, not read.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "meter.mjs",
        "import { twice } from './scale.mjs';\nimport one from './unit.mjs';\n\
         export class Meter { read(n) { return twice(n) + one; } }\n",
    );
    write(dir.path(), "scale.mjs", "export function twice(n) { return n * 2; }\n");
    write(dir.path(), "unit.mjs", "export default (function () { return 1; })();\n");
    let options = SessionOptions { files: vec![file], ..Default::default() };
    let session = Session::new(&options, Settings::default()).unwrap();
    let code = session.subject().code();
    let scale = code.files.iter().position(|f| f.entry.parsed.display.ends_with("scale.mjs")).unwrap();
    let expressions: Vec<String> =
        session.subject().program().classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let limits = session.settings().limits.clone();
    let read = |sandbox: &mut Sandbox| read_five(sandbox, &expressions);
    let mut original = Sandbox::new(code, limits.clone()).unwrap();
    assert_eq!(read(&mut original), "11");
    assert_eq!(read(&mut Sandbox::new_beside(code, limits.clone(), &original).unwrap()), "11", "from bytecode");
    let parsed = &code.files[scale].entry.parsed;
    let text = "export function twice(n) { return n * 3; }\n";
    let tripled = code.with_file(scale, parse_source(&parsed.path, &parsed.display, text.to_string()).unwrap());
    assert_eq!(read(&mut Sandbox::new_beside(&tripled, limits.clone(), &original).unwrap()), "16");
    assert_eq!(read(&mut original), "11", "the original still runs its own modules");
}

#[test]
fn a_script_that_patches_set_has_while_loading_still_has_its_classes_found() {
    use flycatcher::model::settings::Settings;
    use flycatcher::session::{Session, SessionOptions};
    // A script's classes are the globals the global object did not have before it ran (`__fc$baseline`,
    // a `Set`); a polyfill gone wrong that makes every `Set` claim every value must not hide them.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "patched.js",
        "Set.prototype.has = function () { return true; };\n\
         function Counter() { this.n = 0; }\n\
         Counter.prototype.bump = function (by) { this.n += by > 0 ? by : 1; return this.n; };\n",
    );
    let session = Session::new(&SessionOptions { files: vec![file], ..Default::default() }, Settings::default());
    let session = session.unwrap_or_else(|e| panic!("{e}"));
    assert!(session.subject().program().class_named("Counter").is_some(), "{:?}", session.subject().program().classes);
}
