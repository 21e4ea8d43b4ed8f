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
//!
//! This is a low layer: it takes a suite already put in JavaScript terms ([`ExportSuite`]) and imports nothing
//! of the crate but [`crate::model`] and [`crate::js`] (whose [`runners`](crate::js::runners) hold the
//! JavaScript a suite carries). The files:
//!
//! - `mod.rs`: what a suite is rendered from ([`ExportSuite`] and its parts), [`render`] and [`suite_stem`];
//! - `format.rs`: the runners ([`Format`]) and what tells them apart;
//! - `line.rs`: one statement of a test ([`Line`], [`Expected`]) and its text ([`statement`]);
//! - `loader.rs`: the suite file under construction, and how it loads the code under test afresh per test;
//! - `register.rs`: how tests are registered with each runner, under unique titles;
//! - `typescript/`: suites of TypeScript code, written in TypeScript ([`TypeScript`]).

mod format;
mod line;
mod loader;
mod register;
#[cfg(test)]
mod tests;
mod typescript;

use std::path::{Path, PathBuf};

pub use format::{Format, UnknownFormat};
pub(crate) use line::{Expected, Line, statement};
use loader::{Import, Js, Syntax, write_loader};
use register::write_tests;
pub(crate) use typescript::{
    Declarations, DeclaredMember, DeclaredParam, EnumBinding, Project, Specifiers, Typed,
    declaration as typescript_declaration, expression as typescript_expression, is_typed, is_typescript, jest_config,
    state_reader,
};

use crate::model::program::{ClassId, ClassInfo, ModuleKind, ProgramInfo};

/// A file of the code under test that a suite loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SubjectFile {
    /// Absolute path of the file.
    pub path: PathBuf,
    /// How the file is loaded.
    pub kind: ModuleKind,
}

/// How a class (or the root of a namespace) is reached once the subject files are loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Access {
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
pub(crate) struct Binding {
    /// The JavaScript identifier used in test code; must not be `assert`, which test code uses for assertions.
    pub alias: String,
    /// Where the class is found.
    pub access: Access,
}

/// One test: a title and its statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExportTest {
    /// The group it belongs to (its method under test); tests of a group are rendered together, in the order
    /// of the group's first test.
    pub group: String,
    /// What the test is called; made unique within its group and single-line when rendered.
    pub title: String,
    /// The statements, in order.
    pub lines: Vec<Line>,
    /// Seed of `Math.random` for the code under test, as in the sandbox (see
    /// [`DETERMINISM_JS`](crate::js::DETERMINISM_JS)).
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

/// The tests of one class, ready to be rendered in any [`Format`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExportSuite {
    /// The class under test: names the file (and the suite, unless [`ExportSuite::describe`] says more).
    pub class_name: String,
    /// Its files' name stem (see [`suite_stem`]).
    pub stem: String,
    /// The name of the suite's outer group: the class, and for an abstract base the subclass whose
    /// instances its methods run on (`Shape, on Circle instances`).
    pub describe: String,
    /// Comment lines written at the top of the file, without comment markers.
    pub header: Vec<String>,
    /// The code under test; script files load in this order into one global scope.
    pub files: Vec<SubjectFile>,
    /// The classes test code refers to, passed to every test in this order.
    pub bindings: Vec<Binding>,
    /// The globals Node has and the sandbox lacks that the code read while it loaded there: hidden while
    /// the suite loads it, so that it takes the path it took in the sandbox (see
    /// [`WITHOUT_GLOBALS_JS`](crate::js::runners::WITHOUT_GLOBALS_JS)).
    pub absent_at_load: Vec<String>,
    /// The tests.
    pub tests: Vec<ExportTest>,
    /// Whether these are error-revealing tests: written to `<Class>.failing.test.js`, every test skipped.
    pub failing: bool,
    /// Set when the code under test is TypeScript: the suite is then a `.test.ts` file, whose test lines
    /// must be TypeScript too (see [`typescript`]).
    pub typescript: Option<TypeScript>,
}

/// How a TypeScript suite refers to the code under test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TypeScript {
    /// How the project's relative imports name its files, which the suite's type imports follow.
    pub specifiers: Specifiers,
    /// What the project's `tsconfig.json` asks of the runners.
    pub project: Project,
    /// Where the code re-exports types without `type` (`src/index.ts:5 \`Shape\``): a node:test suite
    /// then requires it rather than importing it (see [`typescript`]'s loader).
    pub type_reexports: Vec<String>,
    /// The `.ts` files of the code that are not modules (scripts, CommonJS), which a node:test suite leaves
    /// sloppy when it has tsx compile the others strict (see [`crate::js::runners::STRICT_TYPESCRIPT_JS`]).
    pub not_modules: Vec<PathBuf>,
}

impl ExportSuite {
    /// Why this suite cannot be written for `format`, if it cannot: a TypeScript suite needs a runner
    /// that runs TypeScript and has types of its own, and subjects that are modules.
    pub(crate) fn refusal(&self, format: Format) -> Option<String> {
        self.typescript.as_ref()?;
        if !format.writes_typescript() {
            let names: Vec<&str> =
                Format::all().into_iter().filter(|f| f.writes_typescript()).map(Format::name).collect();
            return Some(format!(
                "{}: a TypeScript suite cannot be written for {format}: use --format {}",
                self.class_name,
                names.join(", --format ")
            ));
        }
        let script = self.bindings.iter().find(|b| matches!(b.access, Access::Script { .. }))?;
        Some(format!(
            "{}: `{}` is defined by a TypeScript file without imports or exports, which a suite cannot load: \
             export it",
            self.class_name, script.alias
        ))
    }
}

