//! Describing values through QuickJS's C interface, in the format Rust reads as [`Observed`]: what a
//! method under test returned and the state its call left (`harness.js`), and what a recorded call saw
//! (`recorder.js`).
//!
//! The harness described values in JavaScript (`js/describe.js`, now gone): an object per description
//! and a descriptor object per field, compared as JSON and then read back from Rust. On a class covered
//! in milliseconds (`ledger.cjs`) that was ~30 us of a ~75 us run alone, most of it the variables'
//! states, described before and after every call of the method under test. Here a description is made
//! from the values by the same steps the JavaScript took, in the same order: the same proxy traps and
//! getters run (a proxy's `ownKeys` once per listing, its `getOwnPropertyDescriptor` for the
//! enumerability check and again for the field, as `Object.keys` and the descriptor read did), an
//! exception makes the object being described `unreadable`, and an uncatchable one (the deadline's)
//! goes on up. The harness holds a number for each description: its index among the test's
//! [`Desc`]s here, which the results' reader turns into an [`Observed`] (`results.rs`).
//!
//! The describers are made by the harness and the recorder with their own bounds (`make`, see
//! [`Describer`]), through the functions of the hidden global [`crate::js::DESCRIBE`].

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use rquickjs::{Array, Ctx, Function, Object, Value, qjs};

use super::props::{OwnKeys, Thrown, own_property_or_throw};
use super::text::TextBudget;
use crate::model::observed::Observed;

/// A string's text as QuickJS gives it: UTF-8, a lone surrogate written as if it were a character
/// (so two texts are equal exactly when their strings are).
type Text = Vec<u8>;

/// A number as `JSON.stringify` compares it: every non-finite value writes `null`.
#[derive(Debug, Clone, Copy)]
pub(super) struct JsonNumber(f64);

impl PartialEq for JsonNumber {
    fn eq(&self, other: &JsonNumber) -> bool {
        self.0 == other.0 || !self.0.is_finite() && !other.0.is_finite()
    }
}

/// A description as made, before Rust reads it as an [`Observed`]: fields in the order JavaScript
/// lists them and text as QuickJS gives it, so that two descriptions are equal exactly when the JSON
/// texts the harness compared before were (a field's order counts, as it did in the text).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Desc {
    Undefined,
    Boolean(bool),
    Number(String),
    String(Text),
    BigInt(String),
    Symbol,
    Null,
    Variable(usize),
    Class(usize),
    Function,
    Cycle,
    Deep,
    Hole,
    LongArray(JsonNumber),
    Array { items: Vec<Desc>, extra: bool },
    Iterator { done: bool, items: Vec<Desc> },
    Date(JsonNumber),
    RegExp(Text),
    Error { name: Text, message: Text },
    Object { fields: Vec<(Text, Desc)>, cut: bool, bare: bool },
    Instance { class: usize, fields: Vec<(Text, Desc)> },
    Other(Text),
    Unreadable,
    Ref(i64),
}

impl Desc {
    fn fields(&self) -> Option<&[(Text, Desc)]> {
        match self {
            Desc::Object { fields, .. } | Desc::Instance { fields, .. } => Some(fields),
            _ => None,
        }
    }

    /// The description as Rust keeps it; fails on what it cannot hold (a lone surrogate), as serde
    /// refused it in the harness's JSON.
    pub(super) fn observed(self) -> Result<Observed, &'static str> {
        let text = |t: Text| String::from_utf8(t).map_err(|_| "a string with a lone surrogate");
        let list = |items: Vec<Desc>| items.into_iter().map(Desc::observed).collect::<Result<Vec<_>, _>>();
        let map = |fields: Vec<(Text, Desc)>| {
            fields
                .into_iter()
                .map(|(k, d)| Ok::<_, &'static str>((text(k)?, d.observed()?)))
                .collect::<Result<BTreeMap<_, _>, _>>()
        };
        Ok(match self {
            Desc::Undefined => Observed::Undefined,
            Desc::Boolean(value) => Observed::Boolean { value },
            Desc::Number(text) => Observed::Number { text },
            Desc::String(value) => Observed::String { value: text(value)? },
            Desc::BigInt(digits) => Observed::BigInt { digits },
            Desc::Symbol => Observed::Symbol,
            Desc::Null => Observed::Null,
            Desc::Variable(index) => Observed::Variable { index },
            Desc::Class(class) => Observed::Class { class },
            Desc::Function => Observed::Function,
            Desc::Cycle => Observed::Cycle,
            Desc::Deep => Observed::Deep,
            Desc::Hole => Observed::Hole,
            Desc::LongArray(JsonNumber(n)) => Observed::LongArray { length: index(n).ok_or("an index was expected")? },
            Desc::Array { items, extra } => Observed::Array { items: list(items)?, extra },
            Desc::Iterator { done, items } => Observed::Iterator { done, items: list(items)? },
            Desc::Date(JsonNumber(t)) => Observed::Date { time: json_number(t) },
            Desc::RegExp(source) => Observed::RegExp { source: text(source)? },
            Desc::Error { name, message } => Observed::Error { name: text(name)?, message: text(message)? },
            Desc::Object { fields, cut, bare } => Observed::Object { fields: map(fields)?, cut, bare },
            Desc::Instance { class, fields } => Observed::Instance { class, fields: map(fields)? },
            Desc::Other(name) => Observed::Other { name: text(name)? },
            Desc::Unreadable => Observed::Unreadable,
            Desc::Ref(object) => Observed::Ref { object },
        })
    }
}

/// A number as serde read a count or an index from the JSON: a whole number, not negative.
pub(super) fn index(n: f64) -> Option<usize> {
    (n >= 0.0 && n.fract() == 0.0 && n <= usize::MAX as f64).then_some(n as usize)
}

