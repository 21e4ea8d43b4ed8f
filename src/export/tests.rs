//! The runner-level tests of [`super`]: fixtures of every module kind rendered in every format and run under
//! the real runners (linked at `tests/runners/node_modules`), and the helpers whose output suites depend on.

use super::loader::{member, relative_path};
use super::register::unique_titles;
use super::*;

use std::fs;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The classes every fixture defines; only how they are loaded (and reach `nextSerial`) differs. What they
/// find at load decides what `host()` answers, as a library chooses a faster path when the host has one.
const CLASSES: &str = r#"const hostHas = typeof WebAssembly === 'object' ? 'WebAssembly' : 'nothing';

class ListError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ListError';
  }
}

class ListNode {
  constructor(value, next) {
    this.value = value;
    this.next = next;
  }
}

class LinkedList {
  constructor() {
    this.head = null;
    this.length = 0;
    this.serial = nextSerial();
  }
  push(value) {
    this.head = new ListNode(value, this.head);
    this.length += 1;
    return this;
  }
  addAll(values) {
    if (!(values instanceof Array)) throw new TypeError('values must be an array');
    values.forEach((value) => this.push(value));
    return this;
  }
  pop() {
    if (this.head === null) return undefined;
    const value = this.head.value;
    this.head = this.head.next;
    this.length -= 1;
    return value;
  }
  first() {
    if (this.head === null) throw new ListError('the list is empty');
    return this.head.value;
  }
  toArray() {
    const values = [];
    for (let node = this.head; node !== null; node = node.next) values.push(node.value);
    return values;
  }
  entries() {
    return this.toArray().map((value, index) => ({ index, value }));
  }
  mean() {
    return this.toArray().reduce((sum, value) => sum + value, 0) / this.length;
  }
  product() {
    return this.toArray().reduce((product, value) => product * value, 1);
  }
  check(value) {
    if (typeof value !== 'number') throw 'not a number: ' + value;
    return value;
  }  host() {
    return hostHas;
  }
}

function neverCalled() {
  return 'not covered';
}
"#;

/// The three module kinds, each as subject files written under a root directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fixture {
    /// Two scripts: a counter, then the classes inside a `Geo.Lists` namespace.
    Script,
    /// A CommonJS class module requiring a sibling counter module.
    CommonJs,
    /// An ES-module class importing a sibling counter module; `ListNode` is in an exported namespace object.
    EsModule,
}

const FIXTURES: [Fixture; 3] = [Fixture::Script, Fixture::CommonJs, Fixture::EsModule];

impl Fixture {
    fn dir(self) -> &'static str {
        match self {
            Fixture::Script => "src/script",
            Fixture::CommonJs => "src/cjs",
            Fixture::EsModule => "src/esm",
        }
    }

    /// Each file's name and text; the last one holds the classes.
    fn files(self) -> Vec<(&'static str, String)> {
        match self {
            Fixture::Script => vec![
                ("serial.js", "var issued = 0;\nfunction nextSerial() {\n  issued += 1;\n  return issued;\n}\n".into()),
                (
                    "list.js",
                    format!(
                        "var Geo = {{ Lists: {{}} }};\n(function () {{\n{CLASSES}\nGeo.Lists.LinkedList = LinkedList;\n\
                         Geo.Lists.ListNode = ListNode;\n}})();\n"
                    ),
                ),
            ],
            Fixture::CommonJs => vec![
                (
                    "serial.js",
                    "let issued = 0;\nexports.nextSerial = function () {\n  issued += 1;\n  return issued;\n};\n"
                        .into(),
                ),
                (
                    "list.js",
                    format!(
                        "const {{ nextSerial }} = require('./serial');\n{CLASSES}\nmodule.exports = LinkedList;\n\
                         LinkedList.ListNode = ListNode;\n"
                    ),
                ),
            ],
            Fixture::EsModule => vec![
                (
                    "serial.mjs",
                    "let issued = 0;\nexport function nextSerial() {\n  issued += 1;\n  return issued;\n}\n".into(),
                ),
                (
                    "list.mjs",
                    format!(
                        "import {{ nextSerial }} from './serial.mjs';\n{CLASSES}\nexport default LinkedList;\nexport const Lists = {{ ListNode }};\n"
                    ),
                ),
            ],
        }
    }

    /// Writes the files under `root`; returns the subject files (for CommonJS and ES modules only the class
    /// module: the sibling is reached through it) and the bindings of `LinkedList` and `ListNode`.
    fn write(self, root: &Path) -> (Vec<SubjectFile>, Vec<Binding>) {
        let dir = root.join(self.dir());
        fs::create_dir_all(&dir).unwrap();
        let files = self.files();
        for (name, text) in &files {
            fs::write(dir.join(name), text).unwrap();
        }
        let subject = |name: &str, kind| SubjectFile { path: dir.join(name), kind };
        let bind = |alias: &str, access| Binding { alias: alias.into(), access };
        match self {
            Fixture::Script => (
                files.iter().map(|(name, _)| subject(name, ModuleKind::Script)).collect(),
                vec![
                    bind("LinkedList", Access::Script { expression: "Geo.Lists.LinkedList".into() }),
                    bind("ListNode", Access::Script { expression: "Geo.Lists.ListNode".into() }),
                ],
            ),
            Fixture::CommonJs => (
                vec![subject("list.js", ModuleKind::CommonJs)],
                vec![
                    bind("LinkedList", Access::CommonJs { file: 0, path: vec![] }),
                    bind("ListNode", Access::CommonJs { file: 0, path: vec!["ListNode".into()] }),
                ],
            ),
            Fixture::EsModule => (
                vec![subject("list.mjs", ModuleKind::EsModule)],
                vec![
                    bind("LinkedList", Access::EsModule { file: 0, export: "default".into(), path: vec![] }),
                    bind(
                        "ListNode",
                        Access::EsModule { file: 0, export: "Lists".into(), path: vec!["ListNode".into()] },
                    ),
                ],
            ),
        }
    }
}

