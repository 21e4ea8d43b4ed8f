//! The countdown to QuickJS's next interrupt check, read and set in place.
//!
//! QuickJS calls the interrupt handler when `JSContext.interrupt_counter` (not published by its C
//! interface) runs down to 0, and starts it again at 10,000 ticks; the handler counts the work a test
//! does (`engine/deadline.rs`), so the work counted depends on where the countdown stood when the test
//! began. A context reused by another sandbox carries the countdown its earlier tests left, where a new
//! context starts from the one its load left: setting it back makes the work counted, and what depends
//! on it, the same as in a new context. A context just made holds 0 (QuickJS zeroes it and sets it only
//! at the first check).

use super::{Cx, layout};

/// Offset of `interrupt_counter` in `JSContext` of the QuickJS-ng that `layout.rs` mirrors (`offsetof`
/// on a 64-bit target).
const INTERRUPT_COUNTER: usize = 548;

impl Cx<'_> {
    /// Ticks left before the next interrupt check, where the layout is the one mirrored.
    pub(crate) fn countdown(self) -> Option<i32> {
        // SAFETY: on the layout mirrored (`readable`), `INTERRUPT_COUNTER` is the offset of an `int`
        // field inside the live context this points to.
        layout::readable().then(|| unsafe { self.raw().cast::<u8>().add(INTERRUPT_COUNTER).cast::<i32>().read() })
    }

    /// Sets the ticks left before the next interrupt check (see [`Cx::countdown`]).
    pub(crate) fn set_countdown(self, ticks: i32) {
        if layout::readable() {
            // SAFETY: as in `countdown`; QuickJS reads the field only while JavaScript runs, which it
            // does not in the scope of `self`'s caller now.
            unsafe { self.raw().cast::<u8>().add(INTERRUPT_COUNTER).cast::<i32>().write(ticks) }
        }
    }
}
