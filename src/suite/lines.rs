//! An elected test's statements and assertions, as the lines of an exported test.

use crate::export::{self, Declarations, Line};
use crate::js::literal;
use crate::model::observed::{DescribedResult, Observed, Outcome, Thrown};
use crate::model::program::ProgramInfo;
use crate::model::test::{Statement, TestCase};
use crate::suite::{ElectedTest, assertion, checks, stability};

/// The lines of an elected test as exported: statements and assertions.
pub(crate) fn test_lines(program: &ProgramInfo, elected: &ElectedTest) -> Vec<Line> {
    test_lines_in(program, elected, None)
}

/// The lines of an elected test in JavaScript, or, given what is declared, in TypeScript.
pub(crate) fn test_lines_in(
    program: &ProgramInfo,
    elected: &ElectedTest,
    typescript: Option<&Declarations>,
) -> Vec<Line> {
    let test = &elected.test;
    let mut lines = Vec::new();
    let mut result_names = ResultNames::for_results(&elected.results);
    let last = test.statements.len().saturating_sub(1);
    // Deferred calls of the method under test, whose results are asserted at the end.
    let mut deferred = Vec::new();
    for (index, statement) in test.statements.iter().enumerate().filter(|(i, _)| test.is_written(*i, program)) {
        let expression = match typescript {
            Some(declared) => export::typescript_expression(test, index, program, declared),
            None => test.expression(index, program),
        };
        match statement {
            Statement::Construct { .. } if index == last && thrown_at(elected) == Some(index) => {
                // A test that ends by constructing an instance its constructor refuses.
                lines.push(Line::Throws { code: format!("{expression};"), thrown: expected_error(program, elected) });
            }
            Statement::Construct { .. } | Statement::Rebuild { .. } => {
                lines.push(Line::Code(format!("{};", declaration(test, index, program, typescript))));
                // The construction under test is asserted by the state it left, as a call returning
                // nothing is.
                let described = elected.results.iter().find(|r| r.at == index);
                if let Some(result) = described.filter(|_| test.constructed_under_test(index).is_some()) {
                    lines.extend(state_lines_in(program, elected, result, index == last, typescript));
                }
            }
            Statement::Call { under_test, result: bound, deferred: is_deferred, .. } => {
                if index == last && thrown_at(elected) == Some(index) {
                    // A deferred call may throw or reject: awaited in an async function, either rejects.
                    let awaited = if *is_deferred { "await " } else { "" };
                    lines.push(Line::Throws {
                        code: format!("{awaited}{expression};"),
                        thrown: expected_error(program, elected),
                    });
                    continue;
                }
                let described = elected.results.iter().find(|r| r.at == index).filter(|_| *under_test);
                if let Some(result) = described.filter(|_| *is_deferred) {
                    lines.push(Line::Code(format!("{};", declaration(test, index, program, typescript))));
                    deferred.push((index, result));
                    continue;
                }
                if let Some(variable) = bound {
                    lines.push(Line::Code(format!("{};", declaration(test, index, program, typescript))));
                    if let Some(result) = described {
                        let state = state_lines_in(program, elected, result, index == last, typescript);
                        let name = &test.variables[*variable].name;
                        bound_lines(program, test, result, name, !state.is_empty(), &mut result_names, &mut lines);
                        lines.extend(state);
                    }
                    continue;
                }
                let Some(result) = described else {
                    lines.push(Line::Code(format!("{expression};")));
                    continue;
                };
                let state = state_lines_in(program, elected, result, index == last, typescript);
                // A typed result is read by parts through `any` (see `export::is_typed`).
                result_names.annotation = match typescript {
                    Some(declared) if export::is_typed(test, index, program, declared) => ": any",
                    _ => "",
                };
                primary_lines(program, test, result, &expression, !state.is_empty(), &mut result_names, &mut lines);
                lines.extend(state);
            }
        }
    }
    for (index, result) in deferred {
        deferred_lines(program, elected, (index, result), typescript, &mut result_names, &mut lines);
    }
    if typescript.is_some() {
        let texts: Vec<String> = lines.iter().map(export::statement).collect();
        let used_after = |at: usize, name: &str| texts[at + 1..].iter().any(|text| mentions(text, name));
        lines = lines.into_iter().enumerate().map(|(at, line)| unnarrowed(line, |name| used_after(at, name))).collect();
    }
    lines
}

