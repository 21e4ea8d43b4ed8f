//! [`Cx`]: a context for the scope of one `Context::with`.

use std::marker::PhantomData;
use std::ptr::NonNull;

use rquickjs::{Ctx, qjs};

/// A live context for `'js` (see the module's docs): a copy of the pointer an [`rquickjs::Ctx`] holds,
/// without its reference count, branded with the same invariant lifetime.
#[derive(Clone, Copy)]
pub(crate) struct Cx<'js> {
    raw: NonNull<qjs::JSContext>,
    _brand: PhantomData<Ctx<'js>>,
}

impl<'js> Cx<'js> {
    /// The context of `ctx`, alive for `'js`.
    #[inline]
    pub(crate) fn of(ctx: &Ctx<'js>) -> Cx<'js> {
        Cx { raw: ctx.as_raw(), _brand: PhantomData }
    }

    /// The raw context, for the blocks of this module.
    #[inline]
    pub(super) fn raw(self) -> *mut qjs::JSContext {
        self.raw.as_ptr()
    }

    /// The rquickjs handle of this context (a new reference of it).
    #[inline]
    pub(super) fn ctx(self) -> Ctx<'js> {
        // SAFETY: `raw` is the live context of the `Ctx<'js>` this was made from; `from_raw` takes a new
        // reference of it, which the answer frees.
        unsafe { Ctx::from_raw(self.raw) }
    }
}
