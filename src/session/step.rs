//! One step of the loop: the next method under test, a candidate for it, its run, what the run taught
//! (types, hazards, asynchronous methods), its verdict, and whether the method is done.

use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::RngExt;

use super::budget::candidate_cap;
use super::election::is_regression;
use super::{MethodState, Session, Status, StopReason};
use crate::error::{Error, Result};
use crate::generate::{Request, candidate, fitted};
use crate::inference::Decision;
use crate::model::observed::{Outcome, Thrown};
use crate::model::program::{CONSTRUCTOR, ClassId};
use crate::model::settings::Strategy;
use crate::model::test::{Statement, TestCase};
use crate::sandbox::{Execution, Test};

/// Valid candidates in a row without new coverage after which guided generation hands a method to
/// search with branch distances: by then what random inputs and mined constants reach easily is
/// covered, and distances are worth their cost (a call or more per measured condition) on what is left.
/// Counted in candidates, not time, so that a seed gives the same suite; few enough for a method whose
/// tests are slow (a hash over long strings runs about a thousand a second) to get there in time.
const PLATEAU: u64 = 200;
/// Most candidates in a row fitted to the names the one before read (see [`crate::generate::fitted`]):
/// an object read by names of its own reading (`o[o.next]`) would be fitted for ever.
const MAX_FOLLOW_UPS: u32 = 3;

/// What became of a candidate.
#[derive(Debug, Clone, PartialEq)]
pub enum CandidateVerdict {
    /// Valid and covered new statements: elected.
    NewCoverage(usize),
    /// Valid, ran, but covered nothing new.
    NoNewCoverage,
    /// It still had unknown parameters (recording only).
    Invalid,
    /// Valid, but threw or hit a limit: logged as failing.
    Failed(String),
}

/// What one step did.
#[derive(Debug, Clone)]
pub struct StepReport {
    /// Index of the method under test in [`Session::methods`].
    pub method: usize,
    /// The candidate.
    pub test: TestCase,
    /// How its execution ended.
    pub outcome: Outcome,
    /// The statement of the candidate that threw or that a limit cut off, when known (not always the
    /// call of the method under test).
    pub(crate) failed_at: Option<usize>,
    /// Statements of the method under test the candidate ran (offsets in the method, ascending).
    pub(crate) statements: Vec<u32>,
    /// Those of them no elected test had covered before this step.
    pub(crate) new_statements: Vec<u32>,
    /// What became of it.
    pub verdict: CandidateVerdict,
    /// Types decided after this step: (parameter id, decision).
    pub(crate) decisions: Vec<(u32, Decision)>,
    /// Set when the method under test stopped after this step.
    pub stopped: Option<StopReason>,
}

impl Session {
    /// Takes one step: one candidate for the current method under test. Returns `None` when every
    /// method has stopped.
    pub fn step(&mut self) -> Result<Option<StepReport>> {
        let started = Instant::now();
        let Some(index) = self.method_to_work_on() else { return Ok(None) };
        let report = self.step_method(index, started)?;
        self.elapsed += started.elapsed();
        Ok(Some(report))
    }

    /// [`Session::step`], except that a bug in Flycatcher (a panic while stepping) comes back as an
    /// error instead of unwinding: the tests elected so far stay in the session for the caller to write.
    pub(crate) fn step_guarded(&mut self) -> Result<Option<StepReport>> {
        std::panic::catch_unwind(AssertUnwindSafe(|| self.step()))
            .map_err(|_| Error::Engine("internal error while stepping (a bug in flycatcher)".into()))?
    }

    /// Steps until every method has stopped, calling `progress` after each step.
    pub fn run_to_end(&mut self, progress: impl FnMut(&Session, &StepReport)) -> Result<()> {
        self.run_until(&AtomicBool::new(false), progress)
    }

    /// Steps (guarded, see [`Session::step_guarded`]) until every method has stopped or `interrupted` is
    /// set (by a Ctrl-C handler), calling `progress` after each step.
    pub(crate) fn run_until(
        &mut self,
        interrupted: &AtomicBool,
        mut progress: impl FnMut(&Session, &StepReport),
    ) -> Result<()> {
        while !interrupted.load(Ordering::SeqCst) {
            match self.step_guarded()? {
                Some(report) => progress(self, &report),
                None => break,
            }
        }
        Ok(())
    }

