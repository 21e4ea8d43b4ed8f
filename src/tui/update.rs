//! Input handling: a key or mouse event changes the UI state and yields commands for the session.
//! Nothing here touches the terminal or the session, so scripted tests drive it directly.

use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::state::{App, ExportForm, Field, Mode, OverridePicker, Pane, SettingsForm, SuiteTab};
use super::view::{Areas, item_at, pane_at};
use super::worker::Command;
use crate::export::Format;
use crate::js::regex::RegexGenerator;
use crate::model::settings::SettingsPatch;

/// Rows moved by PgUp/PgDn.
const PAGE: usize = 10;

/// Handles one terminal event; `areas` is the current layout (for the mouse).
pub fn update(app: &mut App, event: Event, areas: &Areas) -> Vec<Command> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_event(app, key),
        Event::Mouse(mouse) => {
            mouse_event(app, mouse, areas);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn key_event(app: &mut App, key: KeyEvent) -> Vec<Command> {
    if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
        // Ctrl-C never loses the suite: it is written on the way out.
        app.quit = true;
        return vec![Command::Quit { export: true }];
    }
    match std::mem::replace(&mut app.mode, Mode::Normal) {
        Mode::Normal => normal_key(app, key),
        Mode::Help => Vec::new(),
        Mode::Settings(form) => settings_key(app, form, key),
        Mode::Override(picker) => override_key(app, picker, key),
        Mode::Export(form) => export_key(app, form, key),
        Mode::ConfirmQuit => match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => {
                app.quit = true;
                vec![Command::Quit { export: true }]
            }
            KeyCode::Char('n') | KeyCode::Char('N') => {
                app.quit = true;
                vec![Command::Quit { export: false }]
            }
            _ => Vec::new(),
        },
    }
}

fn normal_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    match key.code {
        KeyCode::Char(' ') | KeyCode::Char('n') => return vec![Command::Step],
        KeyCode::Char('r') => return vec![Command::ToggleRun],
        KeyCode::Tab => app.focus = app.focus.cycle(!shift),
        KeyCode::BackTab => app.focus = app.focus.cycle(false),
        KeyCode::Right | KeyCode::Char('l') => app.focus = app.focus.cycle(true),
        KeyCode::Left | KeyCode::Char('h') => app.focus = app.focus.cycle(false),
        KeyCode::Down | KeyCode::Char('j') => move_cursor(app, 1),
        KeyCode::Up | KeyCode::Char('k') => move_cursor(app, -1),
        KeyCode::PageDown => move_cursor(app, PAGE as isize),
        KeyCode::PageUp => move_cursor(app, -(PAGE as isize)),
        KeyCode::Enter => return enter(app),
        KeyCode::Char('e') => {
            app.suite_tab = match app.suite_tab {
                SuiteTab::Elected => SuiteTab::Failing,
                SuiteTab::Failing => SuiteTab::Elected,
            };
            app.suite_cursor = 0;
        }
        KeyCode::Char('?') => app.mode = Mode::Help,
        KeyCode::Char('t') => app.mode = Mode::Settings(settings_form(app)),
        KeyCode::Char('a') => match app.selected_param() {
            Some(param) => return vec![Command::Accept { param: param.id }],
            None => app.note("no parameter selected (tab to the Parameters pane)", true),
        },
        KeyCode::Char('o') => match app.selected_param() {
            Some(param) => {
                let choices = app.snapshot.type_names.clone();
                let selected = choices.iter().position(|c| *c == param.ty).unwrap_or(0);
                app.mode = Mode::Override(OverridePicker {
                    param: param.id,
                    label: format!("{}({})", param.function, param.name),
                    choices,
                    selected,
                });
            }
            None => app.note("no parameter selected (tab to the Parameters pane)", true),
        },
        KeyCode::Char('x') => {
            app.mode =
                Mode::Export(ExportForm { format: app.format, folder: app.out_dir.display().to_string(), field: 0 })
        }
        KeyCode::Char('s') => return vec![Command::SaveProject],
        KeyCode::Char('q') | KeyCode::Esc => {
            if app.snapshot.unexported > 0 {
                app.mode = Mode::ConfirmQuit;
            } else {
                app.quit = true;
                return vec![Command::Quit { export: false }];
            }
        }
        _ => {}
    }
    Vec::new()
}

fn enter(app: &mut App) -> Vec<Command> {
    match app.focus {
        Pane::Methods => app.selected_method().map(Command::Select).into_iter().collect(),
        Pane::Params => {
            // Enter on a parameter opens the type picker, like `o`.
            normal_key(app, KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE))
        }
        Pane::Suite => {
            normal_key(app, KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE));
            Vec::new()
        }
        Pane::Candidate | Pane::Coverage => Vec::new(),
    }
}

fn move_cursor(app: &mut App, delta: isize) {
    let step = |value: usize, len: usize| (value as isize + delta).clamp(0, len.saturating_sub(1) as isize) as usize;
    match app.focus {
        Pane::Methods => app.method_cursor = step(app.method_cursor, app.method_order().len()),
        Pane::Params => app.param_cursor = step(app.param_cursor, app.snapshot.params.len()),
        Pane::Suite => app.suite_cursor = step(app.suite_cursor, app.suite_len()),
        Pane::Coverage => app.coverage_scroll = step(app.coverage_scroll, app.snapshot.coverage.source.len()),
        Pane::Candidate => {}
    }
}

