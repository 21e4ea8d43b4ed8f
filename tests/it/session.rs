//! The session stepper as a library: state readable between steps, settings changeable between steps.

use crate::common;

use std::time::Duration;

use flycatcher::inference::{DecisionSource, ParamType};
use flycatcher::model::settings::Settings;
use flycatcher::model::test::{Statement, Value};
use flycatcher::session::{CandidateVerdict, Selection, Session, SessionOptions, Status, StopReason};

fn session(file: &str, settings: Settings) -> Session {
    let options = SessionOptions { files: vec![common::sample(file)], ..Default::default() };
    Session::new(&options, settings).expect("the sample loads")
}

#[test]
fn recording_then_inference_then_election() {
    let mut s = session("linked-list.js", Settings { seed: 4, delay: 5, ..Settings::default() });
    let list = s.subject().program().class_named("LinkedList").expect("LinkedList found");
    let node = s.subject().program().class_named("Node").expect("Node found");
    let add = s.subject().types().params_of(list, "add").to_vec();
    assert_eq!(add.len(), 1, "add takes one parameter");
    let mut saw_invalid = false;
    let mut steps = 0;
    while s.subject().types().get(add[0]).decision.is_none() {
        let report = s.step().unwrap().expect("not finished before inferring");
        saw_invalid |= report.verdict == CandidateVerdict::Invalid;
        steps += 1;
        assert!(steps < 10_000, "add's parameter is never decided");
    }
    assert!(saw_invalid, "candidates with unknowns come first");
    let record = s.subject().types().get(add[0]);
    assert!(record.uses >= 5, "decided only after the delay: {} uses", record.uses);
    assert!(record.members.contains_key("next") || record.members.contains_key("prev"), "{:?}", record.members);
    let decision = record.decision.as_ref().unwrap();
    assert_eq!(decision.ty, ParamType::Class(node), "{}", decision.evidence);
    assert!(decision.evidence.contains("Node"), "{}", decision.evidence);
    // Node's data is never read: no evidence, so a leap of faith with a warning.
    s.run_to_end(|_, _| {}).unwrap();
    let data = s.subject().types().params_of(node, "constructor")[0];
    assert_eq!(s.subject().types().get(data).decision.as_ref().unwrap().source, DecisionSource::LeapOfFaith);
    // Node has nothing to call: its construction is its goal, which the warning goes with.
    let report = flycatcher::app::report::json_report(&s);
    let classes = report["classes"].as_array().unwrap();
    let node_goal = &classes.iter().find(|c| c["name"] == "Node").expect("Node is tested")["constructor"];
    let warnings = node_goal["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .filter_map(|w| w.as_str())
            .any(|w| w.starts_with("Node.constructor(data)") && w.contains("leap of faith")),
        "{node_goal:#}"
    );
    assert!(s.methods().iter().all(|m| m.status == Status::Done(StopReason::Covered)));
    assert!(!s.suite().elected.is_empty());
}

#[test]
fn settings_apply_from_the_next_step() {
    let options = SessionOptions { files: vec![common::fixture("gauge.js")], ..Default::default() };
    let mut s = Session::new(&options, Settings { seed: 2, ..Settings::default() }).unwrap();
    s.step().unwrap();
    let iteration = s.iteration();
    let mut settings = s.settings().clone();
    settings.max_stale = 1;
    settings.budget = 40_000;
    settings.timeout = Duration::from_secs(3600);
    s.set_settings(settings);
    assert_eq!(s.settings().max_stale, 1);
    s.run_to_end(|_, _| {}).unwrap();
    assert!(s.iteration() > iteration);
    let read = &s.methods()[0];
    // Stale at half the new work budget without new coverage, long before the default limits (50,000
    // candidates, half of the default budget) would stop it.
    assert_eq!(read.status, Status::Done(StopReason::Stale), "with max_stale 1 and 40,000 units it stops as stale");
    assert!(read.work < 40_000, "{}", read.work);
}

