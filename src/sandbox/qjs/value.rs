//! Values: [`Owned`] (a reference, freed when dropped) and [`Ref`] (borrowed from what holds one).

use std::marker::PhantomData;

use rquickjs::qjs;

use super::{Cx, Step, Thrown};

/// A reference to a value of the context `'js`, freed when dropped.
pub(crate) struct Owned<'js> {
    cx: Cx<'js>,
    raw: qjs::JSValue,
}

/// A value borrowed for `'a` from a reference of the context `'js` that something else holds.
#[derive(Clone, Copy)]
pub(crate) struct Ref<'a, 'js> {
    raw: qjs::JSValue,
    _borrow: PhantomData<(&'a (), Cx<'js>)>,
}

/// What a value is, by its tag, with the payload of what has no reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Undefined,
    Null,
    Boolean(bool),
    Int(i32),
    Float(f64),
    String,
    BigInt,
    Symbol,
    Object,
    /// A tag no value the engine reads has (a module, bytecode, an uninitialised binding).
    Other,
}

impl<'js> Owned<'js> {
    /// Takes the reference `raw` (of `cx`'s context), or the pending exception when `raw` says one was
    /// thrown.
    ///
    /// # Safety
    /// `raw` is a new reference of `cx`'s context (or `JS_EXCEPTION`), given to the answer.
    #[inline]
    pub(super) unsafe fn take(cx: Cx<'js>, raw: qjs::JSValue) -> Step<Owned<'js>> {
        // SAFETY: reading a JSValue's tag only looks at the struct's fields.
        if unsafe { qjs::JS_VALUE_GET_NORM_TAG(raw) } == qjs::JS_TAG_EXCEPTION {
            return Err(Thrown);
        }
        Ok(Owned { cx, raw })
    }

    /// A new reference of what `value` refers to.
    #[inline]
    pub(crate) fn dup(cx: Cx<'js>, value: Ref<'_, 'js>) -> Owned<'js> {
        // SAFETY: `value` is a live value of `cx`'s context; the new reference goes to the answer.
        Owned { cx, raw: unsafe { qjs::JS_DupValue(cx.raw(), value.raw) } }
    }

    /// Its context.
    #[inline]
    pub(super) fn cx(&self) -> Cx<'js> {
        self.cx
    }

    /// The value, borrowed from this reference.
    #[inline]
    pub(crate) fn get(&self) -> Ref<'_, 'js> {
        Ref { raw: self.raw, _borrow: PhantomData }
    }

    /// The reference, handed to rquickjs.
    #[inline]
    pub(crate) fn into_value(self) -> rquickjs::Value<'js> {
        let (cx, raw) = self.into_raw();
        // SAFETY: the reference this held, of `cx`'s live context, given to the `Value`.
        unsafe { rquickjs::Value::from_raw(cx.ctx(), raw) }
    }

    /// The context and the reference, no longer freed here.
    #[inline]
    pub(super) fn into_raw(self) -> (Cx<'js>, qjs::JSValue) {
        let this = std::mem::ManuallyDrop::new(self);
        (this.cx, this.raw)
    }
}