fn mouse_event(app: &mut App, mouse: MouseEvent, areas: &Areas) {
    if app.mode != Mode::Normal {
        return;
    }
    let Some(pane) = pane_at(areas, mouse.column, mouse.row) else { return };
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            app.focus = pane;
            if let Some(item) = item_at(app, areas, pane, mouse.row) {
                match pane {
                    Pane::Methods => app.method_cursor = item,
                    Pane::Params => app.param_cursor = item,
                    Pane::Suite => app.suite_cursor = item,
                    Pane::Candidate | Pane::Coverage => {}
                }
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let previous = std::mem::replace(&mut app.focus, pane);
            move_cursor(app, if mouse.kind == MouseEventKind::ScrollDown { 1 } else { -1 });
            app.focus = previous;
        }
        _ => {}
    }
}

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

fn settings_form(app: &App) -> SettingsForm {
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
        _ => RegexGenerator::parse(value).err().map(|e| e.to_string()),
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
        max_stale: Some(value(2).parse().unwrap_or(0)),
        max_calls: Some(value(3).parse().unwrap_or(1)),
        target_coverage: None,
        test_timeout_ms: Some(value(4).parse().unwrap_or(1)),
        string_gen: pattern(5),
        number_gen: pattern(6),
    }
}

fn settings_key(app: &mut App, mut form: SettingsForm, key: KeyEvent) -> Vec<Command> {
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

fn override_key(app: &mut App, mut picker: OverridePicker, key: KeyEvent) -> Vec<Command> {
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

fn export_key(app: &mut App, mut form: ExportForm, key: KeyEvent) -> Vec<Command> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::snapshot::{ClassRow, MethodRow, ParamRow, Snapshot};

    fn press(app: &mut App, code: KeyCode) -> Vec<Command> {
        update(app, Event::Key(KeyEvent::new(code, KeyModifiers::NONE)), &Areas::default())
    }

    fn app() -> App {
        let snapshot = Snapshot {
            classes: vec![ClassRow { name: "List".into(), methods: vec![0, 1] }],
            methods: vec![
                MethodRow { name: "add".into(), ..Default::default() },
                MethodRow { name: "get".into(), ..Default::default() },
            ],
            params: vec![ParamRow {
                id: 7,
                function: "add".into(),
                name: "node".into(),
                ty: "Unknown".into(),
                ..Default::default()
            }],
            type_names: ["number", "string", "boolean", "array", "function", "Date", "List", "Node"]
                .map(String::from)
                .to_vec(),
            ..Default::default()
        };
        App::new(snapshot, PathBuf::from("out"), Format::NodeTest)
    }

    #[test]
    fn stepping_running_and_selecting() {
        let mut app = app();
        assert_eq!(press(&mut app, KeyCode::Char('n')), vec![Command::Step]);
        assert_eq!(press(&mut app, KeyCode::Char(' ')), vec![Command::Step]);
        assert_eq!(press(&mut app, KeyCode::Char('r')), vec![Command::ToggleRun]);
        press(&mut app, KeyCode::Char('j'));
        assert_eq!(press(&mut app, KeyCode::Enter), vec![Command::Select(1)]);
        press(&mut app, KeyCode::Tab);
        assert_eq!(app.focus, Pane::Candidate);
    }

    #[test]
    fn overriding_a_type_picks_from_primitives_and_classes() {
        let mut app = app();
        press(&mut app, KeyCode::Char('o'));
        let Mode::Override(picker) = &app.mode else { panic!("picker open") };
        assert_eq!(picker.choices, vec!["number", "string", "boolean", "array", "function", "Date", "List", "Node"]);
        for _ in 0..7 {
            press(&mut app, KeyCode::Down);
        }
        assert_eq!(press(&mut app, KeyCode::Enter), vec![Command::Override { param: 7, ty: "Node".into() }]);
        assert_eq!(app.mode, Mode::Normal);
    }

    #[test]
    fn settings_are_validated_as_typed() {
        let mut app = app();
        press(&mut app, KeyCode::Char('t'));
        for _ in 0..5 {
            press(&mut app, KeyCode::Down);
        }
        press(&mut app, KeyCode::Char('('));
        let Mode::Settings(form) = &app.mode else { panic!("form open") };
        assert!(form.fields[5].error.is_some(), "an unbalanced group is reported inline");
        assert!(press(&mut app, KeyCode::Enter).is_empty(), "an invalid form is not applied");
        press(&mut app, KeyCode::Backspace);
        for c in "\\d{3}".chars() {
            press(&mut app, KeyCode::Char(c));
        }
        let commands = press(&mut app, KeyCode::Enter);
        let [Command::Settings(change)] = commands.as_slice() else { panic!("{commands:?}") };
        assert_eq!(change.string_gen, Some(Some("\\d{3}".to_string())));
    }

    #[test]
    fn quitting_asks_when_tests_are_unexported() {
        let mut app = app();
        app.snapshot.unexported = 2;
        assert!(press(&mut app, KeyCode::Char('q')).is_empty());
        assert_eq!(app.mode, Mode::ConfirmQuit);
        assert_eq!(press(&mut app, KeyCode::Char('y')), vec![Command::Quit { export: true }]);
        assert!(app.quit);
        let mut app = self::app();
        assert_eq!(press(&mut app, KeyCode::Char('q')), vec![Command::Quit { export: false }]);
    }

    #[test]
    fn export_dialog_cycles_formats_and_edits_the_folder() {
        let mut app = app();
        press(&mut app, KeyCode::Char('x'));
        press(&mut app, KeyCode::Right);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('2'));
        let commands = press(&mut app, KeyCode::Enter);
        assert_eq!(commands, vec![Command::Export { format: Format::all()[1], dir: PathBuf::from("out2") }]);
    }
}
