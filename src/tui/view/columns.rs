//! Text measured and fitted in terminal columns, as every pane lays out its rows: display width, truncation
//! with `…`, fixed-width cells, and the selection highlight that fills a row to the pane's width.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Display width of `text` in terminal columns.
pub(super) fn width(text: &str) -> usize {
    Span::raw(text).width()
}

/// `text` cut to `max` columns, with `…` where it was cut.
pub(super) fn truncate(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = width(c.encode_utf8(&mut [0; 4]));
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    if max > 0 {
        out.push('…');
    }
    out
}

/// `text` truncated and padded with spaces to exactly `columns` columns.
pub(super) fn cell(text: &str, columns: usize) -> String {
    let text = truncate(text, columns);
    let pad = columns.saturating_sub(width(&text));
    format!("{text}{}", " ".repeat(pad))
}

/// A line drawn as selected: the selection style wins over the spans' own, and the row is filled to
/// `columns` so the highlight spans the pane.
pub(super) fn highlight(mut line: Line<'static>, style: Style, columns: usize) -> Line<'static> {
    let pad = columns.saturating_sub(line.width());
    line.spans.push(Span::raw(" ".repeat(pad)));
    for span in &mut line.spans {
        span.style = span.style.patch(style);
    }
    line
}
