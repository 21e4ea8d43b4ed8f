//! An elected test's statements and assertions, as the lines of an exported test.

use crate::export::{self, Line};
use crate::model::observed::{Outcome, Thrown};
use crate::model::program::ProgramInfo;
use crate::model::test::Statement;
use crate::suite::{ElectedTest, assertion};

/// The lines of an elected test as exported: statements and assertions.
pub fn test_lines(program: &ProgramInfo, elected: &ElectedTest) -> Vec<Line> {
    let test = &elected.test;
    let mut lines = Vec::new();
    let mut result_names = 0;
    let last = test.statements.len().saturating_sub(1);
    let against = |inexact: bool| assertion::Against { test, program, inexact };
    for (index, statement) in test.statements.iter().enumerate() {
        let expression = test.expression(index, program);
        match statement {
            Statement::Construct { .. } | Statement::Rebuild { .. } => {
                lines.push(Line::Code(format!("{};", test.declaration(index, program, "const"))))
            }
            Statement::Call { under_test, .. } => {
                if index == last
                    && let Outcome::Threw { at, thrown } = &elected.outcome
                    && *at == index
                {
                    let thrown = match thrown {
                        // Messages of errors the engine makes (not reading a property of undefined, say)
                        // differ between engines: only the name of those is asserted.
                        Thrown::Error { name, message, .. } => export::Expected::Error {
                            name: name.clone(),
                            message: elected.own_message.then(|| message.clone()),
                        },
                        Thrown::Value(description) => export::Expected::Value {
                            literal: assertion::literal_of(description).unwrap_or_else(|| "undefined".into()),
                        },
                    };
                    lines.push(Line::Throws { code: format!("{expression};"), thrown });
                    continue;
                }
                let result = elected.results.iter().find(|r| r.at == index).filter(|_| *under_test);
                match result {
                    None => lines.push(Line::Code(format!("{expression};"))),
                    Some(r) if r.state.is_some() => {
                        let state = r.state.as_ref().expect("matched on state");
                        let mut fields = Vec::new();
                        if let Some(variable) = test.variables.get(state.variable) {
                            assertion::assert_fields(
                                &state.description,
                                &variable.name,
                                against(r.inexact),
                                &mut fields,
                            );
                        }
                        // `undefined` is asserted only when the object's state says nothing: a test
                        // without any assertion would pass whatever the code did.
                        if assertion::literal_of(&r.value).as_deref() == Some("undefined") && !fields.is_empty() {
                            lines.push(Line::Code(format!("{expression};")));
                        } else {
                            assertion::assert_described(&r.value, &expression, against(r.inexact), &mut lines);
                        }
                        lines.extend(fields);
                    }
                    Some(r) if assertion::asserted_whole(&r.value, r.inexact) => {
                        assertion::assert_described(&r.value, &expression, against(r.inexact), &mut lines);
                    }
                    Some(r) => {
                        let name = loop {
                            result_names += 1;
                            let name =
                                if result_names == 1 { "result".to_string() } else { format!("result{result_names}") };
                            if !test.variables.iter().any(|v| v.name == name) {
                                break name;
                            }
                        };
                        let mut asserted = Vec::new();
                        assertion::assert_described(&r.value, &name, against(r.inexact), &mut asserted);
                        if asserted.is_empty() {
                            // Nothing stable to assert (an iterator, a cycle): no unused variable either.
                            result_names -= 1;
                            lines.push(Line::Code(format!("{expression};")));
                        } else {
                            lines.push(Line::Code(format!("const {name} = {expression};")));
                            lines.extend(asserted);
                        }
                    }
                }
            }
        }
    }
    lines
}
