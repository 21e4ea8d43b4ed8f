//! Draws the terminal UI from an [`App`]: five panes, a status line, and the dialog of the current mode.
//!
//! Drawing keeps no state of its own: where everything goes is a function of the app and the screen size,
//! so the update code can find what a click hit with [`layout()`], [`pane_at`], [`list_row_at`] and
//! [`item_at`], using the same rules as [`draw`].
//!
//! Lists scroll without memory: a list shows its items from the top until the selected one would fall
//! below the last visible row, then scrolls just enough to keep it on that row ([`scroll_offset`](pane::scroll_offset)).
//!
//! One file per part of the screen:
//! - `layout.rs`: where the panes go, and which pane, row and item a click hits; how lists scroll.
//! - `pane.rs`: the bordered frame every pane is drawn in, with its focus marker, and the area inside it.
//! - `columns.rs`: text fitted in terminal columns: width, truncation with `…`, cells, selection highlight.
//! - `methods.rs`: the classes & methods tree, each method with its status, coverage gauge and percentage.
//! - `candidate.rs`: the candidate test's code, its outcome and the warnings.
//! - `params.rs`: the parameters table and the selected parameter's type decision.
//! - `coverage.rs`: the method under work's statement cells, annotated source and branches.
//! - `suite.rs`: the elected and failing tabs, their lists and the selected test's code.
//! - `status.rs`: the status line: run figures, then the last message and the key hints.
//! - `dialogs.rs`: the dialog of each mode (help, settings, type override, export, quit) and their frame.
//! - `full.rs`: a document full screen (candidate, test, log entry, suite), wrapped or cut, scrolled.
//! - `sparkline.rs`: a method's coverage over time in block characters.
//! - `fixtures.rs` (tests only): a sample snapshot, drawn on a test terminal and read back as text.

mod candidate;
mod columns;
mod coverage;
mod dialogs;
#[cfg(test)]
mod fixtures;
mod full;
mod layout;
mod methods;
mod pane;
mod params;
mod sparkline;
mod status;
mod suite;

use ratatui::Frame;
use ratatui::widgets::{Block, Paragraph, Wrap};

pub(crate) use self::dialogs::help_rows;
pub(crate) use self::full::{full_last_scroll, full_page};
pub use self::layout::{Areas, item_at, layout, list_row_at, pane_at};
use super::state::{App, Mode};
use super::theme::Theme;

/// The smallest screen the panes are drawn on; below, a note asks for more room (dialogs, the help and
/// full views still show).
pub(crate) const MIN_SIZE: (u16, u16) = (60, 16);

