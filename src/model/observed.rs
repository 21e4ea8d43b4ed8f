//! What running a test observed: how it ended ([`Outcome`]), what it threw ([`Thrown`]) and the results of
//! the method under test as the harness describes them ([`DescribedResult`], in the description format
//! [`Observed`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use crate::js::{UNCAUGHT_EXCEPTION, UNHANDLED_REJECTION};
use crate::model::settings::Limits;

/// Where in the engine's code something happened (a stack frame): the instrumented file and position,
/// which the code base maps back to the original source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnginePosition {
    /// The file's engine name (its absolute path).
    pub file: String,
    /// Line as the engine reports it.
    pub line: u32,
    /// Column as the engine reports it.
    pub column: u32,
}

/// How a test ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every statement ran.
    Passed,
    /// A statement threw; user code did not catch it.
    Threw {
        /// Index of the test statement that threw.
        at: usize,
        /// What was thrown.
        thrown: Thrown,
    },
    /// The time limit ended the test.
    TimedOut,
    /// The runtime ran out of memory.
    OutOfMemory,
    /// Recursion exhausted the stack.
    StackOverflow {
        /// Index of the test statement that overflowed.
        at: usize,
    },
}

impl Outcome {
    /// A short description for logs and the UI.
    pub(crate) fn describe(&self, limits: &Limits) -> String {
        match self {
            Outcome::Passed => "passed".into(),
            Outcome::Threw { thrown: Thrown::Error { name, message, .. }, .. } if name == UNHANDLED_REJECTION => {
                format!("left a promise rejected with no handler: {message}")
            }
            Outcome::Threw { thrown: Thrown::Error { name, message, .. }, .. } if name == UNCAUGHT_EXCEPTION => {
                format!("a timer's callback threw, uncaught: {message}")
            }
            Outcome::Threw { thrown: Thrown::Error { name, message, .. }, .. } => format!("threw {name}: {message}"),
            Outcome::Threw { thrown: Thrown::Value(v), .. } => format!("threw a non-error value {v}"),
            Outcome::TimedOut => format!("did not finish within {} ms (infinite loop?)", limits.test_time.as_millis()),
            Outcome::OutOfMemory => format!("ran out of memory (limit {} MiB)", limits.memory >> 20),
            Outcome::StackOverflow { .. } => "exceeded the stack (unbounded recursion?)".into(),
        }
    }

    /// Whether the test ended because of a resource limit rather than a result.
    pub fn hit_limit(&self) -> bool {
        matches!(self, Outcome::TimedOut | Outcome::OutOfMemory | Outcome::StackOverflow { .. })
    }
}

/// A thrown value.
#[derive(Debug, Clone, PartialEq)]
pub enum Thrown {
    /// An object with a `name` and a `message` (an `Error`, usually).
    Error {
        /// Its `name`.
        name: String,
        /// Its `message`.
        message: String,
        /// Where it was created in the code under test (the first such frame of its stack).
        origin: Option<EnginePosition>,
    },
    /// Anything else, described by the harness (see `suite::assertion`).
    Value(Observed),
}

/// The result of one call of the method under test, described right after the call, with the state the
/// call left: what state assertions are made of.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DescribedResult {
    /// Index of the test statement.
    pub at: usize,
    /// The returned value.
    pub value: Observed,
    /// Whether the test had used an operation that engines round differently (`Math.sin`, `**`) by
    /// then: its numbers may differ in their last bits under Node, and are asserted within a tolerance.
    #[serde(default)]
    pub inexact: bool,
    /// Every variable of the test that has fields, after the call.
    #[serde(default)]
    pub state: Vec<VariableState>,
    /// The fields the call changed, as (variable, field name): added and deleted ones included.
    #[serde(default)]
    pub changed: Vec<(usize, String)>,
    /// The answers of the inspectors called after the call (the last call of a test only), in order.
    #[serde(default)]
    pub inspected: Vec<Inspected>,
}

impl DescribedResult {
    /// A result without any state (tests, and results the harness did not describe the state of).
    pub(crate) fn bare(at: usize, value: Observed) -> DescribedResult {
        DescribedResult { at, value, inexact: false, state: Vec::new(), changed: Vec::new(), inspected: Vec::new() }
    }

