//! Every TypeScript fixture × every runner of TypeScript suites (issue 38): the fixtures of
//! `tests/fixtures/typescript/` (one per construct TypeScript has beyond JavaScript, and the ways imports
//! resolve) load, generate a suite, and the suite passes under `node --test` through tsx, vitest and jest
//! through `@swc/jest`. To stay affordable, each format is generated once for all the fixtures and each
//! runner runs all their suites at once (tsx once per `tsconfig.json` the fixtures need, since it reads
//! the one of the folder it runs in).
//!
//! Each runner runs as the suites' headers say a TypeScript project configures it: jest with the
//! configuration a jest suite's header gives (derived from the project's `tsconfig.json`: its
//! decorators, its `paths`), vitest with `resolve.tsconfigPaths` where a vitest suite's header asks for it.
//! Where a runner cannot run a fixture's code however it is configured, the fixture is left out of that
//! runner, with the reason (`NOT_UNDER`): these are limits of the runners' transforms, not of the suites.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fixture, generate, runners_with, text};

/// A fixture: the file (or package folder) given to `generate`, the classes it holds, and the folder
/// whose `tsconfig.json` its code needs (tsx reads the one of the folder it runs in).
struct Fixture {
    entry: &'static str,
    classes: &'static [&'static str],
    project: Option<&'static str>,
}

const FIXTURES: &[Fixture] = &[
    Fixture { entry: "abstract.ts", classes: &["Shape", "Rectangle"], project: None },
    Fixture { entry: "accessor.ts", classes: &["Thermostat"], project: None },
    Fixture { entry: "commonjs.cts", classes: &["Counter"], project: None },
    Fixture { entry: "declare.ts", classes: &["Inventory"], project: None },
    Fixture { entry: "decorators-2022.ts", classes: &["Dimmer"], project: None },
    Fixture { entry: "decorators-legacy/service.ts", classes: &["CacheService"], project: Some("decorators-legacy") },
    Fixture { entry: "decorators-legacy/ledger.ts", classes: &["Ledger"], project: Some("decorators-legacy") },
    Fixture { entry: "enums.ts", classes: &["Gauge"], project: None },
    Fixture { entry: "export-assignment.ts", classes: &["Formatter"], project: None },
    Fixture { entry: "expressions.ts", classes: &["Queue"], project: None },
    Fixture { entry: "import-require.ts", classes: &["Extensions"], project: None },
    Fixture { entry: "module.mts", classes: &["Stack"], project: None },
    Fixture { entry: "namespace.ts", classes: &["Vector", "Path"], project: None },
    Fixture { entry: "overloads.ts", classes: &["Parser"], project: None },
    Fixture { entry: "parameter-properties.ts", classes: &["Account"], project: None },
    Fixture { entry: "positions.ts", classes: &["Checker"], project: None },
    Fixture { entry: "strict.ts", classes: &["Seal"], project: None },
    Fixture { entry: "type-imports/walker.ts", classes: &["Walker"], project: None },
    Fixture { entry: "type-reexports/ruler.ts", classes: &["Ruler"], project: None },
    Fixture { entry: "module-type-reexports/index.ts", classes: &["Shelf"], project: None },
    Fixture { entry: "resolution/extensionless/queue.ts", classes: &["PriorityQueue"], project: None },
    Fixture { entry: "resolution/nodenext/slider.ts", classes: &["Slider"], project: None },
    Fixture { entry: "resolution/index/converter.ts", classes: &["Converter"], project: None },
    Fixture { entry: "resolution/paths/src/till.ts", classes: &["Till"], project: Some("resolution/paths") },
    Fixture { entry: "resolution/package", classes: &["Tally"], project: None },
    Fixture { entry: "resolution/main", classes: &["Toggle"], project: None },
    Fixture { entry: "resolution/self", classes: &["Lamp"], project: None },
];

/// (format, fixture, why its runner cannot run the fixture's code, however configured).
const NOT_UNDER: &[(&str, &str, &str)] = &[
    ("vitest", "commonjs.cts", "Vite transforms .ts and .mts files only: a .cts file is parsed as JavaScript"),
    ("vitest", "decorators-2022.ts", "Vite's transform (oxc) lowers legacy decorators only; Node parses no other"),
    (
        "vitest",
        "accessor.ts",
        "Vite's transform (oxc) lowers `accessor` fields only with legacy decorators on, which this code is not",
    ),
    (
        "jest",
        "decorators-legacy/service.ts",
        "swc's legacy decorator transform leaves `accessor` fields (TypeScript lowers them), which Node does not parse",
    ),
];

/// The header line of a jest suite that gives its configuration.
const JEST_CONFIG_LINE: &str = "// Run with this jest configuration (needs @swc/core and @swc/jest): ";
/// The header line of a vitest suite whose code imports through `paths`.
const VITEST_PATHS_LINE: &str = "`resolve: { tsconfigPaths: true }`";

const RUN: &[&str] = &["--seed", "1", "--budget", "120000", "--timeout", "600"];

fn runners() -> PathBuf {
    runners_with(&[".bin/tsx", ".bin/jest", ".bin/vitest", "@swc/jest"])
}

