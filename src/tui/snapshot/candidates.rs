//! A step's candidate as the candidate pane and the history show it: its code with unknown parameters
//! written `<?name>`, the call under test, the statement that failed and what it called, what it
//! covered and the types decided after it.

use crate::model::test::TestCase;
use crate::session::{CandidateVerdict, StepReport, Subject};

use super::{CandidateLine, CandidateOutcome, CandidateView};

/// The view of `report`, taken at step `step`, in the terms of `subject`.
pub(crate) fn candidate_view(subject: &Subject, step: u64, report: &StepReport) -> CandidateView {
    let program = subject.program();
    CandidateView {
        step,
        method: report.method,
        lines: candidate_lines(subject, &report.test),
        outcome: match &report.verdict {
            CandidateVerdict::NewCoverage(n) => CandidateOutcome::NewCoverage(*n),
            CandidateVerdict::NoNewCoverage => CandidateOutcome::NoNewCoverage,
            CandidateVerdict::Invalid => CandidateOutcome::Invalid,
            CandidateVerdict::Failed(message) => CandidateOutcome::Failed {
                message: message.clone(),
                culprit: report.failed_at.map(|at| report.test.callee(at, program)),
            },
        },
        // An invalid candidate throws as often as not (a proxy is no value): only a failure is marked.
        failed_at: report.failed_at.filter(|_| matches!(report.verdict, CandidateVerdict::Failed(_))),
        ran: (report.statements.len(), report.new_statements.len()),
        decisions: report
            .decisions
            .iter()
            .map(|(id, d)| {
                let record = subject.types().get(*id);
                format!("{}({}): {}", record.key.function, record.name, d.ty.name(program))
            })
            .collect(),
    }
}

fn candidate_lines(subject: &Subject, test: &TestCase) -> Vec<CandidateLine> {
    test.display(subject.program(), |id| subject.types().get(id).name.clone())
        .into_iter()
        .enumerate()
        .map(|(at, text)| CandidateLine { text, under_test: test.tests_at(at) })
        .collect()
}
