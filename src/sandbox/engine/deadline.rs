//! The time a running evaluation must stop at, which QuickJS's interrupt handler checks about every
//! 20 µs of JavaScript.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The time a running evaluation must stop at, checked by QuickJS's interrupt handler.
pub(crate) struct Deadline {
    pub(super) epoch: Instant,
    /// Nanoseconds after `epoch`; `u64::MAX` when no limit is set.
    pub(super) at: AtomicU64,
}

impl Deadline {
    pub(crate) fn new() -> Deadline {
        Deadline { epoch: Instant::now(), at: AtomicU64::new(u64::MAX) }
    }

    pub(super) fn set(&self, limit: Duration) {
        let at = self.epoch.elapsed().saturating_add(limit).as_nanos().min(u64::MAX as u128 - 1) as u64;
        self.at.store(at, Ordering::Relaxed);
    }

    pub(super) fn clear(&self) {
        self.at.store(u64::MAX, Ordering::Relaxed);
    }

    pub(super) fn passed(&self) -> bool {
        let at = self.at.load(Ordering::Relaxed);
        at != u64::MAX && self.epoch.elapsed().as_nanos() as u64 >= at
    }
}
