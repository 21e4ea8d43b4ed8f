//! Reading the harness's descriptions of results (`results` in `harness.js`, made by `js/describe.js`)
//! straight from its objects through the C interface, as [`DescribedResult`]s.
//!
//! They came as JSON: `JSON.stringify` of the results in the harness, then serde in Rust, whose
//! internally tagged [`Observed`] buffers every object before it reads its tag. Both took ~25 us of a
//! ~45 us run described on `ledger.cjs`, as long as describing. The reader takes what the JSON carried
//! and nothing else: own data properties only (a getter the code under test put on
//! `Object.prototype` is never run, as `JSON.stringify` never ran it), the same keys, and the same
//! failures (an unknown tag, a member missing or of another type, a string with a lone surrogate,
//! which serde refused in JSON, and text past the test's budget, see `text.rs`).

use std::collections::BTreeMap;

use rquickjs::{Array, Ctx, Object, Value, qjs};

use super::props::{OwnKeys, own_value};
use super::text::{TextBudget, with_text};
use crate::model::observed::{DescribedResult, Inspected, Observed, VariableState};

/// The keys descriptions use, as atoms made once per engine (see [`Keys::new`]).
pub(super) struct Keys {
    ctx: *mut qjs::JSContext,
    atoms: [qjs::JSAtom; KEY_NAMES.len()],
}

/// In the order of [`Key`].
const KEY_NAMES: [&std::ffi::CStr; 22] = [
    c"t",
    c"v",
    c"i",
    c"n",
    c"c",
    c"d",
    c"g",
    c"at",
    c"inexact",
    c"value",
    c"state",
    c"changed",
    c"inspected",
    c"impure",
    c"items",
    c"extra",
    c"done",
    c"fields",
    c"cut",
    c"bare",
    c"name",
    c"message",
];

#[derive(Clone, Copy)]
enum Key {
    T,
    V,
    I,
    N,
    C,
    D,
    G,
    At,
    Inexact,
    Value,
    State,
    Changed,
    Inspected,
    Impure,
    Items,
    Extra,
    Done,
    Fields,
    Cut,
    Bare,
    Name,
    Message,
}

impl Keys {
    /// The atoms of `ctx`'s runtime, freed with the keys (which go before the context, see `Engine`'s
    /// field order).
    pub(super) fn new(ctx: &Ctx) -> Keys {
        let raw = ctx.as_raw().as_ptr();
        // SAFETY: `raw` is a live context; each atom is a new reference, freed in `drop`.
        let atoms = KEY_NAMES.map(|name| unsafe { qjs::JS_NewAtom(raw, name.as_ptr()) });
        Keys { ctx: raw, atoms }
    }

    fn atom(&self, key: Key) -> qjs::JSAtom {
        self.atoms[key as usize]
    }
}

impl Drop for Keys {
    fn drop(&mut self) {
        // SAFETY: the atoms `new` made, of a context still alive.
        self.atoms.iter().for_each(|atom| unsafe { qjs::JS_FreeAtom(self.ctx, *atom) });
    }
}

/// Why a description could not be read, as serde said of the JSON.
fn bad(what: &str) -> rquickjs::Error {
    rquickjs::Error::new_from_js_message("results", "descriptions", what.to_string())
}

/// A description's reader within one context.
struct Reader<'a, 'js> {
    ctx: &'a Ctx<'js>,
    keys: &'a Keys,
    budget: TextBudget,
}

