//! How a TypeScript suite loads the code under test, in TypeScript: the same JavaScript loaders and
//! determinism shim as JavaScript suites ([`crate::js::runners`], [`crate::js::DETERMINISM_JS`]), given the
//! annotations `tsc --strict` asks for ([`typed`]), and `withSubjects` written with its types.
//!
//! Every subject file is loaded the same way, whatever its module kind: imported afresh (node:test and
//! vitest, which run TypeScript as ES modules through tsx or vite), or required afresh inside
//! `jest.isolateModules` (jest, whose `@swc/jest` transform compiles TypeScript to CommonJS). Under
//! node:test, code that re-exports a type without `type` is required afresh instead ([`Loading`]): tsx
//! compiles one file at a time and keeps such a re-export, which Node's linker refuses in an ES module,
//! while in the CommonJS tsx makes of a required file the name reads `undefined`, as vitest's and jest's
//! module systems have it (and as `tsc`, dropping it, means).

use std::path::Path;

use super::super::loader::{Import, Js, array_items, loading as hiding_globals, member, relative_path};
use super::super::{Access, ExportSuite, ExportTest, Format, js_string};
use super::{Specifiers, class_type, import_type};
use crate::js::runners::{
    COMMON_JS_JS, ES_MODULES_JS, FILES, JEST_COMMON_JS_JS, STRICT_TYPESCRIPT_JS, UNDO_JS, VITEST_ES_MODULES_JS,
    WITHOUT_GLOBALS_JS,
};
use crate::js::{DETERMINISM_JS, LOAD_SEED};

/// Annotations that make [`DETERMINISM_JS`] pass `tsc --strict`, as (JavaScript, TypeScript) pairs.
const DETERMINISM_TYPES: &[(&str, &str)] = &[
    ("function deterministic(g, seed) {", "function deterministic(g: any, seed: number): void {"),
    // Its state is kept on the function itself, which TypeScript does not let a function declare.
    ("deterministic.installed", "(deterministic as any).installed"),
    ("function FixedDate(...args)", "function FixedDate(...args: any[])"),
    ("let fixedNow = null;", "let fixedNow: any = null;"),
    ("const hrtimeOf = (g) =>", "const hrtimeOf = (g: any): any =>"),
    ("let fixedHrtime = null;", "let fixedHrtime: any = null;"),
    ("function hrtime(previous) {", "function hrtime(previous?: any): number[] {"),
    ("reseed: (next) =>", "reseed: (next: number) =>"),
    ("let getRandomValues = null;", "let getRandomValues: any = null;"),
    ("function getRandomValues(array) {", "function getRandomValues(array: any): any {"),
    ("(value) => ({ value,", "(value: any) => ({ value,"),
];

/// Annotations for [`UNDO_JS`].
const UNDO_TYPES: &[(&str, &str)] = &[("function undo(g) {", "function undo(g: any): void {")];

/// Annotations for [`WITHOUT_GLOBALS_JS`].
const WITHOUT_GLOBALS_TYPES: &[(&str, &str)] = &[
    (
        "function withoutGlobals(g, names, load) {",
        "function withoutGlobals(g: any, names: string[], load: () => any): any {",
    ),
    ("const hidden = [];", "const hidden: [string, PropertyDescriptor | undefined, () => any][] = [];"),
    ("function (value) {", "function (value: any) {"),
    ("let loaded;", "let loaded: any;"),
];

/// Annotations for the loader of ES modules under Node ([`ES_MODULES_JS`]); it finds files from the
/// suite's folder, `suiteDir`.
const ES_MODULES_TYPES: &[(&str, &str)] = &[
    ("path.resolve(__dirname, file)", "path.resolve(suiteDir, file)"),
    ("globalThis[Symbol.for(", "(globalThis as any)[Symbol.for("),
];

/// Annotations for the loader of ES modules under vitest ([`VITEST_ES_MODULES_JS`]).
const VITEST_TYPES: &[(&str, &str)] = &[("path.resolve(__dirname, file)", "path.resolve(suiteDir, file)")];

