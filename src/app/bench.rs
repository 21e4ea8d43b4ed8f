//! `flycatcher bench`: candidate tests per second, against a bare QuickJS loop running equivalent code.
//!
//! The engine side steps real sessions on a sample (generation, instrumented execution under limits,
//! recording, inference, election) and counts only the time spent in steps. The bare side evaluates the
//! same candidate bodies, in the same order, in one reused context holding the uninstrumented program,
//! loaded as the sandbox loads it (scripts, CommonJS, ES modules, Node's built-ins; see
//! [`BareProgram`]): what a minimal test runner without any of Flycatcher's machinery would do. A test's
//! recording proxies are, there, the harness's stand-in (`standIn` of `__fc$direct`): a value that
//! answers every use as a recording proxy does without recording it, so the bare test makes the same
//! calls with the same values (given `{}`, it threw at the first use and measured less work than the
//! candidate had done). The report says how many of the bodies threw on each side: when the counts
//! differ, the two sides did not do the same work. Both run in this process
//! in the same run, and both are timed by the CPU time of this thread (see [`cpu_time`]): a machine
//! that runs other work beside the bench gives this one core less often, which the wall clock counts
//! against whichever side ran then, and the ratio would measure the load.

use std::path::PathBuf;
use std::time::Duration;

use crate::discovery::sandbox_expression;
use crate::error::{Error, Result};
use crate::js::{DIRECT, PROXY};
use crate::model::observed::Outcome;
use crate::model::program::{Access, ClassInfo};
use crate::model::settings::Settings;
use crate::sandbox::BareProgram;
use crate::session::{Selection, Session, SessionOptions};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// The sample: a file of any module format, or a package folder.
    pub file: PathBuf,
    /// Seconds per side.
    pub seconds: f64,
    /// Seed of the first session (later sessions use the following seeds).
    pub seed: u64,
    /// Keep the first session: once every method is done, work on them in turn, each reopened with a
    /// fresh budget, instead of starting a session with the next seed. What a long run spends per
    /// candidate, without the elections, contexts and first steps of new sessions, which are about
    /// half of the default measure on a small class covered in milliseconds (`ledger.cjs`).
    pub steady: bool,
}

/// Stands in for recording proxies in the bare loop, so the same test code runs unchanged.
fn bare_harness() -> String {
    format!("function {PROXY}() {{ return {DIRECT}.standIn(); }}")
}