fn code(text: &str) -> Line {
    Line::Code(text.into())
}

fn strict(actual: &str, expected: &str) -> Line {
    Line::StrictEqual { actual: actual.into(), expected: expected.into() }
}

fn deep(actual: &str, expected: &str) -> Line {
    Line::DeepStrictEqual { actual: actual.into(), expected: expected.into() }
}

fn ok(expression: &str, message: &str) -> Line {
    Line::Ok { expression: expression.into(), message: message.into() }
}

fn throws_error(code: &str, name: &str, message: &str) -> Line {
    Line::Throws { code: code.into(), thrown: Expected::Error { name: name.into(), message: Some(message.into()) } }
}

fn test(title: &str, lines: Vec<Line>) -> ExportTest {
    ExportTest { group: String::new(), title: title.into(), lines, seed: 1 }
}

/// Every line kind against values made by the code under test; the second test fails if the first one's
/// counter increments or prototype change leaked; the titles need escaping and renaming.
fn passing_tests() -> Vec<ExportTest> {
    vec![
        ExportTest {
            group: "addAll".into(),
            ..test(
                "builds a list",
                vec![
                    code("var list = new LinkedList();"),
                    strict("list.pop()", "undefined"),
                    strict("list.mean()", "NaN"),
                    strict("list.addAll([2, 3])", "list"),
                    deep("list.toArray()", "[3, 2]"),
                    deep("list.entries()", "[{ index: 0, value: 3 }, { index: 1, value: 2 }]"),
                    ok("list.head instanceof ListNode", "the head is a ListNode"),
                    strict("new LinkedList().push(0).push(-1).product()", "-0"),
                    throws_error("new LinkedList().first();", "ListError", "the list is empty"),
                    throws_error("list.addAll('23');", "TypeError", "values must be an array"),
                    Line::Throws {
                        code: "list.check('x');".into(),
                        thrown: Expected::Value { literal: "'not a number: x'".into() },
                    },
                    strict("list.serial", "1"),
                    code("ListNode.prototype.tag = 'leaked';"),
                    strict("new ListNode(1, null).tag", "'leaked'"),
                ],
            )
        },
        test(
            "starts from fresh state",
            vec![strict("new LinkedList().serial", "1"), strict("new ListNode(1, null).tag", "undefined")],
        ),
        test("builds a list", vec![strict("new LinkedList().push(1).first()", "1")]),
        test("it's \"quoted\" \\ ${not} `interpolated`\nand split", vec![ok("true", "trivially")]),
        test("__proto__", vec![strict("new LinkedList().length", "0")]),
    ]
}

/// Each test is wrong in one way; every one of them must be reported.
fn failing_tests() -> Vec<ExportTest> {
    vec![
        test("wrong value", vec![strict("new LinkedList().push(1).pop()", "2")]),
        test("wrong array", vec![deep("new LinkedList().push(1).toArray()", "[2]")]),
        test("wrong class", vec![ok("new LinkedList() instanceof ListNode", "a list is a node")]),
        test("no throw", vec![throws_error("new LinkedList().push(1).first();", "ListError", "the list is empty")]),
        test("wrong message", vec![throws_error("new LinkedList().first();", "ListError", "another message")]),
        test("throws undefined", vec![code("(function () { throw undefined; })();")]),
        test("negative zero", vec![strict("new LinkedList().push(0).push(-1).product()", "0")]),
    ]
}

