//! Has a test changed a built-in? Tests share one context while the code is not known to write shared
//! state, and a test that patches `Array.prototype.push`, adds `Object.prototype.toJSON` or replaces
//! `JSON` has written shared state just as one that changes a global: the next test must not see it.
//!
//! Once the program has loaded (what loading did is the program's own state), [`Guard::take`] lists the
//! built-ins (the global object, what it held before the program loaded, their prototypes, what those
//! inherit from, and the hidden iterator prototypes `js/builtins.js` gives), and keeps every own
//! property (key, attributes, value or accessors) of them, about 1,100; [`Guard::changed`] compares
//! them with what they are now and names the first difference. Both run through QuickJS's C
//! interface, which reads a property about ten times faster than JavaScript can (the listing, made in
//! JavaScript, cost more than the snapshot: a descriptor object and a set lookup for every global).
//! Comparing everything that way still costs as much as a small test, so an object found unchanged is
//! also read in place (`layout.rs`): its keys' places in its shape, their attributes and their slots,
//! the [`Image`] a later check compares in a few loads per property, turning to the C interface only
//! where something differs (which decides, names the change, or takes a new image). A check after a
//! test in the shared context reads `Object.prototype` (every value inherits from it) and the next
//! slice of the rest, about [`SLICE`] properties: a change to another built-in is seen within a few
//! dozen tests; after a test run alone, it reads them all.

use rquickjs::{Array, Ctx, Value, qjs};
use rustc_hash::FxHashSet;

use super::layout::{self, Exotics, Slot, View};
use super::props::{OwnKeys, own_property, own_value};

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

