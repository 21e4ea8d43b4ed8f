//! Whether a run on a mutant fails a test of the suite: the outcome, the error, an assertion on what a
//! call returned, or a state assertion differs from the original's.

use super::SuiteTest;
use crate::export::{self, Line};
use crate::model::observed::{DescribedResult, Observed, Outcome, Thrown};
use crate::model::program::ProgramInfo;
use crate::model::settings::Limits;
use crate::model::test::TestCase;
use crate::sandbox::Execution;
use crate::suite::checks::{field_lines, inspection_lines};
use crate::suite::lines::{ResultNames, primary_lines, state_lines};
use crate::suite::stability::Instability;
use crate::suite::{ElectedTest, FieldCheck};

/// The elected-test form of a run of `test`: what the exported test would assert.
pub(super) fn as_elected(test: &SuiteTest, run: &Execution) -> ElectedTest {
    crate::suite::kept::as_elected(&test.test, test.seed, test.own_message, test.checks.clone(), run)
}

/// A state assertion of a test: a field after a call, or an inspector after the last call.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Check {
    /// An inspector's answer.
    Inspector(String),
    /// A field.
    Field(FieldCheck),
}

/// How a run on a mutant differs from the original's.
pub(super) struct Kill {
    pub(super) reason: String,
    /// Whether it differs where the test always asserts: how it ended, or what a call returned.
    pub(super) primary: bool,
    /// The statements where it differs so: the call that threw or hit a limit, or whose result differs.
    pub(super) calls: Vec<usize>,
    /// The state assertions of the baseline that fail, in the baseline's order.
    pub(super) checks: Vec<Check>,
}

/// Whether `run` (on a mutant) fails the test that `baseline` is the original run of, and why.
/// `limits` are the usual ones, which a run cut off by a limit is described by.
pub(super) fn verdict(program: &ProgramInfo, limits: &Limits, baseline: &ElectedTest, run: &Execution) -> Option<Kill> {
    let test = &baseline.test;
    let kill = |reason: String, at: Option<usize>| {
        Some(Kill { reason, primary: true, calls: at.into_iter().collect(), checks: Vec::new() })
    };
    let thrown_text = |thrown: &Thrown| match thrown {
        Thrown::Error { name, message, .. } => format!("{name}: {message}"),
        Thrown::Value(v) => format!("a non-error value {v}"),
    };
    match (&baseline.outcome, &run.outcome) {
        (_, Outcome::TimedOut | Outcome::OutOfMemory | Outcome::StackOverflow { .. }) => {
            return kill(run.outcome.describe(limits), run.failed_at());
        }
        (Outcome::Passed, Outcome::Threw { at, thrown }) => {
            return kill(format!("`{}` threw {}", test.callee(*at, program), thrown_text(thrown)), Some(*at));
        }
        (Outcome::Threw { at, .. }, Outcome::Passed) => {
            return kill("the expected error is no longer thrown".into(), Some(*at));
        }
        (Outcome::Threw { at, thrown }, Outcome::Threw { at: now, thrown: instead }) => {
            let same = at == now
                && match (thrown, instead) {
                    (Thrown::Error { name, message, .. }, Thrown::Error { name: n, message: m, .. }) => {
                        name == n && (!baseline.own_message || message == m)
                    }
                    (a, b) => a == b,
                };
            if !same {
                let reason = format!(
                    "`{}` threw {} instead of {}",
                    test.callee(*now, program),
                    thrown_text(instead),
                    thrown_text(thrown)
                );
                return kill(reason, Some(*now));
            }
        }
        _ => {}
    }
    let mut failed: Option<Kill> = None;
    let mut fail = |line: String, at: usize, check: Option<Check>| {
        let kill = failed.get_or_insert_with(|| Kill {
            reason: format!("fails `{line}`"),
            primary: false,
            calls: Vec::new(),
            checks: Vec::new(),
        });
        match check {
            Some(check) => kill.checks.push(check),
            None => {
                kill.primary = true;
                kill.calls.push(at);
            }
        }
    };
    // Equal descriptions give equal assertions: only those that differ are written out and compared.
    let mut names = ResultNames::for_results(&baseline.results);
    // The mutant's results as the baseline's are asserted: what changed between runs left out, offsets
    // measured from the same calls.
    let mut measured = run.results.clone();
    Instability::of(&baseline.results).apply(&mut measured);
    for result in &baseline.results {
        let theirs = measured.iter().find(|r| r.at == result.at);
        let last = result.at + 1 == test.statements.len();
        let stated = result.value == Observed::Undefined && !state_lines(program, baseline, result, last).is_empty();
        let (expected, named) = primary_assertions(program, test, result, stated, names.clone());
        let primary = |r: &DescribedResult| rendered(primary_assertions(program, test, r, stated, names.clone()).0);
        if theirs.is_none_or(|r| r.value != result.value)
            && let Some(line) = differing(&rendered(expected), theirs.map(primary))
        {
            fail(line, result.at, None);
        }
        names = named;
        let inspectors = if last { baseline.inspectors() } else { &[] };
        for name in inspectors {
            let lines = |r: &DescribedResult| rendered(inspection_lines(program, test, r, name));
            let same = theirs.is_some_and(|r| r.answer(name) == result.answer(name));
            if !same && let Some(line) = differing(&lines(result), theirs.map(lines)) {
                fail(line, result.at, Some(Check::Inspector(name.clone())));
            }
        }
        for (variable, field) in baseline.field_checks(program, result) {
            let same = theirs.is_some_and(|r| r.field(variable, &field) == result.field(variable, &field));
            let lines = |r: &DescribedResult| rendered(field_lines(program, test, r, variable, &field));
            if !same && let Some(line) = differing(&lines(result), theirs.map(lines)) {
                fail(line, result.at, Some(Check::Field(FieldCheck { at: result.at, variable, field })));
            }
        }
    }
    failed
}

