//! Whether a run on a mutant fails a test of the suite: the outcome, the error, or an assertion line
//! the exported test would write differs from the original's.

use super::SuiteTest;
use crate::model::observed::{Outcome, Thrown};
use crate::sandbox::Execution;
use crate::session::Session;
use crate::suite::{ElectedTest, manifest};

/// The elected-test form of a run of `test`: what the exported test would assert.
pub(super) fn as_elected(test: &SuiteTest, run: &Execution) -> ElectedTest {
    ElectedTest {
        test: test.test.clone(),
        results: run.results.clone(),
        outcome: run.outcome.clone(),
        new_lines: Vec::new(),
        own_message: test.own_message,
        seed: test.seed,
        covers: Vec::new(),
        branches: Vec::new(),
        minimized: true,
    }
}

/// How a run on a mutant differs from the original's.
pub(super) struct Kill {
    pub(super) reason: String,
    /// Statements whose assertions failed.
    pub(super) calls: Vec<usize>,
}

/// Whether `run` (on a mutant) fails the test that `baseline` is the original run of, and why.
pub(super) fn verdict(session: &Session, baseline: &ElectedTest, run: &Execution) -> Option<Kill> {
    let program = &session.program;
    let test = &baseline.test;
    let kill = |reason: String| Some(Kill { reason, calls: Vec::new() });
    let thrown_text = |thrown: &Thrown| match thrown {
        Thrown::Error { name, message, .. } => format!("{name}: {message}"),
        Thrown::Value(v) => format!("a non-error value {v}"),
    };
    match (&baseline.outcome, &run.outcome) {
        (_, Outcome::TimedOut | Outcome::OutOfMemory | Outcome::StackOverflow { .. }) => {
            return kill(run.outcome.describe(&session.settings().limits));
        }
        (Outcome::Passed, Outcome::Threw { at, thrown }) => {
            return kill(format!("`{}` threw {}", test.callee(*at, program), thrown_text(thrown)));
        }
        (Outcome::Threw { .. }, Outcome::Passed) => return kill("the expected error is no longer thrown".into()),
        (Outcome::Threw { at, thrown }, Outcome::Threw { at: now, thrown: instead }) => {
            let same = at == now
                && match (thrown, instead) {
                    (Thrown::Error { name, message, .. }, Thrown::Error { name: n, message: m, .. }) => {
                        name == n && (!baseline.own_message || message == m)
                    }
                    (a, b) => a == b,
                };
            if !same {
                return kill(format!(
                    "`{}` threw {} instead of {}",
                    test.callee(*now, program),
                    thrown_text(instead),
                    thrown_text(thrown)
                ));
            }
        }
        _ => {}
    }
    // Assertions, call by call, so that the calls whose assertions kill are known.
    let mut failed: Option<Kill> = None;
    for result in &baseline.results {
        let only = |results: Vec<crate::model::observed::DescribedResult>| ElectedTest {
            results,
            outcome: Outcome::Passed,
            ..baseline.clone()
        };
        let expected = manifest::assertions(program, &only(vec![result.clone()]));
        let actual =
            manifest::assertions(program, &only(run.results.iter().filter(|r| r.at == result.at).cloned().collect()));
        if let Some(line) = expected.iter().find(|line| !actual.contains(line)) {
            let kill = failed.get_or_insert_with(|| Kill { reason: format!("fails `{line}`"), calls: Vec::new() });
            kill.calls.push(result.at);
        }
    }
    failed
}
