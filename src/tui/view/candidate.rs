//! The candidate test pane: the code of the last candidate with the call under test marked `▸` and unknown
//! parameters `<?name>` highlighted, its outcome, and the warnings of the method and the session in the
//! rows the code leaves free.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::pane::{inner, pane_block};
use crate::tui::snapshot::CandidateOutcome;
use crate::tui::state::{App, Pane};
use crate::tui::theme::Theme;

/// Splits `text` into spans, with each `<?name>` in `unknown` style.
fn mark_unknowns(text: &str, style: Style, unknown: Style) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("<?") {
        let Some(length) = rest[start..].find('>') else { break };
        if start > 0 {
            spans.push(Span::styled(rest[..start].to_string(), style));
        }
        spans.push(Span::styled(rest[start..=start + length].to_string(), style.patch(unknown)));
        rest = &rest[start + length + 1..];
    }
    if !rest.is_empty() {
        spans.push(Span::styled(rest.to_string(), style));
    }
    spans
}

/// Draws the candidate pane: its code keeps its end (the call under test) when rows run short, and the
/// outcome always shows.
pub(super) fn draw_candidate(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let snapshot = &app.snapshot;
    let candidate = snapshot.candidate.as_ref();
    let method = candidate.and_then(|c| snapshot.methods.get(c.method));
    let block = pane_block(Pane::Candidate, app, theme, method.map(|m| format!("{}.{}", m.class, m.name)));
    let height = usize::from(inner(area).height);
    let warnings: Vec<&String> =
        method.map(|m| m.warnings.iter()).into_iter().flatten().chain(snapshot.warnings.iter()).collect();
    let Some(candidate) = candidate else {
        let mut lines = vec![Line::styled("no candidate yet: press n to step", theme.dim)];
        lines.extend(warnings.iter().map(|w| Line::styled(format!("⚠ {w}"), theme.warning)));
        frame.render_widget(Paragraph::new(lines).block(block), area);
        return;
    };
    // The outcome always shows; warnings take what the code leaves; the code keeps its end, where the
    // method under test is called.
    let code_rows_wanted = candidate.lines.len();
    let warning_rows = warnings.len().min(height.saturating_sub(1 + code_rows_wanted));
    let code_rows = height.saturating_sub(1 + warning_rows);
    let mut lines = Vec::new();
    let skipped = if code_rows_wanted > code_rows { code_rows_wanted - code_rows + 1 } else { 0 };
    if skipped > 0 && code_rows > 0 {
        lines.push(Line::styled(format!("⋮ {skipped} lines above"), theme.dim));
    }
    for line in candidate.lines.iter().skip(skipped) {
        let (prefix, style) = if line.under_test { ("▸ ", theme.under_test) } else { ("  ", Style::new()) };
        let mut spans = vec![Span::styled(prefix, style)];
        spans.extend(mark_unknowns(&line.text, style, theme.unknown));
        lines.push(Line::from(spans));
    }
    lines.truncate(code_rows);
    let (text, style) = match &candidate.outcome {
        CandidateOutcome::NewCoverage(n) => {
            (format!("✓ new coverage: {n} statement{}", if *n == 1 { "" } else { "s" }), theme.new_coverage)
        }
        CandidateOutcome::NoNewCoverage => ("· no new coverage".to_string(), theme.no_new_coverage),
        CandidateOutcome::Failed(message) => {
            (format!("✗ threw: {}", message.lines().next().unwrap_or_default()), theme.threw)
        }
        CandidateOutcome::Invalid => ("? invalid: unknown parameters left".to_string(), theme.invalid),
    };
    lines.push(Line::styled(text, style));
    lines.extend(warnings.iter().take(warning_rows).map(|w| Line::styled(format!("⚠ {w}"), theme.warning)));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use crate::tui::snapshot::{CandidateLine, CandidateOutcome};
    use crate::tui::view::fixtures::{app, dark, render, rows_of, screen};
    use crate::tui::view::layout;
    use crate::tui::view::pane::inner;

    #[test]
    fn candidate_marks_unknowns_and_the_call_under_test() {
        let theme = dark();
        let terminal = render(&app(), &theme, 80, 24);
        let buffer = terminal.backend().buffer();
        let area = inner(layout(buffer.area).candidate);
        let pane = rows_of(buffer, area);
        assert_eq!(pane[0].trim_end(), "  const list = new LinkedList(3);");
        assert_eq!(pane[2].trim_end(), "▸ list.add(<?node>);");
        assert_eq!(pane[3].trim_end(), "? invalid: unknown parameters left");
        let start = area.x + 11;
        assert_eq!(buffer[(start, area.y + 2)].symbol(), "<");
        assert_eq!(buffer[(start, area.y + 2)].style().fg, theme.unknown.fg);
        assert_eq!(buffer[(start - 1, area.y + 2)].style().fg, theme.under_test.fg);
    }

    #[test]
    fn outcomes_read_as_words() {
        let cases = [
            (CandidateOutcome::NewCoverage(2), "✓ new coverage: 2 statements"),
            (CandidateOutcome::NewCoverage(1), "✓ new coverage: 1 statement"),
            (CandidateOutcome::NoNewCoverage, "· no new coverage"),
            (CandidateOutcome::Failed("TypeError: x is null\n  at add".into()), "✗ threw: TypeError: x is null"),
        ];
        for (outcome, expected) in cases {
            let mut app = app();
            app.snapshot.candidate.as_mut().unwrap().outcome = outcome;
            let terminal = render(&app, &dark(), 80, 24);
            let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).candidate));
            assert_eq!(pane[3].trim_end(), expected);
        }
    }

    #[test]
    fn long_candidates_keep_their_end_and_warnings_fill_spare_rows() {
        let mut app = app();
        let candidate = app.snapshot.candidate.as_mut().unwrap();
        candidate.lines =
            (1..=10).map(|i| CandidateLine { text: format!("list.size{i}();"), under_test: i == 10 }).collect();
        app.snapshot.warnings = vec!["leap of faith: remove(index) is a number".into()];
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).candidate));
        let pane: Vec<&str> = pane.iter().map(|r| r.trim_end()).collect();
        assert_eq!(
            pane,
            [
                "⋮ 6 lines above",
                "  list.size7();",
                "  list.size8();",
                "  list.size9();",
                "▸ list.size10();",
                "? invalid: unknown parameters left"
            ]
        );
        app.snapshot.candidate.as_mut().unwrap().lines.truncate(2);
        let terminal = render(&app, &dark(), 80, 24);
        let text = screen(&terminal);
        assert!(text.contains("│⚠ leap of faith: remove(index) is a number"), "{text}");
    }
}
