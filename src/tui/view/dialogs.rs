//! The dialogs drawn over the panes, one per mode: the keys (help), the settings form, the type override
//! picker, the export form and the quit confirmation. They share a centred frame sized to its content
//! ([`dialog`]), form rows with inline errors, and placing the terminal cursor where text is typed.

use ratatui::Frame;
use ratatui::layout::{Constraint, Margin, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use super::columns::{cell, highlight, truncate, width};
use super::pane::scroll_offset;
use crate::export::Format;
use crate::tui::keys;
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

/// The help's lines, each place's keys under its name, one row each: what a key does is cut to
/// `columns` so that scrolling goes by rows.
fn help_lines(theme: &Theme, columns: usize) -> Vec<Line<'static>> {
    let sections = keys::sections();
    let key_w = sections.iter().flat_map(|(_, b)| b.iter()).map(|b| width(b.keys)).max().unwrap_or(0);
    let mut lines = Vec::new();
    for (place, bindings) in sections {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        lines.push(Line::styled(place, theme.focused_border));
        for binding in bindings {
            lines.push(Line::from(vec![
                Span::styled(cell(binding.keys, key_w + 2), theme.title),
                Span::raw(truncate(binding.what, columns.saturating_sub(key_w + 2))),
            ]));
        }
    }
    lines
}

/// Rows of the help, for scrolling.
pub(crate) fn help_rows() -> usize {
    help_lines(&Theme::monochrome(), usize::MAX).len()
}

/// Draws the help: every key by place, scrolled by [`App::help_scroll`] when the screen is short.
pub(super) fn draw_help(frame: &mut Frame, app: &App, theme: &Theme) {
    let lines = help_lines(theme, usize::from(frame.area().width.saturating_sub(4)));
    // Room for the border, the blank line and the hint.
    let visible = usize::from(frame.area().height.saturating_sub(4)).max(1);
    let scroll = app.help_scroll.min(lines.len().saturating_sub(visible));
    let hint = if lines.len() > visible {
        format!("j k scroll {}–{} of {} · esc close", scroll + 1, (scroll + visible).min(lines.len()), lines.len())
    } else {
        "? or esc close".to_string()
    };
    let body = lines.into_iter().skip(scroll).take(visible).collect();
    dialog(frame, theme, "Keys", body, &hint);
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

/// Asks, when quitting would lose elected tests not exported yet or changes not saved to the project
/// file, whether to keep them first: `y` does both, to the folder and in the format last chosen.
pub(super) fn draw_confirm_quit(frame: &mut Frame, app: &App, theme: &Theme) {
    let count = app.snapshot.unexported;
    let unsaved = &app.snapshot.unsaved;
    let mut body = Vec::new();
    let mut keep = Vec::new();
    if count > 0 {
        let tests = if count == 1 { "test is" } else { "tests are" };
        body.push(Line::from(format!("{count} elected {tests} not exported.")));
        keep.push(format!("export to {} ({})", app.out_dir.display(), app.format.name()));
    }
    if !unsaved.is_empty() {
        body.push(Line::from("Changed here and not saved to flycatcher.json:"));
        body.extend(unsaved.iter().map(|c| Line::styled(format!("  {c}"), theme.dim)));
        keep.push("save them to flycatcher.json".to_string());
    }
    body.push(Line::from(format!("{} before quitting?", capitalised(&keep.join(" and ")))));
    let hint = match count {
        0 => "y yes · n quit without · esc stay".to_string(),
        _ => {
            format!("y yes · n quit, keeping a recovery copy in {} · esc stay", app.out_dir.join("recovery").display())
        }
    };
    dialog(frame, theme, "Quit", body, &hint);
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::state::Mode;
    use crate::tui::view::fixtures::{app, dark, render, screen};

    #[test]
    fn help_lists_every_key_by_place_and_scrolls_on_small_screens() {
        let mut app = app();
        app.mode = Mode::Help;
        let mut seen = String::new();
        for scroll in 0..help_rows() {
            app.help_scroll = scroll;
            seen.push_str(&screen(&render(&app, &dark(), 40, 12)));
        }
        for (place, bindings) in keys::sections() {
            assert!(seen.contains(place), "{place} missing");
            for binding in bindings {
                assert!(seen.contains(binding.keys), "{} missing", binding.keys);
            }
        }
        for key in ["l h, → ←", "ctrl-c", "k j", "i", "/"] {
            assert!(seen.contains(key), "{key} missing");
        }
        app.help_scroll = 0;
        let first = screen(&render(&app, &dark(), 40, 12));
        assert!(first.contains("j k scroll 1–8 of"), "{first}");
        let wide = screen(&render(&app, &dark(), 120, 60));
        assert!(wide.contains("quit now, writing the suite (exit status 130)"), "{wide}");
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
        assert!(text.contains("Export to tests/out (node-test) before quitting?"), "{text}");
        assert!(text.contains("y yes · n quit, keeping a recovery copy in tests/out/recovery · esc stay"), "{text}");
        app.snapshot.unexported = 0;
        app.snapshot.unsaved = vec!["--delay 5".into()];
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("Changed here and not saved to flycatcher.json:"), "{text}");
        assert!(text.contains("  --delay 5"), "{text}");
        assert!(text.contains("Save them to flycatcher.json before quitting?"), "{text}");
    }
}