/// How a message names a built-in, made only for the one a test changed.
enum Name {
    Fixed(&'static str),
    /// A global's value, by the global's key (a reference of the guard's own).
    Global(qjs::JSAtom),
    /// The `prototype` of the built-in at this index.
    Prototype(usize),
    /// What the built-in at this index inherits from.
    ProtoOf(usize),
}

struct Tracked {
    object: qjs::JSValue,
    /// The global object: what the program defined there is its own state, and what a test adds is
    /// no built-in; only the properties of the snapshot are compared.
    open: bool,
    name: Name,
    properties: Vec<Property>,
    /// The object read in place when last found unchanged; none since a reading did not agree with the
    /// C interface's (then it is only compared through that).
    image: Option<Image>,
}

/// An object found unchanged, read in place (see `layout.rs`): while it reads the same, it is unchanged.
struct Image {
    /// The one-bit fields that say where its own keys are kept.
    flags: u8,
    /// How many own keys it has, but for the global object (only the snapshot's keys are compared).
    live: Option<usize>,
    entries: Vec<Entry>,
}

/// A property of the snapshot as read in place: its place in the shape, its key, and its attributes and
/// slot, but for a property the harness replaces (only its presence is compared).
struct Entry {
    index: usize,
    atom: qjs::JSAtom,
    held: Option<(u8, Slot)>,
}

impl Image {
    /// Whether `object` reads as the image does.
    ///
    /// # Safety
    /// `object` is the live object the image was taken of, and nothing runs in its context meanwhile.
    unsafe fn matches(&self, object: qjs::JSValue) -> bool {
        // SAFETY: as the function's contract.
        let Some(view) = (unsafe { View::of(object) }) else { return false };
        if view.flags() != self.flags || self.live.is_some_and(|live| live != view.live()) {
            return false;
        }
        let entries = view.entries();
        self.entries.iter().all(|e| {
            let (atom, flags) = if e.index < entries { view.key(e.index) } else { return false };
            atom == e.atom && e.held.is_none_or(|(held, slot)| held == flags && view.slot(e.index) == slot)
        })
    }
}

impl Tracked {
    /// The object read in place, when every property of the snapshot reads there as the C interface read
    /// it (the caller found it unchanged) and its own keys are all in its shape (`exotics`). An array's
    /// elements are kept apart: an image is taken of one without elements and a length of 0 (its first
    /// property), which an added element changes.
    ///
    /// # Safety
    /// `object` is alive, and nothing runs in its context meanwhile.
    unsafe fn image(&self, exotics: &Exotics) -> Option<Image> {
        // SAFETY: as the function's contract.
        let view = unsafe { View::of(self.object) }?;
        if !view.keys_in_shape(exotics) || !self.open && view.live() != self.properties.len() {
            return None;
        }
        let c_w_e = qjs::JS_PROP_C_W_E as u8;
        let entries_now = view.entries();
        let mut entries = Vec::with_capacity(self.properties.len());
        // The listing is in the shape's order but for symbols (listed last): each key is looked for from
        // where the last one was found on.
        let mut from = 0;
        for p in &self.properties {
            let index = (from..entries_now).chain(0..from).find(|i| view.key(*i).0 == p.atom)?;
            from = index + 1;
            if p.replaced {
                entries.push(Entry { index, atom: p.atom, held: None });
                continue;
            }
            let (flags, slot) = (view.key(index).1, view.slot(index));
            let read = match flags & layout::KIND {
                kind if kind == qjs::JS_PROP_NORMAL as u8 => {
                    (flags & c_w_e) as i32 == p.flags && same(slot.value(), p.value)
                }
                kind if kind == qjs::JS_PROP_GETSET as u8 => {
                    ((flags & c_w_e) as i32 | qjs::JS_PROP_GETSET as i32) == p.flags
                        && slot.accessors() == [object_address(p.getter), object_address(p.setter)]
                }
                // A binding's reference or a value not made yet: only the C interface reads it.
                _ => false,
            };
            if !read {
                return None;
            }
            entries.push(Entry { index, atom: p.atom, held: Some((flags, slot)) });
        }
        if view.fast_array() {
            let length = entries.first().filter(|e| e.index == 0).and_then(|e| e.held).map(|(_, slot)| slot.value());
            // SAFETY: reading a JSValue's tag and payload only looks at the struct's fields.
            let empty = length.is_some_and(|v| unsafe {
                qjs::JS_VALUE_GET_TAG(v) == qjs::JS_TAG_INT && qjs::JS_VALUE_GET_INT(v) == 0
            });
            if !empty {
                return None;
            }
        }
        Some(Image { flags: view.flags(), live: (!self.open).then_some(view.live()), entries })
    }
}

/// The address of an accessor's function, 0 for none (as a property's slot holds it).
fn object_address(value: qjs::JSValue) -> usize {
    // SAFETY: reading a JSValue's tag and payload only looks at the struct's fields.
    unsafe {
        if qjs::JS_VALUE_GET_TAG(value) == qjs::JS_TAG_OBJECT { qjs::JS_VALUE_GET_PTR(value) as usize } else { 0 }
    }
}

/// The snapshot of the built-ins, owned by one context (see [`Guard::take`]).
pub(super) struct Guard {
    ctx: *mut qjs::JSContext,
    tracked: Vec<Tracked>,
    cursor: usize,
    /// What objects' own keys an image can follow.
    exotics: Exotics,
}

/// The names of the global object's properties before the program loaded, Flycatcher's own
/// (`__fc$...`, which hold its state and change with every test) left out: what the program adds to the
/// global object later is its own state, not a built-in. Taken by [`Baseline::take`] and given to
/// [`Guard::take`].
pub(super) struct Baseline {
    /// Holds a reference to every key, so that no atom in `names` is freed and reused meanwhile.
    _keys: OwnKeys,
    names: FxHashSet<qjs::JSAtom>,
}

impl Baseline {
    /// The global object's string keys now, or `None` when they cannot be listed.
    pub(super) fn take(ctx: &Ctx) -> Option<Baseline> {
        let raw = ctx.as_raw().as_ptr();
        // SAFETY: `raw` is the live context of `ctx`, and the global object is alive while it is; the
        // listing keeps its atoms until it is dropped, which the engine does before its context goes.
        unsafe {
            let global = qjs::JS_GetGlobalObject(raw);
            let keys = OwnKeys::strings_of(raw, global);
            qjs::JS_FreeValue(raw, global);
            let keys = keys?;
            let names = keys.atoms().filter(|atom| !atom_text(raw, *atom).starts_with("__fc$")).collect();
            Some(Baseline { _keys: keys, names })
        }
    }
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

/// A built-in found by the listing, before its snapshot: its own reference, and the keys (references of
/// its own) whose values the harness replaces, and, for the global object, those that are no built-in.
struct Found {
    object: qjs::JSValue,
    name: Name,
    replaced: Vec<qjs::JSAtom>,
    ignored: Option<Vec<qjs::JSAtom>>,
}

/// The listing: each object once, in the order found.
struct Listing {
    ctx: *mut qjs::JSContext,
    found: Vec<Found>,
    seen: FxHashSet<usize>,
}

impl Listing {
    /// Adds `value` (a reference the listing takes) when it is an object not listed yet.
    fn add(&mut self, value: qjs::JSValue, name: Name, replaced: Vec<qjs::JSAtom>, ignored: Option<Vec<qjs::JSAtom>>) {
        // SAFETY: `ctx` is live while the listing is (see `Guard::take`); every reference the listing
        // does not keep is freed here.
        unsafe {
            let fresh = qjs::JS_VALUE_GET_TAG(value) == qjs::JS_TAG_OBJECT
                && self.seen.insert(qjs::JS_VALUE_GET_PTR(value) as usize);
            if fresh {
                self.found.push(Found { object: value, name, replaced, ignored });
                return;
            }
            qjs::JS_FreeValue(self.ctx, value);
            if let Name::Global(atom) = name {
                qjs::JS_FreeAtom(self.ctx, atom);
            }
            replaced.into_iter().chain(ignored.unwrap_or_default()).for_each(|atom| qjs::JS_FreeAtom(self.ctx, atom));
        }
    }

