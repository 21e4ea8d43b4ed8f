//! The recording file: a versioned JSON document of what an entry script did with the program's
//! classes.
//!
//! Values (arguments, results, fields) are in the harness's description format: `{"t": "n", "v": "3"}`
//! for numbers (as text, so `NaN` and `-0` survive), `s` strings, `b` booleans, `u` undefined, `null`,
//! `arr` arrays (`items`), `obj` plain objects and `inst` instances of a class (`fields`), `date`
//! (milliseconds), and `ref` for an instance whose construction was recorded (`i`: its object id).
//! What cannot be rebuilt is kept as a tag only (`fn`, `other`, `deep`, `sym`, ...). They stay
//! `serde_json::Value`s here, so that a recording is written back as read (keys sorted); their readers
//! take them as [`Observed`](crate::model::observed::Observed) descriptions with `Observed::from_json`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The format version this build writes and reads.
pub(crate) const VERSION: u32 = 1;

/// A whole recording.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Recording {
    /// [`VERSION`] of the writer.
    pub(crate) version: u32,
    /// The entry script, as the user named it.
    pub(crate) entry: String,
    /// The files of the program the entry used (scripts loaded before it, modules it reached), as
    /// named when recorded.
    pub(crate) files: Vec<String>,
    /// The classes found, by name; events refer to them by index.
    pub(crate) classes: Vec<String>,
    /// Constructions and calls, in the order they finished.
    pub(crate) events: Vec<Event>,
}

/// One recorded event.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "k")]
pub(crate) enum Event {
    /// `new C(args)` made by the entry script.
    #[serde(rename = "new")]
    New {
        /// The id the new instance got, or -1 when the construction threw.
        object: i64,
        /// Index in [`Recording::classes`].
        class: usize,
        /// The arguments, described before the call.
        args: Vec<serde_json::Value>,
        /// The instance's fields after construction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<serde_json::Map<String, serde_json::Value>>,
        /// What it threw, if it threw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        threw: Option<Thrown>,
        /// Arguments it talked to.
        #[serde(default)]
        stubs: Vec<Stub>,
    },
    /// `receiver.method(args)` called by the entry script.
    #[serde(rename = "call")]
    Call {
        /// The receiver's object id, or -1 when its construction was not recorded.
        object: i64,
        /// The class that defines the method (the receiver's, or one it inherits from).
        class: usize,
        /// The receiver's own class, when it is one of [`Recording::classes`]: what a replay rebuilds it
        /// as from its fields (absent in recordings of older builds).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        receiver: Option<usize>,
        /// The method.
        method: String,
        /// The arguments, described before the call.
        args: Vec<serde_json::Value>,
        /// The receiver's fields before the call.
        before: serde_json::Map<String, serde_json::Value>,
        /// The receiver's fields after the call.
        #[serde(default)]
        after: serde_json::Map<String, serde_json::Value>,
        /// What it returned, when it returned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        returned: Option<serde_json::Value>,
        /// What it threw, if it threw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        threw: Option<Thrown>,
        /// Arguments it talked to.
        #[serde(default)]
        stubs: Vec<Stub>,
    },
    /// A call on a recorded object that was not recorded (over `--max-calls-per-method`): later calls on
    /// it cannot be replayed faithfully.
    #[serde(rename = "skip")]
    Skip {
        /// The object.
        object: i64,
    },
}

/// A thrown value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Thrown {
    /// Whether it had a `name` and a `message` (an `Error`, usually).
    pub(crate) error: bool,
    /// Its `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    /// Its `message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    /// The value, described, when it was not an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) value: Option<serde_json::Value>,
}

/// An argument the call talked to: a callback and its answers, or an object with methods and the
/// answers of each call made on it, in order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Stub {
    /// Position of the argument.
    pub(crate) argument: usize,
    /// A callback's results, in call order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) answers: Option<Vec<serde_json::Value>>,
    /// An object's data fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fields: Option<serde_json::Map<String, serde_json::Value>>,
    /// An object's method calls: (member, result), in call order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) calls: Option<Vec<(String, serde_json::Value)>>,
}

impl Recording {
    /// Reads a recording; errors name the file and say what to do.
    pub(crate) fn load(path: &Path) -> Result<Recording> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Read { file: path.to_path_buf(), source })?;
        let bad = |what: String| {
            Error::Usage(format!(
                "{}: not a Flycatcher recording ({what}); make one with `flycatcher record`",
                path.display()
            ))
        };
        let raw: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| bad(format!("invalid JSON at line {}: {e}", e.line())))?;
        match raw.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == VERSION as u64 => {}
            Some(v) => {
                return Err(Error::Usage(format!(
                    "{}: recording format version {v}, but this Flycatcher reads version {VERSION}: record it again",
                    path.display()
                )));
            }
            None => return Err(bad("no \"version\"".into())),
        }
        serde_json::from_value(raw).map_err(|e| bad(e.to_string()))
    }

    /// Writes the recording as pretty JSON.
    pub(crate) fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("recordings serialise");
        std::fs::write(path, text + "\n").map_err(|source| Error::Write { path: path.to_path_buf(), source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_versions_and_other_json_are_refused_with_a_clear_message() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, r#"{"version": 99, "entry": "x", "files": [], "classes": [], "events": []}"#).unwrap();
        let message = Recording::load(&path).unwrap_err().to_string();
        assert!(message.contains("version 99") && message.contains("record it again"), "{message}");
        std::fs::write(&path, "[1, 2").unwrap();
        let message = Recording::load(&path).unwrap_err().to_string();
        assert!(message.contains("not a Flycatcher recording") && message.contains("line 1"), "{message}");
    }

    #[test]
    fn a_recording_round_trips() {
        let json = r#"{"version": 1, "entry": "demo.js", "files": ["a.js"], "classes": ["A"], "events": [
          {"k": "new", "object": 0, "class": 0, "args": [{"t": "n", "v": "2"}], "after": {"x": {"t": "n", "v": "2"}}},
          {"k": "call", "object": 0, "class": 0, "method": "f", "args": [], "before": {}, "after": {},
           "returned": {"t": "s", "v": "ok"}, "stubs": [{"argument": 0, "answers": [{"t": "u"}]}]},
          {"k": "skip", "object": 0}]}"#;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, json).unwrap();
        let recording = Recording::load(&path).unwrap();
        assert_eq!(recording.events.len(), 3);
        recording.write(&path).unwrap();
        let again = Recording::load(&path).unwrap();
        assert!(matches!(&again.events[1], Event::Call { method, returned: Some(_), .. } if method == "f"));
    }
}
