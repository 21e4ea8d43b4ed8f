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
//! [`Describer`]), through the functions of the hidden global [`crate::js::DESCRIBE`]. `desc.rs` is
//! the model of a description, `walk.rs` the making of one, this file the table of a test's
//! descriptions and the functions JavaScript calls.

mod collection;
mod desc;
mod walk;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use rquickjs::{Array, Ctx, Function, Object, Value};

use super::text::TextBudget;
use crate::model::observed::Observed;
use crate::sandbox::qjs::{Anchor, Atom, Cx, Kept, KeptAtom, Owned, Ref, Step};
use collection::Collections;
pub(super) use desc::index;
use desc::{Desc, Text};
use walk::{Atoms, Describer, Known, Primordials, Walk};
/// The references the describers hold, freed by [`Descriptions::release`] before the context goes
/// (with the anchor that keeps it: the functions that call the describers live in the context).
#[derive(Default)]
struct Held {
    anchor: Option<Anchor>,
    primordials: Option<Primordials>,
    describers: Vec<Describer>,
}

/// The describers of one engine and the descriptions made for the test running in it.
pub(crate) struct Descriptions {
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

impl Descriptions {
    /// The describers of the context `anchor` keeps, none made yet, for tests of `memory` bytes at most
    /// (which bound their text).
    pub(super) fn new(anchor: Anchor, memory: usize) -> Descriptions {
        Descriptions {
            held: RefCell::new(Held { anchor: Some(anchor), ..Held::default() }),
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

    /// Frees the references the describers hold, and their anchor: before the context goes (see
    /// `Engine`'s `Drop`).
    pub(super) fn release(&self) {
        let held = std::mem::take(&mut *self.held.borrow_mut());
        drop(held);
    }

    fn store(&self, desc: Desc) -> u32 {
        let mut made = self.made.borrow_mut();
        made.push(desc);
        (made.len() - 1) as u32
    }

    /// Runs `step` in a walk of describer `describer`; `bounded`: text within the test's budget.
    fn walk<'js, T>(
        &self,
        cx: Cx<'js>,
        describer: u32,
        bounded: bool,
        step: impl FnOnce(&mut Walk<'_, 'js>) -> Step<T>,
    ) -> rquickjs::Result<T> {
        let held = self.held.borrow();
        let (Some(p), Some(d)) = (held.primordials.as_ref(), held.describers.get(describer as usize)) else {
            return Err(bad("no such describer"));
        };
        let budget = bounded.then_some((&self.budget, &self.over));
        let mut walk = Walk { cx, p, d, budget, nodes: 0, seen: Vec::new() };
        Ok(step(&mut walk)?)
    }

    /// Describes `value` (of this context), `depth` levels down; `bounded` as for [`Descriptions::walk`].
    fn describe(&self, describer: u32, value: &Value, depth: usize, bounded: bool) -> rquickjs::Result<Desc> {
        self.walk(Cx::of(value.ctx()), describer, bounded, |walk| walk.describe(Ref::of(value), depth))
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
        let desc = self.walk(Cx::of(value.ctx()), describer, true, |walk| walk.state(Ref::of(&value)))?;
        Ok(desc.fields().is_some().then(|| self.store(desc)))
    }

    /// The names of the fields whose descriptions differ between two states (added and deleted ones
    /// included; with no state before, every field), or none.
    fn changed<'js>(&self, ctx: Ctx<'js>, was: Option<u32>, now: u32) -> rquickjs::Result<Option<Array<'js>>> {
        fn find<'a>(list: &'a [(Text, Desc)], name: &Text) -> Option<&'a Desc> {
            list.iter().find(|(k, _)| k == name).map(|(_, d)| d)
        }
        let names: Vec<String> = {
            let made = self.made.borrow();
            let fields = |h: u32| made.get(h as usize).and_then(Desc::fields).unwrap_or(&[]);
            let (was, now) = (was.map_or(&[][..], fields), fields(now));
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

    /// The items an iterator gave, each described one level down, and what it threw while consumed
    /// (`threw`, empty or one value): their number.
    fn iterated(
        &self,
        describer: u32,
        items: Array,
        done: bool,
        asynchronous: bool,
        threw: Array,
    ) -> rquickjs::Result<u32> {
        let items = (0..items.len())
            .map(|i| items.get::<Value>(i).and_then(|item| self.describe(describer, &item, 1, true)))
            .collect::<rquickjs::Result<Vec<_>>>()?;
        let threw = match threw.get::<Option<Value>>(0)? {
            Some(thrown) if threw.len() == 1 => Some(Box::new(self.describe(describer, &thrown, 1, true)?)),
            _ => None,
        };
        Ok(self.store(Desc::Iterator { done, items, asynchronous, threw }))
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
        let cx = Cx::of(value.ctx());
        let (fields, _) = self.walk(cx, describer, false, |walk| walk.fields_of(Ref::of(&value), 0))?;
        let map = fields.into_iter().map(|(k, desc)| Some((String::from_utf8(k).ok()?, desc.observed().ok()?)));
        let map: BTreeMap<String, Observed> = map.collect::<Option<_>>().unwrap_or_default();
        Ok(serde_json::to_string(&map).unwrap_or_else(|_| "{}".into()))
    }

    /// The index of the class whose `prototype` is `proto`, or -1.
    fn class_of(&self, describer: u32, proto: Value) -> rquickjs::Result<i32> {
        let class = self.walk(Cx::of(proto.ctx()), describer, false, |walk| walk.class_of(Ref::of(&proto)))?;
        Ok(class.map_or(-1, |c| c as i32))
    }

    /// Makes a describer from the harness's or the recorder's options (see [`Describer`]); answers its
    /// number. The first one also takes the primordials.
    fn make<'js>(&self, ctx: &Ctx<'js>, options: &Object<'js>) -> rquickjs::Result<u32> {
        let cx = Cx::of(ctx);
        // Everything is read before a reference is kept: a failed read (code under test can call this
        // with any options) then leaves no reference behind, which QuickJS would find at its end.
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
        let anchor = held.anchor.clone().ok_or_else(|| bad("the describers were released"))?;
        let keep = |v: &Value<'js>| Kept::new(&anchor, Owned::dup(cx, Ref::of(v)));
        if held.primordials.is_none() {
            let p: Object = ctx.globals().get(crate::js::PRIMORDIALS)?;
            let names = [
                "String",
                "isArray",
                "getTime",
                "regexpText",
                "Date",
                "RegExp",
                "Error",
                "DateProto",
                "ObjectProto",
                "ArrayProto",
            ];
            let values: Vec<Value> =
                names.iter().map(|name| p.get::<_, Value>(*name)).collect::<rquickjs::Result<_>>()?;
            let [string, is_array, get_time, regexp_text, date, regexp, error, date_proto, object_proto, array_proto] =
                std::array::from_fn(|i| keep(&values[i]));
            let atom = |name: &std::ffi::CStr| KeptAtom::new(&anchor, Atom::new(cx, name));
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
                array_proto,
                collections: Collections::of(&p, keep)?,
                atoms: Atoms {
                    proto: atom(c"__proto__"),
                    constructor: atom(c"constructor"),
                    name: atom(c"name"),
                    message: atom(c"message"),
                    stack: atom(c"stack"),
                    length: atom(c"length"),
                    prototype: atom(c"prototype"),
                },
            });
        }
        let known = match (&vars, &recorded) {
            (Some(vars), _) => Known::Variables(keep(vars)),
            (None, Some(f)) => Known::Recorded(keep(f)),
            (None, None) => Known::Nothing,
        };
        let [cycles, complete, exact_dates] = flags;
        held.describers.push(Describer {
            classes: keep(&classes),
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
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, was: Option<u32>, now: u32| d.changed(ctx, was, now))?,
    )?;
    let d = descriptions.clone();
    function("same", Function::new(ctx.clone(), move |a: Option<u32>, b: Option<u32>| d.same(a, b))?)?;
    let d = descriptions.clone();
    function("variable", Function::new(ctx.clone(), move |index: u32| d.store(Desc::Variable(index as usize)))?)?;
    let d = descriptions.clone();
    // What a deferred call of the method under test left pending at the test's end.
    function("pending", Function::new(ctx.clone(), move || d.store(Desc::Pending))?)?;
    let d = descriptions.clone();
    // A web instance the method under test returned, by what a reader checks (see `webOf` in the
    // harness).
    function(
        "web",
        Function::new(ctx.clone(), move |class: String, text: String| d.store(Desc::Web { class, text }))?,
    )?;
    let d = descriptions.clone();
    function(
        "iterated",
        Function::new(
            ctx.clone(),
            move |id: u32, items: Array<'js>, done: bool, asynchronous: bool, threw: Array<'js>| {
                d.iterated(id, items, done, asynchronous, threw)
            },
        )?,
    )?;
    let d = descriptions.clone();
    function("json", Function::new(ctx.clone(), move |id: u32, v: Value<'js>| d.json(id, v))?)?;
    let d = descriptions.clone();
    function("fields", Function::new(ctx.clone(), move |id: u32, v: Value<'js>| d.fields_json(id, v))?)?;
    let d = descriptions.clone();
    function("classOf", Function::new(ctx.clone(), move |id: u32, proto: Value<'js>| d.class_of(id, proto))?)?;
    // Whether a value is a proxy, which the harness must not ask for its prototype where Node's test
    // would not (the trap would see it).
    function("isProxy", Function::new(ctx.clone(), |v: Value<'js>| Ref::of(&v).is_proxy())?)?;
    let cx = Cx::of(ctx);
    let name = std::ffi::CString::new(crate::js::DESCRIBE)?;
    // Not writable, enumerable nor configurable: code under test that walks the global object does not
    // see it.
    let global = cx.global();
    cx.define_hidden(global.get(), &name, Owned::dup(cx, Ref::of(object.as_value())))?;
    Ok(())
}