fn suite(fixture: Fixture, root: &Path, tests: Vec<ExportTest>) -> ExportSuite {
    let (files, bindings) = fixture.write(root);
    ExportSuite {
        class_name: "LinkedList".into(),
        stem: "LinkedList".into(),
        describe: "LinkedList".into(),
        header: vec!["Regression tests written by Flycatcher.".into(), String::new(), "*/ and \\ stay comments".into()],
        files,
        bindings,
        absent_at_load: Vec::new(),
        tests,
        failing: false,
        typescript: None,
    }
}

/// Renders `suite` into `out_dir` (creating it) and returns the written file.
fn write_rendered(suite: &ExportSuite, format: Format, out_dir: &Path) -> PathBuf {
    let rendered = render(suite, format, out_dir);
    fs::create_dir_all(out_dir).unwrap();
    let file = out_dir.join(&rendered.file_name);
    fs::write(&file, rendered.text).unwrap();
    file
}

fn runners() -> PathBuf {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runners/node_modules/.bin");
    assert!(
        bin.is_dir(),
        "{} is missing: run `npm ci --ignore-scripts --prefix tests/runners` in the repository (expresso's \
         install script builds an old coverage tool that no longer compiles and is not needed)",
        bin.display()
    );
    bin
}

/// The command that runs one suite file with `format`'s runner, from the file's directory: expresso only
/// takes paths relative to the working directory. A vows suite requires `vows`, which users have in their
/// own node_modules: here it comes from the runners' folder through NODE_PATH.
fn runner_command(format: Format, file: &Path) -> Command {
    let bin = runners();
    let mut command = match format {
        Format::NodeTest | Format::Assert => Command::new("node"),
        Format::Nodeunit | Format::Expresso | Format::Vows | Format::Mocha => Command::new(bin.join(format.name())),
        Format::Jest => {
            // Jest loads ES modules only with this flag, and wants a configuration: the defaults do.
            let mut jest = Command::new(bin.join("jest"));
            jest.args(["--ci", "--config", "{}"]).env("NODE_OPTIONS", "--experimental-vm-modules");
            jest
        }
        Format::Vitest => {
            let mut vitest = Command::new(bin.join("vitest"));
            vitest.args(["run", "--root", "."]);
            vitest
        }
    };
    command.arg(file.file_name().unwrap()).current_dir(file.parent().unwrap());
    command.env("NODE_PATH", bin.parent().unwrap());
    command
}

/// A finished run: its exit code and its output (stdout, then stderr) without terminal colours.
struct Run {
    code: Option<i32>,
    output: String,
}

/// Runners started at once by [`run_all`]: two cores run them either way, and two dozen jest and vitest
/// processes started together on a loaded machine each took longer than [`RUN_LIMIT`].
const AT_ONCE: usize = 4;

/// How long one runner may take from its start before it is taken for hung and killed: a guard against a
/// runner that never exits, far above what one takes alone.
const RUN_LIMIT: Duration = Duration::from_secs(180);

/// Runs the commands, [`AT_ONCE`] at a time, each writing its output to files under `logs`; kills one
/// still running [`RUN_LIMIT`] after it started.
fn run_all(commands: Vec<Command>, logs: &Path) -> Vec<Run> {
    fs::create_dir_all(logs).unwrap();
    let count = commands.len();
    let mut waiting = commands.into_iter().enumerate();
    let mut running: Vec<(usize, Child, Instant)> = Vec::new();
    let mut status: Vec<Option<Option<std::process::ExitStatus>>> = vec![None; count];
    let log = |index: usize| (logs.join(format!("{index}.out")), logs.join(format!("{index}.err")));
    loop {
        while running.len() < AT_ONCE {
            let Some((index, mut command)) = waiting.next() else { break };
            let (out, err) = log(index);
            command.env("NO_COLOR", "1").stdin(Stdio::null());
            command.stdout(fs::File::create(&out).unwrap()).stderr(fs::File::create(&err).unwrap());
            let child = command.spawn().unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
            running.push((index, child, Instant::now()));
        }
        if running.is_empty() {
            break;
        }
        running.retain_mut(|(index, child, started)| {
            let finished = match child.try_wait().unwrap() {
                Some(exit) => Some(Some(exit)),
                None if started.elapsed() > RUN_LIMIT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    Some(None)
                }
                None => None,
            };
            if let Some(exit) = finished {
                status[*index] = Some(exit);
            }
            finished.is_none()
        });
        std::thread::sleep(Duration::from_millis(20));
    }
    (0..count)
        .map(|index| {
            let (out, err) = log(index);
            let output = fs::read_to_string(out).unwrap() + &fs::read_to_string(err).unwrap();
            let code = status[index].flatten().and_then(|exit| exit.code());
            Run { code, output: without_colours(&output) }
        })
        .collect()
}

