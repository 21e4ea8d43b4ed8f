//! The full views: a candidate of the history (its code, the line that failed, the types decided after
//! it and a diff of its method's coverage), an elected test, a failing-log entry, or the suite as it
//! would be written. They are built on the session thread, which has everything, as a [`Document`] of
//! toned lines that the view wraps and scrolls.

use std::path::Path;

use super::history::History;
use super::snapshot::{LineMark, candidate_view, line_mark, method_lines};
use crate::export::Format;
use crate::model::program::ProgramInfo;
use crate::session::{self, MethodState, Session, StepReport};
use crate::suite::{ElectedTest, Suite};

/// What a line of a document is, for its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Text.
    Plain,
    /// A heading.
    Title,
    /// Secondary text.
    Dim,
    /// Statements run for the first time (a coverage diff's `+`).
    Added,
    /// Covered or run.
    Covered,
    /// Partly run.
    Partial,
    /// Not covered.
    Uncovered,
    /// An error.
    Error,
}

/// A text to read full screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// What it is.
    pub title: String,
    /// Its lines.
    pub lines: Vec<(Tone, String)>,
}

/// What to show full screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// The candidate of this step.
    Candidate(u64),
    /// Elected test number n.
    Elected(usize),
    /// Failing-log entry number n.
    Failing(usize),
    /// The whole suite, as it would be written in this format to this folder.
    Suite(Format, std::path::PathBuf),
}

/// The document for `shown`, or why there is none.
pub(crate) fn document(session: &Session, history: &History, shown: &Subject) -> Result<Document, String> {
    let (subject, suite) = (session.subject(), session.suite());
    match shown {
        Subject::Candidate(step) => {
            let report = history.at_step(*step).ok_or_else(|| format!("step {step} is no longer in the history"))?;
            Ok(candidate(subject, &session.methods()[report.method], *step, report))
        }
        Subject::Elected(index) => {
            suite.elected.get(*index).map(|e| elected(subject, suite, e)).ok_or("no such elected test".into())
        }
        Subject::Failing(index) => failing(subject.program(), suite, *index).ok_or("no such failing test".into()),
        Subject::Suite(format, dir) => Ok(suite_document(subject, suite, *format, dir)),
    }
}

/// The candidate of step `step` (`report`), which worked on `m`.
fn candidate(subject: &session::Subject, m: &MethodState, step: u64, report: &StepReport) -> Document {
    let view = candidate_view(subject, step, report);
    let name = format!("{}.{}", subject.program().classes[m.class].name, m.method);
    let mut lines = vec![(Tone::Title, "Code".to_string())];
    for (index, line) in view.lines.iter().enumerate() {
        let (mark, tone) = match (view.failed_at == Some(index), line.under_test) {
            (true, _) => ("✗ ", Tone::Error),
            (false, true) => ("▸ ", Tone::Plain),
            (false, false) => ("  ", Tone::Plain),
        };
        lines.push((tone, format!("{mark}{}", line.text)));
    }
    lines.push((Tone::Plain, String::new()));
    lines.push((Tone::Title, "Outcome".to_string()));
    lines.push((Tone::Plain, view.outcome.describe()));
    if !view.decisions.is_empty() {
        lines.push((Tone::Dim, format!("types decided after it: {}", view.decisions.join(", "))));
    }
    lines.push((Tone::Plain, String::new()));
    lines.push((Tone::Title, format!("Coverage of {name}: {} statements run, {} of them new", view.ran.0, view.ran.1)));
    lines.push((Tone::Dim, "+ first run by this candidate · • run · ✓ covered by the suite only · ✗ neither".into()));
    for line in method_lines(subject.code(), m) {
        let ran = |offset: usize| report.statements.contains(&(offset as u32));
        let new = line.statements.iter().any(|s| report.new_statements.contains(&(*s as u32)));
        let (mark, tone) = match (new, line_mark(&line.statements, ran)) {
            (_, LineMark::Plain) => (" ", Tone::Plain),
            (true, _) => ("+", Tone::Added),
            (false, LineMark::Covered) => ("•", Tone::Covered),
            (false, LineMark::Partial) => ("~", Tone::Partial),
            (false, LineMark::Uncovered) => match line_mark(&line.statements, |s| m.covered[s]) {
                LineMark::Covered => ("✓", Tone::Dim),
                _ => ("✗", Tone::Uncovered),
            },
        };
        lines.push((tone, format!("{:>5} {mark} {}", line.number, line.text)));
    }
    Document { title: format!("Candidate of step {step} · {name}"), lines }
}

fn elected(subject: &session::Subject, suite: &Suite, e: &ElectedTest) -> Document {
    let program = subject.program();
    let name = format!("{}.{}", program.classes[e.test.class].name, e.test.method);
    let peers: Vec<&ElectedTest> = suite.elected.iter().filter(|o| o.test.method == e.test.method).collect();
    let title = crate::suite::title::test_title(program, subject.code(), e, &peers);
    let mut lines: Vec<(Tone, String)> =
        crate::suite::test_lines(program, e).iter().map(|l| (Tone::Plain, crate::export::statement(l))).collect();
    lines.push((Tone::Plain, String::new()));
    let covered = crate::suite::compress_lines(&e.new_lines);
    lines.push((Tone::Dim, format!("elected for lines {covered}, which no earlier test covered")));
    Document { title: format!("Elected test · {name}: {title}"), lines }
}

fn failing(program: &ProgramInfo, suite: &Suite, index: usize) -> Option<Document> {
    let f = suite.failing.get(index)?;
    let name = format!("{}.{}", program.classes[f.test.class].name, f.test.method);
    let culprit = f.culprit.as_deref().unwrap_or(&f.test.method);
    let mut lines = vec![(Tone::Error, format!("{culprit} {}", f.message)), (Tone::Plain, String::new())];
    lines.extend(f.test.source(program).lines().map(|l| (Tone::Plain, l.to_string())));
    Some(Document { title: format!("Failing test · while testing {name}"), lines })
}

fn suite_document(subject: &session::Subject, suite: &Suite, format: Format, dir: &Path) -> Document {
    let program = subject.program();
    let mut lines = vec![(
        Tone::Dim,
        "as it would be written now: the export first shortens the tests and drops redundant and unstable ones"
            .to_string(),
    )];
    for class in suite.classes() {
        let elected: Vec<&ElectedTest> = suite.elected.iter().filter(|e| e.test.class == class).collect();
        if elected.is_empty() {
            continue;
        }
        let exported = crate::suite::export_suite(program, subject.code(), class, &elected, &[]);
        let rendered = crate::export::render(&exported, format, dir);
        lines.push((Tone::Plain, String::new()));
        lines.push((Tone::Title, format!("── {} ──", dir.join(&rendered.file_name).display())));
        lines.extend(rendered.text.lines().map(|l| (Tone::Plain, l.to_string())));
    }
    if lines.len() == 1 {
        lines.push((Tone::Dim, "no elected tests yet".into()));
    }
    Document { title: format!("Suite · {} to {}", format.name(), dir.display()), lines }
}
