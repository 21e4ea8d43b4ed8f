//! A method's source as the panes show it: its lines, each with the statements (offsets in the method)
//! that start on it, so that any set of statements (covered by the suite, run by one candidate) can mark
//! the lines; and the coverage view of the method under work built on it.

use std::collections::BTreeMap;

use crate::sandbox::CodeBase;
use crate::session::MethodState;

use super::{BranchRow, CoverageView, LineMark, SourceLine};

/// A line of a method's source.
pub(crate) struct MethodLine {
    /// 1-based line number in the file.
    pub(crate) number: u32,
    /// Text.
    pub(crate) text: String,
    /// Offsets in the method of the statements that start on it.
    pub statements: Vec<usize>,
}

/// The source lines in `code` of the method under test `method`, from its first line to the line after
/// its last statement; empty when its code cannot be located.
pub(crate) fn method_lines(code: &CodeBase, method: &MethodState) -> Vec<MethodLine> {
    let Some(function) = &method.function else { return Vec::new() };
    let file = &code.files[function.file];
    let statements = &file.instrumented.statements;
    let local = |id: u32| (id - file.statements.start) as usize;
    let mut on_line: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    // Its own statements less the nested functions other goals hold, as its flags count them.
    let (own, _) = method.own_ranges();
    for (offset, id) in own.into_iter().flatten().enumerate() {
        if let Some(statement) = statements.get(local(id)) {
            on_line.entry(statement.line).or_default().push(offset);
        }
    }
    let first = function.line;
    let last = statements
        .get(local(function.statements.end.saturating_sub(1).max(function.statements.start)))
        .map(|s| file.entry.parsed.line_col(swc_common::BytePos(file.entry.parsed.source.start_pos.0 + s.end)).0 as u32)
        .unwrap_or(first)
        .max(first)
        + 1;
    file.entry
        .parsed
        .text()
        .lines()
        .enumerate()
        .map(|(i, line)| (i as u32 + 1, line))
        .filter(|(n, _)| (first..=last).contains(n))
        .map(|(number, text)| MethodLine {
            number,
            text: text.to_string(),
            statements: on_line.remove(&number).unwrap_or_default(),
        })
        .collect()
}

/// How a line fares when the statements for which `flag` holds ran.
pub(crate) fn line_mark(statements: &[usize], flag: impl Fn(usize) -> bool) -> LineMark {
    match statements.iter().filter(|s| flag(**s)).count() {
        _ if statements.is_empty() => LineMark::Plain,
        n if n == statements.len() => LineMark::Covered,
        0 => LineMark::Uncovered,
        _ => LineMark::Partial,
    }
}

/// The coverage of the method under test `state` by the elected tests: cells, marked source (in
/// `code`) and branch outcomes.
pub(super) fn coverage_view(code: &CodeBase, state: &MethodState) -> CoverageView {
    let Some(function) = &state.function else {
        return CoverageView { cells: state.covered.clone(), ..CoverageView::default() };
    };
    let covered = |offset: usize| state.covered.get(offset).copied().unwrap_or(false);
    let source = method_lines(code, state)
        .into_iter()
        .map(|line| SourceLine { number: line.number, mark: line_mark(&line.statements, covered), text: line.text })
        .collect();
    let file = &code.files[function.file];
    let (_, own) = state.own_ranges();
    let branches = own
        .into_iter()
        .flatten()
        .filter_map(|id| file.instrumented.branches.get(id.checked_sub(file.branches.start)? as usize))
        .zip(&state.branches)
        .map(|(b, taken)| BranchRow {
            line: b.line,
            outcome: b.outcome.clone(),
            condition: b.condition.clone(),
            taken: *taken,
        })
        .collect();
    let helpers = state.helpers().into_iter().map(String::from).collect();
    CoverageView { cells: state.covered.clone(), helpers, source, branches }
}
