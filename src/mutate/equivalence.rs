//! The equivalence check: random tests run on the original and on a surviving mutant; a survivor none
//! tells apart is presumed equivalent and left out of the score.

use rand::RngExt;
use rand::rngs::StdRng;

use super::keep::{all_fields, inspectors};
use super::verdict::{as_elected, verdict};
use super::{Mutant, SuiteTest, Under};
use crate::error::Result;
use crate::generate::Request;
use crate::generate::random::generate;
use crate::model::observed::Outcome;
use crate::model::program::ProgramInfo;
use crate::model::test::{Statement, TestCase};
use crate::sandbox::Watch;
use crate::session::{Runner, is_regression};
use crate::suite::StateChecks;
use crate::suite::checks::inspected_variable;

/// Random tests that hit a limit on the original after which the equivalence check of a mutant stops.
pub(super) const LIMITED_TESTS: usize = 5;

/// Random tests run in one context.
const BATCH: usize = 25;

/// Runs random tests on the original and on a surviving mutant; returns the first that told them apart
/// (a witness), and how many ran. On the original, a test has a quarter of the usual limit, as work
/// (the same on any machine): one that loops there (code that loops for most inputs) costs less, and
/// tells nothing apart anyway.
pub(super) fn distinguish(
    under: Under,
    original: &mut Runner,
    mutant_runner: &mut Runner,
    mutant: &Mutant,
    tests: usize,
    rng: &mut StdRng,
) -> Result<(Option<Witness>, u64)> {
    original.limit_work(Some(original.usual_work() / 4));
    let found = random_tests(under, original, mutant_runner, mutant, tests, rng);
    original.limit_work(None);
    found
}

fn random_tests(
    under: Under,
    original: &mut Runner,
    mutant_runner: &mut Runner,
    mutant: &Mutant,
    tests: usize,
    rng: &mut StdRng,
) -> Result<(Option<Witness>, u64)> {
    // Half the tests call the mutated method last, with observers after it; the other half test other
    // methods of its class, where it is often called earlier and the later calls see what it left.
    let (subject, states, settings) = (under.subject, under.methods, under.settings);
    let own = |i: &usize| states[*i].class == mutant.class && states[*i].method == mutant.method;
    let mut methods: Vec<usize> = (0..states.len()).filter(|i| states[*i].class == mutant.class).collect();
    if methods.is_empty() {
        methods = (0..states.len()).collect();
    }
    let mutated: Vec<usize> = methods.iter().copied().filter(own).collect();
    if !mutated.is_empty() {
        methods = methods.into_iter().flat_map(|i| if own(&i) { vec![i] } else { vec![mutated[0], i] }).collect();
    }
    if methods.is_empty() {
        return Ok((None, 0));
    }
    let (mut valid, mut runs) = (0, 0);
    let mut limited = 0;
    let mut batch = Vec::new();
    // Candidates with parameters of unknown type cannot be compared: give up after a few of those.
    for attempt in 0..tests * 4 {
        if valid == tests {
            break;
        }
        let m = &states[methods[attempt % methods.len()]];
        let request = Request {
            program: subject.program(),
            types: subject.types(),
            settings: &settings.generation,
            constants: &m.constants,
            class: m.class,
            method: &m.method,
            elected: &[],
            hazards: subject.hazards(),
            returns: subject.returns(),
        };
        let test = generate(&request, rng);
        let seed = rng.random::<u32>();
        if !test.is_valid() {
            continue;
        }
        valid += 1;
        batch.push(observed(subject.program(), test, seed, mutant));
        if batch.len() == BATCH || valid == tests {
            runs += batch.len() as u64;
            match compare(under, original, mutant_runner, &mut batch, &mut limited)? {
                Compared::Apart(witness) => return Ok((Some(*witness), runs)),
                Compared::Limited => return Ok((None, runs)),
                Compared::Alike => batch.clear(),
            }
        }
    }
    if !batch.is_empty() {
        runs += batch.len() as u64;
        if let Compared::Apart(witness) = compare(under, original, mutant_runner, &mut batch, &mut limited)? {
            return Ok((Some(*witness), runs));
        }
    }
    Ok((None, runs))
}

