//! The suite's machine-readable companion, `<Class>.flycatcher.json`, written beside each exported suite.
//!
//! An exported suite needs Node to run; `flycatcher mutate --suite DIR` runs the same tests in the sandbox
//! instead, so it reads them from here: each elected test in the harness's JSON test format (see
//! [`TestCase::to_json`]) with its variables, seed, state assertions and the assertions the exported test
//! makes. Classes are named, not numbered, so a manifest still reads after the class order of a later
//! analysis changed. `flycatcher verify DIR` reads the suite's format, file and the files it tests from
//! here too.

use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use super::kept::{self, MethodMark, Source};
use super::stability::Instability;
use super::write::Entry;
use super::{ElectedTest, FailingTest, FieldCheck, StateChecks, test_lines};
use crate::error::{Error, Result};
use crate::export::{self, Format, Line};
use crate::model::observed::{Outcome, Thrown};
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{CALL_ITSELF, Shape, Statement, TestCase, Value, Variable, Web};

/// How manifest files end: `LinkedList.flycatcher.json`.
pub(crate) const SUFFIX: &str = ".flycatcher.json";

/// Version of the manifest format. Version 2 added state assertions (`checks`) and the suite's `format`,
/// `suite` file and `subjects`; version 3 what changed between runs in a test's results (`offsets`,
/// `unstable`), which a version 2 manifest reads as nothing; version 4 what `generate --update` needs to
/// write a suite again as it was (the suite's `header`, each test's `lines`, the `failing` tests) and to
/// tell what to generate again (`methods`); version 5 the fingerprints of each method's helpers
/// (`methods`' `helpers`), which a version 4 manifest reads as unknown. A reader refuses versions before
/// [`OLDEST`] and after this one.
const VERSION: u64 = 5;

/// The oldest version of the manifest format this one reads.
const OLDEST: u64 = 2;

/// One test read back from a manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestTest {
    /// The test's title in the exported suite.
    pub title: String,
    /// The test, with class ids of the current analysis.
    pub test: TestCase,
    /// The seed it runs with.
    pub seed: u32,
    /// Whether the exported test asserts the message of the error it expects.
    pub own_message: bool,
    /// The exported test's assertions, as JavaScript statements.
    pub asserts: Vec<String>,
    /// Its state assertions; `None` for the default ones.
    pub checks: Option<StateChecks>,
    /// What changed between runs in its results, which it does not assert, or asserts as offsets.
    pub instability: Instability,
    /// The exported test's statements and assertions (none in manifests before version 4).
    pub lines: Option<Vec<String>>,
    /// Its entry in the manifest, as read.
    pub entry: Json,
}

/// What a manifest says of the exported suite beside it: what `verify` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SuiteFile {
    /// The class it tests.
    pub class: String,
    /// Its format.
    pub format: Format,
    /// The suite's file, in the manifest's folder.
    pub path: PathBuf,
    /// The files of the code under test it loads.
    pub subjects: Vec<PathBuf>,
}

/// The assertions an elected test is exported with, as JavaScript statements (code lines left out).
pub(crate) fn assertions(program: &ProgramInfo, elected: &ElectedTest) -> Vec<String> {
    test_lines(program, elected).iter().filter(|l| !matches!(l, Line::Code(_))).map(export::statement).collect()
}

/// Where a class's suite was written: the manifest names it.
pub(crate) struct Written<'a> {
    /// The suite's format.
    pub format: Format,
    /// The suite's file name, in the manifest's folder.
    pub file_name: &'a str,
    /// The files of the code under test it loads.
    pub subjects: Vec<&'a Path>,
    /// The comment lines at the top of the suite, which an update keeps.
    pub header: &'a [String],
}

/// What the manifests say of each method under test, which tells an update what to generate again.
pub(crate) struct Marks<'a> {
    /// The fingerprints of the methods' goals, by class and name.
    pub sources: &'a [(ClassId, String, Source)],
}

