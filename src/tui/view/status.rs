//! The two status rows under the panes: the run's figures (running, paused or done, iteration, unexported
//! tests, speed while running, the current method's time and staleness, delay, seed), shortened or
//! dropped from the end as the screen narrows; then the last note (until it ages out) and the keys of
//! where the person is: the focused pane's first, or the full view's, or the filter being typed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::columns::{truncate, width};
use crate::tui::keys;
use crate::tui::snapshot::MethodStatus;
use crate::tui::state::{App, Mode};
use crate::tui::theme::Theme;

/// Draws the status line: figures on the first row, the last message and the key hints on the second.
pub(super) fn draw_status(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let snapshot = &app.snapshot;
    let settings = &snapshot.settings;
    let columns = usize::from(area.width);
    // Each figure in full and short; short forms only when the full ones would not all fit.
    let done =
        !snapshot.methods.is_empty() && snapshot.methods.iter().all(|m| matches!(m.status, MethodStatus::Stopped(_)));
    let (state, style) = match (snapshot.running, done) {
        (true, _) => ("▶ running", theme.under_test),
        (false, true) => ("■ done", theme.title),
        (false, false) => ("‖ paused", theme.title),
    };
    let mut items = vec![
        (state.to_string(), state.to_string(), style),
        (format!("iteration {}", snapshot.iteration), format!("it {}", snapshot.iteration), Style::new()),
    ];
    if snapshot.unexported > 0 {
        let text = format!("{} unexported", snapshot.unexported);
        items.push((text.clone(), text, theme.warning));
    }
    // A rate only means something while running: steps taken one by one are not a speed.
    if snapshot.running {
        items.push((format!("{:.0} exec/s", snapshot.rate), format!("{:.0}/s", snapshot.rate), Style::new()));
    }
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
    let hints: Vec<Span> = match &app.mode {
        Mode::Filter => vec![
            Span::styled(format!("/{}▏", app.filter), theme.title),
            Span::styled("enter keep · esc clear", theme.dim),
        ],
        Mode::Full(_) => keys::FULL_VIEW.iter().map(|b| Span::styled(b.short, theme.dim)).collect(),
        _ => keys::footer(app.focus).into_iter().map(|h| Span::styled(h, theme.dim)).collect(),
    };
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
            "enter work on · / filter · n step · r run · ? help · q quit · x export · t settings"
        );
        // The footer follows the focus: the Parameters pane's keys come first there.
        let mut focused = app();
        focused.focus = crate::tui::state::Pane::Params;
        let terminal = render(&focused, &dark(), 120, 40);
        let status = rows_of(terminal.backend().buffer(), layout(Rect::new(0, 0, 120, 40)).status);
        assert!(status[1].starts_with("a accept · o override · i infer · n step"), "{status:?}");
        focused.snapshot.running = false;
        let terminal = render(&focused, &dark(), 120, 40);
        let status = rows_of(terminal.backend().buffer(), layout(Rect::new(0, 0, 120, 40)).status);
        assert!(
            status[0].starts_with("‖ paused · iteration 1234 · 2 unexported · time 3.2s/10s"),
            "no rate paused: {status:?}"
        );
        let mut app = app();
        app.message = Some(Message { text: "cannot write tests/out".into(), error: true, ticks: 1 });
        let theme = dark();
        let terminal = render(&app, &theme, 80, 24);
        let buffer = terminal.backend().buffer();
        let status = rows_of(buffer, layout(buffer.area).status);
        assert!(status[1].starts_with("cannot write tests/out  enter work on"), "{status:?}");
        assert_eq!(buffer[(0, 23)].style().fg, theme.error.fg);
        assert_eq!(status[0], "▶ running · it 1234 · 2 unexported · 5400/s · 3.2s/10s · stale 12/200 · delay 20");
    }
}