#[test]
fn a_method_is_stale_only_once_half_its_budget_passed_without_new_coverage() {
    let options = SessionOptions { files: vec![common::fixture("gauge.js")], ..Default::default() };
    let settings =
        Settings { seed: 3, max_stale: 100, budget: 36_000, timeout: Duration::from_secs(3600), ..Settings::default() };
    let mut s = Session::new(&options, settings).unwrap();
    s.run_to_end(|_, _| {}).unwrap();
    let read = &s.methods()[0];
    assert!(read.covered_count() < read.covered.len(), "the fixture keeps a statement out of reach");
    assert!(read.stale > 100, "{} candidates without new coverage", read.stale);
    // 100 candidates without new coverage cost a few hundred units: the count alone would stop it there.
    assert!(
        read.work - read.gained_at >= 18_000,
        "stopped ({:?}) {} units after its last new coverage, before half of its 36,000",
        read.status,
        read.work - read.gained_at
    );
}

#[test]
fn an_overridden_type_is_used_by_the_next_candidates() {
    let mut s = session("circle.js", Settings { seed: 9, delay: 1000, ..Settings::default() });
    let circle = s.subject().program().class_named("Circle").unwrap();
    let index = s.methods().iter().position(|m| m.method == "compare").expect("compare is a method under test");
    s.select(index);
    let other = s.subject().types().params_of(circle, "compare")[0];
    let radius = s.subject().types().params_of(circle, "constructor")[0];
    s.set_type(radius, ParamType::Number, DecisionSource::Overridden);
    s.set_type(other, ParamType::Class(circle), DecisionSource::Overridden);
    let report = s.step().unwrap().unwrap();
    assert_eq!(report.test.method, "compare");
    for statement in &report.test.statements {
        let overridden = match statement {
            Statement::Construct { class, .. } => *class == circle,
            Statement::Call { method, .. } => method == "compare",
            Statement::Rebuild { .. } => panic!("generation never rebuilds: {statement:?}"),
        };
        if overridden {
            assert!(statement.args().iter().all(|a| !matches!(a, Value::Proxy(_))), "{statement:?}");
        }
    }
    assert_eq!(s.subject().types().get(other).current_type(), ParamType::Class(circle));
}

#[test]
fn endless_loops_recursion_and_allocation_end_the_test_not_the_run() {
    let mut settings = Settings { seed: 1, delay: 3, ..Settings::default() };
    settings.budget = 120_000;
    settings.timeout = Duration::from_secs(3600);
    settings.limits.test_time = Duration::from_millis(30);
    settings.limits.memory = 64 << 20;
    let mut s = session("pathological.js", settings);
    let mut limits = Vec::new();
    s.run_to_end(|_, report| {
        if report.outcome.hit_limit() {
            limits.push(format!("{:?}", report.outcome));
        }
    })
    .unwrap();
    assert!(limits.iter().any(|l| l.contains("TimedOut")), "{limits:?}");
    assert!(limits.iter().any(|l| l.contains("StackOverflow")), "{limits:?}");
    assert!(s.finished());
}

#[test]
fn minimising_shortens_tests_and_keeps_what_they_cover() {
    let mut s = session("linked-list.js", Settings { seed: 6, ..Settings::default() });
    s.run_to_end(|_, _| {}).unwrap();
    let coverage = |s: &Session| -> Vec<(String, Vec<u32>)> {
        let mut union: Vec<(String, Vec<u32>)> = Vec::new();
        for e in &s.suite().elected {
            let key = e.test.method.clone();
            match union.iter_mut().find(|(k, _)| *k == key) {
                Some((_, covers)) => covers.extend(&e.covers),
                None => union.push((key, e.covers.clone())),
            }
        }
        for (_, covers) in &mut union {
            covers.sort_unstable();
            covers.dedup();
        }
        // Methods are worked on interleaved, so the order their tests were elected in says nothing.
        union.sort();
        union
    };
    let before = coverage(&s);
    let lines_before: usize = s.suite().elected.iter().map(|e| e.test.statements.len()).sum();
    let tests_before = s.suite().elected.len();
    s.minimize().unwrap();
    let lines_after: usize = s.suite().elected.iter().map(|e| e.test.statements.len()).sum();
    assert!(lines_after < lines_before, "{lines_after} statements after, {lines_before} before");
    assert!(s.suite().elected.len() <= tests_before);
    assert_eq!(coverage(&s), before, "the suite covers exactly what it covered");
    for e in &s.suite().elected {
        assert!(e.minimized);
        // Or, for `Node`, which has nothing to call, the construction under test.
        let constructed =
            e.test.method == "constructor" && matches!(e.test.statements.last(), Some(Statement::Construct { .. }));
        assert!(
            constructed || matches!(e.test.statements.last(), Some(Statement::Call { under_test: true, .. })),
            "the final call stays"
        );
    }
}