/// The manifest of one class's tests (`tests`, as its suite writes them) and its failing tests, whose
/// suite `written` says where it went, in `out_dir`: its path and text. A test written again as it was
/// (see [`super::kept`]) keeps its entry; `marks` say what each method's mark holds.
pub(crate) fn render(
    program: &ProgramInfo,
    marks: &Marks,
    class: ClassId,
    tests: &[Entry],
    failing: &[&FailingTest],
    written: &Written,
    out_dir: &Path,
) -> (PathBuf, String) {
    let name = |c: ClassId| program.classes[c].name.clone();
    let entries: Vec<Json> = tests
        .iter()
        .map(|entry| match entry.written {
            Some(w) => w.entry.clone(),
            None => test_entry(program, entry),
        })
        .collect();
    let failing: Vec<Json> = failing
        .iter()
        .map(|f| {
            let test: Json = serde_json::from_str(&f.test.to_stored_json(program)).expect("the harness format is JSON");
            json!({
                "method": f.test.method,
                "culprit": f.culprit,
                "message": f.message,
                "threw_at": match f.outcome { Outcome::Threw { at, .. } => Some(at), _ => None },
                "variables": variables(program, &f.test.variables),
                "test": test,
            })
        })
        .collect();
    let manifest = json!({
        "flycatcher": "suite manifest",
        "version": VERSION,
        "class": name(class),
        "format": written.format.name(),
        "suite": written.file_name,
        "subjects": written.subjects.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "classes": (0..program.classes.len()).map(name).collect::<Vec<_>>(),
        "header": written.header,
        "methods": methods(marks, class, tests),
        "awaited": awaited(program, tests),
        "tests": entries,
        "failing": failing,
    });
    let path = out_dir.join(format!("{}{SUFFIX}", export::suite_stem(program, class)));
    (path, serde_json::to_string_pretty(&manifest).expect("JSON values serialise") + "\n")
}

/// The manifest entry of a test written now.
fn test_entry(program: &ProgramInfo, entry: &Entry) -> Json {
    let e = entry.elected;
    let instability = Instability::of(&e.results);
    let test: Json = serde_json::from_str(&e.test.to_stored_json(program)).expect("the harness format is JSON");
    let outcome = match &e.outcome {
        Outcome::Threw { thrown: Thrown::Error { name, .. }, .. } => json!({ "throws": name }),
        Outcome::Threw { .. } => json!({ "throws": null }),
        _ => json!("passed"),
    };
    json!({
        "title": entry.title,
        "method": e.test.method,
        "seed": e.seed,
        "own_message": e.own_message,
        "variables": variables(program, &e.test.variables),
        "test": test,
        "checks": e.checks.as_ref().map(checks_json),
        "outcome": outcome,
        "asserts": assertions(program, e),
        "lines": entry.lines.iter().map(export::statement).collect::<Vec<_>>(),
        "offsets": instability.offsets,
        "unstable": instability.unstable,
    })
}

/// The methods the tests call whose calls the suite awaits, as `[class, method]` pairs: a method is
/// awaited once a call of it returned a promise, so a session that reads the suite back, and ran other
/// calls, may have learnt otherwise (see [`Awaited`]).
fn awaited(program: &ProgramInfo, tests: &[Entry]) -> Json {
    let mut pairs = std::collections::BTreeSet::new();
    for test in tests.iter().map(|e| &e.elected.test) {
        for statement in &test.statements {
            let Statement::Call { receiver, method, .. } = statement else { continue };
            let class = &program.classes[test.variables[*receiver].class];
            if class.method(method).is_some_and(|m| m.asynchronous) {
                pairs.insert((class.name.clone(), method.clone()));
            }
        }
    }
    pairs.into_iter().map(|(class, method)| json!([class, method])).collect()
}

fn variables(program: &ProgramInfo, variables: &[Variable]) -> Json {
    variables.iter().map(|v| json!({ "class": program.classes[v.class].name, "name": v.name })).collect()
}

/// What the manifest says of each method under test of `class`: the fingerprints of its goal's code
/// and how many of its statements `tests` cover as they are written (see [`MethodMark`]), which tells an
/// update what to generate again.
fn methods(marks: &Marks, class: ClassId, tests: &[Entry]) -> Json {
    let mut json = serde_json::Map::new();
    for (_, method, source) in marks.sources.iter().filter(|(c, _, _)| *c == class) {
        let mut covers: Vec<u32> = tests
            .iter()
            .filter(|t| t.elected.test.method == *method)
            .flat_map(|t| t.elected.covers.iter().copied())
            .collect();
        covers.sort_unstable();
        covers.dedup();
        let covers = covers.len();
        let helpers: Vec<Json> = source.helpers.iter().map(|(name, h)| json!([name, format!("{h:016x}")])).collect();
        let mark = json!({ "source": format!("{:016x}", source.own), "helpers": helpers, "covers": covers });
        json.insert(method.clone(), mark);
    }
    Json::Object(json)
}

fn checks_json(checks: &StateChecks) -> Json {
    let fields: Vec<Json> = checks.fields.iter().map(|f| json!([f.at, f.variable, f.field])).collect();
    json!({ "fields": fields, "inspect": checks.inspect })
}

