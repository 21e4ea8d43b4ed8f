//! Input handling: a key or mouse event changes the UI state and yields commands for the session.
//! Nothing here touches the terminal or the session, so scripted tests drive it directly.

mod forms;
mod overlays;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::inspect::Subject;
use super::state::{App, ExportForm, Mode, OverridePicker, Pane, SuiteTab};
use super::view::{Areas, item_at, pane_at};
use super::worker::Command;
use forms::{export_key, override_key, settings_form, settings_key};
use overlays::{confirm_quit_key, filter_key, full_key, help_key, quit};

/// Rows moved by PgUp/PgDn.
const PAGE: usize = 10;

/// Handles one terminal event; `areas` is the current layout (for the mouse, the screen order of the
/// panes and the size of full views).
pub fn update(app: &mut App, event: Event, areas: &Areas) -> Vec<Command> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_event(app, key, areas),
        Event::Mouse(mouse) => {
            mouse_event(app, mouse, areas);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn key_event(app: &mut App, key: KeyEvent, areas: &Areas) -> Vec<Command> {
    if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
        // Ctrl-C never loses the suite: it is written on the way out, where the export dialog last said.
        app.quit = true;
        app.interrupted = true;
        return vec![quit(app, true, false)];
    }
    match std::mem::replace(&mut app.mode, Mode::Normal) {
        Mode::Normal => normal_key(app, key, areas),
        Mode::Help => {
            help_key(app, key);
            Vec::new()
        }
        Mode::Settings(form) => settings_key(app, form, key),
        Mode::Override(picker) => override_key(app, picker, key),
        Mode::Export(form) => export_key(app, form, key),
        Mode::ConfirmQuit => confirm_quit_key(app, key),
        Mode::Filter => {
            filter_key(app, key);
            Vec::new()
        }
        Mode::Full(view) => {
            full_key(app, view, key, areas);
            Vec::new()
        }
    }
}

fn normal_key(app: &mut App, key: KeyEvent, areas: &Areas) -> Vec<Command> {
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    match key.code {
        KeyCode::Char(' ') | KeyCode::Char('n') => return vec![Command::Step],
        KeyCode::Char('r') => return vec![Command::ToggleRun],
        KeyCode::Tab => app.focus = next_pane(app.focus, !shift, areas),
        KeyCode::BackTab => app.focus = next_pane(app.focus, false, areas),
        KeyCode::Right | KeyCode::Char('l') => app.focus = next_pane(app.focus, true, areas),
        KeyCode::Left | KeyCode::Char('h') => app.focus = next_pane(app.focus, false, areas),
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
        KeyCode::Char('v') => return vec![Command::Show(Subject::Suite(app.format, app.out_dir.clone()))],
        KeyCode::Char('/') => app.mode = Mode::Filter,
        KeyCode::Char('?') => {
            app.help_scroll = 0;
            app.mode = Mode::Help;
        }
        KeyCode::Char('t') => app.mode = Mode::Settings(settings_form(app)),
        KeyCode::Char('a') | KeyCode::Char('i') | KeyCode::Char('o') => return param_key(app, key.code),
        KeyCode::Char('x') => {
            app.mode =
                Mode::Export(ExportForm { format: app.format, folder: app.out_dir.display().to_string(), field: 0 })
        }
        KeyCode::Char('s') => return vec![Command::SaveProject],
        KeyCode::Char('q') => {
            if app.unsaved_work() {
                app.mode = Mode::ConfirmQuit;
            } else {
                app.quit = true;
                return vec![quit(app, false, false)];
            }
        }
        // Esc steps back out of what narrows the view; it never quits.
        KeyCode::Esc => {
            if !app.filter.is_empty() {
                app.filter.clear();
            } else if app.history_step.take().is_none() {
                app.note("q quits", false);
            }
        }
        _ => {}
    }
    Vec::new()
}

