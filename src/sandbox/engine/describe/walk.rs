//! One description being made ([`Walk`]): a value's description by the steps `js/describe.js` took, in
//! the same order, through the C interface (see `sandbox/qjs`), with the bounds of its [`Describer`].

use std::cell::Cell;

use super::collection::Collections;
use super::desc::{Desc, JsonNumber, Text};
use crate::sandbox::engine::text::TextBudget;
use crate::sandbox::qjs::{Atom, AtomRef, CText, Cx, Kept, KeptAtom, KeyFilter, Kind, OwnKeys, Ref, Step, Thrown};

/// How a describer names an object its user knows instead of describing it.
pub(super) enum Known {
    Nothing,
    /// The harness: a variable of the running test met below the top (by identity, in this array).
    Variables(Kept),
    /// The recorder: a function answering the object id of a recorded object, or -1.
    Recorded(Kept),
}

/// One describer's table of classes, way of naming known objects and bounds (see `make`).
pub(super) struct Describer {
    pub(super) classes: Kept,
    pub(super) known: Known,
    /// Deeper values are `deep`.
    pub(super) max_depth: usize,
    /// Longer arrays are `arrlen`; further fields are left out (and the object `cut`).
    pub(super) max_items: usize,
    /// Objects described per value at most (the rest are `deep`).
    pub(super) max_nodes: usize,
    /// A value met again inside itself is a `cycle` (else only the bounds stop a cycle).
    pub(super) cycles: bool,
    /// Mark what a literal would get wrong (`extra` array properties, left-out members as `cut`,
    /// dictionaries as `bare`), so that Rust asserts such values field by field.
    pub(super) complete: bool,
    /// Only objects whose prototype is `Date.prototype` are dates (else any `instanceof Date`).
    pub(super) exact_dates: bool,
}

/// The built-ins describing uses, as they were before user code ran (`__fc$P`), and the keys it reads.
pub(super) struct Primordials {
    pub(super) string: Kept,
    pub(super) is_array: Kept,
    pub(super) get_time: Kept,
    pub(super) regexp_text: Kept,
    pub(super) date: Kept,
    pub(super) regexp: Kept,
    pub(super) error: Kept,
    pub(super) date_proto: Kept,
    pub(super) object_proto: Kept,
    pub(super) array_proto: Kept,
    pub(super) collections: Collections,
    pub(super) atoms: Atoms,
}

pub(super) struct Atoms {
    pub(super) proto: KeptAtom,
    pub(super) constructor: KeptAtom,
    pub(super) name: KeptAtom,
    pub(super) message: KeptAtom,
    pub(super) stack: KeptAtom,
    pub(super) length: KeptAtom,
    pub(super) prototype: KeptAtom,
}

/// An object's own enumerable string keys, as `Object.keys` lists them: the listing, and for a proxy
/// which of its keys its descriptors said are enumerable.
struct Enumerable<'js> {
    keys: OwnKeys<'js>,
    only: Option<Vec<bool>>,
}

impl<'js> Enumerable<'js> {
    fn atoms(&self) -> impl Iterator<Item = AtomRef<'_, 'js>> + '_ {
        let only = self.only.as_deref();
        self.keys.atoms().enumerate().filter(move |(i, _)| only.is_none_or(|only| only[*i])).map(|(_, atom)| atom)
    }
}

/// One description being made.
pub(super) struct Walk<'a, 'js> {
    pub(super) cx: Cx<'js>,
    pub(super) p: &'a Primordials,
    pub(super) d: &'a Describer,
    /// Text is taken within this budget (the harness's descriptions), or without one (the recorder's
    /// and thrown values', which go back to JavaScript as JSON).
    pub(super) budget: Option<(&'a TextBudget, &'a Cell<bool>)>,
    pub(super) nodes: usize,
    /// The objects being described, outermost first.
    pub(super) seen: Vec<usize>,
}

