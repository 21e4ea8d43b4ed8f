//! `flycatcher record` and `--seed-from`: recordings of a real run, replay tests checked with the real
//! runner and c8, and generation seeded from a recording.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{flycatcher, generate, methods, node_test_passes, purse, root, sample, suites, text};

/// The demo sample's command: the entry, then the plain scripts it uses.
fn demo_files() -> Vec<PathBuf> {
    vec![sample("demo-reading-list.js"), sample("isbn.js"), sample("linked-list.js")]
}

/// Runs `record` on `files` into `out` with `extra` options; returns the output (any exit status).
fn record(files: &[PathBuf], out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args: Vec<String> = vec!["record".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(["--out".into(), out.display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    flycatcher(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn recording(out: &Path, stem: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join(format!("{stem}.recording.json"))).expect("recording written");
    serde_json::from_str(&text).expect("recording is JSON")
}

#[test]
fn the_demo_is_recorded_with_its_console_output_and_its_replay_tests_pass_under_node() {
    let out = tempfile::tempdir().unwrap();
    let output = record(&demo_files(), out.path(), &[]);
    assert!(output.status.success(), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("978-0-306-40615-7 ok; ISBN-10: 0306406152"), "console.log is shown: {stdout}");
    assert!(stdout.contains("reading list: 6 books"), "{stdout}");

    let rec = recording(out.path(), "demo-reading-list");
    assert_eq!(rec["version"], 1);
    assert!(rec["entry"].as_str().unwrap().ends_with("demo-reading-list.js"));
    let events = rec["events"].as_array().unwrap();
    let calls = |method: &str| events.iter().filter(|e| e["method"] == method).collect::<Vec<_>>();
    // Only the entry's own calls: isValid's calls of normalize and checkDigit are not recorded.
    assert_eq!(calls("isValid").len(), 11, "one per typed code");
    assert_eq!(calls("checkDigit").len(), 2);
    let first = calls("isValid")[0];
    assert_eq!(first["args"][0], serde_json::json!({ "t": "s", "v": "978-0-306-40615-7" }));
    assert_eq!(first["returned"], serde_json::json!({ "t": "b", "v": true }));
    assert_eq!(first["before"]["strictHyphens"], serde_json::json!({ "t": "b", "v": true }));
    let refused = calls("toIsbn10").into_iter().find(|e| e.get("threw").is_some()).expect("a refused conversion");
    assert_eq!(refused["threw"]["message"], "not a valid ISBN-13: 978-0-306-40615-8");
    // Nodes the entry built and passed to `add` are referred to by their object id.
    let add = calls("add")[0];
    assert_eq!(add["args"][0]["t"], "ref");
    assert!(events.iter().any(|e| e["k"] == "new" && e["object"] == add["args"][0]["i"]));

    let written = suites(out.path());
    let names: Vec<String> = written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["IsbnValidator.test.js", "LinkedList.test.js"]);
    let isbn = std::fs::read_to_string(&written[0]).unwrap();
    assert!(isbn.contains("\"978-0-306-40615-7\"") || isbn.contains("\"9780306406157\""), "{isbn}");
    node_test_passes(&written);
}

/// Statements and lines of `file` that ran, per c8's JSON report in `dir`.
fn covered(dir: &Path, file: &Path) -> (usize, usize, usize) {
    let text = std::fs::read_to_string(dir.join("coverage-final.json")).expect("c8 wrote a report");
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entry = &report[file.canonicalize().unwrap().to_str().unwrap()];
    assert!(entry.is_object(), "{} is not in the report: {text}", file.display());
    let statements = entry["s"].as_object().unwrap();
    let hit = statements.values().filter(|n| n.as_u64().unwrap() > 0).count();
    let branches: usize = entry["b"]
        .as_object()
        .unwrap()
        .values()
        .map(|outcomes| outcomes.as_array().unwrap().iter().filter(|n| n.as_u64().unwrap() > 0).count())
        .sum();
    (hit, statements.len(), branches)
}

fn c8(report: &Path, args: &[&str]) {
    let c8 = root().join("tests/runners/node_modules/.bin/c8");
    assert!(c8.exists(), "run `npm ci --ignore-scripts --prefix tests/runners` first");
    // c8 reports only files under its working directory: the samples are under the repository root.
    let output = Command::new(c8)
        .arg("--reporter=json")
        .arg(format!("--report-dir={}", report.display()))
        .arg(format!("--temp-directory={}", report.join("tmp").display()))
        .args(args)
        .current_dir(root())
        .output()
        .expect("c8 runs");
    assert!(output.status.success(), "{}", text(&output));
}

#[test]
fn replay_tests_cover_at_least_what_the_entry_script_covered_under_node() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = record(&demo_files(), &out, &[]);
    assert!(output.status.success(), "{}", text(&output));

    // The original run: the plain scripts, then the entry, in one vm context, as a page would.
    let runner = dir.path().join("run-entry.js");
    std::fs::write(
        &runner,
        "const fs = require('fs'), vm = require('vm'), path = require('path');\n\
         const context = vm.createContext({ console });\n\
         const [entry, ...scripts] = process.argv.slice(2);\n\
         for (const file of [...scripts, entry]) {\n\
           new vm.Script(fs.readFileSync(file, 'utf8'), { filename: path.resolve(file) }).runInContext(context);\n\
         }\n",
    )
    .unwrap();
    let original = dir.path().join("original");
    let files: Vec<String> = demo_files().iter().map(|f| f.display().to_string()).collect();
    let mut args = vec!["node", runner.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    c8(&original, &args);

    let replayed = dir.path().join("replayed");
    let suites: Vec<String> = suites(&out).iter().map(|f| f.display().to_string()).collect();
    let mut args = vec!["node", "--test"];
    args.extend(suites.iter().map(String::as_str));
    c8(&replayed, &args);

    for library in ["isbn.js", "linked-list.js"] {
        let (before, total, _) = covered(&original, &sample(library));
        let (after, _, _) = covered(&replayed, &sample(library));
        assert!(before > total / 2, "{library}: the entry should run most of it ({before}/{total})");
        assert!(after >= before, "{library}: replay tests cover {after} statements, the entry script {before}");
    }
}

#[test]
fn seeding_covers_an_isbn_method_that_random_generation_misses_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let output = record(&demo_files(), &dir.path().join("rec"), &[]);
    assert!(output.status.success(), "{}", text(&output));
    let rec = dir.path().join("rec/demo-reading-list.recording.json").display().to_string();
    let isbn = [sample("isbn.js")];
    let random = ["--strategy", "random", "--budget", "60000", "--timeout", "600", "--seed", "3"];
    let to_isbn10 = |report: &serde_json::Value| {
        methods(report).into_iter().find(|m| m.0 == "IsbnValidator.toIsbn10").map(|m| (m.1, m.2)).unwrap()
    };

    let (covered, statements) = to_isbn10(&generate(&isbn, &dir.path().join("plain"), &random));
    assert!(covered < statements, "random generation alone covered toIsbn10 ({covered}/{statements})");

    let seeded = generate(&isbn, &dir.path().join("seeded"), &[&random[..], &["--seed-from", &rec]].concat());
    let (covered, statements) = to_isbn10(&seeded);
    assert_eq!(covered, statements, "replay tests cover toIsbn10");
    node_test_passes(&suites(&dir.path().join("seeded")));

    // Without replay tests, recorded values and starting states still lead generation there.
    let pools =
        generate(&isbn, &dir.path().join("pools"), &[&random[..], &["--seed-from", &rec, "--threshold", "0"]].concat());
    let (covered, statements) = to_isbn10(&pools);
    assert_eq!(covered, statements, "recorded values lead random generation to the valid ISBNs");
    let warnings = pools["warnings"].to_string();
    assert!(warnings.contains("0 replay test(s) elected"), "{warnings}");
    node_test_passes(&suites(&dir.path().join("pools")));
}

#[test]
fn recorded_types_are_decisions_marked_as_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let output = record(&demo_files(), dir.path(), &[]);
    assert!(output.status.success(), "{}", text(&output));
    let opening = flycatcher::app::Opening {
        options: flycatcher::session::SessionOptions { files: vec![sample("linked-list.js")], ..Default::default() },
        settings: flycatcher::model::settings::Settings::default(),
        project: flycatcher::app::project::Project::default(),
        seed_from: Some(flycatcher::record::SeedFrom {
            path: dir.path().join("demo-reading-list.recording.json"),
            threshold: 10,
        }),
    };
    let session = opening.open().unwrap();
    let list = session.subject().program().class_named("LinkedList").unwrap();
    let node = session.subject().program().class_named("Node").unwrap();
    let insert_at = session.subject().types().params_of(list, "insertAt");
    let index = session.subject().types().get(insert_at[0]).decision.clone().expect("index decided");
    let inserted = session.subject().types().get(insert_at[1]).decision.clone().expect("node decided");
    assert_eq!(index.ty, flycatcher::inference::ParamType::Number);
    assert_eq!(inserted.ty, flycatcher::inference::ParamType::Class(node));
    assert_eq!(inserted.source, flycatcher::inference::DecisionSource::Recorded);
    assert!(inserted.evidence.starts_with("recorded: 1 of 1"), "{}", inserted.evidence);
    // Every recorded LinkedList method is covered by replays before any candidate is generated.
    assert!(session.suite().elected.iter().any(|e| e.test.method == "insertAt"));
}

/// A program whose methods talk to what they receive, and an entry script that uses it.
fn ledger(dir: &Path) -> (PathBuf, PathBuf) {
    let library = dir.join("ledger.js");
    std::fs::write(
        &library,
        "function Ledger(name) { this.name = name; this.total = 0; }\n\
         Ledger.prototype.addAll = function (source, rate) {\n\
           var n = source.count();\n\
           for (var i = 0; i < n; i++) this.total += source.amount(i) * rate(i);\n\
           return n > 1 ? 'many' : 'few';\n\
         };\n\
         Ledger.prototype.label = function (text) {\n\
           if (text.length > 3) return this.name + ': long';\n\
           return this.name + ': short';\n\
         };\n",
    )
    .unwrap();
    let entry = dir.join("use-ledger.js");
    std::fs::write(
        &entry,
        "var ledger = new Ledger('books');\n\
         var source = { base: 5, count: function () { return 2; }, amount: function (i) { return this.base + i; } };\n\
         console.log(ledger.addAll(source, function (i) { return i + 1; }), ledger.total);\n\
         console.log(ledger.label(new Array(300).join('x')), typeof process, typeof require);\n",
    )
    .unwrap();
    (entry, library)
}

#[test]
fn objects_a_call_only_talks_to_become_stubs_and_long_strings_are_shrunk() {
    let dir = tempfile::tempdir().unwrap();
    let (entry, library) = ledger(dir.path());
    let out = dir.path().join("out");
    let output = record(&[entry, library], &out, &[]);
    assert!(output.status.success(), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("many 17"), "{stdout}");
    // `process` is the sandbox's host-free one (issue 40); `require` is not there at all.
    assert!(stdout.contains("books: long object undefined"), "the host stays unreachable: {stdout}");

    let written = suites(&out);
    let suite = std::fs::read_to_string(&written[0]).unwrap();
    // The stubs answer 2, then 5 and 6, then 1 and 2, as recorded; nothing of the entry's objects remains.
    assert!(suite.contains("count: (function (answers)"), "{suite}");
    assert!(suite.contains("})([5, 6])") && suite.contains("})([1, 2])"), "{suite}");
    assert!(suite.contains("\"many\""), "{suite}");
    let long = suite.lines().find(|l| l.contains(".label(")).expect("a label test");
    let literal = long.split('"').nth(1).expect("a string argument");
    assert!(literal.len() > 3 && literal.len() <= 40, "shrunk while keeping the long branch: {long}");
    node_test_passes(&written);
}

/// The tests of `method`'s group in a node-test suite, each from its title on.
fn tests_of<'a>(suite: &'a str, method: &str) -> Vec<&'a str> {
    let Some((_, group)) = suite.split_once(&format!("describe({method:?}, () => {{")) else { return Vec::new() };
    let group = group.split("\n  describe(").next().unwrap_or(group);
    group.split("\n    test(").skip(1).collect()
}

