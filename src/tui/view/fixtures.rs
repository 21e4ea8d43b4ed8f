//! A snapshot of a small session (one class of three methods, two parameters, some coverage, a suite)
//! and helpers that draw it on a test terminal and read the screen back as text, for the view's tests.

use std::path::PathBuf;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::draw;
use crate::export::Format;
use crate::model::settings::Settings;
use crate::session::StopReason;
use crate::tui::snapshot::*;
use crate::tui::state::App;
use crate::tui::theme::Theme;

/// A `LinkedList` method 3.2 s into its run and stale for 12 candidates.
pub(super) fn method(name: &str, status: MethodStatus, covered: usize, statements: usize) -> MethodRow {
    MethodRow {
        class: "LinkedList".into(),
        name: name.into(),
        status,
        covered,
        statements,
        elapsed: Duration::from_millis(3200),
        stale: 12,
        ..MethodRow::default()
    }
}

/// The sample session: `add` under work with an invalid candidate, `remove` covered, `size` pending.
fn snapshot() -> Snapshot {
    let line = |number, text: &str, mark| SourceLine { number, text: text.into(), mark };
    Snapshot {
        seed: 42,
        iteration: 1234,
        rate: 5400.0,
        running: true,
        settings: Settings { delay: 20, timeout: Duration::from_secs(10), max_stale: 200, ..Settings::default() },
        classes: vec![ClassRow { name: "LinkedList".into(), methods: vec![0, 1, 2] }],
        methods: vec![
            method("add", MethodStatus::Running, 3, 5),
            method("remove", MethodStatus::Stopped(StopReason::Covered), 4, 4),
            method("size", MethodStatus::Pending, 0, 2),
        ],
        current: Some(0),
        history: vec![CandidateView {
            step: 1234,
            method: 0,
            lines: vec![
                CandidateLine { text: "const list = new LinkedList(3);".into(), under_test: false },
                CandidateLine { text: "list.size();".into(), under_test: false },
                CandidateLine { text: "list.add(<?node>);".into(), under_test: true },
            ],
            outcome: CandidateOutcome::Invalid,
            failed_at: None,
            ran: (3, 0),
            decisions: Vec::new(),
        }],
        class: Some("LinkedList".into()),
        params: vec![
            ParamRow {
                id: 0,
                function: "add".into(),
                name: "node".into(),
                ty: "Unknown".into(),
                unknown: true,
                uses: 12,
                delay: 20,
                members: vec![("next".into(), 4), ("prev".into(), 2)],
                number: 12,
                string: 3,
                guess: Some(("Node".into(), "members 'next', 'prev' all belong to Node".into())),
                ..ParamRow::default()
            },
            ParamRow {
                id: 1,
                function: "remove".into(),
                name: "index".into(),
                ty: "number".into(),
                uses: 20,
                delay: 20,
                number: 30,
                evidence: "coerced by >, - and ++: number 30, string 2".into(),
                source: Some("inferred"),
                ..ParamRow::default()
            },
        ],
        coverage: CoverageView {
            cells: vec![true, true, false, true, false],
            helpers: Vec::new(),
            source: vec![
                line(10, "add(node) {", LineMark::Plain),
                line(11, "  if (!this.head) {", LineMark::Covered),
                line(12, "    this.head = node;", LineMark::Uncovered),
                line(13, "  } else { this.tail.next = node; n++; }", LineMark::Partial),
                line(14, "}", LineMark::Plain),
            ],
            branches: vec![
                BranchRow { line: 11, outcome: "then".into(), condition: "!this.head".into(), taken: true },
                BranchRow { line: 11, outcome: "else".into(), condition: "!this.head".into(), taken: false },
            ],
        },
        suite: SuiteView {
            elected: vec![
                ElectedRow {
                    method: "LinkedList.remove".into(),
                    title: "covers 4 statements".into(),
                    code: "const list = new LinkedList(1);\nassert.equal(list.remove(0), undefined);\n".into(),
                },
                ElectedRow {
                    method: "LinkedList.add".into(),
                    title: "covers 3 statements".into(),
                    code: "const list = new LinkedList(2);\nlist.add(new Node(7));\n".into(),
                },
            ],
            failing: vec![FailingRow {
                method: "LinkedList.add".into(),
                culprit: None,
                message: "TypeError: cannot read next".into(),
                code: "list.add(null);".into(),
            }],
        },
        unexported: 2,
        ..Snapshot::default()
    }
}

/// An app over the sample session, exporting with node-test to `tests/out`.
pub(super) fn app() -> App {
    App::new(snapshot(), PathBuf::from("tests/out"), Format::NodeTest)
}

/// The built-in dark theme, so colours can be told apart in assertions.
pub(super) fn dark() -> Theme {
    Theme::load("dark").unwrap()
}

/// `app` drawn on a `columns` × `rows` test terminal.
pub(super) fn render(app: &App, theme: &Theme, columns: u16, rows: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(columns, rows)).unwrap();
    terminal.draw(|frame| draw(frame, app, theme)).unwrap();
    terminal
}

/// The text of each row of `area`.
pub(super) fn rows_of(buffer: &Buffer, area: Rect) -> Vec<String> {
    (area.top()..area.bottom())
        .map(|y| (area.left()..area.right()).map(|x| buffer[(x, y)].symbol()).collect())
        .collect()
}

/// The whole screen as text, one line a row.
pub(super) fn screen(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    rows_of(buffer, buffer.area).join("\n")
}