/// Whether the JavaScript `text` names the identifier `name` (not as part of a longer one, nor as a
/// property after a dot).
fn mentions(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(|c| part(c) || c == '.') && !after.is_some_and(part)
    })
}

/// The assertions on deferred call `index` of the method under test, at the end of the test (see
/// [`Statement::Call`]): its promise asserted still pending, or awaited and its value asserted as a
/// call's result is; then the state of the variables at the end.
fn deferred_lines(
    program: &ProgramInfo,
    elected: &ElectedTest,
    (index, result): (usize, &DescribedResult),
    typescript: Option<&Declarations>,
    names: &mut ResultNames,
    lines: &mut Vec<Line>,
) {
    let test = &elected.test;
    let promise = test.deferred_name(index, program);
    let state = state_lines_in(program, elected, result, false, typescript);
    if result.value == Observed::Pending {
        lines.push(Line::StrictEqual { actual: pending_check(&promise), expected: literal::string("pending") });
    } else {
        names.annotation = if typescript.is_some() { ": any" } else { "" };
        primary_lines(program, test, result, &format!("await {promise}"), !state.is_empty(), names, lines);
    }
    lines.extend(state);
}

/// What tells under Node that `promise` is still pending, deterministically: a handler of the promise
/// runs among the jobs, all of which run before a timer of 0 ms fires; the sandbox found it pending once
/// no job and no timer was left.
fn pending_check(promise: &str) -> String {
    format!(
        "await Promise.race([{promise}.then(() => \"settled\", () => \"settled\"), new Promise((resolve) => setTimeout(resolve, 0, \"pending\"))])"
    )
}

/// An assertion as TypeScript should read it: node:assert's assertions narrow their subject, which the
/// lines after it may then not use as they do. `assert.ok(x instanceof C)` narrows `x`, an `any` read by
/// parts, to `C`, whose private and protected members the assertions that follow then may not read
/// (TS2341): its subject is cast to `any`, which TypeScript does not narrow. The class is cast too: an
/// export whose declared type is no constructor type (true-myth's `Result`, a namespace of functions
/// beside its class) may not stand on the right of `instanceof` (TS2359). The assertion is `<actual>
/// instanceof <alias>` (see `assertion::describe_into`), the alias an identifier. And
/// `assert.deepStrictEqual(f, [])` narrows `f` to `never[]`, which a later `f("a")` may not call
/// (TS2349): a variable asserted equal that a later line uses (`used_after`) is cast to `any` too.
fn unnarrowed(line: Line, used_after: impl Fn(&str) -> bool) -> Line {
    let cast = |actual: String| {
        if literal::is_identifier_name(&actual) && used_after(&actual) { format!("{actual} as any") } else { actual }
    };
    match line {
        Line::Ok { expression, message } => match expression.rsplit_once(" instanceof ") {
            Some((subject, class)) => {
                Line::Ok { expression: format!("({subject} as any) instanceof ({class} as any)"), message }
            }
            None => Line::Ok { expression, message },
        },
        Line::StrictEqual { actual, expected } => Line::StrictEqual { actual: cast(actual), expected },
        Line::DeepStrictEqual { actual, expected } => Line::DeepStrictEqual { actual: cast(actual), expected },
        Line::Close { actual, expected } => Line::Close { actual: cast(actual), expected },
        other => other,
    }
}

/// `const v = ...` for a construction, the call otherwise, in JavaScript or TypeScript.
pub(crate) fn declaration(
    test: &TestCase,
    index: usize,
    program: &ProgramInfo,
    typescript: Option<&Declarations>,
) -> String {
    match typescript {
        Some(declared) => export::typescript_declaration(test, index, program, declared),
        None => test.declaration(index, program, "const"),
    }
}

/// The statement the test throws at, if it throws.
fn thrown_at(elected: &ElectedTest) -> Option<usize> {
    match &elected.outcome {
        Outcome::Threw { at, .. } => Some(*at),
        _ => None,
    }
}

