//! Package folders as Node reads them: which file `require` or `import` of a package (or of one of its
//! subpaths) loads. `package.json`'s `exports` decides when it is there (a path, fallback arrays, or a map of
//! subpaths and `*` patterns, with `require` / `import` / `node` / `default` conditions nested in any
//! order); otherwise `main`, then `index.js`. A folder given on the command line is tested through the entry
//! Node loads for it ([`folder_entry`]). Specifiers starting with `#` are the package's own subpath imports:
//! its `imports` field maps them, with the same keys, patterns and conditions, to its files or to other
//! packages ([`imported`]). A package's files may import it by its own name through its `exports`
//! ([`own`]).
//!
//! A package that ships its TypeScript sources as its types (a `types` condition, or a top-level `types` or
//! `typings`, naming a `.ts`, `.mts` or `.cts` file that is not a declaration file) is loaded from them: they
//! are what its JavaScript is compiled from, and positions then name the lines its authors wrote.

use std::path::{Path, PathBuf};

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::analysis::parse::package_type_is_module;
use crate::model::program::is_typescript;

/// How a file is loaded, which decides the conditions that `exports` and `imports` match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loader {
    /// `require`: the `node`, `require` and `default` conditions.
    Require,
    /// `import`: the `node`, `import` and `default` conditions.
    Import,
    /// TypeScript looking for declarations from an `import`: the `types`, `node`, `import` and `default`
    /// conditions, where `types` may name a declaration file.
    Types,
}

impl Loader {
    fn conditions(self) -> &'static [&'static str] {
        match self {
            Loader::Require => &["node", "require", "default"],
            Loader::Import => &["node", "import", "default"],
            Loader::Types => &["types", "node", "import", "default"],
        }
    }
}

/// What a target of `exports` or `imports` gives for a loader.
#[derive(Debug, PartialEq)]
enum Resolved {
    /// A path inside the package (`./lib/x.js`), its `*` replaced.
    Path(String),
    /// Another package, or a built-in module (`imports` only): `lodash/fp`, `node:fs`.
    Package(String),
    /// `null`, or a target Node refuses (`../x`, an absolute path): no later condition is tried.
    Excluded,
    /// No condition matched: the next one is tried.
    Unmatched,
}

/// What a `#` specifier names, through the `imports` field of the package it is written in.
#[derive(Debug, PartialEq)]
pub(crate) enum Imported {
    /// A file of the package (checked by the caller: TypeScript finds `x.ts` for `x.js`).
    File(PathBuf),
    /// A package specifier, resolved as if written in a file at the package's root (`dir`).
    Package {
        /// The specifier, its `*` replaced.
        specifier: String,
        /// The package's folder.
        dir: PathBuf,
    },
}

