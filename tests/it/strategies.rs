//! The choice of the method under test, the generation strategies (`--strategy`) and the types added
//! with them (RegExp parameters, array elements, callback results).

use crate::common;

use std::collections::BTreeSet;

use common::*;
use flycatcher::generate::exhaustive::COMBINED_CALLS;
use flycatcher::inference::{DecisionSource, ParamType};
use flycatcher::model::settings::Settings;
use flycatcher::model::settings::Strategy;
use flycatcher::model::test::{Statement, Value};
use flycatcher::session::{Session, SessionOptions, Status};

fn session(file: &str, strategy: Strategy, seed: u64) -> Session {
    let mut settings = Settings { seed, ..Settings::default() };
    settings.generation.strategy = strategy;
    let options = SessionOptions { files: vec![sample(file)], ..Default::default() };
    Session::new(&options, settings).expect("the sample loads")
}

/// Fixes every parameter of `class`'s constructor and methods to `ty`.
fn type_everything(s: &mut Session, class: &str, ty: ParamType) {
    let class = s.subject().program().class_named(class).unwrap();
    let functions: Vec<String> = std::iter::once("constructor".to_string())
        .chain(s.subject().program().classes[class].methods.iter().map(|m| m.name.clone()))
        .collect();
    for function in functions {
        for id in s.subject().types().params_of(class, &function).to_vec() {
            s.set_type(id, ty, DecisionSource::Overridden);
        }
    }
}

fn numbers(args: &[Value]) -> Vec<f64> {
    args.iter().map(|a| if let Value::Number(n) = a { *n } else { panic!("{a:?} is not a number") }).collect()
}

#[test]
fn methods_are_worked_on_interleaved_until_all_are_done_and_a_selected_one_is_pinned() {
    let mut s = session("linked-list.js", Strategy::Guided, 5);
    let mut stepped = Vec::new();
    while let Some(report) = s.step().unwrap() {
        if stepped.last() != Some(&report.method) {
            stepped.push(report.method);
        }
        let running: Vec<usize> =
            (0..s.methods().len()).filter(|i| s.methods()[*i].status == Status::Running).collect();
        assert!(running.len() <= 1, "at most one method runs: {running:?}");
        assert_eq!(s.current(), Some(report.method));
    }
    assert!(s.finished());
    let revisited = stepped.iter().enumerate().any(|(i, m)| stepped[..i].contains(m));
    assert!(revisited, "methods take turns, not one after the other: {stepped:?}");

    let mut s = session("linked-list.js", Strategy::Guided, 5);
    let get = s.methods().iter().position(|m| m.method == "get").unwrap();
    s.select(get);
    while s.methods()[get].status == Status::Running {
        let report = s.step().unwrap().unwrap();
        assert_eq!(report.method, get, "a selected method keeps the steps until it stops");
    }
    assert!(matches!(s.methods()[get].status, Status::Done(_)));
    let next = s.step().unwrap().unwrap();
    assert_ne!(next.method, get, "then the others are chosen again");
}

#[test]
fn exhaustive_enumerates_every_canonical_combination_shortest_first() {
    let mut s = session("triangle.js", Strategy::Exhaustive, 1);
    type_everything(&mut s, "Triangle", ParamType::Number);
    let classify = s.methods().iter().position(|m| m.method == "classify").unwrap();
    s.select(classify);
    // Three number parameters of the constructor, five canonical numbers each.
    let mut seen = Vec::new();
    for _ in 0..125 {
        let report = s.step().unwrap().unwrap();
        if report.stopped.is_some() {
            break;
        }
        let test = &report.test;
        assert_eq!(test.statements.len(), 2, "one call first: {test:?}");
        seen.push(numbers(test.statements[0].args()));
    }
    assert!(seen.len() > 100, "classify needs more than the first values: {}", seen.len());
    let distinct: BTreeSet<String> = seen.iter().map(|v| format!("{v:?}")).collect();
    assert_eq!(distinct.len(), seen.len(), "no combination twice");
    assert_eq!(seen[0], vec![0.0, 0.0, 0.0]);
    assert_eq!(seen[1], vec![0.0, 0.0, 1.0], "the last argument varies fastest");
    assert!(seen.contains(&vec![2.0, 2.0, 2.0]) || seen.len() < 125, "equilateral comes in order");
    for values in &seen {
        assert!(values.iter().all(|v| [0.0, 1.0, -1.0, 2.0, 0.5].contains(v)), "canonical pool: {values:?}");
    }
}

