//! `flycatcher record`: run an entry script with the program's classes recorded, write the recording,
//! then elect replay tests from it and write them as a suite.

use std::path::{Path, PathBuf};

use super::Opening;
use super::project::Project;
use crate::error::{Error, Result};
use crate::export::Format;
use crate::model::settings::Settings;
use crate::record::{RecordOptions, SeedFrom, record};
use crate::session::{Session, SessionOptions};

/// What a recording run wrote.
pub struct Recorded {
    /// The recording file.
    pub recording: PathBuf,
    /// Events recorded.
    pub events: usize,
    /// The session the replay tests were elected in (its warnings say what seeding did).
    pub session: Session,
    /// The replay suites' files.
    pub written: Vec<PathBuf>,
}

/// Records the entry script of `options` into `out/<entry>.recording.json`, then elects replay tests of
/// `classes` (all when empty), at most `threshold` per method, and writes them to `out` in `format` with
/// `command` in their header. When the entry script fails, the recording of what ran before is still
/// written and the error says where it is; `on_warning` hears the recording's warnings first.
pub fn run(
    options: &RecordOptions,
    classes: &[String],
    threshold: usize,
    out: &Path,
    format: Format,
    command: &str,
    on_warning: &mut dyn FnMut(&str),
) -> Result<Recorded> {
    let recorded = record(options)?;
    std::fs::create_dir_all(out).map_err(|source| Error::Write { path: out.to_path_buf(), source })?;
    let stem = options.entry.file_stem().map_or("entry".into(), |s| s.to_string_lossy().into_owned());
    let path = out.join(format!("{stem}.recording.json"));
    recorded.recording.write(&path)?;
    for warning in &recorded.warnings {
        on_warning(warning);
    }
    if let Some(failure) = recorded.failure {
        let failure = match failure {
            Error::Load { file, message } => format!("{file}: the entry script failed: {message}"),
            other => other.to_string(),
        };
        return Err(Error::Usage(format!(
            "{failure}\n(the recording of what ran before is in {}; fix the entry script and record again)",
            path.display()
        )));
    }
    let opening = Opening {
        options: SessionOptions { files: recorded.files, classes: classes.to_vec(), ..Default::default() },
        settings: Settings { seed: 0, ..Default::default() },
        project: Project::default(),
        seed_from: Some(SeedFrom { path: path.clone(), threshold }),
    };
    let mut session = opening.open()?;
    let written = session.export(format, out, command)?;
    Ok(Recorded { recording: path, events: recorded.recording.events.len(), session, written })
}
