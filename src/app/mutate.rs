//! `flycatcher mutate`: the mutation score of a suite, generated first (and written) or read back from
//! its manifests.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::generate::{MUTATION_EXTRA_BUDGETS, Run, Strength};
use super::{Opening, Progress};
use crate::error::{Error, Result};
use crate::export::Format;
use crate::mutate::{self, Analysis, SuiteTest};
use crate::session::Session;
use crate::suite::manifest;

/// Where the suite to mutate comes from.
pub enum SuiteSource<'a> {
    /// A folder written by `generate`, with its `<Class>.flycatcher.json` manifests.
    Folder(&'a Path),
    /// Generated now and written to `out` in `format`; `command` goes in the suites' header.
    Generate {
        /// The format to write.
        format: Format,
        /// Where to write it.
        out: &'a Path,
        /// The command line, for the header.
        command: &'a str,
    },
}

/// The seed `mutate --suite DIR` runs with when none is given: the one the suite was written with (its
/// manifests' header names it). The analysis draws random tests (the equivalence check, the short run
/// that learns parameter types): with a random seed, two scorings of one suite judged survivors
/// otherwise (cart.js: 522, 547 and 622 runs, one more mutant presumed equivalent in one of them). A
/// suite whose manifests name no seed (written before they kept the header) is scored with seed 1.
pub fn suite_seed(dir: &Path) -> u64 {
    crate::suite::header::suite_seed(dir).unwrap_or(1)
}

/// A finished mutation analysis.
pub struct Mutated {
    /// The session the suite ran in.
    pub session: Session,
    /// The analysis.
    pub analysis: Analysis,
    /// The suite's files, when it was generated now.
    pub written: Vec<PathBuf>,
    /// Time spent before the analysis: generating the suite, or reading it and learning types.
    pub preparation: Duration,
}

/// Runs a mutation analysis of the suite `source` names against the code `opening` loads: mutants of
/// the methods under test (and their constructors when `constructors`), `equivalence_tests` random tests
/// for each survivor. `progress` follows generation and the analysis.
pub fn run(
    opening: &Opening,
    source: SuiteSource,
    equivalence_tests: usize,
    constructors: bool,
    interrupted: &Arc<AtomicBool>,
    progress: &mut dyn Progress,
) -> Result<Mutated> {
    let started = Instant::now();
    let (session, tests, written, budget) = match source {
        SuiteSource::Folder(dir) => {
            if !dir.is_dir() {
                return Err(Error::Usage(format!(
                    "--suite {}: no such folder (give the --out folder of `flycatcher generate`)",
                    dir.display()
                )));
            }
            let mut session = opening.open()?;
            let (tests, awaited) = manifest::read_dir(dir, session.subject().program())?;
            let tests = SuiteTest::from_manifest(tests);
            // The equivalence check generates random tests: a short run learns the parameter types, on
            // counted work so that it learns the same ones on any machine.
            let mut settings = session.settings().clone();
            let budget = settings.budget;
            settings.budget = settings.budget.min(crate::model::settings::budget_for(Duration::from_secs(1)));
            session.set_settings(settings);
            session.run_to_end(|_, _| {})?;
            if let Some(awaited) = &awaited.0 {
                session.await_as_written(tests.iter().map(|t| &t.test), awaited);
            }
            (session, tests, Vec::new(), budget)
        }
        SuiteSource::Generate { format, out, command } => {
            let mut run = Run::start(opening, interrupted, progress)?;
            std::mem::replace(&mut run.stepping, Ok(()))?;
            if run.interrupted {
                return Err(Error::Usage("interrupted while generating the suite to mutate".into()));
            }
            // The suite a default `generate` writes.
            run.strengthen(Strength::Default, constructors, progress)?;
            let written = run.session.export(format, out, command)?;
            // Scored as written: what changed between runs is not asserted there.
            let subject = run.session.subject();
            let tests = SuiteTest::written(run.session.suite(), subject.program(), subject.code());
            let budget = run.session.settings().budget;
            (run.session, tests, written, budget)
        }
    };
    let preparation = started.elapsed();
    let limit = Some(session.measurement_limit(budget, 1.0 + MUTATION_EXTRA_BUDGETS, Instant::now()));
    let options = mutate::Options { equivalence_tests, constructors, limit, ..Default::default() };
    let (subject, methods, settings) = (session.subject(), session.methods(), session.settings());
    let analysis =
        mutate::analyse(subject, methods, settings, tests, &options, &mut |done, count| progress.mutant(done, count));
    progress.mutated();
    let analysis = analysis?;
    Ok(Mutated { session, analysis, written, preparation })
}