#[test]
fn combined_enumerates_short_sequences_then_goes_random() {
    let mut s = session("isbn.js", Strategy::Combined, 2);
    type_everything(&mut s, "IsbnValidator", ParamType::String);
    let normalize = s.methods().iter().position(|m| m.method == "normalize").unwrap();
    s.select(normalize);
    let canonical = ["", "a", "ab"];
    let mut enumerated = 0;
    let mut random_after = None;
    for step in 0..3000 {
        let Some(report) = s.step().unwrap() else { break };
        let calls = report.test.statements.iter().filter(|st| matches!(st, Statement::Call { .. })).count();
        // The random phase passes values of another type now and then: those are not canonical.
        let all_canonical = report.test.statements.iter().flat_map(|st| st.args().iter()).all(|a| match a {
            Value::String(text) => canonical.contains(&text.as_str()),
            _ => false,
        });
        let is_canonical = calls <= COMBINED_CALLS && all_canonical;
        match random_after {
            None if is_canonical => enumerated += 1,
            None => random_after = Some(step),
            Some(_) => {}
        }
        if report.stopped.is_some() {
            break;
        }
    }
    // One string parameter for the constructor and each of the four methods, three canonical strings:
    // 3 * 3 one-call sequences, then 4 * 3 * 3 * 3 two-call ones.
    assert_eq!(enumerated, 9 + 4 * 27, "every sequence of up to two calls first");
    assert_eq!(random_after, Some(enumerated), "then random candidates");
}

#[test]
fn the_same_seed_gives_the_same_tests_under_every_strategy() {
    for strategy in Strategy::ALL {
        let run = || {
            let mut s = session("circle.js", strategy, 8);
            s.run_to_end(|_, _| {}).unwrap();
            s.suite().elected.iter().map(|e| e.test.source(s.subject().program())).collect::<Vec<_>>()
        };
        let first = run();
        assert!(!first.is_empty(), "{}", strategy.name());
        assert_eq!(first, run(), "{}", strategy.name());
    }
}

#[test]
fn exhaustive_combined_and_search_suites_pass_under_node() {
    // Triangle's scalene branch needs three different lengths that make a triangle, which the canonical
    // numbers cannot give: only the combined strategy's random phase covers it. Search climbs to the
    // calibration fixture's equality.
    for (strategy, files) in [
        ("exhaustive", vec![sample("linked-list.js"), sample("schedule.js")]),
        ("combined", vec![sample("linked-list.js"), sample("schedule.js"), sample("triangle.js")]),
        ("search", vec![sample("triangle.js"), fixture("calibration.js")]),
    ] {
        let out = tempfile::tempdir().unwrap();
        for file in files {
            let report = generate(std::slice::from_ref(&file), out.path(), &["--seed", "4", "--strategy", strategy]);
            for (method, covered, statements, _) in methods(&report) {
                assert_eq!(covered, statements, "{strategy}: {method}");
            }
        }
        node_test_passes(&suites(out.path()));
    }
}

#[test]
fn regexp_parameters_are_inferred_and_passed_as_literals() {
    let mut s = session("line-filter.js", Strategy::Guided, 3);
    s.run_to_end(|_, _| {}).unwrap();
    let class = s.subject().program().class_named("LineFilter").unwrap();
    for method in ["matching", "describe"] {
        let pattern = s.subject().types().get(s.subject().types().params_of(class, method)[0]);
        let decision = pattern.decision.as_ref().expect("decided");
        assert_eq!(decision.ty, ParamType::RegExp, "{method}: {}", decision.evidence);
        assert!(decision.evidence.contains("RegExp members"), "{}", decision.evidence);
    }
    let sources: Vec<String> = s.suite().elected.iter().map(|e| e.test.source(s.subject().program())).collect();
    assert!(sources.iter().any(|t| t.contains(".matching(/b/g)")), "the global pattern is refused: {sources:?}");
    assert!(s.methods().iter().all(|m| m.status == Status::Done(flycatcher::session::StopReason::Covered)));
}

