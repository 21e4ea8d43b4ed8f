//! Has a test changed a built-in? Tests share one context while the code is not known to write shared
//! state, and a test that patches `Array.prototype.push`, adds `Object.prototype.toJSON` or replaces
//! `JSON` has written shared state just as one that changes a global: the next test must not see it.
//!
//! Once the program has loaded (what loading did is the program's own state), [`Guard::take`] keeps
//! every own property (key, attributes, value or accessors) of the built-ins `js/builtins.js` lists,
//! about 1,100 of them; [`Guard::changed`] compares them with what they are now and names the first
//! difference. This runs through QuickJS's C interface, which reads a property about ten times faster
//! than JavaScript can. Comparing everything still costs as much as a small test, so a check after a
//! test reads `Object.prototype` (every value inherits from it) and the next slice of the rest, about
//! [`SLICE`] properties: a change to another built-in is seen within a few dozen tests.

use rquickjs::{Ctx, qjs};

use super::props::{OwnKeys, own_property};

/// Properties compared by one check besides `Object.prototype`'s.
const SLICE: usize = 24;

/// One own property as the snapshot saw it. The values are the snapshot's own references (freed with
/// it): a value replaced since cannot be freed and its address reused by its replacement.
struct Property {
    atom: qjs::JSAtom,
    flags: i32,
    value: qjs::JSValue,
    getter: qjs::JSValue,
    setter: qjs::JSValue,
    /// The harness replaces it before every test (`Math.random`): only its presence is compared.
    replaced: bool,
}

struct Tracked {
    object: qjs::JSValue,
    /// The global object: what the program defined there is its own state, and what a test adds is
    /// no built-in; only the properties of the snapshot are compared.
    open: bool,
    name: String,
    properties: Vec<Property>,
}

/// The snapshot of the built-ins, owned by one context (see [`Guard::take`]).
pub(super) struct Guard {
    ctx: *mut qjs::JSContext,
    tracked: Vec<Tracked>,
    cursor: usize,
}

