//! `generate`'s and `mutate`'s progress as the command line shows it on stderr: a line redrawn in place on a
//! terminal, plain lines in source order in a log.

use std::io::Write;
use std::time::{Duration, Instant};

use super::generate::Strength;
use super::jobs::{self, Event, MethodLine};

/// The plain line of a stopped method, the `written`-th of `total`.
fn stopped_line(written: usize, total: usize, line: &MethodLine) -> String {
    format!(
        "[{written}/{total}] {}: {}/{} statements, {} elected, stopped: {}",
        line.name,
        line.covered,
        line.statements,
        line.elected,
        line.stop.map_or("running", |r| r.name())
    )
}

/// Redraws the line kept in place on a terminal.
fn redraw(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r\x1b[2K{text}");
    let _ = err.flush();
}

/// The line redrawn while `line`'s method is worked on, `done` of `total` methods having stopped.
fn working_line(done: usize, total: usize, line: &MethodLine) -> String {
    format!(
        "[{done}/{total}] {}: {}/{} statements, {} elected, {} runs",
        line.name, line.covered, line.statements, line.elected, line.runs
    )
}

/// `generate`'s progress on stderr: a line redrawn in place on a terminal (the method a worker last
/// reported, then mutants), one plain line per stopped method otherwise. Methods stop in the
/// scheduler's order and classes in the order workers finish them, so a plain line waits for the
/// methods before it in its class and for the classes before its own: a log reads in source order,
/// class by class, whatever the number of workers.
pub struct Watcher {
    /// The run's strength and its cap per method, to print the bound when the run starts.
    bound: Option<(Strength, Duration)>,
    terminal: bool,
    quiet: bool,
    drawn: bool,
    workers: usize,
    /// Per unit, per method: its line once it stopped, and whether it was written.
    lines: Vec<Vec<(Option<MethodLine>, bool)>>,
    /// The units whose every line was written, from the first.
    flushed: usize,
    written: usize,
    /// In a log, when the last line about a pass after generation was written (see [`Watcher::passing`]).
    passes_line: Instant,
}

/// In a log, the least time between two lines about the passes after generation: a long pass shows it
/// is moving, short ones write nothing.
const PASS_LINES_EVERY: Duration = Duration::from_secs(5);

impl Watcher {
    /// Progress on a terminal (`terminal`: a line redrawn in place) or in a log; nothing if `quiet`.
    pub fn new(terminal: bool, quiet: bool) -> Watcher {
        let lines = Vec::new();
        let passes_line = Instant::now();
        Watcher { bound: None, terminal, quiet, drawn: false, workers: 1, lines, flushed: 0, written: 0, passes_line }
    }

    /// Prints, when the run starts, the most it may take (see [`Strength::bound`]) under `strength`
    /// and `cap` per method.
    pub fn bounded(self, strength: Strength, cap: Duration) -> Watcher {
        Watcher { bound: Some((strength, cap)), ..self }
    }

    fn total(&self) -> usize {
        self.lines.iter().map(Vec::len).sum()
    }

    fn stopped(&self) -> usize {
        self.lines.iter().flatten().filter(|(line, _)| line.is_some()).count()
    }

    /// Writes the plain lines that no earlier method waits for (`all`: every stopped method's).
    fn write_lines(&mut self, all: bool) {
        let total = self.total();
        let mut err = std::io::stderr().lock();
        for unit in self.flushed..self.lines.len() {
            let mut waiting = false;
            for (line, written) in &mut self.lines[unit] {
                match line {
                    Some(line) if !*written && (all || !waiting) => {
                        self.written += 1;
                        *written = true;
                        let _ = writeln!(err, "{}", stopped_line(self.written, total, line));
                    }
                    None => waiting = true,
                    _ => {}
                }
            }
            if waiting && !all {
                return;
            }
            self.flushed = unit + 1;
        }
    }

    /// Ends the progress: clears the line kept in place, or writes the lines left.
    pub fn end(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            self.drawn = false;
        } else if !self.terminal && !self.quiet {
            self.write_lines(true);
        }
    }

    /// Step `done` (from 0) of `count` of a pass after generation of unit `unit`: drawn in place on a
    /// terminal; in a log, a line now and then (see [`PASS_LINES_EVERY`]).
    fn passing(&mut self, unit: usize, pass: &str, step: &str, done: usize, count: usize) {
        if done >= count {
            return;
        }
        if self.terminal {
            let named = self.lines.get(unit).into_iter().flatten().find_map(|(l, _)| l.as_ref());
            let class = named.and_then(|l| l.name.rsplit_once('.')).map(|(class, _)| format!(" of {class}"));
            self.draw(&format!("{pass}{}: {step} {}/{count}", class.unwrap_or_default(), done + 1));
        } else if self.passes_line.elapsed() >= PASS_LINES_EVERY {
            self.passes_line = Instant::now();
            eprintln!("{pass} of unit {}: {step} {}/{count}", unit + 1, done + 1);
        }
    }

    fn draw(&mut self, text: &str) {
        let workers = if self.workers > 1 { format!("{} workers · ", self.workers) } else { String::new() };
        redraw(&format!("{workers}{text}"));
        self.drawn = true;
    }
}

impl jobs::Watch for Watcher {
    fn started(&mut self, methods: &[usize], workers: usize) {
        self.workers = workers;
        if let Some((strength, cap)) = self.bound
            && !self.quiet
        {
            let count: usize = methods.iter().sum();
            eprintln!(
                "bound: at most {:.0} s besides loading and writing ({count} methods × {} s cap, the passes {}× as \
                 long, {workers} workers)",
                strength.bound(methods, workers, cap).as_secs_f64().ceil(),
                cap.as_secs_f64(),
                strength.passes_caps()
            );
        }
        self.lines = methods.iter().map(|&n| vec![(None, false); n]).collect();
    }

    fn event(&mut self, event: Event) {
        if self.quiet {
            return;
        }
        match event {
            Event::Working { line, .. } if self.terminal => {
                let text = working_line(self.stopped(), self.total(), &line);
                self.draw(&text);
            }
            Event::Stopped { unit, method, line } => {
                if self.lines.len() <= unit {
                    // `mutate` tells no start: its one session's methods are known from its lines.
                    self.lines.resize(unit + 1, Vec::new());
                    self.lines[unit].resize(line.methods, (None, false));
                }
                let slot = &mut self.lines[unit][method].0;
                if slot.is_none() {
                    *slot = Some(line.clone());
                    if self.terminal {
                        let text = working_line(self.stopped(), self.total(), &line);
                        self.draw(&text);
                    } else {
                        self.write_lines(false);
                    }
                }
            }
            Event::Mutant { unit, done, count } => self.passing(unit, "mutation analysis", "mutant", done, count),
            Event::Pass { unit, pass, done, count } => self.passing(unit, pass.name(), pass.step(), done, count),
            _ => {}
        }
    }
}
