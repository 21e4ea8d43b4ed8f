//! The session stepper: the Flycatcher loop, one candidate test per step.
//!
//! A [`Session`] owns the loaded program, the sandbox, the type records and the suite. [`Session::step`]
//! generates one candidate for the current method under test, runs it, records what the proxies saw,
//! decides types whose delay has passed, elects the candidate if it is valid and covers new
//! statements, and stops the method when it is done. Everything is readable between steps and the
//! [`Settings`] may change between steps: the terminal UI and `generate` drive this same code.

mod scheduler;
mod settings;
mod stability;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

pub use settings::Settings;

use scheduler::Scheduler;

use crate::analysis::classes::analyse;
use crate::analysis::constants::{Constant, Literals};
use crate::analysis::files::SourceSet;
use crate::analysis::state::shared_state_write;
use crate::analysis::typeofs::{TypeofCheck, typeof_checks};
use crate::error::{Error, Result};
use crate::generate::exhaustive::Enumeration;
use crate::generate::guided::ConstantPool;
use crate::generate::hazards::Hazards;
use crate::generate::random::Strategy;
use crate::generate::search::Archive;
use crate::generate::{Request, Statement, TestCase, candidate};
use crate::inference::{Decision, DecisionSource, ParamType, TypeTable, decide};
use crate::program::{ClassId, FunctionRef, Origin, ProgramInfo};
use crate::sandbox::{CodeBase, Execution, Outcome, Sandbox, Thrown, Watch};
use crate::suite::{ElectedTest, Suite};

/// Why a method under test stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// Every statement is covered.
    Covered,
    /// The target coverage was reached.
    Target,
    /// Its time budget ran out.
    Timeout,
    /// Too many valid runs in a row added no coverage.
    Stale,
    /// It cannot be tested (a parameter's type cannot be inferred, or its code cannot be measured).
    Aborted,
}

impl StopReason {
    /// The name used in reports: `covered`, `target`, `timeout`, `stale`, `aborted`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Covered => "covered",
            StopReason::Target => "target",
            StopReason::Timeout => "timeout",
            StopReason::Stale => "stale",
            StopReason::Aborted => "aborted",
        }
    }
}

/// Where a method under test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Not started.
    Pending,
    /// Being worked on.
    Running,
    /// Finished.
    Done(StopReason),
}

/// The state of one method under test.
#[derive(Debug, Clone)]
pub struct MethodState {
    /// Its class.
    pub class: ClassId,
    /// Its name.
    pub method: String,
    /// Its code, when it could be located.
    pub function: Option<FunctionRef>,
    /// One flag per statement: covered by an elected test.
    pub covered: Vec<bool>,
    /// One flag per branch outcome: taken by an elected test.
    pub branches: Vec<bool>,
    /// Candidates executed.
    pub executions: u64,
    /// Valid candidates executed.
    pub valid_runs: u64,
    /// Valid runs since the last new coverage.
    pub stale: u64,
    /// Time spent on it (only while stepping).
    pub elapsed: Duration,
    /// When it reached full coverage, in time spent on it.
    pub time_to_full: Option<Duration>,
    /// Tests elected for it.
    pub elected: usize,
    /// Failing tests logged for it.
    pub failing: usize,
    /// Where it stands.
    pub status: Status,
    /// Warnings for people.
    pub warnings: Vec<String>,
    /// Candidates whose receiver was built, and those whose construction threw.
    pub constructions: (u64, u64),
    /// Constants of the method and its class, for guided inputs.
    pub constants: ConstantPool,
    /// How far the exhaustive strategies have enumerated its call sequences.
    pub enumeration: Enumeration,
    /// The closest candidates to its branch outcomes not taken yet, for search.
    pub archive: Archive,
}

/// Candidates whose receiver could not be built, with none built yet, after which a method is given
/// up: its constructor's parameters are likely typed wrongly, and only a person can tell.
const CONSTRUCTION_FAILURES: u64 = 500;

