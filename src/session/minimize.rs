//! Minimisation before export: shorter tests that still cover what they covered and end the same way,
//! and no test that the other tests of its method make redundant.

use std::time::Instant;

use super::Session;
use super::budget::{Ending, MINIMISING_SHARE, PassLimit};
use crate::error::Result;
use crate::model::observed::Outcome;
use crate::sandbox::{Execution, Test};
use crate::suite::ElectedTest;

impl Session {
    /// Shortens every elected test not minimised yet: statements are dropped one at a time, last first
    /// (never the final call of the method under test, nor a construction still used), as long as the
    /// test alone still covers every statement of its method it covered and ends the same way. Its
    /// results are described again from the shorter run, so the assertions stay true. Then tests that
    /// the other tests of their method make redundant are dropped. Past its share of the passes' work
    /// or cap (see `budget.rs`), the tests left are kept as they are: longer, but as true.
    pub fn minimize(&mut self) -> Result<()> {
        self.minimize_telling(&mut |_, _| {})
    }

    /// [`Session::minimize`], telling `progress` (tests done, tests in all) before each test.
    pub(crate) fn minimize_telling(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Result<()> {
        let started = Instant::now();
        let limit = self.pass_limit(started, MINIMISING_SHARE);
        let from = self.runner.spent();
        let (shortened, ended) = self.shorten_tests(&limit, from, progress);
        self.drop_redundant_tests();
        self.passes.minimising += started.elapsed();
        self.add_pass("minimisation", self.runner.spent() - from, ended);
        shortened
    }

    fn shorten_tests(
        &mut self,
        limit: &PassLimit,
        from: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> (Result<()>, Option<Ending>) {
        // Stepping may have lowered the test limits to the last method's remaining budget.
        self.runner.restore_limits();
        let mut ended = None;
        let count = self.suite.elected.len();
        for elected in 0..count {
            progress(elected, count);
            if self.suite.elected[elected].minimized {
                continue;
            }
            let e = &self.suite.elected[elected];
            let Some(index) = self.methods.iter().position(|m| m.class == e.test.class && m.method == e.test.method)
            else {
                continue;
            };
            let watch = self.methods[index].watch();
            let (seed, required, original) = (e.seed, e.covers.clone(), e.outcome.clone());
            let mut test = e.test.clone();
            let mut kept: Option<Execution> = None;
            for k in (0..test.statements.len().saturating_sub(1)).rev() {
                ended = ended.or_else(|| limit.reached(self.runner.spent() - from));
                if ended.is_some() {
                    break;
                }
                let Some(shorter) = test.without_statement(k) else { continue };
                let run =
                    match self.runner.run_isolated(Test::Case(&shorter, &self.subject.program), seed, &watch, true) {
                        Ok(run) => run,
                        Err(e) => return (Err(e), ended),
                    };
                let same_end = match (&run.outcome, &original) {
                    (Outcome::Passed, Outcome::Passed) => true,
                    (Outcome::Threw { at, thrown }, Outcome::Threw { thrown: before, .. }) => {
                        *at + 1 == shorter.statements.len() && thrown == before
                    }
                    _ => false,
                };
                if same_end && required.iter().all(|s| run.statements.contains(s)) {
                    test = shorter;
                    kept = Some(run);
                }
            }
            let e = &mut self.suite.elected[elected];
            if let Some(run) = kept {
                e.test = test;
                e.results = run.results;
                e.outcome = run.outcome;
                e.covers = run.statements;
                e.branches = run.branches;
            }
            // A test cut short by the limit stays as true as it was, and is not tried again.
            e.minimized = true;
        }
        progress(count, count);
        (Ok(()), ended)
    }

    /// Drops tests whose statements the other tests of the same method cover too (an early test is
    /// often subsumed by later ones), latest first.
    pub(super) fn drop_redundant_tests(&mut self) {
        let mut index = self.suite.elected.len();
        while index > 0 {
            index -= 1;
            let e = &self.suite.elected[index];
            let same_method = |o: &ElectedTest| o.test.class == e.test.class && o.test.method == e.test.method;
            let covered_by_others = e.covers.iter().all(|s| {
                self.suite.elected.iter().enumerate().any(|(j, o)| j != index && same_method(o) && o.covers.contains(s))
            });
            if covered_by_others {
                let removed = self.suite.elected.remove(index);
                if let Some(m) =
                    self.methods.iter_mut().find(|m| m.class == removed.test.class && m.method == removed.test.method)
                {
                    m.elected -= 1;
                }
            }
        }
    }
}
