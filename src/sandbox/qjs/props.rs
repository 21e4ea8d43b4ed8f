//! Properties read through the C interface: own [`Descriptor`]s, reads, and the object questions the
//! engine asks (a prototype, a length, a class).

use std::ffi::CStr;

use rquickjs::qjs;

use super::{AtomRef, Cx, Owned, Ref, Step, Thrown};

/// An own property's descriptor, its references (value, getter, setter) freed when dropped.
pub(crate) struct Descriptor<'js> {
    cx: Cx<'js>,
    d: qjs::JSPropertyDescriptor,
}

/// The attributes of a property as a descriptor has them (`JS_PROP_...`), compared as a whole.
pub(crate) type Attributes = i32;

impl<'js> Descriptor<'js> {
    /// The attributes (with `JS_PROP_GETSET` for an accessor).
    #[inline]
    pub(crate) fn attributes(&self) -> Attributes {
        self.d.flags
    }

    /// Whether it is an accessor.
    #[inline]
    pub(crate) fn is_accessor(&self) -> bool {
        self.d.flags & qjs::JS_PROP_GETSET as i32 != 0
    }

    /// Whether it is enumerable.
    #[inline]
    pub(crate) fn is_enumerable(&self) -> bool {
        self.d.flags & qjs::JS_PROP_ENUMERABLE as i32 != 0
    }

    /// A data property's value (`undefined` for an accessor).
    #[inline]
    pub(crate) fn value(&self) -> Ref<'_, 'js> {
        // SAFETY: the descriptor holds a reference to it while it is borrowed.
        unsafe { Ref::borrow(self.d.value) }
    }

    /// An accessor's getter (`undefined` when none).
    #[inline]
    pub(crate) fn getter(&self) -> Ref<'_, 'js> {
        // SAFETY: as in `value`.
        unsafe { Ref::borrow(self.d.getter) }
    }

    /// An accessor's setter (`undefined` when none).
    #[inline]
    pub(crate) fn setter(&self) -> Ref<'_, 'js> {
        // SAFETY: as in `value`.
        unsafe { Ref::borrow(self.d.setter) }
    }

    /// The attributes and the three references, each owned by the answer.
    pub(crate) fn into_parts(self) -> (Attributes, [Owned<'js>; 3]) {
        let this = std::mem::ManuallyDrop::new(self);
        let (cx, d) = (this.cx, this.d);
        // SAFETY: the descriptor's three references, each given to one `Owned` (never `JS_EXCEPTION`).
        let own = |raw| unsafe { Owned::take(cx, raw) }.unwrap_or_else(|Thrown| unreachable!("a descriptor's value"));
        (d.flags, [own(d.value), own(d.getter), own(d.setter)])
    }
}

impl Drop for Descriptor<'_> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the references `JS_GetOwnProperty` filled in, of this live context, freed once.
        unsafe {
            for value in [self.d.value, self.d.getter, self.d.setter] {
                qjs::JS_FreeValue(self.cx.raw(), value);
            }
        }
    }
}

