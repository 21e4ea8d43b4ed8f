//! The `flycatcher` command line: parses arguments, wires them to [`flycatcher::app`], prints.

#![deny(missing_docs)]
#![warn(clippy::too_many_lines)]

mod cli;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;

use cli::{Cli, Command, ExploreArgs, GenerateArgs, MutateArgs, RecordArgs, VerifyArgs};
use flycatcher::app::generate::{Run, Strength};
use flycatcher::app::mutate::SuiteSource;
use flycatcher::app::verify::{self, Verification, VerifyOptions};
use flycatcher::app::{self, ENGINE_THREAD_STACK, report};
use flycatcher::error::Error;
use flycatcher::mutate;
use flycatcher::session::{Session, Status, StepReport};

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
        Command::Bench(args) => done(app::bench::run(&args.to_options()).map(|text| print!("{text}"))),
        Command::Record(args) => done(record(&args)),
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
    let mut progress = Progress::new(std::io::stderr().is_terminal() && !args.quiet, args.quiet);
    let mut run = Run::start(&opening, &interrupted, &mut progress)?;
    let mut analysis = None;
    let mut strengthening = Ok(());
    if run.completed() {
        let strength = if args.mutation { Strength::Mutation } else { Strength::Default };
        match run.strengthen(strength, args.run.method.is_none(), &mut progress) {
            Ok(done) => analysis = args.mutation.then_some(done),
            Err(e) => strengthening = Err(e),
        }
    }
    // Whatever happened, the suite elected so far is written.
    let written = run.session.export(args.run.format, &args.run.out, &args.run.command_line("generate"));
    if run.interrupted {
        eprintln!("flycatcher: interrupted; writing the {} tests elected so far", run.session.suite.elected.len());
    }
    if !args.quiet {
        print!("{}", report::summary(&run.session));
        if let Some(analysis) = &analysis {
            println!("{}", mutate::report::headline(analysis));
        }
    }
    let written = written?;
    if !args.quiet {
        for path in &written {
            println!("wrote {}", path.display());
        }
    }
    if run.session.suite.elected.is_empty() {
        eprintln!(
            "flycatcher: no test was elected; the suites written say why, method by method (and the failing logs \
             hold the tests that failed)"
        );
    }
    let mut json = run.json_report(analysis.as_ref());
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
    run.stepping.and(strengthening).map(|()| verdict)
}

fn mutate_suite(args: &MutateArgs) -> Result<(), Error> {
    let opening = args.run.opening()?;
    let command = args.run.command_line("mutate");
    let source = match &args.suite {
        Some(dir) => SuiteSource::Folder(dir),
        None => SuiteSource::Generate { format: args.run.format, out: &args.run.out, command: &command },
    };
    let interrupted = interruption();
    let mut progress = Progress::new(std::io::stderr().is_terminal() && !args.quiet, args.quiet);
    let constructors = args.run.method.is_none();
    let mutated =
        app::mutate::run(&opening, source, args.equivalence_tests, constructors, &interrupted, &mut progress)?;
    if !args.quiet {
        for path in mutated.written.iter().filter(|p| p.extension().is_some_and(|e| e != "json")) {
            println!("wrote {}", path.display());
        }
        print!("{}", mutate::report::summary(&mutated.analysis, &mutated.session.program));
        let what = if args.suite.is_some() { "reading the suite and learning types" } else { "generating the suite" };
        println!(
            "time: {what} {:.2} s, mutation analysis {:.2} s",
            mutated.preparation.as_secs_f64(),
            mutated.analysis.elapsed.as_secs_f64()
        );
    }
    if let Some(path) = &args.report {
        let session = &mutated.session;
        let mut json = mutate::report::json_report(&mutated.analysis, &session.program, session.settings().seed);
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
        for warning in &recorded.session.warnings {
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

/// Progress on stderr: a line redrawn in place on a terminal (steps, then mutants), one plain line per
/// finished method otherwise. Methods stop in the scheduler's order, so plain lines wait for the methods before them in
/// their class: a log reads in source order, class by class.
struct Progress {
    terminal: bool,
    quiet: bool,
    drawn: bool,
    /// Per method (in the session's order): whether its plain line was written.
    written: Vec<bool>,
}

impl Progress {
    fn new(terminal: bool, quiet: bool) -> Progress {
        Progress { terminal, quiet, drawn: false, written: Vec::new() }
    }

    /// Clears the line redrawn in place, if one was drawn.
    fn clear(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            self.drawn = false;
        }
    }

    /// Writes the plain line of every stopped method whose class has no earlier method still running
    /// (`all`: of every stopped method, when the run ends early).
    fn write_lines(&mut self, session: &Session, all: bool) {
        self.written.resize(session.methods.len(), false);
        let mut waiting = std::collections::BTreeSet::new();
        let mut err = std::io::stderr().lock();
        for (index, m) in session.methods.iter().enumerate() {
            let Status::Done(reason) = m.status else {
                waiting.insert(m.class);
                continue;
            };
            if self.written[index] || (!all && waiting.contains(&m.class)) {
                continue;
            }
            self.written[index] = true;
            let _ = writeln!(
                err,
                "[{}/{}] {}.{}: {}/{} statements, {} elected, stopped: {}",
                self.written.iter().filter(|w| **w).count(),
                session.methods.len(),
                session.program.classes[m.class].name,
                m.method,
                m.covered_count(),
                m.covered.len(),
                m.elected,
                reason.name()
            );
        }
    }
}

impl app::Progress for Progress {
    fn step(&mut self, session: &Session, report: &StepReport) {
        let (method, stopped) = (report.method, report.stopped.is_some());
        if self.quiet {
            return;
        }
        let m = &session.methods[method];
        if self.terminal {
            if session.iteration.is_multiple_of(64) || stopped {
                let done = session.methods.iter().filter(|m| matches!(m.status, Status::Done(_))).count();
                let name = format!("{}.{}", session.program.classes[m.class].name, m.method);
                let mut err = std::io::stderr().lock();
                let _ = write!(
                    err,
                    "\r\x1b[2K[{done}/{}] {name}: {}/{} statements, {} elected, {} runs",
                    session.methods.len(),
                    m.covered_count(),
                    m.covered.len(),
                    m.elected,
                    m.executions
                );
                let _ = err.flush();
                self.drawn = true;
            }
        } else if stopped {
            self.write_lines(session, false);
        }
    }

    fn stepped(&mut self, session: &Session) {
        self.clear();
        if !self.terminal && !self.quiet {
            self.write_lines(session, true);
        }
    }

    fn mutant(&mut self, done: usize, count: usize) {
        if self.terminal {
            eprint!("\r\x1b[2Kmutation analysis: mutant {}/{count}", done + 1);
            self.drawn = true;
        }
    }

    fn mutated(&mut self) {
        self.clear();
    }
}
