//! Coverage over time per sample method, for each generation strategy in the same run, with the same
//! seeds and budgets and no regular expressions given: time to full statement coverage, and coverage
//! reached after 1 s and 5 s of work on the method. The Flycatcher report's measure was methods fully
//! covered within 1 s (14 of 22) and 5 s (20 of 22). Run with `cargo bench --bench coverage`; it
//! prints a table and totals, and asserts nothing: times depend on the machine.

use std::path::PathBuf;
use std::time::Duration;

use flycatcher::generate::random::Strategy;
use flycatcher::session::{Session, SessionOptions, Settings, Status};

const SAMPLES: &[&str] = &[
    "linked-list.js",
    "circle.js",
    "runtime-defined.js",
    "namespace.js",
    "triangle.js",
    "isbn.js",
    "shapes.mjs",
    "bank-account.cjs",
    "schedule.js",
];
const STRATEGIES: [Strategy; 2] = [Strategy::Random, Strategy::Guided];
const BUDGET: Duration = Duration::from_secs(5);
const EARLY: Duration = Duration::from_secs(1);

/// What one method reached under one strategy.
#[derive(Clone, Default)]
struct Measure {
    name: String,
    time_to_full: Option<Duration>,
    at_early: f64,
    at_budget: f64,
}

fn run(file: &str, strategy: Strategy) -> Vec<Measure> {
    let mut settings = Settings { seed: 1, timeout: BUDGET, ..Settings::default() };
    settings.generation.strategy = strategy;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples").join(file);
    let mut session =
        Session::new(&SessionOptions { files: vec![path], ..Default::default() }, settings).expect("sample loads");
    let mut early: Vec<Option<f64>> = vec![None; session.methods.len()];
    while let Some(report) = session.step().expect("step") {
        let m = &session.methods[report.method];
        if early[report.method].is_none() && (m.elapsed >= EARLY || matches!(m.status, Status::Done(_))) {
            early[report.method] = Some(m.coverage_percent());
        }
    }
    session
        .methods
        .iter()
        .zip(early)
        .map(|(m, early)| Measure {
            name: format!("{}.{}", session.program.classes[m.class].name, m.method),
            time_to_full: m.time_to_full,
            at_early: early.unwrap_or_else(|| m.coverage_percent()),
            at_budget: m.coverage_percent(),
        })
        .collect()
}

fn main() {
    let time = |t: Option<Duration>| t.map(|t| format!("{:.3}s", t.as_secs_f64())).unwrap_or_else(|| "-".into());
    println!(
        "{:<34} {:>9} {:>6} {:>6}   {:>9} {:>6} {:>6}   {:>7}",
        "method", "random", "@1s", "@5s", "guided", "@1s", "@5s", "speedup"
    );
    let mut totals = [(0usize, 0usize, 0.0f64, 0usize); 2];
    for file in SAMPLES {
        let results: Vec<Vec<Measure>> = STRATEGIES.iter().map(|s| run(file, *s)).collect();
        for (index, random) in results[0].iter().enumerate() {
            let guided = &results[1][index];
            let speedup = match (random.time_to_full, guided.time_to_full) {
                (Some(r), Some(g)) => format!("{:.1}x", r.as_secs_f64() / g.as_secs_f64().max(1e-6)),
                (None, Some(_)) => "only guided".into(),
                _ => "-".into(),
            };
            println!(
                "{:<34} {:>9} {:>5.0}% {:>5.0}%   {:>9} {:>5.0}% {:>5.0}%   {:>7}",
                random.name,
                time(random.time_to_full),
                random.at_early,
                random.at_budget,
                time(guided.time_to_full),
                guided.at_early,
                guided.at_budget,
                speedup
            );
        }
        for (strategy, measures) in results.iter().enumerate() {
            for m in measures {
                let total = &mut totals[strategy];
                total.0 += usize::from(m.time_to_full.is_some_and(|t| t <= EARLY));
                total.1 += usize::from(m.time_to_full.is_some_and(|t| t <= BUDGET));
                total.2 += m.at_early;
                total.3 += 1;
            }
        }
    }
    for (strategy, (within_early, within_budget, sum_early, count)) in STRATEGIES.iter().zip(totals) {
        println!(
            "{}: {within_early} of {count} methods fully covered within 1 s, {within_budget} within 5 s; \
             sum of coverage at 1 s: {sum_early:.0}%",
            strategy.name()
        );
    }
    println!("guided / random, sum of coverage at 1 s: {:.2}", totals[1].2 / totals[0].2.max(1.0));
}
