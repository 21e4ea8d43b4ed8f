//! The flows a person starts, on top of the engine: opening a session (what to test, its settings, the
//! project file's choices, a recording to seed from), and the `generate`, `mutate`, `verify`, `record` and
//! `bench` commands from the first step to the files written. The command line (`main.rs`) only parses
//! arguments and prints; the terminal UI's worker opens its session here too and steps it itself.
//!
//! - [`generate`]: step a session to its end, strengthen it by mutation analysis, report.
//! - [`jobs`]: a `generate` run split by class over worker threads, merged in class order; [`shard`]: a
//!   CI machine's share of the classes, and `flycatcher merge`; [`merge`](mod@merge): one report from
//!   several.
//! - [`mutate`]: a suite's mutation score, generating the suite first or reading one.
//! - [`update`]: `generate --update`, the suite in the out folder brought up to date with the code.
//! - [`record`]: record an entry script's run, then elect replay tests from it.
//! - [`cli_progress`]: `generate`'s and `mutate`'s progress as the command line shows it.
//! - [`bench`](mod@bench): candidates per second against a bare QuickJS loop; [`speedup`]: `--jobs 2`
//!   against `--jobs 1`.
//! - [`project`]: the project file, `flycatcher.json`.
//! - [`report`]: a run's summary, as text and as JSON.
//! - [`verify`]: the exported suite run under its real runner, several times and in another order, with
//!   c8's coverage.

pub mod bench;
pub mod cli_progress;
pub mod generate;
pub mod jobs;
pub(crate) mod merge;
pub mod mutate;
pub mod project;
pub mod record;
pub mod report;
pub mod shard;
pub mod speedup;
pub mod update;
pub mod verify;

use crate::error::Result;
use crate::model::program::ClassId;
use crate::model::settings::Settings;
use crate::model::test::TestCase;
use crate::record::SeedFrom;
use crate::record::seed::{Election, Seeding};
use crate::sandbox::Execution;
use crate::session::{Pass, Session, SessionOptions, StepReport};
use project::Project;

/// What a flow tells whoever shows its progress (a line redrawn on a terminal, plain lines in a log).
/// Every method does nothing by default.
pub trait Progress {
    /// After each step.
    fn step(&mut self, _session: &Session, _report: &StepReport) {}
    /// Once stepping has ended, normally or not.
    fn stepped(&mut self, _session: &Session) {}
    /// Before mutant `done` (from 0) of `count` runs.
    fn mutant(&mut self, _done: usize, _count: usize) {}
    /// Before step `done` (from 0) of `count` of a pass after generation other than the mutation
    /// analysis: a test shortened, a run of the suite.
    fn pass(&mut self, _pass: Pass, _done: usize, _count: usize) {}
    /// Once the mutation analysis has ended, normally or not.
    fn mutated(&mut self) {}
}

/// Progress nobody watches.
pub struct Silent;

impl Progress for Silent {}

/// QuickJS checks its stack limit against the native stack: the thread that runs a session needs room
/// to spare beyond the JavaScript stack limit (see [`crate::model::settings::Limits::stack`]).
pub const ENGINE_THREAD_STACK: usize = 64 << 20;

/// Everything a run needs to open its session.
#[derive(Debug, Clone)]
pub struct Opening {
    /// What to test.
    pub options: SessionOptions,
    /// The settings: defaults, then the project file's, then the command line's.
    pub settings: Settings,
    /// The project file, whose parameter types are fixed once the program is loaded.
    pub project: Project,
    /// A recording to seed generation from (`--seed-from`).
    pub seed_from: Option<SeedFrom>,
}

impl Opening {
    /// Loads the program and prepares the session: seeded from the recording if one is given, then with
    /// the project file's parameter types fixed (entries that name nothing known become warnings).
    pub fn open(&self) -> Result<Session> {
        self.open_with(|_| {})
    }

    /// [`Opening::open`] for one class of the run (see [`jobs`]): only its methods are under test, and
    /// its random choices start from `seed`, before the recording seeds it.
    pub(crate) fn open_unit(&self, class: ClassId, seed: u64) -> Result<Session> {
        self.open_with(|session| {
            session.narrow_to_class(class);
            session.reseed(seed);
        })
    }

    fn open_with(&self, narrow: impl FnOnce(&mut Session)) -> Result<Session> {
        let mut session = Session::new(&self.options, self.settings.clone())?;
        narrow(&mut session);
        if let Some(seed_from) = &self.seed_from {
            seed(&mut session, seed_from)?;
        }
        for warning in self.project.apply_types(&mut session) {
            session.warn(warning);
        }
        Ok(session)
    }
}

/// Seeds `session` from the recording `from` names (see [`crate::record::seed`]): the recorded types of
/// parameters not typed yet, the recorded primitives in the guided pools, the recorded values and call
/// sequences as seeds, then the replays offered for election.
fn seed(session: &mut Session, from: &SeedFrom) -> Result<()> {
    let seeding = Seeding::load(from, session.subject())?;
    for (param, decision) in seeding.types(session.subject()) {
        session.fix_type(param, decision);
    }
    session.merge_constants(|class, method| seeding.constants(class, method));
    seeding.seed(session.seeds_mut());
    let summary = seeding.offer_replays(from, session)?;
    session.warn(summary);
    Ok(())
}

impl Election for Session {
    fn run_alone(&mut self, test: &TestCase, seed: u32) -> Result<Option<Execution>> {
        Session::run_alone(self, test, seed)
    }

    fn offer(&mut self, test: &TestCase, seed: u32) -> Result<Option<usize>> {
        Session::offer(self, test, seed)
    }
}
