//! The budget is the budget (issue 13): the passes after generation take a bounded share of the run's
//! time, and the reports say how it was spent.

mod common;

use std::time::Duration;

use common::*;
use flycatcher::app::Silent;
use flycatcher::app::generate::{Run, Strength};
use flycatcher::app::report::{json_report, summary};
use flycatcher::model::settings::Settings;
use flycatcher::mutate::Status;
use flycatcher::session::{Session, SessionOptions};

#[test]
fn minimising_and_stability_take_no_longer_than_generation() {
    // Every method of the fixture runs until its timeout, and minimising its tests without a bound
    // takes longer than generating them (each shortened run loads the slow program again).
    let settings = Settings { seed: 1, timeout: Duration::from_secs(1), ..Settings::default() };
    let options = SessionOptions { files: vec![fixture("slow-passes.js")], ..Default::default() };
    let mut session = Session::new(&options, settings).expect("the fixture loads");
    session.run_to_end(|_, _| {}).unwrap();
    let out = tempfile::tempdir().unwrap();
    session.export(flycatcher::export::Format::NodeTest, out.path(), "test").unwrap();
    let time = &json_report(&session)["time"];
    let ms = |key: &str| time[key].as_u64().unwrap_or_else(|| panic!("no {key} in {time}"));
    // One test run and the first stability run (one context for the suite) may start before the
    // deadline and end after it.
    assert!(ms("minimising_ms") + ms("stability_ms") <= ms("generating_ms") + 500, "{time}");
    assert!(ms("minimising_ms") > 0, "{time}");
    // Minimisation leaves the stability re-runs their share: every one of them ran.
    assert!(!session.warnings().iter().any(|w| w.contains("ran again")), "{:?}", session.warnings());
    assert!(summary(&session).contains("time: generating "), "{}", summary(&session));
}

#[test]
fn the_mutation_analysis_that_chooses_assertions_takes_its_share_and_is_in_the_time_line() {
    // Every mutant of the fixture loads the slow program again, and so does every test run on it: the
    // analysis took 110 s after 3 s of generation before it had a deadline. Mutant switching loads it
    // once and ends long before the deadline: the deadline is tested on the path of one program per
    // mutant, which static mutants still take.
    // SAFETY: set before the analysis reads it; Rust's own environment accesses are serialised, and no
    // code of this test binary reads the environment through C while the other test of this file runs.
    unsafe { std::env::set_var("FLYCATCHER_MUTANT_SWITCHING", "off") };
    let settings = Settings { seed: 1, timeout: Duration::from_secs(1), ..Settings::default() };
    let options = SessionOptions { files: vec![fixture("slow-passes.js")], ..Default::default() };
    let mut session = Session::new(&options, settings).expect("the fixture loads");
    session.run_to_end(|_, _| {}).unwrap();
    let mut run = Run { session, stepping: Ok(()), interrupted: false };
    let analysis = run.strengthen(Strength::Default, true, &mut Silent).expect("the analysis runs");
    assert!(analysis.mutants.iter().any(|m| m.status == Status::Unjudged), "the deadline was not reached");
    let out = tempfile::tempdir().unwrap();
    run.session.export(flycatcher::export::Format::NodeTest, out.path(), "test").unwrap();
    let time = &json_report(&run.session)["time"];
    let ms = |key: &str| time[key].as_u64().unwrap_or_else(|| panic!("no {key} in {time}"));
    assert!(ms("mutation_ms") > 0, "{time}");
    // One mutant judged and one test written back may start before the deadline and end after it.
    assert!(ms("minimising_ms") + ms("mutation_ms") + ms("stability_ms") <= ms("generating_ms") + 1000, "{time}");
    let summary = summary(&run.session);
    assert!(summary.contains(", mutation analysis ") && summary.contains(" s, stability "), "{summary}");
}