/// A date's time as the JSON number `JSON.stringify` wrote (`None` for `NaN`, written `null`): a whole
/// number as serde reads one (unsigned unless negative), any other as a double.
fn json_number(t: f64) -> Option<serde_json::Number> {
    if !t.is_finite() {
        None
    } else if t.fract() == 0.0 && t >= 0.0 && t < u64::MAX as f64 {
        Some(serde_json::Number::from(t as u64))
    } else if t.fract() == 0.0 && t < 0.0 && t >= i64::MIN as f64 {
        Some(serde_json::Number::from(t as i64))
    } else {
        serde_json::Number::from_f64(t)
    }
}

/// How a describer names an object its user knows instead of describing it.
enum Known {
    Nothing,
    /// The harness: a variable of the running test met below the top (by identity, in this array).
    Variables(qjs::JSValue),
    /// The recorder: a function answering the object id of a recorded object, or -1.
    Recorded(qjs::JSValue),
}

/// One describer's table of classes, way of naming known objects and bounds (see `make`).
pub(super) struct Describer {
    classes: qjs::JSValue,
    known: Known,
    /// Deeper values are `deep`.
    max_depth: usize,
    /// Longer arrays are `arrlen`; further fields are left out (and the object `cut`).
    max_items: usize,
    /// Objects described per value at most (the rest are `deep`).
    max_nodes: usize,
    /// A value met again inside itself is a `cycle` (else only the bounds stop a cycle).
    cycles: bool,
    /// Mark what a literal would get wrong (`extra` array properties, left-out members as `cut`,
    /// dictionaries as `bare`), so that Rust asserts such values field by field.
    complete: bool,
    /// Only objects whose prototype is `Date.prototype` are dates (else any `instanceof Date`).
    exact_dates: bool,
}

/// The built-ins describing uses, as they were before user code ran (`__fc$P`), and the keys it reads.
struct Primordials {
    string: qjs::JSValue,
    is_array: qjs::JSValue,
    get_time: qjs::JSValue,
    regexp_text: qjs::JSValue,
    date: qjs::JSValue,
    regexp: qjs::JSValue,
    error: qjs::JSValue,
    date_proto: qjs::JSValue,
    object_proto: qjs::JSValue,
    atoms: Atoms,
}

struct Atoms {
    proto: qjs::JSAtom,
    constructor: qjs::JSAtom,
    name: qjs::JSAtom,
    message: qjs::JSAtom,
    length: qjs::JSAtom,
    prototype: qjs::JSAtom,
}

/// The references the describers hold, freed by [`Descriptions::release`] before the context goes.
#[derive(Default)]
struct Held {
    primordials: Option<Primordials>,
    describers: Vec<Describer>,
}

/// The describers of one engine and the descriptions made for the test running in it.
pub(crate) struct Descriptions {
    ctx: *mut qjs::JSContext,
    held: RefCell<Held>,
    /// This test's descriptions, by the number the harness holds.
    made: RefCell<Vec<Desc>>,
    /// The memory limit of a test, which bounds the text it may take.
    memory: usize,
    /// What is left of the text one test's descriptions and log may take (see `text.rs`).
    budget: TextBudget,
    /// Set when a description's text did not fit in the budget: the test's read ends as out of memory.
    over: Cell<bool>,
}

/// A step of a walk; `Thrown`: an exception is pending in the context.
type Step<T> = std::result::Result<T, Thrown>;

/// A value the walk owns, freed when dropped.
struct Owned {
    ctx: *mut qjs::JSContext,
    value: qjs::JSValue,
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: a reference the walk made in this live context.
        unsafe { qjs::JS_FreeValue(self.ctx, self.value) }
    }
}

/// The keys a description of an object's fields walks, held while it walks them: listed by QuickJS (the
/// enumerable ones kept), or made for the first elements of a large typed array (see
/// [`Walk::typed_array_items`]).
enum Listed {
    Own { _listing: OwnKeys, atoms: Vec<qjs::JSAtom> },
    Made(MadeAtoms),
}

impl Listed {
    fn atoms(&self) -> &[qjs::JSAtom] {
        match self {
            Listed::Own { atoms, .. } => atoms,
            Listed::Made(made) => &made.atoms,
        }
    }
}

/// Atoms made for a description, freed when dropped.
struct MadeAtoms {
    ctx: *mut qjs::JSContext,
    atoms: Vec<qjs::JSAtom>,
}

impl Drop for MadeAtoms {
    fn drop(&mut self) {
        // SAFETY: atoms made in this live context, one reference each.
        self.atoms.iter().for_each(|atom| unsafe { qjs::JS_FreeAtom(self.ctx, *atom) });
    }
}

/// An own property's descriptor, its references freed when dropped.
struct OwnedDescriptor {
    ctx: *mut qjs::JSContext,
    d: qjs::JSPropertyDescriptor,
}

impl Drop for OwnedDescriptor {
    fn drop(&mut self) {
        // SAFETY: the references `JS_GetOwnProperty` filled in, in this live context.
        unsafe {
            for value in [self.d.value, self.d.getter, self.d.setter] {
                qjs::JS_FreeValue(self.ctx, value);
            }
        }
    }
}

/// One description being made.
struct Walk<'a> {
    ctx: *mut qjs::JSContext,
    p: &'a Primordials,
    d: &'a Describer,
    /// Text is taken within this budget (the harness's descriptions), or without one (the recorder's
    /// and thrown values', which go back to JavaScript as JSON).
    budget: Option<(&'a TextBudget, &'a Cell<bool>)>,
    nodes: usize,
    /// The objects being described, outermost first.
    seen: Vec<usize>,
}

