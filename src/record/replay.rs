//! Replay tests: a recorded call rebuilt as a test of the generator's own model.
//!
//! The receiver is rebuilt by replaying its recorded construction and the calls made on it before, and
//! so is every recorded instance the call (or those earlier calls) received. A callback or an object
//! with methods that the call only talked to becomes a stub returning the recorded answers in order
//! ([`Value::Answers`]), so the exported test needs no mocking library.

use std::collections::{BTreeMap, BTreeSet};

use super::format::{Event, Recording, Stub, Thrown};
use crate::model::observed::Observed;
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{Statement, TestCase, Value, Variable};

/// A recorded call as a test, with what the call did when recorded.
#[derive(Debug, Clone)]
pub(crate) struct Replay {
    /// Index of the call in [`Recording::events`].
    pub(crate) event: usize,
    /// The test; its last statement is the recorded call.
    pub(crate) test: TestCase,
    /// What the call returned, described (`None` when the recording holds a description this build does
    /// not know), or what it threw.
    pub(crate) expected: Result<Option<Observed>, Thrown>,
}

/// The recording's classes as classes of `program`, by name.
pub(crate) fn class_map(recording: &Recording, program: &ProgramInfo) -> Vec<Option<ClassId>> {
    recording.classes.iter().map(|name| program.class_named(name)).collect()
}

/// Every recorded call of a method of `program` as a replay test, in recording order, and for each call
/// that cannot be replayed, why.
pub(crate) fn replays(recording: &Recording, program: &ProgramInfo) -> (Vec<Replay>, Vec<String>) {
    let classes = class_map(recording, program);
    let mut built = Vec::new();
    let mut refused = Vec::new();
    for (index, event) in recording.events.iter().enumerate() {
        let Event::Call { class, method, returned, threw, .. } = event else { continue };
        let Some(class) = classes.get(*class).copied().flatten() else { continue };
        if program.classes[class].method(method).is_none() {
            continue;
        }
        if let Some(factory) = &program.classes[class].factory {
            // Its instances come from a call of the factory, which the recorder does not record.
            refused.push(format!(
                "{}.{method}: its instances are made by {}, whose calls are not recorded",
                program.classes[class].name, factory.alias
            ));
            continue;
        }
        let expected = match (returned, threw) {
            (_, Some(thrown)) => Err(thrown.clone()),
            (Some(value), None) => Ok(Observed::from_json(value)),
            (None, None) => Ok(Some(Observed::Undefined)),
        };
        match build(recording, &classes, program, index) {
            Ok(test) => built.push(Replay { event: index, test, expected }),
            Err(reason) => refused.push(format!("{}.{method}: {reason}", program.classes[class].name)),
        }
    }
    (built, refused)
}

/// The object an event concerns, its arguments, and whether it returned.
fn parts(event: &Event) -> Option<(i64, &[serde_json::Value], bool)> {
    match event {
        Event::New { object, args, threw, .. } => Some((*object, args, threw.is_none())),
        Event::Call { object, args, threw, .. } => Some((*object, args, threw.is_none())),
        Event::Skip { .. } => None,
    }
}

/// Recorded object ids as the variables of the test being built, and the recording's classes as the
/// program's: what described values are turned into test values with.
struct Objects<'a> {
    variables: Vec<(i64, usize)>,
    classes: &'a [Option<ClassId>],
}

/// Builds the test replaying call `index`: its receiver rebuilt by replaying its construction and the
/// calls made on it before, or, when that history cannot be replayed, from the fields it had before the
/// call.
fn build(
    recording: &Recording,
    classes: &[Option<ClassId>],
    program: &ProgramInfo,
    index: usize,
) -> Result<TestCase, String> {
    history(recording, classes, program, index).or_else(|why| {
        from_fields(recording, classes, program, index)
            .map_err(|also| format!("{why}; nor can it be rebuilt from its fields: {also}"))
    })
}

