//! Reading the user's files and the files they `require` or `import`, resolved the way Node would: Node's
//! built-in modules as the sandbox offers them, relative paths, and packages in `node_modules` folders; and
//! the way TypeScript and `tsx` do for TypeScript: extensionless paths and `.js` names finding `.ts`
//! files, and the `paths` and `baseUrl` of `tsconfig.json`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use swc_common::Span;
use swc_ecma_ast::{
    CallExpr, Callee, ExportAll, ExportSpecifier, Expr, ImportDecl, ImportSpecifier, Lit, ModuleExportName, NamedExport,
};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::elision::{self, TypeOnly};
use crate::analysis::package::{self, Loader, candidates, resolve_file, with_suffix};
use crate::analysis::parse::{ParsedFile, parse_source};
use crate::analysis::tsconfig::{self, TsConfig};
use crate::analysis::typescript::Language;
use crate::error::{Error, Result};
use crate::js::node;
use crate::model::program::{ModuleKind, TypeReexport};

/// One file of the program under test, with its resolved dependencies.
pub struct SourceEntry {
    /// The parsed file.
    pub parsed: ParsedFile,
    /// Module specifier → index of the file it resolves to.
    pub deps: BTreeMap<String, usize>,
    /// CommonJS specifier that resolves to nothing → the error its `require` throws, when it runs (one in
    /// a branch never taken, or in a `try`, must not stop the run; the error's stack names its line).
    pub missing: BTreeMap<String, String>,
    /// Module specifier → the names this file imports from it by name (`import { a }`, `export { a } from`):
    /// an ES-module view of a CommonJS file or built-in must export them even when its `module.exports`
    /// does not list them (a stand-in's).
    pub imported_names: BTreeMap<String, BTreeSet<String>>,
    /// Module specifier → the names this file imports or re-exports from it that are types only there,
    /// which its program goes without (see [`elision`]).
    pub(crate) type_only: TypeOnly,
    /// The re-exports of types written without `type` that eliding [`SourceEntry::type_only`] removed
    /// from this file, when it is a TypeScript ES module (see [`reached_type_reexports`]).
    pub type_reexports: Vec<TypeReexport>,
    /// Whether the user named this file (its classes are under test by default).
    pub given: bool,
    /// Whether it is one of Node's built-in modules as the sandbox offers them ([`crate::js::node`]), named
    /// `node:events` and never under test.
    pub builtin: bool,
}

impl SourceEntry {
    /// This file as `parsed` says it is now (a mutant of it), resolved as it was.
    pub(crate) fn with_parsed(&self, mut parsed: ParsedFile) -> SourceEntry {
        elision::elide(&mut parsed.program, &self.type_only);
        SourceEntry {
            parsed,
            deps: self.deps.clone(),
            missing: self.missing.clone(),
            imported_names: self.imported_names.clone(),
            type_only: self.type_only.clone(),
            type_reexports: self.type_reexports.clone(),
            given: self.given,
            builtin: self.builtin,
        }
    }
}

/// The program under test: the files named by the user first, in the order given, then the files they
/// reach through `require` and `import`.
pub struct SourceSet {
    /// All files.
    pub entries: Vec<SourceEntry>,
    /// What the sandbox loads that Node would not (an ES module importing a file without its extension,
    /// as bundlers allow): the suite written would not run under Node.
    pub warnings: Vec<String>,
}

impl SourceSet {
    /// Reads and parses `paths` and everything they load. A folder stands for the entry Node loads for
    /// the package in it (see [`package::folder_entry`]).
    pub(crate) fn load(paths: &[PathBuf]) -> Result<SourceSet> {
        let mut set = SourceSet { entries: Vec::new(), warnings: Vec::new() };
        for path in paths {
            let file = if path.is_dir() {
                package::folder_entry(path).map_err(|reason| Error::Resolve {
                    at: path.display().to_string(),
                    specifier: "package.json".into(),
                    reason,
                })?
            } else {
                path.clone()
            };
            let absolute = std::fs::canonicalize(&file).map_err(|source| Error::Read { file: file.clone(), source })?;
            if let Some(existing) = set.index_of(&absolute) {
                set.entries[existing].given = true;
                continue;
            }
            let display = if file == *path { path.display().to_string() } else { relative_display(&absolute) };
            set.add(&absolute, &display, true)?;
        }
        let mut next = 0;
        while next < set.entries.len() {
            set.resolve_dependencies(next)?;
            next += 1;
        }
        let type_only = elision::type_only(&set.entries);
        for (entry, type_only) in set.entries.iter_mut().zip(type_only) {
            let removed = elision::elide(&mut entry.parsed.program, &type_only);
            let parsed = &entry.parsed;
            if parsed.language == Language::TypeScript && parsed.kind == ModuleKind::EsModule {
                entry.type_reexports = removed
                    .into_iter()
                    .map(|(name, span)| TypeReexport {
                        file: parsed.display.clone(),
                        line: parsed.line_col(span.lo).0,
                        name,
                    })
                    .collect();
            }
            entry.type_only = type_only;
        }
        Ok(set)
    }

