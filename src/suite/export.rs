//! Writing elected tests as regression suites for real JavaScript test runners.
//!
//! A suite is one self-contained file. It finds the code under test relative to its own location, and it loads
//! fresh copies of that code for every test, so that no test sees what another left behind (module-level
//! counters, changed prototypes):
//!
//! - plain scripts run, in order, in a new `vm` context per test, compiled once with their real paths so that
//!   stack traces and coverage tools (c8, istanbul) name the user's files. The test bodies are compiled again
//!   inside that context: arrays, literals and errors of a test then come from the same realm as the scripts'
//!   own, as they did in the sandbox where the tests were found (`assert.deepStrictEqual` compares prototypes,
//!   `instanceof` compares constructors, user code may check `x instanceof Array` on an argument);
//! - CommonJS modules are required after dropping them, and the files they required outside `node_modules`,
//!   from `require.cache`;
//! - ES modules are imported with a new query string per test, and a module resolve hook hands that query on to
//!   their relative imports, so sibling modules start afresh as well (c8 still names the plain file).
//!
//! Every format runs the same test bodies with Node's strict `assert`; formats differ only in how tests are
//! registered with their runner, how a runner learns that an asynchronous test has finished, and, for jest and
//! vitest (which keep module registries of their own), how fresh modules are loaded: `jest.isolateModules` and
//! `vi.resetModules` replace `require.cache` and the resolve hook there.

use std::collections::HashSet;
use std::fmt::{self, Write as _};
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

use crate::analysis::parse::ModuleKind;

/// A test runner (or runner-less style) that a suite is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Node's own runner: `node:test` `describe`/`test` with `node:assert/strict`.
    NodeTest,
    /// A plain Node script that prints TAP lines and a `N passed, N failed` line, exiting with 1 on failure.
    Assert,
    /// nodeunit: exported test functions that call `test.done()`.
    Nodeunit,
    /// expresso: an exported object of `'title': function` tests.
    Expresso,
    /// vows: `vows.describe(...).addBatch(...).export(module)`.
    Vows,
    /// jest: global `describe`/`test`; suites of ES modules need `NODE_OPTIONS=--experimental-vm-modules`.
    Jest,
    /// mocha: global `describe`/`it`.
    Mocha,
    /// vitest: `describe`/`test` imported from `vitest`; the suite is always an ES module.
    Vitest,
}

impl Format {
    /// Every format, in the order they are offered to users.
    pub fn all() -> [Format; 8] {
        [
            Format::NodeTest,
            Format::Assert,
            Format::Nodeunit,
            Format::Expresso,
            Format::Vows,
            Format::Jest,
            Format::Mocha,
            Format::Vitest,
        ]
    }

