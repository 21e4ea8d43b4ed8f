//! The sandbox as a library: a generated test run the fast way, its statements performed from Rust,
//! ends exactly as the harness's interpreter runs it from JSON (elections, minimising and exported
//! suites go through the interpreter: a difference would elect tests that then behave otherwise).

use crate::common;

use common::load_sandbox;
use flycatcher::model::test::{Shape, Statement, TestCase, Value, Variable};
use flycatcher::sandbox::{Execution, Sandbox, Test};

const PROBE: &str = r#"
class Probe {
  constructor(size) { this.size = size; this.items = []; }
  // Every argument as the test wrote it, or an error naming those that are not.
  take(x, cb, compare, descending, ordered, reversed, add, identity, positive, big, map, set, promise, when, re,
    opts, stub, list) {
    const wrong = [String(cb) === 'function (a, b) { return 4; }' && cb.length === 2, cb() === 4,
      compare(1, 3) < 0 && compare.length === 2, descending(1, 3) > 0, ordered('a', 'b') < 0 && ordered(2, 2) === 0,
      reversed('a', 'b') > 0 && reversed.length === 2, add(2, 3) === 5 && add('a', 'b') === 'ab',
      identity(7) === 7 && identity.length === 1, positive(2) === true && positive(-1) === false, big === -7n, map.get('k') === 1 && map.size === 1,
      set.has(2) && set.size === 1, typeof promise.then === 'function', when.getTime() === 86400000,
      re.test('aBBc'), opts.k === 1.5, stub() === 1 && stub() === 'two' && stub() === 'two', list.length === 6,
      Object.is(list[0], -0), list[1] !== list[1], list[2] === 's\u00e9"', list[3] === true, list[4] === null,
      list[5] === undefined && 5 in list].map((ok, i) => (ok ? '' : i)).join('');
    if (wrong !== '') throw new Error('wrong: ' + wrong);
    if (x.name === 'n' || x > 3 || `${x}` === 'x') this.items.push(x.length);
    return this.items.length;
  }
  index(i) {
    if (Object.is(i, -0)) return 'minus zero';
    if (i > 2147483647) return 'past 32 bits';
    return [10, 20, 30][i] === undefined ? 'none' : 'some';
  }
  *values() { for (const item of this.items) yield item; if (this.size > 2) yield 'big'; }
  later(v) { return Promise.resolve(v).then((x) => { this.items.push(x); return this.items.length; }); }
  check(n) { if (n > this.size) throw new RangeError('past ' + n); return n * 2; }
  odd() { throw { code: 7 }; }
}
module.exports = { Probe };
"#;

fn call(method: &str, args: Vec<Value>, under_test: bool) -> Statement {
    Statement::call(0, method, args, under_test)
}

/// What a run did, but for the work it took (the interpreter's own steps count as work).
fn seen(run: &Execution) -> String {
    format!(
        "{:?} events {:?} patterns {:?} statements {:?} branches {:?} cut {:?} awaited {:?} results {:?}",
        run.outcome, run.events, run.patterns, run.statements, run.branches, run.cut_at, run.awaited, run.results
    )
}

