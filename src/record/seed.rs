//! Seeding a session from a recording: recorded argument types become type decisions, recorded values
//! join the guided pools and the per-parameter value pools, recorded call sequences become starting
//! states that generated candidates extend, and each recorded call of a method under test is offered
//! for election as a replay test.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::format::{Event, Recording};
use super::replay::{Replay, class_map, replays};
use crate::analysis::constants::Constant;
use crate::error::Result;
use crate::generate::guided::ConstantPool;
use crate::inference::{Decision, DecisionSource, ParamType};
use crate::model::observed::{Observed, Outcome, Thrown};
use crate::model::program::ClassId;
use crate::model::test::{Statement, TestCase, Value};
use crate::session::Session;
use crate::suite::checks;

/// Strings longer than this and arrays with more items are shrunk in replay tests while the test keeps
/// its coverage and its ending.
const LARGE_STRING: usize = 40;
/// See [`LARGE_STRING`].
const LARGE_ARRAY: usize = 10;
/// Replay tests tried per method, elected or not: a long recording costs no more than this.
const TRIED_PER_METHOD: usize = 200;

/// Where to seed from and how much to take.
#[derive(Debug, Clone)]
pub struct SeedFrom {
    /// The recording file.
    pub path: PathBuf,
    /// Most replay tests elected per method under test.
    pub threshold: usize,
}

fn has_variables(value: &Value) -> bool {
    match value {
        Value::Variable(_) => true,
        Value::Array(items) | Value::Answers(items) => items.iter().any(has_variables),
        Value::Function(result) => has_variables(result),
        Value::Object(members) | Value::Instance { fields: members, .. } => {
            members.iter().any(|(_, v)| has_variables(v))
        }
        _ => false,
    }
}

/// What seeding did, for the session's warnings.
#[derive(Debug, Default)]
struct Summary {
    elected: usize,
    replayed_differently: usize,
    refused: Vec<String>,
}

/// Seeds `session` from the recording `from` names (see the module documentation).
pub fn seed_session(session: &mut Session, from: &SeedFrom) -> Result<()> {
    let recording = Recording::load(&from.path)?;
    let classes = class_map(&recording, &session.program);
    decide_recorded_types(session, &recording, &classes);
    merge_constants(session, &recording, &classes);
    let (replays, refused) = replays(&recording, &session.program);
    let mut summary = Summary { refused, ..Summary::default() };
    let mut tried: BTreeMap<(ClassId, String), (usize, usize)> = BTreeMap::new();
    for replay in &replays {
        let last = replay.test.statements.len() - 1;
        let mut state = replay.test.clone();
        if let Some(Statement::Call { under_test, .. }) = state.statements.last_mut() {
            *under_test = false;
        }
        session.seeds.add_state(replay.test.class, state);
        for (index, statement) in replay.test.statements.iter().enumerate() {
            let (class, function) = match statement {
                Statement::Construct { class, .. } => (*class, "constructor".to_string()),
                Statement::Call { method, receiver, .. } => (replay.test.variables[*receiver].class, method.clone()),
                Statement::Rebuild { .. } => continue,
            };
            if index < last && matches!(statement, Statement::Call { .. }) {
                continue;
            }
            for (i, arg) in statement.args().iter().enumerate() {
                if !has_variables(arg) {
                    session.seeds.add_value(class, &function, i, arg);
                }
            }
        }
        let counts = tried.entry((replay.test.class, replay.test.method.clone())).or_default();
        if counts.0 >= from.threshold || counts.1 >= TRIED_PER_METHOD {
            continue;
        }
        counts.1 += 1;
        let seed = replay.event as u32;
        let Some(run) = session.run_alone(&replay.test, seed)? else { continue };
        if !replayed_as_recorded(replay, &run.outcome, &run.results) {
            summary.replayed_differently += 1;
            continue;
        }
        let test = shrink(session, &replay.test, seed, &run)?;
        if session.offer(&test, seed)?.is_some() {
            summary.elected += 1;
            tried.entry((replay.test.class, replay.test.method.clone())).or_default().0 += 1;
        }
    }
    if replays.is_empty() && summary.refused.is_empty() {
        session.warnings.push(format!(
            "seeded from {}: the recording has no call of a method of these classes (it recorded {}): pass the files \
             its entry script used",
            from.path.display(),
            recording.classes.join(", ")
        ));
        return Ok(());
    }
    let mut message = format!(
        "seeded from {}: {} replay test(s) elected from {} recorded call(s)",
        from.path.display(),
        summary.elected,
        replays.len() + summary.refused.len()
    );
    if summary.replayed_differently > 0 {
        message.push_str(&format!(
            "; {} call(s) replayed differently from the recording (the entry's run depended on state a replay does \
             not rebuild) and were left out",
            summary.replayed_differently
        ));
    }
    if let Some(first) = summary.refused.first() {
        message.push_str(&format!("; {} call(s) cannot be replayed, e.g. {first}", summary.refused.len()));
    }
    session.warnings.push(message);
    Ok(())
}