#[test]
fn array_elements_and_callback_results_get_types_of_their_own() {
    let mut s = session("cart.js", Strategy::Guided, 2);
    s.run_to_end(|_, _| {}).unwrap();
    let (cart, item) =
        (s.subject().program().class_named("Cart").unwrap(), s.subject().program().class_named("Item").unwrap());
    let items = s.subject().types().params_of(cart, "addAll")[0];
    assert_eq!(s.subject().types().get(items).current_type(), ParamType::Array);
    let element =
        s.subject().types().get(s.subject().types().element_of(items).expect("parameters have element records"));
    assert_eq!(element.name, "items[i]");
    let decision = element.decision.as_ref().expect("the elements' type is decided");
    assert_eq!(decision.ty, ParamType::Class(item), "{}", decision.evidence);
    let label = s.subject().types().params_of(cart, "lines")[0];
    assert_eq!(s.subject().types().get(label).current_type(), ParamType::Function);
    assert!(s.subject().types().get(s.subject().types().result_of(label).unwrap()).decision.is_some());
    let sources: Vec<String> = s.suite().elected.iter().map(|e| e.test.source(s.subject().program())).collect();
    assert!(
        sources.iter().any(|t| t.contains(".addAll([item")),
        "arrays of instances are passed as arrays of variables: {sources:?}"
    );
    assert!(
        sources.iter().any(|t| t.contains(".lines(function () { return \"")),
        "a callback returning a string reaches the end of lines: {sources:?}"
    );
    assert!(s.methods().iter().all(|m| m.status == Status::Done(flycatcher::session::StopReason::Covered)));
}

#[test]
fn optional_arguments_get_undefined_and_subclasses_stand_in_for_their_class() {
    // Cart alone: its `Item` record, otherwise tested by its construction, would take draws of its own.
    let options = SessionOptions { files: vec![sample("cart.js")], classes: vec!["Cart".into()], ..Default::default() };
    let mut settings = Settings { seed: 4, ..Settings::default() };
    settings.generation.strategy = Strategy::Guided;
    let mut s = Session::new(&options, settings).expect("the sample loads");
    s.run_to_end(|_, _| {}).unwrap();
    let total = s.methods().iter().find(|m| m.method == "total").unwrap();
    assert_eq!(total.covered_count(), total.covered.len(), "the plain sum needs an omitted percent");
    let sources: Vec<String> = s.suite().elected.iter().map(|e| e.test.source(s.subject().program())).collect();
    assert!(sources.iter().any(|t| t.contains(".total(undefined)")), "{sources:?}");

    let mut s = session("shapes.mjs", Strategy::Guided, 3);
    let shape = s.subject().program().class_named("Shape").unwrap();
    let other = s.subject().types().params_of(shape, "isLargerThan")[0];
    s.set_type(other, ParamType::Class(shape), DecisionSource::Overridden);
    let index = s.methods().iter().position(|m| m.class == shape && m.method == "isLargerThan");
    let mut passed = BTreeSet::new();
    s.select(index.expect("Shape's isLargerThan is under test"));
    for _ in 0..300 {
        let report = s.step().unwrap().unwrap();
        for statement in &report.test.statements {
            if let Statement::Call { method, args, .. } = statement
                && method == "isLargerThan"
                && let [Value::Variable(v)] = args.as_slice()
            {
                passed.insert(s.subject().program().classes[report.test.variables[*v].class].name.clone());
            }
        }
        if report.stopped.is_some() {
            break;
        }
    }
    assert!(passed.contains("Shape"), "{passed:?}");
    assert!(passed.contains("Rectangle") || passed.contains("Square"), "subclasses too: {passed:?}");
}

