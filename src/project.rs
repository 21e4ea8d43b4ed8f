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
use crate::session::{Session, Settings};

/// The file name looked for beside the first file under test.
pub const FILE_NAME: &str = "flycatcher.json";

/// Settings kept in the project file; absent ones keep their defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectSettings {
    /// Inference delay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<u32>,
    /// Seconds per method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// Stale runs before a method stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_stale: Option<u64>,
    /// Most calls per candidate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_calls: Option<u32>,
    /// Coverage percentage at which a method stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_coverage: Option<f64>,
    /// Time limit of one candidate, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_timeout_ms: Option<u64>,
    /// String generator pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string_gen: Option<String>,
    /// Number generator pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_gen: Option<String>,
}

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
    pub settings: ProjectSettings,
    /// Fixed parameter types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<TypeEntry>,
}

/// Where the project file of `files` lives: beside the first of them.
pub fn default_path(files: &[PathBuf]) -> PathBuf {
    files.first().and_then(|f| f.parent()).map(|d| d.join(FILE_NAME)).unwrap_or_else(|| PathBuf::from(FILE_NAME))
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
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("project serialises") + "\n";
        std::fs::write(path, text).map_err(|source| Error::Write { path: path.to_path_buf(), source })
    }

    /// What a session's settings and fixed types would be saved as.
    pub fn of(session: &Session) -> Project {
        let s = session.settings();
        let settings = ProjectSettings {
            delay: Some(s.delay),
            timeout: Some(s.timeout.as_secs_f64()),
            max_stale: Some(s.max_stale),
            max_calls: Some(s.generation.max_calls as u32),
            target_coverage: Some(s.target_coverage),
            test_timeout_ms: Some(s.limits.test_time.as_millis() as u64),
            string_gen: s.generation.strings.pattern().map(str::to_string),
            number_gen: s.generation.numbers.pattern().map(str::to_string),
        };
        let types = session
            .types
            .records()
            .iter()
            .filter(|r| r.frozen())
            .map(|r| TypeEntry {
                class: session.program.classes[r.key.class].name.clone(),
                function: r.key.function.clone(),
                parameter: r.name.clone(),
                ty: r.current_type().name(&session.program),
            })
            .collect();
        Project { settings, types }
    }

    /// Fixes the file's parameter types in `session`. Entries that name nothing known are returned as
    /// warnings rather than stopping the run: the code may have changed since the file was saved.
    pub fn apply_types(&self, session: &mut Session) -> Vec<String> {
        let mut warnings = Vec::new();
        for entry in &self.types {
            let found = session.program.class_named(&entry.class).and_then(|class| {
                // A parameter, or the elements (`items[i]`) or result (`label()`) of one.
                let types = &session.types;
                let id = types.params_of(class, &entry.function).iter().copied().find_map(|id| {
                    [Some(id), types.element_of(id), types.result_of(id)]
                        .into_iter()
                        .flatten()
                        .find(|id| types.get(*id).name == entry.parameter)
                })?;
                Some((id, ParamType::parse(&entry.ty, &session.program)?))
            });
            match found {
                Some((id, ty)) => session.set_type(id, ty, DecisionSource::Configured),
                None => warnings.push(format!(
                    "{FILE_NAME}: type '{}' of {}.{}({}) ignored: no such parameter or type",
                    entry.ty, entry.class, entry.function, entry.parameter
                )),
            }
        }
        warnings
    }
}

/// Where settings come from, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsOrigin {
    /// The project file.
    ProjectFile,
    /// Command-line options.
    CommandLine,
}

impl SettingsOrigin {
    /// How an error about `key` starts: `flycatcher.json: timeout` or `--timeout`.
    fn name(self, key: &str) -> String {
        match self {
            SettingsOrigin::ProjectFile => format!("{FILE_NAME}: {key}"),
            SettingsOrigin::CommandLine => format!("--{}", key.replace('_', "-")),
        }
    }
}

impl ProjectSettings {
    /// Applies the settings given over `settings`: the project file's first, then the command line's.
    pub fn apply(&self, settings: &mut Settings, origin: SettingsOrigin) -> Result<()> {
        use crate::generate::values::{NumberSource, RegexGenerator, StringSource};
        let regex = |key: &str, pattern: &str| {
            RegexGenerator::parse(pattern).map_err(|e| Error::Usage(format!("{}: {e}", origin.name(key))))
        };
        if let Some(delay) = self.delay {
            settings.delay = delay;
        }
        if let Some(timeout) = self.timeout {
            settings.timeout =
                std::time::Duration::try_from_secs_f64(timeout).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
                    Error::Usage(format!(
                        "{} must be a positive number of seconds, not {timeout}",
                        origin.name("timeout")
                    ))
                })?;
        }
        if let Some(max_stale) = self.max_stale {
            settings.max_stale = max_stale;
        }
        if let Some(max_calls) = self.max_calls {
            settings.generation.max_calls = max_calls.max(1) as usize;
        }
        if let Some(target) = self.target_coverage {
            if !(0.0..=100.0).contains(&target) {
                let key = origin.name("target_coverage");
                return Err(Error::Usage(format!("{key} must be between 0 and 100, not {target}")));
            }
            settings.target_coverage = target;
        }
        if let Some(ms) = self.test_timeout_ms {
            settings.limits.test_time = std::time::Duration::from_millis(ms.max(1));
        }
        if let Some(pattern) = &self.string_gen {
            settings.generation.strings = StringSource::Regex(regex("string_gen", pattern)?);
        }
        if let Some(pattern) = &self.number_gen {
            settings.generation.numbers = NumberSource::Regex(regex("number_gen", pattern)?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reports_broken_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        assert_eq!(Project::load(&path).unwrap(), Project::default(), "a missing file is an empty project");
        let project = Project {
            settings: ProjectSettings { delay: Some(5), string_gen: Some(r"\d{3}".into()), ..Default::default() },
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

    #[test]
    fn settings_apply_over_defaults() {
        let mut settings = Settings::default();
        let file = ProjectSettings {
            delay: Some(3),
            max_calls: Some(4),
            number_gen: Some("[1-6]".into()),
            ..Default::default()
        };
        file.apply(&mut settings, SettingsOrigin::ProjectFile).unwrap();
        assert_eq!((settings.delay, settings.generation.max_calls), (3, 4));
        assert_eq!(settings.generation.numbers.pattern(), Some("[1-6]"));
        let broken = ProjectSettings { string_gen: Some("(".into()), ..Default::default() };
        assert!(broken.apply(&mut settings, SettingsOrigin::ProjectFile).unwrap_err().to_string().contains(FILE_NAME));
        let message = broken.apply(&mut settings, SettingsOrigin::CommandLine).unwrap_err().to_string();
        assert!(message.starts_with("--string-gen: "), "{message}");
    }
}
