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
//! Files: [`operators`] (the edits), `mutants.rs` (mutants and their sandboxes), `verdict.rs` (does a
//! run on a mutant fail a test), `equivalence.rs` (the check of survivors), `strengthen.rs`
//! (`generate --mutation`), [`report`].

mod equivalence;
mod mutants;
pub mod operators;
pub mod report;
mod strengthen;
mod verdict;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::discovery::sandbox_expression;
use crate::error::{Error, Result};
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::TestCase;
use crate::sandbox::{CodeBase, Sandbox, Watch};
use crate::session::Session;
use crate::suite::title::titles;
use crate::suite::{ElectedTest, Suite, manifest};
use equivalence::distinguish;
use mutants::{Built, create_mutants, mutant_sandbox};
use operators::Edit;
pub use strengthen::{add_observers, strengthen};
use verdict::{as_elected, verdict};

/// A test of the suite, as mutation analysis runs it.
#[derive(Debug, Clone)]
pub struct SuiteTest {
    /// Its title in the exported suite.
    pub title: String,
    /// The test.
    pub test: TestCase,
    /// The seed it runs with.
    pub seed: u32,
    /// Whether it asserts the message of the error it expects.
    pub own_message: bool,
    /// The assertions its exported form makes, when read from a manifest: checked against the original
    /// code before any mutant runs.
    pub asserts: Option<Vec<String>>,
}

impl SuiteTest {
    /// The tests of a session's elected suite, in election order.
    pub fn elected(suite: &Suite, program: &ProgramInfo, code: &CodeBase) -> Vec<SuiteTest> {
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
            })
            .collect()
    }

    /// The tests of a manifest.
    pub fn from_manifest(tests: Vec<manifest::ManifestTest>) -> Vec<SuiteTest> {
        tests
            .into_iter()
            .map(|t| SuiteTest {
                title: t.title,
                test: t.test,
                seed: t.seed,
                own_message: t.own_message,
                asserts: Some(t.asserts),
            })
            .collect()
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
    /// Every covering test passed on it, and random tests told it from the original.
    Survived,
    /// Every covering test passed on it, and no random test told it from the original either.
    Equivalent,
    /// No test runs the statement it is in.
    Uncovered,
    /// The edit does not give valid JavaScript (e.g. `??` mixed with `||`): not counted.
    Invalid,
}

/// One mutant and its fate.
#[derive(Debug, Clone)]
pub struct Mutant {
    /// The class whose method or constructor it changes.
    pub class: ClassId,
    /// The method (`constructor` for a constructor).
    pub method: String,
    /// The file, as an index of the program's files.
    pub file: usize,
    /// The edit.
    pub edit: Edit,
    /// 1-based line of the edit.
    pub line: usize,
    /// 1-based column of the edit.
    pub column: usize,
    /// The enclosing construct before the edit.
    pub original: String,
    /// The enclosing construct after the edit.
    pub mutated: String,
    /// The global id of the innermost probed statement containing the edit.
    pub statement: Option<u32>,
    /// What became of it.
    pub status: Status,
}

/// How thorough the analysis is.
#[derive(Debug, Clone)]
pub struct Options {
    /// Random tests per surviving mutant in the equivalence check (0: survivors stay survivors).
    pub equivalence_tests: usize,
    /// Run every covering test against every mutant, not only until the first kill (what
    /// [`strengthen`] needs to know which assertions kill).
    pub exhaustive: bool,
    /// Mutate the constructors of the classes under test too (off when one method is chosen).
    pub constructors: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { equivalence_tests: 200, exhaustive: false, constructors: true }
    }
}

/// The result of a mutation analysis.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The tests run.
    pub tests: Vec<SuiteTest>,
    /// The mutants, in file and source order.
    pub mutants: Vec<Mutant>,
    /// Per test, the statements of the test (calls of the method under test) whose assertions killed a
    /// mutant.
    pub killing_calls: Vec<BTreeSet<usize>>,
    /// Per test, the mutants it killed.
    pub kills: Vec<usize>,
    /// Test runs against mutants (equivalence checks included).
    pub runs: u64,
    /// Time the analysis took.
    pub elapsed: Duration,
}

/// Mutant counts of a group of mutants (a method, a class, everything).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    /// Killed by a test.
    pub killed: usize,
    /// Not killed, and told from the original by random tests.
    pub survived: usize,
    /// Not killed, and never told from the original.
    pub equivalent: usize,
    /// In statements no test covers.
    pub uncovered: usize,
}

