//! What the terminal UI shows, copied out of the session after steps.
//!
//! The session lives on a worker thread (its syntax trees are not `Send`), so the UI never reads it
//! directly: the worker sends a [`Snapshot`], plain data the view draws from. This file holds the data;
//! the rows are built in `params.rs` (parameters, helper classes' constructors included), `source.rs`
//! (a method's lines and coverage), `candidates.rs` (a step's candidate) and `suite.rs` (elected and
//! failing tests).

mod candidates;
mod params;
mod source;
mod suite;

use std::time::Duration;

pub(crate) use candidates::candidate_view;
pub(crate) use source::{line_mark, method_lines};

use super::history::History;
use crate::model::settings::Settings;
use crate::session::{Session, Status, StopReason};
use params::param_rows;
use source::coverage_view;
use suite::suite_view;

/// Everything the UI draws.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// The seed of the run.
    pub(crate) seed: u64,
    /// Steps taken.
    pub iteration: u64,
    /// Candidates per second over the last stretch of stepping.
    pub rate: f64,
    /// Whether continuous stepping is on.
    pub running: bool,
    /// Settings in force.
    pub(crate) settings: Settings,
    /// Classes with methods under test, in order.
    pub classes: Vec<ClassRow>,
    /// Methods under test ([`ClassRow::methods`] index into this).
    pub methods: Vec<MethodRow>,
    /// The method being worked on (before the first step, the one that will be worked on first): the
    /// parameter and coverage panes show it.
    pub(crate) current: Option<usize>,
    /// The last candidates, oldest first: the last one is the latest (see [`super::history`]).
    pub history: Vec<CandidateView>,
    /// The current method's class, which the parameters are listed for.
    pub class: Option<String>,
    /// Parameters of the current method's class (its constructor's, then its methods'), then the
    /// constructors' of the other classes its tests build.
    pub params: Vec<ParamRow>,
    /// Coverage of the current method.
    pub(crate) coverage: CoverageView,
    /// Elected tests and the failing-tests log.
    pub suite: SuiteView,
    /// Warnings that concern no single method.
    pub(crate) warnings: Vec<String>,
    /// Elected tests not written out since the last export.
    pub unexported: usize,
    /// Settings and types changed in the explorer and not saved to the project file, in words.
    pub unsaved: Vec<String>,
    /// Types a parameter's type can be overridden with: the built-in ones, then the classes.
    pub(crate) type_names: Vec<String>,
}

/// A class and its methods under test.
#[derive(Debug, Clone, Default)]
pub struct ClassRow {
    /// Its name.
    pub name: String,
    /// Indices into [`Snapshot::methods`].
    pub(crate) methods: Vec<usize>,
}

/// Where a method stands, for the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MethodStatus {
    /// Not started.
    #[default]
    Pending,
    /// Being worked on.
    Running,
    /// Stopped for this reason.
    Stopped(StopReason),
}

/// One method under test.
#[derive(Debug, Clone, Default)]
pub struct MethodRow {
    /// Class name.
    pub(crate) class: String,
    /// Method name.
    pub name: String,
    /// Where it stands.
    pub status: MethodStatus,
    /// Covered statements.
    pub(crate) covered: usize,
    /// Statements.
    pub(crate) statements: usize,
    /// Candidates executed.
    pub(crate) executions: u64,
    /// Valid runs since the last new coverage.
    pub(crate) stale: u64,
    /// Time spent on it.
    pub(crate) elapsed: Duration,
    /// Warnings.
    pub(crate) warnings: Vec<String>,
    /// Its coverage over time: (candidates of it executed, statements covered), at each change.
    pub(crate) progress: Vec<(u64, usize)>,
}

impl MethodRow {
    /// Statement coverage as a ratio in 0..=1 (1 for a method without statements).
    pub(crate) fn ratio(&self) -> f64 {
        if self.statements == 0 { 1.0 } else { self.covered as f64 / self.statements as f64 }
    }
}

/// How the last candidate fared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CandidateOutcome {
    /// Elected: it covered this many new statements.
    NewCoverage(usize),
    /// Valid, nothing new.
    NoNewCoverage,
    /// Unknown parameters left: it only recorded.
    Invalid,
    /// Threw or hit a limit.
    Failed {
        /// What happened: `threw RangeError: ...`, `did not finish within 100 ms ...`.
        message: String,
        /// What the statement that failed calls (`get`, `new Node`), when known: not always the
        /// method under test.
        culprit: Option<String>,
    },
}

