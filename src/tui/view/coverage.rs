//! The coverage pane for the method under work: one cell per statement (■ covered, □ not), the statement
//! and branch counts with the coverage over time as a sparkline, its source with each line marked
//! covered, partial or uncovered, and the branches' outcomes in the rows the source leaves free (with
//! their condition where one line has several of the same outcome, as a compound condition does).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::columns::width;
use super::pane::{inner, pane_block};
use super::sparkline::sparkline;
use crate::tui::snapshot::{CoverageView, LineMark};
use crate::tui::state::{App, Pane};
use crate::tui::theme::Theme;

/// The statements covered (the helpers' included, named) and the branch outcomes taken.
fn counts<'a>(coverage: &CoverageView, theme: &Theme) -> Vec<Span<'a>> {
    let covered = coverage.cells.iter().filter(|c| **c).count();
    let mut count = vec![Span::styled(format!("{covered}/{} statements", coverage.cells.len()), theme.title)];
    if !coverage.helpers.is_empty() {
        count.push(Span::styled(format!(" (with {})", coverage.helpers.join(", ")), theme.dim));
    }
    if !coverage.branches.is_empty() {
        let taken = coverage.branches.iter().filter(|b| b.taken).count();
        count.push(Span::styled(format!(" · {taken}/{} branches", coverage.branches.len()), theme.dim));
    }
    count
}

