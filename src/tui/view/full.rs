//! A document full screen (a candidate with its coverage diff, a test, a log entry, the whole suite):
//! every pane gives way to it, the status line stays. Long lines wrap (cut at the width, as code
//! should not be reflowed at spaces) or are cut with `…` (`w`), and it scrolls by rows.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};

use super::columns::{truncate, width};
use super::layout::layout;
use crate::tui::inspect::Tone;
use crate::tui::state::FullView;
use crate::tui::theme::Theme;

/// The rows `view` takes at `columns` columns of text: its lines, wrapped or cut.
fn rows(view: &FullView, columns: usize) -> Vec<(Tone, String)> {
    let columns = columns.max(1);
    let mut rows = Vec::new();
    for (tone, text) in &view.document.lines {
        if !view.wrap || width(text) <= columns {
            rows.push((*tone, truncate(text, columns)));
            continue;
        }
        let mut row = String::new();
        for c in text.chars() {
            if width(&row) + width(c.encode_utf8(&mut [0; 4])) > columns {
                rows.push((*tone, std::mem::take(&mut row)));
            }
            row.push(c);
        }
        rows.push((*tone, row));
    }
    rows
}

/// The area of the full view on a screen of `columns` × `rows`, border included.
fn area(columns: u16, rows: u16) -> Rect {
    let screen = Rect::new(0, 0, columns, rows);
    let status = layout(screen).status;
    Rect { height: rows.saturating_sub(status.height), ..screen }
}

/// Rows of text a page of the full view shows on a screen `rows` high.
pub(crate) fn full_page(rows: u16) -> u16 {
    area(1, rows).height.saturating_sub(2)
}

/// The largest useful scroll of `view` on a `columns` × `rows` screen: the last row at the bottom. With
/// no screen known (`columns` 0), every line may come first.
pub(crate) fn full_last_scroll(view: &FullView, columns: u16, rows: u16) -> usize {
    if columns == 0 {
        return view.document.lines.len().saturating_sub(1);
    }
    let text_columns = usize::from(columns.saturating_sub(2));
    self::rows(view, text_columns).len().saturating_sub(usize::from(full_page(rows)))
}

/// Draws `view` over the panes.
pub(super) fn draw_full(frame: &mut Frame, view: &FullView, theme: &Theme) {
    let screen = frame.area();
    let area = area(screen.width, screen.height);
    let inner_columns = usize::from(area.width.saturating_sub(2));
    let visible = usize::from(area.height.saturating_sub(2));
    let rows = rows(view, inner_columns);
    let scroll = view.scroll.min(rows.len().saturating_sub(visible));
    let position = format!(" {}–{} of {} ", scroll + 1, (scroll + visible).min(rows.len()), rows.len());
    let block = Block::bordered()
        .border_type(BorderType::Thick)
        .border_style(theme.focused_border)
        .title(Line::styled(format!(" {} ", view.document.title), theme.title.patch(theme.focused_border)))
        .title_bottom(Line::styled(position, theme.dim).right_aligned())
        .style(theme.base);
    let lines: Vec<Line> = rows
        .into_iter()
        .skip(scroll)
        .take(visible)
        .map(|(tone, text)| Line::styled(text, style(tone, theme)))
        .collect();
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn style(tone: Tone, theme: &Theme) -> Style {
    match tone {
        Tone::Plain => Style::new(),
        Tone::Title => theme.title,
        Tone::Dim => theme.dim,
        Tone::Added => theme.new_coverage,
        Tone::Covered => theme.covered,
        Tone::Partial => theme.partial,
        Tone::Uncovered => theme.uncovered,
        Tone::Error => theme.error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::inspect::Document;
    use crate::tui::state::Mode;
    use crate::tui::view::fixtures::{app, dark, render, screen};

    fn view(wrap: bool, scroll: usize) -> FullView {
        let mut lines = vec![(Tone::Plain, format!("long {}", "x".repeat(100)))];
        lines.extend((1..=40).map(|i| (Tone::Plain, format!("line {i}"))));
        FullView { document: Document { title: "Suite · node-test to out".into(), lines }, scroll, wrap }
    }

    #[test]
    fn a_full_view_wraps_or_cuts_and_scrolls() {
        let mut app = app();
        app.mode = Mode::Full(view(true, 0));
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains(" Suite · node-test to out "), "{text}");
        assert!(text.contains("┃long xxxx"), "{text}");
        assert!(text.contains("┃xxxxxxxxxxxxxxxxxxxxxxx"), "wrapped onto a second row: {text}");
        assert!(text.contains(" 1–20 of 42 "), "{text}");
        assert!(!text.contains("Classes & methods") && !text.contains("list.size()"), "nothing shows through: {text}");
        app.mode = Mode::Full(view(false, 0));
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("xxx…┃"), "cut: {text}");
        assert!(text.contains(" 1–20 of 41 "), "{text}");
        let last = full_last_scroll(&view(false, 0), 80, 24);
        assert_eq!(last, 21);
        app.mode = Mode::Full(view(false, last));
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("┃line 40") && text.contains(" 22–41 of 41 "), "{text}");
    }
}