/// State assertions as [`checks_json`] writes them; `None` for `null`.
fn read_checks(json: Option<&Json>) -> std::result::Result<Option<StateChecks>, String> {
    let Some(json) = json.filter(|j| !j.is_null()) else { return Ok(None) };
    let bad = || format!("state assertions the format does not have: {json}");
    let fields = array(json, "fields")?
        .iter()
        .map(|f| {
            let part = |i: usize| f.get(i).and_then(Json::as_u64).map(|n| n as usize);
            let field = f.get(2).and_then(Json::as_str).ok_or_else(bad)?.to_string();
            Ok(FieldCheck { at: part(0).ok_or_else(bad)?, variable: part(1).ok_or_else(bad)?, field })
        })
        .collect::<std::result::Result<Vec<_>, String>>()?;
    let inspect = array(json, "inspect")?
        .iter()
        .map(|n| n.as_str().map(String::from).ok_or_else(bad))
        .collect::<std::result::Result<Vec<_>, String>>()?;
    Ok(Some(StateChecks { fields, inspect }))
}

/// The manifests in `dir`, in file name order; an error says how to write one when there is none.
pub(super) fn manifests(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Read { file: dir.to_path_buf(), source })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(SUFFIX)))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(Error::Usage(format!(
            "{}: no suite manifest (*{SUFFIX}) here; write one with `flycatcher generate --out {}`",
            dir.display(),
            dir.display()
        )));
    }
    Ok(paths)
}

/// One manifest's JSON, its marker and version checked; errors name the file and what is wrong.
pub(super) fn open(path: &Path) -> Result<Json> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Read { file: path.to_path_buf(), source })?;
    let bad = |what: String| Error::Usage(format!("{}: not a usable suite manifest: {what}", path.display()));
    let json: Json = serde_json::from_str(&text).map_err(|e| bad(format!("invalid JSON ({e})")))?;
    if json.get("flycatcher").and_then(Json::as_str) != Some("suite manifest") {
        return Err(bad("it has no \"flycatcher\": \"suite manifest\" marker".into()));
    }
    match json.get("version").and_then(Json::as_u64) {
        Some(version) if (OLDEST..=VERSION).contains(&version) => Ok(json),
        Some(old) if old < OLDEST => Err(bad(format!(
            "it was written by an older flycatcher (format version {old}, this one reads {OLDEST} to {VERSION}): \
             generate the suite again"
        ))),
        version => {
            Err(bad(format!("format version {version:?}, this flycatcher reads versions {OLDEST} to {VERSION}")))
        }
    }
}

/// The suites the manifests in `dir` describe, in file name order.
pub(crate) fn suite_files(dir: &Path) -> Result<Vec<SuiteFile>> {
    let mut suites = Vec::new();
    for path in manifests(dir)? {
        let json = open(&path)?;
        let bad = |what: &str| Error::Usage(format!("{}: not a usable suite manifest: {what}", path.display()));
        let text = |key: &str| json.get(key).and_then(Json::as_str).ok_or_else(|| bad(&format!("no string \"{key}\"")));
        let format: Format = text("format")?.parse().map_err(|e: export::UnknownFormat| bad(&e.to_string()))?;
        let subjects = array(&json, "subjects")
            .map_err(|e| bad(&e))?
            .iter()
            .map(|s| s.as_str().map(PathBuf::from).ok_or_else(|| bad("a subject is not a string")))
            .collect::<Result<Vec<_>>>()?;
        suites.push(SuiteFile { class: text("class")?.to_string(), format, path: dir.join(text("suite")?), subjects });
    }
    Ok(suites)
}

/// Reads every manifest in `dir`, in file name order, mapping its classes onto `program`'s.
pub(crate) fn read_dir(dir: &Path, program: &ProgramInfo) -> Result<(Vec<ManifestTest>, Awaited)> {
    let mut tests = Vec::new();
    let mut awaited = Some(Vec::new());
    for path in manifests(dir)? {
        let json = open(&path)?;
        let bad = |what: String| Error::Usage(format!("{}: not a usable suite manifest: {what}", path.display()));
        tests.extend(read(&json, program).map_err(bad)?);
        match (awaited_of(&json, program).map_err(bad)?, &mut awaited) {
            (Some(pairs), Some(all)) => all.extend(pairs),
            _ => awaited = None,
        }
    }
    Ok((tests, Awaited(awaited)))
}

