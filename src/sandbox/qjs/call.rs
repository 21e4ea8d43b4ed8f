//! Calls and conversions that may run JavaScript: `f(x)`, `Number(x)`, `String(x)`, `instanceof`.

use rquickjs::qjs;

use super::{Cx, Owned, Ref, Step, Thrown};

impl<'js> Cx<'js> {
    /// `f(argument)`, with `this` undefined.
    #[inline]
    pub(crate) fn call(self, f: Ref<'_, 'js>, argument: Ref<'_, 'js>) -> Step<Owned<'js>> {
        let mut args = [argument.raw()];
        // SAFETY: a live context and its values; the call borrows its arguments (it writes nothing to
        // the array) and answers a new reference, which goes to the answer.
        unsafe {
            let this = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
            Owned::take(self, qjs::JS_Call(self.raw(), f.raw(), this, 1, args.as_mut_ptr()))
        }
    }

    /// `Number(value)` (`valueOf` may run).
    #[inline]
    pub(crate) fn to_f64(self, value: Ref<'_, 'js>) -> Step<f64> {
        let mut n = f64::NAN;
        // SAFETY: a live context and one of its values; the number is written to a local.
        if unsafe { qjs::JS_ToFloat64(self.raw(), &mut n, value.raw()) } < 0 {
            return Err(Thrown);
        }
        Ok(n)
    }

    /// `String(value)` as `ToString` makes it (no `Symbol.toPrimitive` of a symbol).
    #[inline]
    pub(crate) fn to_string(self, value: Ref<'_, 'js>) -> Step<Owned<'js>> {
        // SAFETY: a live context and one of its values; the new reference goes to the answer.
        unsafe { Owned::take(self, qjs::JS_ToString(self.raw(), value.raw())) }
    }

    /// Whether `ToBoolean(value)` is true.
    #[inline]
    pub(crate) fn truthy(self, value: Ref<'_, 'js>) -> bool {
        // SAFETY: a live context and one of its values.
        unsafe { qjs::JS_ToBool(self.raw(), value.raw()) == 1 }
    }

    /// `a === b`.
    #[inline]
    pub(crate) fn strict_eq(self, a: Ref<'_, 'js>, b: Ref<'_, 'js>) -> bool {
        // SAFETY: a live context and two of its values.
        unsafe { qjs::JS_IsStrictEqual(self.raw(), a.raw(), b.raw()) }
    }

    /// `value instanceof constructor`.
    #[inline]
    pub(crate) fn instance_of(self, value: Ref<'_, 'js>, constructor: Ref<'_, 'js>) -> Step<bool> {
        // SAFETY: a live context and two of its values.
        match unsafe { qjs::JS_IsInstanceOf(self.raw(), value.raw(), constructor.raw()) } {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Thrown),
        }
    }
}
