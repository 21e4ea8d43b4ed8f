//! Minimisation before export: shorter tests that still cover what they covered and end the same way,
//! with the simplest values that do so, and no test that the other tests of its method make redundant.
//!
//! A value is simpler when a reader takes it in at once: a small integer rather than a fraction or a
//! large number, a short plain string rather than a mined error message, `[]` and `{}` rather than
//! filled ones. A special value (a boundary, `NaN`, the string a regex wants) stays where it is the
//! point of the test: where a simpler one would cover less, take another branch or end otherwise.

use std::time::Instant;

use super::Session;
use super::budget::{Ending, MINIMISING_SHARE, PassLimit};
use crate::error::Result;
use crate::generate::places::{places, replaceable};
use crate::model::observed::Outcome;
use crate::model::test::{Statement, TestCase, Value};
use crate::sandbox::{Execution, Test, Watch};
use crate::suite::simplified::replaced_in;
use crate::suite::{ElectedTest, Simplified};

impl Session {
    /// Shortens every elected test not minimised yet: statements are dropped one at a time, last first
    /// (never the final call of the method under test, nor a construction still used; a call whose
    /// result is still used is taken out of its chain, its receiver used instead), then results no
    /// statement uses are unbound, as long as the
    /// test alone still covers every statement of its method it covered and ends the same way. Then its
    /// values are made simpler ([`simpler`]), each everywhere it occurs, as long as it also takes every
    /// branch it took and runs every statement of the program it ran; what was replaced is kept
    /// ([`ElectedTest::simplified`]) for the mutation analysis. Its results are described again from the last run kept, so the assertions stay
    /// true. Then tests that
    /// the other tests of their method make redundant are dropped. Past its share of the passes' work
    /// or cap (see `budget.rs`), the tests left are kept as they are: longer, but as true.
    pub fn minimize(&mut self) -> Result<()> {
        self.minimize_telling(&mut |_, _| {})
    }

