//! The classes & methods pane: a tree of each class and its methods (those passing the filter), each
//! method with a symbol for where it stands (pending, running, or why it stopped), its coverage gauge
//! and percentage. One cursor: the selected row is the only highlight, the one `enter` acts on; the
//! method under work is told by its `▶` alone. The tree's rows are also what clicks on the pane are
//! resolved against.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::columns::{cell, highlight, truncate};
use super::pane::scroll_offset;
use super::pane::{inner, pane_block, selection_style};
use crate::session::StopReason;
use crate::tui::snapshot::{MethodRow, MethodStatus};
use crate::tui::state::{App, Pane};
use crate::tui::theme::Theme;

/// A row of the methods tree.
pub(super) enum TreeRow<'a> {
    /// A class name.
    Class(&'a str),
    /// A method: its position in [`App::method_order`] and its index in the snapshot's methods.
    Method { order: usize, method: usize },
}

/// The methods tree: each class with a method passing the filter, then those methods.
pub(super) fn tree(app: &App) -> Vec<TreeRow<'_>> {
    let mut rows = Vec::new();
    let mut order = 0;
    for class in &app.snapshot.classes {
        let shown: Vec<usize> = class.methods.iter().copied().filter(|m| app.shows_method(*m)).collect();
        if shown.is_empty() {
            continue;
        }
        rows.push(TreeRow::Class(&class.name));
        for method in shown {
            rows.push(TreeRow::Method { order, method });
            order += 1;
        }
    }
    rows
}

/// The tree row of the selected method.
pub(super) fn selected_tree_row(rows: &[TreeRow], cursor: usize) -> usize {
    rows.iter().position(|r| matches!(r, TreeRow::Method { order, .. } if *order == cursor)).unwrap_or(0)
}

/// The symbol and word for where a method stands, and its style.
fn status_mark(status: MethodStatus, theme: &Theme) -> (&'static str, &'static str, Style) {
    match status {
        MethodStatus::Pending => ("·", "pending", theme.dim),
        MethodStatus::Running => ("▶", "running", theme.current),
        MethodStatus::Stopped(reason) => match reason {
            StopReason::Covered | StopReason::Kept => ("✓", reason.name(), theme.covered),
            StopReason::Target => ("◎", reason.name(), theme.covered),
            StopReason::Timeout | StopReason::TimeCap => ("⏱", reason.name(), theme.warning),
            StopReason::Stale => ("≈", reason.name(), theme.warning),
            StopReason::Aborted => ("✗", reason.name(), theme.error),
        },
    }
}

/// `[■■■□□]` for `covered` of `total`, rounding down so a bar is only full when everything is covered.
fn gauge(covered: usize, total: usize, cells: usize, theme: &Theme) -> Vec<Span<'static>> {
    let filled = (covered.min(total) * cells).checked_div(total).unwrap_or(cells);
    vec![
        Span::raw("["),
        Span::styled("■".repeat(filled), theme.covered),
        Span::styled("□".repeat(cells - filled), theme.uncovered),
        Span::raw("]"),
    ]
}

/// Draws the methods pane: the tree, scrolled to keep the selected method in view.
pub(super) fn draw_methods(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let done = app.snapshot.methods.iter().filter(|m| matches!(m.status, MethodStatus::Stopped(_))).count();
    let mut detail = format!("{done}/{}", app.snapshot.methods.len());
    if !app.filter.is_empty() {
        detail.push_str(&format!(" · /{}", app.filter));
    }
    let block = pane_block(Pane::Methods, app, theme, Some(detail));
    let inner = inner(area);
    let columns = usize::from(inner.width);
    let rows = tree(app);
    let selected = selected_tree_row(&rows, app.method_cursor);
    let offset = scroll_offset(selected, usize::from(inner.height));
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(inner.height))
        .map(|(index, row)| {
            let line = match row {
                TreeRow::Class(name) => Line::from(Span::styled(truncate(name, columns), theme.title)),
                TreeRow::Method { method, .. } => match app.snapshot.methods.get(*method) {
                    Some(m) => method_line(m, columns, theme),
                    None => Line::default(),
                },
            };
            if index == selected { highlight(line, selection_style(Pane::Methods, app, theme), columns) } else { line }
        })
        .collect();
    let lines = match (rows.is_empty(), app.filter.is_empty()) {
        (true, true) => vec![Line::styled("no classes", theme.dim)],
        (true, false) => vec![Line::styled(format!("no method matches /{} (esc clears)", app.filter), theme.dim)],
        (false, _) => lines,
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// `  ▶ add      [■■■□□]  60% running`: the word only when the name keeps room.
fn method_line(m: &MethodRow, columns: usize, theme: &Theme) -> Line<'static> {
    let (symbol, word, symbol_style) = status_mark(m.status, theme);
    let cells = if columns >= 48 { 10 } else { 5 };
    // "  ▶ " + name + " " + gauge + " " + "100%"
    let fixed = 4 + 1 + cells + 2 + 1 + 4;
    let with_word = columns >= fixed + 12 + 1 + word.len();
    let name_columns = columns.saturating_sub(fixed + if with_word { 1 + word.len() } else { 0 });
    let percent = Span::raw(format!(" {:>3.0}%", (m.ratio() * 100.0).floor()));
    let mut spans = vec![Span::raw("  "), Span::styled(symbol, symbol_style), Span::raw(" ")];
    if name_columns < 4 {
        // Too narrow for a bar: the percentage alone still says how far it got.
        spans.push(Span::raw(m.name.clone()));
        spans.push(percent);
        return Line::from(spans);
    }
    spans.push(Span::raw(cell(&m.name, name_columns)));
    spans.push(Span::raw(" "));
    spans.extend(gauge(m.covered, m.statements, cells, theme));
    spans.push(percent);
    if with_word {
        spans.push(Span::styled(format!(" {word}"), symbol_style));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use crate::tui::view::fixtures::{app, dark, render, rows_of};
    use crate::tui::view::layout;
    use crate::tui::view::pane::inner;

    #[test]
    fn methods_tree_shows_gauges_states_and_current() {
        let terminal = render(&app(), &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).methods));
        assert_eq!(pane[0].trim_end(), "LinkedList");
        assert_eq!(pane[1].trim_end(), "  ▶ add           [■■■□□]  60%");
        assert_eq!(pane[2].trim_end(), "  ✓ remove        [■■■■■] 100%");
        assert_eq!(pane[3].trim_end(), "  · size          [□□□□□]   0%");
        let wide = render(&app(), &dark(), 160, 40);
        let pane = rows_of(wide.backend().buffer(), inner(layout(Rect::new(0, 0, 160, 40)).methods));
        assert_eq!(pane[2].trim_end(), "  ✓ remove        [■■■■■] 100% covered");
        let wider = render(&app(), &dark(), 200, 40);
        let pane = rows_of(wider.backend().buffer(), inner(layout(Rect::new(0, 0, 200, 40)).methods));
        assert_eq!(pane[1].trim_end(), "  ▶ add                [■■■■■■□□□□]  60% running");
    }
}