/// Generates the suites of every fixture in `format` into `out`, and returns the regression suite of each
/// fixture's classes, by fixture.
fn suites(format: &str, out: &Path) -> Vec<(&'static Fixture, Vec<PathBuf>)> {
    let entries: Vec<PathBuf> = FIXTURES.iter().map(|f| fixture("typescript").join(f.entry)).collect();
    let mut args = RUN.to_vec();
    args.extend(["--format", format]);
    let report = generate(&entries, out, &args);
    FIXTURES
        .iter()
        .map(|f| {
            let files: Vec<PathBuf> = f
                .classes
                .iter()
                .map(|class| out.join(format!("{class}.test.ts")))
                .filter(|suite| suite.is_file())
                .collect();
            assert!(!files.is_empty(), "{format}: no suite for {} ({:?}): {report}", f.entry, f.classes);
            (f, files)
        })
        .collect()
}

/// The jest configuration `suite`'s header gives.
fn jest_config(suite: &Path) -> String {
    let text = std::fs::read_to_string(suite).unwrap();
    let line = text.lines().find_map(|l| l.strip_prefix(JEST_CONFIG_LINE));
    line.unwrap_or_else(|| panic!("{}: no jest configuration in its header", suite.display())).to_string()
}

/// Runs `suites` under `format`'s runner from `cwd` (with `tsconfig` for tsx, `config` for jest and
/// vitest); panics unless all pass.
fn run(format: &str, suites: &[PathBuf], cwd: &Path, tsconfig: Option<PathBuf>, config: Option<&str>) {
    let bin = |name: &str| runners().join(".bin").join(name);
    let mut command = match format {
        "node-test" => {
            let mut c = Command::new("node");
            c.args(["--import", "tsx", "--test"]);
            if let Some(tsconfig) = tsconfig {
                c.env("TSX_TSCONFIG_PATH", tsconfig);
            }
            c
        }
        "jest" => {
            let mut c = Command::new(bin("jest"));
            c.args(["--ci", "--config", config.expect("a jest configuration")]);
            c
        }
        _ => {
            let mut c = Command::new(bin("vitest"));
            c.args(["run", "--root", "."]);
            if let Some(config) = config {
                c.args(["--config", config]);
            }
            c
        }
    };
    let output = command.args(suites).current_dir(cwd).env("NO_COLOR", "1").output().unwrap();
    let said = text(&output);
    let names: Vec<String> = suites.iter().map(|s| s.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert!(output.status.success(), "{format} failed on {names:?}:\n{said}");
    let passed = match format {
        "node-test" => said.contains("# fail 0") && !said.contains("# pass 0\n"),
        _ => said.contains(" passed") && !said.contains(" failed"),
    };
    assert!(passed, "{format} on {names:?}: no test passed, or some failed:\n{said}");
}

// A test per runner: each is long (a generation of every fixture), and tests run side by side.
#[test]
fn every_fixture_passes_under_node_test() {
    every_fixture_passes_under("node-test");
}

#[test]
fn every_fixture_passes_under_vitest() {
    every_fixture_passes_under("vitest");
}

#[test]
fn every_fixture_passes_under_jest() {
    every_fixture_passes_under("jest");
}

/// Generates every fixture's suite in `format` and runs them under its runner, as its suites' headers say.
fn every_fixture_passes_under(format: &str) {
    let project = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(runners(), project.path().join("node_modules")).unwrap();
    let out = project.path().join("out");
    let by_fixture = suites(format, &out);
    let runs = by_fixture.iter().filter(|(f, _)| !NOT_UNDER.iter().any(|(n, e, _)| *n == format && *e == f.entry));
    if format == "node-test" {
        // tsx reads one tsconfig.json: the fixtures that need theirs run apart.
        let mut projects: Vec<Option<&str>> = FIXTURES.iter().map(|f| f.project).collect();
        projects.sort();
        projects.dedup();
        for project in projects {
            let group: Vec<PathBuf> =
                runs.clone().filter(|(f, _)| f.project == project).flat_map(|(_, s)| s.clone()).collect();
            let tsconfig = project.map(|p| fixture("typescript").join(p).join("tsconfig.json"));
            run(format, &group, &out, tsconfig, None);
        }
    } else if format == "jest" {
        // Suites of projects configured alike run together.
        let mut by_config: Vec<(String, Vec<PathBuf>)> = Vec::new();
        for suite in runs.flat_map(|(_, s)| s.clone()) {
            let config = jest_config(&suite);
            match by_config.iter_mut().find(|(c, _)| *c == config) {
                Some((_, group)) => group.push(suite),
                None => by_config.push((config, vec![suite])),
            }
        }
        assert!(by_config.len() >= 3, "legacy decorators, paths and neither: {:?}", by_config.iter().map(|(c, _)| c));
        for (config, group) in &by_config {
            run(format, group, &out, None, Some(config));
        }
    } else {
        let all: Vec<PathBuf> = runs.flat_map(|(_, s)| s.clone()).collect();
        let paths = all.iter().any(|s| std::fs::read_to_string(s).unwrap().contains(VITEST_PATHS_LINE));
        assert!(paths, "no vitest suite's header asks for tsconfig paths");
        let config = out.join("vitest.config.mjs");
        std::fs::write(&config, "export default { resolve: { tsconfigPaths: true } };\n").unwrap();
        run(format, &all, &out, None, Some(config.to_str().unwrap()));
    }
}