/// What a test that throws expects: the error's name (and its message, when the code under test wrote
/// it: messages of errors the engine makes, like reading a property of undefined, differ between
/// engines), or the value thrown.
fn expected_error(program: &ProgramInfo, elected: &ElectedTest) -> export::Expected {
    match &elected.outcome {
        Outcome::Threw { thrown: Thrown::Error { name, message, .. }, .. } => {
            let own = elected.own_message.then_some(message.as_str());
            match own.and_then(assertion::stable_prefix) {
                Some(before) => export::Expected::Described {
                    checks: vec![
                        Line::StrictEqual { actual: "Object(thrown).name".into(), expected: literal::string(name) },
                        Line::Ok {
                            expression: format!(
                                "String(Object(thrown).message).startsWith({})",
                                literal::string(before)
                            ),
                            message: "the message up to what engines and runners print their own way".into(),
                        },
                    ],
                },
                None => export::Expected::Error { name: name.clone(), message: own.map(str::to_string) },
            }
        }
        Outcome::Threw { thrown: Thrown::Value(description), .. } => match assertion::literal_of(description) {
            Some(literal) => export::Expected::Value { literal },
            None => {
                // An error whose `name` is no string is such a value (`error.name = params.name`), and so
                // is a string holding a stack trace (read through `String`, which TypeScript takes of `unknown`).
                let mut checks = Vec::new();
                let against = assertion::Against { test: &elected.test, program, inexact: false };
                let actual =
                    if matches!(description, Observed::String { .. }) { "String(thrown)" } else { "Object(thrown)" };
                assertion::assert_described(description, actual, against, &mut checks);
                export::Expected::Described { checks }
            }
        },
        _ => unreachable!("only a test that throws expects an error"),
    }
}

/// The state assertions after the call `result` describes: its fields checked, then, after the test's
/// last call, its inspectors.
pub(crate) fn state_lines(
    program: &ProgramInfo,
    elected: &ElectedTest,
    result: &DescribedResult,
    last: bool,
) -> Vec<Line> {
    state_lines_in(program, elected, result, last, None)
}

/// [`state_lines`] in JavaScript, or, given what is declared, in TypeScript: the state of a typed instance
/// is read through `any` (see `export::state_reader`).
fn state_lines_in(
    program: &ProgramInfo,
    elected: &ElectedTest,
    result: &DescribedResult,
    last: bool,
    typescript: Option<&Declarations>,
) -> Vec<Line> {
    let test = &elected.test;
    let reader = |variable: usize| match typescript {
        Some(declared) => export::state_reader(test, variable, declared),
        None => test.variables[variable].name.clone(),
    };
    let mut lines = Vec::new();
    for (variable, field) in elected.field_checks(program, result) {
        lines.extend(checks::field_lines_on(program, test, result, variable, &field, &reader(variable)));
    }
    if last && let Some(receiver) = checks::inspected_variable(test) {
        let object = reader(receiver);
        for name in elected.inspectors() {
            lines.extend(checks::inspection_lines_on(program, test, result, name, &object));
        }
    }
    lines
}

/// The names an exported test gives to what its calls returned: `result`, `result2`... for a value
/// asserted member by member, and for a result that a later [`Observed::Offset`] is measured from.
#[derive(Debug, Clone, Default)]
pub(crate) struct ResultNames {
    given: Vec<(usize, String)>,
    /// The statements whose result a later offset is measured from.
    referenced: Vec<usize>,
    /// What follows the name where the next result is declared: `: any` for a typed result in TypeScript,
    /// which the test reads by parts whatever its declared type says.
    annotation: &'static str,
}

impl ResultNames {
    /// The names for a test whose calls of the method under test returned `results`.
    pub(crate) fn for_results(results: &[DescribedResult]) -> ResultNames {
        let referenced = stability::offsets(results).into_iter().map(|(_, from)| from).collect();
        ResultNames { given: Vec::new(), referenced, annotation: "" }
    }

    /// Names the result of statement `at`: the next name no variable of `test` has.
    fn give(&mut self, at: usize, test: &TestCase) -> String {
        let mut count = self.given.len();
        let name = loop {
            count += 1;
            let name = if count == 1 { "result".to_string() } else { format!("result{count}") };
            if !test.variables.iter().any(|v| v.name == name) && !self.given.iter().any(|(_, given)| *given == name) {
                break name;
            }
        };
        self.given.push((at, name.clone()));
        name
    }

