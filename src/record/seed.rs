//! Seeding a session from a recording: recorded argument types become type decisions, recorded values
//! join the guided pools and the per-parameter value pools, recorded call sequences become starting
//! states that generated candidates extend, and each recorded call of a method under test is offered
//! for election as a replay test.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rand::{Rng, RngExt};

use super::format::{Event, Recording};
use super::replay::{Replay, class_map, replays};
use crate::analysis::constants::Constant;
use crate::error::Result;
use crate::generate::guided::ConstantPool;
use crate::generate::{Statement, TestCase, Value};
use crate::inference::{Decision, DecisionSource, ParamType};
use crate::program::{ClassId, ProgramInfo};
use crate::sandbox::{Outcome, Thrown};
use crate::session::Session;

/// Chance that a candidate starts from a recorded state of its class.
const START_FROM_RECORDED: f64 = 0.5;
/// Chance that an argument is replaced by a value recorded for the same parameter.
const RECORDED_VALUE: f64 = 0.25;
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

/// What generation takes from a recording while it runs.
#[derive(Debug, Clone, Default)]
pub struct Seeds {
    /// Recorded call sequences (constructions and calls, none under test), per class of their receiver.
    states: BTreeMap<ClassId, Vec<TestCase>>,
    /// Recorded values without references to recorded objects, per (class, function, parameter index).
    values: BTreeMap<(ClassId, String, usize), Vec<Value>>,
}

impl Seeds {
    /// Whether there is nothing to seed from.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty() && self.values.is_empty()
    }

    /// A candidate made from `test`: half the time starting from a recorded state of its class instead of
    /// a fresh receiver, and with some arguments replaced by values recorded for the same parameter.
    /// Returns `test` unchanged (drawing nothing from `rng`) when there is nothing to seed from.
    pub fn start_from(&self, mut test: TestCase, program: &ProgramInfo, rng: &mut (impl Rng + ?Sized)) -> TestCase {
        if self.is_empty() {
            return test;
        }
        for statement in &mut test.statements {
            let (class, function, args) = match statement {
                Statement::Construct { class, args, .. } => (*class, "constructor".to_string(), args),
                Statement::Call { method, args, .. } => (test.class, method.clone(), args),
                Statement::Rebuild { .. } => continue,
            };
            for (index, arg) in args.iter_mut().enumerate() {
                if let Some(pool) = self.values.get(&(class, function.clone(), index))
                    && rng.random_bool(RECORDED_VALUE)
                {
                    *arg = pool[rng.random_range(0..pool.len())].clone();
                }
            }
        }
        match self.states.get(&test.class) {
            Some(states) if rng.random_bool(START_FROM_RECORDED) => {
                splice(&states[rng.random_range(0..states.len())], test, program)
            }
            _ => test,
        }
    }
}

/// `state`'s statements, then `test`'s with its receiver replaced by the receiver of `state`'s last
/// statement (and the construction of its own receiver dropped).
fn splice(state: &TestCase, test: TestCase, program: &ProgramInfo) -> TestCase {
    let receiver_of = |t: &TestCase| match t.statements.last() {
        Some(Statement::Call { receiver, .. }) => Some(*receiver),
        Some(Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. }) => Some(*variable),
        None => None,
    };
    let (Some(state_receiver), Some(test_receiver)) = (receiver_of(state), receiver_of(&test)) else { return test };
    let mut spliced = state.clone();
    spliced.method = test.method.clone();
    let offset = spliced.variables.len();
    let map = |v: usize| if v == test_receiver { state_receiver } else { v + offset };
    for variable in &test.variables {
        let name = spliced.variable_name(program, variable.class);
        spliced.variables.push(crate::generate::Variable { class: variable.class, name });
    }
    let remap = |value: &Value| remap_value(value, &map);
    for statement in test.statements {
        match statement {
            Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. }
                if variable == test_receiver => {}
            Statement::Construct { variable, class, args } => spliced.statements.push(Statement::Construct {
                variable: map(variable),
                class,
                args: args.iter().map(remap).collect(),
            }),
            Statement::Call { receiver, method, args, under_test } => spliced.statements.push(Statement::Call {
                receiver: map(receiver),
                method,
                args: args.iter().map(remap).collect(),
                under_test,
            }),
            Statement::Rebuild { variable, class, fields } => spliced.statements.push(Statement::Rebuild {
                variable: map(variable),
                class,
                fields: fields.iter().map(|(k, v)| (k.clone(), remap(v))).collect(),
            }),
        }
    }
    spliced
}