/// Annotations for the loader of modules under jest ([`JEST_COMMON_JS_JS`]).
const JEST_TYPES: &[(&str, &str)] = &[("let required;", "let required: any[] = [];")];

/// Annotations for the loader of CommonJS modules under Node ([`COMMON_JS_JS`]): it finds files from the
/// suite's folder, and requires them with a `require` of its own, as an ES-module suite has none (and a
/// CommonJS one may not declare the name again).
const COMMON_JS_TYPES: &[(&str, &str)] = &[
    ("path.resolve(__dirname, file)", "path.resolve(suiteDir, file)"),
    ("function forget(file) {", "function forget(file: string): void {"),
    ("require.cache", "requireSubject.cache"),
    ("require(file)", "requireSubject(file)"),
    ("function requireFresh() {", "function requireFresh(): any[] {"),
];

/// Annotations for the hook that has tsx compile modules strict ([`STRICT_TYPESCRIPT_JS`]).
const STRICT_TYPES: &[(&str, &str)] = &[
    ("path.resolve(__dirname, file)", "path.resolve(suiteDir, file)"),
    ("globalThis[Symbol.for(", "(globalThis as any)[Symbol.for("),
    ("new Set()", "new Set<string>()"),
    ("Module.prototype._compile", "(Module.prototype as any)._compile"),
    ("function (content, filename) {", "function (this: any, content: string, filename: string) {"),
];

/// How a suite loads its subject files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loading {
    /// Imported afresh: ES modules (node:test, vitest).
    Imported,
    /// Required afresh by Node's `require`, which tsx compiles to CommonJS (node:test, for code that
    /// re-exports types without `type`).
    Required,
    /// Required afresh inside `jest.isolateModules`.
    Jest,
}

impl Loading {
    fn of(suite: &ExportSuite, format: Format) -> Loading {
        let reexports = suite.typescript.as_ref().is_some_and(|t| !t.type_reexports.is_empty());
        match format {
            Format::Jest => Loading::Jest,
            Format::NodeTest if reexports => Loading::Required,
            _ => Loading::Imported,
        }
    }

    /// Whether the subjects are CommonJS modules once loaded (a module's exports object, not a namespace).
    fn required(self) -> bool {
        self != Loading::Imported
    }
}

/// `js` with each pair's JavaScript replaced by its TypeScript.
fn typed(js: &str, types: &[(&str, &str)]) -> String {
    types.iter().fold(js.to_string(), |text, (from, to)| text.replace(from, to))
}

/// Writes the test bodies' helpers: the type of a body, `seeded`, and the determinism shim.
fn helpers(js: &mut Js) {
    js.line("// Math.random and the clock of the code under test are fixed per test, as when the test was generated.");
    js.line(&typed(DETERMINISM_JS, DETERMINISM_TYPES));
    js.line("// A test's body: a function of the classes it tests, with the seed of its Math.random.");
    js.line("type Body = ((...classes: any[]) => void | Promise<void>) & { seed: number };");
    js.line(
        "function seeded<Test extends (...classes: any[]) => void | Promise<void>>(seed: number, body: Test): Test & \
         { seed: number } {\n  return Object.assign(body, { seed });\n}\n",
    );
}