    fn index_of(&self, path: &Path) -> Option<usize> {
        self.entries.iter().position(|e| e.parsed.path == path)
    }

    fn add(&mut self, path: &Path, display: &str, given: bool) -> Result<usize> {
        let builtin = path.to_str().and_then(|p| p.strip_prefix(node::PREFIX)).and_then(node::source);
        let parsed = match builtin.clone() {
            Some(text) => {
                // Parsed as a `.cjs` file: a built-in is CommonJS whatever package.json the folder run in has.
                let mut parsed = parse_source(&with_suffix(path, ".cjs"), display, text)?;
                parsed.path = path.to_path_buf();
                parsed
            }
            None => {
                let text =
                    std::fs::read_to_string(path).map_err(|source| Error::Read { file: path.to_path_buf(), source })?;
                if path.extension().is_some_and(|e| e == "json") {
                    let mut parsed = parse_source(&with_suffix(path, ".cjs"), display, json_module(&text))?;
                    parsed.path = path.to_path_buf();
                    parsed
                } else {
                    parse_source(path, display, text)?
                }
            }
        };
        let (deps, missing, imported_names) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
        let (type_only, builtin) = (TypeOnly::new(), builtin.is_some());
        let type_reexports = Vec::new();
        self.entries.push(SourceEntry {
            parsed,
            deps,
            missing,
            imported_names,
            type_only,
            type_reexports,
            given,
            builtin,
        });
        Ok(self.entries.len() - 1)
    }

    fn resolve_dependencies(&mut self, index: usize) -> Result<()> {
        let mut collector = SpecifierCollector::default();
        self.entries[index].parsed.program.visit_with(&mut collector);
        self.entries[index].imported_names = std::mem::take(&mut collector.names);
        let importer = Importer::of(&self.entries[index].parsed);
        for unread in importer.tsconfig.iter().flat_map(|config| &config.unread) {
            if !self.warnings.contains(unread) {
                self.warnings.push(unread.clone());
            }
        }
        let importer_dir = importer.dir.clone();
        let es_module = self.entries[index].parsed.kind == ModuleKind::EsModule;
        let loader = if es_module { Loader::Import } else { Loader::Require };
        for (specifier, span) in collector.specifiers {
            if self.entries[index].deps.contains_key(&specifier) {
                continue;
            }
            let at = || {
                let parsed = &self.entries[index].parsed;
                format!("{}:{}", parsed.display, parsed.line_col(span.lo).0)
            };
            let target = match resolve(&importer, &specifier, loader) {
                Ok(target) => target,
                Err(reason) => {
                    // A specifier that is only mentioned (e.g. inside a branch never taken) must not stop
                    // the run; `require` of it fails inside the sandbox with the same reason if reached.
                    if es_module {
                        return Err(Error::Resolve { at: at(), specifier, reason });
                    }
                    let why = format!("Cannot find module '{specifier}': {reason}");
                    self.entries[index].missing.insert(specifier, why);
                    continue;
                }
            };
            // TypeScript names files without extensions, or by the `.js` they compile to; `tsx` loads them.
            if es_module && !importer.typescript && is_relative(&specifier) && !importer_dir.join(&specifier).is_file()
            {
                self.warnings.push(format!(
                    "{}: imports '{specifier}' without its file extension, as bundlers allow: Node cannot load it, so \
                     the suite written will not run under Node (test the package's CommonJS build, or a build meant \
                     for Node)",
                    at()
                ));
            }
            let dep = match self.index_of(&target) {
                Some(existing) => existing,
                None => {
                    let display = relative_display(&target);
                    self.add(&target, &display, false)?
                }
            };
            self.entries[index].deps.insert(specifier, dep);
        }
        Ok(())
    }
}