    /// [`Session::minimize`], telling `progress` (tests done, tests in all) before each test.
    pub(crate) fn minimize_telling(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Result<()> {
        let started = Instant::now();
        let limit = self.pass_limit(started, MINIMISING_SHARE);
        let from = self.runner.spent();
        let fresh: Vec<bool> = self.suite.elected.iter().map(|e| !e.minimized).collect();
        let (shortened, ended) = self.shorten_tests(&limit, from, progress);
        self.drop_redundant_tests(&fresh);
        self.passes.minimising += started.elapsed();
        self.add_pass("minimisation", self.runner.spent() - from, ended);
        shortened
    }

    fn shorten_tests(
        &mut self,
        limit: &PassLimit,
        from: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> (Result<()>, Option<Ending>) {
        // Stepping may have lowered the test limits to the last method's remaining budget.
        self.runner.restore_limits();
        let mut ended = None;
        let count = self.suite.elected.len();
        for elected in 0..count {
            progress(elected, count);
            if self.suite.elected[elected].minimized {
                continue;
            }
            let e = &self.suite.elected[elected];
            let Some(index) = self.methods.iter().position(|m| m.class == e.test.class && m.method == e.test.method)
            else {
                continue;
            };
            let watch = self.methods[index].watch();
            let (seed, required, original) = (e.seed, e.covers.clone(), e.outcome.clone());
            let mut test = e.test.clone();
            let mut kept: Option<Execution> = None;
            for k in (0..test.statements.len().saturating_sub(1)).rev() {
                ended = ended.or_else(|| limit.reached(self.runner.spent() - from));
                if ended.is_some() {
                    break;
                }
                let Some(shorter) = test.without_statement(k).or_else(|| test.without_link(k)) else { continue };
                let run =
                    match self.runner.run_isolated(Test::Case(&shorter, &self.subject.program), seed, &watch, true) {
                        Ok(run) => run,
                        Err(e) => return (Err(e), ended),
                    };
                if same_end(&run.outcome, &original, shorter.statements.len())
                    && required.iter().all(|s| run.statements.contains(s))
                {
                    test = shorter;
                    kept = Some(run);
                }
            }
            let branches =
                kept.as_ref().map_or_else(|| self.suite.elected[elected].branches.clone(), |r| r.branches.clone());
            let goal = Goal { seed, watch: &watch, required: &required, branches: &branches, original: &original };
            // A result that feeds no statement left is no variable of the exported test.
            let unbound = test.without_unused_results();
            if unbound != test {
                match self.keeps(&unbound, &goal) {
                    Ok(Some(run)) => {
                        test = unbound;
                        kept = Some(run);
                    }
                    Ok(None) => {}
                    Err(e) => return (Err(e), ended),
                }
            }
            let simplified = match self.simplify_values(&mut test, &goal, limit, from, &mut ended) {
                Ok(Some((run, simplified))) => {
                    kept = Some(run);
                    Some(simplified)
                }
                Ok(None) => None,
                Err(e) => return (Err(e), ended),
            };
            let e = &mut self.suite.elected[elected];
            if let Some(run) = kept {
                e.test = test;
                e.results = run.results;
                e.outcome = run.outcome;
                e.covers = run.statements;
                e.branches = run.branches;
            }
            e.simplified = simplified;
            // A test cut short by the limit stays as true as it was, and is not tried again.
            e.minimized = true;
        }
        progress(count, count);
        (Ok(()), ended)
    }

    /// The run of `candidate` when it still does what `goal` asks: ends the same way, covers the same
    /// statements and takes the same branches.
    fn keeps(&mut self, candidate: &TestCase, goal: &Goal) -> Result<Option<Execution>> {
        let run =
            self.runner.run_isolated(Test::Case(candidate, &self.subject.program), goal.seed, goal.watch, true)?;
        let kept = same_end(&run.outcome, goal.original, candidate.statements.len())
            // Offsets come in ascending order; a run that watches the whole program has thousands.
            && goal.required.iter().all(|s| run.statements.binary_search(s).is_ok())
            && goal.branches.iter().all(|b| run.branches.contains(b));
        Ok(kept.then_some(run))
    }

    /// Makes the values of `test` simpler ([`simpler`]), each everywhere it occurs, as long as the test
    /// still does what `goal` asks and covers every statement it covered anywhere in the program: a
    /// simpler argument that no longer reaches a function the method calls would leave that function's
    /// mutants to other tests, or to none. The run of the test made simpler (its statements as offsets
    /// in the goal's watch) and what was replaced, unless nothing was; `ended` says when the pass's
    /// `limit` stopped it.
    fn simplify_values(
        &mut self,
        test: &mut TestCase,
        goal: &Goal,
        limit: &PassLimit,
        from: u64,
        ended: &mut Option<Ending>,
    ) -> Result<Option<(Execution, Simplified)>> {
        let values = simplifiable(test);
        if values.is_empty() {
            return Ok(None);
        }
        let method = goal.watch.clone();
        // Every statement, and the branch outcomes of the goal's watch (their offsets stay the goal's).
        let everywhere = Watch {
            statements: std::iter::once(0..self.subject.code().statement_count).collect(),
            ..goal.watch.clone()
        };
        let covered =
            self.runner.run_isolated(Test::Case(test, &self.subject.program), goal.seed, &everywhere, true)?;
        let goal = Goal { watch: &everywhere, required: &covered.statements, ..*goal };
        let (before, mut replaced, mut kept) = (test.clone(), Vec::new(), None);
        for value in values {
            for simpler in simpler(&value) {
                *ended = ended.or_else(|| limit.reached(self.runner.spent() - from));
                if ended.is_some() {
                    break;
                }
                // A value built for a declared type keeps to it (`'credit'` of `'debit' | 'credit'` is
                // no string to shorten).
                let sites = places(test, |v| *v == value);
                if !sites.iter().all(|(site, _)| replaceable(self.subject.types(), test, site, &simpler)) {
                    continue;
                }
                let candidate = replaced_in(test, &value, &simpler);
                if candidate == *test {
                    // Gone with a simpler value that held it (`[]` for `[3]`).
                    break;
                }
                if let Some(run) = self.keeps(&candidate, &goal)? {
                    *test = candidate;
                    kept = Some(run);
                    replaced.push((value.clone(), simpler));
                    break;
                }
            }
        }
        Ok(kept.map(|mut run: Execution| {
            run.statements = run.statements.iter().filter_map(|s| method.statement_offset(*s)).collect();
            (run, Simplified { before, replaced })
        }))
    }

    /// Drops tests whose statements the other tests of the same method cover too (an early test is
    /// often subsumed by later ones), latest first; only tests `fresh` (by index) says were not minimised
    /// before: a test the mutation analysis made longer covers more once it is done, and the tests it
    /// covers then still kill what they killed in the analysis.
    pub(super) fn drop_redundant_tests(&mut self, fresh: &[bool]) {
        let mut index = self.suite.elected.len();
        while index > 0 {
            index -= 1;
            if !fresh.get(index).copied().unwrap_or(true) {
                continue;
            }
            let e = &self.suite.elected[index];
            let same_method = |o: &ElectedTest| o.test.class == e.test.class && o.test.method == e.test.method;
            let covered_by_others = e.covers.iter().all(|s| {
                self.suite.elected.iter().enumerate().any(|(j, o)| j != index && same_method(o) && o.covers.contains(s))
            });
            if covered_by_others {
                let removed = self.suite.elected.remove(index);
                if let Some(m) =
                    self.methods.iter_mut().find(|m| m.class == removed.test.class && m.method == removed.test.method)
                {
                    m.elected -= 1;
                }
            }
        }
    }
}

/// What a simpler form of a test must still do: run under its seed and watch, cover the statements
/// `required`, take the `branches` and end as `original` did.
#[derive(Clone, Copy)]
struct Goal<'a> {
    seed: u32,
    watch: &'a Watch,
    required: &'a [u32],
    branches: &'a [u32],
    original: &'a Outcome,
}

/// Whether a run of a test of `length` statements ends as `original` did: both pass, or the last
/// statement throws what was thrown.
fn same_end(outcome: &Outcome, original: &Outcome, length: usize) -> bool {
    match (outcome, original) {
        (Outcome::Passed, Outcome::Passed) => true,
        (Outcome::Threw { at, thrown }, Outcome::Threw { thrown: before, .. }) => *at + 1 == length && thrown == before,
        _ => false,
    }
}

/// The values of the test's arguments that a simpler one might replace, outer ones before the values
/// they hold, each once, in the order they first occur.
fn simplifiable(test: &TestCase) -> Vec<Value> {
    fn walk(value: &Value, found: &mut Vec<Value>) {
        if !simpler(value).is_empty() && !found.contains(value) {
            found.push(value.clone());
        }
        // A rebuilt instance is left as recorded; a map, a set, a promise or an async iterable is simpler whole
        // (see `replaceable`).
        if !matches!(
            value,
            Value::Instance { .. } | Value::Map(_) | Value::Set(_) | Value::Promise(_) | Value::AsyncIterable(_)
        ) {
            value.inner().into_iter().for_each(|v| walk(v, found));
        }
    }
    let mut found = Vec::new();
    for statement in &test.statements {
        if let Statement::Construct { args, .. } | Statement::Call { args, .. } = statement {
            args.iter().for_each(|a| walk(a, &mut found));
        }
    }
    found
}

/// How long a reader takes over a number: its size, more for a negative, much more for a fraction or
/// a value past the integers a person writes (`NaN`, the infinities, `-0` are left as they are).
fn number_cost(x: f64) -> f64 {
    let fraction = if x.fract() == 0.0 { 0.0 } else { 1e9 };
    x.abs() + fraction + if x < 0.0 { 0.5 } else { 0.0 }
}

/// How long a reader takes over a string: its length, more for each character that is not a letter,
/// a digit or a space.
fn string_cost(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == ' ' { 1 } else { 4 }).sum()
}

