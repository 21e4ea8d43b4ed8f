//! Declared types as evidence: a JavaScript class whose `.d.ts` ships beside it, and a TypeScript class,
//! have their parameters decided by the declarations before any candidate runs, their values built from
//! them (unions of literals, an options interface, a class, a callback type, an enum), and their methods
//! covered in fewer candidates than the same code without the declarations.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use flycatcher::app::Opening;
use flycatcher::export::Format;
use flycatcher::model::settings::Settings;
use flycatcher::session::SessionOptions;
use flycatcher::tui::snapshot::Snapshot;
use flycatcher::tui::worker::{Command as Ask, Event, Worker, WorkerOptions};

use common::*;

/// Copies the fixtures `names` (under `tests/fixtures/declared`) into a new folder.
fn copied(names: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        std::fs::copy(fixture("declared").join(name), dir.path().join(name)).unwrap();
    }
    let first = dir.path().join(names[0]);
    (dir, first)
}

/// The candidates a run generated, from its report.
fn candidates(report: &serde_json::Value) -> u64 {
    report["executions"].as_u64().expect("executions")
}

/// The parameters of the report's types, as `Class.function(parameter)` with their declarations' text;
/// panics unless every one was decided by its declaration with no recording proxy passed for it.
fn declared_parameters(report: &serde_json::Value) -> Vec<(String, String)> {
    let types = report["types"].as_array().unwrap();
    types
        .iter()
        .map(|t| {
            let (class, function) = (t["class"].as_str().unwrap(), t["function"].as_str().unwrap());
            let name = format!("{class}.{function}({})", t["parameter"].as_str().unwrap());
            assert_eq!(t["source"], "declared", "{name}: {t}");
            assert_eq!(t["uses"], 0, "{name}: a proxy was spent on it");
            (name, t["declared"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Panics unless each of `expected` (`Class.function(parameter)`, its declaration's text) is among
/// `declared`.
fn declares(declared: &[(String, String)], expected: &[(&str, &str)]) {
    for (name, text) in expected {
        assert!(declared.iter().any(|(n, t)| n == name && t == text), "{name}: {text} not in {declared:?}");
    }
}

/// Panics unless every method of the report is fully covered.
fn all_covered(report: &serde_json::Value, what: &str) {
    for (method, covered, statements, stop) in methods(report) {
        assert_eq!((covered, stop.as_str()), (statements, "covered"), "{method} {what}");
    }
}

/// Every argument list `method` is called with in the suites of `out`.
fn calls_of(out: &Path, method: &str) -> Vec<String> {
    let mut calls = Vec::new();
    for suite in suites(out) {
        let text = std::fs::read_to_string(suite).unwrap();
        for piece in text.split(&format!(".{method}(")).skip(1) {
            calls.push(piece[..piece.find(')').expect("a closing parenthesis")].to_string());
        }
    }
    calls
}

#[test]
fn declarations_decide_every_parameter_and_cover_the_class_in_fewer_candidates() {
    let settings = ["--seed", "1", "--budget", "1800000", "--timeout", "600", "--jobs", "1"];
    let (typed, file) = copied(&["shelf.js", "shelf.d.ts"]);
    let out = typed.path().join("out");
    let report = generate(&[file], &out, &settings);
    all_covered(&report, "with declarations");
    let declared = declared_parameters(&report);
    let expected = [
        ("Book.constructor(title)", "string"),
        ("Book.constructor(pages)", "number"),
        ("Shelf.constructor(options)", "ShelfOptions"),
        ("Shelf.add(book)", "Book"),
        ("Shelf.sortBy(order)", "Order"),
        ("Shelf.count(predicate)", "(book: Book) => boolean"),
        ("Shelf.rate(level)", "Level"),
    ];
    declares(&declared, &expected);
    assert_eq!(declared.len(), expected.len(), "{declared:?}");
    literals_only(&out);
    node_test_passes(&suites(&out));

    let (untyped, file) = copied(&["shelf.js"]);
    let without = generate(&[file], &untyped.path().join("out"), &settings);
    assert!(
        candidates(&report) < candidates(&without),
        "with declarations {} candidates, without {}",
        candidates(&report),
        candidates(&without)
    );
}

#[test]
fn the_declarations_of_a_module_of_functions_decide_their_parameters() {
    // units.d.ts declares functions (and a function-typed constant, as `tsc` writes an arrow function
    // bound to one) whose units are a union of literals and whose lengths an interface.
    let settings = ["--seed", "1", "--budget", "600000", "--timeout", "600", "--jobs", "1"];
    let (typed, file) = copied(&["units.js", "units.d.ts"]);
    let out = typed.path().join("out");
    let report = generate(&[file], &out, &settings);
    all_covered(&report, "with declarations");
    let declared = declared_parameters(&report);
    let expected = [
        ("units.convert(value)", "number"),
        ("units.convert(from)", "Unit"),
        ("units.convert(to)", "Unit"),
        ("units.format(value)", "number"),
        ("units.format(options)", "{ digits?: number; unit?: Unit }"),
        ("units.parse(text)", "string"),
        ("units.total(lengths)", "Length[]"),
        ("units.total(unit)", "Unit"),
    ];
    declares(&declared, &expected);
    assert_eq!(declared.len(), expected.len(), "{declared:?}");
    node_test_passes(&suites(&out));
}

/// Panics unless the suites in `out` call the shelf's methods taking unions of literals with those
/// literals only.
fn literals_only(out: &Path) {
    for (method, allowed) in [("sortBy", &["'asc'", "'desc'"][..]), ("rate", &["'low'", "'medium'", "'high'"][..])] {
        let calls = calls_of(out, method);
        assert!(!calls.is_empty(), "{method} is never called");
        for call in calls {
            assert!(allowed.iter().any(|a| call.replace('"', "'") == *a), "{method}({call})");
        }
    }
}

#[test]
fn every_strategy_keeps_to_declared_types() {
    // `align` throws only for a side its declaration does not allow: searching strategies that move
    // strings would reach the throw, and must not.
    let (dir, file) = copied(&["label.js", "label.d.ts"]);
    for strategy in ["exhaustive", "search", "search-cov", "random"] {
        let out = dir.path().join(strategy);
        let settings = [
            "--seed",
            "2",
            "--budget",
            "30000",
            "--timeout",
            "600",
            "--max-stale",
            "500",
            "--strategy",
            strategy,
            "--jobs",
            "1",
        ];
        let report = generate(std::slice::from_ref(&file), &out, &settings);
        let align = methods(&report).into_iter().find(|m| m.0 == "Label.align").expect("align");
        assert!(align.1 < align.2, "{strategy}: {align:?}");
        let calls = calls_of(&out, "align");
        assert!(!calls.is_empty(), "{strategy}: align is never called");
        for call in calls {
            assert!(["'left'", "'right'"].contains(&call.replace('"', "'").as_str()), "{strategy}: align({call})");
        }
    }
}

#[test]
fn parameters_beyond_the_declared_signatures_are_left_out() {
    // Every construction passing `offset` throws: before, it was passed in each, and the class was given up.
    let (dir, file) = copied(&["bytes.js", "bytes.d.ts"]);
    let out = dir.path().join("out");
    let report = generate(
        &[file],
        &out,
        &["--seed", "1", "--budget", "120000", "--timeout", "600", "--max-stale", "300", "--jobs", "1"],
    );
    all_covered(&report, "with constructions that keep to the declarations");
    // The constructor's goal stays short of its check of `offset`, which no caller keeping to the
    // declarations passes: it is reported apart from the methods, which are all covered.
    let constructor = &report["classes"][0]["constructor"];
    assert!(constructor["covered"].as_u64() < constructor["statements"].as_u64(), "{constructor:#}");
    let suite = suites(&out).iter().map(|s| std::fs::read_to_string(s).unwrap()).collect::<String>();
    let constructions: Vec<&str> = suite.split("new Bytes(").skip(1).map(|c| &c[..c.find(')').unwrap()]).collect();
    assert!(!constructions.is_empty());
    for arguments in constructions {
        assert!(arguments.matches(',').count() <= 1, "new Bytes({arguments})");
    }
    node_test_passes(&suites(&out));
}

#[test]
fn values_outside_declared_types_are_passed_only_when_asked_for() {
    let settings = ["--seed", "3", "--budget", "30000", "--timeout", "600", "--max-stale", "300", "--jobs", "1"];
    let (dir, file) = copied(&["label.js", "label.d.ts"]);
    let respectful = dir.path().join("respectful");
    let report = generate(std::slice::from_ref(&file), &respectful, &settings);
    // The check that a caller keeping to the declarations cannot fail stays uncovered.
    let pad = methods(&report).into_iter().find(|m| m.0 == "Label.widen").expect("widen");
    assert!(pad.1 < pad.2, "{pad:?}");
    for call in calls_of(&respectful, "widen") {
        assert!(call.parse::<f64>().is_ok(), "widen({call}) is not a number");
    }
    node_test_passes(&suites(&respectful));

    let probing = dir.path().join("probing");
    let mut probe = settings.to_vec();
    probe.push("--probe-outside-types");
    let report = generate(&[file], &probing, &probe);
    let pad = methods(&report).into_iter().find(|m| m.0 == "Label.widen").expect("widen");
    assert_eq!(pad.1, pad.2, "{pad:?}");
    assert!(calls_of(&probing, "widen").iter().any(|call| call.parse::<f64>().is_err()));
    node_test_passes(&suites(&probing));
}

#[test]
fn a_typescript_class_declares_its_own_types() {
    let settings = ["--seed", "1", "--budget", "1800000", "--timeout", "600", "--jobs", "1"];
    let source = fixture("declared").join("playlist.ts");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("typed");
    let report = generate(std::slice::from_ref(&source), &out, &settings);
    all_covered(&report, "from TypeScript");
    let declared = declared_parameters(&report);
    let expected = [
        ("Playlist.constructor(options)", "PlaylistOptions"),
        ("Playlist.add(track)", "Track"),
        ("Playlist.setRepeat(mode)", "Repeat"),
        ("Playlist.tempo(mood)", "Mood"),
        ("Playlist.total(filter)", "(track: Track) => boolean"),
        ("Playlist.total(rounding)", "number"),
        ("Track.constructor(title)", "string"),
    ];
    declares(&declared, &expected);
    // The enum's values, and no other number.
    for call in calls_of(&out, "tempo") {
        assert!(["0", "10", "11"].contains(&call.as_str()), "tempo({call})");
    }
    let loader = root().join("tests/runners/node_modules/tsx/dist/loader.mjs");
    let suites: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".test.ts"))
        .collect();
    // TypeScript code gets TypeScript suites; with none, `node --test` would look for tests everywhere.
    assert!(!suites.is_empty(), "no .test.ts suite in {}", out.display());
    let run = Command::new("node").arg("--import").arg(&loader).arg("--test").args(&suites).output().unwrap();
    assert!(run.status.success() && String::from_utf8_lossy(&run.stdout).contains("# fail 0"), "{}", text(&run));

    // The same code with its types stripped by the TypeScript compiler, and no declarations beside it.
    let stripped = dir.path().join("stripped");
    let tsc = root().join("tests/runners/node_modules/typescript/bin/tsc");
    let compiled = Command::new("node")
        .arg(&tsc)
        .args(["--target", "es2022", "--module", "commonjs", "--outDir"])
        .arg(&stripped)
        .arg(&source)
        .output()
        .unwrap();
    assert!(compiled.status.success(), "{}", text(&compiled));
    let without = generate(&[stripped.join("playlist.js")], &stripped.join("out"), &settings);
    assert!(
        candidates(&report) < candidates(&without),
        "with declarations {} candidates, stripped {}",
        candidates(&report),
        candidates(&without)
    );
}

#[test]
fn a_class_imported_and_exported_under_another_name_is_declared_by_its_own() {
    // index.ts imports `Schema as _Schema` and exports that name: its declarations are those of `Schema`
    // in schema.ts (a hashing package's `_TypedDataEncoder` was passed strings for a record of field
    // lists, and every construction threw).
    let dir = tempfile::tempdir().unwrap();
    let source = fixture("declared").join("reexported").join("index.ts");
    let report =
        generate(&[source], &dir.path().join("out"), &["--seed", "1", "--budget", "20000", "--timeout", "600"]);
    let declared = declared_parameters(&report);
    declares(
        &declared,
        &[("_Schema.constructor(types)", "Record<string, Field[]>"), ("_Schema.fields(name)", "string")],
    );
}

#[test]
fn the_explorer_says_declared_o_still_overrides_and_i_gives_it_back() {
    let (dir, file) = copied(&["shelf.js", "shelf.d.ts"]);
    let settings = Settings { seed: 1, ..Settings::default() };
    let options = WorkerOptions {
        opening: Opening {
            options: SessionOptions { files: vec![file], classes: vec!["Shelf".into()], ..Default::default() },
            settings,
            project: Default::default(),
            seed_from: None,
        },
        project_path: dir.path().join("flycatcher.json"),
        out_dir: dir.path().join("out"),
        format: Format::NodeTest,
        command: "flycatcher explore (test)".into(),
        update: None,
    };
    let (worker, snapshot) = Worker::start(options).expect("the fixture loads");
    let row = |snapshot: &Snapshot| snapshot.params.iter().find(|p| p.function == "sortBy").cloned().expect("sortBy");
    let order = row(&snapshot);
    assert_eq!((order.ty.as_str(), order.source, order.uses), ("string", Some("declared"), 0));
    assert!(order.evidence.contains("`Order`"), "{}", order.evidence);
    assert!(!order.fixed, "a declared type is not the user's to give back");
    let answer = |command: Ask| {
        worker.send(command);
        loop {
            match worker.events.recv_timeout(Duration::from_secs(30)).expect("the session answers") {
                Event::Snapshot(s) => break *s,
                _ => continue,
            }
        }
    };
    let overridden = row(&answer(Ask::Override { param: order.id, ty: "number".into() }));
    assert_eq!((overridden.ty.as_str(), overridden.source), ("number", Some("overridden")));
    // Given back, the type is the declaration's again.
    let given_back = row(&answer(Ask::Reinfer { param: order.id }));
    assert_eq!((given_back.ty.as_str(), given_back.source), ("string", Some("declared")));
}

#[test]
fn a_class_the_declarations_do_not_name_is_not_given_the_default_exports_types() {
    // `Sprout.add` takes sprouts; `Grove`, the default export, declares an `add(height: number)`.
    let (dir, file) = copied(&["grove.js", "grove.d.ts"]);
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &["--seed", "1", "--budget", "60000", "--timeout", "600"]);
    let sources = |class: &str| -> Vec<String> {
        let types =
            report["types"].as_array().unwrap().iter().filter(|t| t["class"] == class && t["function"] == "add");
        types.map(|t| t["source"].as_str().unwrap_or_default().to_string()).collect()
    };
    assert_eq!(sources("Grove"), ["declared"], "{report}");
    assert!(!sources("Sprout").is_empty() && !sources("Sprout").contains(&"declared".to_string()), "{report}");
    all_covered(&report, "with sprouts given to sprouts");
}

#[test]
fn guards_of_javascript_code_against_null_are_covered_though_its_declarations_leave_null_out() {
    // codec.d.ts declares `string` inputs; codec.js checks them against null and undefined, as its
    // JavaScript callers may pass them. The same code as a TypeScript source keeps to its own types.
    let settings = ["--seed", "1", "--budget", "30000", "--timeout", "600", "--jobs", "1"];
    let (dir, file) = copied(&["codec.js", "codec.d.ts", "codec-typed.ts"]);
    let out = dir.path().join("out");
    let report = generate(&[file], &out, &settings);
    all_covered(&report, "where the guards get null and undefined");
    let text = |out: &Path| suites(out).iter().map(|s| std::fs::read_to_string(s).unwrap()).collect::<String>();
    let absent = ["encode(null)", "encode(undefined)", "decode(null)", "decode(undefined)"];
    assert!(absent.iter().any(|call| text(&out).contains(call)), "{}", text(&out));
    node_test_passes(&suites(&out));

    let typed = dir.path().join("typed");
    let report = generate(&[dir.path().join("codec-typed.ts")], &typed, &settings);
    for (method, covered, statements, _) in methods(&report) {
        assert!(covered < statements, "{method}: its guard was given a value its types leave out");
    }
    assert!(!absent.iter().any(|call| text(&typed).contains(call)), "{}", text(&typed));
}

#[test]
fn every_argument_passed_to_a_declared_rest_parameter_is_of_its_element_type() {
    // Before, a call that left out the parameters up to the rest one (`load()`, `unload(2)`) and then drew
    // more arguments made them numbers and strings, written `load(19 as any, 1 as any)`.
    use flycatcher::model::test::{Statement, Value};
    use rand::SeedableRng;
    let options = SessionOptions { files: vec![fixture("declared/depot.ts")], ..Default::default() };
    let s = flycatcher::session::Session::new(&options, Settings::default()).expect("the fixture loads");
    let depot = s.subject().program().class_named("Depot").unwrap();
    let settings = Settings::default().generation;
    let constants = flycatcher::generate::guided::ConstantPool::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for (method, first_rest) in [("load", 0), ("unload", 1)] {
        let mut passed = 0;
        for _ in 0..400 {
            let request = flycatcher::generate::Request {
                program: s.subject().program(),
                types: s.subject().types(),
                settings: &settings,
                constants: &constants,
                class: depot,
                method,
                elected: &[],
                hazards: s.subject().hazards(),
                returns: s.subject().returns(),
            };
            let test = flycatcher::generate::random::generate(&request, &mut rng);
            for statement in &test.statements {
                let Statement::Call { method: called, args, .. } = statement else { continue };
                if called.as_str() != method {
                    continue;
                }
                for arg in args.iter().skip(first_rest) {
                    assert!(matches!(arg, Value::Object { .. }), "{method}: {args:?}");
                    passed += 1;
                }
            }
        }
        assert!(passed > 0, "{method} was never given a parcel");
    }
}

#[test]
fn a_class_declared_as_a_variable_that_constructs_it_is_declared_through_a_dependencys_types() {
    // queue.d.ts declares `RankQueue` as an interface of its instances and a `const` whose type has a
    // construct signature (`new <T>(compare: Order<T>, items?: T[])`) and a static `of`; `Order` comes from
    // the declarations of the package `orders`, found in the `node_modules` above the file. Before, only
    // `class` declarations were read, and every parameter was left to the proxies.
    let dir = tempfile::tempdir().unwrap();
    let here = fixture("declared").join("constructed");
    for name in ["queue.js", "queue.d.ts"] {
        std::fs::copy(here.join(name), dir.path().join(name)).unwrap();
    }
    let installed = dir.path().join("node_modules").join("orders");
    std::fs::create_dir_all(&installed).unwrap();
    for name in ["package.json", "index.js", "index.d.ts"] {
        std::fs::copy(here.join("dependency/orders").join(name), installed.join(name)).unwrap();
    }
    let report = generate(
        &[dir.path().join("queue.js")],
        &dir.path().join("out"),
        &["--seed", "1", "--budget", "20000", "--timeout", "600"],
    );
    let declared: Vec<(String, String)> = report["types"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["source"] == "declared")
        .map(|t| {
            let name =
                format!("{}.{}({})", t["class"].as_str().unwrap(), t["function"].as_str().unwrap(), t["parameter"]);
            (name.replace('"', ""), t["declared"].as_str().unwrap_or_default().to_string())
        })
        .collect();
    declares(
        &declared,
        &[
            ("RankQueue.constructor(compare)", "Order<T>"),
            ("RankQueue.constructor(items)", "T[]"),
            ("RankQueue (static).of(items)", "T[]"),
            ("RankQueue (static).of(compare)", "Order<T>"),
        ],
    );
    // `Order<T>` is a comparator: the constructions pass consistent orders, not constants alone.
    let suite = std::fs::read_to_string(dir.path().join("out").join("RankQueue.test.js")).unwrap();
    let orders = ["a < b ? -1 : a > b ? 1 : 0", "b < a ? -1 : b > a ? 1 : 0"];
    assert!(
        orders.iter().any(|o| suite.contains(&format!("new RankQueue(function (a, b) {{ return {o}; }}"))),
        "{suite}"
    );
    node_test_passes(&suites(&dir.path().join("out")));
}
