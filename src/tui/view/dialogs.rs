//! The dialogs drawn over the panes, one per mode: the keys (help), the settings form, the type override
//! picker, the export form and the quit confirmation. They share a centred frame sized to its content
//! ([`dialog`]), form rows with inline errors, and placing the terminal cursor where text is typed.

use ratatui::Frame;
use ratatui::layout::{Constraint, Margin, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use super::columns::{cell, highlight, width};
use super::pane::scroll_offset;
use crate::export::Format;
use crate::tui::state::{App, ExportForm, Field, OverridePicker, SettingsForm};
use crate::tui::theme::Theme;

/// Draws a centred dialog over the screen with `body` and a `hint` line, and returns its inside.
fn dialog(frame: &mut Frame, theme: &Theme, title: &str, body: Vec<Line<'static>>, hint: &str) -> Rect {
    let screen = frame.area();
    let mut lines = body;
    lines.push(Line::default());
    lines.push(Line::styled(hint.to_string(), theme.dim));
    let widest = lines.iter().map(Line::width).chain([width(title) + 4]).max().unwrap_or(0);
    let columns = u16::try_from(widest + 4).unwrap_or(u16::MAX).min(screen.width);
    let inside = usize::from(columns.saturating_sub(4).max(1));
    // Lines longer than the dialog wrap; one spare row each covers word wrapping's ragged ends.
    let rows: usize = lines.iter().map(|l| if l.width() > inside { l.width().div_ceil(inside) + 1 } else { 1 }).sum();
    let rows = u16::try_from(rows + 2).unwrap_or(u16::MAX).min(screen.height);
    let area = screen.centered(Constraint::Length(columns), Constraint::Length(rows));
    let block = Block::bordered()
        .border_type(BorderType::Thick)
        .border_style(theme.focused_border)
        .title(Span::styled(format!(" {title} "), theme.title.patch(theme.focused_border)))
        .style(theme.base);
    let inner = block.inner(area).inner(Margin::new(1, 0));
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    inner
}

/// Puts the terminal cursor `column` columns into row `row` of `inner`, where text is being typed.
fn place_cursor(frame: &mut Frame, inner: Rect, row: usize, column: usize) {
    let x = inner.x.saturating_add(u16::try_from(column).unwrap_or(u16::MAX)).min(inner.right().saturating_sub(1));
    let y = inner.y.saturating_add(u16::try_from(row).unwrap_or(u16::MAX));
    if y < inner.bottom() {
        frame.set_cursor_position(Position::new(x, y));
    }
}

/// Every key, with what it does.
const HELP: [(&str, &str); 16] = [
    ("space, n", "step: run one candidate"),
    ("r", "run / pause stepping"),
    ("tab, shift-tab", "next / previous pane"),
    ("↑ ↓ ← →, j k", "move in the focused pane"),
    ("enter", "work on the selected method"),
    ("t", "settings"),
    ("a", "accept the type of the selected parameter"),
    ("o", "override the type of the selected parameter"),
    ("x", "export the suite"),
    ("s", "save the project file"),
    ("e", "suite tab: elected / failing"),
    ("PgUp, PgDn", "scroll"),
    ("q", "quit"),
    ("?", "close this help"),
    ("mouse click", "focus a pane, select a row"),
    ("mouse wheel", "scroll"),
];

/// Draws the help: every key with what it does.
pub(super) fn draw_help(frame: &mut Frame, theme: &Theme) {
    let key_w = HELP.iter().map(|(key, _)| width(key)).max().unwrap_or(0);
    let body = HELP
        .iter()
        .map(|(key, what)| Line::from(vec![Span::styled(cell(key, key_w + 2), theme.title), Span::raw(*what)]))
        .collect();
    dialog(frame, theme, "Keys", body, "? or esc close");
}

/// The hint under the settings form.
const SETTINGS_HINT: &str = "enter apply · esc cancel · ↑↓ field";

/// Column where values start in a form: after the marker and the widest label.
fn form_value_column(fields: &[Field]) -> usize {
    2 + fields.iter().map(|f| width(f.label)).max().unwrap_or(0) + 2
}

/// `› label  value` rows, each error on the row under its field.
fn form_lines(fields: &[Field], selected: usize, theme: &Theme) -> Vec<Line<'static>> {
    let label_w = form_value_column(fields) - 4;
    let mut lines = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let chosen = index == selected;
        let line = Line::from(vec![
            Span::raw(if chosen { "› " } else { "  " }),
            Span::styled(cell(field.label, label_w + 2), theme.title),
            Span::raw(field.value.clone()),
        ]);
        lines.push(if chosen { highlight(line, theme.selection, 0) } else { line });
        if let Some(error) = &field.error {
            lines.push(Line::styled(format!("{}✗ {error}", " ".repeat(label_w + 4)), theme.error));
        }
    }
    lines
}

/// Draws the settings form, with the terminal cursor at the end of the selected field's value (an error
/// under a field takes a row, so the cursor row counts them).
pub(super) fn draw_settings(frame: &mut Frame, form: &SettingsForm, theme: &Theme) {
    let inner = dialog(frame, theme, "Settings", form_lines(&form.fields, form.selected, theme), SETTINGS_HINT);
    let row = form.fields.iter().take(form.selected).map(|f| 1 + usize::from(f.error.is_some())).sum();
    if let Some(field) = form.fields.get(form.selected) {
        place_cursor(frame, inner, row, form_value_column(&form.fields) + width(&field.value));
    }
}

