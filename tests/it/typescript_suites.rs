//! Suites of TypeScript code, end to end: `flycatcher generate file.ts` writes `.test.ts` suites that pass,
//! unchanged, under vitest, `node --import tsx --test` and jest with `@swc/jest` (with the configuration the
//! suite's header gives), and that `tsc --noEmit --strict` accepts against the user's code; `verify` runs
//! them, type-checks them, and reports coverage on the `.ts` lines. The runners are those of
//! `tests/runners` (`npm ci --prefix tests/runners`).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;
use serde_json::Value as Json;

/// The TypeScript fixtures and a class each tests: an interface parameter, private and protected fields
/// and an enum imported with a `.ts` specifier (inventory); a union, a union of literals and an ES private
/// field, with a function imported with a `.js` specifier (canvas).
const FIXTURES: [(&str, &str); 2] = [("inventory.ts", "Inventory"), ("shapes.ts", "Canvas")];

/// The formats that write TypeScript suites.
const FORMATS: [&str; 3] = ["node-test", "jest", "vitest"];

fn fixture_file(name: &str) -> PathBuf {
    root().join("tests/fixtures/ts-suites").join(name)
}

fn runners() -> PathBuf {
    runners_with(&[".bin/tsc", ".bin/tsx", ".bin/jest", ".bin/vitest", ".bin/c8", "@swc/jest", "@types/node"])
}

/// A project folder for the suites: a `node_modules` link to the runners (as a user has them installed
/// above their tests, where `--import tsx` and tsc's module resolution look), and `out/` for the suites.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(runners(), dir.path().join("node_modules")).unwrap();
    let out = dir.path().join("out");
    (dir, out)
}

/// The jest configuration a suite's header gives.
fn jest_config(suite: &Path) -> String {
    let text = std::fs::read_to_string(suite).unwrap();
    let marker = "Run with this jest configuration (needs @swc/core and @swc/jest): ";
    let line = text.lines().find_map(|l| l.strip_prefix("// ")?.strip_prefix(marker));
    line.unwrap_or_else(|| panic!("{}: no jest configuration in its header", suite.display())).to_string()
}

/// Runs `suites` (the suites of one generation, in one folder) under `format`'s runner as a user would,
/// from their folder, with one start of the runner: a start (jest's, vitest's) costs more than the tests.
fn run(format: &str, suites: &[PathBuf]) -> Output {
    assert!(!suites.is_empty(), "{format}: no suite to run");
    let bin = |name: &str| runners().join(".bin").join(name);
    let mut command = match format {
        "node-test" => {
            let mut c = Command::new("node");
            c.args(["--import", "tsx", "--test"]);
            c
        }
        "jest" => {
            // The suites of a generation share their project, so their headers give one configuration.
            let config = jest_config(&suites[0]);
            for suite in suites {
                assert_eq!(jest_config(suite), config, "{}: another jest configuration", suite.display());
            }
            let mut c = Command::new(bin("jest"));
            c.args(["--ci", "--config", &config]);
            c
        }
        "vitest" => {
            let mut c = Command::new(bin("vitest"));
            c.args(["run", "--root", "."]);
            c
        }
        other => panic!("{other} writes no TypeScript"),
    };
    let folder = suites[0].parent().unwrap();
    for suite in suites {
        assert_eq!(suite.parent(), Some(folder), "{suites:?} are not in one folder");
        command.arg(suite.file_name().unwrap());
    }
    command.current_dir(folder).env("NO_COLOR", "1");
    command.output().unwrap()
}