    /// The name users give on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::NodeTest => "node-test",
            Format::Assert => "assert",
            Format::Nodeunit => "nodeunit",
            Format::Expresso => "expresso",
            Format::Vows => "vows",
            Format::Jest => "jest",
            Format::Mocha => "mocha",
            Format::Vitest => "vitest",
        }
    }

    /// The module system of a suite in this format, given whether it loads ES modules: nodeunit, expresso, vows
    /// and jest (without experimental flags) `require()` their test files, and vitest runs every test file as
    /// an ES module.
    fn syntax(self, loads_es_modules: bool) -> Syntax {
        match self {
            Format::Vitest => Syntax::EsModule,
            Format::NodeTest | Format::Assert | Format::Mocha if loads_es_modules => Syntax::EsModule,
            _ => Syntax::CommonJs,
        }
    }

    /// Whether its runner can skip a test (failing tests are exported skipped, and only for such runners).
    pub fn can_skip(self) -> bool {
        !matches!(self, Format::Nodeunit | Format::Expresso | Format::Vows)
    }

    /// Whether its runner groups tests with `describe`: then each method under test gets its own group;
    /// otherwise the group's name starts each title.
    fn has_groups(self) -> bool {
        matches!(self, Format::NodeTest | Format::Jest | Format::Mocha | Format::Vitest)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Format`] from a name that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Format::all().iter().map(|format| format.name()).collect();
        write!(f, "unknown test format `{}` (expected one of: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Format::all().into_iter().find(|format| format.name() == name).ok_or_else(|| UnknownFormat(name.to_string()))
    }
}

/// A file of the code under test that a suite loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectFile {
    /// Absolute path of the file.
    pub path: PathBuf,
    /// How the file is loaded.
    pub kind: ModuleKind,
}

/// How a class (or the root of a namespace) is reached once the subject files are loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// An expression evaluated in the scripts' shared global scope, e.g. `LinkedList` or `Geo.Shapes.Rect`.
    Script {
        /// The JavaScript expression.
        expression: String,
    },
    /// `module.exports` of a CommonJS subject file, then a chain of properties (none: `module.exports` itself).
    CommonJs {
        /// Index of the file in [`ExportSuite::files`].
        file: usize,
        /// Property names, outermost first.
        path: Vec<String>,
    },
    /// An export of an ES-module subject file, then a chain of properties (for a class kept in an exported
    /// namespace object, e.g. `export const Geo = { Shapes: { Rect } }`).
    EsModule {
        /// Index of the file in [`ExportSuite::files`].
        file: usize,
        /// `default` or the name of a named export.
        export: String,
        /// Property names inside the export, outermost first.
        path: Vec<String>,
    },
}

/// A name under which test code refers to a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The JavaScript identifier used in test code; must not be `assert`, which test code uses for assertions.
    pub alias: String,
    /// Where the class is found.
    pub access: Access,
}

/// One test: a title and its statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportTest {
    /// The group it belongs to (its method under test); tests of a group are rendered together, in the order
    /// of the group's first test.
    pub group: String,
    /// What the test is called; made unique within its group and single-line when rendered.
    pub title: String,
    /// The statements, in order.
    pub lines: Vec<Line>,
    /// Seed of `Math.random` for the code under test, as in the sandbox (see [`DETERMINISM_JS`]).
    pub seed: u32,
}

impl ExportTest {
    /// Whether the test awaits a call (of a method that returns promises), so that its body must be an
    /// `async` function. A string argument reading "await " makes a body `async` needlessly, which is
    /// harmless.
    fn awaits(&self) -> bool {
        self.lines.iter().any(|line| statement(line).contains("await "))
    }
}

/// The seed of `Math.random` while the code under test loads, before each test's own seed applies.
pub const LOAD_SEED: u32 = 1;

/// Makes the code under test deterministic in a global scope, in the sandbox and in exported suites alike:
/// `Math.random` is the harness's xorshift32 from the test's seed, and the clock stands still at
/// 2024-01-01T00:00:00Z (`Date.now()`, `new Date()`, `Date()`); dates built from arguments are
/// untouched, and subclasses of `Date` still work.
pub const DETERMINISM_JS: &str = r#"function deterministic(g, seed) {
  let state = seed >>> 0 || 1;
  g.Math.random = function random() {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const RealDate = g.Date.flycatcherRealDate || g.Date;
  const now = 1704067200000;
  function FixedDate(...args) {
    if (!new.target) return new RealDate(now).toString();
    return Reflect.construct(RealDate, args.length ? args : [now], new.target);
  }
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = () => now;
  FixedDate.parse = RealDate.parse;
  FixedDate.UTC = RealDate.UTC;
  FixedDate.flycatcherRealDate = RealDate;
  g.Date = FixedDate;
}"#;

/// Gives a realm its own clock and `Math.random` back after [`DETERMINISM_JS`] fixed them.
const UNDO_JS: &str = r#"const realRandom = Math.random;
function undo(g) {
  g.Math.random = realRandom;
  g.Date = g.Date.flycatcherRealDate || g.Date;
}
"#;

/// One statement of a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// One JavaScript statement, e.g. `var list = new LinkedList();`.
    Code(String),
    /// `actual` is `Object.is`-equal to `expected`, a literal or expression (`NaN`, `-0`, `undefined`, a variable).
    StrictEqual {
        /// The expression under test.
        actual: String,
        /// The expected value's JavaScript source.
        expected: String,
    },
    /// `actual` is deeply and strictly equal to `expected`, an array or object literal.
    DeepStrictEqual {
        /// The expression under test.
        actual: String,
        /// The expected value's JavaScript source.
        expected: String,
    },
    /// `expression` is truthy, e.g. `r instanceof Node`.
    Ok {
        /// The expression under test.
        expression: String,
        /// Shown when the expression is falsy.
        message: String,
    },
    /// The statement `code` throws `thrown`.
    Throws {
        /// One JavaScript statement.
        code: String,
        /// What it must throw.
        thrown: Thrown,
    },
}

/// What a statement throws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Thrown {
    /// An error, told by name and message rather than by class: the class may belong to another realm.
    Error {
        /// The error's `name`, e.g. `TypeError`.
        name: String,
        /// The error's `message`, when it is the code's own; `None` for errors made by the engine,
        /// whose messages differ between engines.
        message: Option<String>,
    },
    /// Any other value, deeply and strictly equal to a JavaScript literal.
    Value {
        /// The literal's JavaScript source.
        literal: String,
    },
}

/// The tests of one class, ready to be rendered in any [`Format`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportSuite {
    /// The class under test: names the file and the suite.
    pub class_name: String,
    /// Comment lines written at the top of the file, without comment markers.
    pub header: Vec<String>,
    /// The code under test; script files load in this order into one global scope.
    pub files: Vec<SubjectFile>,
    /// The classes test code refers to, passed to every test in this order.
    pub bindings: Vec<Binding>,
    /// The tests.
    pub tests: Vec<ExportTest>,
    /// Whether these are error-revealing tests: written to `<Class>.failing.test.js`, every test skipped.
    pub failing: bool,
}

/// A suite as a file's name and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedSuite {
    /// The file name, without a directory: `<Class>.test.js` or `<Class>.test.mjs`.
    pub file_name: String,
    /// The file's text.
    pub text: String,
}

/// Renders `suite` for `format`, as a file to be written into `out_dir` (which need not exist yet).
///
/// # Panics
/// When a binding reaches a file by an index that is out of range or of another module kind, or reaches a
/// script expression in a suite without script files.
pub fn render(suite: &ExportSuite, format: Format, out_dir: &Path) -> RenderedSuite {
    let syntax = format.syntax(suite.files.iter().any(|file| file.kind == ModuleKind::EsModule));
    let mut js = Js::default();
    if format == Format::Vitest {
        // vitest rewrites uses of imported names; test bodies compiled again in a vm context must find `assert`
        // as it is written.
        js.import("node:assert/strict", Import::Default("nodeAssert"));
        js.line("const assert = nodeAssert;");
    } else {
        js.import("node:assert/strict", Import::Default("assert"));
    }
    js.import("node:path", Import::Default("path"));
    write_loader(&mut js, suite, format, syntax, out_dir);
    write_tests(&mut js, suite, format);

    let mut text = String::new();
    for comment in suite.header.iter().flat_map(|line| line.split('\n')) {
        text.push_str(format!("// {comment}").trim_end());
        text.push('\n');
    }
    if !suite.header.is_empty() {
        text.push('\n');
    }
    text.push_str(&js.imports.render(syntax));
    text.push_str(&js.code);
    let extension = match syntax {
        Syntax::CommonJs => "js",
        Syntax::EsModule => "mjs",
    };
    let kind = if suite.failing { "failing.test" } else { "test" };
    RenderedSuite { file_name: format!("{}.{kind}.{extension}", file_stem(&suite.class_name)), text }
}

/// The module system of the suite file itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    CommonJs,
    EsModule,
}

/// A suite file under construction: the code, and the imports it needs (written above the code at the end).
#[derive(Default)]
struct Js {
    imports: Imports,
    code: String,
}

impl Js {
    fn import(&mut self, module: &'static str, import: Import) {
        self.imports.add(module, import);
    }

    fn line(&mut self, line: &str) {
        self.code.push_str(line);
        self.code.push('\n');
    }
}

/// What a suite takes from one built-in module.
enum Import {
    Default(&'static str),
    Named(&'static str),
}

/// Built-in modules in first-use order, each with its default name and named imports.
#[derive(Default)]
struct Imports(Vec<(&'static str, Option<&'static str>, Vec<&'static str>)>);

impl Imports {
    fn add(&mut self, module: &'static str, import: Import) {
        let index = match self.0.iter().position(|(name, ..)| *name == module) {
            Some(index) => index,
            None => {
                self.0.push((module, None, Vec::new()));
                self.0.len() - 1
            }
        };
        let (_, default, named) = &mut self.0[index];
        match import {
            Import::Default(name) => *default = Some(name),
            Import::Named(name) if !named.contains(&name) => named.push(name),
            Import::Named(_) => {}
        }
    }

    fn render(&self, syntax: Syntax) -> String {
        let mut text = String::new();
        for (module, default, named) in &self.0 {
            let mut bindings = Vec::new();
            bindings.extend(default.map(str::to_string));
            if !named.is_empty() {
                bindings.push(format!("{{ {} }}", named.join(", ")));
            }
            for binding in bindings {
                let _ = match syntax {
                    Syntax::CommonJs => writeln!(text, "const {binding} = require('{module}');"),
                    Syntax::EsModule => writeln!(text, "import {binding} from '{module}';"),
                };
            }
        }
        text.push('\n');
        text
    }
}

/// Writes `withSubjects(body)`, which loads fresh subjects and calls `body` with the bound classes, and what it
/// needs; it returns a promise when there are ES-module subjects.
fn write_loader(js: &mut Js, suite: &ExportSuite, format: Format, syntax: Syntax, out_dir: &Path) {
    // Files of each kind go into their own JavaScript array; `slots[i]` is file i's index in its array.
    let mut counts = [0usize; 3];
    let slots: Vec<usize> = suite
        .files
        .iter()
        .map(|file| {
            let count = &mut counts[kind_index(file.kind)];
            *count += 1;
            *count - 1
        })
        .collect();
    let paths_of = |kind: ModuleKind| -> Vec<String> {
        let paths = suite.files.iter().filter(|file| file.kind == kind);
        paths.map(|file| js_string(&relative_path(out_dir, &file.path))).collect()
    };
    let [scripts, common_js, es_modules] =
        [ModuleKind::Script, ModuleKind::CommonJs, ModuleKind::EsModule].map(paths_of);

    if syntax == Syntax::EsModule {
        js.import("node:url", Import::Named("fileURLToPath"));
        js.line("const __filename = fileURLToPath(import.meta.url);");
        js.line("const __dirname = path.dirname(__filename);");
        if !common_js.is_empty() {
            js.import("node:module", Import::Named("createRequire"));
            js.line("const require = createRequire(import.meta.url);");
        }
        js.line("");
    }
    js.line("// The code under test is found relative to this file, so that a moved checkout still works.");
    if !scripts.is_empty() {
        js.import("node:fs", Import::Default("fs"));
        js.import("node:vm", Import::Default("vm"));
        js.line(&SCRIPTS_JS.replace("FILES", &array_items(&scripts, 2)));
    }
    if !common_js.is_empty() {
        let loader = if format == Format::Jest { JEST_COMMON_JS_JS } else { COMMON_JS_JS };
        js.line(&loader.replace("FILES", &array_items(&common_js, 2)));
    }
    if !es_modules.is_empty() {
        js.import("node:url", Import::Named("pathToFileURL"));
        let loader = match format {
            Format::Jest => JEST_ES_MODULES_JS,
            Format::Vitest => {
                js.import("vitest", Import::Named("vi"));
                VITEST_ES_MODULES_JS
            }
            _ => {
                js.import("node:module", Import::Named("register"));
                ES_MODULES_JS
            }
        };
        js.line(&loader.replace("FILES", &array_items(&es_modules, 2)));
    }

    let classes: Vec<String> = suite
        .bindings
        .iter()
        .map(|binding| match &binding.access {
            Access::Script { expression } => {
                assert!(!scripts.is_empty(), "`{}` is reached in scripts, but the suite has none", binding.alias);
                format!("vm.runInContext({}, context)", js_string(expression))
            }
            Access::CommonJs { file, path } => {
                let slot = slot_of(suite, &slots, *file, ModuleKind::CommonJs);
                path.iter().fold(format!("required[{slot}]"), |object, key| member(&object, key))
            }
            Access::EsModule { file, export, path } => {
                let slot = slot_of(suite, &slots, *file, ModuleKind::EsModule);
                let export = member(&format!("imported[{slot}]"), export);
                path.iter().fold(export, |object, key| member(&object, key))
            }
        })
        .collect();

    js.line("// Math.random and the clock of the code under test are fixed per test, as when the test was generated.");
    js.line(DETERMINISM_JS);
    js.line("function seeded(seed, body) {\n  body.seed = seed;\n  return body;\n}\n");
    if !common_js.is_empty() || !es_modules.is_empty() {
        js.line(UNDO_JS);
    }
    js.line("// Loads fresh copies of the code under test and runs one test's body with the classes it tests.");
    // Bodies that await run to their end before the modules' clock and Math.random are put back.
    let awaiting = !es_modules.is_empty() || suite.tests.iter().any(ExportTest::awaits);
    let asynchronous = if awaiting { "async " } else { "" };
    js.line(&format!("{asynchronous}function withSubjects(body) {{"));
    // As in the sandbox: one seed while the code loads, the test's own seed once it runs; in the vm
    // context for scripts, in this realm for modules.
    let seed_for = |seed: &str| {
        let mut lines = Vec::new();
        if !scripts.is_empty() {
            lines.push(format!("  fixed(global, {seed});"));
        }
        if !common_js.is_empty() || !es_modules.is_empty() {
            lines.push(format!("  deterministic(globalThis, {seed});"));
        }
        lines.join("\n")
    };
    if !scripts.is_empty() {
        js.line("  const context = vm.createContext();");
        js.line("  const fixed = vm.runInContext(`(${deterministic})`, context);");
        js.line("  const global = vm.runInContext('globalThis', context);");
    }
    js.line(&seed_for(&LOAD_SEED.to_string()));
    if !scripts.is_empty() {
        js.line("  for (const script of scripts) script.runInContext(context);");
    }
    if !common_js.is_empty() {
        js.line("  const required = requireFresh();");
    }
    if !es_modules.is_empty() {
        js.line("  const imported = await importFresh();");
    }
    js.line(&seed_for("body.seed"));
    let call = if scripts.is_empty() { "body" } else { "inContext(body, context)" };
    // The call, its arguments one per line, at an indentation.
    let returned = if awaiting { "return await" } else { "return" };
    let call_at = |indent: usize| {
        if classes.is_empty() {
            format!("{:indent$}{returned} {call}();", "")
        } else {
            format!("{:indent$}{returned} {call}(\n{}{:indent$});", "", array_items(&classes, indent + 2), "")
        }
    };
    if common_js.is_empty() && es_modules.is_empty() {
        js.line(&call_at(2));
    } else {
        // Modules run in this realm: its clock and Math.random go back to normal after the test, for the
        // runner (mocha times tests with Date) and for other suites it runs in the same process.
        js.line("  try {");
        js.line(&call_at(4));
        js.line("  } finally {\n    undo(globalThis);\n  }");
    }
    js.line("}\n");
}

/// Scripts: compiled once, run per test in a new context; `FILES` becomes the array items.
const SCRIPTS_JS: &str = r#"// Plain scripts share one global scope: each test runs them, in order, in a new vm context. They are compiled
// once under their real paths, so that stack traces and coverage tools (c8, istanbul) name the user's files.
const scripts = [
FILES].map((file) => {
  const filename = path.resolve(__dirname, file);
  return new vm.Script(fs.readFileSync(filename, 'utf8'), { filename });
});

// Test bodies are compiled again inside the test's context, so that their literals, arrays and errors come from
// the same realm as the scripts' own (assert.deepStrictEqual compares prototypes, instanceof compares
// constructors). A body can use its parameters, assert and the scripts' globals, and nothing else of this file.
const ownSource = fs.readFileSync(__filename, 'utf8');
function inContext(body, context) {
  const source = String(body);
  // Compiled under this file's name at the body's own line, stack traces point at the test as written here.
  const at = ownSource.indexOf(source);
  const lineOffset = at < 0 ? 0 : ownSource.slice(0, at).split('\n').length - 1;
  const wrapper = `(function (assert) { return (${source}); })`;
  return vm.runInContext(wrapper, context, { filename: __filename, lineOffset })(assert);
}
"#;

/// CommonJS: required afresh per test; `FILES` becomes the array items.
const COMMON_JS_JS: &str = r#"// CommonJS modules are required afresh for each test: first they, and the files they required outside
// node_modules (whose packages are shared as usual), are dropped from require's cache.
const commonJsFiles = [
FILES].map((file) => path.resolve(__dirname, file));
function forget(file) {
  const cached = require.cache[file];
  // Native addons cannot be loaded twice.
  if (cached === undefined || /[\\/]node_modules[\\/]|\.node$/.test(file)) return;
  delete require.cache[file];
  for (const child of cached.children) forget(child.filename);
}
function requireFresh() {
  commonJsFiles.forEach(forget);
  return commonJsFiles.map((file) => require(file));
}
"#;

/// CommonJS under jest, whose module registry is its own: `FILES` becomes the array items.
const JEST_COMMON_JS_JS: &str = r#"// CommonJS modules are required afresh for each test: jest keeps modules in a registry of its own, and
// isolateModules gives each load a new one (packages in node_modules are loaded afresh too).
const commonJsFiles = [
FILES].map((file) => path.resolve(__dirname, file));
function requireFresh() {
  let required;
  jest.isolateModules(() => {
    required = commonJsFiles.map((file) => require(file));
  });
  return required;
}
"#;

/// ES modules under jest (run with `NODE_OPTIONS=--experimental-vm-modules`): `FILES` becomes the array items.
const JEST_ES_MODULES_JS: &str = r#"// ES modules are imported afresh for each test: isolateModulesAsync gives each load a new module registry, so
// modules they import start afresh too. Jest loads ES modules only under NODE_OPTIONS=--experimental-vm-modules.
const moduleUrls = [
FILES].map((file) => pathToFileURL(path.resolve(__dirname, file)).href);
async function importFresh() {
  let imported;
  await jest.isolateModulesAsync(async () => {
    imported = await Promise.all(moduleUrls.map((url) => import(url)));
  });
  return imported;
}
"#;

/// ES modules under vitest: `FILES` becomes the array items.
const VITEST_ES_MODULES_JS: &str = r#"// ES modules are imported afresh for each test: vitest's module registry is emptied first, so modules they
// import start afresh too.
const moduleUrls = [
FILES].map((file) => pathToFileURL(path.resolve(__dirname, file)).href);
async function importFresh() {
  vi.resetModules();
  return Promise.all(moduleUrls.map((url) => import(url)));
}
"#;

/// ES modules: imported with a new query per test; `FILES` becomes the array items.
const ES_MODULES_JS: &str = r#"// ES modules stay cached by URL for the life of the process, so each test imports them with a new query, and a
// resolve hook hands that query on to their relative imports (not to packages in node_modules): modules they
// import start afresh too. Runners may load several suites into one process: they share one hook and counter.
const moduleUrls = [
FILES].map((file) => pathToFileURL(path.resolve(__dirname, file)).href);
const freshModules = (globalThis[Symbol.for('flycatcher.freshModules')] ??= { loads: 0, hooked: false });
if (!freshModules.hooked) {
  freshModules.hooked = true;
  register('data:text/javascript,' + encodeURIComponent(`
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const load = context.parentURL === undefined ? null : new URL(context.parentURL).searchParams.get('flycatcher-load');
  if (load === null || !resolved.url.startsWith('file:') || resolved.url.includes('/node_modules/')) return resolved;
  const url = new URL(resolved.url);
  url.searchParams.set('flycatcher-load', load);
  return { ...resolved, url: url.href };
}`));
}
function importFresh() {
  const load = ++freshModules.loads;
  return Promise.all(moduleUrls.map((url) => import(`${url}?flycatcher-load=${load}`)));
}
"#;

/// Runs a body whether it finishes at once or later, for runners that learn the outcome through a callback.
const SETTLE_JS: &str = r#"// Runs one test and calls back once, with its error or null.
function settle(body, callback) {
  new Promise((resolve) => resolve(withSubjects(body))).then(
    () => callback(null),
    // Runners read a falsy error as success, but a test that throws `undefined` has failed.
    (error) => callback(error || new Error(`the test threw ${String(error)}`)),
  );
}
"#;

/// The assert format's runner loop; `skipping` says whether every test is skipped.
const ASSERT_RUN_JS: &str = r#"// Runs the tests one after another: a TAP line for each, then a count line. The exit code stays 1 unless every
// test passed, even if the process ends before the last test does.
process.exitCode = 1;
(async () => {
  let passed = 0;
  console.log(`1..${tests.length}`);
  for (const [index, [title, body]] of tests.entries()) {
    if (skipping) {
      console.log(`ok ${index + 1} - ${title} # SKIP ${skipping}`);
      continue;
    }
    try {
      await withSubjects(body);
      passed += 1;
      console.log(`ok ${index + 1} - ${title}`);
    } catch (error) {
      console.log(`not ok ${index + 1} - ${title}`);
      console.log(inspect(error).replace(/^/gm, '  # '));
    }
  }
  const skipped = skipping ? tests.length : 0;
  const failed = tests.length - passed - skipped;
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failed === 0 ? 0 : 1;
})();"#;

