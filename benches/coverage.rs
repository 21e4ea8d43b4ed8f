//! Coverage over time per sample method, for each generation strategy in the same run, with the same
//! seeds and budgets and no regular expressions given: time to full statement coverage, and coverage
//! reached after 1 s and after the budget (5 s) of work on the method, with each strategy's speed-up
//! over random. The Flycatcher report's measure was methods fully covered within 1 s (14 of 22) and
//! 5 s (20 of 22). Run with `cargo bench --bench coverage` (`-- --quick` for a 1 s budget, `-- --budget
//! SECS` for another); it prints a table and totals, and asserts nothing: times depend on the machine.

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
    "line-filter.js",
    "cart.js",
    "warehouse.js",
];
const EARLY: Duration = Duration::from_secs(1);

/// What one method reached under one strategy.
#[derive(Clone, Default)]
struct Measure {
    name: String,
    time_to_full: Option<Duration>,
    at_early: f64,
    at_budget: f64,
}

fn run(file: &str, strategy: Strategy, budget: Duration) -> Vec<Measure> {
    let mut settings = Settings { seed: 1, timeout: budget, ..Settings::default() };
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

/// The budget per method from the command line: `--quick` (1 s), `--budget SECS`, or 5 s.
fn budget() -> Duration {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--quick") {
        return Duration::from_secs(1);
    }
    let given = args.iter().position(|a| a == "--budget").and_then(|i| args.get(i + 1));
    match given.map(|text| text.parse::<f64>()) {
        Some(Ok(seconds)) if seconds > 0.0 && seconds.is_finite() => Duration::from_secs_f64(seconds),
        Some(_) => {
            eprintln!("--budget takes a positive number of seconds");
            std::process::exit(2);
        }
        None => Duration::from_secs(5),
    }
}

/// Time to full coverage as a speed-up over random's, or which of them got there at all.
fn speedup(random: Option<Duration>, other: Option<Duration>) -> String {
    match (random, other) {
        (Some(r), Some(o)) => format!("{:.1}x", r.as_secs_f64() / o.as_secs_f64().max(1e-6)),
        (None, Some(_)) => "only".into(),
        (Some(_), None) => "never".into(),
        (None, None) => "-".into(),
    }
}

fn main() {
    let budget = budget();
    let at = format!("@{}s", budget.as_secs_f64());
    let time = |t: Option<Duration>| t.map(|t| format!("{:.3}s", t.as_secs_f64())).unwrap_or_else(|| "-".into());
    print!("{:<30}", "method");
    for strategy in Strategy::ALL {
        print!(" | {:>10} {:>5} {:>5} {:>6}", strategy.name(), "@1s", at, "vs rnd");
    }
    println!();
    let mut totals = [(0usize, 0usize, 0.0f64, 0usize); Strategy::ALL.len()];
    let mut worse = vec![Vec::new(); Strategy::ALL.len()];
    for file in SAMPLES {
        let results: Vec<Vec<Measure>> = Strategy::ALL.iter().map(|s| run(file, *s, budget)).collect();
        for (index, random) in results[0].iter().enumerate() {
            print!("{:<30}", random.name);
            for (strategy, measures) in results.iter().enumerate() {
                let m = &measures[index];
                print!(
                    " | {:>10} {:>4.0}% {:>4.0}% {:>6}",
                    time(m.time_to_full),
                    m.at_early,
                    m.at_budget,
                    if strategy == 0 { String::new() } else { speedup(random.time_to_full, m.time_to_full) }
                );
                // A method where a strategy stays more than 5 points below random at 1 s.
                if m.at_early + 5.0 < random.at_early {
                    worse[strategy].push(format!("{} ({:.0}% < {:.0}%)", m.name, m.at_early, random.at_early));
                }
                let total = &mut totals[strategy];
                total.0 += usize::from(m.time_to_full.is_some_and(|t| t <= EARLY));
                total.1 += usize::from(m.time_to_full.is_some_and(|t| t <= budget));
                total.2 += m.at_early;
                total.3 += 1;
            }
            println!();
        }
    }
    for (strategy, (within_early, within_budget, sum_early, count)) in Strategy::ALL.iter().zip(totals) {
        println!(
            "{}: {within_early} of {count} methods fully covered within 1 s, {within_budget} within {:.1} s; sum of \
             coverage at 1 s: {sum_early:.0}% ({:.2} of random's)",
            strategy.name(),
            budget.as_secs_f64(),
            sum_early / totals[0].2.max(1.0)
        );
    }
    for (strategy, methods) in Strategy::ALL.iter().zip(&worse).skip(1) {
        if !methods.is_empty() {
            println!("{} is more than 5 points below random at 1 s on: {}", strategy.name(), methods.join(", "));
        }
    }
}
