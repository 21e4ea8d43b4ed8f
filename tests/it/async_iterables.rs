//! Async iterables: passed as arguments (an async generator of items, `(async function* () { yield* [...];
//! })()`), to code declared to take them and to untyped code that asks for `Symbol.asyncIterator`, and
//! returned by the method under test, consumed after the call as the suite's `for await` consumes them: their
//! items asserted, a throw while consuming asserted as a rejection, and one that waits for an item that never
//! comes left unasserted rather than stalling the test.

use crate::common;

use common::*;
use flycatcher::model::observed::{Observed, Outcome};
use flycatcher::model::test::{Statement, TestCase, Value, Variable};
use flycatcher::sandbox::{Execution, Test};

const SOURCES: &str = r#"
class Sources {
  async *counted(n) { for (let i = 0; i < n; i++) yield i; }
  async *refused() { yield 1; throw new RangeError('no more'); }
  waiting() { return { next: () => new Promise(() => {}), [Symbol.asyncIterator]() { return this; } }; }
  async sum(source) { let s = 0; for await (const x of source) s += x; return s; }
}
module.exports = { Sources };
"#;

#[test]
fn returned_async_iterators_are_consumed_and_async_iterables_passed() {
    let (session, mut sandbox, watch) = load_sandbox(SOURCES);
    let program = session.subject().program();
    let sources = program.class_named("Sources").expect("Sources found");
    let mut run = |method: &str, args: Vec<Value>| -> Execution {
        let statements = vec![
            Statement::Construct { variable: 0, class: sources, args: vec![] },
            Statement::Call {
                receiver: 0,
                method: method.into(),
                args,
                under_test: true,
                result: None,
                deferred: false,
            },
        ];
        let variables = vec![Variable { class: sources, name: "sources".into() }];
        let test = TestCase { class: sources, method: method.into(), variables, statements };
        let direct = sandbox.run_isolated(Test::Case(&test, program), 7, &watch, true).unwrap();
        let json = test.to_json(program);
        let interpreted = sandbox.run_isolated(Test::Json(&json), 7, &watch, true).unwrap();
        assert_eq!(format!("{:?}", direct.results), format!("{:?}", interpreted.results));
        assert_eq!(direct.outcome, Outcome::Passed, "{method}: {direct:?}");
        direct
    };
    let value = |execution: &Execution| execution.results.iter().find(|r| r.at == 1).map(|r| r.value.clone());
    let number = |n: &str| Observed::Number { text: n.into() };

    let counted = run("counted", vec![Value::Number(2.0)]);
    assert!(counted.awaited.is_empty(), "an async iterator is consumed, not awaited as a promise: {counted:?}");
    let items = vec![number("0"), number("1")];
    assert_eq!(value(&counted), Some(Observed::Iterator { done: true, items, asynchronous: true, threw: None }));

    let refused = run("refused", vec![]);
    let Some(Observed::Iterator { done: false, items, asynchronous: true, threw: Some(threw) }) = value(&refused)
    else {
        panic!("{refused:?}")
    };
    assert_eq!(items, [number("1")]);
    assert!(matches!(*threw, Observed::Error { ref name, .. } if name == "RangeError"), "{threw:?}");

    // Nothing is left to give the next item: the consumption ends there, and the test with it.
    let waiting = run("waiting", vec![]);
    assert_eq!(
        value(&waiting),
        Some(Observed::Iterator { done: false, items: vec![], asynchronous: true, threw: None })
    );
    assert_eq!(waiting.stalled, None);

    let items = vec![Value::Number(2.0), Value::Number(5.0)];
    let summed = run("sum", vec![Value::AsyncIterable(items)]);
    assert_eq!(value(&summed), Some(number("7")));
}

#[test]
fn untyped_code_reading_symbol_async_iterator_is_passed_async_iterables_and_its_suite_passes() {
    let out = tempfile::tempdir().unwrap();
    let report =
        generate(&[fixture("async/feed.js")], out.path(), &["--seed", "1", "--budget", "120000", "--timeout", "600"]);
    fully_covered(&report, "Feed", &["countLarge"]);
    let suite: String = written(out.path())
        .iter()
        .filter(|(name, _)| name.ends_with(".test.js") && !name.contains(".failing."))
        .map(|(_, t)| t.clone())
        .collect();
    assert!(suite.contains("(async function* () { yield* ["), "{suite}");
    node_test_passes(&suites(out.path()));
}
