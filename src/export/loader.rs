//! How a suite loads the code under test: `withSubjects(body)`, which loads fresh copies of the subject files
//! for one test and calls its body with the classes it tests, and the loaders it calls per module kind (their
//! JavaScript is in [`crate::js::runners`]). Also the suite file under construction ([`Js`]), whose imports
//! are collected as the loader and the tests need them and written above the code at the end.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use super::{Access, ExportSuite, ExportTest, Format, js_string};
use crate::js::runners::{
    COMMON_JS_JS, ES_MODULES_JS, FILES, JEST_COMMON_JS_JS, JEST_ES_MODULES_JS, SCRIPTS_JS, UNDO_JS,
    VITEST_ES_MODULES_JS, WITHOUT_GLOBALS_JS,
};
use crate::js::{DETERMINISM_JS, LOAD_SEED};
use crate::model::program::ModuleKind;

/// The module system of the suite file itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Syntax {
    CommonJs,
    EsModule,
}

/// A suite file under construction: the code, and the imports it needs (written above the code at the end).
#[derive(Default)]
pub(super) struct Js {
    pub(super) imports: Imports,
    pub(super) code: String,
}

impl Js {
    pub(super) fn import(&mut self, module: &'static str, import: Import) {
        self.imports.add(module, import);
    }

    pub(super) fn line(&mut self, line: &str) {
        self.code.push_str(line);
        self.code.push('\n');
    }
}

/// What a suite takes from one built-in module.
pub(super) enum Import {
    /// Its default export (in TypeScript, a module declared `export =` takes `esModuleInterop` for it).
    Default(&'static str),
    /// Its namespace (`import * as name`), which needs no interop in TypeScript.
    Namespace(&'static str),
    /// A named export: `name`, or `export as local` under a name of the suite's own.
    Named(&'static str),
}

/// Built-in modules in first-use order, each with its default (or namespace) binding and named imports.
#[derive(Default)]
pub(super) struct Imports(Vec<(&'static str, Option<Import>, Vec<&'static str>)>);

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
            Import::Named(name) if !named.contains(&name) => named.push(name),
            Import::Named(_) => {}
            whole => *default = Some(whole),
        }
    }

