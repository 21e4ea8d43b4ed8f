//! `generate --jobs N`: the run split into units of one class each, worked on by N worker threads, each
//! unit in a session of its own (its own QuickJS runtime: runtimes stay on the thread that made them),
//! from opening to its written suite; the units' reports are then merged in class order.
//!
//! A unit depends only on the seed and its class, never on which worker ran it or what ran before: its
//! session loads the program afresh, learns its types, seeds pool and hazards by itself, and its random
//! choices start from a seed derived from the run's seed and the class's file and name. So the suite
//! and the report (timings apart) are the same whatever N is, and the same as a `--shard` of the run
//! writes. A run whose methods all belong to one class is not split: it runs in the session opened to
//! plan the units, with the run's seed, as before units existed.
//!
//! What is not shared any more between classes: a type learnt while testing one class (a constructor
//! parameter of a class another class's methods need) is learnt again by every unit that needs it, and
//! a method's generation no longer copies states from the elected tests of other classes' methods.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use super::generate::{Export, Finished, Run, Strength};
use super::merge::merge_reports;
use super::shard::Shard;
use super::{ENGINE_THREAD_STACK, Opening, Progress, report, update};
use crate::error::{Error, Result};
use crate::model::program::{ClassId, ProgramInfo};
use crate::mutate::{self, Analysis};
use crate::session::{Pass, Session, StepReport, StopReason};

/// A `generate` run: what to test and how, where to write, how many workers, which share.
pub struct Jobs<'a> {
    /// What to test and the settings.
    pub opening: &'a Opening,
    /// How hard the suite is strengthened.
    pub strength: Strength,
    /// Whether constructors are mutated too.
    pub constructors: bool,
    /// Where the suites go.
    pub export: Export<'a>,
    /// Worker threads at most (at least one runs).
    pub workers: usize,
    /// This machine's share of the classes, if the run is split across machines.
    pub shard: Option<Shard>,
}

/// A method's progress, as the lines people read show it.
#[derive(Debug, Clone)]
pub struct MethodLine {
    /// `Class.method`.
    pub name: String,
    /// Statements covered.
    pub covered: usize,
    /// Statements.
    pub statements: usize,
    /// Tests elected.
    pub elected: usize,
    /// Candidates run.
    pub runs: u64,
    /// Why it stopped, once it has.
    pub stop: Option<StopReason>,
    /// The methods of its unit.
    pub methods: usize,
}

impl MethodLine {
    /// The line of method `index` of `session`.
    pub(crate) fn of(session: &Session, index: usize) -> MethodLine {
        let m = &session.methods()[index];
        MethodLine {
            name: format!("{}.{}", session.subject().program().classes[m.class].name, m.method),
            covered: m.covered_count(),
            statements: m.covered.len(),
            elected: m.elected,
            runs: m.executions,
            stop: match m.status {
                crate::session::Status::Done(reason) => Some(reason),
                _ => None,
            },
            methods: session.methods().len(),
        }
    }
}

/// What the units tell while they run, relayed to the thread that called [`generate`].
#[derive(Debug, Clone)]
pub enum Event {
    /// A method of the unit is being worked on (now and then, not at every step).
    Working {
        /// The unit, in class order.
        unit: usize,
        /// The method.
        line: MethodLine,
    },
    /// A method stopped.
    Stopped {
        /// The unit, in class order.
        unit: usize,
        /// The method's index in its unit.
        method: usize,
        /// The method.
        line: MethodLine,
    },
    /// Mutant `done` (from 0) of `count` of the unit's mutation analysis runs.
    Mutant {
        /// The unit, in class order.
        unit: usize,
        /// Mutants done.
        done: usize,
        /// Mutants in all.
        count: usize,
    },
    /// Step `done` (from 0) of `count` of one of the unit's other passes after generation runs.
    Pass {
        /// The unit, in class order.
        unit: usize,
        /// The pass.
        pass: Pass,
        /// Steps done.
        done: usize,
        /// Steps in all.
        count: usize,
    },
    /// The unit is written.
    Done {
        /// The unit, in class order.
        unit: usize,
    },
}

/// Whoever shows a run's progress.
pub trait Watch {
    /// Before the first step: the methods of each unit, in class order, and the workers that run them.
    fn started(&mut self, methods: &[usize], workers: usize);
    /// As the units go.
    fn event(&mut self, event: Event);
}

