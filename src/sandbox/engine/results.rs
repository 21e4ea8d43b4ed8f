//! Reading the harness's results (`results` in `harness.js`) through the C interface, as
//! [`DescribedResult`]s: each call of the method under test, with the numbers of its descriptions,
//! which Rust made and kept for the test (`describe/`).
//!
//! They came as JSON: `JSON.stringify` of the results in the harness, then serde in Rust, whose
//! internally tagged [`Observed`] buffers every object before it reads its tag. The reader takes what
//! the JSON carried and nothing else: own data properties only (a getter the code under test put on
//! `Object.prototype` is never run, as `JSON.stringify` never ran it), and the same failures (a member
//! missing or of another type, a string with a lone surrogate, which serde refused in JSON, and text
//! past the test's budget, see `text.rs`).

use rquickjs::{Array, Ctx, Object, Value};

use super::describe::{self, Descriptions};
use super::text::with_text;
use crate::model::observed::{DescribedResult, Inspected, Observed, VariableState};
use crate::sandbox::qjs::{Anchor, Atom, Cx, KeptAtom, Owned, Ref};

/// The keys results use, as atoms made once per engine (see [`Keys::new`]).
pub(super) struct Keys {
    atoms: [KeptAtom; KEY_NAMES.len()],
}

/// In the order of [`Key`].
const KEY_NAMES: [&std::ffi::CStr; 12] =
    [c"i", c"n", c"d", c"g", c"v", c"at", c"inexact", c"value", c"state", c"changed", c"inspected", c"impure"];

#[derive(Clone, Copy)]
enum Key {
    I,
    N,
    D,
    G,
    V,
    At,
    Inexact,
    Value,
    State,
    Changed,
    Inspected,
    Impure,
}

impl Keys {
    /// The atoms, kept in the context of `ctx` (`anchor`'s).
    pub(super) fn new(ctx: &Ctx, anchor: &Anchor) -> Keys {
        let cx = Cx::of(ctx);
        Keys { atoms: KEY_NAMES.map(|name| KeptAtom::new(anchor, Atom::new(cx, name))) }
    }

    fn atom(&self, key: Key) -> &KeptAtom {
        &self.atoms[key as usize]
    }
}

/// Why the results could not be read, as serde said of the JSON.
fn bad(what: &str) -> rquickjs::Error {
    rquickjs::Error::new_from_js_message("results", "descriptions", what.to_string())
}

/// The results' reader within one context.
struct Reader<'a, 'js> {
    ctx: &'a Ctx<'js>,
    keys: &'a Keys,
    descriptions: &'a Descriptions,
}

impl<'js> Reader<'_, 'js> {
    /// Own data property `key` of `object`, if it has one.
    fn own(&self, object: &Object<'js>, key: Key) -> Option<Value<'js>> {
        self.own_atom(object, self.keys.atom(key))
    }

    fn own_atom(&self, object: &Object<'js>, atom: &KeptAtom) -> Option<Value<'js>> {
        let cx = Cx::of(self.ctx);
        cx.own_value(Ref::of(object.as_value()), atom.get(cx)).map(Owned::into_value)
    }

    fn required(&self, object: &Object<'js>, key: Key) -> rquickjs::Result<Value<'js>> {
        self.own(object, key).ok_or_else(|| bad("a member is missing"))
    }

    fn string(&self, value: Value<'js>) -> rquickjs::Result<String> {
        let budget = self.descriptions.budget();
        let text = with_text(self.ctx, &value, budget, |bytes| String::from_utf8(bytes.to_vec()))?;
        // A lone surrogate makes no UTF-8: serde refused its JSON escape too.
        text.ok_or_else(|| bad("a string was expected"))?.map_err(|_| bad("a string with a lone surrogate"))
    }

    fn count(&self, value: Value<'js>) -> rquickjs::Result<usize> {
        let n = value.as_number().ok_or_else(|| bad("a number was expected"))?;
        describe::index(n).ok_or_else(|| bad("an index was expected"))
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

    /// A description, by its number.
    fn observed(&self, value: Value<'js>) -> rquickjs::Result<Observed> {
        self.descriptions.take(self.count(value)?)
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
            inexact: self.own(&object, Key::Inexact).map(|i| self.boolean(i)).transpose()?.unwrap_or(false),
        })
    }
}

/// The harness's `results` of the test that just ran, their descriptions taken from `descriptions`;
/// fails as out of memory past the test's budget (see `text.rs`).
pub(super) fn read<'js>(
    ctx: &Ctx<'js>,
    keys: &Keys,
    results: &Array<'js>,
    descriptions: &Descriptions,
) -> rquickjs::Result<Vec<DescribedResult>> {
    let reader = Reader { ctx, keys, descriptions };
    (0..results.len()).map(|i| results.get::<Value>(i).and_then(|r| reader.result(r))).collect()
}
