//! The `flycatcher` command line: parses arguments, wires them to [`flycatcher::app`], prints.

#![deny(missing_docs)]
#![warn(clippy::too_many_lines)]

mod cli;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;

use cli::{Cli, Command, ExploreArgs, GenerateArgs, MergeArgs, MutateArgs, RecordArgs, VerifyArgs};
use flycatcher::app::generate::{Export, Strength};
use flycatcher::app::jobs::{self, Event, Jobs, MethodLine, Relay};
use flycatcher::app::mutate::SuiteSource;
use flycatcher::app::verify::{self, Verification, VerifyOptions};
use flycatcher::app::{self, ENGINE_THREAD_STACK, report};
use flycatcher::error::Error;
use flycatcher::mutate;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let worker = std::thread::Builder::new().stack_size(ENGINE_THREAD_STACK).spawn(move || run(cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => {
            eprintln!("flycatcher: internal error (a bug); the elected suite was written if it could be");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("flycatcher: cannot start: {e}");
            ExitCode::from(1)
        }
    }
}

/// How a command that ran to its end went: exit 0, or 1 when the suite it verified failed somewhere.
enum Verdict {
    Done,
    TestsFailed,
}

fn run(cli: Cli) -> ExitCode {
    let done = |result: Result<(), Error>| result.map(|()| Verdict::Done);
    let result = match cli.command {
        Command::Explore(args) => match explore_options(&args).and_then(flycatcher::tui::explore) {
            // Ctrl-C wrote the suite; the shell still learns that the program was interrupted.
            Ok(flycatcher::tui::Ending::Interrupted) => return ExitCode::from(130),
            other => done(other.map(|_| ())),
        },
        Command::Generate(args) => generate(&args),
        Command::Mutate(args) => done(mutate_suite(&args)),
        Command::Verify(args) => verify_suite(&args),
        Command::Bench(args) if !args.record.is_empty() => {
            done(record_overhead(&args.record).map(|text| print!("{text}")))
        }
        Command::Bench(args) => done(app::bench::run(&args.to_options()).and_then(|text| {
            print!("{text}");
            let Some(file) = &args.jobs_on else { return Ok(()) };
            app::speedup::run(file, args.seconds.clamp(0.1, 3600.0), args.seed).map(|text| print!("{text}"))
        })),
        Command::Record(args) => done(record(&args)),
        Command::Merge(args) => done(merge(&args)),
    };
    match result {
        Ok(Verdict::Done) => ExitCode::SUCCESS,
        Ok(Verdict::TestsFailed) => ExitCode::from(1),
        Err(e) => {
            eprintln!("flycatcher: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs `verify` on `options`, progress on stderr unless `quiet`; prints the summary unless `quiet`.
fn verification(options: &VerifyOptions, quiet: bool) -> Result<Verification, Error> {
    let verified = verify::verify(options, &mut |line| {
        if !quiet {
            eprintln!("{line}");
        }
    })?;
    if !quiet {
        print!("{}", verified.summary());
    }
    Ok(verified)
}

fn verify_suite(args: &VerifyArgs) -> Result<Verdict, Error> {
    let options = VerifyOptions {
        dir: args.dir.clone(),
        node_modules: args.node_modules.clone(),
        runs: args.runs as usize,
        lcov: args.lcov.clone(),
    };
    let verified = verification(&options, args.quiet)?;
    if let Some(path) = &args.report {
        write_json(path, &verified.json())?;
    }
    Ok(if verified.passed() { Verdict::Done } else { Verdict::TestsFailed })
}

/// What `explore` needs to open its session on the worker thread.
fn explore_options(args: &ExploreArgs) -> Result<flycatcher::tui::ExploreOptions, Error> {
    Ok(flycatcher::tui::ExploreOptions {
        opening: args.run.opening()?,
        project_path: args.run.project_path(),
        theme: args.theme.clone(),
        out_dir: args.run.out.clone(),
        format: args.run.format,
        command: args.run.command_line("explore"),
    })
}

/// A flag that Ctrl-C sets: the run stops stepping and writes what it has. A second Ctrl-C while
/// writing loses nothing either: the handler only asks the loop to stop.
fn interruption() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    interrupted
}

fn generate(args: &GenerateArgs) -> Result<Verdict, Error> {
    let opening = args.run.opening()?;
    let interrupted = interruption();
    let command = args.run.command_line("generate");
    let jobs = Jobs {
        opening: &opening,
        strength: if args.mutation { Strength::Mutation } else { Strength::Default },
        constructors: args.run.method.is_none(),
        export: Export { format: args.run.format, out: &args.run.out, command: &command },
        workers: args.workers(),
        shard: args.shard,
    };
    let mut watch = Watcher::new(std::io::stderr().is_terminal() && !args.quiet, args.quiet);
    let generated = jobs::generate(&jobs, &interrupted, &mut watch)?;
    watch.end();
    let mut json = generated.report;
    if generated.interrupted {
        eprintln!("flycatcher: interrupted; writing the {} tests elected so far", json["elected"]);
    }
    if !args.quiet {
        print!("{}", report::text(&json));
        if let Some(analysis) = &generated.analysis {
            println!("{}", mutate::report::headline(analysis));
        }
        for path in &generated.written {
            println!("wrote {}", path.display());
        }
    }
    if json["elected"] == 0 {
        eprintln!(
            "flycatcher: no test was elected; the suites written say why, method by method (and the failing logs \
             hold the tests that failed)"
        );
    }
    let mut verdict = Verdict::Done;
    if args.verify {
        let options =
            VerifyOptions { dir: args.run.out.clone(), node_modules: args.node_modules.clone(), runs: 3, lcov: None };
        let verified = verification(&options, args.quiet)?;
        json["verify"] = verified.json();
        if !verified.passed() {
            verdict = Verdict::TestsFailed;
        }
    }
    if let Some(path) = &args.report {
        write_json(path, &json)?;
    }
    generated.outcome.map(|()| verdict)
}

/// `flycatcher merge`: the shards' reports as one, written and summarised.
fn merge(args: &MergeArgs) -> Result<(), Error> {
    let paths: Vec<&std::path::Path> = args.reports.iter().map(|p| p.as_path()).collect();
    let json = flycatcher::app::shard::merge_files(&paths)?;
    std::fs::create_dir_all(&args.out).map_err(|source| Error::Write { path: args.out.clone(), source })?;
    let path = args.out.join("report.json");
    write_json(&path, &json)?;
    if !args.quiet {
        print!("{}", report::text(&json));
        println!("merged {} shards; wrote {}", json["shards"].as_str().unwrap_or_default(), path.display());
    }
    Ok(())
}

fn mutate_suite(args: &MutateArgs) -> Result<(), Error> {
    let opening = args.run.opening()?;
    let command = args.run.command_line("mutate");
    let source = match &args.suite {
        Some(dir) => SuiteSource::Folder(dir),
        None => SuiteSource::Generate { format: args.run.format, out: &args.run.out, command: &command },
    };
    let interrupted = interruption();
    let mut watcher = Watcher::new(std::io::stderr().is_terminal() && !args.quiet, args.quiet);
    let constructors = args.run.method.is_none();
    let mut sink = |event| jobs::Watch::event(&mut watcher, event);
    let mut progress = Relay::new(0, &mut sink);
    let mutated = app::mutate::run(&opening, source, args.equivalence_tests, constructors, &interrupted, &mut progress);
    watcher.end();
    let mutated = mutated?;
    if !args.quiet {
        for path in mutated.written.iter().filter(|p| p.extension().is_some_and(|e| e != "json")) {
            println!("wrote {}", path.display());
        }
        print!("{}", mutate::report::summary(&mutated.analysis, mutated.session.subject().program()));
        let what = if args.suite.is_some() { "reading the suite and learning types" } else { "generating the suite" };
        println!(
            "time: {what} {:.2} s, mutation analysis {:.2} s",
            mutated.preparation.as_secs_f64(),
            mutated.analysis.elapsed.as_secs_f64()
        );
    }
    if let Some(path) = &args.report {
        let session = &mutated.session;
        let mut json =
            mutate::report::json_report(&mutated.analysis, session.subject().program(), session.settings().seed);
        json["preparation_ms"] = serde_json::json!(mutated.preparation.as_millis() as u64);
        write_json(path, &json)?;
    }
    Ok(())
}

/// Writes a JSON report, pretty-printed.
fn write_json(path: &std::path::Path, json: &serde_json::Value) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(json).expect("JSON values serialise");
    std::fs::write(path, text + "\n").map_err(|source| Error::Write { path: path.to_path_buf(), source })
}

/// Runs the entry script with recording, writes the recording, then the replay tests elected from it.
fn record(args: &RecordArgs) -> Result<(), Error> {
    let command = format!("flycatcher record {}", std::env::args().skip(2).collect::<Vec<_>>().join(" "));
    let recorded = app::record::run(
        &args.to_options()?,
        &args.classes,
        args.threshold,
        &args.out,
        args.format,
        &command,
        &mut |warning| eprintln!("flycatcher: warning: {warning}"),
    )?;
    if !args.quiet {
        println!("recorded {} events in {}", recorded.events, recorded.recording.display());
        for warning in recorded.session.warnings() {
            println!("{warning}");
        }
        for path in &recorded.written {
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}

/// `bench --record ENTRY [SCRIPT]...`: what recording costs against a plain run.
fn record_overhead(files: &[std::path::PathBuf]) -> Result<String, Error> {
    let (entry, scripts) = files.split_first().expect("clap requires one file at least");
    let options = flycatcher::record::RecordOptions {
        entry: entry.clone(),
        scripts: scripts.to_vec(),
        max_calls_per_method: 100,
        timeout: std::time::Duration::from_secs(10),
        echo: false,
    };
    flycatcher::record::overhead(&options, 21)
}

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
struct Watcher {
    terminal: bool,
    quiet: bool,
    drawn: bool,
    workers: usize,
    /// Per unit, per method: its line once it stopped, and whether it was written.
    lines: Vec<Vec<(Option<MethodLine>, bool)>>,
    /// The units whose every line was written, from the first.
    flushed: usize,
    written: usize,
}

impl Watcher {
    fn new(terminal: bool, quiet: bool) -> Watcher {
        Watcher { terminal, quiet, drawn: false, workers: 1, lines: Vec::new(), flushed: 0, written: 0 }
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
    fn end(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            self.drawn = false;
        } else if !self.terminal && !self.quiet {
            self.write_lines(true);
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
            Event::Mutant { unit, done, count } if self.terminal => {
                let named = self.lines.get(unit).into_iter().flatten().find_map(|(l, _)| l.as_ref());
                let class = named.and_then(|l| l.name.rsplit_once('.')).map(|(class, _)| format!(" of {class}"));
                self.draw(&format!("mutation analysis{}: mutant {}/{count}", class.unwrap_or_default(), done + 1));
            }
            _ => {}
        }
    }
}
