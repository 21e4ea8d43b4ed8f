//! Keeping what kills: the state assertions a suite makes are chosen by mutation analysis.
//!
//! Every field of every variable after every call of the method under test, and the answer of every
//! inspector of the last call's receiver (an argument-less method or a getter that changes nothing), is
//! a candidate ([`candidates`], [`all_fields`]). The analysis runs the tests covering each mutant with
//! all of them; where only a candidate kills a mutant (nothing the test asserts anyway: its outcome, what
//! its calls returned, a candidate kept already), one is kept ([`best`]). [`keep`] writes the choice back:
//! tests get stronger without getting longer than the assertions that kill need.

use super::verdict::Check;
use super::{Analysis, Originals, SuiteTest};
use crate::error::Result;
use crate::model::observed::{DescribedResult, Outcome};
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::settings::Limits;
use crate::model::test::{Statement, TestCase};
use crate::sandbox::{Test, Watch};
use crate::session::{MethodState, Subject, is_regression};
use crate::suite::checks::{default_field_checks, inspected_variable, private_field};
use crate::suite::{ElectedTest, FieldCheck, StateChecks};

/// Rounds of probing for inspectors that change nothing: each drops those that changed something.
const PROBES: usize = 4;

/// The inspector candidates of `class`: its argument-less methods (no aliases, none that returned a
/// promise), then its other members as getters, marked `@` (the harness reads those only if they are
/// accessors). Private ones too: the equivalence check asks everything; [`candidates`] keeps the public.
pub(crate) fn inspectors(program: &ProgramInfo, class: ClassId) -> Vec<String> {
    let info = &program.classes[class];
    if info.is_module() {
        // The functions of a module are called without a receiver: there is no object to inspect.
        return Vec::new();
    }
    let methods = info
        .methods
        .iter()
        .filter(|m| (m.params.is_empty() || m.optional_from == Some(0)) && m.alias_of.is_none() && !m.asynchronous)
        .map(|m| m.name.clone());
    let getters = info.fields.iter().filter(|f| info.method(f).is_none()).map(|f| format!("@{f}"));
    let mut names: Vec<String> = Vec::new();
    for name in methods.chain(getters) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// `test` with the public inspectors of its last call's receiver that answer there without changing
/// anything (none when it does not pass): the candidates of [`keep`].
pub(super) fn candidates(program: &ProgramInfo, originals: &mut Originals, test: &SuiteTest) -> Result<SuiteTest> {
    let mut test = test.clone();
    let Some(receiver) = inspected_variable(&test.test) else { return Ok(test) };
    let called = match test.test.statements.last() {
        Some(Statement::Call { method, .. }) => method.clone(),
        _ => String::new(),
    };
    let class = &program.classes[test.test.variables[receiver].class];
    let mut names: Vec<String> = inspectors(program, test.test.variables[receiver].class)
        .into_iter()
        .filter(|n| *n != called && !class.is_private(n))
        .collect();
    let last = test.test.statements.len() - 1;
    for round in 0..=PROBES {
        if names.is_empty() {
            break;
        }
        test.checks = Some(StateChecks { fields: Vec::new(), inspect: names.clone() });
        let run = originals.runner.run_isolated(Test::Json(&test.json(program)), test.seed, &Watch::default(), true)?;
        let inspected = run.results.iter().find(|r| r.at == last).map_or(&[][..], |r| &r.inspected[..]);
        let answered = |name: &String| inspected.iter().any(|i| i.name == *name && i.value.is_some() && !i.impure);
        // An impure inspector stops the inspection: those after it were not called, and stay candidates.
        let called = |name: &String| inspected.iter().any(|i| i.name == *name);
        let clean = run.outcome == Outcome::Passed && !inspected.iter().any(|i| i.impure);
        if clean || round == PROBES || run.outcome != Outcome::Passed {
            names.retain(|n| answered(n) && run.outcome == Outcome::Passed);
            break;
        }
        names.retain(|n| answered(n) || !called(n));
    }
    test.checks = (!names.is_empty()).then(|| StateChecks { fields: Vec::new(), inspect: names });
    Ok(test)
}

/// The public fields of the variables of `test` described after every call: the field candidates. A
/// suite asserts what a class promises; a private field (`_size`, or declared `private`) may be renamed
/// by a refactoring that changes no behaviour, and a mutant only it tells apart is left to a longer test
/// that shows the change through a public route (`extend.rs`).
pub(super) fn public_fields(program: &ProgramInfo, test: &TestCase, results: &[DescribedResult]) -> Vec<FieldCheck> {
    all_fields(results).into_iter().filter(|f| !private_field(program, test, f.variable, &f.field)).collect()
}

/// Every field of every variable described after every call: what the equivalence check compares.
pub(super) fn all_fields(results: &[DescribedResult]) -> Vec<FieldCheck> {
    let mut fields = Vec::new();
    for result in results {
        for state in &result.state {
            for field in state.description.fields().into_iter().flat_map(|f| f.keys()) {
                fields.push(FieldCheck { at: result.at, variable: state.variable, field: field.clone() });
            }
        }
    }
    fields
}

/// The state assertion to keep among those that kill a mutant: an inspector (the class's own word for
/// its state), then a field of the last call's receiver, then any field after the last call, then any
/// field. The candidates are public ([`candidates`], [`public_fields`]).
pub(super) fn best(test: &TestCase, checks: Vec<Check>) -> Check {
    let last = test.statements.len().saturating_sub(1);
    let receiver = inspected_variable(test);
    let rank = |check: &Check| match check {
        Check::Inspector(_) => 0,
        Check::Field(f) if f.at == last && Some(f.variable) == receiver => 1,
        Check::Field(f) if f.at == last => 2,
        Check::Field(_) => 3,
    };
    checks.into_iter().min_by_key(rank).expect("a kill by state assertions names one")
}

/// Of the inspectors `offered` after the call `result` describes, the one whose answer says the most
/// (the longest description: a collection's items before its size or its first item), the first of
/// those that say as much; `None` when none answered. What a test whose state assertions
/// nothing chose asserts (see [`super::Analysis::undecided`]): the limit left mutants it covers unjudged,
/// and asserting nothing leaves every change of state that its call made unseen (denque's `removeOne`
/// returns the item it removed, and its fields are private).
pub(super) fn telling_inspector(result: &DescribedResult, offered: &[String]) -> Option<String> {
    let mut best: Option<(usize, &String)> = None;
    for name in offered {
        let Some(value) = result.answer(name) else { continue };
        let says = value.to_json().to_string().len();
        if best.is_none_or(|(most, _)| says > most) {
            best = Some((says, name));
        }
    }
    best.map(|(_, name)| name.clone())
}

/// Writes what the analysis chose into the elected tests of the `suite` (which `analysis` ran, in
/// order): each test as extended, its kept state assertions, and its results and the statements of
/// its method's goal (in `methods`) it covers, from a run of exactly what is exported, on `subject`'s
/// code under `limits`. A test that keeps none asserts, after its last call, the fields that call
/// changed when what it returned says little by itself.
pub(crate) fn keep(
    subject: &Subject,
    limits: &Limits,
    methods: &[MethodState],
    suite: &mut [ElectedTest],
    analysis: &Analysis,
) -> Result<()> {
    let mut originals = Originals::new(subject, limits)?;
    for (index, test) in analysis.tests.iter().enumerate() {
        let kept = &analysis.kept[index];
        let offered = test.checks.as_ref().map_or(&[][..], |c| &c.inspect[..]);
        let mut checks = StateChecks {
            fields: kept.iter().filter_map(|c| if let Check::Field(f) = c { Some(f.clone()) } else { None }).collect(),
            inspect: offered.iter().filter(|n| kept.contains(&Check::Inspector((*n).clone()))).cloned().collect(),
        };
        checks.fields.sort();
        // An undecided test is run with every inspector offered, for the answers to choose from.
        let undecided = kept.is_empty() && analysis.undecided.get(index) == Some(&true) && !offered.is_empty();
        if undecided {
            checks.inspect = offered.to_vec();
        }
        let mut chosen = SuiteTest { checks: Some(checks), ..test.clone() };
        let mut baseline = originals.baseline(subject, &chosen)?;
        if kept.is_empty() {
            let last = chosen.test.statements.len().saturating_sub(1);
            let result = baseline.elected.results.iter().find(|r| r.at == last);
            let program = subject.program();
            let fields: Vec<FieldCheck> = result.map_or_else(Vec::new, |r| {
                default_field_checks(r, |variable, field| private_field(program, &chosen.test, variable, field))
                    .into_iter()
                    .map(|(variable, field)| FieldCheck { at: last, variable, field })
                    .collect()
            });
            // Calls that changed the receiver, where no public field it changed is asserted, leave that
            // change unseen: an undecided test asserts it through the class's own word for its state.
            let receiver = inspected_variable(&chosen.test);
            let changed = baseline.elected.results.iter().any(|r| r.changed.iter().any(|(v, _)| Some(*v) == receiver));
            let inspect = match result {
                Some(r) if undecided && fields.is_empty() && changed => {
                    telling_inspector(r, offered).into_iter().collect()
                }
                _ => Vec::new(),
            };
            chosen.checks = Some(StateChecks { fields, inspect });
            if undecided {
                // Described again from a run with exactly the inspection exported.
                baseline = originals.baseline(subject, &chosen)?;
            }
            baseline.elected.checks = chosen.checks.clone();
        }
        let Some(elected) = suite.get_mut(index) else { continue };
        if !is_regression(&baseline.elected.outcome, chosen.test.statements.len().saturating_sub(1)) {
            // Not what it did when analysed (a limit on a loaded machine): left as it was.
            continue;
        }
        let generated = elected.test.statements.len();
        elected.extended_at = (chosen.test.statements.len() > generated).then_some(generated);
        // A test made longer or given its values back covers more: the manifest counts what the
        // suite as written covers, which an update of unchanged code finds again.
        if let Some(m) = methods.iter().find(|m| m.class == chosen.test.class && m.method == chosen.test.method) {
            let watch = m.watch();
            elected.covers = baseline.covers.iter().filter_map(|s| watch.statement_offset(*s)).collect();
            elected.covers.sort_unstable();
        }
        elected.test = chosen.test;
        elected.results = baseline.elected.results;
        elected.outcome = baseline.elected.outcome;
        elected.own_message = chosen.own_message;
        elected.checks = chosen.checks;
        elected.minimized = true;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::observed::{Observed, VariableState};
    use crate::model::test::Variable;
    use std::collections::BTreeMap;

    #[test]
    fn an_inspector_is_kept_before_a_field_and_the_receiver_before_another_variable() {
        let call = |receiver: usize| Statement::call(receiver, "m", Vec::new(), true);
        let test = TestCase {
            class: 0,
            method: "m".into(),
            variables: vec![Variable { class: 0, name: "a".into() }, Variable { class: 0, name: "b".into() }],
            statements: vec![call(0), call(0)],
        };
        let field = |at: usize, variable: usize| Check::Field(FieldCheck { at, variable, field: "x".into() });
        assert_eq!(best(&test, vec![field(0, 0), field(1, 1), field(1, 0)]), field(1, 0));
        assert_eq!(best(&test, vec![field(1, 0), Check::Inspector("size".into())]), Check::Inspector("size".into()));
        assert_eq!(best(&test, vec![field(0, 1), field(1, 1)]), field(1, 1));
    }

    #[test]
    fn every_field_of_every_variable_after_every_call_is_a_candidate() {
        let fields: BTreeMap<String, Observed> =
            [("x".to_string(), Observed::Null), ("y".to_string(), Observed::Undefined)].into();
        let state = VariableState { variable: 1, description: Observed::Object { fields, cut: false, bare: false } };
        let result = DescribedResult { state: vec![state], ..DescribedResult::bare(3, Observed::Undefined) };
        let names: Vec<(usize, usize, String)> =
            all_fields(&[result]).into_iter().map(|f| (f.at, f.variable, f.field)).collect();
        assert_eq!(names, vec![(3, 1, "x".to_string()), (3, 1, "y".to_string())]);
    }

    #[test]
    fn private_fields_are_no_candidates() {
        let fields: BTreeMap<String, Observed> =
            [("x".to_string(), Observed::Null), ("_y".to_string(), Observed::Undefined)].into();
        let state = VariableState { variable: 0, description: Observed::Object { fields, cut: false, bare: false } };
        let result = DescribedResult { state: vec![state], ..DescribedResult::bare(0, Observed::Undefined) };
        let test = TestCase {
            class: 0,
            method: "m".into(),
            variables: vec![Variable { class: 0, name: "a".into() }],
            statements: Vec::new(),
        };
        let results = [result];
        let names: Vec<String> =
            public_fields(&ProgramInfo::default(), &test, &results).into_iter().map(|f| f.field).collect();
        assert_eq!(names, vec!["x".to_string()]);
        assert_eq!(all_fields(&results).len(), 2, "the equivalence check compares them all");
    }
}