impl CandidateOutcome {
    /// The outcome in words, with its symbol: `✗ get threw RangeError: index out of bounds`.
    pub fn describe(&self) -> String {
        match self {
            CandidateOutcome::NewCoverage(n) => {
                format!("✓ new coverage: {n} statement{}", if *n == 1 { "" } else { "s" })
            }
            CandidateOutcome::NoNewCoverage => "· no new coverage".to_string(),
            CandidateOutcome::Invalid => "? invalid: unknown parameters left".to_string(),
            CandidateOutcome::Failed { message, culprit } => {
                let message = message.lines().next().unwrap_or_default();
                match culprit {
                    Some(culprit) => format!("✗ {culprit} {message}"),
                    None => format!("✗ {message}"),
                }
            }
        }
    }
}

/// One line of the candidate test.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CandidateLine {
    /// JavaScript, unknown parameters written `<?name>`.
    pub text: String,
    /// Whether it calls the method under test, or is the construction under test (see
    /// `TestCase::constructed_under_test`).
    pub under_test: bool,
}

/// A candidate of the history.
#[derive(Debug, Clone)]
pub struct CandidateView {
    /// The step that ran it (the iteration count after it).
    pub step: u64,
    /// Index of its method in [`Snapshot::methods`].
    pub(crate) method: usize,
    /// Its statements.
    pub lines: Vec<CandidateLine>,
    /// What became of it.
    pub outcome: CandidateOutcome,
    /// The line that threw or that a limit cut off.
    pub failed_at: Option<usize>,
    /// Statements of its method it ran, and how many of them no elected test had covered before.
    pub(crate) ran: (usize, usize),
    /// Types decided after it, in words: `add(node): Node`.
    pub(crate) decisions: Vec<String>,
}

/// One parameter of the current class, or of the constructor of a class its tests build.
#[derive(Debug, Clone, Default)]
pub struct ParamRow {
    /// Id in the type table (what `a` and `o` act on).
    pub id: u32,
    /// The class, when it is not the current method's: a helper class its tests build.
    pub helper: Option<String>,
    /// `constructor` or the method name.
    pub function: String,
    /// Parameter name.
    pub name: String,
    /// Type name, or `Unknown`; `untestable` when inference gave up.
    pub ty: String,
    /// Whether it is still unknown.
    pub unknown: bool,
    /// Uses so far.
    pub uses: u32,
    /// The inference delay.
    pub(crate) delay: u32,
    /// Members used, with counts, most used first.
    pub(crate) members: Vec<(String, u32)>,
    /// Number score.
    pub(crate) number: u32,
    /// String score.
    pub(crate) string: u32,
    /// The evidence that decided, empty while unknown.
    pub evidence: String,
    /// How it was decided: `inferred`, `leap of faith`, `accepted`, `overridden`, `project file`.
    pub source: Option<&'static str>,
    /// While unknown: the type inference would decide from the evidence so far, and why.
    pub guess: Option<(String, String)>,
    /// Whether a person or the project file fixed the type (it can go back to inference).
    pub fixed: bool,
}

impl ParamRow {
    /// How people name it: `add(node)`, `constructor(size)`, `new Node(data)` for a helper class.
    pub fn label(&self) -> String {
        match &self.helper {
            Some(class) => format!("new {class}({})", self.name),
            None => format!("{}({})", self.function, self.name),
        }
    }
}

/// How a source line of the method fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineMark {
    /// No statement starts on it.
    Plain,
    /// All its statements ran.
    Covered,
    /// Some ran.
    Partial,
    /// None ran.
    Uncovered,
}

/// One line of the method's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SourceLine {
    /// 1-based line number in the file.
    pub(crate) number: u32,
    /// Text.
    pub(crate) text: String,
    /// Coverage.
    pub(crate) mark: LineMark,
}

/// One branch outcome of the method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BranchRow {
    /// Line.
    pub(crate) line: u32,
    /// Which way: `then`, `else`, `true`, ...
    pub(crate) outcome: String,
    /// What decides it, shortened: the condition, or the left operand of `&&`, `||`, `??`.
    pub(crate) condition: String,
    /// Whether an elected test took it.
    pub(crate) taken: bool,
}