#[test]
fn argument_instances_are_put_into_states_and_null_checked_parameters_get_null() {
    let out = tempfile::tempdir().unwrap();
    let report =
        generate(&[sample("warehouse.js")], out.path(), &["--seed", "2", "--budget", "300000", "--timeout", "600"]);
    for (method, covered, statements, _) in methods(&report) {
        assert_eq!(covered, statements, "{method}");
    }
    let suite = std::fs::read_to_string(out.path().join("Warehouse.test.js")).unwrap();
    // receive's loop needs a shipment that got lines and was sealed before it was passed.
    let filled = suite.split("test(").any(|t| t.contains(".add(") && t.contains(".seal();") && t.contains(".receive("));
    assert!(filled, "{suite}");
    // count compares sku with null (`sku == null`): `null`, or the argument left out (`undefined`
    // equals `null` there), takes the branch that sums every SKU.
    assert!(suite.contains(".count(null)") || suite.contains(".count()"), "count compares sku with null: {suite}");
    node_test_passes(&suites(out.path()));

    // The report's random generator builds argument instances fresh, and never reaches receive's loop.
    let out = tempfile::tempdir().unwrap();
    let report = generate(
        &[sample("warehouse.js")],
        out.path(),
        &["--seed", "2", "--budget", "60000", "--timeout", "600", "--strategy", "random"],
    );
    let receive = methods(&report).into_iter().find(|m| m.0.ends_with("receive")).unwrap();
    assert!(receive.1 < receive.2, "{receive:?}");
}

#[test]
fn argument_states_are_copied_from_elected_receivers() {
    use rand::SeedableRng;
    let mut s = session("warehouse.js", Strategy::Guided, 5);
    s.run_to_end(|_, _| {}).unwrap();
    let shipment = s.subject().program().class_named("Shipment").unwrap();
    let warehouse = s.subject().program().class_named("Warehouse").unwrap();
    // What `statements` called on `receiver`.
    let calls_on = |statements: &[Statement], receiver: usize| -> Vec<String> {
        statements
            .iter()
            .filter_map(|st| match st {
                Statement::Call { receiver: r, method, args, .. } if *r == receiver => {
                    Some(format!("{method}{args:?}"))
                }
                _ => None,
            })
            .collect()
    };
    // What elected tests of Shipment did to their receiver before their last call, the one a copy stops
    // at: earlier calls of the method under test made the state as well, and are copied with the rest.
    let prefixes: BTreeSet<Vec<String>> = s
        .suite()
        .elected
        .iter()
        .filter(|e| e.test.class == shipment)
        .map(|e| calls_on(&e.test.statements[..e.test.statements.len() - 1], 0))
        .filter(|p| !p.is_empty())
        .collect();
    assert!(!prefixes.is_empty(), "Shipment's elected tests call methods before the one under test");
    let elected: Vec<&flycatcher::model::test::TestCase> = s.suite().elected.iter().map(|e| &e.test).collect();
    let settings = Settings::default().generation;
    let constants = flycatcher::generate::guided::ConstantPool::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let (mut copied, mut fresh) = (0, 0);
    for _ in 0..300 {
        let request = flycatcher::generate::Request {
            program: s.subject().program(),
            types: s.subject().types(),
            settings: &settings,
            constants: &constants,
            class: warehouse,
            method: "receive",
            elected: &elected,
            hazards: s.subject().hazards(),
            returns: s.subject().returns(),
        };
        let test = flycatcher::generate::random::generate(&request, &mut rng);
        for v in (0..test.variables.len()).filter(|v| test.variables[*v].class == shipment) {
            let calls = calls_on(&test.statements, v);
            if prefixes.contains(&calls) {
                copied += 1;
            } else if !calls.is_empty() {
                fresh += 1;
            }
        }
    }
    assert!(copied > 0 && fresh > 0, "states both copied ({copied}) and random ({fresh})");
}

/// Candidates that keep an elected test's construction (three numbers for a triangle) but are not that
/// test: mutants, which fresh random tests almost never are.
fn near_elected_candidates(strategy: Strategy) -> usize {
    let mut s = session("triangle.js", strategy, 6);
    type_everything(&mut s, "Triangle", ParamType::Number);
    let classify = s.methods().iter().position(|m| m.method == "classify").unwrap();
    s.select(classify);
    let mut near = 0;
    for _ in 0..400 {
        let Some(report) = s.step().unwrap() else { break };
        let test = &report.test;
        near += usize::from(
            s.suite()
                .elected
                .iter()
                .any(|e| e.test.statements[0] == test.statements[0] && e.test.statements != test.statements),
        );
        if report.stopped.is_some() {
            break;
        }
    }
    near
}