/// Runs the benchmark and returns the printed report.
pub fn run(options: &BenchOptions) -> Result<String> {
    let budget = Duration::from_secs_f64(options.seconds);
    let mut bodies = Vec::new();
    // How many of `bodies` threw under Flycatcher.
    let mut threw_here = 0u64;
    let mut stepping = Duration::ZERO;
    let mut steps = 0u64;
    let mut contexts = 0u64;
    let mut seed = options.seed;
    let mut bare = None;
    while stepping < budget {
        let settings = Settings { seed, ..Settings::default() };
        let mut session =
            Session::new(&SessionOptions { files: vec![options.file.clone()], ..Default::default() }, settings)?;
        if bare.is_none() {
            let program = BareProgram::new(session.subject().code(), &session.settings().limits)?;
            program.eval(&bare_harness())?;
            program.eval(&session.subject().program().classes.iter().map(bare_binding).collect::<String>())?;
            bare = Some(program);
        }
        // Steady: set once every method was done; `turn` is the method to work on next.
        let (mut rotating, mut turn, mut idle) = (false, 0usize, 0usize);
        let before = steps;
        loop {
            let started = cpu_time();
            if rotating && !select_in_turn(&mut session, &mut turn) {
                break;
            }
            let Some(report) = session.step()? else {
                stepping += cpu_time().saturating_sub(started);
                // A method that stops at once gives no step: after every method did so, stop.
                idle += 1;
                if options.steady && idle <= session.methods().len() {
                    rotating = true;
                    continue;
                }
                break;
            };
            idle = 0;
            stepping += cpu_time().saturating_sub(started);
            steps += 1;
            if bodies.len() < 200_000 {
                threw_here += u64::from(matches!(report.outcome, Outcome::Threw { .. }));
                bodies.push(report.test.source(session.subject().program()));
            }
            if stepping >= budget {
                break;
            }
        }
        contexts += session.runner().contexts_built();
        seed += 1;
        if steps == before {
            // Every method stopped before its first candidate (none could be located, say): every
            // later session would do the same, and the loop would never reach the budget.
            break;
        }
    }
    if steps == 0 {
        return Err(Error::Usage(format!(
            "{}: nothing to measure: every method under test stops before its first candidate (`generate` on \
             it says why, method by method)",
            options.file.display()
        )));
    }
    let engine_rate = steps as f64 / stepping.as_secs_f64();
    let bare = bare.expect("a first session was opened");
    let (bare_runs, threw, threw_first, bare_time) = bare_loop(&bare, &bodies, budget);
    let bare_rate = bare_runs as f64 / bare_time.as_secs_f64();
    Ok(format!(
        "sample: {}{}\nflycatcher: {steps} candidates in {:.2} s of CPU = {:.0} candidates/s (one core), {contexts} \
         contexts built\n\
         bare QuickJS loop, same test bodies: {bare_runs} in {:.2} s of CPU = {:.0} tests/s ({threw} threw)\n\
         test bodies that threw: {threw_here} of {} under flycatcher, {threw_first} in the bare loop's first pass\n\
         ratio bare/flycatcher: {:.2}x\n",
        options.file.display(),
        if options.steady { " (steady: one session, its methods reopened in turn once all were done)" } else { "" },
        stepping.as_secs_f64(),
        engine_rate,
        bare_time.as_secs_f64(),
        bare_rate,
        bodies.len(),
        bare_rate / engine_rate
    ))
}

/// Makes the next testable method from `turn` on the one worked on (reopened with a fresh budget when
/// it had stopped); false when no method can be worked on.
fn select_in_turn(session: &mut Session, turn: &mut usize) -> bool {
    let count = session.methods().len();
    for _ in 0..count {
        let index = *turn % count;
        *turn += 1;
        if matches!(session.select(index), Selection::Working | Selection::Reopened(_)) {
            return true;
        }
    }
    false
}

/// Binds the name tests make a class's instances with (its alias, or its factory's) in the bare context,
/// reaching it as the sandbox does; a script's global that already has that name needs nothing.
fn bare_binding(class: &ClassInfo) -> String {
    match &class.access {
        Access::Script { expression } if expression == class.binding() => String::new(),
        access => format!("var {} = {};\n", class.binding(), sandbox_expression(access)),
    }
}

/// Runs `bodies` over and over for `budget`: how many ran, how many of those threw, how many threw in the
/// first pass over `bodies` (all of it, even past the budget), and the time taken.
fn bare_loop(bare: &BareProgram, bodies: &[String], budget: Duration) -> (u64, u64, u64, Duration) {
    let started = cpu_time();
    let (mut runs, mut threw, mut threw_first) = (0u64, 0u64, 0u64);
    let first_pass = bodies.len() as u64;
    'outer: loop {
        for body in bodies {
            // Failures are part of the workload (the engine side runs them too).
            if bare.eval(&format!("(function () {{\n{body}\n}})()")).is_err() {
                threw += 1;
                threw_first += u64::from(runs < first_pass);
            }
            runs += 1;
            if runs >= first_pass && runs.is_multiple_of(64) && cpu_time().saturating_sub(started) >= budget {
                break 'outer;
            }
        }
        if bodies.is_empty() {
            break;
        }
    }
    (runs, threw, threw_first, cpu_time().saturating_sub(started))
}

/// The CPU time this thread has used (user and system), which both sides are timed by.
#[cfg(unix)]
fn cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Where no thread CPU clock is at hand, the wall clock since the first call.
#[cfg(not(unix))]
fn cpu_time() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}
