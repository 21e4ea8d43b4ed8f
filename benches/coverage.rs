//! Coverage over time per sample method, for each generation strategy in the same run, with the same
//! seeds and budgets and no regular expressions given: time to full statement coverage (the median over
//! the seeds that reached it), and mean coverage reached after 1 s and after the budget (5 s) of work on
//! the method, with each strategy's speed-up over random. The Flycatcher report's measure was methods
//! fully covered within 1 s (14 of 22) and 5 s (20 of 22). Run with `cargo bench --bench coverage`
//! (`-- --quick` for a 1 s budget, `-- --budget SECS` for another, `-- --seeds N` for seeds 1 to N,
//! 3 by default: one seed cannot tell a strategy's weakness from bad luck); it prints a table and totals,
//! and asserts nothing: times depend on the machine.

use std::path::PathBuf;
use std::time::Duration;

use flycatcher::model::settings::Settings;
use flycatcher::model::settings::Strategy;
use flycatcher::session::{Session, SessionOptions, Status};

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
    "pathological.js",
    "ticket-queue.cjs",
];
const EARLY: Duration = Duration::from_secs(1);

/// What one method reached under one strategy with one seed.
#[derive(Clone, Default)]
struct Measure {
    name: String,
    time_to_full: Option<Duration>,
    at_early: f64,
    at_budget: f64,
}

/// What one method reached under one strategy over all seeds.
struct Summary {
    name: String,
    /// Median time to full coverage over the seeds that reached it.
    time_to_full: Option<Duration>,
    /// Seeds that reached full coverage within 1 s, and within the budget.
    full_early: usize,
    full_budget: usize,
    mean_early: f64,
    mean_budget: f64,
}

impl Summary {
    /// Sums up one method's measures, one per seed.
    fn of(measures: &[Measure]) -> Summary {
        let mut times: Vec<Duration> = measures.iter().filter_map(|m| m.time_to_full).collect();
        times.sort();
        let count = measures.len().max(1) as f64;
        Summary {
            name: measures[0].name.clone(),
            time_to_full: times.get(times.len() / 2).copied().filter(|_| times.len() * 2 > measures.len()),
            full_early: times.iter().filter(|t| **t <= EARLY).count(),
            full_budget: times.len(),
            mean_early: measures.iter().map(|m| m.at_early).sum::<f64>() / count,
            mean_budget: measures.iter().map(|m| m.at_budget).sum::<f64>() / count,
        }
    }
}

fn run(file: &str, strategy: Strategy, budget: Duration, seed: u64) -> Vec<Measure> {
    let mut settings = Settings { seed, timeout: budget, ..Settings::default() };
    settings.generation.strategy = strategy;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples").join(file);
    let mut session =
        Session::new(&SessionOptions { files: vec![path], ..Default::default() }, settings).expect("sample loads");
    let mut early: Vec<Option<f64>> = vec![None; session.methods().len()];
    while let Some(report) = session.step().expect("step") {
        let m = &session.methods()[report.method];
        if early[report.method].is_none() && (m.elapsed >= EARLY || matches!(m.status, Status::Done(_))) {
            early[report.method] = Some(m.coverage_percent());
        }
    }
    session
        .methods()
        .iter()
        .zip(early)
        .map(|(m, early)| Measure {
            name: format!("{}.{}", session.subject().program().classes[m.class].name, m.method),
            time_to_full: m.time_to_full,
            at_early: early.unwrap_or_else(|| m.coverage_percent()),
            at_budget: m.coverage_percent(),
        })
        .collect()
}

/// The value following `flag` on the command line, parsed, or `default`; exits with `expected` when
/// it does not parse or is not accepted.
fn option<T: std::str::FromStr>(flag: &str, default: T, accept: impl Fn(&T) -> bool, expected: &str) -> T {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == flag).map(|i| args.get(i + 1).and_then(|text| text.parse::<T>().ok())) {
        None => default,
        Some(Some(value)) if accept(&value) => value,
        Some(_) => {
            eprintln!("{flag} takes {expected}");
            std::process::exit(2);
        }
    }
}

/// The budget per method from the command line: `--quick` (1 s), `--budget SECS`, or 5 s.
fn budget() -> Duration {
    if std::env::args().any(|a| a == "--quick") {
        return Duration::from_secs(1);
    }
    let seconds = option("--budget", 5.0, |s: &f64| *s > 0.0 && s.is_finite(), "a positive number of seconds");
    Duration::from_secs_f64(seconds)
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
    let seeds = option("--seeds", 3u64, |n| *n > 0, "a positive number of seeds");
    let at = format!("@{}s", budget.as_secs_f64());
    let time = |t: Option<Duration>| t.map(|t| format!("{:.3}s", t.as_secs_f64())).unwrap_or_else(|| "-".into());
    println!("seeds 1 to {seeds}; times are medians, coverage means");
    print!("{:<30}", "method");
    for strategy in Strategy::ALL {
        print!(" | {:>10} {:>5} {:>5} {:>6}", strategy.name(), "@1s", at, "vs rnd");
    }
    println!();
    let mut totals = [(0usize, 0usize, 0.0f64, 0usize); Strategy::ALL.len()];
    let mut worse = vec![Vec::new(); Strategy::ALL.len()];
    for file in SAMPLES {
        let results: Vec<Vec<Summary>> = Strategy::ALL
            .iter()
            .map(|strategy| {
                let runs: Vec<Vec<Measure>> = (1..=seeds).map(|seed| run(file, *strategy, budget, seed)).collect();
                (0..runs[0].len())
                    .map(|method| Summary::of(&runs.iter().map(|r| r[method].clone()).collect::<Vec<_>>()))
                    .collect()
            })
            .collect();
        for (index, random) in results[0].iter().enumerate() {
            print!("{:<30}", random.name);
            for (strategy, summaries) in results.iter().enumerate() {
                let m = &summaries[index];
                print!(
                    " | {:>10} {:>4.0}% {:>4.0}% {:>6}",
                    time(m.time_to_full),
                    m.mean_early,
                    m.mean_budget,
                    if strategy == 0 { String::new() } else { speedup(random.time_to_full, m.time_to_full) }
                );
                // A method where a strategy stays more than 5 points below random at 1 s on average.
                if m.mean_early + 5.0 < random.mean_early {
                    worse[strategy].push(format!("{} ({:.0}% < {:.0}%)", m.name, m.mean_early, random.mean_early));
                }
                let total = &mut totals[strategy];
                total.0 += m.full_early;
                total.1 += m.full_budget;
                total.2 += m.mean_early;
                total.3 += 1;
            }
            println!();
        }
    }
    for (strategy, (within_early, within_budget, sum_early, count)) in Strategy::ALL.iter().zip(totals) {
        let runs = count * seeds as usize;
        println!(
            "{}: {within_early} of {runs} method runs ({count} methods x {seeds} seeds) fully covered within 1 s, \
             {within_budget} within {:.1} s; sum of mean coverage at 1 s: {sum_early:.0}% ({:.3} of random's)",
            strategy.name(),
            budget.as_secs_f64(),
            sum_early / totals[0].2.max(1.0)
        );
    }
    for (strategy, methods) in Strategy::ALL.iter().zip(&worse).skip(1) {
        if !methods.is_empty() {
            println!(
                "{} is more than 5 points below random at 1 s on average on: {}",
                strategy.name(),
                methods.join(", ")
            );
        }
    }
}
