//! Replay tests: a recorded call rebuilt as a test of the generator's own model.
//!
//! The receiver is rebuilt by replaying its recorded construction and the calls made on it before, and
//! so is every recorded instance the call (or those earlier calls) received. A callback or an object
//! with methods that the call only talked to becomes a stub returning the recorded answers in order
//! ([`Value::Answers`]), so the exported test needs no mocking library.

use std::collections::BTreeSet;

use super::format::{Event, Recording, Stub, Thrown};
use crate::generate::{Statement, TestCase, Value, Variable};
use crate::program::{ClassId, ProgramInfo};

/// A recorded call as a test, with what the call did when recorded.
#[derive(Debug, Clone)]
pub struct Replay {
    /// Index of the call in [`Recording::events`].
    pub event: usize,
    /// The test; its last statement is the recorded call.
    pub test: TestCase,
    /// What the call returned (described), or what it threw.
    pub expected: Result<serde_json::Value, Thrown>,
}

/// The recording's classes as classes of `program`, by name.
pub fn class_map(recording: &Recording, program: &ProgramInfo) -> Vec<Option<ClassId>> {
    recording.classes.iter().map(|name| program.class_named(name)).collect()
}

/// Every recorded call of a method of `program` as a replay test, in recording order, and for each call
/// that cannot be replayed, why.
pub fn replays(recording: &Recording, program: &ProgramInfo) -> (Vec<Replay>, Vec<String>) {
    let classes = class_map(recording, program);
    let mut built = Vec::new();
    let mut refused = Vec::new();
    for (index, event) in recording.events.iter().enumerate() {
        let Event::Call { class, method, returned, threw, .. } = event else { continue };
        let Some(class) = classes.get(*class).copied().flatten() else { continue };
        if program.classes[class].method(method).is_none() {
            continue;
        }
        let expected = match (returned, threw) {
            (_, Some(thrown)) => Err(thrown.clone()),
            (Some(value), None) => Ok(value.clone()),
            (None, None) => Ok(serde_json::json!({ "t": "u" })),
        };
        match build(recording, &classes, program, index) {
            Ok(test) => built.push(Replay { event: index, test, expected }),
            Err(reason) => refused.push(format!("{}.{method}: {reason}", program.classes[class].name)),
        }
    }
    (built, refused)
}

/// The object an event concerns, and its arguments.
fn parts(event: &Event) -> Option<(i64, &[serde_json::Value], bool)> {
    match event {
        Event::New { object, args, threw, .. } => Some((*object, args, threw.is_none())),
        Event::Call { object, args, threw, .. } => Some((*object, args, threw.is_none())),
        Event::Skip { .. } => None,
    }
}

/// Builds the test replaying call `index`.
fn build(
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
    // The objects the call needs: its receiver, what it received, and (to a fixed point) the objects of
    // every earlier call that received or was made on one of those, since such a call may change it.
    let mut needed: BTreeSet<i64> = BTreeSet::from([receiver]);
    refs(args, &mut needed);
    loop {
        let before = needed.len();
        for event in &events[..index] {
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
            break;
        }
    }
    let mut test = TestCase {
        class: classes[class_of(&events[index])].ok_or("its class is not in the program")?,
        method: match &events[index] {
            Event::Call { method, .. } => method.clone(),
            _ => unreachable!("replays are of calls"),
        },
        variables: Vec::new(),
        statements: Vec::new(),
    };
    let mut variables: Vec<(i64, usize)> = Vec::new();
    for (at, event) in events.iter().enumerate() {
        match event {
            Event::Skip { object } if needed.contains(object) => {
                return Err(
                    "an earlier call on an object it needs was not recorded (raise --max-calls-per-method)".into()
                );
            }
            Event::New { object, class, args, threw: None, stubs, .. } if needed.contains(object) => {
                let class = classes[*class].ok_or("an object it needs is of a class the program does not have")?;
                let args = arguments(args, stubs, &variables)?;
                let variable = test.variables.len();
                let name = test.variable_name(program, class);
                test.variables.push(Variable { class, name });
                variables.push((*object, variable));
                test.statements.push(Statement::Construct { variable, class, args });
            }
            Event::Call { object, method, args, threw, stubs, .. }
                if needed.contains(object) && (threw.is_none() || at == index) =>
            {
                let receiver = variable_of(&variables, *object)?;
                let args = arguments(args, stubs, &variables)?;
                test.statements.push(Statement::Call {
                    receiver,
                    method: method.clone(),
                    args,
                    under_test: at == index,
                });
            }
            _ => {}
        }
    }
    Ok(test)
}

fn class_of(event: &Event) -> usize {
    match event {
        Event::New { class, .. } | Event::Call { class, .. } => *class,
        Event::Skip { .. } => usize::MAX,
    }
}

fn variable_of(variables: &[(i64, usize)], object: i64) -> Result<usize, String> {
    variables
        .iter()
        .find(|(o, _)| *o == object)
        .map(|(_, v)| *v)
        .ok_or_else(|| "an object it needs was not built by a recorded construction".to_string())
}

/// Adds the object ids that described values refer to.
fn refs(values: &[serde_json::Value], into: &mut BTreeSet<i64>) {
    for value in values {
        match value.get("t").and_then(|t| t.as_str()) {
            Some("ref") => {
                if let Some(i) = value.get("i").and_then(|i| i.as_i64()) {
                    into.insert(i);
                }
            }
            Some("arr") => refs(value.get("items").and_then(|i| i.as_array()).map_or(&[], |a| a.as_slice()), into),
            Some("obj" | "inst") => {
                let fields: Vec<serde_json::Value> = value
                    .get("fields")
                    .and_then(|f| f.as_object())
                    .map(|f| f.values().cloned().collect())
                    .unwrap_or_default();
                refs(&fields, into);
            }
            _ => {}
        }
    }
}