/// Why the tests of a failing suite are skipped, for runners that show a reason.
const SKIP_REASON: &str = "it throws unexpectedly: a possible bug; remove the skip to see the error";

/// Writes the tests, registered the way `format`'s runner expects.
fn write_tests(js: &mut Js, suite: &ExportSuite, format: Format) {
    let aliases: Vec<&str> = suite.bindings.iter().map(|binding| binding.alias.as_str()).collect();
    let groups = groups(&suite.tests);
    if format.has_groups() {
        // One describe per class, one per method under test inside it.
        let test_function = match format {
            Format::NodeTest => {
                js.import("node:test", Import::Named("describe"));
                js.import("node:test", Import::Named("test"));
                "test"
            }
            Format::Vitest => {
                js.import("vitest", Import::Named("describe"));
                js.import("vitest", Import::Named("test"));
                "test"
            }
            Format::Mocha => "it",
            _ => "test",
        };
        let skip = if suite.failing { ".skip" } else { "" };
        js.line(&format!("describe({}, () => {{", js_string(&suite.class_name)));
        for (group, tests) in &groups {
            let titles = unique_titles(tests.iter().map(|test| test.title.as_str()));
            let nested = !group.is_empty();
            let indent = if nested { 4 } else { 2 };
            if nested {
                js.line(&format!("  describe({}, () => {{", js_string(group)));
            }
            for (test, title) in tests.iter().zip(&titles) {
                js.line(&format!(
                    "{:indent$}{test_function}{skip}({}, () => withSubjects(seeded({}, {})));",
                    "",
                    js_string(title),
                    test.seed,
                    test_body(test, &aliases, indent)
                ));
            }
            if nested {
                js.line("  });");
            }
        }
        js.line("});");
        return;
    }
    // Runners without groups: the group starts each title.
    let flat: Vec<String> = groups
        .iter()
        .flat_map(|(group, tests)| {
            tests.iter().map(
                move |test| {
                    if group.is_empty() { test.title.clone() } else { format!("{group}: {}", test.title) }
                },
            )
        })
        .collect();
    let titles = unique_titles(flat.iter().map(String::as_str));
    let ordered = groups.iter().flat_map(|(_, tests)| tests.iter().copied());
    // Per format: the text before the tests, each test's opening and closing around its body (and the body's
    // indentation), and the text after the tests.
    let (before, open, close, indent, after): (String, &str, &str, usize, String) = match format {
        Format::Assert => {
            js.import("node:util", Import::Named("inspect"));
            let skipping = if suite.failing { js_string(SKIP_REASON) } else { "false".to_string() };
            let after = format!("];\nconst skipping = {skipping};\n\n{ASSERT_RUN_JS}");
            ("const tests = [".to_string(), "  [TITLE, ", "],", 2, after)
        }
        Format::Nodeunit => {
            js.line(SETTLE_JS);
            (String::new(), "exports[TITLE] = (test) => settle(", ", (error) => test.done(error));", 0, String::new())
        }
        Format::Expresso => {
            js.line(SETTLE_JS);
            js.line(concat!(
                "// expresso starts every test at once and calls what a test gave `beforeExit` when the process is\n",
                "// about to exit: that checks the test's outcome.\n",
                "function settled(body) {\n",
                "  let failure = new Error('the test did not finish');\n",
                "  settle(body, (error) => {\n",
                "    failure = error;\n",
                "  });\n",
                "  return () => {\n",
                "    if (failure) throw failure;\n",
                "  };\n",
                "}\n",
            ));
            (
                "module.exports = {".to_string(),
                "  TITLE: (beforeExit) => beforeExit(settled(",
                ")),",
                2,
                "};".to_string(),
            )
        }
        Format::Vows => {
            js.import("vows", Import::Default("vows"));
            js.line(SETTLE_JS);
            js.line(concat!(
                "// Each topic runs one test and hands its error to this vow. Taking two parameters makes vows pass the\n",
                "// error in rather than report it by itself, so that a failed assertion counts as broken, not errored.\n",
                "function passes(error, result) {\n",
                "  if (error) throw error;\n",
                "}\n",
            ));
            (
                format!("vows.describe({}).addBatch({{", js_string(&suite.class_name)),
                "  TITLE: {\n    topic: function () {\n      settle(",
                ", (error) => this.callback(error));\n    },\n    passes,\n  },",
                6,
                "}).export(module);".to_string(),
            )
        }
        Format::NodeTest | Format::Jest | Format::Mocha | Format::Vitest => unreachable!("formats with groups"),
    };
    if !before.is_empty() {
        js.line(&before);
    }
    for (test, title) in ordered.zip(&titles) {
        let open = open.replace("TITLE", &js_string(title));
        js.line(&format!("{open}seeded({}, {}){close}", test.seed, test_body(test, &aliases, indent)));
    }
    if !after.is_empty() {
        js.line(&after);
    }
}

