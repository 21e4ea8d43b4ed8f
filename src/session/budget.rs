//! The budget of the passes after generation. Minimisation re-runs every elected test once per
//! statement, the mutation analysis that chooses state assertions runs the tests on every mutant, and the
//! stability check re-runs the suite three times: on a library whose every test needs a fresh context
//! that took many times the generation budget (80 s after `--timeout 5`; mnemonist's analysis alone 390
//! s after 364). Together they may take at most what generation was allowed (`--timeout` per method under
//! test; `generate --mutation` grants them two more), so that a run ends within about twice its budget; bounding them by what generation *took*
//! instead would cut short runs that end by coverage, and make their suites depend on the machine's
//! speed. Each pass may use its share of that budget less what the passes before it took, so time one
//! leaves goes to the next. What each pass took is kept for the reports (`time: generating … s,
//! minimising … s, mutation analysis … s, stability … s`).

use std::time::{Duration, Instant};

use super::Session;

/// The share of the passes' time minimisation may use: the rest is kept for the stability re-runs,
/// which are cheaper (three runs of the suite) and guard the suite's correctness, not its length.
pub(super) const MINIMISING_SHARE: f64 = 0.5;

/// The share minimisation and the mutation analysis may use together (see
/// [`Session::mutation_deadline`]): the analysis gets what minimisation left of it, and the stability
/// re-runs keep at least the last quarter.
const MUTATION_SHARE: f64 = 0.75;

/// The time the passes after generation took, summed over every time they ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PassTimes {
    /// Shortening tests and dropping redundant ones ([`Session::minimize`]).
    pub(crate) minimising: Duration,
    /// The mutation analysis that chooses state assertions and extends tests (`generate`'s strengthening,
    /// run by the application layer, which adds its time here).
    pub(crate) mutation: Duration,
    /// Re-running the suite ([`Session::check_stability`]).
    pub(crate) stability: Duration,
    /// Time granted to the passes beyond the generation budget (see [`Session::mutation_deadline`]).
    pub(crate) granted: Duration,
}

impl PassTimes {
    /// Both passes together.
    pub(crate) fn total(&self) -> Duration {
        self.minimising + self.mutation + self.stability
    }
}

impl Session {
    /// What the passes after generation may take in all: the generation budget of the methods under test.
    fn passes_budget(&self) -> Duration {
        self.generation_budget().saturating_add(self.passes.granted)
    }

    /// What generation was allowed: `--timeout` per method under test.
    fn generation_budget(&self) -> Duration {
        self.settings.timeout.saturating_mul(self.methods.len().max(1) as u32)
    }

    /// The moment the mutation analysis, started at `started` after minimisation, must have stopped
    /// judging mutants, so that the stability re-runs keep their share. `extra` generation budgets are
    /// granted to the passes for an analysis asked for by name (`generate --mutation`: its equivalence
    /// check and 40 extensions per survivor would not fit in a run's share on a small class, and its
    /// score counts only what it judged); the stability re-runs keep their share of those too.
    pub(crate) fn mutation_deadline(&mut self, started: Instant, extra: f64) -> Instant {
        self.passes.granted = self.generation_budget().mul_f64(extra);
        self.passes_deadline(started, MUTATION_SHARE)
    }

    /// Counts `took` as time of the mutation analysis (run by the application layer, see
    /// [`PassTimes::mutation`]).
    pub(crate) fn add_mutation_time(&mut self, took: Duration) {
        self.passes.mutation += took;
    }

    /// The moment a pass must stop starting new runs, when the passes together may use `share` of their
    /// budget, given that the current pass started at `started` (its time is not in [`Session::passes`]
    /// yet).
    pub(super) fn passes_deadline(&self, started: Instant, share: f64) -> Instant {
        let left = self.passes_budget().mul_f64(share).saturating_sub(self.passes.total());
        started.checked_add(left).unwrap_or_else(|| started + Duration::from_secs(365 * 24 * 3600))
    }
}
