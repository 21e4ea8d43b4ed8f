//! Isolation decided at run time (issue 13): tests share one context; a write to shared state, which the
//! instrumenter marks, is undone after the test, or the context built again when it cannot be undone
//! exactly, so that no test sees what another wrote.

use crate::common;

use common::*;
use flycatcher::app::bench::{BenchOptions, run};

/// `flycatcher verify` passes on the suite in `dir`, run `runs` times as written and once more in
/// reverse order.
fn verify_passes(dir: &std::path::Path, runs: u32) {
    let runs = runs.to_string();
    let dir = dir.to_str().unwrap();
    let output = flycatcher(&["verify", dir, "--node-modules", "tests/runners/node_modules", "--runs", &runs]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

/// `flycatcher bench` on fixture `name` for 0.3 s: nearly every candidate ran in the context the one
/// before it used.
fn shares_its_context(name: &str) {
    let bench = run(&BenchOptions { file: fixture(name), seconds: 0.3, seed: 1, steady: false }).unwrap();
    let (candidates, contexts) = candidates_and_contexts(&bench);
    assert!(contexts * 10 < candidates, "{bench}");
}

/// `generate` on fixture `name` into a new folder, which no test of it behaved differently alone in.
fn generate_without_kept_state(name: &str, options: &[&str]) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture(name)], out.path(), &[&["--seed", "1"], options].concat());
    let warnings = report["warnings"].to_string();
    assert!(!warnings.contains("behaved differently"), "{warnings}");
    (out, report)
}

#[test]
fn every_kind_of_shared_write_stays_with_the_test_that_made_it() {
    // Each method of the ledger answers differently once its state was written (an implicit global, a
    // module `let`, a static property, a prototype property, a module array and Map changed through
    // methods, a module object by key; a factory's closure counter): a candidate that saw an earlier
    // candidate's write would cover a statement it does not cover alone, and be caught when elected.
    let (out, report) = generate_without_kept_state("bench/ledger.cjs", &["--budget", "60000", "--timeout", "600"]);
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("what a test writes there is undone after it"), "{warnings}");
    for (name, covered, total, _) in methods(&report) {
        assert_eq!(covered, total, "{name}");
    }
    // As written and in reverse order, each test giving the same result as alone.
    verify_passes(out.path(), 1);
}

#[test]
fn a_context_is_shared_until_a_test_writes_shared_state() {
    // Of the large sample's hundreds of methods only `setPrecision` writes shared state (its static
    // configuration): nearly every candidate runs in the context the one before it used.
    shares_its_context("bench/measures.js");
}

#[test]
fn a_static_private_field_is_undone_like_any_other_shared_write() {
    // Every test constructs a `Ticket`, which numbers it in `static #issued`: written back after each
    // test, within the class where the name is in scope, not a new context per test.
    shares_its_context("private-counter.cjs");
    // `first` answers 'later' to a test that made two tickets, or that saw an earlier test's ticket:
    // had the write not been undone, a candidate would have covered alone less than after others.
    let (out, report) = generate_without_kept_state("private-counter.cjs", &["--budget", "30000", "--timeout", "600"]);
    assert!(methods(&report).iter().all(|(_, covered, _, _)| *covered > 0), "{report}");
    verify_passes(out.path(), 1);
}

#[test]
fn state_no_marked_write_reaches_never_makes_an_exported_test_depend_on_another() {
    // `tick` counts its calls in a module object reached through a function's result, which no mark
    // journals: in the shared context and in the context tests run alone in, a call sees earlier calls.
    // Whatever was elected, the exported suite must pass as written, again, and in reverse order.
    let out = tempfile::tempdir().unwrap();
    let report =
        generate(&[fixture("hidden-state.cjs")], out.path(), &["--seed", "1", "--budget", "30000", "--timeout", "600"]);
    assert!(!methods(&report).is_empty(), "{report}");
    verify_passes(out.path(), 3);
}

#[test]
fn statements_only_describing_a_result_covers_are_no_kept_state() {
    // Elections run a test alone and describe its results; a getter or a trap the method defined runs
    // then, and not in the undescribed run that found the test: that difference is no state kept
    // between tests, and both methods get their tests.
    let (out, _) = generate_without_kept_state("described-getter.js", &["--budget", "60000", "--timeout", "600"]);
    let suite = std::fs::read_to_string(out.path().join("Reporter.test.js")).unwrap();
    assert!(suite.contains(".failure(") && suite.contains(".view("), "{suite}");
}

#[test]
fn an_error_thrown_where_distances_are_measured_is_no_kept_state() {
    // Search measures branch distances in the runs that find tests, never in a run alone: a condition
    // that throws throws from its measuring form there, at another column of the instrumented line than
    // its plain form alone. Same error, same operation of the user's code: no state kept between tests.
    let (out, report) = generate_without_kept_state(
        "measured-throw.js",
        &["--budget", "60000", "--timeout", "600", "--strategy", "search"],
    );
    for (name, covered, total, _) in methods(&report) {
        assert_eq!(covered, total, "{name}");
    }
    verify_passes(out.path(), 1);
}