/// Whether a replay ended as the recorded call did: the same error name, or the same primitive result.
fn replayed_as_recorded(
    replay: &Replay,
    outcome: &Outcome,
    results: &[crate::model::observed::DescribedResult],
) -> bool {
    let last = replay.test.statements.len() - 1;
    match (&replay.expected, outcome) {
        (Err(expected), Outcome::Threw { at, thrown }) if *at == last => match thrown {
            Thrown::Error { name, .. } => expected.error && expected.name.as_deref() == Some(name.as_str()),
            Thrown::Value(_) => !expected.error,
        },
        (Ok(expected), Outcome::Passed) => {
            let primitive = matches!(
                expected,
                Some(
                    Observed::Undefined
                        | Observed::Boolean { .. }
                        | Observed::Number { .. }
                        | Observed::String { .. }
                        | Observed::Null
                )
            );
            !primitive || results.iter().find(|r| r.at == last).is_some_and(|r| Some(&r.value) == expected.as_ref())
        }
        _ => false,
    }
}

/// Shrinks large strings and arrays passed anywhere in the test (the replayed call's arguments, and
/// those of the constructions and calls that rebuild its objects, and the fields of a rebuilt receiver),
/// halving each as long as the test alone covers every statement it covered, ends the same way and its
/// calls of the method under test pass the same assertions (results, and the state a call returning
/// nothing leaves: the other fields hold the values being shrunk). Values are tried in the order they
/// appear in the test, each run with the replay's seed: a recording always shrinks the same way.
fn shrink(session: &mut Session, test: &TestCase, seed: u32, original: &crate::sandbox::Execution) -> Result<TestCase> {
    let mut test = test.clone();
    let same_end = |a: &Outcome, b: &Outcome| match (a, b) {
        (Outcome::Passed, Outcome::Passed) => true,
        (Outcome::Threw { at, thrown: x }, Outcome::Threw { at: at2, thrown: y }) => at == at2 && x == y,
        _ => false,
    };
    for statement in 0..test.statements.len() {
        for index in 0..test.statements[statement].values_mut().len() {
            loop {
                let smaller = match &*test.statements[statement].values_mut()[index] {
                    Value::String(s) if s.chars().count() > LARGE_STRING => {
                        Value::String(s.chars().take(s.chars().count() / 2).collect())
                    }
                    Value::Array(items) if items.len() > LARGE_ARRAY => Value::Array(items[..items.len() / 2].to_vec()),
                    _ => break,
                };
                let mut candidate = test.clone();
                *candidate.statements[statement].values_mut()[index] = smaller;
                let Some(run) = session.run_alone(&candidate, seed)? else { break };
                if !same_end(&run.outcome, &original.outcome)
                    || checks::asserted_by_default(&run.results) != checks::asserted_by_default(&original.results)
                    || !original.statements.iter().all(|s| run.statements.contains(s))
                {
                    break;
                }
                test = candidate;
            }
        }
    }
    Ok(test)
}

