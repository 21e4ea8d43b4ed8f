//! Search-based generation: evolve tests towards the branch outcomes no test took yet.
//!
//! The [`Archive`] of a method keeps, for every branch outcome of it that guards a statement no
//! elected test covered, the candidate that came closest to taking it: the smallest branch distance
//! (see [`crate::js::DISTANCES`]) over every candidate run, elected or not. Most candidates
//! are made from an entry, chosen with a preference for the closest and away from those that stopped
//! improving, by one of two moves:
//!
//! - Harman and McMinn's alternating variable method (AVM, see [`super::avm`]) on its numbers and
//!   strings, nested ones included: round a number when it is a fraction, or move a number, a string's
//!   length or one of its characters by ±1; when that gets closer, keep going the same way with a
//!   doubled step; when it does not, try the other direction, then the next variable;
//! - random mutations: a primitive moved, nested ones too (numbers by ±1, negated or drawn again;
//!   strings edited by a character, drawn again, or, for an argument made of pieces, one piece drawn
//!   again; booleans flipped), a call inserted before the method under test, or a call deleted.
//!
//! A third move, from an entry whose run compared parts of its strings with constants and found them
//! unequal, writes one such constant into the string where its part sits (see [`super::correspondence`]):
//! it takes a parser past one more token per candidate. A candidate closer to an outcome than its entry
//! replaces it. The rest (a quarter, more as the entry
//! chosen stops improving, and all while the archive is empty) are fresh guided random tests.
//!
//! [`crate::model::settings::Strategy::SearchCoverage`] is search guided by coverage alone, kept to measure what distances
//! bring: half fresh guided tests, half random mutations of the method's elected tests.

use std::collections::BTreeMap;

use rand::Rng;
use rand::RngExt;

use std::sync::Arc;

use super::avm::{Avm, variables};
use super::correspondence::rewrite;
use super::places::{free, places, record_at, value_at};
use super::random::{Builder, generate as random_test};

use super::Request;
use crate::inference::ParamType;
use crate::model::test::{CALL_ITSELF, Statement, TestCase, Value};
use crate::sandbox::{Comparison, Execution};

/// Chance of a fresh random test rather than a mutant of an elected test, under search guided by
/// coverage alone.
const FRESH: f64 = 0.5;
/// Chance, under search with distances, of a fresh guided test rather than a move from the archive's
/// entry just chosen, while that entry still improves: fresh tests find the outcomes no candidate
/// reached yet, and code that needs an input of some shape before any distance can be measured (a
/// valid ISBN) needs them most.
const EXPLORE: f64 = 0.25;
/// Candidates made from an entry without getting closer after which the chance of exploring instead
/// has gone half of the way from [`EXPLORE`] to 1: an entry that stopped improving is likely stuck.
const STUCK: f64 = 64.0;
/// Chance of writing a compared constant into a string, from an entry whose run made comparisons.
const CORRESPOND: f64 = 0.5;
/// Chance of an AVM move, rather than random mutations, from an entry with numbers or strings.
const AVM: f64 = 0.7;
/// Candidates made from an entry without getting closer after which its weight is halved.
const PATIENCE: f64 = 16.0;
/// Candidates made from an entry without getting closer, or full passes of the alternating variable
/// method over its variables, after which it is dropped, so that the next candidate to reach its
/// outcome starts the climb again from elsewhere: the method stops in local optima (`x * x + y * y ===
/// z * z` has many near misses), where random restarts do better than more moves.
const RESTART: u32 = 256;
const PASSES: u32 = 2;

/// The closest candidates to the branch outcomes still to take, for one method under test.
#[derive(Debug, Clone, Default)]
pub struct Archive {
    /// By branch outcome (an offset into the method's branch ids).
    entries: BTreeMap<u32, Entry>,
    /// Per branch outcome, the statement (an offset into the method's statement ids) that only taking
    /// it covers, if any: the outcomes worth searching for.
    guards: Vec<Option<u32>>,
    /// What the last candidate made from the archive aimed at.
    pending: Option<Pending>,
}

#[derive(Debug, Clone)]
struct Entry {
    distance: f64,
    test: TestCase,
    /// Candidates made from it since it last got closer.
    fails: u32,
    avm: Avm,
    /// Passes of the AVM over all its variables since it last got closer.
    passes: u32,
    /// The unequal comparisons its run made (shared by the entries one run made).
    comparisons: Arc<[Comparison]>,
}

#[derive(Debug, Clone, Copy)]
struct Pending {
    target: u32,
    /// The AVM state after the move, when the candidate was an AVM move.
    avm: Option<Avm>,
    /// How many variables the test moved had.
    variables: usize,
}

impl Archive {
    /// An empty archive for a method whose branch outcome `i` guards statement `guards[i]`.
    pub(crate) fn new(guards: Vec<Option<u32>>) -> Archive {
        Archive { guards, ..Archive::default() }
    }

