//! References kept from one `Context::with` to the next: [`Kept`] values and [`KeptAtom`] keys, each
//! holding an [`Anchor`] that keeps its context (and the runtime) alive until it is freed.

use std::ptr::NonNull;
use std::rc::Rc;

use rquickjs::{Context, qjs};

use super::{Atom, AtomRef, Cx, Owned, Ref};

/// A reference to a context, shared by what is kept in it: while one is alive, so is the context
/// (rquickjs's `Context` holds its runtime too), so a kept reference is always freed in a live one.
#[derive(Clone)]
pub(crate) struct Anchor(Rc<Anchored>);

struct Anchored {
    raw: NonNull<qjs::JSContext>,
    _context: Context,
}

impl Anchor {
    /// An anchor in `context`.
    pub(crate) fn new(context: &Context) -> Anchor {
        Anchor(Rc::new(Anchored { raw: context.as_raw(), _context: context.clone() }))
    }

    /// Whether `cx` is this context.
    #[inline]
    fn is(&self, cx: Cx<'_>) -> bool {
        self.0.raw.as_ptr() == cx.raw()
    }

    #[inline]
    fn raw(&self) -> *mut qjs::JSContext {
        self.0.raw.as_ptr()
    }

    /// Panics unless `cx` is this context: a kept reference is only read in its own.
    #[inline]
    fn check(&self, cx: Cx<'_>) {
        assert!(self.is(cx), "a kept reference read in another context");
    }
}

/// A value kept past the scope it was made in (see the module's docs).
pub(crate) struct Kept {
    anchor: Anchor,
    raw: qjs::JSValue,
}

impl Kept {
    /// Keeps `value`, which must be of `anchor`'s context (panics if not).
    pub(crate) fn new(anchor: &Anchor, value: Owned<'_>) -> Kept {
        let (cx, raw) = value.into_raw();
        anchor.check(cx);
        Kept { anchor: anchor.clone(), raw }
    }

    /// The value, in a scope of its context (panics in another).
    #[inline]
    pub(crate) fn get<'a, 'js>(&'a self, cx: Cx<'js>) -> Ref<'a, 'js> {
        self.anchor.check(cx);
        // SAFETY: this holds a reference of the context `cx` is, alive while `self` is borrowed.
        unsafe { Ref::borrow(self.raw) }
    }

    /// The value's bits, to compare with what `layout.rs` reads in place.
    #[inline]
    pub(super) fn raw(&self) -> qjs::JSValue {
        self.raw
    }
}

impl Drop for Kept {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the one reference this holds, of the context its anchor keeps alive.
        unsafe { qjs::JS_FreeValue(self.anchor.raw(), self.raw) }
    }
}

/// An atom kept past the scope it was made in (see the module's docs).
pub(crate) struct KeptAtom {
    anchor: Anchor,
    raw: qjs::JSAtom,
}

impl KeptAtom {
    /// Keeps `atom`, which must be of `anchor`'s context (panics if not).
    pub(crate) fn new(anchor: &Anchor, atom: Atom<'_>) -> KeptAtom {
        let (cx, raw) = atom.into_raw();
        anchor.check(cx);
        KeptAtom { anchor: anchor.clone(), raw }
    }

    /// The atom, in a scope of its context (panics in another).
    #[inline]
    pub(crate) fn get<'a, 'js>(&'a self, cx: Cx<'js>) -> AtomRef<'a, 'js> {
        self.anchor.check(cx);
        // SAFETY: this holds a reference to the atom, of the context `cx` is, alive while `self` is.
        unsafe { AtomRef::borrow(self.raw) }
    }

    /// A number that names the atom while it is alive (see [`AtomRef::id`]).
    #[inline]
    pub(crate) fn id(&self) -> u32 {
        self.raw
    }
}

impl Drop for KeptAtom {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the one reference this holds, of the context its anchor keeps alive.
        unsafe { qjs::JS_FreeAtom(self.anchor.raw(), self.raw) }
    }
}

#[cfg(test)]
mod tests {
    use rquickjs::{Context, Runtime, Value};

    use super::{Anchor, Kept};
    use crate::sandbox::qjs::{Cx, Owned, Ref};

    #[test]
    fn a_kept_value_outlives_its_scope_and_its_engines_handles() {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        let anchor = Anchor::new(&context);
        let kept = context.with(|ctx| {
            let value: Value = ctx.eval("({ a: 1 })").unwrap();
            Kept::new(&anchor, Owned::dup(Cx::of(&ctx), Ref::of(&value)))
        });
        context.with(|ctx| assert!(kept.get(Cx::of(&ctx)).is_object()));
        // The anchor keeps the context and its runtime: the kept value is freed in a live one.
        drop((anchor, context, runtime));
        drop(kept);
    }

    #[test]
    #[should_panic(expected = "another context")]
    fn a_kept_value_is_read_only_in_its_own_context() {
        let runtime = Runtime::new().unwrap();
        let (first, second) = (Context::full(&runtime).unwrap(), Context::full(&runtime).unwrap());
        let anchor = Anchor::new(&first);
        let kept =
            first.with(|ctx| Kept::new(&anchor, Owned::dup(Cx::of(&ctx), Ref::of(&Value::new_int(ctx.clone(), 1)))));
        second.with(|ctx| {
            kept.get(Cx::of(&ctx));
        });
    }
}
