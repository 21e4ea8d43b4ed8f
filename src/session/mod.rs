//! The session stepper: the Flycatcher loop, one candidate test per step.
//!
//! A [`Session`] composes the services the rest of Flycatcher borrows, the [`Subject`] (the program and
//! what is known about it, `subject.rs`), the [`Runner`] (the sandbox and its limits, `runner.rs`) and the
//! [`Suite`], with the loop's own state (methods under test, scheduler, random generator, counters).
//! Mutation analysis, the explorer's views and the reports borrow those services; only the application
//! layer and the explorer's worker hold the session itself, mutably. [`Session::step`]
//! generates one candidate for the current method under test, runs it, records what the proxies saw,
//! decides types whose delay has passed, elects the candidate if it is valid and covers new
//! statements, and stops the method when it is done. Everything is readable between steps and the
//! [`Settings`] may change between steps: the terminal UI and `generate` drive this same code.
//!
//! The loop's parts are files of their own: `step.rs` (one candidate, start to end), `election.rs`
//! (which candidates become tests), `stopping.rs` (when a method is done), `types.rs` (deciding parameter
//! types; the rules are [`crate::inference`]'s), `scheduler.rs` (which method the next step works on),
//! `setup.rs` (preparing the methods under test), `helpers.rs` (the private methods each reaches), `minimize.rs` and `stability.rs` (the passes before
//! `export.rs`, within the budget of `budget.rs`) and `method.rs` (the state of one method under test).

mod budget;
mod election;
mod export;
mod helpers;
mod kept;
mod method;
mod minimize;
mod runner;
mod scheduler;
mod setup;
mod stability;
mod step;
mod stopping;
mod subject;
mod types;

use std::path::PathBuf;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;

pub use budget::Pass;
pub(crate) use budget::{BYTES_PER_UNIT, CONTEXT_COST, Ending, PassLimit, PassTimes};
pub(crate) use election::is_regression;
pub use method::{MethodState, Selection, Status, StopReason};
pub use step::{CandidateVerdict, StepReport};

pub(crate) use runner::Runner;
pub use subject::Subject;

use scheduler::Scheduler;
use setup::{
    drop_hidden_constructors, drop_straight_constructors, methods_under_test, mine_constants, prepare_archives,
    record_declared_factories, record_declared_private, record_declared_types, record_members_passed,
    record_typeof_checks, select_classes,
};

use crate::analysis::declared::Declarations;
use crate::analysis::files::SourceSet;
use crate::analysis::state::shared_state_write;
use crate::discovery::analyse;
use crate::error::Result;
use crate::generate::guided::ConstantPool;
use crate::generate::hazards::Hazards;
use crate::generate::returns::Returns;
use crate::generate::seeds::Seeds;
use crate::inference::TypeTable;
use crate::inference::leap::Leaps;
use crate::model::program::ClassId;
use crate::model::settings::{Settings, Strategy};
use crate::sandbox::CodeBase;
use crate::suite::{ElectedTest, Suite};

/// How the warning naming the globals Node has and the sandbox lacks that the code read while loading
/// starts (`generate` repeats it on stderr): the code took the path it takes without them, in every test.
pub const MISSING_GLOBALS_WARNING: &str = "the code read globals Node has and the sandbox lacks while loading (every test takes the path it takes \
     without them, which under Node it does not): ";

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
}

/// A run of the loop: the services it borrows out, and its own state.
///
/// The services are the [`Subject`] (the program and what is known about it), the [`Runner`] (the
/// sandbox and its limits) and the [`Suite`] (elected tests, failing log). The loop's own state is the
/// methods under test, the one worked on, the scheduler, the random generator, the leaps of faith, the
/// counters and the passes' times. Everything is read through accessors; what changes it are the
/// session's methods, which keep the parts consistent (a type fixed reopens the methods it blocked, new
/// settings reach the runner's limits, ...).
pub struct Session {
    subject: Subject,
    runner: Runner,
    suite: Suite,
    settings: Settings,
    /// The methods under test, in the order of the program, then the constructors of the classes with
    /// nothing else to test (see `setup.rs`; `scheduler.rs` for the order they are worked on).
    methods: Vec<MethodState>,
    /// The method the last step worked on (or the one selected for the next step).
    current: Option<usize>,
    /// Steps taken.
    iteration: u64,
    /// Candidates executed (elections re-run a candidate; that is not counted).
    executions: u64,
    /// Time spent stepping.
    elapsed: Duration,
    /// Time spent in the passes after generation (see `budget.rs`).
    passes: PassTimes,
    /// Warnings that concern no single method.
    warnings: Vec<String>,
    /// Ctrl-C's flag, for the passes after generation (see [`Session::interrupt_passes_on`]).
    interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    rng: StdRng,
    /// How the random primitives chosen by a leap of faith fare.
    leaps: Leaps,
    scheduler: Scheduler,
}

