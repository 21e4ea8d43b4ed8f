//! Own properties read through QuickJS's C interface, about ten times faster than JavaScript reads
//! them (no descriptor object is made): the built-ins' guard (`guard.rs`) lists, snapshots and
//! compares them, the describers (`describe.rs`) describe values' fields with them, the results' reader
//! (`results.rs`) reads the harness's results, and the undo journal asks [`has_setter`] whether a write
//! by key could run a prototype's setter.

use rquickjs::{Ctx, Value, qjs};

/// An own property's descriptor (its values owned by the caller), or `None` when it is gone or cannot be
/// read.
///
/// # Safety
/// `ctx` is a live context and `object` a value of it.
pub(super) unsafe fn own_property(
    ctx: *mut qjs::JSContext,
    object: qjs::JSValue,
    atom: qjs::JSAtom,
) -> Option<qjs::JSPropertyDescriptor> {
    // SAFETY: as the function's contract.
    unsafe {
        own_property_or_throw(ctx, object, atom).unwrap_or_else(|thrown| {
            thrown.dismiss(ctx);
            None
        })
    }
}

/// A read or a listing threw (a proxy's trap, a module's binding not initialised yet): the exception is
/// pending in the context, for the caller to take.
pub(super) struct Thrown;

impl Thrown {
    /// Takes the pending exception and lets it go: the caller answers as if nothing was there.
    ///
    /// # Safety
    /// `ctx` is the live context the exception is pending in.
    unsafe fn dismiss(self, ctx: *mut qjs::JSContext) {
        // SAFETY: as the function's contract; the exception taken is ours to free.
        unsafe { qjs::JS_FreeValue(ctx, qjs::JS_GetException(ctx)) }
    }
}

/// As [`own_property`], but an exception is left pending for the caller.
///
/// # Safety
/// As [`own_property`].
pub(super) unsafe fn own_property_or_throw(
    ctx: *mut qjs::JSContext,
    object: qjs::JSValue,
    atom: qjs::JSAtom,
) -> Result<Option<qjs::JSPropertyDescriptor>, Thrown> {
    // SAFETY: as the function's contract; `JS_GetOwnProperty` fills the descriptor with new references
    // only when it answers 1.
    unsafe {
        let mut descriptor: qjs::JSPropertyDescriptor = std::mem::zeroed();
        match qjs::JS_GetOwnProperty(ctx, &mut descriptor, object, atom) {
            1 => Ok(Some(descriptor)),
            0 => Ok(None),
            _ => Err(Thrown),
        }
    }
}

/// The value of an own data property (the caller's reference), or `None` when it is gone, cannot be
/// read or is an accessor.
///
/// # Safety
/// `ctx` is a live context and `object` a value of it.
pub(super) unsafe fn own_value(
    ctx: *mut qjs::JSContext,
    object: qjs::JSValue,
    atom: qjs::JSAtom,
) -> Option<qjs::JSValue> {
    // SAFETY: as the function's contract; the descriptor's references are the caller's or freed here.
    unsafe {
        let d = own_property(ctx, object, atom)?;
        qjs::JS_FreeValue(ctx, d.getter);
        qjs::JS_FreeValue(ctx, d.setter);
        if d.flags & qjs::JS_PROP_GETSET as i32 != 0 {
            qjs::JS_FreeValue(ctx, d.value);
            return None;
        }
        Some(d.value)
    }
}

/// The own keys of an object, in order, as QuickJS lists them: read in place and freed on drop, since a
/// check compares them with the snapshot's and keeps none (copying them out cost as much as the rest
/// of a check of `Object.prototype`).
pub(super) struct OwnKeys {
    ctx: *mut qjs::JSContext,
    table: *mut qjs::JSPropertyEnum,
    length: u32,
}

impl OwnKeys {
    /// The own keys of `object`, or `None` when they cannot be listed (a proxy's trap threw).
    ///
    /// # Safety
    /// `ctx` is a live context and `object` a value of it; the keys are dropped while `ctx` lives.
    pub(super) unsafe fn of(ctx: *mut qjs::JSContext, object: qjs::JSValue) -> Option<OwnKeys> {
        // SAFETY: as the function's contract.
        unsafe { OwnKeys::listed(ctx, object, qjs::JS_GPN_STRING_MASK | qjs::JS_GPN_SYMBOL_MASK) }
    }

    /// The own string keys of `object` (no symbols), as [`OwnKeys::of`].
    ///
    /// # Safety
    /// As [`OwnKeys::of`].
    pub(super) unsafe fn strings_of(ctx: *mut qjs::JSContext, object: qjs::JSValue) -> Option<OwnKeys> {
        // SAFETY: as the function's contract.
        unsafe { OwnKeys::listed(ctx, object, qjs::JS_GPN_STRING_MASK) }
    }