impl Walk<'_> {
    /// # Safety (for every method of the walk)
    /// `ctx` is live, and every value given is one of its values for the whole call.
    unsafe fn owned(&self, value: qjs::JSValue) -> Step<Owned> {
        // SAFETY: see above.
        unsafe {
            if qjs::JS_IsException(value) {
                return Err(Thrown);
            }
        }
        Ok(Owned { ctx: self.ctx, value })
    }

    unsafe fn get(&self, object: qjs::JSValue, atom: qjs::JSAtom) -> Step<Owned> {
        // SAFETY: see `owned`.
        unsafe { self.owned(qjs::JS_GetProperty(self.ctx, object, atom)) }
    }

    /// `f(args...)`, with `this` undefined (the primordials here are uncurried).
    unsafe fn call(&self, f: qjs::JSValue, args: &mut [qjs::JSValue]) -> Step<Owned> {
        // SAFETY: see `owned`; the arguments are borrowed by the call.
        unsafe {
            let this = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
            self.owned(qjs::JS_Call(self.ctx, f, this, args.len() as i32, args.as_mut_ptr()))
        }
    }

    unsafe fn own_property(&self, object: qjs::JSValue, atom: qjs::JSAtom) -> Step<Option<OwnedDescriptor>> {
        // SAFETY: see `owned`.
        let d = unsafe { own_property_or_throw(self.ctx, object, atom) }?;
        Ok(d.map(|d| OwnedDescriptor { ctx: self.ctx, d }))
    }

    unsafe fn keys(&self, object: qjs::JSValue, flags: u32) -> Step<OwnKeys> {
        // SAFETY: see `owned`.
        unsafe { OwnKeys::listed_or_throw(self.ctx, object, flags) }
    }

    /// The text of a C string QuickJS made (freed here), within the budget.
    unsafe fn c_text(&self, text: *const std::ffi::c_char, length: usize) -> Step<Text> {
        if text.is_null() {
            return Err(Thrown);
        }
        // SAFETY: `text` holds `length` bytes until freed below.
        unsafe {
            let fits = match self.budget {
                Some((budget, over)) => {
                    let fits = budget.take(length);
                    if !fits {
                        over.set(true);
                    }
                    fits
                }
                None => true,
            };
            let copy = if fits { std::slice::from_raw_parts(text.cast::<u8>(), length).to_vec() } else { Vec::new() };
            qjs::JS_FreeCString(self.ctx, text);
            Ok(copy)
        }
    }

    unsafe fn text(&self, string: qjs::JSValue) -> Step<Text> {
        // SAFETY: see `owned`.
        unsafe {
            let mut length = 0;
            let text = qjs::JS_ToCStringLen2(self.ctx, &mut length, string, false);
            self.c_text(text, length as usize)
        }
    }

    unsafe fn key_text(&self, atom: qjs::JSAtom) -> Step<Text> {
        // SAFETY: see `owned`.
        unsafe {
            let mut length = 0;
            let text = qjs::JS_AtomToCStringLen(self.ctx, &mut length, atom);
            self.c_text(text, length as usize)
        }
    }

    /// `String(value)`.
    unsafe fn string_of(&self, value: qjs::JSValue) -> Step<Text> {
        // SAFETY: see `owned`.
        unsafe {
            let string = self.call(self.p.string, &mut [value])?;
            self.text(string.value)
        }
    }

    /// The first item of `list` (a Flycatcher array, its length read once per item as a loop does)
    /// for which `test` answers something, with its index.
    unsafe fn find_in<T>(
        &self,
        list: qjs::JSValue,
        mut test: impl FnMut(qjs::JSValue) -> Step<Option<T>>,
    ) -> Step<Option<(usize, T)>> {
        // SAFETY: see `owned`.
        unsafe {
            let mut i = 0u32;
            loop {
                let mut length = 0i64;
                if qjs::JS_GetLength(self.ctx, list, &mut length) < 0 {
                    return Err(Thrown);
                }
                if i64::from(i) >= length {
                    return Ok(None);
                }
                let item = self.owned(qjs::JS_GetPropertyUint32(self.ctx, list, i))?;
                if let Some(found) = test(item.value)? {
                    return Ok(Some((i as usize, found)));
                }
                i += 1;
            }
        }
    }

    /// Where `value` is in `list` (a Flycatcher array), by identity, as `indexOf`.
    unsafe fn index_in(&self, list: qjs::JSValue, value: qjs::JSValue) -> Step<Option<usize>> {
        // SAFETY: see `owned`.
        let found =
            unsafe { self.find_in(list, |item| Ok(qjs::JS_IsStrictEqual(self.ctx, item, value).then_some(()))) };
        Ok(found?.map(|(i, ())| i))
    }

    /// `Number(value)` (`valueOf` may run), as a comparison or a date's time reads it.
    unsafe fn number(&self, value: qjs::JSValue) -> Step<f64> {
        let mut n = f64::NAN;
        // SAFETY: see `owned`.
        if unsafe { qjs::JS_ToFloat64(self.ctx, &mut n, value) } < 0 {
            return Err(Thrown);
        }
        Ok(n)
    }

    unsafe fn instance_of(&self, value: qjs::JSValue, constructor: qjs::JSValue) -> Step<bool> {
        // SAFETY: see `owned`.
        match unsafe { qjs::JS_IsInstanceOf(self.ctx, value, constructor) } {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Thrown),
        }
    }

    /// The description of `value`, `depth` levels down.
    unsafe fn describe(&mut self, value: qjs::JSValue, depth: usize) -> Step<Desc> {
        // SAFETY: see `owned`.
        unsafe {
            Ok(match qjs::JS_VALUE_GET_NORM_TAG(value) {
                qjs::JS_TAG_UNDEFINED => Desc::Undefined,
                qjs::JS_TAG_BOOL => Desc::Boolean(qjs::JS_VALUE_GET_BOOL(value)),
                qjs::JS_TAG_INT => Desc::Number(qjs::JS_VALUE_GET_INT(value).to_string()),
                qjs::JS_TAG_FLOAT64 => Desc::Number(self.number_text(value)?),
                qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => Desc::String(self.text(value)?),
                qjs::JS_TAG_BIG_INT | qjs::JS_TAG_SHORT_BIG_INT => {
                    let digits = self.owned(qjs::JS_ToString(self.ctx, value))?;
                    Desc::BigInt(String::from_utf8_lossy(&self.text(digits.value)?).into_owned())
                }
                qjs::JS_TAG_SYMBOL => Desc::Symbol,
                qjs::JS_TAG_NULL => Desc::Null,
                qjs::JS_TAG_OBJECT => self.object(value, depth)?,
                _ => Desc::Unreadable,
            })
        }
    }

    /// `String(x)` of a double, `-0` for negative zero (which `Object.is` tells from zero).
    unsafe fn number_text(&self, value: qjs::JSValue) -> Step<String> {
        // SAFETY: see `owned`.
        unsafe {
            let x = qjs::JS_VALUE_GET_FLOAT64(value);
            if x == 0.0 && x.is_sign_negative() {
                return Ok("-0".into());
            }
            // Whole numbers below 2^53 print as their digits in both languages.
            if x.fract() == 0.0 && x.abs() < 9.0e15 {
                return Ok((x as i64).to_string());
            }
            let text = self.owned(qjs::JS_ToString(self.ctx, value))?;
            Ok(String::from_utf8_lossy(&self.text(text.value)?).into_owned())
        }
    }

    /// An object (functions included): named, a class, a cycle, too deep, or described; a catchable
    /// exception while describing it makes it `unreadable`.
    unsafe fn object(&mut self, value: qjs::JSValue, depth: usize) -> Step<Desc> {
        // SAFETY: see `owned`.
        unsafe {
            if let Some(named) = self.known(value, depth)? {
                return Ok(named);
            }
            if qjs::JS_IsFunction(self.ctx, value) {
                return Ok(match self.index_in(self.d.classes, value)? {
                    Some(class) => Desc::Class(class),
                    None => Desc::Function,
                });
            }
            let id = qjs::JS_VALUE_GET_PTR(value) as usize;
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
                Err(Thrown) => {
                    let exception = qjs::JS_GetException(self.ctx);
                    if qjs::JS_IsUncatchableError(exception) {
                        qjs::JS_Throw(self.ctx, exception);
                        return Err(Thrown);
                    }
                    qjs::JS_FreeValue(self.ctx, exception);
                    Ok(Desc::Unreadable)
                }
            }
        }
    }

    unsafe fn known(&self, value: qjs::JSValue, depth: usize) -> Step<Option<Desc>> {
        // SAFETY: see `owned`.
        unsafe {
            match self.d.known {
                Known::Nothing => Ok(None),
                Known::Variables(_) if depth == 0 => Ok(None),
                Known::Variables(vars) => Ok(self.index_in(vars, value)?.map(Desc::Variable)),
                Known::Recorded(f) => {
                    let id = self.call(f, &mut [value])?;
                    let id = self.number(id.value)?;
                    Ok((id >= 0.0).then_some(Desc::Ref(id as i64)))
                }
            }
        }
    }

    /// An object below the bounds: an array, a date, a regular expression, an error, or by its fields.
    unsafe fn inside(&mut self, value: qjs::JSValue, depth: usize) -> Step<Desc> {
        // SAFETY: see `owned`.
        unsafe {
            let p = self.p;
            let is_array = if qjs::JS_IsProxy(value) {
                // `Array.isArray` looks through a proxy (and throws for a revoked one).
                let answer = self.call(p.is_array, &mut [value])?;
                qjs::JS_ToBool(self.ctx, answer.value) == 1
            } else {
                qjs::JS_IsArray(value)
            };
            if is_array {
                return self.array(value, depth);
            }
            let proto = self.owned(qjs::JS_GetPrototype(self.ctx, value))?;
            let date = if self.d.exact_dates {
                qjs::JS_IsStrictEqual(self.ctx, proto.value, p.date_proto)
            } else {
                self.instance_of(value, p.date)?
            };
            if date {
                let time = self.call(p.get_time, &mut [value])?;
                return Ok(Desc::Date(JsonNumber(self.number(time.value)?)));
            }
            if self.instance_of(value, p.regexp)? {
                let text = self.call(p.regexp_text, &mut [value])?;
                return Ok(Desc::RegExp(self.text(text.value)?));
            }
            if self.instance_of(value, p.error)? {
                let name = self.get(value, p.atoms.name)?;
                let name = self.string_of(name.value)?;
                let message = self.get(value, p.atoms.message)?;
                let message = self.string_of(message.value)?;
                return Ok(Desc::Error { name, message });
            }
            let (fields, cut) = self.fields_of(value, depth)?;
            let object_proto = qjs::JS_IsStrictEqual(self.ctx, proto.value, p.object_proto);
            let bare = qjs::JS_IsNull(proto.value);
            if !self.d.complete && (object_proto || bare) {
                return Ok(Desc::Object { fields, cut: false, bare: false });
            }
            if object_proto || bare {
                // A cut description is asserted field by field, never as a whole literal; a dictionary
                // (`Object.create(null)`) is told from `{}` by deep equality, so the literal says so.
                return Ok(Desc::Object { fields, cut, bare });
            }
            if let Some(class) = self.class_of(proto.value)? {
                return Ok(Desc::Instance { class, fields });
            }
            Ok(Desc::Other(self.constructor_name(proto.value)?))
        }
    }

    /// An array's length: its own for an array, what the proxy answers (as a number) for a proxy.
    unsafe fn length(&self, array: qjs::JSValue) -> Step<f64> {
        // SAFETY: see `owned`.
        unsafe {
            if !qjs::JS_IsProxy(array) {
                let mut length = 0i64;
                if qjs::JS_GetLength(self.ctx, array, &mut length) < 0 {
                    return Err(Thrown);
                }
                return Ok(length as f64);
            }
            let length = self.get(array, self.p.atoms.length)?;
            self.number(length.value)
        }
    }

    unsafe fn array(&mut self, array: qjs::JSValue, depth: usize) -> Step<Desc> {
        // SAFETY: see `owned`.
        unsafe {
            if self.length(array)? > self.d.max_items as f64 {
                return Ok(Desc::LongArray(JsonNumber(self.length(array)?)));
            }
            let mut items = Vec::new();
            // The length is read again before every item, as the loop did: a getter may change it.
            let mut i = 0u32;
            while (i as f64) < self.length(array)? {
                let atom = qjs::JS_NewAtomUInt32(self.ctx, i);
                let has = qjs::JS_HasProperty(self.ctx, array, atom);
                qjs::JS_FreeAtom(self.ctx, atom);
                // Holes are not `undefined` to deep equality: they are kept as holes.
                let item = match has {
                    0 => Desc::Hole,
                    1 => {
                        let item = self.owned(qjs::JS_GetPropertyUint32(self.ctx, array, i))?;
                        self.describe(item.value, depth + 1)?
                    }
                    _ => return Err(Thrown),
                };
                items.push(item);
                i = i.checked_add(1).ok_or(Thrown)?;
            }
            if !self.d.complete {
                return Ok(Desc::Array { items, extra: false });
            }
            // Other own properties (`a['1.5'] = x`) count for deep equality too: no literal then.
            let indexes = items.iter().filter(|item| !matches!(item, Desc::Hole)).count();
            let extra = self.enumerable_keys(array)?.1.len() != indexes;
            Ok(Desc::Array { items, extra })
        }
    }

    /// The own enumerable string keys, as `Object.keys` lists them: a proxy is asked for its keys,
    /// then for each key's descriptor, before anything else is read.
    unsafe fn enumerable_keys(&self, object: qjs::JSValue) -> Step<(OwnKeys, Vec<qjs::JSAtom>)> {
        // SAFETY: see `owned`; the atoms stay alive with the listing they come with.
        unsafe {
            if !qjs::JS_IsProxy(object) {
                let keys = self.keys(object, qjs::JS_GPN_STRING_MASK | qjs::JS_GPN_ENUM_ONLY)?;
                let atoms = keys.atoms().collect();
                return Ok((keys, atoms));
            }
            let keys = self.keys(object, qjs::JS_GPN_STRING_MASK)?;
            let mut atoms = Vec::new();
            for atom in keys.atoms() {
                let enumerable =
                    self.own_property(object, atom)?.is_some_and(|d| d.d.flags & qjs::JS_PROP_ENUMERABLE as i32 != 0);
                if enumerable {
                    atoms.push(atom);
                }
            }
            Ok((keys, atoms))
        }
    }

    /// The keys of the first `max_items + 1` elements of a typed array that has more: all a description
    /// reads of it, where listing its keys made one for every element (a bit set's or a heap's storage has
    /// millions, listed at every description of a state that holds it). Its elements come first in the
    /// listing, in order, and none is skipped (each is a number). `None` for anything else.
    unsafe fn typed_array_items(&self, object: qjs::JSValue) -> Step<Option<MadeAtoms>> {
        // SAFETY: see `owned`; the atoms made go to the answer, which frees them.
        unsafe {
            if qjs::JS_IsProxy(object) || qjs::JS_GetTypedArrayType(object) < 0 {
                return Ok(None);
            }
            let Ok(last) = u32::try_from(self.d.max_items) else { return Ok(None) };
            let items =
                MadeAtoms { ctx: self.ctx, atoms: (0..=last).map(|i| qjs::JS_NewAtomUInt32(self.ctx, i)).collect() };
            // A shorter array's listing is short.
            let more = self.own_property(object, items.atoms[last as usize])?.is_some();
            Ok(more.then_some(items))
        }
    }

    /// Own data fields, without `__proto__` (it cannot be written back as a literal key or read as
    /// `x.__proto__`) and without functions and accessors; whether one was left out, or past the
    /// limit, or an enumerable symbol key (deep equality counts it, and a literal cannot say it).
    unsafe fn fields_of(&mut self, object: qjs::JSValue, depth: usize) -> Step<(Vec<(Text, Desc)>, bool)> {
        // SAFETY: see `owned`.
        unsafe {
            let keys = match self.typed_array_items(object)? {
                Some(items) => Listed::Made(items),
                None => {
                    let (listing, atoms) = self.enumerable_keys(object)?;
                    Listed::Own { _listing: listing, atoms }
                }
            };
            let mut fields = Vec::new();
            let mut count = 0;
            let mut partial = false;
            for &atom in keys.atoms() {
                if atom == self.p.atoms.proto {
                    continue;
                }
                let Some(d) = self.own_property(object, atom)? else {
                    partial = true;
                    continue;
                };
                if d.d.flags & qjs::JS_PROP_GETSET as i32 != 0 || qjs::JS_IsFunction(self.ctx, d.d.value) {
                    partial = true;
                    continue;
                }
                count += 1;
                if count > self.d.max_items {
                    break;
                }
                let key = self.key_text(atom)?;
                fields.push((key, self.describe(d.d.value, depth + 1)?));
            }
            drop(keys);
            let symbols = self.keys(object, qjs::JS_GPN_SYMBOL_MASK)?;
            for atom in symbols.atoms() {
                if partial {
                    break;
                }
                let Some(d) = self.own_property(object, atom)? else {
                    // `descriptor(v, s).enumerable` of a key the proxy listed but does not describe.
                    qjs::JS_ThrowTypeError(self.ctx, c"a listed symbol has no descriptor".as_ptr());
                    return Err(Thrown);
                };
                partial = d.d.flags & qjs::JS_PROP_ENUMERABLE as i32 != 0;
            }
            Ok((fields, count > self.d.max_items || partial))
        }
    }

    /// The index of the class whose `prototype` is `proto`, reading each class's in turn.
    unsafe fn class_of(&self, proto: qjs::JSValue) -> Step<Option<usize>> {
        // SAFETY: see `owned`.
        let found = unsafe {
            self.find_in(self.d.classes, |class| {
                if qjs::JS_ToBool(self.ctx, class) != 1 {
                    return Ok(None);
                }
                let prototype = self.get(class, self.p.atoms.prototype)?;
                Ok(qjs::JS_IsStrictEqual(self.ctx, prototype.value, proto).then_some(()))
            })
        };
        Ok(found?.map(|(i, ())| i))
    }

    /// The name of the function that is `proto`'s own data `constructor`, or nothing.
    unsafe fn constructor_name(&self, proto: qjs::JSValue) -> Step<Text> {
        // SAFETY: see `owned`.
        unsafe {
            let Some(d) = self.own_property(proto, self.p.atoms.constructor)? else { return Ok(Vec::new()) };
            if d.d.flags & qjs::JS_PROP_GETSET as i32 != 0 || !qjs::JS_IsFunction(self.ctx, d.d.value) {
                return Ok(Vec::new());
            }
            let name = self.get(d.d.value, self.p.atoms.name)?;
            self.string_of(name.value)
        }
    }
}

