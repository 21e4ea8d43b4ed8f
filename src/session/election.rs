//! Election: a candidate becomes a test of the suite when, run alone as an exported test runs, it ends
//! as a regression test and covers statements of its method that no elected test covers.

use super::{Session, Status, StopReason};
use crate::error::Result;
use crate::js::{HOST_ACCESS_ERROR, UNCAUGHT_EXCEPTION, UNHANDLED_REJECTION};
use crate::model::observed::{Outcome, Thrown};
use crate::model::test::TestCase;
use crate::sandbox::{Execution, Test, Watch};
use crate::suite::ElectedTest;

impl Session {
    /// Runs `test` alone, as an exported test runs, watching the probes of its method
    /// under test and describing its results; `None` when that method is not under test.
    pub(crate) fn run_alone(&mut self, test: &TestCase, seed: u32) -> Result<Option<Execution>> {
        let Some(index) = self.methods.iter().position(|m| m.class == test.class && m.method == test.method) else {
            return Ok(None);
        };
        let watch = self.methods[index].watch();
        self.runner.run_isolated(Test::Case(test, &self.subject.program), seed, &watch, true).map(Some)
    }

    /// Offers a test made outside the loop (a replay of a recorded call) for election, as if it had been
    /// generated: it is elected when, alone, it ends as a regression test and covers statements of its
    /// method that no elected test covers. Returns how many it covered first.
    pub(crate) fn offer(&mut self, test: &TestCase, seed: u32) -> Result<Option<usize>> {
        let Some(index) = self.methods.iter().position(|m| m.class == test.class && m.method == test.method) else {
            return Ok(None);
        };
        let watch = self.methods[index].watch();
        let first = self.runner.run_isolated(Test::Case(test, &self.subject.program), seed, &watch, true)?;
        let elected = self.elect(index, test, seed, &first)?;
        let m = &mut self.methods[index];
        if elected.is_some() && m.status == Status::Pending && m.covered.iter().all(|c| *c) {
            m.status = Status::Done(StopReason::Covered);
            m.time_to_full = Some(m.elapsed);
        }
        Ok(elected)
    }

    /// Re-runs a candidate that covered new statements, alone (see
    /// [`crate::sandbox::Sandbox::run_isolated`]) and describing its results, and elects it if it still
    /// covers new statements there: an exported test runs alone, so only what it does alone counts. A
    /// difference from the first run means earlier tests left state behind that the static analysis
    /// missed: contexts are not reused from then on (unless a limit made the difference, see
    /// [`kept_state`], or one that only describing covered, see `covered_by_describing`), and the test
    /// runs alone once more, in a new context. Returns the number of statements it covered first, when
    /// elected.
    pub(super) fn elect(
        &mut self,
        index: usize,
        test: &TestCase,
        seed: u32,
        first: &Execution,
    ) -> Result<Option<usize>> {
        let watch = self.methods[index].watch();
        let mut alone = self.runner.run_isolated(Test::Case(test, &self.subject.program), seed, &watch, true)?;
        if alone.outcome.hit_limit() {
            // Not a regression test alone, whatever it did after others (see `kept_state`).
            return Ok(None);
        }
        if let Some(what) = &alone.changed_builtin {
            // Under a real runner the change outlives the test and can break the runner itself.
            self.methods[index].warn(format!("tests that change a built-in ({what}) are not elected"));
            return Ok(None);
        }
        if kept_state(&alone, first, |a, b| self.subject.code.same_end(a, b))
            && !self.covered_by_describing(test, seed, &watch, &alone, first)?
        {
            let describe = |o: &Outcome| o.describe(self.runner.usual_limits());
            let difference =
                format!("{} alone, {} after other tests", describe(&alone.outcome), describe(&first.outcome));
            if self.runner.fresh_each_test() {
                self.methods[index]
                    .warn(format!("a test behaved differently when run again ({difference}); it was not elected"));
                return Ok(None);
            }
            self.runner.set_fresh_each_test(true);
            let m = &self.methods[index];
            self.warnings.push(format!(
                "a test of {}.{} behaved differently alone ({difference}): the code keeps state between tests, so every \
                 test now runs in a fresh context",
                self.subject.program.classes[m.class].name, m.method
            ));
            // Earlier tests run alone may have used the context this one ran in: decide in a new one.
            alone = self.runner.run_isolated(Test::Case(test, &self.subject.program), seed, &watch, true)?;
            if alone.outcome.hit_limit() || alone.changed_builtin.is_some() {
                return Ok(None);
            }
        }
        let m = &self.methods[index];
        let new: Vec<u32> = alone.statements.iter().copied().filter(|s| !m.covered[*s as usize]).collect();
        if !is_regression(&alone.outcome, test.statements.len().saturating_sub(1)) || new.is_empty() {
            return Ok(None);
        }
        let new_lines = self.statement_lines(&watch, &new);
        let own_message = self.subject.code.threw_own_error(&alone.outcome);
        let m = &mut self.methods[index];
        for s in &new {
            m.covered[*s as usize] = true;
        }
        for b in &alone.branches {
            if let Some(flag) = m.branches.get_mut(*b as usize) {
                *flag = true;
            }
        }
        self.share_helpers(index, &new, &alone.branches);
        let m = &mut self.methods[index];
        m.elected += 1;
        m.stale = 0;
        m.gained_at = m.work;
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
            simplified: None,
        });
        Ok(Some(new.len()))
    }

    /// Whether a run alone differs from the first only by what describing its results covered: describing
    /// reads getters and asks proxies (an error's `message`, a trap), and where the method under test
    /// defined them, the described run alone covers statements the first, never described, did not. Such
    /// a test runs once more, undescribed, in a context of its own (the context of runs alone holds what
    /// the described run wrote where no journal sees it): the first run's statements then, and the
    /// difference was the describing's, not state kept between tests.
    fn covered_by_describing(
        &mut self,
        test: &TestCase,
        seed: u32,
        watch: &Watch,
        alone: &Execution,
        first: &Execution,
    ) -> Result<bool> {
        if !self.subject.code.same_end(&alone.outcome, &first.outcome) {
            return Ok(false);
        }
        let plain = self.runner.run_in_new_context(Test::Case(test, &self.subject.program), seed, watch)?;
        Ok(self.subject.code.same_end(&plain.outcome, &first.outcome) && plain.statements == first.statements)
    }

    /// The lines of the statements at `offsets` of `watch`, its helpers' included.
    pub(super) fn statement_lines(&self, watch: &Watch, offsets: &[u32]) -> Vec<u32> {
        let files = &self.subject.code.files;
        offsets
            .iter()
            .filter_map(|o| {
                let id = watch.statement_id(*o)?;
                let file = files.iter().find(|f| f.statements.contains(&id))?;
                file.instrumented.statements.get((id - file.statements.start) as usize).map(|s| s.line)
            })
            .collect()
    }
}