#[test]
fn a_test_run_directly_ends_as_the_interpreter_runs_it() {
    let (session, mut sandbox, watch) = load_sandbox(PROBE);
    let program = session.subject().program();
    let probe = program.class_named("Probe").expect("Probe found");

    let every_kind = vec![
        Value::Proxy(0),
        Value::Function { arity: 2, result: Box::new(Value::Number(4.0)) },
        Value::Callback(Shape::Subtract { descending: false }),
        Value::Callback(Shape::Subtract { descending: true }),
        Value::Callback(Shape::Compare { descending: false }),
        Value::Callback(Shape::Compare { descending: true }),
        Value::Callback(Shape::Add),
        Value::Callback(Shape::Identity),
        Value::Callback(Shape::Positive),
        Value::BigInt(-7),
        Value::Map(vec![(Value::String("k".into()), Value::Number(1.0))]),
        Value::Set(vec![Value::Number(2.0)]),
        Value::Promise(Box::new(Value::String("p".into()))),
        Value::Date(86_400_000.0),
        Value::RegExp { source: "b{2}".into(), flags: "i".into() },
        Value::Object { members: vec![("k".into(), Value::Number(1.5))], record: None },
        Value::Answers(vec![Value::Number(1.0), Value::String("two".into())]),
        Value::Array(vec![
            Value::Number(-0.0),
            Value::Number(f64::NAN),
            Value::String("s\u{e9}\"".into()),
            Value::Boolean(true),
            Value::Null,
            Value::Undefined,
        ]),
    ];
    let tests: Vec<(&str, Vec<Statement>)> = vec![
        ("every kind of argument", vec![call("take", every_kind, true)]),
        (
            "numbers as indexes",
            vec![
                call("index", vec![Value::Number(1.0)], false),
                call("index", vec![Value::Number(-0.0)], false),
                call("index", vec![Value::Number(2_147_483_648.0)], false),
                call("index", vec![Value::Number(1.5)], true),
            ],
        ),
        ("an iterator consumed", vec![call("index", vec![Value::Number(0.0)], false), call("values", vec![], true)]),
        (
            "an error thrown",
            vec![call("check", vec![Value::Number(2.0)], false), call("check", vec![Value::Number(9.0)], true)],
        ),
        ("a value thrown", vec![call("odd", vec![], true)]),
        (
            "an instance rebuilt from its fields",
            vec![
                Statement::Rebuild {
                    variable: 1,
                    class: probe,
                    fields: vec![("size".into(), Value::Number(9.0)), ("items".into(), Value::Array(vec![]))],
                },
                Statement::call(1, "check", vec![Value::Number(5.0)], true),
            ],
        ),
        ("a method that is not one", vec![call("missing", vec![], true)]),
        (
            "a promise awaited",
            vec![
                call("later", vec![Value::String("a".into())], false),
                call("check", vec![Value::Number(1.0)], false),
                call("later", vec![Value::Variable(0)], true),
            ],
        ),
    ];
    for (what, calls) in tests {
        let mut statements = vec![Statement::Construct { variable: 0, class: probe, args: vec![Value::Number(3.0)] }];
        statements.extend(calls);
        let variables =
            vec![Variable { class: probe, name: "probe".into() }, Variable { class: probe, name: "probe2".into() }];
        let test = TestCase { class: probe, method: "take".into(), variables, statements };
        let json = test.to_json(program);
        let direct = sandbox.run(Test::Case(&test, program), 7, &watch).unwrap();
        let interpreted = sandbox.run_isolated(Test::Json(&json), 7, &watch, false).unwrap();
        assert_eq!(seen(&direct), seen(&interpreted), "{what}");
        // Described, as elections and minimising run tests alone.
        let described = sandbox.run_isolated(Test::Case(&test, program), 7, &watch, true).unwrap();
        let interpreted = sandbox.run_isolated(Test::Json(&json), 7, &watch, true).unwrap();
        assert_eq!(seen(&described), seen(&interpreted), "{what}, described");
        assert_eq!(described.results.is_empty(), !matches!(format!("{:?}", described.outcome).as_str(), "Passed"));
        let ended = format!("{:?}", direct.outcome);
        match what {
            "every kind of argument" => assert!(direct.events.len() > 3 && ended == "Passed", "{}", seen(&direct)),
            "an error thrown" | "a value thrown" | "a method that is not one" => {
                assert!(ended.starts_with("Threw"), "{what}: {}", seen(&direct))
            }
            "a promise awaited" => assert_eq!(direct.awaited, [1, 3], "{}", seen(&direct)),
            _ => assert_eq!(ended, "Passed", "{what}: {}", seen(&direct)),
        }
    }
}

#[test]
fn what_is_no_constructor_fails_directly_as_in_the_interpreter() {
    // A direct run constructs and calls through QuickJS's C interface; what cannot be constructed
    // goes through `Reflect.construct` as the interpreter does, and throws its error. Each binding
    // replaces the class table's, in the context of runs alone too.
    let (session, mut sandbox, watch) = load_sandbox(PROBE);
    let program = session.subject().program();
    let probe = program.class_named("Probe").expect("Probe found");
    for (binding, error) in
        [("(() => 1)", "not a constructor"), ("5", "not a function"), ("Math.max", "not a constructor")]
    {
        sandbox.bind_classes(&[binding.to_string()]).unwrap();
        let statements = vec![
            Statement::Construct { variable: 0, class: probe, args: vec![Value::Number(3.0)] },
            call("check", vec![Value::Number(1.0)], true),
        ];
        let variables = vec![Variable { class: probe, name: "probe".into() }];
        let test = TestCase { class: probe, method: "check".into(), variables, statements };
        let direct = sandbox.run(Test::Case(&test, program), 7, &watch).unwrap();
        let interpreted = sandbox.run_isolated(Test::Json(&test.to_json(program)), 7, &watch, false).unwrap();
        assert_eq!(seen(&direct), seen(&interpreted), "{binding}");
        let ended = format!("{:?}", direct.outcome);
        assert!(ended.contains("TypeError") && ended.contains(error), "{binding}: {ended}");
    }
}

