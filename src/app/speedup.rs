//! `flycatcher bench --jobs-on FILE`: how much faster `generate --jobs 2` is than `--jobs 1` on a file of
//! several classes. Both runs do the same work (the suite does not depend on the number of workers), from
//! loading to the written suite, so the ratio of their wall-clock times is the speed-up; they run one
//! after the other in this process, so the ratio means something on a noisy machine even when the
//! times do not.

use std::path::Path;
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

/// Runs `generate` on `file` with one worker, then two, each `seconds` per method at most, and returns
/// the printed report.
pub fn run(file: &Path, seconds: f64, seed: u64) -> Result<String> {
    let settings = Settings { seed, timeout: Duration::from_secs_f64(seconds), ..Settings::default() };
    let options = SessionOptions { files: vec![file.to_path_buf()], ..Default::default() };
    let opening = Opening { options, settings, project: Project::default(), seed_from: None };
    let out = std::env::temp_dir().join(format!("flycatcher-speedup-{}", std::process::id()));
    let mut lines = Vec::new();
    let mut times = Vec::new();
    for workers in [1, 2] {
        let export = Export { format: Format::NodeTest, out: &out, command: "flycatcher bench --jobs-on" };
        let jobs =
            Jobs { opening: &opening, strength: Strength::Default, constructors: true, export, workers, shard: None };
        let started = Instant::now();
        let generated = jobs::generate(&jobs, &AtomicBool::new(false), &mut Unwatched)?;
        let wall = started.elapsed();
        generated.outcome?;
        let ran = generated.report["time"]["workers"].as_u64().unwrap_or(1);
        lines.push(format!(
            "  --jobs {workers}: {:.2} s (workers: {}; {} classes, {} candidates, {} tests elected)",
            wall.as_secs_f64(),
            ran,
            generated.report["classes"].as_array().map_or(0, Vec::len),
            generated.report["executions"],
            generated.report["elected"]
        ));
        times.push(wall);
    }
    let _ = std::fs::remove_dir_all(&out);
    if times[1].is_zero() {
        return Err(Error::Usage(format!("{}: nothing to measure", file.display())));
    }
    let speedup = times[0].as_secs_f64() / times[1].as_secs_f64();
    Ok(format!(
        "generate on {} (seed {seed}, --timeout {seconds}), from loading to the written suite:\n{}\nspeed-up of \
         --jobs 2 over --jobs 1: {speedup:.2}x\n",
        file.display(),
        lines.join("\n")
    ))
}