    /// Whether no candidate came near any outcome still to take.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The smallest distance seen to branch outcome `offset`, while it is still to take.
    pub fn distance(&self, offset: u32) -> Option<f64> {
        self.entries.get(&offset).map(|e| e.distance)
    }

    /// Learns from a run of `test`, a valid candidate of the method: it replaces the entries it came
    /// closer to, and the AVM of the entry it was made from moves on. `covered` and `taken` are the
    /// method's statements and branch outcomes its elected tests reached, elections of this run
    /// included: outcomes reached are dropped.
    pub(crate) fn observe(&mut self, test: &TestCase, execution: &Execution, covered: &[bool], taken: &[bool]) {
        let pending = self.pending.take();
        let guards = &self.guards;
        let open = |offset: u32| {
            !taken.get(offset as usize).copied().unwrap_or(true)
                && guards
                    .get(offset as usize)
                    .copied()
                    .flatten()
                    .is_some_and(|s| !covered.get(s as usize).copied().unwrap_or(true))
        };
        self.entries.retain(|offset, _| open(*offset));
        let mut improved_target = false;
        let mut comparisons: Option<Arc<[Comparison]>> = None;
        if !execution.outcome.hit_limit() {
            for &(offset, distance) in &execution.distances {
                if !open(offset) || self.entries.get(&offset).is_some_and(|e| e.distance <= distance) {
                    continue;
                }
                // A closer candidate made by an AVM move for this very outcome keeps the method going.
                let avm = match pending {
                    Some(Pending { target, avm: Some(avm), .. }) if target == offset => {
                        improved_target = true;
                        avm.succeeded()
                    }
                    Some(Pending { target, .. }) if target == offset => {
                        improved_target = true;
                        Avm::default()
                    }
                    _ => Avm::default(),
                };
                let comparisons = comparisons.get_or_insert_with(|| execution.comparisons.as_slice().into()).clone();
                let entry = Entry { distance, test: test.clone(), fails: 0, avm, passes: 0, comparisons };
                self.entries.insert(offset, entry);
            }
        }
        let Some(Pending { target, avm, variables }) = pending else { return };
        if improved_target {
            return;
        }
        let Some(entry) = self.entries.get_mut(&target) else { return };
        entry.fails += 1;
        if let Some(moved) = avm {
            entry.avm = moved.failed();
            if entry.avm.place >= variables {
                entry.passes += 1;
                entry.avm.place = 0;
                entry.avm.fractions = true;
            }
        }
        if entry.passes >= PASSES || entry.fails >= RESTART {
            self.entries.remove(&target);
        }
    }

    /// An entry to work on, drawn with weight favouring the closest and those still improving.
    fn choose(&self, rng: &mut (impl Rng + ?Sized)) -> Option<u32> {
        let weight = |e: &Entry| 1.0 / ((e.distance + 0.01) * 2f64.powf(f64::from(e.fails) / PATIENCE));
        let total: f64 = self.entries.values().map(weight).sum();
        if !(total > 0.0 && total.is_finite()) {
            return self.entries.keys().next().copied();
        }
        let mut left = rng.random_range(0.0..total);
        for (offset, entry) in &self.entries {
            left -= weight(entry);
            if left < 0.0 {
                return Some(*offset);
            }
        }
        self.entries.keys().last().copied()
    }
}

/// A candidate for the request's method under search with branch distances: mostly a move from the
/// archive's closest candidates, else (and while the archive is empty) a fresh guided test.
pub(crate) fn generate(request: &Request, archive: &mut Archive, rng: &mut (impl Rng + ?Sized)) -> TestCase {
    archive.pending = None;
    let Some(target) = archive.choose(rng) else { return random_test(request, rng) };
    let fails = f64::from(archive.entries[&target].fails);
    let explore = 1.0 - (1.0 - EXPLORE) * 0.5f64.powf(fails / STUCK);
    if rng.random_bool(explore) {
        return random_test(request, rng);
    }
    from_archive(request, archive, target, rng)
}

/// A move from the archive's entry for `target`.
fn from_archive(request: &Request, archive: &mut Archive, target: u32, rng: &mut (impl Rng + ?Sized)) -> TestCase {
    let entry = &archive.entries[&target];
    let mut builder = Builder::new(request);
    builder.test = entry.test.clone();
    let variables = variables(&builder.test, |place| free(request.types, &entry.test, place));
    let written = !entry.comparisons.is_empty()
        && rng.random_bool(CORRESPOND)
        && rewrite(&mut builder.test, &entry.comparisons, target, |place| free(request.types, &entry.test, place), rng);
    if written {
        archive.pending = Some(Pending { target, avm: None, variables: 0 });
    } else if !variables.is_empty() && rng.random_bool(AVM) {
        let avm = entry.avm.make(&mut builder.test, &variables);
        archive.pending = Some(Pending { target, avm: Some(avm), variables: variables.len() });
    } else {
        for _ in 0..rng.random_range(1..=3u32) {
            mutate(&mut builder, request.settings.max_calls.max(1), rng);
        }
        archive.pending = Some(Pending { target, avm: None, variables: 0 });
    }
    builder.test
}

