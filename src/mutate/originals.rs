//! What a test does on the original code: the run a mutant's run is compared with, the statements it
//! covers, and the work a run on a mutant may do.

use super::SuiteTest;
use super::schema;
use super::verdict::as_elected;
use crate::discovery::bound_expression;
use crate::error::Result;
use crate::model::program::ProgramInfo;
use crate::model::settings::Limits;
use crate::sandbox::{Test, WORK_PER_MS, Watch};
use crate::session::{Runner, Subject};
use crate::suite::ElectedTest;
use crate::suite::stability;

/// What a test does on the original code: the run that assertions compare with, and the statements it
/// runs (none when a limit cut it off: it tells nothing apart then).
pub(crate) struct Baseline {
    pub(crate) elected: ElectedTest,
    pub(crate) covers: Vec<u32>,
    /// The work limit of its runs on mutants (see [`WORK_PER_MS`]): far above the work it did on the
    /// original, so that only a mutant that loops (or blows up) reaches it, and far below the usual
    /// limit, which every such mutant would otherwise cost. Work, not time: whether a mutant reaches it
    /// decides what the suite asserts, and must not depend on how loaded the machine is.
    pub(crate) work_limit: u64,
    /// The work its run on the original cost: what [`keep()`] will spend on it again.
    pub(crate) cost: u64,
}

/// How many times its work on the original a test may do on a mutant.
pub(crate) const SLOWDOWN: u64 = 10;

/// The least work limit of a test on a mutant: about 5 ms of plain JavaScript, 2.5 million calls and
/// backward jumps. Most tests do less than one interrupt check's work on the original, so this floor is
/// what a mutant that loops runs for; and a loop that allocates (a list growing without end) or calls
/// through proxies does 7 to 17 times fewer checks per millisecond than plain JavaScript. At 25 ms'
/// worth such runs were half of yallist's analysis (23 runs, 3.8 of 7.0 s), while no mutant was seen
/// that ends after hundreds of times its original's work.
const LEAST_WORK: u64 = 5 * WORK_PER_MS;

/// The work limit of a test on a mutant: [`SLOWDOWN`] times its work on the original, at least
/// [`LEAST_WORK`], at most `usual` (see [`Runner::usual_work`]).
fn mutant_work_limit(work_on_original: u64, usual: u64) -> u64 {
    work_on_original.saturating_mul(SLOWDOWN).clamp(LEAST_WORK.min(usual), usual)
}

/// The work limit of loading a mutant's program: [`SLOWDOWN`] times the original's load, at least
/// [`LEAST_WORK`] (the wall-clock `load_time` stays above it).
pub(crate) fn load_work_limit(original: u64) -> u64 {
    original.saturating_mul(SLOWDOWN).max(LEAST_WORK)
}

/// The runner of an analysis on the original code, and the expressions that reach its classes.
pub(crate) struct Originals {
    pub(crate) runner: Runner,
    pub(crate) expressions: Vec<String>,
    /// The statements the program ran while it loaded: a mutant in one of them is static, and cannot be
    /// switched (see [`schema`]).
    pub(crate) loaded: schema::Loaded,
}

impl Originals {
    /// The original code of `subject` loaded, its tests to run under `limits`. Its classes are bound as
    /// for the tests that were elected ([`bound_expression`]): a factory's class as a constructor whose
    /// prototype is that of the factory's instances, so that the results the factory makes are described
    /// as its instances here as they were there. That binding calls the factory once, with no mutant on (a
    /// context loads and binds under the original, see [`schema`]); what that call runs is not run at
    /// load, so the factory's mutants stay switched.
    pub(crate) fn new(subject: &Subject, limits: &Limits) -> Result<Originals> {
        let expressions: Vec<String> = subject.program().classes.iter().map(bound_expression).collect();
        let mut runner = Runner::new(subject.code(), limits.clone())?;
        let loaded = runner.statements_run_at_load()?.into_iter().collect();
        runner.bind_classes(&expressions)?;
        runner.keep_loaded_for_tests_alone();
        Ok(Originals { runner, expressions, loaded })
    }

    /// Runs `test` on the original with every statement watched.
    pub(crate) fn baseline(&mut self, subject: &Subject, test: &SuiteTest) -> Result<Baseline> {
        let everything = Watch::of(0..subject.code().statement_count, 0..0);
        let before = self.runner.spent();
        let json = test.json(subject.program());
        let run = self.runner.run_isolated(Test::Json(&json), test.seed, &everything, true)?;
        let usual = self.runner.usual_work();
        let cost = self.runner.spent() - before;
        let work_limit = mutant_work_limit(run.work, usual);
        let elected = as_elected(test, &run);
        // A test cut off by a limit on the original (a loaded machine) cannot tell anything apart: it
        // covers nothing, so it runs against no mutant.
        let covers = if run.outcome.hit_limit() { Vec::new() } else { run.statements };
        Ok(Baseline { elected, covers, work_limit, cost })
    }

    /// Marks in `baseline` (of `test`, with its candidate assertions) what the test's own leftovers
    /// change: it runs twice in a row in one context, and what differs in the second run is unstable or an
    /// offset, as the stability pass before export would make it (see [`stability::stabilize`]). The
    /// analysis then keeps no assertion, and makes no test longer, for a kill that pass would undo (a
    /// counter that outlives a test: the absolute ticket number kills the mutants the exported suite
    /// cannot assert). Order-dependent results that only other tests cause are left to that pass.
    pub(crate) fn settle(&mut self, program: &ProgramInfo, test: &SuiteTest, baseline: &mut Baseline) -> Result<()> {
        self.runner.limit_work(Some(baseline.work_limit));
        let runs = self.runner.run_isolated_twice(Test::Json(&test.json(program)), test.seed, &Watch::default());
        self.runner.limit_work(None);
        if let [_, again] = &runs?[..]
            && again.outcome == baseline.elected.outcome
        {
            stability::stabilize(program, &mut baseline.elected, std::slice::from_ref(again));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutant_may_do_ten_times_its_originals_work_and_at_least_five_milliseconds_worth() {
        let usual = 100 * WORK_PER_MS;
        // A test that did less than one check's work on the original: a mutant that loops stops at 5 ms'
        // worth, not at the usual limit.
        assert_eq!(mutant_work_limit(0, usual), 5 * WORK_PER_MS);
        assert_eq!(mutant_work_limit(30, usual), 300);
        assert_eq!(mutant_work_limit(u64::MAX, usual), usual);
        // A usual limit below the floor wins.
        assert_eq!(mutant_work_limit(0, 2 * WORK_PER_MS), 2 * WORK_PER_MS);
    }
}
