//! Bringing a written suite up to date (`generate --update`): the tests of its manifests that still pass
//! on the current code, written again byte for byte, and those whose behaviour changed, set aside with
//! the reason or, when the change was intended, rewritten to assert the new behaviour.
//!
//! A test still passes when the run of it on the current code makes every assertion its manifest says
//! it was written with ([`change`]): `flycatcher mutate --suite` reads a suite back by the same rule.
//! Which methods need generating again is told by what the manifest says of each method
//! ([`MethodMark`]): a method whose goal's code is as it was (its own and that of each helper its tests
//! reach it through, see `session/helpers.rs`) and whose kept tests cover as much as the written suite
//! did is not generated again, so an update of unchanged code writes nothing new, and an edit of a
//! helper reopens exactly the methods reaching it ([`reopening`]).

use serde_json::Value as Json;

use super::{ElectedTest, FailingTest, StateChecks};
use crate::model::observed::Outcome;
use crate::model::program::{ClassId, FunctionRef, ProgramInfo};
use crate::model::settings::Limits;
use crate::model::test::TestCase;
use crate::sandbox::{CodeBase, Execution};

/// How a test of an existing suite was written, written again as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct AsWritten {
    /// Its title, as its manifest has it.
    pub title: String,
    /// Its statements and assertions, as JavaScript (or TypeScript) statements.
    pub lines: Vec<String>,
    /// Its manifest entry.
    pub entry: Json,
}

/// A test of the suite being brought up to date, run again on the current code.
#[derive(Debug, Clone)]
pub struct KeptTest {
    /// The run on the current code, in elected form: what it covers, what it returns now.
    pub elected: ElectedTest,
    /// How it was written, when it still passes; `None` for a test whose assertions are rewritten to the
    /// current behaviour (`--accept-changes`).
    pub written: Option<AsWritten>,
}

/// A test of the suite whose assertions no longer hold on the current code.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedTest {
    /// Its class.
    pub class: ClassId,
    /// Its method under test.
    pub method: String,
    /// Its title.
    pub title: String,
    /// What changed, in words.
    pub reason: String,
    /// The assertions it was written with that no longer hold.
    pub was: Vec<String>,
    /// What the code gives now, as assertions, where it differs.
    pub now: Vec<String>,
    /// Whether its assertions were rewritten to the new behaviour (`--accept-changes`); otherwise it is
    /// left out of the suite.
    pub accepted: bool,
}

/// What the written suite says of a method: the fingerprints of its goal's code and how many of its
/// statements the suite's tests covered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodMark {
    /// [`fingerprint`] of the method's own source.
    pub source: u64,
    /// Those of its helpers, as [`Source::helpers`]; `None` in a manifest written before helpers were
    /// fingerprinted (version 4), which cannot tell whether they changed.
    pub helpers: Option<Vec<(String, u64)>>,
    /// Statements of the method its tests covered.
    pub covers: usize,
}

/// The code of a method's goal as fingerprints: what its manifest keeps and an update compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// [`fingerprint`] of its own source.
    pub own: u64,
    /// [`fingerprint`] of each helper its goal holds, with the name a report gives it, in name order: a
    /// helper's code is part of what the method's tests must cover.
    pub helpers: Vec<(String, u64)>,
}

impl Source {
    /// The fingerprints of `own` and of `helpers` (named) in `code`; `None` when the text of `own` cannot
    /// be found (a helper's that cannot be found is left out, as it is every time).
    pub(crate) fn of(code: &CodeBase, own: &FunctionRef, helpers: &[(String, FunctionRef)]) -> Option<Source> {
        let mut fingerprints: Vec<(String, u64)> =
            helpers.iter().filter_map(|(name, f)| Some((name.clone(), fingerprint(code, f)?))).collect();
        fingerprints.sort();
        Some(Source { own: fingerprint(code, own)?, helpers: fingerprints })
    }
}