/// A candidate under [`crate::model::settings::Strategy::SearchCoverage`]: a mutant of one of the method's elected tests, or
/// (half of the time, and while there is none) a fresh guided test.
pub(crate) fn mutate_elected(request: &Request, rng: &mut (impl Rng + ?Sized)) -> TestCase {
    let Request { settings, class, method, elected, .. } = *request;
    let own: Vec<&TestCase> = elected.iter().copied().filter(|t| t.class == class && t.method == method).collect();
    if own.is_empty() || rng.random_bool(FRESH) {
        return random_test(request, rng);
    }
    let mut builder = Builder::new(request);
    builder.test = own[rng.random_range(0..own.len())].clone();
    for _ in 0..rng.random_range(1..=3u32) {
        mutate(&mut builder, settings.max_calls.max(1), rng);
    }
    builder.test
}

fn mutate(builder: &mut Builder, max_calls: usize, rng: &mut (impl Rng + ?Sized)) {
    let calls = builder.test.statements.iter().filter(|s| matches!(s, Statement::Call { .. })).count();
    let done = match rng.random_range(0..3u32) {
        0 => change_argument(builder, rng),
        1 if calls < max_calls => insert_call(builder, rng),
        _ => delete_call(builder, rng),
    };
    // Not every mutation applies to every test (no primitive to move, no call to delete): another one.
    if !done && !change_argument(builder, rng) && calls < max_calls {
        insert_call(builder, rng);
    }
}

/// Moves one primitive, nested ones too.
fn change_argument(builder: &mut Builder, rng: &mut (impl Rng + ?Sized)) -> bool {
    let primitive = |v: &Value| matches!(v, Value::Number(_) | Value::String(_) | Value::Boolean(_));
    let test = &builder.test;
    let places: Vec<_> = places(test, primitive)
        .into_iter()
        .map(|(place, _)| place)
        .filter(|place| free(builder.types, test, place))
        .collect();
    if places.is_empty() {
        return false;
    }
    let place = &places[rng.random_range(0..places.len())];
    let record = record_at(builder.types, &builder.test, place);
    let Some(old) = value_at(&mut builder.test, place).cloned() else { return false };
    let new = match old {
        Value::Number(n) => match rng.random_range(0..4u32) {
            0 => Value::Number(n + 1.0),
            1 => Value::Number(n - 1.0),
            2 => Value::Number(-n),
            _ => builder.primitive(ParamType::Number, rng),
        },
        Value::String(text) => match rng.random_range(0..3u32) {
            0 => Value::String(edit(&text, rng)),
            // An argument made of pieces (a hand of cards) gets one piece drawn again.
            1 => match record
                .and_then(|r| builder.types.get(r).patterns.iter().find_map(|p| p.redraw_piece(&text, rng)))
            {
                Some(text) => Value::String(text),
                None => builder.string_for(record, rng),
            },
            _ => builder.string_for(record, rng),
        },
        Value::Boolean(b) => Value::Boolean(!b),
        other => other,
    };
    if let Some(value) = value_at(&mut builder.test, place) {
        *value = new;
    }
    true
}

/// One character inserted, deleted or replaced.
fn edit(text: &str, rng: &mut (impl Rng + ?Sized)) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let any = char::from(rng.random_range(b' '..=b'~'));
    match rng.random_range(0..3u32) {
        0 => chars.insert(rng.random_range(0..=chars.len()), any),
        1 if !chars.is_empty() => {
            chars.remove(rng.random_range(0..chars.len()));
        }
        _ if !chars.is_empty() => {
            let at = rng.random_range(0..chars.len());
            chars[at] = any;
        }
        _ => chars.push(any),
    }
    chars.into_iter().collect()
}

/// Inserts a call of a random method just before the method under test (which is then made on the
/// call's result, mostly, when that is a new instance of the receiver's class).
fn insert_call(builder: &mut Builder, rng: &mut (impl Rng + ?Sized)) -> bool {
    let class = builder.test.class;
    let program = builder.program;
    let Some(mut last) = builder.test.statements.pop() else { return false };
    // A call of a function a call returned has no receiver whose methods to call before it.
    let Statement::Call { receiver, method, .. } = &mut last else {
        builder.test.statements.push(last);
        return false;
    };
    if method == CALL_ITSELF {
        builder.test.statements.push(last);
        return false;
    }
    let picked = builder.hazards.pick(program, class, rng);
    if let Some(name) = picked {
        let under_test = name == builder.test.method;
        // The call under test then mostly takes the new version a persistent receiver returned.
        *receiver = builder.call_following(*receiver, name, under_test, 0, rng);
    }
    builder.test.statements.push(last);
    picked.is_some()
}

