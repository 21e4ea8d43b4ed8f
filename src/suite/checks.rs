//! State assertions: what a call of the method under test left behind, beside what it returned.
//!
//! The harness describes, after every call of the method under test, the own fields of every variable of
//! the test and which of them the call changed (`DescribedResult::state`, `changed`), and, when asked
//! (an inspection after the test's last call), the answers of the class's inspectors: argument-less
//! methods and getters that read state without changing it (`size()`, `isEmpty()`, `toArray()`,
//! `length`). A test asserts only a few of these, so that it stays readable: by default the fields that
//! a call returning nothing (or a variable, often `this`) changed; once mutation analysis has chosen
//! ([`StateChecks`]), the fields and inspectors that tell a mutant apart.

use crate::export::Line;
use crate::js::literal;
use crate::model::observed::{DescribedResult, Observed};
use crate::model::program::{ProgramInfo, private_member};
use crate::model::test::TestCase;
use crate::suite::{ElectedTest, assertion};

/// Most lines one state assertion writes (a field holding an object is asserted by its parts).
const LINES_PER_CHECK: usize = 4;

/// The state assertions chosen for a test.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StateChecks {
    /// Fields asserted after calls of the method under test.
    pub fields: Vec<FieldCheck>,
    /// Inspectors of the last call's receiver, called (or read) after it and asserted, in order.
    pub inspect: Vec<String>,
}

/// A field of a variable, asserted after a call.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FieldCheck {
    /// The statement (a call of the method under test) after which it is asserted.
    pub at: usize,
    /// The variable.
    pub variable: usize,
    /// The field.
    pub field: String,
}

impl ElectedTest {
    /// The fields asserted after the call that `result` describes: the chosen ones, or by default those
    /// the call changed when what it returned says little by itself (`undefined`, or a variable of the
    /// test such as `this`).
    pub(crate) fn field_checks(&self, program: &ProgramInfo, result: &DescribedResult) -> Vec<(usize, String)> {
        match &self.checks {
            Some(checks) => {
                checks.fields.iter().filter(|c| c.at == result.at).map(|c| (c.variable, c.field.clone())).collect()
            }
            None => default_field_checks(result, |variable, field| private_field(program, &self.test, variable, field)),
        }
    }

    /// The inspectors asserted after the test's last call.
    pub(crate) fn inspectors(&self) -> &[String] {
        self.checks.as_ref().map_or(&[], |c| &c.inspect)
    }

    /// The test as the sandbox runs it: with its inspection after the last call.
    pub(crate) fn json(&self, program: &ProgramInfo) -> String {
        run_json(&self.test, self.inspectors(), program)
    }
}

/// The fields asserted after a call when no choice was made: the public ones it changed when what it
/// returned says little by itself (`undefined`, or a variable of the test such as `this`). `private`
/// tells a variable's private field (`_size`, or one its class declares `private`): never asserted.
pub(crate) fn default_field_checks(
    result: &DescribedResult,
    private: impl Fn(usize, &str) -> bool,
) -> Vec<(usize, String)> {
    if matches!(result.value, Observed::Undefined | Observed::Variable { .. }) {
        result.changed.iter().filter(|(variable, field)| !private(*variable, field)).cloned().collect()
    } else {
        Vec::new()
    }
}

/// Whether `field` of the variable `variable` of `test` is private to its class.
pub(crate) fn private_field(program: &ProgramInfo, test: &TestCase, variable: usize, field: &str) -> bool {
    test.variables
        .get(variable)
        .and_then(|v| program.classes.get(v.class))
        .map_or(private_member(field), |c| c.is_private(field))
}

/// What [`asserted_by_default`] gives for one call: where it is, what it returned, and each field asserted
/// (variable, name, value).
pub(crate) type DefaultAssertions<'a> = (usize, &'a Observed, Vec<(usize, String, Option<&'a Observed>)>);

/// What a test whose state assertions were not chosen asserts of its calls' `results`: where each call
/// is, what it returned and the fields asserted by default with their values. Two runs whose answers are
/// equal pass the same assertions, whatever else of the state differs.
pub(crate) fn asserted_by_default(results: &[DescribedResult]) -> Vec<DefaultAssertions<'_>> {
    let mut asserted = Vec::new();
    for result in results {
        let mut fields = Vec::new();
        // A recording's shrinking compares these: the convention is enough there.
        for (variable, field) in default_field_checks(result, |_, field| private_member(field)) {
            let value = result.field(variable, &field);
            fields.push((variable, field, value));
        }
        asserted.push((result.at, &result.value, fields));
    }
    asserted
}

