//! Mutation analysis: how strong a suite is, measured by the small faults it catches.
//!
//! Mutants are copies of the code under test with one small edit each ([`operators`]), made only inside
//! the methods and constructors under test. The suite's tests run against every mutant in the sandbox, one
//! fresh context per test as the exported suite runs them, with the usual per-test limits: a mutant that
//! loops or recurses is ended by the limit, and that counts as killed. A test kills a mutant when the
//! thrown/not-thrown outcome, the error, or any value the exported test asserts differs from the
//! original's.
//!
//! Tests run only against mutants in statements they cover (measured on the original with the coverage
//! probes); mutants in statements no test covers are reported as uncovered. Survivors get a short
//! differential generation, random tests run on the original and the mutant and compared: those never told
//! apart are reported as presumed equivalent, and the headline score leaves them out.
//!
//! Mutants run in one program of mutant schemata, loaded once, where each mutated spot reads which mutant
//! is on (`schema.rs`); a mutant it cannot carry (one whose code runs while the program loads) runs in a
//! program of its own, as before.
//!
//! Files: [`operators`] (the edits), `mutants.rs` (mutants and their sandboxes), `schema.rs` (the program
//! that switches them), `originals.rs` (what each test does on the original code), `verdict.rs` (does a
//! run on a mutant fail a test), `equivalence.rs` (the check of survivors), `keep.rs` (the state
//! assertions that kill), `extend.rs` (tests made longer to tell survivors apart), [`report`]. Runs on
//! mutants are limited by work rather than time (see [`Runner::limit_work`]): which mutants a test kills
//! decides what the suite asserts, so it must not depend on how loaded the machine is.
//!
//! The analysis borrows from the session the [`Subject`] (the program, its code and what is known of
//! its types), the methods under test and the settings; it runs tests on [`Runner`]s of its own.

mod equivalence;
mod extend;
mod keep;
mod mutants;
pub(crate) mod operators;
mod originals;
pub mod report;
mod restore;
mod schema;
mod shares;
mod verdict;

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::error::{Error, Result};
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::settings::{Limits, Settings};
use crate::model::test::TestCase;
use crate::sandbox::{CodeBase, Test, Watch};
use crate::session::{BYTES_PER_UNIT, CONTEXT_COST, Ending, MethodState, PassLimit, Runner, Subject};
use crate::suite::checks::run_json;
use crate::suite::stability::Instability;
use crate::suite::title::titles;
use crate::suite::{ElectedTest, Simplified, StateChecks, Suite, manifest};
use equivalence::distinguish;
pub(crate) use keep::keep;
use mutants::{Built, create_mutants, mutant_runner};
use operators::Edit;
use originals::{Baseline, Originals, SLOWDOWN, load_work_limit};
use schema::Schemata;
use shares::Shares;
pub(crate) use verdict::Check;
use verdict::{assert_only, verdict};

/// A test of the suite, as mutation analysis runs it.
#[derive(Debug, Clone)]
pub(crate) struct SuiteTest {
    /// Its title in the exported suite.
    pub(crate) title: String,
    /// The test.
    pub(crate) test: TestCase,
    /// The seed it runs with.
    pub(crate) seed: u32,
    /// Whether it asserts the message of the error it expects.
    pub(crate) own_message: bool,
    /// The assertions its exported form makes, when read from a manifest: checked against the original
    /// code before any mutant runs.
    pub(crate) asserts: Option<Vec<String>>,
    /// Its state assertions (see [`crate::suite::checks`]).
    pub(crate) checks: Option<StateChecks>,
    /// Calls added to it to tell mutants apart (see [`extend`]).
    pub(crate) extended: usize,
    /// What changed between runs in its results, as its exported form asserts them (none for a test
    /// not checked for stability yet).
    pub(crate) instability: Instability,
    /// The values minimisation made simpler in it (none for a test read from a manifest): the
    /// analysis may put them back (see [`restore`]).
    pub(crate) simplified: Option<Simplified>,
}