fn remap_value(value: &Value, map: &impl Fn(usize) -> usize) -> Value {
    match value {
        Value::Variable(v) => Value::Variable(map(*v)),
        Value::Array(items) => Value::Array(items.iter().map(|i| remap_value(i, map)).collect()),
        Value::Answers(items) => Value::Answers(items.iter().map(|i| remap_value(i, map)).collect()),
        Value::Function(result) => Value::Function(Box::new(remap_value(result, map))),
        Value::Object(members) => {
            Value::Object(members.iter().map(|(k, v)| (k.clone(), remap_value(v, map))).collect())
        }
        Value::Instance { class, fields } => Value::Instance {
            class: *class,
            fields: fields.iter().map(|(k, v)| (k.clone(), remap_value(v, map))).collect(),
        },
        other => other.clone(),
    }
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
        session.seeds.states.entry(replay.test.class).or_default().push(state);
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
                    let pool = session.seeds.values.entry((class, function.clone(), i)).or_default();
                    if !pool.contains(arg) {
                        pool.push(arg.clone());
                    }
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
fn replayed_as_recorded(replay: &Replay, outcome: &Outcome, results: &[crate::sandbox::DescribedResult]) -> bool {
    let last = replay.test.statements.len() - 1;
    match (&replay.expected, outcome) {
        (Err(expected), Outcome::Threw { at, thrown }) if *at == last => match thrown {
            Thrown::Error { name, .. } => expected.error && expected.name.as_deref() == Some(name.as_str()),
            Thrown::Value(_) => !expected.error,
        },
        (Ok(expected), Outcome::Passed) => {
            let primitive = matches!(expected.get("t").and_then(|t| t.as_str()), Some("u" | "b" | "n" | "s" | "null"));
            !primitive || results.iter().find(|r| r.at == last).is_some_and(|r| r.value == *expected)
        }
        _ => false,
    }
}

/// Shrinks large strings and arrays passed anywhere in the test (the replayed call's arguments, and
/// those of the constructions and calls that rebuild its objects, and the fields of a rebuilt receiver),
/// halving each as long as the test alone covers every statement it covered, ends the same way and its
/// call under test gives the same result and leaves the same state. Values are tried in the order they
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
                    || run.results != original.results
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
    Some(match value.get("t").and_then(|t| t.as_str())? {
        "n" => ParamType::Number,
        "s" => ParamType::String,
        "b" => ParamType::Boolean,
        "arr" => ParamType::Array,
        "date" => ParamType::Date,
        "fn" => ParamType::Function,
        "obj" => ParamType::Object,
        "ref" => ParamType::Class((*objects.get(&value.get("i")?.as_i64()?)?)?),
        "inst" => ParamType::Class((*classes.get(value.get("c")?.as_u64()? as usize)?)?),
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
        for arg in args {
            primitives(arg, constants);
        }
    }
    for m in &mut session.methods {
        let own = by_function.get(&(m.class, m.method.clone())).into_iter().flatten();
        let constructor = by_function.get(&(m.class, "constructor".to_string())).into_iter().flatten();
        m.constants.merge(ConstantPool::new(own.chain(constructor)));
    }
}

fn primitives(described: &serde_json::Value, into: &mut Vec<Constant>) {
    match described.get("t").and_then(|t| t.as_str()) {
        Some("n") => {
            if let Some(n) = described.get("v").and_then(|v| v.as_str()).and_then(|v| v.parse::<f64>().ok())
                && n.is_finite()
            {
                into.push(Constant::Number(n));
            }
        }
        Some("s") => {
            let text = described.get("v").and_then(|v| v.as_str()).unwrap_or_default().to_string();
            if !into.contains(&Constant::String(text.clone())) {
                into.push(Constant::String(text));
            }
        }
        Some("arr") => {
            for item in described.get("items").and_then(|i| i.as_array()).into_iter().flatten() {
                primitives(item, into);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Variable;
    use crate::session::{SessionOptions, Settings};

    #[test]
    fn a_candidate_started_from_a_recorded_state_calls_the_recorded_receiver() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/linked-list.js");
        let session =
            Session::new(&SessionOptions { files: vec![file], ..Default::default() }, Settings::default()).unwrap();
        let program = &session.program;
        let (list, node) = (program.class_named("LinkedList").unwrap(), program.class_named("Node").unwrap());
        let variable = |class, name: &str| Variable { class, name: name.into() };
        let state = TestCase {
            class: list,
            method: "add".into(),
            variables: vec![variable(list, "linkedList"), variable(node, "node")],
            statements: vec![
                Statement::Construct { variable: 0, class: list, args: vec![] },
                Statement::Construct { variable: 1, class: node, args: vec![Value::String("a".into())] },
                Statement::Call {
                    receiver: 0,
                    method: "add".into(),
                    args: vec![Value::Variable(1)],
                    under_test: false,
                },
            ],
        };
        let generated = TestCase {
            class: list,
            method: "remove".into(),
            variables: vec![variable(list, "linkedList"), variable(node, "node")],
            statements: vec![
                Statement::Construct { variable: 0, class: list, args: vec![] },
                Statement::Construct { variable: 1, class: node, args: vec![Value::Number(3.0)] },
                Statement::Call {
                    receiver: 0,
                    method: "remove".into(),
                    args: vec![Value::Variable(1)],
                    under_test: true,
                },
            ],
        };
        let spliced = splice(&state, generated, program);
        assert_eq!(
            spliced.source(program),
            "var linkedList = new LinkedList();\nvar node = new Node(\"a\");\nlinkedList.add(node);\n\
             var node2 = new Node(3);\nlinkedList.remove(node2);\n"
        );
        assert_eq!(spliced.method, "remove");

        let seeds = Seeds { states: BTreeMap::from([(list, vec![state])]), values: BTreeMap::new() };
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
        let fresh = TestCase { class: node, ..spliced.clone() };
        // No state of that class: the candidate is left as it was.
        assert_eq!(seeds.start_from(fresh.clone(), program, &mut rng), fresh);
        assert!(Seeds::default().is_empty());
    }
}
