//! The suite pane's rows: each elected test with its title and code, each failing test with what it
//! was testing, the call that failed and its message.

use crate::model::test::TestCase;
use crate::session::Subject;
use crate::suite::{ElectedTest, Suite};

use super::{ElectedRow, FailingRow, SuiteView};

pub(super) fn suite_view(subject: &Subject, suite: &Suite) -> SuiteView {
    let program = subject.program();
    let name = |t: &TestCase| format!("{}.{}", program.classes[t.class].name, t.method);
    SuiteView {
        elected: suite
            .elected
            .iter()
            .map(|e| ElectedRow {
                method: program.classes[e.test.class].name.clone(),
                title: {
                    let peers: Vec<&ElectedTest> =
                        suite.elected.iter().filter(|o| o.test.method == e.test.method).collect();
                    format!(
                        "{}: {}",
                        e.test.method,
                        crate::suite::title::test_title(program, subject.code(), e, &peers)
                    )
                },
                code: crate::suite::test_lines(program, e).iter().map(|l| crate::export::statement(l) + "\n").collect(),
            })
            .collect(),
        failing: suite
            .failing
            .iter()
            .map(|f| FailingRow {
                method: name(&f.test),
                culprit: f.culprit.clone(),
                message: f.message.clone(),
                code: f.test.source(program),
            })
            .collect(),
    }
}