impl Descriptions {
    /// The describers of the context `ctx`, none made yet, for tests of `memory` bytes at most (which bound
    /// their text).
    pub(super) fn new(ctx: &Ctx, memory: usize) -> Descriptions {
        Descriptions {
            ctx: ctx.as_raw().as_ptr(),
            held: RefCell::default(),
            made: RefCell::default(),
            memory,
            budget: TextBudget::of_memory(memory),
            over: Cell::new(false),
        }
    }

    /// Before a test: no description, and the whole budget.
    pub(super) fn reset(&self) {
        self.made.borrow_mut().clear();
        self.budget.refill(self.memory);
        self.over.set(false);
    }

    /// What is left of this test's budget, for its log (read after the descriptions were made).
    pub(super) fn budget(&self) -> &TextBudget {
        &self.budget
    }

    /// The description numbered `handle` as Rust keeps it (each is read once: it is taken).
    pub(super) fn take(&self, handle: usize) -> rquickjs::Result<Observed> {
        if self.over.get() {
            return Err(super::text::too_large());
        }
        let mut made = self.made.borrow_mut();
        let desc = made.get_mut(handle).ok_or_else(|| bad("an unknown description"))?;
        std::mem::replace(desc, Desc::Undefined).observed().map_err(bad)
    }

    /// Frees the references the describers hold: before the context goes (see `Engine`'s fields).
    pub(super) fn release(&self) {
        let held = std::mem::take(&mut *self.held.borrow_mut());
        let ctx = self.ctx;
        // SAFETY: the references `make` took, in the context still alive.
        unsafe {
            let free = |value: qjs::JSValue| qjs::JS_FreeValue(ctx, value);
            for d in held.describers {
                free(d.classes);
                match d.known {
                    Known::Nothing => {}
                    Known::Variables(v) | Known::Recorded(v) => free(v),
                }
            }
            if let Some(p) = held.primordials {
                for v in [p.string, p.is_array, p.get_time, p.regexp_text, p.date, p.regexp, p.error, p.date_proto] {
                    free(v);
                }
                free(p.object_proto);
                let a = p.atoms;
                for atom in [a.proto, a.constructor, a.name, a.message, a.length, a.prototype] {
                    qjs::JS_FreeAtom(ctx, atom);
                }
            }
        }
    }

