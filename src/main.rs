//! The `flycatcher` command line: parses arguments and wires each command to its flow (`flows.rs`, on top
//! of [`flycatcher::app`]), which prints.

#![deny(missing_docs)]

mod cli;
mod flows;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command, ExploreArgs};
use flows::{Verdict, generate, merge, mutate_suite, record, record_overhead, verify_suite};
use flycatcher::app::{self, ENGINE_THREAD_STACK};
use flycatcher::error::Error;

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

/// What `explore` needs to open its session on the worker thread.
fn explore_options(args: &ExploreArgs) -> Result<flycatcher::tui::ExploreOptions, Error> {
    Ok(flycatcher::tui::ExploreOptions {
        opening: args.run.opening()?,
        project_path: args.run.project_path(),
        theme: args.theme.clone(),
        out_dir: args.run.out.clone(),
        format: args.run.format,
        command: args.run.command_line("explore"),
        update: args.update.update(),
    })
}
