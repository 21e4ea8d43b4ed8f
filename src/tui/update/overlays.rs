//! Keys in what lies over the panes: the quit question, the help, the filter being typed and a full
//! view.

use crossterm::event::{KeyCode, KeyEvent};

use super::{Command, PAGE};
use crate::tui::state::{App, FullView, Mode};
use crate::tui::view::{Areas, full_last_scroll, full_page, help_rows};

/// The quit command: export to the folder and in the format the person last chose.
pub(super) fn quit(app: &App, export: bool, save: bool) -> Command {
    Command::Quit { format: app.format, dir: app.out_dir.clone(), export, save }
}

pub(super) fn confirm_quit_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    match key.code {
        KeyCode::Char('y') | KeyCode::Char('Y') => {
            app.quit = true;
            let (export, save) = (app.snapshot.unexported > 0, !app.snapshot.unsaved.is_empty());
            vec![quit(app, export, save)]
        }
        KeyCode::Char('n') | KeyCode::Char('N') => {
            app.quit = true;
            vec![quit(app, false, false)]
        }
        KeyCode::Esc => Vec::new(),
        _ => {
            // Only y, n and esc answer: a stray key keeps the question.
            app.mode = Mode::ConfirmQuit;
            Vec::new()
        }
    }
}

pub(super) fn help_key(app: &mut App, key: KeyEvent) {
    match key.code {
        KeyCode::Char('?') | KeyCode::Esc | KeyCode::Char('q') => return,
        KeyCode::Down | KeyCode::Char('j') => app.help_scroll += 1,
        KeyCode::Up | KeyCode::Char('k') => app.help_scroll = app.help_scroll.saturating_sub(1),
        KeyCode::PageDown => app.help_scroll += PAGE,
        KeyCode::PageUp => app.help_scroll = app.help_scroll.saturating_sub(PAGE),
        _ => {}
    }
    app.help_scroll = app.help_scroll.min(help_rows().saturating_sub(1));
    app.mode = Mode::Help;
}

pub(super) fn filter_key(app: &mut App, key: KeyEvent) {
    match key.code {
        KeyCode::Enter => return,
        KeyCode::Esc => {
            app.filter.clear();
            return;
        }
        KeyCode::Backspace => {
            app.filter.pop();
        }
        KeyCode::Char(c) => app.filter.push(c),
        _ => {}
    }
    app.method_cursor = 0;
    app.suite_cursor = 0;
    app.mode = Mode::Filter;
}

pub(super) fn full_key(app: &mut App, mut view: FullView, key: KeyEvent, areas: &Areas) {
    let (width, height) = (areas.status.width, areas.status.bottom());
    let page = usize::from(full_page(height)).max(1);
    let last = full_last_scroll(&view, width, height);
    view.scroll = match key.code {
        KeyCode::Esc | KeyCode::Char('q') => return,
        KeyCode::Down | KeyCode::Char('j') => view.scroll + 1,
        KeyCode::Up | KeyCode::Char('k') => view.scroll.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => view.scroll + page,
        KeyCode::PageUp => view.scroll.saturating_sub(page),
        KeyCode::Char('g') | KeyCode::Home => 0,
        KeyCode::Char('G') | KeyCode::End => last,
        KeyCode::Char('w') => {
            view.wrap = !view.wrap;
            0
        }
        _ => view.scroll,
    }
    .min(full_last_scroll(&view, width, height));
    app.mode = Mode::Full(view);
}