/// Which methods the suites of a folder await (a manifest's `awaited`), for the calls their tests make:
/// rendered by the flags of the session that reads them, their assertions read `await assert.rejects`
/// where a call of the method returned a promise in that session's runs only, and the suite, which
/// asserts the synchronous throw it was written with, was refused as not passing. `None` when a
/// manifest from before the list was read: the session's flags stand.
#[derive(Debug, Clone, Default)]
pub(crate) struct Awaited(pub(crate) Option<Vec<(ClassId, String)>>);

/// A manifest's `awaited` pairs, mapped onto `program`'s classes (a class it no longer defines left out);
/// `None` without the key.
fn awaited_of(manifest: &Json, program: &ProgramInfo) -> std::result::Result<Option<Vec<(ClassId, String)>>, String> {
    let Some(pairs) = manifest.get("awaited") else { return Ok(None) };
    let pairs: Vec<(String, String)> = serde_json::from_value(pairs.clone())
        .map_err(|e| format!("\"awaited\" is not a list of [class, method] pairs ({e})"))?;
    Ok(Some(pairs.into_iter().filter_map(|(class, method)| Some((program.class_named(&class)?, method))).collect()))
}

/// A class's suite as its manifest describes it: what an update brings up to date.
#[derive(Debug, Clone)]
pub(crate) struct Previous {
    /// The class it tests.
    pub class: ClassId,
    /// The comment lines at the top of the suite (none in manifests before version 4).
    pub header: Option<Vec<String>>,
    /// What it says of each method (none in manifests before version 4).
    pub methods: Vec<(String, MethodMark)>,
    /// Its tests, in order.
    pub tests: Vec<ManifestTest>,
    /// Its failing tests (none in manifests before version 4).
    pub failing: Vec<FailingTest>,
}

/// The suites the manifests in `dir` describe, in file name order, their classes mapped onto `program`'s;
/// none when `dir` holds no manifest. A manifest of a class the program no longer defines is left alone,
/// with a warning.
pub(crate) fn read_previous(dir: &Path, program: &ProgramInfo) -> Result<(Vec<Previous>, Vec<String>)> {
    let (mut suites, mut warnings) = (Vec::new(), Vec::new());
    if !dir.is_dir() {
        return Ok((suites, warnings));
    }
    let Ok(paths) = manifests(dir) else { return Ok((suites, warnings)) };
    for path in paths {
        let json = open(&path)?;
        let bad = |what: String| Error::Usage(format!("{}: not a usable suite manifest: {what}", path.display()));
        let name = json.get("class").and_then(Json::as_str).ok_or_else(|| bad("no string \"class\"".into()))?;
        let Some(class) = program.class_named(name) else {
            warnings.push(format!(
                "{}: class `{name}` is not defined by the files given any more: its suite is left as it is",
                path.display()
            ));
            continue;
        };
        let header = match json.get("header") {
            Some(h) => {
                Some(serde_json::from_value::<Vec<String>>(h.clone()).map_err(|e| bad(format!("\"header\": {e}")))?)
            }
            None => None,
        };
        let methods = json
            .get("methods")
            .and_then(Json::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(method, mark)| {
                let hex = |s: &Json| s.as_str().and_then(|s| u64::from_str_radix(s, 16).ok());
                let source = mark.get("source").and_then(hex);
                let covers = mark.get("covers").and_then(Json::as_u64);
                // A mark whose helpers cannot be read is no mark: its method is generated again.
                let helpers = match mark.get("helpers") {
                    None => None,
                    Some(helpers) => Some(
                        helpers
                            .as_array()?
                            .iter()
                            .map(|pair| Some((pair.get(0)?.as_str()?.to_string(), hex(pair.get(1)?)?)))
                            .collect::<Option<Vec<_>>>()?,
                    ),
                };
                Some((method.clone(), MethodMark { source: source?, helpers, covers: covers? as usize }))
            })
            .collect();
        let tests = read(&json, program).map_err(bad)?;
        let failing = read_failing(&json, program, class).map_err(bad)?;
        suites.push(Previous { class, header, methods, tests, failing });
    }
    Ok((suites, warnings))
}