/// A JSON value whose objects keep their keys in order: conditions in `exports` are tried in the order
/// written, and `serde_json`'s maps sort their keys.
#[derive(Debug, Clone)]
enum Json {
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
    Other,
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_str<E>(self, v: &str) -> Result<Json, E> {
                Ok(Json::String(v.to_string()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
                Ok(Json::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Json, E> {
                Ok(Json::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Json, E> {
                Ok(Json::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
                Ok(Json::Other)
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Json::Object(entries))
            }
        }
        deserializer.deserialize_any(Ordered)
    }
}

/// What the `#` specifier (`#internal/x.js`) names for a file in `from`: the `imports` field of the nearest
/// `package.json` above it, by exact key or by the `*` pattern with the longest prefix, its target resolved
/// with the conditions of `loader` as `exports` targets are, and also to other packages (a target without
/// `./`). `Err` says why nothing is imported, naming the `package.json` read.
pub(crate) fn imported(from: &Path, specifier: &str, loader: Loader) -> Result<Imported, String> {
    if specifier == "#" || specifier.starts_with("#/") {
        return Err("a subpath import needs a name after '#' (Node refuses '#' and '#/...')".into());
    }
    let Some(dir) = from.ancestors().find(|dir| dir.join("package.json").is_file()) else {
        return Err(format!("no package.json above {} has an `imports` field to map it", from.display()));
    };
    let file = dir.join("package.json");
    let not_imported =
        || format!("{} does not map '{specifier}' in its `imports` to `{}`", file.display(), loader_name(loader));
    let Some(Json::Object(entries)) = manifest(dir).and_then(|m| m.get("imports").cloned()) else {
        return Err(format!("{} has no `imports` field to map it", file.display()));
    };
    let (target, star) = matched(&entries, specifier).ok_or_else(not_imported)?;
    match resolve_target(dir, target, star.as_deref(), loader, true) {
        Resolved::Path(path) => Ok(Imported::File(dir.join(path.trim_start_matches("./")))),
        Resolved::Package(specifier) => Ok(Imported::Package { specifier, dir: dir.to_path_buf() }),
        Resolved::Excluded | Resolved::Unmatched => Err(not_imported()),
    }
}

/// The folder of the package whose files import it by its own name (Node's `PACKAGE_SELF_RESOLVE`): the
/// nearest `package.json` above `from`, when its `name` is `name` and it has `exports` (without them a
/// package cannot name itself).
pub(crate) fn own(from: &Path, name: &str) -> Option<PathBuf> {
    let dir = from.ancestors().find(|dir| dir.join("package.json").is_file())?;
    let manifest = manifest(dir)?;
    let named = matches!(manifest.get("name"), Some(Json::String(own)) if own == name);
    let exports = manifest.get("exports").is_some_and(|e| !matches!(e, Json::Other));
    (named && exports).then(|| dir.to_path_buf())
}

/// The package's `package.json`, when it has one that parses.
fn manifest(dir: &Path) -> Option<Json> {
    serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).ok()?).ok()
}

/// The file Node loads for `subpath` (`.` or `./x`) of the package in `dir` with `loader`.
pub(crate) fn entry(dir: &Path, subpath: &str, loader: Loader) -> Result<PathBuf, String> {
    let manifest = manifest(dir);
    if let Some(exports) = manifest.as_ref().and_then(|m| m.get("exports")).filter(|e| !matches!(e, Json::Other)) {
        return exported(dir, exports, subpath, loader);
    }
    let field = |name: &str| {
        manifest.as_ref().and_then(|m| m.get(name)).and_then(|value| match value {
            Json::String(value) => Some(value.as_str()),
            _ => None,
        })
    };
    let legacy = if subpath == "." {
        let sources = field("types").or_else(|| field("typings")).filter(|t| is_typescript(Path::new(t)));
        sources
            .and_then(|types| resolve_file(&dir.join(types), true))
            .or_else(|| field("main").and_then(|main| resolve_file(&dir.join(main), false)))
            .or_else(|| resolve_file(&dir.join("index"), false))
    } else {
        resolve_file(&dir.join(subpath), false)
    };
    legacy.filter(|p| p.is_file()).ok_or_else(|| match subpath {
        "." => format!("{} has no main file and no index.js or index.ts", dir.display()),
        _ => format!("no file {} in {}", subpath, dir.display()),
    })
}

/// `exports` resolved for `subpath`: a map of subpaths when its keys start with `.`, else the target of `.`.
fn exported(dir: &Path, exports: &Json, subpath: &str, loader: Loader) -> Result<PathBuf, String> {
    let not_exported = || format!("{} does not export '{subpath}' to `{}`", dir.display(), loader_name(loader));
    let subpaths = match exports {
        Json::Object(entries) if entries.first().is_some_and(|(k, _)| k.starts_with('.')) => Some(entries),
        _ => None,
    };
    let (target, star) = match subpaths {
        None if subpath == "." => (exports, None),
        None => return Err(not_exported()),
        Some(entries) => matched(entries, subpath).ok_or_else(not_exported)?,
    };
    let Resolved::Path(found) = resolve_target(dir, target, star.as_deref(), loader, false) else {
        return Err(not_exported());
    };
    let path = dir.join(found.trim_start_matches("./"));
    if path.is_file() {
        std::fs::canonicalize(&path).map_err(|e| format!("{}: {e}", path.display()))
    } else {
        Err(format!("{} exports '{subpath}' as {found}, which does not exist", dir.display()))
    }
}

fn loader_name(loader: Loader) -> &'static str {
    match loader {
        Loader::Require => "require",
        Loader::Import => "import",
        Loader::Types => "types",
    }
}

/// The entry of an `exports` subpath map or of `imports` that `key` selects, and what its `*` stands for: a
/// key without `*` equal to it, else the `*` pattern matching it with the longest prefix (then the longest
/// key), whose `*` stands for at least one character, as Node's `PATTERN_KEY_COMPARE` orders them.
fn matched<'a>(entries: &'a [(String, Json)], key: &str) -> Option<(&'a Json, Option<String>)> {
    if let Some((_, target)) = entries.iter().find(|(k, _)| k == key && !k.contains('*')) {
        return Some((target, None));
    }
    entries
        .iter()
        .filter_map(|(pattern, target)| {
            let (prefix, suffix) = pattern.split_once('*').filter(|(_, suffix)| !suffix.contains('*'))?;
            let middle = key.strip_prefix(prefix)?.strip_suffix(suffix).filter(|m| !m.is_empty())?;
            Some(((prefix.len(), pattern.len()), target, middle.to_string()))
        })
        .max_by_key(|(order, ..)| *order)
        .map(|(_, target, middle)| (target, Some(middle)))
}