    /// Atoms of the names in `keys` (references of the caller's).
    fn atoms(&self, keys: &[&std::ffi::CStr]) -> Vec<qjs::JSAtom> {
        // SAFETY: `ctx` is live; each atom made is a new reference.
        keys.iter().map(|key| unsafe { qjs::JS_NewAtom(self.ctx, key.as_ptr()) }).collect()
    }

    /// The built-ins the global object held before the program loaded (see [`Baseline`]), each by the
    /// own data property that holds it, in the order of `keys`, the global object's string keys. The
    /// `Date` of the global object is the determinism shim's (the real one is a root).
    ///
    /// # Safety
    /// `ctx` is live and `global` its global object.
    unsafe fn global_values(&mut self, global: qjs::JSValue, keys: &OwnKeys, baseline: &Baseline) {
        // SAFETY: as the function's contract; descriptors' references are taken by `add` or freed.
        unsafe {
            let ctx = self.ctx;
            let date = qjs::JS_NewAtom(ctx, c"Date".as_ptr());
            for atom in keys.atoms().filter(|atom| baseline.names.contains(atom) && *atom != date) {
                if let Some(value) = own_value(ctx, global, atom) {
                    self.add(value, Name::Global(qjs::JS_DupAtom(ctx, atom)), Vec::new(), None);
                }
            }
            qjs::JS_FreeAtom(ctx, date);
        }
    }