impl SuiteTest {
    /// The tests of a session's suite as written: with the assertions the exported tests make, which
    /// leave out what changed between runs.
    pub(crate) fn written(suite: &Suite, program: &ProgramInfo, code: &CodeBase) -> Vec<SuiteTest> {
        let mut tests = SuiteTest::elected(suite, program, code);
        for (test, elected) in tests.iter_mut().zip(&suite.elected) {
            test.asserts = Some(manifest::assertions(program, elected));
        }
        tests
    }

    /// The tests of a session's elected suite, in election order, asserting what they observed.
    pub(crate) fn elected(suite: &Suite, program: &ProgramInfo, code: &CodeBase) -> Vec<SuiteTest> {
        let elected: Vec<&ElectedTest> = suite.elected.iter().collect();
        elected
            .iter()
            .zip(titles(program, code, &elected))
            .map(|(e, title)| SuiteTest {
                title,
                test: e.test.clone(),
                seed: e.seed,
                own_message: e.own_message,
                asserts: None,
                checks: e.checks.clone(),
                extended: 0,
                instability: Instability::of(&e.results),
                simplified: e.simplified.clone(),
            })
            .collect()
    }

    /// The tests of a manifest.
    pub(crate) fn from_manifest(tests: Vec<manifest::ManifestTest>) -> Vec<SuiteTest> {
        tests
            .into_iter()
            .map(|t| SuiteTest {
                title: t.title,
                test: t.test,
                seed: t.seed,
                own_message: t.own_message,
                asserts: Some(t.asserts),
                checks: t.checks,
                extended: 0,
                instability: t.instability,
                simplified: None,
            })
            .collect()
    }

    /// The test as the sandbox runs it, inspection included.
    pub(crate) fn json(&self, program: &ProgramInfo) -> String {
        run_json(&self.test, self.checks.as_ref().map_or(&[], |c| &c.inspect), program)
    }
}

/// What became of a mutant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// A test told it from the original.
    Killed {
        /// Index of the first test that killed it.
        test: usize,
        /// How: a failed assertion, another outcome, a limit.
        reason: String,
    },
    /// Every covering test passed on it, and random tests told it from the original (or were not run).
    Survived,
    /// Every covering test passed on it, and no random test told it from the original either.
    Equivalent,
    /// No test runs the statement it is in.
    Uncovered,
    /// The edit does not give valid JavaScript (e.g. `??` mixed with `||`): not counted.
    Invalid,
    /// The analysis reached its limit ([`Options::limit`]) before judging it: not counted.
    Unjudged,
}

/// One mutant and its fate.
#[derive(Debug, Clone)]
pub struct Mutant {
    /// The class whose method or constructor it changes.
    pub(crate) class: ClassId,
    /// The method (`constructor` for a constructor).
    pub(crate) method: String,
    /// The file, as an index of the program's files.
    pub(crate) file: usize,
    /// The edit.
    pub(crate) edit: Edit,
    /// 1-based line of the edit.
    pub(crate) line: usize,
    /// 1-based column of the edit.
    pub(crate) column: usize,
    /// The enclosing construct before the edit.
    pub(crate) original: String,
    /// The enclosing construct after the edit.
    pub(crate) mutated: String,
    /// The global id of the innermost probed statement containing the edit.
    pub(crate) statement: Option<u32>,
    /// What became of it.
    pub status: Status,
}

