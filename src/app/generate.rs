//! `flycatcher generate`: step a session to its end (or to Ctrl-C), optionally strengthen the suite by
//! mutation analysis, and report. Whatever happens while stepping, the tests elected so far are written.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Opening, Progress};
use crate::error::Result;
use crate::export::Format;
use crate::mutate::{self, Analysis, SuiteTest};
use crate::session::Pass;
use crate::session::{PassLimit, Session};

/// How hard [`Run::strengthen`] works on the suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// `generate`'s default: state assertions kept where they kill a mutant, and a few extended tests
    /// per surviving mutant; no equivalence check, so no score.
    Default,
    /// `generate --mutation`: more extended tests per survivor, and survivors checked for equivalence,
    /// so that the score means what `flycatcher mutate` says.
    Mutation,
}

/// Extended tests tried per surviving mutant by default.
const DEFAULT_EXTENSIONS: usize = 6;

/// Covering tests tried per surviving mutant with the values minimisation made simpler put back (see
/// `mutate/restore.rs`), under either strength: each costs two runs, and no test gets longer.
const RESTORATIONS: usize = 6;

/// Extended tests tried per surviving mutant under `--mutation`.
const MUTATION_EXTENSIONS: usize = 40;

/// Generation budgets the analysis of `--mutation` may use beyond the passes' own (see
/// `Session::mutation_limit`): the run then ends within four caps, twice a plain run's bound.
pub(super) const MUTATION_EXTRA_BUDGETS: f64 = 2.0;

impl Strength {
    /// The passes' wall-clock cap, in caps of generation (see `session/budget.rs`): as long as
    /// generation, and under `--mutation` [`MUTATION_EXTRA_BUDGETS`] more.
    pub fn passes_caps(self) -> f64 {
        match self {
            Strength::Default => 1.0,
            Strength::Mutation => 1.0 + MUTATION_EXTRA_BUDGETS,
        }
    }

    /// The most a run may take, besides loading the program and writing the suite: each unit of
    /// `methods` methods (a class under `--jobs`) is capped at `cap` per method for generation and
    /// [`Strength::passes_caps`] as long again for the passes; `workers` take units one after the other,
    /// so no worker waits for another for longer than the largest unit.
    pub fn bound(self, methods: &[usize], workers: usize, cap: Duration) -> Duration {
        let unit = |n: usize| cap.mul_f64(n as f64 * (1.0 + self.passes_caps()));
        let total: Duration = methods.iter().map(|&n| unit(n)).sum();
        let largest = methods.iter().map(|&n| unit(n)).max().unwrap_or_default();
        if workers <= 1 { total } else { (total / workers as u32 + largest).min(total) }
    }

    /// The analysis it runs.
    pub(crate) fn options(self, constructors: bool, limit: PassLimit) -> mutate::Options {
        let (extensions, equivalence_tests) = match self {
            Strength::Default => (DEFAULT_EXTENSIONS, 0),
            Strength::Mutation => (MUTATION_EXTENSIONS, mutate::Options::default().equivalence_tests),
        };
        mutate::Options {
            equivalence_tests,
            choose: true,
            extensions,
            restorations: RESTORATIONS,
            constructors,
            limit: Some(limit),
        }
    }
}

/// Where and how `generate` writes the suite.
#[derive(Debug, Clone, Copy)]
pub struct Export<'a> {
    /// The test format.
    pub format: Format,
    /// The folder written into.
    pub out: &'a Path,
    /// The command named in the suites' headers.
    pub command: &'a str,
    /// Bring the suite already in `out` up to date rather than write it anew (`--update`, see
    /// [`super::update`]).
    pub update: Option<super::update::Update>,
}

/// A run carried through to its written suite (see [`Run::finish`]).
pub(crate) struct Finished {
    /// The run, its session holding the suite as written.
    pub(crate) run: Run,
    /// The mutation analysis, kept under [`Strength::Mutation`] to be reported.
    pub(crate) analysis: Option<Analysis>,
    /// How strengthening went (not tried when the run did not complete).
    pub(crate) strengthening: Result<()>,
    /// The files written, or why writing failed.
    pub(crate) written: Result<Vec<PathBuf>>,
}

/// A session stepped to its end, or stopped early.
pub struct Run {
    /// The session, with every test elected before it stopped.
    pub session: Session,
    /// How stepping ended: an error (a bug, the engine failing) ends it early.
    pub stepping: Result<()>,
    /// Whether Ctrl-C stopped it.
    pub interrupted: bool,
}

impl Run {
    /// Opens the session and steps it until every method has stopped or `interrupted` is set, telling
    /// `progress` after each step and at the end. Errors are those of opening: once the session is open, the run
    /// always comes back with its tests.
    pub(crate) fn start(opening: &Opening, interrupted: &Arc<AtomicBool>, progress: &mut dyn Progress) -> Result<Run> {
        Ok(Run::steps(opening.open()?, interrupted, progress))
    }

