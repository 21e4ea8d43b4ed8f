//! What a run may spend: counted work, and the wall-clock caps above it.
//!
//! **Work.** Every test a runner runs is charged to its meter (`runner.rs`): [`RUN_COST`] for what
//! surrounds a run (generating, encoding, describing, reading probes back), [`CHECK_COST`] per interrupt
//! check QuickJS made while it ran (one per 10,000 calls, jumps and array element stores, the probes
//! among them), and [`CONTEXT_COST`] per context built. The same seed makes the same tests, which do the same work, so a budget in work ends
//! a method, a pass or the mutation analysis at the same test on any machine, under any load and with
//! any `--jobs`: the suite does not depend on the machine. A unit is about 15 µs of one core of the
//! machine the defaults were calibrated on (see [`crate::model::settings::WORK_PER_SECOND`]): 26,000
//! short candidates took 0.39 s of CPU for 80,000 units, and candidates looping in instrumented code
//! about 115 µs per interrupt check.
//!
//! **Caps.** `--timeout` stays as a wall-clock cap per method, and the passes after generation are capped
//! at as long again: a run never takes much more than it said it might, even where work is not counted
//! (a built-in's own loop, a slow machine). A method, or a pass, that the cap ends says so: its suite
//! may differ on another machine.
//!
//! **The passes after generation.** Minimisation re-runs every elected test once per statement, the
//! mutation analysis that chooses state assertions runs the tests on every mutant, and the stability
//! check re-runs the suite three times: on a library whose every test needs a fresh context that took
//! many times the generation budget. Together they may use what generation was allowed (`--budget` per
//! method under test; `generate --mutation` grants them two more), in work, and as long as generation's
//! cap, in time; bounding them by what generation *took* instead would cut short runs that end by
//! coverage. Each pass may use its share of that budget less what the passes before it used, so what one
//! leaves goes to the next. What each pass took is kept for the reports (`time: generating … s,
//! minimising … s, mutation analysis … s, stability … s`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Session;
use crate::sandbox::Execution;

/// Work units a run costs besides its interrupt checks: generating the candidate, running the harness
/// around it, describing its results and reading its probes back (about 15 µs for a short candidate).
pub(crate) const RUN_COST: u64 = 1;

/// Work units an interrupt check costs: 10,000 calls and backward jumps of instrumented code, whose
/// probes make them about 115 µs (plain JavaScript takes about 20 µs).
pub(crate) const CHECK_COST: u64 = 8;

/// Work units building a context costs (loading the program again, about 1.2 ms for a small one).
pub(crate) const CONTEXT_COST: u64 = 80;

/// Bytes of source that building a mutant's own program (parsing, instrumenting, compiling it) handles
/// for a work unit.
pub(crate) const BYTES_PER_UNIT: u64 = 200;

/// The share of a method's budget one candidate may use at most ([`candidate_cap`]).
const CANDIDATE_SHARE: u64 = 8;

/// The least work a candidate may use, whatever the budget: 250 interrupt checks.
const LEAST_CANDIDATE_WORK: u64 = 2_000;

/// The most work units one candidate of a method with budget `budget` may use: an eighth of the budget,
/// and never less than [`LEAST_CANDIDATE_WORK`] (the usual limit of a test, 8,000 units at the default
/// `--test-timeout-ms`, applies too). A candidate that loops runs to its limit: under `--timeout 1`'s
/// budget of 20,000 units, the usual limit let two and a half of them end a method whose other
/// candidates cost a unit or two each, as when a generated `size` of 0 or `end` of 2^31 bounds a loop.
/// A candidate this ends is a possible bug as one the usual limit ends, logged with the time the share
/// stands for; one that the end of the budget cuts short is none.
pub(crate) fn candidate_cap(budget: u64) -> u64 {
    (budget / CANDIDATE_SHARE).max(LEAST_CANDIDATE_WORK)
}

/// What running `execution` costs, in work units.
pub(crate) fn cost_of(execution: &Execution) -> u64 {
    RUN_COST + CHECK_COST * execution.work
}

/// The share of the passes' budget minimisation may use: the rest is kept for the stability re-runs,
/// which are cheaper (three runs of the suite) and guard the suite's correctness, not its length.
pub(super) const MINIMISING_SHARE: f64 = 0.5;

