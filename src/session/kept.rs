//! What `generate --update` asks of the loop (see [`crate::suite::kept`]): running a test of the suite
//! being brought up to date as its exported form runs, keeping it with the coverage it brings, so that
//! the loop generates only for what the kept tests leave, and stopping the methods it need not generate
//! for again.

use super::{Session, Status, StopReason};
use crate::error::Result;
use crate::model::observed::Outcome;
use crate::model::program::ClassId;
use crate::model::test::TestCase;
use crate::sandbox::{Execution, Test};
use crate::suite::kept::{Kept, KeptTest, Source};
use crate::suite::{FailingTest, message_shape};

impl Session {
    /// The index of the method under test `method` of `class`.
    pub(crate) fn method_index(&self, class: ClassId, method: &str) -> Option<usize> {
        self.methods.iter().position(|m| m.class == class && m.method == method)
    }

    /// The fingerprints of the code of method `index`'s goal (see [`Source`]); `None` when its code cannot
    /// be found.
    pub(crate) fn source(&self, index: usize) -> Option<Source> {
        let m = &self.methods[index];
        Source::of(&self.subject.code, m.function.as_ref()?, &m.helpers)
    }

    /// The fingerprints of the goals of the methods under test, by class and name: what a suite's manifest
    /// keeps, for an update to tell what changed.
    pub(crate) fn sources(&self) -> Vec<(ClassId, String, Source)> {
        let located = (0..self.methods.len()).filter_map(|i| Some((i, self.source(i)?)));
        located.map(|(i, source)| (self.methods[i].class, self.methods[i].method.clone(), source)).collect()
    }

    /// Runs a test written before alone, as its exported form runs: `json` is the test with its
    /// inspections (see [`crate::suite::checks::run_json`]). Its results are described, and its method's
    /// probes watched when that method is under test (its coverage is not measured otherwise). The
    /// methods whose calls returned promises are asynchronous from then on, as a generated test's run
    /// makes them: the test's assertions are read back with their awaits (`await assert.rejects`), which
    /// a session that had not yet seen the promise would read as synchronous ones.
    pub(crate) fn run_written(&mut self, test: &TestCase, json: &str, seed: u32) -> Result<Execution> {
        let watch = self.method_index(test.class, &test.method).map(|index| self.methods[index].watch());
        let execution = self.runner.run_isolated(Test::Json(json), seed, &watch.unwrap_or_default(), true)?;
        self.mark_asynchronous(test, &execution.awaited);
        Ok(execution)
    }

    /// Adds a test kept by an update to the suite: the statements and branch outcomes it covers count as
    /// covered, so that only candidates covering something else are elected.
    pub(crate) fn keep(&mut self, kept: KeptTest) {
        if let Some(index) = self.method_index(kept.elected.test.class, &kept.elected.test.method) {
            let m = &mut self.methods[index];
            for s in &kept.elected.covers {
                if let Some(flag) = m.covered.get_mut(*s as usize) {
                    *flag = true;
                }
            }
            for b in &kept.elected.branches {
                if let Some(flag) = m.branches.get_mut(*b as usize) {
                    *flag = true;
                }
            }
            self.share_helpers(index, &kept.elected.covers, &kept.elected.branches);
        }
        self.suite.kept.tests.push(kept);
    }

    /// Stops method `index` before it starts when an update need not generate for it: when `unchanged`
    /// (its code is as the suite was written and its kept tests cover what the suite covered), or when its
    /// kept tests cover all of it.
    pub(crate) fn close_kept(&mut self, index: usize, unchanged: bool) {
        let m = &mut self.methods[index];
        if m.status != Status::Pending {
            return;
        }
        if unchanged {
            m.status = Status::Done(StopReason::Kept);
        } else if m.covered.iter().all(|c| *c) {
            m.status = Status::Done(StopReason::Covered);
            m.time_to_full = Some(m.elapsed);
        }
    }

    /// Keeps a failing test of the suite as written in the failing log, counted as logged, unless
    /// `check` and it no longer fails the same way (run as its skipped test runs).
    pub(crate) fn keep_failing(&mut self, failing: FailingTest, check: bool) -> Result<()> {
        if check {
            let json = failing.test.to_json(&self.subject.program);
            let run = self.run_written(&failing.test, &json, 1)?;
            let message = run.outcome.describe(self.runner.usual_limits());
            if run.outcome == Outcome::Passed || message_shape(&message) != message_shape(&failing.message) {
                return Ok(());
            }
        }
        self.suite.remember_failure(&failing);
        self.suite.kept.failing.push(failing);
        Ok(())
    }

    /// What the suite keeps of the suite an update brings up to date.
    pub(crate) fn kept_mut(&mut self) -> &mut Kept {
        &mut self.suite.kept
    }
}