/// Draws the whole screen.
pub(crate) fn draw(frame: &mut Frame, app: &App, theme: &Theme) {
    let area = frame.area();
    frame.render_widget(Block::new().style(theme.base), area);
    let areas = layout(area);
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!(
            "terminal too small: {}x{}, the explorer needs {}x{} (80x24 shows it well): make it bigger, or ? help, q quit",
            area.width, area.height, MIN_SIZE.0, MIN_SIZE.1
        );
        frame.render_widget(Paragraph::new(text).style(theme.warning).wrap(Wrap { trim: true }), area);
    } else {
        methods::draw_methods(frame, areas.methods, app, theme);
        candidate::draw_candidate(frame, areas.candidate, app, theme);
        params::draw_params(frame, areas.params, app, theme);
        coverage::draw_coverage(frame, areas.coverage, app, theme);
        suite::draw_suite(frame, areas.suite, app, theme);
        status::draw_status(frame, areas.status, app, theme);
    }
    match &app.mode {
        Mode::Normal | Mode::Filter => {}
        Mode::Full(view) => full::draw_full(frame, view, theme),
        Mode::Help => dialogs::draw_help(frame, app, theme),
        Mode::Settings(form) => dialogs::draw_settings(frame, form, theme),
        Mode::Override(picker) => dialogs::draw_override(frame, picker, theme),
        Mode::Export(form) => dialogs::draw_export(frame, form, app, theme),
        Mode::ConfirmQuit => dialogs::draw_confirm_quit(frame, app, theme),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use ratatui::layout::Rect;

    use super::fixtures::{app, dark, render, rows_of, screen};
    use super::*;
    use crate::export::Format;
    use crate::tui::snapshot::Snapshot;
    use crate::tui::state::Pane;

    #[test]
    fn every_pane_title_shows_at_80x24_and_120x40() {
        for (columns, rows) in [(80, 24), (120, 40)] {
            let terminal = render(&app(), &dark(), columns, rows);
            let text = screen(&terminal);
            for pane in Pane::ALL {
                assert!(text.contains(pane.title()), "{} missing at {columns}x{rows}:\n{text}", pane.title());
            }
            assert!(text.contains("▶ Classes & methods"), "{text}");
            let areas = layout(Rect::new(0, 0, columns, rows));
            for pane in Pane::ALL {
                let title = rows_of(terminal.backend().buffer(), areas.pane(pane))[0].clone();
                assert!(title.contains(pane.title()), "{title}");
            }
        }
    }

    #[test]
    fn whole_screen_at_80x24() {
        let terminal = render(&app(), &dark(), 80, 24);
        let expected = [
            "┏ ▶ Classes & methods · 1/3 ━━━┓┌ Candidate test · LinkedList.add #1234 ───────┐",
            "┃LinkedList                    ┃│  const list = new LinkedList(3);             │",
            "┃  ▶ add           [■■■□□]  60%┃│  list.size();                                │",
            "┃  ✓ remove        [■■■■■] 100%┃│▸ list.add(<?node>);                          │",
            "┃  · size          [□□□□□]   0%┃│? invalid: unknown parameters left            │",
            "┃                              ┃│                                              │",
            "┃                              ┃│                                              │",
            "┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛└──────────────────────────────────────────────┘",
            "┌ Parameters · LinkedList · 1 unknown of 2 ────────────────────────────────────┐",
            "│add(node)     Unknown 12/20 next×4 prev×2 num 12 · str 3 guess Node: members …│",
            "│remove(index) number  20/20               num 30 · str 0 inferred: coerced by…│",
            "│add(node): unknown, 12/20 uses · guess Node · a accepts it — members 'next',  │",
            "│'prev' all belong to Node                                                     │",
            "└──────────────────────────────────────────────────────────────────────────────┘",
            "┌ Coverage · LinkedList.add ───────────┐┌ Suite ───────────────────────────────┐",
            "│■■□■□                                 ││[Elected (2)]  Failing (1)            │",
            "│3/5 statements · 1/2 branches         ││LinkedList.remove covers 4 statements │",
            "│10   add(node) {                      ││LinkedList.add covers 3 statements    │",
            "│11 ✓   if (!this.head) {              │││ const list = new LinkedList(1);     │",
            "│12 ✗     this.head = node;            │││ assert.equal(list.remove(0), undefin│",
            "│13 ~   } else { this.tail.next = node;││                                      │",
            "└──────────────────────────────────────┘└──────────────────────────────────────┘",
            "▶ running · it 1234 · 2 unexported · 5400/s · 3.2s/10s · stale 12/200 · delay 20",
            "enter work on · / filter · n step · r run · ? help · q quit · x export          ",
        ];
        assert_eq!(screen(&terminal), expected.join("\n"), "\n{}", screen(&terminal));
    }

    #[test]
    fn monochrome_draws_the_same_symbols_without_colour() {
        let mut app = app();
        for mode in [Mode::Normal, Mode::Help] {
            app.mode = mode;
            let coloured = render(&app, &dark(), 80, 24);
            let plain = render(&app, &Theme::monochrome(), 80, 24);
            assert_eq!(screen(&coloured), screen(&plain));
            let buffer = plain.backend().buffer();
            assert!(
                buffer
                    .content
                    .iter()
                    .all(|c| c.fg == ratatui::style::Color::Reset && c.bg == ratatui::style::Color::Reset)
            );
        }
    }

    #[test]
    fn a_screen_too_small_says_so_and_the_help_still_shows() {
        let mut app = app();
        let text = screen(&render(&app, &dark(), 50, 12));
        assert!(text.contains("terminal too small: 50x12"), "{text}");
        app.mode = Mode::Help;
        let text = screen(&render(&app, &dark(), 50, 12));
        assert!(text.contains(" Keys "), "{text}");
    }

    #[test]
    fn tiny_screens_do_not_panic() {
        let mut app = app();
        for mode in [Mode::Normal, Mode::Help, Mode::ConfirmQuit] {
            app.mode = mode;
            for (columns, rows) in [(1, 1), (10, 5), (30, 8), (200, 3)] {
                render(&app, &dark(), columns, rows);
            }
        }
        let empty = App::new(Snapshot::default(), PathBuf::from("out"), Format::Vows);
        let text = screen(&render(&empty, &dark(), 80, 24));
        assert!(
            text.contains("no candidate yet")
                && text.contains("no parameters")
                && text.contains("no elected tests yet")
        );
    }
}
