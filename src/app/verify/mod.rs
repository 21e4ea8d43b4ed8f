//! `flycatcher verify DIR` (and `generate --verify`): the exported suite run as its user will run it.
//!
//! The suite's manifests (`<Class>.flycatcher.json`) say its format, its files and the code it tests.
//! Its real runner (node:test, jest, mocha or vitest, from the project's `node_modules` or a given one)
//! runs it several times as written, the first time under c8, then once more with every group's tests
//! in reverse order ([`order`]); each test is passed, failed (in every run) or flaky (in some), with the
//! runner's reason; and c8 gives the line and branch coverage of the code under test as the user will
//! measure it ([`coverage`]), optionally as an lcov file too.

pub(crate) mod coverage;
mod order;
pub(crate) mod runner;
mod typecheck;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use crate::error::{Error, Result};
use crate::export::{self, Format, Project};
use crate::suite::manifest::{self, SuiteFile};
use coverage::Coverage;
use runner::Tools;

/// What to verify, and how.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// The folder `generate` wrote the suite into.
    pub dir: PathBuf,
    /// The `node_modules` folder with c8 and the runner; by default the nearest one above the suite or
    /// the code it tests.
    pub node_modules: Option<PathBuf>,
    /// Runs as written (the first under c8); one more runs the tests in reverse order.
    pub runs: usize,
    /// Where to copy c8's lcov report.
    pub lcov: Option<PathBuf>,
}

/// What one test did over every run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TestRuns {
    /// Its name, as the runner gives it.
    pub(crate) name: String,
    /// Runs it passed.
    pub(crate) passed: usize,
    /// Runs it failed (or did not run in).
    pub(crate) failed: usize,
    /// Why it failed the first time.
    pub(crate) reason: Option<String>,
}

impl TestRuns {
    /// `passed` (every run), `failed` (every run) or `flaky`.
    pub(crate) fn status(&self) -> &'static str {
        match (self.passed, self.failed) {
            (_, 0) => "passed",
            (0, _) => "failed",
            _ => "flaky",
        }
    }
}

/// A verified suite.
#[derive(Debug, Clone)]
pub struct Verification {
    /// Its format.
    pub(crate) format: Format,
    /// Its files.
    pub(crate) files: Vec<PathBuf>,
    /// Runs made, the one in reverse order included.
    pub(crate) runs: usize,
    /// Every test, in the order the runner first reported them.
    pub(crate) tests: Vec<TestRuns>,
    /// What c8 measured in the first run.
    pub(crate) coverage: Coverage,
}

impl Verification {
    /// Whether every test passed in every run.
    pub fn passed(&self) -> bool {
        self.tests.iter().all(|t| t.failed == 0)
    }

    fn count(&self, status: &str) -> usize {
        self.tests.iter().filter(|t| t.status() == status).count()
    }

