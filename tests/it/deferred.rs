//! Deferred calls (`Statement::Call::deferred`): a promise left un-awaited at its statement while later
//! calls run (the `emit` a `once` waits for), read at the end of the test, settled or still pending.

use crate::common;

use common::*;
use flycatcher::model::observed::{Observed, Outcome, Thrown};
use flycatcher::model::test::{Statement, TestCase, Value, Variable};
use flycatcher::sandbox::{Execution, Test};

const SIGNALS: &str = r#"
class Signals {
  constructor() { this.waiting = new Map(); }
  once(name) { return new Promise((resolve, reject) => { this.waiting.set(name, { resolve, reject }); }); }
  emit(name, value) { const w = this.waiting.get(name); if (w) w.resolve(value); return !!w; }
  cancel(name) { const w = this.waiting.get(name); if (w) w.reject(new Error('cancelled')); return !!w; }
  close() { throw new Error('closed'); }
  refuse() { return Promise.reject(new Error('refused')); }
}
module.exports = { Signals };
"#;

fn call(method: &str, args: Vec<Value>, under_test: bool, deferred: bool) -> Statement {
    Statement::Call { receiver: 0, method: method.into(), args, under_test, result: None, deferred }
}

fn once(deferred: bool) -> Statement {
    call("once", vec![Value::String("a".into())], true, deferred)
}

#[test]
fn a_deferred_promise_is_read_at_the_end_settled_or_pending() {
    let (session, mut sandbox, watch) = load_sandbox(SIGNALS);
    let program = session.subject().program();
    let signals = program.class_named("Signals").expect("Signals found");
    let emit = call("emit", vec![Value::String("a".into()), Value::Number(3.0)], false, false);
    let mut run = |calls: Vec<Statement>| -> Execution {
        let mut statements = vec![Statement::Construct { variable: 0, class: signals, args: vec![] }];
        statements.extend(calls);
        let variables = vec![Variable { class: signals, name: "signals".into() }];
        let test = TestCase { class: signals, method: "once".into(), variables, statements };
        let direct = sandbox.run_isolated(Test::Case(&test, program), 7, &watch, true).unwrap();
        let json = test.to_json(program);
        let interpreted = sandbox.run_isolated(Test::Json(&json), 7, &watch, true).unwrap();
        assert_eq!(format!("{:?}", direct.results), format!("{:?}", interpreted.results));
        direct
    };
    let value = |execution: &Execution| execution.results.iter().find(|r| r.at == 1).map(|r| r.value.clone());

    // Awaited at once, nothing settles it: the test stalls there.
    let stalled = run(vec![once(false), emit.clone()]);
    assert_eq!(stalled.outcome, Outcome::TimedOut);
    assert_eq!(stalled.stalled, Some(1));

    // Deferred, the emit after it settles it.
    let settled = run(vec![once(true), emit.clone()]);
    assert_eq!(settled.outcome, Outcome::Passed, "{settled:?}");
    assert_eq!(value(&settled), Some(Observed::Number { text: "3".into() }));
    assert_eq!(settled.awaited, [1]);

    // Deferred, nothing settles it: pending is what it did.
    let pending = run(vec![once(true), call("emit", vec![Value::String("b".into())], false, false)]);
    assert_eq!(pending.outcome, Outcome::Passed, "{pending:?}");
    assert_eq!(value(&pending), Some(Observed::Pending));
    assert_eq!(pending.stalled, None);

    // A deferred promise of the method under test that rejects ends the test at its call.
    let refused = run(vec![call("refuse", vec![], true, true), emit.clone()]);
    assert!(matches!(refused.outcome, Outcome::Threw { at: 1, .. }), "{refused:?}");
    // Another call's is left alone, as the suite leaves it: under Node, its rejection is unhandled.
    let unhandled = run(vec![call("refuse", vec![], false, true), emit]);
    let left_unhandled = |execution: &Execution| matches!(&execution.outcome, Outcome::Threw { thrown: Thrown::Error { name, .. }, .. } if name == "UnhandledRejection");
    assert!(left_unhandled(&unhandled), "{unhandled:?}");
    // One of the method under test that rejects while a later call throws is never read by the suite,
    // which ends at the throw: unhandled under Node too.
    let cancel = call("cancel", vec![Value::String("a".into())], false, false);
    let never_read = run(vec![once(true), cancel.clone(), call("close", vec![], false, false)]);
    assert!(left_unhandled(&never_read), "{never_read:?}");
    // Read at the end, its rejection ends the test there.
    let read = run(vec![once(true), cancel]);
    assert!(matches!(read.outcome, Outcome::Threw { at: 1, .. }), "{read:?}");
}

#[test]
fn promises_later_calls_settle_are_covered_and_their_suite_passes() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(
        &[fixture("async/signals.js")],
        out.path(),
        &["--seed", "3", "--budget", "120000", "--timeout", "600"],
    );
    fully_covered(&report, "Signals", &["once", "emit", "listeners"]);
    fully_covered(&report, "Gate", &["whenOpen", "open"]);
    fully_covered(&report, "Ticker", &["next"]);
    let written = written(out.path());
    let suite: String =
        written.iter().filter(|(name, _)| name.ends_with(".test.js")).map(|(_, t)| t.as_str()).collect();
    // `whenOpen` settles only after `open`: deferred, awaited at the end. Nothing settles `Ticker.next`'s
    // promise: left pending, it is asserted so (`once`'s is too in a test ending at it, if one is elected).
    assert!(suite.contains("const promise = gate.whenOpen("), "{suite}");
    assert!(suite.contains("assert.strictEqual(await promise, \"opened for "), "{suite}");
    assert!(suite.contains("setTimeout(resolve, 0, \"pending\"))]), \"pending\");"), "{suite}");
    node_test_passes(&suites(out.path()));
    // The manifest reads the deferred calls back as they were.
    let file = fixture("async/signals.js");
    let mutated = flycatcher(&["mutate", file.to_str().unwrap(), "--suite", out.path().to_str().unwrap()]);
    assert!(mutated.status.success(), "{}", text(&mutated));
}