impl MethodState {
    /// A method not worked on yet, nothing of `function` covered.
    fn new(class: ClassId, method: String, function: Option<FunctionRef>) -> MethodState {
        let (statements, branches) =
            function.as_ref().map(|f| (f.statements.len(), f.branches.len())).unwrap_or_default();
        MethodState {
            class,
            method,
            function,
            covered: vec![false; statements],
            branches: vec![false; branches],
            executions: 0,
            valid_runs: 0,
            stale: 0,
            elapsed: Duration::ZERO,
            time_to_full: None,
            elected: 0,
            failing: 0,
            status: Status::Pending,
            warnings: Vec::new(),
            constructions: (0, 0),
            constants: ConstantPool::default(),
            enumeration: Enumeration::default(),
            archive: Archive::default(),
        }
    }

    /// Covered statements.
    pub fn covered_count(&self) -> usize {
        self.covered.iter().filter(|c| **c).count()
    }

    /// Taken branch outcomes.
    pub fn branches_covered(&self) -> usize {
        self.branches.iter().filter(|c| **c).count()
    }

    /// Statement coverage in percent (100 for a method whose code could not be located).
    pub fn coverage_percent(&self) -> f64 {
        if self.covered.is_empty() { 100.0 } else { 100.0 * self.covered_count() as f64 / self.covered.len() as f64 }
    }

    fn watch(&self) -> Watch {
        self.function
            .as_ref()
            .map(|f| Watch { statements: f.statements.clone(), branches: f.branches.clone() })
            .unwrap_or_default()
    }

    fn warn(&mut self, warning: String) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }
}

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
    /// What became of it.
    pub verdict: CandidateVerdict,
    /// Types decided after this step: (parameter id, decision).
    pub decisions: Vec<(u32, Decision)>,
    /// Set when the method under test stopped after this step.
    pub stopped: Option<StopReason>,
}

/// Everything a run needs to start.
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// Files to test.
    pub files: Vec<PathBuf>,
    /// Only classes under this namespace (dotted path).
    pub namespace: Option<String>,
    /// Only these classes (names or aliases).
    pub classes: Vec<String>,
    /// Only this method.
    pub method: Option<String>,
    /// A recording to seed generation from (see [`crate::record::seed`]).
    pub seed_from: Option<crate::record::SeedFrom>,
}

/// The whole state of a run.
pub struct Session {
    /// What the analyser found.
    pub program: ProgramInfo,
    /// The instrumented code.
    pub code: CodeBase,
    /// Type records of every parameter.
    pub types: TypeTable,
    /// The methods under test, in the order of the program (see [`scheduler`] for the order they are
    /// worked on).
    pub methods: Vec<MethodState>,
    /// The method the last step worked on (or the one selected for the next step).
    pub current: Option<usize>,
    /// Elected and failing tests.
    pub suite: Suite,
    /// Steps taken.
    pub iteration: u64,
    /// Candidates executed (elections re-run a candidate; that is not counted).
    pub executions: u64,
    /// Time spent stepping.
    pub elapsed: Duration,
    /// Warnings that concern no single method.
    pub warnings: Vec<String>,
    /// The report of the last step.
    pub last: Option<StepReport>,
    /// Recorded values and call sequences that candidates may start from (see [`crate::record::seed`]).
    pub seeds: crate::record::seed::Seeds,
    /// Methods whose calls tend to hit a limit, learnt from every run.
    pub hazards: Hazards,
    settings: Settings,
    sandbox: Sandbox,
    rng: StdRng,
    /// How the random primitives chosen by a leap of faith fare, by parameter id.
    leaps: BTreeMap<u32, LeapTrial>,
    scheduler: Scheduler,
}

/// A leap of faith on trial: a parameter typed at random whose calls fail every time is probably the
/// wrong primitive (a `typeof` check leaves no trace on a proxy), so the next primitive is tried.
#[derive(Debug, Clone, Default)]
struct LeapTrial {
    tried: Vec<ParamType>,
    failures: u32,
    successes: u32,
}

/// How many inference delays a parameter without evidence waits before its leap of faith.
const LEAP_PATIENCE: u32 = 5;

/// Failures in a row, with no success, after which a leap of faith is retried with another primitive.
const LEAP_FAILURES: u32 = 30;

/// How many failures a call cut off by a limit counts for in a leap's trial.
const LEAP_FAILURES_PER_LIMIT: u32 = 10;

