//! The real runners, as a user runs them: where they are installed, the command that runs a suite's files
//! (under c8 or not), and what each test did, read from the runner's machine-readable output (TAP for
//! `node --test`, JSON for jest, vitest and mocha).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as Json;

use crate::error::{Error, Result};
use crate::export::Format;

/// Per-test time limit given to `node --test`, which has none by default (the other runners have one).
const NODE_TEST_TIMEOUT_MS: u32 = 20_000;

/// What one test did in one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Its name: the titles of its groups and its own, as the runner gives them.
    pub(crate) name: String,
    /// Whether it passed.
    pub(crate) passed: bool,
    /// Why it failed: the error's first lines.
    pub(crate) reason: Option<String>,
}

/// The programs a verification runs, found in a `node_modules` folder.
#[derive(Debug, Clone)]
pub(crate) struct Tools {
    /// The `node_modules` folder they come from.
    pub(crate) node_modules: PathBuf,
}

impl Tools {
    /// The `node_modules` folder that has c8 and what suites of `format` need (in TypeScript when
    /// `typescript`): `given`, or the nearest one above any of `from` (the suite's folder, then the code's).
    pub(crate) fn find(given: Option<&Path>, from: &[&Path], format: Format, typescript: bool) -> Result<Tools> {
        let needed = needed(format, typescript);
        let has = |modules: &Path| needed.iter().all(|(_, path)| modules.join(path).exists());
        let packages = needed.iter().map(|(package, _)| *package).collect::<Vec<_>>().join(" ");
        if let Some(given) = given {
            // Runners run from the suite's folder: the path must not be relative to ours.
            let given = &given.canonicalize().unwrap_or_else(|_| given.to_path_buf());
            if has(given) {
                return Ok(Tools { node_modules: given.to_path_buf() });
            }
            let missing: Vec<&str> =
                needed.iter().filter(|(_, path)| !given.join(path).exists()).map(|(package, _)| *package).collect();
            return Err(Error::Usage(format!(
                "--node-modules {}: {} missing (npm install --save-dev {packages})",
                given.display(),
                missing.join(", ")
            )));
        }
        for start in from {
            let absolute = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
            for dir in absolute.ancestors() {
                let modules = dir.join("node_modules");
                if has(&modules) {
                    return Ok(Tools { node_modules: modules });
                }
            }
        }
        Err(Error::Usage(format!(
            "no node_modules with {packages} above the suite or the code it tests: install them (npm install \
             --save-dev {packages}) or give --node-modules DIR"
        )))
    }

    pub(crate) fn bin(&self, name: &str) -> PathBuf {
        self.node_modules.join(".bin").join(name)
    }

    /// The command that runs `files` (in `dir`, TypeScript when `typescript`) with the runner of `format`,
    /// writing its report to `report`; under c8, writing coverage reports (`reporters`) into `coverage`, when
    /// given. c8 reads the source maps of TypeScript compiled on the fly, so it names `.ts` lines. TypeScript
    /// jest suites run with `jest_config`, the configuration their headers give.
    #[allow(clippy::too_many_arguments)] // what a run is made of, each decided by its caller
    pub(crate) fn command(
        &self,
        format: Format,
        typescript: bool,
        jest_config: Option<&str>,
        dir: &Path,
        files: &[String],
        report: &Path,
        coverage: Option<(&Path, &[&str])>,
    ) -> Result<Command> {
        supported(format)?;
        let mut words: Vec<String> = Vec::new();
        match format {
            Format::NodeTest => {
                // tsx's command is node with its loader (what `node --import tsx` does).
                let node = if typescript { self.bin("tsx").display().to_string() } else { "node".into() };
                words.extend([node, "--test".into(), "--test-reporter=tap".into()]);
                words.push(format!("--test-timeout={NODE_TEST_TIMEOUT_MS}"));
            }
            Format::Jest => {
                words.push(self.bin("jest").display().to_string());
                // TypeScript suites say their configuration in their header; its transform is found here.
                let config = match jest_config {
                    Some(config) => {
                        let swc = self.node_modules.join("@swc/jest").display().to_string();
                        config.replace("\"@swc/jest\"", &serde_json::to_string(&swc).unwrap_or_default())
                    }
                    None => "{}".to_string(),
                };
                words.extend(["--ci".into(), "--config".into(), config]);
                words.extend(["--json", "--runTestsByPath"].map(String::from));
                words.push(format!("--outputFile={}", report.display()));
            }
            Format::Vitest => {
                words.push(self.bin("vitest").display().to_string());
                // Under c8, forks are ended before they write their coverage; threads are not.
                words.extend(["run", "--root", ".", "--pool=threads", "--reporter=json"].map(String::from));
                words.push(format!("--outputFile={}", report.display()));
            }
            // Mocha: the last of the runners `supported` lets through.
            _ => {
                words.push(self.bin("mocha").display().to_string());
                words.extend(["--reporter", "json", "--reporter-option"].map(String::from));
                words.push(format!("output={}", report.display()));
            }
        }
        words.extend(files.iter().cloned());
        let mut command = match coverage {
            Some((reports, reporters)) => {
                let mut c = Command::new(self.bin("c8"));
                for reporter in reporters {
                    c.arg(format!("--reporter={reporter}"));
                }
                c.arg(format!("--reports-dir={}", reports.display()))
                    .arg(format!("--temp-directory={}", reports.join("raw").display()))
                    .arg("--allowExternal")
                    .arg("--");
                c.args(&words);
                c
            }
            None => {
                let mut c = Command::new(&words[0]);
                c.args(&words[1..]);
                c
            }
        };
        let mut options = std::env::var("NODE_OPTIONS").unwrap_or_default();
        if format == Format::Jest {
            // Jest loads ES modules only with this flag (harmless for CommonJS suites).
            options.push_str(" --experimental-vm-modules");
        }
        command
            .current_dir(dir)
            .env("NODE_PATH", &self.node_modules)
            .env("NODE_OPTIONS", options.trim())
            .env("NO_COLOR", "1")
            .env("FORCE_COLOR", "0");
        Ok(command)
    }
}