/// `a`, `i` and `o`: accept, give back to inference, or override the selected parameter's type.
fn param_key(app: &mut App, code: KeyCode) -> Vec<Command> {
    let Some(param) = app.selected_param() else {
        app.note("no parameter selected (tab to the Parameters pane)", true);
        return Vec::new();
    };
    match code {
        KeyCode::Char('a') => vec![Command::Accept { param: param.id }],
        KeyCode::Char('i') => vec![Command::Reinfer { param: param.id }],
        _ => {
            let choices = app.snapshot.type_names.clone();
            let selected = choices.iter().position(|c| *c == param.ty).unwrap_or(0);
            app.mode = Mode::Override(OverridePicker { param: param.id, label: param.label(), choices, selected });
            Vec::new()
        }
    }
}

/// The pane after (or before) `pane` in screen order: rows top to bottom, each left to right.
fn next_pane(pane: Pane, forward: bool, areas: &Areas) -> Pane {
    let mut order = Pane::ALL;
    if areas.status.width > 0 {
        order.sort_by_key(|p| (areas.pane(*p).y, areas.pane(*p).x));
    }
    let index = order.iter().position(|p| *p == pane).unwrap_or(0);
    let next = if forward { index + 1 } else { index + order.len() - 1 };
    order[next % order.len()]
}

fn enter(app: &mut App) -> Vec<Command> {
    match app.focus {
        Pane::Methods => app.selected_method().map(Command::Select).into_iter().collect(),
        Pane::Params => param_key(app, KeyCode::Char('o')),
        Pane::Candidate => {
            app.viewed_candidate().map(|c| Command::Show(Subject::Candidate(c.step))).into_iter().collect()
        }
        Pane::Suite => {
            let Some(index) = app.selected_test() else { return Vec::new() };
            vec![Command::Show(match app.suite_tab {
                SuiteTab::Elected => Subject::Elected(index),
                SuiteTab::Failing => Subject::Failing(index),
            })]
        }
        Pane::Coverage => Vec::new(),
    }
}

fn move_cursor(app: &mut App, delta: isize) {
    let step = |value: usize, len: usize| (value as isize + delta).clamp(0, len.saturating_sub(1) as isize) as usize;
    match app.focus {
        Pane::Methods => app.method_cursor = step(app.method_cursor, app.method_order().len()),
        Pane::Params => app.param_cursor = step(app.param_cursor, app.snapshot.params.len()),
        Pane::Suite => app.suite_cursor = step(app.suite_cursor, app.suite_len()),
        Pane::Coverage => app.coverage_scroll = step(app.coverage_scroll, app.snapshot.coverage.source.len()),
        Pane::Candidate => {
            // Up goes back in time: the history is listed oldest first, the latest at the bottom.
            let history = &app.snapshot.history;
            let position = history.len().saturating_sub(1 + app.candidates_back());
            let position = step(position, history.len());
            app.history_step = (position + 1 < history.len()).then(|| history[position].step);
        }
    }
}

