//! The same seed gives a byte-identical suite when budgets are counted work: with one worker or two, and
//! with every core kept busy beside the run. The fixture's methods never reach full coverage, so each
//! stops on its work budget (or as stale), and the passes after generation run within their share of
//! work: every decision that shapes the suite is counted. The cap (`--timeout`) is far above what the
//! budget costs, so that only a machine thousands of times slower would reach it; the test checks that
//! the cap ended nothing.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::*;

/// `generate` on the fixture with a small counted budget and `jobs` workers into `out`.
fn run(out: &Path, jobs: &str) -> (BTreeMap<String, String>, serde_json::Value) {
    let _ = std::fs::remove_dir_all(out);
    let args = ["--seed", "3", "--budget", "20000", "--timeout", "3600", "--jobs", jobs];
    let report = generate(&[fixture("work-budget.js")], out, &args);
    (written(out), report)
}

/// Threads that keep every core busy until dropped.
struct Busy {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Busy {
    fn start() -> Busy {
        let stop = Arc::new(AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..cores)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                    }
                })
            })
            .collect();
        Busy { stop, threads }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_suite_with_any_workers_and_under_load() {
    // One folder for every run: the suites' headers name it.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (one, one_report) = run(&out, "1");
    let (two, two_report) = run(&out, "2");
    let (busy, busy_report) = {
        let _busy = Busy::start();
        run(&out, "1")
    };
    // The budget, not coverage, ended most methods (a method the engine covers within its budget has
    // nothing left to differ on), and the cap ended nothing.
    let stops: Vec<String> =
        methods(&one_report).into_iter().map(|(method, _, _, stop)| format!("{method} {stop}")).collect();
    let by_budget = stops.iter().filter(|s| s.ends_with(" budget") || s.ends_with(" stale")).count();
    assert!(by_budget * 2 > stops.len(), "{stops:?}");
    for report in [&one_report, &two_report, &busy_report] {
        assert!(!report.to_string().contains("time cap"), "the cap ended something: {report}");
    }
    assert!(one_report["passes_work"].as_u64().unwrap() > 0, "the passes count their work");
    for (name, other) in [("--jobs 2", &two), ("a busy machine", &busy)] {
        assert_eq!(one.keys().collect::<Vec<_>>(), other.keys().collect::<Vec<_>>(), "{name}");
        for (file, text) in &one {
            assert_eq!(text, &other[file], "{file} differs with {name}");
        }
    }
    assert_eq!(untimed(one_report.clone()), untimed(two_report));
    assert_eq!(untimed(one_report.clone()), untimed(busy_report));

    // Another checkout: the same code at another absolute path runs the same candidates.
    let elsewhere = dir.path().join("another").join("checkout");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(fixture("work-budget.js"), elsewhere.join("work-budget.js")).unwrap();
    let args = ["--seed", "3", "--budget", "20000", "--timeout", "3600", "--jobs", "1"];
    let moved = generate(&[elsewhere.join("work-budget.js")], &dir.path().join("moved"), &args);
    let runs = |report: &serde_json::Value| -> Vec<String> {
        let classes = report["classes"].as_array().unwrap();
        let methods = classes.iter().flat_map(|c| c["methods"].as_array().unwrap().iter());
        methods.map(|m| format!("{} {} {} {}", m["name"], m["executions"], m["covered"], m["stop"])).collect()
    };
    assert_eq!(runs(&one_report), runs(&moved), "another checkout");
}