    /// The summary for people: counts, the tests that failed or flaked with why, and the coverage.
    pub fn summary(&self) -> String {
        let files: Vec<String> =
            self.files.iter().map(|f| f.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
        let mut text = format!(
            "verify {} ({}): {} runs ({} as written, the first under c8, 1 in reverse order): {} passed, {} failed, {} flaky\n",
            files.join(", "),
            self.format,
            self.runs,
            self.runs - 1,
            self.count("passed"),
            self.count("failed"),
            self.count("flaky")
        );
        for test in self.tests.iter().filter(|t| t.failed > 0) {
            let reason = test.reason.as_deref().unwrap_or("no reason given");
            text.push_str(&format!(
                "  {} ({} of {} runs failed): {}: {reason}\n",
                test.status(),
                test.failed,
                self.runs,
                test.name
            ));
        }
        let count = |c: &coverage::Count| format!("{}% ({}/{})", c.pct, c.covered, c.total);
        text.push_str(&format!(
            "coverage of the code under test (c8): lines {}, branches {}\n",
            count(&self.coverage.lines),
            count(&self.coverage.branches)
        ));
        for file in &self.coverage.files {
            text.push_str(&format!(
                "  {}: lines {}, branches {}\n",
                file.path.display(),
                count(&file.lines),
                count(&file.branches)
            ));
        }
        text
    }

    /// The report as JSON (`verify --report`, and `verify` in `generate --report`).
    pub fn json(&self) -> Json {
        json!({
            "format": self.format.name(),
            "files": self.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
            "runs": self.runs,
            "passed": self.count("passed"),
            "failed": self.count("failed"),
            "flaky": self.count("flaky"),
            "tests": self.tests.iter().map(|t| json!({
                "name": t.name,
                "status": t.status(),
                "passed_runs": t.passed,
                "failed_runs": t.failed,
                "reason": t.reason,
            })).collect::<Vec<_>>(),
            "coverage": self.coverage.json(),
        })
    }
}

/// Runs the suite in `options.dir` as [`VerifyOptions`] says, telling `progress` before each run.
pub fn verify(options: &VerifyOptions, progress: &mut dyn FnMut(&str)) -> Result<Verification> {
    let dir = &options.dir;
    let suites = manifest::suite_files(dir)?;
    let format = suites[0].format;
    runner::supported(format)?;
    if let Some(other) = suites.iter().find(|s| s.format != format) {
        return Err(Error::Usage(format!(
            "{}: the suites here are of two formats ({format} and {}): verify a folder written by one `generate`",
            dir.display(),
            other.format
        )));
    }
    if let Some(missing) = suites.iter().find(|s| !s.path.exists()) {
        return Err(Error::Usage(format!(
            "{}: its manifest names this suite, which is not there: generate the suite again",
            missing.path.display()
        )));
    }
    let mut from: Vec<&Path> = vec![dir.as_path()];
    from.extend(suites.iter().flat_map(|s| s.subjects.iter().filter_map(|p| p.parent())));
    // Suites of TypeScript code are TypeScript: run through their runner's TypeScript support, and type-checked.
    let typescript = suites.iter().any(|s| s.path.extension().is_some_and(|e| e == "ts"));
    let tools = Tools::find(options.node_modules.as_deref(), &from, format, typescript)?;
    let jest_config = if typescript && format == Format::Jest { Some(jest_config(&suites)?) } else { None };
    let scratch = Scratch::new()?;
    let reversed = Reversed::write(&suites)?;
    let names = |paths: &[PathBuf]| -> Vec<String> {
        paths.iter().map(|p| p.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect()
    };
    let written: Vec<PathBuf> = suites.iter().map(|s| s.path.clone()).collect();
    let runs = options.runs.max(1) + 1;
    let mut seen: Vec<Vec<runner::Outcome>> = Vec::new();
    for run in 0..runs {
        let (files, how) =
            if run + 1 < runs { (names(&written), "as written") } else { (names(&reversed.paths), "in reverse order") };
        let under = if run == 0 { ", under c8" } else { "" };
        progress(&format!("verify: run {} of {runs} ({how}{under})", run + 1));
        let reporters: &[&str] = if options.lcov.is_some() { &["json-summary", "lcovonly"] } else { &["json-summary"] };
        let coverage = (run == 0).then(|| (scratch.path.join("coverage"), reporters));
        let report = scratch.path.join(format!("report-{run}.json"));
        let mut command = tools.command(
            format,
            typescript,
            jest_config.as_deref(),
            dir,
            &files,
            &report,
            coverage.as_ref().map(|(p, r)| (p.as_path(), *r)),
        )?;
        let output = command.output().map_err(|e| Error::Usage(format!("cannot run the {format} runner: {e}")))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let outcomes = runner::outcomes(format, &stdout, &report).unwrap_or_default();
        if outcomes.is_empty() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let last: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).rev().take(3).collect();
            return Err(Error::Usage(format!(
                "{}: the {format} runner ran no test ({})",
                files.join(", "),
                last.into_iter().rev().collect::<Vec<_>>().join(" / ")
            )));
        }
        seen.push(outcomes);
    }
    let mut tests = tally(&seen);
    if typescript {
        progress(&format!("verify: {}", typecheck::CHECK));
        let absolute: Vec<PathBuf> = written.iter().map(|p| std::path::absolute(p).unwrap_or(p.clone())).collect();
        let code = suites.iter().flat_map(|s| s.subjects.iter()).next().map(PathBuf::as_path);
        for error in typecheck::check(&tools, &absolute, code, &scratch.path)? {
            // A type error fails the suite in every run.
            tests.push(TestRuns { name: error.name, passed: 0, failed: runs, reason: error.reason });
        }
    }
    let coverage = Coverage::read(&scratch.path.join("coverage"))?;
    if let Some(lcov) = &options.lcov {
        let from = scratch.path.join("coverage").join("lcov.info");
        std::fs::copy(&from, lcov).map_err(|source| Error::Write { path: lcov.clone(), source })?;
    }
    Ok(Verification { format, files: written, runs, tests, coverage })
}