    /// Steps an open session as [`Run::start`] does. `interrupted` stops the passes after generation too.
    pub(crate) fn steps(mut session: Session, interrupted: &Arc<AtomicBool>, progress: &mut dyn Progress) -> Run {
        session.interrupt_passes_on(interrupted.clone());
        let stepping = session.run_until(interrupted, |session, report| progress.step(session, report));
        progress.stepped(&session);
        Run { session, stepping, interrupted: interrupted.load(Ordering::SeqCst) }
    }

    /// What `generate` does once stepping ended: strengthens the suite (see [`Run::strengthen`]) when the
    /// run completed, then writes it, whatever happened before.
    pub(crate) fn finish(
        mut self,
        strength: Strength,
        constructors: bool,
        export: &Export,
        progress: &mut dyn Progress,
    ) -> Finished {
        let mut analysis = None;
        let mut strengthening = Ok(());
        if self.completed() {
            match self.strengthen(strength, constructors, progress) {
                Ok(done) => analysis = (strength == Strength::Mutation).then_some(done),
                Err(e) => strengthening = Err(e),
            }
        }
        let written =
            self.session.export_telling(export.format, export.out, export.command, &mut |pass, done, count| {
                progress.pass(pass, done, count)
            });
        // Ctrl-C during the passes: the suite is written as they left it, and the run says so.
        self.interrupted |= self.session.interrupted();
        Finished { run: self, analysis, strengthening, written }
    }

    /// Whether the run ended normally: every method stopped, without an error or an interruption.
    pub(crate) fn completed(&self) -> bool {
        self.stepping.is_ok() && !self.interrupted
    }

    /// Makes the suite catch regressions (see [`Strength`]): minimises it, runs a mutation analysis
    /// (constructors mutated too when `constructors`) that keeps the state assertions that kill a mutant
    /// and extends tests to tell survivors apart, and writes the choice back. The analysis and the
    /// writing back take their share of the passes' budget (`session/budget.rs`), in the time line as
    /// `mutation analysis`. `progress` follows the analysis.
    pub fn strengthen(
        &mut self,
        strength: Strength,
        constructors: bool,
        progress: &mut dyn Progress,
    ) -> Result<Analysis> {
        let session = &mut self.session;
        session.minimize_telling(&mut |done, count| progress.pass(Pass::Minimising, done, count))?;
        let started = Instant::now();
        let extra = if strength == Strength::Mutation { MUTATION_EXTRA_BUDGETS } else { 0.0 };
        let options = strength.options(constructors, session.mutation_limit(started, extra));
        let subject = session.subject();
        let tests = SuiteTest::elected(session.suite(), subject.program(), subject.code());
        let analysis =
            mutate::analyse(subject, session.methods(), session.settings(), tests, &options, &mut |done, count| {
                progress.mutant(done, count)
            });
        progress.mutated();
        let kept = analysis.and_then(|analysis| {
            session
                .rewrite_elected(|subject, settings, methods, elected| {
                    mutate::keep(subject, &settings.limits, methods, elected, &analysis)
                })
                .map(|()| analysis)
        });
        let (work, capped, time_capped) = kept.as_ref().map_or((0, false, 0), |a| (a.work, a.capped, a.time_capped));
        session.add_mutation(started.elapsed(), work, capped, time_capped);
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Silent, project::Project};
    use super::*;
    use crate::model::settings::Settings;
    use crate::session::SessionOptions;

    fn finished(interrupt_after_generation: bool, out: &Path) -> Finished {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/linked-list.js");
        let settings = Settings { seed: 1, budget: 4000, timeout: Duration::from_secs(600), ..Settings::default() };
        let options = SessionOptions { files: vec![file], ..Default::default() };
        let opening = Opening { options, settings, project: Project::default(), seed_from: None };
        let flag = Arc::new(AtomicBool::new(false));
        let run = Run::start(&opening, &flag, &mut Silent).unwrap();
        assert!(run.completed() && !run.session.suite().elected.is_empty());
        flag.store(interrupt_after_generation, Ordering::SeqCst);
        let export = Export { format: Format::NodeTest, out, command: "flycatcher generate", update: None };
        run.finish(Strength::Default, true, &export, &mut Silent)
    }

    /// Ctrl-C after generation stops the passes at their next run (the stability check runs the suite
    /// once, as it always does), writes the suite elected, and the run says it was interrupted.
    #[test]
    fn ctrl_c_during_the_passes_stops_them_and_keeps_the_suite() {
        let (whole, cut) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let whole = finished(false, whole.path());
        let cut = finished(true, cut.path());
        assert!(!whole.run.interrupted && cut.run.interrupted);
        assert!(whole.run.session.warnings().iter().all(|w| !w.contains("interrupted")));
        for pass in ["minimisation", "the mutation analysis", "the stability check"] {
            let warning = format!("{pass} was interrupted (Ctrl-C)");
            assert!(cut.run.session.warnings().iter().any(|w| w.starts_with(&warning)), "{warning}");
        }
        let written = cut.written.as_ref().unwrap();
        assert!(!written.is_empty() && written.iter().all(|p| p.exists()));
        assert!(cut.run.session.passes().work < whole.run.session.passes().work / 2);
        assert!(!cut.run.session.suite().elected.is_empty());
    }
}