/// The tests by group, groups in the order of their first test.
fn groups(tests: &[ExportTest]) -> Vec<(&str, Vec<&ExportTest>)> {
    let mut groups: Vec<(&str, Vec<&ExportTest>)> = Vec::new();
    for test in tests {
        match groups.iter_mut().find(|(group, _)| *group == test.group) {
            Some((_, members)) => members.push(test),
            None => groups.push((&test.group, vec![test])),
        }
    }
    groups
}

/// A test as a function of the bound classes; its statements are indented by `indent` + 2 spaces.
fn test_body(test: &ExportTest, aliases: &[&str], indent: usize) -> String {
    let asynchronous = if test.awaits() { "async " } else { "" };
    let mut text = format!("{asynchronous}function ({}) {{\n", aliases.join(", "));
    for line in &test.lines {
        for physical in statement(line).lines() {
            let _ = writeln!(text, "{:indent$}  {physical}", "", indent = indent);
        }
    }
    let _ = write!(text, "{:indent$}}}", "", indent = indent);
    text
}

/// The JavaScript statement of one test line.
pub fn statement(line: &Line) -> String {
    match line {
        Line::Code(code) => code.clone(),
        Line::StrictEqual { actual, expected } => format!("assert.strictEqual({actual}, {expected});"),
        Line::DeepStrictEqual { actual, expected } => format!("assert.deepStrictEqual({actual}, {expected});"),
        Line::Ok { expression, message } => format!("assert.ok({expression}, {});", js_string(message)),
        Line::Throws { code, thrown } => {
            let check = match thrown {
                Thrown::Error { name, message: Some(message) } => {
                    format!("{{ name: {}, message: {} }}", js_string(name), js_string(message))
                }
                Thrown::Error { name, message: None } => format!("{{ name: {} }}", js_string(name)),
                Thrown::Value { literal } => {
                    format!("(thrown) => {{\n  assert.deepStrictEqual(thrown, {literal});\n  return true;\n}}")
                }
            };
            // A call of an asynchronous method fails by rejecting its promise.
            if code.starts_with("await ") {
                format!("await assert.rejects(async () => {{ {code} }}, {check});")
            } else {
                format!("assert.throws(() => {{ {code} }}, {check});")
            }
        }
    }
}

