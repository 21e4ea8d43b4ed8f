//! `flycatcher explore`: the terminal UI that drives the session stepper.
//!
//! Split like gitui and helix: [`state`] is what the UI knows, [`update`] turns input into state changes
//! and commands ([`keys`] says which keys each place offers, for the footer and the help), [`view`]
//! draws the state, and [`worker`] runs the [`crate::session::Session`] on its own thread (the same
//! stepper `generate` uses) and sends [`snapshot`]s back; it also keeps the [`history`] of candidates,
//! the [`changes`] made live, and builds the full views' documents ([`inspect`]).

pub(crate) mod changes;
pub(crate) mod history;
pub(crate) mod inspect;
pub(crate) mod keys;
pub mod snapshot;
pub mod state;
pub(crate) mod theme;
pub mod update;
pub mod view;
pub mod worker;

use std::io::{IsTerminal, stdout};
use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::app::Opening;
use crate::app::update::Update;
use crate::error::{Error, Result};
use crate::export::Format;
use state::App;
use theme::Theme;
use worker::{Event, Worker, WorkerOptions};

/// How long the UI waits for input before looking for news from the session: about 30 frames a second.
const FRAME: Duration = Duration::from_millis(33);

/// Everything `explore` needs.
pub struct ExploreOptions {
    /// What to test, with which settings and choices.
    pub opening: Opening,
    /// Where the project file is saved.
    pub project_path: PathBuf,
    /// Theme name or path.
    pub theme: String,
    /// The default export folder.
    pub out_dir: PathBuf,
    /// The default export format.
    pub format: Format,
    /// The command line, for suite headers.
    pub command: String,
    /// Bring the suite in `out_dir` up to date rather than write it anew (`--update`).
    pub update: Option<Update>,
}

/// How the explorer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The person quit.
    Quit,
    /// Ctrl-C: the suite was written, and the program should exit as interrupted (130).
    Interrupted,
}

/// Runs the terminal UI until the person quits. The program is loaded before the terminal is taken
/// over, so loading errors print like those of `generate`; while it loads (top-level code may run for
/// a while), a line on stderr says how long it has taken.
pub fn explore(options: ExploreOptions) -> Result<Ending> {
    let theme = if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        Theme::monochrome()
    } else {
        Theme::load(&options.theme)?
    };
    if !stdout().is_terminal() {
        return Err(Error::Usage("explore needs a terminal; use `flycatcher generate` in scripts and pipes".into()));
    }
    let files: Vec<String> = options.opening.options.files.iter().map(|f| f.display().to_string()).collect();
    let mut shown = false;
    let started = Worker::start_watching(
        WorkerOptions {
            opening: options.opening,
            project_path: options.project_path,
            out_dir: options.out_dir.clone(),
            format: options.format,
            command: options.command,
            update: options.update,
        },
        |elapsed| {
            // Redrawn in place: the terminal is not taken over yet.
            eprint!(
                "\rflycatcher: loading {}… {:.1}s (top-level code still running)",
                files.join(", "),
                elapsed.as_secs_f64()
            );
            shown = true;
        },
    );
    if shown {
        eprintln!();
    }
    let (worker, snapshot) = started?;
    let mut app = App::new(snapshot, options.out_dir, options.format);
    let result = {
        let mut terminal = TerminalGuard::enter()?;
        run(&mut terminal.terminal, &mut app, &worker, &theme)
    };
    drop(worker);
    // Only what quitting did is worth a line once the screen is gone: earlier notes were seen.
    for message in &app.farewell {
        eprintln!("flycatcher: {}", message.text);
    }
    if app.interrupted && !app.snapshot.unsaved.is_empty() {
        // Ctrl-C writes the suite, not the project file: say what it did not keep.
        eprintln!("flycatcher: not saved to the project file: {}", app.snapshot.unsaved.join("; "));
    }
    result.map(|()| if app.interrupted { Ending::Interrupted } else { Ending::Quit })
}

fn run(
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    app: &mut App,
    worker: &Worker,
    theme: &Theme,
) -> Result<()> {
    let io = |e: std::io::Error| Error::Engine(format!("terminal: {e}"));
    loop {
        let mut areas = view::Areas::default();
        terminal
            .draw(|frame| {
                areas = view::layout(frame.area());
                view::draw(frame, app, theme);
            })
            .map_err(io)?;
        if event::poll(FRAME).map_err(io)? {
            let input = event::read().map_err(io)?;
            if !app.quit {
                for command in update::update(app, input, &areas) {
                    worker.send(command);
                }
            }
        } else {
            app.tick();
        }
        loop {
            match worker.events.try_recv() {
                Ok(Event::Snapshot(snapshot)) => app.update_snapshot(*snapshot),
                Ok(Event::Note { text, error }) => app.note(text, error),
                Ok(Event::Document(document)) => app.show(*document),
                Ok(Event::Finished) | Err(std::sync::mpsc::TryRecvError::Disconnected) => return Ok(()),
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
            }
        }
    }
}

/// The terminal in raw mode on the alternate screen with mouse capture, restored when dropped and
/// when the UI thread panics.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<std::io::Stdout>>,
}

impl TerminalGuard {
    fn enter() -> Result<TerminalGuard> {
        let io = |e: std::io::Error| Error::Engine(format!("cannot set up the terminal: {e}"));
        let ui_thread = std::thread::current().id();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Only the UI thread owns the screen: a panic the session thread catches must not tear it down.
            if std::thread::current().id() == ui_thread {
                restore_terminal();
            }
            previous(info);
        }));
        enable_raw_mode().map_err(io)?;
        execute!(stdout(), EnterAlternateScreen, EnableMouseCapture).map_err(io)?;
        let terminal = Terminal::new(CrosstermBackend::new(stdout())).map_err(io)?;
        Ok(TerminalGuard { terminal })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
        let _ = self.terminal.show_cursor();
    }
}

fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen);
}
