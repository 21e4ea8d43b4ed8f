//! Running tests: a sandbox and the limits its tests run under.
//!
//! A [`Runner`] owns a [`Sandbox`] and the usual limits (the settings' `--test-timeout-ms`, memory and
//! stack). A test's limit is counted work (`--test-timeout-ms` worth of interrupt checks, see
//! [`CHECKS_PER_MS`]), with [`TIME_CAP`] times the time as a cap for what work does not count: whether a
//! test reaches its limit decides whether it is elected, and must not depend on the machine's load. The limits in
//! force may be lowered for a while, to a method's remaining budget ([`Runner::cap_test`]) or to a count
//! of work ([`Runner::limit_work`]), and they come back to the usual ones from the runner, never from a
//! caller's copy of the settings.
//!
//! Every run is charged to the runner's meter (see `budget.rs`): what the budgets of generation and of
//! the passes after it count. Runners made [`Runner::beside`] one share its meter.
//!
//! The session owns the runner of its loop. Mutation analysis makes its own: one for the original code
//! and one per mutant ([`Runner::beside`]), under the same usual limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::budget::{CHECK_COST, CONTEXT_COST, cost_of};
use crate::error::Result;
use crate::model::settings::Limits;
use crate::sandbox::{CodeBase, Execution, Sandbox, Test, Watch};

/// Interrupt checks in a millisecond of instrumented code: its probes make a check (10,000 calls and
/// backward jumps) about 115 µs rather than plain JavaScript's 20 µs (`sandbox::WORK_PER_MS`), and a
/// test's limit is meant as time in the code under test.
const CHECKS_PER_MS: u64 = 10;

/// How many times its usual time limit a test may run before the time cap ends it: far enough above
/// the time its work limit stands for that a loaded machine still ends it by work. At five times, runs
/// on a machine with both cores busy beside the run ended by the cap where a quiet one ended them by
/// their work or not at all, and the mutation analysis then chose other assertions (issue 39).
const TIME_CAP: u32 = 50;

/// A sandbox and the limits its tests run under (see the module documentation).
pub(crate) struct Runner {
    sandbox: Sandbox,
    /// The usual limits: those in force unless lowered for a while.
    limits: Limits,
    /// The work limit in force (see [`Runner::usual_work`]).
    work: u64,
    /// Work units charged for the runs so far, shared with the runners made beside this one.
    meter: Arc<AtomicU64>,
    /// Runs under the usual limits that the time cap ended before their work limit (see
    /// [`Execution::time_capped`]), shared like the meter.
    time_capped: Arc<AtomicU64>,
}

impl Runner {
    /// Loads `code` in a sandbox whose tests run under `limits`. Errors name the file that failed to load.
    pub(crate) fn new(code: &CodeBase, limits: Limits) -> Result<Runner> {
        let sandbox = Sandbox::new(code, limits.clone())?;
        Ok(Runner::usual(sandbox, limits, Arc::default(), Arc::default()))
    }

    /// A runner of `sandbox` with `limits` in force as the usual ones, charging `meter` and counting the
    /// runs the time cap ended in `time_capped`.
    fn usual(sandbox: Sandbox, limits: Limits, meter: Arc<AtomicU64>, time_capped: Arc<AtomicU64>) -> Runner {
        let mut runner = Runner { sandbox, limits, work: 0, meter, time_capped };
        runner.restore_limits();
        runner
    }

    /// A runner for `code`, a variant of the program this one runs (a mutant), under the same usual
    /// limits, compiling only the files this one has not (see [`Sandbox::new_beside`]).
    pub(crate) fn beside(&self, code: &CodeBase) -> Result<Runner> {
        self.beside_loading_within(code, None)
    }

    /// [`Runner::beside`], its load stopped after `load_work` interrupt checks if given (see
    /// [`Limits::load_work`]); its tests run within this runner's usual limits.
    pub(crate) fn beside_loading_within(&self, code: &CodeBase, load_work: Option<u64>) -> Result<Runner> {
        let loading = Limits { load_work, ..self.limits.clone() };
        let sandbox = Sandbox::new_beside(code, loading, &self.sandbox)?;
        self.charge(CONTEXT_COST);
        Ok(Runner::usual(sandbox, self.limits.clone(), self.meter.clone(), self.time_capped.clone()))
    }