    pub(super) fn method_to_work_on(&mut self) -> Option<usize> {
        let next = self.scheduler.next(&mut self.methods, &mut self.rng)?;
        self.current = Some(next);
        Some(next)
    }

    /// Stops method `index` when it is done (see `stopping.rs`), saying so when the time cap ended it.
    fn stop_if_done(&mut self, index: usize) -> Option<StopReason> {
        let stopped = self.stop_reason(index);
        let m = &mut self.methods[index];
        if let Some(reason) = stopped {
            if reason == StopReason::TimeCap {
                m.warn(
                    "stopped by the time cap (--timeout) before its work budget: this suite may differ on another \
                     machine"
                        .into(),
                );
            }
            m.status = Status::Done(reason);
            m.reopened = false;
            if reason == StopReason::Covered && m.time_to_full.is_none() {
                m.time_to_full = Some(m.elapsed);
            }
        }
        stopped
    }

    pub(super) fn step_method(&mut self, index: usize, started: Instant) -> Result<StepReport> {
        let (class, method) = (self.methods[index].class, self.methods[index].method.clone());
        self.iteration += 1;
        let subject = &mut self.subject;
        subject.types.add_member_records();
        let elected: Vec<&TestCase> = self.suite.elected.iter().map(|e| &e.test).collect();
        let m = &mut self.methods[index];
        let request = Request {
            program: &subject.program,
            types: &subject.types,
            settings: &self.settings.generation,
            constants: &m.constants,
            class,
            method: &method,
            elected: &elected,
            hazards: &subject.hazards,
            returns: &subject.returns,
        };
        let strategy = self.settings.generation.strategy;
        let searching = strategy == Strategy::Search || m.searching;
        let test = m.follow_up.0.take().unwrap_or_else(|| {
            let test = candidate(&request, &mut m.enumeration, &mut m.archive, searching, &mut self.rng);
            subject.seeds.start_from(test, &subject.program, &mut self.rng)
        });
        let seed = self.rng.random::<u32>();
        let watch = self.methods[index].watch();
        let spent = self.runner.spent();
        let m = &self.methods[index];
        let (left, share) = (self.settings.budget.saturating_sub(m.work), candidate_cap(self.settings.budget));
        self.runner.cap_test(left.min(share), self.settings.timeout.saturating_sub(m.elapsed + started.elapsed()));
        self.runner.set_measuring(searching);
        let program = &self.subject.program;
        let execution = self.runner.run(Test::Case(&test, program), seed, &watch)?;
        if let Some(what) = self.runner.take_builtin_change() {
            self.warnings.push(format!(
                "a test of {}.{method} changed a built-in ({what}): the code keeps state between tests, so every test \
                 now runs in a fresh context",
                program.classes[class].name
            ));
        }
        self.executions += 1;
        self.methods[index].executions += 1;
        let decisions = self.learn(&test, &execution);
        self.follow_up(index, &test, &execution);
        let valid = test.is_valid();
        // Judged and elected cut; archived whole, so that a move from a refused construction calls again.
        let judged = ended_by_construction(&method, &test, &execution.outcome);
        let regression = electable(&self.methods[index], &test, &judged, &execution.outcome);
        let mut verdict = if valid { CandidateVerdict::NoNewCoverage } else { CandidateVerdict::Invalid };
        let new: Vec<u32> =
            execution.statements.iter().copied().filter(|s| !self.methods[index].covered[*s as usize]).collect();
        if valid {
            self.methods[index].valid_runs += 1;
            // A test cut short by the end of the method's own budget is not a possible bug; one ended by
            // its share of the budget is, as one the usual limit ends, and says how long it ran.
            let budget_ended = execution.outcome == Outcome::TimedOut
                && self.runner.capped()
                && (left <= share || execution.time_capped);
            if execution.outcome != Outcome::Passed && !budget_ended {
                let message = match execution.stalled {
                    // It ended at once: no limit was hit, and a runner would wait for ever.
                    Some(_) => "awaited a promise that nothing left could settle".to_string(),
                    None => execution.outcome.describe(&self.runner.limits_in_force()),
                };
                let culprit = execution.failed_at().map(|at| test.callee(at, &self.subject.program));
                if self.suite.log_failure(&judged, culprit, &message, &execution.outcome) {
                    self.methods[index].failing += 1;
                }
                verdict = CandidateVerdict::Failed(message);
            }
            if regression
                && !new.is_empty()
                && let Some(covered) = self.elect(index, &judged, seed, &execution)?
            {
                verdict = CandidateVerdict::NewCoverage(covered);
            }
            if !matches!(verdict, CandidateVerdict::NewCoverage(_)) {
                self.methods[index].stale += 1;
            }
        }
        self.count_construction(index, &test, &execution.outcome);
        let m = &mut self.methods[index];
        if valid && searching {
            m.archive.observe(&test, &execution, &m.covered, &m.branches);
        }
        if matches!(verdict, CandidateVerdict::NewCoverage(_)) {
            m.constants.retire(&m.covered);
        }
        if strategy == Strategy::Guided && m.stale >= PLATEAU && self.subject.code.distances {
            m.searching = true;
        }
        m.elapsed += started.elapsed();
        m.work += self.runner.spent() - spent;
        let stopped = self.stop_if_done(index);
        Ok(StepReport {
            method: index,
            test,
            failed_at: execution.failed_at(),
            statements: execution.statements,
            new_statements: new,
            outcome: execution.outcome,
            verdict,
            decisions,
            stopped,
        })
    }

