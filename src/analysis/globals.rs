//! Globals that code reads while it loads and that nothing defines: most often a build-time constant
//! (`__DEV__`, `__VERSION__`) that the package's bundler replaces with a value when it builds, which its
//! TypeScript sources `declare` without defining. Node cannot load such sources either; the package's
//! built file is what runs. This says so when loading fails on one ([`undefined_global`]).

use std::path::{Path, PathBuf};

use crate::analysis::package::{self, Loader};

/// What to say after `message`, the error a load of `file` (absolute) failed with, when it is a
/// `ReferenceError` for a global that a declaration file beside the code declares: what the name is,
/// and which file to give instead. Other undefined globals may be ones Node has and the sandbox lacks:
/// nothing is said of them.
pub(crate) fn undefined_global(file: &Path, message: &str) -> Option<String> {
    let name = message.strip_prefix("ReferenceError: ")?.split_once(" is not defined")?.0;
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
        return None;
    }
    let root = file.ancestors().skip(1).find(|dir| dir.join("package.json").is_file());
    let (declared, line) = declaration(file, root, name)?;
    let built = root.and_then(|root| built_entry(root, file).map(|(built, field)| (shown(&built, Some(root)), field)));
    let instead = match built {
        Some((built, field)) => format!("give Flycatcher the package's built file, {built} (its `{field}`)"),
        None => "give Flycatcher the file the package's build makes of them".to_string(),
    };
    Some(format!(
        "`{name}` is a build-time global: declared in {}:{line} and defined by no code, it is replaced by the \
         package's bundler when it builds. Node cannot load these sources as they are either: {instead}",
        shown(&declared, root)
    ))
}

/// `path` relative to the package's folder (`root`) when it is inside it.
fn shown(path: &Path, root: Option<&Path>) -> String {
    root.and_then(|root| path.strip_prefix(root).ok()).unwrap_or(path).display().to_string()
}

/// The declaration file and line declaring `name` as a global (`declare const name`, `declare var`,
/// `declare let`): looked for in the `.d.ts` files of the folders from `file`'s up to the package's.
fn declaration(file: &Path, root: Option<&Path>, name: &str) -> Option<(PathBuf, usize)> {
    let folders = file.ancestors().skip(1).take_while(|dir| root.is_none_or(|root| dir.starts_with(root)));
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        let mut declarations: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".d.ts") && p.is_file())
            .collect();
        declarations.sort();
        for path in declarations {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let line = text.lines().position(|line| {
                let words: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == ':' || c == ';').collect();
                words.windows(3).any(|w| w[0] == "declare" && ["const", "var", "let"].contains(&w[1]) && w[2] == name)
            });
            if let Some(line) = line {
                return Some((path, line + 1));
            }
        }
    }
    None
}

/// The entry Node loads for the package in `root` and the field naming it (`exports` or `main`), when
/// it is not `file` itself nor TypeScript: the built file.
fn built_entry(root: &Path, file: &Path) -> Option<(PathBuf, &'static str)> {
    let built = package::folder_entry(root).ok()?;
    let typescript = built.extension().is_some_and(|e| e == "ts" || e == "mts" || e == "cts");
    if typescript || std::fs::canonicalize(&built).ok()? == std::fs::canonicalize(file).ok()? {
        return None;
    }
    let exports = package::entry(root, ".", Loader::Require).is_ok_and(|_| has_exports(root));
    Some((built, if exports { "exports" } else { "main" }))
}

fn has_exports(root: &Path) -> bool {
    std::fs::read_to_string(root.join("package.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .is_some_and(|json| json.get("exports").is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_build_time_global_names_its_declaration_and_the_built_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("dist")).unwrap();
        std::fs::write(root.join("package.json"), r#"{"name":"p","main":"dist/index.js"}"#).unwrap();
        std::fs::write(root.join("dist/index.js"), "module.exports = {};\n").unwrap();
        std::fs::write(root.join("src/globals.d.ts"), "// Set by the build.\ndeclare const __DEV__: boolean\n")
            .unwrap();
        let entry = root.join("src/index.ts");
        std::fs::write(&entry, "if (__DEV__) {}\n").unwrap();
        let said =
            undefined_global(&entry, "ReferenceError: __DEV__ is not defined (at <anonymous> (src/index.ts:1:5))");
        assert_eq!(
            said.as_deref(),
            Some(
                "`__DEV__` is a build-time global: declared in src/globals.d.ts:2 and defined by no code, it is \
                 replaced by the package's bundler when it builds. Node cannot load these sources as they are \
                 either: give Flycatcher the package's built file, dist/index.js (its `main`)"
            )
        );
        // Not declared: perhaps a global Node has and the sandbox lacks.
        assert_eq!(undefined_global(&entry, "ReferenceError: __VERSION__ is not defined"), None);
        assert_eq!(undefined_global(&entry, "TypeError: x is not a function"), None);
        assert_eq!(undefined_global(&entry, "ReferenceError: cannot access 'x' before initialization"), None);
    }
}
