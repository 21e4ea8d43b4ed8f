//! [`Thrown`]: an exception QuickJS left pending in the context.

use rquickjs::qjs;

use super::{Cx, Owned};

/// A read, a call or a listing threw (a proxy's trap, a getter, a module's binding not initialised
/// yet): the exception is pending in the context, for the caller to take, dismiss, or pass on.
#[derive(Debug)]
#[must_use = "the exception stays pending in the context"]
pub(crate) struct Thrown;

/// A step that may throw.
pub(crate) type Step<T> = std::result::Result<T, Thrown>;

impl Thrown {
    /// Takes the pending exception.
    #[inline]
    pub(crate) fn take<'js>(self, cx: Cx<'js>) -> Owned<'js> {
        // SAFETY: a live context; `JS_GetException` answers a new reference (`undefined` when none is
        // pending), which the answer frees.
        unsafe { Owned::take(cx, qjs::JS_GetException(cx.raw())) }
            .unwrap_or_else(|Thrown| unreachable!("JS_GetException answers the exception, never the exception marker"))
    }

    /// Takes the pending exception and lets it go: the caller answers as if nothing was there.
    #[inline]
    pub(crate) fn dismiss(self, cx: Cx<'_>) {
        drop(self.take(cx));
    }

    /// Takes a catchable exception and lets it go; an uncatchable one (the deadline's interrupt, out
    /// of memory) is thrown again, and goes on up.
    pub(crate) fn dismiss_catchable(self, cx: Cx<'_>) -> Result<(), Thrown> {
        let exception = self.take(cx);
        if exception.get().is_uncatchable() {
            return Err(Thrown::throw(exception));
        }
        Ok(())
    }

    /// Throws `value` (its reference goes to the context).
    pub(crate) fn throw(value: Owned<'_>) -> Thrown {
        let (cx, raw) = value.into_raw();
        // SAFETY: a live context; `JS_Throw` takes the reference.
        unsafe { qjs::JS_Throw(cx.raw(), raw) };
        Thrown
    }

    /// Throws a `TypeError` with `message`.
    pub(crate) fn type_error(cx: Cx<'_>, message: &std::ffi::CStr) -> Thrown {
        // SAFETY: a live context, a format that takes one C string, and that string, alive through the
        // call (QuickJS copies the message).
        unsafe { qjs::JS_ThrowTypeError(cx.raw(), c"%s".as_ptr(), message.as_ptr()) };
        Thrown
    }
}

impl From<Thrown> for rquickjs::Error {
    #[inline]
    fn from(Thrown: Thrown) -> rquickjs::Error {
        rquickjs::Error::Exception
    }
}
