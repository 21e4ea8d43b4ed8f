//! The run's recent past, kept by the session thread: the last candidates with their step reports, to
//! browse and step back through, and each method's coverage over time (for its sparkline), recorded at
//! every change.

use std::collections::VecDeque;

use crate::session::{MethodState, StepReport};

/// Candidates kept.
pub(crate) const HISTORY: usize = 100;

/// The last candidates and each method's coverage over time.
#[derive(Debug, Default)]
pub(crate) struct History {
    /// (step, report), oldest first.
    reports: VecDeque<(u64, StepReport)>,
    /// Per method: (candidates of it executed, statements covered) at each change of coverage.
    progress: Vec<Vec<(u64, usize)>>,
}

impl History {
    /// Records step `iteration`, which worked on one of `methods` (the methods under test, as the
    /// step left them).
    pub(crate) fn record(&mut self, iteration: u64, methods: &[MethodState], report: StepReport) {
        let method = report.method;
        if self.reports.len() == HISTORY {
            self.reports.pop_front();
        }
        self.reports.push_back((iteration, report));
        if self.progress.len() < methods.len() {
            self.progress.resize(methods.len(), Vec::new());
        }
        let m = &methods[method];
        let covered = m.covered_count();
        let points = &mut self.progress[method];
        if points.last().map_or(0, |p| p.1) != covered {
            points.push((m.executions, covered));
        }
    }

    /// The candidates kept, oldest first, with their steps.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &(u64, StepReport)> {
        self.reports.iter()
    }

    /// The candidate of step `step`, if still kept.
    pub(crate) fn at_step(&self, step: u64) -> Option<&StepReport> {
        self.reports.iter().find(|(s, _)| *s == step).map(|(_, r)| r)
    }

    /// The latest candidate kept for method `method`.
    pub(crate) fn latest_of(&self, method: usize) -> Option<&StepReport> {
        self.reports.iter().rev().map(|(_, r)| r).find(|r| r.method == method)
    }

    /// Method `method`'s coverage over time: (candidates executed, statements covered) at each change.
    pub(crate) fn progress(&self, method: usize) -> &[(u64, usize)] {
        self.progress.get(method).map_or(&[], Vec::as_slice)
    }
}
