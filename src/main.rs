//! The `flycatcher` command line.

mod cli;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;

use cli::{Cli, Command, ExploreArgs, GenerateArgs, MutateArgs, RecordArgs, RunArgs};
use flycatcher::error::Error;
use flycatcher::mutate::{self, SuiteTest};
use flycatcher::report;
use flycatcher::session::{Session, Status};
use flycatcher::suite::manifest;

/// QuickJS checks its stack limit against the native stack: run the engine on a thread with room to
/// spare beyond the JavaScript stack limit.
const ENGINE_THREAD_STACK: usize = 64 << 20;

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

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Explore(args) => explore_options(&args).and_then(flycatcher::tui::explore),
        Command::Generate(args) => generate(&args),
        Command::Mutate(args) => mutate_suite(&args),
        Command::Bench(args) if !args.record.is_empty() => record_overhead(&args.record).map(|text| print!("{text}")),
        Command::Bench(args) => flycatcher::bench::run(&args.to_options()).map(|text| {
            print!("{text}");
        }),
        Command::Record(args) => record(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("flycatcher: {e}");
            ExitCode::from(2)
        }
    }
}

/// What `explore` needs to open its session on the worker thread.
fn explore_options(args: &ExploreArgs) -> Result<flycatcher::tui::ExploreOptions, Error> {
    let (options, settings, project) = args.run.session()?;
    Ok(flycatcher::tui::ExploreOptions {
        session: options,
        settings,
        project,
        project_path: args.run.project_path(),
        theme: args.theme.clone(),
        out_dir: args.run.out.clone(),
        format: args.run.format,
        command: args.run.command_line("explore"),
    })
}

/// Runs a session to the end (or to Ctrl-C) with progress on stderr. Returns the session, whether
/// stepping failed, and whether it was interrupted.
fn run_session(run: &RunArgs, quiet: bool) -> Result<(Session, Result<(), Error>, bool), Error> {
    let (options, settings, project) = run.session()?;
    let mut session = Session::new(&options, settings)?;
    let warnings = project.apply_types(&mut session);
    session.warnings.extend(warnings);
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    // A second Ctrl-C while writing would lose nothing either: the handler only asks the loop to stop.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    let mut progress = Progress::new(std::io::stderr().is_terminal() && !quiet, quiet);
    let outcome = (|| {
        while !interrupted.load(Ordering::SeqCst) {
            // A bug must not cost the user the tests elected so far: they are written below.
            let step = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| session.step()))
                .map_err(|_| Error::Engine("internal error while stepping (a bug in flycatcher)".into()))??;
            match step {
                Some(report) => progress.update(&session, report.method, report.stopped.is_some()),
                None => break,
            }
        }
        Ok::<(), Error>(())
    })();
    progress.finish(&session);
    let interrupted = interrupted.load(Ordering::SeqCst);
    Ok((session, outcome, interrupted))
}

fn generate(args: &GenerateArgs) -> Result<(), Error> {
    let (mut session, outcome, interrupted) = run_session(&args.run, args.quiet)?;
    let mut analysis = None;
    if args.mutation && outcome.is_ok() && !interrupted {
        session.minimize()?;
        mutate::add_observers(&mut session)?;
        let options =
            mutate::Options { exhaustive: true, constructors: args.run.method.is_none(), ..Default::default() };
        let mut progress = MutantProgress::new(!args.quiet);
        let done = mutate::analyse(
            &session,
            SuiteTest::elected(&session.suite, &session.program, &session.code),
            &options,
            &mut |i, n| progress.update(i, n),
        );
        progress.finish();
        let done = done?;
        mutate::strengthen(&mut session.suite, &done);
        analysis = Some(done);
    }
    // Whatever happened, the suite elected so far is written.
    let written = session.export(args.run.format, &args.run.out, &args.run.command_line("generate"));
    if interrupted {
        eprintln!("flycatcher: interrupted; writing the {} tests elected so far", session.suite.elected.len());
    }
    if !args.quiet {
        print!("{}", report::summary(&session));
        if let Some(analysis) = &analysis {
            println!("{}", mutate::report::headline(analysis));
        }
    }
    if let Some(path) = &args.report {
        let mut json = report::json_report(&session);
        if let Some(analysis) = &analysis {
            json["mutation"] = mutate::report::json_report(analysis, &session.program, session.settings().seed);
        }
        let text = serde_json::to_string_pretty(&json).expect("JSON values serialise");
        std::fs::write(path, text + "\n").map_err(|source| Error::Write { path: path.clone(), source })?;
    }
    let written = written?;
    if !args.quiet {
        for path in &written {
            println!("wrote {}", path.display());
        }
    }
    outcome
}