/// A target of `exports` or (when `imports`) of `imports`, as Node's `PACKAGE_TARGET_RESOLVE`: a `./` path or,
/// in `imports`, a package specifier (its `*` replaced); the first fallback of an array that resolves; the
/// first condition of an object that matches and does not leave it unmatched. A `types` condition, for a
/// loader of code, matches when it names a TypeScript source that exists.
fn resolve_target(dir: &Path, target: &Json, star: Option<&str>, loader: Loader, imports: bool) -> Resolved {
    let starred = |text: &str| star.map_or_else(|| text.to_string(), |star| text.replace('*', star));
    match target {
        Json::String(path) if path.starts_with("./") => Resolved::Path(starred(path)),
        Json::String(specifier) if imports && is_package_target(specifier) => Resolved::Package(starred(specifier)),
        Json::Array(fallbacks) => {
            let mut last = Resolved::Excluded;
            for fallback in fallbacks {
                match resolve_target(dir, fallback, star, loader, imports) {
                    found @ (Resolved::Path(_) | Resolved::Package(_)) => return found,
                    other => last = other,
                }
            }
            last
        }
        Json::Object(conditions) => {
            for (condition, target) in conditions {
                let resolved = if condition == "types" && loader != Loader::Types {
                    match resolve_target(dir, target, star, loader, imports) {
                        Resolved::Path(path)
                            if is_typescript(Path::new(&path)) && dir.join(path.trim_start_matches("./")).is_file() =>
                        {
                            Resolved::Path(path)
                        }
                        _ => Resolved::Unmatched,
                    }
                } else if loader.conditions().contains(&condition.as_str()) {
                    resolve_target(dir, target, star, loader, imports)
                } else {
                    Resolved::Unmatched
                };
                if resolved != Resolved::Unmatched {
                    return resolved;
                }
            }
            Resolved::Unmatched
        }
        _ => Resolved::Excluded,
    }
}

/// Whether a target of `imports` names a package (or a built-in module) rather than a path: not relative,
/// not absolute, not a URL, and not another `#` import.
fn is_package_target(target: &str) -> bool {
    !(target.starts_with("../") || target.starts_with('/') || target.starts_with('#') || target.contains("://"))
}

/// Whether Node loads `path` as an ES module: `.mjs` or `.mts`, or `.js` or `.ts` under a `"type": "module"`
/// package.
pub(crate) fn is_es_module_file(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("mjs" | "mts") => true,
        Some("cjs" | "cts") => false,
        _ => package_type_is_module(path),
    }
}

/// The file a folder given to test stands for: the entry `require` loads when it is CommonJS, else the
/// entry `import` loads, else the ES module `require` names (as `main` often does in `"type": "module"`
/// packages). CommonJS first: its suites load the file exactly as the package's users do.
pub(crate) fn folder_entry(dir: &Path) -> Result<PathBuf, String> {
    let required = entry(dir, ".", Loader::Require);
    if let Ok(path) = &required
        && !is_es_module_file(path)
    {
        return Ok(path.clone());
    }
    match (entry(dir, ".", Loader::Import), required) {
        (Ok(path), _) | (Err(_), Ok(path)) => Ok(path),
        (Err(reason), Err(_)) => Err(reason),
    }
}