impl<'js> Reader<'_, 'js> {
    /// Own data property `key` of `object`, if it has one.
    fn own(&self, object: &Object<'js>, key: Key) -> Option<Value<'js>> {
        self.own_atom(object, self.keys.atom(key))
    }

    fn own_atom(&self, object: &Object<'js>, atom: qjs::JSAtom) -> Option<Value<'js>> {
        // SAFETY: the context is the live context of `object`; the value read is ours, given to the answer.
        unsafe {
            let value = own_value(self.ctx.as_raw().as_ptr(), object.as_raw(), atom)?;
            Some(Value::from_raw(self.ctx.clone(), value))
        }
    }

    fn required(&self, object: &Object<'js>, key: Key) -> rquickjs::Result<Value<'js>> {
        self.own(object, key).ok_or_else(|| bad("a member is missing"))
    }

    fn string(&self, value: Value<'js>) -> rquickjs::Result<String> {
        let text = with_text(self.ctx, &value, &self.budget, |bytes| String::from_utf8(bytes.to_vec()))?;
        // A lone surrogate makes no UTF-8: serde refused its JSON escape too.
        text.ok_or_else(|| bad("a string was expected"))?.map_err(|_| bad("a string with a lone surrogate"))
    }

    fn count(&self, value: Value<'js>) -> rquickjs::Result<usize> {
        let n = value.as_number().ok_or_else(|| bad("a number was expected"))?;
        if n >= 0.0 && n.fract() == 0.0 && n <= usize::MAX as f64 {
            Ok(n as usize)
        } else {
            Err(bad("an index was expected"))
        }
    }

    fn boolean(&self, value: Value<'js>) -> rquickjs::Result<bool> {
        value.as_bool().ok_or_else(|| bad("a boolean was expected"))
    }

    fn object(&self, value: Value<'js>) -> rquickjs::Result<Object<'js>> {
        value.into_object().ok_or_else(|| bad("an object was expected"))
    }

    /// The items of an array, each read by `item`.
    fn list<T>(&self, value: Value<'js>, item: impl Fn(Value<'js>) -> rquickjs::Result<T>) -> rquickjs::Result<Vec<T>> {
        let array = value.into_array().ok_or_else(|| bad("an array was expected"))?;
        (0..array.len()).map(|i| array.get::<Value>(i).and_then(&item)).collect()
    }

    /// The own enumerable string keys of a description's `fields`, with their descriptions. By their
    /// atoms: a key may hold any character, NUL included.
    fn fields(&self, value: Value<'js>) -> rquickjs::Result<BTreeMap<String, Observed>> {
        let object = self.object(value)?;
        let raw = self.ctx.as_raw().as_ptr();
        // SAFETY: `raw` is the live context of `object`; the listing is dropped before this returns,
        // and each key's value made here is owned by the `Value` that wraps it.
        let keys = unsafe { OwnKeys::enumerable_strings_of(raw, object.as_raw()) }
            .ok_or_else(|| bad("fields that cannot be listed"))?;
        let mut fields = BTreeMap::new();
        for atom in keys.atoms() {
            // SAFETY: as above: the atom is alive while `keys` is, and the new value goes to the `Value`.
            let key = unsafe { Value::from_raw(self.ctx.clone(), qjs::JS_AtomToValue(raw, atom)) };
            let value = self.own_atom(&object, atom).ok_or_else(|| bad("a field is missing"))?;
            fields.insert(self.string(key)?, self.observed(value)?);
        }
        Ok(fields)
    }

    /// A description (`{ t: 'n', v: '3' }`).
    fn observed(&self, value: Value<'js>) -> rquickjs::Result<Observed> {
        let object = self.object(value)?;
        let tag = self.string(self.required(&object, Key::T)?)?;
        let get = |key| self.required(&object, key);
        let present = |key| self.own(&object, key).is_some();
        Ok(match tag.as_str() {
            "u" => Observed::Undefined,
            "b" => Observed::Boolean { value: self.boolean(get(Key::V)?)? },
            "n" => Observed::Number { text: self.string(get(Key::V)?)? },
            "s" => Observed::String { value: self.string(get(Key::V)?)? },
            "big" => Observed::BigInt { digits: self.string(get(Key::V)?)? },
            "sym" => Observed::Symbol,
            "null" => Observed::Null,
            "var" => Observed::Variable { index: self.count(get(Key::I)?)? },
            "cls" => Observed::Class { class: self.count(get(Key::I)?)? },
            "fn" => Observed::Function,
            "cycle" => Observed::Cycle,
            "deep" => Observed::Deep,
            "hole" => Observed::Hole,
            "arrlen" => Observed::LongArray { length: self.count(get(Key::N)?)? },
            "arr" => Observed::Array {
                items: self.list(get(Key::Items)?, |item| self.observed(item))?,
                extra: present(Key::Extra),
            },
            "iter" => Observed::Iterator {
                done: self.boolean(get(Key::Done)?)?,
                items: self.list(get(Key::Items)?, |item| self.observed(item))?,
            },
            "date" => Observed::Date { time: self.time(get(Key::V)?)? },
            "re" => Observed::RegExp { source: self.string(get(Key::V)?)? },
            "err" => Observed::Error { name: self.string(get(Key::Name)?)?, message: self.string(get(Key::Message)?)? },
            "obj" => Observed::Object {
                fields: self.fields(get(Key::Fields)?)?,
                cut: present(Key::Cut),
                bare: present(Key::Bare),
            },
            "inst" => Observed::Instance { class: self.count(get(Key::C)?)?, fields: self.fields(get(Key::Fields)?)? },
            "other" => Observed::Other { name: self.string(get(Key::Name)?)? },
            "unreadable" => Observed::Unreadable,
            _ => return Err(bad("an unknown kind of description")),
        })
    }

    /// A date's time as the JSON number `JSON.stringify` wrote (`null` for `NaN`): a whole number as
    /// serde reads one (unsigned unless negative), any other as a double.
    fn time(&self, value: Value<'js>) -> rquickjs::Result<Option<serde_json::Number>> {
        if value.is_null() {
            return Ok(None);
        }
        let t = value.as_number().ok_or_else(|| bad("a number was expected"))?;
        Ok(if !t.is_finite() {
            // `JSON.stringify` writes `null` for these too.
            None
        } else if t.fract() == 0.0 && t >= 0.0 && t < u64::MAX as f64 {
            Some(serde_json::Number::from(t as u64))
        } else if t.fract() == 0.0 && t < 0.0 && t >= i64::MIN as f64 {
            Some(serde_json::Number::from(t as i64))
        } else {
            serde_json::Number::from_f64(t)
        })
    }

    /// One result of a call of the method under test (see `describeResult` in `harness.js`).
    fn result(&self, value: Value<'js>) -> rquickjs::Result<DescribedResult> {
        let object = self.object(value)?;
        let mut result = DescribedResult::bare(
            self.count(self.required(&object, Key::At)?)?,
            self.observed(self.required(&object, Key::Value)?)?,
        );
        result.inexact = self.own(&object, Key::Inexact).map(|v| self.boolean(v)).transpose()?.unwrap_or(false);
        if let Some(state) = self.own(&object, Key::State) {
            result.state = self.list(state, |entry| {
                let entry = self.object(entry)?;
                Ok(VariableState {
                    variable: self.count(self.required(&entry, Key::I)?)?,
                    description: self.observed(self.required(&entry, Key::D)?)?,
                })
            })?;
        }
        if let Some(changed) = self.own(&object, Key::Changed) {
            result.changed = self.list(changed, |pair| {
                let pair = pair.into_array().ok_or_else(|| bad("a pair was expected"))?;
                Ok((self.count(pair.get(0)?)?, self.string(pair.get(1)?)?))
            })?;
        }
        if let Some(inspected) = self.own(&object, Key::Inspected) {
            result.inspected = self.list(inspected, |answer| self.inspected(answer))?;
        }
        Ok(result)
    }

    /// What an inspector answered (see `inspect` in `harness.js`).
    fn inspected(&self, value: Value<'js>) -> rquickjs::Result<Inspected> {
        let object = self.object(value)?;
        Ok(Inspected {
            name: self.string(self.required(&object, Key::N)?)?,
            getter: self.own(&object, Key::G).map(|g| self.boolean(g)).transpose()?.unwrap_or(false),
            value: self.own(&object, Key::V).map(|v| self.observed(v)).transpose()?,
            impure: self.own(&object, Key::Impure).map(|i| self.boolean(i)).transpose()?.unwrap_or(false),
        })
    }
}

/// The harness's `results` of the test that just ran; fails as out of memory past `budget` (see
/// `text.rs`).
pub(super) fn read<'js>(
    ctx: &Ctx<'js>,
    keys: &Keys,
    results: &Array<'js>,
    budget: TextBudget,
) -> rquickjs::Result<Vec<DescribedResult>> {
    let reader = Reader { ctx, keys, budget };
    (0..results.len()).map(|i| results.get::<Value>(i).and_then(|r| reader.result(r))).collect()
}

#[cfg(test)]
mod tests {
    use rquickjs::{Array, Context, Runtime};

    use super::{Keys, TextBudget, read};
    use crate::model::observed::DescribedResult;

    /// Reads `results` (JavaScript making the harness's array) both ways: through the objects, and as
    /// the JSON `JSON.stringify` made of them read by serde, as before.
    fn both(results: &str) -> (rquickjs::Result<Vec<DescribedResult>>, serde_json::Result<Vec<DescribedResult>>) {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let array: Array = ctx.eval(results).unwrap();
            let json: String = ctx.eval(format!("JSON.stringify({results})")).unwrap();
            let keys = Keys::new(&ctx);
            let native = read(&ctx, &keys, &array, TextBudget::of_memory(1 << 20));
            drop(keys);
            (native, serde_json::from_str(&json))
        })
    }

    #[test]
    fn descriptions_read_from_their_objects_as_from_their_json() {
        // Every kind of description, the optional members present and absent, a field named by a NUL,
        // dates of every kind, and a getter on Object.prototype that neither may run.
        let every = r#"(() => {
          Object.defineProperty(Object.prototype, 'extra', { get() { throw new Error('ran'); }, configurable: true });
          const f = (o) => Object.assign(Object.create(null), o);
          const values = [{ t: 'u' }, { t: 'b', v: true }, { t: 'n', v: '-0' }, { t: 's', v: 'a"\u00e9' },
            { t: 'big', v: '12345678901234567890' }, { t: 'sym' }, { t: 'null' }, { t: 'var', i: 2 },
            { t: 'cls', i: 0 }, { t: 'fn' }, { t: 'cycle' }, { t: 'deep' }, { t: 'arrlen', n: 51 },
            { t: 'arr', items: [{ t: 'hole' }, { t: 'u' }] }, { t: 'arr', items: [], extra: true },
            { t: 'iter', done: false, items: [{ t: 'n', v: '1' }] }, { t: 'date', v: 86400000 },
            { t: 'date', v: -1 }, { t: 'date', v: NaN }, { t: 're', v: '/a+/g' },
            { t: 'err', name: 'RangeError', message: 'past' },
            { t: 'obj', fields: f({ '\0': { t: 'n', v: '1' }, b: { t: 'deep' } }), cut: true, bare: true },
            { t: 'obj', fields: f({}) }, { t: 'inst', c: 1, fields: f({ x: { t: 'null' } }) },
            { t: 'other', name: 'Map' }, { t: 'unreadable' }];
          return values.map((value, at) => ({
            at, inexact: at % 2 === 0, value,
            state: [{ i: 0, d: { t: 'inst', c: 0, fields: f({ size: { t: 'n', v: String(at) } }) } }],
            changed: at % 3 === 0 ? [[0, 'size']] : [],
            ...(at === 4 ? { inspected: [{ n: 'size', g: false, v: { t: 'n', v: '3' } }, { n: 'peek', g: true, impure: true }, { n: 'gone' }] } : {}),
          }));
        })()"#;
        let (native, json) = both(every);
        let native = native.expect("read from the objects");
        assert_eq!(native.len(), 26);
        assert_eq!(native, json.expect("read from the JSON"));
    }

    #[test]
    fn text_past_the_budget_ends_the_read_as_out_of_memory() {
        // A quarter of 400 bytes: 100 bytes of text, keys and tags included.
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let keys = Keys::new(&ctx);
            let results = |length: usize| -> Array {
                ctx.eval(format!("[{{ at: 0, value: {{ t: 's', v: 'x'.repeat({length}) }}, state: [], changed: [] }}]"))
                    .unwrap()
            };
            assert!(read(&ctx, &keys, &results(90), TextBudget::of_memory(400)).is_ok());
            let error = read(&ctx, &keys, &results(120), TextBudget::of_memory(400)).unwrap_err();
            assert!(error.to_string().contains("out of memory"), "{error}");
        });
    }

    #[test]
    fn what_serde_refused_in_json_is_refused() {
        for bad in [
            "[{ at: 0, value: { t: 's', v: 'x\\ud800' } }]",
            "[{ at: 0, value: { t: 'nope' } }]",
            "[{ at: 0, value: { t: 'n', v: 3 } }]",
            "[{ at: 0.5, value: { t: 'u' } }]",
            "[{ value: { t: 'u' } }]",
            "[{ at: 0, value: { t: 'var' } }]",
        ] {
            let (native, json) = both(bad);
            assert!(native.is_err() && json.is_err(), "{bad}: {native:?} / {json:?}");
        }
    }
}
