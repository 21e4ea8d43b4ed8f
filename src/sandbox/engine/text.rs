//! A JavaScript string's text read through the C interface, for what Rust keeps of a test (the
//! descriptions of its results, its log), within a budget.
//!
//! These came as JSON, which the harness made within the test's memory limit: a result or a pattern's
//! subject of a hundred megabytes ended the read as out of memory, and the test was never elected with
//! it. Read from the objects, nothing bounds them but this: the text taken from one test's log and
//! results together is at most a quarter of the test's memory limit, and past it the read ends as out
//! of memory, as it did.

use std::cell::Cell;

use rquickjs::{Ctx, Value};

use crate::sandbox::qjs::{Cx, Ref};

/// What is left of the text a read may take, in bytes of UTF-8.
pub(super) struct TextBudget(Cell<usize>);

impl TextBudget {
    /// The budget of a test whose memory limit is `memory` bytes.
    pub(super) fn of_memory(memory: usize) -> TextBudget {
        TextBudget(Cell::new(memory / 4))
    }

    /// The whole budget again, for the next test.
    pub(super) fn refill(&self, memory: usize) {
        self.0.set(memory / 4);
    }

    /// Takes `length` bytes if they fit in what is left; false (and nothing taken) if not.
    pub(super) fn take(&self, length: usize) -> bool {
        let left = self.0.get();
        if length > left {
            return false;
        }
        self.0.set(left - length);
        true
    }
}

/// Why a text was not read: it passes what is left of the budget. Its message says out of memory, which
/// is how a run's outcome reads it (a limit, not evidence of anything the code does).
pub(super) fn too_large() -> rquickjs::Error {
    rquickjs::Error::new_from_js_message(
        "text",
        "descriptions",
        "out of memory: a test's results or log past a quarter of its memory limit",
    )
}

/// The UTF-8 QuickJS makes of `value` (a lone surrogate written as if it were a character) given to
/// `read`; `Ok(None)` when `value` is not a string.
pub(super) fn with_text<'js, T>(
    ctx: &Ctx<'js>,
    value: &Value<'js>,
    budget: &TextBudget,
    read: impl FnOnce(&[u8]) -> T,
) -> rquickjs::Result<Option<T>> {
    if !value.is_string() {
        return Ok(None);
    }
    let text = Cx::of(ctx).text(Ref::of(value))?;
    let bytes = text.bytes();
    if budget.take(bytes.len()) { Ok(Some(read(bytes))) } else { Err(too_large()) }
}