/// Names that runners give a meaning as keys of a test object (or that set an object's prototype).
const RESERVED_TITLES: &[&str] = &["__proto__", "setUp", "tearDown", "setup", "teardown", "topic", "on", "events"];

/// Single-line, trimmed titles, none reserved by a runner, all distinct; equal titles get ` (2)`, ` (3)`, ...
fn unique_titles<'a>(titles: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut taken = HashSet::new();
    titles
        .map(|title| {
            let flat: String = title.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            let mut base = flat.trim().to_string();
            if base.is_empty() {
                base = "test".to_string();
            }
            if RESERVED_TITLES.contains(&base.as_str()) {
                base.push_str(" (test)");
            }
            let title = (1..)
                .map(|n| if n == 1 { base.clone() } else { format!("{base} ({n})") })
                .find(|title| !taken.contains(title))
                .expect("some numbered title is free");
            taken.insert(title.clone());
            title
        })
        .collect()
}

/// The file name stem of a class's suite and failing log: the name with characters that are awkward in
/// file names replaced.
pub fn file_stem(class_name: &str) -> String {
    let stem: String = class_name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-') { c } else { '_' })
        .collect();
    let stem = stem.trim_matches('.');
    if stem.is_empty() { "Suite".to_string() } else { stem.to_string() }
}

