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
//! also read in place (`sandbox/qjs/layout.rs`): its keys' places in its shape, their attributes and their slots,
//! the [`Image`] a later check compares in a few loads per property, turning to the C interface only
//! where something differs (which decides, names the change, or takes a new image). A check after a
//! test in the shared context reads `Object.prototype` (every value inherits from it) and the next
//! slice of the rest, about [`SLICE`] properties: a change to another built-in is seen within a few
//! dozen tests; after a test run alone, it reads them all. Reading in place can be switched off
//! ([`Guard::set_in_place`]): then every check goes through the C interface.

use rquickjs::{Array, Ctx, Value};
use rustc_hash::FxHashSet;

use crate::js::PREFIX;
use crate::sandbox::qjs::layout::{self, Exotics, Flags, Slot, View};
use crate::sandbox::qjs::{Anchor, Atom, AtomRef, Cx, Kept, KeptAtom, KeyFilter, OwnKeys, Owned, Ref};

/// Properties compared by one check besides `Object.prototype`'s.
const SLICE: usize = 24;

/// One own property as the snapshot saw it. The values are the snapshot's own references (freed with
/// it): a value replaced since cannot be freed and its address reused by its replacement.
struct Property {
    atom: KeptAtom,
    attributes: i32,
    value: Kept,
    getter: Kept,
    setter: Kept,
    /// The harness replaces it before every test (`Math.random`): only its presence is compared.
    replaced: bool,
}

/// How a message names a built-in, made only for the one a test changed.
enum Name {
    Fixed(&'static str),
    /// A global's value, by the global's key.
    Global(KeptAtom),
    /// The `prototype` of the built-in at this index.
    Prototype(usize),
    /// What the built-in at this index inherits from.
    ProtoOf(usize),
}

struct Tracked {
    object: Kept,
    /// The global object: what the program defined there is its own state, and what a test adds is
    /// no built-in; only the properties of the snapshot are compared.
    open: bool,
    name: Name,
    properties: Vec<Property>,
    /// The object read in place when last found unchanged; none since a reading did not agree with the
    /// C interface's (then it is only compared through that), or while reading in place is off.
    image: Option<Image>,
}

/// An object found unchanged, read in place (see `sandbox/qjs/layout.rs`): while it reads the same, it
/// is unchanged.
struct Image {
    /// The one-bit fields that say where its own keys are kept.
    flags: u8,
    /// How many own keys it has, but for the global object (only the snapshot's keys are compared).
    live: Option<usize>,
    entries: Vec<Entry>,
}

/// A property of the snapshot as read in place: its place in the shape, its key's id, and its attributes
/// and slot, but for a property the harness replaces (only its presence is compared).
struct Entry {
    index: usize,
    atom: u32,
    held: Option<(Flags, Slot)>,
}

impl Image {
    /// Whether `object` reads as the image does.
    fn matches(&self, object: Ref) -> bool {
        let Some(view) = View::of(object) else { return false };
        if view.flags() != self.flags || self.live.is_some_and(|live| live != view.live()) {
            return false;
        }
        self.entries.iter().all(|e| {
            let Some((atom, flags)) = view.key(e.index) else { return false };
            atom == e.atom && e.held.is_none_or(|(held, slot)| held == flags && view.slot(e.index) == Some(slot))
        })
    }
}

impl Tracked {
    /// The object read in place, when every property of the snapshot reads there as the C interface read
    /// it (the caller found it unchanged) and its own keys are all in its shape (`exotics`). An array's
    /// elements are kept apart: an image is taken of one without elements and a length of 0 (its first
    /// property), which an added element changes.
    fn image(&self, cx: Cx, exotics: &Exotics) -> Option<Image> {
        let view = View::of(self.object.get(cx))?;
        if !view.keys_in_shape(exotics) || !self.open && view.live() != self.properties.len() {
            return None;
        }
        let entries_now = view.entries();
        let mut entries = Vec::with_capacity(self.properties.len());
        // The listing is in the shape's order but for symbols (listed last): each key is looked for from
        // where the last one was found on.
        let mut from = 0;
        for p in &self.properties {
            let atom = p.atom.id();
            let index = (from..entries_now).chain(0..from).find(|i| view.key(*i).is_some_and(|(a, _)| a == atom))?;
            from = index + 1;
            if p.replaced {
                entries.push(Entry { index, atom, held: None });
                continue;
            }
            let (flags, slot) = (view.key(index)?.1, view.slot(index)?);
            if !layout::reads_as(flags, slot, p.attributes, [&p.value, &p.getter, &p.setter]) {
                return None;
            }
            entries.push(Entry { index, atom, held: Some((flags, slot)) });
        }
        if view.fast_array() {
            let length = entries.first().filter(|e| e.index == 0).and_then(|e| e.held);
            if !length.is_some_and(|(_, slot)| slot.is_zero()) {
                return None;
            }
        }
        Some(Image { flags: view.flags(), live: (!self.open).then_some(view.live()), entries })
    }
}

/// The snapshot of the built-ins, owned by one context (see [`Guard::take`]).
pub(super) struct Guard {
    tracked: Vec<Tracked>,
    cursor: usize,
    /// What objects' own keys an image can follow.
    exotics: Exotics,
    /// Whether objects found unchanged are read in place (see `sandbox/qjs/layout.rs`).
    in_place: bool,
}

/// The names of the global object's properties before the program loaded, Flycatcher's own
/// (`__fc$...`, which hold its state and change with every test) left out: what the program adds to the
/// global object later is its own state, not a built-in. Taken by [`Baseline::take`] and given to
/// [`Guard::take`].
pub(super) struct Baseline {
    /// Holds a reference to every key, so that no id in `names` is freed and reused meanwhile.
    _keys: Vec<KeptAtom>,
    names: FxHashSet<u32>,
}

impl Baseline {
    /// The global object's string keys now, kept in `anchor`'s context, or `None` when they cannot be
    /// listed.
    pub(super) fn take(ctx: &Ctx, anchor: &Anchor) -> Option<Baseline> {
        let cx = Cx::of(ctx);
        let global = cx.global();
        let keys = OwnKeys::of_or_none(cx, global.get(), KeyFilter::STRINGS)?;
        let keys: Vec<KeptAtom> = keys
            .atoms()
            .filter(|atom| !atom_text(cx, *atom).starts_with(PREFIX))
            .map(|atom| KeptAtom::new(anchor, Atom::dup(cx, atom)))
            .collect();
        let names = keys.iter().map(KeptAtom::id).collect();
        Some(Baseline { _keys: keys, names })
    }
}

/// A built-in found by the listing, before its snapshot: its own reference, and the keys whose values
/// the harness replaces, and, for the global object, those that are no built-in.
struct Found<'js> {
    object: Owned<'js>,
    name: Name,
    replaced: Vec<Atom<'js>>,
    ignored: Option<Vec<Atom<'js>>>,
}