impl Session {
    /// Loads, analyses and prepares a run. Errors are the user's to fix (see [`Error`]).
    pub fn new(options: &SessionOptions, settings: Settings) -> Result<Session> {
        let sources = SourceSet::load(&options.files)?;
        let shared_write = sources
            .entries
            .iter()
            .find_map(|e| shared_state_write(&e.parsed.program).map(|what| format!("{}: {what}", e.parsed.display)));
        // Only search reads branch distances, and measuring them costs time in every run.
        let code = CodeBase::new(sources, settings.generation.strategy == Strategy::Search);
        let mut sandbox = Sandbox::new(&code, settings.limits.clone())?;
        let mut program = analyse(&code, &mut sandbox, options.namespace.as_deref())?;
        sandbox.set_fresh_each_test(shared_write.is_some());
        let mut warnings = Vec::new();
        if let Some(what) = shared_write {
            warnings.push(format!("every test runs in a fresh context because the code changes shared state ({what})"));
        }
        select_classes(&mut program, &options.classes)?;
        let mut methods = methods_under_test(&program, options.method.as_deref())?;
        mine_constants(&code, &program, &mut methods);
        prepare_archives(&code, &mut methods);
        let mut types = TypeTable::new(&program);
        record_typeof_checks(&code, &program, &mut types);
        let rng = StdRng::seed_from_u64(settings.seed);
        let mut session = Session {
            program,
            code,
            types,
            methods,
            hazards: Hazards::default(),
            current: None,
            suite: Suite::default(),
            iteration: 0,
            executions: 0,
            elapsed: Duration::ZERO,
            warnings,
            last: None,
            seeds: Default::default(),
            settings,
            sandbox,
            rng,
            leaps: BTreeMap::new(),
            scheduler: Scheduler::default(),
        };
        session.abort_unlocatable();
        if let Some(seed_from) = &options.seed_from {
            crate::record::seed::seed_session(&mut session, seed_from)?;
        }
        Ok(session)
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes settings; they apply from the next step. Methods stopped by the time or stale limits
    /// start again when the change raises that limit.
    pub fn set_settings(&mut self, settings: Settings) {
        self.sandbox.set_limits(settings.limits.clone());
        if settings.generation.strategy == Strategy::Search && !self.code.distances {
            let warning = "search runs without branch distances: the code was loaded under another strategy (start \
                           with --strategy search to measure them)";
            if !self.warnings.iter().any(|w| w == warning) {
                self.warnings.push(warning.to_string());
            }
        }
        for m in &mut self.methods {
            let resume = match m.status {
                Status::Done(StopReason::Timeout) => settings.timeout > m.elapsed,
                Status::Done(StopReason::Stale) => settings.max_stale > m.stale,
                Status::Done(StopReason::Target) => settings.target_coverage > m.coverage_percent(),
                _ => false,
            };
            if resume {
                m.status = Status::Pending;
            }
        }
        self.settings = settings;
    }

    /// Fixes a parameter's type (accepting the inferred one, or overriding it).
    pub fn set_type(&mut self, param: u32, ty: ParamType, source: DecisionSource) {
        let evidence = match source {
            DecisionSource::Accepted => "accepted by the user".to_string(),
            DecisionSource::Configured => "from the project file".to_string(),
            _ => "chosen by the user".to_string(),
        };
        self.types.get_mut(param).decision = Some(Decision { ty, evidence, source });
        // A method aborted for want of this type may be testable now: it starts counting afresh.
        for m in &mut self.methods {
            if m.status == Status::Done(StopReason::Aborted) && m.function.is_some() {
                m.status = Status::Pending;
                m.constructions = (0, 0);
            }
        }
    }

    /// Makes `index` the method worked on from the next step until it stops (it restarts if it had
    /// stopped); then the weighted choice of [`scheduler`] resumes.
    pub fn select(&mut self, index: usize) {
        if index >= self.methods.len() {
            return;
        }
        if let Some(current) = self.current
            && self.methods[current].status == Status::Running
        {
            self.methods[current].status = Status::Pending;
        }
        let m = &mut self.methods[index];
        if matches!(m.status, Status::Done(StopReason::Timeout | StopReason::Stale)) {
            m.elapsed = Duration::ZERO;
            m.stale = 0;
        }
        if m.status != Status::Done(StopReason::Covered) && m.function.is_some() {
            m.status = Status::Running;
        }
        self.current = Some(index);
        self.scheduler.pin(index);
    }

    /// Whether every method under test has stopped.
    pub fn finished(&self) -> bool {
        self.methods.iter().all(|m| matches!(m.status, Status::Done(_)))
    }

    /// Takes one step: one candidate for the current method under test. Returns `None` when every
    /// method has stopped.
    pub fn step(&mut self) -> Result<Option<StepReport>> {
        let started = Instant::now();
        let Some(index) = self.method_to_work_on() else { return Ok(None) };
        let report = self.step_method(index, started)?;
        self.elapsed += started.elapsed();
        self.last = Some(report.clone());
        Ok(Some(report))
    }

    /// Steps until every method has stopped, calling `progress` after each step.
    pub fn run_to_end(&mut self, mut progress: impl FnMut(&Session, &StepReport)) -> Result<()> {
        while let Some(report) = self.step()? {
            progress(self, &report);
        }
        Ok(())
    }

    fn method_to_work_on(&mut self) -> Option<usize> {
        let next = self.scheduler.next(&mut self.methods, &mut self.rng)?;
        self.current = Some(next);
        Some(next)
    }

    fn step_method(&mut self, index: usize, started: Instant) -> Result<StepReport> {
        let (class, method) = (self.methods[index].class, self.methods[index].method.clone());
        self.iteration += 1;
        self.types.add_member_records();
        let elected: Vec<&TestCase> = self.suite.elected.iter().map(|e| &e.test).collect();
        let m = &mut self.methods[index];
        let request = Request {
            program: &self.program,
            types: &self.types,
            settings: &self.settings.generation,
            constants: &m.constants,
            class,
            method: &method,
            elected: &elected,
            hazards: &self.hazards,
        };
        let test = candidate(&request, &mut m.enumeration, &mut m.archive, &mut self.rng);
        let test = self.seeds.start_from(test, &self.program, &mut self.rng);
        let seed = self.rng.random::<u32>();
        let watch = self.methods[index].watch();
        let remaining = self.settings.timeout.saturating_sub(self.methods[index].elapsed);
        let mut limits = self.settings.limits.clone();
        limits.test_time = limits.test_time.min(remaining.max(Duration::from_millis(1)));
        if limits.test_time != self.sandbox.limits().test_time {
            self.sandbox.set_limits(limits);
        }
        let json = test.to_json(&self.program);
        let execution = self.sandbox.run(&json, seed, &watch, false)?;
        self.executions += 1;
        self.methods[index].executions += 1;
        self.types.record(&execution.events, &self.code);
        self.hazards.record(&test, execution.limit_hit_at(), &self.types);
        self.mark_asynchronous(&test, &execution.awaited);
        let mut decisions = self.decide_types(&test, execution.limit_hit_at());
        decisions.extend(self.judge_leaps(&test, &execution));
        let valid = test.is_valid();
        let regression = is_regression(&execution.outcome, test.statements.len().saturating_sub(1));
        let mut verdict = if valid { CandidateVerdict::NoNewCoverage } else { CandidateVerdict::Invalid };
        if valid {
            self.methods[index].valid_runs += 1;
            let new: Vec<u32> =
                execution.statements.iter().copied().filter(|s| !self.methods[index].covered[*s as usize]).collect();
            // A test cut short by the end of the method's own budget is not a possible bug.
            let budget_ended = execution.outcome == Outcome::TimedOut
                && self.sandbox.limits().test_time < self.settings.limits.test_time;
            if execution.outcome != Outcome::Passed && !budget_ended {
                let message = execution.outcome.describe(self.sandbox.limits());
                let culprit = execution.failed_at().map(|at| test.callee(at, &self.program));
                if self.suite.log_failure(test.clone(), culprit, message.clone(), execution.outcome.clone()) {
                    self.methods[index].failing += 1;
                }
                verdict = CandidateVerdict::Failed(message);
            }
            if regression
                && !new.is_empty()
                && let Some(covered) = self.elect(index, &test, &json, seed, &execution)?
            {
                verdict = CandidateVerdict::NewCoverage(covered);
            }
            if !matches!(verdict, CandidateVerdict::NewCoverage(_)) {
                self.methods[index].stale += 1;
            }
        }
        self.count_construction(index, &test, &execution.outcome);
        let m = &mut self.methods[index];
        if valid && self.settings.generation.strategy == Strategy::Search {
            m.archive.observe(&test, &execution, &m.covered, &m.branches);
        }
        m.elapsed += started.elapsed();
        let stopped = self.stop_reason(index);
        let m = &mut self.methods[index];
        if let Some(reason) = stopped {
            m.status = Status::Done(reason);
            if reason == StopReason::Covered {
                m.time_to_full = Some(m.elapsed);
            }
        }
        Ok(StepReport { method: index, test, outcome: execution.outcome, verdict, decisions, stopped })
    }

    /// Marks the methods whose calls in `test` returned promises (statements `awaited`), so that tests
    /// await their calls from now on.
    fn mark_asynchronous(&mut self, test: &TestCase, awaited: &[usize]) {
        for &at in awaited {
            let Some(Statement::Call { receiver, method, .. }) = test.statements.get(at) else { continue };
            let class = &mut self.program.classes[test.variables[*receiver].class];
            if let Some(info) = class.methods.iter_mut().find(|m| m.name == *method) {
                info.asynchronous = true;
            }
        }
    }

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
    fn elect(
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
        });
        Ok(Some(new.len()))
    }

    /// Counts whether the candidate's receiver (and what its constructor needed) could be built, when
    /// no recording proxy took part in building it.
    fn count_construction(&mut self, index: usize, test: &TestCase, outcome: &Outcome) {
        // Calls that put argument instances into a state may come before the receiver's construction.
        let receiver = match test.statements.last() {
            Some(Statement::Call { receiver, .. }) => *receiver,
            _ => 0,
        };
        let receiver_built_at = test
            .statements
            .iter()
            .position(|s| matches!(s, Statement::Construct { variable, .. } if *variable == receiver))
            .map_or(test.statements.len(), |at| at + 1);
        let with_proxies = test.statements[..receiver_built_at]
            .iter()
            .any(|s| s.args().iter().any(|a| matches!(a, crate::generate::Value::Proxy(_))));
        if with_proxies {
            return;
        }
        let failed = match outcome {
            // A throw from a call that put an argument into a state says nothing about constructors.
            Outcome::Threw { at, thrown }
                if *at < receiver_built_at && matches!(test.statements[*at], Statement::Construct { .. }) =>
            {
                Some(thrown)
            }
            _ => None,
        };
        let m = &mut self.methods[index];
        match failed {
            None => m.constructions.0 += 1,
            Some(thrown) => {
                m.constructions.1 += 1;
                if m.constructions.0 == 0 && m.constructions.1 >= CONSTRUCTION_FAILURES {
                    let class = &self.program.classes[m.class].name;
                    let what = match thrown {
                        Thrown::Error { name, message, .. } => format!("{name}: {message}"),
                        Thrown::Value(_) => "a non-error value".into(),
                    };
                    m.warn(format!(
                        "aborted: every construction of {class} threw ({what}); its constructor's parameter types are \
                         probably wrong: fix them with `o` in explore or in flycatcher.json"
                    ));
                    m.status = Status::Done(StopReason::Aborted);
                }
            }
        }
    }

    fn stop_reason(&self, index: usize) -> Option<StopReason> {
        let m = &self.methods[index];
        if m.status == Status::Done(StopReason::Aborted) {
            return Some(StopReason::Aborted);
        }
        if m.covered.iter().all(|c| *c) {
            Some(StopReason::Covered)
        } else if m.coverage_percent() >= self.settings.target_coverage {
            Some(StopReason::Target)
        } else if m.elapsed >= self.settings.timeout {
            Some(StopReason::Timeout)
        } else if m.stale >= self.settings.max_stale {
            Some(StopReason::Stale)
        } else {
            None
        }
    }

    /// Decides the types of the test's parameters whose delay has passed. A proxy passed to the
    /// statement a limit cut off (`cut_at`) is decided at once: each further use would cost the whole
    /// time limit; a looping use already left plenty of evidence, and one that left none (`i !== n`
    /// never holds for a proxy) is what keeps the loop going, so a leap of faith (judged like any
    /// other) is the way out.
    fn decide_types(&mut self, test: &TestCase, cut_at: Option<usize>) -> Vec<(u32, Decision)> {
        let cut_off = cut_at.and_then(|at| test.statements.get(at)).map(|s| s.proxies()).unwrap_or_default();
        let mut decisions = Vec::new();
        for id in test.proxies() {
            let record = self.types.get(id);
            let hurried = cut_off.contains(&id);
            if record.decision.is_some() || (record.uses < self.settings.delay && !hurried) {
                continue;
            }
            // Most uses of a parameter can show nothing (a callback is not called while the list it
            // walks is empty, and the list fills only in some call sequences): a leap of faith, which
            // is only retried when calls fail every time, waits longer than an inference.
            if !record.has_evidence() && record.uses < LEAP_PATIENCE * self.settings.delay && !hurried {
                continue;
            }
            let decision = decide(record, &self.program, &mut self.rng);
            self.warn_about_decision(id, &decision);
            self.types.get_mut(id).decision = Some(decision.clone());
            decisions.push((id, decision));
        }
        decisions
    }

    /// Warns the methods a parameter concerns about a leap of faith, replacing an earlier warning about
    /// the same parameter.
    fn warn_about_decision(&mut self, id: u32, decision: &Decision) {
        let record = self.types.get(id);
        let key = &record.key;
        let name = format!("{}.{}({})", self.program.classes[key.class].name, key.function, record.name);
        if decision.source != DecisionSource::LeapOfFaith {
            return;
        }
        let warning = format!("{name}: {}", decision.evidence);
        let concerned =
            |m: &MethodState| m.class == key.class && (m.method == key.function || key.function == "constructor");
        if !self.methods.iter().any(concerned) {
            // A class that is only a parameter type (like a list's Node) has no method to warn.
            self.warnings.retain(|w| !w.starts_with(&name));
            self.warnings.push(warning);
            return;
        }
        for m in self.methods.iter_mut().filter(|m| concerned(m)) {
            m.warnings.retain(|w| !w.starts_with(&name));
            m.warn(warning.clone());
        }
    }

    /// Counts, for parameters typed by a leap of faith, whether the calls receiving them succeeded, and
    /// switches a parameter to another primitive when its calls only ever fail.
    fn judge_leaps(&mut self, test: &TestCase, execution: &Execution) -> Vec<(u32, Decision)> {
        let failed_at = execution.failed_at();
        if execution.outcome != Outcome::Passed && failed_at.is_none() {
            // Which call a limit cut off is unknown: nothing to judge.
            return Vec::new();
        }
        // A cut-off call cost the whole time limit, as much as many failed calls.
        let weight = if execution.outcome.hit_limit() { LEAP_FAILURES_PER_LIMIT } else { 1 };
        let reached = failed_at.map_or(test.statements.len(), |at| at + 1);
        let mut switched = Vec::new();
        for (index, statement) in test.statements.iter().enumerate().take(reached) {
            // A call that received a proxy may have failed because of the proxy.
            if statement.args().iter().any(crate::generate::Value::contains_proxy) {
                continue;
            }
            let (class, function) = match statement {
                Statement::Construct { class, .. } => (*class, "constructor"),
                Statement::Call { method, .. } => (test.class, method.as_str()),
                Statement::Rebuild { .. } => continue,
            };
            // The members an options object held are judged like parameters: each was given to the call.
            let mut judged = Vec::new();
            for (&id, arg) in self.types.params_of(class, function).iter().zip(statement.args()) {
                given_records(&self.types, id, arg, &mut judged);
            }
            for id in judged {
                let record = self.types.get(id);
                let Some(Decision { source: DecisionSource::LeapOfFaith, .. }) = &record.decision else { continue };
                let current = record.current_type();
                let trial = self.leaps.entry(id).or_default();
                if Some(index) == failed_at {
                    trial.failures += weight;
                } else {
                    trial.successes += 1;
                }
                if trial.successes > 0 || trial.failures < LEAP_FAILURES {
                    continue;
                }
                trial.tried.push(current);
                // Primitives first, then the built-in objects a `typeof` or `instanceof` check may want.
                let primitives = [
                    ParamType::Number,
                    ParamType::String,
                    ParamType::Boolean,
                    ParamType::Function,
                    ParamType::Array,
                    ParamType::Object,
                ];
                if primitives.iter().all(|t| trial.tried.contains(t)) {
                    // Another parameter of the same call may have been to blame: go round again.
                    trial.tried = vec![current];
                }
                let Some(next) = primitives.into_iter().find(|t| !trial.tried.contains(t)) else { continue };
                trial.failures = 0;
                let evidence = format!(
                    "no evidence; calls failed every time with a {}, so a leap of faith to {}",
                    current.name(&self.program),
                    next.name(&self.program)
                );
                let decision = Decision { ty: next, evidence, source: DecisionSource::LeapOfFaith };
                self.warn_about_decision(id, &decision);
                self.types.get_mut(id).decision = Some(decision.clone());
                switched.push((id, decision));
            }
        }
        switched
    }

    fn abort_unlocatable(&mut self) {
        for m in &mut self.methods {
            if m.function.is_none() {
                m.warn("aborted: its code cannot be located for coverage (a native or bound function?)".into());
                m.status = Status::Done(StopReason::Aborted);
            }
        }
    }

    fn statement_lines(&self, function: &FunctionRef, offsets: &[u32]) -> Vec<u32> {
        let file = &self.code.files[function.file];
        offsets
            .iter()
            .filter_map(|o| {
                let id = function.statements.start + o;
                file.instrumented.statements.get((id - file.statements.start) as usize).map(|s| s.line)
            })
            .collect()
    }

    /// Minimises the elected tests (see [`Session::minimize`]), drops what changes between runs (see
    /// [`Session::check_stability`]), then writes the suite and the failing tests; see [`Suite::write`].
    pub fn export(
        &mut self,
        format: crate::suite::export::Format,
        out_dir: &std::path::Path,
        command: &str,
    ) -> Result<Vec<PathBuf>> {
        self.minimize()?;
        self.check_stability()?;
        let header = vec![
            "Generated by Flycatcher: regression tests recording the current behaviour.".to_string(),
            format!("Seed {}; command: {command}", self.settings.seed),
        ];
        self.suite.write(&self.program, &self.code, format, out_dir, &header)
    }

    /// Shortens every elected test not minimised yet: statements are dropped one at a time, last first
    /// (never the final call of the method under test, nor a construction still used), as long as the
    /// test alone still covers every statement of its method it covered and ends the same way. Its
    /// results are described again from the shorter run, so the assertions stay true. Then tests that
    /// the other tests of their method make redundant are dropped.
    pub fn minimize(&mut self) -> Result<()> {
        // Stepping may have lowered the test time limit to the last method's remaining budget.
        self.sandbox.set_limits(self.settings.limits.clone());
        for elected in 0..self.suite.elected.len() {
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
                let mut shorter = test.clone();
                let removed = shorter.statements.remove(k);
                if let Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. } = removed
                    && shorter.uses_variable(variable)
                {
                    continue;
                }
                let run = self.sandbox.run_isolated(&shorter.to_json(&self.program), seed, &watch, true)?;
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
            e.minimized = true;
        }
        self.drop_redundant_tests();
        Ok(())
    }

    /// Drops tests whose statements the other tests of the same method cover too (an early test is
    /// often subsumed by later ones), latest first.
    fn drop_redundant_tests(&mut self) {
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

/// Adds `id` and the records of the members `arg` holds when it is an options object, nested ones too.
fn given_records(types: &TypeTable, id: u32, arg: &crate::generate::Value, out: &mut Vec<u32>) {
    out.push(id);
    if let crate::generate::Value::Object(members) = arg {
        for (name, value) in members {
            if let Some(member) = types.member_of(id, name) {
                given_records(types, member, value, out);
            }
        }
    }
}

/// Gives every parameter the types its function compares it with through `typeof`.
fn record_typeof_checks(code: &CodeBase, program: &ProgramInfo, types: &mut TypeTable) {
    let checks: Vec<Vec<TypeofCheck>> =
        code.files.iter().map(|f| typeof_checks(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    for (class, info) in program.classes.iter().enumerate() {
        for method in std::iter::once(&info.constructor).chain(&info.methods) {
            let Some(function) = &method.function else { continue };
            let Some((file, f)) = code.function_of_statement(function.statements.start) else { continue };
            let within = checks[file].iter().filter(|c| (f.start..f.end).contains(&c.at)).cloned().collect();
            types.set_typeof_checks(class, &method.name, within);
        }
    }
}

/// Gives each method under test the constants of its own code (counted twice: they matter most) and of
/// its class's constructor and methods.
fn mine_constants(code: &CodeBase, program: &ProgramInfo, methods: &mut [MethodState]) {
    let literals: Vec<Literals> =
        code.files.iter().map(|f| Literals::mine(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    let constants_of = |function: &FunctionRef| -> Vec<Constant> {
        code.function_of_statement(function.statements.start)
            .filter(|_| !function.statements.is_empty())
            .map(|(file, f)| literals[file].within(f.start, f.end).cloned().collect())
            .unwrap_or_default()
    };
    for m in methods.iter_mut() {
        let class = &program.classes[m.class];
        let mut constants: Vec<Constant> = m.function.as_ref().map(&constants_of).unwrap_or_default();
        constants.extend(constants.clone());
        for f in std::iter::once(&class.constructor).chain(class.own_methods()).filter_map(|f| f.function.as_ref()) {
            constants.extend(constants_of(f));
        }
        m.constants = ConstantPool::new(constants.iter());
    }
}

/// Gives each method's search archive the statement each of its branch outcomes guards.
fn prepare_archives(code: &CodeBase, methods: &mut [MethodState]) {
    for m in methods.iter_mut() {
        let Some(function) = &m.function else { continue };
        let file = &code.files[function.file];
        let guards = function
            .branches
            .clone()
            .map(|id| {
                let branch = file.instrumented.branches.get(id.checked_sub(file.branches.start)? as usize)?;
                branch.guards.filter(|s| function.statements.contains(s)).map(|s| s - function.statements.start)
            })
            .collect();
        m.archive = Archive::new(guards);
    }
}

/// Whether a run can become a regression test: it passed, or the method under test (the last
/// statement) threw something other than QuickJS's own InternalError, which other engines do not have.
fn is_regression(outcome: &Outcome, last_statement: usize) -> bool {
    match outcome {
        Outcome::Passed => true,
        Outcome::Threw { at, thrown } => {
            *at == last_statement && !matches!(thrown, Thrown::Error { name, .. } if name == "InternalError")
        }
        _ => false,
    }
}

fn select_classes(program: &mut ProgramInfo, wanted: &[String]) -> Result<()> {
    if wanted.is_empty() {
        return Ok(());
    }
    for name in wanted {
        if program.class_named(name).is_none() {
            return Err(Error::Unknown {
                what: "class",
                name: name.clone(),
                candidates: program.classes.iter().map(|c| c.name.clone()).collect(),
            });
        }
    }
    for class in &mut program.classes {
        class.under_test = wanted.iter().any(|w| *w == class.name || *w == class.alias);
    }
    Ok(())
}

fn methods_under_test(program: &ProgramInfo, method: Option<&str>) -> Result<Vec<MethodState>> {
    let mut methods = Vec::new();
    for (class, info) in program.classes.iter().enumerate().filter(|(_, c)| c.under_test) {
        // An alias (`abs` and `absoluteValue` being one function object) is tested once, under its first
        // name; closures made from one function expression in a loop are distinct methods.
        for m in info.own_methods().filter(|m| m.alias_of.is_none() && method.is_none_or(|wanted| wanted == m.name)) {
            methods.push(MethodState::new(class, m.name.clone(), m.function.clone()));
        }
    }
    if let Some(wanted) = method
        && methods.is_empty()
    {
        let candidates = program
            .classes
            .iter()
            .filter(|c| c.under_test)
            .flat_map(|c| {
                c.methods
                    .iter()
                    .filter(|m| m.origin != Origin::Inherited)
                    .map(move |m| format!("{}.{}", c.name, m.name))
            })
            .collect();
        return Err(Error::Unknown { what: "method", name: wanted.to_string(), candidates });
    }
    if methods.is_empty() {
        return Err(Error::NoClass {
            message: format!(
                "the classes selected have no methods to test: {} (getters, setters and static methods are not tested)",
                program.classes.iter().filter(|c| c.under_test).map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
            ),
        });
    }
    Ok(methods)
}