impl Session {
    /// Loads, analyses and prepares a run. Errors are the user's to fix (see [`crate::error::Error`]).
    pub fn new(options: &SessionOptions, settings: Settings) -> Result<Session> {
        let sources = SourceSet::load(&options.files)?;
        let shared_write =
            sources.entries.iter().filter(|e| !e.builtin).find_map(|e| {
                shared_state_write(&e.parsed.program).map(|what| format!("{}: {what}", e.parsed.display))
            });
        let code_warnings = sources.warnings.clone();
        // Only search reads branch distances (guided hands methods to it): other strategies' code does
        // without the measuring form of conditions.
        let code = CodeBase::new(sources, settings.generation.strategy.measures_distances());
        let mut runner = Runner::new(&code, settings.limits.clone())?;
        let mut program = analyse(&code, runner.sandbox_mut(), options.namespace.as_deref())?;
        let mut warnings = code_warnings;
        if let Some(what) = shared_write {
            warnings.push(format!(
                "the code can change shared state ({what}): what a test writes there is undone after it, or its \
                 context built anew"
            ));
        }
        program.absent_at_load = runner.sandbox_mut().globals_missing_at_load()?;
        if !program.absent_at_load.is_empty() {
            warnings.push(format!("{MISSING_GLOBALS_WARNING}{}", program.absent_at_load.join(", ")));
        }
        select_classes(&mut program, &options.classes)?;
        let mut declarations = Declarations::default();
        record_declared_private(&mut declarations, &mut program);
        record_declared_factories(&mut declarations, &mut program);
        let mut methods = methods_under_test(&program, options.method.as_deref())?;
        drop_hidden_constructors(&mut declarations, &program, &mut methods);
        helpers::reach_helpers(&code, &program, &mut methods);
        drop_straight_constructors(&mut methods);
        mine_constants(&code, &program, &mut methods);
        prepare_archives(&code, &mut methods);
        let mut types = TypeTable::new(&program);
        record_typeof_checks(&code, &program, &mut types);
        record_members_passed(&code, &program, &mut types);
        warnings.extend(record_declared_types(&mut declarations, &program, &mut types));
        let rng = StdRng::seed_from_u64(settings.seed);
        let returns = Returns::from_factories(&program);
        let subject = Subject { program, code, types, hazards: Hazards::default(), returns, seeds: Seeds::default() };
        let mut session = Session {
            subject,
            runner,
            suite: Suite::default(),
            settings,
            methods,
            current: None,
            iteration: 0,
            executions: 0,
            elapsed: Duration::ZERO,
            passes: PassTimes::default(),
            warnings,
            interrupt: None,
            rng,
            leaps: Leaps::default(),
            scheduler: Scheduler::default(),
        };
        session.abort_unlocatable();
        Ok(session)
    }