/// Whether a test that ran differently alone than after other tests shows that the code keeps state
/// between tests. A run cut off by a limit shows nothing of the kind: how much time and memory a test
/// has left depends on what ran before it and on the machine (`'x'.repeat(1e8)` can run out of memory
/// in a fresh context and not in a used one), and one noisy method must not make every test of every
/// method run in a fresh context. `same_end` compares how they ended (see
/// [`crate::sandbox::CodeBase::same_end`]).
pub(super) fn kept_state(alone: &Execution, first: &Execution, same_end: impl Fn(&Outcome, &Outcome) -> bool) -> bool {
    let differs = !same_end(&alone.outcome, &first.outcome) || alone.statements != first.statements;
    differs && !alone.outcome.hit_limit() && !first.outcome.hit_limit()
}

/// Errors QuickJS throws at limits of its own, which other engines set elsewhere: V8 computes
/// `2n ** 304984331n`, for seconds, where QuickJS refuses it at once.
const ENGINE_LIMITS: &[(&str, &str)] =
    &[("RangeError", "BigInt is too large"), ("RangeError", "BigInt is too large to allocate")];

/// Whether a run can become a regression test: it passed, or the method under test (the last
/// statement) threw something other than QuickJS's own InternalError or limits, which other engines do
/// not have.
pub(crate) fn is_regression(outcome: &Outcome, last_statement: usize) -> bool {
    match outcome {
        Outcome::Passed => true,
        // Errors of the engine itself, and uses of the host, which Node would not reproduce; a promise
        // left rejected, for which Node fails the test whatever it asserts.
        Outcome::Threw { at, thrown } => {
            *at == last_statement
                && !matches!(thrown, Thrown::Error { name, message, .. }
                    if name == "InternalError" || name == HOST_ACCESS_ERROR || name == UNHANDLED_REJECTION
                        || name == UNCAUGHT_EXCEPTION
                        || ENGINE_LIMITS.contains(&(name.as_str(), message.as_str())))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(outcome: Outcome, statements: &[u32]) -> Execution {
        let mut execution = Execution::ended(outcome, None);
        execution.statements = statements.to_vec();
        execution
    }

    #[test]
    fn errors_at_quickjs_own_limits_are_no_regression() {
        let threw = |name: &str, message: &str| Outcome::Threw {
            at: 1,
            thrown: Thrown::Error { name: name.into(), message: message.into(), origin: None },
        };
        assert!(!is_regression(&threw("RangeError", "BigInt is too large"), 1));
        assert!(!is_regression(&threw("RangeError", "BigInt is too large to allocate"), 1));
        assert!(is_regression(&threw("RangeError", "BigInt negative exponent"), 1));
        assert!(!is_regression(&threw("InternalError", "stack overflow"), 1));
    }

    #[test]
    fn a_limit_hit_is_no_evidence_of_kept_state() {
        let kept_state = |a: &Execution, b: &Execution| kept_state(a, b, |x, y| x == y);
        let passed = run(Outcome::Passed, &[0, 1, 2]);
        assert!(!kept_state(&run(Outcome::OutOfMemory, &[0]), &passed));
        assert!(!kept_state(&run(Outcome::TimedOut, &[0, 1]), &passed));
        assert!(!kept_state(&passed, &run(Outcome::StackOverflow { at: 0 }, &[0])));
        assert!(kept_state(&run(Outcome::Passed, &[0, 1]), &passed));
        assert!(!kept_state(&run(Outcome::Passed, &[0, 1, 2]), &passed));
    }
}