/// A run's end.
pub struct Generated {
    /// The merged report (see [`report::json_report`]), with `time.workers`, `time.wall_ms`, `sources`
    /// and `shard`, and `mutation` under [`Strength::Mutation`].
    pub report: Json,
    /// The merged mutation analysis under [`Strength::Mutation`].
    pub analysis: Option<Analysis>,
    /// Every file written.
    pub written: Vec<PathBuf>,
    /// Whether Ctrl-C stopped it.
    pub interrupted: bool,
    /// The first error of a unit, in class order (the suites of the others are written).
    pub outcome: Result<()>,
}

/// What one unit leaves, sent back from its worker.
struct UnitOutcome {
    report: Option<Json>,
    analysis: Option<Analysis>,
    written: Vec<PathBuf>,
    interrupted: bool,
    outcome: Result<()>,
}

/// Runs `jobs`: opens the program to plan the units, runs them, merges what they wrote and reported.
/// Errors are those of opening (the user's); later errors come back in [`Generated::outcome`].
pub fn generate(jobs: &Jobs, interrupted: &Arc<AtomicBool>, watch: &mut dyn Watch) -> Result<Generated> {
    let started = Instant::now();
    let mut plan = jobs.opening.open()?;
    let all = classes_of(&plan);
    let keys: Vec<(String, &str)> = all.iter().map(|&c| class_key(plan.subject().program(), c)).collect();
    let names: Vec<(&str, &str)> = keys.iter().map(|(file, name)| (file.as_str(), *name)).collect();
    let taken = jobs.shard.map_or_else(|| vec![true; all.len()], |shard| shard.takes(&names));
    let units: Vec<ClassId> = all.iter().zip(&taken).filter(|(_, t)| **t).map(|(c, _)| *c).collect();
    let program = plan.subject().program().clone();
    let (outcomes, workers) = if all.len() <= 1 && units.len() == all.len() {
        update::keep_suite(&mut plan, &jobs.export)?;
        watch.started(&[plan.methods().len()], 1);
        let run = Run::steps(plan, interrupted, &mut Relay { unit: 0, sink: &mut |e| watch.event(e) });
        let outcome = conclude(run.finish(
            jobs.strength,
            jobs.constructors,
            &jobs.export,
            &mut Relay { unit: 0, sink: &mut |e| watch.event(e) },
        ));
        watch.event(Event::Done { unit: 0 });
        (vec![outcome], 1)
    } else {
        let methods: Vec<usize> =
            units.iter().map(|&c| plan.methods().iter().filter(|m| m.class == c).count()).collect();
        drop(plan);
        let workers = jobs.workers.clamp(1, units.len().max(1));
        watch.started(&methods, workers);
        (run_units(jobs, &program, &units, workers, interrupted, watch), workers)
    };
    Ok(merge(jobs, &program, outcomes, workers, started.elapsed()))
}

/// The classes with methods under test, in program order.
fn classes_of(session: &Session) -> Vec<ClassId> {
    let mut classes: Vec<ClassId> = session.methods().iter().map(|m| m.class).collect();
    classes.dedup();
    classes
}

/// A class's file and name: what shards sort by and unit seeds derive from.
fn class_key(program: &ProgramInfo, class: ClassId) -> (String, &str) {
    let info = &program.classes[class];
    (portable_path(program, info.file), info.name.as_str())
}