impl Drop for Owned<'_> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the one reference this holds, of a context alive for `'js`.
        unsafe { qjs::JS_FreeValue(self.cx.raw(), self.raw) }
    }
}

impl<'a, 'js> Ref<'a, 'js> {
    /// A value of the context `'js`, borrowed from an rquickjs handle.
    #[inline]
    pub(crate) fn of(value: &'a rquickjs::Value<'js>) -> Ref<'a, 'js> {
        Ref { raw: value.as_raw(), _borrow: PhantomData }
    }

    /// Borrows `raw`, which something holds a reference to for `'a`.
    ///
    /// # Safety
    /// `raw` is a value of the context `'js`, alive for `'a`.
    #[inline]
    pub(super) unsafe fn borrow(raw: qjs::JSValue) -> Ref<'a, 'js> {
        Ref { raw, _borrow: PhantomData }
    }

    /// The raw value, for the blocks of this module.
    #[inline]
    pub(super) fn raw(self) -> qjs::JSValue {
        self.raw
    }

    /// What the value is.
    #[inline]
    pub(crate) fn kind(self) -> Kind {
        // SAFETY: reading a JSValue's tag and payload only looks at the struct's fields; the payload is
        // read as what the tag says it is.
        unsafe {
            match qjs::JS_VALUE_GET_NORM_TAG(self.raw) {
                qjs::JS_TAG_UNDEFINED => Kind::Undefined,
                qjs::JS_TAG_NULL => Kind::Null,
                qjs::JS_TAG_BOOL => Kind::Boolean(qjs::JS_VALUE_GET_BOOL(self.raw)),
                qjs::JS_TAG_INT => Kind::Int(qjs::JS_VALUE_GET_INT(self.raw)),
                qjs::JS_TAG_FLOAT64 => Kind::Float(qjs::JS_VALUE_GET_FLOAT64(self.raw)),
                qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => Kind::String,
                qjs::JS_TAG_BIG_INT | qjs::JS_TAG_SHORT_BIG_INT => Kind::BigInt,
                qjs::JS_TAG_SYMBOL => Kind::Symbol,
                qjs::JS_TAG_OBJECT => Kind::Object,
                _ => Kind::Other,
            }
        }
    }

    /// Whether it is an object (functions included).
    #[inline]
    pub(crate) fn is_object(self) -> bool {
        // SAFETY: reading a JSValue's tag only looks at the struct's fields.
        unsafe { qjs::JS_VALUE_GET_TAG(self.raw) == qjs::JS_TAG_OBJECT }
    }

    /// Whether it is `undefined`.
    #[inline]
    pub(crate) fn is_undefined(self) -> bool {
        // SAFETY: as in `is_object`.
        unsafe { qjs::JS_IsUndefined(self.raw) }
    }

    /// Whether it is `null`.
    #[inline]
    pub(crate) fn is_null(self) -> bool {
        // SAFETY: as in `is_object`.
        unsafe { qjs::JS_IsNull(self.raw) }
    }

    /// Whether it is a proxy.
    #[inline]
    pub(crate) fn is_proxy(self) -> bool {
        // SAFETY: `JS_IsProxy` reads the value's tag, and an object's class, of a live value.
        unsafe { qjs::JS_IsProxy(self.raw) }
    }

    /// Whether it is an array (not looking through a proxy).
    #[inline]
    pub(crate) fn is_array(self) -> bool {
        // SAFETY: as in `is_proxy`.
        unsafe { qjs::JS_IsArray(self.raw) }
    }

    /// Whether it is an error object: made by an error constructor (the `[[ErrorData]]` slot), whatever
    /// its prototype is now.
    #[inline]
    pub(crate) fn is_error(self) -> bool {
        // SAFETY: as in `is_proxy`.
        unsafe { qjs::JS_IsError(self.raw) }
    }

    /// Whether it is a typed array.
    #[inline]
    pub(crate) fn is_typed_array(self) -> bool {
        // SAFETY: as in `is_proxy`.
        unsafe { qjs::JS_GetTypedArrayType(self.raw) >= 0 }
    }

    /// Whether it is an error no code can catch (an interrupt, out of memory).
    #[inline]
    pub(crate) fn is_uncatchable(self) -> bool {
        // SAFETY: as in `is_proxy`.
        unsafe { qjs::JS_IsUncatchableError(self.raw) }
    }

    /// An object's identity while it is alive (its address), or `None` for anything else.
    #[inline]
    pub(crate) fn identity(self) -> Option<usize> {
        // SAFETY: as in `is_object`; an object's payload is its pointer.
        self.is_object().then(|| unsafe { qjs::JS_VALUE_GET_PTR(self.raw) } as usize)
    }

    /// Same value, by identity: the same object (or string, or other counted value), or the same
    /// primitive bits.
    #[inline]
    pub(crate) fn same(self, other: Ref<'_, 'js>) -> bool {
        same_bits(self.raw, other.raw)
    }
}

/// Same value, by identity (see [`Ref::same`]); also what `layout.rs` compares a slot with.
#[inline]
pub(super) fn same_bits(a: qjs::JSValue, b: qjs::JSValue) -> bool {
    // SAFETY: reading a JSValue's tag and payload only looks at the struct's fields.
    unsafe {
        let tag = qjs::JS_VALUE_GET_TAG(a);
        if tag != qjs::JS_VALUE_GET_TAG(b) {
            return false;
        }
        if qjs::JS_VALUE_HAS_REF_COUNT(a) {
            qjs::JS_VALUE_GET_PTR(a) == qjs::JS_VALUE_GET_PTR(b)
        } else if qjs::JS_TAG_IS_FLOAT64(tag) {
            qjs::JS_VALUE_GET_FLOAT64(a).to_bits() == qjs::JS_VALUE_GET_FLOAT64(b).to_bits()
        } else {
            qjs::JS_VALUE_GET_INT(a) == qjs::JS_VALUE_GET_INT(b)
        }
    }
}