/// The share minimisation and the mutation analysis may use together (see [`Session::mutation_limit`]):
/// the analysis gets what minimisation left of it, and the stability re-runs keep at least the last
/// quarter.
const MUTATION_SHARE: f64 = 0.75;

/// What the passes after generation took, summed over every time they ran.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct PassTimes {
    /// Shortening tests and dropping redundant ones ([`Session::minimize`]).
    pub(crate) minimising: Duration,
    /// The mutation analysis that chooses state assertions and extends tests (`generate`'s strengthening,
    /// run by the application layer, which adds its time here).
    pub(crate) mutation: Duration,
    /// Re-running the suite ([`Session::check_stability`]).
    pub(crate) stability: Duration,
    /// Work units the passes used.
    pub(crate) work: u64,
    /// Budgets granted to the passes beyond the generation budget (see [`Session::mutation_limit`]).
    pub(crate) granted: f64,
    /// The first pass the wall-clock cap, rather than its work, ended.
    pub(crate) capped: Option<&'static str>,
    /// Runs of the mutation analysis that the time cap of a test ended before its work limit (those of
    /// the session's own runner it counts itself).
    pub(crate) time_capped_runs: u64,
}

impl PassTimes {
    /// The passes together.
    pub(crate) fn total(&self) -> Duration {
        self.minimising + self.mutation + self.stability
    }
}

/// Where a pass must stop starting new runs: once it used `work` units, at the wall-clock `cap`, or
/// once the user interrupted the run.
#[derive(Debug, Clone)]
pub(crate) struct PassLimit {
    /// The work units the pass may use.
    pub(crate) work: u64,
    /// The moment the cap ends it.
    pub(crate) cap: Instant,
    /// Set by Ctrl-C (see [`Session::interrupt_passes_on`]): the pass stops at its next run and the
    /// suite is written as it stands.
    pub(crate) interrupt: Option<Arc<AtomicBool>>,
}

/// A pass after generation that tells its progress (the mutation analysis tells its mutants apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// Shortening the elected tests: a step is a test.
    Minimising,
    /// Re-running the suite: a step is a run of the whole suite.
    Stability,
}

impl Pass {
    /// How progress lines name it.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Minimising => "minimising",
            Pass::Stability => "stability check",
        }
    }

    /// What one of its steps is.
    pub fn step(self) -> &'static str {
        match self {
            Pass::Minimising => "test",
            Pass::Stability => "run",
        }
    }
}

/// What ended a pass early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Its work: the same on any machine.
    Work,
    /// The wall-clock cap: this machine was too slow for its work.
    Cap,
    /// The user (Ctrl-C).
    Interrupted,
}

/// When a pass started at `started` that may take `left` must end: a year on where the sum overflows (a
/// `--timeout` of `u64::MAX` seconds).
fn ends(started: Instant, left: Duration) -> Instant {
    started.checked_add(left).unwrap_or_else(|| started + Duration::from_secs(365 * 24 * 3600))
}

impl PassLimit {
    /// Whether a pass that used `used` units must stop, and why.
    pub(crate) fn reached(&self, used: u64) -> Option<Ending> {
        if self.interrupt.as_ref().is_some_and(|flag| flag.load(Ordering::SeqCst)) {
            Some(Ending::Interrupted)
        } else if used >= self.work {
            Some(Ending::Work)
        } else if Instant::now() >= self.cap {
            Some(Ending::Cap)
        } else {
            None
        }
    }
}

impl Session {
    /// What the passes after generation may use in all, in work units: the generation budget of the
    /// methods under test, and the budgets granted.
    fn passes_work(&self) -> u64 {
        self.generations(self.settings.budget, 1.0 + self.passes.granted).0
    }

    /// The passes' wall-clock cap: as long as generation's cap, and the budgets granted.
    pub(crate) fn passes_cap(&self) -> Duration {
        self.generations(self.settings.budget, 1.0 + self.passes.granted).1
    }

    /// What generating the methods under test may use `times` over, with `budget` work units and a
    /// `--timeout` cap each: the work, and the wall-clock cap.
    fn generations(&self, budget: u64, times: f64) -> (u64, Duration) {
        let methods = self.methods.len().max(1);
        let work = (budget as f64 * methods as f64 * times).min(u64::MAX as f64) as u64;
        (work, self.settings.timeout.saturating_mul(methods as u32).mul_f64(times))
    }