/// What the header of a TypeScript jest suite says before the configuration (JSON on one line) that runs
/// it: the project's decorators and `paths` ([`jest_config`]), which `verify` runs it with too.
const JEST_CONFIG_NOTE: &str = "Run with this jest configuration (needs @swc/core and @swc/jest): ";

/// The jest configuration the header of a suite (its text) gives, if it gives one.
pub(crate) fn header_jest_config(text: &str) -> Option<&str> {
    text.lines()
        .take_while(|line| line.starts_with("//"))
        .find_map(|line| line.strip_prefix("// ")?.strip_prefix(JEST_CONFIG_NOTE))
}

/// A suite as a file's name and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RenderedSuite {
    /// The file name, without a directory: `<Class>.test.js` or `<Class>.test.mjs`.
    pub file_name: String,
    /// The file's text.
    pub text: String,
}

/// Renders `suite` for `format`, as a file to be written into `out_dir` (which need not exist yet). A suite
/// that cannot be written for `format` ([`ExportSuite::refusal`]) renders as a comment saying why.
///
/// # Panics
/// When a binding reaches a file by an index that is out of range or of another module kind, or reaches a
/// script expression in a suite without script files.
pub(crate) fn render(suite: &ExportSuite, format: Format, out_dir: &Path) -> RenderedSuite {
    let typescript = suite.typescript.is_some();
    let kind = if suite.failing { "failing.test" } else { "test" };
    if let Some(refusal) = suite.refusal(format) {
        // Writers refuse such a suite first; a preview shows why.
        let file_name = format!("{}.{kind}.ts", suite.stem);
        return RenderedSuite { file_name, text: format!("// {refusal}\n") };
    }
    // TypeScript suites are written as ES modules, which their runners compile as they need.
    let syntax = if typescript {
        Syntax::EsModule
    } else {
        format.syntax(suite.files.iter().any(|file| file.kind == ModuleKind::EsModule))
    };
    let mut js = Js::default();
    // vitest rewrites uses of imported names; test bodies compiled again in a vm context must find `assert`
    // as it is written, so it is bound to a name of the suite's own. (TypeScript's assertion functions must
    // be called through names typed explicitly.)
    let vitest = format == Format::Vitest;
    // TypeScript suites take Node's built-ins in forms every project configuration accepts: `node:assert`
    // and `node:path` are declared `export =`, which a default import takes only with `esModuleInterop`.
    if typescript {
        js.import("node:assert", Import::Named(if vitest { "strict as nodeAssert" } else { "strict as assert" }));
        js.import("node:path", Import::Namespace("path"));
    } else {
        js.import("node:assert/strict", Import::Default(if vitest { "nodeAssert" } else { "assert" }));
        js.import("node:path", Import::Default("path"));
    }
    if vitest {
        js.line(if typescript {
            "const assert: typeof nodeAssert = nodeAssert;"
        } else {
            "const assert = nodeAssert;"
        });
    }
    if typescript {
        typescript::write_loader(&mut js, suite, format, out_dir);
    } else {
        write_loader(&mut js, suite, format, syntax, out_dir);
    }
    write_tests(&mut js, suite, format);

    let mut text = String::new();
    let mut header = suite.header.clone();
    match (&suite.typescript, format) {
        (Some(ts), Format::Jest) => header.push(format!("{JEST_CONFIG_NOTE}{}", jest_config(&ts.project))),
        (Some(ts), Format::Vitest) => header.extend(typescript::vitest_notes(&ts.project)),
        _ => {}
    }
    for comment in header.iter().flat_map(|line| line.split('\n')) {
        text.push_str(format!("// {comment}").trim_end());
        text.push('\n');
    }
    if !header.is_empty() {
        text.push('\n');
    }
    text.push_str(&js.imports.render(syntax));
    text.push_str(&js.code);
    let extension = match syntax {
        _ if typescript => "ts",
        Syntax::CommonJs => "js",
        Syntax::EsModule => "mjs",
    };
    RenderedSuite { file_name: format!("{}.{kind}.{extension}", suite.stem), text }
}

/// The file name stem of the suite, failing log and manifest of `class`: its name's [`file_stem`], numbered
/// (`maybe.2`) when the stem of an earlier class of `program` differs from it in case alone (a class
/// `Maybe` and the module `maybe` of functions): a file system that ignores case would make the two files
/// one, and tsc refuses such a pair in one program (TS1149).
pub(crate) fn suite_stem(program: &ProgramInfo, class: ClassId) -> String {
    // The static members of `Point` are `Point.static`.
    let named = |c: &ClassInfo| match c.statics_of {
        Some(of) => file_stem(&format!("{}.static", program.classes[of].name)),
        None => file_stem(&c.name),
    };
    let stem = named(&program.classes[class]);
    let earlier = program.classes[..class].iter().filter(|c| named(c).eq_ignore_ascii_case(&stem)).count();
    if earlier == 0 { stem } else { format!("{stem}.{}", earlier + 1) }
}

/// The file name stem of a class's name: the name with characters that are awkward in file names
/// replaced.
fn file_stem(class_name: &str) -> String {
    let stem: String = class_name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-') { c } else { '_' })
        .collect();
    let stem = stem.trim_matches('.');
    if stem.is_empty() { "Suite".to_string() } else { stem.to_string() }
}

/// A JavaScript string literal (JSON's escaping is valid JavaScript), for titles, paths and messages alike.
fn js_string(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialize")
}