fn mouse_event(app: &mut App, mouse: MouseEvent, areas: &Areas) {
    let scroll = match mouse.kind {
        MouseEventKind::ScrollDown => KeyCode::Down,
        MouseEventKind::ScrollUp => KeyCode::Up,
        _ => KeyCode::Null,
    };
    match &app.mode {
        Mode::Full(_) | Mode::Help if scroll != KeyCode::Null => {
            key_event(app, KeyEvent::new(scroll, KeyModifiers::NONE), areas);
            return;
        }
        Mode::Normal => {}
        _ => return,
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use ratatui::layout::Rect;

    use super::*;
    use crate::export::Format;
    use crate::tui::inspect::{Document, Tone};
    use crate::tui::keys;
    use crate::tui::snapshot::{
        CandidateOutcome, CandidateView, ClassRow, ElectedRow, FailingRow, LineMark, MethodRow, ParamRow, Snapshot,
        SourceLine,
    };
    use crate::tui::state::{FullView, NOTE_TICKS};
    use crate::tui::view::layout;

    fn press(app: &mut App, code: KeyCode) -> Vec<Command> {
        update(app, Event::Key(KeyEvent::new(code, KeyModifiers::NONE)), &Areas::default())
    }

    fn press_on(app: &mut App, code: KeyCode, columns: u16, rows: u16) -> Vec<Command> {
        update(app, Event::Key(KeyEvent::new(code, KeyModifiers::NONE)), &layout(Rect::new(0, 0, columns, rows)))
    }

    fn typed(app: &mut App, text: &str) {
        for c in text.chars() {
            press(app, KeyCode::Char(c));
        }
    }

    /// The app with three candidates in its history (steps 10, 11, 12), two elected tests and a failing one.
    fn with_history() -> App {
        let mut app = app();
        app.snapshot.history = (10..13)
            .map(|step| CandidateView {
                step,
                method: 0,
                lines: Vec::new(),
                outcome: CandidateOutcome::NoNewCoverage,
                failed_at: None,
                ran: (0, 0),
                decisions: Vec::new(),
            })
            .collect();
        let elected = |method: &str, title: &str| ElectedRow {
            method: "List".into(),
            title: format!("{method}: {title}"),
            code: String::new(),
        };
        app.snapshot.suite.elected = vec![elected("add", "an empty list"), elected("get", "index 0")];
        let line = |number| SourceLine { number, text: String::new(), mark: LineMark::Plain };
        app.snapshot.coverage.source = (1..4).map(line).collect();
        app.snapshot.suite.failing = vec![FailingRow {
            method: "List.add".into(),
            culprit: Some("get".into()),
            message: "threw RangeError: 777".into(),
            code: String::new(),
        }];
        app
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
        let quit = |export| Command::Quit { format: Format::NodeTest, dir: PathBuf::from("out"), export, save: false };
        assert_eq!(press(&mut app, KeyCode::Char('y')), vec![quit(true)]);
        assert!(app.quit);
        let mut app = self::app();
        assert_eq!(press(&mut app, KeyCode::Char('q')), vec![quit(false)]);
    }

    #[test]
    fn quitting_exports_where_the_export_dialog_last_wrote() {
        let mut app = app();
        press(&mut app, KeyCode::Char('x'));
        press(&mut app, KeyCode::Tab);
        for _ in 0.."out".len() {
            press(&mut app, KeyCode::Backspace);
        }
        typed(&mut app, "myout");
        let commands = press(&mut app, KeyCode::Enter);
        assert_eq!(commands, vec![Command::Export { format: Format::NodeTest, dir: PathBuf::from("myout") }]);
        app.snapshot.unexported = 4;
        press(&mut app, KeyCode::Char('q'));
        assert_eq!(app.mode, Mode::ConfirmQuit);
        let commands = press(&mut app, KeyCode::Char('y'));
        let quit = Command::Quit { format: Format::NodeTest, dir: PathBuf::from("myout"), export: true, save: false };
        assert_eq!(commands, vec![quit], "the dialog says myout: the suite goes there");
    }

    #[test]
    fn esc_never_quits_and_quitting_asks_for_unsaved_changes() {
        let mut app = app();
        assert!(press(&mut app, KeyCode::Esc).is_empty());
        assert!(!app.quit, "esc steps back out of things; it does not quit");
        app.snapshot.unsaved = vec!["--delay 5".into()];
        assert!(press(&mut app, KeyCode::Char('q')).is_empty());
        assert_eq!(app.mode, Mode::ConfirmQuit, "changes not saved to the project file: asks");
        assert!(press(&mut app, KeyCode::Char('x')).is_empty());
        assert_eq!(app.mode, Mode::ConfirmQuit, "a stray key keeps the question");
        let commands = press(&mut app, KeyCode::Char('y'));
        let save = Command::Quit { format: Format::NodeTest, dir: PathBuf::from("out"), export: false, save: true };
        assert_eq!(commands, vec![save]);
        // Notes that come after quitting are printed on the way out; earlier ones are not.
        app.note("wrote 2 file(s) to out", false);
        assert_eq!(app.farewell.len(), 1);
    }

    #[test]
    fn ctrl_c_quits_at_once_as_interrupted_writing_the_suite() {
        let mut app = app();
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        let commands = update(&mut app, Event::Key(ctrl_c), &Areas::default());
        let quit = Command::Quit { format: Format::NodeTest, dir: PathBuf::from("out"), export: true, save: false };
        assert_eq!(commands, vec![quit]);
        assert!(app.quit && app.interrupted);
    }

    #[test]
    fn notes_age_out() {
        let mut app = app();
        app.note("settings changed: --delay 5", false);
        for _ in 1..NOTE_TICKS {
            app.tick();
        }
        assert!(app.message.is_some());
        app.tick();
        assert_eq!(app.message, None, "a note does not outstay its news");
        app.note("cannot write out", true);
        for _ in 0..NOTE_TICKS {
            app.tick();
        }
        assert!(app.message.is_some(), "errors stay longer");
    }

    #[test]
    fn help_stays_open_scrolls_and_closes_on_its_keys() {
        let mut app = app();
        press(&mut app, KeyCode::Char('?'));
        press(&mut app, KeyCode::Char('x'));
        assert_eq!(app.mode, Mode::Help, "a stray key does not close the help");
        press(&mut app, KeyCode::Char('j'));
        press(&mut app, KeyCode::PageDown);
        assert_eq!(app.help_scroll, 1 + PAGE);
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.mode, Mode::Normal);
    }

    #[test]
    fn a_number_generator_without_numbers_is_refused_as_typed() {
        let mut app = app();
        press(&mut app, KeyCode::Char('t'));
        for _ in 0..6 {
            press(&mut app, KeyCode::Down);
        }
        let Mode::Settings(form) = &app.mode else { panic!("form open") };
        let clear = form.fields[6].value.len();
        for _ in 0..clear {
            press(&mut app, KeyCode::Backspace);
        }
        typed(&mut app, "abc");
        let Mode::Settings(form) = &app.mode else { panic!("form open") };
        assert!(form.fields[6].error.as_deref().is_some_and(|e| e.contains("gives no number")), "{form:?}");
        assert!(press(&mut app, KeyCode::Enter).is_empty());
    }

    #[test]
    fn candidates_of_the_history_are_browsed_and_opened_full_screen() {
        let mut app = with_history();
        app.focus = Pane::Candidate;
        assert_eq!(app.viewed_candidate().map(|c| c.step), Some(12));
        press(&mut app, KeyCode::Char('k'));
        press(&mut app, KeyCode::Char('k'));
        assert_eq!((app.history_step, app.candidates_back()), (Some(10), 2));
        press(&mut app, KeyCode::Char('k'));
        assert_eq!(app.history_step, Some(10), "the oldest kept is as far back as it goes");
        assert_eq!(press(&mut app, KeyCode::Enter), vec![Command::Show(Subject::Candidate(10))]);
        // New candidates come in: the one viewed stays viewed.
        app.snapshot.history.remove(0);
        app.snapshot.history.push(CandidateView { step: 13, ..app.snapshot.history[0].clone() });
        assert_eq!(app.viewed_candidate().map(|c| c.step), Some(11), "gone from the history: the oldest kept");
        press(&mut app, KeyCode::Char('j'));
        press(&mut app, KeyCode::Char('j'));
        assert_eq!(app.history_step, None, "back at the latest: following it again");
        press(&mut app, KeyCode::Char('k'));
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.history_step, None, "esc goes back to the latest");
    }

    #[test]
    fn the_filter_narrows_methods_and_tests_and_esc_clears_it() {
        let mut app = with_history();
        press(&mut app, KeyCode::Char('/'));
        typed(&mut app, "GET");
        assert_eq!(app.mode, Mode::Filter);
        press(&mut app, KeyCode::Enter);
        assert_eq!((app.mode.clone(), app.filter.as_str()), (Mode::Normal, "GET"));
        assert_eq!(app.method_order(), vec![1]);
        assert_eq!(app.suite_rows(), vec![1]);
        app.focus = Pane::Suite;
        assert_eq!(press(&mut app, KeyCode::Enter), vec![Command::Show(Subject::Elected(1))]);
        press(&mut app, KeyCode::Char('e'));
        assert_eq!(app.suite_rows(), vec![0], "a failing test matches by the call that failed");
        press(&mut app, KeyCode::Esc);
        assert_eq!((app.filter.as_str(), app.method_order()), ("", vec![0, 1]));
    }

    #[test]
    fn tab_follows_the_screen() {
        let mut app = app();
        let order = |app: &mut App, columns, rows| -> Vec<Pane> {
            (0..5)
                .map(|_| {
                    press_on(app, KeyCode::Tab, columns, rows);
                    app.focus
                })
                .collect()
        };
        // Wide: methods, candidate and coverage on top; parameters and suite below.
        let wide = order(&mut app, 120, 35);
        assert_eq!(wide, [Pane::Candidate, Pane::Coverage, Pane::Params, Pane::Suite, Pane::Methods]);
        let narrow = order(&mut app, 80, 24);
        assert_eq!(narrow, [Pane::Candidate, Pane::Params, Pane::Coverage, Pane::Suite, Pane::Methods]);
        press_on(&mut app, KeyCode::BackTab, 120, 35);
        assert_eq!(app.focus, Pane::Suite);
    }

    #[test]
    fn type_control_accepts_overrides_and_gives_back_to_inference() {
        let mut app = app();
        app.focus = Pane::Params;
        assert_eq!(press(&mut app, KeyCode::Char('a')), vec![Command::Accept { param: 7 }]);
        assert_eq!(press(&mut app, KeyCode::Char('i')), vec![Command::Reinfer { param: 7 }]);
        press(&mut app, KeyCode::Enter);
        let Mode::Override(picker) = &app.mode else { panic!("picker open") };
        assert_eq!(picker.label, "add(node)");
        press(&mut app, KeyCode::Esc);
        app.snapshot.params[0].helper = Some("Node".into());
        press(&mut app, KeyCode::Char('o'));
        let Mode::Override(picker) = &app.mode else { panic!("picker open") };
        assert_eq!(picker.label, "new Node(node)", "a helper class's constructor is named as such");
    }

    #[test]
    fn full_views_scroll_wrap_and_close() {
        let mut app = app();
        assert_eq!(
            press(&mut app, KeyCode::Char('v')),
            vec![Command::Show(Subject::Suite(Format::NodeTest, "out".into()))]
        );
        let lines = (0..100).map(|i| (Tone::Plain, format!("line {i}"))).collect();
        app.show(Document { title: "Suite".into(), lines });
        press_on(&mut app, KeyCode::Char('j'), 80, 24);
        press_on(&mut app, KeyCode::PageDown, 80, 24);
        let scroll = |app: &App| match &app.mode {
            Mode::Full(FullView { scroll, .. }) => *scroll,
            mode => panic!("{mode:?}"),
        };
        assert_eq!(scroll(&app), 21, "a page is the rows the view shows");
        press_on(&mut app, KeyCode::Char('G'), 80, 24);
        assert_eq!(scroll(&app), 80, "the end: the last row at the bottom");
        press_on(&mut app, KeyCode::Char('j'), 80, 24);
        assert_eq!(scroll(&app), 80, "no further");
        press_on(&mut app, KeyCode::Char('w'), 80, 24);
        assert!(matches!(&app.mode, Mode::Full(FullView { wrap: false, .. })));
        press_on(&mut app, KeyCode::Char('q'), 80, 24);
        assert_eq!(app.mode, Mode::Normal);
        assert!(!app.quit, "q closes the view, not the explorer");
    }

    #[test]
    fn keys_in_the_table_do_something() {
        let code = |token: &str| match token {
            "enter" => Some(KeyCode::Enter),
            "esc" => Some(KeyCode::Esc),
            t if t.chars().count() == 1 => t.chars().next().map(KeyCode::Char),
            _ => None,
        };
        for pane in Pane::ALL {
            for binding in keys::of_pane(pane) {
                let tokens = binding.keys.split([',', ' ']).filter(|t| !t.is_empty());
                for key in tokens.filter_map(code) {
                    let mut app = with_history();
                    app.focus = pane;
                    // In the middle of every list, so that both directions can move.
                    (app.history_step, app.coverage_scroll) = (Some(11), 1);
                    let before = format!("{app:?}");
                    let commands = press(&mut app, key);
                    assert!(
                        !commands.is_empty() || format!("{app:?}") != before,
                        "{key:?} in {pane:?} ({}) does nothing",
                        binding.what
                    );
                }
            }
        }
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