/// The failing tests of a manifest, of `class`.
fn read_failing(
    manifest: &Json,
    program: &ProgramInfo,
    class: ClassId,
) -> std::result::Result<Vec<FailingTest>, String> {
    let classes = classes_of(manifest, program)?;
    let Some(failing) = manifest.get("failing").and_then(Json::as_array) else { return Ok(Vec::new()) };
    failing
        .iter()
        .enumerate()
        .map(|(index, f)| {
            let at = |what: String| format!("failing test {}: {what}", index + 1);
            let text = |key: &str| f.get(key).and_then(Json::as_str).map(String::from);
            let (variables, statements) = case(f, program, &classes).map_err(&at)?;
            let method = text("method").ok_or_else(|| at("no string \"method\"".into()))?;
            let threw_at = f.get("threw_at").and_then(Json::as_u64).map(|a| a as usize);
            Ok(FailingTest {
                test: TestCase { class, method, variables, statements },
                culprit: text("culprit"),
                message: text("message").unwrap_or_default(),
                outcome: kept::failing_outcome(threw_at),
            })
        })
        .collect()
}

/// The classes a manifest numbers its statements' classes by, mapped onto `program`'s.
fn classes_of(manifest: &Json, program: &ProgramInfo) -> std::result::Result<Vec<ClassId>, String> {
    array(manifest, "classes")?
        .iter()
        .map(|c| {
            c.as_str().ok_or("a class name is not a string").map_err(String::from).and_then(|c| class_of(program, c))
        })
        .collect()
}

fn class_of(program: &ProgramInfo, name: &str) -> std::result::Result<ClassId, String> {
    program.class_named(name).ok_or_else(|| {
        format!("it names class `{name}`, which the files given do not define (pass the files the suite tests)")
    })
}

/// The variables and statements of a test entry.
fn case(
    t: &Json,
    program: &ProgramInfo,
    classes: &[ClassId],
) -> std::result::Result<(Vec<Variable>, Vec<Statement>), String> {
    let variables = array(t, "variables")?
        .iter()
        .map(|v| {
            let class = v.get("class").and_then(Json::as_str).ok_or("a variable without a class")?;
            let name = v.get("name").and_then(Json::as_str).ok_or("a variable without a name")?;
            Ok(Variable { class: class_of(program, class)?, name: name.to_string() })
        })
        .collect::<std::result::Result<Vec<_>, String>>()?;
    let statements = array(t, "test")?
        .iter()
        .map(|s| statement(s, classes, variables.len()))
        .collect::<std::result::Result<Vec<_>, String>>()?;
    Ok((variables, statements))
}

/// The tests of one manifest; errors say what is wrong in it.
fn read(manifest: &Json, program: &ProgramInfo) -> std::result::Result<Vec<ManifestTest>, String> {
    let classes = classes_of(manifest, program)?;
    let mut tests = Vec::new();
    for (index, t) in array(manifest, "tests")?.iter().enumerate() {
        let at = |what: String| format!("test {}: {what}", index + 1);
        let text = |key: &str| t.get(key).and_then(Json::as_str).ok_or_else(|| at(format!("no string \"{key}\"")));
        let method = text("method")?.to_string();
        let title = text("title")?.to_string();
        let seed =
            t.get("seed").and_then(Json::as_u64).and_then(|s| u32::try_from(s).ok()).ok_or(at("no seed".into()))?;
        let (variables, statements) = case(t, program, &classes).map_err(&at)?;
        // A replay test may rebuild its receiver, or construct an argument first: the class under test is
        // the receiver's of the last call. A test made longer to tell a mutant apart may end by
        // constructing an instance its constructor refuses: it tests the manifest's class.
        let class = match statements.last() {
            Some(Statement::Call { receiver, .. }) => variables[*receiver].class,
            Some(Statement::Construct { .. }) => {
                class_of(program, manifest.get("class").and_then(Json::as_str).unwrap_or_default())?
            }
            _ => return Err(at("it does not end by calling a method".into())),
        };
        let strings = |key: &str| -> std::result::Result<Vec<String>, String> {
            array(t, key)
                .map_err(&at)?
                .iter()
                .map(|a| {
                    a.as_str().map(String::from).ok_or_else(|| at(format!("an item of \"{key}\" is not a string")))
                })
                .collect()
        };
        let asserts = strings("asserts")?;
        let lines = if t.get("lines").is_some() { Some(strings("lines")?) } else { None };
        let own_message = t.get("own_message").and_then(Json::as_bool).unwrap_or(false);
        let checks = read_checks(t.get("checks")).map_err(&at)?;
        let read = |key: &str| t.get(key).cloned().unwrap_or(json!([]));
        let offsets = serde_json::from_value::<Vec<(usize, usize)>>(read("offsets"))
            .ok()
            .filter(|o| o.iter().all(|&(at, from)| from < at && at < statements.len()))
            .ok_or_else(|| at("\"offsets\" is not a list of [call, earlier call] pairs".into()))?;
        let unstable = serde_json::from_value(read("unstable"))
            .map_err(|e| at(format!("\"unstable\" is not a list of parts of results ({e})")))?;
        let instability = Instability { offsets, unstable };
        let test = TestCase { class, method, variables, statements };
        let entry = t.clone();
        tests.push(ManifestTest { title, test, seed, own_message, asserts, checks, instability, lines, entry });
    }
    Ok(tests)
}