/// The listing: each object once, in the order found.
struct Listing<'a, 'js> {
    cx: Cx<'js>,
    anchor: &'a Anchor,
    found: Vec<Found<'js>>,
    seen: FxHashSet<usize>,
}

impl<'js> Listing<'_, 'js> {
    /// Adds `value` when it is an object not listed yet (else lets it go, with what comes with it).
    fn add(&mut self, value: Owned<'js>, name: Name, replaced: Vec<Atom<'js>>, ignored: Option<Vec<Atom<'js>>>) {
        if value.get().identity().is_some_and(|id| self.seen.insert(id)) {
            self.found.push(Found { object: value, name, replaced, ignored });
        }
    }

    /// The built-ins the global object held before the program loaded (see [`Baseline`]), each by the
    /// own data property that holds it, in the order of `keys`, the global object's string keys. The
    /// `Date` of the global object is the determinism shim's (the real one is a root).
    fn global_values(&mut self, global: Ref<'_, 'js>, keys: &OwnKeys<'js>, baseline: &Baseline) {
        let cx = self.cx;
        let date = Atom::new(cx, c"Date");
        for atom in keys.atoms().filter(|atom| baseline.names.contains(&atom.id()) && *atom != date.get()) {
            if let Some(value) = cx.own_value(global, atom) {
                self.add(value, Name::Global(KeptAtom::new(self.anchor, Atom::dup(cx, atom))), Vec::new(), None);
            }
        }
    }

    /// The prototypes of the functions found and what every object found inherits from, each in turn
    /// (those found on the way included).
    fn prototypes(&mut self) -> rquickjs::Result<()> {
        let cx = self.cx;
        let prototype = Atom::new(cx, c"prototype");
        let mut index = 0;
        while index < self.found.len() {
            let object = self.found[index].object.get();
            let value = if cx.is_function(object) { cx.own_value(object, prototype.get()) } else { None };
            let parent = cx.prototype(object);
            if let Some(value) = value {
                self.add(value, Name::Prototype(index), Vec::new(), None);
            }
            // A proxy's trap threw: the listing fails, as the engine's construction then does.
            self.add(parent?, Name::ProtoOf(index), Vec::new(), None);
            index += 1;
        }
        Ok(())
    }
}

