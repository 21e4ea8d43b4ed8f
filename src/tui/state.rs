//! The UI's own state: the latest snapshot of the session, and what the person is doing with it
//! (which pane has focus, what is selected, which candidate of the history is viewed, the filter,
//! which dialog or full view is open, the last note and how long it stays).

use std::path::PathBuf;

use super::inspect::Document;
use super::snapshot::{CandidateView, Snapshot};
use crate::export::Format;

/// Frames a note stays in the status line (about five seconds; errors twice as long).
pub(crate) const NOTE_TICKS: u32 = 150;

/// The panes, in their order on a narrow screen (`tab` follows the screen: see `update.rs`).
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
    pub(crate) const ALL: [Pane; 5] = [Pane::Methods, Pane::Candidate, Pane::Params, Pane::Coverage, Pane::Suite];

    /// The pane's title.
    pub(crate) fn title(self) -> &'static str {
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
pub(crate) enum SuiteTab {
    /// Elected tests.
    #[default]
    Elected,
    /// The failing-tests log.
    Failing,
}

/// One editable field of a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field {
    /// Label.
    pub(crate) label: &'static str,
    /// Text as typed.
    pub(crate) value: String,
    /// Why the text is not valid, shown next to it.
    pub(crate) error: Option<String>,
}

/// The settings dialog (`t`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsForm {
    /// Fields, in order: delay, timeout (s), max stale, max calls, test time limit (ms), string
    /// generator, number generator.
    pub(crate) fields: Vec<Field>,
    /// The field being edited.
    pub(crate) selected: usize,
}

/// The type picker (`o`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverridePicker {
    /// The parameter's id.
    pub(crate) param: u32,
    /// The parameter, for the title: `add(node)`.
    pub(crate) label: String,
    /// Choices: primitives, then classes.
    pub choices: Vec<String>,
    /// The highlighted choice.
    pub(crate) selected: usize,
}

/// The export dialog (`x`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportForm {
    /// The chosen format.
    pub(crate) format: Format,
    /// The folder, as typed.
    pub folder: String,
    /// 0: the format is being chosen; 1: the folder is being typed.
    pub(crate) field: usize,
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
    /// Quitting with unexported tests or unsaved changes: asks first.
    ConfirmQuit,
    /// Typing the filter of the methods and tests (`/`).
    Filter,
    /// A document full screen.
    Full(FullView),
}

/// A document shown full screen, scrolled and wrapped or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullView {
    /// What is shown.
    pub document: Document,
    /// The first row shown.
    pub(crate) scroll: usize,
    /// Whether long lines wrap (else they are cut).
    pub(crate) wrap: bool,
}