fn array<'a>(json: &'a Json, key: &str) -> std::result::Result<&'a Vec<Json>, String> {
    json.get(key).and_then(Json::as_array).ok_or_else(|| format!("no array \"{key}\""))
}

/// One statement in the harness format: `[0, class, [args], variable]`,
/// `[1, receiver, "method", [args], under_test]` (`null` for a call of the receiver itself; with `, result` when the call's result defines a
/// variable, and `, -1, 1` for a call whose promise is awaited at the end) or
/// `[2, class, [[key, value]...], variable]`.
fn statement(json: &Json, classes: &[ClassId], variables: usize) -> std::result::Result<Statement, String> {
    let parts = json.as_array().ok_or("a statement is not an array")?;
    let index = |i: usize| parts.get(i).and_then(Json::as_u64).map(|n| n as usize);
    let args = |i: usize| -> std::result::Result<Vec<Value>, String> {
        parts
            .get(i)
            .and_then(Json::as_array)
            .ok_or("arguments are not an array")?
            .iter()
            .map(|v| value(v, classes))
            .collect()
    };
    let variable = |v: Option<usize>| v.filter(|v| *v < variables).ok_or("a statement names an unknown variable");
    match index(0) {
        Some(0) => {
            let class = index(1).and_then(|c| classes.get(c).copied()).ok_or("a construction of an unknown class")?;
            Ok(Statement::Construct { class, args: args(2)?, variable: variable(index(3))? })
        }
        Some(1) => {
            // `null`: a call of the receiver itself, a function a call returned.
            let method = match parts.get(2) {
                Some(Json::Null) => CALL_ITSELF.to_string(),
                name => name.and_then(Json::as_str).ok_or("a call without a method name")?.to_string(),
            };
            Ok(Statement::Call {
                receiver: variable(index(1))?,
                method,
                args: args(3)?,
                under_test: index(4) == Some(1),
                result: match parts.get(5) {
                    Some(r) if r.as_i64() != Some(-1) => Some(variable(index(5))?),
                    _ => None,
                },
                deferred: index(6) == Some(1),
            })
        }
        Some(2) => {
            let class =
                index(1).and_then(|c| classes.get(c).copied()).ok_or("a rebuilt instance of an unknown class")?;
            let fields = members(parts.get(2).ok_or("a rebuilt instance without fields")?, classes)?;
            Ok(Statement::Rebuild { class, fields, variable: variable(index(3))? })
        }
        _ => Err("a statement of unknown kind".into()),
    }
}

