//! The stability pass before export: every elected test runs again three times, each time in a new
//! context after the other tests (in election order, reversed, and shuffled from the run's seed), so that
//! results that depend on state left by other tests, or on anything else not fixed between runs, show up.
//! What changed is dropped and reported (see [`crate::suite::stability`]).

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::Session;
use super::budget::{Ending, PassLimit};
use crate::error::Result;
use crate::sandbox::{Execution, Watch};
use crate::suite::stability::stabilize;

/// Runs of each test besides the one it was elected on.
const RUNS: usize = 3;

impl Session {
    /// Re-runs the elected tests `RUNS` times in different orders and drops the assertions whose values
    /// changed (and the tests that ended differently), recording each in [`crate::suite::Suite::unstable`]
    /// and as a warning. Past the passes' work or cap (see `budget.rs`), or once interrupted, the runs
    /// after the first are left out, with a warning. `progress` is told the runs done and in all before
    /// each run.
    pub(crate) fn check_stability(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Result<()> {
        let started = Instant::now();
        let from = self.runner.spent();
        let limit = self.pass_limit(started, 1.0);
        let mut ended = None;
        let checked = self.rerun_suite(&limit, from, &mut ended, progress);
        self.passes.stability += started.elapsed();
        self.add_pass("the stability check", self.runner.spent() - from, ended);
        checked
    }

    fn rerun_suite(
        &mut self,
        limit: &PassLimit,
        from: u64,
        ended: &mut Option<Ending>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<()> {
        let count = self.suite.elected.len();
        if count == 0 {
            return Ok(());
        }
        self.runner.restore_limits();
        let watches: Vec<Watch> = self
            .suite
            .elected
            .iter()
            .map(|e| {
                let method = self.methods.iter().find(|m| m.class == e.test.class && m.method == e.test.method);
                method.map(|m| m.watch()).unwrap_or_default()
            })
            .collect();
        let jsons: Vec<String> = self.suite.elected.iter().map(|e| e.json(&self.subject.program)).collect();
        let mut shuffled: Vec<usize> = (0..count).collect();
        shuffled.shuffle(&mut StdRng::seed_from_u64(self.settings.seed));
        let orders = [(0..count).collect(), (0..count).rev().collect(), shuffled];
        let mut runs: Vec<Vec<Execution>> = vec![Vec::with_capacity(RUNS); count];
        for (done, order) in orders.iter().take(RUNS).enumerate() {
            progress(done, RUNS);
            if done > 0
                && let Some(ending) = limit.reached(self.runner.spent() - from)
            {
                *ended = Some(ending);
                let what = match ending {
                    Ending::Work => "the work after generation was used up",
                    Ending::Cap => "the time cap after generation was reached",
                    // Said once for the pass (see `Session::add_pass`).
                    Ending::Interrupted => break,
                };
                self.warnings.push(format!(
                    "the suite ran again {done} of {RUNS} times: {what} (order-dependent results may remain)"
                ));
                break;
            }
            let tests: Vec<(&str, u32, &Watch)> =
                order.iter().map(|&i| (jsons[i].as_str(), self.suite.elected[i].seed, &watches[i])).collect();
            for (execution, &i) in self.runner.run_in_sequence(&tests)?.into_iter().zip(order) {
                runs[i].push(execution);
            }
        }
        progress(RUNS, RUNS);
        for index in (0..count).rev() {
            let changes = stabilize(&self.subject.program, &mut self.suite.elected[index], &runs[index]);
            if changes.is_empty() {
                continue;
            }
            let name = format!("{}.{}", self.subject.program.classes[changes[0].class].name, changes[0].method);
            if changes.iter().any(|c| c.test_dropped) {
                let removed = self.suite.elected.remove(index);
                if let Some(m) =
                    self.methods.iter_mut().find(|m| m.class == removed.test.class && m.method == removed.test.method)
                {
                    m.elected -= 1;
                }
            }
            for change in &changes {
                let what = if change.test_dropped { "a test was dropped" } else { "an assertion was dropped" };
                self.warnings.push(format!("{name}: {what}: it changed between runs ({})", change.what));
            }
            self.suite.unstable.extend(changes);
        }
        Ok(())
    }
}