/// The test replaying call `index` with its receiver rebuilt from its history.
fn history(
    recording: &Recording,
    classes: &[Option<ClassId>],
    program: &ProgramInfo,
    index: usize,
) -> Result<TestCase, String> {
    let events = &recording.events[..=index];
    let (receiver, args, _) = parts(&events[index]).expect("a call");
    if receiver < 0 {
        return Err("its receiver was not built by a recorded construction (an ES module export, or an object the \
                    program made itself)"
            .into());
    }
    let mut roots = BTreeSet::from([receiver]);
    refs(args, &mut roots);
    let needed = needed(&events[..index], roots)?;
    let (mut test, objects) = replayed(events, &needed, classes, program)?;
    push_call(&mut test, &events[index], &objects)?;
    Ok(test)
}

/// The test replaying call `index` with its receiver made without its constructor and given the fields
/// recorded before the call: the way to replay a call on an object the program made itself (a factory's
/// result, an object returned by a call), or one whose earlier calls were not all recorded.
fn from_fields(
    recording: &Recording,
    classes: &[Option<ClassId>],
    program: &ProgramInfo,
    index: usize,
) -> Result<TestCase, String> {
    let events = &recording.events[..=index];
    let Event::Call { object, class, receiver, args, before, .. } = &events[index] else {
        unreachable!("replays are of calls")
    };
    // The receiver's own class; an older recording only has the class that defines the method.
    let Some(receiver_class) = classes.get(receiver.unwrap_or(*class)).copied().flatten() else {
        return Err("its receiver's class is not in the program".into());
    };
    // Recorded instances among its fields and arguments are still rebuilt from their history.
    let mut roots = BTreeSet::new();
    refs(args, &mut roots);
    refs(before.values(), &mut roots);
    let needed = needed(&events[..index], roots)?;
    if *object >= 0 && needed.contains(object) {
        return Err("objects it needs were changed by earlier calls that involved its receiver".into());
    }
    let (mut test, mut objects) = replayed(events, &needed, classes, program)?;
    let fields = before
        .iter()
        .map(|(name, field)| Ok((name.clone(), value(field, &objects)?)))
        .collect::<Result<Vec<_>, String>>()?;
    let variable = test.variables.len();
    let name = test.variable_name(program, receiver_class);
    test.variables.push(Variable { class: receiver_class, name });
    objects.variables.push((*object, variable));
    test.statements.push(Statement::Rebuild { variable, class: receiver_class, fields });
    push_call(&mut test, &events[index], &objects)?;
    Ok(test)
}

/// The objects to rebuild from their history for `roots`: those, and (to a fixed point) the objects of
/// every earlier call that received or was made on one of them, since such a call may change it.
fn needed(earlier: &[Event], mut needed: BTreeSet<i64>) -> Result<BTreeSet<i64>, String> {
    loop {
        let before = needed.len();
        for event in earlier {
            if let Some((object, args, ok)) = parts(event)
                && ok
            {
                let mut touched = BTreeSet::new();
                refs(args, &mut touched);
                if needed.contains(&object) || touched.iter().any(|t| needed.contains(t)) {
                    if object < 0 {
                        return Err("an earlier call that received an object it needs cannot be replayed (its \
                                    receiver was not built by a recorded construction)"
                            .into());
                    }
                    needed.extend(touched);
                    needed.insert(object);
                }
            }
        }
        if needed.len() == before {
            return Ok(needed);
        }
    }
}

/// A test of the method called by the last of `events` that replays, among the events before it, the
/// constructions and the calls that returned of the `needed` objects.
fn replayed<'a>(
    events: &[Event],
    needed: &BTreeSet<i64>,
    classes: &'a [Option<ClassId>],
    program: &ProgramInfo,
) -> Result<(TestCase, Objects<'a>), String> {
    let (last, earlier) = events.split_last().expect("a call");
    let Event::Call { class, method, .. } = last else { unreachable!("replays are of calls") };
    let mut test = TestCase {
        class: classes[*class].ok_or("its class is not in the program")?,
        method: method.clone(),
        variables: Vec::new(),
        statements: Vec::new(),
    };
    let mut objects = Objects { variables: Vec::new(), classes };
    for event in earlier {
        match event {
            Event::Skip { object } if needed.contains(object) => {
                return Err(
                    "an earlier call on an object it needs was not recorded (raise --max-calls-per-method)".into()
                );
            }
            Event::New { object, class, args, threw: None, stubs, .. } if needed.contains(object) => {
                let class = classes[*class].ok_or("an object it needs is of a class the program does not have")?;
                let args = arguments(args, stubs, &objects)?;
                let variable = test.variables.len();
                let name = test.variable_name(program, class);
                test.variables.push(Variable { class, name });
                objects.variables.push((*object, variable));
                test.statements.push(Statement::Construct { variable, class, args });
            }
            Event::Call { object, method, args, threw: None, stubs, .. } if needed.contains(object) => {
                let receiver = variable_of(&objects.variables, *object)?;
                let args = arguments(args, stubs, &objects)?;
                test.statements.push(Statement::call(receiver, method, args, false));
            }
            _ => {}
        }
    }
    Ok((test, objects))
}