/// One argument in the harness format (see `push_json_value` in [`crate::generate`]).
fn value(json: &Json, classes: &[ClassId]) -> std::result::Result<Value, String> {
    let bad = || format!("an argument the harness format does not have: {json}");
    let list = |inner: &Json| -> std::result::Result<Vec<Value>, String> {
        inner.as_array().ok_or_else(bad)?.iter().map(|v| value(v, classes)).collect()
    };
    Ok(match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => Value::Number(n.as_f64().ok_or_else(bad)?),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(_) => return Err(bad()),
        Json::Object(o) => {
            // `"t"` beside `"f"`, `"c"` or `"s"` is the function's exported text, rebuilt from the value
            // itself; `"n"` beside `"f"` its arity.
            let mut keys = o.iter().filter(|(k, _)| !matches!(k.as_str(), "t" | "n"));
            let (key, inner) = keys.next().filter(|_| keys.next().is_none()).ok_or_else(bad)?;
            match key.as_str() {
                "x" => Value::Number(inner.as_str().and_then(|s| s.parse().ok()).ok_or_else(bad)?),
                "u" => Value::Undefined,
                "v" => Value::Variable(inner.as_u64().ok_or_else(bad)? as usize),
                "p" => Value::Proxy(inner.as_u64().and_then(|p| u32::try_from(p).ok()).ok_or_else(bad)?),
                "a" => Value::Array(list(inner)?),
                "s" => Value::Answers(list(inner)?),
                "f" => Value::Function {
                    arity: match o.get("n") {
                        Some(n) => n.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(bad)?,
                        None => 0,
                    },
                    result: Box::new(value(inner, classes)?),
                },
                "h" => Value::Fluent { arity: inner.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(bad)? },
                "l" => Value::Class(inner.as_u64().and_then(|c| classes.get(c as usize).copied()).ok_or_else(bad)?),
                "z" => Value::Constructor(members(inner, classes)?),
                "c" => Value::Callback(inner.as_u64().and_then(Shape::from_code).ok_or_else(bad)?),
                "y" => match inner.as_array().map(Vec::as_slice) {
                    Some([length, fill]) => Value::Bytes {
                        length: length.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(bad)?,
                        fill: fill.as_u64().and_then(|n| u8::try_from(n).ok()).ok_or_else(bad)?,
                    },
                    _ => return Err(bad()),
                },
                "w" => match inner.as_array().map(Vec::as_slice) {
                    Some([code, text]) => {
                        code.as_u64().zip(text.as_str()).and_then(|(c, t)| Web::from_code(c, t)).map(Value::Web)
                    }
                    _ => None,
                }
                .ok_or_else(bad)?,
                "b" => Value::BigInt(inner.as_str().and_then(|s| s.parse().ok()).ok_or_else(bad)?),
                "m" => Value::Map(
                    inner
                        .as_array()
                        .ok_or_else(bad)?
                        .iter()
                        .map(|pair| match pair.as_array().map(Vec::as_slice) {
                            Some([k, v]) => Ok((value(k, classes)?, value(v, classes)?)),
                            _ => Err(bad()),
                        })
                        .collect::<std::result::Result<_, String>>()?,
                ),
                "e" => Value::Set(list(inner)?),
                "q" => Value::Promise(Box::new(value(inner, classes)?)),
                "g" => Value::AsyncIterable(list(inner)?),
                "j" => Value::Rejected,
                "d" => Value::Date(inner.as_f64().ok_or_else(bad)?),
                "r" => {
                    let part = |i: usize| inner.get(i).and_then(Json::as_str).map(String::from).ok_or_else(bad);
                    Value::RegExp { source: part(0)?, flags: part(1)? }
                }
                "o" => Value::object(members(inner, classes)?),
                "i" => {
                    let class = inner.get(0).and_then(Json::as_u64).and_then(|c| classes.get(c as usize).copied());
                    Value::Instance {
                        class: class.ok_or("a rebuilt instance of an unknown class")?,
                        fields: members(inner.get(1).ok_or_else(bad)?, classes)?,
                    }
                }
                _ => return Err(bad()),
            }
        }
    })
}