/// The file `base` names as `require` finds it, or as TypeScript does: itself, with `.js`, `.mjs`, `.cjs`,
/// `.json` or `.ts`, or the index of the folder it names; and a `.js`, `.mjs` or `.cjs` name also stands
/// for the `.ts`, `.mts` or `.cts` file it is compiled from (TypeScript's `NodeNext` convention:
/// `import './heap.js'` loads `heap.ts`). From `typescript` code the TypeScript files come first, as
/// TypeScript and `tsx` look for them; from JavaScript, the files Node would load.
pub(crate) fn resolve_file(base: &Path, typescript: bool) -> Option<PathBuf> {
    candidates(base, typescript).into_iter().find(|p| p.is_file()).and_then(|p| std::fs::canonicalize(p).ok())
}

/// The files [`resolve_file`] tries, in order.
pub(crate) fn candidates(base: &Path, typescript: bool) -> Vec<PathBuf> {
    let compiled_from = ["js", "mjs", "cjs"]
        .iter()
        .zip(["ts", "mts", "cts"])
        .find(|(js, _)| base.extension().is_some_and(|e| e == **js))
        .map(|(_, ts)| base.with_extension(ts));
    let javascript = [".js", ".mjs", ".cjs", ".json"].map(|e| with_suffix(base, e));
    let (typescript_index, javascript_index) =
        (base.join("index.ts"), ["index.js", "index.mjs", "index.json"].map(|i| base.join(i)));
    // A name ending in `.js` stands for its `.ts`, not for `heap.js.ts`.
    let with_ts = if compiled_from.is_some() { compiled_from } else { Some(with_suffix(base, ".ts")) };
    let mut all = Vec::new();
    if typescript {
        all.extend(with_ts);
        all.push(base.to_path_buf());
        all.extend(javascript);
        all.push(typescript_index);
        all.extend(javascript_index);
    } else {
        all.push(base.to_path_buf());
        all.extend(javascript);
        all.extend(with_ts);
        all.extend(javascript_index);
        all.push(typescript_index);
    }
    all
}

