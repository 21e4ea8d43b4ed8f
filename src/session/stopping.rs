//! When a method under test stops: covered, at its target, out of work, out of time (the cap), stale, or
//! aborted because its receiver can never be built.
//!
//! Stale takes two conditions: `--max-stale` valid candidates in a row without new coverage, and a share
//! of the work budget spent since the last new coverage. A count alone stops a fast engine early: 50,000
//! candidates (the report's figure, from when a candidate took milliseconds) pass in about two seconds
//! now, and a classifier that needs a Pythagorean triple stopped one branch short at 1.4 s of a 5 s
//! budget. A share of the budget alone would let a slow method (a few candidates a second) give up after
//! a handful of tries. Both are counted, so a stale stop is the same on any machine.

use super::{MethodState, Session, Status, StopReason};
use crate::model::settings::Settings;

/// The share of its work budget a method must have spent without new coverage to be stale.
pub(super) const STALE_SHARE: f64 = 0.5;

/// Whether `m` is stale under `settings` (see the module's note).
pub(super) fn is_stale(settings: &Settings, m: &MethodState) -> bool {
    m.stale >= settings.max_stale && m.work.saturating_sub(m.gained_at) as f64 >= settings.budget as f64 * STALE_SHARE
}
use crate::model::observed::{Outcome, Thrown};
use crate::model::program::CONSTRUCTOR;
use crate::model::test::{Statement, TestCase};

/// Candidates whose receiver could not be built, with none built yet, after which a method is given
/// up: its constructor's parameters are likely typed wrongly, and only a person can tell.
const CONSTRUCTION_FAILURES: u64 = 500;

impl Session {
    /// Counts whether the candidate's receiver (and what its constructor needed) could be built, when
    /// no recording proxy took part in building it.
    pub(super) fn count_construction(&mut self, index: usize, test: &TestCase, outcome: &Outcome) {
        // Calls that put argument instances into a state may come before the receiver's construction.
        let receiver = test.asserted_instance().unwrap_or(0);
        let receiver_built_at = test
            .statements
            .iter()
            .position(|s| s.declared() == Some(receiver))
            .map_or(test.statements.len(), |at| at + 1);
        let with_proxies = test.statements[..receiver_built_at]
            .iter()
            .any(|s| s.args().iter().any(|a| matches!(a, crate::model::test::Value::Proxy(_))));
        if with_proxies {
            return;
        }
        let failed = match outcome {
            // A throw from a call that put an argument into a state says nothing about constructors.
            Outcome::Threw { at, thrown }
                if *at < receiver_built_at && matches!(test.statements[*at], Statement::Construct { .. }) =>
            {
                Some(thrown)
            }
            _ => None,
        };
        let m = &mut self.methods[index];
        match failed {
            None => m.constructions.0 += 1,
            Some(thrown) => {
                m.constructions.1 += 1;
                if m.constructions.0 == 0 && m.constructions.1 >= CONSTRUCTION_FAILURES {
                    let class = &self.subject.program.classes[m.class].name;
                    let what = match thrown {
                        Thrown::Error { name, message, .. } => format!("{name}: {message}"),
                        Thrown::Value(_) => "a non-error value".into(),
                    };
                    // A constructor under test is a goal of its users' only if they can build its class.
                    let guess = if m.method == CONSTRUCTOR {
                        "its users build it through what its module offers, or its constructor's parameter types are \
                         wrong"
                    } else {
                        "its constructor's parameter types are probably wrong"
                    };
                    m.warn(format!(
                        "aborted: every construction of {class} threw ({what}); {guess}: fix them with `o` in explore or \
                         in flycatcher.json"
                    ));
                    m.status = Status::Done(StopReason::Aborted);
                }
            }
        }
    }

    pub(super) fn stop_reason(&self, index: usize) -> Option<StopReason> {
        let m = &self.methods[index];
        if m.status == Status::Done(StopReason::Aborted) {
            return Some(StopReason::Aborted);
        }
        let covered = m.covered.iter().all(|c| *c);
        let limit = if m.work >= self.settings.budget {
            Some(StopReason::Timeout)
        } else if m.elapsed >= self.settings.timeout {
            Some(StopReason::TimeCap)
        } else if is_stale(&self.settings, m) {
            Some(StopReason::Stale)
        } else {
            None
        };
        if m.reopened {
            // A reopened method runs until a limit; when it ends, it says how far it got.
            return limit.map(|reason| if covered { StopReason::Covered } else { reason });
        }
        if covered {
            Some(StopReason::Covered)
        } else if m.coverage_percent() >= self.settings.target_coverage {
            Some(StopReason::Target)
        } else {
            limit
        }
    }

    pub(super) fn abort_unlocatable(&mut self) {
        for m in &mut self.methods {
            if m.function.is_none() {
                m.warn("aborted: its code cannot be located for coverage (a native or bound function?)".into());
                m.status = Status::Done(StopReason::Aborted);
            }
        }
    }
}