/// `test` in the harness's format, followed by an inspection of the last call's receiver by `inspect`
/// (nothing when the test does not end with a call).
pub(crate) fn run_json(test: &TestCase, inspect: &[String], program: &ProgramInfo) -> String {
    let mut json = test.to_json(program);
    if let (false, Some(receiver)) = (inspect.is_empty(), inspected_variable(test)) {
        let names = serde_json::to_string(inspect).expect("strings serialise");
        json.pop();
        json.push_str(&format!(",[3,{receiver},{names}]]"));
    }
    json
}

/// The receiver of the test's last method call, whose inspectors are asserted; for a test that ends by
/// the construction under test, the instance it built.
pub(crate) fn inspected_variable(test: &TestCase) -> Option<usize> {
    test.asserted_instance()
}

/// The assertion lines of field `field` of `variable` after the call `result` describes (none when the
/// variable was not described).
pub(crate) fn field_lines(
    program: &ProgramInfo,
    test: &TestCase,
    result: &DescribedResult,
    variable: usize,
    field: &str,
) -> Vec<Line> {
    let Some(owner) = test.variables.get(variable) else { return Vec::new() };
    field_lines_on(program, test, result, variable, field, &owner.name)
}

/// [`field_lines`], the variable read as `object` (an expression of it, e.g. a TypeScript cast).
pub(crate) fn field_lines_on(
    program: &ProgramInfo,
    test: &TestCase,
    result: &DescribedResult,
    variable: usize,
    field: &str,
    object: &str,
) -> Vec<Line> {
    let Some(value) = result.field(variable, field) else { return Vec::new() };
    state_lines(program, test, result.inexact, value, &member(object, field))
}

/// The assertion lines of inspector `name`'s answer after the call `result` describes (none when it gave
/// none).
pub(crate) fn inspection_lines(
    program: &ProgramInfo,
    test: &TestCase,
    result: &DescribedResult,
    name: &str,
) -> Vec<Line> {
    let Some(receiver) = inspected_variable(test) else { return Vec::new() };
    inspection_lines_on(program, test, result, name, &test.variables[receiver].name)
}

/// [`inspection_lines`], the inspected receiver read as `object` (an expression of it, e.g. a TypeScript
/// cast).
pub(crate) fn inspection_lines_on(
    program: &ProgramInfo,
    test: &TestCase,
    result: &DescribedResult,
    name: &str,
    object: &str,
) -> Vec<Line> {
    let Some(inspected) = result.inspected.iter().find(|i| i.name == name) else { return Vec::new() };
    let Some(value) = result.answer(name) else { return Vec::new() };
    let property = name.strip_prefix('@').unwrap_or(name);
    let read = member(object, property);
    if inspected.getter {
        return state_lines(program, test, inspected.inexact, value, &read);
    }
    let call = format!("{read}()");
    let lines = state_lines(program, test, inspected.inexact, value, &call);
    if lines.len() < 2 {
        return lines;
    }
    // An answer asserted by its parts is taken once, as the exported test would read it.
    let mut stem = String::from(if literal::is_identifier_name(property) { property } else { "answer" });
    stem.push_str("Result");
    let mut local = stem.clone();
    for n in 2.. {
        if !test.variables.iter().any(|v| v.name == local) {
            break;
        }
        local = format!("{stem}{n}");
    }
    let mut lines = vec![Line::Code(format!("const {local} = {call};"))];
    lines.extend(state_lines(program, test, inspected.inexact, value, &local));
    lines
}

/// The lines asserting `value`, read as `expression`; `inexact` when the test had used an operation
/// engines round differently by the time it was described.
fn state_lines(program: &ProgramInfo, test: &TestCase, inexact: bool, value: &Observed, expression: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let against = assertion::Against { test, program, inexact };
    assertion::assert_described(value, expression, against, &mut lines);
    lines.truncate(LINES_PER_CHECK);
    lines
}