    unsafe fn listed(ctx: *mut qjs::JSContext, object: qjs::JSValue, flags: u32) -> Option<OwnKeys> {
        // SAFETY: as the callers' contract.
        unsafe { OwnKeys::listed_or_throw(ctx, object, flags).map_err(|thrown| thrown.dismiss(ctx)).ok() }
    }

    /// The own keys of `object` that `flags` (`JS_GPN_...`) select; an exception is left pending for
    /// the caller.
    ///
    /// # Safety
    /// As [`OwnKeys::of`].
    pub(super) unsafe fn listed_or_throw(
        ctx: *mut qjs::JSContext,
        object: qjs::JSValue,
        flags: u32,
    ) -> Result<OwnKeys, Thrown> {
        // SAFETY: as the callers' contract; on success the table is ours to free.
        unsafe {
            let mut table = std::ptr::null_mut();
            let mut length = 0u32;
            if qjs::JS_GetOwnPropertyNames(ctx, &mut table, &mut length, object, flags as i32) < 0 {
                return Err(Thrown);
            }
            Ok(OwnKeys { ctx, table, length })
        }
    }

    /// The keys' atoms, valid while `self` is.
    pub(super) fn atoms(&self) -> impl Iterator<Item = qjs::JSAtom> + '_ {
        // SAFETY: the table holds `length` entries until `drop` frees it.
        (0..self.length as usize).map(|i| unsafe { (*self.table.add(i)).atom })
    }

    pub(super) fn len(&self) -> usize {
        self.length as usize
    }
}

impl Drop for OwnKeys {
    fn drop(&mut self) {
        // SAFETY: the table and its atoms came from `JS_GetOwnPropertyNames` on this live context.
        unsafe { qjs::JS_FreePropertyEnum(self.ctx, self.table, self.length) }
    }
}

/// Whether `object` has an own accessor with a setter, `Object.prototype`'s `__proto__` aside when
/// `skip_proto` (a copy of a whole object puts its prototype back). The undo journal asks it of
/// `Object.prototype` and `Array.prototype` before it copies an object or array whole (`js/journal.js`):
/// made in JavaScript, the question built a descriptor object for each of their fifty-odd properties,
/// and cost a shared-state test more than its own code.
pub(super) fn has_setter<'js>(ctx: Ctx<'js>, object: Value<'js>, skip_proto: bool) -> bool {
    let Some(object) = object.as_object() else { return false };
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: `raw` is the live context of `ctx` and `object` one of its values for this whole call; the
    // listing is dropped and every descriptor's references freed before it returns.
    unsafe {
        let object = object.as_raw();
        // Keys that cannot be listed (a proxy's trap threw): a setter cannot be ruled out.
        let Some(keys) = OwnKeys::of(raw, object) else { return true };
        let proto = if skip_proto { qjs::JS_NewAtom(raw, c"__proto__".as_ptr()) } else { qjs::JS_ATOM_NULL };
        let mut found = false;
        for atom in keys.atoms() {
            let Some(d) = own_property(raw, object, atom) else { continue };
            found = d.flags & qjs::JS_PROP_GETSET as i32 != 0 && !qjs::JS_IsUndefined(d.setter) && atom != proto;
            for value in [d.value, d.getter, d.setter] {
                qjs::JS_FreeValue(raw, value);
            }
            if found {
                break;
            }
        }
        if proto != qjs::JS_ATOM_NULL {
            qjs::JS_FreeAtom(raw, proto);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use rquickjs::{Context, Runtime};

    use super::has_setter;

    #[test]
    fn finds_own_setters_only() {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let asks = |code: &str, skip_proto: bool| has_setter(ctx.clone(), ctx.eval(code).unwrap(), skip_proto);
            assert!(!asks("({ a: 1, f() {} })", false));
            assert!(!asks("({ get a() { return 1; } })", false));
            assert!(asks("({ a: 1, set b(v) {} })", false));
            assert!(asks("Object.create({ set b(v) {} }, { c: { set(v) {} } })", false));
            assert!(!asks("Object.create({ set b(v) {} })", false), "inherited setters are the prototype's");
            // `Object.prototype.__proto__` is an accessor with a setter: left out when asked to.
            assert!(asks("Object.prototype", false));
            assert!(!asks("Object.prototype", true));
            assert!(!asks("Array.prototype", false));
            assert!(!asks("42", false));
            // Keys that cannot be listed leave a setter possible.
            assert!(asks("new Proxy({}, { ownKeys() { throw new Error('no'); } })", false));
            assert!(!ctx.has_exception(), "no exception is left pending");
        });
    }
}