/// Whether `verify` can run suites of `format` (those of today's runners); an error says what to do.
pub(crate) fn supported(format: Format) -> Result<()> {
    match format {
        Format::NodeTest | Format::Jest | Format::Mocha | Format::Vitest => Ok(()),
        other => Err(Error::Usage(format!(
            "verify runs node-test, jest, mocha and vitest suites; this one is {other}: generate it again with \
             --format node-test (or jest, mocha, vitest)"
        ))),
    }
}

/// What suites of `format` (in TypeScript when `typescript`) need in `node_modules`: (package, path in
/// `node_modules`) pairs, c8 first.
fn needed(format: Format, typescript: bool) -> Vec<(&'static str, &'static str)> {
    let mut needed = vec![("c8", ".bin/c8")];
    match format {
        Format::Jest => needed.push(("jest", ".bin/jest")),
        Format::Vitest => needed.push(("vitest", ".bin/vitest")),
        Format::Mocha => needed.push(("mocha", ".bin/mocha")),
        _ => {}
    }
    if typescript {
        needed.extend([("typescript", ".bin/tsc"), ("@types/node", "@types/node")]);
        match format {
            Format::NodeTest => needed.push(("tsx", ".bin/tsx")),
            Format::Jest => needed.extend([("@swc/core", "@swc/core"), ("@swc/jest", "@swc/jest")]),
            _ => {}
        }
    }
    needed
}

/// What each test did, from the runner's report (`stdout` for `node --test`, the report file else).
pub(crate) fn outcomes(format: Format, stdout: &str, report: &Path) -> Result<Vec<Outcome>> {
    if format == Format::NodeTest {
        return Ok(tap(stdout));
    }
    let text = std::fs::read_to_string(report).map_err(|source| Error::Read { file: report.to_path_buf(), source })?;
    let json: Json = serde_json::from_str(&text)
        .map_err(|e| Error::Usage(format!("{}: the runner's report is not JSON ({e})", report.display())))?;
    Ok(if format == Format::Mocha { mocha(&json) } else { jest(&json) })
}

/// Jest's (and vitest's) `--json` report.
fn jest(json: &Json) -> Vec<Outcome> {
    let list = |v: &Json, key: &str| v.get(key).and_then(Json::as_array).cloned().unwrap_or_default();
    let text = |v: &Json| v.as_str().unwrap_or_default().to_string();
    let mut outcomes = Vec::new();
    for file in list(json, "testResults") {
        for test in list(&file, "assertionResults") {
            let status = test.get("status").map(text).unwrap_or_default();
            if status != "passed" && status != "failed" {
                continue;
            }
            let mut titles: Vec<String> = list(&test, "ancestorTitles").iter().map(text).collect();
            titles.push(test.get("title").map(text).unwrap_or_default());
            let failures: Vec<String> = list(&test, "failureMessages").iter().map(text).collect();
            outcomes.push(Outcome {
                name: titles.join(" > "),
                passed: status == "passed",
                reason: failures.first().map(|m| first_lines(m)),
            });
        }
    }
    outcomes
}