/// How thorough the analysis is.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// Random tests per surviving mutant in the equivalence check (0: survivors stay survivors).
    pub(crate) equivalence_tests: usize,
    /// Choose the state assertions of the suite's passing tests: every field and inspector is a
    /// candidate, and for every mutant that only state assertions kill, one of them is kept (see
    /// [`keep()`]). Covering tests then run on a mutant until one kills it by an assertion the test makes
    /// anyway.
    pub(crate) choose: bool,
    /// Extended tests tried per surviving mutant whose statement a test covers, to tell it apart (see
    /// [`extend`]; 0: none).
    pub(crate) extensions: usize,
    /// Covering tests with their original values back tried per surviving mutant (see [`restore`]; 0:
    /// none). Like an extension, one that kills replaces its test, so only an analysis whose choice is
    /// written back tries them.
    pub(crate) restorations: usize,
    /// Mutate the constructors of the classes under test too (off when one method is chosen).
    pub(crate) constructors: bool,
    /// When to stop judging mutants (`generate`'s share of the passes' work and cap; for
    /// `flycatcher mutate`, which measures, three generations' worth of its own): the mutants left are
    /// [`Status::Unjudged`], and the analysis ends early enough for [`keep()`] to run every test once
    /// more within it.
    pub(crate) limit: Option<PassLimit>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            equivalence_tests: 200,
            choose: false,
            extensions: 0,
            restorations: 0,
            constructors: true,
            limit: None,
        }
    }
}

/// The result of a mutation analysis.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The tests run (extended ones as extended).
    pub(crate) tests: Vec<SuiteTest>,
    /// The mutants, in file and source order.
    pub mutants: Vec<Mutant>,
    /// Per test, the state assertions kept because they kill a mutant that nothing else kept kills
    /// ([`Options::choose`]).
    pub(crate) kept: Vec<Vec<Check>>,
    /// Per test, the mutants it killed first.
    pub(crate) kills: Vec<usize>,
    /// Per test, whether it covers a mutant the limit left unjudged: nothing decided which state it
    /// should assert, so [`keep()`] asserts the public inspector that tells the most (see
    /// [`keep::telling_inspector`]).
    pub(crate) undecided: Vec<bool>,
    /// Test runs against mutants (equivalence checks and extensions included).
    pub(crate) runs: u64,
    /// Time the analysis took.
    pub elapsed: Duration,
    /// The language each file of the program is written in ("JavaScript", "TypeScript"), by the files'
    /// indices: a mutant that does not parse is not valid in its file's language.
    pub(crate) languages: Vec<&'static str>,
    /// Work units its runs and builds used (see `session/budget.rs`).
    pub(crate) work: u64,
    /// Whether the wall-clock cap of [`Options::limit`], rather than its work, ended it: what it judged
    /// then depends on the machine.
    pub(crate) capped: bool,
    /// Runs the time cap of a test ended before its work limit (see `Runner::time_capped`).
    pub(crate) time_capped: u64,
}

/// Mutant counts of a group of mutants (a method, a class, everything).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Score {
    /// Killed by a test.
    pub(crate) killed: usize,
    /// Not killed, and told from the original by random tests.
    pub(crate) survived: usize,
    /// Not killed, and never told from the original.
    pub(crate) equivalent: usize,
    /// In statements no test covers.
    pub(crate) uncovered: usize,
}

impl Score {
    /// Counts the valid mutants among `mutants`.
    pub(crate) fn of<'a>(mutants: impl IntoIterator<Item = &'a Mutant>) -> Score {
        let mut score = Score::default();
        for m in mutants {
            match m.status {
                Status::Killed { .. } => score.killed += 1,
                Status::Survived => score.survived += 1,
                Status::Equivalent => score.equivalent += 1,
                Status::Uncovered => score.uncovered += 1,
                Status::Invalid | Status::Unjudged => {}
            }
        }
        score
    }

    /// Valid mutants.
    pub(crate) fn total(&self) -> usize {
        self.killed + self.survived + self.equivalent + self.uncovered
    }

    /// Killed mutants in percent of the non-equivalent ones (uncovered ones count as not killed); `None`
    /// without any.
    pub(crate) fn percent(&self) -> Option<f64> {
        let counted = self.killed + self.survived + self.uncovered;
        (counted > 0).then(|| 100.0 * self.killed as f64 / counted as f64)
    }
}

impl Analysis {
    /// The score of every valid mutant.
    pub(crate) fn score(&self) -> Score {
        Score::of(&self.mutants)
    }
}

