//! The harness's typed arrays, read and written in place from Rust: the statement and branch probes, the
//! index of the statement running and the shared-write flag. Both the runner (`run.rs`) and the
//! statements Rust performs itself (`direct.rs`) use them.

use rquickjs::TypedArray;

use crate::sandbox::qjs::with_bytes;

/// Gives `f` the bytes of the elements in `range` of the harness's typed `array` of `T`s.
pub(super) fn probes<T>(
    array: TypedArray<T>,
    range: std::ops::Range<u32>,
    f: impl FnOnce(&mut [u8]) + Send,
) -> rquickjs::Result<()> {
    if range.is_empty() {
        return Ok(());
    }
    with_bytes(&array, |bytes| {
        let width = std::mem::size_of::<T>();
        let end = (range.end as usize * width).min(bytes.len());
        let start = (range.start as usize * width).min(end);
        f(&mut bytes[start..end]);
    });
    Ok(())
}

/// The harness's index of the statement running (see [`AT`](crate::js::AT)), which Rust reads after a limit cut a test
/// off; `None` if user code detached its buffer.
pub(super) fn statement_running(running: &TypedArray<u32>) -> Option<usize> {
    let mut at = None;
    let _ = probes(running.clone(), 0..1, |bytes| at = bytes.try_into().ok().map(u32::from_ne_bytes));
    at.map(|at| at as usize)
}

/// Sets the harness's index of the statement running, for a test whose statements Rust performs.
pub(super) fn set_statement_running(running: &TypedArray<u32>, at: usize) {
    let _ = probes(running.clone(), 0..1, |bytes| {
        if let Ok(slot) = <&mut [u8; 4]>::try_from(bytes) {
            *slot = (at as u32).to_ne_bytes();
        }
    });
}
