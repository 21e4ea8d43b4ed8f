//! What the terminal UI shows, copied out of the session after steps.
//!
//! The session lives on a worker thread (its syntax trees are not `Send`), so the UI never reads it
//! directly: the worker sends a [`Snapshot`], plain data the view draws from.

use std::time::Duration;

use crate::inference::{DecisionSource, ParamType};
use crate::model::program::ClassId;
use crate::model::settings::Settings;
use crate::session::{CandidateVerdict, Session, Status, StopReason};

/// Everything the UI draws.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// The files under test, as named.
    pub files: Vec<String>,
    /// The seed of the run.
    pub seed: u64,
    /// Steps taken.
    pub iteration: u64,
    /// Candidates executed.
    pub executions: u64,
    /// Time spent stepping.
    pub elapsed: Duration,
    /// Candidates per second over the last stretch of stepping.
    pub rate: f64,
    /// Whether continuous stepping is on.
    pub running: bool,
    /// Settings in force.
    pub settings: Settings,
    /// Classes with methods under test, in order.
    pub classes: Vec<ClassRow>,
    /// Methods under test ([`ClassRow::methods`] index into this).
    pub methods: Vec<MethodRow>,
    /// The method being worked on (before the first step, the one that will be worked on first): the
    /// parameter and coverage panes show it.
    pub current: Option<usize>,
    /// The last candidate.
    pub candidate: Option<CandidateView>,
    /// Parameters of the current method's class: its constructor's, then its methods'.
    pub params: Vec<ParamRow>,
    /// Coverage of the current method.
    pub coverage: CoverageView,
    /// Elected tests and the failing-tests log.
    pub suite: SuiteView,
    /// Warnings that concern no single method.
    pub warnings: Vec<String>,
    /// Elected tests not written out since the last export.
    pub unexported: usize,
    /// Types a parameter's type can be overridden with: the built-in ones, then the classes.
    pub type_names: Vec<String>,
}

/// A class and its methods under test.
#[derive(Debug, Clone, Default)]
pub struct ClassRow {
    /// Its name.
    pub name: String,
    /// Indices into [`Snapshot::methods`].
    pub methods: Vec<usize>,
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
    pub class: String,
    /// Method name.
    pub name: String,
    /// Where it stands.
    pub status: MethodStatus,
    /// Covered statements.
    pub covered: usize,
    /// Statements.
    pub statements: usize,
    /// Branch outcomes taken.
    pub branches_covered: usize,
    /// Branch outcomes.
    pub branches: usize,
    /// Elected tests.
    pub elected: usize,
    /// Failing tests logged.
    pub failing: usize,
    /// Candidates executed.
    pub executions: u64,
    /// Valid runs since the last new coverage.
    pub stale: u64,
    /// Time spent on it.
    pub elapsed: Duration,
    /// Warnings.
    pub warnings: Vec<String>,
}

impl MethodRow {
    /// Statement coverage as a ratio in 0..=1 (1 for a method without statements).
    pub fn ratio(&self) -> f64 {
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
    Failed(String),
}

/// One line of the candidate test.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CandidateLine {
    /// JavaScript, unknown parameters written `<?name>`.
    pub text: String,
    /// Whether it calls the method under test.
    pub under_test: bool,
}

/// The last candidate.
#[derive(Debug, Clone)]
pub struct CandidateView {
    /// Index of its method in [`Snapshot::methods`].
    pub method: usize,
    /// Its statements.
    pub lines: Vec<CandidateLine>,
    /// What became of it.
    pub outcome: CandidateOutcome,
}

/// One parameter of the current class.
#[derive(Debug, Clone, Default)]
pub struct ParamRow {
    /// Id in the type table (what `a` and `o` act on).
    pub id: u32,
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
    pub delay: u32,
    /// Members used, with counts, most used first.
    pub members: Vec<(String, u32)>,
    /// Number score.
    pub number: u32,
    /// String score.
    pub string: u32,
    /// The evidence that decided, empty while unknown.
    pub evidence: String,
    /// How it was decided: `inferred`, `leap of faith`, `accepted`, `overridden`, `project file`.
    pub source: Option<&'static str>,
}

/// How a source line of the method fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineMark {
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
pub struct SourceLine {
    /// 1-based line number in the file.
    pub number: u32,
    /// Text.
    pub text: String,
    /// Coverage.
    pub mark: LineMark,
}

/// One branch outcome of the method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchRow {
    /// Line.
    pub line: u32,
    /// Which way: `then`, `else`, `true`, ...
    pub outcome: String,
    /// Whether an elected test took it.
    pub taken: bool,
}