fn kind_index(kind: ModuleKind) -> usize {
    match kind {
        ModuleKind::Script => 0,
        ModuleKind::CommonJs => 1,
        ModuleKind::EsModule => 2,
    }
}

/// The index of subject file `file` within the JavaScript array of its kind, checking that it is of `kind`.
fn slot_of(suite: &ExportSuite, slots: &[usize], file: usize, kind: ModuleKind) -> usize {
    let found = suite.files.get(file).unwrap_or_else(|| panic!("no subject file {file}")).kind;
    assert!(found == kind, "subject file {file} is a {} file, reached as a {} one", found.name(), kind.name());
    slots[file]
}

/// A JavaScript string literal (JSON's escaping is valid JavaScript).
fn js_string(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialize")
}

/// `object.key`, or `object["key"]` when the key is not an identifier.
fn member(object: &str, key: &str) -> String {
    let mut chars = key.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier { format!("{object}.{key}") } else { format!("{object}[{}]", js_string(key)) }
}

/// Array items (or call arguments), one per line after `indent` spaces, each with a trailing comma.
fn array_items(items: &[String], indent: usize) -> String {
    items.iter().map(|item| format!("{:indent$}{item},\n", "")).collect()
}

/// The path of `to` relative to directory `from_dir`, with `/` separators, for `path.resolve(__dirname, ...)`;
/// absolute when there is none (another Windows drive).
fn relative_path(from_dir: &Path, to: &Path) -> String {
    let (from, to) = (real_path(from_dir), real_path(to));
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return to.iter().collect::<PathBuf>().to_string_lossy().into_owned();
    }
    let ups = std::iter::repeat_n("..".to_string(), from.len() - common);
    let downs = to[common..].iter().map(|part| part.as_os_str().to_string_lossy().into_owned());
    ups.chain(downs).collect::<Vec<_>>().join("/")
}

