//! The parameters pane, titled with the class: a table of every parameter (and element record) of the
//! class and of the constructors of the helper classes its tests build, with its type, uses before
//! inference, members seen, number/string scores and the evidence for its type (for an unknown one, the
//! leading guess so far), and under it the selected parameter's decision in full with what can be done
//! to it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::columns::{cell, highlight, truncate, width};
use super::pane::scroll_offset;
use super::pane::{inner, pane_block, selection_style};
use crate::tui::snapshot::ParamRow;
use crate::tui::state::{App, Pane};
use crate::tui::theme::Theme;

/// The parameters list and, below it, the selected parameter's details.
pub(super) fn params_split(inner: Rect, rows: usize) -> [Rect; 2] {
    let list = u16::try_from(rows).unwrap_or(u16::MAX).clamp(1, inner.height.saturating_sub(1).max(1));
    Layout::vertical([Constraint::Length(list), Constraint::Fill(1)]).areas(inner)
}

/// Draws the parameters pane: columns sized to their widest entry (label and type capped), evidence
/// truncated to what is left of the row.
pub(super) fn draw_params(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let params = &app.snapshot.params;
    let unknown = params.iter().filter(|p| p.unknown).count();
    let counts = (!params.is_empty()).then(|| format!("{unknown} unknown of {}", params.len()));
    let detail = match (&app.snapshot.class, counts) {
        (Some(class), Some(counts)) => Some(format!("{class} · {counts}")),
        (class, counts) => class.clone().or(counts),
    };
    frame.render_widget(pane_block(Pane::Params, app, theme, detail), area);
    let [list, detail] = params_split(inner(area), params.len());
    if params.is_empty() {
        frame.render_widget(Paragraph::new(Line::styled("no parameters", theme.dim)), list);
        return;
    }
    let columns = usize::from(list.width);
    let label = |p: &ParamRow| p.label();
    let uses = |p: &ParamRow| format!("{}/{}", p.uses, p.delay);
    let scores = |p: &ParamRow| format!("num {} · str {}", p.number, p.string);
    let members = |p: &ParamRow| p.members.iter().map(|(m, n)| format!("{m}×{n}")).collect::<Vec<_>>().join(" ");
    let widest = |f: &dyn Fn(&ParamRow) -> String| params.iter().map(|p| width(&f(p))).max().unwrap_or(0);
    let label_w = widest(&label).min(20);
    let type_w = widest(&|p| p.ty.clone()).min(14);
    let uses_w = widest(&uses);
    let scores_w = widest(&scores);
    // Members share what is left with the evidence, but never push the scores off a narrow screen.
    let left = columns.saturating_sub(label_w + type_w + uses_w + scores_w + 4);
    let members_w = widest(&members).min(left / 2).min(24);
    let offset = scroll_offset(app.param_cursor, usize::from(list.height));
    let lines: Vec<Line> = params
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(list.height))
        .map(|(index, p)| {
            let type_style = match (p.unknown, p.ty.as_str()) {
                (true, _) => theme.unknown,
                (false, "untestable") => theme.error,
                _ => Style::new(),
            };
            let source_style = if p.source == Some("leap of faith") { theme.warning } else { theme.dim };
            let mut spans = vec![
                Span::raw(cell(&label(p), label_w)),
                Span::raw(" "),
                Span::styled(cell(&p.ty, type_w), type_style),
                Span::raw(" "),
                Span::raw(format!("{:>uses_w$}", uses(p))),
                Span::raw(" "),
            ];
            if members_w > 0 {
                spans.push(Span::styled(cell(&members(p), members_w), theme.dim));
                spans.push(Span::raw(" "));
            }
            spans.push(Span::raw(cell(&scores(p), scores_w)));
            let evidence = match (p.source, &p.guess) {
                (Some(source), _) if p.evidence.is_empty() => Some(source.to_string()),
                (Some(source), _) => Some(format!("{source}: {}", p.evidence)),
                (None, Some((ty, why))) => Some(format!("guess {ty}: {why}")),
                (None, None) => None,
            };
            if let Some(evidence) = evidence {
                let used: usize = spans.iter().map(Span::width).sum();
                spans.push(Span::styled(
                    format!(" {}", truncate(&evidence, columns.saturating_sub(used + 1))),
                    source_style,
                ));
            }
            let line = Line::from(spans);
            if index == app.param_cursor {
                highlight(line, selection_style(Pane::Params, app, theme), columns)
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    if let Some(p) = app.selected_param() {
        let mut text = vec![Span::styled(label(p), theme.title)];
        match (p.source, &p.guess) {
            (None, guess) => {
                text.push(Span::raw(format!(": unknown, {}/{} uses", p.uses, p.delay)));
                match guess {
                    Some((ty, why)) => {
                        text.push(Span::raw(format!(" · guess {ty} · a accepts it")));
                        text.push(Span::styled(format!(" — {why}"), theme.dim));
                    }
                    None => text.push(Span::raw(" · no evidence yet · o override")),
                }
            }
            (Some(source), _) => {
                text.push(Span::raw(format!(": {} ({source})", p.ty)));
                if !p.evidence.is_empty() {
                    text.push(Span::styled(format!(" — {}", p.evidence), theme.dim));
                }
                text.push(Span::raw(if p.fixed {
                    " · i back to inference · o override"
                } else {
                    " · a accept · o override"
                }));
            }
        }
        frame.render_widget(Paragraph::new(Line::from(text)).wrap(Wrap { trim: false }), detail);
    }
}

#[cfg(test)]
mod tests {
    use ratatui::layout::Rect;

    use crate::tui::snapshot::ParamRow;
    use crate::tui::view::fixtures::{app, dark, render, rows_of, screen};

    #[test]
    fn parameters_show_uses_members_scores_and_evidence() {
        let mut app = app();
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("add(node)     Unknown 12/20 next×4 prev×2 num 12 · str 3"), "{text}");
        assert!(text.contains("add(node): unknown, 12/20 uses · guess Node · a accepts it"), "{text}");
        assert!(text.contains("Parameters · LinkedList · 1 unknown of 2"), "the title names the class: {text}");
        app.param_cursor = 1;
        let text = screen(&render(&app, &dark(), 120, 40));
        assert!(text.contains("remove(index) number  20/20"), "{text}");
        assert!(text.contains("remove(index): number (inferred) — coerced by >, - and ++: number 30,"), "{text}");
    }

    #[test]
    fn helper_constructors_are_listed_and_fixed_types_offer_inference_back() {
        let mut app = app();
        app.snapshot.params.push(ParamRow {
            id: 9,
            helper: Some("Node".into()),
            function: "constructor".into(),
            name: "data".into(),
            ty: "Unknown".into(),
            unknown: true,
            uses: 3,
            delay: 20,
            ..ParamRow::default()
        });
        app.snapshot.params[1].source = Some("overridden");
        app.snapshot.params[1].fixed = true;
        app.param_cursor = 2;
        let text = screen(&render(&app, &dark(), 120, 40));
        assert!(text.contains("Parameters · LinkedList · 2 unknown of 3"), "{text}");
        assert!(text.contains("new Node(data) Unknown"), "{text}");
        assert!(text.contains("new Node(data): unknown, 3/20 uses · no evidence yet · o override"), "{text}");
        app.param_cursor = 1;
        let text = screen(&render(&app, &dark(), 120, 40));
        assert!(text.contains("remove(index): number (overridden) — coerced by"), "{text}");
        assert!(text.contains("· i back to inference · o override"), "{text}");
    }

    #[test]
    fn element_records_follow_their_parameter_with_uses_and_decision() {
        let mut app = app();
        app.snapshot.params.push(ParamRow {
            id: 2,
            function: "addAll".into(),
            name: "items".into(),
            ty: "array".into(),
            uses: 20,
            delay: 20,
            source: Some("inferred"),
            evidence: "Array members forEach".into(),
            ..ParamRow::default()
        });
        app.snapshot.params.push(ParamRow {
            id: 7,
            function: "addAll".into(),
            name: "items[i]".into(),
            ty: "Item".into(),
            uses: 9,
            delay: 20,
            members: vec![("price".into(), 9)],
            source: Some("project file"),
            ..ParamRow::default()
        });
        app.param_cursor = 3;
        let rows = rows_of(render(&app, &dark(), 120, 40).backend().buffer(), Rect::new(0, 0, 120, 40));
        let at = |text: &str| rows.iter().position(|r| r.contains(text)).unwrap_or_else(|| panic!("{text}: {rows:?}"));
        assert_eq!(at("addAll(items[i]) Item"), at("addAll(items) ") + 1, "the elements right under their parameter");
        let text = rows.join("\n");
        assert!(text.contains("9/20 price×9"), "{text}");
        assert!(text.contains("addAll(items[i]): Item (project file)"), "{text}");
    }
}