    /// What a run of `test` teaches: the proxies' events and the patterns met go to the type table, an
    /// error's message too; limits hit to the hazards; new instances returned to what calls return; promises returned mark methods asynchronous. Returns
    /// the types decided (after the delay) and the leaps of faith judged.
    fn learn(&mut self, test: &TestCase, execution: &Execution) -> Vec<(u32, Decision)> {
        let subject = &mut self.subject;
        subject.types.record(&execution.events, &subject.code);
        subject.types.learn_patterns(test, &execution.patterns);
        let mut decisions = match &execution.outcome {
            Outcome::Threw { at, thrown: Thrown::Error { message, .. } } => {
                subject.types.learn_from_error(test, *at, message, &execution.events, &subject.program)
            }
            _ => Vec::new(),
        };
        // A stalled test ends at once, costing nothing: no hazard (its method is deferred instead).
        let cut_off = execution.limit_hit_at().filter(|_| execution.stalled.is_none());
        subject.hazards.record(test, cut_off, &subject.types, &subject.program);
        subject.returns.record(test, &execution.returned, &subject.program);
        subject.returns.record_functions(test, &execution.functions);
        self.mark_asynchronous(test, &execution.awaited);
        self.mark_stalling(test, execution.stalled);
        decisions.extend(self.decide_types(test, execution.limit_hit_at()));
        decisions.extend(self.judge_leaps(test, execution));
        decisions
    }

    /// Sets the next candidate of method `index` to `test` fitted to the names its run read on its objects
    /// (see [`crate::generate::fitted`]), unless `test` ends [`MAX_FOLLOW_UPS`] fitted ones in a row.
    fn follow_up(&mut self, index: usize, test: &TestCase, execution: &Execution) {
        let follow_ups = std::mem::take(&mut self.methods[index].follow_up.1);
        if follow_ups >= MAX_FOLLOW_UPS || !self.settings.generation.strategy.guided_inputs() {
            return;
        }
        let subject = &self.subject;
        let elected: Vec<&TestCase> = self.suite.elected.iter().map(|e| &e.test).collect();
        let m = &self.methods[index];
        let request = Request {
            program: &subject.program,
            types: &subject.types,
            settings: &self.settings.generation,
            constants: &m.constants,
            class: m.class,
            method: &m.method,
            elected: &elected,
            hazards: &subject.hazards,
            returns: &subject.returns,
        };
        if let Some(fitted) = fitted(&request, test, &execution.events, &mut self.rng) {
            self.methods[index].follow_up = (Some(fitted), follow_ups + 1);
        }
    }