/// The jest configuration TypeScript `suites` run with: the one their headers give, as the project's
/// decorators and `paths` need it (or, where a header gives none, that of a project that asks nothing).
/// Suites of one folder run together: their headers must agree.
fn jest_config(suites: &[SuiteFile]) -> Result<String> {
    let mut config: Option<(String, &Path)> = None;
    for suite in suites {
        let text =
            std::fs::read_to_string(&suite.path).map_err(|source| Error::Read { file: suite.path.clone(), source })?;
        let given =
            export::header_jest_config(&text).map_or_else(|| export::jest_config(&Project::default()), str::to_string);
        match &config {
            Some((first, path)) if *first != given => {
                return Err(Error::Usage(format!(
                    "{} and {}: their headers give different jest configurations, and verify runs a folder's \
                     suites together: verify them in folders of their own",
                    path.display(),
                    suite.path.display()
                )));
            }
            Some(_) => {}
            None => config = Some((given, &suite.path)),
        }
    }
    Ok(config.map(|(config, _)| config).unwrap_or_else(|| export::jest_config(&Project::default())))
}

/// Every test seen in any run, with how often it passed; a run that did not report a test failed it.
fn tally(runs: &[Vec<runner::Outcome>]) -> Vec<TestRuns> {
    let mut order: Vec<String> = Vec::new();
    let mut tests: BTreeMap<String, TestRuns> = BTreeMap::new();
    for outcomes in runs {
        for outcome in outcomes {
            if !tests.contains_key(&outcome.name) {
                order.push(outcome.name.clone());
                let fresh = TestRuns { name: outcome.name.clone(), passed: 0, failed: 0, reason: None };
                tests.insert(outcome.name.clone(), fresh);
            }
        }
    }
    for outcomes in runs {
        for (name, test) in tests.iter_mut() {
            match outcomes.iter().find(|o| o.name == *name) {
                Some(o) if o.passed => test.passed += 1,
                found => {
                    test.failed += 1;
                    let reason = found.map_or_else(|| Some("it did not run".to_string()), |o| o.reason.clone());
                    test.reason = test.reason.take().or(reason);
                }
            }
        }
    }
    order.into_iter().filter_map(|name| tests.remove(&name)).collect()
}

/// A folder of our own for the runners' reports and c8's output, removed when done.
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    fn new() -> Result<Scratch> {
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        let path = std::env::temp_dir().join(format!("flycatcher-verify-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|source| Error::Write { path: path.clone(), source })?;
        Ok(Scratch { path })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The suites with their tests reversed, written beside them (their loaders find the code under test
/// relative to their own place) and removed when done.
struct Reversed {
    paths: Vec<PathBuf>,
}

impl Reversed {
    fn write(suites: &[SuiteFile]) -> Result<Reversed> {
        let mut reversed = Reversed { paths: Vec::new() };
        for suite in suites {
            let text = std::fs::read_to_string(&suite.path)
                .map_err(|source| Error::Read { file: suite.path.clone(), source })?;
            let name = suite.path.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let Some((stem, rest)) = name.split_once(".test.") else {
                return Err(Error::Usage(format!("{}: not a suite flycatcher wrote", suite.path.display())));
            };
            let path = suite.path.with_file_name(format!("{stem}.reversed.test.{rest}"));
            let text = order::reversed(&suite.path, text)?;
            std::fs::write(&path, text).map_err(|source| Error::Write { path: path.clone(), source })?;
            reversed.paths.push(path);
        }
        Ok(reversed)
    }
}

impl Drop for Reversed {
    fn drop(&mut self) {
        for path in &self.paths {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_that_fails_in_some_runs_only_is_flaky() {
        let outcome = |name: &str, passed: bool| runner::Outcome {
            name: name.into(),
            passed,
            reason: (!passed).then(|| format!("{name} broke")),
        };
        let runs = vec![
            vec![outcome("a", true), outcome("b", true), outcome("c", false)],
            vec![outcome("a", true), outcome("b", false), outcome("c", false)],
            vec![outcome("a", true), outcome("c", false)],
        ];
        let tests = tally(&runs);
        let status: Vec<(&str, &str)> = tests.iter().map(|t| (t.name.as_str(), t.status())).collect();
        assert_eq!(status, vec![("a", "passed"), ("b", "flaky"), ("c", "failed")]);
        assert_eq!(tests[1].reason.as_deref(), Some("b broke"));
        assert_eq!((tests[1].passed, tests[1].failed), (1, 2), "not run counts as failed");
    }
}