    /// The value of field `field` of variable `variable` after the call: `undefined` for a field it does
    /// not have; `None` when the variable was not described.
    pub(crate) fn field(&self, variable: usize, field: &str) -> Option<&Observed> {
        let state = self.state.iter().find(|s| s.variable == variable)?;
        Some(state.description.fields()?.get(field).unwrap_or(&Observed::Undefined))
    }

    /// The answer of inspector `name`, when it gave one without changing anything.
    pub(crate) fn answer(&self, name: &str) -> Option<&Observed> {
        self.inspected.iter().find(|i| i.name == name && !i.impure).and_then(|i| i.value.as_ref())
    }
}

/// A variable of the test, described after a call: `{"t": "inst", "fields": ...}` or a plain object.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct VariableState {
    /// Index of the variable.
    #[serde(rename = "i")]
    pub variable: usize,
    /// Its description.
    #[serde(rename = "d")]
    pub description: Observed,
}

/// What an inspector (an argument-less method, or a getter) answered after a call.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Inspected {
    /// Its name.
    #[serde(rename = "n")]
    pub name: String,
    /// Whether it is a getter (read) rather than a method (called).
    #[serde(rename = "g", default)]
    pub getter: bool,
    /// Its answer; `None` when it threw, answered a promise, or is neither a method nor a getter.
    #[serde(rename = "v", default)]
    pub value: Option<Observed>,
    /// Whether it changed the object's fields: then it is no inspector, and nothing after it was called.
    #[serde(default)]
    pub impure: bool,
    /// Whether the test had used an operation engines round differently by the time it answered (see
    /// [`DescribedResult::inexact`]; inspectors run after the result is described).
    #[serde(default)]
    pub inexact: bool,
}