    fn store(&self, desc: Desc) -> u32 {
        let mut made = self.made.borrow_mut();
        made.push(desc);
        (made.len() - 1) as u32
    }

    /// Runs `step` in a walk of describer `describer`; `bounded`: text within the test's budget.
    fn walk<T>(&self, describer: u32, bounded: bool, step: impl FnOnce(&mut Walk) -> Step<T>) -> rquickjs::Result<T> {
        let held = self.held.borrow();
        let (Some(p), Some(d)) = (held.primordials.as_ref(), held.describers.get(describer as usize)) else {
            return Err(bad("no such describer"));
        };
        let budget = bounded.then_some((&self.budget, &self.over));
        let mut walk = Walk { ctx: self.ctx, p, d, budget, nodes: 0, seen: Vec::new() };
        step(&mut walk).map_err(|Thrown| rquickjs::Error::Exception)
    }

    /// Describes `value` (of this context), `depth` levels down; `bounded` as for [`Descriptions::walk`].
    fn describe(&self, describer: u32, value: &Value, depth: usize, bounded: bool) -> rquickjs::Result<Desc> {
        // SAFETY: `value` is a value of this live context for the whole walk.
        self.walk(describer, bounded, |walk| unsafe { walk.describe(value.as_raw(), depth) })
    }

