//! Draws the terminal UI from an [`App`]: five panes, a status line, and the dialog of the current mode.
//!
//! Drawing keeps no state of its own: where everything goes is a function of the app and the screen size,
//! so the update code can find what a click hit with [`layout`], [`pane_at`], [`list_row_at`] and
//! [`item_at`], using the same rules as [`draw`].
//!
//! Lists scroll without memory: a list shows its items from the top until the selected one would fall
//! below the last visible row, then scrolls just enough to keep it on that row ([`scroll_offset`]).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Margin, Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

use super::snapshot::{CandidateOutcome, LineMark, MethodRow, MethodStatus, ParamRow};
use super::state::{App, Field, Mode, Pane, SuiteTab};
use super::theme::Theme;
use crate::session::StopReason;
use crate::suite::export::Format;

/// Screens at least this wide put three panes side by side.
const WIDE: u16 = 120;

/// Rows of the status line: figures, then the last message and the key hints.
const STATUS_ROWS: u16 = 2;

/// Where each pane and the status line go on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    /// Classes & methods.
    pub methods: Rect,
    /// Candidate test.
    pub candidate: Rect,
    /// Parameters.
    pub params: Rect,
    /// Coverage.
    pub coverage: Rect,
    /// Suite.
    pub suite: Rect,
    /// Status line (two rows).
    pub status: Rect,
}

