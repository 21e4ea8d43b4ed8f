//! The two status rows under the panes: the run's figures (running or paused, iteration, unexported tests,
//! speed, the current method's time and staleness, delay, seed), shortened or dropped from the end as the
//! screen narrows; then the last message and the key hints.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::columns::{truncate, width};
use crate::tui::state::App;
use crate::tui::theme::Theme;

/// The keys offered in the status line, most used first.
const HINTS: [&str; 8] = ["n step", "r run", "t settings", "a accept", "o override", "x export", "? help", "q quit"];

/// Draws the status line: figures on the first row, the last message and the key hints on the second.
pub(super) fn draw_status(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let snapshot = &app.snapshot;
    let settings = &snapshot.settings;
    let columns = usize::from(area.width);
    // Each figure in full and short; short forms only when the full ones would not all fit.
    let running = if snapshot.running { "▶ running" } else { "‖ paused" };
    let mut items = vec![
        (running.to_string(), running.to_string(), if snapshot.running { theme.under_test } else { theme.title }),
        (format!("iteration {}", snapshot.iteration), format!("it {}", snapshot.iteration), Style::new()),
    ];
    if snapshot.unexported > 0 {
        let text = format!("{} unexported", snapshot.unexported);
        items.push((text.clone(), text, theme.warning));
    }
    items.push((format!("{:.0} exec/s", snapshot.rate), format!("{:.0}/s", snapshot.rate), Style::new()));
    if let Some(method) = snapshot.current.and_then(|c| snapshot.methods.get(c)) {
        let time = format!("{}/{}", duration(method.elapsed), duration(settings.timeout));
        items.push((format!("time {time}"), time, Style::new()));
        let stale = format!("stale {}/{}", method.stale, settings.max_stale);
        items.push((stale.clone(), stale, Style::new()));
    }
    for text in [format!("delay {}", settings.delay), format!("seed {}", snapshot.seed)] {
        items.push((text.clone(), text, Style::new()));
    }
    let full: usize = items.iter().map(|(text, _, _)| width(text) + 3).sum();
    let short = full > columns + 3;
    let items =
        items.into_iter().map(|(long, brief, style)| Span::styled(if short { brief } else { long }, style)).collect();
    let figures = Line::from(fit_items(items, columns, theme.dim));
    let mut second = Vec::new();
    if let Some(message) = &app.message {
        let style = if message.error { theme.error } else { theme.title };
        let text = truncate(&message.text, columns);
        second.push(Span::styled(text, style));
        second.push(Span::raw("  "));
    }
    let used: usize = second.iter().map(Span::width).sum();
    let hints = HINTS.iter().map(|h| Span::styled(*h, theme.dim)).collect();
    second.extend(fit_items(hints, columns.saturating_sub(used), theme.dim));
    let lines = vec![figures, Line::from(second)];
    frame.render_widget(Paragraph::new(lines).style(theme.status), area);
}

/// As many of `items` as fit in `columns`, in order, joined by ` · `; stops at the first that does not fit
/// so that the order of importance holds.
fn fit_items(items: Vec<Span<'static>>, columns: usize, separator_style: Style) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut used = 0;
    for item in items {
        let gap = if out.is_empty() { 0 } else { 3 };
        if used + gap + item.width() > columns {
            break;
        }
        if gap > 0 {
            out.push(Span::styled(" · ", separator_style));
        }
        used += gap + item.width();
        out.push(item);
    }
    out
}

/// `12s`, `3.5s`, `2m05s`.
fn duration(d: std::time::Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 60.0 {
        format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
    } else if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{secs:.1}s")
    }
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use crate::tui::state::Message;
    use crate::tui::view::fixtures::{app, dark, render, rows_of};
    use crate::tui::view::layout;

    #[test]
    fn status_line_shows_figures_and_hints() {
        let terminal = render(&app(), &dark(), 120, 40);
        let status = rows_of(terminal.backend().buffer(), layout(Rect::new(0, 0, 120, 40)).status);
        assert_eq!(
            status[0].trim_end(),
            "▶ running · iteration 1234 · 2 unexported · 5400 exec/s · time 3.2s/10s · stale 12/200 · delay 20 · seed 42"
        );
        assert_eq!(
            status[1].trim_end(),
            "n step · r run · t settings · a accept · o override · x export · ? help · q quit"
        );
        let mut app = app();
        app.message = Some(Message { text: "cannot write tests/out".into(), error: true });
        let theme = dark();
        let terminal = render(&app, &theme, 80, 24);
        let buffer = terminal.backend().buffer();
        let status = rows_of(buffer, layout(buffer.area).status);
        assert!(status[1].starts_with("cannot write tests/out  n step · r run"), "{status:?}");
        assert_eq!(buffer[(0, 23)].style().fg, theme.error.fg);
        assert_eq!(status[0], "▶ running · it 1234 · 2 unexported · 5400/s · 3.2s/10s · stale 12/200 · delay 20");
    }
}