/// The path of file `file` below the folder every file of the program is in, with `/` separators: the
/// same in every checkout, where the path the user gave may be absolute (a seed or a shard drawn from
/// `/home/a/lib/x.js` would change with the checkout, and the suite with it).
fn portable_path(program: &ProgramInfo, file: usize) -> String {
    let mut root = program.files[0].path.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    while !program.files.iter().all(|f| f.path.starts_with(&root)) && root.pop() {}
    let path = &program.files[file].path;
    let relative = path.strip_prefix(&root).unwrap_or(path);
    relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The seed of a unit's random choices: the run's seed and the class's file and name, mixed (FNV-1a),
/// so that it does not depend on which worker runs the unit or on the classes before it.
fn unit_seed(seed: u64, (file, name): (&str, &str)) -> u64 {
    let bytes = seed.to_le_bytes().into_iter().chain(file.bytes()).chain([0]).chain(name.bytes());
    bytes.fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

/// Runs `units` on `workers` threads, relaying their events to `watch`; the outcomes in class order.
fn run_units(
    jobs: &Jobs,
    program: &ProgramInfo,
    units: &[ClassId],
    workers: usize,
    interrupted: &Arc<AtomicBool>,
    watch: &mut dyn Watch,
) -> Vec<UnitOutcome> {
    enum Message {
        Event(Event),
        // Boxed: an outcome (its analysis) is far larger than an event, and events are most messages.
        Finished(usize, Box<UnitOutcome>),
    }
    let next = AtomicUsize::new(0);
    let mut outcomes: Vec<Option<UnitOutcome>> = units.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..workers {
            let sender = sender.clone();
            let next = &next;
            let work = move || {
                loop {
                    let unit = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&class) = units.get(unit) else { break };
                    let (file, name) = class_key(program, class);
                    let seed = unit_seed(jobs.opening.settings.seed, (&file, name));
                    let mut sink = |event| drop(sender.send(Message::Event(event)));
                    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        run_unit(jobs, class, seed, unit, interrupted, &mut sink)
                    }))
                    .unwrap_or_else(|_| {
                        UnitOutcome::nothing(Err(Error::Engine(
                            "internal error in a worker (a bug in flycatcher)".into(),
                        )))
                    });
                    let _ = sender.send(Message::Finished(unit, Box::new(outcome)));
                }
            };
            // A worker that cannot start leaves its share to the others.
            let _ = std::thread::Builder::new().stack_size(ENGINE_THREAD_STACK).spawn_scoped(scope, work);
        }
        drop(sender);
        for message in receiver {
            match message {
                Message::Event(event) => watch.event(event),
                Message::Finished(unit, outcome) => {
                    outcomes[unit] = Some(*outcome);
                    watch.event(Event::Done { unit });
                }
            }
        }
    });
    outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|| UnitOutcome::nothing(Err(Error::Engine("no worker thread could start".into())))))
        .collect()
}

/// One unit from opening to its written suite; nothing when Ctrl-C came before it started.
fn run_unit(
    jobs: &Jobs,
    class: ClassId,
    seed: u64,
    unit: usize,
    interrupted: &Arc<AtomicBool>,
    sink: &mut dyn FnMut(Event),
) -> UnitOutcome {
    if interrupted.load(Ordering::SeqCst) {
        return UnitOutcome { interrupted: true, ..UnitOutcome::nothing(Ok(())) };
    }
    let opened = jobs.opening.open_unit(class, seed);
    let session = match opened.and_then(|mut session| update::keep_suite(&mut session, &jobs.export).map(|()| session))
    {
        Ok(session) => session,
        Err(e) => return UnitOutcome::nothing(Err(e)),
    };
    let run = Run::steps(session, interrupted, &mut Relay { unit, sink: &mut *sink });
    conclude(run.finish(jobs.strength, jobs.constructors, &jobs.export, &mut Relay { unit, sink }))
}

impl UnitOutcome {
    /// A unit that wrote nothing.
    fn nothing(outcome: Result<()>) -> UnitOutcome {
        UnitOutcome { report: None, analysis: None, written: Vec::new(), interrupted: false, outcome }
    }
}

/// What a finished unit leaves: its report, its analysis, its files, and its first error.
fn conclude(finished: Finished) -> UnitOutcome {
    let Finished { run, analysis, strengthening, written } = finished;
    let report = report::json_report(&run.session);
    let (written, writing) = match written {
        Ok(written) => (written, Ok(())),
        Err(e) => (Vec::new(), Err(e)),
    };
    UnitOutcome {
        report: Some(report),
        analysis,
        written,
        interrupted: run.interrupted,
        outcome: writing.and(run.stepping).and(strengthening),
    }
}