/// Object members in the harness format: `[["key", value]...]`.
fn members(json: &Json, classes: &[ClassId]) -> std::result::Result<Vec<(String, Value)>, String> {
    let bad = || format!("members the harness format does not have: {json}");
    json.as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|pair| {
            let key = pair.get(0).and_then(Json::as_str).ok_or_else(bad)?;
            Ok((key.to_string(), value(pair.get(1).ok_or_else(bad)?, classes)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::program::{ClassInfo, MethodInfo, Origin};

    /// A program of two script classes, `A` and `B`, each with a method `m`: what rendering needs.
    fn two_classes() -> ProgramInfo {
        let method = |name: &str| MethodInfo::bare(name, Vec::new(), Origin::Prototype);
        let class = |name: &str| ClassInfo { methods: vec![method("m")], ..ClassInfo::script(name) };
        ProgramInfo { classes: vec![class("A"), class("B")], ..Default::default() }
    }

    #[test]
    fn every_argument_kind_reads_back_as_written() {
        let args = vec![
            Value::Number(-2.5),
            Value::Number(f64::NAN),
            Value::Number(f64::NEG_INFINITY),
            Value::String("a\"b".into()),
            Value::Boolean(true),
            Value::Null,
            Value::Variable(0),
            Value::Array(vec![Value::Number(1.0), Value::String(String::new())]),
            Value::returning(Value::Boolean(false)),
            Value::Function { arity: 2, result: Box::new(Value::Number(1.0)) },
            Value::Callback(Shape::Subtract { descending: true }),
            Value::Callback(Shape::Compare { descending: false }),
            Value::Callback(Shape::Positive),
            Value::Bytes { length: 32, fill: 7 },
            Value::Bytes { length: 4, fill: 0 },
            Value::BigInt(-12),
            Value::Map(vec![(Value::String("k".into()), Value::Number(2.0))]),
            Value::Map(Vec::new()),
            Value::Set(vec![Value::String("a".into()), Value::Variable(0)]),
            Value::Promise(Box::new(Value::Number(3.0))),
            Value::AsyncIterable(vec![Value::Number(1.0), Value::String("b".into())]),
            Value::Rejected,
            Value::Fluent { arity: 1 },
            Value::Class(1),
            Value::Constructor(vec![
                ("size".into(), Value::Number(3.0)),
                ("update".into(), Value::Fluent { arity: 1 }),
            ]),
            Value::Date(86_400_000.0),
            Value::object(vec![("k".into(), Value::Number(3.0))]),
            Value::Undefined,
            Value::Answers(vec![Value::Number(1.0), Value::Undefined]),
            Value::RegExp { source: "a+".into(), flags: "g".into() },
            Value::Instance { class: 0, fields: vec![("next".into(), Value::Instance { class: 0, fields: vec![] })] },
        ];
        let test = TestCase {
            class: 1,
            method: "m".into(),
            variables: vec![
                Variable { class: 0, name: "a".into() },
                Variable { class: 1, name: "b".into() },
                Variable { class: 1, name: "b2".into() },
            ],
            statements: vec![
                Statement::Construct { variable: 0, class: 0, args: Vec::new() },
                Statement::Rebuild { variable: 1, class: 1, fields: vec![("a".into(), Value::Variable(0))] },
                // A call whose result is bound, as `b2`.
                Statement::Call {
                    receiver: 1,
                    method: "n".into(),
                    args: Vec::new(),
                    under_test: false,
                    result: Some(2),
                    deferred: false,
                },
                // A call whose promise is awaited at the end.
                Statement::Call {
                    receiver: 1,
                    method: "n".into(),
                    args: Vec::new(),
                    under_test: false,
                    result: None,
                    deferred: true,
                },
                Statement::call(2, "m", args.clone(), true),
                // A call of a function a call returned, written `null` for its method.
                Statement::call(2, CALL_ITSELF, vec![Value::Number(1.0)], true),
            ],
        };
        let program = two_classes();
        let json: Json = serde_json::from_str(&test.to_json(&program)).unwrap();
        let read: Vec<Statement> = json
            .as_array()
            .unwrap()
            .iter()
            .map(|s| statement(s, &[0, 1], 3))
            .collect::<std::result::Result<_, _>>()
            .unwrap();
        // NaN is not equal to itself: compare the JSON written again instead.
        let again = TestCase { statements: read, ..test.clone() };
        assert_eq!(again.to_json(&program), test.to_json(&program));
        assert!(matches!(&again.statements[4], Statement::Call { args: a, .. } if a.len() == args.len()));
        assert_eq!(again.statements[..4], test.statements[..4]);
        assert_eq!(again.statements[5], test.statements[5]);
        assert!(test.to_json(&program).ends_with(",[1,2,null,[1],1]]"), "{}", test.to_json(&program));
    }

    #[test]
    fn an_options_object_is_stored_without_the_record_it_reports_to() {
        let watched = Value::Object { members: vec![("k".into(), Value::Number(3.0))], record: Some(4) };
        let test = TestCase {
            class: 0,
            method: "m".into(),
            variables: vec![Variable { class: 0, name: "a".into() }],
            statements: vec![
                Statement::Construct { variable: 0, class: 0, args: Vec::new() },
                Statement::call(0, "m", vec![Value::Array(vec![watched])], true),
            ],
        };
        let program = two_classes();
        // The sandbox is told where to report; a manifest keeps no session's numbering.
        assert!(test.to_json(&program).contains(r#"{"o":[["k",3]],"k":4}"#), "{}", test.to_json(&program));
        let stored = test.to_stored_json(&program);
        assert!(stored.contains(r#"{"o":[["k",3]]}"#) && !stored.contains("\"k\":"), "{stored}");
        let json: Json = serde_json::from_str(&stored).unwrap();
        assert!(statement(&json[1], &[0, 1], 1).is_ok());
    }

    #[test]
    fn damaged_statements_are_refused_with_a_reason() {
        let unknown_class = serde_json::json!([0, 7, [], 0]);
        assert!(statement(&unknown_class, &[0], 1).unwrap_err().contains("unknown class"));
        let unknown_variable = serde_json::json!([1, 3, "m", [], 1]);
        assert!(statement(&unknown_variable, &[0], 1).unwrap_err().contains("unknown variable"));
        assert!(value(&serde_json::json!({"z": 1}), &[0]).unwrap_err().contains("harness format"));
        let unknown_rebuilt = serde_json::json!([2, 7, [], 0]);
        assert!(statement(&unknown_rebuilt, &[0], 1).unwrap_err().contains("unknown class"));
    }
}