/// Appends the recorded call `event` (its receiver already a variable) as the call under test.
fn push_call(test: &mut TestCase, event: &Event, objects: &Objects) -> Result<(), String> {
    let Event::Call { object, method, args, stubs, .. } = event else { unreachable!("replays are of calls") };
    let receiver = variable_of(&objects.variables, *object)?;
    let args = arguments(args, stubs, objects)?;
    test.statements.push(Statement::call(receiver, method, args, true));
    Ok(())
}

fn variable_of(variables: &[(i64, usize)], object: i64) -> Result<usize, String> {
    variables
        .iter()
        .find(|(o, _)| *o == object)
        .map(|(_, v)| *v)
        .ok_or_else(|| "an object it needs was not built by a recorded construction".to_string())
}

/// Adds the object ids that recorded values refer to.
fn refs<'a>(values: impl IntoIterator<Item = &'a serde_json::Value>, into: &mut BTreeSet<i64>) {
    for value in values.into_iter().filter_map(Observed::from_json) {
        refs_of(&value, into);
    }
}

/// Adds the object ids a description refers to, in its items and fields too.
fn refs_of(value: &Observed, into: &mut BTreeSet<i64>) {
    match value {
        Observed::Ref { object } => {
            into.insert(*object);
        }
        Observed::Array { items, .. } => items.iter().for_each(|item| refs_of(item, into)),
        _ => value.fields().into_iter().flat_map(BTreeMap::values).for_each(|field| refs_of(field, into)),
    }
}

/// The arguments of a recorded call as test values: stubs for what it talked to.
fn arguments(args: &[serde_json::Value], stubs: &[Stub], objects: &Objects) -> Result<Vec<Value>, String> {
    args.iter()
        .enumerate()
        .map(|(i, arg)| match stubs.iter().find(|s| s.argument == i) {
            Some(stub) => stub_value(stub, objects),
            None => value(arg, objects),
        })
        .collect()
}

fn stub_value(stub: &Stub, objects: &Objects) -> Result<Value, String> {
    if let Some(answers) = &stub.answers {
        return Ok(Value::Answers(answers.iter().map(|a| value(a, objects)).collect::<Result<_, _>>()?));
    }
    let mut members: Vec<(String, Value)> = Vec::new();
    for (name, field) in stub.fields.iter().flatten() {
        members.push((name.clone(), value(field, objects)?));
    }
    let mut methods: Vec<(String, Vec<Value>)> = Vec::new();
    for (member, answer) in stub.calls.iter().flatten() {
        let answer = value(answer, objects)?;
        match methods.iter_mut().find(|(m, _)| m == member) {
            Some((_, answers)) => answers.push(answer),
            None => methods.push((member.clone(), vec![answer])),
        }
    }
    members.retain(|(name, _)| !methods.iter().any(|(m, _)| m == name));
    members.extend(methods.into_iter().map(|(m, answers)| (m, Value::Answers(answers))));
    Ok(Value::object(members))
}

/// A recorded value as a test value (see [`rebuilt`]).
fn value(described: &serde_json::Value, objects: &Objects) -> Result<Value, String> {
    rebuilt(&Observed::from_json(described).ok_or_else(|| unwritable(None))?, objects)
}