impl Score {
    /// Counts the valid mutants among `mutants`.
    pub fn of<'a>(mutants: impl IntoIterator<Item = &'a Mutant>) -> Score {
        let mut score = Score::default();
        for m in mutants {
            match m.status {
                Status::Killed { .. } => score.killed += 1,
                Status::Survived => score.survived += 1,
                Status::Equivalent => score.equivalent += 1,
                Status::Uncovered => score.uncovered += 1,
                Status::Invalid => {}
            }
        }
        score
    }

    /// Valid mutants.
    pub fn total(&self) -> usize {
        self.killed + self.survived + self.equivalent + self.uncovered
    }

    /// Killed mutants in percent of the non-equivalent ones (uncovered ones count as not killed); `None`
    /// without any.
    pub fn percent(&self) -> Option<f64> {
        let counted = self.killed + self.survived + self.uncovered;
        (counted > 0).then(|| 100.0 * self.killed as f64 / counted as f64)
    }
}

impl Analysis {
    /// The score of every valid mutant.
    pub fn score(&self) -> Score {
        Score::of(&self.mutants)
    }
}

/// Creates the mutants of the session's methods under test (and, unless one method was chosen, of their
/// classes' constructors), runs `tests` against them and checks survivors for equivalence.
///
/// `tests` with recorded assertions (from a manifest) must pass on the original code first: an error says
/// which does not. `progress` is told (mutants done, mutants in all) after each mutant.
pub fn analyse(
    session: &Session,
    tests: Vec<SuiteTest>,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis> {
    let started = Instant::now();
    let program = &session.program;
    let code = &session.code;
    let limits = session.settings().limits.clone();
    let expressions: Vec<String> = program.classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let mut original = Sandbox::new(code, limits.clone())?;
    original.bind_classes(&expressions)?;

    // Baseline: what every test does on the original, and which statements it runs.
    let everything = Watch { statements: 0..code.statement_count, branches: 0..0 };
    let mut baselines = Vec::new();
    for (index, t) in tests.iter().enumerate() {
        let run = original.run_isolated(&t.test.to_json(program), t.seed, &everything, true)?;
        let elected = as_elected(t, &run);
        if let Some(expected) = &t.asserts {
            let actual = manifest::assertions(program, &elected);
            if run.outcome.hit_limit() || actual != *expected {
                return Err(Error::Usage(format!(
                    "test {} of the suite (`{}`) does not pass on the current code ({}): generate the suite again",
                    index + 1,
                    t.title,
                    match actual.iter().find(|a| !expected.contains(a)) {
                        Some(a) => format!("it now gives `{a}`"),
                        None => run.outcome.describe(&limits),
                    }
                )));
            }
        }
        // A test cut off by a limit on the original (a loaded machine) cannot tell anything apart: it
        // covers nothing, so it runs against no mutant.
        let covers = if run.outcome.hit_limit() { Vec::new() } else { run.statements };
        baselines.push((elected, covers));
    }

    let mut mutants = create_mutants(session, &tests, options.constructors);
    let mut analysis = Analysis {
        killing_calls: vec![BTreeSet::new(); tests.len()],
        kills: vec![0; tests.len()],
        tests,
        mutants: Vec::new(),
        runs: 0,
        elapsed: Duration::ZERO,
    };
    let count = mutants.len();
    for (id, mutant) in mutants.iter_mut().enumerate() {
        progress(id, count);
        let covering: Vec<usize> =
            (0..baselines.len()).filter(|t| mutant.statement.is_none_or(|s| baselines[*t].1.contains(&s))).collect();
        if covering.is_empty() {
            mutant.status = Status::Uncovered;
            continue;
        }
        let mut sandbox = match mutant_sandbox(session, mutant, &expressions)? {
            Built::Sandbox(sandbox) => sandbox,
            Built::Invalid => {
                mutant.status = Status::Invalid;
                continue;
            }
            Built::Fails(reason) => {
                mutant.status = Status::Killed { test: covering[0], reason };
                analysis.kills[covering[0]] += 1;
                continue;
            }
        };
        mutant.status = Status::Survived;
        for &t in &covering {
            let test = &analysis.tests[t];
            let run = sandbox.run_isolated(&test.test.to_json(&session.program), test.seed, &Watch::default(), true)?;
            analysis.runs += 1;
            let Some(kill) = verdict(session, &baselines[t].0, &run) else { continue };
            analysis.killing_calls[t].extend(kill.calls);
            analysis.kills[t] += 1;
            if !matches!(mutant.status, Status::Killed { .. }) {
                mutant.status = Status::Killed { test: t, reason: kill.reason };
            }
            if !options.exhaustive {
                break;
            }
        }
        if mutant.status == Status::Survived && options.equivalence_tests > 0 {
            let seed = session.settings().seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut rng = StdRng::seed_from_u64(seed);
            let (distinguished, runs) =
                distinguish(session, &mut original, &mut sandbox, mutant, options.equivalence_tests, &mut rng)?;
            analysis.runs += runs;
            if !distinguished {
                mutant.status = Status::Equivalent;
            }
        }
    }
    analysis.mutants = mutants;
    analysis.elapsed = started.elapsed();
    Ok(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::observed::Outcome;
    use crate::model::observed::{DescribedResult, Observed};
    use crate::model::test::{Statement, Variable};

    /// `list.add(1); list.size()` (the method under test) then the observers `isEmpty()` and `toArray()`.
    fn observed_test(seed: u32) -> ElectedTest {
        let call =
            |method: &str| Statement::Call { receiver: 0, method: method.into(), args: Vec::new(), under_test: true };
        let result = |at: usize| DescribedResult {
            at,
            value: Observed::Number { text: "1".into() },
            inexact: false,
            state: None,
        };
        ElectedTest {
            test: TestCase {
                class: 0,
                method: "size".into(),
                variables: vec![Variable { class: 0, name: "list".into() }],
                statements: vec![
                    Statement::Construct { variable: 0, class: 0, args: Vec::new() },
                    Statement::Call { receiver: 0, method: "add".into(), args: Vec::new(), under_test: false },
                    call("size"),
                    call("isEmpty"),
                    call("toArray"),
                ],
            },
            results: vec![result(2), result(3), result(4)],
            outcome: Outcome::Passed,
            new_lines: Vec::new(),
            own_message: false,
            branches: Vec::new(),
            seed,
            covers: Vec::new(),
            minimized: true,
        }
    }

    fn analysis(killing_calls: Vec<BTreeSet<usize>>, kills: Vec<usize>) -> Analysis {
        Analysis { tests: Vec::new(), mutants: Vec::new(), killing_calls, kills, runs: 0, elapsed: Duration::ZERO }
    }

    fn shape(e: &ElectedTest) -> (Vec<usize>, Vec<bool>) {
        let flags = e
            .test
            .statements
            .iter()
            .filter_map(|s| if let Statement::Call { under_test, .. } = s { Some(*under_test) } else { None })
            .collect();
        (e.results.iter().map(|r| r.at).collect(), flags)
    }

    #[test]
    fn strengthen_keeps_only_killing_assertions_and_drops_idle_observers() {
        let mut suite = Suite {
            elected: vec![observed_test(1), observed_test(2), observed_test(3)],
            failing: Vec::new(),
            ..Suite::default()
        };
        let kills_by_observer: BTreeSet<usize> = [3].into();
        strengthen(&mut suite, &analysis(vec![kills_by_observer, BTreeSet::new(), BTreeSet::new()], vec![1, 0, 2]));
        // Only `isEmpty()` killed: the assertion on `size()` goes, `toArray()` is dropped whole, and the
        // calls no longer asserted are no longer described.
        assert_eq!(shape(&suite.elected[0]), (vec![3], vec![false, false, true]));
        assert_eq!(suite.elected[0].test.statements.len(), 4);
        // A test that kills nothing keeps its own assertions, without the observers.
        assert_eq!(shape(&suite.elected[1]), (vec![2], vec![false, true]));
        // A test that kills only by a limit keeps its own assertions too: none would assert nothing.
        assert_eq!(shape(&suite.elected[2]), (vec![2], vec![false, true]));
    }

    #[test]
    fn scores_leave_equivalent_and_invalid_mutants_out() {
        let score = Score { killed: 8, survived: 1, equivalent: 5, uncovered: 1 };
        assert_eq!(score.percent(), Some(80.0));
        assert_eq!(score.total(), 15);
        assert_eq!(Score::default().percent(), None);
    }
}