impl<'js> Cx<'js> {
    /// The descriptor of `object`'s own property `key`, `None` when it has none; a proxy's trap that
    /// throws leaves its exception pending.
    #[inline]
    pub(crate) fn own_property(self, object: Ref<'_, 'js>, key: AtomRef<'_, 'js>) -> Step<Option<Descriptor<'js>>> {
        // SAFETY: a live context, one of its values and a live atom; `JS_GetOwnProperty` fills the
        // descriptor with new references only when it answers 1, and then they go to the answer.
        unsafe {
            let mut d: qjs::JSPropertyDescriptor = std::mem::zeroed();
            match qjs::JS_GetOwnProperty(self.raw(), &mut d, object.raw(), key.raw()) {
                1 => Ok(Some(Descriptor { cx: self, d })),
                0 => Ok(None),
                _ => Err(Thrown),
            }
        }
    }

    /// As [`Cx::own_property`], `None` (the exception dismissed) when it cannot be read.
    #[inline]
    pub(crate) fn own_property_or_none(self, object: Ref<'_, 'js>, key: AtomRef<'_, 'js>) -> Option<Descriptor<'js>> {
        self.own_property(object, key).unwrap_or_else(|thrown| {
            thrown.dismiss(self);
            None
        })
    }

    /// The value of `object`'s own data property `key`, or `None` when it is gone, cannot be read
    /// (the exception dismissed) or is an accessor.
    #[inline]
    pub(crate) fn own_value(self, object: Ref<'_, 'js>, key: AtomRef<'_, 'js>) -> Option<Owned<'js>> {
        let d = self.own_property_or_none(object, key)?;
        if d.is_accessor() {
            return None;
        }
        let (_, [value, _, _]) = d.into_parts();
        Some(value)
    }

    /// `object[key]` (a getter or a proxy's trap may run).
    #[inline]
    pub(crate) fn get(self, object: Ref<'_, 'js>, key: AtomRef<'_, 'js>) -> Step<Owned<'js>> {
        // SAFETY: a live context, one of its values and a live atom; the new reference goes to the answer.
        unsafe { Owned::take(self, qjs::JS_GetProperty(self.raw(), object.raw(), key.raw())) }
    }

    /// `object[index]`.
    #[inline]
    pub(crate) fn get_index(self, object: Ref<'_, 'js>, index: u32) -> Step<Owned<'js>> {
        // SAFETY: as in `get`.
        unsafe { Owned::take(self, qjs::JS_GetPropertyUint32(self.raw(), object.raw(), index)) }
    }

    /// `key in object`.
    #[inline]
    pub(crate) fn has(self, object: Ref<'_, 'js>, key: AtomRef<'_, 'js>) -> Step<bool> {
        // SAFETY: a live context, one of its values and a live atom.
        match unsafe { qjs::JS_HasProperty(self.raw(), object.raw(), key.raw()) } {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Thrown),
        }
    }

    /// `ToLength(object.length)`.
    #[inline]
    pub(crate) fn length(self, object: Ref<'_, 'js>) -> Step<i64> {
        let mut length = 0i64;
        // SAFETY: a live context and one of its values; the length is written to a local.
        if unsafe { qjs::JS_GetLength(self.raw(), object.raw(), &mut length) } < 0 {
            return Err(Thrown);
        }
        Ok(length)
    }

    /// `Object.getPrototypeOf(value)` (a proxy's trap may run).
    #[inline]
    pub(crate) fn prototype(self, value: Ref<'_, 'js>) -> Step<Owned<'js>> {
        // SAFETY: a live context and one of its values; QuickJS-ng answers a new reference.
        unsafe { Owned::take(self, qjs::JS_GetPrototype(self.raw(), value.raw())) }
    }

    /// Whether `value` is a function.
    #[inline]
    pub(crate) fn is_function(self, value: Ref<'_, 'js>) -> bool {
        // SAFETY: a live context and one of its values.
        unsafe { qjs::JS_IsFunction(self.raw(), value.raw()) }
    }

    /// The global object.
    pub(crate) fn global(self) -> Owned<'js> {
        // SAFETY: a live context; the new reference goes to the answer.
        unsafe { Owned::take(self, qjs::JS_GetGlobalObject(self.raw())) }
            .unwrap_or_else(|Thrown| unreachable!("the global object"))
    }

    /// Defines `object[name] = value`, neither writable, enumerable nor configurable.
    pub(crate) fn define_hidden(self, object: Ref<'_, 'js>, name: &CStr, value: Owned<'js>) -> Step<()> {
        let (_, value) = value.into_raw();
        // SAFETY: a live context and its values; the property takes the reference to `value`.
        if unsafe { qjs::JS_DefinePropertyValueStr(self.raw(), object.raw(), name.as_ptr(), value, 0) } < 0 {
            return Err(Thrown);
        }
        Ok(())
    }
}
