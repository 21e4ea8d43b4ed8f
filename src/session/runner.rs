//! Running tests: a sandbox and the limits its tests run under.
//!
//! A [`Runner`] owns a [`Sandbox`] and the usual limits (the settings' `--test-timeout-ms`, memory and
//! stack): the limits in force may be lowered for a while, to a method's remaining time budget
//! ([`Runner::cap_test_time`]) or to a count of work ([`Runner::limit_work`]), and they come back to
//! the usual ones from the runner, never from a caller's copy of the settings.
//!
//! The session owns the runner of its loop. Mutation analysis makes its own: one for the original code
//! and one per mutant ([`Runner::beside`]), under the same usual limits.

use std::time::Duration;

use crate::error::Result;
use crate::model::settings::Limits;
use crate::sandbox::{CodeBase, Execution, Sandbox, Test, WORK_PER_MS, Watch};

/// A sandbox and the limits its tests run under (see the module documentation).
pub(crate) struct Runner {
    sandbox: Sandbox,
    /// The usual limits: those in force unless lowered for a while.
    limits: Limits,
}

impl Runner {
    /// Loads `code` in a sandbox whose tests run under `limits`. Errors name the file that failed to load.
    pub(crate) fn new(code: &CodeBase, limits: Limits) -> Result<Runner> {
        Ok(Runner { sandbox: Sandbox::new(code, limits.clone())?, limits })
    }

    /// A runner for `code`, a variant of the program this one runs (a mutant), under the same usual
    /// limits, compiling only the files this one has not (see [`Sandbox::new_beside`]).
    pub(crate) fn beside(&self, code: &CodeBase) -> Result<Runner> {
        let sandbox = Sandbox::new_beside(code, self.limits.clone(), &self.sandbox)?;
        Ok(Runner { sandbox, limits: self.limits.clone() })
    }

    /// The limits in force: the usual ones, or lower for a while.
    pub(crate) fn in_force(&self) -> &Limits {
        self.sandbox.limits()
    }

    /// Changes the usual limits, in force from now on.
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.sandbox.set_limits(limits.clone());
        self.limits = limits;
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

    /// Puts the usual limits back in force.
    pub(crate) fn restore_limits(&mut self) {
        self.sandbox.set_limits(self.limits.clone());
    }

    /// Lowers the test time limit in force to `remaining` (a method's time budget left; at least a
    /// millisecond), or puts the usual one back when that is lower.
    pub(crate) fn cap_test_time(&mut self, remaining: Duration) {
        let mut limits = self.limits.clone();
        limits.test_time = limits.test_time.min(remaining.max(Duration::from_millis(1)));
        if limits.test_time != self.sandbox.limits().test_time {
            self.sandbox.set_limits(limits);
        }
    }

    /// Whether the test time limit in force is below the usual one (see [`Runner::cap_test_time`]).
    pub(crate) fn capped(&self) -> bool {
        self.sandbox.limits().test_time < self.limits.test_time
    }

    /// The work the usual time limit stands for on a quiet machine.
    pub(crate) fn usual_work(&self) -> u64 {
        self.limits.test_time.as_millis() as u64 * WORK_PER_MS
    }

    /// Limits the tests run to `work` (or lifts the work limit), with twice the usual time limit: on a
    /// loaded machine the work limit, the same on any machine, is still the one that ends a test that
    /// does too much.
    pub(crate) fn limit_work(&mut self, work: Option<u64>) {
        let usual = self.limits.clone();
        let test_time = if work.is_some() { usual.test_time * 2 } else { usual.test_time };
        self.sandbox.set_limits(Limits { test_time, ..usual });
        self.sandbox.set_work_limit(work);
    }

    /// See [`Sandbox::run`].
    pub(crate) fn run(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Execution> {
        self.sandbox.run(test, seed, watch)
    }

    /// See [`Sandbox::run_isolated`].
    pub(crate) fn run_isolated(&mut self, test: Test, seed: u32, watch: &Watch, describe: bool) -> Result<Execution> {
        self.sandbox.run_isolated(test, seed, watch, describe)
    }

    /// See [`Sandbox::run_isolated_twice`].
    pub(crate) fn run_isolated_twice(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Vec<Execution>> {
        self.sandbox.run_isolated_twice(test, seed, watch)
    }

    /// See [`Sandbox::run_in_new_context`].
    pub(crate) fn run_in_new_context(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Execution> {
        self.sandbox.run_in_new_context(test, seed, watch)
    }

    /// See [`Sandbox::run_in_sequence`].
    pub(crate) fn run_in_sequence(&mut self, tests: &[(&str, u32, &Watch)]) -> Result<Vec<Execution>> {
        self.sandbox.run_in_sequence(tests)
    }

    /// See [`Sandbox::run_in_sequence_from_kept`].
    pub(crate) fn run_in_sequence_from_kept(&mut self, tests: &[(&str, u32, &Watch)]) -> Result<Vec<Execution>> {
        self.sandbox.run_in_sequence_from_kept(tests)
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