    /// The prototypes of the functions found and what every object found inherits from, each in turn
    /// (those found on the way included).
    ///
    /// # Safety
    /// `ctx` is live.
    unsafe fn prototypes(&mut self) -> rquickjs::Result<()> {
        // SAFETY: as the function's contract; every reference made here is taken by `add` or freed.
        unsafe {
            let ctx = self.ctx;
            let prototype = qjs::JS_NewAtom(ctx, c"prototype".as_ptr());
            let mut index = 0;
            while index < self.found.len() {
                let object = self.found[index].object;
                if qjs::JS_IsFunction(ctx, object)
                    && let Some(value) = own_value(ctx, object, prototype)
                {
                    self.add(value, Name::Prototype(index), Vec::new(), None);
                }
                let parent = qjs::JS_GetPrototype(ctx, object);
                if qjs::JS_VALUE_GET_NORM_TAG(parent) == qjs::JS_TAG_EXCEPTION {
                    // A proxy's trap threw: the listing fails, as the engine's construction then does.
                    qjs::JS_FreeAtom(ctx, prototype);
                    return Err(rquickjs::Error::Exception);
                }
                self.add(parent, Name::ProtoOf(index), Vec::new(), None);
                index += 1;
            }
            qjs::JS_FreeAtom(ctx, prototype);
        }
        Ok(())
    }
}

impl Guard {
    /// Lists the built-ins of `ctx` and snapshots them; `baseline` is what the global object held before
    /// the program loaded.
    pub(super) fn take(ctx: &Ctx, baseline: &Baseline) -> rquickjs::Result<Guard> {
        let roots: rquickjs::Function = ctx.globals().get(crate::js::BUILTINS)?;
        let roots: Array = roots.call(())?;
        let [object_proto, math, performance, date]: [Value; 4] =
            [roots.get(0)?, roots.get(1)?, roots.get(2)?, roots.get(3)?];
        let lazy: Vec<Value> = roots.get(4)?;
        let iterators: Vec<Value> = roots.get(5)?;
        let raw = ctx.as_raw().as_ptr();
        let mut listing = Listing { ctx: raw, found: Vec::with_capacity(160), seen: FxHashSet::default() };
        // SAFETY: `raw` is the live context of `ctx`; each value is duplicated before the listing takes
        // it. Every reference the listing keeps goes to the guard, which frees it in its `Drop`, before
        // the context goes (see `Engine`'s field order).
        unsafe {
            let dup = |v: &Value| qjs::JS_DupValue(raw, v.as_raw());
            listing.add(dup(&object_proto), Name::Fixed("Object.prototype"), Vec::new(), None);
            let global = qjs::JS_GetGlobalObject(raw);
            let keys = OwnKeys::strings_of(raw, global);
            // The program's own globals (`var issued = 0` of a script) and ours are state, not built-ins.
            let ignored = keys.iter().flat_map(OwnKeys::atoms).filter(|atom| !baseline.names.contains(atom));
            let ignored = ignored.map(|atom| qjs::JS_DupAtom(raw, atom)).collect();
            let mut replaced = listing.atoms(&[c"Date"]);
            let lazy = lazy.iter().map(|name| qjs::JS_ValueToAtom(raw, name.as_raw()));
            replaced.extend(lazy.filter(|atom| *atom != qjs::JS_ATOM_NULL));
            listing.add(qjs::JS_DupValue(raw, global), Name::Fixed("globalThis"), replaced, Some(ignored));
            listing.add(dup(&math), Name::Fixed("Math"), listing.atoms(&[c"random"]), None);
            listing.add(dup(&performance), Name::Fixed("performance"), listing.atoms(&[c"now"]), None);
            listing.add(dup(&date), Name::Fixed("Date"), Vec::new(), None);
            if let Some(keys) = &keys {
                listing.global_values(global, keys, baseline);
            }
            drop(keys);
            qjs::JS_FreeValue(raw, global);
            let expanded = listing.prototypes();
            for (i, prototype) in iterators.iter().enumerate() {
                let name = if i % 2 == 0 { "an iterator prototype" } else { "Iterator.prototype" };
                listing.add(dup(prototype), Name::Fixed(name), Vec::new(), None);
            }
            let exotics = Exotics::of(raw);
            let tracked = Vec::with_capacity(listing.found.len());
            let mut guard = Guard { ctx: raw, tracked, cursor: 1, exotics };
            for found in listing.found.drain(..) {
                guard.tracked.push(snapshot(raw, found));
            }
            // Read in place once all are snapshotted: reading a property makes what QuickJS makes on first
            // use (a built-in function), which changes its slot.
            for tracked in &mut guard.tracked {
                tracked.image = tracked.image(&guard.exotics);
            }
            expanded?;
            Ok(guard)
        }
    }