fn without_colours(text: &str) -> String {
    let mut plain = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // Skip a control sequence: ESC, '[', parameters, then one final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// Every fixture rendered in every format into its own directory under `root`, as (fixture, format, file).
fn render_all(root: &Path, tests: fn() -> Vec<ExportTest>) -> Vec<(Fixture, Format, PathBuf)> {
    render_suites(root, |fixture| suite(fixture, root, tests()))
}

/// The suite `suite_of` makes of each fixture rendered in every format, as [`render_all`] does.
fn render_suites(root: &Path, suite_of: impl Fn(Fixture) -> ExportSuite) -> Vec<(Fixture, Format, PathBuf)> {
    let mut rendered = Vec::new();
    for fixture in FIXTURES {
        let suite = suite_of(fixture);
        for format in Format::all() {
            let out_dir = root.join("test").join(format.name()).join(fixture.dir().replace('/', "-"));
            rendered.push((fixture, format, write_rendered(&suite, format, &out_dir)));
        }
    }
    rendered
}

#[test]
fn every_format_passes_for_every_module_kind() {
    let root = tempfile::tempdir().unwrap();
    let rendered = render_all(root.path(), passing_tests);
    let runs = all_pass(&rendered, &root.path().join("logs"));
    // The assert format's closing line is the one CI reads.
    for ((_, format, _), run) in rendered.iter().zip(&runs) {
        if *format == Format::Assert {
            assert!(run.output.lines().any(|line| line == "5 passed, 0 failed"), "{}", run.output);
        }
        // Mocha times tests with Date: the clock is real again once a test is over.
        if *format == Format::Mocha {
            assert!(!run.output.contains("passing (-"), "{}", run.output);
        }
    }
}

/// Runs `rendered` and fails naming each suite whose runner did not exit with 0, with its output and text.
fn all_pass(rendered: &[(Fixture, Format, PathBuf)], logs: &Path) -> Vec<Run> {
    let commands = rendered.iter().map(|(_, format, file)| runner_command(*format, file)).collect();
    let runs = run_all(commands, logs);
    let failures: Vec<String> = rendered
        .iter()
        .zip(&runs)
        .filter(|(_, run)| run.code != Some(0))
        .map(|((fixture, format, file), run)| {
            let text = fs::read_to_string(file).unwrap();
            format!(
                "{format} / {fixture:?} exited with {:?}:\n{}\n--- {}:\n{text}",
                run.code,
                run.output,
                file.display()
            )
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    runs
}

#[test]
fn globals_the_sandbox_lacked_while_the_code_loaded_are_hidden_while_it_loads_and_only_then() {
    let root = tempfile::tempdir().unwrap();
    // The code took its path without WebAssembly in the sandbox; under every runner it takes it too, and
    // the test itself sees Node's WebAssembly again (a global that was not there, `URL` in a script's
    // context, is not left behind either).
    let tests = || {
        vec![test(
            "the path the code took without WebAssembly",
            vec![
                strict("new LinkedList().host()", "\"nothing\""),
                strict("typeof WebAssembly", "\"object\""),
                ok("typeof URL !== 'undefined' || !('URL' in globalThis)", "URL is not left undefined"),
            ],
        )]
    };
    let rendered = render_suites(root.path(), |fixture| ExportSuite {
        absent_at_load: vec!["WebAssembly".into(), "URL".into()],
        ..suite(fixture, root.path(), tests())
    });
    all_pass(&rendered, &root.path().join("logs"));
}

#[test]
fn every_format_reports_each_wrong_expectation() {
    let root = tempfile::tempdir().unwrap();
    let rendered = render_all(root.path(), failing_tests);
    let commands = rendered.iter().map(|(_, format, file)| runner_command(*format, file)).collect();
    let runs = run_all(commands, &root.path().join("logs"));
    for ((fixture, format, _), run) in rendered.iter().zip(&runs) {
        // How each runner counts seven failures (vows tells assertion failures from other errors).
        let (code, count) = match format {
            Format::NodeTest => (1, "# fail 7"),
            Format::Assert => (1, "0 passed, 7 failed"),
            Format::Nodeunit => (1, "FAILURES: 7/7 assertions failed"),
            Format::Expresso => (7, "Failures: 7"),
            Format::Vows => (2, "6 broken ∙ 1 errored"),
            Format::Jest => (1, "Tests:       7 failed, 7 total"),
            Format::Mocha => (7, "7 failing"),
            Format::Vitest => (1, "Tests  7 failed (7)"),
        };
        assert_eq!(run.code, Some(code), "{format} / {fixture:?}:\n{}", run.output);
        assert!(run.output.contains(count), "{format} / {fixture:?} does not say `{count}`:\n{}", run.output);
    }
}

#[test]
fn failing_suites_are_skipped_by_every_runner_that_can_skip() {
    let root = tempfile::tempdir().unwrap();
    let formats: Vec<Format> = Format::all().into_iter().filter(|format| format.can_skip()).collect();
    let mut rendered = Vec::new();
    for fixture in [Fixture::Script, Fixture::EsModule] {
        let suite = ExportSuite { failing: true, ..suite(fixture, root.path(), failing_tests()) };
        for &format in &formats {
            let out_dir = root.path().join("failing").join(format.name()).join(fixture.dir().replace('/', "-"));
            let file = write_rendered(&suite, format, &out_dir);
            assert!(file.to_string_lossy().contains("LinkedList.failing.test."), "{}", file.display());
            rendered.push((fixture, format, file));
        }
    }
    let commands = rendered.iter().map(|(_, format, file)| runner_command(*format, file)).collect();
    let runs = run_all(commands, &root.path().join("logs"));
    for ((fixture, format, _), run) in rendered.iter().zip(&runs) {
        let count = match format {
            Format::NodeTest => "# skipped 7",
            Format::Assert => "0 passed, 0 failed, 7 skipped",
            Format::Jest => "7 skipped, 7 total",
            Format::Mocha => "7 pending",
            Format::Vitest => "Tests  7 skipped (7)",
            Format::Nodeunit | Format::Expresso | Format::Vows => unreachable!("they cannot skip"),
        };
        assert_eq!(run.code, Some(0), "{format} / {fixture:?}:\n{}", run.output);
        assert!(run.output.contains(count), "{format} / {fixture:?} does not say `{count}`:\n{}", run.output);
    }
}

#[test]
fn a_moved_checkout_still_finds_the_code_under_test() {
    let root = tempfile::tempdir().unwrap();
    let (before, after) = (root.path().join("before"), root.path().join("after"));
    let files: Vec<PathBuf> = FIXTURES
        .iter()
        .map(|&fixture| {
            let suite = suite(fixture, &before, passing_tests());
            let out_dir = before.join("test").join(fixture.dir().replace('/', "-"));
            let file = write_rendered(&suite, Format::NodeTest, &out_dir);
            assert!(!fs::read_to_string(&file).unwrap().contains(root.path().to_str().unwrap()));
            file
        })
        .collect();
    fs::rename(&before, &after).unwrap();
    let commands = files
        .iter()
        .map(|file| runner_command(Format::NodeTest, &after.join(file.strip_prefix(&before).unwrap())))
        .collect();
    for run in run_all(commands, &root.path().join("logs")) {
        assert_eq!(run.code, Some(0), "{}", run.output);
    }
}

#[test]
fn c8_attributes_coverage_to_the_users_files_for_every_module_kind() {
    let root = tempfile::tempdir().unwrap();
    let report = |fixture: Fixture| root.path().join("coverage").join(fixture.dir().replace('/', "-"));
    let commands = FIXTURES
        .iter()
        .map(|&fixture| {
            let suite = suite(fixture, root.path(), passing_tests());
            let out_dir = root.path().join("test").join(fixture.dir().replace('/', "-"));
            let file = write_rendered(&suite, Format::NodeTest, &out_dir);
            // c8 reports only files under its working directory, and leaves out test files.
            let mut command = Command::new(runners().join("c8"));
            command
                .arg("--reporter=json")
                .arg(format!("--report-dir={}", report(fixture).display()))
                .arg(format!("--temp-directory={}", report(fixture).join("tmp").display()))
                .arg("node")
                .arg(file.strip_prefix(root.path()).unwrap())
                .current_dir(root.path());
            command
        })
        .collect();
    let runs = run_all(commands, &root.path().join("logs"));
    for (fixture, run) in FIXTURES.into_iter().zip(runs) {
        assert_eq!(run.code, Some(0), "{fixture:?}: {}", run.output);
        let text = fs::read_to_string(report(fixture).join("coverage-final.json")).unwrap();
        let coverage: serde_json::Value = serde_json::from_str(&text).unwrap();
        let entry_of = |name: &str| {
            let file = root.path().join(fixture.dir()).join(name).canonicalize().unwrap();
            let entry = coverage[file.to_str().unwrap()].clone();
            assert!(entry.is_object(), "{fixture:?}: {} is not in the coverage report: {text}", file.display());
            (entry, fs::read_to_string(file).unwrap())
        };
        let files = fixture.files();
        let ((serial, _), (list, _)) = (&files[0], &files[1]);
        entry_of(serial);
        let (entry, source) = entry_of(list);
        let line_of = |text: &str| 1 + source.lines().position(|line| line.contains(text)).unwrap() as u64;
        // The hits of the statements that start on a line.
        let hits = |line: u64| -> Vec<u64> {
            let statements = entry["statementMap"].as_object().unwrap();
            let on_line = statements.iter().filter(|(_, at)| at["start"]["line"] == line);
            on_line.map(|(id, _)| entry["s"][id].as_u64().unwrap()).collect()
        };
        let pushed = hits(line_of("this.length += 1;"));
        assert!(!pushed.is_empty() && pushed.iter().all(|&count| count > 0), "{fixture:?}: push is not covered");
        assert_eq!(hits(line_of("return 'not covered';")), vec![0], "{fixture:?}");
    }
}

#[test]
fn format_names_round_trip() {
    for format in Format::all() {
        assert_eq!(format.to_string().parse::<Format>(), Ok(format));
    }
    let error = "karma".parse::<Format>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown test format `karma` (expected one of: node-test, assert, nodeunit, expresso, vows, jest, mocha, \
         vitest)"
    );
}

#[test]
fn titles_are_single_line_unique_and_never_reserved() {
    let titles = ["a", " a ", "a (2)", "x\ny", "", "__proto__", "topic", "setUp"];
    assert_eq!(
        unique_titles(titles.into_iter()),
        ["a", "a (2)", "a (2) (2)", "x y", "test", "__proto__ (test)", "topic (test)", "setUp (test)"]
    );
}

#[test]
fn only_suites_whose_runner_imports_them_are_es_modules() {
    let root = tempfile::tempdir().unwrap();
    for fixture in FIXTURES {
        let suite = suite(fixture, root.path(), vec![]);
        for format in Format::all() {
            let name = render(&suite, format, root.path()).file_name;
            let module = format == Format::Vitest
                || fixture == Fixture::EsModule && matches!(format, Format::NodeTest | Format::Assert | Format::Mocha);
            assert_eq!(name, if module { "LinkedList.test.mjs" } else { "LinkedList.test.js" }, "{format} {fixture:?}");
        }
    }
}

#[cfg(unix)]
#[test]
fn relative_paths_start_from_the_real_directory_even_if_it_does_not_exist_yet() {
    let root = tempfile::tempdir().unwrap();
    let real = root.path().join("real");
    fs::create_dir_all(real.join("src")).unwrap();
    std::os::unix::fs::symlink(&real, root.path().join("link")).unwrap();
    let subject = real.join("src/list.js");
    assert_eq!(relative_path(&root.path().join("link/test/new/../deep"), &subject), "../../src/list.js");
    assert_eq!(relative_path(&real.join("src"), &root.path().join("link/src/list.js")), "list.js");
}

#[test]
fn members_use_dots_only_for_identifiers() {
    assert_eq!(member("m", "default"), "m.default");
    assert_eq!(member("m", "$x_1"), "m.$x_1");
    assert_eq!(member("m", "a-b"), "m[\"a-b\"]");
    assert_eq!(member("m", "1a"), "m[\"1a\"]");
}

#[test]
fn suites_of_names_differing_in_case_alone_get_files_of_their_own() {
    use crate::model::program::ClassInfo;
    let class = ClassInfo::script;
    let program = ProgramInfo { classes: vec![class("Maybe"), class("Result"), class("maybe")], ..Default::default() };
    let stems: Vec<String> = (0..3).map(|c| suite_stem(&program, c)).collect();
    assert_eq!(stems, ["Maybe", "Result", "maybe.2"]);
}