/// `path` made absolute with symbolic links resolved as far as it exists, and `.`/`..` applied to the rest.
/// Node knows a test file by its real path, so `__dirname` is one: relative paths must start from it.
fn real_path(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut real = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                real.pop();
            }
            other => {
                real.push(other);
                if let Ok(resolved) = real.canonicalize() {
                    real = resolved;
                }
            }
        }
    }
    real
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::fs;
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    /// The classes every fixture defines; only how they are loaded (and reach `nextSerial`) differs.
    const CLASSES: &str = r#"class ListError extends Error {
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
                    (
                        "serial.js",
                        "var issued = 0;\nfunction nextSerial() {\n  issued += 1;\n  return issued;\n}\n".into(),
                    ),
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
        Line::Throws { code: code.into(), thrown: Thrown::Error { name: name.into(), message: Some(message.into()) } }
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
                            thrown: Thrown::Value { literal: "'not a number: x'".into() },
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
            header: vec![
                "Regression tests written by Flycatcher.".into(),
                String::new(),
                "*/ and \\ stay comments".into(),
            ],
            files,
            bindings,
            tests,
            failing: false,
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

    /// Runs the commands at once, each writing its output to files under `logs`; kills any still running
    /// after a minute.
    fn run_all(commands: Vec<Command>, logs: &Path) -> Vec<Run> {
        fs::create_dir_all(logs).unwrap();
        let mut children: Vec<(Child, PathBuf, PathBuf)> = commands
            .into_iter()
            .enumerate()
            .map(|(index, mut command)| {
                let (out, err) = (logs.join(format!("{index}.out")), logs.join(format!("{index}.err")));
                command.env("NO_COLOR", "1").stdin(Stdio::null());
                command.stdout(fs::File::create(&out).unwrap()).stderr(fs::File::create(&err).unwrap());
                let child = command.spawn().unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
                (child, out, err)
            })
            .collect();
        let deadline = Instant::now() + Duration::from_secs(60);
        children
            .iter_mut()
            .map(|(child, out, err)| {
                let status = loop {
                    if let Some(status) = child.try_wait().unwrap() {
                        break Some(status);
                    }
                    if Instant::now() > deadline {
                        let _ = child.kill();
                        let _ = child.wait();
                        break None;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                };
                let output = fs::read_to_string(out).unwrap() + &fs::read_to_string(err).unwrap();
                Run { code: status.and_then(|status| status.code()), output: without_colours(&output) }
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
        let mut rendered = Vec::new();
        for fixture in FIXTURES {
            let suite = suite(fixture, root, tests());
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
        let commands = rendered.iter().map(|(_, format, file)| runner_command(*format, file)).collect();
        let runs = run_all(commands, &root.path().join("logs"));
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
                    || fixture == Fixture::EsModule
                        && matches!(format, Format::NodeTest | Format::Assert | Format::Mocha);
                assert_eq!(
                    name,
                    if module { "LinkedList.test.mjs" } else { "LinkedList.test.js" },
                    "{format} {fixture:?}"
                );
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
}
