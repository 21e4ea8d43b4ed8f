//! Seeding a session from a recording: recorded argument types become type decisions, recorded values
//! join the guided pools and the per-parameter value pools, recorded call sequences become starting
//! states that generated candidates extend, and each recorded call of a method under test is offered
//! for election as a replay test.
//!
//! A [`Seeding`] reads what a recording teaches, in the terms of the session's [`Subject`]; the application
//! layer (`app::seed`) gives it to the session, and [`Seeding::offer_replays`] offers the replays through
//! the two operations of an [`Election`].

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::format::{Event, Recording};
use super::replay::{Replay, class_map, replays};
use crate::analysis::constants::Constant;
use crate::error::Result;
use crate::generate::guided::ConstantPool;
use crate::generate::seeds::Seeds;
use crate::inference::TypeTable;
use crate::inference::{Decision, DecisionSource, ParamType};
use crate::model::observed::{Observed, Outcome, Thrown};
use crate::model::program::ClassId;
use crate::model::program::ProgramInfo;
use crate::model::test::{Statement, TestCase, Value};
use crate::sandbox::Execution;
use crate::session::Subject;
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
        other => other.inner().into_iter().any(has_variables),
    }
}

/// What seeding asks of a session besides what [`Seeding`] teaches it: running a test alone, and offering
/// one for election (see [`crate::session::Session::run_alone`] and [`crate::session::Session::offer`]).
pub(crate) trait Election {
    /// Runs `test` alone with `seed`, describing its results; `None` when its method is not under test.
    fn run_alone(&mut self, test: &TestCase, seed: u32) -> Result<Option<Execution>>;
    /// Offers `test` for election; how many statements it covered first when elected.
    fn offer(&mut self, test: &TestCase, seed: u32) -> Result<Option<usize>>;
}

/// A recording read for seeding a session, and what it teaches (see the module documentation): the
/// application layer applies it to the session (`app::seed`), offering each replay for election.
pub(crate) struct Seeding {
    recording: Recording,
    /// Per class of the recording, the class of the program it is.
    classes: Vec<Option<ClassId>>,
    /// Recorded primitives per (class, function), for the guided pools.
    constants: BTreeMap<(ClassId, String), Vec<Constant>>,
    /// Every recorded call that can be replayed, in recording order.
    pub(crate) replays: Vec<Replay>,
    /// Why each of the others cannot.
    refused: Vec<String>,
}

impl Seeding {
    /// Reads the recording `from` names for a run of `subject`.
    pub(crate) fn load(from: &SeedFrom, subject: &Subject) -> Result<Seeding> {
        let program = subject.program();
        let recording = Recording::load(&from.path)?;
        let classes = class_map(&recording, program);
        let constants = recorded_constants(&recording, &classes);
        let (replays, refused) = replays(&recording, program);
        Ok(Seeding { recording, classes, constants, replays, refused })
    }

    /// The recorded primitives of `method` of `class` and of its class's constructor, as a guided pool.
    pub(crate) fn constants(&self, class: ClassId, method: &str) -> ConstantPool {
        let own = self.constants.get(&(class, method.to_string())).into_iter().flatten();
        let constructor = self.constants.get(&(class, "constructor".to_string())).into_iter().flatten();
        ConstantPool::new(own.chain(constructor))
    }

    /// Every recorded call sequence as a starting state of its class, and the recorded values of the
    /// replayed calls and of the constructions they rebuild as values of their parameters.
    pub(crate) fn seed(&self, seeds: &mut Seeds) {
        for replay in &self.replays {
            let last = replay.test.statements.len() - 1;
            let mut state = replay.test.clone();
            if let Some(Statement::Call { under_test, .. }) = state.statements.last_mut() {
                *under_test = false;
            }
            seeds.add_state(replay.test.class, state);
            for (index, statement) in replay.test.statements.iter().enumerate() {
                let (class, function) = match statement {
                    Statement::Construct { class, .. } => (*class, "constructor".to_string()),
                    Statement::Call { method, receiver, .. } => {
                        (replay.test.variables[*receiver].class, method.clone())
                    }
                    Statement::Rebuild { .. } => continue,
                };
                if index < last && matches!(statement, Statement::Call { .. }) {
                    continue;
                }
                for (i, arg) in statement.args().iter().enumerate() {
                    if !has_variables(arg) {
                        seeds.add_value(class, &function, i, arg);
                    }
                }
            }
        }
    }