    /// The `require` or `import` lines, then a blank line.
    pub(super) fn render(&self, syntax: Syntax) -> String {
        let mut text = String::new();
        for (module, default, named) in &self.0 {
            let mut bindings = Vec::new();
            bindings.extend(default.as_ref().map(|whole| match (whole, syntax) {
                (Import::Namespace(name), Syntax::EsModule) => format!("* as {name}"),
                (Import::Default(name) | Import::Namespace(name) | Import::Named(name), _) => name.to_string(),
            }));
            if !named.is_empty() {
                let named: Vec<String> = match syntax {
                    Syntax::CommonJs => named.iter().map(|n| n.replace(" as ", ": ")).collect(),
                    Syntax::EsModule => named.iter().map(|n| n.to_string()).collect(),
                };
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

/// The paths of a suite's subject files, relative to the suite's directory and written as JavaScript strings,
/// by kind in the suite's order: each kind has a loader of its own, which reads them from an array.
struct SubjectPaths {
    scripts: Vec<String>,
    common_js: Vec<String>,
    es_modules: Vec<String>,
}

impl SubjectPaths {
    fn new(suite: &ExportSuite, out_dir: &Path) -> Self {
        let paths_of = |kind: ModuleKind| -> Vec<String> {
            let paths = suite.files.iter().filter(|file| file.kind == kind);
            paths.map(|file| js_string(&relative_path(out_dir, &file.path))).collect()
        };
        let [scripts, common_js, es_modules] =
            [ModuleKind::Script, ModuleKind::CommonJs, ModuleKind::EsModule].map(paths_of);
        SubjectPaths { scripts, common_js, es_modules }
    }

    /// Whether some subjects are modules: they run in the suite's own realm, not in a vm context.
    fn has_modules(&self) -> bool {
        !self.common_js.is_empty() || !self.es_modules.is_empty()
    }
}

/// Writes `withSubjects(body)`, which loads fresh subjects and calls `body` with the bound classes, and what it
/// needs; it returns a promise when there are ES-module subjects.
pub(super) fn write_loader(js: &mut Js, suite: &ExportSuite, format: Format, syntax: Syntax, out_dir: &Path) {
    let paths = SubjectPaths::new(suite, out_dir);
    write_file_loaders(js, format, syntax, &paths);
    if !suite.absent_at_load.is_empty() {
        js.line(WITHOUT_GLOBALS_JS);
    }
    let classes = bound_classes(suite, !paths.scripts.is_empty());
    write_with_subjects(js, suite, &paths, &classes);
}

/// Writes what finds this file's directory in an ES-module suite, then the loader of each kind of subject
/// file the suite has, with its array of paths.
fn write_file_loaders(js: &mut Js, format: Format, syntax: Syntax, paths: &SubjectPaths) {
    let SubjectPaths { scripts, common_js, es_modules } = paths;
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
        js.line(&SCRIPTS_JS.replace(FILES, &array_items(scripts, 2)));
    }
    if !common_js.is_empty() {
        let loader = if format == Format::Jest { JEST_COMMON_JS_JS } else { COMMON_JS_JS };
        js.line(&loader.replace(FILES, &array_items(common_js, 2)));
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
        js.line(&loader.replace(FILES, &array_items(es_modules, 2)));
    }
}

/// `load` called with the globals the code read in the sandbox while loading hidden in realm `realm`
/// (`withoutGlobals(globalThis, ["WebAssembly"], requireFresh)`), or `load()` when it read none.
pub(super) fn loading(suite: &ExportSuite, realm: &str, load: &str) -> String {
    if suite.absent_at_load.is_empty() {
        return format!("{load}()");
    }
    let names: Vec<String> = suite.absent_at_load.iter().map(|name| js_string(name)).collect();
    format!("withoutGlobals({realm}, [{}], {load})", names.join(", "))
}

/// The JavaScript expression of each bound class, in binding order, once `withSubjects` has loaded the
/// subjects: evaluated in the scripts' `context`, or read from the `required` and `imported` arrays.
fn bound_classes(suite: &ExportSuite, has_scripts: bool) -> Vec<String> {
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
    suite
        .bindings
        .iter()
        .map(|binding| match &binding.access {
            Access::Script { expression } => {
                assert!(has_scripts, "`{}` is reached in scripts, but the suite has none", binding.alias);
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
        .collect()
}

/// Writes the determinism shim and `withSubjects(body)` itself, which calls `body` with `classes`.
fn write_with_subjects(js: &mut Js, suite: &ExportSuite, paths: &SubjectPaths, classes: &[String]) {
    let (scripts, es_modules) = (!paths.scripts.is_empty(), !paths.es_modules.is_empty());
    js.line("// Math.random and the clock of the code under test are fixed per test, as when the test was generated.");
    js.line(DETERMINISM_JS);
    js.line("function seeded(seed, body) {\n  body.seed = seed;\n  return body;\n}\n");
    if paths.has_modules() {
        js.line(UNDO_JS);
    }
    js.line("// Loads fresh copies of the code under test and runs one test's body with the classes it tests.");
    // Bodies that await run to their end before the modules' clock and Math.random are put back.
    let awaiting = es_modules || suite.tests.iter().any(ExportTest::awaits);
    let asynchronous = if awaiting { "async " } else { "" };
    js.line(&format!("{asynchronous}function withSubjects(body) {{"));
    // As in the sandbox: one seed while the code loads, the test's own seed once it runs; in the vm
    // context for scripts, in this realm for modules.
    let seed_for = |seed: &str| {
        let mut lines = Vec::new();
        if scripts {
            lines.push(format!("  fixed(global, {seed});"));
        }
        if paths.has_modules() {
            lines.push(format!("  deterministic(globalThis, {seed});"));
        }
        lines.join("\n")
    };
    if scripts {
        js.line("  const context = vm.createContext(hostGlobals());");
        js.line("  const fixed = vm.runInContext(`(${deterministic})`, context);");
        js.line("  const global = vm.runInContext('globalThis', context);");
    }
    js.line(&seed_for(&LOAD_SEED.to_string()));
    if scripts {
        let run = "for (const script of scripts) script.runInContext(context);";
        if suite.absent_at_load.is_empty() {
            js.line(&format!("  {run}"));
        } else {
            js.line(&format!("  {};", loading(suite, "global", &format!("() => {{\n    {run}\n  }}"))));
        }
    }
    if !paths.common_js.is_empty() {
        js.line(&format!("  const required = {};", loading(suite, "globalThis", "requireFresh")));
    }
    if es_modules {
        js.line(&format!("  const imported = await {};", loading(suite, "globalThis", "importFresh")));
    }
    js.line(&seed_for("body.seed"));
    let call = if scripts { "inContext(body, context)" } else { "body" };
    // The call, its arguments one per line, at an indentation.
    let returned = if awaiting { "return await" } else { "return" };
    let call_at = |indent: usize| {
        if classes.is_empty() {
            format!("{:indent$}{returned} {call}();", "")
        } else {
            format!("{:indent$}{returned} {call}(\n{}{:indent$});", "", array_items(classes, indent + 2), "")
        }
    };
    if paths.has_modules() {
        // Modules run in this realm: its clock and Math.random go back to normal after the test, for the
        // runner (mocha times tests with Date) and for other suites it runs in the same process.
        js.line("  try {");
        js.line(&call_at(4));
        js.line("  } finally {\n    undo(globalThis);\n  }");
    } else {
        js.line(&call_at(2));
    }
    js.line("}\n");
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

/// `object.key`, or `object["key"]` when the key is not an identifier.
pub(super) fn member(object: &str, key: &str) -> String {
    let mut chars = key.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier { format!("{object}.{key}") } else { format!("{object}[{}]", js_string(key)) }
}

/// Array items (or call arguments), one per line after `indent` spaces, each with a trailing comma.
pub(super) fn array_items(items: &[String], indent: usize) -> String {
    items.iter().map(|item| format!("{:indent$}{item},\n", "")).collect()
}

/// The path of `to` relative to directory `from_dir`, with `/` separators, for `path.resolve(__dirname, ...)`;
/// absolute when there is none (another Windows drive).
pub(super) fn relative_path(from_dir: &Path, to: &Path) -> String {
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