impl Guard {
    /// Lists the built-ins of `ctx` and snapshots them, kept in `anchor`'s context; `baseline` is what
    /// the global object held before the program loaded.
    pub(super) fn take<'js>(ctx: &Ctx<'js>, anchor: &Anchor, baseline: &Baseline) -> rquickjs::Result<Guard> {
        let roots: rquickjs::Function = ctx.globals().get(crate::js::BUILTINS)?;
        let roots: Array = roots.call(())?;
        let [object_proto, math, performance, date]: [Value; 4] =
            [roots.get(0)?, roots.get(1)?, roots.get(2)?, roots.get(3)?];
        let lazy: Vec<Value> = roots.get(4)?;
        let iterators: Vec<Value> = roots.get(5)?;
        let cx = Cx::of(ctx);
        let mut listing = Listing { cx, anchor, found: Vec::with_capacity(160), seen: FxHashSet::default() };
        let dup = |v: &Value<'js>| Owned::dup(cx, Ref::of(v));
        listing.add(dup(&object_proto), Name::Fixed("Object.prototype"), Vec::new(), None);
        let global = cx.global();
        let keys = OwnKeys::of_or_none(cx, global.get(), KeyFilter::STRINGS);
        // The program's own globals (`var issued = 0` of a script) and ours are state, not built-ins.
        let ignored = keys.iter().flat_map(OwnKeys::atoms).filter(|atom| !baseline.names.contains(&atom.id()));
        let ignored = ignored.map(|atom| Atom::dup(cx, atom)).collect();
        let mut replaced = vec![Atom::new(cx, c"Date")];
        replaced.extend(lazy.iter().filter_map(|name| Atom::of_value(cx, Ref::of(name)).ok()));
        listing.add(Owned::dup(cx, global.get()), Name::Fixed("globalThis"), replaced, Some(ignored));
        listing.add(dup(&math), Name::Fixed("Math"), vec![Atom::new(cx, c"random")], None);
        listing.add(dup(&performance), Name::Fixed("performance"), vec![Atom::new(cx, c"now")], None);
        listing.add(dup(&date), Name::Fixed("Date"), Vec::new(), None);
        if let Some(keys) = &keys {
            listing.global_values(global.get(), keys, baseline);
        }
        drop(keys);
        drop(global);
        let expanded = listing.prototypes();
        for (i, prototype) in iterators.iter().enumerate() {
            let name = if i % 2 == 0 { "an iterator prototype" } else { "Iterator.prototype" };
            listing.add(dup(prototype), Name::Fixed(name), Vec::new(), None);
        }
        let exotics = Exotics::of(cx);
        let tracked = listing.found.drain(..).map(|found| snapshot(cx, anchor, found)).collect();
        let mut guard = Guard { tracked, cursor: 1, exotics, in_place: true };
        // Read in place once all are snapshotted: reading a property makes what QuickJS makes on first
        // use (a built-in function), which changes its slot.
        for tracked in &mut guard.tracked {
            tracked.image = tracked.image(cx, &guard.exotics);
        }
        expanded?;
        Ok(guard)
    }

    /// Reads objects found unchanged in place (`on`), or compares every object through the C interface.
    /// Switched on, each object is compared through it once more, and read in place from then on.
    pub(super) fn set_in_place(&mut self, cx: Cx, on: bool) {
        if on && !self.in_place {
            for index in 0..self.tracked.len() {
                if self.compared(cx, index).is_none() {
                    self.tracked[index].image = self.tracked[index].image(cx, &self.exotics);
                }
            }
        } else if !on {
            self.tracked.iter_mut().for_each(|tracked| tracked.image = None);
        }
        self.in_place = on;
    }

    /// The first property changed since the snapshot (`Array.prototype.push`), checking
    /// `Object.prototype` and the next slice of the others, or all of them with `all`.
    pub(super) fn changed(&mut self, cx: Cx, all: bool) -> Option<String> {
        if !self.tracked.is_empty()
            && let Some(found) = self.changed_in(cx, 0)
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
            if let Some(found) = self.changed_in(cx, index) {
                return Some(found);
            }
            checked += self.tracked[index].properties.len();
        }
        None
    }

    /// How a message names the built-in at `index`.
    fn name_of(&self, cx: Cx, index: usize) -> String {
        match &self.tracked[index].name {
            Name::Fixed(name) => name.to_string(),
            Name::Global(atom) => atom_text(cx, atom.get(cx)),
            Name::Prototype(of) => format!("{}.prototype", self.name_of(cx, *of)),
            Name::ProtoOf(of) => format!("the prototype of {}", self.name_of(cx, *of)),
        }
    }

    /// The first property of the built-in at `index` changed since the snapshot: none while it reads in
    /// place as when last found unchanged, else as the C interface finds (and a new image if none).
    fn changed_in(&mut self, cx: Cx, index: usize) -> Option<String> {
        let tracked = &self.tracked[index];
        if tracked.image.as_ref().is_some_and(|image| image.matches(tracked.object.get(cx))) {
            return None;
        }
        let found = self.compared(cx, index);
        let tracked = &mut self.tracked[index];
        if found.is_none() && tracked.image.is_some() {
            tracked.image = tracked.image(cx, &self.exotics);
        }
        found
    }

    /// [`Guard::changed_in`] through the C interface.
    fn compared(&self, cx: Cx, index: usize) -> Option<String> {
        let tracked = &self.tracked[index];
        let object = tracked.object.get(cx);
        let named = |atom| format!("{}{}", self.name_of(cx, index), key_text(cx, atom));
        // Properties of an open object are only checked one by one, below.
        if !tracked.open {
            let keys = OwnKeys::of_or_none(cx, object, KeyFilter::ALL)?;
            // Unchanged keys come in the same order; only a change needs the search for what changed.
            let same_keys = keys.len() == tracked.properties.len()
                && keys.atoms().zip(&tracked.properties).all(|(k, p)| k.id() == p.atom.id());
            if !same_keys {
                return Some(match keys.atoms().find(|k| !tracked.properties.iter().any(|p| p.atom.id() == k.id())) {
                    Some(added) => named(added),
                    None => format!("{} (a property deleted or redefined)", self.name_of(cx, index)),
                });
            }
        }
        for p in &tracked.properties {
            let atom = p.atom.get(cx);
            let Some(d) = cx.own_property_or_none(object, atom) else { return Some(named(atom)) };
            // A replaced property (the clock, Node's globals made on first read) may change in any way.
            let unchanged = p.replaced
                || d.attributes() == p.attributes
                    && d.value().same(p.value.get(cx))
                    && d.getter().same(p.getter.get(cx))
                    && d.setter().same(p.setter.get(cx));
            drop(d);
            if !unchanged {
                return Some(named(atom));
            }
        }
        None
    }
}

