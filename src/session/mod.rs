//! The session stepper: the Flycatcher loop, one candidate test per step.
//!
//! A [`Session`] owns the loaded program, the sandbox, the type records and the suite. [`Session::step`]
//! generates one candidate for the current method under test, runs it, records what the proxies saw,
//! decides types whose delay has passed, elects the candidate if it is valid and covers new
//! statements, and stops the method when it is done. Everything is readable between steps and the
//! [`Settings`] may change between steps: the terminal UI and `generate` drive this same code.
//!
//! The loop's parts are files of their own: `step.rs` (one candidate, start to end), `election.rs`
//! (which candidates become tests), `stopping.rs` (when a method is done), `types.rs` (deciding parameter
//! types; the rules are [`crate::inference`]'s), `scheduler.rs` (which method the next step works on),
//! `setup.rs` (preparing the methods under test), `minimize.rs` and `stability.rs` (the passes before
//! `export.rs`, within the budget of `budget.rs`) and `method.rs` (the state of one method under test).

mod budget;
mod election;
mod export;
mod method;
mod minimize;
mod scheduler;
mod setup;
mod stability;
mod step;
mod stopping;
mod types;

use std::path::PathBuf;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;

pub use budget::PassTimes;
pub use election::is_regression;
pub use method::{MethodState, Selection, Status, StopReason};
pub use step::{CandidateVerdict, StepReport};

use scheduler::Scheduler;
use setup::{methods_under_test, mine_constants, prepare_archives, record_typeof_checks, select_classes};

use crate::analysis::files::SourceSet;
use crate::analysis::state::shared_state_write;
use crate::discovery::analyse;
use crate::error::Result;
use crate::generate::hazards::Hazards;
use crate::generate::seeds::Seeds;
use crate::inference::TypeTable;
use crate::inference::leap::Leaps;
use crate::model::program::ProgramInfo;
use crate::model::settings::{Settings, Strategy};
use crate::sandbox::{CodeBase, Sandbox};
use crate::suite::Suite;

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

/// The whole state of a run.
pub struct Session {
    /// What the analyser found.
    pub program: ProgramInfo,
    /// The instrumented code.
    pub code: CodeBase,
    /// Type records of every parameter.
    pub types: TypeTable,
    /// The methods under test, in the order of the program (see `scheduler.rs` for the order they are
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
    /// Time spent in the passes after generation (see `budget.rs`).
    pub passes: PassTimes,
    /// Warnings that concern no single method.
    pub warnings: Vec<String>,
    /// Recorded values and call sequences that candidates may start from (see `record::seed`).
    pub seeds: Seeds,
    /// Methods whose calls tend to hit a limit, learnt from every run.
    pub hazards: Hazards,
    settings: Settings,
    sandbox: Sandbox,
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
        let mut sandbox = Sandbox::new(&code, settings.limits.clone())?;
        let mut program = analyse(&code, &mut sandbox, options.namespace.as_deref())?;
        let mut warnings = code_warnings;
        if let Some(what) = shared_write {
            warnings.push(format!(
                "the code can change shared state ({what}): what a test writes there is undone after it, or its \
                 context built anew"
            ));
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
            passes: PassTimes::default(),
            warnings,
            seeds: Default::default(),
            settings,
            sandbox,
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
    pub fn reseed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// How many times the context that candidates share was built, the first included (see
    /// [`Sandbox::contexts_built`]).
    pub fn contexts_built(&self) -> u64 {
        self.sandbox.contexts_built()
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
                m.stale = 0;
                m.gained_at = Duration::ZERO;
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
