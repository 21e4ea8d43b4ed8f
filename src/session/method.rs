//! The state of one method under test: its coverage, counters, stop reason and warnings, and what its
//! generation keeps between steps (constants, enumeration, search archive).

use std::ops::Range;
use std::time::Duration;

use crate::generate::exhaustive::Enumeration;
use crate::generate::guided::ConstantPool;
use crate::generate::search::Archive;
use crate::model::program::{ClassId, FunctionRef};
use crate::model::test::TestCase;
use crate::sandbox::Watch;

/// Why a method under test stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// Every statement is covered.
    Covered,
    /// The target coverage was reached.
    Target,
    /// Its work budget was spent.
    Timeout,
    /// The wall-clock cap (`--timeout`) ended it before its work budget: where it stopped depends on the
    /// machine's speed and load.
    TimeCap,
    /// Too many valid runs in a row added no coverage.
    Stale,
    /// It cannot be tested (a parameter's type cannot be inferred, or its code cannot be measured).
    Aborted,
    /// `generate --update`: its code is as the suite was written, and the suite's tests of it still pass
    /// and cover what they covered, so it is not generated again.
    Kept,
}

impl StopReason {
    /// The name used in reports: `covered`, `target`, `budget`, `time cap`, `stale`, `aborted`, `kept`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Covered => "covered",
            StopReason::Target => "target",
            StopReason::Timeout => "budget",
            StopReason::TimeCap => "time cap",
            StopReason::Stale => "stale",
            StopReason::Aborted => "aborted",
            StopReason::Kept => "kept",
        }
    }
}

/// Where a method under test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Not started.
    Pending,
    /// Being worked on.
    Running,
    /// Finished.
    Done(StopReason),
}

/// What selecting a method did (see [`crate::session::Session::select`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// It was open: it is worked on from the next step.
    Working,
    /// It had stopped for this reason: it is open again, with a fresh budget.
    Reopened(StopReason),
    /// Its code cannot be located, so it cannot be worked on.
    Untestable,
    /// No such method.
    Unknown,
}

/// The state of one method under test.
#[derive(Debug, Clone)]
pub struct MethodState {
    /// Its class.
    pub class: ClassId,
    /// Its name.
    pub method: String,
    /// Its code, when it could be located.
    pub(crate) function: Option<FunctionRef>,
    /// The private methods of its class it calls on `this` and the functions of its file it calls by name,
    /// directly or through one another, that are not under test themselves (see `helpers.rs`): their code
    /// is part of what it must cover.
    pub(crate) helpers: Vec<(String, FunctionRef)>,
    /// The functions nested in its code that other goals hold (the closures of the object a factory
    /// returns, see `helpers.rs`): left out of its own code.
    pub(crate) nested: Vec<FunctionRef>,
    /// One flag per statement, its own (less the nested functions') and then its helpers' in order:
    /// covered by an elected test.
    pub covered: Vec<bool>,
    /// One flag per branch outcome, its own (less the nested functions') and then its helpers': taken by
    /// an elected test.
    pub(crate) branches: Vec<bool>,
    /// Candidates executed.
    pub executions: u64,
    /// Valid candidates executed.
    pub(crate) valid_runs: u64,
    /// Valid runs since the last new coverage.
    pub stale: u64,
    /// Work spent on it when it last gained coverage (see `stopping.rs`).
    pub gained_at: u64,
    /// Work units spent on it (see `budget.rs`): what its budget counts.
    pub work: u64,
    /// Time spent on it (only while stepping): what its cap counts.
    pub elapsed: Duration,
    /// When it reached full coverage, in time spent on it.
    pub time_to_full: Option<Duration>,
    /// Tests elected for it.
    pub(crate) elected: usize,
    /// Failing tests logged for it.
    pub(crate) failing: usize,
    /// Where it stands.
    pub status: Status,
    /// Reopened by a person after it stopped: it runs until it is stale or out of time, even when fully
    /// covered or at the target coverage.
    pub(crate) reopened: bool,
    /// Warnings for people.
    pub(crate) warnings: Vec<String>,
    /// Candidates whose receiver was built, and those whose construction threw.
    pub(crate) constructions: (u64, u64),
    /// Constants of the method and its class, for guided inputs.
    pub(crate) constants: ConstantPool,
    /// How far the exhaustive strategies have enumerated its call sequences.
    pub(crate) enumeration: Enumeration,
    /// The closest candidates to its branch outcomes not taken yet, for search.
    pub archive: Archive,
    /// Whether guided generation handed it to search with branch distances, having stopped finding
    /// coverage on it.
    pub searching: bool,
    /// The next candidate, when the last run read objects by names they lacked: the same test with those
    /// names set (see [`crate::generate::fitted`]); and how many such candidates in a row it ends.
    pub(crate) follow_up: (Option<TestCase>, u32),
}