#[test]
fn a_sandbox_of_a_program_another_left_on_the_thread_runs_its_tests_alone_as_in_a_new_context() {
    // The context a sandbox ran tests alone in is kept for the next sandbox of the program when the
    // journal put it back as loaded (see `sandbox/pool.rs`), and only then: whatever order the
    // sandboxes come in, each test alone finds the program as it loaded.
    use flycatcher::discovery::sandbox_expression;
    use flycatcher::model::observed::Outcome;
    use flycatcher::model::settings::Settings;
    use flycatcher::model::test::{Statement, TestCase, Value, Variable};
    use flycatcher::sandbox::{Sandbox, Test, Watch};
    use flycatcher::session::{Session, SessionOptions};

    let options = SessionOptions { files: vec![fixture("turnstile.cjs")], ..Default::default() };
    let session = Session::new(&options, Settings::default()).unwrap();
    let (code, program) = (session.subject().code(), session.subject().program());
    let class = program.class_named("Turnstile").expect("Turnstile found");
    let expressions: Vec<String> = program.classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let test = |method: &str| TestCase {
        class,
        method: method.into(),
        variables: vec![Variable { class, name: "turnstile".into() }],
        statements: vec![
            Statement::Construct { variable: 0, class, args: vec![] },
            Statement::call(0, method, vec![Value::String("ann".into())], true),
        ],
    };
    let watch = Watch::of(0..code.statement_count, 0..code.branch_count);
    for method in ["push", "push", "enter", "enter", "push", "enter"] {
        for _ in 0..2 {
            let mut sandbox = Sandbox::new(code, session.settings().limits.clone()).unwrap();
            sandbox.bind_classes(&expressions).unwrap();
            let alone = sandbox.run_isolated(Test::Case(&test(method), program), 1, &watch, true).unwrap();
            assert_eq!(alone.outcome, Outcome::Passed, "{method}");
        }
    }
}

#[test]
fn a_context_another_sandbox_left_on_the_thread_counts_a_tests_work_as_a_new_one() {
    // The pooled context's tests moved QuickJS's countdown to its next interrupt check; taken by the next
    // sandbox, it is set back to where it stood in the new context, so a test's counted work (which
    // budgets and the mutation analysis's judgements follow) does not depend on what ran before it.
    use flycatcher::discovery::sandbox_expression;
    use flycatcher::model::settings::Settings;
    use flycatcher::model::test::{Statement, TestCase, Value, Variable};
    use flycatcher::sandbox::{Sandbox, Test, Watch};
    use flycatcher::session::{Session, SessionOptions};

    let options = SessionOptions { files: vec![fixture("spinner.cjs")], ..Default::default() };
    let session = Session::new(&options, Settings::default()).unwrap();
    let (code, program) = (session.subject().code(), session.subject().program());
    let class = program.class_named("Spinner").expect("Spinner found");
    let expressions: Vec<String> = program.classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let spin = |turns: f64| TestCase {
        class,
        method: "spin".into(),
        variables: vec![Variable { class, name: "spinner".into() }],
        statements: vec![
            Statement::Construct { variable: 0, class, args: vec![] },
            Statement::call(0, "spin", vec![Value::Number(turns)], true),
        ],
    };
    let watch = Watch::of(0..code.statement_count, 0..code.branch_count);
    let sandbox = || {
        let mut sandbox = Sandbox::new(code, session.settings().limits.clone()).unwrap();
        sandbox.bind_classes(&expressions).unwrap();
        sandbox
    };
    let work = |sandbox: &mut Sandbox, turns: f64| {
        sandbox.run_isolated(Test::Case(&spin(turns), program), 1, &watch, false).unwrap().work
    };
    // What each length counts in a new context: each sandbox builds one (none is kept on the thread
    // while tests run in a new context each).
    let lengths: Vec<f64> = (0..8).map(|k| 40_000.0 + 700.0 * k as f64).collect();
    let new: Vec<u64> = lengths
        .iter()
        .map(|&turns| {
            let mut sandbox = sandbox();
            let counted = work(&mut sandbox, turns);
            sandbox.set_fresh_each_test(true);
            counted
        })
        .collect();
    // Then each sandbox takes the context the one before left, whose tests moved the countdown.
    let mut first = sandbox();
    work(&mut first, 1_234.0);
    drop(first);
    for (i, &turns) in lengths.iter().enumerate() {
        let mut next = sandbox();
        assert_eq!(work(&mut next, turns), new[i], "{turns} turns");
        work(&mut next, 2_345.0 + 1_111.0 * i as f64);
    }
}