/// Why an update generates a method again, in words, or `None` when it need not: its suite's mark of it
/// (`mark`; none for a method its manifest does not mention), its goal's code now (`now`; none when it cannot
/// be found), and the statements of its goal the kept tests cover now.
///
/// Helpers are compared by their code, not by name: a helper named by its line (an anonymous function)
/// keeps its fingerprint when code above it moves it.
pub(crate) fn reopening(mark: Option<&MethodMark>, now: Option<&Source>, covered: usize) -> Option<String> {
    let Some(mark) = mark else { return Some("its suite's manifest does not mention it".into()) };
    let Some(now) = now else { return Some("its code cannot be found".into()) };
    if mark.source != now.own {
        return Some("its code changed".into());
    }
    let quoted = |names: Vec<&str>| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    match &mark.helpers {
        None if !now.helpers.is_empty() => {
            let names = now.helpers.iter().map(|(n, _)| n.as_str()).collect();
            return Some(format!(
                "its suite's manifest predates fingerprints of helpers, so {} may have changed",
                quoted(names)
            ));
        }
        None => {}
        Some(was) => {
            let codes = |helpers: &[(String, u64)]| {
                let mut codes: Vec<u64> = helpers.iter().map(|(_, h)| *h).collect();
                codes.sort_unstable();
                codes
            };
            if codes(was) != codes(&now.helpers) {
                fn absent<'a>(from: &'a [(String, u64)], to: &[(String, u64)]) -> Vec<&'a str> {
                    from.iter().filter(|(_, f)| !to.iter().any(|(_, t)| t == f)).map(|(n, _)| n.as_str()).collect()
                }
                let (changed, gone) = (absent(&now.helpers, was), absent(was, &now.helpers));
                return Some(match (changed.len(), gone.len()) {
                    (1, _) => format!("its helper {} changed", quoted(changed)),
                    (0, 0) => "the helpers it reaches changed".into(),
                    (0, _) => format!("it no longer reaches {}", quoted(gone)),
                    _ => format!("its helpers {} changed", quoted(changed)),
                });
            }
        }
    }
    (covered < mark.covers)
        .then(|| format!("its kept tests cover {covered} of its statements, the suite covered {}", mark.covers))
}

/// A method an update generates again, rather than keeping its tests alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reopened {
    /// Its class.
    pub class: ClassId,
    /// Its name.
    pub method: String,
    /// Why, in words ([`reopening`]).
    pub why: String,
}

/// What an update keeps of the suite it brings up to date.
#[derive(Debug, Clone, Default)]
pub struct Kept {
    /// The classes whose suites are brought up to date: only files whose text changes are written.
    pub classes: Vec<ClassId>,
    /// The header of each class's suite as written, kept so that a suite's first lines do not change.
    pub headers: Vec<(ClassId, Vec<String>)>,
    /// The methods of each class's suite as written, in the order of their groups there: a group keeps
    /// its place when its first test is set aside, and a new group comes after them.
    pub groups: Vec<(ClassId, Vec<String>)>,
    /// Tests kept or rewritten, in the order of their manifests.
    pub tests: Vec<KeptTest>,
    /// Tests whose behaviour changed.
    pub changed: Vec<ChangedTest>,
    /// Failing tests logged for methods not generated again.
    pub failing: Vec<FailingTest>,
    /// The methods of the classes brought up to date that are generated again, in order.
    pub reopened: Vec<Reopened>,
}

impl Kept {
    /// The header of `class`'s suite as written, if it is brought up to date.
    pub(crate) fn header(&self, class: ClassId) -> Option<&[String]> {
        self.headers.iter().find(|(c, _)| *c == class).map(|(_, h)| h.as_slice())
    }

    /// The order of the groups of `class`'s suite as written (none for a suite written anew).
    pub(crate) fn groups(&self, class: ClassId) -> &[String] {
        self.groups.iter().find(|(c, _)| *c == class).map_or(&[], |(_, g)| g.as_slice())
    }