/// Deletes a call other than the last one, and not one whose result a later statement uses.
fn delete_call(builder: &mut Builder, rng: &mut (impl Rng + ?Sized)) -> bool {
    let test = &builder.test;
    let last = test.statements.len().saturating_sub(1);
    let calls: Vec<usize> = (0..last)
        .filter(|i| matches!(test.statements[*i], Statement::Call { .. }))
        .filter(|i| test.statements[*i].declared().is_none_or(|v| !test.uses_variable(v)))
        .collect();
    if calls.is_empty() {
        return false;
    }
    match test.without_statement(calls[rng.random_range(0..calls.len())]) {
        Some(shorter) => {
            builder.test = shorter;
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::observed::Outcome;

    fn test_with(x: f64) -> TestCase {
        TestCase {
            class: 0,
            method: "m".into(),
            variables: Vec::new(),
            statements: vec![Statement::call(0, "m", vec![Value::Number(x)], true)],
        }
    }

    fn run(distances: Vec<(u32, f64)>) -> Execution {
        Execution { distances, ..Execution::ended(Outcome::Passed, None) }
    }

    #[test]
    fn the_archive_keeps_the_closest_candidate_per_outcome_still_to_take() {
        // Outcome 0 guards statement 1; outcome 1 guards nothing; outcome 2 guards statement 0.
        let mut archive = Archive::new(vec![Some(1), None, Some(0)]);
        let (covered, taken) = (vec![false, false], vec![false, false, false]);
        archive.observe(&test_with(1.0), &run(vec![(0, 0.5), (1, 0.5), (2, 0.9)]), &covered, &taken);
        assert_eq!((archive.distance(0), archive.distance(1), archive.distance(2)), (Some(0.5), None, Some(0.9)));
        archive.observe(&test_with(2.0), &run(vec![(0, 0.7), (2, 0.4)]), &covered, &taken);
        assert_eq!(
            (archive.distance(0), archive.distance(2)),
            (Some(0.5), Some(0.4)),
            "only closer candidates replace"
        );
        assert_eq!(archive.entries[&2].test, test_with(2.0));
        // Statement 0 covered by an election: outcome 2 is done.
        archive.observe(&test_with(3.0), &run(vec![]), &[true, false], &taken);
        assert_eq!((archive.entries.len(), archive.distance(2)), (1, None));
        // Outcome 0 taken by an elected test: nothing left to search for.
        archive.observe(&test_with(3.0), &run(vec![(0, 0.1)]), &[true, false], &[true, false, false]);
        assert!(archive.is_empty());
    }

    #[test]
    fn an_entry_whose_climb_stalls_is_dropped_for_a_fresh_start() {
        let mut archive = Archive::new(vec![Some(0)]);
        let (covered, taken) = (vec![false], vec![false]);
        archive.observe(&test_with(10.0), &run(vec![(0, 0.9)]), &covered, &taken);
        let mut moves = 0;
        while !archive.is_empty() && moves < 20 {
            let mut moved = archive.entries[&0].test.clone();
            let variables = variables(&moved, |_| true);
            let avm = archive.entries[&0].avm.make(&mut moved, &variables);
            archive.pending = Some(Pending { target: 0, avm: Some(avm), variables: 1 });
            archive.observe(&moved, &run(vec![(0, 0.95)]), &covered, &taken);
            moves += 1;
        }
        // Up, then down, over the one variable; again, then by a tenth and a hundredth.
        assert_eq!(moves, 8);
    }

    #[test]
    fn an_avm_move_that_gets_closer_keeps_its_direction_with_a_doubled_step() {
        let mut archive = Archive::new(vec![Some(0)]);
        let (covered, taken) = (vec![false], vec![false]);
        archive.observe(&test_with(10.0), &run(vec![(0, 0.9)]), &covered, &taken);
        archive.pending =
            Some(Pending { target: 0, avm: Some(Avm { direction: 1.0, ..Avm::default() }), variables: 1 });
        archive.observe(&test_with(11.0), &run(vec![(0, 0.8)]), &covered, &taken);
        assert_eq!(archive.entries[&0].avm.step, 2.0);
        archive.pending =
            Some(Pending { target: 0, avm: Some(Avm { direction: 1.0, step: 2.0, ..Avm::default() }), variables: 1 });
        archive.observe(&test_with(13.0), &run(vec![(0, 0.85)]), &covered, &taken);
        let entry = &archive.entries[&0];
        assert_eq!((entry.test.clone(), entry.fails, entry.avm.step), (test_with(11.0), 1, 1.0));
    }
}