    /// Starts the session's random choices afresh from `seed` (the settings' seed stays the one reported):
    /// a run split into units gives each its own stream, so that what one unit generates does not depend
    /// on how many units came before it on the same thread.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// Narrows the run to the methods of `class` (a unit of a run split by class, see `app::jobs`): the
    /// other classes are no longer under test.
    pub(crate) fn narrow_to_class(&mut self, class: ClassId) {
        self.methods.retain(|m| m.class == class);
        for (id, info) in self.subject.program.classes.iter_mut().enumerate() {
            info.under_test &= id == class;
        }
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The program under test and what is known about it.
    pub fn subject(&self) -> &Subject {
        &self.subject
    }

    /// The runner of the loop's candidates: how many contexts it built, the limits in force.
    pub(crate) fn runner(&self) -> &Runner {
        &self.runner
    }

    /// Elected and failing tests.
    pub fn suite(&self) -> &Suite {
        &self.suite
    }

    /// The methods under test, in the order of the program, then the constructors of the classes with
    /// nothing else to test.
    pub fn methods(&self) -> &[MethodState] {
        &self.methods
    }

    /// The method the last step worked on (or the one selected for the next step).
    pub fn current(&self) -> Option<usize> {
        self.current
    }

    /// Steps taken.
    pub fn iteration(&self) -> u64 {
        self.iteration
    }

    /// Candidates executed (elections re-run a candidate; that is not counted).
    pub(crate) fn executions(&self) -> u64 {
        self.executions
    }

    /// Time spent stepping.
    pub(crate) fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// Time spent in the passes after generation (see `budget.rs`).
    pub(crate) fn passes(&self) -> PassTimes {
        self.passes
    }

    /// Warnings that concern no single method.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Adds a warning that concerns no single method.
    pub(crate) fn warn(&mut self, warning: String) {
        self.warnings.push(warning);
    }

    /// Adds to each method's guided pool the constants `pool_of` gives for its class and name (recorded
    /// ones, see `record::seed`).
    pub(crate) fn merge_constants(&mut self, pool_of: impl Fn(ClassId, &str) -> ConstantPool) {
        for m in &mut self.methods {
            m.constants.merge(pool_of(m.class, &m.method));
        }
    }

    /// The recorded values and call sequences candidates may start from, for seeding them (see
    /// `record::seed`).
    pub(crate) fn seeds_mut(&mut self) -> &mut Seeds {
        &mut self.subject.seeds
    }

    /// Lets `rewrite` change the elected tests in place (mutation analysis strengthening them: their
    /// statements, results, assertions and the statements of their methods they cover), given the
    /// subject, the settings they ran under and the methods under test. None is added or dropped, so what
    /// the methods under test count stays true.
    pub(crate) fn rewrite_elected<T>(
        &mut self,
        rewrite: impl FnOnce(&Subject, &Settings, &[MethodState], &mut [ElectedTest]) -> T,
    ) -> T {
        rewrite(&self.subject, &self.settings, &self.methods, &mut self.suite.elected)
    }

    /// Changes settings; they apply from the next step. Methods stopped by the time or stale limits
    /// start again when the change raises that limit.
    pub fn set_settings(&mut self, settings: Settings) {
        self.runner.set_limits(settings.limits.clone());
        if settings.generation.strategy == Strategy::Search && !self.subject.code.distances {
            let warning = "search runs without branch distances: the code was loaded under another strategy (start \
                           with --strategy search to measure them)";
            if !self.warnings.iter().any(|w| w == warning) {
                self.warnings.push(warning.to_string());
            }
        }
        for m in &mut self.methods {
            let resume = match m.status {
                Status::Done(StopReason::Timeout) => settings.budget > m.work,
                Status::Done(StopReason::TimeCap) => settings.timeout > m.elapsed,
                Status::Done(StopReason::Stale) => !stopping::is_stale(&settings, m),
                Status::Done(StopReason::Target) => settings.target_coverage > m.coverage_percent(),
                _ => false,
            };
            if resume {
                m.status = Status::Pending;
            }
        }
        self.settings = settings;
    }

    /// Makes `index` the method worked on from the next step until it stops; then the weighted choice
    /// of `scheduler.rs` resumes. A method that had stopped is reopened with a fresh budget (time and
    /// stale runs): after settings, generators or types were retuned, it may get further. Reopened, it
    /// does not stop at the target coverage nor, fully covered, at once: it runs until it is stale or
    /// out of time, electing what covers something new and logging what fails.
    pub fn select(&mut self, index: usize) -> Selection {
        let Some(m) = self.methods.get(index) else { return Selection::Unknown };
        if m.function.is_none() {
            return Selection::Untestable;
        }
        if let Some(current) = self.current
            && self.methods[current].status == Status::Running
        {
            self.methods[current].status = Status::Pending;
        }
        let m = &mut self.methods[index];
        let selection = match m.status {
            Status::Done(reason) => {
                m.elapsed = Duration::ZERO;
                m.work = 0;
                m.stale = 0;
                m.gained_at = 0;
                m.constructions = (0, 0);
                m.reopened = true;
                Selection::Reopened(reason)
            }
            Status::Pending | Status::Running => Selection::Working,
        };
        m.status = Status::Running;
        self.current = Some(index);
        self.scheduler.pin(index);
        selection
    }

    /// Whether every method under test has stopped.
    pub fn finished(&self) -> bool {
        self.methods.iter().all(|m| matches!(m.status, Status::Done(_)))
    }
}
