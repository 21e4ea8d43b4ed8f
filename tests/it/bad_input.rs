//! Bad input gets one clear line on stderr and exit code 2, never a panic or a hang.

use crate::common;

use std::path::Path;

use common::*;

fn fails_with(args: &[&str], expected: &[&str]) {
    let output = flycatcher(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    for part in expected {
        assert!(stderr.contains(part), "stderr lacks '{part}': {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn missing_file() {
    fails_with(&["generate", "no/such/file.js"], &["no/such/file.js", "cannot read"]);
}

#[test]
fn unparsable_javascript_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "broken.js", "function A() {}\nA.prototype.m = function () {\n  return 1 +;\n};\n");
    fails_with(&["generate", &file], &["broken.js:3:", "cannot parse"]);
}

#[test]
fn no_class_lists_what_was_found() {
    let dir = tempfile::tempdir().unwrap();
    // The function is the module's own, not exported: nothing to test.
    let file =
        write(dir.path(), "plain.cjs", "function add(a, b) { return a + b; }\nmodule.exports = { x: add(1, 2) };\n");
    fails_with(&["generate", &file], &["no class", "exports no function", "add"]);
}

#[test]
fn unknown_class_and_method_list_the_candidates() {
    let list = sample("linked-list.js").display().to_string();
    fails_with(&["generate", &list, "--class", "Lst"], &["unknown class 'Lst'", "LinkedList"]);
    fails_with(
        &["generate", &list, "--class", "LinkedList", "--method", "ad"],
        &["unknown method 'ad'", "LinkedList.add"],
    );
}

#[test]
fn invalid_regular_expressions() {
    let list = sample("linked-list.js").display().to_string();
    fails_with(&["generate", &list, "--string-gen", "(ab"], &["--string-gen"]);
    fails_with(&["generate", &list, "--number-gen", "a{2,1}"], &["--number-gen"]);
}

#[test]
fn code_that_throws_or_loops_while_loading() {
    let dir = tempfile::tempdir().unwrap();
    let throws = write(dir.path(), "throws.js", "function A() {}\nA.prototype.m = function () {};\nnull.boom;\n");
    fails_with(&["generate", &throws], &["throws.js", "failed while loading", "TypeError"]);
    let loops = write(dir.path(), "loops.js", "function A() {}\nA.prototype.m = function () {};\nwhile (true) {}\n");
    fails_with(&["generate", &loops], &["loops.js", "did not finish"]);
}

#[test]
fn a_missing_package_is_named_with_the_line_importing_it() {
    // Node's built-ins load (as host-free versions or stand-ins: tests/it/published.rs); a package that is
    // nowhere to be found is fatal, and said where it is imported.
    let dir = tempfile::tempdir().unwrap();
    let file =
        write(dir.path(), "user.mjs", "import x from 'no-such-package';\nexport class A { m() { return 1; } }\n");
    fails_with(&["generate", &file], &["user.mjs:1", "'no-such-package'", "not found", "npm install no-such-package"]);
    // The same `require`d by CommonJS fails when the `require` runs: said at its line, not in Flycatcher's
    // code (`at localRequire (<flycatcher setup>:511:11)` before).
    let file = write(
        dir.path(),
        "user.js",
        "class A { m() { return 1; } }\n\nconst x = require('no-such-package');\nmodule.exports = A;\n",
    );
    fails_with(&["generate", &file], &["user.js:3:", "'no-such-package'", "not found", "npm install no-such-package"]);
}

#[test]
fn load_errors_point_at_the_users_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "late.js",
        "function A() {}\nA.prototype.m = function () { return 1; };\n\n\nvar x = null;\nx.boom;\n",
    );
    fails_with(&["generate", &file], &["late.js:6:", "TypeError"]);
}

#[test]
fn a_build_time_global_says_what_it_is_and_which_file_to_give() {
    // The sources read `__DEV__`, which a .d.ts declares and the package's bundler defines: Node cannot
    // load them either, and the package's built file is named.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::create_dir_all(dir.path().join("dist")).unwrap();
    write(dir.path(), "package.json", r#"{ "name": "store", "main": "dist/store.js" }"#);
    write(dir.path(), "dist/store.js", "exports.Store = class Store {};\n");
    write(dir.path(), "src/env.d.ts", "declare const __DEV__: boolean;\n");
    let entry = write(dir.path(), "src/store.ts", "const checks = __DEV__;\nexport class Store {}\n");
    fails_with(
        &["generate", &entry],
        &[
            "src/store.ts:1:",
            "ReferenceError: __DEV__ is not defined",
            "`__DEV__` is a build-time global: declared in src/env.d.ts:1",
            "give Flycatcher the package's built file, dist/store.js (its `main`)",
        ],
    );
}

#[test]
fn unknown_strategy() {
    let list = sample("linked-list.js").display().to_string();
    let output = flycatcher(&["generate", &list, "--strategy", "clever"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("random, guided, exhaustive, combined, search or search-cov"),
        "{}",
        text(&output)
    );
}