/// Runs `test` on a mutant within the work limit its baseline sets; with its inspection (the
/// inspectors called after its last call) when `inspect`.
pub(super) fn run_on_mutant(
    program: &ProgramInfo,
    runner: &mut Runner,
    test: &SuiteTest,
    baseline: &Baseline,
    inspect: bool,
) -> Result<crate::sandbox::Execution> {
    runner.limit_work(Some(baseline.work_limit));
    let json = inspect.then(|| test.json(program));
    let run = json.as_deref().map_or(Test::Case(&test.test, program), Test::Json);
    runner.run_isolated(run, test.seed, &Watch::default(), true)
}

/// Creates the mutants of `methods` (the methods under test of `subject`, and, unless one method was
/// chosen, their classes' constructors), runs `tests` against them under `settings`, and (as `options` say) chooses state assertions,
/// extends tests to tell survivors apart and checks survivors for equivalence.
///
/// `tests` with recorded assertions (from a manifest) must pass on the original code first: an error says
/// which does not. `progress` is told (mutants done, mutants in all) after each mutant.
///
/// From the limit on nothing more is done: the tests not read on the original yet are left out
/// (they stay as elected), the mutants left are unjudged, a survivor is neither checked for equivalence
/// nor told apart. Mutants are judged in source order, each to the end: judging the cheap part of all
/// first (or those covered by the fewest tests first) judged more of them in the time, but kept
/// inspectors before extensions were tried, and a test whose inspector is kept is never made longer
/// (linked-list's suite lost 3 kills). A method's mutants wait, once they used the method's share of
/// the limit, until every method had its share (see [`shares`]).
pub(crate) fn analyse(
    subject: &Subject,
    methods: &[MethodState],
    settings: &Settings,
    mut tests: Vec<SuiteTest>,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis> {
    let started = Instant::now();
    let mut originals = Originals::new(subject, &settings.limits)?;
    let mut baselines: Vec<Baseline> = Vec::new();
    // What `keep` will spend running again the tests read so far: the analysis ends early enough for it.
    let mut reserve = 0;
    let from = originals.runner.spent();
    let mut stop = Stop { limit: options.limit.clone(), from, capped: false, shares: Shares::default(), waited: false };
    for (index, test) in tests.iter_mut().enumerate() {
        if stop.past(&originals.runner, reserve) {
            // The tests left are not analysed (nor written back by `keep`): they stay as elected.
            break;
        }
        if options.choose {
            *test = keep::candidates(subject.program(), &mut originals, test)?;
        }
        let mut baseline = originals.baseline(subject, test)?;
        reserve += baseline.cost;
        check_asserts(subject.program(), &settings.limits, index, test, &mut baseline)?;
        if options.choose {
            test.checks.get_or_insert_with(Default::default).fields =
                keep::public_fields(subject.program(), &test.test, &baseline.elected.results);
            baseline.elected.checks = test.checks.clone();
            originals.settle(subject.program(), test, &mut baseline)?;
        }
        baselines.push(baseline);
    }
    tests.truncate(baselines.len());
    let mut mutants = create_mutants(subject, methods, &tests, options.constructors);
    let analysis = Analysis {
        kept: vec![Vec::new(); tests.len()],
        kills: vec![0; tests.len()],
        undecided: vec![false; tests.len()],
        tests,
        mutants: Vec::new(),
        runs: 0,
        elapsed: Duration::ZERO,
        languages: subject.code().files.iter().map(|f| f.entry.parsed.language.name()).collect(),
        work: 0,
        capped: false,
        time_capped: 0,
    };
    let under = Under { subject, methods, settings };
    let schemata = if stop.past(&originals.runner, reserve) {
        Schemata::none(mutants.len())
    } else {
        Schemata::build(subject, &originals, &mutants, settings.mutant_switching)?
    };
    let killed = vec![Vec::new(); baselines.len()];
    // The work left for judging: what reading the tests took and what `keep` will take are not shared.
    let used = (originals.runner.spent() - stop.from).saturating_add(reserve);
    let left = options.limit.as_ref().map(|l| l.work.saturating_sub(used));
    stop.shares = Shares::new(mutants.iter().map(|m| (m.class, m.method.as_str())), left);
    let mut judging = Judging { under, options, originals, baselines, analysis, killed, reserve, stop, schemata };
    let count = mutants.len();
    let mut waiting = Vec::new();
    let mut done = 0;
    for (id, mutant) in mutants.iter_mut().enumerate() {
        if judging.stop.shares.used(id) {
            waiting.push(id);
            continue;
        }
        progress(done, count);
        done += 1;
        let from = judging.originals.runner.spent();
        judging.judge_or_leave(mutant, id)?;
        judging.stop.shares.charge(id, judging.originals.runner.spent() - from);
    }
    judging.stop.waited = true;
    for id in waiting {
        progress(done, count);
        done += 1;
        judging.judge_or_leave(&mut mutants[id], id)?;
    }
    let mut analysis = judging.analysis;
    for (t, baseline) in judging.baselines.iter().enumerate() {
        analysis.undecided[t] = mutants.iter().any(|m| m.status == Status::Unjudged && covers(baseline, m));
    }
    analysis.mutants = mutants;
    analysis.elapsed = started.elapsed();
    analysis.work = judging.originals.runner.spent() - judging.stop.from;
    analysis.capped = judging.stop.capped;
    analysis.time_capped = judging.originals.runner.time_capped();
    Ok(analysis)
}

/// Where an analysis stops (see [`Options::limit`]): its limit, the meter reading it started from,
/// whether the cap rather than the work ended it, and how the methods share it.
pub(super) struct Stop {
    limit: Option<PassLimit>,
    from: u64,
    capped: bool,
    /// Each method's share of the work left for judging (see [`shares`]).
    shares: Shares,
    /// Whether the mutants judged now are those that waited for the others' shares: the long part of
    /// judging them takes what is left of the limit.
    waited: bool,
}

impl Stop {
    /// Whether the analysis, whose runners charge the meter of `runner`, must stop with `reserve` work
    /// units kept; notes when the cap is why.
    fn past(&mut self, runner: &Runner, reserve: u64) -> bool {
        let Some(limit) = &self.limit else { return false };
        match limit.reached((runner.spent() - self.from).saturating_add(reserve)) {
            Some(Ending::Cap) => {
                self.capped = true;
                true
            }
            Some(Ending::Work | Ending::Interrupted) => true,
            None => false,
        }
    }
}

/// Whether a test runs the statement a mutant is in (a mutant outside every statement: any test).
fn covers(baseline: &Baseline, mutant: &Mutant) -> bool {
    mutant.statement.is_none_or(|s| baseline.covers.contains(&s))
}

/// A test read from a manifest must still make the assertions it was written with. Its baseline then
/// asserts those only: a value that changed between runs was left out of the suite when it was written.
fn check_asserts(
    program: &ProgramInfo,
    limits: &Limits,
    index: usize,
    test: &mut SuiteTest,
    baseline: &mut Baseline,
) -> Result<()> {
    let Some(expected) = &test.asserts else { return Ok(()) };
    test.instability.apply(&mut baseline.elected.results);
    let Some(change) = crate::suite::kept::change(program, limits, &baseline.elected, expected) else {
        assert_only(program, &mut baseline.elected, expected);
        test.checks = baseline.elected.checks.clone();
        return Ok(());
    };
    Err(Error::Usage(format!(
        "test {} of the suite (`{}`) does not pass on the current code ({change}): generate the suite again, or \
         bring it up to date with `flycatcher generate --update`",
        index + 1,
        test.title,
    )))
}

/// What an analysis borrows from the session: the program and what is known about it, the methods under
/// test (random tests are generated for them, from their constants) and the settings (generation, the
/// usual limits, the seed).
#[derive(Clone, Copy)]
pub(super) struct Under<'a> {
    pub(super) subject: &'a Subject,
    pub(super) methods: &'a [MethodState],
    pub(super) settings: &'a Settings,
}