/// Coverage of the current method.
#[derive(Debug, Clone, Default)]
pub(crate) struct CoverageView {
    /// One cell per statement, the method's and then its private helpers'.
    pub(crate) cells: Vec<bool>,
    /// The private helpers whose statements the cells include (see `session/helpers.rs`).
    pub(crate) helpers: Vec<String>,
    /// The method's source lines.
    pub(crate) source: Vec<SourceLine>,
    /// Branch outcomes.
    pub(crate) branches: Vec<BranchRow>,
}

/// An elected test.
#[derive(Debug, Clone, Default)]
pub struct ElectedRow {
    /// The class; the title names the method.
    pub method: String,
    /// A title: what it covered.
    pub(crate) title: String,
    /// Its code.
    pub(crate) code: String,
}

/// A failing test.
#[derive(Debug, Clone, Default)]
pub struct FailingRow {
    /// `Class.method` it was testing.
    pub method: String,
    /// What the statement that failed calls (`get`, `new Node`), when known.
    pub culprit: Option<String>,
    /// What happened.
    pub message: String,
    /// Its code.
    pub(crate) code: String,
}

/// Elected and failing tests.
#[derive(Debug, Clone, Default)]
pub struct SuiteView {
    /// Elected tests, oldest first.
    pub elected: Vec<ElectedRow>,
    /// Failing tests, oldest first.
    pub failing: Vec<FailingRow>,
}

/// What the session thread knows besides the session itself.
pub(crate) struct Facts<'a> {
    /// Whether continuous stepping is on.
    pub(crate) running: bool,
    /// Candidates per second over the last stretch of continuous stepping.
    pub(crate) rate: f64,
    /// Elected tests not written out since the last export.
    pub(crate) unexported: usize,
    /// The last candidates, and each method's coverage over time.
    pub(crate) history: &'a History,
    /// Changes made in the explorer and not saved to the project file.
    pub(crate) unsaved: Vec<String>,
}

impl Snapshot {
    /// Copies what the UI shows out of `session`.
    pub(crate) fn of(session: &Session, facts: Facts) -> Snapshot {
        let program = session.subject().program();
        let settings = session.settings();
        let methods: Vec<MethodRow> = session
            .methods()
            .iter()
            .enumerate()
            .map(|(index, m)| MethodRow {
                class: program.classes[m.class].name.clone(),
                name: m.method.clone(),
                status: match m.status {
                    Status::Pending => MethodStatus::Pending,
                    Status::Running => MethodStatus::Running,
                    Status::Done(reason) => MethodStatus::Stopped(reason),
                },
                covered: m.covered_count(),
                statements: m.covered.len(),
                executions: m.executions,
                stale: m.stale,
                elapsed: m.elapsed,
                warnings: m.warnings.clone(),
                progress: facts.history.progress(index).to_vec(),
            })
            .collect();
        let mut classes: Vec<ClassRow> = Vec::new();
        for (index, m) in session.methods().iter().enumerate() {
            let name = &program.classes[m.class].name;
            match classes.iter_mut().find(|c| &c.name == name) {
                Some(row) => row.methods.push(index),
                None => classes.push(ClassRow { name: name.clone(), methods: vec![index] }),
            }
        }
        let current = session.current().or_else(|| session.methods().iter().position(|m| m.status == Status::Pending));
        let class = current.map(|c| session.methods()[c].class);
        let latest = current.and_then(|c| facts.history.latest_of(c)).map(|r| &r.test);
        Snapshot {
            seed: settings.seed,
            iteration: session.iteration(),
            rate: facts.rate,
            running: facts.running,
            settings: settings.clone(),
            classes,
            methods,
            current,
            history: facts
                .history
                .iter()
                .map(|(step, report)| candidate_view(session.subject(), *step, report))
                .collect(),
            class: class.map(|c| program.classes[c].name.clone()),
            params: class.map(|c| param_rows(session.subject(), settings.delay, c, latest)).unwrap_or_default(),
            coverage: current
                .map(|c| coverage_view(session.subject().code(), &session.methods()[c]))
                .unwrap_or_default(),
            suite: suite_view(session.subject(), session.suite()),
            warnings: session.warnings().to_vec(),
            unexported: facts.unexported,
            unsaved: facts.unsaved,
            type_names: crate::inference::ParamType::BUILT_IN
                .iter()
                .map(|t| t.name(program))
                .chain(program.classes.iter().map(|c| c.name.clone()))
                .collect(),
        }
    }

    /// The latest candidate.
    pub fn candidate(&self) -> Option<&CandidateView> {
        self.history.last()
    }
}