fn relative_display(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(|p| p.display().to_string()))
        .unwrap_or_else(|| path.display().to_string())
}

/// Whether `specifier` names a path: `.` and `..` too, the folder's and its parent's index (TypeScript
/// sources import `from '..'`).
fn is_relative(specifier: &str) -> bool {
    specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier.starts_with('/')
        || matches!(specifier, "." | "..")
}

/// The file a specifier is resolved from.
pub(crate) struct Importer {
    /// Its folder.
    pub(crate) dir: PathBuf,
    /// Whether it is TypeScript, whose specifiers name TypeScript files first.
    pub(crate) typescript: bool,
    /// The `tsconfig.json` governing a TypeScript file outside `node_modules` (`paths`, `baseUrl`).
    /// JavaScript files resolve as Node resolves them, which knows no `tsconfig.json`: the suites of
    /// JavaScript code run under plain Node.
    pub(crate) tsconfig: Option<TsConfig>,
}

impl Importer {
    fn of(parsed: &ParsedFile) -> Importer {
        let typescript = parsed.language == Language::TypeScript;
        let in_project = !parsed.path.components().any(|c| c.as_os_str() == "node_modules");
        Importer {
            dir: parsed.path.parent().map(Path::to_path_buf).unwrap_or_default(),
            typescript,
            // A configuration that does not parse has failed the file's parsing already.
            tsconfig: if typescript && in_project { tsconfig::for_file(&parsed.path).ok() } else { None },
        }
    }
}

/// Resolves a specifier like Node: built-in modules (as the sandbox offers them, `node:events`), relative
/// paths with the extensions Node tries (and the extensionless imports bundlers allow, and TypeScript's
/// files: see [`package::resolve_file`]), then `tsconfig.json`'s `paths` and `baseUrl`, then `#` subpath
/// imports through the `imports` of the importer's package, the importer's own package by its name, or
/// packages in `node_modules` folders through their `package.json` (see [`package`]), with the conditions
/// of `loader`.
pub(crate) fn resolve(importer: &Importer, specifier: &str, loader: Loader) -> std::result::Result<PathBuf, String> {
    if let Some(name) = node::builtin(specifier) {
        return Ok(PathBuf::from(format!("{}{name}", node::PREFIX)));
    }
    if let Some(bare) = specifier.strip_prefix(node::PREFIX) {
        return Err(format!("Node has no built-in module '{bare}'"));
    }
    if is_relative(specifier) {
        let base = importer.dir.join(specifier);
        return resolve_file(&base, importer.typescript).ok_or_else(|| no_file(&base, importer.typescript));
    }
    let mut tried = Vec::new();
    if let Some(config) = &importer.tsconfig {
        if let Some(found) = mapped(config, specifier, &mut tried) {
            return Ok(found);
        }
        if let Some(base_url) = &config.base_url {
            let base = base_url.join(specifier);
            if let Some(found) = resolve_file(&base, true) {
                return Ok(found);
            }
            tried.push(format!("{} (baseUrl of {})", base.display(), config.file.display()));
        }
    }
    let also = if tried.is_empty() { String::new() } else { format!("; tried {}", tried.join(", ")) };
    // After `paths`, as TypeScript and `tsx` look: a project may alias `#` names there.
    if specifier.starts_with('#') {
        return subpath_import(importer, specifier, loader).map_err(|reason| format!("{reason}{also}"));
    }
    // `@scope/name/sub/path` is package `@scope/name`, subpath `./sub/path`.
    let parts = if specifier.starts_with('@') { 2 } else { 1 };
    let mut segments = specifier.splitn(parts + 1, '/');
    let name = segments.by_ref().take(parts).collect::<Vec<_>>().join("/");
    let subpath = segments.next().map_or_else(|| ".".to_string(), |rest| format!("./{rest}"));
    // Before `node_modules`, as Node looks: a package importing itself by name gets its own files.
    if let Some(own) = package::own(&importer.dir, &name) {
        return package::entry(&own, &subpath, loader);
    }
    for dir in importer.dir.ancestors() {
        let package_dir = dir.join("node_modules").join(&name);
        if package_dir.is_dir() {
            return package::entry(&package_dir, &subpath, loader);
        }
    }
    Err(format!(
        "package '{name}' not found in any node_modules folder above {} (install it there: npm install {name}){also}",
        importer.dir.display()
    ))
}