    /// The first property changed since the snapshot (`Array.prototype.push`), checking
    /// `Object.prototype` and the next slice of the others, or all of them with `all`.
    pub(super) fn changed(&mut self, all: bool) -> Option<String> {
        if !self.tracked.is_empty()
            && let Some(found) = self.changed_in(0)
        {
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
            if let Some(found) = self.changed_in(index) {
                return Some(found);
            }
            checked += self.tracked[index].properties.len();
        }
        None
    }

    /// How a message names the built-in at `index`.
    fn name_of(&self, index: usize) -> String {
        match self.tracked[index].name {
            Name::Fixed(name) => name.to_string(),
            Name::Global(atom) => atom_text(self.ctx, atom),
            Name::Prototype(of) => format!("{}.prototype", self.name_of(of)),
            Name::ProtoOf(of) => format!("the prototype of {}", self.name_of(of)),
        }
    }

    /// The first property of the built-in at `index` changed since the snapshot: none while it reads in
    /// place as when last found unchanged, else as the C interface finds (and a new image if none).
    fn changed_in(&mut self, index: usize) -> Option<String> {
        let tracked = &self.tracked[index];
        // SAFETY: the guard holds a reference to the object, and checks run between tests.
        if tracked.image.as_ref().is_some_and(|image| unsafe { image.matches(tracked.object) }) {
            return None;
        }
        let found = self.compared(index);
        let tracked = &mut self.tracked[index];
        if found.is_none() && tracked.image.is_some() {
            // SAFETY: as above.
            tracked.image = unsafe { tracked.image(&self.exotics) };
        }
        found
    }

    /// [`Guard::changed_in`] through the C interface.
    fn compared(&self, index: usize) -> Option<String> {
        let ctx = self.ctx;
        let tracked = &self.tracked[index];
        let named = |atom| format!("{}{}", self.name_of(index), key_text(ctx, atom));
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
                        None => format!("{} (a property deleted or redefined)", self.name_of(index)),
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
                if let Name::Global(atom) = tracked.name {
                    qjs::JS_FreeAtom(self.ctx, atom);
                }
            }
        }
    }
}

impl Drop for Listing {
    fn drop(&mut self) {
        // SAFETY: the listing's references, of its live context, not taken by a guard.
        unsafe {
            for found in self.found.drain(..) {
                qjs::JS_FreeValue(self.ctx, found.object);
                if let Name::Global(atom) = found.name {
                    qjs::JS_FreeAtom(self.ctx, atom);
                }
                let ignored = found.ignored.unwrap_or_default();
                found.replaced.into_iter().chain(ignored).for_each(|atom| qjs::JS_FreeAtom(self.ctx, atom));
            }
        }
    }
}

/// The snapshot of a built-in found by the listing: its own properties, but those `found` ignores.
///
/// # Safety
/// `ctx` is live and `found`'s references are its; they go to the answer, but the key lists', freed.
unsafe fn snapshot(ctx: *mut qjs::JSContext, found: Found) -> Tracked {
    let Found { object, name, replaced, ignored } = found;
    let open = ignored.is_some();
    let ignored = ignored.unwrap_or_default();
    let mut properties = Vec::new();
    // SAFETY: as the function's contract; descriptors' references are kept in the properties.
    unsafe {
        let keys = OwnKeys::of(ctx, object);
        for atom in keys.iter().flat_map(OwnKeys::atoms) {
            // A skipped key is not read: a descriptor read holds references to free.
            let read = if ignored.contains(&atom) { None } else { own_property(ctx, object, atom) };
            let Some(d) = read else { continue };
            // Kept past the listing, which frees its own references.
            let atom = qjs::JS_DupAtom(ctx, atom);
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
        replaced.into_iter().chain(ignored).for_each(|atom| qjs::JS_FreeAtom(ctx, atom));
    }
    Tracked { object, open, name, properties, image: None }
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