    /// Whether `class`'s suite is brought up to date.
    pub(crate) fn updates(&self, class: ClassId) -> bool {
        self.classes.contains(&class)
    }
}

/// Whether the run of a test read from a manifest (`elected`, the manifest's instability applied) still
/// makes every assertion `expected` it was written with; otherwise what changed, in words.
pub(crate) fn change(
    program: &ProgramInfo,
    limits: &Limits,
    elected: &ElectedTest,
    expected: &[String],
) -> Option<String> {
    let actual = super::manifest::assertions(program, elected);
    let outcome = &elected.outcome;
    if !outcome.hit_limit() && expected.iter().all(|e| actual.contains(e)) {
        return None;
    }
    Some(match (actual.iter().find(|a| !expected.contains(a)), expected.iter().find(|e| !actual.contains(e))) {
        (Some(a), Some(_)) => format!("it now gives `{a}`"),
        (_, Some(e)) => format!("`{e}` no longer holds"),
        _ => outcome.describe(limits),
    })
}

/// The assertions of `expected` that `elected` no longer makes, and those it makes instead.
pub(crate) fn differences(
    program: &ProgramInfo,
    elected: &ElectedTest,
    expected: &[String],
) -> (Vec<String>, Vec<String>) {
    let actual = super::manifest::assertions(program, elected);
    let was = expected.iter().filter(|e| !actual.contains(e)).cloned().collect();
    let now = actual.iter().filter(|a| !expected.contains(a)).cloned().collect();
    (was, now)
}

/// The elected form of a run of a test written before (or read from a manifest): what its exported
/// form asserts when it runs as `run` did. `covers` and `branches` are its method's, as elections count
/// them (empty when not measured).
pub(crate) fn as_elected(
    test: &TestCase,
    seed: u32,
    own_message: bool,
    checks: Option<StateChecks>,
    run: &Execution,
) -> ElectedTest {
    ElectedTest {
        test: test.clone(),
        results: run.results.clone(),
        outcome: run.outcome.clone(),
        new_lines: Vec::new(),
        own_message,
        seed,
        covers: Vec::new(),
        branches: Vec::new(),
        minimized: true,
        checks,
        extended_at: None,
        simplified: None,
    }
}

/// A failing test as a manifest keeps it: only where it threw matters to the log and the skipped suite
/// written from it, so the thrown value itself is not kept.
pub(crate) fn failing_outcome(threw_at: Option<usize>) -> Outcome {
    match threw_at {
        Some(at) => Outcome::Threw {
            at,
            thrown: crate::model::observed::Thrown::Value(crate::model::observed::Observed::Undefined),
        },
        None => Outcome::TimedOut,
    }
}

/// A fingerprint of the source of `function` (FNV-1a of its text): a method whose text, or a helper's,
/// changed is generated again by an update. `None` when its text cannot be found.
pub(crate) fn fingerprint(code: &CodeBase, function: &FunctionRef) -> Option<u64> {
    let file = code.files.get(function.file)?;
    let found =
        file.instrumented.functions.iter().find(|f| f.statements == function.statements && f.line == function.line)?;
    let text = file.entry.parsed.text().as_bytes().get(found.start as usize..found.end as usize)?;
    Some(text.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3)))
}