    /// The limit of the mutation analysis, started at `started` after minimisation, so that the stability
    /// re-runs keep their share. `extra` generation budgets are granted to the passes for an analysis
    /// asked for by name (`generate --mutation`: its equivalence check and 40 extensions per survivor
    /// would not fit in a run's share on a small class, and its score counts only what it judged); the
    /// stability re-runs keep their share of those too.
    pub(crate) fn mutation_limit(&mut self, started: Instant, extra: f64) -> PassLimit {
        self.passes.granted = extra;
        self.pass_limit(started, MUTATION_SHARE)
    }

    /// The limit of `flycatcher mutate`'s analysis, started at `started`: a measurement of the suite,
    /// apart from the passes that made it, with its own equivalence check, so it gets what `generate
    /// --mutation` grants its passes: `budgets` times what generating the methods under test may use
    /// with `budget` units each, in work, and as many times their `--timeout`s, in time. The mutants it
    /// leaves are unjudged, and the score line says how many.
    pub(crate) fn measurement_limit(&self, budget: u64, budgets: f64, started: Instant) -> PassLimit {
        let (work, cap) = self.generations(budget, budgets);
        PassLimit { work, cap: ends(started, cap), interrupt: self.interrupt.clone() }
    }

    /// Counts what the mutation analysis took (run by the application layer, see
    /// [`PassTimes::mutation`]): its time, its work, whether the cap ended it, and its runs the time cap
    /// of a test ended.
    pub(crate) fn add_mutation(&mut self, took: Duration, work: u64, capped: bool, time_capped: u64) {
        self.passes.mutation += took;
        self.passes.work += work;
        self.passes.time_capped_runs += time_capped;
        if capped {
            self.note_capped("the mutation analysis");
        }
        if self.interrupted() {
            self.note_interrupted("the mutation analysis");
        }
    }

    /// The limit of a pass started at `started`, when the passes together may use `share` of their
    /// budget and cap (the current pass's use is not in [`Session::passes`] yet).
    pub(super) fn pass_limit(&self, started: Instant, share: f64) -> PassLimit {
        let work = ((self.passes_work() as f64 * share) as u64).saturating_sub(self.passes.work);
        let left = self.passes_cap().mul_f64(share).saturating_sub(self.passes.total());
        PassLimit { work, cap: ends(started, left), interrupt: self.interrupt.clone() }
    }

    /// Lets `flag` (set by Ctrl-C) stop the passes after generation at their next run, as it stops
    /// stepping: the suite is then written with what they had done.
    pub(crate) fn interrupt_passes_on(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// Whether the user interrupted the run (see [`Session::interrupt_passes_on`]).
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|flag| flag.load(Ordering::SeqCst))
    }

    /// Counts what a pass of the session used: `used` work units, and how it `ended` (the cap noted).
    pub(super) fn add_pass(&mut self, pass: &'static str, used: u64, ended: Option<Ending>) {
        self.passes.work += used;
        match ended {
            Some(Ending::Cap) => self.note_capped(pass),
            Some(Ending::Interrupted) => self.note_interrupted(pass),
            Some(Ending::Work) | None => {}
        }
    }

    /// Says that Ctrl-C ended `pass`: the suite is written as the pass left it.
    pub(crate) fn note_interrupted(&mut self, pass: &'static str) {
        let warning = format!("{pass} was interrupted (Ctrl-C): the suite is written as it stood");
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }

    /// Says how many runs the time cap of a test ended before their work limit, when any did: a busy
    /// machine made them slow, what was decided on them may go otherwise on a quieter one.
    pub(super) fn note_time_capped_runs(&mut self) {
        let runs = self.runner.time_capped() + self.passes.time_capped_runs;
        if runs == 0 {
            return;
        }
        let warning = format!(
            "{runs} test run{} ended by the time cap of --test-timeout-ms before {} work limit (the machine was \
             busy): this suite may differ on another machine",
            if runs == 1 { " was" } else { "s were" },
            if runs == 1 { "its" } else { "their" },
        );
        self.warnings.retain(|w| !w.contains("ended by the time cap of --test-timeout-ms"));
        self.warnings.push(warning);
    }

    /// Says that the wall-clock cap ended `pass` before its work did.
    fn note_capped(&mut self, pass: &'static str) {
        if self.passes.capped.is_none() {
            self.passes.capped = Some(pass);
            self.warnings.push(format!(
                "{pass} was stopped by the time cap (--timeout) before its work budget: this suite may differ on \
                 another machine"
            ));
        }
    }
}
