//! The commands' flows as the command line runs them: the engine's flows of [`flycatcher::app`] started
//! from parsed arguments, their summaries printed, their reports written.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::{GenerateArgs, MergeArgs, MutateArgs, RecordArgs, VerifyArgs};
use flycatcher::app::cli_progress::Watcher;
use flycatcher::app::generate::{Export, Strength};
use flycatcher::app::jobs::{self, Jobs, Relay};
use flycatcher::app::mutate::SuiteSource;
use flycatcher::app::verify::{self, Verification, VerifyOptions};
use flycatcher::app::{self, report};
use flycatcher::error::Error;
use flycatcher::mutate;

/// How a command that ran to its end went: exit 0, or 1 when the suite it verified failed somewhere.
pub(crate) enum Verdict {
    Done,
    TestsFailed,
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

pub(crate) fn verify_suite(args: &VerifyArgs) -> Result<Verdict, Error> {
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

/// A flag that Ctrl-C sets: the run stops stepping and writes what it has. A second Ctrl-C while
/// writing loses nothing either: the handler only asks the loop to stop.
fn interruption() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    interrupted
}

pub(crate) fn generate(args: &GenerateArgs) -> Result<Verdict, Error> {
    let opening = args.run.opening()?;
    let interrupted = interruption();
    let command = args.run.command_line("generate");
    let jobs = Jobs {
        opening: &opening,
        strength: if args.mutation { Strength::Mutation } else { Strength::Default },
        constructors: args.run.method.is_none(),
        export: Export { format: args.run.format, out: &args.run.out, command: &command, update: args.update.update() },
        workers: args.workers(),
        shard: args.shard,
    };
    let mut watch = Watcher::new(std::io::stderr().is_terminal() && !args.quiet, args.quiet)
        .bounded(jobs.strength, opening.settings.timeout);
    let generated = jobs::generate(&jobs, &interrupted, &mut watch)?;
    watch.end();
    let mut json = generated.report;
    let warnings = json["warnings"].as_array().into_iter().flatten().filter_map(|w| w.as_str());
    for missing in warnings.filter(|w| w.starts_with(flycatcher::session::MISSING_GLOBALS_WARNING)) {
        eprintln!("flycatcher: warning: {missing}");
    }
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
    if json["elected"] == 0 && json["kept"] == 0 && json["changed"].as_array().is_none_or(Vec::is_empty) {
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
pub(crate) fn merge(args: &MergeArgs) -> Result<(), Error> {
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

pub(crate) fn mutate_suite(args: &MutateArgs) -> Result<(), Error> {
    let mut opening = args.run.opening()?;
    if let (Some(dir), None) = (&args.suite, args.run.seed) {
        opening.settings.seed = app::mutate::suite_seed(dir);
    }
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
        let session = &mutated.session;
        print!("{}", mutate::report::summary(&mutated.analysis, session.subject().program(), session.settings().seed));
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
pub(crate) fn record(args: &RecordArgs) -> Result<(), Error> {
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
pub(crate) fn record_overhead(files: &[std::path::PathBuf]) -> Result<String, Error> {
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