/// Same value, by identity: the same object, or the same primitive bits.
fn same(a: qjs::JSValue, b: qjs::JSValue) -> bool {
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

impl Guard {
    /// Snapshots the built-ins `__fc$builtins()` lists in `ctx`.
    pub(super) fn take(ctx: &Ctx) -> rquickjs::Result<Guard> {
        let list: rquickjs::Function = ctx.globals().get(crate::js::BUILTINS)?;
        let list: Vec<rquickjs::Array> = list.call(())?;
        let raw = ctx.as_raw().as_ptr();
        let mut guard = Guard { ctx: raw, tracked: Vec::with_capacity(list.len()), cursor: 1 };
        for entry in list {
            // Keys stay JavaScript strings, made atoms in place: converting about a thousand of them to
            // Rust strings and back was half the cost of a snapshot.
            let (object, name, replaced, ignored): (
                rquickjs::Value,
                String,
                Vec<rquickjs::Value>,
                Option<Vec<rquickjs::Value>>,
            ) = (entry.get(0)?, entry.get(1)?, entry.get(2)?, entry.get(3)?);
            let open = ignored.is_some();
            // SAFETY: `raw` is the live context of `ctx`; every reference taken here is kept in the guard
            // and freed by its `Drop`, which runs before the context goes (see `Engine`'s field order).
            unsafe {
                let object = qjs::JS_DupValue(raw, object.as_raw());
                let atoms = |keys: &[rquickjs::Value]| -> Vec<qjs::JSAtom> {
                    keys.iter()
                        .map(|key| qjs::JS_ValueToAtom(raw, key.as_raw()))
                        .filter(|atom| *atom != qjs::JS_ATOM_NULL)
                        .collect()
                };
                let replaced = atoms(&replaced);
                let ignored = atoms(&ignored.unwrap_or_default());
                let mut properties = Vec::new();
                let keys = OwnKeys::of(raw, object);
                for atom in keys.iter().flat_map(OwnKeys::atoms) {
                    // A skipped key is not read: a descriptor read holds references to free.
                    let read = if ignored.contains(&atom) { None } else { own_property(raw, object, atom) };
                    let Some(d) = read else { continue };
                    // Kept past the listing, which frees its own references.
                    let atom = qjs::JS_DupAtom(raw, atom);
                    let replaced = replaced.contains(&atom);
                    properties.push(Property {
                        atom,
                        flags: d.flags,
                        value: d.value,
                        getter: d.getter,
                        setter: d.setter,
                        replaced,
                    });
                }
                replaced.into_iter().chain(ignored).for_each(|atom| qjs::JS_FreeAtom(raw, atom));
                guard.tracked.push(Tracked { object, open, name, properties });
            }
        }
        Ok(guard)
    }

    /// The first property changed since the snapshot (`Array.prototype.push`), checking
    /// `Object.prototype` and the next slice of the others, or all of them with `all`.
    pub(super) fn changed(&mut self, all: bool) -> Option<String> {
        if let Some(found) = self.tracked.first().and_then(|t| self.changed_in(t)) {
            return Some(found);
        }
        let others = self.tracked.len().saturating_sub(1);
        let mut checked = 0;
        for _ in 0..others {
            if !all && checked >= SLICE {
                break;
            }
            let index = self.cursor;
            self.cursor = if self.cursor + 1 < self.tracked.len() { self.cursor + 1 } else { 1 };
            let tracked = &self.tracked[index];
            if let Some(found) = self.changed_in(tracked) {
                return Some(found);
            }
            checked += tracked.properties.len();
        }
        None
    }

    fn changed_in(&self, tracked: &Tracked) -> Option<String> {
        let ctx = self.ctx;
        let named = |atom| format!("{}{}", tracked.name, key_text(ctx, atom));
        // SAFETY: `ctx` is alive while the guard is (see `take`); every reference read here is freed
        // before returning.
        unsafe {
            // Properties of an open object are only checked one by one, below.
            if !tracked.open {
                let keys = OwnKeys::of(ctx, tracked.object)?;
                // Unchanged keys come in the same order; only a change needs the search for what changed.
                let same_keys = keys.len() == tracked.properties.len()
                    && keys.atoms().zip(&tracked.properties).all(|(k, p)| k == p.atom);
                if !same_keys {
                    return Some(match keys.atoms().find(|k| !tracked.properties.iter().any(|p| p.atom == *k)) {
                        Some(added) => named(added),
                        None => format!("{} (a property deleted or redefined)", tracked.name),
                    });
                }
            }
            for p in &tracked.properties {
                let Some(d) = own_property(ctx, tracked.object, p.atom) else { return Some(named(p.atom)) };
                // A replaced property (the clock, Node's globals made on first read) may change in any way.
                let unchanged = p.replaced
                    || d.flags == p.flags
                        && same(d.value, p.value)
                        && same(d.getter, p.getter)
                        && same(d.setter, p.setter);
                for value in [d.value, d.getter, d.setter] {
                    qjs::JS_FreeValue(ctx, value);
                }
                if !unchanged {
                    return Some(named(p.atom));
                }
            }
        }
        None
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        // SAFETY: the context is still alive (the guard goes first), and these are the references
        // `take` kept.
        unsafe {
            for tracked in self.tracked.drain(..) {
                for p in tracked.properties {
                    for value in [p.value, p.getter, p.setter] {
                        qjs::JS_FreeValue(self.ctx, value);
                    }
                    qjs::JS_FreeAtom(self.ctx, p.atom);
                }
                qjs::JS_FreeValue(self.ctx, tracked.object);
            }
        }
    }
}

/// A key's text: a string key as is, a symbol as its description.
fn atom_text(ctx: *mut qjs::JSContext, atom: qjs::JSAtom) -> String {
    // SAFETY: `ctx` is a live context; the C string is copied, then freed.
    unsafe {
        let text = qjs::JS_AtomToCStringLen(ctx, std::ptr::null_mut(), atom);
        if text.is_null() {
            qjs::JS_FreeValue(ctx, qjs::JS_GetException(ctx));
            return String::new();
        }
        let owned = std::ffi::CStr::from_ptr(text).to_string_lossy().into_owned();
        qjs::JS_FreeCString(ctx, text);
        owned
    }
}

/// How a key reads after its object's name: `.push`, or `[Symbol.iterator]`.
fn key_text(ctx: *mut qjs::JSContext, atom: qjs::JSAtom) -> String {
    let text = atom_text(ctx, atom);
    if text.starts_with("Symbol.") || text.is_empty() { format!("[{text}]") } else { format!(".{text}") }
}
