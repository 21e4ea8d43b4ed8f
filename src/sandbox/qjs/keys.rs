//! [`OwnKeys`]: an object's own keys as QuickJS lists them, freed when dropped.

use rquickjs::qjs;

use super::{AtomRef, Cx, Ref, Step, Thrown};

/// Which own keys a listing takes (`JS_GPN_...`).
#[derive(Clone, Copy)]
pub(crate) struct KeyFilter(u32);

impl KeyFilter {
    /// String keys and symbols.
    pub(crate) const ALL: KeyFilter = KeyFilter(qjs::JS_GPN_STRING_MASK | qjs::JS_GPN_SYMBOL_MASK);
    /// String keys.
    pub(crate) const STRINGS: KeyFilter = KeyFilter(qjs::JS_GPN_STRING_MASK);
    /// Enumerable string keys (`Object.keys` of an object that is no proxy).
    pub(crate) const ENUMERABLE_STRINGS: KeyFilter = KeyFilter(qjs::JS_GPN_STRING_MASK | qjs::JS_GPN_ENUM_ONLY);
    /// Symbols.
    pub(crate) const SYMBOLS: KeyFilter = KeyFilter(qjs::JS_GPN_SYMBOL_MASK);
}

/// The own keys of an object, in order, as QuickJS lists them: read in place and freed on drop (a check
/// of the built-ins compares them with the snapshot's and keeps none; copying them out cost as much as
/// the rest of a check of `Object.prototype`).
pub(crate) struct OwnKeys<'js> {
    cx: Cx<'js>,
    table: *mut qjs::JSPropertyEnum,
    length: u32,
}

impl<'js> OwnKeys<'js> {
    /// The own keys of `object` that `filter` selects; a proxy's trap that throws leaves its exception
    /// pending.
    pub(crate) fn of(cx: Cx<'js>, object: Ref<'_, 'js>, filter: KeyFilter) -> Step<OwnKeys<'js>> {
        let mut table = std::ptr::null_mut();
        let mut length = 0u32;
        // SAFETY: a live context and one of its values; on success the table (`length` entries, each an
        // atom reference) is ours, freed in `drop`.
        let listed =
            unsafe { qjs::JS_GetOwnPropertyNames(cx.raw(), &mut table, &mut length, object.raw(), filter.0 as i32) };
        if listed < 0 {
            return Err(Thrown);
        }
        Ok(OwnKeys { cx, table, length })
    }

    /// As [`OwnKeys::of`], `None` (the exception dismissed) when they cannot be listed.
    pub(crate) fn of_or_none(cx: Cx<'js>, object: Ref<'_, 'js>, filter: KeyFilter) -> Option<OwnKeys<'js>> {
        OwnKeys::of(cx, object, filter).map_err(|thrown| thrown.dismiss(cx)).ok()
    }

    /// The keys, borrowed from the listing.
    #[inline]
    pub(crate) fn atoms(&self) -> impl Iterator<Item = AtomRef<'_, 'js>> + Clone + '_ {
        (0..self.length as usize).map(|i| {
            // SAFETY: the table holds `length` entries until `drop` frees it; the atom is borrowed from it.
            unsafe { AtomRef::borrow((*self.table.add(i)).atom) }
        })
    }

    /// How many keys.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.length as usize
    }
}

impl Drop for OwnKeys<'_> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the table and its atoms came from `JS_GetOwnPropertyNames` on this live context.
        unsafe { qjs::JS_FreePropertyEnum(self.cx.raw(), self.table, self.length) }
    }
}