#[test]
fn the_threshold_caps_replay_tests_per_method() {
    let dir = tempfile::tempdir().unwrap();
    let output = record(&demo_files(), dir.path(), &["--threshold", "1", "--class", "IsbnValidator"]);
    assert!(output.status.success(), "{}", text(&output));
    let written = suites(dir.path());
    assert_eq!(written.len(), 1, "only the class asked for");
    let suite = std::fs::read_to_string(&written[0]).unwrap();
    for method in ["normalize", "checkDigit", "isValid", "toIsbn10"] {
        assert_eq!(tests_of(&suite, method).len(), 1, "{method}: {suite}");
    }
}

#[test]
fn bad_entries_fail_with_a_clear_message_and_keep_what_was_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let (_, library) = ledger(dir.path());
    let throws = dir.path().join("throws.js");
    std::fs::write(&throws, "var l = new Ledger('a');\nl.label('abcdef');\nnull.crash;\n").unwrap();
    let output = record(&[throws, library.clone()], &dir.path().join("out"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("throws.js:3") && stderr.contains("record again"), "{stderr}");
    assert_eq!(recording(&dir.path().join("out"), "throws")["events"].as_array().unwrap().len(), 2);

    let endless = dir.path().join("endless.js");
    std::fs::write(&endless, "while (true) {}\n").unwrap();
    let output = record(&[endless, library.clone()], &dir.path().join("out"), &["--timeout", "0.3"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("did not finish within 0.3 s"), "{}", text(&output));

    let host = dir.path().join("host.js");
    // Requiring a host module loads its stand-in (and is no class to record); using it ends the run.
    std::fs::write(&host, "var fs = require('fs');\nfs.readFileSync('data.txt');\n").unwrap();
    let output = record(&[host, library], &dir.path().join("out"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("host.js:2:") && stderr.contains("no host access in the sandbox: fs.readFileSync()"),
        "{stderr}"
    );

    let alone = dir.path().join("alone.js");
    std::fs::write(&alone, "console.log(1);\n").unwrap();
    let output = record(&[alone], &dir.path().join("out"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("uses no other file"), "{}", text(&output));

    let bogus = dir.path().join("bogus.json");
    std::fs::write(&bogus, "{\"version\": 1}").unwrap();
    let output = flycatcher(&["generate", sample("isbn.js").to_str().unwrap(), "--seed-from", bogus.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a Flycatcher recording"), "{}", text(&output));
}

#[test]
fn bench_prints_the_cost_of_recording() {
    let args: Vec<String> = demo_files().iter().map(|f| f.display().to_string()).collect();
    let mut command = vec!["bench", "--record"];
    command.extend(args.iter().map(String::as_str));
    let output = flycatcher(&command);
    assert!(output.status.success(), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let ratio = stdout.lines().find(|l| l.starts_with("ratio recording/plain: ")).expect("a ratio line");
    let value: f64 = ratio["ratio recording/plain: ".len()..].split('x').next().unwrap().parse().unwrap();
    assert!(value > 1.0, "recording cannot be free: {stdout}");
}

#[test]
fn an_es_module_entry_gets_its_classes_constructions_recorded_and_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let entry = dir.path().join("shapes-demo.mjs");
    let shapes = serde_json::Value::String(sample("shapes.mjs").display().to_string());
    std::fs::write(
        &entry,
        format!(
            "import {{ Rectangle, Square }} from {shapes};\n\
             const r = new Rectangle(3, 4);\n\
             console.log(r.area(), r.describe(), new Square(2).isLargerThan(r), r instanceof Rectangle);\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = record(&[entry], &out, &[]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("12 rectangle with area 12 and perimeter 14 false true"));
    let rec = recording(&out, "shapes-demo");
    let events = rec["events"].as_array().unwrap();
    assert_eq!(events.iter().filter(|e| e["k"] == "new" && e["object"].as_i64().unwrap() >= 0).count(), 2);
    // describe and isLargerThan are Shape's methods, called on a Rectangle and a Square.
    let shape = rec["classes"].as_array().unwrap().iter().position(|c| c == "Shape").unwrap();
    assert!(events.iter().any(|e| e["method"] == "isLargerThan" && e["class"] == shape));
    let written = suites(&out);
    let names: Vec<String> = written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["Rectangle.test.mjs", "Shape.test.mjs"]);
    let shape_suite = std::fs::read_to_string(&written[1]).unwrap();
    assert!(shape_suite.contains("new Square(2)") && shape_suite.contains(".isLargerThan("), "{shape_suite}");
    node_test_passes(&written);
}

#[test]
fn a_commonjs_entry_records_a_transfer_between_two_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let entry = dir.path().join("bank-demo.cjs");
    let bank = serde_json::Value::String(sample("bank-account.cjs").display().to_string());
    std::fs::write(
        &entry,
        format!(
            "const {{ BankAccount }} = require({bank});\n\
             const a = new BankAccount('Ann', 'EUR');\n\
             const b = new BankAccount('Bob', 'EUR');\n\
             a.deposit(100);\n\
             a.transfer(b, 30);\n\
             b.withdraw(30);\n\
             b.close();\n\
             console.log(a.balance, b.balance);\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = record(&[entry], &out, &["--class", "BankAccount"]);
    assert!(output.status.success(), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("replayed differently"), "{stdout}");
    let suite = std::fs::read_to_string(&suites(&out)[0]).unwrap();
    // Closing Bob's account replays the transfer made on Ann's account, which gave Bob his balance.
    let close = tests_of(&suite, "close").into_iter().next().expect("a close test");
    // (Minimisation may make the amounts simpler; the transfer and the withdrawal stay.)
    assert!(close.contains(".transfer(") && close.contains(".withdraw("), "{close}");
    node_test_passes(&suites(&out));
}

#[test]
fn explore_shows_recorded_types_as_recorded_in_the_parameter_pane() {
    let dir = tempfile::tempdir().unwrap();
    let output = record(&demo_files(), dir.path(), &[]);
    assert!(output.status.success(), "{}", text(&output));
    let options = flycatcher::tui::worker::WorkerOptions {
        opening: flycatcher::app::Opening {
            options: flycatcher::session::SessionOptions {
                files: vec![sample("linked-list.js")],
                ..Default::default()
            },
            settings: flycatcher::model::settings::Settings { seed: 3, ..Default::default() },
            project: flycatcher::app::project::Project::default(),
            seed_from: Some(flycatcher::record::SeedFrom {
                path: dir.path().join("demo-reading-list.recording.json"),
                threshold: 10,
            }),
        },
        project_path: dir.path().join("flycatcher.json"),
        out_dir: dir.path().join("out"),
        format: flycatcher::export::Format::NodeTest,
        command: "flycatcher explore (test)".into(),
        update: None,
    };
    let (_worker, snapshot) = flycatcher::tui::worker::Worker::start(options).expect("the sample loads");
    let add = snapshot.params.iter().find(|p| p.function == "add").expect("add's parameter is shown");
    assert_eq!((add.ty.as_str(), add.source), ("Node", Some("recorded")));
    assert!(add.evidence.starts_with("recorded: "), "{}", add.evidence);
}

#[test]
fn a_recording_of_other_classes_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let output = record(&demo_files(), dir.path(), &[]);
    assert!(output.status.success(), "{}", text(&output));
    let rec = dir.path().join("demo-reading-list.recording.json").display().to_string();
    let report = generate(
        &[sample("circle.js")],
        &dir.path().join("out"),
        &["--budget", "12000", "--timeout", "600", "--seed-from", &rec],
    );
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("no call of a method of these classes (it recorded IsbnValidator, "), "{warnings}");
}

#[test]
fn objects_a_factory_made_are_rebuilt_from_their_fields_and_pass_under_node() {
    let dir = tempfile::tempdir().unwrap();
    let entry = purse(dir.path());
    let out = dir.path().join("out");
    let output = record(&[entry], &out, &[]);
    assert!(output.status.success(), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("27 Ann: 20c 60") && stdout.contains("nobody"), "{stdout}");
    assert!(!stdout.contains("replayed differently"), "{stdout}");
    let rec = recording(&out, "purse-demo");
    let events = rec["events"].as_array().unwrap();
    assert!(events.iter().filter(|e| e["k"] == "call").all(|e| e["object"] == -1), "the factory's objects");

    let written = suites(&out);
    let names: Vec<String> = written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["Coin.test.js", "Purse.test.js"]);
    let purse = std::fs::read_to_string(&written[1]).unwrap();
    // Ann's purse, its coins rebuilt by their class: the test asserts the recorded total and label.
    let total = tests_of(&purse, "total").into_iter().next().expect("a total test");
    assert!(
        total.contains("Object.assign(Object.create(Purse.prototype), { coins: [Object.assign(Object.create(Coin.prototype), { label: \"5c\", value: 5 })"),
        "{total}"
    );
    assert!(total.contains("27"), "{total}");
    let richest = tests_of(&purse, "richest");
    assert!(richest.iter().any(|t| t.contains("\"Ann: 20c\"")) && richest.iter().any(|t| t.contains("\"nobody\"")));
    let coin = std::fs::read_to_string(&written[0]).unwrap();
    let worth = tests_of(&coin, "worth").into_iter().next().expect("a worth test");
    assert!(
        worth.contains("Object.assign(Object.create(Coin.prototype), { label: \"20c\", value: 20 })")
            && worth.contains("60"),
        "{worth}"
    );
    node_test_passes(&written);
}

#[test]
fn large_values_of_the_rebuilding_statements_are_shrunk_the_same_way_every_time() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("notes.js"),
        "function Notes(title) { this.title = title; this.items = []; }\n\
         Notes.prototype.addAll = function (items) {\n\
           for (var i = 0; i < items.length; i++) this.items.push(items[i]);\n\
           return this.items.length > 5 ? 'many' : 'few';\n\
         };\n\
         Notes.prototype.isLong = function () { return this.title.length > 20 ? 'long title' : 'short title'; };\n",
    )
    .unwrap();
    let entry = dir.path().join("use-notes.js");
    std::fs::write(
        &entry,
        "var notes = new Notes(new Array(301).join('t'));\n\
         var numbers = []; for (var i = 0; i < 50; i++) numbers.push(i);\n\
         console.log(notes.addAll(numbers), notes.isLong());\n",
    )
    .unwrap();
    let suite_of = |out: &str| {
        let out = dir.path().join(out);
        let output = record(&[entry.clone(), dir.path().join("notes.js")], &out, &[]);
        assert!(output.status.success(), "{}", text(&output));
        assert!(String::from_utf8_lossy(&output.stdout).contains("many long title"), "{}", text(&output));
        node_test_passes(&suites(&out));
        let suite = std::fs::read_to_string(&suites(&out)[0]).unwrap();
        suite.split_once("\n\n").unwrap().1.to_string()
    };
    let suite = suite_of("out");
    // The construction that rebuilds the receiver is shrunk too; the list keeps over 5 items, so the
    // result stays as recorded.
    let add = tests_of(&suite, "addAll").into_iter().next().expect("an addAll test");
    let title = add.split("new Notes(\"").nth(1).unwrap().split('"').next().unwrap();
    assert!(title.len() <= 40, "{add}");
    let items = add.split(".addAll([").nth(1).unwrap().split(']').next().unwrap().split(", ").count();
    assert!(items > 5 && items <= 10, "{add}");
    assert!(add.contains("\"many\""), "{add}");
    let long = tests_of(&suite, "isLong").into_iter().next().expect("an isLong test");
    assert!(long.contains("\"long title\"") && !long.contains(&"t".repeat(41)), "{long}");
    assert_eq!(suite_of("again"), suite, "the same recording shrinks the same way");
}