/// A JavaScript value as the sandbox describes it, in the JSON the harness writes (`harness.js`,
/// `describe` and `describeResult`) and the recorder stores (`recorder.js`): an object tagged by `t`,
/// `{"t": "n", "v": "3"}`.
///
/// A description is made right after the call it describes, so it says what the value was then even
/// if the code changes it later. It is bounded: past a depth or a number of items it stops with a
/// marker ([`Observed::Deep`], [`Observed::LongArray`]), and values met again stop as
/// [`Observed::Cycle`] or as a reference to a variable of the test ([`Observed::Variable`]).
///
/// Read with serde; [`Observed::to_json`] and the `Display` text give the JSON back as
/// `serde_json::Value` held it (keys sorted, the crate does not preserve order): messages and reports
/// that quote a description read the same as when it was untyped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t")]
pub enum Observed {
    /// `undefined`.
    #[serde(rename = "u")]
    Undefined,
    /// A boolean.
    #[serde(rename = "b")]
    Boolean {
        /// Its value.
        #[serde(rename = "v")]
        value: bool,
    },
    /// A number, as JavaScript prints it (`String(x)`): JSON has no `NaN`, `Infinity` or `-0`, and the
    /// printed form is also the literal an exported test writes. Negative zero is `-0` (JavaScript
    /// prints it `0`), since `Object.is`, which strict equality assertions use, tells it from zero.
    #[serde(rename = "n")]
    Number {
        /// `String(x)`, or `-0`.
        #[serde(rename = "v")]
        text: String,
    },
    /// A string.
    #[serde(rename = "s")]
    String {
        /// Its value.
        #[serde(rename = "v")]
        value: String,
    },
    /// A BigInt, as its decimal digits (without the `n` suffix): JSON numbers cannot hold it.
    #[serde(rename = "big")]
    BigInt {
        /// `String(x)`.
        #[serde(rename = "v")]
        digits: String,
    },
    /// A symbol: not asserted, since a test cannot name the symbol the code made.
    #[serde(rename = "sym")]
    Symbol,
    /// `null`.
    #[serde(rename = "null")]
    Null,
    /// A variable of the running test, by identity: the value the call returned (often `this`), or one
    /// met inside a described value (harness descriptions only).
    #[serde(rename = "var")]
    Variable {
        /// Index of the variable in the test.
        #[serde(rename = "i")]
        index: usize,
    },
    /// One of the classes the analysis found, as a value (the constructor itself).
    #[serde(rename = "cls")]
    Class {
        /// Index of the class: in the program's classes for the harness, in the recording's `classes`
        /// for the recorder.
        #[serde(rename = "i")]
        class: usize,
    },
    /// Any other function: only its type is asserted.
    #[serde(rename = "fn")]
    Function,
    /// An object already being described further up (a cycle): asserted where it was met first.
    #[serde(rename = "cycle")]
    Cycle,
    /// An object below the description's depth limit, or past the recorder's count of objects (the
    /// recorder's only stop for a cycle).
    #[serde(rename = "deep")]
    Deep,
    /// A hole of a sparse array (`[1, , 3]`), kept apart from `undefined` since deep equality tells them
    /// apart. Only an item of [`Observed::Array`].
    #[serde(rename = "hole")]
    Hole,
    /// An array with more items than a description lists: only its length.
    #[serde(rename = "arrlen")]
    LongArray {
        /// Its `length`.
        #[serde(rename = "n")]
        length: usize,
    },
    /// An array, item by item.
    #[serde(rename = "arr")]
    Array {
        /// Its items, holes included.
        items: Vec<Observed>,
        /// Whether it has own properties besides its indexes (`a['1.5'] = x`): deep equality counts
        /// them, so no literal is written for it. A presence flag: the harness writes `"extra": true`
        /// or nothing, and any value read counts as set.
        #[serde(default, skip_serializing_if = "is_false", deserialize_with = "present")]
        extra: bool,
    },
    /// The items of an iterator the method under test returned, taken right after the call as the
    /// exported test's `Array.from` (or `for await`, for an async one) takes them (harness descriptions only).
    #[serde(rename = "iter")]
    Iterator {
        /// Whether it ended within the item limit; if not (too long, waiting for an item nothing gives, or it
        /// threw or misbehaved while consumed), only a throw is asserted of it.
        done: bool,
        /// The items it gave.
        items: Vec<Observed>,
        /// Whether it is an async iterator (an async generator's), its items awaited in turn: the exported
        /// test takes them with `for await`.
        #[serde(rename = "async", default, skip_serializing_if = "is_false")]
        asynchronous: bool,
        /// What it threw while consumed, if it did (`done` is then false): what the test asserts of it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        threw: Option<Box<Observed>>,
    },
    /// A `Date`.
    #[serde(rename = "date")]
    Date {
        /// `getTime()`: `None` for an invalid date, whose time is `NaN`, written `null` by
        /// `JSON.stringify`. Kept as the JSON number read, so that it is written back as it came.
        #[serde(rename = "v")]
        time: Option<serde_json::Number>,
    },
    /// A regular expression, as its source text with flags (`String(re)`, `/a+/g`).
    #[serde(rename = "re")]
    RegExp {
        /// `String(re)`.
        #[serde(rename = "v")]
        source: String,
    },
    /// An `Error` (inside a result; a thrown error is a [`Thrown::Error`]).
    #[serde(rename = "err")]
    Error {
        /// `String(e.name)`.
        name: String,
        /// `String(e.message)`; `None` for an error the engine made rather than the code under test,
        /// whose message differs between engines and is not asserted.
        message: Option<String>,
        /// Its stack as the engine wrote it, until the sandbox decides whose the error is (see
        /// `SourcePositions::locate_execution`).
        #[serde(skip)]
        stack: Option<String>,
    },
    /// A plain object (its prototype `Object.prototype`, or none), by its own data properties.
    #[serde(rename = "obj")]
    Object {
        /// Its own data properties, by name (an own `__proto__` left out, and the object `cut`: a literal key of
        /// that name writes the prototype).
        fields: BTreeMap<String, Observed>,
        /// Whether some members were left out (functions, accessors, more than the limit): the fields
        /// are then asserted one by one, never as a whole literal. A presence flag, as
        /// [`Observed::Array`]'s `extra`.
        #[serde(default, skip_serializing_if = "is_false", deserialize_with = "present")]
        cut: bool,
        /// Whether it has no prototype (`Object.create(null)`), which deep equality tells from `{}`. A
        /// presence flag, as [`Observed::Array`]'s `extra`; the recorder never sets it.
        #[serde(default, skip_serializing_if = "is_false", deserialize_with = "present")]
        bare: bool,
    },
    /// An instance of one of the classes the analysis found, by its own data properties.
    #[serde(rename = "inst")]
    Instance {
        /// Index of its class, as in [`Observed::Class`].
        #[serde(rename = "c")]
        class: usize,
        /// Its own data properties, by name.
        fields: BTreeMap<String, Observed>,
    },
    /// A `Map`, a `Set` or a typed array (harness descriptions only), by its items in order as `Array.from`
    /// takes them: a map's entries as `[key, value]` arrays, a set's values, a typed array's elements.
    #[serde(rename = "coll")]
    Collection {
        /// Its constructor's name (`Map`, `Set`, `Float64Array`).
        #[serde(rename = "c")]
        class: String,
        /// Its items.
        items: Vec<Observed>,
    },
    /// An object of another kind (a `Map` or a typed array with more items than a description lists, an
    /// instance of a class the analysis did not find): its structure is not asserted.
    #[serde(rename = "other")]
    Other {
        /// Its constructor's name, or empty.
        name: String,
    },
    /// An object whose reading threw (a proxy, a throwing getter of a prototype).
    #[serde(rename = "unreadable")]
    Unreadable,
    /// An object whose construction the recorder saw, by its object id (recordings only): what a replay
    /// rebuilds by replaying that construction.
    #[serde(rename = "ref")]
    Ref {
        /// The object id the recording gave it (see `record::format::Event`).
        #[serde(rename = "i")]
        object: i64,
    },
    /// A promise still pending at the end of the test, which no job or timer left could settle: the
    /// result of a deferred call (see [`crate::model::test::Statement::Call`]), asserted pending.
    #[serde(rename = "pending")]
    Pending,
    /// A `URL`, `URLSearchParams` or `Headers` the method under test returned, made by the sandbox's
    /// globals: by what a reader checks of it (harness descriptions only, of results).
    #[serde(rename = "web")]
    Web {
        /// Its class's global name.
        #[serde(rename = "c")]
        class: String,
        /// A URL's `href`, a query's `toString()`, the JSON of a `Headers`'s entries (pairs of strings).
        #[serde(rename = "v")]
        text: String,
    },
    /// A value that was not the same in every run of the test (see `suite::stability`): nothing asserts
    /// it. Written by the stability check, never by the sandbox.
    #[serde(rename = "unstable")]
    Unstable,
    /// A number that was not the same in every run of the test, while its difference from what an
    /// earlier call of the test returned was (ticket numbers from a counter that outlives the test):
    /// asserted as that difference. Written by the stability check, never by the sandbox; top-level
    /// results only.
    #[serde(rename = "offset")]
    Offset {
        /// The statement of the earlier call (a call of the method under test, whose result is a
        /// number in every run).
        from: usize,
        /// This result minus that one.
        by: i64,
    },
}