impl<'a, 'js> Walk<'a, 'js> {
    /// The bytes of a text QuickJS made, within the budget (none when they do not fit).
    #[inline]
    fn taken(&self, text: CText) -> Text {
        let bytes = text.bytes();
        let fits = match self.budget {
            Some((budget, over)) => {
                let fits = budget.take(bytes.len());
                if !fits {
                    over.set(true);
                }
                fits
            }
            None => true,
        };
        if fits { bytes.to_vec() } else { Vec::new() }
    }

    #[inline]
    fn text(&self, string: Ref<'_, 'js>) -> Step<Text> {
        Ok(self.taken(self.cx.text(string)?))
    }

    #[inline]
    fn key_text(&self, atom: AtomRef<'_, 'js>) -> Step<Text> {
        Ok(self.taken(self.cx.key_text(atom)?))
    }

    /// `String(value)`.
    fn string_of(&self, value: Ref<'_, 'js>) -> Step<Text> {
        let string = self.cx.call(self.p.string.get(self.cx), value)?;
        self.text(string.get())
    }

    /// The first item of `list` (a Flycatcher array, its length read once per item as a loop does)
    /// for which `test` answers something, with its index.
    fn find_in<T>(
        &self,
        list: Ref<'_, 'js>,
        mut test: impl FnMut(Ref<'_, 'js>) -> Step<Option<T>>,
    ) -> Step<Option<(usize, T)>> {
        let mut i = 0u32;
        loop {
            if i64::from(i) >= self.cx.length(list)? {
                return Ok(None);
            }
            let item = self.cx.get_index(list, i)?;
            if let Some(found) = test(item.get())? {
                return Ok(Some((i as usize, found)));
            }
            i += 1;
        }
    }

    /// Where `value` is in `list` (a Flycatcher array), by identity, as `indexOf`.
    fn index_in(&self, list: Ref<'_, 'js>, value: Ref<'_, 'js>) -> Step<Option<usize>> {
        let cx = self.cx;
        let found = self.find_in(list, |item| Ok(cx.strict_eq(item, value).then_some(())))?;
        Ok(found.map(|(i, ())| i))
    }

    /// The description of `value`, `depth` levels down.
    pub(super) fn describe(&mut self, value: Ref<'_, 'js>, depth: usize) -> Step<Desc> {
        Ok(match value.kind() {
            Kind::Undefined => Desc::Undefined,
            Kind::Boolean(b) => Desc::Boolean(b),
            Kind::Int(n) => Desc::Number(n.to_string()),
            Kind::Float(x) => Desc::Number(self.number_text(value, x)?),
            Kind::String => Desc::String(self.text(value)?),
            Kind::BigInt => {
                let digits = self.cx.to_string(value)?;
                Desc::BigInt(String::from_utf8_lossy(&self.text(digits.get())?).into_owned())
            }
            Kind::Symbol => Desc::Symbol,
            Kind::Null => Desc::Null,
            Kind::Object => self.object(value, depth)?,
            Kind::Other => Desc::Unreadable,
        })
    }

    /// A variable's state (see `Descriptions::state`): its description, but for an error that is an
    /// instance of a class of the program (an error subclass with fields, built by a test), its fields as
    /// any instance's, its own `message` first: what its construction set, which state assertions read
    /// field by field. As a thrown value it stays an error (name and message).
    pub(super) fn state(&mut self, value: Ref<'_, 'js>) -> Step<Desc> {
        let (cx, p) = (self.cx, self.p);
        let error = matches!(value.kind(), Kind::Object)
            && !value.is_proxy()
            && (value.is_error() || cx.instance_of(value, p.error.get(cx))?);
        let class = if error { self.class_of(cx.prototype(value)?.get())? } else { None };
        let Some(class) = class else { return self.describe(value, 0) };
        let (mut fields, _) = self.fields_of(value, 0)?;
        if let Some(d) = cx.own_property(value, p.atoms.message.get(cx))?
            && !d.is_accessor()
            && matches!(d.value().kind(), Kind::String)
        {
            fields.insert(0, (b"message".to_vec(), self.describe(d.value(), 1)?));
        }
        Ok(Desc::Instance { class, fields })
    }