/// The snapshot of a built-in found by the listing: its own properties, but those `found` ignores.
fn snapshot<'js>(cx: Cx<'js>, anchor: &Anchor, found: Found<'js>) -> Tracked {
    let Found { object, name, replaced, ignored } = found;
    let open = ignored.is_some();
    let ignored = ignored.unwrap_or_default();
    let mut properties = Vec::new();
    let keys = OwnKeys::of_or_none(cx, object.get(), KeyFilter::ALL);
    for atom in keys.iter().flat_map(OwnKeys::atoms) {
        // A skipped key is not read: a descriptor read holds references to free.
        let read =
            if ignored.iter().any(|i| i.get() == atom) { None } else { cx.own_property_or_none(object.get(), atom) };
        let Some(d) = read else { continue };
        let replaced = replaced.iter().any(|r| r.get() == atom);
        let (attributes, [value, getter, setter]) = d.into_parts();
        properties.push(Property {
            atom: KeptAtom::new(anchor, Atom::dup(cx, atom)),
            attributes,
            value: Kept::new(anchor, value),
            getter: Kept::new(anchor, getter),
            setter: Kept::new(anchor, setter),
            replaced,
        });
    }
    Tracked { object: Kept::new(anchor, object), open, name, properties, image: None }
}

/// A key's text: a string key as is (to its first NUL, as a C string reads), a symbol as its
/// description.
fn atom_text<'js>(cx: Cx<'js>, atom: AtomRef<'_, 'js>) -> String {
    match cx.key_text(atom) {
        Ok(text) => {
            let bytes = text.bytes().split(|b| *b == 0).next().unwrap_or_default();
            String::from_utf8_lossy(bytes).into_owned()
        }
        Err(thrown) => {
            thrown.dismiss(cx);
            String::new()
        }
    }
}

/// How a key reads after its object's name: `.push`, or `[Symbol.iterator]`.
fn key_text<'js>(cx: Cx<'js>, atom: AtomRef<'_, 'js>) -> String {
    let text = atom_text(cx, atom);
    if text.starts_with("Symbol.") || text.is_empty() { format!("[{text}]") } else { format!(".{text}") }
}
