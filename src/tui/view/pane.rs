//! The frame every pane is drawn in: a border with the pane's title and an optional detail, thick and
//! marked `▶` when the pane has focus, and the area inside that border where the pane's content goes.

use ratatui::layout::{Margin, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType};

use crate::tui::state::{App, Pane};
use crate::tui::theme::Theme;

/// The area inside a pane's border.
pub(super) fn inner(area: Rect) -> Rect {
    area.inner(Margin::new(1, 1))
}

/// A pane's frame. The focused one gets a thick border and a `▶` in its title, so focus shows without
/// colour too.
pub(super) fn pane_block<'a>(pane: Pane, app: &App, theme: &Theme, detail: Option<String>) -> Block<'a> {
    let focused = app.focus == pane;
    let (marker, border_type, border, title) = if focused {
        ("▶ ", BorderType::Thick, theme.focused_border, theme.title.patch(theme.focused_border))
    } else {
        ("", BorderType::Plain, theme.border, theme.title)
    };
    let mut spans = vec![Span::styled(format!(" {marker}{} ", pane.title()), title)];
    if let Some(detail) = detail {
        spans.push(Span::styled(format!("· {detail} "), theme.dim));
    }
    Block::bordered().border_type(border_type).border_style(border).title(Line::from(spans))
}

/// How a pane draws its selected row: the strong highlight in the focused pane only (one cursor: what
/// `enter` acts on), underlined elsewhere so the selection is still found.
pub(super) fn selection_style(pane: Pane, app: &App, theme: &Theme) -> Style {
    if app.focus == pane { theme.selection } else { Style::new().add_modifier(Modifier::UNDERLINED) }
}

/// The first item a list of `visible` rows shows when item `selected` is selected.
pub(crate) fn scroll_offset(selected: usize, visible: usize) -> usize {
    (selected + 1).saturating_sub(visible.max(1))
}

#[cfg(test)]
mod tests {
    use crate::tui::state::Pane;
    use crate::tui::view::fixtures::{app, dark, render, screen};

    #[test]
    fn focus_marker_follows_focus() {
        for focus in Pane::ALL {
            let mut app = app();
            app.focus = focus;
            let text = screen(&render(&app, &dark(), 80, 24));
            for pane in Pane::ALL {
                let marked = text.contains(&format!("▶ {}", pane.title()));
                assert_eq!(marked, pane == focus, "{pane:?} with focus on {focus:?}");
            }
        }
    }
}
