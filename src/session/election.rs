//! Election: a candidate becomes a test of the suite when, run alone as an exported test runs, it ends
//! as a regression test and covers statements of its method that no elected test covers.

use super::{Session, Status, StopReason};
use crate::error::Result;
use crate::js::HOST_ACCESS_ERROR;
use crate::model::observed::{Outcome, Thrown};
use crate::model::program::FunctionRef;
use crate::model::test::TestCase;
use crate::sandbox::Execution;
use crate::suite::ElectedTest;

impl Session {
    /// Runs `test` alone in a fresh context, as an exported test runs, watching the probes of its method
    /// under test and describing its results; `None` when that method is not under test.
    pub fn run_alone(&mut self, test: &TestCase, seed: u32) -> Result<Option<Execution>> {
        let Some(index) = self.methods.iter().position(|m| m.class == test.class && m.method == test.method) else {
            return Ok(None);
        };
        let watch = self.methods[index].watch();
        self.sandbox.run_isolated(&test.to_json(&self.program), seed, &watch, true).map(Some)
    }

    /// Offers a test made outside the loop (a replay of a recorded call) for election, as if it had been
    /// generated: it is elected when, alone, it ends as a regression test and covers statements of its
    /// method that no elected test covers. Returns how many it covered first.
    pub fn offer(&mut self, test: &TestCase, seed: u32) -> Result<Option<usize>> {
        let Some(index) = self.methods.iter().position(|m| m.class == test.class && m.method == test.method) else {
            return Ok(None);
        };
        let json = test.to_json(&self.program);
        let watch = self.methods[index].watch();
        let first = self.sandbox.run_isolated(&json, seed, &watch, true)?;
        let elected = self.elect(index, test, &json, seed, &first)?;
        let m = &mut self.methods[index];
        if elected.is_some() && m.status == Status::Pending && m.covered.iter().all(|c| *c) {
            m.status = Status::Done(StopReason::Covered);
            m.time_to_full = Some(m.elapsed);
        }
        Ok(elected)
    }

    /// Re-runs a candidate that covered new statements, alone in a fresh context and describing its
    /// results, and elects it if it still covers new statements there: an exported test runs alone, so
    /// only what it does alone counts. A difference from the first run means earlier tests left state
    /// behind that the static analysis missed: contexts are not reused from then on. Returns the number
    /// of statements it covered first, when elected.
    pub(super) fn elect(
        &mut self,
        index: usize,
        test: &TestCase,
        json: &str,
        seed: u32,
        first: &Execution,
    ) -> Result<Option<usize>> {
        let watch = self.methods[index].watch();
        let alone = self.sandbox.run_isolated(json, seed, &watch, true)?;
        if alone.outcome != first.outcome || alone.statements != first.statements {
            let describe = |o: &Outcome| o.describe(self.sandbox.limits());
            let difference =
                format!("{} alone, {} after other tests", describe(&alone.outcome), describe(&first.outcome));
            if self.sandbox.fresh_each_test() {
                self.methods[index]
                    .warn(format!("a test behaved differently when run again ({difference}); it was not elected"));
                return Ok(None);
            }
            self.sandbox.set_fresh_each_test(true);
            let m = &self.methods[index];
            self.warnings.push(format!(
                "a test of {}.{} behaved differently alone ({difference}): the code keeps state between tests, so every \
                 test now runs in a fresh context",
                self.program.classes[m.class].name, m.method
            ));
        }
        let m = &self.methods[index];
        let new: Vec<u32> = alone.statements.iter().copied().filter(|s| !m.covered[*s as usize]).collect();
        if !is_regression(&alone.outcome, test.statements.len().saturating_sub(1)) || new.is_empty() {
            return Ok(None);
        }
        let new_lines = m.function.as_ref().map(|f| self.statement_lines(f, &new)).unwrap_or_default();
        let own_message = matches!(
            &alone.outcome,
            Outcome::Threw { thrown: Thrown::Error { origin: Some(origin), .. }, .. } if self.code.in_throw_argument(origin)
        );
        let m = &mut self.methods[index];
        for s in &new {
            m.covered[*s as usize] = true;
        }
        for b in &alone.branches {
            if let Some(flag) = m.branches.get_mut(*b as usize) {
                *flag = true;
            }
        }
        m.elected += 1;
        m.stale = 0;
        self.suite.elected.push(ElectedTest {
            test: test.clone(),
            results: alone.results,
            outcome: alone.outcome,
            new_lines,
            own_message,
            seed,
            covers: alone.statements,
            branches: alone.branches,
            minimized: false,
            checks: None,
            extended_at: None,
        });
        Ok(Some(new.len()))
    }

    pub(super) fn statement_lines(&self, function: &FunctionRef, offsets: &[u32]) -> Vec<u32> {
        let file = &self.code.files[function.file];
        offsets
            .iter()
            .filter_map(|o| {
                let id = function.statements.start + o;
                file.instrumented.statements.get((id - file.statements.start) as usize).map(|s| s.line)
            })
            .collect()
    }
}

/// Whether a run can become a regression test: it passed, or the method under test (the last
/// statement) threw something other than QuickJS's own InternalError, which other engines do not have.
pub fn is_regression(outcome: &Outcome, last_statement: usize) -> bool {
    match outcome {
        Outcome::Passed => true,
        // Errors of the engine itself, and uses of the host, which Node would not reproduce.
        Outcome::Threw { at, thrown } => {
            *at == last_statement
                && !matches!(thrown, Thrown::Error { name, .. } if name == "InternalError" || name == HOST_ACCESS_ERROR)
        }
        _ => false,
    }
}