impl Observed {
    /// Reads a description out of JSON already parsed (a recording's values, a field of a message);
    /// `None` when it is not a description this build knows (another tag, a field missing or of
    /// another type).
    pub(crate) fn from_json(json: &serde_json::Value) -> Option<Observed> {
        Observed::deserialize(json).ok()
    }

    /// The fields of a plain object or of an instance of a class; `None` for any other value.
    pub fn fields(&self) -> Option<&BTreeMap<String, Observed>> {
        match self {
            Observed::Object { fields, .. } | Observed::Instance { fields, .. } => Some(fields),
            _ => None,
        }
    }

    /// The fields of a plain object or of an instance of a class, to change; `None` for any other value.
    pub(crate) fn fields_mut(&mut self) -> Option<&mut BTreeMap<String, Observed>> {
        match self {
            Observed::Object { fields, .. } | Observed::Instance { fields, .. } => Some(fields),
            _ => None,
        }
    }

    /// Calls `f` with the name, message and stack of every error in the description.
    pub(crate) fn for_each_error(&mut self, f: &mut impl FnMut(&str, &mut Option<String>, &mut Option<String>)) {
        match self {
            Observed::Error { name, message, stack } => f(name, message, stack),
            Observed::Array { items, .. } | Observed::Collection { items, .. } => {
                items.iter_mut().for_each(|item| item.for_each_error(f))
            }
            Observed::Iterator { items, threw, .. } => {
                items.iter_mut().chain(threw.as_deref_mut()).for_each(|item| item.for_each_error(f));
            }
            Observed::Object { fields, .. } | Observed::Instance { fields, .. } => {
                fields.values_mut().for_each(|field| field.for_each_error(f));
            }
            _ => {}
        }
    }

