//! The session's thread: it owns the [`Session`], obeys [`Command`]s from the UI and answers with
//! [`Event`]s (snapshots, notes and documents to show full screen). Continuous stepping happens here in
//! slices, so the UI thread never waits for a step and stays responsive whatever the code under test
//! does. Besides the session it keeps the run's [`History`] and the [`LiveChanges`] made in the UI.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::changes::LiveChanges;
use super::history::History;
use super::inspect::{Document, Subject, document};
use super::snapshot::{Facts, Snapshot};
use crate::app::generate::Export;
use crate::app::project::Project;
use crate::app::update::{Update, keep_suite};
use crate::app::{ENGINE_THREAD_STACK, Opening};
use crate::error::{Error, Result};
use crate::export::Format;
use crate::inference::{DecisionSource, ParamType};
use crate::model::settings::{SettingsOrigin, SettingsPatch};
use crate::session::{Selection, Session, StopReason};
/// Longest stretch of stepping between two looks at the UI's commands.
const SLICE: Duration = Duration::from_millis(25);
/// Shortest time between two snapshots while running (a snapshot copies the suite).
const SNAPSHOT_EVERY: Duration = Duration::from_millis(60);

/// What the UI asks of the session.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Take one step.
    Step,
    /// Start or pause continuous stepping.
    ToggleRun,
    /// Work on this method (index in the session's methods).
    Select(usize),
    /// Change settings from the next step.
    Settings(SettingsPatch),
    /// Fix a parameter's type: its name (`number`, a class name...), chosen by the user.
    Override {
        /// Parameter id.
        param: u32,
        /// Type name.
        ty: String,
    },
    /// Freeze a parameter's inferred type, or its leading guess before the delay.
    Accept {
        /// Parameter id.
        param: u32,
    },
    /// Give a fixed type back to inference.
    Reinfer {
        /// Parameter id.
        param: u32,
    },
    /// Write the suite.
    Export {
        /// Format.
        format: Format,
        /// Folder.
        dir: PathBuf,
    },
    /// Save settings and fixed types to the project file.
    SaveProject,
    /// Build a document to show full screen.
    Show(Subject),
    /// Stop: write the suite (`export`) or keep a recovery copy of what is unexported in `dir/recovery`,
    /// save the project file if asked, then end.
    Quit {
        /// The format.
        format: Format,
        /// The export folder.
        dir: PathBuf,
        /// Whether the person asked for the export.
        export: bool,
        /// Whether the person asked to save the live changes to the project file.
        save: bool,
    },
}

/// What the session thread tells the UI.
#[derive(Debug, Clone)]
pub enum Event {
    /// The session after some steps.
    Snapshot(Box<Snapshot>),
    /// The result of a command, for the status line.
    Note {
        /// Text.
        text: String,
        /// Whether it reports a failure.
        error: bool,
    },
    /// A document to show full screen (after `Show`).
    Document(Box<Document>),
    /// The thread is done (after `Quit`).
    Finished,
}

/// Everything the session thread needs.
pub struct WorkerOptions {
    /// What to test, with which settings and choices.
    pub opening: Opening,
    /// Where the project file is saved.
    pub project_path: PathBuf,
    /// The default export folder (also where the suite goes on quit or crash).
    pub out_dir: PathBuf,
    /// The default export format.
    pub format: Format,
    /// The command line, for suite headers.
    pub command: String,
    /// Bring the suite in `out_dir` up to date rather than write it anew (`--update`): its tests are run
    /// and kept before the first step, as `generate --update` does.
    pub update: Option<Update>,
}

/// The UI's handle on the session thread.
pub struct Worker {
    /// Commands to the session.
    pub(crate) commands: Sender<Command>,
    /// Events from the session.
    pub events: Receiver<Event>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the session thread and waits until the program is loaded: loading errors (a missing file,
    /// no class...) come back here, before any terminal is taken over.
    pub fn start(options: WorkerOptions) -> Result<(Worker, Snapshot)> {
        Worker::start_watching(options, |_| {})
    }

    /// [`Worker::start`], telling `waiting` every tenth of a second how long loading has taken so far
    /// (top-level code can take a while).
    pub fn start_watching(options: WorkerOptions, mut waiting: impl FnMut(Duration)) -> Result<(Worker, Snapshot)> {
        let (command_tx, command_rx) = mpsc::channel();
        let (event_tx, event_rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("flycatcher-session".into())
            .stack_size(ENGINE_THREAD_STACK)
            .spawn(move || {
                let session = match open_keeping(&options) {
                    Ok(session) => session,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let notes = [loaded_project(&options), updating(&session, &options)];
                let mut state = WorkerState::new(session, options);
                let _ = ready_tx.send(Ok(state.snapshot()));
                for text in notes.into_iter().flatten() {
                    let _ = event_tx.send(Event::Note { text, error: false });
                }
                state.serve(command_rx, event_tx);
            })
            .map_err(|e| Error::Engine(format!("cannot start the session thread: {e}")))?;
        let started = Instant::now();
        let snapshot = loop {
            match ready_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(result) => break result?,
                Err(RecvTimeoutError::Timeout) => waiting(started.elapsed()),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Error::Engine("the session thread stopped while loading".into()));
                }
            }
        };
        Ok((Worker { commands: command_tx, events: event_rx, thread: Some(thread) }, snapshot))
    }