    fn of(&self, at: usize) -> Option<&str> {
        self.given.iter().find(|(given, _)| *given == at).map(|(_, name)| name.as_str())
    }
}

/// The assertion on what a call returned into variable `name` (its result bound, see
/// [`Statement::Call`]), into `lines`: the variable is asserted as the call's result would be, and is
/// itself the name an offset is measured through.
fn bound_lines(
    program: &ProgramInfo,
    test: &TestCase,
    result: &DescribedResult,
    name: &str,
    stated: bool,
    names: &mut ResultNames,
    lines: &mut Vec<Line>,
) {
    if names.referenced.contains(&result.at) || matches!(result.value, Observed::Offset { .. }) {
        primary_lines(program, test, result, name, stated, names, lines);
        return;
    }
    if stated && assertion::literal_of(&result.value).as_deref() == Some("undefined") {
        return;
    }
    let against = assertion::Against { test, program, inexact: result.inexact };
    assertion::assert_described(&result.value, name, against, lines);
}

/// The assertion on what a call returned, into `lines`. `undefined` is asserted only when no state
/// assertion follows (`stated`): a test without any assertion would pass whatever the code did.
pub(crate) fn primary_lines(
    program: &ProgramInfo,
    test: &TestCase,
    result: &DescribedResult,
    expression: &str,
    stated: bool,
    names: &mut ResultNames,
    lines: &mut Vec<Line>,
) {
    let against = assertion::Against { test, program, inexact: result.inexact };
    let referenced = names.referenced.contains(&result.at);
    let offset = match result.value {
        Observed::Offset { from, by } => names.of(from).map(|earlier| (earlier.to_string(), by)),
        _ => None,
    };
    if let Some((earlier, by)) = offset {
        let actual = if referenced {
            let name = names.give(result.at, test);
            lines.push(Line::Code(format!("const {name}{} = {expression};", names.annotation)));
            name
        } else if expression.contains('=') {
            // A setter's expression is an assignment, which the subtraction must not take apart.
            format!("({expression})")
        } else {
            expression.to_string()
        };
        let step = Observed::Number { text: by.to_string() };
        assertion::assert_described(&step, &format!("{actual} - {earlier}"), against, lines);
    } else if !referenced && assertion::literal_of(&result.value).as_deref() == Some("undefined") && stated {
        lines.push(Line::Code(format!("{expression};")));
    } else if !referenced
        && (assertion::asserted_whole(&result.value, result.inexact)
            || matches!(result.value, Observed::Variable { .. }))
    {
        assertion::assert_described(&result.value, expression, against, lines);
    } else {
        let name = names.give(result.at, test);
        let mut asserted = Vec::new();
        assertion::assert_described(&result.value, &name, against, &mut asserted);
        if asserted.is_empty() && !referenced {
            // Nothing stable to assert (an iterator, a cycle): no unused variable either.
            names.given.pop();
            lines.push(Line::Code(format!("{expression};")));
        } else {
            lines.push(Line::Code(format!("const {name}{} = {expression};", names.annotation)));
            lines.extend(asserted);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_asserted_equal_that_a_later_line_uses_is_not_narrowed() {
        // true-myth@9.4.0: `assert.deepStrictEqual(op, [])` narrowed `op` to `never[]`, and tsc refused the
        // `op("a")` after it (TS2349).
        let deep = |actual: &str| Line::DeepStrictEqual { actual: actual.into(), expected: "[]".into() };
        let later = Line::Code("op(\"a\");".into());
        assert_eq!(unnarrowed(deep("op"), |name| mentions(&export::statement(&later), name)), deep("op as any"));
        assert_eq!(unnarrowed(deep("op"), |_| false), deep("op"), "not used after: as it was");
        assert_eq!(unnarrowed(deep("op.size"), |_| true), deep("op.size"), "a property read is no variable");
        assert!(mentions("f(op, 1)", "op") && mentions("op()", "op"));
        assert!(!mentions("stop(x.op, opal)", "op"));
    }
}