/// Runs tsc over `suites` with a strict configuration written in `dir`, and `extra` options; returns its
/// output (empty when clean).
fn tsc(dir: &Path, suites: &[PathBuf], extra: &[&str]) -> String {
    let config = serde_json::json!({
        "compilerOptions": {
            "strict": true, "noEmit": true, "target": "es2022", "module": "preserve", "moduleResolution": "bundler",
            "allowImportingTsExtensions": true, "skipLibCheck": true, "types": ["node"],
        },
        "files": suites.iter().map(|s| s.display().to_string()).collect::<Vec<_>>(),
    });
    std::fs::write(dir.join("tsconfig.json"), config.to_string()).unwrap();
    let output = Command::new(runners().join(".bin/tsc"))
        .args(["--project", "tsconfig.json", "--pretty", "false"])
        .args(extra)
        .current_dir(dir)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn typescript_suites_pass_every_runner_and_type_check() {
    // Every fixture's suites in every format in one project (a folder each), type-checked together: tsc
    // takes seconds to start.
    let (dir, _) = project();
    let mut checked = Vec::new();
    for (file, class) in FIXTURES {
        for format in FORMATS {
            let out = dir.path().join(format!("{class}-{format}"));
            let report = generate(
                &[fixture_file(file)],
                &out,
                &["--seed", "3", "--budget", "120000", "--timeout", "600", "--format", format, "--class", class],
            );
            let suites = typescript_suites(&out);
            let regression: Vec<&PathBuf> =
                suites.iter().filter(|s| !s.to_string_lossy().contains(".failing.")).collect();
            assert_eq!(regression.len(), 1, "{format} on {file}: {suites:?}");
            assert!(suites::no_javascript(&out), "{format} on {file}: a JavaScript suite was written for TypeScript");
            // The failing suite's tests are skipped: the tests that pass are the regression suite's.
            let output = run(format, &suites);
            let text = text(&output);
            assert!(output.status.success(), "{format} failed on {suites:?}: {text}");
            suites::some_test_passed(format, &text);
            // Every method was reached: the suite is not empty of substance.
            assert!(methods(&report).iter().any(|(_, covered, _, _)| *covered > 0), "{report}");
            checked.extend(suites);
        }
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites:\n{errors}");
    // Node's type stripping runs only erasable syntax: the suites have no other (the fixtures' enum is
    // theirs).
    let erasable = tsc(dir.path(), &checked, &["--erasableSyntaxOnly"]);
    let in_suites: Vec<&str> = erasable.lines().filter(|l| l.contains(".test.ts(")).collect();
    assert!(in_suites.is_empty(), "not erasable in the suites:\n{erasable}");
}

#[test]
fn suites_import_the_code_the_way_the_project_does() {
    // inventory.ts imports './priority.ts', shapes.ts './geometry.js' (NodeNext): each suite's types name
    // the file under test the same way.
    for (file, class, named) in [("inventory.ts", "Inventory", "inventory.ts"), ("shapes.ts", "Canvas", "shapes.js")] {
        let (_dir, out) = project();
        generate(
            &[fixture_file(file)],
            &out,
            &["--seed", "1", "--budget", "60000", "--timeout", "600", "--class", class],
        );
        let suite = typescript_suites(&out).into_iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
        let text = std::fs::read_to_string(&suite).unwrap();
        let fixtures = fixture_file(file).parent().unwrap().canonicalize().unwrap();
        let relative = format!("{}/{named}", pathdiff(&out, &fixtures));
        assert!(text.contains(&format!("typeof import(\"{relative}\").{class}")), "{relative}:\n{text}");
    }
}

#[test]
fn values_built_for_declared_types_carry_them_without_a_cast() {
    // planner.ts declares a union of literals, an options interface, a string enum, a numeric enum from
    // another file, a class instance and a callback: the suite's calls carry them as written.
    // Every format's suites in one project (a folder each), type-checked together: tsc takes seconds
    // to start.
    let (dir, _) = project();
    let mut checked = Vec::new();
    for format in FORMATS {
        let out = dir.path().join(format);
        let args = ["--seed", "1", "--budget", "120000", "--timeout", "600", "--format", format, "--class", "Planner"];
        generate(&[fixture_file("planner.ts")], &out, &args);
        let suites = typescript_suites(&out);
        let suite = suites.iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
        let written = std::fs::read_to_string(suite).unwrap();
        let calls: Vec<&str> = written
            .lines()
            .filter(|l| ["new Planner(", ".add(", ".setMode(", ".titles(", ".total("].iter().any(|c| l.contains(c)))
            .collect();
        assert!(!calls.is_empty(), "{format}: no call of Planner's members:\n{written}");
        for call in &calls {
            assert!(!call.contains("as any"), "{format}: a declared call is cast: {call}\n{written}");
        }
        assert!(written.contains("new Planner({"), "{format}: the options are not built as declared:\n{written}");
        assert!(written.contains(".setMode(Mode."), "{format}: a string enum's value is not its member:\n{written}");
        assert!(written.contains("Priority."), "{format}: a numeric enum's value is not its member:\n{written}");
        // The private member is reached through a cast.
        assert!(!written.contains("planner.label("), "{format}: a private member is called as declared:\n{written}");
        let output = run(format, &suites);
        assert!(output.status.success(), "{format} failed on {suites:?}: {}", text(&output));
        checked.extend(suites);
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of planner.ts:\n{errors}");
}

#[test]
fn results_bound_as_receivers_type_check_whatever_their_declared_type() {
    // ledger.ts's `record` returns a new ledger declared as an interface without `balance`: the suite
    // grows a ledger along its results and calls `balance` on them, which type-checks as they are `any`.
    let (dir, out) = project();
    let report =
        generate(&[fixture_file("ledger.ts")], &out, &["--seed", "1", "--budget", "60000", "--timeout", "600"]);
    for (method, covered, statements, stop) in methods(&report) {
        assert_eq!(covered, statements, "{method} covered {covered}/{statements} (stop: {stop})");
    }
    let suites = typescript_suites(&out);
    let suite = suites.iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
    let written = std::fs::read_to_string(suite).unwrap();
    assert!(written.contains("const ledger2: any = ledger.record("), "{written}");
    let output = run("node-test", &suites);
    assert!(output.status.success(), "node-test failed on {suites:?}: {}", text(&output));
    let errors = tsc(dir.path(), &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of ledger.ts:\n{errors}");
}

#[test]
fn code_that_chose_its_path_without_a_global_the_sandbox_lacks_takes_it_under_every_runner() {
    // host.ts reads WebAssembly at load, which the sandbox lacks: every runner loads it without it.
    // Every format's suites in one project (a folder each), type-checked together: tsc takes seconds
    // to start.
    let (dir, _) = project();
    let mut checked = Vec::new();
    for format in FORMATS {
        let out = dir.path().join(format);
        generate(
            &[fixture_file("host.ts")],
            &out,
            &["--seed", "1", "--budget", "60000", "--timeout", "600", "--format", format],
        );
        let suites = typescript_suites(&out);
        let suite = suites.iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
        let written = std::fs::read_to_string(suite).unwrap();
        assert!(
            written.contains("\"js ") && written.contains("withoutGlobals(globalThis, [\"WebAssembly\"]"),
            "{written}"
        );
        let output = run(format, &suites);
        assert!(output.status.success(), "{format} failed on {suites:?}: {}", text(&output));
        checked.extend(suites);
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of host.ts:\n{errors}");
}

#[test]
fn bytes_are_built_as_declared_and_written_as_typescript_reads_them() {
    // keyring.ts takes a `Uint8Array` of 32 bytes, not all zero: bytes of the lengths code checks, each
    // byte the same, cover every branch, and the suite writes them typed.
    let (dir, out) = project();
    let report =
        generate(&[fixture_file("keyring.ts")], &out, &["--seed", "1", "--budget", "60000", "--timeout", "600"]);
    for (method, covered, statements, stop) in methods(&report) {
        assert_eq!(covered, statements, "{method} covered {covered}/{statements} (stop: {stop})");
    }
    let suites = typescript_suites(&out);
    let suite = suites.iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
    let written = std::fs::read_to_string(suite).unwrap();
    assert!(written.contains("keyring.add(new Uint8Array(32).fill("), "{written}");
    let output = run("node-test", &suites);
    assert!(output.status.success(), "node-test failed on {suites:?}: {}", text(&output));
    let errors = tsc(dir.path(), &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of keyring.ts:\n{errors}");
}

#[test]
fn a_function_a_module_exports_under_another_name_is_declared_by_its_own() {
    // seal.ts exports `seal(message, options)` and an object `keyed` whose `seal` is bound to
    // `sealKeyed(message, key: Uint8Array)` and whose `open` to `openKeyed`: `keyed.seal` is declared by
    // `sealKeyed`, not by the other `seal` of its file, and `keyed.open` by `openKeyed`.
    let (dir, out) = project();
    let report = generate(&[fixture_file("seal.ts")], &out, &["--seed", "1", "--budget", "200000", "--timeout", "600"]);
    let declared = |function: &str, parameter: &str| {
        let types = report["types"].as_array().unwrap();
        let found =
            types.iter().find(|t| t["class"] == "keyed" && t["function"] == function && t["parameter"] == parameter);
        found.filter(|t| t["source"] == "declared").map(|t| t["declared"].as_str().unwrap().to_string())
    };
    assert_eq!(declared("seal", "key").as_deref(), Some("Uint8Array"), "{}", report["types"]);
    assert_eq!(declared("open", "key").as_deref(), Some("Uint8Array"), "{}", report["types"]);
    covered_passing_and_type_checked(dir.path(), &out, &report, "seal.ts");
}

#[test]
fn generic_classes_and_functions_are_given_any_rather_than_what_the_arguments_would_infer() {
    // glossary.ts: TypeScript infers `Glossary<K, P>` from the record a construction is given, as narrowly
    // as it is written (its keys become the only keys later calls may name; a phrase written as a string
    // refuses a function in another language), and `pick<K, V>` from its table. Written with `<any, any>`
    // and callbacks' parameters annotated, the suites type-check (760 errors on a package with such a
    // class before).
    let written = generated_passing_and_type_checked("glossary.ts");
    assert!(written.contains("new Glossary<any, any>({"), "{written}");
    assert!(written.contains("pick<any, any>("), "{written}");
}

#[test]
fn callbacks_written_where_a_union_of_object_types_is_declared_have_their_parameters_annotated() {
    // framing.ts takes `Coder<number> | Coder<bigint> | number`: an object literal written for it gets no
    // types for its methods' parameters from the union (their signatures differ from one member to the
    // other), so TypeScript refuses them as implicit `any`s unless annotated.
    let written = generated_passing_and_type_checked("framing.ts");
    assert!(written.contains("{ encode: function (_a: any) {"), "{written}");
}

#[test]
fn a_result_holding_the_text_of_a_callback_is_asserted_up_to_it() {
    // captions.ts returns a string naming the callback it was given: the suite writes the callback as
    // `function (_a) { return 3; }` and tsx's esbuild prints it back as `function(_a){return 3}`, so a
    // suite asserting the whole string failed under its runner on the code it came from.
    let written = generated_passing_and_type_checked("captions.ts");
    assert!(written.contains(".startsWith(\"maps 2 to "), "{written}");
}

#[test]
fn a_function_exported_through_an_annotated_binding_takes_the_annotations_type_arguments() {
    // scrolling.ts exports `scrollPane: <TOwner>(...) => number = scrollWith`, whose own declaration has
    // two type parameters: a call written `scrollPane<any, any>(...)` is refused (TS2558, 18 errors on a
    // package exporting its scroll helpers so).
    let written = generated_passing_and_type_checked("scrolling.ts");
    assert!(written.contains("scrollPane<any>("), "{written}");
}

/// The suites of ts-suites fixture `file` written at seed 1 (every method covered somewhat), after checking
/// that they pass under node:test and type-check; their text, for what a test expects them to write.
fn generated_passing_and_type_checked(file: &str) -> String {
    let (dir, out) = project();
    let report = generate(&[fixture_file(file)], &out, &["--seed", "1", "--budget", "20000", "--timeout", "600"]);
    assert!(methods(&report).iter().all(|(_, covered, _, _)| *covered > 0), "{report}");
    let suites = typescript_suites(&out);
    let output = run("node-test", &suites);
    assert!(output.status.success(), "node-test failed on {suites:?}: {}", text(&output));
    let errors = tsc(dir.path(), &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of {file}:\n{errors}");
    suites.iter().map(|s| std::fs::read_to_string(s).unwrap()).collect()
}

/// Panics unless every method of `report` is fully covered, and the suites in `out` (of `file`) pass
/// under node:test and type-check in `dir`.
fn covered_passing_and_type_checked(dir: &Path, out: &Path, report: &Json, file: &str) {
    for (method, covered, statements, stop) in methods(report) {
        assert_eq!(covered, statements, "{method} covered {covered}/{statements} (stop: {stop})");
    }
    let suites = typescript_suites(out);
    let output = run("node-test", &suites);
    assert!(output.status.success(), "node-test failed on {suites:?}: {}", text(&output));
    let errors = tsc(dir, &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of {file}:\n{errors}");
}

#[test]
fn bytes_declared_beside_computed_variants_of_themselves_are_built_as_bytes() {
    // checksum.ts takes `Arg<Uint8Array>`, `T | (a conditional type over a mapped one)`: the computed
    // member is a variant of `T`, so bytes are built (a proxy is no Uint8Array, whose `subarray` it calls).
    let (dir, out) = project();
    let report =
        generate(&[fixture_file("checksum.ts")], &out, &["--seed", "1", "--budget", "200000", "--timeout", "600"]);
    for t in report["types"].as_array().unwrap().iter().filter(|t| t["declared"].is_string()) {
        assert_eq!(t["source"], "declared", "{t}");
    }
    covered_passing_and_type_checked(dir.path(), &out, &report, "checksum.ts");
}

#[test]
fn maps_sets_bigints_promises_and_callbacks_are_built_as_declared() {
    // books.ts takes a `Map<string, number>`, a `Set<string>`, a `bigint`, a union of bigint literals and a
    // string, a `Promise<number>` (awaited in a `try`, or kept and never awaited), a predicate of two
    // parameters, a comparator of numbers and an enum declared in a namespace: each is built from its
    // declaration, every method is covered (the `catch` by a rejected promise), and the calls carry their
    // types with no cast (the enum's values written as its members, through the namespace). A rejected
    // promise the code never awaits leaves no unhandled rejection for the runner to fail the test on.
    each_format_as_declared("books.ts", "Ledger", |format, report, written| {
        let every = |method: &str, built: &dyn Fn(&str) -> bool| every_call(format, written, "ledger", method, built);
        every("merge", &|c| c.starts_with("new Map("));
        every("tag", &|c| c.starts_with("new Set("));
        every("scale", &|c| c.split(')').next().is_some_and(|n| n.ends_with('n')));
        let promise = |c: &str| c.starts_with("Promise.resolve(") || c.starts_with("(function (rejected) {");
        every("settle", &promise);
        every("hold", &promise);
        every("step", &|c| ["1n)", "10n)", "\"reset\")"].iter().any(|literal| c.starts_with(literal)));
        // A callback of a shape reads its parameters; a function returning one value names them unread.
        every("count", &|c| {
            ["function (a, b) { return ", "function (_a, _b) { return "].iter().any(|f| c.starts_with(f))
        });
        every("ranked", &|c| {
            [
                "function (a, b) { return a - b; }",
                "function (a, b) { return b - a; }",
                "function (_a, _b) { return 0; }",
            ]
            .iter()
            .any(|comparator| c.starts_with(comparator))
        });
        every("post", &|c| c.starts_with("Books.Side."));
        assert!(written.contains("new Map([["), "{format}: no map has an entry:\n{written}");
        assert!(written.contains("new Set([\""), "{format}: no set has an item:\n{written}");
        // `hold` is passed rejected promises as often as `settle`: none is left unhandled.
        assert_eq!(report["failing"], 0, "{format}: {report}");
    });
}

#[test]
fn async_iterables_are_built_as_declared_and_returned_ones_consumed() {
    // streams.ts: `total` takes `Iterable<number> | AsyncIterable<number>` and tells them apart by
    // `Symbol.asyncIterator` (each member of the union is built, an async generator for the async one, whose
    // negative item makes the `for await` throw); `pairs` is an async generator method taking an
    // `AsyncIterable<string>`, whose checks run only once its result is consumed: the suite consumes it with
    // `for await`, asserting its items or the rejection a fractional width leads to.
    each_format_as_declared("streams.ts", "Meter", |format, _, written| {
        let async_iterable = |c: &str| c.starts_with("(async function* () { yield* [");
        every_call(format, written, "meter", "total", &|c| async_iterable(c) || c.starts_with('['));
        every_call(format, written, "meter", "pairs", &async_iterable);
        assert!(calls_in(written, "meter", "total").iter().any(|c| c.starts_with('[')), "{format}:\n{written}");
        assert!(written.contains("for await (const item of "), "{format}: no result consumed:\n{written}");
        assert!(written.contains("message: \"width must be an integer\""), "{format}:\n{written}");
    });
}

/// Generates `file`'s suites of `class` in every format, a folder each in one project, and for each
/// format: every method is covered, every parameter's type is the declared one, `check` holds of the
/// report and the regression suite's text, and every suite passes under its runner; then tsc --strict
/// accepts all the suites together (tsc takes seconds to start).
fn each_format_as_declared(file: &str, class: &str, check: impl Fn(&str, &Json, &str)) {
    let (dir, _) = project();
    let mut checked = Vec::new();
    for format in FORMATS {
        let out = dir.path().join(format);
        let args = ["--seed", "1", "--budget", "120000", "--timeout", "600", "--format", format, "--class", class];
        let report = generate(&[fixture_file(file)], &out, &args);
        for (method, covered, statements, stop) in methods(&report) {
            assert_eq!((covered, stop.as_str()), (statements, "covered"), "{format}: {method}\n{report}");
        }
        for parameter in report["types"].as_array().unwrap() {
            assert_eq!(parameter["source"], "declared", "{format}: {parameter}");
        }
        let suites = typescript_suites(&out);
        let suite = suites.iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
        check(format, &report, &std::fs::read_to_string(suite).unwrap());
        let output = run(format, &suites);
        assert!(output.status.success(), "{format} failed on {suites:?}: {}", text(&output));
        checked.extend(suites);
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of {file}:\n{errors}");
}

/// Panics unless `written` calls `receiver.method` and every call's arguments are `built` so, with no cast.
fn every_call(format: &str, written: &str, receiver: &str, method: &str, built: &dyn Fn(&str) -> bool) {
    let calls = calls_in(written, receiver, method);
    assert!(!calls.is_empty(), "{format}: {method} is never called:\n{written}");
    for call in calls {
        assert!(built(&call) && !call.contains("as any"), "{format}: {method}({call}\n{written}");
    }
}

#[test]
fn classes_without_a_constructor_are_built_as_their_nearest_base_declares() {
    // tally.ts: Tally declares no constructor and has no base (built with no argument); Ranked and Capped
    // declare none and take Scale's `unit: 'cm' | 'in', factor: number`, one and two bases up.
    // Every format's suites in one project (a folder each), type-checked together: tsc takes seconds
    // to start.
    let (dir, _) = project();
    let mut checked = Vec::new();
    for format in FORMATS {
        let out = dir.path().join(format);
        let args = ["--seed", "1", "--budget", "60000", "--timeout", "600", "--format", format];
        let report = generate(&[fixture_file("tally.ts")], &out, &args);
        let inherited: Vec<&Json> = report["types"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["function"] == "constructor" && ["Ranked", "Capped"].contains(&t["class"].as_str().unwrap()))
            .collect();
        assert_eq!(inherited.len(), 4, "{format}: {report}");
        for parameter in inherited {
            assert_eq!(parameter["source"], "declared", "{format}: {parameter}");
        }
        let suites = typescript_suites(&out);
        let mut written = String::new();
        for suite in &suites {
            written.push_str(&std::fs::read_to_string(suite).unwrap());
        }
        assert!(!written.contains(" as any)("), "{format}: a construction is cast:\n{written}");
        assert!(written.contains("new Tally()"), "{format}:\n{written}");
        for class in ["Ranked", "Capped"] {
            assert!(
                written.contains(&format!("new {class}(\"cm\", "))
                    || written.contains(&format!("new {class}(\"in\", ")),
                "{format}: {class} is not built with its base's parameters:\n{written}"
            );
        }
        let output = run(format, &suites);
        assert!(output.status.success(), "{format} failed on {suites:?}: {}", text(&output));
        checked.extend(suites);
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of tally.ts:\n{errors}");
}

/// The path of `to` relative to `from` (both absolute, without links below their common part).
fn pathdiff(from: &Path, to: &Path) -> String {
    let from = from.canonicalize().unwrap();
    let common = from.ancestors().find(|a| to.starts_with(a)).unwrap();
    let ups = from.strip_prefix(common).unwrap().components().count();
    let downs = to.strip_prefix(common).unwrap().display().to_string();
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_string(), ups).collect();
    if !downs.is_empty() {
        parts.push(downs);
    }
    parts.join("/")
}

/// `flycatcher verify` on `dir`, with the runners' node_modules: exit code, JSON report and output.
fn verify(dir: &Path) -> (Option<i32>, Json, String) {
    let report = dir.join("verify.json");
    let output = flycatcher(&[
        "verify",
        dir.to_str().unwrap(),
        "--node-modules",
        runners().to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    let json = std::fs::read_to_string(&report).map(|t| serde_json::from_str(&t).unwrap()).unwrap_or(Json::Null);
    (output.status.code(), json, text(&output))
}

#[test]
fn verify_runs_typescript_suites_and_measures_the_ts_lines() {
    for format in FORMATS {
        let (_dir, out) = project();
        generate(
            &[fixture_file("inventory.ts")],
            &out,
            &["--seed", "3", "--budget", "120000", "--timeout", "600", "--format", format],
        );
        let (code, report, output) = verify(&out);
        assert_eq!(code, Some(0), "{format}: {output}");
        assert_eq!(report["failed"], 0, "{format}: {report}");
        assert!(report["passed"].as_u64().unwrap() > 0, "{format}: {report}");
        let files = report["coverage"]["files"].as_array().unwrap();
        let inventory = files
            .iter()
            .find(|f| f["file"].as_str().unwrap().ends_with("inventory.ts"))
            .unwrap_or_else(|| panic!("{format}: no coverage of inventory.ts: {report}"));
        // Lines of the .ts file, through source maps: more are covered than the file's first few.
        let covered = inventory["lines"]["covered"].as_u64().unwrap();
        let total = inventory["lines"]["total"].as_u64().unwrap();
        assert!(covered > 10 && total >= covered, "{format}: {inventory}");
    }
}

#[test]
fn verify_runs_jest_suites_with_the_configuration_their_header_gives() {
    // The header of a jest suite gives the configuration its project needs (legacy decorators from
    // tsconfig.json; its `paths` as a moduleNameMapper): verify runs the suite with that one.
    let typescript = root().join("tests/fixtures/typescript");
    for entry in ["decorators-legacy/ledger.ts", "resolution/paths/src/till.ts"] {
        let (_dir, out) = project();
        let args = ["--seed", "1", "--budget", "60000", "--timeout", "600", "--format", "jest"];
        generate(&[typescript.join(entry)], &out, &args);
        let suite = typescript_suites(&out).into_iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
        let config = jest_config(&suite);
        assert!(config.contains("legacyDecorator") || config.contains("@lib/"), "{entry}: {config}");
        let (_, report, output) = verify(&out);
        // The runner's tests, not the type check's: these projects' own tsconfig.json (which the check
        // extends) sets no `module`, whose default (ES2015, with classic resolution) finds no package.
        let tests = report["tests"].as_array().unwrap_or_else(|| panic!("{entry}: {output}"));
        let run: Vec<&Json> =
            tests.iter().filter(|t| !t["name"].as_str().unwrap().starts_with("tsc --noEmit --strict")).collect();
        assert!(!run.is_empty() && run.iter().all(|t| t["status"] == "passed"), "{entry}: {report}");
    }
}

#[test]
fn verify_reports_type_errors_as_failures_of_the_suite() {
    let (_dir, out) = project();
    generate(
        &[fixture_file("shapes.ts")],
        &out,
        &["--seed", "1", "--budget", "60000", "--timeout", "600", "--format", "vitest"],
    );
    let suite = typescript_suites(&out).into_iter().find(|s| !s.to_string_lossy().contains(".failing.")).unwrap();
    let mut text = std::fs::read_to_string(&suite).unwrap();
    text.push_str("\nexport const wrong: number = 'a string';\n");
    std::fs::write(&suite, text).unwrap();
    let (code, report, output) = verify(&out);
    assert_ne!(code, Some(0), "{output}");
    let tests = report["tests"].as_array().unwrap();
    let failed: Vec<&Json> = tests.iter().filter(|t| t["status"] == "failed").collect();
    assert_eq!(failed.len(), 1, "{report}");
    let name = failed[0]["name"].as_str().unwrap();
    assert!(name.starts_with("tsc --noEmit --strict > Canvas.test.ts:"), "{name}");
    assert!(failed[0]["reason"].as_str().unwrap().starts_with("TS2322"), "{report}");
}

#[test]
fn code_that_re_exports_a_type_without_type_loads_under_node_as_it_does_under_tsc() {
    // In a `"type": "module"` package, index.ts re-exports the interface `Sized` beside the class `Shelf`
    // without `type`: tsc drops it, tsx keeps it, and Node refuses to link the ES module tsx makes ("does not
    // provide an export named 'Sized'"). The node:test suite requires the code instead (tsx compiles it to
    // CommonJS, where the name reads undefined), says why at its loader, and passes; the vitest suite, whose
    // runner links no ES modules of its own, imports it as before.
    let entry = root().join("tests/fixtures/typescript/module-type-reexports/index.ts");
    // Every format's suites in one project (a folder each), type-checked together: tsc takes seconds
    // to start.
    let (dir, _) = project();
    let mut checked = Vec::new();
    for format in ["node-test", "vitest"] {
        let out = dir.path().join(format);
        let args = ["--seed", "1", "--budget", "60000", "--timeout", "600", "--format", format];
        let report = generate(std::slice::from_ref(&entry), &out, &args);
        assert!(methods(&report).iter().all(|(_, covered, statements, _)| covered == statements), "{report}");
        let suites = typescript_suites(&out);
        let suite = suites.iter().find(|s| s.ends_with("Shelf.test.ts")).unwrap_or_else(|| panic!("{suites:?}"));
        let written = std::fs::read_to_string(suite).unwrap();
        let note = "// The code re-exports types without `type` (";
        let required = written.contains("requireSubject(file)");
        assert_eq!(required, format == "node-test", "{format}:\n{written}");
        assert_eq!(written.contains(note), required, "{format}:\n{written}");
        if required {
            let place = written.lines().find(|l| l.starts_with(note)).unwrap();
            assert!(place.contains("module-type-reexports/index.ts:3 `Sized`):"), "{place}");
        }
        let output = run(format, &suites);
        assert!(output.status.success(), "{format} failed on {suites:?}: {}", text(&output));
        checked.extend(suites);
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of index.ts:\n{errors}");
}

#[test]
fn formats_without_typescript_are_refused_with_what_to_use() {
    let (_dir, out) = project();
    let output = flycatcher(&[
        "generate",
        fixture_file("shapes.ts").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "mocha",
        "--timeout",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot be written for mocha: use --format node-test, --format jest"), "{stderr}");
}

#[test]
fn code_whose_tsconfig_extends_a_file_not_shipped_runs_under_vitest_as_the_header_says() {
    // `unshipped-base/tsconfig.json` extends `../configs/tsconfig.base.json`, which is not there (a package
    // published without its repository's base): vite's transform stopped at it (TSCONFIG_ERROR), and every
    // test of the suite failed on the code it came from. The suite's header gives the options inline.
    let (dir, out) = project();
    let args = ["--seed", "1", "--budget", "30000", "--timeout", "600", "--format", "vitest"];
    generate(&[fixture_file("unshipped-base/meter.ts")], &out, &args);
    let suite = out.join("Meter.test.ts");
    let written = std::fs::read_to_string(&suite).unwrap();
    let marker = "run with this `oxc` option in the vitest configuration: ";
    let asked =
        written.lines().take_while(|l| l.starts_with("//")).find_map(|l| Some(&l[l.find(marker)? + marker.len()..]));
    let asked = asked.unwrap_or_else(|| panic!("no `oxc` option in the header:\n{written}"));
    let options: Json = serde_json::from_str(asked).unwrap();
    assert_eq!(options["tsconfig"]["compilerOptions"]["useDefineForClassFields"], true, "{options}");
    let config = dir.path().join("vitest.config.mjs");
    std::fs::write(&config, format!("export default {{ oxc: {asked} }};\n")).unwrap();
    let output = Command::new(runners().join(".bin/vitest"))
        .args(["run", "--root", ".", "--config"])
        .arg(&config)
        .arg("Meter.test.ts")
        .current_dir(&out)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = text(&output);
    assert!(output.status.success(), "vitest failed on Meter.test.ts:\n{said}");
    suites::some_test_passed("vitest", &said);
}

/// Checks on what runners printed and what was written.
mod suites {
    use std::path::Path;

    /// Whether no JavaScript suite was written in `out`.
    pub fn no_javascript(out: &Path) -> bool {
        std::fs::read_dir(out).unwrap().all(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            !name.ends_with(".test.js") && !name.ends_with(".test.mjs")
        })
    }

    /// Panics unless the runner's output says some test passed and none failed.
    pub fn some_test_passed(format: &str, output: &str) {
        let passed = match format {
            "node-test" => output.contains("# fail 0") && !output.contains("# pass 0\n"),
            "jest" => output.contains(" passed,") && !output.contains(" failed,"),
            _ => output.contains(" passed") && !output.contains(" failed"),
        };
        assert!(passed, "{format}: no test passed, or some failed:\n{output}");
    }
}

#[test]
fn private_and_protected_members_are_neither_called_nor_asserted() {
    // Inventory declares `private items` and `protected readonly limit`: its suite asserted
    // `(inventory2 as any).limit` after `add`, which a refactoring may rename without a change of
    // behaviour; `size` and `urgent()` show the state publicly.
    let (_dir, out) = project();
    generate(&[fixture_file("inventory.ts")], &out, &["--seed", "1", "--budget", "30000", "--timeout", "600"]);
    let suite = std::fs::read_to_string(out.join("Inventory.test.ts")).unwrap();
    let body = suite.split_once("describe(").map_or("", |(_, rest)| rest);
    let named: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !(l.starts_with("test(") || l.starts_with("test.skip(") || l.starts_with("//")))
        .filter(|l| l.contains(".items") || l.contains(".limit"))
        .collect();
    assert!(named.is_empty(), "private or protected members named: {named:?}\n{suite}");
    let output = run("node-test", &[out.join("Inventory.test.ts")]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
}

#[test]
fn static_factories_declared_to_return_their_class_make_its_instances_and_type_check() {
    // money.ts's constructor is private and takes a token only the module holds; `parse`, `zero` and `sum`
    // are declared to return a `Money`, though no call with arbitrary arguments answers with one: the
    // declarations make them the way to build receivers and arguments.
    // Every format's suites in one project (a folder each), type-checked together: tsc takes seconds
    // to start.
    let (dir, _) = project();
    let mut checked = Vec::new();
    for format in ["vitest", "node-test"] {
        let out = dir.path().join(format);
        let args = ["--seed", "1", "--budget", "60000", "--timeout", "600", "--format", format];
        let report = generate(&[fixture_file("money.ts")], &out, &args);
        let methods = methods(&report);
        for name in ["plus", "times", "isZero", "format"]
            .map(|m| format!("Money.{m}"))
            .into_iter()
            .chain(["parse", "zero", "sum"].map(|m| format!("Money (static).{m}")))
        {
            let found = methods.iter().find(|m| m.0 == name).unwrap_or_else(|| panic!("no {name}: {methods:?}"));
            assert_eq!(found.1, found.2, "{format}: {name} covered {}/{}", found.1, found.2);
        }
        assert!(!methods.iter().any(|m| m.0.ends_with(".digits")), "a private static was tested: {methods:?}");
        let suites = typescript_suites(&out);
        let read = |stem: &str| std::fs::read_to_string(out.join(format!("{stem}.test.ts"))).unwrap();
        let instances = read("Money");
        assert!(
            ["= Money.parse(", "= Money.zero(", "= Money.sum("].iter().any(|m| instances.contains(m)),
            "{format}: no receiver made by a factory:\n{instances}"
        );
        // The declared parameter types of static methods type their calls: no cast.
        let statics = read("Money.static");
        assert!(statics.contains("Money.parse(\"") && !statics.contains("Money.parse as any"), "{statics}");
        let output = run(format, &suites);
        assert!(output.status.success(), "{format} failed on {suites:?}: {}", text(&output));
        checked.extend(suites);
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of money.ts:\n{errors}");
}

#[test]
fn index_signatures_records_and_literal_defaults_are_built_as_declared() {
    // catalog.ts takes `{ [name: string]: string[] }` and `Record<string, number>`, and a flag declared by
    // its default alone (`force = false`). Before, the maps were built as `{}` (define 3/9, weigh 4/7) and
    // the flag as any value.
    let (dir, out) = project();
    let report =
        generate(&[fixture_file("catalog.ts")], &out, &["--seed", "1", "--budget", "60000", "--timeout", "600"]);
    for (method, covered, statements, stop) in methods(&report) {
        assert_eq!(covered, statements, "{method} covered {covered}/{statements} (stop: {stop})");
    }
    let force = report["types"].as_array().unwrap().iter().find(|t| t["parameter"] == "force").unwrap();
    assert_eq!(force["type"], "boolean", "{force}");
    let suites = typescript_suites(&out);
    let output = run("node-test", &suites);
    assert!(output.status.success(), "node-test failed on {suites:?}: {}", text(&output));
    let errors = tsc(dir.path(), &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of catalog.ts:\n{errors}");
}

/// The lines of `written` that call `method` on `receiver`, from the call's arguments on.
fn calls_in(written: &str, receiver: &str, method: &str) -> Vec<String> {
    let marker = format!("{receiver}.{method}(");
    written.lines().filter_map(|l| Some(l[l.find(&marker)? + marker.len()..].to_string())).collect()
}

#[test]
fn web_classes_and_rest_parameters_are_built_as_declared_and_web_results_asserted() {
    // fetcher.ts declares a `URL`, a `URLSearchParams`, a `Headers` and an `AbortSignal`, Node's global
    // classes: each is built as a user builds it, the same in the sandbox and in every runner. `add(...parts:
    // Part[])` is given several parts, each a `Part`, and returns another value for two of them or more.
    // Results of these classes are asserted by what a reader checks: a URL's `href`, a query's
    // `toString()`, the entries of headers. Before, the classes were opaque (left to proxies: the
    // constructor never got past its check), the rest parameter had one proxy, and the results had no
    // assertion.
    each_format_as_declared("fetcher.ts", "Fetcher", |format, _, written| {
        assert!(written.contains("new Fetcher(new URL(\""), "{format}:\n{written}");
        let every = |method: &str, built: &dyn Fn(&str) -> bool| every_call(format, written, "fetcher", method, built);
        every("query", &|c| c.starts_with("new URLSearchParams(\""));
        every("headers", &|c| c.starts_with("new Headers("));
        every("send", &|c| {
            c.starts_with("new Headers(")
                && (c.contains(", new AbortController().signal)") || c.contains(", AbortSignal.abort())"))
        });
        every("add", &|c| c.starts_with(')') || c.starts_with("{ name: "));
        let parts = |c: &String| c.matches("{ name: ").count();
        assert!(calls_in(written, "fetcher", "add").iter().any(|c| parts(c) >= 2), "{format}:\n{written}");
        for asserted in [".href, \"", ".toString(), \"", "Object.fromEntries("] {
            assert!(written.contains(asserted), "{format}: no `{asserted}` assertion:\n{written}");
        }
    });
}

#[test]
fn functions_of_an_object_typed_as_a_record_type_check() {
    // `typeof import(…).checks.date` would read `checks` as a namespace with no member `date`.
    let (dir, out) = project();
    generate(&[fixture_file("checks.ts")], &out, &["--seed", "1", "--budget", "5000", "--timeout", "600"]);
    let suites = typescript_suites(&out);
    let output = run("node-test", &suites);
    assert!(output.status.success(), "{suites:?}: {}", text(&output));
    let errors = tsc(dir.path(), &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of checks.ts:\n{errors}");
}

#[test]
fn what_a_factory_makes_is_built_with_the_factorys_declared_parameters() {
    // A recording proxy is a function to `typeof`, which createTally refuses: only the declared interface
    // builds a Tally. What it makes has no class: the interface createTally returns declares its methods.
    let (dir, out) = project();
    let report =
        generate(&[fixture("declared/tally.ts")], &out, &["--seed", "1", "--budget", "20000", "--timeout", "600"]);
    let types = report["types"].as_array().unwrap();
    for (function, parameter, declared) in [("constructor", "config", "TallyConfig"), ("add", "amount", "number")] {
        let found =
            types.iter().find(|t| t["class"] == "Tally" && t["function"] == function && t["parameter"] == parameter);
        let found = found.unwrap_or_else(|| panic!("no type of Tally.{function}({parameter}): {types:?}"));
        let read = (found["source"].as_str(), found["declared"].as_str(), found["uses"].as_u64());
        assert_eq!(read, (Some("declared"), Some(declared), Some(0)), "{found}");
    }
    for (method, covered, statements, stop) in methods(&report).into_iter().filter(|m| m.0.starts_with("Tally.")) {
        assert_eq!(covered, statements, "{method} (stop: {stop})");
    }
    let suites = typescript_suites(&out);
    let output = run("node-test", &suites);
    assert!(output.status.success(), "{suites:?}: {}", text(&output));
    let errors = tsc(dir.path(), &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of tally.ts:\n{errors}");
}

#[test]
fn functions_declared_as_results_are_called_and_type_check() {
    // ticker.ts's `subscribe` returns `() => void`, `formatter` returns `(x: number) => string`: the
    // suites call what they return, pass under node:test and vitest, and tsc accepts them.
    let (dir, _) = project();
    let mut checked = Vec::new();
    for format in ["node-test", "vitest"] {
        let out = dir.path().join(format);
        let args = ["--seed", "1", "--budget", "20000", "--timeout", "600", "--format", format];
        let report = generate(&[fixture("returned/ticker.ts")], &out, &args);
        for (method, covered, statements, stop) in methods(&report) {
            assert_eq!(covered, statements, "{format}: {method} covered {covered}/{statements} (stop: {stop})");
        }
        let suites = typescript_suites(&out);
        let written: String = suites.iter().map(|s| std::fs::read_to_string(s).unwrap()).collect();
        assert!(written.contains("= ticker.formatter(") && written.contains("Result("), "{format}:\n{written}");
        let output = run(format, &suites);
        assert!(output.status.success(), "{format} failed on {suites:?}: {}", text(&output));
        checked.extend(suites);
    }
    let errors = tsc(dir.path(), &checked, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of ticker.ts:\n{errors}");
}

#[test]
fn numbered_members_and_rests_of_computed_tuples_are_written_as_typescript_checks_them() {
    // tallies.ts declares `levels: { 0: number; 1: number; 2: number }`, whose numbered members were not
    // read (a value `levels: {}` was written typed: TS2739), and `note(...args: Parameters<typeof
    // remember>)`, whose rest is a tuple not read: a call with no argument was written typed (TS2554).
    let written = generated_passing_and_type_checked("tallies.ts");
    assert!(written.contains("levels: {"), "{written}");
}

#[test]
fn a_parameter_that_constructs_instances_is_given_a_class_whose_methods_returning_this_chain() {
    // digests.ts: `Keyed` takes `hash: new () => Digest`, an interface whose `update`, `reset` and `finish`
    // return `this` (the constructor chains `update(key).finish(out).clean()`, `tag` chains from
    // `reset()`), and branches on its `blockSize` and `digestLength`; `counted` takes `typeof Counter`.
    // Such a type was opaque: no value was built and nothing covered. A class is written of the
    // interface's members, its methods returning `this` returning the instance; `traits` returns what the
    // code can observe of it, asserted as the sandbox saw it, under each runner; tsc accepts the suites.
    each_format_as_declared("digests.ts", "Keyed", |format, _, written| {
        assert!(written.contains("new Keyed(class { digestLength = "), "{format}:\n{written}");
        assert!(written.contains(" update(_a: any) { return this; } "), "{format}:\n{written}");
        assert!(written.contains("\"digestLength,blockSize;1;true;false;false;"), "{format}:\n{written}");
    });
    // A class of the module is passed itself, cast: its constructor is not compared with the signature.
    let written = generated_passing_and_type_checked("digests.ts");
    assert!(written.contains("counted(Counter as any, "), "{written}");
}

#[test]
fn the_class_of_an_exported_instance_is_typed_as_what_builds_it() {
    // lexicon.ts exports only instances: their class is reached as `lexicons.en.constructor`, which tsc
    // types as `Function`, so neither `new` nor the tests' parameter took it until the suite cast it.
    let (dir, out) = project();
    generate(&[fixture_file("lexicon.ts")], &out, &["--seed", "1", "--budget", "5000", "--timeout", "600"]);
    let suites = typescript_suites(&out);
    let output = run("node-test", &suites);
    assert!(output.status.success(), "{suites:?}: {}", text(&output));
    let errors = tsc(dir.path(), &suites, &[]);
    assert!(errors.is_empty(), "tsc --strict on the suites of lexicon.ts:\n{errors}");
}

#[test]
fn functions_kept_in_an_object_are_declared_by_the_objects_annotation_or_literal() {
    // stamps.ts exports `stamp: { sign(label, width, clock): string; ... } = { sign(label, width = 4, clock
    // = zero) {...} }` beside a top-level `sign(text)`: the annotation is what callers see, and a call
    // passing fewer than its three arguments is refused (TS2554). An unannotated object's functions are
    // declared by the literal, not by the top-level function of the same name. `atLeast: Rule<number> =
    // (value, low) => ...` takes the three parameters of its annotation's alias: the test's two arguments
    // do not fit them, so the function is called cast (the base binary called it typed, TS2554); so is
    // `below: Check<number>`, an interface's call signature of three parameters.
    let written = generated_passing_and_type_checked("stamps.ts");
    for call in ["sign2(", "(atLeast as any)(", "(below as any)("] {
        assert!(written.contains(call), "{call} in {written}");
    }
}
