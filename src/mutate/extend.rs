//! Telling a surviving mutant apart: a test that covers its statement is made longer until it tells the
//! mutant from the original, so the suite gets no new test, only a longer one, within a counted budget.
//!
//! Under `generate --mutation`, the random test that told the mutant apart in the equivalence check (a
//! witness) is shortened while it still does, and grafted onto the covering test. Otherwise, and when
//! the graft does not kill it, the test gets one more call: of the mutated method on the test's
//! instance of its class or on a new one, with arguments drawn afresh (for a constructor, a new instance
//! and a call that shows its state).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::equivalence::Witness;
use super::verdict::{Check, Kill, verdict};
use super::{Judging, Mutant, SLOWDOWN, Status, SuiteTest, keep, run_on_mutant};
use crate::error::Result;
use crate::generate::Request;
use crate::generate::extend::{with_call, with_instance};
use crate::generate::guided::ConstantPool;
use crate::model::observed::Outcome;
use crate::model::program::CONSTRUCTOR;
use crate::model::test::{Statement, TestCase};
use crate::session::{Runner, is_regression};
use crate::suite::StateChecks;

/// Times one test may be made longer, over all the mutants it is extended for.
const MAX_EXTENSIONS: usize = 2;

/// Tries to make a covering test of `mutant` (which every covering test survived) tell it apart: the
/// `witness` grafted on, then up to [`super::Options::extensions`] tests with one more call. The first
/// that kills it replaces the test it extends.
pub(super) fn tell_apart(
    judging: &mut Judging,
    runner: &mut Runner,
    mutant: &mut Mutant,
    covering: &[usize],
    id: usize,
    witness: Option<Witness>,
) -> Result<()> {
    // Only a passing test can be made longer; and inspectors kept assert the state after the last call,
    // which more calls would change.
    let open: Vec<usize> = covering
        .iter()
        .copied()
        .filter(|t| {
            judging.baselines[*t].elected.outcome == Outcome::Passed
                && !judging.analysis.kept[*t].iter().any(|c| matches!(c, Check::Inspector(_)))
                && judging.analysis.tests[*t].extended < MAX_EXTENSIONS
        })
        .collect();
    let Some(&first) = open.first() else { return Ok(()) };
    if let Some(witness) = witness.filter(|w| w.usable) {
        let witness = shortest(judging, runner, witness.test)?;
        let longer = judging.analysis.tests[first].test.appended(&witness.test, judging.under.subject.program(), None);
        let inspect = witness.checks.map(|c| c.inspect).unwrap_or_default();
        if try_longer(judging, runner, mutant, first, longer, inspect)? {
            return Ok(());
        }
    }
    one_more_call(judging, runner, mutant, &open, id)
}