/// Writes the classes' types, the loader of the subject files and `withSubjects(body)`, which loads fresh
/// subjects and calls `body` with the bound classes.
///
/// # Panics
/// When a binding reaches a script (TypeScript files are modules) or a file out of range.
pub(in crate::export) fn write_loader(js: &mut Js, suite: &ExportSuite, format: Format, out_dir: &Path) {
    let specifiers = suite.typescript.as_ref().map(|t| t.specifiers).unwrap_or_default();
    let paths: Vec<String> = suite.files.iter().map(|file| relative_path(out_dir, &file.path)).collect();
    write_types(js, suite, specifiers, &paths);
    let loading = Loading::of(suite, format);
    if !suite.files.is_empty() {
        js.line("// The code under test is found relative to this file, so that a moved checkout still works.");
        let items = array_items(&paths.iter().map(|p| js_string(p)).collect::<Vec<_>>(), 2);
        if loading == Loading::Jest {
            js.import("@jest/globals", Import::Named("jest"));
            js.line(&typed(JEST_COMMON_JS_JS, JEST_TYPES).replace(FILES, &items));
        } else {
            // Runners may run the suite as an ES module (no `__dirname`) or compile it to CommonJS (where
            // `import.meta` is empty, and never read: `__dirname` is there). tsc refuses `import.meta` in a
            // file it compiles to CommonJS (`module: commonjs`, or `nodenext` outside a `"type": "module"`
            // package), so that one line is exempted from the check.
            js.import("node:url", Import::Named("fileURLToPath"));
            js.line("// @ts-ignore: import.meta is only read where the suite runs as an ES module");
            js.line(
                "const suiteDir = typeof __dirname === 'string' ? __dirname : \
                 path.dirname(fileURLToPath(import.meta.url));",
            );
            let loader = match (loading, format) {
                (Loading::Required, _) => {
                    js.import("node:module", Import::Named("createRequire"));
                    write_required_note(js, suite);
                    js.line("const requireSubject = createRequire(path.join(suiteDir, 'noop.js'));");
                    typed(COMMON_JS_JS, COMMON_JS_TYPES)
                }
                (_, Format::Vitest) => {
                    js.import("node:url", Import::Named("pathToFileURL"));
                    js.import("vitest", Import::Named("vi"));
                    typed(VITEST_ES_MODULES_JS, VITEST_TYPES)
                }
                _ => {
                    js.import("node:url", Import::Named("pathToFileURL"));
                    js.import("node:module", Import::Named("register"));
                    typed(ES_MODULES_JS, ES_MODULES_TYPES)
                }
            };
            js.line(&loader.replace(FILES, &items));
            if format == Format::NodeTest {
                write_strict_hook(js, suite, out_dir);
            }
        }
        if !suite.absent_at_load.is_empty() {
            js.line(&typed(WITHOUT_GLOBALS_JS, WITHOUT_GLOBALS_TYPES));
        }
    }
    helpers(js);
    write_with_subjects(js, suite, loading);
}

/// Writes the hook that has tsx compile the code's modules strict, as every other way of running them does.
fn write_strict_hook(js: &mut Js, suite: &ExportSuite, out_dir: &Path) {
    let not_modules = suite.typescript.as_ref().map(|t| t.not_modules.as_slice()).unwrap_or_default();
    let paths: Vec<String> = not_modules.iter().map(|path| js_string(&relative_path(out_dir, path))).collect();
    js.import("node:module", Import::Named("Module"));
    js.line(&typed(STRICT_TYPESCRIPT_JS, STRICT_TYPES).replace(FILES, &array_items(&paths, 2)));
}

/// Writes why the subjects are required rather than imported, and what lets them be imported.
fn write_required_note(js: &mut Js, suite: &ExportSuite) {
    let places = suite.typescript.as_ref().map(|t| t.type_reexports.as_slice()).unwrap_or_default();
    let shown = places.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    let more = match places.len() {
        0..=3 => String::new(),
        n => format!(" and {} more", n - 3),
    };
    js.line(&format!(
        "// The code re-exports types without `type` ({shown}{more}): tsx compiles one file at a time and keeps\n\
         // such a re-export, and Node refuses to link the ES module it makes (\"does not provide an export named\").\n\
         // So the code is required, which tsx compiles to CommonJS, where the name reads undefined (tsc drops it).\n\
         // Writing `export type {{ ... }}` for types lets it load as ES modules."
    ));
}

