//! Where each pane goes on the screen, and the inverse: which pane, list row and item a screen position
//! falls on, so that clicks select what the person sees under the mouse.
//!
//! Hit-testing reuses the panes' own splits ([`tree`] for the methods, [`params_split`], [`suite_split`])
//! and `scroll_offset`, so it cannot drift from what the panes draw.

use ratatui::layout::{Constraint, Layout, Position, Rect};

use super::methods::{TreeRow, selected_tree_row, tree};
use super::pane::{inner, scroll_offset};
use super::params::params_split;
use super::suite::suite_split;
use crate::tui::state::{App, Pane};

/// Screens at least this wide put three panes side by side.
const WIDE: u16 = 120;

/// Rows of the status line: figures, then the last message and the key hints.
const STATUS_ROWS: u16 = 2;

/// Where each pane and the status line go on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    /// Classes & methods.
    pub(crate) methods: Rect,
    /// Candidate test.
    pub(crate) candidate: Rect,
    /// Parameters.
    pub(crate) params: Rect,
    /// Coverage.
    pub(crate) coverage: Rect,
    /// Suite.
    pub(crate) suite: Rect,
    /// Status line (two rows).
    pub(crate) status: Rect,
}

impl Areas {
    /// The area of `pane`, border included.
    pub(crate) fn pane(&self, pane: Pane) -> Rect {
        match pane {
            Pane::Methods => self.methods,
            Pane::Candidate => self.candidate,
            Pane::Params => self.params,
            Pane::Coverage => self.coverage,
            Pane::Suite => self.suite,
        }
    }
}

/// Splits the screen into panes.
///
/// Below 120 columns: methods beside the candidate on top, parameters across the middle (their rows are
/// wide), coverage beside the suite at the bottom. From 120 columns: methods, candidate and coverage on
/// top, parameters beside the suite below, so source lines and candidate lines get more room.
pub fn layout(area: Rect) -> Areas {
    let [main, status] = Layout::vertical([Constraint::Fill(1), Constraint::Length(STATUS_ROWS)]).areas(area);
    if main.width >= WIDE {
        let [top, bottom] = Layout::vertical([Constraint::Percentage(55), Constraint::Fill(1)]).areas(main);
        let [methods, candidate, coverage] =
            Layout::horizontal([Constraint::Percentage(25), Constraint::Percentage(40), Constraint::Fill(1)])
                .areas(top);
        let [params, suite] = Layout::horizontal([Constraint::Percentage(60), Constraint::Fill(1)]).areas(bottom);
        Areas { methods, candidate, params, coverage, suite, status }
    } else {
        let [top, middle, bottom] =
            Layout::vertical([Constraint::Fill(4), Constraint::Fill(3), Constraint::Fill(4)]).areas(main);
        let [methods, candidate] = Layout::horizontal([Constraint::Percentage(40), Constraint::Fill(1)]).areas(top);
        let [coverage, suite] = Layout::horizontal([Constraint::Percentage(50), Constraint::Fill(1)]).areas(bottom);
        Areas { methods, candidate, params: middle, coverage, suite, status }
    }
}

/// The pane under a mouse position, if any.
pub fn pane_at(areas: &Areas, column: u16, row: u16) -> Option<Pane> {
    Pane::ALL.into_iter().find(|pane| areas.pane(*pane).contains(Position::new(column, row)))
}

/// Which visible row of a bordered pane's list screen row `row` is: 0 for the first row inside the border.
///
/// This assumes a list of one-line items starting right under the top border; add the list's
/// [`scroll_offset`] to get an item index. The methods tree (class rows between methods) and the suite
/// (tabs above the list) do not start that way: [`item_at`] accounts for them.
pub fn list_row_at(area: Rect, row: u16) -> Option<usize> {
    let inner = inner(area);
    (inner.y..inner.bottom()).contains(&row).then(|| usize::from(row - inner.y))
}

