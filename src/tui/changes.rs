//! What a person changed in the explorer after the run started: settings (written as the command-line
//! options that set them) and parameter types. The suite's header names them, since the command line
//! alone would not reproduce the run, and quitting offers to save those not saved to the project file.

use crate::model::settings::{Settings, SettingsPatch};

/// The changes made so far, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct LiveChanges {
    /// (step, what) per change.
    changes: Vec<(u64, String)>,
    /// How many of them the project file has.
    saved: usize,
}

impl LiveChanges {
    /// Records a change of settings at step `step`, as the options that make it (`--delay 5
    /// --number-gen '\d{2}'`); returns them, or `None` when nothing changed.
    pub(crate) fn settings(&mut self, step: u64, old: &Settings, new: &Settings) -> Option<String> {
        let options = options_changed(&SettingsPatch::of(old), &SettingsPatch::of(new));
        if options.is_empty() {
            return None;
        }
        self.changes.push((step, options.clone()));
        Some(options)
    }

    /// Records a change of a parameter's type at step `step`, described (`LinkedList.add(node): Node,
    /// overridden`).
    pub(crate) fn typed(&mut self, step: u64, what: String) {
        self.changes.push((step, what));
    }

    /// The lines the suite's header adds under the command: one per change.
    pub(crate) fn header(&self) -> Vec<String> {
        self.changes.iter().map(|(step, what)| format!("Changed in explore after step {step}: {what}")).collect()
    }

    /// The changes the project file does not have yet.
    pub(crate) fn unsaved(&self) -> Vec<String> {
        self.changes[self.saved..].iter().map(|(_, what)| what.clone()).collect()
    }

    /// The project file now has every change.
    pub(crate) fn saved(&mut self) {
        self.saved = self.changes.len();
    }
}

/// The command-line options that turn `old` into `new`, space-separated.
fn options_changed(old: &SettingsPatch, new: &SettingsPatch) -> String {
    fn text<T: ToString>(value: &Option<T>) -> Option<String> {
        value.as_ref().map(T::to_string)
    }
    let pattern = |p: &Option<Option<String>>| Some(p.clone().flatten().map_or("(default)".into(), |p| quoted(&p)));
    let pairs = [
        ("delay", text(&old.delay), text(&new.delay)),
        ("timeout", text(&old.timeout), text(&new.timeout)),
        ("max-stale", text(&old.max_stale), text(&new.max_stale)),
        ("max-calls", text(&old.max_calls), text(&new.max_calls)),
        ("target-coverage", text(&old.target_coverage), text(&new.target_coverage)),
        ("test-timeout-ms", text(&old.test_timeout_ms), text(&new.test_timeout_ms)),
        ("string-gen", pattern(&old.string_gen), pattern(&new.string_gen)),
        ("number-gen", pattern(&old.number_gen), pattern(&new.number_gen)),
    ];
    let options: Vec<String> = pairs
        .into_iter()
        .filter(|(_, old, new)| old != new)
        .map(|(name, _, new)| format!("--{name} {}", new.unwrap_or_default()))
        .collect();
    options.join(" ")
}

/// `text` quoted for a POSIX shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::settings::SettingsOrigin;

    #[test]
    fn settings_changes_read_as_options_and_are_unsaved_until_saved() {
        let old = Settings::default();
        let mut new = old.clone();
        let patch = SettingsPatch {
            delay: Some(5),
            string_gen: Some(Some("it's".into())),
            number_gen: Some(Some(r"\d{2}".into())),
            ..Default::default()
        };
        patch.apply(&mut new, SettingsOrigin::Explorer).unwrap();
        let mut changes = LiveChanges::default();
        assert_eq!(changes.settings(3, &old, &old), None);
        let options = r"--delay 5 --string-gen 'it'\''s' --number-gen '\d{2}'";
        assert_eq!(changes.settings(40, &old, &new).as_deref(), Some(options));
        changes.typed(52, "LinkedList.add(node): Node, overridden".into());
        assert_eq!(
            changes.header(),
            [
                format!("Changed in explore after step 40: {options}"),
                "Changed in explore after step 52: LinkedList.add(node): Node, overridden".to_string()
            ]
        );
        assert_eq!(changes.unsaved().len(), 2);
        changes.saved();
        assert!(changes.unsaved().is_empty());
        assert_eq!(changes.header().len(), 2, "the header keeps what was saved too");
    }
}
