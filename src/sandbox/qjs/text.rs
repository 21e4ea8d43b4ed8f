//! Bytes QuickJS holds, read in place: a string's UTF-8 ([`CText`]) and a typed array's buffer
//! ([`with_bytes`]).

use std::ffi::c_char;

use rquickjs::{TypedArray, qjs};

use super::{AtomRef, Cx, Ref, Step, Thrown};

/// The UTF-8 QuickJS made of a string or a key (a lone surrogate written as if it were a character),
/// freed when dropped.
pub(crate) struct CText<'js> {
    cx: Cx<'js>,
    text: *const c_char,
    length: usize,
}

impl CText<'_> {
    /// The bytes.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: QuickJS made `length` bytes at `text`, alive until `drop` frees them.
        unsafe { std::slice::from_raw_parts(self.text.cast::<u8>(), self.length) }
    }
}

impl Drop for CText<'_> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: a C string QuickJS made in this live context, freed once.
        unsafe { qjs::JS_FreeCString(self.cx.raw(), self.text) }
    }
}

impl<'js> Cx<'js> {
    /// The text of `value`, converted as `String(value)` would (a string's is itself).
    #[inline]
    pub(crate) fn text(self, value: Ref<'_, 'js>) -> Step<CText<'js>> {
        let mut length = 0;
        // SAFETY: a live context and one of its values; the C string made goes to the answer.
        let text = unsafe { qjs::JS_ToCStringLen2(self.raw(), &mut length, value.raw(), false) };
        self.c_text(text, length as usize)
    }

    /// The text of a key: a string key as is, a symbol as its description.
    #[inline]
    pub(crate) fn key_text(self, key: AtomRef<'_, 'js>) -> Step<CText<'js>> {
        let mut length = 0;
        // SAFETY: a live context and a live atom; the C string made goes to the answer.
        let text = unsafe { qjs::JS_AtomToCStringLen(self.raw(), &mut length, key.raw()) };
        self.c_text(text, length as usize)
    }

    #[inline]
    fn c_text(self, text: *const c_char, length: usize) -> Step<CText<'js>> {
        if text.is_null() {
            return Err(Thrown);
        }
        Ok(CText { cx: self, text, length })
    }
}

/// Gives `f` the bytes of `array`'s elements, if its buffer is attached (user code may have detached
/// it: `__fc$s.buffer.transfer()`); answers whether it was. `f` is `Send`, so it holds no handle of
/// QuickJS (none is): it cannot run JavaScript while it has the bytes.
pub(crate) fn with_bytes<T>(array: &TypedArray<T>, f: impl FnOnce(&mut [u8]) + Send) -> bool {
    let Some(raw) = array.as_raw() else { return false };
    // SAFETY: `as_raw` has just checked that the buffer is attached, and the slice lives only while `f`
    // runs, which cannot run JavaScript (it holds no QuickJS handle, see above) that could detach or
    // resize it; nothing else reads or writes it meanwhile (QuickJS runs on this thread only).
    f(unsafe { &mut *raw.as_ptr() });
    true
}