/// The item of `pane`'s list drawn on screen row `row`: the value its cursor takes when that row is
/// clicked ([`App::method_cursor`], [`App::param_cursor`] or [`App::suite_cursor`]). `None` for rows that
/// show no item (class names, tabs, details, borders) and for panes without a list.
pub fn item_at(app: &App, areas: &Areas, pane: Pane, row: u16) -> Option<usize> {
    let area = inner(areas.pane(pane));
    match pane {
        Pane::Methods => {
            let rows = tree(app);
            let offset = scroll_offset(selected_tree_row(&rows, app.method_cursor), usize::from(area.height));
            match rows.get(offset + list_row_at(areas.methods, row)?)? {
                TreeRow::Method { order, .. } => Some(*order),
                TreeRow::Class(_) => None,
            }
        }
        Pane::Params => {
            let [list, _] = params_split(area, app.snapshot.params.len());
            list_item(list, row, app.param_cursor, app.snapshot.params.len())
        }
        Pane::Suite => {
            let [_, list, _] = suite_split(area, app.suite_len());
            list_item(list, row, app.suite_cursor, app.suite_len())
        }
        Pane::Candidate | Pane::Coverage => None,
    }
}

/// The item of a plain list in `list` drawn on `row`.
fn list_item(list: Rect, row: u16, selected: usize, len: usize) -> Option<usize> {
    if !(list.y..list.bottom()).contains(&row) {
        return None;
    }
    let index = scroll_offset(selected, usize::from(list.height)) + usize::from(row - list.y);
    (index < len).then_some(index)
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use super::*;
    use crate::session::StopReason;
    use crate::tui::snapshot::{ClassRow, MethodStatus};
    use crate::tui::view::fixtures::{app, dark, method, render, rows_of};

    #[test]
    fn clicks_map_to_panes_and_items() {
        let app = app();
        let areas = layout(Rect::new(0, 0, 80, 24));
        assert_eq!(pane_at(&areas, areas.params.x + 3, areas.params.y + 1), Some(Pane::Params));
        assert_eq!(pane_at(&areas, 0, 23), None);
        assert_eq!(list_row_at(areas.params, areas.params.y), None);
        assert_eq!(list_row_at(areas.params, areas.params.y + 2), Some(1));
        let methods = areas.methods.y + 1;
        assert_eq!(item_at(&app, &areas, Pane::Methods, methods), None);
        assert_eq!(item_at(&app, &areas, Pane::Methods, methods + 1), Some(0));
        assert_eq!(item_at(&app, &areas, Pane::Methods, methods + 3), Some(2));
        assert_eq!(item_at(&app, &areas, Pane::Methods, methods + 4), None);
        assert_eq!(item_at(&app, &areas, Pane::Params, areas.params.y + 2), Some(1));
        assert_eq!(item_at(&app, &areas, Pane::Params, areas.params.y + 3), None);
        assert_eq!(item_at(&app, &areas, Pane::Suite, areas.suite.y + 1), None);
        assert_eq!(item_at(&app, &areas, Pane::Suite, areas.suite.y + 3), Some(1));
        assert_eq!(item_at(&app, &areas, Pane::Coverage, areas.coverage.y + 1), None);
    }

    #[test]
    fn lists_scroll_to_keep_the_selection() {
        assert_eq!(scroll_offset(0, 3), 0);
        assert_eq!(scroll_offset(2, 3), 0);
        assert_eq!(scroll_offset(5, 3), 3);
        let mut app = app();
        app.snapshot.classes.push(ClassRow { name: "Stack".into(), methods: (3..12).collect() });
        for i in 3..12 {
            app.snapshot.methods.push(method(&format!("m{i}"), MethodStatus::Stopped(StopReason::Timeout), 1, 3));
        }
        app.method_cursor = 11;
        let areas = layout(Rect::new(0, 0, 80, 24));
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(areas.methods));
        assert!(pane.last().unwrap().starts_with("  ⏱ m11"), "{pane:?}");
        assert_eq!(item_at(&app, &areas, Pane::Methods, inner(areas.methods).bottom() - 1), Some(11));
    }
}