/// A random test that told a mutant apart, and whether it is a regression test on the original (it
/// passed, or threw at its last statement): only such a test can be grafted onto one of the suite's
/// (see `extend`).
pub(super) struct Witness {
    pub(super) test: SuiteTest,
    pub(super) usable: bool,
}

/// What a batch of random tests showed.
enum Compared {
    /// A test told the mutant apart.
    Apart(Box<Witness>),
    /// None did.
    Alike,
    /// Too many tests hit a limit on the original: the check stops.
    Limited,
}

/// Runs `batch` one test after the other in one context of the original and one of the mutant, as a
/// runner would (a context per test would cost more than the tests), and compares them in order, up to
/// a test that hits a limit on the original: after it, the original's context is a new one.
fn compare(
    under: Under,
    original: &mut Runner,
    mutant_runner: &mut Runner,
    batch: &mut [SuiteTest],
    limited: &mut usize,
) -> Result<Compared> {
    let program = under.subject.program();
    let jsons: Vec<String> = batch.iter().map(|t| t.json(program)).collect();
    let watch = Watch::default();
    let runs: Vec<(&str, u32, &Watch)> =
        jsons.iter().zip(batch.iter()).map(|(j, t)| (j.as_str(), t.seed, &watch)).collect();
    let bases = original.run_in_sequence_from_kept(&runs)?;
    // The mutant runs none of the tests from the first that hits a limit on the original on: none is
    // compared, and each that loops there too would cost it the whole usual limit (pathological.js spent
    // four fifths of its `--mutation` analysis so).
    let compared = bases.iter().position(|b| b.outcome.hit_limit()).unwrap_or(bases.len());
    let theirs = mutant_runner.run_in_sequence_from_kept(&runs[..compared])?;
    for ((probe, base), run) in batch.iter_mut().zip(&bases).zip(&theirs) {
        probe.checks.as_mut().expect("set by observed").fields = all_fields(&base.results);
        if verdict(program, &under.settings.limits, &as_elected(probe, base), run).is_some() {
            let mut witness = probe.clone();
            // One that throws on the original tells the mutant apart by then: it ends there.
            if let Outcome::Threw { at, .. } = base.outcome {
                witness.test.truncate(at + 1);
            }
            let usable = is_regression(&base.outcome, witness.test.statements.len() - 1);
            return Ok(Compared::Apart(Box::new(Witness { test: witness, usable })));
        }
        if run.outcome.hit_limit() {
            return Ok(Compared::Alike);
        }
    }
    if compared < bases.len() {
        // Each costs a whole time limit and compares nothing: code that often hits limits (slow or
        // endless for most inputs) gets fewer tests, counted rather than timed so the seed decides.
        *limited += 1;
        if *limited >= LIMITED_TESTS {
            return Ok(Compared::Limited);
        }
    }
    Ok(Compared::Alike)
}

/// A random test as the check compares it: the results of the calls of the mutated method and of the
/// last call, every field after them, and every inspector of the last call's receiver.
pub(super) fn observed(program: &ProgramInfo, mut test: TestCase, seed: u32, mutant: &Mutant) -> SuiteTest {
    let last = test.statements.len().saturating_sub(1);
    for (at, statement) in test.statements.iter_mut().enumerate() {
        if let Statement::Call { under_test, method, .. } = statement {
            *under_test = at == last || *method == mutant.method;
        }
    }
    let inspect = inspected_variable(&test).map(|r| inspectors(program, test.variables[r].class)).unwrap_or_default();
    let checks = Some(StateChecks { fields: Vec::new(), inspect });
    SuiteTest {
        title: String::new(),
        test,
        seed,
        own_message: true,
        asserts: None,
        checks,
        extended: 0,
        instability: Default::default(),
        simplified: None,
    }
}
