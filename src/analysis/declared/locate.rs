//! Where the declarations of a file are: a TypeScript source declares its own types; a JavaScript file
//! has them in a declaration file beside it (`x.js` → `x.d.ts`, `.mjs` → `.d.mts`, `.cjs` → `.d.cts`) or,
//! when it is its package's entry, in the file the package names (`types`, `typings`, or a `types`
//! condition of `exports` beside the entry).

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

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
