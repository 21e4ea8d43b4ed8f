//! The UI's own state: the latest snapshot of the session, and what the person is doing with it
//! (which pane has focus, what is selected, which dialog is open).

use std::path::PathBuf;

use super::snapshot::Snapshot;
use crate::export::Format;

/// The panes, in `tab` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// Classes and their methods under test.
    Methods,
    /// The current candidate test.
    Candidate,
    /// Parameters and their inference.
    Params,
    /// Coverage of the current method.
    Coverage,
    /// Elected tests and the failing log.
    Suite,
}

impl Pane {
    /// Every pane, in `tab` order.
    pub const ALL: [Pane; 5] = [Pane::Methods, Pane::Candidate, Pane::Params, Pane::Coverage, Pane::Suite];

    /// The pane after this one (`tab`), or before it (`shift-tab`).
    pub fn cycle(self, forward: bool) -> Pane {
        let index = Pane::ALL.iter().position(|p| *p == self).unwrap_or(0);
        let next = if forward { index + 1 } else { index + Pane::ALL.len() - 1 };
        Pane::ALL[next % Pane::ALL.len()]
    }

    /// The pane's title.
    pub fn title(self) -> &'static str {
        match self {
            Pane::Methods => "Classes & methods",
            Pane::Candidate => "Candidate test",
            Pane::Params => "Parameters",
            Pane::Coverage => "Coverage",
            Pane::Suite => "Suite",
        }
    }
}

/// Which list the suite pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SuiteTab {
    /// Elected tests.
    #[default]
    Elected,
    /// The failing-tests log.
    Failing,
}

/// One editable field of a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Label.
    pub label: &'static str,
    /// Text as typed.
    pub value: String,
    /// Why the text is not valid, shown next to it.
    pub error: Option<String>,
}

/// The settings dialog (`t`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsForm {
    /// Fields, in order: delay, timeout (s), max stale, max calls, test time limit (ms), string
    /// generator, number generator.
    pub fields: Vec<Field>,
    /// The field being edited.
    pub selected: usize,
}

/// The type picker (`o`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverridePicker {
    /// The parameter's id.
    pub param: u32,
    /// The parameter, for the title: `add(node)`.
    pub label: String,
    /// Choices: primitives, then classes.
    pub choices: Vec<String>,
    /// The highlighted choice.
    pub selected: usize,
}

/// The export dialog (`x`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportForm {
    /// The chosen format.
    pub format: Format,
    /// The folder, as typed.
    pub folder: String,
    /// 0: the format is being chosen; 1: the folder is being typed.
    pub field: usize,
}

/// What the person is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Looking and stepping.
    Normal,
    /// The key overlay (`?`).
    Help,
    /// Editing settings.
    Settings(SettingsForm),
    /// Picking a type for a parameter.
    Override(OverridePicker),
    /// Exporting the suite.
    Export(ExportForm),
    /// Quitting with unexported tests: asks first.
    ConfirmQuit,
}

/// A note in the status line: the result of the last action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Text.
    pub text: String,
    /// Whether it reports a failure.
    pub error: bool,
}

/// The whole UI state.
#[derive(Debug, Clone)]
pub struct App {
    /// The latest snapshot of the session.
    pub snapshot: Snapshot,
    /// The pane with focus.
    pub focus: Pane,
    /// Selected method: index into the methods in tree order ([`App::method_order`]).
    pub method_cursor: usize,
    /// Selected parameter row.
    pub param_cursor: usize,
    /// Which suite list is shown.
    pub suite_tab: SuiteTab,
    /// Selected test of that list.
    pub suite_cursor: usize,
    /// First source line shown in the coverage pane.
    pub coverage_scroll: usize,
    /// What the person is doing.
    pub mode: Mode,
    /// The last action's result.
    pub message: Option<Message>,
    /// Where suites are exported by default.
    pub out_dir: PathBuf,
    /// The default export format.
    pub format: Format,
    /// Set when the UI should close.
    pub quit: bool,
}

impl App {
    /// A UI over `snapshot`, exporting to `out_dir` in `format` by default.
    pub fn new(snapshot: Snapshot, out_dir: PathBuf, format: Format) -> App {
        App {
            snapshot,
            focus: Pane::Methods,
            method_cursor: 0,
            param_cursor: 0,
            suite_tab: SuiteTab::Elected,
            suite_cursor: 0,
            coverage_scroll: 0,
            mode: Mode::Normal,
            message: None,
            out_dir,
            format,
            quit: false,
        }
    }

    /// Method indices ([`Snapshot::methods`]) in the order the tree lists them.
    pub fn method_order(&self) -> Vec<usize> {
        self.snapshot.classes.iter().flat_map(|c| c.methods.iter().copied()).collect()
    }

    /// The selected method's index in [`Snapshot::methods`].
    pub fn selected_method(&self) -> Option<usize> {
        self.method_order().get(self.method_cursor).copied()
    }

    /// The selected parameter row.
    pub fn selected_param(&self) -> Option<&super::snapshot::ParamRow> {
        self.snapshot.params.get(self.param_cursor)
    }

    /// Number of rows in the suite list shown.
    pub fn suite_len(&self) -> usize {
        match self.suite_tab {
            SuiteTab::Elected => self.snapshot.suite.elected.len(),
            SuiteTab::Failing => self.snapshot.suite.failing.len(),
        }
    }

    /// Replaces the snapshot, keeping cursors within the new lists.
    pub fn update_snapshot(&mut self, snapshot: Snapshot) {
        self.snapshot = snapshot;
        self.method_cursor = self.method_cursor.min(self.method_order().len().saturating_sub(1));
        self.param_cursor = self.param_cursor.min(self.snapshot.params.len().saturating_sub(1));
        self.suite_cursor = self.suite_cursor.min(self.suite_len().saturating_sub(1));
        self.coverage_scroll = self.coverage_scroll.min(self.snapshot.coverage.source.len().saturating_sub(1));
    }

    /// Shows a note in the status line.
    pub fn note(&mut self, text: impl Into<String>, error: bool) {
        self.message = Some(Message { text: text.into(), error });
    }
}