/// Coverage of the current method.
#[derive(Debug, Clone, Default)]
pub struct CoverageView {
    /// One cell per statement.
    pub cells: Vec<bool>,
    /// The method's source lines.
    pub source: Vec<SourceLine>,
    /// Branch outcomes.
    pub branches: Vec<BranchRow>,
}

/// An elected test.
#[derive(Debug, Clone, Default)]
pub struct ElectedRow {
    /// The class; the title names the method.
    pub method: String,
    /// A title: what it covered.
    pub title: String,
    /// Its code.
    pub code: String,
}

/// A failing test.
#[derive(Debug, Clone, Default)]
pub struct FailingRow {
    /// `Class.method` it was testing.
    pub method: String,
    /// What happened.
    pub message: String,
    /// Its code.
    pub code: String,
}

/// Elected and failing tests.
#[derive(Debug, Clone, Default)]
pub struct SuiteView {
    /// Elected tests, oldest first.
    pub elected: Vec<ElectedRow>,
    /// Failing tests, oldest first.
    pub failing: Vec<FailingRow>,
}

impl Snapshot {
    /// Copies what the UI shows out of `session`.
    pub fn of(session: &Session, running: bool, rate: f64, unexported: usize) -> Snapshot {
        let program = &session.program;
        let settings = session.settings();
        let methods: Vec<MethodRow> = session
            .methods
            .iter()
            .map(|m| MethodRow {
                class: program.classes[m.class].name.clone(),
                name: m.method.clone(),
                status: match m.status {
                    Status::Pending => MethodStatus::Pending,
                    Status::Running => MethodStatus::Running,
                    Status::Done(reason) => MethodStatus::Stopped(reason),
                },
                covered: m.covered_count(),
                statements: m.covered.len(),
                branches_covered: m.branches_covered(),
                branches: m.branches.len(),
                elected: m.elected,
                failing: m.failing,
                executions: m.executions,
                stale: m.stale,
                elapsed: m.elapsed,
                warnings: m.warnings.clone(),
            })
            .collect();
        let mut classes: Vec<ClassRow> = Vec::new();
        for (index, m) in session.methods.iter().enumerate() {
            let name = &program.classes[m.class].name;
            match classes.iter_mut().find(|c| &c.name == name) {
                Some(row) => row.methods.push(index),
                None => classes.push(ClassRow { name: name.clone(), methods: vec![index] }),
            }
        }
        let current = session.current.or_else(|| session.methods.iter().position(|m| m.status == Status::Pending));
        let class = current.map(|c| session.methods[c].class);
        Snapshot {
            files: program.files.iter().filter(|f| f.given).map(|f| f.display.clone()).collect(),
            seed: settings.seed,
            iteration: session.iteration,
            executions: session.executions,
            elapsed: session.elapsed,
            rate,
            running,
            settings: settings.clone(),
            classes,
            methods,
            current,
            candidate: session.last.as_ref().map(|report| CandidateView {
                method: report.method,
                lines: candidate_lines(session, &report.test),
                outcome: match &report.verdict {
                    CandidateVerdict::NewCoverage(n) => CandidateOutcome::NewCoverage(*n),
                    CandidateVerdict::NoNewCoverage => CandidateOutcome::NoNewCoverage,
                    CandidateVerdict::Invalid => CandidateOutcome::Invalid,
                    CandidateVerdict::Failed(message) => CandidateOutcome::Failed(message.clone()),
                },
            }),
            params: class.map(|c| param_rows(session, c)).unwrap_or_default(),
            coverage: current.map(|c| coverage_view(session, c)).unwrap_or_default(),
            suite: suite_view(session),
            warnings: session.warnings.clone(),
            unexported,
            type_names: crate::inference::ParamType::BUILT_IN
                .iter()
                .map(|t| t.name(program))
                .chain(program.classes.iter().map(|c| c.name.clone()))
                .collect(),
        }
    }
}

fn candidate_lines(session: &Session, test: &crate::model::test::TestCase) -> Vec<CandidateLine> {
    test.display(&session.program, |id| session.types.get(id).name.clone())
        .into_iter()
        .zip(&test.statements)
        .map(|(text, statement)| CandidateLine {
            text,
            under_test: matches!(statement, crate::model::test::Statement::Call { under_test: true, .. }),
        })
        .collect()
}

