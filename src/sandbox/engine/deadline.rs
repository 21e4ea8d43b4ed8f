//! The time a running evaluation must stop at, which QuickJS's interrupt handler checks about every
//! 20 µs of JavaScript, and the work it may do.
//!
//! QuickJS calls the handler once every 10,000 function calls, jumps (forward conditional ones too) and
//! array element stores (a probe is one, its first store in a test two: see `instrument/marks.rs`):
//! counting those calls measures the work a test did the same way on any machine, however loaded. A
//! limit on that count is what lets a decision that depends on how long a test runs (the mutation
//! analysis's "a mutant that takes ten times its original's work loops") give the same answer, and so
//! the same suite, on a busy machine as on a quiet one; the time limit stays as the bound a person set.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Interrupt checks in about a millisecond of JavaScript (one every 20 µs or so): converts the time
/// limits a person sets into work limits of the same order.
pub const WORK_PER_MS: u64 = 50;

/// Elements a built-in's own loop visits for one interrupt check's worth of work (see
/// [`Deadline::charge`]): one step of such a loop costs about what one of the 10,000 calls and jumps
/// between two checks does.
const ELEMENTS_PER_CHECK: u64 = 10_000;

/// Nanoseconds one step of a built-in's own loop takes, rounded up: 14 to 27 ns measured for
/// `reverse`, `indexOf`, `includes`, `join`, `slice`, `forEach` and `sort` on sparse arrays.
const NANOS_PER_ELEMENT: u64 = 30;

/// The time a running evaluation must stop at, checked by QuickJS's interrupt handler.
pub(crate) struct Deadline {
    pub(super) epoch: Instant,
    /// Nanoseconds after `epoch`; `u64::MAX` when no limit is set.
    pub(super) at: AtomicU64,
    /// Interrupt checks since the last [`Deadline::set`].
    work: AtomicU64,
    /// Most interrupt checks allowed since the last [`Deadline::set`]; `u64::MAX` when no limit is set.
    most_work: AtomicU64,
    /// Whether the time limit, not the work limit, ended the evaluation started by the last
    /// [`Deadline::set`].
    by_time: AtomicBool,
}

impl Deadline {
    pub(crate) fn new() -> Deadline {
        Deadline {
            epoch: Instant::now(),
            at: AtomicU64::new(u64::MAX),
            work: AtomicU64::new(0),
            most_work: AtomicU64::new(u64::MAX),
            by_time: AtomicBool::new(false),
        }
    }

    /// Starts a limited evaluation: at most `limit` from now, and no work limit until
    /// [`Deadline::limit_work`].
    pub(super) fn set(&self, limit: Duration) {
        let at = self.epoch.elapsed().saturating_add(limit).as_nanos().min(u64::MAX as u128 - 1) as u64;
        self.work.store(0, Ordering::Relaxed);
        self.most_work.store(u64::MAX, Ordering::Relaxed);
        self.by_time.store(false, Ordering::Relaxed);
        self.at.store(at, Ordering::Relaxed);
    }

    /// Starts a further limited evaluation that belongs to the last one (the jobs a test left): at most
    /// `limit` from now, and `work` more interrupt checks if given, the work counting on.
    pub(super) fn resume(&self, limit: Duration, work: Option<u64>) {
        let done = self.work();
        self.set(limit);
        self.work.store(done, Ordering::Relaxed);
        if let Some(work) = work {
            self.limit_work(done.saturating_add(work));
        }
    }

    /// Also stops the evaluation started by the last [`Deadline::set`] after `work` interrupt checks.
    pub(super) fn limit_work(&self, work: u64) {
        self.most_work.store(work, Ordering::Relaxed);
    }

    /// Ends the limits; [`Deadline::work`] still answers for the evaluation that ended.
    pub(super) fn clear(&self) {
        self.at.store(u64::MAX, Ordering::Relaxed);
        self.most_work.store(u64::MAX, Ordering::Relaxed);
    }

    /// Interrupt checks since the last [`Deadline::set`].
    pub(super) fn work(&self) -> u64 {
        self.work.load(Ordering::Relaxed)
    }

    /// QuickJS's interrupt handler: counts the check, then answers [`Deadline::passed`].
    pub(super) fn check(&self) -> bool {
        self.work.fetch_add(1, Ordering::Relaxed);
        self.passed()
    }

    /// Charges a loop over `elements` that a built-in is about to run in C, where QuickJS checks no
    /// interrupt (`Array.prototype.reverse` on an array whose `length` was set to a billion runs for
    /// minutes): counted as work, and when the loop could not end within the limits of the running
    /// evaluation, the deadline is moved to now and the answer is true; the caller then loops in
    /// JavaScript, where the next check ends the evaluation as one that ran to its limit. Without a
    /// limit (Flycatcher's own setup) nothing is charged.
    pub(super) fn charge(&self, elements: u64) -> bool {
        let at = self.at.load(Ordering::Relaxed);
        if elements < ELEMENTS_PER_CHECK || at == u64::MAX {
            return false;
        }
        let checks = elements / ELEMENTS_PER_CHECK;
        let most = self.most_work.load(Ordering::Relaxed);
        let before = self.work.load(Ordering::Relaxed);
        let ends_at =
            (self.epoch.elapsed().as_nanos() as u64).saturating_add(elements.saturating_mul(NANOS_PER_ELEMENT));
        let beyond_work = before.saturating_add(checks) > most;
        let refused = beyond_work || ends_at >= at;
        if refused && !beyond_work {
            self.by_time.store(true, Ordering::Relaxed);
        }
        // A loop refused never runs: the evaluation ends as one that reached its work limit, and is
        // charged that much rather than the whole loop (a test's run then costs what any test that
        // reaches the limit costs, not the loop's billion steps).
        let charged = if refused { checks.min(most.saturating_add(1).saturating_sub(before)) } else { checks };
        self.work.fetch_add(charged, Ordering::Relaxed);
        if refused {
            self.at.store(0, Ordering::Relaxed);
        }
        refused
    }

    /// Whether the time limit passed or the work limit was reached.
    pub(super) fn passed(&self) -> bool {
        if self.work.load(Ordering::Relaxed) > self.most_work.load(Ordering::Relaxed) {
            return true;
        }
        let at = self.at.load(Ordering::Relaxed);
        let late = at != u64::MAX && self.epoch.elapsed().as_nanos() as u64 >= at;
        if late {
            self.by_time.store(true, Ordering::Relaxed);
        }
        late
    }

    /// Whether the time limit, not the work limit, ended the last evaluation (see [`Deadline::passed`]):
    /// the machine did not get through the work the limit allows in time, so a quieter one would have
    /// let it go on.
    pub(super) fn ended_by_time(&self) -> bool {
        self.by_time.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_the_time_limit_ends_says_so_and_one_its_work_limit_ends_does_not() {
        let deadline = Deadline::new();
        deadline.set(Duration::ZERO);
        assert!(deadline.check());
        assert!(deadline.ended_by_time());
        // A new evaluation forgets it; its work limit ends it long before its time.
        deadline.set(Duration::from_secs(3600));
        deadline.limit_work(1);
        assert!(!deadline.check());
        assert!(deadline.check());
        assert!(!deadline.ended_by_time());
        // A built-in's loop refused because it could not end in time, though its work would fit.
        deadline.set(Duration::from_nanos(1));
        assert!(deadline.charge(10 * ELEMENTS_PER_CHECK));
        assert!(deadline.ended_by_time());
    }
}