/// `path` with `suffix` added to its last component (`heap` and `.js`: `heap.js`).
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut text = path.as_os_str().to_owned();
    text.push(suffix);
    PathBuf::from(text)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A folder holding `files` (paths relative to it, and their text), for tests of what is found there.
    pub(in crate::analysis) fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    /// Whether `found` is the file `tail` (its last components).
    fn is(found: Result<PathBuf, String>, tail: &str) -> bool {
        let path = found.unwrap_or_else(|e| panic!("{e}"));
        path.ends_with(tail)
    }

    #[test]
    fn exports_conditions_are_matched_in_their_order() {
        let manifest = r#"{ "main": "./old.js", "exports": { ".": { "types": "./x.d.ts", "import": "./esm/index.mjs",
            "require": { "node": "./cjs/node.js", "default": "./cjs/index.js" } }, "./extra/*": "./lib/*.js",
            "./package.json": "./package.json", "./hidden/*": null } }"#;
        let dir = package(&[
            ("package.json", manifest),
            ("old.js", ""),
            ("esm/index.mjs", ""),
            ("cjs/node.js", ""),
            ("cjs/index.js", ""),
            ("lib/more.js", ""),
        ]);
        assert!(is(entry(dir.path(), ".", Loader::Require), "cjs/node.js"));
        assert!(is(entry(dir.path(), ".", Loader::Import), "esm/index.mjs"));
        assert!(is(entry(dir.path(), "./extra/more", Loader::Require), "lib/more.js"));
        assert!(entry(dir.path(), "./old.js", Loader::Require).is_err(), "exports hide what they do not list");
        assert!(entry(dir.path(), "./hidden/x", Loader::Require).is_err());
        assert!(is(folder_entry(dir.path()), "cjs/node.js"));
    }

    #[test]
    fn a_package_names_itself_only_by_its_name_and_through_its_exports() {
        let dir = package(&[
            ("package.json", r#"{ "name": "@s/lamp", "exports": { "./levels": "./levels.js" } }"#),
            ("levels.js", ""),
            ("src/deep/file.js", ""),
            ("bare/package.json", r#"{ "name": "bare", "main": "index.js" }"#),
        ]);
        assert_eq!(own(&dir.path().join("src/deep"), "@s/lamp"), Some(dir.path().to_path_buf()));
        assert_eq!(own(&dir.path().join("src/deep"), "@s/other"), None);
        assert_eq!(own(&dir.path().join("bare"), "bare"), None, "without exports a package cannot name itself");
    }

    /// A package whose `imports` map `#` specifiers, and a file deep in it that imports them.
    fn importing() -> tempfile::TempDir {
        let manifest = r##"{ "imports": {
            "#config": "./config.js",
            "#internal/*": { "browser": "./browser/*", "node": { "import": "./esm/*", "require": "./cjs/*" } },
            "#internal/deep/*": "./deep/*",
            "#internal/hidden/*": null,
            "#fallback": ["../outside.js", "./fallback.js"],
            "#dep": "lodash/fp",
            "#typed": { "types": "./typed.d.ts", "default": "./typed.js" },
            "#pattern*": "./*"
        } }"##;
        package(&[("package.json", manifest), ("src/deep/file.js", "")])
    }

    fn import(dir: &tempfile::TempDir, specifier: &str, loader: Loader) -> Result<Imported, String> {
        imported(&dir.path().join("src/deep"), specifier, loader)
    }

    fn file(dir: &tempfile::TempDir, relative: &str) -> Result<Imported, String> {
        Ok(Imported::File(dir.path().join(relative)))
    }

    #[test]
    fn subpath_imports_map_exact_keys_and_patterns_from_the_nearest_package() {
        let dir = importing();
        assert_eq!(import(&dir, "#config", Loader::Import), file(&dir, "config.js"));
        assert_eq!(import(&dir, "#internal/x.js", Loader::Import), file(&dir, "esm/x.js"));
        assert_eq!(import(&dir, "#internal/deep/y.js", Loader::Import), file(&dir, "deep/y.js"), "longest prefix");
        assert_eq!(import(&dir, "#patternless", Loader::Import), file(&dir, "less"));
        assert!(import(&dir, "#pattern", Loader::Import).is_err(), "a `*` stands for one character or more");
        let nested = package(&[("package.json", r##"{ "imports": { "#a": "./inner.js" } }"##), ("b/c.js", "")]);
        let outer = package(&[("package.json", r##"{ "imports": { "#a": "./a.js" } }"##)]);
        assert!(
            imported(&nested.path().join("b"), "#a", Loader::Require)
                .is_ok_and(|i| i == Imported::File(nested.path().join("inner.js")))
        );
        assert!(imported(outer.path(), "#b", Loader::Require).is_err());
    }

    #[test]
    fn subpath_imports_match_conditions_in_order_and_nested() {
        let dir = importing();
        assert_eq!(import(&dir, "#internal/x.js", Loader::Require), file(&dir, "cjs/x.js"));
        assert_eq!(import(&dir, "#fallback", Loader::Require), file(&dir, "fallback.js"), "`../` is refused");
        assert_eq!(import(&dir, "#typed", Loader::Import), file(&dir, "typed.js"), "declarations are no code");
        assert_eq!(import(&dir, "#typed", Loader::Types), file(&dir, "typed.d.ts"));
        assert_eq!(
            import(&dir, "#dep", Loader::Import),
            Ok(Imported::Package { specifier: "lodash/fp".into(), dir: dir.path().to_path_buf() })
        );
    }

    #[test]
    fn subpath_imports_refuse_null_targets_and_what_they_do_not_map() {
        let dir = importing();
        let hidden = import(&dir, "#internal/hidden/x.js", Loader::Import).unwrap_err();
        assert!(hidden.contains("does not map '#internal/hidden/x.js'") && hidden.contains("package.json"), "{hidden}");
        let unmapped = import(&dir, "#nothing", Loader::Import).unwrap_err();
        assert!(unmapped.contains("does not map '#nothing' in its `imports` to `import`"), "{unmapped}");
        assert!(import(&dir, "#/x", Loader::Import).unwrap_err().contains("needs a name after '#'"));
        let without = package(&[("package.json", "{}")]);
        assert!(imported(without.path(), "#a", Loader::Import).unwrap_err().contains("has no `imports` field"));
        let conditions =
            package(&[("package.json", r##"{ "imports": { "#a": { "node": null, "default": "./a.js" } } }"##)]);
        assert!(imported(conditions.path(), "#a", Loader::Import).is_err(), "null under a matching condition excludes");
    }

    #[test]
    fn main_then_index_without_exports() {
        let dir = package(&[("package.json", r#"{ "main": "lib/tree" }"#), ("lib/tree.js", ""), ("index.js", "")]);
        assert!(is(entry(dir.path(), ".", Loader::Require), "lib/tree.js"));
        let bare = package(&[("index.js", "")]);
        assert!(is(folder_entry(bare.path()), "index.js"));
        let none = package(&[("package.json", "{}"), ("lib.js", "")]);
        assert!(folder_entry(none.path()).unwrap_err().contains("no main file and no index.js"));
    }

    #[test]
    fn an_es_module_package_is_loaded_through_import() {
        let dir = package(&[
            ("package.json", r#"{ "type": "module", "exports": { "import": "./index.js", "default": "./index.js" } }"#),
            ("index.js", ""),
        ]);
        assert!(is(folder_entry(dir.path()), "index.js"));
        let sugar = package(&[("package.json", r#"{ "exports": "./main.cjs" }"#), ("main.cjs", "")]);
        assert!(is(folder_entry(sugar.path()), "main.cjs"));
    }

    #[test]
    fn typescript_sources_named_as_types_are_loaded() {
        let conditions = package(&[
            ("package.json", r#"{ "exports": { ".": { "types": "./src/index.ts", "require": "./dist/index.js" } } }"#),
            ("src/index.ts", ""),
        ]);
        assert!(is(folder_entry(conditions.path()), "src/index.ts"), "dist/ need not be built");
        let declarations = package(&[
            ("package.json", r#"{ "exports": { ".": { "types": "./index.d.ts", "default": "./index.js" } } }"#),
            ("index.d.ts", ""),
            ("index.js", ""),
        ]);
        assert!(is(folder_entry(declarations.path()), "index.js"), "declarations are no code");
        let field =
            package(&[("package.json", r#"{ "types": "lib/main.ts", "main": "dist/main.js" }"#), ("lib/main.ts", "")]);
        assert!(is(folder_entry(field.path()), "lib/main.ts"));
        let main = package(&[("package.json", r#"{ "main": "src/index.ts" }"#), ("src/index.ts", "")]);
        assert!(is(folder_entry(main.path()), "src/index.ts"));
        let index = package(&[("index.ts", "")]);
        assert!(is(folder_entry(index.path()), "index.ts"));
    }

    #[test]
    fn typescript_names_its_files_first() {
        let dir = package(&[("heap.ts", ""), ("heap.js", ""), ("only.ts", ""), ("q.mts", ""), ("units/index.ts", "")]);
        let at = |name: &str| dir.path().join(name);
        assert!(resolve_file(&at("heap.js"), true).unwrap().ends_with("heap.ts"), "NodeNext: heap.js is heap.ts");
        assert!(resolve_file(&at("heap.js"), false).unwrap().ends_with("heap.js"), "from JavaScript, Node's file");
        assert!(resolve_file(&at("heap"), true).unwrap().ends_with("heap.ts"));
        assert!(resolve_file(&at("heap"), false).unwrap().ends_with("heap.js"));
        assert!(resolve_file(&at("only.js"), false).unwrap().ends_with("only.ts"));
        assert!(resolve_file(&at("q.mjs"), true).unwrap().ends_with("q.mts"));
        assert!(resolve_file(&at("units"), true).unwrap().ends_with("units/index.ts"));
        assert!(resolve_file(&at("q"), true).is_none(), "an extensionless name does not find .mts, as in TypeScript");
    }
}