impl Areas {
    /// The area of `pane`, border included.
    pub fn pane(&self, pane: Pane) -> Rect {
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

/// The first item a list of `visible` rows shows when item `selected` is selected.
pub fn scroll_offset(selected: usize, visible: usize) -> usize {
    (selected + 1).saturating_sub(visible.max(1))
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

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme) {
    let area = frame.area();
    frame.render_widget(Block::new().style(theme.base), area);
    let areas = layout(area);
    draw_methods(frame, areas.methods, app, theme);
    draw_candidate(frame, areas.candidate, app, theme);
    draw_params(frame, areas.params, app, theme);
    draw_coverage(frame, areas.coverage, app, theme);
    draw_suite(frame, areas.suite, app, theme);
    draw_status(frame, areas.status, app, theme);
    match &app.mode {
        Mode::Normal => {}
        Mode::Help => draw_help(frame, theme),
        Mode::Settings(form) => {
            let inner = dialog(frame, theme, "Settings", form_lines(&form.fields, form.selected, theme), SETTINGS_HINT);
            let row = form.fields.iter().take(form.selected).map(|f| 1 + usize::from(f.error.is_some())).sum();
            if let Some(field) = form.fields.get(form.selected) {
                place_cursor(frame, inner, row, form_value_column(&form.fields) + width(&field.value));
            }
        }
        Mode::Override(picker) => draw_override(frame, picker, theme),
        Mode::Export(form) => draw_export(frame, form, app, theme),
        Mode::ConfirmQuit => {
            let count = app.snapshot.unexported;
            let tests = if count == 1 { "test is" } else { "tests are" };
            let body = vec![
                Line::from(format!("{count} elected {tests} not exported.")),
                Line::from(format!("Export to {} before quitting?", app.out_dir.display())),
            ];
            dialog(frame, theme, "Quit", body, "y export · n quit, keeping a recovery copy · esc stay");
        }
    }
}

/// The area inside a pane's border.
fn inner(area: Rect) -> Rect {
    area.inner(Margin::new(1, 1))
}

/// A pane's frame. The focused one gets a thick border and a `▶` in its title, so focus shows without
/// colour too.
fn pane_block<'a>(pane: Pane, app: &App, theme: &Theme, detail: Option<String>) -> Block<'a> {
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

/// Display width of `text` in terminal columns.
fn width(text: &str) -> usize {
    Span::raw(text).width()
}

/// `text` cut to `max` columns, with `…` where it was cut.
fn truncate(text: &str, max: usize) -> String {
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
fn cell(text: &str, columns: usize) -> String {
    let text = truncate(text, columns);
    let pad = columns.saturating_sub(width(&text));
    format!("{text}{}", " ".repeat(pad))
}

/// A line drawn as selected: the selection style wins over the spans' own, and the row is filled to
/// `columns` so the highlight spans the pane.
fn highlight(mut line: Line<'static>, style: Style, columns: usize) -> Line<'static> {
    let pad = columns.saturating_sub(line.width());
    line.spans.push(Span::raw(" ".repeat(pad)));
    for span in &mut line.spans {
        span.style = span.style.patch(style);
    }
    line
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

/// A row of the methods tree.
enum TreeRow<'a> {
    /// A class name.
    Class(&'a str),
    /// A method: its position in [`App::method_order`] and its index in the snapshot's methods.
    Method { order: usize, method: usize },
}

/// The methods tree: each class, then its methods.
fn tree(app: &App) -> Vec<TreeRow<'_>> {
    let mut rows = Vec::new();
    let mut order = 0;
    for class in &app.snapshot.classes {
        rows.push(TreeRow::Class(&class.name));
        for &method in &class.methods {
            rows.push(TreeRow::Method { order, method });
            order += 1;
        }
    }
    rows
}

/// The tree row of the selected method.
fn selected_tree_row(rows: &[TreeRow], cursor: usize) -> usize {
    rows.iter().position(|r| matches!(r, TreeRow::Method { order, .. } if *order == cursor)).unwrap_or(0)
}

/// The symbol and word for where a method stands, and its style.
fn status_mark(status: MethodStatus, theme: &Theme) -> (&'static str, &'static str, Style) {
    match status {
        MethodStatus::Pending => ("·", "pending", theme.dim),
        MethodStatus::Running => ("▶", "running", theme.under_test),
        MethodStatus::Stopped(reason) => match reason {
            StopReason::Covered => ("✓", reason.name(), theme.covered),
            StopReason::Target => ("◎", reason.name(), theme.covered),
            StopReason::Timeout => ("⏱", reason.name(), theme.warning),
            StopReason::Stale => ("≈", reason.name(), theme.warning),
            StopReason::Aborted => ("✗", reason.name(), theme.error),
        },
    }
}

/// `[■■■□□]` for `covered` of `total`, rounding down so a bar is only full when everything is covered.
fn gauge(covered: usize, total: usize, cells: usize, theme: &Theme) -> Vec<Span<'static>> {
    let filled = (covered.min(total) * cells).checked_div(total).unwrap_or(cells);
    vec![
        Span::raw("["),
        Span::styled("■".repeat(filled), theme.covered),
        Span::styled("□".repeat(cells - filled), theme.uncovered),
        Span::raw("]"),
    ]
}

fn draw_methods(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let done = app.snapshot.methods.iter().filter(|m| matches!(m.status, MethodStatus::Stopped(_))).count();
    let block = pane_block(Pane::Methods, app, theme, Some(format!("{done}/{}", app.snapshot.methods.len())));
    let inner = inner(area);
    let columns = usize::from(inner.width);
    let rows = tree(app);
    let selected = selected_tree_row(&rows, app.method_cursor);
    let offset = scroll_offset(selected, usize::from(inner.height));
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(inner.height))
        .map(|(index, row)| {
            let line = match row {
                TreeRow::Class(name) => Line::from(Span::styled(truncate(name, columns), theme.title)),
                TreeRow::Method { method, .. } => match app.snapshot.methods.get(*method) {
                    Some(m) => method_line(m, app.snapshot.current == Some(*method), columns, theme),
                    None => Line::default(),
                },
            };
            if index == selected { highlight(line, theme.selection, columns) } else { line }
        })
        .collect();
    let lines = if rows.is_empty() { vec![Line::styled("no classes", theme.dim)] } else { lines };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// ` »▶ add      [■■■□□]  60% running`: the word only when the name keeps room.
fn method_line(m: &MethodRow, current: bool, columns: usize, theme: &Theme) -> Line<'static> {
    let (symbol, word, symbol_style) = status_mark(m.status, theme);
    let cells = if columns >= 48 { 10 } else { 5 };
    // " »▶ " + name + " " + gauge + " " + "100%"
    let fixed = 4 + 1 + cells + 2 + 1 + 4;
    let with_word = columns >= fixed + 12 + 1 + word.len();
    let name_columns = columns.saturating_sub(fixed + if with_word { 1 + word.len() } else { 0 });
    let name_style = if current { theme.current } else { Style::new() };
    let percent = Span::raw(format!(" {:>3.0}%", (m.ratio() * 100.0).floor()));
    let mut spans = vec![
        Span::raw(" "),
        Span::styled(if current { "»" } else { " " }, theme.current),
        Span::styled(symbol, symbol_style),
        Span::raw(" "),
    ];
    if name_columns < 4 {
        // Too narrow for a bar: the percentage alone still says how far it got.
        spans.push(Span::styled(m.name.clone(), name_style));
        spans.push(percent);
        return Line::from(spans);
    }
    spans.push(Span::styled(cell(&m.name, name_columns), name_style));
    spans.push(Span::raw(" "));
    spans.extend(gauge(m.covered, m.statements, cells, theme));
    spans.push(percent);
    if with_word {
        spans.push(Span::styled(format!(" {word}"), symbol_style));
    }
    Line::from(spans)
}

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

fn draw_candidate(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
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

/// The parameters list and, below it, the selected parameter's details.
fn params_split(inner: Rect, rows: usize) -> [Rect; 2] {
    let list = u16::try_from(rows).unwrap_or(u16::MAX).clamp(1, inner.height.saturating_sub(1).max(1));
    Layout::vertical([Constraint::Length(list), Constraint::Fill(1)]).areas(inner)
}

fn draw_params(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let params = &app.snapshot.params;
    let unknown = params.iter().filter(|p| p.unknown).count();
    let detail = (!params.is_empty()).then(|| format!("{unknown} unknown of {}", params.len()));
    frame.render_widget(pane_block(Pane::Params, app, theme, detail), area);
    let [list, detail] = params_split(inner(area), params.len());
    if params.is_empty() {
        frame.render_widget(Paragraph::new(Line::styled("no parameters", theme.dim)), list);
        return;
    }
    let columns = usize::from(list.width);
    let label = |p: &ParamRow| format!("{}({})", p.function, p.name);
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
            if let Some(source) = p.source {
                let used: usize = spans.iter().map(Span::width).sum();
                let evidence =
                    if p.evidence.is_empty() { source.to_string() } else { format!("{source}: {}", p.evidence) };
                spans.push(Span::styled(
                    format!(" {}", truncate(&evidence, columns.saturating_sub(used + 1))),
                    source_style,
                ));
            }
            let line = Line::from(spans);
            if index == app.param_cursor { highlight(line, theme.selection, columns) } else { line }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    if let Some(p) = app.selected_param() {
        let text = match p.source {
            None => vec![
                Span::styled(label(p), theme.title),
                Span::raw(format!(
                    ": unknown, {} of {} uses before inference · a accept · o override",
                    p.uses, p.delay
                )),
            ],
            Some(source) => vec![
                Span::styled(label(p), theme.title),
                Span::raw(format!(": {} ({source})", p.ty)),
                Span::styled(
                    if p.evidence.is_empty() { String::new() } else { format!(" — {}", p.evidence) },
                    theme.dim,
                ),
            ],
        };
        frame.render_widget(Paragraph::new(Line::from(text)).wrap(Wrap { trim: false }), detail);
    }
}

fn draw_coverage(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
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
    let covered = coverage.cells.iter().filter(|c| **c).count();
    let mut count = vec![Span::styled(format!("{covered}/{} statements", coverage.cells.len()), theme.title)];
    if !coverage.branches.is_empty() {
        let taken = coverage.branches.iter().filter(|b| b.taken).count();
        count.push(Span::styled(format!(" · {taken}/{} branches", coverage.branches.len()), theme.dim));
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
            let item = format!("line {} {} {mark}", branch.line, branch.outcome);
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

/// The suite pane's tabs, list and selected test.
fn suite_split(inner: Rect, rows: usize) -> [Rect; 3] {
    let half = (inner.height.saturating_sub(1) / 2).max(1);
    let list = u16::try_from(rows).unwrap_or(u16::MAX).clamp(1, half);
    Layout::vertical([Constraint::Length(1), Constraint::Length(list), Constraint::Fill(1)]).areas(inner)
}

fn draw_suite(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let suite = &app.snapshot.suite;
    frame.render_widget(pane_block(Pane::Suite, app, theme, None), area);
    let [tabs, list, detail] = suite_split(inner(area), app.suite_len());
    let tab = |name: &str, count: usize, active: bool| {
        if active {
            Span::styled(format!("[{name} ({count})]"), theme.selection)
        } else {
            Span::styled(format!(" {name} ({count}) "), theme.dim)
        }
    };
    let elected = app.suite_tab == SuiteTab::Elected;
    let line = Line::from(vec![
        tab("Elected", suite.elected.len(), elected),
        Span::raw(" "),
        tab("Failing", suite.failing.len(), !elected),
    ]);
    frame.render_widget(Paragraph::new(line), tabs);
    // (method, what, its style, code) per test of the tab shown.
    let rows: Vec<(&str, &str, Style, &str)> = if elected {
        suite.elected.iter().map(|t| (t.method.as_str(), t.title.as_str(), Style::new(), t.code.as_str())).collect()
    } else {
        suite.failing.iter().map(|t| (t.method.as_str(), t.message.as_str(), theme.error, t.code.as_str())).collect()
    };
    if rows.is_empty() {
        let empty = if elected { "no elected tests yet" } else { "no failing tests" };
        frame.render_widget(Paragraph::new(Line::styled(empty, theme.dim)), list);
        return;
    }
    let columns = usize::from(list.width);
    let offset = scroll_offset(app.suite_cursor, usize::from(list.height));
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(usize::from(list.height))
        .map(|(index, (method, what, style, _))| {
            let what = what.lines().next().unwrap_or_default().to_string();
            let line = Line::from(vec![Span::styled(format!("{method} "), theme.dim), Span::styled(what, *style)]);
            if index == app.suite_cursor { highlight(line, theme.selection, columns) } else { line }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    if let Some((_, what, style, code)) = rows.get(app.suite_cursor) {
        let mut lines = Vec::new();
        if !elected {
            lines.extend(what.lines().map(|l| Line::styled(format!("│ {l}"), *style)));
        }
        lines.extend(code.lines().map(|l| Line::from(vec![Span::styled("│ ", theme.dim), Span::raw(l.to_string())])));
        frame.render_widget(Paragraph::new(lines), detail);
    }
}

/// The keys offered in the status line, most used first.
const HINTS: [&str; 8] = ["n step", "r run", "t settings", "a accept", "o override", "x export", "? help", "q quit"];

fn draw_status(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
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

/// Draws a centred dialog over the screen with `body` and a `hint` line, and returns its inside.
fn dialog(frame: &mut Frame, theme: &Theme, title: &str, body: Vec<Line<'static>>, hint: &str) -> Rect {
    let screen = frame.area();
    let mut lines = body;
    lines.push(Line::default());
    lines.push(Line::styled(hint.to_string(), theme.dim));
    let widest = lines.iter().map(Line::width).chain([width(title) + 4]).max().unwrap_or(0);
    let columns = u16::try_from(widest + 4).unwrap_or(u16::MAX).min(screen.width);
    let inside = usize::from(columns.saturating_sub(4).max(1));
    // Lines longer than the dialog wrap; one spare row each covers word wrapping's ragged ends.
    let rows: usize = lines.iter().map(|l| if l.width() > inside { l.width().div_ceil(inside) + 1 } else { 1 }).sum();
    let rows = u16::try_from(rows + 2).unwrap_or(u16::MAX).min(screen.height);
    let area = screen.centered(Constraint::Length(columns), Constraint::Length(rows));
    let block = Block::bordered()
        .border_type(BorderType::Thick)
        .border_style(theme.focused_border)
        .title(Span::styled(format!(" {title} "), theme.title.patch(theme.focused_border)))
        .style(theme.base);
    let inner = block.inner(area).inner(Margin::new(1, 0));
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    inner
}

/// Puts the terminal cursor `column` columns into row `row` of `inner`, where text is being typed.
fn place_cursor(frame: &mut Frame, inner: Rect, row: usize, column: usize) {
    let x = inner.x.saturating_add(u16::try_from(column).unwrap_or(u16::MAX)).min(inner.right().saturating_sub(1));
    let y = inner.y.saturating_add(u16::try_from(row).unwrap_or(u16::MAX));
    if y < inner.bottom() {
        frame.set_cursor_position(Position::new(x, y));
    }
}

/// Every key, with what it does.
const HELP: [(&str, &str); 16] = [
    ("space, n", "step: run one candidate"),
    ("r", "run / pause stepping"),
    ("tab, shift-tab", "next / previous pane"),
    ("↑ ↓ ← →, j k", "move in the focused pane"),
    ("enter", "work on the selected method"),
    ("t", "settings"),
    ("a", "accept the type of the selected parameter"),
    ("o", "override the type of the selected parameter"),
    ("x", "export the suite"),
    ("s", "save the project file"),
    ("e", "suite tab: elected / failing"),
    ("PgUp, PgDn", "scroll"),
    ("q", "quit"),
    ("?", "close this help"),
    ("mouse click", "focus a pane, select a row"),
    ("mouse wheel", "scroll"),
];

fn draw_help(frame: &mut Frame, theme: &Theme) {
    let key_w = HELP.iter().map(|(key, _)| width(key)).max().unwrap_or(0);
    let body = HELP
        .iter()
        .map(|(key, what)| Line::from(vec![Span::styled(cell(key, key_w + 2), theme.title), Span::raw(*what)]))
        .collect();
    dialog(frame, theme, "Keys", body, "? or esc close");
}

/// The hint under the settings form.
const SETTINGS_HINT: &str = "enter apply · esc cancel · ↑↓ field";

/// Column where values start in a form: after the marker and the widest label.
fn form_value_column(fields: &[Field]) -> usize {
    2 + fields.iter().map(|f| width(f.label)).max().unwrap_or(0) + 2
}

/// `› label  value` rows, each error on the row under its field.
fn form_lines(fields: &[Field], selected: usize, theme: &Theme) -> Vec<Line<'static>> {
    let label_w = form_value_column(fields) - 4;
    let mut lines = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let chosen = index == selected;
        let line = Line::from(vec![
            Span::raw(if chosen { "› " } else { "  " }),
            Span::styled(cell(field.label, label_w + 2), theme.title),
            Span::raw(field.value.clone()),
        ]);
        lines.push(if chosen { highlight(line, theme.selection, 0) } else { line });
        if let Some(error) = &field.error {
            lines.push(Line::styled(format!("{}✗ {error}", " ".repeat(label_w + 4)), theme.error));
        }
    }
    lines
}

fn draw_override(frame: &mut Frame, picker: &super::state::OverridePicker, theme: &Theme) {
    // Leave room for the border, the blank line and the hint.
    let visible = usize::from(frame.area().height.saturating_sub(4)).max(1);
    let offset = scroll_offset(picker.selected, visible);
    let body = picker
        .choices
        .iter()
        .enumerate()
        .skip(offset)
        .take(visible)
        .map(|(index, choice)| {
            if index == picker.selected {
                highlight(Line::raw(format!("› {choice}")), theme.selection, 0)
            } else {
                Line::raw(format!("  {choice}"))
            }
        })
        .collect();
    dialog(frame, theme, &format!("Type of {}", picker.label), body, "enter choose · esc cancel · ↑↓ type");
}

fn draw_export(frame: &mut Frame, form: &super::state::ExportForm, app: &App, theme: &Theme) {
    let fields = [
        Field { label: "Format", value: format!("‹ {} ›", form.format.name()), error: None },
        Field { label: "Folder", value: form.folder.clone(), error: None },
    ];
    let mut body = form_lines(&fields, form.field, theme);
    let formats: Vec<&str> = Format::all().iter().map(|f| f.name()).collect();
    body.push(Line::styled(format!("formats: {}", formats.join(" · ")), theme.dim));
    body.push(Line::styled(format!("defaults: {} to {}", app.format.name(), app.out_dir.display()), theme.dim));
    let inner = dialog(frame, theme, "Export", body, "←→ format · ↑↓ field · enter export · esc cancel");
    if form.field == 1 {
        place_cursor(frame, inner, 1, form_value_column(&fields) + width(&form.folder));
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;

    use super::*;
    use crate::tui::snapshot::*;
    use crate::tui::state::{ExportForm, Message, OverridePicker, SettingsForm};

    fn method(name: &str, status: MethodStatus, covered: usize, statements: usize) -> MethodRow {
        MethodRow {
            class: "LinkedList".into(),
            name: name.into(),
            status,
            covered,
            statements,
            elapsed: Duration::from_millis(3200),
            stale: 12,
            ..MethodRow::default()
        }
    }

    fn snapshot() -> Snapshot {
        let line = |number, text: &str, mark| SourceLine { number, text: text.into(), mark };
        Snapshot {
            files: vec!["list.js".into()],
            seed: 42,
            iteration: 1234,
            executions: 5000,
            rate: 5400.0,
            running: true,
            settings: SettingsView {
                delay: 20,
                timeout: Duration::from_secs(10),
                max_stale: 200,
                ..SettingsView::default()
            },
            classes: vec![ClassRow { name: "LinkedList".into(), methods: vec![0, 1, 2] }],
            methods: vec![
                method("add", MethodStatus::Running, 3, 5),
                method("remove", MethodStatus::Stopped(StopReason::Covered), 4, 4),
                method("size", MethodStatus::Pending, 0, 2),
            ],
            current: Some(0),
            candidate: Some(CandidateView {
                method: 0,
                lines: vec![
                    CandidateLine { text: "const list = new LinkedList(3);".into(), under_test: false },
                    CandidateLine { text: "list.size();".into(), under_test: false },
                    CandidateLine { text: "list.add(<?node>);".into(), under_test: true },
                ],
                outcome: CandidateOutcome::Invalid,
            }),
            params: vec![
                ParamRow {
                    id: 0,
                    function: "add".into(),
                    name: "node".into(),
                    ty: "Unknown".into(),
                    unknown: true,
                    uses: 12,
                    delay: 20,
                    members: vec![("next".into(), 4), ("prev".into(), 2)],
                    number: 12,
                    string: 3,
                    ..ParamRow::default()
                },
                ParamRow {
                    id: 1,
                    function: "remove".into(),
                    name: "index".into(),
                    ty: "number".into(),
                    uses: 20,
                    delay: 20,
                    number: 30,
                    evidence: "coerced by >, - and ++: number 30, string 2".into(),
                    source: Some("inferred"),
                    ..ParamRow::default()
                },
            ],
            coverage: CoverageView {
                cells: vec![true, true, false, true, false],
                source: vec![
                    line(10, "add(node) {", LineMark::Plain),
                    line(11, "  if (!this.head) {", LineMark::Covered),
                    line(12, "    this.head = node;", LineMark::Uncovered),
                    line(13, "  } else { this.tail.next = node; n++; }", LineMark::Partial),
                    line(14, "}", LineMark::Plain),
                ],
                branches: vec![
                    BranchRow { line: 11, outcome: "then".into(), taken: true },
                    BranchRow { line: 11, outcome: "else".into(), taken: false },
                ],
            },
            suite: SuiteView {
                elected: vec![
                    ElectedRow {
                        method: "LinkedList.remove".into(),
                        title: "covers 4 statements".into(),
                        code: "const list = new LinkedList(1);\nassert.equal(list.remove(0), undefined);\n".into(),
                    },
                    ElectedRow {
                        method: "LinkedList.add".into(),
                        title: "covers 3 statements".into(),
                        code: "const list = new LinkedList(2);\nlist.add(new Node(7));\n".into(),
                    },
                ],
                failing: vec![FailingRow {
                    method: "LinkedList.add".into(),
                    message: "TypeError: cannot read next".into(),
                    code: "list.add(null);".into(),
                }],
            },
            unexported: 2,
            ..Snapshot::default()
        }
    }

    fn app() -> App {
        App::new(snapshot(), PathBuf::from("tests/out"), Format::NodeTest)
    }

    fn dark() -> Theme {
        Theme::load("dark").unwrap()
    }

    fn render(app: &App, theme: &Theme, columns: u16, rows: u16) -> Terminal<TestBackend> {
        let mut terminal = Terminal::new(TestBackend::new(columns, rows)).unwrap();
        terminal.draw(|frame| draw(frame, app, theme)).unwrap();
        terminal
    }

    /// The text of each row of `area`.
    fn rows_of(buffer: &Buffer, area: Rect) -> Vec<String> {
        (area.top()..area.bottom())
            .map(|y| (area.left()..area.right()).map(|x| buffer[(x, y)].symbol()).collect())
            .collect()
    }

    fn screen(terminal: &Terminal<TestBackend>) -> String {
        let buffer = terminal.backend().buffer();
        rows_of(buffer, buffer.area).join("\n")
    }

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
            "┏ ▶ Classes & methods · 1/3 ━━━┓┌ Candidate test · LinkedList.add ─────────────┐",
            "┃LinkedList                    ┃│  const list = new LinkedList(3);             │",
            "┃ »▶ add           [■■■□□]  60%┃│  list.size();                                │",
            "┃  ✓ remove        [■■■■■] 100%┃│▸ list.add(<?node>);                          │",
            "┃  · size          [□□□□□]   0%┃│? invalid: unknown parameters left            │",
            "┃                              ┃│                                              │",
            "┃                              ┃│                                              │",
            "┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛└──────────────────────────────────────────────┘",
            "┌ Parameters · 1 unknown of 2 ─────────────────────────────────────────────────┐",
            "│add(node)     Unknown 12/20 next×4 prev×2 num 12 · str 3                      │",
            "│remove(index) number  20/20               num 30 · str 0 inferred: coerced by…│",
            "│add(node): unknown, 12 of 20 uses before inference · a accept · o override    │",
            "│                                                                              │",
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
            "n step · r run · t settings · a accept · o override · x export · ? help · q quit",
        ];
        assert_eq!(screen(&terminal), expected.join("\n"), "\n{}", screen(&terminal));
    }

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

    #[test]
    fn parameters_show_uses_members_scores_and_evidence() {
        let mut app = app();
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("add(node)     Unknown 12/20 next×4 prev×2 num 12 · str 3"), "{text}");
        assert!(text.contains("add(node): unknown, 12 of 20 uses before inference"), "{text}");
        app.param_cursor = 1;
        let text = screen(&render(&app, &dark(), 120, 40));
        assert!(text.contains("remove(index) number  20/20"), "{text}");
        assert!(text.contains("remove(index): number (inferred) — coerced by >, - and ++: number 30,"), "{text}");
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

    #[test]
    fn methods_tree_shows_gauges_states_and_current() {
        let terminal = render(&app(), &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).methods));
        assert_eq!(pane[0].trim_end(), "LinkedList");
        assert_eq!(pane[1].trim_end(), " »▶ add           [■■■□□]  60%");
        assert_eq!(pane[2].trim_end(), "  ✓ remove        [■■■■■] 100%");
        assert_eq!(pane[3].trim_end(), "  · size          [□□□□□]   0%");
        let wide = render(&app(), &dark(), 160, 40);
        let pane = rows_of(wide.backend().buffer(), inner(layout(Rect::new(0, 0, 160, 40)).methods));
        assert_eq!(pane[2].trim_end(), "  ✓ remove        [■■■■■] 100% covered");
        let wider = render(&app(), &dark(), 200, 40);
        let pane = rows_of(wider.backend().buffer(), inner(layout(Rect::new(0, 0, 200, 40)).methods));
        assert_eq!(pane[1].trim_end(), " »▶ add                [■■■■■■□□□□]  60% running");
    }

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

    #[test]
    fn suite_tabs_list_and_code() {
        let mut app = app();
        app.suite_cursor = 1;
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).suite));
        assert_eq!(pane[0].trim_end(), "[Elected (2)]  Failing (1)");
        assert!(pane[2].starts_with("LinkedList.add covers 3 statements"), "{pane:?}");
        assert_eq!(pane[3].trim_end(), "│ const list = new LinkedList(2);");
        app.suite_tab = SuiteTab::Failing;
        app.suite_cursor = 0;
        let terminal = render(&app, &dark(), 80, 24);
        let pane = rows_of(terminal.backend().buffer(), inner(layout(Rect::new(0, 0, 80, 24)).suite));
        assert_eq!(pane[0].trim_end(), " Elected (2)  [Failing (1)]");
        assert_eq!(pane[2].trim_end(), "│ TypeError: cannot read next");
        assert_eq!(pane[3].trim_end(), "│ list.add(null);");
    }

    #[test]
    fn help_lists_every_key() {
        let mut app = app();
        app.mode = Mode::Help;
        let text = screen(&render(&app, &dark(), 80, 24));
        for (key, what) in HELP {
            assert!(text.contains(&format!("{key:<16}{what}")), "{key} missing:\n{text}");
        }
        for key in ["space, n", "shift-tab", "j k", "enter", "PgUp, PgDn", "mouse wheel"] {
            assert!(text.contains(key));
        }
    }

    #[test]
    fn settings_form_shows_inline_errors_and_cursor() {
        let field = |label, value: &str, error: Option<&str>| Field {
            label,
            value: value.into(),
            error: error.map(str::to_string),
        };
        let mut app = app();
        app.mode = Mode::Settings(SettingsForm {
            fields: vec![
                field("delay", "x20", Some("not a number")),
                field("timeout (s)", "10", None),
                field("max stale", "200", None),
            ],
            selected: 1,
        });
        let theme = dark();
        let mut terminal = render(&app, &theme, 80, 24);
        let text = screen(&terminal);
        assert!(text.contains("  delay        x20"), "{text}");
        assert!(text.contains("               ✗ not a number"), "{text}");
        assert!(text.contains("› timeout (s)  10"), "{text}");
        assert!(text.contains("enter apply · esc cancel · ↑↓ field"), "{text}");
        let buffer = terminal.backend().buffer().clone();
        let (x, y) = (0..24)
            .flat_map(|y| (0..80).map(move |x| (x, y)))
            .find(|&(x, y)| buffer[(x, y)].symbol() == "✗" && buffer[(x + 2, y)].symbol() == "n")
            .unwrap();
        assert_eq!(buffer[(x, y)].style().fg, theme.error.fg);
        let cursor = terminal.get_cursor_position().unwrap();
        assert_eq!(buffer[(cursor.x - 2, cursor.y)].symbol(), "1");
        assert_eq!(buffer[(cursor.x - 1, cursor.y)].symbol(), "0");
    }

    #[test]
    fn override_export_and_quit_dialogs() {
        let mut app = app();
        app.mode = Mode::Override(OverridePicker {
            param: 0,
            label: "add(node)".into(),
            choices: vec!["number".into(), "string".into(), "Node".into()],
            selected: 2,
        });
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains(" Type of add(node) "), "{text}");
        assert!(text.contains("› Node"), "{text}");
        assert!(text.contains("  string"), "{text}");

        app.mode = Mode::Export(ExportForm { format: Format::Nodeunit, folder: "out/x".into(), field: 0 });
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("› Format  ‹ nodeunit ›"), "{text}");
        assert!(text.contains("  Folder  out/x"), "{text}");
        assert!(text.contains("formats: node-test · assert · nodeunit · expresso · vows"), "{text}");
        assert!(text.contains("defaults: node-test to tests/out"), "{text}");

        app.mode = Mode::ConfirmQuit;
        let text = screen(&render(&app, &dark(), 80, 24));
        assert!(text.contains("2 elected tests are not exported."), "{text}");
        assert!(text.contains("Export to tests/out before quitting?"), "{text}");
        assert!(text.contains("y export · n quit, keeping a recovery copy · esc stay"), "{text}");
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