/// An analysis under way: the original code, what every test does on it, and what is known so far.
pub(super) struct Judging<'a> {
    pub(super) under: Under<'a>,
    pub(super) options: &'a Options,
    pub(super) originals: Originals,
    pub(super) baselines: Vec<Baseline>,
    pub(super) analysis: Analysis,
    /// Per test, the mutants (with their index) it was the first to kill by a run: a test replaced by
    /// one with its original values back must still kill them (see [`restore`]).
    pub(super) killed: Vec<Vec<(usize, Mutant)>>,
    /// The work kept before [`Options::limit`] for [`keep()`]: judging stops that much before it.
    pub(super) reserve: u64,
    /// Where the analysis stops.
    stop: Stop,
    /// The program that switches the mutants it can (see [`schema`]).
    schemata: Schemata,
}

impl Judging<'_> {
    /// Whether judging must stop, with `more` work units needed besides the reserve.
    fn past(&mut self, more: u64) -> bool {
        self.stop.past(&self.originals.runner, self.reserve + more)
    }

    /// Judges `mutant` (mutant `id`), or leaves it unjudged once past the limit.
    fn judge_or_leave(&mut self, mutant: &mut Mutant, id: usize) -> Result<()> {
        if self.past(0) {
            mutant.status = Status::Unjudged;
            return Ok(());
        }
        self.judge(mutant, id)
    }

    /// Decides what becomes of one mutant: runs the tests covering its statement on it, keeps a state
    /// assertion where only state assertions kill it, checks a survivor for equivalence, and tries
    /// extended tests on a survivor not presumed equivalent.
    fn judge(&mut self, mutant: &mut Mutant, id: usize) -> Result<()> {
        let from = self.originals.runner.spent();
        let covering: Vec<usize> = (0..self.baselines.len()).filter(|t| covers(&self.baselines[*t], mutant)).collect();
        if covering.is_empty() {
            mutant.status = Status::Uncovered;
            return Ok(());
        }
        // A switched mutant costs no build: setting the switch is all.
        let switched = match self.schemata.switch(id) {
            Some(_) if self.past(0) => {
                mutant.status = Status::Unjudged;
                return Ok(());
            }
            Some(k) => self.schemata.take(k),
            None => None,
        };
        let lent = switched.is_some();
        let runner = match switched {
            Some(runner) => Some(runner),
            None => self.own_program(mutant, &covering)?,
        };
        let Some(mut runner) = runner else { return Ok(()) };
        let judged = self.judge_on(&mut runner, mutant, (id, from), &covering);
        if lent {
            self.schemata.give_back(runner);
        }
        judged
    }

    /// A runner of `mutant`'s own program, or `None` when it is judged already (invalid, killed at
    /// load) or the limit leaves no work to build it (unjudged).
    fn own_program(&mut self, mutant: &mut Mutant, covering: &[usize]) -> Result<Option<Box<Runner>>> {
        match self.build(mutant)? {
            None => {
                mutant.status = Status::Unjudged;
                Ok(None)
            }
            Some(Built::Runner(runner)) => Ok(Some(runner)),
            Some(Built::Invalid) => {
                mutant.status = Status::Invalid;
                Ok(None)
            }
            Some(Built::Fails(reason)) => {
                mutant.status = Status::Killed { test: covering[0], reason };
                self.analysis.kills[covering[0]] += 1;
                Ok(None)
            }
        }
    }

    /// `mutant`'s own program, or `None` when the limit leaves no work to build it. A build is charged
    /// by the size of the file it parses, instruments and compiles again: one of a bundle of megabytes
    /// takes seconds.
    fn build(&mut self, mutant: &Mutant) -> Result<Option<Built>> {
        let subject = self.under.subject;
        let build = subject.code().files[mutant.file].entry.parsed.source.src.len() as u64 / BYTES_PER_UNIT;
        if self.past(build + CONTEXT_COST) {
            return Ok(None);
        }
        self.originals.runner.charge(build);
        mutant_runner(subject.code(), &self.originals.runner, mutant, &self.originals.expressions).map(Some)
    }

    /// Judges `mutant` on `runner`, which runs it (its own program, or the schemata switched to it).
    /// `from` is the meter's reading when judging it started.
    fn judge_on(
        &mut self,
        runner: &mut Runner,
        mutant: &mut Mutant,
        (id, from): (usize, u64),
        covering: &[usize],
    ) -> Result<()> {
        mutant.status = Status::Survived;
        self.run_covering(runner, mutant, covering)?;
        // Tests are tried with values put back or made longer within what the method's share leaves.
        let cheap = self.originals.runner.spent() - from;
        let longer = self.stop.shares.longer(id, cheap) || self.stop.waited;
        // Original values first: they leave the test as long as it was.
        if mutant.status == Status::Survived && self.options.restorations > 0 && !self.past(0) && longer {
            restore::tell_apart(self, runner, mutant, id, covering)?;
        }
        // A survivor that random tests cannot tell apart is presumed equivalent: no extension is tried on
        // it. The check runs with the usual limit (its tests have no baseline), as work.
        runner.limit_work(Some(runner.usual_work()));
        let mut witness = None;
        // Past the limit, a survivor stays one: the check and the extensions are the long part.
        let late = self.past(0);
        if mutant.status == Status::Survived && self.options.equivalence_tests > 0 && !late {
            let seed = self.under.settings.seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut rng = StdRng::seed_from_u64(seed);
            let tests = self.options.equivalence_tests;
            let original = &mut self.originals.runner;
            let (found, runs) = distinguish(self.under, original, runner, mutant, tests, &mut rng)?;
            self.analysis.runs += runs;
            match found {
                Some(found) => witness = Some(found),
                None => mutant.status = Status::Equivalent,
            }
        }
        if mutant.status == Status::Survived && self.options.extensions > 0 && !late && longer {
            extend::tell_apart(self, runner, mutant, covering, id, witness)?;
        }
        if let Status::Killed { test, .. } = mutant.status {
            self.killed[test].push((id, mutant.clone()));
        }
        Ok(())
    }

    /// Runs the covering tests on a mutant until one kills it by what it asserts anyway; where only
    /// state assertions kill it, keeps one of the first test that does (the candidates are public).
    fn run_covering(&mut self, runner: &mut Runner, mutant: &mut Mutant, covering: &[usize]) -> Result<()> {
        let analysis = &mut self.analysis;
        let mut chosen: Option<(usize, Check)> = None;
        for &t in covering {
            let test = &analysis.tests[t];
            // Once a test killed it by state assertions only (`chosen`), a later test decides only by what
            // it asserts anyway: how it ends, what its calls return, the checks kept for it. Its
            // inspection is then asked nothing unless an inspector was kept for it, and it is most of
            // the run (fifty inspectors after each of color's tests): the run leaves it out. An exported
            // test calls only its kept inspectors, so one that loops on the mutant kills nothing there.
            let inspect = chosen.is_none() || analysis.kept[t].iter().any(|c| matches!(c, Check::Inspector(_)));
            let program = self.under.subject.program();
            let run = run_on_mutant(program, runner, test, &self.baselines[t], inspect)?;
            analysis.runs += 1;
            let Some(kill) = verdict(program, &self.under.settings.limits, &self.baselines[t].elected, &run) else {
                continue;
            };
            if !matches!(mutant.status, Status::Killed { .. }) {
                mutant.status = Status::Killed { test: t, reason: kill.reason.clone() };
                analysis.kills[t] += 1;
            }
            if !self.options.choose || kill.primary || kill.checks.iter().any(|c| analysis.kept[t].contains(c)) {
                // Killed by what the suite asserts anyway.
                return Ok(());
            }
            if chosen.is_none() {
                chosen = Some((t, keep::best(&test.test, kill.checks)));
            }
        }
        if let Some((t, check)) = chosen {
            analysis.kept[t].push(check);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_leave_equivalent_and_invalid_mutants_out() {
        let score = Score { killed: 8, survived: 1, equivalent: 5, uncovered: 1 };
        assert_eq!(score.percent(), Some(80.0));
        assert_eq!(score.total(), 15);
        assert_eq!(Score::default().percent(), None);
    }
}