/// The units' outcomes as one run's.
fn merge(jobs: &Jobs, program: &ProgramInfo, outcomes: Vec<UnitOutcome>, workers: usize, wall: Duration) -> Generated {
    let reports: Vec<Json> = outcomes.iter().filter_map(|o| o.report.clone()).collect();
    let mut report = if reports.len() == 1 { reports[0].clone() } else { merge_reports(&reports) };
    if report["seed"].is_null() {
        report["seed"] = json!(jobs.opening.settings.seed);
    }
    report["time"]["workers"] = json!(workers);
    report["time"]["wall_ms"] = json!(wall.as_millis() as u64);
    report["sources"] = json!(jobs.opening.options.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>());
    report["shard"] = json!(jobs.shard.map(|s| s.to_string()));
    let mut written: Vec<PathBuf> = Vec::new();
    let mut analyses = Vec::new();
    let mut outcome = Ok(());
    let mut interrupted = false;
    for unit in outcomes {
        // Units under a `"type": "module"` package each write the same `package.json`.
        written.extend(unit.written.into_iter().filter(|p| !written.contains(p)).collect::<Vec<_>>());
        analyses.extend(unit.analysis);
        interrupted |= unit.interrupted;
        if outcome.is_ok() {
            outcome = unit.outcome;
        }
    }
    let analysis = (jobs.strength == Strength::Mutation && !analyses.is_empty()).then(|| merge_analyses(analyses));
    if let Some(analysis) = &analysis {
        report["mutation"] = mutate::report::json_report(analysis, program, jobs.opening.settings.seed);
    }
    Generated { report, analysis, written, interrupted, outcome }
}

/// The units' mutation analyses as one: their tests and mutants one after the other.
fn merge_analyses(analyses: Vec<Analysis>) -> Analysis {
    let mut merged = Analysis {
        tests: Vec::new(),
        mutants: Vec::new(),
        kept: Vec::new(),
        kills: Vec::new(),
        undecided: Vec::new(),
        runs: 0,
        elapsed: Duration::ZERO,
        // Every unit analysed the same program's files.
        languages: analyses.first().map(|a| a.languages.clone()).unwrap_or_default(),
        work: 0,
        capped: false,
        time_capped: 0,
    };
    for analysis in analyses {
        let offset = merged.tests.len();
        merged.mutants.extend(analysis.mutants.into_iter().map(|mut m| {
            if let mutate::Status::Killed { test, .. } = &mut m.status {
                *test += offset;
            }
            m
        }));
        merged.tests.extend(analysis.tests);
        merged.kept.extend(analysis.kept);
        merged.kills.extend(analysis.kills);
        merged.undecided.extend(analysis.undecided);
        merged.runs += analysis.runs;
        merged.elapsed += analysis.elapsed;
        merged.work += analysis.work;
        merged.capped |= analysis.capped;
        merged.time_capped += analysis.time_capped;
    }
    merged
}

/// A unit's progress, as [`Event`]s.
pub struct Relay<'a> {
    unit: usize,
    sink: &'a mut dyn FnMut(Event),
}

impl<'a> Relay<'a> {
    /// Tells `sink` the progress of unit `unit` (0 for a flow of one session).
    pub fn new(unit: usize, sink: &'a mut dyn FnMut(Event)) -> Relay<'a> {
        Relay { unit, sink }
    }
}

impl Progress for Relay<'_> {
    fn step(&mut self, session: &Session, report: &StepReport) {
        let line = MethodLine::of(session, report.method);
        if report.stopped.is_some() {
            (self.sink)(Event::Stopped { unit: self.unit, method: report.method, line });
        } else if session.iteration().is_multiple_of(64) {
            (self.sink)(Event::Working { unit: self.unit, line });
        }
    }

    fn stepped(&mut self, session: &Session) {
        // Methods stopped without a step of theirs (aborted when opened) are told now; telling a method
        // twice is harmless.
        for (method, m) in session.methods().iter().enumerate() {
            if matches!(m.status, crate::session::Status::Done(_)) {
                (self.sink)(Event::Stopped { unit: self.unit, method, line: MethodLine::of(session, method) });
            }
        }
    }

    fn mutant(&mut self, done: usize, count: usize) {
        (self.sink)(Event::Mutant { unit: self.unit, done, count });
    }

    fn pass(&mut self, pass: Pass, done: usize, count: usize) {
        (self.sink)(Event::Pass { unit: self.unit, pass, done, count });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_seeds_depend_on_the_seed_and_the_class_only() {
        let a = unit_seed(1, ("a.js", "A"));
        assert_eq!(a, unit_seed(1, ("a.js", "A")));
        assert_ne!(a, unit_seed(2, ("a.js", "A")));
        assert_ne!(a, unit_seed(1, ("a.js", "B")));
        assert_ne!(unit_seed(1, ("a.jsB", "")), unit_seed(1, ("a.js", "B")), "file and name stay apart");
    }
}