/// The file a `#` specifier names through the `imports` of the importer's package: a file of it (which
/// must exist, or from TypeScript be found as TypeScript finds `./x.js`), or another package's, resolved
/// from the package's root.
fn subpath_import(importer: &Importer, specifier: &str, loader: Loader) -> std::result::Result<PathBuf, String> {
    match package::imported(&importer.dir, specifier, loader)? {
        package::Imported::File(path) => {
            let found = if importer.typescript { resolve_file(&path, true) } else { file_itself(&path) };
            found
                .ok_or_else(|| format!("the package imports '{specifier}' as {}, which does not exist", path.display()))
        }
        package::Imported::Package { specifier, dir } => {
            let root = Importer { dir, typescript: importer.typescript, tsconfig: None };
            resolve(&root, &specifier, loader)
        }
    }
}

/// `path`, canonical, when it is a file.
fn file_itself(path: &Path) -> Option<PathBuf> {
    path.is_file().then(|| std::fs::canonicalize(path).ok()).flatten()
}

/// Why a relative specifier names no file: the files tried, by their names.
fn no_file(base: &Path, typescript: bool) -> String {
    let dir = base.parent().unwrap_or(Path::new(""));
    let tried: Vec<String> = candidates(base, typescript)
        .iter()
        .map(|c| c.strip_prefix(dir).map_or_else(|_| c.display().to_string(), |p| p.display().to_string()))
        .collect();
    format!("no file {} (tried {})", base.display(), tried.join(", "))
}

/// The file `tsconfig.json`'s `paths` map `specifier` to: the pattern matching it with the longest prefix
/// (an exact one first), then its locations in order, the first that resolves. What was tried is added to
/// `tried`.
fn mapped(config: &TsConfig, specifier: &str, tried: &mut Vec<String>) -> Option<PathBuf> {
    let base = config.paths_base.as_ref()?;
    let (_, targets, star) = config
        .paths
        .iter()
        .filter_map(|(pattern, targets)| match pattern.split_once('*') {
            None => (pattern == specifier).then(|| (usize::MAX, targets, String::new())),
            Some((prefix, suffix)) => {
                let middle = specifier.strip_prefix(prefix)?.strip_suffix(suffix)?;
                Some((prefix.len(), targets, middle.to_string()))
            }
        })
        .max_by_key(|(prefix, ..)| *prefix)?;
    for target in targets {
        let path = base.join(target.replace('*', &star));
        if let Some(found) = resolve_file(&path, true) {
            return Some(found);
        }
        tried.push(format!("{} (paths of {})", path.display(), config.file.display()));
    }
    None
}

/// For each of `entries` (the files of a program, resolved, in [`SourceSet`] order), the re-exports of
/// types written without `type` in it and in the files it loads, directly or not, each once: what keeps
/// Node from linking it as ES modules compiled one file at a time.
pub(crate) fn reached_type_reexports(entries: &[&SourceEntry]) -> Vec<Vec<TypeReexport>> {
    (0..entries.len())
        .map(|start| {
            let mut seen = vec![false; entries.len()];
            let mut stack = vec![start];
            let mut found: Vec<TypeReexport> = Vec::new();
            while let Some(at) = stack.pop() {
                if std::mem::replace(&mut seen[at], true) {
                    continue;
                }
                found.extend(entries[at].type_reexports.iter().cloned());
                stack.extend(entries[at].deps.values().copied().filter(|&d| d < entries.len() && !seen[d]));
            }
            found
        })
        .collect()
}

/// A JSON file as the CommonJS module `require` makes of it (`require('../package.json').version` is how
/// many packages read their own version): its text, without a byte-order mark, given to `JSON.parse`,
/// which throws the `SyntaxError` Node's `require` would for text that is not JSON.
fn json_module(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let literal = serde_json::to_string(text).expect("a string encodes as JSON");
    format!("module.exports = JSON.parse({literal});\n")
}