#[test]
fn a_parameter_compared_with_a_quotient_is_blamed_on_the_comparison() {
    let file = common::root().join("tests/fixtures/half-compare.js");
    let options = SessionOptions { files: vec![file], ..Default::default() };
    let mut s = Session::new(&options, Settings { seed: 1, delay: 20, ..Settings::default() }).unwrap();
    let half = s.subject().program().class_named("Half").unwrap();
    let (x, n) =
        (s.subject().types().params_of(half, "below")[0], s.subject().types().params_of(half, "constructor")[0]);
    for _ in 0..200 {
        if s.subject().types().get(x).decision.is_some() {
            break;
        }
        s.step().unwrap();
    }
    let coercions: Vec<&String> = s.subject().types().get(x).coercions.keys().collect();
    assert!(
        !coercions.is_empty() && coercions.iter().all(|c| c.starts_with("'<=' at half-compare.js:7")),
        "{coercions:?}"
    );
    let evidence = &s.subject().types().get(x).decision.as_ref().expect("x is decided").evidence;
    assert!(evidence.contains("'<='") && !evidence.contains("'/'"), "{evidence}");
    // The field divided by 2 is the constructor's parameter: its conversion is the division's.
    let coercions: Vec<&String> = s.subject().types().get(n).coercions.keys().collect();
    assert!(coercions.iter().all(|c| c.starts_with("'/' at")), "{coercions:?}");
}

#[test]
fn a_stopped_method_can_be_reopened_and_runs_until_a_limit() {
    // Stale takes 40 candidates and 12,000 units without new coverage (half the budget).
    let settings =
        Settings { seed: 5, max_stale: 40, budget: 24_000, timeout: Duration::from_secs(3600), ..Settings::default() };
    let mut s = session("circle.js", settings);
    s.run_to_end(|_, _| {}).unwrap();
    let index = s.methods().iter().position(|m| m.status == Status::Done(StopReason::Covered)).expect("one is covered");
    assert_eq!(s.select(index), Selection::Reopened(StopReason::Covered));
    assert_eq!(s.methods()[index].status, Status::Running);
    let mut steps = 0;
    while let Some(report) = s.step().unwrap() {
        assert_eq!(report.method, index, "only the reopened method is open");
        steps += 1;
    }
    assert!(steps >= 40, "a reopened covered method runs until it is stale: {steps} steps");
    assert_eq!(s.methods()[index].status, Status::Done(StopReason::Covered), "and says how far it got");
    assert_eq!(s.select(index), Selection::Reopened(StopReason::Covered), "and can be reopened again");
}

#[test]
fn accepting_before_the_delay_takes_the_leading_guess_and_inference_can_take_back_a_fixed_type() {
    let mut s = session("linked-list.js", Settings { seed: 4, delay: 1000, ..Settings::default() });
    let list = s.subject().program().class_named("LinkedList").unwrap();
    let node = s.subject().program().class_named("Node").unwrap();
    let add = s.subject().types().params_of(list, "add")[0];
    let index = s.methods().iter().position(|m| m.method == "add").unwrap();
    s.select(index);
    assert_eq!(s.accept_type(add), None, "nothing seen, nothing to accept");
    while s.subject().leading_guess(add).is_none() {
        s.step().unwrap();
    }
    let guess = s.subject().leading_guess(add).unwrap();
    assert!(s.subject().types().get(add).uses < 1000 && s.subject().types().get(add).decision.is_none());
    assert_eq!(s.accept_type(add), Some(ParamType::Class(node)));
    let decision = s.subject().types().get(add).decision.clone().unwrap();
    assert_eq!(decision.source, DecisionSource::Accepted);
    assert_eq!(decision.evidence, guess.evidence, "the evidence stays visible once accepted");
    s.set_type(add, ParamType::Number, DecisionSource::Overridden);
    assert!(s.reinfer_type(add));
    assert_eq!(s.subject().types().get(add).decision, None, "back to inference");
    assert!(!s.reinfer_type(add), "nothing fixed to give back");
}
