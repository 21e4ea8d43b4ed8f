//! TypeScript input (issue 38, items 1 and 2): `.ts`, `.mts` and `.cts` files load, stripped of their
//! types by swc, and every construct with a run-time meaning runs as TypeScript defines it; positions
//! (statements, errors) name the `.ts` file's lines; imports resolve as TypeScript, `tsx` and Node do.

use crate::common;

use std::path::{Path, PathBuf};

use common::{fixture, flycatcher, generate, methods, text};
use flycatcher::model::settings::Settings;
use flycatcher::session::{Session, SessionOptions};

fn typescript(name: &str) -> PathBuf {
    fixture("typescript").join(name)
}

/// Bounds every run: a method that stalls stops after this many seconds (nothing asserts on time).
const RUN: &[&str] = &["--seed", "1", "--budget", "120000", "--timeout", "600"];

/// Generates a suite for `file` and checks that every method got covered statements, and that the
/// methods in `full` were covered entirely.
fn covers(file: &Path, full: &[&str]) {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[file.to_path_buf()], out.path(), RUN);
    let methods = methods(&report);
    assert!(!methods.is_empty(), "{}: no method under test: {report}", file.display());
    for (name, covered, statements, _) in &methods {
        assert!(*covered > 0, "{}: {name} covered nothing ({covered}/{statements})", file.display());
    }
    for name in full {
        let (_, covered, statements, stop) = methods
            .iter()
            .find(|(n, ..)| n == name)
            .unwrap_or_else(|| panic!("{}: no method {name} in {methods:?}", file.display()));
        assert_eq!(covered, statements, "{}: {name} not fully covered (stopped: {stop})", file.display());
    }
    assert!(report["elected"].as_u64().unwrap() > 0, "{report}");
    let written = std::fs::read_dir(out.path()).unwrap().filter_map(|e| e.ok()).any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.contains(".test.") && !name.contains(".failing.")
    });
    assert!(written, "{}: no suite written", file.display());
}

#[test]
fn constructs_that_run_become_what_typescript_emits() {
    covers(&typescript("enums.ts"), &["Gauge.record", "Gauge.label"]);
    covers(&typescript("namespace.ts"), &["Vector.length", "Vector.normalised", "Path.add", "Path.span"]);
    covers(&typescript("parameter-properties.ts"), &["Account.deposit", "Account.withdraw"]);
    covers(&typescript("export-assignment.ts"), &["Formatter.format", "Formatter.calls"]);
    covers(&typescript("import-require.ts"), &["Extensions.note"]);
    covers(&typescript("accessor.ts"), &["Thermostat.set"]);
    covers(&typescript("decorators-2022.ts"), &["Dimmer.adjust"]);
    covers(&typescript("decorators-legacy/service.ts"), &["CacheService.put", "CacheService.get"]);
    // Classes whose computed keys swc names: two of them in one function.
    covers(&typescript("computed-keys.ts"), &["Drafts.describe"]);
}

#[test]
fn constructs_that_are_types_only_vanish() {
    covers(&typescript("declare.ts"), &["Inventory.add", "Inventory.take"]);
    // `Shape` is abstract, but JavaScript can construct it: its `describe` calls the abstract `area`.
    covers(&typescript("abstract.ts"), &["Rectangle.area"]);
    covers(&typescript("overloads.ts"), &[]);
    covers(&typescript("type-imports/walker.ts"), &["Walker.step", "Walker.home"]);
    // Interfaces, a type alias, a namespace of types and a default interface re-exported, renamed, through
    // `export *` and after an import, beside values: the types go as tsc drops them, the values stay.
    covers(&typescript("type-reexports/ruler.ts"), &["Ruler.mark", "Ruler.longest", "Ruler.caption"]);
    covers(&typescript("expressions.ts"), &["Queue.reset", "Queue.push", "Queue.pop"]);
    covers(&typescript("module.mts"), &["Stack.push", "Stack.peek"]);
    covers(&typescript("commonjs.cts"), &["Counter.increment", "Counter.reset"]);
}

