//! The session's thread: it owns the [`Session`], obeys [`Command`]s from the UI and answers with
//! [`Event`]s (snapshots and notes). Continuous stepping happens here in slices, so the UI thread never
//! waits for a step and stays responsive whatever the code under test does.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::snapshot::Snapshot;
use crate::app::project::Project;
use crate::app::{ENGINE_THREAD_STACK, Opening};
use crate::error::{Error, Result};
use crate::export::Format;
use crate::inference::{DecisionSource, ParamType};
use crate::model::settings::{SettingsOrigin, SettingsPatch};
use crate::session::Session;
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
    /// Freeze a parameter's inferred type.
    Accept {
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
    /// Stop: write the suite to the out folder (`export`) or keep a recovery copy, then end.
    Quit {
        /// Whether the person asked for the export.
        export: bool,
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
}

/// The UI's handle on the session thread.
pub struct Worker {
    /// Commands to the session.
    pub commands: Sender<Command>,
    /// Events from the session.
    pub events: Receiver<Event>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the session thread and waits until the program is loaded: loading errors (a missing file,
    /// no class...) come back here, before any terminal is taken over.
    pub fn start(options: WorkerOptions) -> Result<(Worker, Snapshot)> {
        let (command_tx, command_rx) = mpsc::channel();
        let (event_tx, event_rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("flycatcher-session".into())
            .stack_size(ENGINE_THREAD_STACK)
            .spawn(move || {
                let session = match options.opening.open() {
                    Ok(session) => session,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let mut state = WorkerState::new(session, options);
                let _ = ready_tx.send(Ok(state.snapshot()));
                state.serve(command_rx, event_tx);
            })
            .map_err(|e| Error::Engine(format!("cannot start the session thread: {e}")))?;
        let snapshot =
            ready_rx.recv().map_err(|_| Error::Engine("the session thread stopped while loading".into()))??;
        Ok((Worker { commands: command_tx, events: event_rx, thread: Some(thread) }, snapshot))
    }

    /// Sends a command; a stopped session thread is not an error here (its last events say why).
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }
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

struct WorkerState {
    session: Session,
    options: WorkerOptions,
    running: bool,
    /// Elected tests at the last export: the rest are unexported.
    exported: usize,
    /// Executions and stepping time at the start of the current rate window, and when it started.
    rate_mark: (u64, Duration, Instant),
    rate: f64,
}

impl WorkerState {
    fn new(session: Session, options: WorkerOptions) -> WorkerState {
        let mark = (session.executions, session.elapsed, Instant::now());
        WorkerState { session, options, running: false, exported: 0, rate_mark: mark, rate: 0.0 }
    }

    fn snapshot(&self) -> Snapshot {
        let unexported = self.session.suite.elected.len().saturating_sub(self.exported);
        Snapshot::of(&self.session, self.running, self.rate, unexported)
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
                let note = self.obey(command);
                dirty = true;
                if let Some((text, error)) = note {
                    send(Event::Note { text, error });
                }
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
                            self.running = false;
                            dirty = true;
                            send(Event::Note { text: "every method under test has stopped".into(), error: false });
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
            self.update_rate();
            if dirty && (!self.running || last_snapshot.elapsed() >= SNAPSHOT_EVERY) {
                if !send(Event::Snapshot(Box::new(self.snapshot()))) {
                    return self.rescue();
                }
                last_snapshot = Instant::now();
                dirty = false;
            }
        }
    }

    /// Candidates per second of stepping (time paused does not count), over windows of half a second.
    fn update_rate(&mut self) {
        let (executions, stepping, since) = self.rate_mark;
        if since.elapsed() >= Duration::from_millis(500) {
            let spent = self.session.elapsed.saturating_sub(stepping).as_secs_f64();
            if spent > 0.0 {
                self.rate = (self.session.executions - executions) as f64 / spent;
            }
            self.rate_mark = (self.session.executions, self.session.elapsed, Instant::now());
        }
    }

    /// One step; `Ok(false)` when every method has stopped. When stepping fails (the engine, or a bug
    /// in Flycatcher), the suite is written and the failure reported.
    fn step(&mut self) -> std::result::Result<bool, String> {
        match self.session.step_guarded() {
            Ok(report) => Ok(report.is_some()),
            Err(e) => {
                let saved = self.export(self.options.format, &self.options.out_dir.clone());
                Err(format!("{e}; {}", saved.0))
            }
        }
    }

    /// Carries out a command; returns a note for the status line.
    fn obey(&mut self, command: Command) -> Option<(String, bool)> {
        match command {
            Command::Step => match self.step() {
                Ok(true) => None,
                Ok(false) => Some(("every method under test has stopped".into(), false)),
                Err(message) => Some((message, true)),
            },
            Command::ToggleRun => {
                self.running = !self.running && !self.session.finished();
                self.session.finished().then(|| ("every method under test has stopped".into(), false))
            }
            Command::Select(index) => {
                self.session.select(index);
                None
            }
            Command::Settings(change) => Some(match self.apply_settings(change) {
                Ok(()) => ("settings apply from the next step".into(), false),
                Err(message) => (message, true),
            }),
            Command::Override { param, ty } => Some(match ParamType::parse(&ty, &self.session.program) {
                Some(t) => {
                    self.session.set_type(param, t, DecisionSource::Overridden);
                    (format!("{} is now {ty}", self.session.types.get(param).name), false)
                }
                None => (format!("unknown type {ty}"), true),
            }),
            Command::Accept { param } => {
                let record = self.session.types.get(param);
                let ty = record.current_type();
                Some(if ty == ParamType::Unknown {
                    (format!("{} has no inferred type to accept yet", record.name), true)
                } else {
                    let name = record.name.clone();
                    self.session.set_type(param, ty, DecisionSource::Accepted);
                    (format!("{name} stays {}", ty.name(&self.session.program)), false)
                })
            }
            Command::Export { format, dir } => Some(self.export(format, &dir)),
            Command::SaveProject => {
                let path = self.options.project_path.clone();
                Some(match Project::of(&self.session).save(&path) {
                    Ok(()) => (format!("saved {}", path.display()), false),
                    Err(e) => (e.to_string(), true),
                })
            }
            Command::Quit { export } => {
                if self.session.suite.elected.len() <= self.exported {
                    return None;
                }
                let dir = if export { self.options.out_dir.clone() } else { self.options.out_dir.join("recovery") };
                Some(self.export(self.options.format, &dir))
            }
        }
    }

    fn apply_settings(&mut self, change: SettingsPatch) -> std::result::Result<(), String> {
        let mut settings = self.session.settings().clone();
        change.apply(&mut settings, SettingsOrigin::Explorer).map_err(|e| e.to_string())?;
        self.session.set_settings(settings);
        Ok(())
    }

    fn export(&mut self, format: Format, dir: &std::path::Path) -> (String, bool) {
        match self.session.export(format, dir, &self.options.command) {
            Ok(files) => {
                self.exported = self.session.suite.elected.len();
                (format!("wrote {} file(s) to {}", files.len(), dir.display()), false)
            }
            Err(e) => (e.to_string(), true),
        }
    }

    /// The UI went away without quitting (it crashed): keep the suite.
    fn rescue(&mut self) {
        if self.session.suite.elected.len() > self.exported {
            let dir = self.options.out_dir.clone();
            let (text, _) = self.export(self.options.format, &dir);
            eprintln!("flycatcher: {text}");
        }
    }
}