impl MethodState {
    /// A method not worked on yet, nothing of `function` covered.
    pub(super) fn new(class: ClassId, method: String, function: Option<FunctionRef>) -> MethodState {
        let (statements, branches) =
            function.as_ref().map(|f| (f.statements.len(), f.branches.len())).unwrap_or_default();
        MethodState {
            class,
            method,
            function,
            helpers: Vec::new(),
            nested: Vec::new(),
            covered: vec![false; statements],
            branches: vec![false; branches],
            executions: 0,
            valid_runs: 0,
            stale: 0,
            gained_at: 0,
            work: 0,
            elapsed: Duration::ZERO,
            time_to_full: None,
            elected: 0,
            failing: 0,
            status: Status::Pending,
            reopened: false,
            warnings: Vec::new(),
            constructions: (0, 0),
            constants: ConstantPool::default(),
            enumeration: Enumeration::default(),
            archive: Archive::default(),
            searching: false,
            follow_up: (None, 0),
        }
    }

    /// The names of its helpers, whose code its counts include.
    pub fn helpers(&self) -> Vec<&str> {
        self.helpers.iter().map(|(name, _)| name.as_str()).collect()
    }

    /// Covered statements.
    pub fn covered_count(&self) -> usize {
        self.covered.iter().filter(|c| **c).count()
    }

    /// Taken branch outcomes.
    pub(crate) fn branches_covered(&self) -> usize {
        self.branches.iter().filter(|c| **c).count()
    }

    /// Statement coverage in percent (100 for a method whose code could not be located).
    pub fn coverage_percent(&self) -> f64 {
        if self.covered.is_empty() { 100.0 } else { 100.0 * self.covered_count() as f64 / self.covered.len() as f64 }
    }

    /// The probes its tests read: its own code's, less the nested functions', then its helpers'.
    pub(crate) fn watch(&self) -> Watch {
        let (mut statements, mut branches) = self.own_ranges();
        for (_, f) in &self.helpers {
            statements.push(f.statements.clone());
            branches.push(f.branches.clone());
        }
        Watch { statements, branches }
    }

    /// How many statements and branch outcomes of its goal are its own code's: the first in its flags.
    pub(crate) fn own_len(&self) -> (u32, u32) {
        let (statements, branches) = self.own_ranges();
        let len = |ranges: Vec<Range<u32>>| ranges.iter().map(|r| r.len() as u32).sum();
        (len(statements), len(branches))
    }

    /// Its own code's statement and branch ids, less those of the nested functions other goals hold.
    pub(crate) fn own_ranges(&self) -> (Vec<Range<u32>>, Vec<Range<u32>>) {
        let Some(function) = &self.function else { return Default::default() };
        let statements = self.nested.iter().map(|f| f.statements.clone()).collect();
        let branches = self.nested.iter().map(|f| f.branches.clone()).collect();
        (without(&function.statements, statements), without(&function.branches, branches))
    }

    /// Makes `helpers` part of what it must cover, and `nested` no part of it; nothing is covered yet.
    pub(super) fn set_goal(&mut self, helpers: Vec<(String, FunctionRef)>, nested: Vec<FunctionRef>) {
        self.helpers = helpers;
        self.nested = nested;
        let watch = self.watch();
        let len = |ranges: &[Range<u32>]| ranges.iter().map(|r| r.len()).sum();
        self.covered = vec![false; len(&watch.statements)];
        self.branches = vec![false; len(&watch.branches)];
    }

    pub(super) fn warn(&mut self, warning: String) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }
}

/// `range` less every range of `holes`, in order.
fn without(range: &Range<u32>, mut holes: Vec<Range<u32>>) -> Vec<Range<u32>> {
    holes.sort_by_key(|h| h.start);
    let mut left = Vec::new();
    let mut from = range.start;
    for hole in holes {
        if hole.start > from {
            left.push(from..hole.start.min(range.end));
        }
        from = from.max(hole.end);
    }
    if from < range.end {
        left.push(from..range.end);
    }
    left.retain(|r| !r.is_empty());
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_holes_out_of_a_range() {
        assert_eq!(without(&(0..10), vec![]), vec![0..10]);
        assert_eq!(without(&(0..10), vec![6..8, 2..4]), vec![0..2, 4..6, 8..10]);
        assert_eq!(without(&(0..10), vec![0..3, 2..5, 9..10]), vec![5..9]);
        assert_eq!(without(&(3..3), vec![]), Vec::<Range<u32>>::new());
    }
}