/// The `<Class>.changed.log` of `changed`, the tests of one class whose behaviour changed.
pub(crate) fn changed_log(class: &str, changed: &[&ChangedTest], header: &[String]) -> String {
    let mut text: String = header.iter().map(|h| format!("# {h}\n")).collect();
    let accepted = changed.iter().filter(|c| c.accepted).count();
    text.push_str(&format!(
        "# {} test(s) of {class} whose behaviour changed since the suite was written: {} set aside (left out of \
         the suite), {accepted} rewritten to the new behaviour (--accept-changes).\n",
        changed.len(),
        changed.len() - accepted,
    ));
    for c in changed {
        let what = if c.accepted { "rewritten" } else { "set aside" };
        text.push_str(&format!("\n## {}: {} ({what})\n{}\n", c.method, c.title, c.reason));
        for line in &c.was {
            text.push_str(&format!("- {line}\n"));
        }
        for line in &c.now {
            text.push_str(&format!("+ {line}\n"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(helpers: Option<&[(&str, u64)]>) -> MethodMark {
        let helpers = helpers.map(|h| h.iter().map(|(n, f)| (n.to_string(), *f)).collect());
        MethodMark { source: 1, helpers, covers: 4 }
    }

    fn source(own: u64, helpers: &[(&str, u64)]) -> Source {
        Source { own, helpers: helpers.iter().map(|(n, f)| (n.to_string(), *f)).collect() }
    }

    #[test]
    fn a_method_is_reopened_when_its_code_or_a_helpers_changed_and_only_then() {
        let was = mark(Some(&[("_key", 7), ("_trim", 8)]));
        assert_eq!(reopening(Some(&was), Some(&source(1, &[("_key", 7), ("_trim", 8)])), 4), None);
        assert_eq!(
            reopening(Some(&was), Some(&source(2, &[("_key", 7), ("_trim", 8)])), 4).unwrap(),
            "its code changed"
        );
        let why = reopening(Some(&was), Some(&source(1, &[("_key", 9), ("_trim", 8)])), 4).unwrap();
        assert_eq!(why, "its helper `_key` changed");
        let why = reopening(Some(&was), Some(&source(1, &[("_key", 7)])), 4).unwrap();
        assert_eq!(why, "it no longer reaches `_trim`");
        // A helper named by its line keeps its code when code above it moves it.
        let anonymous = mark(Some(&[("line 3", 7)]));
        assert_eq!(reopening(Some(&anonymous), Some(&source(1, &[("line 5", 7)])), 4), None);
        let why = reopening(Some(&was), Some(&source(1, &[("_key", 7), ("_trim", 8)])), 3).unwrap();
        assert!(why.contains("cover 3 of its statements, the suite covered 4"), "{why}");
        assert!(reopening(None, Some(&source(1, &[])), 4).is_some());
        assert!(reopening(Some(&was), None, 4).is_some());
    }

    /// A manifest written before helpers were fingerprinted cannot vouch for them: a method reaching
    /// helpers is generated again (once: the suite written then keeps their fingerprints), one reaching
    /// none is kept.
    #[test]
    fn a_mark_without_helpers_reopens_only_the_methods_reaching_some() {
        let old = mark(None);
        assert_eq!(reopening(Some(&old), Some(&source(1, &[])), 4), None);
        let why = reopening(Some(&old), Some(&source(1, &[("parse", 7)])), 4).unwrap();
        assert!(why.contains("predates") && why.contains("`parse`"), "{why}");
    }

    #[test]
    fn the_changed_log_says_what_changed_and_what_became_of_each_test() {
        let change = |accepted| ChangedTest {
            class: 0,
            method: "add".into(),
            title: "returns 1".into(),
            reason: "it now gives `assert.strictEqual(r, 2);`".into(),
            was: vec!["assert.strictEqual(r, 1);".into()],
            now: vec!["assert.strictEqual(r, 2);".into()],
            accepted,
        };
        let (aside, rewritten) = (change(false), change(true));
        let log = changed_log("Counter", &[&aside, &rewritten], &["Generated by Flycatcher".into()]);
        assert!(log.starts_with("# Generated by Flycatcher\n# 2 test(s) of Counter"), "{log}");
        assert!(log.contains("1 set aside (left out of the suite), 1 rewritten"), "{log}");
        assert!(log.contains("## add: returns 1 (set aside)\nit now gives `assert.strictEqual(r, 2);`\n"), "{log}");
        assert!(log.contains("- assert.strictEqual(r, 1);\n+ assert.strictEqual(r, 2);\n"), "{log}");
        assert!(log.contains("## add: returns 1 (rewritten)"), "{log}");
    }
}