    /// `String(x)` of a double (`value`), `-0` for negative zero (which `Object.is` tells from zero).
    fn number_text(&self, value: Ref<'_, 'js>, x: f64) -> Step<String> {
        if x == 0.0 && x.is_sign_negative() {
            return Ok("-0".into());
        }
        // Whole numbers below 2^53 print as their digits in both languages.
        if x.fract() == 0.0 && x.abs() < 9.0e15 {
            return Ok((x as i64).to_string());
        }
        let text = self.cx.to_string(value)?;
        Ok(String::from_utf8_lossy(&self.text(text.get())?).into_owned())
    }

    /// An object (functions included): named, a class, a cycle, too deep, or described; a catchable
    /// exception while describing it makes it `unreadable`.
    fn object(&mut self, value: Ref<'_, 'js>, depth: usize) -> Step<Desc> {
        if let Some(named) = self.known(value, depth)? {
            return Ok(named);
        }
        if self.cx.is_function(value) {
            return Ok(match self.index_in(self.d.classes.get(self.cx), value)? {
                Some(class) => Desc::Class(class),
                None => Desc::Function,
            });
        }
        let id = value.identity().unwrap_or_default();
        if self.d.cycles && self.seen.contains(&id) {
            return Ok(Desc::Cycle);
        }
        if depth >= self.d.max_depth {
            return Ok(Desc::Deep);
        }
        self.nodes += 1;
        if self.nodes > self.d.max_nodes {
            return Ok(Desc::Deep);
        }
        self.seen.push(id);
        let made = self.inside(value, depth);
        self.seen.pop();
        match made {
            Ok(desc) => Ok(desc),
            Err(thrown) => {
                thrown.dismiss_catchable(self.cx)?;
                Ok(Desc::Unreadable)
            }
        }
    }

    fn known(&self, value: Ref<'_, 'js>, depth: usize) -> Step<Option<Desc>> {
        match &self.d.known {
            Known::Nothing => Ok(None),
            Known::Variables(_) if depth == 0 => Ok(None),
            Known::Variables(vars) => Ok(self.index_in(vars.get(self.cx), value)?.map(Desc::Variable)),
            Known::Recorded(f) => {
                let id = self.cx.call(f.get(self.cx), value)?;
                let id = self.cx.to_f64(id.get())?;
                Ok((id >= 0.0).then_some(Desc::Ref(id as i64)))
            }
        }
    }

    /// An object below the bounds: an array, a date, a regular expression, an error, or by its fields.
    fn inside(&mut self, value: Ref<'_, 'js>, depth: usize) -> Step<Desc> {
        let (cx, p) = (self.cx, self.p);
        let is_array = if value.is_proxy() {
            // `Array.isArray` looks through a proxy (and throws for a revoked one).
            let answer = cx.call(p.is_array.get(cx), value)?;
            cx.truthy(answer.get())
        } else {
            value.is_array()
        };
        if is_array && value.is_proxy() {
            // A proxy stays an array: its prototype is what its trap answers.
            return self.array(value, depth);
        }
        let proto = cx.prototype(value)?;
        if is_array && cx.strict_eq(proto.get(), p.array_proto.get(cx)) {
            return self.array(value, depth);
        }
        if is_array {
            // An instance of a class extending `Array` (a vector, a matrix) is no array literal to deep
            // equality, which compares prototypes: it is an instance, by its items as fields, or else
            // another object.
            let (fields, _) = self.fields_of(value, depth)?;
            return Ok(match self.class_of(proto.get())? {
                Some(class) => Desc::Instance { class, fields },
                None => Desc::Other(self.constructor_name(proto.get())?),
            });
        }
        // The recorder's descriptions (not `complete`) keep them as objects of another kind, as replays read them.
        if self.d.complete
            && let Some(collection) = self.collection(value, proto.get(), depth)?
        {
            return Ok(collection);
        }
        let date = if self.d.exact_dates {
            cx.strict_eq(proto.get(), p.date_proto.get(cx))
        } else {
            cx.instance_of(value, p.date.get(cx))?
        };
        if date {
            let time = cx.call(p.get_time.get(cx), value)?;
            return Ok(Desc::Date(JsonNumber(cx.to_f64(time.get())?)));
        }
        if cx.instance_of(value, p.regexp.get(cx))? {
            let text = cx.call(p.regexp_text.get(cx), value)?;
            return Ok(Desc::RegExp(self.text(text.get())?));
        }
        // An error whose prototype code replaced (`Error.call(this)` in compiled classes called without
        // `new` returns one, then given `Object.prototype`) is still one to Node's deep equality.
        if value.is_error() || cx.instance_of(value, p.error.get(cx))? {
            let name = cx.get(value, p.atoms.name.get(cx))?;
            let name = self.string_of(name.get())?;
            let message = cx.get(value, p.atoms.message.get(cx))?;
            let message = self.string_of(message.get())?;
            let stack = cx.get(value, p.atoms.stack.get(cx))?;
            let stack = self.string_of(stack.get())?;
            return Ok(Desc::Error { name, message, stack });
        }
        let (fields, cut) = self.fields_of(value, depth)?;
        let object_proto = cx.strict_eq(proto.get(), p.object_proto.get(cx));
        let bare = proto.get().is_null();
        if !self.d.complete && (object_proto || bare) {
            return Ok(Desc::Object { fields, cut: false, bare: false });
        }
        if object_proto || bare {
            // A cut description is asserted field by field, never as a whole literal; a dictionary
            // (`Object.create(null)`) is told from `{}` by deep equality, so the literal says so.
            return Ok(Desc::Object { fields, cut, bare });
        }
        if let Some(class) = self.class_of(proto.get())? {
            return Ok(Desc::Instance { class, fields });
        }
        Ok(Desc::Other(self.constructor_name(proto.get())?))
    }