    /// The description as JSON, as `serde_json::Value` holds it: every object's keys sorted.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("descriptions have string keys and serialise")
    }

    /// The tag a description has in JSON (`n`, `obj`): how a report names a kind of value.
    pub(crate) fn tag(&self) -> String {
        // Read from the serialised form, so that the `rename`s above stay the one list of tags.
        self.to_json().get("t").and_then(serde_json::Value::as_str).unwrap_or_default().to_string()
    }
}

/// Compact JSON, keys sorted: the text the untyped description printed.
impl fmt::Display for Observed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

/// Reads a presence flag: the harness writes the key (as `true`) or leaves it out, so a key read with
/// any value means set.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    serde::de::IgnoredAny::deserialize(deserializer).map(|_| true)
}

/// Leaves an unset presence flag out, as the harness does.
fn is_false(flag: &bool) -> bool {
    !flag
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape the harness and the recorder write, in their key order.
    const SHAPES: &[&str] = &[
        r#"{"t":"u"}"#,
        r#"{"t":"b","v":true}"#,
        r#"{"t":"n","v":"-0"}"#,
        r#"{"t":"s","v":"a\"b"}"#,
        r#"{"t":"big","v":"12345678901234567890"}"#,
        r#"{"t":"sym"}"#,
        r#"{"t":"null"}"#,
        r#"{"t":"var","i":1}"#,
        r#"{"t":"cls","i":0}"#,
        r#"{"t":"fn"}"#,
        r#"{"t":"cycle"}"#,
        r#"{"t":"deep"}"#,
        r#"{"t":"arrlen","n":51}"#,
        r#"{"t":"arr","items":[{"t":"hole"},{"t":"n","v":"2"}]}"#,
        r#"{"t":"arr","items":[],"extra":true}"#,
        r#"{"t":"iter","done":false,"items":[{"t":"n","v":"1"}]}"#,
        r#"{"t":"date","v":1700000000000}"#,
        r#"{"t":"date","v":-86400000}"#,
        r#"{"t":"date","v":null}"#,
        r#"{"t":"re","v":"/a+/g"}"#,
        r#"{"t":"err","name":"RangeError","message":"bad"}"#,
        r#"{"t":"obj","fields":{"z":{"t":"u"},"a":{"t":"null"}}}"#,
        r#"{"t":"obj","fields":{},"cut":true,"bare":true}"#,
        r#"{"t":"inst","c":2,"fields":{"next":{"t":"cycle"}}}"#,
        r#"{"t":"coll","c":"Map","items":[{"t":"arr","items":[{"t":"s","v":"a"},{"t":"n","v":"1"}]}]}"#,
        r#"{"t":"other","name":"Map"}"#,
        r#"{"t":"unreadable"}"#,
        r#"{"t":"ref","i":3}"#,
        r#"{"t":"unstable"}"#,
        r#"{"t":"offset","from":1,"by":-2}"#,
    ];

    #[test]
    fn descriptions_are_written_back_as_the_untyped_json_was() {
        for shape in SHAPES {
            let untyped: serde_json::Value = serde_json::from_str(shape).unwrap();
            let typed: Observed = serde_json::from_str(shape).unwrap_or_else(|e| panic!("{shape}: {e}"));
            assert_eq!(typed.to_json(), untyped, "{shape}");
            assert_eq!(typed.to_string(), untyped.to_string(), "{shape}");
            assert_eq!(typed.tag(), untyped["t"].as_str().unwrap());
        }
    }

    #[test]
    fn flags_are_set_by_their_presence() {
        let read = |text: &str| serde_json::from_str::<Observed>(text).unwrap();
        assert_eq!(read(r#"{"t":"arr","items":[]}"#), Observed::Array { items: Vec::new(), extra: false });
        assert_eq!(read(r#"{"t":"arr","items":[],"extra":null}"#), Observed::Array { items: Vec::new(), extra: true });
        let bare = Observed::Object { fields: BTreeMap::new(), cut: false, bare: true };
        assert_eq!(read(r#"{"t":"obj","fields":{},"bare":true}"#), bare);
        assert!(serde_json::from_str::<Observed>(r#"{"t":"nope"}"#).is_err());
    }
}
