//! Property keys: [`Atom`] (a reference, freed when dropped) and [`AtomRef`] (borrowed).

use std::ffi::CStr;
use std::marker::PhantomData;

use rquickjs::qjs;

use super::{Cx, Ref, Step, Thrown};

/// A reference to an atom (a property key) of the context `'js`, freed when dropped.
pub(crate) struct Atom<'js> {
    cx: Cx<'js>,
    raw: qjs::JSAtom,
}

/// An atom borrowed for `'a` from what holds a reference to it (an [`Atom`], a listing, a kept key).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct AtomRef<'a, 'js> {
    raw: qjs::JSAtom,
    _borrow: PhantomData<(&'a (), Cx<'js>)>,
}

impl<'js> Atom<'js> {
    /// The atom of `name`.
    #[inline]
    pub(crate) fn new(cx: Cx<'js>, name: &CStr) -> Atom<'js> {
        // SAFETY: a live context; the new reference goes to the answer. An atom QuickJS could not make
        // is `JS_ATOM_NULL`, which freeing leaves alone.
        Atom { cx, raw: unsafe { qjs::JS_NewAtom(cx.raw(), name.as_ptr()) } }
    }

    /// The atom of the index `index`.
    #[inline]
    pub(crate) fn index(cx: Cx<'js>, index: u32) -> Atom<'js> {
        // SAFETY: as in `new`.
        Atom { cx, raw: unsafe { qjs::JS_NewAtomUInt32(cx.raw(), index) } }
    }

    /// The atom `value` converts to as a key (`ToPropertyKey`, which may throw).
    pub(crate) fn of_value(cx: Cx<'js>, value: Ref<'_, 'js>) -> Step<Atom<'js>> {
        // SAFETY: a live context and one of its values; the new reference goes to the answer.
        let raw = unsafe { qjs::JS_ValueToAtom(cx.raw(), value.raw()) };
        if raw == qjs::JS_ATOM_NULL {
            return Err(Thrown);
        }
        Ok(Atom { cx, raw })
    }

    /// A new reference to what `atom` refers to.
    #[inline]
    pub(crate) fn dup(cx: Cx<'js>, atom: AtomRef<'_, 'js>) -> Atom<'js> {
        // SAFETY: `atom` is alive in `cx`'s context; the new reference goes to the answer.
        Atom { cx, raw: unsafe { qjs::JS_DupAtom(cx.raw(), atom.raw) } }
    }

    /// The atom, borrowed from this reference.
    #[inline]
    pub(crate) fn get(&self) -> AtomRef<'_, 'js> {
        AtomRef { raw: self.raw, _borrow: PhantomData }
    }

    /// The reference, no longer freed here.
    #[inline]
    pub(super) fn into_raw(self) -> (Cx<'js>, qjs::JSAtom) {
        let this = std::mem::ManuallyDrop::new(self);
        (this.cx, this.raw)
    }
}

impl Drop for Atom<'_> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the one reference this holds, of a context alive for `'js`.
        unsafe { qjs::JS_FreeAtom(self.cx.raw(), self.raw) }
    }
}

impl<'a, 'js> AtomRef<'a, 'js> {
    /// Borrows `raw`, which something holds a reference to for `'a`.
    ///
    /// # Safety
    /// `raw` is an atom of the context `'js`'s runtime, alive for `'a`.
    #[inline]
    pub(super) unsafe fn borrow(raw: qjs::JSAtom) -> AtomRef<'a, 'js> {
        AtomRef { raw, _borrow: PhantomData }
    }

    /// The raw atom, for the blocks of this module.
    #[inline]
    pub(super) fn raw(self) -> qjs::JSAtom {
        self.raw
    }

    /// A number that names the atom while it is alive: equal for equal keys, for sets of keys.
    #[inline]
    pub(crate) fn id(self) -> u32 {
        self.raw
    }
}