/// Draws the type picker of a parameter, scrolled to keep the selected type in view.
pub(super) fn draw_override(frame: &mut Frame, picker: &OverridePicker, theme: &Theme) {
    // Leave room for the border, the blank line and the hint.
    let visible = usize::from(frame.area().height.saturating_sub(4)).max(1);
    let offset = scroll_offset(picker.selected, visible);
    let body = picker
        .choices
        .iter()
        .enumerate()
        .skip(offset)
        .take(visible)
        .map(|(index, choice)| {
            if index == picker.selected {
                highlight(Line::raw(format!("› {choice}")), theme.selection, 0)
            } else {
                Line::raw(format!("  {choice}"))
            }
        })
        .collect();
    dialog(frame, theme, &format!("Type of {}", picker.label), body, "enter choose · esc cancel · ↑↓ type");
}

/// Draws the export form (format and folder), with the formats there are and the defaults under it.
pub(super) fn draw_export(frame: &mut Frame, form: &ExportForm, app: &App, theme: &Theme) {
    let fields = [
        Field { label: "Format", value: format!("‹ {} ›", form.format.name()), error: None },
        Field { label: "Folder", value: form.folder.clone(), error: None },
    ];
    let mut body = form_lines(&fields, form.field, theme);
    let formats: Vec<&str> = Format::all().iter().map(|f| f.name()).collect();
    body.push(Line::styled(format!("formats: {}", formats.join(" · ")), theme.dim));
    body.push(Line::styled(format!("defaults: {} to {}", app.format.name(), app.out_dir.display()), theme.dim));
    let inner = dialog(frame, theme, "Export", body, "←→ format · ↑↓ field · enter export · esc cancel");
    if form.field == 1 {
        place_cursor(frame, inner, 1, form_value_column(&fields) + width(&form.folder));
    }
}

/// Asks, when quitting with elected tests not exported yet, whether to export them first.
pub(super) fn draw_confirm_quit(frame: &mut Frame, app: &App, theme: &Theme) {
    let count = app.snapshot.unexported;
    let tests = if count == 1 { "test is" } else { "tests are" };
    let body = vec![
        Line::from(format!("{count} elected {tests} not exported.")),
        Line::from(format!("Export to {} before quitting?", app.out_dir.display())),
    ];
    dialog(frame, theme, "Quit", body, "y export · n quit, keeping a recovery copy · esc stay");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::state::Mode;
    use crate::tui::view::fixtures::{app, dark, render, screen};

    #[test]
    fn help_lists_every_key() {
        let mut app = app();
        app.mode = Mode::Help;
        let text = screen(&render(&app, &dark(), 80, 24));
        for (key, what) in HELP {
            assert!(text.contains(&format!("{key:<16}{what}")), "{key} missing:\n{text}");
        }
        for key in ["space, n", "shift-tab", "j k", "enter", "PgUp, PgDn", "mouse wheel"] {
            assert!(text.contains(key));
        }
    }

    #[test]
    fn settings_form_shows_inline_errors_and_cursor() {
        let field = |label, value: &str, error: Option<&str>| Field {
            label,
            value: value.into(),
            error: error.map(str::to_string),
        };
        let mut app = app();
        app.mode = Mode::Settings(SettingsForm {
            fields: vec![
                field("delay", "x20", Some("not a number")),
                field("timeout (s)", "10", None),
                field("max stale", "200", None),
            ],
            selected: 1,
        });
        let theme = dark();
        let mut terminal = render(&app, &theme, 80, 24);
        let text = screen(&terminal);
        assert!(text.contains("  delay        x20"), "{text}");
        assert!(text.contains("               ✗ not a number"), "{text}");
        assert!(text.contains("› timeout (s)  10"), "{text}");
        assert!(text.contains("enter apply · esc cancel · ↑↓ field"), "{text}");
        let buffer = terminal.backend().buffer().clone();
        let (x, y) = (0..24)
            .flat_map(|y| (0..80).map(move |x| (x, y)))
            .find(|&(x, y)| buffer[(x, y)].symbol() == "✗" && buffer[(x + 2, y)].symbol() == "n")
            .unwrap();
        assert_eq!(buffer[(x, y)].style().fg, theme.error.fg);
        let cursor = terminal.get_cursor_position().unwrap();
        assert_eq!(buffer[(cursor.x - 2, cursor.y)].symbol(), "1");
        assert_eq!(buffer[(cursor.x - 1, cursor.y)].symbol(), "0");
    }

    #[test]
    fn override_export_and_quit_dialogs() {
        let mut app = app();
        app.mode = Mode::Override(OverridePicker {
            param: 0,
            label: "add(node)".into(),
            choices: vec!["number".into(), "string".into(), "Node".into()],
            selected: 2,
        });
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains(" Type of add(node) "), "{text}");
        assert!(text.contains("› Node"), "{text}");
        assert!(text.contains("  string"), "{text}");

        app.mode = Mode::Export(ExportForm { format: Format::Nodeunit, folder: "out/x".into(), field: 0 });
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("› Format  ‹ nodeunit ›"), "{text}");
        assert!(text.contains("  Folder  out/x"), "{text}");
        assert!(text.contains("formats: node-test · assert · nodeunit · expresso · vows"), "{text}");
        assert!(text.contains("defaults: node-test to tests/out"), "{text}");

        app.mode = Mode::ConfirmQuit;
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("2 elected tests are not exported."), "{text}");
        assert!(text.contains("Export to tests/out before quitting?"), "{text}");
        assert!(text.contains("y export · n quit, keeping a recovery copy · esc stay"), "{text}");
    }
}
