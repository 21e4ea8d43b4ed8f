//! The suite pane: tabs for the elected and the failing tests, the list of the tab shown (those passing
//! the filter: method and title, or the call that failed, its error and the method under test), and the
//! selected test's code (after its error, for a failing one).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::columns::highlight;
use super::pane::scroll_offset;
use super::pane::{inner, pane_block, selection_style};
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
    // (who, what, its style, code) per test of the tab shown that passes the filter.
    let rows: Vec<(String, String, Style, &str)> = app
        .suite_rows()
        .into_iter()
        .map(|i| match elected {
            true => {
                let t = &suite.elected[i];
                (t.method.clone(), t.title.clone(), Style::new(), t.code.as_str())
            }
            false => {
                // The call that failed first: it is not always the method under test.
                let t = &suite.failing[i];
                let what = match &t.culprit {
                    Some(culprit) => format!("{culprit} {} · testing {}", t.message, t.method),
                    None => format!("{} {}", t.method, t.message),
                };
                (String::new(), what, theme.error, t.code.as_str())
            }
        })
        .collect();
    if rows.is_empty() {
        let empty = match (app.filter.is_empty(), elected) {
            (false, _) => format!("nothing matches /{} (esc clears)", app.filter),
            (true, true) => "no elected tests yet".to_string(),
            (true, false) => "no failing tests".to_string(),
        };
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
        .map(|(index, (who, what, style, _))| {
            let what = what.lines().next().unwrap_or_default().to_string();
            let who = if who.is_empty() { String::new() } else { format!("{who} ") };
            let line = Line::from(vec![Span::styled(who, theme.dim), Span::styled(what, *style)]);
            if index == app.suite_cursor {
                highlight(line, selection_style(Pane::Suite, app, theme), columns)
            } else {
                line
            }
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
        assert!(pane[1].starts_with("LinkedList.add TypeError: cannot read"), "{pane:?}");
        assert!(pane[2].starts_with("│ LinkedList.add TypeError: cannot rea"), "{pane:?}");
        assert_eq!(pane[3].trim_end(), "│ list.add(null);");
    }
}