/// A described value as a test value: a recorded instance as its variable, an instance the program made
/// itself rebuilt from its fields (so are the instances in those, down to the depth the recorder
/// described), plain data as literals.
fn rebuilt(described: &Observed, objects: &Objects) -> Result<Value, String> {
    let fields = |fields: &BTreeMap<String, Observed>| {
        fields.iter().map(|(k, v)| Ok((k.clone(), rebuilt(v, objects)?))).collect::<Result<Vec<_>, String>>()
    };
    Ok(match described {
        Observed::Undefined => Value::Undefined,
        Observed::Null => Value::Null,
        Observed::Boolean { value } => Value::Boolean(*value),
        Observed::Number { text } => Value::Number(match text.as_str() {
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            other => other.parse().unwrap_or(f64::NAN),
        }),
        Observed::String { value } => Value::String(value.clone()),
        Observed::Date { time } => Value::Date(time.as_ref().and_then(serde_json::Number::as_f64).unwrap_or(f64::NAN)),
        Observed::Ref { object } => Value::Variable(variable_of(&objects.variables, *object)?),
        Observed::Array { items, .. } => Value::Array(
            items
                .iter()
                .map(|item| match item {
                    Observed::Hole => Err("an array with holes".to_string()),
                    item => rebuilt(item, objects),
                })
                .collect::<Result<_, _>>()?,
        ),
        Observed::Object { fields: members, .. } => Value::object(fields(members)?),
        Observed::Instance { class, fields: members } => {
            let members = fields(members)?;
            match objects.classes.get(*class).copied().flatten() {
                Some(class) => Value::Instance { class, fields: members },
                // An instance of a class the program does not have keeps its data.
                None => Value::object(members),
            }
        }
        other => return Err(unwritable(Some(other))),
    })
}