    /// An array's length: its own for an array, what the proxy answers (as a number) for a proxy.
    fn length(&self, array: Ref<'_, 'js>) -> Step<f64> {
        if !array.is_proxy() {
            return Ok(self.cx.length(array)? as f64);
        }
        let length = self.cx.get(array, self.p.atoms.length.get(self.cx))?;
        self.cx.to_f64(length.get())
    }

    fn array(&mut self, array: Ref<'_, 'js>, depth: usize) -> Step<Desc> {
        let cx = self.cx;
        if self.length(array)? > self.d.max_items as f64 {
            return Ok(Desc::LongArray(JsonNumber(self.length(array)?)));
        }
        let mut items = Vec::new();
        // The length is read again before every item, as the loop did: a getter may change it.
        let mut i = 0u32;
        while (i as f64) < self.length(array)? {
            let has = cx.has(array, Atom::index(cx, i).get())?;
            // Holes are not `undefined` to deep equality: they are kept as holes.
            let item = if has {
                let item = cx.get_index(array, i)?;
                self.describe(item.get(), depth + 1)?
            } else {
                Desc::Hole
            };
            items.push(item);
            i = i.checked_add(1).ok_or(Thrown)?;
        }
        if !self.d.complete {
            return Ok(Desc::Array { items, extra: false });
        }
        // Other own properties (`a['1.5'] = x`) count for deep equality too: no literal then.
        let indexes = items.iter().filter(|item| !matches!(item, Desc::Hole)).count();
        let extra = self.enumerable_keys(array)?.atoms().count() != indexes;
        Ok(Desc::Array { items, extra })
    }

