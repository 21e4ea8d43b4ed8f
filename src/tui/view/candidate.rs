//! The candidate test pane: the code of the candidate viewed (the latest, or one of the history stepped
//! back to with `k`) with the call under test marked `▸`, the statement that failed `✗`, and unknown
//! parameters `<?name>` highlighted; its outcome, naming the call that failed; and the warnings of the
//! method and the session in the rows the code leaves free.

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
    let candidate = app.viewed_candidate();
    let method = candidate.and_then(|c| snapshot.methods.get(c.method));
    let detail = candidate.zip(method).map(|(c, m)| {
        // How far back comes first: a narrow title keeps it.
        let back = match app.candidates_back() {
            0 => String::new(),
            back => format!("{back} back · "),
        };
        format!("{back}{}.{} #{}", m.class, m.name, c.step)
    });
    let block = pane_block(Pane::Candidate, app, theme, detail);
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
    for (index, line) in candidate.lines.iter().enumerate().skip(skipped) {
        let (prefix, style) = match (candidate.failed_at == Some(index), line.under_test) {
            (true, _) => ("✗ ", theme.threw),
            (false, true) => ("▸ ", theme.under_test),
            (false, false) => ("  ", Style::new()),
        };
        let mut spans = vec![Span::styled(prefix, style)];
        spans.extend(mark_unknowns(&line.text, style, theme.unknown));
        lines.push(Line::from(spans));
    }
    lines.truncate(code_rows);
    let style = match &candidate.outcome {
        CandidateOutcome::NewCoverage(_) => theme.new_coverage,
        CandidateOutcome::NoNewCoverage => theme.no_new_coverage,
        CandidateOutcome::Failed { .. } => theme.threw,
        CandidateOutcome::Invalid => theme.invalid,
    };
    lines.push(Line::styled(candidate.outcome.describe(), style));
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
            (
                CandidateOutcome::Failed { message: "threw TypeError: x is null\n  at add".into(), culprit: None },
                "✗ threw TypeError: x is null",
            ),
            (
                CandidateOutcome::Failed {
                    message: "threw RangeError: out of bounds".into(),
                    culprit: Some("get".into()),
                },
                "✗ get threw RangeError: out of bounds",
            ),
        ];
        for (outcome, expected) in cases {
            let mut app = app();
            app.snapshot.history.last_mut().unwrap().outcome = outcome;
            let terminal = render(&app, &dark(), 80, 24);
            let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).candidate));
            assert_eq!(pane[3].trim_end(), expected);
        }
    }

    #[test]
    fn the_call_that_failed_is_marked_and_named() {
        let mut app = app();
        let candidate = app.snapshot.history.last_mut().unwrap();
        candidate.failed_at = Some(1);
        candidate.outcome = CandidateOutcome::Failed {
            message: "threw RangeError: out of bounds".into(),
            culprit: Some("size".into()),
        };
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).candidate));
        assert_eq!(pane[1].trim_end(), "✗ list.size();");
        assert_eq!(pane[2].trim_end(), "▸ list.add(<?node>);");
        assert_eq!(pane[3].trim_end(), "✗ size threw RangeError: out of bounds");
    }

    #[test]
    fn a_candidate_stepped_back_to_says_how_far_back() {
        let mut app = app();
        let older = crate::tui::snapshot::CandidateView { step: 1200, ..app.snapshot.history[0].clone() };
        app.snapshot.history.insert(0, older);
        app.history_step = Some(1200);
        let text = screen(&render(&app, &dark(), 160, 40));
        assert!(text.contains("Candidate test · 1 back · LinkedList.add #1200"), "{text}");
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("Candidate test · 1 back ·"), "a narrow title keeps how far back: {text}");
    }

    #[test]
    fn long_candidates_keep_their_end_and_warnings_fill_spare_rows() {
        let mut app = app();
        let candidate = app.snapshot.history.last_mut().unwrap();
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
        app.snapshot.history.last_mut().unwrap().lines.truncate(2);
        let terminal = render(&app, &dark(), 80, 24);
        let text = screen(&terminal);
        assert!(text.contains("│⚠ leap of faith: remove(index) is a number"), "{text}");
    }
}