/// The values simpler than `value` to try in its place, most telling first (`0` and `''` last: a value
/// of nothing tells a mutant apart least): none for a value already simple (an integer up to ten, a
/// plain string of up to five characters), and none for one whose kind is its point (booleans, `null`,
/// dates, regular expressions, instances, variables, `NaN`, the infinities, `-0`). Arrays, maps, sets and
/// async iterables are simpler empty.
fn simpler(value: &Value) -> Vec<Value> {
    match value {
        Value::Number(x) if x.is_finite() && !(*x == 0.0 && x.is_sign_negative()) && number_cost(*x) > 10.5 => {
            let mut tried = vec![1.0, 2.0, 0.0, -1.0];
            if x.trunc().abs() <= 100.0 && !tried.contains(&x.trunc()) {
                tried.push(x.trunc());
            }
            tried.into_iter().filter(|c| number_cost(*c) < number_cost(*x)).map(Value::Number).collect()
        }
        Value::String(s) if string_cost(s) > 5 => {
            ["a", "abc", ""].into_iter().map(|c| Value::String(c.into())).collect()
        }
        Value::Array(items) if !items.is_empty() => vec![Value::Array(Vec::new())],
        Value::Map(entries) if !entries.is_empty() => vec![Value::Map(Vec::new())],
        Value::Set(items) if !items.is_empty() => vec![Value::Set(Vec::new())],
        Value::AsyncIterable(items) if !items.is_empty() => vec![Value::AsyncIterable(Vec::new())],
        // An object is left as built: an options object made for a declared interface carries its
        // required members, and `{}` would need a cast in a TypeScript suite.
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simpler_values_are_small_integers_short_plain_strings_and_empty_structures() {
        let numbers = |x: f64| simpler(&Value::Number(x));
        assert_eq!(numbers(94.812), [1.0, 2.0, 0.0, -1.0, 94.0].map(Value::Number).to_vec());
        assert_eq!(numbers(-8413909.0), [1.0, 2.0, 0.0, -1.0].map(Value::Number).to_vec());
        assert_eq!(numbers(0.5), [1.0, 2.0, 0.0, -1.0].map(Value::Number).to_vec());
        assert!(numbers(7.0).is_empty() && numbers(-10.0).is_empty(), "small integers are simple already");
        assert!(numbers(f64::NAN).is_empty() && numbers(f64::INFINITY).is_empty() && numbers(-0.0).is_empty());
        let strings = |s: &str| simpler(&Value::String(s.into()));
        assert_eq!(strings("size mismatch: counted "), ["a", "abc", ""].map(|s| Value::String(s.into())).to_vec());
        assert!(strings("").is_empty() && strings("abc").is_empty() && strings("hello").is_empty());
        assert_eq!(strings("a-b"), ["a", "abc", ""].map(|s| Value::String(s.into())).to_vec());
        assert_eq!(simpler(&Value::Array(vec![Value::Null])), vec![Value::Array(Vec::new())]);
        assert!(simpler(&Value::Array(Vec::new())).is_empty() && simpler(&Value::Boolean(true)).is_empty());
        let entry = (Value::String("k".into()), Value::Number(1.0));
        assert_eq!(simpler(&Value::Map(vec![entry])), vec![Value::Map(Vec::new())]);
        assert_eq!(simpler(&Value::Set(vec![Value::BigInt(3)])), vec![Value::Set(Vec::new())]);
        assert!(simpler(&Value::Map(Vec::new())).is_empty() && simpler(&Value::Set(Vec::new())).is_empty());
    }

    #[test]
    fn a_value_is_replaced_everywhere_it_occurs_and_outer_values_come_first() {
        let call = |args: Vec<Value>| Statement::call(0, "m", args, false);
        // Values a reader needs time for: small integers and short plain strings are simple already.
        let large = Value::Number(57.0);
        let test = TestCase {
            class: 0,
            method: "m".into(),
            variables: Vec::new(),
            statements: vec![
                call(vec![large.clone(), Value::String("size mismatch".into())]),
                call(vec![Value::Array(vec![large.clone(), Value::returning(large.clone())])]),
            ],
        };
        let found = simplifiable(&test);
        assert_eq!(found[0], large);
        assert_eq!(found[1], Value::String("size mismatch".into()));
        assert!(matches!(found[2], Value::Array(_)));
        let zero = Value::Number(0.0);
        let replaced = replaced_in(&test, &large, &zero);
        assert_eq!(replaced.statements[0].args()[0], zero);
        assert_eq!(replaced.statements[1].args()[0], Value::Array(vec![zero.clone(), Value::returning(zero)]));
    }
}
