//! `flycatcher bench --jobs-on FILE`: how much faster `generate --jobs 2` is than `--jobs 1` on a file of
//! several classes. Both runs do the same work (the suite does not depend on the number of workers), from
//! loading to the written suite, so the ratio of their wall-clock times is the speed-up; they run one
//! after the other in this process, in pairs whose median times are compared, so the ratio means
//! something on a noisy machine even when the times do not.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::Opening;
use super::generate::{Export, Strength};
use super::jobs::{self, Event, Jobs, Watch};
use super::project::Project;
use crate::error::{Error, Result};
use crate::export::Format;
use crate::model::settings::Settings;
use crate::session::SessionOptions;

/// Progress nobody watches.
struct Unwatched;

impl Watch for Unwatched {
    fn started(&mut self, _methods: &[usize], _workers: usize) {}
    fn event(&mut self, _event: Event) {}
}

/// Pairs of runs at most: the runs of a small file take a fraction of a second, and one pair of them
/// gave anything from 1.5x to 2x on a quiet machine.
const MOST_PAIRS: usize = 5;
/// Once the pairs so far took this long, no other starts.
const PAIRS_TIME: Duration = Duration::from_secs(10);

/// Runs `generate` on `file` with one worker, then two, each `seconds` per method at most, in pairs
/// (see [`MOST_PAIRS`]), and returns the printed report: the median time of each.
pub fn run(file: &Path, seconds: f64, seed: u64) -> Result<String> {
    let settings = Settings { seed, timeout: Duration::from_secs_f64(seconds), ..Settings::default() };
    let options = SessionOptions { files: vec![file.to_path_buf()], ..Default::default() };
    let opening = Opening { options, settings, project: Project::default(), seed_from: None };
    let out = std::env::temp_dir().join(format!("flycatcher-speedup-{}", std::process::id()));
    let mut lines = vec![String::new(); 2];
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let began = Instant::now();
    while times[0].len() < MOST_PAIRS && (times[0].is_empty() || began.elapsed() < PAIRS_TIME) {
        for (index, workers) in [1, 2].into_iter().enumerate() {
            let export =
                Export { format: Format::NodeTest, out: &out, command: "flycatcher bench --jobs-on", update: None };
            let jobs = Jobs {
                opening: &opening,
                strength: Strength::Default,
                constructors: true,
                export,
                workers,
                shard: None,
            };
            let started = Instant::now();
            let generated = jobs::generate(&jobs, &Arc::new(AtomicBool::new(false)), &mut Unwatched)?;
            times[index].push(started.elapsed());
            generated.outcome?;
            let ran = generated.report["time"]["workers"].as_u64().unwrap_or(1);
            lines[index] = format!(
                "(workers: {}; {} classes, {} candidates, {} tests elected)",
                ran,
                generated.report["classes"].as_array().map_or(0, Vec::len),
                generated.report["executions"],
                generated.report["elected"]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    let pairs = times[0].len();
    let [one, two] = times.map(|mut runs| {
        runs.sort();
        runs[runs.len() / 2]
    });
    if two.is_zero() {
        return Err(Error::Usage(format!("{}: nothing to measure", file.display())));
    }
    let runs = lines
        .iter()
        .zip([(1, one), (2, two)])
        .map(|(line, (workers, median))| format!("  --jobs {workers}: {:.2} s {line}", median.as_secs_f64()));
    Ok(format!(
        "generate on {} (seed {seed}, --timeout {seconds}), from loading to the written suite, median of {} runs \
         each:\n{}\nspeed-up of --jobs 2 over --jobs 1: {:.2}x\n",
        file.display(),
        pairs,
        runs.collect::<Vec<_>>().join("\n"),
        one.as_secs_f64() / two.as_secs_f64()
    ))
}