    /// The own enumerable string keys, as `Object.keys` lists them: a proxy is asked for its keys,
    /// then for each key's descriptor, before anything else is read.
    fn enumerable_keys(&self, object: Ref<'_, 'js>) -> Step<Enumerable<'js>> {
        let cx = self.cx;
        if !object.is_proxy() {
            return Ok(Enumerable { keys: OwnKeys::of(cx, object, KeyFilter::ENUMERABLE_STRINGS)?, only: None });
        }
        let keys = OwnKeys::of(cx, object, KeyFilter::STRINGS)?;
        let mut only = Vec::with_capacity(keys.len());
        for atom in keys.atoms() {
            only.push(cx.own_property(object, atom)?.is_some_and(|d| d.is_enumerable()));
        }
        Ok(Enumerable { keys, only: Some(only) })
    }

    /// The keys of the first `max_items + 1` elements of a typed array that has more: all a description
    /// reads of it, where listing its keys made one for every element (a bit set's or a heap's storage has
    /// millions, listed at every description of a state that holds it). Its elements come first in the
    /// listing, in order, and none is skipped (each is a number). `None` for anything else.
    fn typed_array_items(&self, object: Ref<'_, 'js>) -> Step<Option<Vec<Atom<'js>>>> {
        if object.is_proxy() || !object.is_typed_array() {
            return Ok(None);
        }
        let Ok(last) = u32::try_from(self.d.max_items) else { return Ok(None) };
        let items: Vec<Atom> = (0..=last).map(|i| Atom::index(self.cx, i)).collect();
        // A shorter array's listing is short.
        let more = self.cx.own_property(object, items[last as usize].get())?.is_some();
        Ok(more.then_some(items))
    }

    /// Own data fields, without `__proto__` (a literal key of that name writes the prototype instead)
    /// and without functions and accessors; whether one was left out, or past the
    /// limit, or an enumerable symbol key (deep equality counts it, and a literal cannot say it).
    pub(super) fn fields_of(&mut self, object: Ref<'_, 'js>, depth: usize) -> Step<(Vec<(Text, Desc)>, bool)> {
        let (cx, p) = (self.cx, self.p);
        let mut fields = Vec::new();
        let mut count = 0;
        let mut partial = false;
        {
            let made;
            let listing;
            let atoms: Vec<AtomRef> = match self.typed_array_items(object)? {
                Some(items) => {
                    made = items;
                    made.iter().map(Atom::get).collect()
                }
                None => {
                    listing = self.enumerable_keys(object)?;
                    listing.atoms().collect()
                }
            };
            let proto = p.atoms.proto.get(cx);
            for atom in atoms {
                if atom == proto {
                    // Deep equality under Node counts it: the object is then asserted field by field.
                    partial = true;
                    continue;
                }
                let Some(d) = cx.own_property(object, atom)? else {
                    partial = true;
                    continue;
                };
                if d.is_accessor() || cx.is_function(d.value()) {
                    partial = true;
                    continue;
                }
                count += 1;
                if count > self.d.max_items {
                    break;
                }
                let key = self.key_text(atom)?;
                fields.push((key, self.describe(d.value(), depth + 1)?));
            }
        }
        let symbols = OwnKeys::of(cx, object, KeyFilter::SYMBOLS)?;
        for atom in symbols.atoms() {
            if partial {
                break;
            }
            let Some(d) = cx.own_property(object, atom)? else {
                // `descriptor(v, s).enumerable` of a key the proxy listed but does not describe.
                return Err(Thrown::type_error(cx, c"a listed symbol has no descriptor"));
            };
            partial = d.is_enumerable();
        }
        Ok((fields, count > self.d.max_items || partial))
    }

    /// The index of the class whose `prototype` is `proto`, reading each class's in turn.
    pub(super) fn class_of(&self, proto: Ref<'_, 'js>) -> Step<Option<usize>> {
        let (cx, p) = (self.cx, self.p);
        let found = self.find_in(self.d.classes.get(cx), |class| {
            if !cx.truthy(class) {
                return Ok(None);
            }
            let prototype = cx.get(class, p.atoms.prototype.get(cx))?;
            Ok(cx.strict_eq(prototype.get(), proto).then_some(()))
        })?;
        Ok(found.map(|(i, ())| i))
    }

    /// The name of the function that is `proto`'s own data `constructor`, or nothing.
    pub(super) fn constructor_name(&self, proto: Ref<'_, 'js>) -> Step<Text> {
        let cx = self.cx;
        let Some(d) = cx.own_property(proto, self.p.atoms.constructor.get(cx))? else { return Ok(Vec::new()) };
        if d.is_accessor() || !cx.is_function(d.value()) {
            return Ok(Vec::new());
        }
        let name = cx.get(d.value(), self.p.atoms.name.get(cx))?;
        self.string_of(name.get())
    }
}