/// Up to [`super::Options::extensions`] tests of `open` with one more call.
fn one_more_call(
    judging: &mut Judging,
    runner: &mut Runner,
    mutant: &mut Mutant,
    open: &[usize],
    id: usize,
) -> Result<()> {
    let (subject, settings) = (judging.under.subject, judging.under.settings);
    let method = mutant.method.clone();
    let state = judging.under.methods.iter().find(|m| m.class == mutant.class && m.method == method);
    let constants = state.map_or_else(ConstantPool::default, |m| m.constants.clone());
    let request = Request {
        program: subject.program(),
        types: subject.types(),
        settings: &settings.generation,
        constants: &constants,
        class: mutant.class,
        method: &method,
        elected: &[],
        hazards: subject.hazards(),
        returns: subject.returns(),
    };
    let mut rng = StdRng::seed_from_u64(settings.seed ^ (id as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    // A private method not under test itself is reached through a public one, drawn anew each attempt.
    let private = state.is_none() && subject.program().classes[mutant.class].is_private(&method);
    for attempt in 0..judging.options.extensions {
        let t = open[attempt % open.len()];
        let base = &judging.analysis.tests[t];
        let called = match private {
            true => subject.hazards().pick(subject.program(), mutant.class, &mut rng).unwrap_or(&method),
            false => &method,
        };
        let request = Request { method: called, ..request };
        // Every other attempt calls on a new instance: a state of its own, with arguments drawn from
        // the mutated method's constants.
        let Some(longer) = extension(&request, &base.test, attempt % 2 == 1, &mut rng) else { return Ok(()) };
        if !longer.is_valid() {
            continue;
        }
        let inspect = base.checks.as_ref().map(|c| c.inspect.clone()).unwrap_or_default();
        if try_longer(judging, runner, mutant, t, longer, inspect)? {
            return Ok(());
        }
    }
    Ok(())
}

/// Whether `longer` (test `t` made longer, inspected by `inspect`) passes on the original (or throws
/// at its last statement, as a regression test may), quickly, and kills the mutant: then it replaces
/// test `t`, keeping a state assertion if only one kills.
fn try_longer(
    judging: &mut Judging,
    runner: &mut Runner,
    mutant: &mut Mutant,
    t: usize,
    longer: TestCase,
    inspect: Vec<String>,
) -> Result<bool> {
    let base = &judging.analysis.tests[t];
    let trial = SuiteTest {
        test: longer,
        checks: Some(StateChecks { fields: Vec::new(), inspect }),
        extended: base.extended + 1,
        // The values it was simplified from are those of a shorter test.
        simplified: None,
        ..base.clone()
    };
    let Some((trial, baseline, kill)) = tells_apart(judging, runner, trial)? else { return Ok(false) };
    adopt(judging, mutant, t, trial, baseline, kill);
    Ok(true)
}

/// Test `t` replaced by `trial` (with its `baseline`), which kills `mutant` as `kill` says: a state
/// assertion is kept for it if only one kills.
pub(super) fn adopt(
    judging: &mut Judging,
    mutant: &mut Mutant,
    t: usize,
    trial: SuiteTest,
    baseline: super::Baseline,
    kill: Kill,
) {
    mutant.status = Status::Killed { test: t, reason: kill.reason.clone() };
    judging.analysis.kills[t] += 1;
    let kept = &mut judging.analysis.kept[t];
    if !kill.primary && !kill.checks.iter().any(|c| kept.contains(c)) {
        kept.push(keep::best(&trial.test, kill.checks));
    }
    judging.analysis.tests[t] = trial;
    judging.baselines[t] = baseline;
}

/// Runs `probe` on the original and on the mutant: when it is a regression test on the original (it
/// passes, or throws at its last statement), well within the time limit (one more call must not make a
/// test flaky), and fails on the mutant, the probe with every field as a candidate, its baseline and
/// how it kills.
pub(super) fn tells_apart(
    judging: &mut Judging,
    runner: &mut Runner,
    mut probe: SuiteTest,
) -> Result<Option<(SuiteTest, super::Baseline, Kill)>> {
    let (subject, limits) = (judging.under.subject, &judging.under.settings.limits);
    // A probe that does a tenth of the usual limit's work is slow already: it is cut off there, and not
    // kept.
    let usual = judging.originals.runner.usual_work();
    judging.originals.runner.limit_work(Some(usual / SLOWDOWN));
    let baseline = judging.originals.baseline(subject, &probe);
    judging.originals.runner.limit_work(None);
    let mut baseline = baseline?;
    judging.analysis.runs += 1;
    let last = probe.test.statements.len().saturating_sub(1);
    if !is_regression(&baseline.elected.outcome, last) || baseline.work_limit >= usual {
        return Ok(None);
    }
    // A test that ends by throwing asserts the message of an error the code under test built.
    probe.own_message = subject.code().threw_own_error(&baseline.elected.outcome);
    baseline.elected.own_message = probe.own_message;
    probe.checks.get_or_insert_with(Default::default).fields =
        keep::public_fields(subject.program(), &probe.test, &baseline.elected.results);
    baseline.elected.checks = probe.checks.clone();
    let run = run_on_mutant(subject.program(), runner, &probe, &baseline, true)?;
    judging.analysis.runs += 1;
    if verdict(subject.program(), limits, &baseline.elected, &run).is_none() {
        return Ok(None);
    }
    // Only a probe that kills is worth finding what of it changes when it runs again.
    judging.originals.settle(subject.program(), &probe, &mut baseline)?;
    judging.analysis.runs += 2;
    Ok(verdict(subject.program(), limits, &baseline.elected, &run).map(|kill| (probe, baseline, kill)))
}

/// The witness with the statements it does not need to tell the mutant apart left out, last first, and
/// only the calls whose results tell it apart described.
fn shortest(judging: &mut Judging, runner: &mut Runner, mut witness: SuiteTest) -> Result<SuiteTest> {
    for k in (0..witness.test.statements.len().saturating_sub(1)).rev() {
        let Some(test) = witness.test.without_statement(k) else { continue };
        let shorter = SuiteTest { test, ..witness.clone() };
        if let Some((shorter, _, _)) = tells_apart(judging, runner, shorter)? {
            witness = shorter;
        }
    }
    let Some((mut witness, _, kill)) = tells_apart(judging, runner, witness.clone())? else { return Ok(witness) };
    let last = witness.test.statements.len() - 1;
    let checked: Vec<usize> =
        kill.checks.iter().filter_map(|c| if let Check::Field(f) = c { Some(f.at) } else { None }).collect();
    for (at, statement) in witness.test.statements.iter_mut().enumerate() {
        if let Statement::Call { under_test, .. } = statement {
            *under_test = at == last || kill.calls.contains(&at) || checked.contains(&at);
        }
    }
    Ok(witness)
}

/// `base` with one more call that runs the mutated code (the request's method of its class): on the
/// test's instance of its class, or (`fresh`, or when it has none) on a new one; for a constructor, a new
/// instance and one of its public methods, an argument-less one if it has any. `None` when the class has no method to call.
fn extension(request: &Request, base: &TestCase, fresh: bool, rng: &mut StdRng) -> Option<TestCase> {
    let (program, class, method) = (request.program, request.class, request.method);
    if method == CONSTRUCTOR {
        // Its public methods: a suite calling `_getLocalTriggerId` fails once a refactoring renames it.
        let names = program.classes[class].observers();
        let method = *names.get(rng.random_range(0..names.len().max(1)))?;
        return Some(with_instance(request, base, class, method, rng));
    }
    let receivers: Vec<usize> = (0..base.variables.len())
        .filter(|v| program.is_subclass(base.variables[*v].class, class) && !base.is_function(*v))
        .collect();
    Some(if receivers.is_empty() || fresh {
        with_instance(request, base, class, method, rng)
    } else {
        let receiver = receivers[rng.random_range(0..receivers.len())];
        with_call(request, base, receiver, method, rng)
    })
}