    /// Offers the replays for election (see [`Election`]), up to `from`'s threshold of elected ones and
    /// [`TRIED_PER_METHOD`] tried per method, each shrunk first (see [`shrink`]) when it replays as
    /// recorded. Returns what seeding did, for the session's warnings.
    pub(crate) fn offer_replays(&self, from: &SeedFrom, election: &mut impl Election) -> Result<String> {
        let (mut elected, mut replayed_differently) = (0, 0);
        let mut tried: BTreeMap<(ClassId, String), (usize, usize)> = BTreeMap::new();
        for replay in &self.replays {
            let counts = tried.entry((replay.test.class, replay.test.method.clone())).or_default();
            if counts.0 >= from.threshold || counts.1 >= TRIED_PER_METHOD {
                continue;
            }
            counts.1 += 1;
            let seed = replay.event as u32;
            let Some(run) = election.run_alone(&replay.test, seed)? else { continue };
            if !replayed_as_recorded(replay, &run.outcome, &run.results) {
                replayed_differently += 1;
                continue;
            }
            let test = shrink(&replay.test, &run, |candidate| election.run_alone(candidate, seed))?;
            if election.offer(&test, seed)?.is_some() {
                elected += 1;
                tried.entry((replay.test.class, replay.test.method.clone())).or_default().0 += 1;
            }
        }
        Ok(self.summary(from, elected, replayed_differently))
    }

    /// What seeding did, for the session's warnings: `elected` replay tests, `replayed_differently`
    /// left out.
    fn summary(&self, from: &SeedFrom, elected: usize, replayed_differently: usize) -> String {
        if self.replays.is_empty() && self.refused.is_empty() {
            return format!(
                "seeded from {}: the recording has no call of a method of these classes (it recorded {}): pass the \
                 files its entry script used",
                from.path.display(),
                self.recording.classes.join(", ")
            );
        }
        let mut message = format!(
            "seeded from {}: {elected} replay test(s) elected from {} recorded call(s)",
            from.path.display(),
            self.replays.len() + self.refused.len()
        );
        if replayed_differently > 0 {
            message.push_str(&format!(
                "; {replayed_differently} call(s) replayed differently from the recording (the entry's run depended \
                 on state a replay does not rebuild) and were left out"
            ));
        }
        if let Some(first) = self.refused.first() {
            message.push_str(&format!("; {} call(s) cannot be replayed, e.g. {first}", self.refused.len()));
        }
        message
    }

    /// Every parameter of `subject` that has no type yet, with the type most of its recorded values had.
    pub(crate) fn types(&self, subject: &Subject) -> Vec<(u32, Decision)> {
        recorded_types(&self.recording, &self.classes, subject.types(), subject.program())
    }
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
/// `run_alone` runs a test alone, as [`crate::session::Session::run_alone`] does.
fn shrink(
    test: &TestCase,
    original: &Execution,
    mut run_alone: impl FnMut(&TestCase) -> Result<Option<Execution>>,
) -> Result<TestCase> {
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
                let Some(run) = run_alone(&candidate)? else { break };
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

/// The decisions of [`Seeding::types`].
fn recorded_types(
    recording: &Recording,
    classes: &[Option<ClassId>],
    types: &TypeTable,
    program: &ProgramInfo,
) -> Vec<(u32, Decision)> {
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
        let params = types.params_of(class, function).to_vec();
        for (index, arg) in args.iter().enumerate() {
            let Some(&id) = params.get(index) else { continue };
            let stub = stubs.iter().find(|s| s.argument == index);
            if let Some(ty) = recorded_type(arg, stub, &objects, classes) {
                let name = ty.name(program);
                seen.entry(id).or_default().entry(name).or_insert((ty, 0)).1 += 1;
            }
        }
    }
    let mut decisions = Vec::new();
    for (id, seen) in seen {
        if types.get(id).decision.is_some() {
            continue;
        }
        let total: u32 = seen.values().map(|(_, n)| n).sum();
        let Some((name, (ty, count))) = seen.into_iter().max_by_key(|(_, (_, n))| *n) else { continue };
        let evidence = format!("recorded: {count} of {total} recorded call(s) passed a {name}");
        decisions.push((id, Decision { ty, evidence, source: DecisionSource::Recorded }));
    }
    decisions
}

/// The recorded primitives (arguments of constructions and calls), per (class, function).
fn recorded_constants(
    recording: &Recording,
    classes: &[Option<ClassId>],
) -> BTreeMap<(ClassId, String), Vec<Constant>> {
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
    by_function
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