    /// Marks the method whose awaited call stalled `test` (statement `stalled`), so that tests defer its
    /// calls now and then: the calls after one may settle its promise.
    pub(super) fn mark_stalling(&mut self, test: &TestCase, stalled: Option<usize>) {
        let Some(Statement::Call { receiver, method, deferred: false, .. }) =
            stalled.and_then(|at| test.statements.get(at))
        else {
            return;
        };
        let class = &mut self.subject.program.classes[test.variables[*receiver].class];
        if let Some(info) = class.methods.iter_mut().find(|m| m.name == *method) {
            info.stalls = true;
        }
    }

    /// Makes the methods `tests` call asynchronous exactly when the suite they were read from awaits
    /// them (`awaited`, its manifest's pairs): this session's runs may have seen a call return a promise
    /// that the suite's never did, and its assertions would then read `await assert.rejects` for the
    /// synchronous throw the suite asserts.
    pub(crate) fn await_as_written<'a>(
        &mut self,
        tests: impl IntoIterator<Item = &'a TestCase>,
        awaited: &[(ClassId, String)],
    ) {
        for test in tests {
            for statement in &test.statements {
                let Statement::Call { receiver, method, .. } = statement else { continue };
                let class = test.variables[*receiver].class;
                let written = awaited.iter().any(|(c, m)| *c == class && m == method);
                let methods = &mut self.subject.program.classes[class].methods;
                if let Some(info) = methods.iter_mut().find(|m| m.name == *method) {
                    info.asynchronous = written;
                }
            }
        }
    }

    /// Marks the methods whose calls in `test` returned promises (statements `awaited`), so that tests
    /// await their calls from now on; for a call of a function a call returned, the method that returned
    /// it.
    pub(super) fn mark_asynchronous(&mut self, test: &TestCase, awaited: &[usize]) {
        for &at in awaited {
            let maker = test.maker_of(at);
            let Some((class, method)) = test.called_at(maker.unwrap_or(at)) else { continue };
            if let Some(info) = self.subject.program.classes[class].methods.iter_mut().find(|m| m.name == method) {
                if maker.is_some() {
                    info.returned_asynchronous = true;
                } else {
                    info.asynchronous = true;
                }
            }
        }
    }
}

/// A candidate of a constructor under test (see `session/setup.rs`) whose construction of an instance of
/// its class threw, cut after that statement: the statements after it never ran, and a constructor
/// refusing its arguments (`throw new TypeError('Invalid Version')`) is what such a test asserts, as a
/// method's test asserts a call that throws at its end.
/// Any other candidate is judged as it is.
fn ended_by_construction<'t>(method: &str, test: &'t TestCase, outcome: &Outcome) -> Cow<'t, TestCase> {
    let Outcome::Threw { at, .. } = outcome else { return Cow::Borrowed(test) };
    let constructs = |s: &Statement| matches!(s, Statement::Construct { class, .. } if *class == test.class);
    if method != CONSTRUCTOR || *at + 1 == test.statements.len() || !test.statements.get(*at).is_some_and(constructs) {
        return Cow::Borrowed(test);
    }
    let mut test = test.clone();
    test.statements.truncate(at + 1);
    // Variables are in order of definition: those of the statements cut go with them.
    let defined = |s: &Statement| match s {
        Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. } => Some(*variable),
        Statement::Call { result, .. } => *result,
    };
    let count = test.statements.iter().filter_map(defined).max().map_or(0, |v| v + 1);
    test.variables.truncate(count);
    Cow::Owned(test)
}

/// Whether a candidate (judged as `judged`, see [`ended_by_construction`]) is one to elect: a regression
/// test, unless it is a refusal by the constructor under test while no candidate of that goal has built an
/// instance yet. A constructor that refuses every argument drawn takes what only its module holds (a
/// token, as `BigNumber.from` passes), and its users build the class through what the module offers: its
/// refusals are no behaviour of theirs.
fn electable(m: &MethodState, test: &TestCase, judged: &TestCase, outcome: &Outcome) -> bool {
    let constructs = |s: &Statement| matches!(s, Statement::Construct { class, .. } if *class == test.class);
    let refused = matches!(outcome, Outcome::Threw { at, .. } if test.statements.get(*at).is_some_and(constructs));
    let closed = refused && m.method == CONSTRUCTOR && m.constructions.0 == 0;
    is_regression(outcome, judged.statements.len().saturating_sub(1)) && !closed
}