/// Draws the coverage pane; the source scrolls by [`App::coverage_scroll`].
pub(super) fn draw_coverage(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let snapshot = &app.snapshot;
    let method = snapshot.current.and_then(|c| snapshot.methods.get(c));
    let block = pane_block(Pane::Coverage, app, theme, method.map(|m| format!("{}.{}", m.class, m.name)));
    let inner = inner(area);
    frame.render_widget(block, area);
    if method.is_none() {
        let text = Line::styled("no method under work: select one, press enter", theme.dim);
        frame.render_widget(Paragraph::new(text), inner);
        return;
    }
    let coverage = &snapshot.coverage;
    let columns = usize::from(inner.width.max(1));
    let height = usize::from(inner.height);
    let mut lines: Vec<Line> = Vec::new();
    // Cells wrap over at most a third of the pane, so source lines keep room; `…` says some were cut.
    let cell_rows = coverage.cells.len().div_ceil(columns).clamp(1, (height / 3).max(1));
    let shown_cells = coverage.cells.len().min(cell_rows * columns);
    let cut = shown_cells < coverage.cells.len();
    let cells = &coverage.cells[..shown_cells - usize::from(cut)];
    for chunk in cells.chunks(columns) {
        lines.push(Line::from(
            chunk
                .iter()
                .map(
                    |covered| {
                        if *covered { Span::styled("■", theme.covered) } else { Span::styled("□", theme.uncovered) }
                    },
                )
                .collect::<Vec<_>>(),
        ));
    }
    if cut && let Some(last) = lines.last_mut() {
        last.spans.push(Span::styled("…", theme.dim));
    }
    let mut count = counts(coverage, theme);
    if let Some(m) = method {
        let used: usize = count.iter().map(Span::width).sum();
        let spark = sparkline(&m.progress, m.executions, m.statements, columns.saturating_sub(used + 3).min(24));
        if !spark.is_empty() {
            count.push(Span::raw(" "));
            count.push(Span::styled(spark, theme.covered));
        }
    }
    lines.push(Line::from(count));
    let number_w = coverage.source.iter().map(|l| l.number.to_string().len()).max().unwrap_or(1);
    let room = height.saturating_sub(lines.len());
    let source: Vec<Line> = coverage
        .source
        .iter()
        .skip(app.coverage_scroll)
        .take(room)
        .map(|line| {
            let (mark, style) = match line.mark {
                LineMark::Plain => (" ", Style::new()),
                LineMark::Covered => ("✓", theme.covered),
                LineMark::Partial => ("~", theme.partial),
                LineMark::Uncovered => ("✗", theme.uncovered),
            };
            Line::from(vec![
                Span::styled(format!("{:>number_w$} ", line.number), theme.dim),
                Span::styled(mark, style),
                Span::raw(format!(" {}", line.text)),
            ])
        })
        .collect();
    let branch_rows = room - source.len();
    lines.extend(source);
    // Branches only use rows the source leaves free.
    let mut rest = coverage.branches.iter().peekable();
    for row in 0..branch_rows {
        if rest.peek().is_none() {
            break;
        }
        let mut spans = if row == 0 { vec![Span::styled("branches: ", theme.dim)] } else { Vec::new() };
        let mut used: usize = spans.iter().map(Span::width).sum();
        while let Some(branch) = rest.peek() {
            let (mark, style) = if branch.taken { ("✓", theme.covered) } else { ("✗", theme.uncovered) };
            let twin =
                coverage.branches.iter().filter(|b| b.line == branch.line && b.outcome == branch.outcome).count() > 1;
            let item = match twin {
                true => format!("line {} ({}) {} {mark}", branch.line, branch.condition, branch.outcome),
                false => format!("line {} {} {mark}", branch.line, branch.outcome),
            };
            let gap = if spans.len() > usize::from(row == 0) { 3 } else { 0 };
            if used + gap + width(&item) > columns && spans.len() > usize::from(row == 0) {
                break;
            }
            if gap > 0 {
                spans.push(Span::styled(" · ", theme.dim));
            }
            used += gap + width(&item);
            spans.push(Span::styled(item, style));
            rest.next();
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use crate::tui::view::fixtures::{app, dark, render, rows_of, screen};
    use crate::tui::view::layout;
    use crate::tui::view::pane::inner;

    #[test]
    fn coverage_cells_count_covered_and_uncovered() {
        for (columns, rows) in [(80, 24), (120, 40)] {
            let terminal = render(&app(), &dark(), columns, rows);
            let areas = layout(Rect::new(0, 0, columns, rows));
            let pane = rows_of(terminal.backend().buffer(), inner(areas.coverage));
            assert_eq!(pane[0].trim_end(), "■■□■□");
            assert_eq!(pane[1].trim_end(), "3/5 statements · 1/2 branches");
            let text = pane.join("\n");
            assert_eq!(text.matches('■').count(), 3);
            assert_eq!(text.matches('□').count(), 2);
            assert!(text.contains("11 ✓   if (!this.head) {"), "{text}");
            assert!(text.contains("12 ✗     this.head = node;"), "{text}");
            assert!(text.contains("13 ~   } else { this.tail.next = node;"), "{text}");
        }
    }

    #[test]
    fn the_count_names_the_private_helpers_whose_statements_it_includes() {
        let mut app = app();
        app.snapshot.coverage.helpers = vec!["_link".into(), "_grow".into()];
        let text = screen(&render(&app, &dark(), 120, 40));
        assert!(text.contains("3/5 statements (with _link, _grow)"), "{text}");
    }

    #[test]
    fn parts_of_a_compound_condition_are_told_apart_and_coverage_over_time_shows() {
        let mut app = app();
        let branch = |condition: &str, taken| crate::tui::snapshot::BranchRow {
            line: 13,
            outcome: "true".into(),
            condition: condition.into(),
            taken,
        };
        app.snapshot.coverage.branches = vec![branch("a > 0", true), branch("b", false)];
        app.snapshot.methods[0].executions = 40;
        app.snapshot.methods[0].progress = vec![(1, 1), (20, 3)];
        let text = screen(&render(&app, &dark(), 160, 40));
        assert!(text.contains("line 13 (a > 0) true ✓ · line 13 (b) true ✗"), "{text}");
        assert!(
            text.contains("3/5 statements · 2 branches taken") || text.contains("3/5 statements · 1/2 branches ▂▂▂▂"),
            "{text}"
        );
    }

    #[test]
    fn branches_show_only_when_they_fit() {
        let wide = render(&app(), &dark(), 120, 40);
        let pane = rows_of(wide.backend().buffer(), inner(layout(Rect::new(0, 0, 120, 40)).coverage));
        // 41 columns do not fit in 40: the second outcome goes on the next row.
        assert_eq!(pane[7].trim_end(), "branches: line 11 then ✓");
        assert_eq!(pane[8].trim_end(), "line 11 else ✗");
        let wider = render(&app(), &dark(), 160, 40);
        assert!(screen(&wider).contains("branches: line 11 then ✓ · line 11 else ✗"));
        let narrow = render(&app(), &dark(), 80, 24);
        assert!(!screen(&narrow).contains("branches:"));
    }

    #[test]
    fn coverage_scrolls() {
        let mut app = app();
        app.coverage_scroll = 2;
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).coverage));
        assert!(pane[2].starts_with("12 ✗"), "{pane:?}");
    }
}
