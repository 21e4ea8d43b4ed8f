//! The suite pane: tabs for the elected and the failing tests, the list of the tab shown (method and title,
//! or method and error), and the selected test's code (after its error, for a failing one).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::columns::highlight;
use super::pane::scroll_offset;
use super::pane::{inner, pane_block};
use crate::tui::state::{App, Pane, SuiteTab};
use crate::tui::theme::Theme;

/// The suite pane's tabs, list and selected test.
pub(super) fn suite_split(inner: Rect, rows: usize) -> [Rect; 3] {
    let half = (inner.height.saturating_sub(1) / 2).max(1);
    let list = u16::try_from(rows).unwrap_or(u16::MAX).clamp(1, half);
    Layout::vertical([Constraint::Length(1), Constraint::Length(list), Constraint::Fill(1)]).areas(inner)
}

/// Draws the suite pane: the list takes at most half the rows, the selected test's code the rest.
pub(super) fn draw_suite(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let suite = &app.snapshot.suite;
    frame.render_widget(pane_block(Pane::Suite, app, theme, None), area);
    let [tabs, list, detail] = suite_split(inner(area), app.suite_len());
    let tab = |name: &str, count: usize, active: bool| {
        if active {
            Span::styled(format!("[{name} ({count})]"), theme.selection)
        } else {
            Span::styled(format!(" {name} ({count}) "), theme.dim)
        }
    };
    let elected = app.suite_tab == SuiteTab::Elected;
    let line = Line::from(vec![
        tab("Elected", suite.elected.len(), elected),
        Span::raw(" "),
        tab("Failing", suite.failing.len(), !elected),
    ]);
    frame.render_widget(Paragraph::new(line), tabs);
    // (method, what, its style, code) per test of the tab shown.
    let rows: Vec<(&str, &str, Style, &str)> = if elected {
        suite.elected.iter().map(|t| (t.method.as_str(), t.title.as_str(), Style::new(), t.code.as_str())).collect()
    } else {
        suite.failing.iter().map(|t| (t.method.as_str(), t.message.as_str(), theme.error, t.code.as_str())).collect()
    };
    if rows.is_empty() {
        let empty = if elected { "no elected tests yet" } else { "no failing tests" };
        frame.render_widget(Paragraph::new(Line::styled(empty, theme.dim)), list);
        return;
    }
    let columns = usize::from(list.width);
    let offset = scroll_offset(app.suite_cursor, usize::from(list.height));
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(list.height))
        .map(|(index, (method, what, style, _))| {
            let what = what.lines().next().unwrap_or_default().to_string();
            let line = Line::from(vec![Span::styled(format!("{method} "), theme.dim), Span::styled(what, *style)]);
            if index == app.suite_cursor { highlight(line, theme.selection, columns) } else { line }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    if let Some((_, what, style, code)) = rows.get(app.suite_cursor) {
        let mut lines = Vec::new();
        if !elected {
            lines.extend(what.lines().map(|l| Line::styled(format!("│ {l}"), *style)));
        }
        lines.extend(code.lines().map(|l| Line::from(vec![Span::styled("│ ", theme.dim), Span::raw(l.to_string())])));
        frame.render_widget(Paragraph::new(lines), detail);
    }
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use crate::tui::state::SuiteTab;
    use crate::tui::view::fixtures::{app, dark, render, rows_of};
    use crate::tui::view::layout;
    use crate::tui::view::pane::inner;

    #[test]
    fn suite_tabs_list_and_code() {
        let mut app = app();
        app.suite_cursor = 1;
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).suite));
        assert_eq!(pane[0].trim_end(), "[Elected (2)]  Failing (1)");
        assert!(pane[2].starts_with("LinkedList.add covers 3 statements"), "{pane:?}");
        assert_eq!(pane[3].trim_end(), "│ const list = new LinkedList(2);");
        app.suite_tab = SuiteTab::Failing;
        app.suite_cursor = 0;
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).suite));
        assert_eq!(pane[0].trim_end(), " Elected (2)  [Failing (1)]");
        assert_eq!(pane[2].trim_end(), "│ TypeError: cannot read next");
        assert_eq!(pane[3].trim_end(), "│ list.add(null);");
    }
}