/// Writes a type alias per bound class: `typeof` what the binding reaches in the user's file, imported
/// the way the project imports its own files.
fn write_types(js: &mut Js, suite: &ExportSuite, specifiers: Specifiers, paths: &[String]) {
    if suite.bindings.is_empty() {
        return;
    }
    js.line("// The types of the classes the tests take; the code itself is loaded afresh for every test, below.");
    for binding in &suite.bindings {
        let (file, keys) = match &binding.access {
            Access::Script { .. } => panic!("`{}` is reached in a script: TypeScript files are modules", binding.alias),
            Access::CommonJs { file, path } => (*file, path.iter().map(String::as_str).collect::<Vec<_>>()),
            Access::EsModule { file, export, path } => {
                (*file, std::iter::once(export.as_str()).chain(path.iter().map(String::as_str)).collect())
            }
        };
        let path = paths.get(file).unwrap_or_else(|| panic!("no subject file {file}"));
        let specifier = specifiers.specifier(path);
        js.line(&format!("type {} = {};", class_type(&binding.alias), import_type(&specifier, &keys)));
    }
    js.line("");
}

/// Writes `withSubjects(body)`: loads the subjects with one seed, runs the body with the test's own, and
/// puts the suite's clock and `Math.random` back afterwards.
fn write_with_subjects(js: &mut Js, suite: &ExportSuite, loading: Loading) {
    let has_files = !suite.files.is_empty();
    if has_files {
        js.line(&typed(UNDO_JS, UNDO_TYPES));
    }
    js.line("// Loads fresh copies of the code under test and runs one test's body with the classes it tests.");
    let awaiting = (has_files && !loading.required()) || suite.tests.iter().any(ExportTest::awaits);
    let (signature, returned) = if awaiting {
        ("async function withSubjects(body: Body): Promise<void> {", "return await")
    } else {
        ("function withSubjects(body: Body): void | Promise<void> {", "return")
    };
    js.line(signature);
    if !has_files {
        js.line(&format!("  {returned} body();\n}}\n"));
        return;
    }
    let loaded = if loading.required() { "required" } else { "imported" };
    js.line(&format!("  deterministic(globalThis, {LOAD_SEED});"));
    if loading.required() {
        js.line(&format!("  const required = {};", hiding_globals(suite, "globalThis", "requireFresh")));
    } else {
        js.line(&format!("  const imported = await {};", hiding_globals(suite, "globalThis", "importFresh")));
    }
    js.line("  deterministic(globalThis, body.seed);");
    let classes: Vec<String> = suite
        .bindings
        .iter()
        .map(|binding| match &binding.access {
            Access::Script { .. } => unreachable!("refused by write_types"),
            Access::CommonJs { file, path } => {
                // Imported, a CommonJS module is its namespace's default export.
                let module =
                    if loading.required() { format!("{loaded}[{file}]") } else { format!("{loaded}[{file}].default") };
                path.iter().fold(module, |object, key| member(&object, key))
            }
            Access::EsModule { file, export, path } => {
                let export = member(&format!("{loaded}[{file}]"), export);
                path.iter().fold(export, |object, key| member(&object, key))
            }
        })
        .zip(&suite.bindings)
        .map(|(reached, binding)| {
            // `.constructor` reads as `Function`: the class of an exported instance is cast to its type.
            if reached.ends_with(".constructor") {
                format!("{reached} as {}", class_type(&binding.alias))
            } else {
                reached
            }
        })
        .collect();
    js.line("  try {");
    js.line(&format!("    {returned} body(\n{}    );", array_items(&classes, 6)));
    js.line("  } finally {\n    undo(globalThis);\n  }\n}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_annotation_finds_its_javascript() {
        let texts = [
            (DETERMINISM_JS, DETERMINISM_TYPES),
            (UNDO_JS, UNDO_TYPES),
            (ES_MODULES_JS, ES_MODULES_TYPES),
            (VITEST_ES_MODULES_JS, VITEST_TYPES),
            (JEST_COMMON_JS_JS, JEST_TYPES),
            (COMMON_JS_JS, COMMON_JS_TYPES),
            (WITHOUT_GLOBALS_JS, WITHOUT_GLOBALS_TYPES),
            (STRICT_TYPESCRIPT_JS, STRICT_TYPES),
        ];
        for (js, types) in texts {
            for (from, _) in types {
                assert!(js.contains(from), "the JavaScript changed: `{from}` is gone; annotate its new form");
            }
        }
    }
}