#[test]
fn search_mutates_the_tests_that_reached_something() {
    let (search, guided) =
        (near_elected_candidates(Strategy::SearchCoverage), near_elected_candidates(Strategy::Guided));
    assert!(search >= 10 && search > 3 * guided, "search {search}, guided {guided}");
}

/// Steps `Calibration#check` (an equality between scaled arguments) until it is fully covered or
/// `budget` candidates ran; the candidates it took to cover it.
fn steps_to_calibrate(strategy: Strategy, seed: u64, budget: u64) -> Option<u64> {
    // Counted in candidates, not time: no time or staleness limit ends the method first.
    let mut settings =
        Settings { seed, timeout: std::time::Duration::from_secs(3600), budget: 3600 * 60_000, ..Settings::default() };
    settings.max_stale = u64::MAX;
    settings.generation.strategy = strategy;
    let options = SessionOptions { files: vec![fixture("calibration.js")], ..Default::default() };
    let mut s = Session::new(&options, settings).expect("the fixture loads");
    let check = s.methods().iter().position(|m| m.method == "check").unwrap();
    s.select(check);
    while s.methods()[check].executions < budget {
        let report = s.step().unwrap().expect("check is still running");
        if report.stopped.is_some() {
            break;
        }
    }
    let m = &s.methods()[check];
    (m.status == Status::Done(flycatcher::session::StopReason::Covered)).then_some(m.executions)
}

#[test]
fn search_with_branch_distance_meets_an_equality_that_other_strategies_miss() {
    const BUDGET: u64 = 2000;
    const GUIDED_BUDGET: u64 = 2 * BUDGET;
    for seed in 1..=3 {
        let search = steps_to_calibrate(Strategy::Search, seed, BUDGET);
        assert!(search.is_some(), "seed {seed}: search did not cover check within {BUDGET} candidates");
        for other in [Strategy::Random, Strategy::SearchCoverage] {
            let steps = steps_to_calibrate(other, seed, BUDGET);
            assert_eq!(steps, None, "seed {seed}: {} covered check ({steps:?}); the fixture is too easy", other.name());
        }
        // Guided hands the method to search once it stops progressing, and gets there too: after the 200
        // candidates or more of its plateau, and a climb from its own candidates, whose length has a
        // long tail (one seed of a dozen takes more than the budget of the strategies above).
        let guided = steps_to_calibrate(Strategy::Guided, seed, GUIDED_BUDGET);
        assert!(guided.is_some(), "seed {seed}: guided did not cover check within {GUIDED_BUDGET} candidates");
    }
}

#[test]
fn guided_measures_branch_distances_only_once_a_method_stops_progressing() {
    let options = SessionOptions { files: vec![fixture("calibration.js")], ..Default::default() };
    let open = |strategy: Strategy| {
        let mut settings = Settings { seed: 2, ..Settings::default() };
        settings.generation.strategy = strategy;
        Session::new(&options, settings).expect("the fixture loads")
    };
    // Outcome 0 is the `then` of `coarse > 400 && coarse * 7 === fine + 1234`: reached, not taken, its
    // distance kept by the archive of the closest candidates.
    let mut search = open(Strategy::Search);
    let check = search.methods().iter().position(|m| m.method == "check").unwrap();
    search.select(check);
    while search.methods()[check].archive.is_empty() {
        search.step().unwrap().expect("check is still running");
    }
    let distance = search.methods()[check].archive.distance(0);
    assert!(distance.is_some_and(|d| d > 0.0 && d < 2.0), "{distance:?}");

    let mut guided = open(Strategy::Guided);
    guided.select(check);
    while !guided.methods()[check].searching {
        guided.step().unwrap().expect("check is still running");
        assert!(guided.methods()[check].archive.is_empty(), "no distance before the plateau");
    }
    assert!(guided.methods()[check].stale >= 200);
    while guided.methods()[check].archive.is_empty() {
        guided.step().unwrap().expect("check is still running");
    }
    assert!(guided.methods()[check].archive.distance(0).is_some());

    // Code loaded for a strategy that never measures cannot be searched with distances.
    let mut random = open(Strategy::Random);
    let mut settings = random.settings().clone();
    settings.generation.strategy = Strategy::Search;
    random.set_settings(settings);
    assert!(random.warnings().iter().any(|w| w.contains("without branch distances")), "{:?}", random.warnings());
}
