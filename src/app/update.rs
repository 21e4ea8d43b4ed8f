//! `generate --update`: bring the suite already in the out folder up to date with the code, rather than
//! write it anew (see [`crate::suite::kept`]).
//!
//! Once the session is open and before it steps, every test of the folder's manifests runs on the
//! current code. A test whose assertions all still hold is kept, to be written again byte for byte; the
//! statements it covers count as covered, so the loop elects only candidates that cover something the
//! kept tests leave. A test whose assertions no longer hold is a behaviour change: it is set aside, named
//! with the reason in the summary, the report and `<Class>.changed.log`, or, under `--accept-changes`,
//! rewritten to assert the new behaviour in its place. A method whose goal's code (its own and its
//! helpers') is as the suite was written and whose kept tests cover what its suite covered is not
//! generated again; the others are reopened, named with the reason, and what they elect is appended to
//! their group. The suite is then written as usual, except that a
//! class's files are written only where their text changes.

use super::generate::Export;
use crate::error::Result;
use crate::session::{Session, is_regression};
use crate::suite::checks::run_json;
use crate::suite::kept::{AsWritten, ChangedTest, KeptTest, Reopened, as_elected, change, differences, reopening};
use crate::suite::manifest::{ManifestTest, Previous, read_previous};
use crate::suite::written_lines;

/// How `generate --update` treats tests whose behaviour changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Update {
    /// Rewrite their assertions to the new behaviour (`--accept-changes`), rather than set them aside.
    pub accept_changes: bool,
}

/// Keeps in `session` what the suite in the out folder of `export` still holds, when `export` updates
/// it; nothing when the folder holds no manifest (the suite is then written anew). Only the classes
/// under test in `session` are brought up to date: the other manifests are another unit's.
pub(crate) fn keep_suite(session: &mut Session, export: &Export) -> Result<()> {
    let Some(update) = export.update else { return Ok(()) };
    let (previous, warnings) = read_previous(export.out, session.subject().program())?;
    for warning in warnings {
        session.warn(warning);
    }
    for suite in previous {
        if session.methods().iter().any(|m| m.class == suite.class) {
            keep_class(session, suite, update)?;
        }
    }
    Ok(())
}

/// Keeps the tests of one class's suite that still pass, notes those that changed, and stops the methods
/// that need no generating.
fn keep_class(session: &mut Session, suite: Previous, update: Update) -> Result<()> {
    let Previous { class, header, methods, tests, failing } = suite;
    let kept = session.kept_mut();
    kept.classes.push(class);
    if let Some(header) = header {
        kept.headers.push((class, header));
    }
    let mut groups: Vec<String> = Vec::new();
    for test in &tests {
        if !groups.contains(&test.test.method) {
            groups.push(test.test.method.clone());
        }
    }
    kept.groups.push((class, groups));
    for test in tests {
        keep_test(session, test, update)?;
    }
    let mut generated = Vec::new();
    for index in 0..session.methods().len() {
        let m = &session.methods()[index];
        if m.class != class {
            continue;
        }
        let mark = methods.iter().find(|(name, _)| *name == m.method).map(|(_, mark)| mark);
        let why = reopening(mark, session.source(index).as_ref(), m.covered_count());
        if let Some(why) = why {
            let method = m.method.clone();
            generated.push(method.clone());
            session.kept_mut().reopened.push(Reopened { class, method, why });
            session.close_kept(index, false);
        } else {
            session.close_kept(index, true);
        }
    }
    // The failures logged for a method generated again stay only if they still happen.
    for f in failing {
        let check = generated.contains(&f.test.method);
        session.keep_failing(f, check)?;
    }
    Ok(())
}

/// Runs one test of the suite on the current code: kept as written when its assertions still hold,
/// otherwise noted as changed, and rewritten under `--accept-changes` when it still ends as a regression
/// test does.
fn keep_test(session: &mut Session, test: ManifestTest, update: Update) -> Result<()> {
    let program = session.subject().program();
    let inspect = test.checks.as_ref().map_or(&[][..], |c| &c.inspect[..]);
    let json = run_json(&test.test, inspect, program);
    let run = session.run_written(&test.test, &json, test.seed)?;
    let mut elected = as_elected(&test.test, test.seed, test.own_message, test.checks.clone(), &run);
    elected.covers = run.statements;
    elected.branches = run.branches;
    test.instability.apply(&mut elected.results);
    let program = session.subject().program();
    let Some(reason) = change(program, &session.settings().limits, &elected, &test.asserts) else {
        let lines = test.lines.unwrap_or_else(|| written_lines(program, &elected));
        let mut entry = test.entry;
        entry["lines"] = serde_json::json!(lines);
        session.keep(KeptTest { elected, written: Some(AsWritten { title: test.title, lines, entry }) });
        return Ok(());
    };
    let (was, now) = differences(program, &elected, &test.asserts);
    let last = elected.test.statements.len().saturating_sub(1);
    let accepted = update.accept_changes && is_regression(&elected.outcome, last);
    let reason = if update.accept_changes && !accepted {
        format!("{reason}; not rewritten: it no longer ends as a regression test does")
    } else {
        reason
    };
    let changed = ChangedTest {
        class: elected.test.class,
        method: elected.test.method.clone(),
        title: test.title,
        reason,
        was,
        now,
        accepted,
    };
    session.kept_mut().changed.push(changed);
    if accepted {
        session.keep(KeptTest { elected, written: None });
    }
    Ok(())
}
