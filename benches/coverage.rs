//! Time to full statement coverage per method over the samples, the measure of the Flycatcher report
//! (it covered 14 of 22 methods fully within 1 s each and 20 of 22 within 5 s, with regex generators
//! where random strings could not do). Run with `cargo bench --bench coverage`; it prints a table and
//! the counts, and asserts nothing: times depend on the machine.

use std::path::PathBuf;
use std::time::Duration;

use flycatcher::generate::values::{RegexGenerator, StringSource};
use flycatcher::session::{Session, SessionOptions, Settings};

/// The samples of the report's kind, with the generators their README suggests.
const SAMPLES: &[(&str, Option<&str>)] = &[
    ("linked-list.js", None),
    ("circle.js", None),
    ("runtime-defined.js", None),
    ("namespace.js", None),
    ("triangle.js", None),
    ("isbn.js", Some(r"-?97[89]-?\d{9}-?\d-?|\d{12}")),
    ("shapes.mjs", None),
    ("bank-account.cjs", Some("EUR|USD")),
];

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples");
    let (mut total, mut within_1s, mut within_5s) = (0, 0, 0);
    println!("{:<36} {:>10} {:>14}", "method", "covered", "time to full");
    for (file, strings) in SAMPLES {
        let mut settings = Settings { seed: 1, timeout: Duration::from_secs(5), ..Settings::default() };
        if let Some(pattern) = strings {
            settings.generation.strings = StringSource::Regex(RegexGenerator::parse(pattern).expect("valid pattern"));
        }
        let options = SessionOptions { files: vec![root.join(file)], ..Default::default() };
        let mut session = Session::new(&options, settings).expect("sample loads");
        session.run_to_end(|_, _| {}).expect("run completes");
        for m in &session.methods {
            total += 1;
            let time = m.time_to_full;
            within_1s += usize::from(time.is_some_and(|t| t <= Duration::from_secs(1)));
            within_5s += usize::from(time.is_some_and(|t| t <= Duration::from_secs(5)));
            println!(
                "{:<36} {:>10} {:>14}",
                format!("{}.{}", session.program.classes[m.class].name, m.method),
                format!("{}/{}", m.covered_count(), m.covered.len()),
                time.map(|t| format!("{:.3} s", t.as_secs_f64())).unwrap_or_else(|| "-".into())
            );
        }
    }
    println!("{within_1s} of {total} methods fully covered within 1 s, {within_5s} within 5 s");
}