fn mutate_suite(args: &MutateArgs) -> Result<(), Error> {
    let started = std::time::Instant::now();
    let (session, tests) = match &args.suite {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Error::Usage(format!(
                    "--suite {}: no such folder (give the --out folder of `flycatcher generate`)",
                    dir.display()
                )));
            }
            let (options, settings, project) = args.run.session()?;
            let mut session = Session::new(&options, settings)?;
            let warnings = project.apply_types(&mut session);
            session.warnings.extend(warnings);
            let tests = SuiteTest::from_manifest(manifest::read_dir(dir, &session.program)?);
            // The equivalence check generates random tests: a short run learns the parameter types.
            let mut settings = session.settings().clone();
            settings.timeout = settings.timeout.min(std::time::Duration::from_secs(1));
            session.set_settings(settings);
            session.run_to_end(|_, _| {})?;
            (session, tests)
        }
        None => {
            let (mut session, outcome, interrupted) = run_session(&args.run, args.quiet)?;
            outcome?;
            if interrupted {
                return Err(Error::Usage("interrupted while generating the suite to mutate".into()));
            }
            let written = session.export(args.run.format, &args.run.out, &args.run.command_line("mutate"))?;
            if !args.quiet {
                for path in written.iter().filter(|p| p.extension().is_some_and(|e| e != "json")) {
                    println!("wrote {}", path.display());
                }
            }
            let tests = SuiteTest::elected(&session.suite, &session.program, &session.code);
            (session, tests)
        }
    };
    let preparation = started.elapsed();
    let options = mutate::Options {
        equivalence_tests: args.equivalence_tests,
        exhaustive: false,
        constructors: args.run.method.is_none(),
    };
    let mut progress = MutantProgress::new(!args.quiet);
    let analysis = mutate::analyse(&session, tests, &options, &mut |i, n| progress.update(i, n));
    progress.finish();
    let analysis = analysis?;
    if !args.quiet {
        print!("{}", mutate::report::summary(&analysis, &session.program));
        let what = if args.suite.is_some() { "reading the suite and learning types" } else { "generating the suite" };
        println!(
            "time: {what} {:.2} s, mutation analysis {:.2} s",
            preparation.as_secs_f64(),
            analysis.elapsed.as_secs_f64()
        );
    }
    if let Some(path) = &args.report {
        let mut json = mutate::report::json_report(&analysis, &session.program, session.settings().seed);
        json["preparation_ms"] = serde_json::json!(preparation.as_millis() as u64);
        let text = serde_json::to_string_pretty(&json).expect("JSON values serialise");
        std::fs::write(path, text + "\n").map_err(|source| Error::Write { path: path.clone(), source })?;
    }
    Ok(())
}

/// Runs the entry script with recording, writes the recording, then the replay tests elected from it.
fn record(args: &RecordArgs) -> Result<(), Error> {
    let recorded = flycatcher::record::record(&args.to_options()?)?;
    std::fs::create_dir_all(&args.out).map_err(|source| Error::Write { path: args.out.clone(), source })?;
    let stem = args.entry.file_stem().map_or("entry".into(), |s| s.to_string_lossy().into_owned());
    let path = args.out.join(format!("{stem}.recording.json"));
    recorded.recording.write(&path)?;
    for warning in &recorded.warnings {
        eprintln!("flycatcher: warning: {warning}");
    }
    if let Some(failure) = recorded.failure {
        let failure = match failure {
            Error::Load { file, message } => format!("{file}: the entry script failed: {message}"),
            other => other.to_string(),
        };
        return Err(Error::Usage(format!(
            "{failure}\n(the recording of what ran before is in {}; fix the entry script and record again)",
            path.display()
        )));
    }
    if !args.quiet {
        println!("recorded {} events in {}", recorded.recording.events.len(), path.display());
    }
    let options = flycatcher::session::SessionOptions {
        files: recorded.files,
        classes: args.classes.clone(),
        seed_from: Some(flycatcher::record::SeedFrom { path: path.clone(), threshold: args.threshold }),
        ..Default::default()
    };
    let settings = flycatcher::session::Settings { seed: 0, ..Default::default() };
    let mut session = Session::new(&options, settings)?;
    let command = format!("flycatcher record {}", std::env::args().skip(2).collect::<Vec<_>>().join(" "));
    let written = session.export(args.format, &args.out, &command)?;
    if !args.quiet {
        for warning in &session.warnings {
            println!("{warning}");
        }
        for path in &written {
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

/// Progress of a mutation analysis on stderr: a line redrawn in place, on a terminal only.
struct MutantProgress {
    terminal: bool,
    drawn: bool,
}

impl MutantProgress {
    fn new(shown: bool) -> MutantProgress {
        MutantProgress { terminal: shown && std::io::stderr().is_terminal(), drawn: false }
    }

    fn update(&mut self, done: usize, count: usize) {
        if self.terminal {
            eprint!("\r\x1b[2Kmutation analysis: mutant {}/{count}", done + 1);
            self.drawn = true;
        }
    }

    fn finish(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
        }
    }
}

/// Progress on stderr: a line redrawn in place on a terminal, one plain line per finished method
/// otherwise. Methods stop in the scheduler's order, so plain lines wait for the methods before them in
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

    fn update(&mut self, session: &Session, method: usize, stopped: bool) {
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

    fn finish(&mut self, session: &Session) {
        if self.drawn {
            eprint!("\r\x1b[2K");
        }
        if !self.terminal && !self.quiet {
            self.write_lines(session, true);
        }
    }
}