    /// Sends a command; a stopped session thread is not an error here (its last events say why).
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }
}

/// Opens the session and, under `--update`, keeps the tests of the suite in the out folder that still
/// pass (see [`crate::app::update`]).
fn open_keeping(options: &WorkerOptions) -> Result<Session> {
    let mut session = options.opening.open()?;
    let export =
        Export { format: options.format, out: &options.out_dir, command: &options.command, update: options.update };
    keep_suite(&mut session, &export)?;
    Ok(session)
}

/// What an update found in the out folder, for the first note: the person sees the suite was read.
fn updating(session: &Session, options: &WorkerOptions) -> Option<String> {
    options.update?;
    let kept = &session.suite().kept;
    if kept.classes.is_empty() {
        return Some(format!(
            "no suite of these classes in {}: the suite will be written anew",
            options.out_dir.display()
        ));
    }
    let changed = kept.changed.len();
    let verb = if options.update.is_some_and(|u| u.accept_changes) { "rewritten" } else { "set aside" };
    let kept_count = kept.tests.iter().filter(|t| t.written.is_some()).count();
    Some(format!(
        "updating the suite in {}: {kept_count} tests kept, {changed} changed ({verb}; see the .changed.log on export)",
        options.out_dir.display()
    ))
}

impl Drop for Worker {
    /// Closes the command channel and waits for the session thread: if the UI ends without `Quit` (it
    /// panicked), the thread sees the channel close and writes the suite before it ends.
    fn drop(&mut self) {
        let (closed, _) = mpsc::channel();
        drop(std::mem::replace(&mut self.commands, closed));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The note announcing the project file the run read its settings and types from, if it had any.
fn loaded_project(options: &WorkerOptions) -> Option<String> {
    let project = &options.opening.project;
    let settings = serde_json::to_value(&project.settings).ok()?.as_object().map_or(0, |o| o.len());
    let types = project.types.len();
    (settings + types > 0).then(|| {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        format!(
            "read {}: {} and {} (the command line wins)",
            options.project_path.display(),
            plural(settings, "setting"),
            plural(types, "parameter type")
        )
    })
}

struct WorkerState {
    session: Session,
    options: WorkerOptions,
    running: bool,
    /// Elected tests at the last export: the rest are unexported.
    exported: usize,
    /// Tests of the updated suite whose behaviour changed, until an export writes them out of the suite
    /// (or rewritten, under `--accept-changes`): work an export owes, like unexported tests.
    changes_unwritten: usize,
    /// Executions and stepping time at the start of the current rate window, and when it started.
    rate_mark: (u64, Duration, Instant),
    rate: f64,
    history: History,
    changes: LiveChanges,
}

impl WorkerState {
    fn new(session: Session, options: WorkerOptions) -> WorkerState {
        let mark = (session.executions(), session.elapsed(), Instant::now());
        let changes_unwritten = session.suite().kept.changed.len();
        WorkerState {
            session,
            options,
            running: false,
            exported: 0,
            changes_unwritten,
            rate_mark: mark,
            rate: 0.0,
            history: History::default(),
            changes: LiveChanges::default(),
        }
    }

    fn snapshot(&self) -> Snapshot {
        let facts = Facts {
            running: self.running,
            rate: self.rate,
            unexported: self.unexported(),
            history: &self.history,
            unsaved: self.changes.unsaved(),
        };
        Snapshot::of(&self.session, facts)
    }

    /// Tests an export would write that the last one did not: newly elected ones, and changed ones of
    /// an updated suite.
    fn unexported(&self) -> usize {
        self.session.suite().elected.len().saturating_sub(self.exported) + self.changes_unwritten
    }

    fn serve(&mut self, commands: Receiver<Command>, events: Sender<Event>) {
        let send = |event: Event| events.send(event).is_ok();
        let mut last_snapshot = Instant::now();
        let mut dirty = false;
        loop {
            let command = if self.running {
                match commands.try_recv() {
                    Ok(c) => Some(c),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => return self.rescue(),
                }
            } else {
                match commands.recv_timeout(Duration::from_millis(200)) {
                    Ok(c) => Some(c),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return self.rescue(),
                }
            };
            if let Some(command) = command {
                let quitting = matches!(command, Command::Quit { .. });
                if let Command::Show(subject) = command {
                    let event = match document(&self.session, &self.history, &subject) {
                        Ok(document) => Event::Document(Box::new(document)),
                        Err(text) => Event::Note { text, error: true },
                    };
                    send(event);
                    continue;
                }
                for (text, error) in self.obey(command) {
                    send(Event::Note { text, error });
                }
                dirty = true;
                if quitting {
                    send(Event::Snapshot(Box::new(self.snapshot())));
                    send(Event::Finished);
                    return;
                }
            }
            if self.running {
                let started = Instant::now();
                while started.elapsed() < SLICE {
                    match self.step() {
                        Ok(true) => dirty = true,
                        Ok(false) => {
                            // The status line says so: every method shows why it stopped.
                            self.running = false;
                            dirty = true;
                            break;
                        }
                        Err(message) => {
                            self.running = false;
                            send(Event::Note { text: message, error: true });
                            break;
                        }
                    }
                }
            }
            if self.running {
                self.update_rate();
            }
            if dirty && (!self.running || last_snapshot.elapsed() >= SNAPSHOT_EVERY) {
                if !send(Event::Snapshot(Box::new(self.snapshot()))) {
                    return self.rescue();
                }
                last_snapshot = Instant::now();
                dirty = false;
            }
        }
    }

    /// Candidates per second of continuous stepping, over windows of half a second: steps taken one by
    /// one while paused say nothing about speed.
    fn update_rate(&mut self) {
        let (executions, stepping, since) = self.rate_mark;
        if since.elapsed() >= Duration::from_millis(500) {
            let spent = self.session.elapsed().saturating_sub(stepping).as_secs_f64();
            if spent > 0.0 {
                self.rate = (self.session.executions() - executions) as f64 / spent;
            }
            self.rate_mark = (self.session.executions(), self.session.elapsed(), Instant::now());
        }
    }

    /// One step; `Ok(false)` when every method has stopped. When stepping fails (the engine, or a bug
    /// in Flycatcher), the suite is written and the failure reported.
    fn step(&mut self) -> std::result::Result<bool, String> {
        match self.session.step_guarded() {
            Ok(Some(report)) => {
                self.history.record(self.session.iteration(), self.session.methods(), report);
                Ok(true)
            }
            Ok(None) => Ok(false),
            Err(e) => {
                let saved = self.export(self.options.format, &self.options.out_dir.clone());
                Err(format!("{e}; {}", saved.0))
            }
        }
    }

    /// Carries out a command; returns notes for the status line.
    fn obey(&mut self, command: Command) -> Vec<(String, bool)> {
        let note = |text: String| vec![(text, false)];
        match command {
            Command::Step => match self.step() {
                Ok(true) => Vec::new(),
                Ok(false) => note("every method under test has stopped: enter on one reopens it".into()),
                Err(message) => vec![(message, true)],
            },
            Command::ToggleRun => {
                self.running = !self.running && !self.session.finished();
                self.rate_mark = (self.session.executions(), self.session.elapsed(), Instant::now());
                match self.session.finished() {
                    true => note("every method under test has stopped: enter on one reopens it".into()),
                    false => Vec::new(),
                }
            }
            Command::Select(index) => self.select(index).into_iter().collect(),
            Command::Settings(change) => vec![self.apply_settings(change)],
            Command::Override { param, ty } => vec![self.override_type(param, &ty)],
            Command::Accept { param } => vec![self.accept(param)],
            Command::Reinfer { param } => {
                let name = self.param_name(param);
                if self.session.reinfer_type(param) {
                    self.changes.typed(self.session.iteration(), format!("{name} back to inference"));
                    note(format!("{name} is back to inference: decided again from its evidence at its next use"))
                } else {
                    vec![(format!("{name} is not fixed: nothing to give back to inference"), true)]
                }
            }
            Command::Export { format, dir } => vec![self.export(format, &dir)],
            Command::SaveProject => vec![self.save_project()],
            Command::Show(_) => Vec::new(),
            Command::Quit { format, dir, export, save } => {
                let mut notes = Vec::new();
                if save {
                    notes.push(self.save_project());
                }
                if self.unexported() > 0 {
                    let dir = if export { dir } else { dir.join("recovery") };
                    notes.push(self.export(format, &dir));
                }
                notes
            }
        }
    }

    /// `Class.function(name)`, as notes name a parameter: several parameters may share a name.
    fn param_name(&self, param: u32) -> String {
        let record = self.session.subject().types().get(param);
        let class = &self.session.subject().program().classes[record.key.class].name;
        format!("{class}.{}({})", record.key.function, record.name)
    }

    fn select(&mut self, index: usize) -> Option<(String, bool)> {
        let name = self.session.methods().get(index).map(|m| m.method.clone()).unwrap_or_default();
        match self.session.select(index) {
            Selection::Working => None,
            Selection::Reopened(StopReason::Covered) => Some((
                format!("{name} reopened: fully covered, it looks for failures until it is stale or out of time"),
                false,
            )),
            Selection::Reopened(reason) => Some((
                format!("{name} reopened (it had stopped: {}), with a fresh time and stale budget", reason.name()),
                false,
            )),
            Selection::Untestable => {
                Some((format!("{name} cannot be worked on: its code cannot be located for coverage"), true))
            }
            Selection::Unknown => None,
        }
    }

    fn override_type(&mut self, param: u32, ty: &str) -> (String, bool) {
        let name = self.param_name(param);
        match ParamType::parse(ty, self.session.subject().program()) {
            Some(t) => {
                self.session.set_type(param, t, DecisionSource::Overridden);
                self.changes.typed(self.session.iteration(), format!("{name}: {ty}, overridden"));
                (format!("{name} is now {ty} (i gives it back to inference)"), false)
            }
            None => (format!("unknown type {ty}"), true),
        }
    }

    fn accept(&mut self, param: u32) -> (String, bool) {
        let name = self.param_name(param);
        let before = self.session.subject().types().get(param).decision.as_ref().map(|d| d.source.name());
        match self.session.accept_type(param) {
            Some(ty) => {
                let ty = ty.name(self.session.subject().program());
                self.changes.typed(self.session.iteration(), format!("{name}: {ty}, accepted"));
                let how = before.unwrap_or("its leading guess");
                (format!("{name} stays {ty} (accepted {how})"), false)
            }
            None => (format!("{name} has no evidence yet: step on, or override it with o"), true),
        }
    }

    fn save_project(&mut self) -> (String, bool) {
        let path = self.options.project_path.clone();
        match Project::of(&self.session).save(&path) {
            Ok(()) => {
                self.changes.saved();
                (format!("saved {}", path.display()), false)
            }
            Err(e) => (e.to_string(), true),
        }
    }

    fn apply_settings(&mut self, change: SettingsPatch) -> (String, bool) {
        let mut settings = self.session.settings().clone();
        if let Err(e) = change.apply(&mut settings, SettingsOrigin::Explorer) {
            return (e.to_string(), true);
        }
        let changed = self.changes.settings(self.session.iteration(), self.session.settings(), &settings);
        self.session.set_settings(settings);
        match changed {
            Some(options) => (format!("settings changed: {options}"), false),
            None => ("settings unchanged".into(), false),
        }
    }

    /// Writes the suite; the note says how many elected tests minimisation and the stability check
    /// left, so that the count in the file can be told from the count in the pane.
    fn export(&mut self, format: Format, dir: &std::path::Path) -> (String, bool) {
        let before = self.session.suite().elected.len();
        let header = self.changes.header();
        match self.session.export_noting(format, dir, &self.options.command, &header, &mut |_, _, _| {}) {
            Ok(files) => {
                let after = self.session.suite().elected.len();
                self.exported = after;
                self.changes_unwritten = 0;
                let count = match before == after {
                    true => format!("{after} elected"),
                    false => format!("{before} elected → {after} after minimisation"),
                };
                (format!("{count} · wrote {} file(s) to {}", files.len(), dir.display()), false)
            }
            Err(e) => (e.to_string(), true),
        }
    }

    /// The UI went away without quitting (it crashed): keep the suite.
    fn rescue(&mut self) {
        if self.unexported() > 0 {
            let dir = self.options.out_dir.clone();
            let (text, _) = self.export(self.options.format, &dir);
            eprintln!("flycatcher: {text}");
        }
    }
}