/// Collects the static module specifiers of a file: `require('x')`, `import`, `export ... from`.
#[derive(Default)]
struct SpecifierCollector {
    specifiers: Vec<(String, Span)>,
    /// Specifier → the names `import { a }` and `export { a } from` take from it.
    names: BTreeMap<String, BTreeSet<String>>,
}

impl SpecifierCollector {
    fn named(&mut self, specifier: &str, name: &ModuleExportName) {
        let name = match name {
            ModuleExportName::Ident(ident) => ident.sym.to_string(),
            ModuleExportName::Str(s) => s.value.to_atom_lossy().to_string(),
        };
        self.names.entry(specifier.to_string()).or_default().insert(name);
    }
}

impl Visit for SpecifierCollector {
    fn visit_import_decl(&mut self, node: &ImportDecl) {
        let specifier = node.src.value.to_atom_lossy().to_string();
        for named in &node.specifiers {
            if let ImportSpecifier::Named(named) = named {
                let local = ModuleExportName::Ident(named.local.clone());
                self.named(&specifier, named.imported.as_ref().unwrap_or(&local));
            }
        }
        self.specifiers.push((specifier, node.span));
    }

    fn visit_export_all(&mut self, node: &ExportAll) {
        self.specifiers.push((node.src.value.to_atom_lossy().to_string(), node.span));
    }

    fn visit_named_export(&mut self, node: &NamedExport) {
        if let Some(src) = &node.src {
            let specifier = src.value.to_atom_lossy().to_string();
            for named in &node.specifiers {
                if let ExportSpecifier::Named(named) = named {
                    self.named(&specifier, &named.orig);
                }
            }
            self.specifiers.push((specifier, node.span));
        }
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        let is_require =
            matches!(&node.callee, Callee::Expr(e) if matches!(&**e, Expr::Ident(i) if &*i.sym == "require"));
        if (is_require || matches!(node.callee, Callee::Import(_)))
            && let Some(first) = node.args.first()
            && let Expr::Lit(Lit::Str(s)) = &*first.expr
        {
            self.specifiers.push((s.value.to_atom_lossy().to_string(), node.span));
        }
        node.visit_children_with(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::package::tests::package;

    #[test]
    fn subpath_imports_reach_files_packages_and_built_ins() {
        let manifest = r##"{ "imports": { "#dep": "dep/sub", "#events": "node:events", "#x": "./src/x.js" } }"##;
        let dir = package(&[
            ("package.json", manifest),
            ("src/x.ts", ""),
            ("node_modules/dep/package.json", r#"{ "exports": { "./sub": "./sub.js" } }"#),
            ("node_modules/dep/sub.js", ""),
        ]);
        let importer = |typescript| Importer { dir: dir.path().join("src"), typescript, tsconfig: None };
        let found = resolve(&importer(false), "#dep", Loader::Import).unwrap();
        assert!(found.ends_with("node_modules/dep/sub.js"), "{}", found.display());
        assert_eq!(resolve(&importer(false), "#events", Loader::Require), Ok(PathBuf::from("node:events")));
        let missing = resolve(&importer(false), "#x", Loader::Import).unwrap_err();
        assert!(missing.contains("imports '#x' as") && missing.contains("which does not exist"), "{missing}");
        assert!(resolve(&importer(true), "#x", Loader::Import).unwrap().ends_with("src/x.ts"), "x.js is x.ts");
    }

    #[test]
    fn tsconfig_paths_alias_hash_names_before_subpath_imports() {
        let dir = package(&[
            ("package.json", r##"{ "imports": { "#alias/*": "./imported/*" } }"##),
            ("tsconfig.json", r##"{ "compilerOptions": { "paths": { "#alias/*": ["./aliased/*"] } } }"##),
            ("aliased/y.ts", ""),
            ("imported/y.js", ""),
            ("src/x.ts", ""),
        ]);
        let tsconfig = tsconfig::for_file(&dir.path().join("src/x.ts")).ok();
        let importer = Importer { dir: dir.path().join("src"), typescript: true, tsconfig };
        assert!(resolve(&importer, "#alias/y.js", Loader::Import).unwrap().ends_with("aliased/y.ts"));
        let missing = resolve(&importer, "#alias/z.js", Loader::Import).unwrap_err();
        assert!(missing.contains("which does not exist; tried") && missing.contains("paths of"), "{missing}");
    }
}
