//! Search-based generation: evolve the tests that already reached something.
//!
//! Half of the candidates are fresh guided random tests; the others are one of the method's elected
//! tests (the archive: each reached statements no earlier test had) changed by one to three mutations:
//! a primitive argument moved (numbers by ±1, negated or drawn again; strings edited by a character or
//! drawn again; booleans flipped), a call inserted before the method under test, or a call deleted. A
//! test that reached a statement is likely near the next one behind the same condition.
//!
//! Branch distances (how far `a < b` was from flipping) are not measured: the probes only record
//! which outcome was taken, so the search is guided by coverage alone.

use rand::Rng;
use rand::RngExt;

use super::random::{Builder, generate as random_test};
use super::{Request, Statement, TestCase, Value};
use crate::inference::ParamType;

/// Chance of a fresh random test even when the archive has tests to mutate.
const FRESH: f64 = 0.5;

/// A candidate for the request's method: a mutant of one of the method's elected tests, or a fresh
/// guided one.
pub fn generate(request: &Request, rng: &mut (impl Rng + ?Sized)) -> TestCase {
    let Request { settings, class, method, elected, .. } = *request;
    let archive: Vec<&TestCase> = elected.iter().copied().filter(|t| t.class == class && t.method == method).collect();
    if archive.is_empty() || rng.random_bool(FRESH) {
        return random_test(request, rng);
    }
    let mut builder = Builder::new(request);
    builder.elected = elected;
    builder.test = archive[rng.random_range(0..archive.len())].clone();
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

/// Moves one primitive argument.
fn change_argument(builder: &mut Builder, rng: &mut (impl Rng + ?Sized)) -> bool {
    let places: Vec<(usize, usize)> = builder
        .test
        .statements
        .iter()
        .enumerate()
        .flat_map(|(s, statement)| {
            statement
                .args()
                .iter()
                .enumerate()
                .filter(|(_, a)| matches!(a, Value::Number(_) | Value::String(_) | Value::Boolean(_)))
                .map(move |(a, _)| (s, a))
        })
        .collect();
    if places.is_empty() {
        return false;
    }
    let (s, a) = places[rng.random_range(0..places.len())];
    let old = builder.test.statements[s].args()[a].clone();
    let new = match old {
        Value::Number(n) => match rng.random_range(0..4u32) {
            0 => Value::Number(n + 1.0),
            1 => Value::Number(n - 1.0),
            2 => Value::Number(-n),
            _ => builder.primitive(ParamType::Number, rng),
        },
        Value::String(text) if rng.random_bool(0.5) => Value::String(edit(&text, rng)),
        Value::String(_) => builder.primitive(ParamType::String, rng),
        Value::Boolean(b) => Value::Boolean(!b),
        other => other,
    };
    match &mut builder.test.statements[s] {
        Statement::Construct { args, .. } | Statement::Call { args, .. } => args[a] = new,
        Statement::Rebuild { .. } => unreachable!("chosen among arguments, which a rebuilt instance has none of"),
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

/// Inserts a call of a random method just before the method under test.
fn insert_call(builder: &mut Builder, rng: &mut (impl Rng + ?Sized)) -> bool {
    let class = builder.test.class;
    let program = builder.program;
    let callable: Vec<&str> = program.classes[class].methods.iter().map(|m| m.name.as_str()).collect();
    let Some(last) = builder.test.statements.pop() else { return false };
    let Statement::Call { receiver, .. } = &last else {
        builder.test.statements.push(last);
        return false;
    };
    let receiver = *receiver;
    if !callable.is_empty() {
        let name = builder.hazards.pick(class, &callable, rng);
        let under_test = name == builder.test.method;
        builder.call(receiver, name, under_test, rng);
    }
    builder.test.statements.push(last);
    !callable.is_empty()
}

/// Deletes a call other than the last one.
fn delete_call(builder: &mut Builder, rng: &mut (impl Rng + ?Sized)) -> bool {
    let last = builder.test.statements.len().saturating_sub(1);
    let calls: Vec<usize> =
        (0..last).filter(|i| matches!(builder.test.statements[*i], Statement::Call { .. })).collect();
    if calls.is_empty() {
        return false;
    }
    builder.test.statements.remove(calls[rng.random_range(0..calls.len())]);
    true
}