/// Makes `baseline` assert only what `expected` (a manifest's assertions) holds: a value whose assertion
/// is not there is unstable, a state assertion not there is not made.
pub(super) fn assert_only(program: &ProgramInfo, baseline: &mut ElectedTest, expected: &[String]) {
    let held = |lines: Vec<Line>| rendered(lines).iter().all(|l| expected.contains(l));
    let last = baseline.test.statements.len().saturating_sub(1);
    let mut checks = baseline.checks.clone().unwrap_or_default();
    let mut fields = Vec::new();
    let mut inspect = Vec::new();
    let mut names = ResultNames::for_results(&baseline.results);
    for index in 0..baseline.results.len() {
        let result = &baseline.results[index];
        for (variable, field) in baseline.field_checks(program, result) {
            if held(field_lines(program, &baseline.test, result, variable, &field)) {
                fields.push(FieldCheck { at: result.at, variable, field });
            }
        }
        if result.at == last {
            let names = baseline.inspectors();
            inspect
                .extend(names.iter().filter(|n| held(inspection_lines(program, &baseline.test, result, n))).cloned());
        }
        let stated = !state_lines(program, baseline, result, result.at == last).is_empty();
        let (primary, named) = primary_assertions(program, &baseline.test, result, stated, names.clone());
        names = named;
        if !held(primary) {
            baseline.results[index].value = Observed::Unstable;
        }
    }
    checks.fields = fields;
    checks.inspect = inspect;
    baseline.checks = Some(checks);
}

/// The assertions on what the call `result` describes returned (see [`primary_lines`]), when the test's
/// earlier calls named results as `names` says, as the exported test does; and the names with this one.
fn primary_assertions(
    program: &ProgramInfo,
    test: &TestCase,
    result: &DescribedResult,
    stated: bool,
    mut names: ResultNames,
) -> (Vec<Line>, ResultNames) {
    let mut lines = Vec::new();
    let expression = test.expression(result.at, program);
    primary_lines(program, test, result, &expression, stated, &mut names, &mut lines);
    (lines, names)
}

/// Assertion lines as JavaScript statements, code lines left out.
fn rendered(lines: Vec<Line>) -> Vec<String> {
    lines.iter().filter(|l| !matches!(l, Line::Code(_))).map(export::statement).collect()
}

/// The first of the `expected` assertions that the mutant's (`actual`, `None` when the call made none)
/// do not include.
fn differing(expected: &[String], actual: Option<Vec<String>>) -> Option<String> {
    let actual = actual.unwrap_or_default();
    expected.iter().find(|line| !actual.contains(line)).cloned()
}