#[test]
fn two_parameters_checked_by_one_pattern_both_note_it() {
    let source = "class Range {\n  constructor() {}\n  between(from, to) { return [/^v\\d+$/.test(from), /^v\\d+$/.test(to)]; }\n}\nmodule.exports = { Range };\n";
    let (session, mut sandbox, watch) = load_sandbox(source);
    let program = session.subject().program();
    let range = program.class_named("Range").expect("Range found");
    let statements = vec![
        Statement::Construct { variable: 0, class: range, args: vec![] },
        call("between", vec![Value::Proxy(0), Value::Proxy(1)], true),
    ];
    let variables = vec![Variable { class: range, name: "range".into() }];
    let test = TestCase { class: range, method: "between".into(), variables, statements };
    let run = sandbox.run(Test::Case(&test, program), 1, &watch).unwrap();
    let keys: Vec<Option<u32>> = run.patterns.iter().filter(|n| n.source == "^v\\d+$").map(|n| n.key).collect();
    assert_eq!(keys, [Some(0), Some(1)], "{:?}", run.patterns);
}

#[test]
fn a_member_name_with_a_lone_surrogate_keeps_the_tests_events() {
    // The code reads a member whose name holds half a surrogate pair: the log carries it escaped, and
    // the rest of the test's events must still be read.
    let source =
        "class Odd {\n  constructor() {}\n  read(p) { return [p['\\ud800x'], p.ok]; }\n}\nmodule.exports = { Odd };\n";
    let (session, mut sandbox, watch) = load_sandbox(source);
    let program = session.subject().program();
    let odd = program.class_named("Odd").expect("Odd found");
    let statements =
        vec![Statement::Construct { variable: 0, class: odd, args: vec![] }, call("read", vec![Value::Proxy(0)], true)];
    let variables = vec![Variable { class: odd, name: "odd".into() }];
    let test = TestCase { class: odd, method: "read".into(), variables, statements };
    let run = sandbox.run(Test::Case(&test, program), 1, &watch).unwrap();
    let names: Vec<String> = run
        .events
        .iter()
        .filter_map(|e| match e {
            flycatcher::sandbox::ProxyEvent::Get { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["\u{fffd}x", "ok"], "{:?}", run.events);
}

#[test]
fn a_changed_built_in_is_named_by_how_the_listing_reached_it() {
    changed_built_ins_are_named(true);
}

#[test]
fn a_changed_built_in_is_named_the_same_when_read_through_the_c_interface_only() {
    changed_built_ins_are_named(false);
}

/// One method per way the built-ins' listing reaches an object: the global object itself, a global's
/// value, its prototype, what a prototype inherits from, a root given by the harness, a hidden iterator
/// prototype. What the harness replaces before every test, and globals a test adds, are no change. Each
/// follows a test that changed nothing, in the same context: with `in_place`, the check after it
/// compares what the first check read in place (see `sandbox/qjs/layout.rs`); without, every check goes
/// through the C interface, the in-place reading's fallback.
fn changed_built_ins_are_named(in_place: bool) {
    let source = r#"class Patch {
  constructor() {}
  change(what) {
    if (what === 'global') delete globalThis.Atomics;
    if (what === 'value') JSON.parse = () => 1;
    if (what === 'prototype') Map.prototype.set = function () { return this; };
    if (what === 'inherited') Object.getPrototypeOf(Int8Array).from = () => [];
    if (what === 'root') Math.max = () => 0;
    if (what === 'iterator') Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true });
    if (what === 'replaced') Math.random = () => 0.5;
    if (what === 'added') globalThis.added = 1;
    if (what === 'element') Array.prototype[0] = 1;
    if (what === 'length') Array.prototype.length = 2;
    if (what === 'attributes') Object.defineProperty(JSON, 'stringify', { enumerable: true });
    if (what === 'accessor') Object.defineProperty(Symbol.prototype, 'description', { get() { return 'x'; } });
    if (what === 'moved') {
      const apply = Reflect.apply;
      delete Reflect.apply;
      Object.defineProperty(Reflect, 'apply', { value: apply, writable: true, configurable: true });
    }
    if (what === 'same') Array.prototype.push = Array.prototype.push;
    return what;
  }
}
module.exports = { Patch };
"#;
    let (session, mut sandbox, watch) = load_sandbox(source);
    sandbox.set_reading_in_place(in_place);
    let program = session.subject().program();
    let patch = program.class_named("Patch").expect("Patch found");
    let changed = |sandbox: &mut Sandbox, what: &str| {
        let statements = vec![
            Statement::Construct { variable: 0, class: patch, args: vec![] },
            call("change", vec![Value::String(what.into())], true),
        ];
        let variables = vec![Variable { class: patch, name: "patch".into() }];
        let test = TestCase { class: patch, method: "change".into(), variables, statements };
        sandbox.run_isolated(Test::Case(&test, program), 1, &watch, false).unwrap().changed_builtin
    };
    let cases = [
        ("global", Some("globalThis.Atomics")),
        ("value", Some("JSON.parse")),
        ("prototype", Some("Map.prototype.set")),
        ("inherited", Some("the prototype of Uint8ClampedArray.from")),
        ("root", Some("Math.max")),
        ("iterator", Some("an iterator prototype.next")),
        ("replaced", None),
        ("added", None),
        ("element", Some("Array.prototype.0")),
        ("length", Some("Array.prototype.length")),
        ("attributes", Some("JSON.stringify")),
        ("accessor", Some("Symbol.prototype.description")),
        ("moved", Some("Reflect (a property deleted or redefined)")),
        ("same", None),
    ];
    for (what, name) in cases {
        assert_eq!(changed(&mut sandbox, "nothing"), None, "before {what} (in place: {in_place})");
        assert_eq!(changed(&mut sandbox, what).as_deref(), name, "{what} (in place: {in_place})");
    }
    if !in_place {
        // Switched on in the engine kept for tests run alone: read in place from its next check on.
        sandbox.set_reading_in_place(true);
        assert_eq!(changed(&mut sandbox, "nothing"), None);
        assert_eq!(changed(&mut sandbox, "nothing"), None);
        assert_eq!(changed(&mut sandbox, "root").as_deref(), Some("Math.max"));
    }
}