#[test]
fn imports_resolve_as_typescript_and_tsx_do() {
    let resolution = |name: &str| typescript("resolution").join(name);
    covers(&resolution("extensionless/queue.ts"), &["PriorityQueue.push", "PriorityQueue.peek"]);
    covers(&resolution("nodenext/slider.ts"), &["Slider.position"]);
    covers(&resolution("index/converter.ts"), &[]);
    // `from '..'`: the parent folder's index, imported back by a feature it re-exports.
    covers(&resolution("parent/features/dimmer.ts"), &["Dimmer.set"]);
    covers(&resolution("paths/src/till.ts"), &["Till.ring"]);
    // Package folders: `exports` with a `types` condition naming the sources (dist/ is not built), and
    // a `main` that is TypeScript.
    covers(&resolution("package"), &["Tally.count"]);
    covers(&resolution("main"), &["Toggle.flip"]);
    // A package importing its own subpath by its name, through its `exports`.
    covers(&resolution("self"), &["Lamp.set"]);
    // A default import of a CommonJS module marked `__esModule` is its `default`, as TypeScript's
    // CommonJS interop gives it (the class to extend, not the `exports` object).
    covers(&resolution("interop/bus.ts"), &["Bus.send"]);
}

#[test]
fn a_missing_import_lists_the_typescript_files_tried() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("user.ts");
    std::fs::write(&file, "import { x } from './gone.js';\nexport class User { f(): number { return x; } }\n").unwrap();
    let output = flycatcher(&["generate", &file.display().to_string()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(stderr.contains("user.ts:1") && stderr.contains("./gone.js"), "{stderr}");
    assert!(stderr.contains("gone.ts, gone.js"), "the .ts its .js name stands for is tried first: {stderr}");
}

/// The lines of `positions.ts`: the class comes after a doc comment, an interface and a type alias that
/// stripping removes, so the JavaScript's lines are not these.
#[test]
fn statements_are_on_the_lines_of_the_typescript_file() {
    let options = SessionOptions { files: vec![typescript("positions.ts")], ..Default::default() };
    let session = Session::new(&options, Settings::default()).unwrap_or_else(|e| panic!("{e}"));
    let file = &session.subject().code().files[0];
    let instrumented = &file.instrumented;
    let function = |name: &str| {
        instrumented.functions.iter().find(|f| f.name.as_deref() == Some(name)).unwrap_or_else(|| panic!("{name}"))
    };
    let lines = |name: &str| -> Vec<u32> {
        let range = function(name).statements.clone();
        range.map(|id| instrumented.statements[(id - file.statements.start) as usize].line).collect()
    };
    assert_eq!(function("check").line, 16);
    assert_eq!(lines("check"), [17, 18, 20, 21, 23]);
    // The assignment a parameter property stands for is on the parameter's line.
    assert_eq!(function("constructor").line, 14);
    assert_eq!(lines("constructor"), [14]);
    let text = file.entry.parsed.source.src.as_str();
    let check = function("check");
    assert!(text[check.start as usize..].starts_with("check(value: number): Verdict {"), "offsets are the .ts text's");
}

#[test]
fn errors_name_the_typescript_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let run = |file: &str| {
        let output = flycatcher(&["generate", file, "--out", &dir.path().join("out").display().to_string()]);
        assert!(!output.status.success(), "{}", text(&output));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let interface = "interface A {\n  x: number;\n  y: number;\n}\ntype B = A;\n";
    let broken = write(
        "broken.ts",
        &format!("{interface}export class C {{\n  m(a: number): number {{\n    return a +;\n  }}\n}}\n"),
    );
    let stderr = run(&broken);
    assert!(stderr.contains("broken.ts:8:15: cannot parse TypeScript"), "{stderr}");
    let throws = write(
        "throws.ts",
        &format!(
            "{interface}const n: number = 1;\nexport class C {{}}\nif ((n as number) > 0) {{\n  throw new Error('boom');\n}}\n"
        ),
    );
    let stderr = run(&throws);
    assert!(stderr.contains("throws.ts:9:"), "the throw is on line 9 of the .ts file: {stderr}");
    let jsx = write("view.tsx", "export const view = <div />;\n");
    assert!(run(&jsx).contains("TSX is not supported"), "a .tsx file is refused with a reason");
    let declarations = write("types.d.ts", "export declare class X {}\n");
    assert!(run(&declarations).contains("declaration file holds types only"), "a .d.ts file is no code");
}
