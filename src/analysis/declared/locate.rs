//! Where the declarations of a file are: a TypeScript source declares its own types; a JavaScript file
//! has them in a declaration file beside it (`x.js` → `x.d.ts`, `.mjs` → `.d.mts`, `.cjs` → `.d.cts`) or,
//! when it is its package's entry, in the file the package names (`types`, `typings`, or a `types`
//! condition of `exports` beside the entry). And the file an import in declarations names, as TypeScript
//! finds it (`module_file`).

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::analysis::package::{self, Loader};

/// The file holding the declarations of the code in `file`, if there is one.
pub(crate) fn declarations_of(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_string_lossy().into_owned();
    let typescript = [".ts", ".mts", ".cts"].iter().any(|e| name.ends_with(e));
    if typescript && !name.contains(".d.") {
        return Some(file.to_path_buf());
    }
    let beside = [(".js", ".d.ts"), (".mjs", ".d.mts"), (".cjs", ".d.cts")]
        .iter()
        .find_map(|(js, dts)| name.strip_suffix(js).map(|stem| file.with_file_name(format!("{stem}{dts}"))));
    if let Some(beside) = beside.filter(|p| p.is_file()) {
        return Some(beside);
    }
    package_types(file)
}

/// The declarations the nearest package names for `file`, when `file` is an entry of it: a `types`
/// condition of `exports` whose sibling conditions load `file`, or `types`/`typings` when `file` is
/// `main` (or `index.js` without one).
fn package_types(file: &Path) -> Option<PathBuf> {
    let root = file.ancestors().skip(1).find(|dir| dir.join("package.json").is_file())?;
    let manifest: Json = serde_json::from_str(&std::fs::read_to_string(root.join("package.json")).ok()?).ok()?;
    let same =
        |relative: &str| root.join(relative).canonicalize().ok().as_deref() == file.canonicalize().ok().as_deref();
    let mut found = None;
    if let Some(exports) = manifest.get("exports") {
        types_condition(exports, &same, &mut found);
    }
    if found.is_none() {
        let main = manifest.get("main").and_then(Json::as_str).unwrap_or("index.js");
        let main_is_file = same(main) || same(&format!("{main}.js")) || same(&format!("{main}/index.js"));
        if main_is_file {
            found = ["types", "typings"].iter().find_map(|k| manifest.get(*k).and_then(Json::as_str)).map(String::from);
        }
    }
    Some(root.join(found?)).filter(|p| p.is_file())
}

/// Finds, in a conditions object of `exports` (at any depth), a `types` condition beside a condition that
/// loads the file (`same`).
fn types_condition(value: &Json, same: &impl Fn(&str) -> bool, found: &mut Option<String>) {
    match value {
        Json::Object(conditions) => {
            let types = conditions.get("types").and_then(Json::as_str);
            let loads = conditions.iter().any(|(k, v)| k != "types" && v.as_str().is_some_and(same));
            if let Some(types) = types.filter(|_| loads && found.is_none()) {
                *found = Some(types.to_string());
            }
            conditions.values().for_each(|v| types_condition(v, same, found));
        }
        Json::Array(items) => items.iter().for_each(|v| types_condition(v, same, found)),
        _ => {}
    }
}

/// The file a module specifier names, as TypeScript finds it: the declarations or source of the path
/// itself, with `.js` meaning `.ts`, or of its folder's `index`. A `#` specifier names the path its
/// package's `imports` map it to under the `types` condition first, found the same way; a package's name,
/// its entry under that condition in the nearest `node_modules` that has it, or its `@types` package's.
pub(super) fn module_file(from: &Path, specifier: &str) -> Option<PathBuf> {
    let base = if specifier.starts_with('#') {
        match package::imported(from.parent()?, specifier, Loader::Types).ok()? {
            package::Imported::File(path) => path,
            package::Imported::Package { specifier, dir } => {
                return package_entry(&dir.join("package.json"), &specifier);
            }
        }
    } else if specifier.starts_with('.') {
        from.parent()?.join(specifier)
    } else {
        return package_entry(from, specifier);
    };
    typed_file(&base)
}

/// The declarations or source of the path `base`, with `.js` meaning `.ts`, or of its folder's `index`.
fn typed_file(base: &Path) -> Option<PathBuf> {
    let text = base.to_string_lossy().into_owned();
    let stem = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]
        .iter()
        .find_map(|e| text.strip_suffix(e).map(|s| (s.to_string(), *e)));
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some((stem, extension)) = &stem {
        let (declaration, source) = match *extension {
            ".mjs" | ".mts" => (".d.mts", ".mts"),
            ".cjs" | ".cts" => (".d.cts", ".cts"),
            _ => (".d.ts", ".ts"),
        };
        candidates.push(PathBuf::from(format!("{stem}{source}")));
        candidates.push(PathBuf::from(format!("{stem}{declaration}")));
    }
    for extension in [".ts", ".d.ts", ".mts", ".d.mts", ".cts", ".d.cts"] {
        candidates.push(PathBuf::from(format!("{text}{extension}")));
    }
    candidates.push(base.join("index.ts"));
    candidates.push(base.join("index.d.ts"));
    candidates.into_iter().find(|c| c.is_file())
}

/// The declarations or source a package specifier (`name`, `@scope/name/sub`) names for TypeScript, seen
/// from the file `from`: the entry under the `types` condition of the first `node_modules/name` above it
/// that has them, else of `@types/name` (`@types/scope__name` for a scoped one).
fn package_entry(from: &Path, specifier: &str) -> Option<PathBuf> {
    let parts = if specifier.starts_with('@') { 2 } else { 1 };
    let mut segments = specifier.splitn(parts + 1, '/');
    let name = segments.by_ref().take(parts).collect::<Vec<_>>().join("/");
    let subpath = segments.next().map_or_else(|| ".".to_string(), |rest| format!("./{rest}"));
    let typed = format!("@types/{}", name.trim_start_matches('@').replace('/', "__"));
    for dir in from.parent()?.ancestors() {
        for package in [&name, &typed] {
            let root = dir.join("node_modules").join(package);
            if !root.is_dir() {
                continue;
            }
            // The entry Node would load, else (an `@types` package has no code) the manifest's `types`, else
            // the path itself (`index.d.ts`, `sub.d.ts`).
            let declared = || {
                let text = std::fs::read_to_string(root.join("package.json")).ok()?;
                let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
                let types = manifest.get("types").or_else(|| manifest.get("typings"))?.as_str()?;
                typed_file(&root.join(types))
            };
            let found = package::entry(&root, &subpath, Loader::Types)
                .ok()
                .and_then(|e| typed_file(&e))
                .or_else(|| if subpath == "." { declared() } else { None })
                .or_else(|| typed_file(&root.join(&subpath)));
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
