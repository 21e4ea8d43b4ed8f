//! The architecture, checked: every top-level module of the library sits on a layer and uses only
//! modules of lower layers, so there is no import circle and the bottom (the JavaScript protocol, the
//! model, the syntax-tree analyses, instrumentation, the sandbox) can be read and tested without what is
//! built on it. Unit tests (`#[cfg(test)]` and `tests.rs` files) may use anything: some build a whole
//! session to get a loaded program.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may use modules of strictly lower layers only; modules on one
/// layer do not use each other.
const LAYERS: &[&[&str]] = &[
    &["js"],
    &["error"],
    &["model"],
    &["analysis", "export"],
    &["instrument"],
    &["sandbox"],
    &["discovery"],
    &["inference"],
    &["generate"],
    &["suite"],
    &["session"],
    &["mutate", "record"],
    &["app"],
    &["tui"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The library's source files, with the top-level module each belongs to.
fn sources() -> Vec<(String, PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(&src).unwrap();
                let first = relative.components().next().unwrap().as_os_str().to_string_lossy();
                let module = first.trim_end_matches(".rs").to_string();
                files.push((module, path));
            }
        }
    }
    files.sort();
    files
}

/// The top-level modules `code` names through `crate::`, outside comments and test modules.
fn uses(code: &str) -> BTreeSet<String> {
    let production = code.split("#[cfg(test)]").next().unwrap_or_default();
    let mut used = BTreeSet::new();
    for line in production.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `use crate::{a::X, b};`: every item of the group names a module.
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    let module: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    used.insert(module);
                }
            } else {
                used.insert(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
            }
        }
    }
    used.retain(|m| !m.is_empty());
    used
}

#[test]
fn every_module_uses_only_lower_layers() {
    let mut against = BTreeMap::new();
    for (module, path) in sources() {
        if matches!(module.as_str(), "lib" | "main" | "cli" | "flows")
            || path.file_name().is_some_and(|n| n == "tests.rs")
        {
            continue;
        }
        let layer = layer_of(&module).unwrap_or_else(|| panic!("{}: module `{module}` is on no layer", path.display()));
        for used in uses(&std::fs::read_to_string(&path).unwrap()) {
            if used == module {
                continue;
            }
            let used_layer =
                layer_of(&used).unwrap_or_else(|| panic!("{}: uses unknown module `{used}`", path.display()));
            if used_layer >= layer {
                against.entry(path.display().to_string()).or_insert_with(Vec::new).push(used);
            }
        }
    }
    assert!(against.is_empty(), "uses of a module on the same or a higher layer: {against:#?}");
}

#[test]
fn the_check_sees_grouped_and_inline_uses_but_not_comments_or_tests() {
    let code =
        "use crate::{model::X, js};\n// crate::tui\nfn f() { crate::session::g(); }\n#[cfg(test)]\nuse crate::app;\n";
    let expected: BTreeSet<String> = ["js", "model", "session"].into_iter().map(String::from).collect();
    assert_eq!(uses(code), expected);
}

#[test]
fn every_top_level_module_is_on_a_layer() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for line in lib.lines().filter_map(|l| l.strip_prefix("pub mod ")) {
        let module = line.trim_end_matches(';');
        assert!(layer_of(module).is_some(), "lib.rs declares `{module}`, which LAYERS does not place");
    }
}

/// Lines of a production file at most: past that, one reader no longer holds it (split it by concept).
const MOST_LINES: usize = 800;
/// Lines of `main.rs` at most: it parses arguments and wires them to the library, nothing more.
const MOST_MAIN_LINES: usize = 250;

/// Unit tests (a `tests.rs` file or a `tests/` folder inside `src/`) are not production files.
fn is_unit_test(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "tests.rs") || path.components().any(|c| c.as_os_str() == "tests")
}

#[test]
fn every_production_file_is_one_a_reader_holds() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut long = Vec::new();
    for (_, path) in sources() {
        let relative = path.strip_prefix(&src).unwrap();
        if is_unit_test(relative) {
            continue;
        }
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        let most = if relative == Path::new("main.rs") { MOST_MAIN_LINES } else { MOST_LINES };
        if lines > most {
            long.push(format!("{}: {lines} lines (at most {most})", relative.display()));
        }
    }
    assert!(long.is_empty(), "files past what one reader holds: {long:#?}");
}

/// The one folder where unsafe code is allowed: QuickJS's C interface behind a safe API.
const SEALED: &str = "sandbox/qjs";

#[test]
fn unsafe_code_is_allowed_in_one_sealed_folder_that_depends_on_nothing_of_ours() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(lib.contains("#![deny(unsafe_code)]"), "lib.rs must deny unsafe code");
    assert!(
        lib.contains("#![deny(clippy::undocumented_unsafe_blocks)]"),
        "lib.rs must deny undocumented unsafe blocks"
    );
    for (_, path) in sources() {
        let relative = path.strip_prefix(&src).unwrap();
        let code = std::fs::read_to_string(&path).unwrap();
        let sealed = relative.starts_with(SEALED);
        if !sealed {
            assert!(
                !code.contains("allow(unsafe_code)"),
                "{}: only {SEALED} may allow unsafe code",
                relative.display()
            );
            assert!(
                !code.contains("rquickjs::qjs"),
                "{}: QuickJS's C interface is reached only in {SEALED}",
                relative.display()
            );
        } else {
            let production = code.split("#[cfg(test)]").next().unwrap_or_default();
            assert!(
                !production.contains("crate::"),
                "{}: the sealed folder uses nothing of the crate",
                relative.display()
            );
        }
    }
}