#[test]
fn what_the_harness_installs_reads_as_native_code_and_nodes_javascript_keeps_its_text() {
    // Under Node, `Math.random`, `Date` and `console.log` are native code, and `setTimeout` and
    // `Buffer` are JavaScript: the sandbox's stand-ins print the same way.
    let source = r#"class Texts {
  constructor() {}
  read(x) {
    const native = [Math.random, Date, Date.now, console.log, [].forEach].every((f) => String(f).includes('[native code]'));
    const javascript = [setTimeout, Buffer.from].every((f) => !String(f).includes('[native code]'));
    return native && javascript && x;
  }
}
module.exports = { Texts };
"#;
    let (session, mut sandbox, watch) = load_sandbox(source);
    let program = session.subject().program();
    let texts = program.class_named("Texts").expect("Texts found");
    let statements = vec![
        Statement::Construct { variable: 0, class: texts, args: vec![] },
        call("read", vec![Value::Number(1.0)], true),
    ];
    let variables = vec![Variable { class: texts, name: "texts".into() }];
    let test = TestCase { class: texts, method: "read".into(), variables, statements };
    let run = sandbox.run_isolated(Test::Case(&test, program), 1, &watch, true).unwrap();
    assert_eq!(format!("{:?}", run.results[0].value), "Number { text: \"1\" }", "{}", seen(&run));
}

#[test]
fn once_state_escapes_the_journal_a_sequence_runs_each_test_in_a_context_of_its_own() {
    // `configure` writes the limit on the constructor through a local alias: no syntax marks it as
    // shared state, so a test run after it in one context sees its limit. The exported suites load the
    // code afresh for each test: once the code is known to keep such state, so does the stability check.
    let source = "class Meter {\n  constructor() {}\n  configure(limit) { const C = this.constructor; C['limit'] = limit; return limit; }\n  clamp(v) { const limit = this.constructor.limit; return limit !== undefined && v > limit ? limit : v; }\n}\nmodule.exports = { Meter };\n";
    let (session, mut sandbox, watch) = load_sandbox(source);
    let program = session.subject().program();
    let meter = program.class_named("Meter").expect("Meter found");
    let test = |method: &str, value: f64| {
        let statements = vec![
            Statement::Construct { variable: 0, class: meter, args: vec![] },
            Statement::call(0, method, vec![Value::Number(value)], true),
        ];
        let variables = vec![Variable { class: meter, name: "meter".into() }];
        TestCase { class: meter, method: method.into(), variables, statements }.to_json(program)
    };
    let (configure, clamp) = (test("configure", 0.0), test("clamp", 5.0));
    let alone = sandbox.run_in_sequence(&[(&clamp, 7, &watch)]).unwrap();
    let after =
        |sandbox: &mut Sandbox| sandbox.run_in_sequence(&[(&configure, 7, &watch), (&clamp, 7, &watch)]).unwrap();
    let shared = after(&mut sandbox);
    assert_ne!(seen(&shared[1]), seen(&alone[0]), "the limit escapes the journal in one context");
    sandbox.set_fresh_each_test(true);
    let apart = after(&mut sandbox);
    assert_eq!(seen(&apart[1]), seen(&alone[0]), "each test in a context of its own");
}