/// The type a described recorded value (or the stub made for it) gives its parameter.
fn recorded_type(
    value: &serde_json::Value,
    stubbed: Option<&super::format::Stub>,
    objects: &BTreeMap<i64, Option<ClassId>>,
    classes: &[Option<ClassId>],
) -> Option<ParamType> {
    if let Some(stub) = stubbed {
        return Some(if stub.answers.is_some() { ParamType::Function } else { ParamType::Object });
    }
    Some(match Observed::from_json(value)? {
        Observed::Number { .. } => ParamType::Number,
        Observed::String { .. } => ParamType::String,
        Observed::Boolean { .. } => ParamType::Boolean,
        Observed::Array { .. } => ParamType::Array,
        Observed::Date { .. } => ParamType::Date,
        Observed::Function => ParamType::Function,
        Observed::Object { .. } => ParamType::Object,
        Observed::Ref { object } => ParamType::Class((*objects.get(&object)?)?),
        Observed::Instance { class, .. } => ParamType::Class((*classes.get(class)?)?),
        _ => return None,
    })
}

/// Gives every parameter that has no type yet the type most of its recorded values had.
fn decide_recorded_types(session: &mut Session, recording: &Recording, classes: &[Option<ClassId>]) {
    let mut objects: BTreeMap<i64, Option<ClassId>> = BTreeMap::new();
    let mut seen: BTreeMap<u32, BTreeMap<String, (ParamType, u32)>> = BTreeMap::new();
    for event in &recording.events {
        let (class, function, args, stubs) = match event {
            Event::New { object, class, args, stubs, .. } => {
                objects.insert(*object, classes.get(*class).copied().flatten());
                (*class, "constructor", args, stubs)
            }
            Event::Call { class, method, args, stubs, .. } => (*class, method.as_str(), args, stubs),
            Event::Skip { .. } => continue,
        };
        let Some(class) = classes.get(class).copied().flatten() else { continue };
        let params = session.types.params_of(class, function).to_vec();
        for (index, arg) in args.iter().enumerate() {
            let Some(&id) = params.get(index) else { continue };
            let stub = stubs.iter().find(|s| s.argument == index);
            if let Some(ty) = recorded_type(arg, stub, &objects, classes) {
                let name = ty.name(&session.program);
                seen.entry(id).or_default().entry(name).or_insert((ty, 0)).1 += 1;
            }
        }
    }
    for (id, types) in seen {
        if session.types.get(id).decision.is_some() {
            continue;
        }
        let total: u32 = types.values().map(|(_, n)| n).sum();
        let Some((name, (ty, count))) = types.into_iter().max_by_key(|(_, (_, n))| *n) else { continue };
        let evidence = format!("recorded: {count} of {total} recorded call(s) passed a {name}");
        session.types.get_mut(id).decision = Some(Decision { ty, evidence, source: DecisionSource::Recorded });
    }
}

/// Adds the recorded primitives (arguments of a method and of its class's constructor) to each method's
/// guided pool.
fn merge_constants(session: &mut Session, recording: &Recording, classes: &[Option<ClassId>]) {
    let mut by_function: BTreeMap<(ClassId, String), Vec<Constant>> = BTreeMap::new();
    for event in &recording.events {
        let (class, function, args) = match event {
            Event::New { class, args, .. } => (*class, "constructor", args),
            Event::Call { class, method, args, .. } => (*class, method.as_str(), args),
            Event::Skip { .. } => continue,
        };
        let Some(class) = classes.get(class).copied().flatten() else { continue };
        let constants = by_function.entry((class, function.to_string())).or_default();
        for arg in args.iter().filter_map(Observed::from_json) {
            primitives(&arg, constants);
        }
    }
    for m in &mut session.methods {
        let own = by_function.get(&(m.class, m.method.clone())).into_iter().flatten();
        let constructor = by_function.get(&(m.class, "constructor".to_string())).into_iter().flatten();
        m.constants.merge(ConstantPool::new(own.chain(constructor)));
    }
}

/// Adds the finite numbers and the strings of a recorded value, and of its items, to `into`.
fn primitives(described: &Observed, into: &mut Vec<Constant>) {
    match described {
        Observed::Number { text } => {
            if let Ok(n) = text.parse::<f64>()
                && n.is_finite()
            {
                into.push(Constant::Number(n));
            }
        }
        Observed::String { value } => {
            let text = Constant::String(value.clone());
            if !into.contains(&text) {
                into.push(text);
            }
        }
        Observed::Array { items, .. } => {
            for item in items {
                primitives(item, into);
            }
        }
        _ => {}
    }
}