    /// The usual limits, what messages about a test's limit name (its work stands for that much time).
    pub(crate) fn usual_limits(&self) -> &Limits {
        &self.limits
    }

    /// Changes the usual limits, in force from now on.
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.restore_limits();
    }

    /// The work (interrupt checks) loading the program did.
    pub(crate) fn loaded_work(&self) -> u64 {
        self.sandbox.loaded_work()
    }

    /// Work units charged so far, by this runner and those beside it (see `budget.rs`).
    pub(crate) fn spent(&self) -> u64 {
        self.meter.load(Ordering::Relaxed)
    }

    /// Runs so far, by this runner and those beside it, that the time cap of the usual limits ended
    /// before their work limit: what was decided on them may differ on a quieter machine.
    pub(crate) fn time_capped(&self) -> u64 {
        self.time_capped.load(Ordering::Relaxed)
    }

    /// Charges `units` of work done outside a run (building a program).
    pub(crate) fn charge(&self, units: u64) {
        self.meter.fetch_add(units, Ordering::Relaxed);
    }

    /// Runs tests from now on under mutant `id` of a program of mutant schemata (see
    /// [`Sandbox::set_mutant`]).
    pub(crate) fn set_mutant(&mut self, id: u32) {
        self.sandbox.set_mutant(id);
    }

    /// The statements the program ran while it loaded (see [`Sandbox::statements_run_at_load`]).
    pub(crate) fn statements_run_at_load(&mut self) -> Result<Vec<u32>> {
        self.sandbox.statements_run_at_load()
    }

    /// Puts the usual limits back in force: the usual work, and the time cap.
    pub(crate) fn restore_limits(&mut self) {
        self.set_in_force(self.usual_work(), self.limits.test_time * TIME_CAP);
    }

    fn set_in_force(&mut self, work: u64, time: Duration) {
        let limits = Limits { test_time: time, ..self.limits.clone() };
        if &limits != self.sandbox.limits() {
            self.sandbox.set_limits(limits);
        }
        self.work = work;
        self.sandbox.set_work_limit(Some(work));
    }

    /// Lowers the limits in force to a method's budget left: `work` units (the interrupt checks they pay
    /// for, at least one) and `time` of its wall-clock cap (at least a millisecond); the usual ones where
    /// those are lower. The limit counts checks and the budget units, [`CHECK_COST`] to a check: a test
    /// limited to as many checks as units were left cost a method up to eight times what it had left.
    pub(crate) fn cap_test(&mut self, work: u64, time: Duration) {
        let work = self.usual_work().min((work / CHECK_COST).max(1));
        let time = (self.limits.test_time * TIME_CAP).min(time.max(Duration::from_millis(1)));
        self.set_in_force(work, time);
    }

    /// The usual limits, with the time a test may run as the work limit in force stands for.
    pub(crate) fn limits_in_force(&self) -> Limits {
        Limits { test_time: Duration::from_millis(self.work / CHECKS_PER_MS), ..self.limits.clone() }
    }

    /// Whether the limits in force are below the usual ones (see [`Runner::cap_test`]).
    pub(crate) fn capped(&self) -> bool {
        self.work < self.usual_work() || self.sandbox.limits().test_time < self.limits.test_time * TIME_CAP
    }

    /// The work the usual time limit stands for on a quiet machine.
    pub(crate) fn usual_work(&self) -> u64 {
        self.limits.test_time.as_millis() as u64 * CHECKS_PER_MS
    }

    /// Limits the tests run to `work` (`None`: the usual work), with the usual time cap.
    pub(crate) fn limit_work(&mut self, work: Option<u64>) {
        self.set_in_force(work.unwrap_or_else(|| self.usual_work()), self.limits.test_time * TIME_CAP);
    }

    /// Charges `executions` to the meter, and the contexts built for them.
    /// Counts those the usual time cap ended (a cap lowered to a method's budget left is that method's,
    /// which its stop reason tells).
    fn charged<'e>(&self, executions: impl IntoIterator<Item = &'e Execution>, built_before: u64) {
        let built = self.sandbox.contexts_built().saturating_sub(built_before);
        let (mut cost, mut time_capped) = (built * CONTEXT_COST, 0);
        for execution in executions {
            cost += cost_of(execution);
            time_capped += u64::from(execution.time_capped);
        }
        self.charge(cost);
        if time_capped > 0 && !self.capped() {
            self.time_capped.fetch_add(time_capped, Ordering::Relaxed);
        }
    }

    /// See [`Sandbox::run`].
    pub(crate) fn run(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Execution> {
        let built = self.sandbox.contexts_built();
        let execution = self.sandbox.run(test, seed, watch)?;
        self.charged([&execution], built);
        Ok(execution)
    }

    /// See [`Sandbox::run_isolated`]; a test run alone is charged a context.
    pub(crate) fn run_isolated(&mut self, test: Test, seed: u32, watch: &Watch, describe: bool) -> Result<Execution> {
        let built = self.sandbox.contexts_built();
        let execution = self.sandbox.run_isolated(test, seed, watch, describe)?;
        self.charged([&execution], built);
        self.charge(CONTEXT_COST);
        Ok(execution)
    }

    /// See [`Sandbox::run_isolated_twice`].
    pub(crate) fn run_isolated_twice(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Vec<Execution>> {
        let built = self.sandbox.contexts_built();
        let executions = self.sandbox.run_isolated_twice(test, seed, watch)?;
        self.charged(&executions, built);
        self.charge(CONTEXT_COST);
        Ok(executions)
    }

    /// See [`Sandbox::run_in_new_context`].
    pub(crate) fn run_in_new_context(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Execution> {
        let built = self.sandbox.contexts_built();
        let execution = self.sandbox.run_in_new_context(test, seed, watch)?;
        self.charged([&execution], built);
        self.charge(CONTEXT_COST);
        Ok(execution)
    }

    /// See [`Sandbox::run_in_sequence`].
    pub(crate) fn run_in_sequence(&mut self, tests: &[(&str, u32, &Watch)]) -> Result<Vec<Execution>> {
        let built = self.sandbox.contexts_built();
        let executions = self.sandbox.run_in_sequence(tests)?;
        self.charged(&executions, built);
        self.charge(CONTEXT_COST);
        Ok(executions)
    }

    /// See [`Sandbox::run_in_sequence_from_kept`].
    pub(crate) fn run_in_sequence_from_kept(&mut self, tests: &[(&str, u32, &Watch)]) -> Result<Vec<Execution>> {
        let built = self.sandbox.contexts_built();
        let executions = self.sandbox.run_in_sequence_from_kept(tests)?;
        self.charged(&executions, built);
        self.charge(CONTEXT_COST);
        Ok(executions)
    }

    /// See [`Sandbox::set_measuring`].
    pub(crate) fn set_measuring(&mut self, measuring: bool) {
        self.sandbox.set_measuring(measuring);
    }

    /// See [`Sandbox::take_builtin_change`].
    pub(crate) fn take_builtin_change(&mut self) -> Option<String> {
        self.sandbox.take_builtin_change()
    }

    /// See [`Sandbox::fresh_each_test`].
    pub(crate) fn fresh_each_test(&self) -> bool {
        self.sandbox.fresh_each_test()
    }

    /// See [`Sandbox::set_fresh_each_test`].
    pub(crate) fn set_fresh_each_test(&mut self, fresh: bool) {
        self.sandbox.set_fresh_each_test(fresh);
    }

    /// See [`Sandbox::contexts_built`].
    pub(crate) fn contexts_built(&self) -> u64 {
        self.sandbox.contexts_built()
    }

    /// See [`Sandbox::bind_classes`].
    pub(crate) fn bind_classes(&mut self, expressions: &[String]) -> Result<()> {
        self.sandbox.bind_classes(expressions)
    }

    /// See [`Sandbox::keep_loaded_for_tests_alone`].
    pub(crate) fn keep_loaded_for_tests_alone(&mut self) {
        self.sandbox.keep_loaded_for_tests_alone();
    }

    /// The sandbox, for what only the first steps of a session do with it (discovering the classes).
    pub(super) fn sandbox_mut(&mut self) -> &mut Sandbox {
        &mut self.sandbox
    }
}