/// A note in the status line: the result of the last action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Text.
    pub text: String,
    /// Whether it reports a failure.
    pub(crate) error: bool,
    /// Frames left before it goes.
    pub(crate) ticks: u32,
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
    pub(crate) suite_tab: SuiteTab,
    /// Selected test of that list.
    pub(crate) suite_cursor: usize,
    /// First source line shown in the coverage pane.
    pub(crate) coverage_scroll: usize,
    /// What the person is doing.
    pub mode: Mode,
    /// The last action's result.
    pub message: Option<Message>,
    /// Where suites are exported by default.
    pub(crate) out_dir: PathBuf,
    /// The default export format.
    pub(crate) format: Format,
    /// Set when the UI should close.
    pub quit: bool,
    /// Set when it closes because of Ctrl-C.
    pub(crate) interrupted: bool,
    /// The notes that came after quitting: printed once the screen is gone.
    pub farewell: Vec<Message>,
    /// The step of the candidate viewed in the history; `None` follows the latest.
    pub(crate) history_step: Option<u64>,
    /// Methods and tests shown contain this (case-insensitive); empty shows all.
    pub(crate) filter: String,
    /// First row of the help.
    pub(crate) help_scroll: usize,
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
            interrupted: false,
            farewell: Vec::new(),
            history_step: None,
            filter: String::new(),
            help_scroll: 0,
        }
    }

    /// Whether `text` passes the filter.
    pub(crate) fn passes(&self, text: &str) -> bool {
        self.filter.is_empty() || text.to_lowercase().contains(&self.filter.to_lowercase())
    }

    /// Whether method `index` ([`Snapshot::methods`]) passes the filter, by `Class.method`.
    pub(crate) fn shows_method(&self, index: usize) -> bool {
        self.snapshot.methods.get(index).is_some_and(|m| self.passes(&format!("{}.{}", m.class, m.name)))
    }

    /// Method indices ([`Snapshot::methods`]) in the order the tree lists them, filtered.
    pub fn method_order(&self) -> Vec<usize> {
        self.snapshot.classes.iter().flat_map(|c| c.methods.iter().copied()).filter(|m| self.shows_method(*m)).collect()
    }

    /// Indices of the tests of the suite list shown that pass the filter.
    pub(crate) fn suite_rows(&self) -> Vec<usize> {
        let suite = &self.snapshot.suite;
        match self.suite_tab {
            SuiteTab::Elected => (0..suite.elected.len())
                .filter(|i| self.passes(&format!("{}.{}", suite.elected[*i].method, suite.elected[*i].title)))
                .collect(),
            SuiteTab::Failing => (0..suite.failing.len())
                .filter(|i| {
                    let f = &suite.failing[*i];
                    self.passes(&format!("{} {} {}", f.method, f.culprit.as_deref().unwrap_or_default(), f.message))
                })
                .collect(),
        }
    }

    /// The selected test's index in its list, if any.
    pub(crate) fn selected_test(&self) -> Option<usize> {
        self.suite_rows().get(self.suite_cursor).copied()
    }

    /// The candidate viewed: the one of [`App::history_step`], or the latest.
    pub fn viewed_candidate(&self) -> Option<&CandidateView> {
        let history = &self.snapshot.history;
        match self.history_step {
            Some(step) => history.iter().find(|c| c.step == step).or(history.first()),
            None => history.last(),
        }
    }

    /// Position of the viewed candidate in the history, counted from the latest (0).
    pub(crate) fn candidates_back(&self) -> usize {
        let history = &self.snapshot.history;
        let viewed = self.viewed_candidate().map(|c| c.step);
        history.iter().rev().position(|c| Some(c.step) == viewed).unwrap_or(0)
    }

    /// The selected method's index in [`Snapshot::methods`].
    pub fn selected_method(&self) -> Option<usize> {
        self.method_order().get(self.method_cursor).copied()
    }

    /// The selected parameter row.
    pub(crate) fn selected_param(&self) -> Option<&super::snapshot::ParamRow> {
        self.snapshot.params.get(self.param_cursor)
    }

    /// Number of rows in the suite list shown.
    pub(crate) fn suite_len(&self) -> usize {
        self.suite_rows().len()
    }

    /// Replaces the snapshot, keeping cursors within the new lists.
    pub fn update_snapshot(&mut self, snapshot: Snapshot) {
        self.snapshot = snapshot;
        self.method_cursor = self.method_cursor.min(self.method_order().len().saturating_sub(1));
        self.param_cursor = self.param_cursor.min(self.snapshot.params.len().saturating_sub(1));
        self.suite_cursor = self.suite_cursor.min(self.suite_len().saturating_sub(1));
        self.coverage_scroll = self.coverage_scroll.min(self.snapshot.coverage.source.len().saturating_sub(1));
    }

    /// Shows a note in the status line for a while; once quitting, keeps it to print on the way out.
    pub fn note(&mut self, text: impl Into<String>, error: bool) {
        let ticks = if error { 2 * NOTE_TICKS } else { NOTE_TICKS };
        let message = Message { text: text.into(), error, ticks };
        if self.quit {
            self.farewell.push(message);
        } else {
            self.message = Some(message);
        }
    }

    /// One frame passed without input: notes age and go.
    pub(crate) fn tick(&mut self) {
        if let Some(message) = &mut self.message {
            message.ticks = message.ticks.saturating_sub(1);
            if message.ticks == 0 {
                self.message = None;
            }
        }
    }

    /// Shows `document` full screen, unless a dialog was opened meanwhile.
    pub fn show(&mut self, document: Document) {
        if matches!(self.mode, Mode::Normal | Mode::Full(_)) {
            self.mode = Mode::Full(FullView { document, scroll: 0, wrap: true });
        }
    }

    /// What quitting now would lose: unexported tests, and changes not saved to the project file.
    pub(crate) fn unsaved_work(&self) -> bool {
        self.snapshot.unexported > 0 || !self.snapshot.unsaved.is_empty()
    }
}