/// The arguments of a recorded call as test values: stubs for what it talked to.
fn arguments(args: &[serde_json::Value], stubs: &[Stub], variables: &[(i64, usize)]) -> Result<Vec<Value>, String> {
    args.iter()
        .enumerate()
        .map(|(i, arg)| match stubs.iter().find(|s| s.argument == i) {
            Some(stub) => stub_value(stub, variables),
            None => value(arg, variables),
        })
        .collect()
}

fn stub_value(stub: &Stub, variables: &[(i64, usize)]) -> Result<Value, String> {
    if let Some(answers) = &stub.answers {
        return Ok(Value::Answers(answers.iter().map(|a| value(a, variables)).collect::<Result<_, _>>()?));
    }
    let mut members: Vec<(String, Value)> = Vec::new();
    for (name, field) in stub.fields.iter().flatten() {
        members.push((name.clone(), value(field, variables)?));
    }
    let mut methods: Vec<(String, Vec<Value>)> = Vec::new();
    for (member, answer) in stub.calls.iter().flatten() {
        let answer = value(answer, variables)?;
        match methods.iter_mut().find(|(m, _)| m == member) {
            Some((_, answers)) => answers.push(answer),
            None => methods.push((member.clone(), vec![answer])),
        }
    }
    members.retain(|(name, _)| !methods.iter().any(|(m, _)| m == name));
    members.extend(methods.into_iter().map(|(m, answers)| (m, Value::Answers(answers))));
    Ok(Value::Object(members))
}

/// A described value as a test value.
pub fn value(described: &serde_json::Value, variables: &[(i64, usize)]) -> Result<Value, String> {
    let text = |key: &str| described.get(key).and_then(|v| v.as_str()).unwrap_or_default();
    let tag = text("t");
    Ok(match tag {
        "u" => Value::Undefined,
        "null" => Value::Null,
        "b" => Value::Boolean(described.get("v").and_then(|v| v.as_bool()).unwrap_or_default()),
        "n" => Value::Number(match text("v") {
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            other => other.parse().unwrap_or(f64::NAN),
        }),
        "s" => Value::String(text("v").to_string()),
        "date" => Value::Date(described.get("v").and_then(|v| v.as_f64()).unwrap_or(f64::NAN)),
        "ref" => Value::Variable(variable_of(variables, described.get("i").and_then(|i| i.as_i64()).unwrap_or(-1))?),
        "arr" => Value::Array(
            described
                .get("items")
                .and_then(|i| i.as_array())
                .map_or(&[][..], |a| a.as_slice())
                .iter()
                .map(|item| {
                    if item.get("t").and_then(|t| t.as_str()) == Some("hole") {
                        Err("an array with holes".to_string())
                    } else {
                        value(item, variables)
                    }
                })
                .collect::<Result<_, _>>()?,
        ),
        "obj" | "inst" => Value::Object(
            described
                .get("fields")
                .and_then(|f| f.as_object())
                .into_iter()
                .flatten()
                .map(|(k, v)| Ok((k.clone(), value(v, variables)?)))
                .collect::<Result<_, String>>()?,
        ),
        other => return Err(format!("it received a value that cannot be written back ({})", unwritable(other))),
    })
}

fn unwritable(tag: &str) -> &'static str {
    match tag {
        "fn" => "a function inside a value",
        "big" => "a BigInt",
        "sym" => "a symbol",
        "re" => "a regular expression",
        "err" => "an error object",
        "deep" | "arrlen" => "a value too large or deep to record",
        "cls" => "a class",
        _ => "an object of a built-in or unknown kind",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Session, SessionOptions, Settings};

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
        let (built, refused) = replays(&recording, &session.program);
        assert!(refused.is_empty(), "{refused:?}");
        let get = built.iter().find(|r| r.test.method == "get").unwrap();
        let source = get.test.source(&session.program);
        assert_eq!(
            source,
            "var linkedList = new LinkedList();\nvar node = new Node(\"a\");\nvar linkedList2 = new LinkedList();\n\
             linkedList2.add(node);\nlinkedList.add(node);\nlinkedList.get(0);\n"
        );
        assert!(matches!(get.test.statements.last(), Some(Statement::Call { under_test: true, .. })));
        // The first `add` needs neither the other list nor anything after it.
        let first = built.iter().find(|r| r.event == 3).unwrap();
        assert_eq!(first.test.statements.len(), 3, "{}", first.test.source(&session.program));
    }

    #[test]
    fn calls_after_an_unrecorded_call_or_on_unrecorded_objects_are_refused_with_a_reason() {
        let session = linked_list();
        let recording = recording(serde_json::json!([
            new(0, 0, serde_json::json!([])),
            { "k": "skip", "object": 0 },
            call(0, "size", serde_json::json!([])),
            call(-1, "size", serde_json::json!([])),
            new(3, 0, serde_json::json!([])),
            call(3, "add", serde_json::json!([{ "t": "fn" }])),
        ]));
        let (built, refused) = replays(&recording, &session.program);
        assert!(built.is_empty());
        assert_eq!(refused.len(), 3);
        assert!(refused[0].contains("--max-calls-per-method"), "{}", refused[0]);
        assert!(refused[1].contains("not built by a recorded construction"), "{}", refused[1]);
        assert!(refused[2].contains("a function inside a value"), "{}", refused[2]);
    }
}