    /// `value`'s description, `depth` levels down: its number.
    fn value(&self, describer: u32, value: Value, depth: Option<u32>) -> rquickjs::Result<u32> {
        self.describe(describer, &value, depth.unwrap_or(0) as usize, true).map(|desc| self.store(desc))
    }

    /// A variable's state: the number of its description when that has fields (an object or an
    /// instance), else none.
    fn state(&self, describer: u32, value: Value) -> rquickjs::Result<Option<u32>> {
        if !value.is_object() || value.is_function() {
            return Ok(None);
        }
        let desc = self.describe(describer, &value, 0, true)?;
        Ok(desc.fields().is_some().then(|| self.store(desc)))
    }

    /// The names of the fields whose descriptions differ between two states (added and deleted ones
    /// included), or none.
    fn changed<'js>(&self, ctx: Ctx<'js>, was: u32, now: u32) -> rquickjs::Result<Option<Array<'js>>> {
        fn find<'a>(list: &'a [(Text, Desc)], name: &Text) -> Option<&'a Desc> {
            list.iter().find(|(k, _)| k == name).map(|(_, d)| d)
        }
        let names: Vec<String> = {
            let made = self.made.borrow();
            let fields = |h: u32| made.get(h as usize).and_then(Desc::fields).unwrap_or(&[]);
            let (was, now) = (fields(was), fields(now));
            let added_or_changed = now.iter().filter(|(k, desc)| find(was, k) != Some(desc)).map(|(k, _)| k);
            let gone = was.iter().filter(|(k, _)| find(now, k).is_none()).map(|(k, _)| k);
            added_or_changed.chain(gone).map(|name| String::from_utf8_lossy(name).into_owned()).collect()
        };
        if names.is_empty() {
            return Ok(None);
        }
        // Made once the descriptions are let go: filling an array may run a setter the code under test
        // put on `Array.prototype`, which may describe.
        let array = Array::new(ctx.clone())?;
        for (i, name) in names.iter().enumerate() {
            array.set(i, rquickjs::String::from_str(ctx.clone(), name)?)?;
        }
        Ok(Some(array))
    }

    /// Whether two states (numbers, or none) are the same.
    fn same(&self, a: Option<u32>, b: Option<u32>) -> bool {
        let made = self.made.borrow();
        let get = |h: Option<u32>| h.map(|h| made.get(h as usize));
        get(a) == get(b)
    }

    /// The items an iterator gave, each described one level down: their number.
    fn iterated(&self, describer: u32, items: Array, done: bool) -> rquickjs::Result<u32> {
        let items = (0..items.len())
            .map(|i| items.get::<Value>(i).and_then(|item| self.describe(describer, &item, 1, true)))
            .collect::<rquickjs::Result<Vec<_>>>()?;
        Ok(self.store(Desc::Iterator { done, items }))
    }

    /// A value's description as JSON (a thrown value, a recorded one), or none when Rust cannot hold it.
    fn json(&self, describer: u32, value: Value) -> rquickjs::Result<Option<String>> {
        let desc = self.describe(describer, &value, 0, false)?;
        Ok(desc.observed().ok().and_then(|o| serde_json::to_string(&o).ok()))
    }

    /// An object's own data fields as JSON (`{}` for anything else, or for fields Rust cannot hold): a
    /// recorded receiver's state.
    fn fields_json(&self, describer: u32, value: Value) -> rquickjs::Result<String> {
        if !value.is_object() || value.is_function() {
            return Ok("{}".into());
        }
        // SAFETY: `value` is a value of this live context for the whole walk.
        let (fields, _) = self.walk(describer, false, |walk| unsafe { walk.fields_of(value.as_raw(), 0) })?;
        let map = fields.into_iter().map(|(k, desc)| Some((String::from_utf8(k).ok()?, desc.observed().ok()?)));
        let map: BTreeMap<String, Observed> = map.collect::<Option<_>>().unwrap_or_default();
        Ok(serde_json::to_string(&map).unwrap_or_else(|_| "{}".into()))
    }

    /// The index of the class whose `prototype` is `proto`, or -1.
    fn class_of(&self, describer: u32, proto: Value) -> rquickjs::Result<i32> {
        // SAFETY: `proto` is a value of this live context for the whole walk.
        let class = self.walk(describer, false, |walk| unsafe { walk.class_of(proto.as_raw()) })?;
        Ok(class.map_or(-1, |c| c as i32))
    }

    /// Makes a describer from the harness's or the recorder's options (see [`Describer`]); answers its
    /// number. The first one also takes the primordials.
    fn make(&self, ctx: &Ctx, options: &Object) -> rquickjs::Result<u32> {
        let raw = ctx.as_raw().as_ptr();
        // Everything is read before a reference is kept: a failed read (code under test can call this
        // with any options) then leaves no reference behind, which QuickJS would find at its end.
        let held_value = |v: &Value| {
            // SAFETY: a new reference of this context, kept until `release`.
            unsafe { qjs::JS_DupValue(raw, v.as_raw()) }
        };
        let count = |name: &str| -> rquickjs::Result<usize> {
            let n: f64 = options.get(name)?;
            Ok(if n >= usize::MAX as f64 { usize::MAX } else { n.max(0.0) as usize })
        };
        let (max_depth, max_items, max_nodes) = (count("maxDepth")?, count("maxItems")?, count("maxNodes")?);
        let flags: [bool; 3] = [options.get("cycles")?, options.get("complete")?, options.get("exactDates")?];
        let classes = options.get::<_, Array>("classes")?.into_value();
        let vars = options.get::<_, Option<Array>>("vars")?.map(Array::into_value);
        let recorded = options.get::<_, Option<Function>>("recorded")?.map(Function::into_value);
        // Code under test can reach the describers too, from a getter that describing runs.
        let mut held = self.held.try_borrow_mut().map_err(|_| bad("the describers are busy describing"))?;
        if held.primordials.is_none() {
            let p: Object = ctx.globals().get(crate::js::PRIMORDIALS)?;
            let names =
                ["String", "isArray", "getTime", "regexpText", "Date", "RegExp", "Error", "DateProto", "ObjectProto"];
            let values: Vec<Value> =
                names.iter().map(|name| p.get::<_, Value>(*name)).collect::<rquickjs::Result<_>>()?;
            let [string, is_array, get_time, regexp_text, date, regexp, error, date_proto, object_proto] =
                std::array::from_fn(|i| held_value(&values[i]));
            // SAFETY: atoms of this live context, freed in `release`.
            let atom = |name: &std::ffi::CStr| unsafe { qjs::JS_NewAtom(raw, name.as_ptr()) };
            held.primordials = Some(Primordials {
                string,
                is_array,
                get_time,
                regexp_text,
                date,
                regexp,
                error,
                date_proto,
                object_proto,
                atoms: Atoms {
                    proto: atom(c"__proto__"),
                    constructor: atom(c"constructor"),
                    name: atom(c"name"),
                    message: atom(c"message"),
                    length: atom(c"length"),
                    prototype: atom(c"prototype"),
                },
            });
        }
        let known = match (&vars, &recorded) {
            (Some(vars), _) => Known::Variables(held_value(vars)),
            (None, Some(f)) => Known::Recorded(held_value(f)),
            (None, None) => Known::Nothing,
        };
        let [cycles, complete, exact_dates] = flags;
        held.describers.push(Describer {
            classes: held_value(&classes),
            known,
            max_depth,
            max_items,
            max_nodes,
            cycles,
            complete,
            exact_dates,
        });
        Ok((held.describers.len() - 1) as u32)
    }
}

