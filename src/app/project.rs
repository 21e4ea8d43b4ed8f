//! The project file, `flycatcher.json` beside the code: settings, generators and parameter types a
//! person chose, kept for the next run of `explore` or `generate`.
//!
//! ```json
//! {
//!   "settings": { "delay": 20, "timeout": 10, "max_stale": 50000, "max_calls": 10,
//!                 "target_coverage": 100, "test_timeout_ms": 100, "string_gen": "\\d{13}" },
//!   "types": [ { "class": "LinkedList", "function": "add", "parameter": "node", "type": "Node" } ]
//! }
//! ```
//! Every key is optional. Settings given on the command line win over the file's.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::inference::{DecisionSource, ParamType};
use crate::model::settings::{PROJECT_FILE, SettingsPatch};
use crate::session::Session;

/// A parameter type a person fixed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeEntry {
    /// Class name.
    pub class: String,
    /// `constructor` or a method name.
    pub function: String,
    /// Parameter name, or `items[i]` for the elements of array parameter `items` and `label()` for
    /// the result of callback parameter `label`.
    pub parameter: String,
    /// `number`, `string`, `boolean` or a class name.
    #[serde(rename = "type")]
    pub ty: String,
}

/// The project file's content.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    /// Settings.
    #[serde(default)]
    pub settings: SettingsPatch,
    /// Fixed parameter types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<TypeEntry>,
}

/// Where the project file of `files` lives: beside the first of them.
pub fn default_path(files: &[PathBuf]) -> PathBuf {
    // A package folder keeps its project file inside it.
    let folder = files.first().and_then(|f| if f.is_dir() { Some(f.as_path()) } else { f.parent() });
    folder.map(|d| d.join(PROJECT_FILE)).unwrap_or_else(|| PathBuf::from(PROJECT_FILE))
}

impl Project {
    /// Reads a project file; a missing file is an empty project, a broken one an error naming the line.
    pub fn load(path: &Path) -> Result<Project> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Project::default()),
            Err(source) => return Err(Error::Read { file: path.to_path_buf(), source }),
        };
        serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!("{}:{}:{}: invalid project file: {e}", path.display(), e.line(), e.column()))
        })
    }

    /// Writes the project file.
    pub(crate) fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("project serialises") + "\n";
        std::fs::write(path, text).map_err(|source| Error::Write { path: path.to_path_buf(), source })
    }

    /// What a session's settings and fixed types would be saved as.
    pub(crate) fn of(session: &Session) -> Project {
        let settings = SettingsPatch::of(session.settings());
        let types = session
            .subject()
            .types()
            .records()
            .iter()
            .filter(|r| r.frozen())
            .map(|r| TypeEntry {
                class: session.subject().program().classes[r.key.class].name.clone(),
                function: r.key.function.clone(),
                parameter: r.name.clone(),
                ty: r.current_type().name(session.subject().program()),
            })
            .collect();
        Project { settings, types }
    }

    /// Fixes the file's parameter types in `session`. Entries that name nothing known are returned as
    /// warnings rather than stopping the run: the code may have changed since the file was saved.
    pub(crate) fn apply_types(&self, session: &mut Session) -> Vec<String> {
        let mut warnings = Vec::new();
        for entry in &self.types {
            let found = session.subject().program().class_named(&entry.class).and_then(|class| {
                // A parameter, or the elements (`items[i]`) or result (`label()`) of one.
                let types = session.subject().types();
                let id = types.params_of(class, &entry.function).iter().copied().find_map(|id| {
                    [Some(id), types.element_of(id), types.result_of(id)]
                        .into_iter()
                        .flatten()
                        .find(|id| types.get(*id).name == entry.parameter)
                })?;
                Some((id, ParamType::parse(&entry.ty, session.subject().program())?))
            });
            match found {
                Some((id, ty)) => session.set_type(id, ty, DecisionSource::Configured),
                None => warnings.push(format!(
                    "{PROJECT_FILE}: type '{}' of {}.{}({}) ignored: no such parameter or type",
                    entry.ty, entry.class, entry.function, entry.parameter
                )),
            }
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reports_broken_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROJECT_FILE);
        assert_eq!(Project::load(&path).unwrap(), Project::default(), "a missing file is an empty project");
        let project = Project {
            settings: SettingsPatch { delay: Some(5), string_gen: Some(Some(r"\d{3}".into())), ..Default::default() },
            types: vec![TypeEntry {
                class: "A".into(),
                function: "m".into(),
                parameter: "x".into(),
                ty: "number".into(),
            }],
        };
        project.save(&path).unwrap();
        assert_eq!(Project::load(&path).unwrap(), project);
        std::fs::write(&path, "{\n  \"settings\": { \"dealy\": 3 }\n}\n").unwrap();
        let message = Project::load(&path).unwrap_err().to_string();
        assert!(message.contains(":2:") && message.contains("dealy"), "{message}");
    }
}