/// The rows of the parameters of `class`'s constructor and methods, each followed by the records of its
/// elements (`items[i]`) when it is an array and of its result (`label()`) when it is a callback, or
/// when those records have been used or typed already.
fn param_rows(session: &Session, class: ClassId) -> Vec<ParamRow> {
    let info = &session.program.classes[class];
    let functions = std::iter::once("constructor").chain(info.methods.iter().map(|m| m.name.as_str()));
    let mut rows = Vec::new();
    for function in functions {
        for &id in session.types.params_of(class, function) {
            rows.push(param_row(session, function, id));
            let ty = session.types.get(id).current_type();
            let derived =
                [(session.types.element_of(id), ParamType::Array), (session.types.result_of(id), ParamType::Function)];
            for (record, of) in derived {
                let Some(record) = record else { continue };
                let used = session.types.get(record).uses > 0 || session.types.get(record).decision.is_some();
                if ty == of || used {
                    rows.push(param_row(session, function, record));
                }
            }
        }
    }
    rows
}

fn param_row(session: &Session, function: &str, id: u32) -> ParamRow {
    let record = session.types.get(id);
    let mut members: Vec<(String, u32)> = record.members.iter().map(|(n, u)| (n.clone(), u.total())).collect();
    members.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let (ty, evidence, source) = match &record.decision {
        None => ("Unknown".to_string(), String::new(), None),
        Some(d) => (
            d.ty.name(&session.program),
            d.evidence.clone(),
            Some(match d.source {
                DecisionSource::Inferred => "inferred",
                DecisionSource::LeapOfFaith => "leap of faith",
                DecisionSource::Accepted => "accepted",
                DecisionSource::Overridden => "overridden",
                DecisionSource::Configured => "project file",
                DecisionSource::Recorded => "recorded",
            }),
        ),
    };
    ParamRow {
        id,
        function: function.to_string(),
        name: record.name.clone(),
        unknown: record.decision.is_none(),
        ty,
        uses: record.uses,
        delay: session.settings().delay,
        members,
        number: record.scores.number,
        string: record.scores.string,
        evidence,
        source,
    }
}

fn coverage_view(session: &Session, method: usize) -> CoverageView {
    let state = &session.methods[method];
    let Some(function) = &state.function else {
        return CoverageView { cells: state.covered.clone(), ..CoverageView::default() };
    };
    let file = &session.code.files[function.file];
    let statements = &file.instrumented.statements;
    let local = |id: u32| (id - file.statements.start) as usize;
    let mut lines: std::collections::BTreeMap<u32, (usize, usize)> = std::collections::BTreeMap::new();
    for (offset, covered) in state.covered.iter().enumerate() {
        if let Some(statement) = statements.get(local(function.statements.start + offset as u32)) {
            let entry = lines.entry(statement.line).or_default();
            entry.0 += usize::from(*covered);
            entry.1 += 1;
        }
    }
    let text = file.entry.parsed.text();
    let first = function.line;
    let last = statements
        .get(local(function.statements.end.saturating_sub(1).max(function.statements.start)))
        .map(|s| file.entry.parsed.line_col(swc_common::BytePos(file.entry.parsed.source.start_pos.0 + s.end)).0 as u32)
        .unwrap_or(first)
        .max(first)
        + 1;
    let source = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i as u32 + 1, line))
        .filter(|(n, _)| (first..=last).contains(n))
        .map(|(number, line)| SourceLine {
            number,
            text: line.to_string(),
            mark: match lines.get(&number) {
                None => LineMark::Plain,
                Some((covered, total)) if covered == total => LineMark::Covered,
                Some((0, _)) => LineMark::Uncovered,
                Some(_) => LineMark::Partial,
            },
        })
        .collect();
    let branches = file.instrumented.branches.get(
        (function.branches.start - file.branches.start) as usize
            ..(function.branches.end - file.branches.start) as usize,
    );
    let branches = branches
        .unwrap_or_default()
        .iter()
        .zip(&state.branches)
        .map(|(b, taken)| BranchRow { line: b.line, outcome: b.outcome.clone(), taken: *taken })
        .collect();
    CoverageView { cells: state.covered.clone(), source, branches }
}

fn suite_view(session: &Session) -> SuiteView {
    let program = &session.program;
    let name = |t: &crate::model::test::TestCase| format!("{}.{}", program.classes[t.class].name, t.method);
    SuiteView {
        elected: session
            .suite
            .elected
            .iter()
            .map(|e| ElectedRow {
                method: program.classes[e.test.class].name.clone(),
                title: {
                    let peers: Vec<&crate::suite::ElectedTest> =
                        session.suite.elected.iter().filter(|o| o.test.method == e.test.method).collect();
                    format!("{}: {}", e.test.method, crate::suite::title::test_title(program, &session.code, e, &peers))
                },
                code: crate::suite::test_lines(program, e).iter().map(|l| crate::export::statement(l) + "\n").collect(),
            })
            .collect(),
        failing: session
            .suite
            .failing
            .iter()
            .map(|f| FailingRow { method: name(&f.test), message: f.message.clone(), code: f.test.source(program) })
            .collect(),
    }
}
