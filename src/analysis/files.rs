//! Reading the user's files and the files they `require` or `import`, resolved the way Node would.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use swc_common::Span;
use swc_ecma_ast::{CallExpr, Callee, ExportAll, Expr, ImportDecl, Lit, NamedExport};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::{ParsedFile, parse_source};
use crate::error::{Error, Result};
use crate::model::program::ModuleKind;

/// One file of the program under test, with its resolved dependencies.
pub struct SourceEntry {
    /// The parsed file.
    pub parsed: ParsedFile,
    /// Module specifier → index of the file it resolves to.
    pub deps: BTreeMap<String, usize>,
    /// Whether the user named this file (its classes are under test by default).
    pub given: bool,
}

/// The program under test: the files named by the user first, in the order given, then the files they
/// reach through `require` and `import`.
pub struct SourceSet {
    /// All files.
    pub entries: Vec<SourceEntry>,
}

/// Node's built-in modules: the sandbox has none of them.
const NODE_BUILTINS: &[&str] = &[
    "assert",
    "buffer",
    "child_process",
    "cluster",
    "crypto",
    "dgram",
    "dns",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "querystring",
    "readline",
    "stream",
    "string_decoder",
    "timers",
    "tls",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "worker_threads",
    "zlib",
];

impl SourceSet {
    /// Reads and parses `paths` and everything they load.
    pub fn load(paths: &[PathBuf]) -> Result<SourceSet> {
        let mut set = SourceSet { entries: Vec::new() };
        for path in paths {
            let absolute = std::fs::canonicalize(path).map_err(|source| Error::Read { file: path.clone(), source })?;
            if let Some(existing) = set.index_of(&absolute) {
                set.entries[existing].given = true;
                continue;
            }
            set.add(&absolute, &path.display().to_string(), true)?;
        }
        let mut next = 0;
        while next < set.entries.len() {
            set.resolve_dependencies(next)?;
            next += 1;
        }
        Ok(set)
    }

    fn index_of(&self, path: &Path) -> Option<usize> {
        self.entries.iter().position(|e| e.parsed.path == path)
    }

    fn add(&mut self, path: &Path, display: &str, given: bool) -> Result<usize> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Read { file: path.to_path_buf(), source })?;
        let parsed = parse_source(path, display, text)?;
        self.entries.push(SourceEntry { parsed, deps: BTreeMap::new(), given });
        Ok(self.entries.len() - 1)
    }

    fn resolve_dependencies(&mut self, index: usize) -> Result<()> {
        let mut collector = SpecifierCollector::default();
        self.entries[index].parsed.program.visit_with(&mut collector);
        let importer_dir = self.entries[index].parsed.path.parent().map(Path::to_path_buf).unwrap_or_default();
        for (specifier, span) in collector.specifiers {
            if self.entries[index].deps.contains_key(&specifier) {
                continue;
            }
            let at = || {
                let parsed = &self.entries[index].parsed;
                format!("{}:{}", parsed.display, parsed.line_col(span.lo).0)
            };
            let target = match resolve(&importer_dir, &specifier) {
                Ok(target) => target,
                Err(reason) => {
                    // A specifier that is only mentioned (e.g. inside a branch never taken) must not stop
                    // the run; `require` of it fails inside the sandbox with the same reason if reached.
                    if self.entries[index].parsed.kind == ModuleKind::EsModule {
                        return Err(Error::Resolve { at: at(), specifier, reason });
                    }
                    continue;
                }
            };
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

/// Resolves a specifier like Node: relative paths with the extensions Node tries (and the
/// extensionless imports bundlers allow), then packages in `node_modules` folders.
pub fn resolve(from_dir: &Path, specifier: &str) -> std::result::Result<PathBuf, String> {
    let bare = specifier.strip_prefix("node:").unwrap_or(specifier);
    let builtin = specifier.starts_with("node:") || NODE_BUILTINS.contains(&bare.split('/').next().unwrap_or(bare));
    if builtin && !specifier.starts_with('.') {
        return Err(format!("'{bare}' is a Node.js built-in module; the sandbox offers only ECMAScript built-ins"));
    }
    if specifier.starts_with("./") || specifier.starts_with("../") || specifier.starts_with('/') {
        let base = from_dir.join(specifier);
        return resolve_file(&base)
            .ok_or_else(|| format!("no file {} (tried .js, .mjs, .cjs and index.js)", base.display()));
    }
    for dir in from_dir.ancestors() {
        let package = dir.join("node_modules").join(specifier);
        if let Some(found) = resolve_package(&package) {
            return Ok(found);
        }
    }
    Err(format!("package '{specifier}' not found in any node_modules folder above {}", from_dir.display()))
}

fn resolve_file(base: &Path) -> Option<PathBuf> {
    let candidates = [
        base.to_path_buf(),
        with_suffix(base, ".js"),
        with_suffix(base, ".mjs"),
        with_suffix(base, ".cjs"),
        base.join("index.js"),
        base.join("index.mjs"),
    ];
    candidates.into_iter().find(|p| p.is_file()).and_then(|p| std::fs::canonicalize(p).ok())
}

fn resolve_package(dir: &Path) -> Option<PathBuf> {
    if let Some(file) = resolve_file(dir).filter(|p| !p.is_dir()) {
        return Some(file);
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).ok()?).ok()?;
    let main = manifest.get("main").and_then(|m| m.as_str()).unwrap_or("index.js");
    resolve_file(&dir.join(main))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut text = path.as_os_str().to_owned();
    text.push(suffix);
    PathBuf::from(text)
}

/// Collects the static module specifiers of a file: `require('x')`, `import`, `export ... from`.
#[derive(Default)]
struct SpecifierCollector {
    specifiers: Vec<(String, Span)>,
}

impl Visit for SpecifierCollector {
    fn visit_import_decl(&mut self, node: &ImportDecl) {
        self.specifiers.push((node.src.value.to_atom_lossy().to_string(), node.span));
    }

    fn visit_export_all(&mut self, node: &ExportAll) {
        self.specifiers.push((node.src.value.to_atom_lossy().to_string(), node.span));
    }

    fn visit_named_export(&mut self, node: &NamedExport) {
        if let Some(src) = &node.src {
            self.specifiers.push((src.value.to_atom_lossy().to_string(), node.span));
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
