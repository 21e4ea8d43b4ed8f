//! Keys in the forms: the settings (checked as typed, with the same rules as the command line's), the
//! type picker and the export form.

use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent};

use super::Command;
use crate::export::Format;
use crate::js::regex::RegexGenerator;
use crate::model::settings::{SettingsPatch, number_generator};
use crate::tui::state::{App, ExportForm, Field, Mode, OverridePicker, SettingsForm};

/// Labels of the settings form's fields, in order.
const SETTING_LABELS: [&str; 7] = [
    "inference delay (uses)",
    "timeout per method (s)",
    "max stale runs",
    "max calls per test",
    "test time limit (ms)",
    "string generator (regex)",
    "number generator (regex)",
];

pub(super) fn settings_form(app: &App) -> SettingsForm {
    let s = &app.snapshot.settings;
    let values = [
        s.delay.to_string(),
        format!("{}", s.timeout.as_secs_f64()),
        s.max_stale.to_string(),
        s.generation.max_calls.to_string(),
        s.limits.test_time.as_millis().to_string(),
        s.generation.strings.pattern().unwrap_or_default().to_string(),
        s.generation.numbers.pattern().unwrap_or_default().to_string(),
    ];
    let fields = SETTING_LABELS.iter().zip(values).map(|(label, value)| Field { label, value, error: None }).collect();
    SettingsForm { fields, selected: 0 }
}

/// Checks one settings field as typed: `None` when valid, else why not.
fn validate_setting(index: usize, value: &str) -> Option<String> {
    let positive = |v: &str| match v.trim().parse::<f64>().ok().and_then(|x| Duration::try_from_secs_f64(x).ok()) {
        Some(d) if !d.is_zero() => None,
        _ => Some("a positive number of seconds".to_string()),
    };
    let whole = |v: &str, min: u64| match v.trim().parse::<u64>() {
        Ok(x) if x >= min => None,
        _ => Some(format!("a whole number ≥ {min}")),
    };
    match index {
        0 | 2 => whole(value, 0),
        1 => positive(value),
        3 | 4 => whole(value, 1),
        _ if value.is_empty() => None,
        5 => RegexGenerator::parse(value).err().map(|e| e.to_string()),
        _ => number_generator(value).err(),
    }
}

/// The settings the form sets, every field given: an empty generator field asks for the default
/// generator.
fn settings_change(form: &SettingsForm) -> SettingsPatch {
    let value = |i: usize| form.fields[i].value.trim();
    let pattern = |i: usize| Some(Some(value(i).to_string()).filter(|p| !p.is_empty()));
    SettingsPatch {
        delay: Some(value(0).parse().unwrap_or(0)),
        timeout: Some(value(1).parse().unwrap_or(1.0)),
        budget: None,
        max_stale: Some(value(2).parse().unwrap_or(0)),
        max_calls: Some(value(3).parse().unwrap_or(1)),
        target_coverage: None,
        test_timeout_ms: Some(value(4).parse().unwrap_or(1)),
        string_gen: pattern(5),
        number_gen: pattern(6),
        probe_outside_types: None,
    }
}

pub(super) fn settings_key(app: &mut App, mut form: SettingsForm, key: KeyEvent) -> Vec<Command> {
    let count = form.fields.len();
    match key.code {
        KeyCode::Esc => return Vec::new(),
        KeyCode::Enter => {
            if let Some(invalid) = form.fields.iter().position(|f| f.error.is_some()) {
                form.selected = invalid;
                app.mode = Mode::Settings(form);
                app.note("fix the field marked in red first", true);
                return Vec::new();
            }
            return vec![Command::Settings(settings_change(&form))];
        }
        KeyCode::Down | KeyCode::Tab => form.selected = (form.selected + 1) % count,
        KeyCode::Up | KeyCode::BackTab => form.selected = (form.selected + count - 1) % count,
        KeyCode::Backspace => {
            let field = &mut form.fields[form.selected];
            field.value.pop();
            field.error = validate_setting(form.selected, &field.value);
        }
        KeyCode::Char(c) => {
            let field = &mut form.fields[form.selected];
            field.value.push(c);
            field.error = validate_setting(form.selected, &field.value);
        }
        _ => {}
    }
    app.mode = Mode::Settings(form);
    Vec::new()
}

pub(super) fn override_key(app: &mut App, mut picker: OverridePicker, key: KeyEvent) -> Vec<Command> {
    let count = picker.choices.len();
    match key.code {
        KeyCode::Esc => return Vec::new(),
        KeyCode::Enter => {
            return vec![Command::Override { param: picker.param, ty: picker.choices[picker.selected].clone() }];
        }
        KeyCode::Down | KeyCode::Char('j') => picker.selected = (picker.selected + 1) % count,
        KeyCode::Up | KeyCode::Char('k') => picker.selected = (picker.selected + count - 1) % count,
        _ => {}
    }
    app.mode = Mode::Override(picker);
    Vec::new()
}

pub(super) fn export_key(app: &mut App, mut form: ExportForm, key: KeyEvent) -> Vec<Command> {
    let formats = Format::all();
    let position = formats.iter().position(|f| *f == form.format).unwrap_or(0);
    match (key.code, form.field) {
        (KeyCode::Esc, _) => return Vec::new(),
        (KeyCode::Enter, _) => {
            app.format = form.format;
            app.out_dir = PathBuf::from(form.folder.trim());
            return vec![Command::Export { format: form.format, dir: app.out_dir.clone() }];
        }
        (KeyCode::Tab | KeyCode::BackTab | KeyCode::Down | KeyCode::Up, _) => form.field = 1 - form.field,
        (KeyCode::Right, 0) => form.format = formats[(position + 1) % formats.len()],
        (KeyCode::Left, 0) => form.format = formats[(position + formats.len() - 1) % formats.len()],
        (KeyCode::Backspace, 1) => {
            form.folder.pop();
        }
        (KeyCode::Char(c), 1) => form.folder.push(c),
        _ => {}
    }
    app.mode = Mode::Export(form);
    Vec::new()
}