fn bad(what: &str) -> rquickjs::Error {
    rquickjs::Error::new_from_js_message("describer", "description", what.to_string())
}

/// Installs the describers' functions on the hidden global [`crate::js::DESCRIBE`], for the harness
/// and the recorder (each is a method of [`Descriptions`] of the same name).
pub(super) fn install<'js>(ctx: &Ctx<'js>, descriptions: &Rc<Descriptions>) -> rquickjs::Result<()> {
    let object = Object::new(ctx.clone())?;
    let function = |name: &str, f: Function<'js>| object.set(name, f);
    let d = descriptions.clone();
    function("make", Function::new(ctx.clone(), move |ctx: Ctx<'js>, options: Object<'js>| d.make(&ctx, &options))?)?;
    let d = descriptions.clone();
    function(
        "value",
        Function::new(ctx.clone(), move |id: u32, v: Value<'js>, depth: Option<u32>| d.value(id, v, depth))?,
    )?;
    let d = descriptions.clone();
    function("state", Function::new(ctx.clone(), move |id: u32, v: Value<'js>| d.state(id, v))?)?;
    let d = descriptions.clone();
    function(
        "changed",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, was: u32, now: u32| d.changed(ctx, was, now))?,
    )?;
    let d = descriptions.clone();
    function("same", Function::new(ctx.clone(), move |a: Option<u32>, b: Option<u32>| d.same(a, b))?)?;
    let d = descriptions.clone();
    function("variable", Function::new(ctx.clone(), move |index: u32| d.store(Desc::Variable(index as usize)))?)?;
    let d = descriptions.clone();
    function(
        "iterated",
        Function::new(ctx.clone(), move |id: u32, items: Array<'js>, done: bool| d.iterated(id, items, done))?,
    )?;
    let d = descriptions.clone();
    function("json", Function::new(ctx.clone(), move |id: u32, v: Value<'js>| d.json(id, v))?)?;
    let d = descriptions.clone();
    function("fields", Function::new(ctx.clone(), move |id: u32, v: Value<'js>| d.fields_json(id, v))?)?;
    let d = descriptions.clone();
    function("classOf", Function::new(ctx.clone(), move |id: u32, proto: Value<'js>| d.class_of(id, proto))?)?;
    let raw = ctx.as_raw().as_ptr();
    let name = std::ffi::CString::new(crate::js::DESCRIBE)?;
    // SAFETY: `raw` is live; the property takes the new reference to the object. Not writable,
    // enumerable nor configurable: code under test that walks the global object does not see it.
    unsafe {
        let global = qjs::JS_GetGlobalObject(raw);
        let defined =
            qjs::JS_DefinePropertyValueStr(raw, global, name.as_ptr(), qjs::JS_DupValue(raw, object.as_raw()), 0);
        qjs::JS_FreeValue(raw, global);
        if defined < 0 {
            return Err(rquickjs::Error::Exception);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Desc, JsonNumber};
    use crate::model::observed::Observed;

    #[test]
    fn descriptions_are_equal_when_their_json_was() {
        // Every non-finite number wrote `null`; field order counted, as in the text.
        assert_eq!(Desc::Date(JsonNumber(f64::NAN)), Desc::Date(JsonNumber(f64::INFINITY)));
        assert_ne!(Desc::Date(JsonNumber(1.0)), Desc::Date(JsonNumber(f64::NAN)));
        let field = |k: &str, n: &str| (k.as_bytes().to_vec(), Desc::Number(n.into()));
        let object = |fields| Desc::Object { fields, cut: false, bare: false };
        assert_eq!(object(vec![field("a", "1"), field("b", "2")]), object(vec![field("a", "1"), field("b", "2")]));
        assert_ne!(object(vec![field("a", "1"), field("b", "2")]), object(vec![field("b", "2"), field("a", "1")]));
    }

    #[test]
    fn what_rust_cannot_hold_is_refused() {
        // A lone surrogate, as QuickJS writes it in UTF-8.
        let lone = Desc::String(vec![0xed, 0xa0, 0x80]);
        assert_eq!(lone.observed(), Err("a string with a lone surrogate"));
        let nested = Desc::Object { fields: vec![(vec![0xed, 0xa0, 0x80], Desc::Null)], cut: false, bare: false };
        assert!(nested.observed().is_err());
        assert_eq!(Desc::LongArray(JsonNumber(1.5)).observed(), Err("an index was expected"));
        assert_eq!(Desc::LongArray(JsonNumber(60.0)).observed(), Ok(Observed::LongArray { length: 60 }));
        let date = Desc::Date(JsonNumber(-1.0)).observed().unwrap();
        assert_eq!(serde_json::to_string(&date).unwrap(), r#"{"t":"date","v":-1}"#);
    }
}