/// Mocha's `json` reporter.
fn mocha(json: &Json) -> Vec<Outcome> {
    let tests = json.get("tests").and_then(Json::as_array).cloned().unwrap_or_default();
    tests
        .iter()
        .filter(|t| t.get("pending").and_then(Json::as_bool) != Some(true))
        .map(|test| {
            let message = test.get("err").and_then(|e| e.get("message")).and_then(Json::as_str);
            Outcome {
                name: test.get("fullTitle").and_then(Json::as_str).unwrap_or_default().to_string(),
                passed: message.is_none(),
                reason: message.map(first_lines),
            }
        })
        .collect()
}

/// `node --test`'s TAP: `# Subtest: name` lines nest by indentation; a result without `type: 'suite'`
/// in its YAML block is a test's, whose `error:` says why it failed.
fn tap(stdout: &str) -> Vec<Outcome> {
    let lines: Vec<&str> = stdout.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut path: Vec<(usize, String)> = Vec::new();
    let mut outcomes = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let depth = indent(line);
        let trimmed = line.trim_start();
        if let Some(name) = trimmed.strip_prefix("# Subtest: ") {
            path.retain(|(d, _)| *d < depth);
            path.push((depth, name.to_string()));
            continue;
        }
        let passed = trimmed.starts_with("ok ");
        if !passed && !trimmed.starts_with("not ok ") {
            continue;
        }
        path.retain(|(d, _)| *d <= depth);
        let block: Vec<&str> =
            lines[index + 1..].iter().take_while(|l| l.trim().is_empty() || indent(l) > depth).copied().collect();
        if block.iter().any(|l| l.trim() == "type: 'suite'") || trimmed.contains("# SKIP") {
            continue;
        }
        let name = path.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>().join(" > ");
        outcomes.push(Outcome { name, passed, reason: (!passed).then(|| yaml_error(&block)) });
    }
    outcomes
}

/// The `name:` and `error:` of a TAP YAML block, as one line.
fn yaml_error(block: &[&str]) -> String {
    let field = |key: &str| block.iter().position(|l| l.trim_start().starts_with(key));
    let mut message = String::new();
    if let Some(at) = field("error:") {
        let value = block[at].trim_start()["error:".len()..].trim();
        if value.starts_with('|') {
            let depth = block[at].len() - block[at].trim_start().len();
            let more: Vec<&str> = block[at + 1..]
                .iter()
                .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > depth)
                .map(|l| l.trim())
                .collect();
            message = more.join("\n");
        } else {
            message = value.trim_matches('\'').to_string();
        }
    }
    let name = field("name:").map(|at| block[at].trim_start()["name:".len()..].trim().trim_matches('\'').to_string());
    match name {
        Some(name) if !message.starts_with(&name) => first_lines(&format!("{name}: {message}")),
        _ => first_lines(&message),
    }
}

/// The first three non-empty lines of a message, on one line.
fn first_lines(message: &str) -> String {
    message.lines().map(str::trim).filter(|l| !l.is_empty()).take(3).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tap_results_are_named_by_their_groups_and_failures_say_why() {
        let tap_text = "TAP version 13\n# Subtest: C\n    # Subtest: m\n        # Subtest: ok one\n        ok 1 - ok one\n          ---\n          duration_ms: 0.7\n          ...\n        # Subtest: bad\n        not ok 2 - bad\n          ---\n          error: |-\n            Expected values to be strictly equal:\n            \n            1 !== 2\n          code: 'ERR_ASSERTION'\n          name: 'AssertionError'\n          ...\n        1..2\n    not ok 1 - m\n      ---\n      type: 'suite'\n      error: '1 subtest failed'\n      ...\nnot ok 1 - C\n  ---\n  type: 'suite'\n  ...\n";
        let outcomes = tap(tap_text);
        assert_eq!(outcomes.len(), 2, "{outcomes:?}");
        assert_eq!(outcomes[0], Outcome { name: "C > m > ok one".into(), passed: true, reason: None });
        assert_eq!(outcomes[1].name, "C > m > bad");
        assert_eq!(
            outcomes[1].reason.as_deref(),
            Some("AssertionError: Expected values to be strictly equal: 1 !== 2")
        );
    }

    #[test]
    fn jest_and_mocha_reports_are_read() {
        let report = serde_json::json!({"testResults": [{"assertionResults": [
            {"ancestorTitles": ["C", "m"], "title": "t", "status": "failed", "failureMessages": ["boom\n  at x"]},
            {"ancestorTitles": ["C"], "title": "u", "status": "pending", "failureMessages": []}]}]});
        assert_eq!(
            jest(&report),
            vec![Outcome { name: "C > m > t".into(), passed: false, reason: Some("boom at x".into()) }]
        );
        let report = serde_json::json!({"tests": [{"fullTitle": "C m t", "err": {}}, {"fullTitle": "C m u", "err": {"message": "no"}}]});
        let read = mocha(&report);
        assert!(read[0].passed && !read[1].passed && read[1].reason.as_deref() == Some("no"));
    }
}
