//! `generate --mutation`: observer calls appended as candidate assertions, and only the assertions
//! that kill a mutant kept.

use super::Analysis;
use crate::discovery::sandbox_expression;
use crate::error::Result;
use crate::model::observed::Outcome;
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{Statement, TestCase};
use crate::sandbox::{Sandbox, Watch};
use crate::session::Session;
use crate::suite::Suite;

/// Keeps, in every test that kills a mutant, only the assertions on calls that kill one, and drops the
/// observer calls (see [`add_observers`]) whose assertions were dropped. A test that kills none stays for
/// its coverage, as it was before observers were added; a test that passes always keeps an assertion.
/// `analysis` must come from an [`super::Options::exhaustive`] analysis of `suite`'s elected tests.
pub fn strengthen(suite: &mut Suite, analysis: &Analysis) {
    for (index, elected) in suite.elected.iter_mut().enumerate() {
        let test = &elected.test;
        // The method under test is the last call the generator made; observers come after it.
        let Some(last) =
            test.statements.iter().rposition(|s| matches!(s, Statement::Call { method, .. } if *method == test.method))
        else {
            continue;
        };
        let calls = &analysis.killing_calls[index];
        let own: Vec<_> = elected.results.iter().filter(|r| r.at <= last).cloned().collect();
        let killing: Vec<_> = elected.results.iter().filter(|r| calls.contains(&r.at)).cloned().collect();
        elected.results = if analysis.kills[index] == 0 {
            own
        } else if killing.is_empty() && elected.outcome == Outcome::Passed {
            // It kills by a limit alone: without an assertion it would pass whatever the code returned.
            own
        } else {
            killing
        };
        // Calls whose results are not asserted are not described either, so a rerun asserts the same.
        for (at, statement) in elected.test.statements.iter_mut().enumerate() {
            if let Statement::Call { under_test, .. } = statement {
                *under_test = elected.results.iter().any(|r| r.at == at);
            }
        }
        while elected.test.statements.len() > last + 1
            && !elected.results.iter().any(|r| r.at + 1 == elected.test.statements.len())
        {
            elected.test.statements.pop();
        }
    }
}

/// Methods of `class` that take no argument: calling one after the method under test shows state the
/// call left behind.
pub(super) fn observers(program: &ProgramInfo, class: ClassId) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for m in program.classes[class].methods.iter().filter(|m| m.params.is_empty() && m.alias_of.is_none()) {
        if !names.contains(&m.name) {
            names.push(m.name.clone());
        }
    }
    names
}

/// `test` with every observer of its receiver (other than its method under test) called at the end, their
/// results described; with `all`, the results of its other calls too.
pub(super) fn observed(program: &ProgramInfo, test: &TestCase, all: bool) -> TestCase {
    let mut observed = test.clone();
    let Some(receiver) = test.statements.iter().rev().find_map(|s| match s {
        Statement::Call { receiver, .. } => Some(*receiver),
        Statement::Construct { .. } | Statement::Rebuild { .. } => None,
    }) else {
        return observed;
    };
    if all {
        for statement in &mut observed.statements {
            if let Statement::Call { under_test, .. } = statement {
                *under_test = true;
            }
        }
    }
    for method in observers(program, test.variables[receiver].class).into_iter().filter(|m| *m != test.method) {
        observed.statements.push(Statement::Call { receiver, method, args: Vec::new(), under_test: true });
    }
    observed
}

/// Appends to every elected test that passes the observer calls (the class's argument-less methods) that still pass on
/// the original code, with their results described: candidate assertions for [`strengthen`] to keep
/// where they kill a mutant. Tests that throw are left alone.
pub fn add_observers(session: &mut Session) -> Result<()> {
    let expressions: Vec<String> = session.program.classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let mut sandbox = Sandbox::new(&session.code, session.settings().limits.clone())?;
    sandbox.bind_classes(&expressions)?;
    for elected in session.suite.elected.iter_mut().filter(|e| e.outcome == Outcome::Passed) {
        let full = observed(&session.program, &elected.test, false);
        let mut test = elected.test.clone();
        let mut kept = None;
        // One at a time: an observer that throws (`pop` on an empty stack) is left out, not the others.
        for statement in full.statements[test.statements.len()..].iter() {
            let mut longer = test.clone();
            longer.statements.push(statement.clone());
            let run = sandbox.run_isolated(&longer.to_json(&session.program), elected.seed, &Watch::default(), true)?;
            if run.outcome == Outcome::Passed {
                test = longer;
                kept = Some(run);
            }
        }
        if let Some(run) = kept {
            elected.test = test;
            elected.results = run.results;
        }
    }
    Ok(())
}
