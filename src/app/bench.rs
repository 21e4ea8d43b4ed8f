//! `flycatcher bench`: candidate tests per second, against a bare QuickJS loop running equivalent code.
//!
//! The engine side steps real sessions on a sample (generation, instrumented execution under limits,
//! recording, inference, election) and counts only the time spent in steps. The bare side evaluates the
//! same candidate bodies, in the same order, in one reused context holding the uninstrumented code:
//! what a minimal test runner without any of Flycatcher's machinery would do. Both run in this process
//! in the same run, so the ratio is meaningful on a noisy machine even when the absolute rates are not.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::model::settings::Settings;
use crate::sandbox::with_bare_context;
use crate::session::{Session, SessionOptions};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// The sample file.
    pub file: PathBuf,
    /// Seconds per side.
    pub seconds: f64,
    /// Seed of the first session (later sessions use the following seeds).
    pub seed: u64,
}

/// Stands in for recording proxies in the bare loop, so the same test code runs unchanged.
const BARE_HARNESS: &str = "function __fc$u() { return {}; }";

/// Runs the benchmark and returns the printed report.
pub fn run(options: &BenchOptions) -> Result<String> {
    let budget = Duration::from_secs_f64(options.seconds);
    let mut bodies = Vec::new();
    let mut stepping = Duration::ZERO;
    let mut steps = 0u64;
    let mut seed = options.seed;
    let mut aliases = String::new();
    while stepping < budget {
        let settings = Settings { seed, ..Settings::default() };
        let mut session =
            Session::new(&SessionOptions { files: vec![options.file.clone()], ..Default::default() }, settings)?;
        if aliases.is_empty() {
            aliases = session.program.classes.iter().map(bare_alias).collect();
        }
        loop {
            let started = Instant::now();
            let Some(report) = session.step()? else { break };
            stepping += started.elapsed();
            steps += 1;
            if bodies.len() < 200_000 {
                bodies.push(report.test.source(&session.program));
            }
            if stepping >= budget {
                break;
            }
        }
        seed += 1;
    }
    let engine_rate = steps as f64 / stepping.as_secs_f64();
    let source =
        std::fs::read_to_string(&options.file).map_err(|source| Error::Read { file: options.file.clone(), source })?;
    let (bare_runs, bare_time) = bare_loop(&source, &aliases, &bodies, budget)?;
    let bare_rate = bare_runs as f64 / bare_time.as_secs_f64();
    Ok(format!(
        "sample: {}\nflycatcher: {steps} candidates in {:.2} s = {:.0} candidates/s (one core)\n\
         bare QuickJS loop, same test bodies: {bare_runs} in {:.2} s = {:.0} tests/s\n\
         ratio bare/flycatcher: {:.2}x\n",
        options.file.display(),
        stepping.as_secs_f64(),
        engine_rate,
        bare_time.as_secs_f64(),
        bare_rate,
        bare_rate / engine_rate
    ))
}

/// Declares a class's alias (the name tests use) in the bare context.
fn bare_alias(class: &crate::model::program::ClassInfo) -> String {
    match &class.access {
        crate::model::program::Access::Script { expression } if *expression != class.alias => {
            format!("var {} = {expression};\n", class.alias)
        }
        // The bare loop loads plain scripts only; other formats would need the module machinery that
        // the comparison is meant to leave out.
        _ => String::new(),
    }
}

fn bare_loop(source: &str, aliases: &str, bodies: &[String], budget: Duration) -> Result<(u64, Duration)> {
    with_bare_context(|eval| {
        eval(BARE_HARNESS)?;
        eval(source)?;
        eval(aliases)?;
        let started = Instant::now();
        let mut runs = 0u64;
        'outer: loop {
            for body in bodies {
                // Failures are part of the workload (the engine side runs them too).
                let _ = eval(&format!("(function () {{\n{body}\n}})()"));
                runs += 1;
                if runs.is_multiple_of(64) && started.elapsed() >= budget {
                    break 'outer;
                }
            }
            if bodies.is_empty() {
                break;
            }
        }
        Ok((runs, started.elapsed()))
    })
}