fn member(object: &str, name: &str) -> String {
    if literal::is_identifier_name(name) {
        format!("{object}.{name}")
    } else {
        format!("{object}[{}]", literal::string(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::observed::Outcome;
    use crate::model::test::{Statement, Variable};
    use serde_json::json;

    fn elected(results: serde_json::Value) -> ElectedTest {
        ElectedTest {
            test: TestCase {
                class: 0,
                method: "pop".into(),
                variables: vec![Variable { class: 0, name: "stack".into() }],
                statements: vec![
                    Statement::Construct { variable: 0, class: 0, args: Vec::new() },
                    Statement::call(0, "pop", Vec::new(), true),
                ],
            },
            results: serde_json::from_value(results).unwrap(),
            outcome: Outcome::Passed,
            new_lines: Vec::new(),
            own_message: false,
            seed: 1,
            covers: Vec::new(),
            branches: Vec::new(),
            minimized: true,
            checks: None,
            extended_at: None,
            simplified: None,
        }
    }

    #[test]
    fn by_default_the_fields_a_call_returning_nothing_changed_are_asserted() {
        let state =
            json!([{"i": 0, "d": {"t": "obj", "fields": {"size": {"t": "n", "v": "0"}, "top": {"t": "null"}}}}]);
        let returned_nothing =
            elected(json!([{"at": 1, "value": {"t": "u"}, "state": state, "changed": [[0, "size"], [0, "_count"]]}]));
        let result = &returned_nothing.results[0];
        // A private field it changed is not asserted by default.
        assert_eq!(returned_nothing.field_checks(&ProgramInfo::default(), result), vec![(0, "size".to_string())]);
        let lines = field_lines(&ProgramInfo::default(), &returned_nothing.test, result, 0, "size");
        assert_eq!(lines, vec![Line::StrictEqual { actual: "stack.size".into(), expected: "0".into() }]);
        // A field the variable no longer has reads as undefined.
        let gone = field_lines(&ProgramInfo::default(), &returned_nothing.test, result, 0, "gone");
        assert_eq!(gone, vec![Line::StrictEqual { actual: "stack.gone".into(), expected: "undefined".into() }]);
        // A call that returned a value is asserted by it alone, unless checks were chosen.
        let returned =
            elected(json!([{"at": 1, "value": {"t": "n", "v": "3"}, "state": state, "changed": [[0, "size"]]}]));
        assert!(returned.field_checks(&ProgramInfo::default(), &returned.results[0]).is_empty());
    }

    #[test]
    fn inspections_follow_the_last_call_and_name_getters_as_reads() {
        let mut test = elected(json!([{"at": 1, "value": {"t": "n", "v": "3"},
            "inspected": [{"n": "isEmpty", "g": false, "v": {"t": "b", "v": true}}, {"n": "length", "g": true, "v": {"t": "n", "v": "0"}},
                          {"n": "peek"}, {"n": "drain", "v": {"t": "n", "v": "1"}, "impure": true}]}]));
        test.checks = Some(StateChecks { fields: Vec::new(), inspect: vec!["isEmpty".into(), "length".into()] });
        assert_eq!(test.json(&ProgramInfo::default()).rsplit_once("],").unwrap().1, "[3,0,[\"isEmpty\",\"length\"]]]");
        let result = &test.results[0];
        let lines = |name: &str| inspection_lines(&ProgramInfo::default(), &test.test, result, name);
        assert_eq!(
            lines("isEmpty"),
            vec![Line::StrictEqual { actual: "stack.isEmpty()".into(), expected: "true".into() }]
        );
        assert_eq!(lines("length"), vec![Line::StrictEqual { actual: "stack.length".into(), expected: "0".into() }]);
        assert!(lines("peek").is_empty() && lines("drain").is_empty(), "no answer, or an impure one");
    }

    #[test]
    fn an_answer_after_an_operation_engines_round_differently_is_compared_within_a_tolerance() {
        // The call's own result was described before the inspectors ran: only `atanh`'s answer may differ
        // in its last bits under another engine.
        let mut test = elected(json!([{"at": 1, "value": {"t": "n", "v": "0.1"}, "inspected": [
            {"n": "norm", "v": {"t": "n", "v": "0.1"}},
            {"n": "atanh", "v": {"t": "n", "v": "0.5493061443340549"}, "inexact": true}]}]));
        test.checks = Some(StateChecks { fields: Vec::new(), inspect: vec!["norm".into(), "atanh".into()] });
        let result = &test.results[0];
        let lines = |name: &str| inspection_lines(&ProgramInfo::default(), &test.test, result, name);
        assert_eq!(lines("norm"), vec![Line::StrictEqual { actual: "stack.norm()".into(), expected: "0.1".into() }]);
        assert_eq!(
            lines("atanh"),
            vec![Line::Close { actual: "stack.atanh()".into(), expected: "0.5493061443340549".into() }]
        );
    }
}