/// Why a recorded value cannot be passed in a test; `None` for a description this build does not know.
fn unwritable(value: Option<&Observed>) -> String {
    let what = match value {
        Some(Observed::Function) => "a function inside a value",
        Some(Observed::BigInt { .. }) => "a BigInt",
        Some(Observed::Symbol) => "a symbol",
        Some(Observed::RegExp { .. }) => "a regular expression",
        Some(Observed::Error { .. }) => "an error object",
        Some(Observed::Deep | Observed::LongArray { .. }) => "a value too large or deep to record",
        Some(Observed::Class { .. }) => "a class",
        _ => "an object of a built-in or unknown kind",
    };
    format!("it received a value that cannot be written back ({what})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::settings::Settings;
    use crate::session::{Session, SessionOptions};

    fn linked_list() -> Session {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/linked-list.js");
        Session::new(&SessionOptions { files: vec![file], ..Default::default() }, Settings::default()).unwrap()
    }

    fn recording(events: serde_json::Value) -> Recording {
        serde_json::from_value(serde_json::json!({
            "version": 1, "entry": "demo.js", "files": [], "classes": ["LinkedList", "Node"], "events": events
        }))
        .unwrap()
    }

    fn call(object: i64, method: &str, args: serde_json::Value) -> serde_json::Value {
        serde_json::json!({ "k": "call", "object": object, "class": 0, "method": method, "args": args, "before": {},
                            "returned": { "t": "u" } })
    }

    fn new(object: i64, class: usize, args: serde_json::Value) -> serde_json::Value {
        serde_json::json!({ "k": "new", "object": object, "class": class, "args": args })
    }

    #[test]
    fn a_replay_rebuilds_every_object_an_earlier_call_may_have_changed() {
        let session = linked_list();
        let node = serde_json::json!([{ "t": "ref", "i": 1 }]);
        let recording = recording(serde_json::json!([
            new(0, 0, serde_json::json!([])),
            new(1, 1, serde_json::json!([{ "t": "s", "v": "a" }])),
            new(2, 0, serde_json::json!([])),
            // The node is linked into the other list first: the replay of `get` needs that too.
            call(2, "add", node.clone()),
            call(0, "add", node),
            call(0, "get", serde_json::json!([{ "t": "n", "v": "0" }])),
        ]));
        let (built, refused) = replays(&recording, session.subject().program());
        assert!(refused.is_empty(), "{refused:?}");
        let get = built.iter().find(|r| r.test.method == "get").unwrap();
        let source = get.test.source(session.subject().program());
        assert_eq!(
            source,
            "var linkedList = new LinkedList();\nvar node = new Node(\"a\");\nvar linkedList2 = new LinkedList();\n\
             linkedList2.add(node);\nlinkedList.add(node);\nlinkedList.get(0);\n"
        );
        assert!(matches!(get.test.statements.last(), Some(Statement::Call { under_test: true, .. })));
        // The first `add` needs neither the other list nor anything after it.
        let first = built.iter().find(|r| r.event == 3).unwrap();
        assert_eq!(first.test.statements.len(), 3, "{}", first.test.source(session.subject().program()));
    }

    #[test]
    fn receivers_whose_history_cannot_be_replayed_are_rebuilt_from_their_fields() {
        let session = linked_list();
        let node = |value: &str, next: serde_json::Value| serde_json::json!({ "t": "inst", "c": 1, "fields": { "value": { "t": "s", "v": value }, "next": next } });
        let mut made = call(-1, "get", serde_json::json!([{ "t": "n", "v": "1" }]));
        made["receiver"] = serde_json::json!(0);
        made["before"] = serde_json::json!({
            "head": node("a", node("b", serde_json::json!({ "t": "null" }))), "length": { "t": "n", "v": "2" }
        });
        let mut after_skip = call(0, "get", serde_json::json!([{ "t": "ref", "i": 1 }]));
        after_skip["before"] = serde_json::json!({ "head": { "t": "ref", "i": 1 } });
        let recording = recording(serde_json::json!([
            new(0, 0, serde_json::json!([])),
            new(1, 1, serde_json::json!([{ "t": "s", "v": "x" }])),
            { "k": "skip", "object": 0 },
            made,
            after_skip,
        ]));
        let (built, refused) = replays(&recording, session.subject().program());
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(
            built[0].test.source(session.subject().program()),
            "var linkedList = Object.assign(Object.create(LinkedList.prototype), { head: \
             Object.assign(Object.create(Node.prototype), { next: \
             Object.assign(Object.create(Node.prototype), { next: null, value: \"b\" }), value: \"a\" }), length: 2 });\n\
             linkedList.get(1);\n"
        );
        let class = |name: &str| session.subject().program().class_named(name).unwrap();
        assert_eq!(built[0].test.classes_used(), vec![class("LinkedList"), class("Node")]);
        // A recorded node in its fields is still built by its own construction, before the receiver.
        assert_eq!(
            built[1].test.source(session.subject().program()),
            "var node = new Node(\"x\");\nvar linkedList = Object.assign(Object.create(LinkedList.prototype), \
             { head: node });\nlinkedList.get(node);\n"
        );
    }

    #[test]
    fn calls_that_can_be_rebuilt_neither_way_are_refused_with_both_reasons() {
        let session = linked_list();
        let mut tangled = call(0, "get", serde_json::json!([{ "t": "ref", "i": 1 }]));
        tangled["before"] = serde_json::json!({ "head": { "t": "fn" } });
        let recording = recording(serde_json::json!([
            new(0, 0, serde_json::json!([])),
            { "k": "skip", "object": 0 },
            call(0, "size", serde_json::json!([{ "t": "fn" }])),
            new(1, 1, serde_json::json!([])),
            // The node went through a call on the list: its state depends on the list's history.
            call(0, "add", serde_json::json!([{ "t": "ref", "i": 1 }])),
            tangled,
            call(-1, "size", serde_json::json!([{ "t": "sym" }])),
        ]));
        let (built, refused) = replays(&recording, session.subject().program());
        // Only `add` replays: its receiver (after the unrecorded call) from its fields, the node from its history.
        let sources: Vec<String> = built.iter().map(|r| r.test.source(session.subject().program())).collect();
        assert_eq!(
            sources,
            ["var node = new Node();\nvar linkedList = Object.create(LinkedList.prototype);\nlinkedList.add(node);\n"]
        );
        assert_eq!(refused.len(), 3, "{refused:?}");
        assert!(refused[0].contains("--max-calls-per-method") && refused[0].contains("a function inside a value"));
        assert!(refused[1].contains("changed by earlier calls that involved its receiver"), "{}", refused[1]);
        assert!(refused[2].contains("not built by a recorded construction") && refused[2].contains("a symbol"));
    }
}
