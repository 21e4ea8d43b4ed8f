//! Functions as results: a call's result that is a function of the code under test (an unsubscribe
//! closure, a counter's `next`, `once`'s wrapper) is bound and called by later statements of the test
//! (`const off = hub.on("a", fn); off();`), so the closure's code, which runs only then, is covered and
//! asserted as the method's. The suites pass under Node, and `generate --update` reads their manifests
//! back.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "20000", "--timeout", "600"];

fn regression_suite(out: &std::path::Path, name: &str) -> String {
    let suite = out.join(name);
    std::fs::read_to_string(&suite).unwrap_or_else(|e| panic!("{}: {e}; {:?}", suite.display(), suites(out)))
}

fn fully_covered(report: &serde_json::Value) {
    for (method, covered, statements, stop) in methods(report) {
        assert_eq!(covered, statements, "{method} covered {covered}/{statements} (stop: {stop})");
    }
}

#[test]
fn an_unsubscribe_closure_an_emitter_returns_is_called_and_its_branches_covered() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("returned/signal-hub.js")], out.path(), BUDGET);
    fully_covered(&report);
    let suite = regression_suite(out.path(), "SignalHub.test.js");
    // Named after the function (`off`), called as a function, its answers asserted.
    assert!(suite.contains("const off = signalHub.on("), "{suite}");
    assert!(suite.contains("assert.strictEqual(off(), "), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_returned_function_whose_calls_give_promises_is_awaited_as_the_sandbox_awaited_it() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("returned/jobs.js")], out.path(), BUDGET);
    fully_covered(&report);
    let suite = regression_suite(out.path(), "Jobs.test.js");
    // The receipt, not a promise, is what the sandbox described: the suite awaits the call too, of a plain
    // function answering a promise and of an async function alike.
    assert!(suite.contains("await finisherResult(") && suite.contains("await starterResult("), "{suite}");
    assert!(!suite.contains("strictEqual(finisherResult(") && !suite.contains("strictEqual(starterResult("), "{suite}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn closures_higher_order_functions_return_are_called_and_kept_on_update() {
    let out = tempfile::tempdir().unwrap();
    let file = fixture("returned/combinators.js");
    let report = generate(std::slice::from_ref(&file), out.path(), BUDGET);
    // `counter`'s `next` wraps past 100 only on a call of its own, `once` and `memoize` answer from
    // their state only on a second call.
    fully_covered(&report);
    let suite = regression_suite(out.path(), "combinators.test.js");
    assert!(suite.contains("const next = counter("), "{suite}");
    assert!(suite.contains("next("), "{suite}");
    node_test_passes(&suites(out.path()));
    let (file, out) = (file.display().to_string(), out.path().display().to_string());
    let again = flycatcher(&[&["generate", file.as_str(), "--out", out.as_str(), "--update"], BUDGET].concat());
    assert!(again.status.success(), "{}", text(&again));
    let updated = regression_suite(std::path::Path::new(&out), "combinators.test.js");
    assert_eq!(updated, suite, "the suite changed on --update");
}
