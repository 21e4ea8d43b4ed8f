//! What the sandbox says a method returned and left behind: every kind of description the harness
//! makes of a result (`Observed`), and the state and changed fields after a call, as state assertions
//! read them.

use crate::common;

use common::load_sandbox;
use flycatcher::model::observed::{DescribedResult, Observed, Outcome};
use flycatcher::sandbox::Test;

const SHAPES: &str = r#"
class Shapes {
  constructor() { this.n = 1; this.when = new Date(86400000); }
  date() { return new Date(172800000); }
  invalidDate() { return new Date(NaN); }
  dateLike() { return Object.create(Date.prototype); }
  regexp() { return /a+/g; }
  error() { return new RangeError('past'); }
  holes() { return [1, , 'three']; }
  extra() { const a = [1]; a.x = 2; return a; }
  long() { return new Array(60).fill(0); }
  cycle() { const o = { a: -0 }; o.self = o; return o; }
  deep() { return { a: { b: { c: { d: 1 } } } }; }
  bare() { const o = Object.create(null); o.k = 'v'; return o; }
  members() { return { get g() { return 1; }, f() {}, x: 1.5 }; }
  symbols() { return { [Symbol('s')]: 1, y: 2n, z: Symbol('z') }; }
  unlistable() { return new Proxy({}, { ownKeys() { throw new Error('no'); } }); }
  map() { return new Map([['b', [1]], ['a', this]]); }
  set() { const s = new Set([2, 1]); s.add(2); return s; }
  bigMap() { return new Map(new Array(60).fill(0).map((_, i) => [i, i])); }
  subMap() { return new (class Named extends Map {})(); }
  bits() { return new Uint8Array(40000000); }
  byte() { const a = new Uint8Array(2); a.extra = 1; return a; }
  self() { return this; }
  nested() { return { me: this, list: [Shapes, () => 1], f: () => 1 }; }
  many() { const o = {}; for (let i = 0; i < 60; i++) o['k' + i] = i; return o; }
  inherits() { return Object.create({ inherited: 1 }); }
  grow() { this.n += 1; delete this.when; this.added = [true, null, undefined]; return 'grown'; }
  *items() { yield 1; yield 'two'; }
  // A proxy that logs its traps in `this.log`, and the log.
  proxied() {
    const log = (this.log = []);
    const note = (what) => log.push(what);
    return new Proxy({ a: 1 }, {
      getPrototypeOf(t) { note('proto'); return Reflect.getPrototypeOf(t); },
      ownKeys(t) { note('keys'); return Reflect.ownKeys(t); },
      getOwnPropertyDescriptor(t, k) { note('describe ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
      get(t, k, r) { note('get ' + String(k)); return Reflect.get(t, k, r); },
    });
  }
  logged() { return this.log.join(', '); }
  half() { return this.n / 2; }
  growth() { return Math.exp(this.n / 3.7); }
}
module.exports = { Shapes };
"#;

/// Runs `new Shapes()` then `methods` on it (each a call of the method under test), describing the results.
fn results(methods: &[&str]) -> Vec<DescribedResult> {
    let (_session, mut sandbox, watch) = load_sandbox(SHAPES);
    let calls: String = methods.iter().map(|m| format!(",[1,0,{m:?},[],1]")).collect();
    let test = format!("[[0,0,[],0]{calls}]");
    let run = sandbox.run_isolated(Test::Json(&test), 1, &watch, true).unwrap();
    assert_eq!(run.outcome, Outcome::Passed, "{methods:?}");
    run.results
}

/// The description of what `method` returned.
fn returned(method: &str) -> Observed {
    results(&[method]).remove(0).value
}

fn observed(json: &str) -> Observed {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn every_kind_of_value_is_described() {
    let cases = [
        ("date", r#"{"t":"date","v":172800000}"#),
        ("invalidDate", r#"{"t":"date","v":null}"#),
        // `instanceof Date` without a date's time: reading it throws.
        ("dateLike", r#"{"t":"unreadable"}"#),
        ("regexp", r#"{"t":"re","v":"/a+/g"}"#),
        ("error", r#"{"t":"err","name":"RangeError","message":"past"}"#),
        ("holes", r#"{"t":"arr","items":[{"t":"n","v":"1"},{"t":"hole"},{"t":"s","v":"three"}]}"#),
        ("extra", r#"{"t":"arr","items":[{"t":"n","v":"1"}],"extra":true}"#),
        ("long", r#"{"t":"arrlen","n":60}"#),
        ("cycle", r#"{"t":"obj","fields":{"a":{"t":"n","v":"-0"},"self":{"t":"cycle"}}}"#),
        ("deep", r#"{"t":"obj","fields":{"a":{"t":"obj","fields":{"b":{"t":"obj","fields":{"c":{"t":"deep"}}}}}}}"#),
        ("bare", r#"{"t":"obj","fields":{"k":{"t":"s","v":"v"}},"bare":true}"#),
        ("members", r#"{"t":"obj","fields":{"x":{"t":"n","v":"1.5"}},"cut":true}"#),
        ("symbols", r#"{"t":"obj","fields":{"y":{"t":"big","v":"2"},"z":{"t":"sym"}},"cut":true}"#),
        ("unlistable", r#"{"t":"unreadable"}"#),
        // Maps and sets by their items in insertion order, a map's as `[key, value]` pairs whose key and
        // value are described one level down (the pair is no object of the code's); past the item limit,
        // or of a subclass (whose literal no runner would write), by their constructor's name.
        (
            "map",
            r#"{"t":"coll","c":"Map","items":[{"t":"arr","items":[{"t":"s","v":"b"},{"t":"arr","items":[{"t":"n","v":"1"}]}]},{"t":"arr","items":[{"t":"s","v":"a"},{"t":"var","i":0}]}]}"#,
        ),
        ("set", r#"{"t":"coll","c":"Set","items":[{"t":"n","v":"2"},{"t":"n","v":"1"}]}"#),
        ("bigMap", r#"{"t":"other","name":"Map"}"#),
        ("subMap", r#"{"t":"other","name":"Named"}"#),
        ("self", r#"{"t":"var","i":0}"#),
        // A function-valued field is left out (`cut`); in an array it is an item.
        (
            "nested",
            r#"{"t":"obj","fields":{"me":{"t":"var","i":0},"list":{"t":"arr","items":[{"t":"cls","i":0},{"t":"fn"}]}},"cut":true}"#,
        ),
        ("inherits", r#"{"t":"other","name":""}"#),
        ("items", r#"{"t":"iter","done":true,"items":[{"t":"n","v":"1"},{"t":"s","v":"two"}]}"#),
    ];
    for (method, expected) in cases {
        assert_eq!(returned(method), observed(expected), "{method}");
    }
    let many = returned("many");
    let fields = many.fields().expect("an object");
    assert_eq!(fields.len(), 50, "fifty fields at most");
    assert!(matches!(many, Observed::Object { cut: true, .. }), "{many:?}");
}

#[test]
fn a_typed_array_is_described_without_listing_every_element() {
    // Listing the keys of forty million elements took 320 MB, past the test's memory limit: the result
    // was unreadable. A description reads its length, and needs no keys; a short one is described by
    // its elements and its constructor's name (an own property besides them is not asserted: the suite
    // compares `Array.from` of it).
    assert_eq!(returned("bits"), observed(r#"{"t":"other","name":"Uint8Array"}"#));
    let elements = r#"{"t":"coll","c":"Uint8Array","items":[{"t":"n","v":"0"},{"t":"n","v":"0"}]}"#;
    assert_eq!(returned("byte"), observed(elements));
}

#[test]
fn the_state_after_a_call_and_what_it_changed_are_described() {
    let results = results(&["grow", "self"]);
    let grown = &results[0];
    assert_eq!(grown.at, 1);
    assert_eq!(grown.value, observed(r#"{"t":"s","v":"grown"}"#));
    let state = observed(
        r#"{"t":"inst","c":0,"fields":{"n":{"t":"n","v":"2"},
            "added":{"t":"arr","items":[{"t":"b","v":true},{"t":"null"},{"t":"u"}]}}}"#,
    );
    assert_eq!(grown.state.len(), 1);
    assert_eq!((grown.state[0].variable, &grown.state[0].description), (0, &state));
    let mut changed = grown.changed.clone();
    changed.sort();
    assert_eq!(changed, [(0, "added".to_string()), (0, "n".to_string()), (0, "when".to_string())]);
    // The next call changes nothing: its state is the same, and no field is said to have changed.
    assert_eq!(results[1].state[0].description, state);
    assert!(results[1].changed.is_empty(), "{:?}", results[1].changed);
}

#[test]
fn a_proxy_sees_the_traps_of_a_description_in_their_order() {
    let results = results(&["proxied", "logged"]);
    assert_eq!(results[0].value, observed(r#"{"t":"obj","fields":{"a":{"t":"n","v":"1"}}}"#));
    // Whether it is a promise (its prototype) or an iterator (its prototype, its `next`); then its
    // prototype, three `instanceof` (date, regular expression, error), `Object.keys` (the keys, each
    // key's enumerability), each field's descriptor, and the symbol keys.
    let traps = "proto, proto, get next, proto, proto, proto, proto, keys, describe a, describe a, keys";
    assert_eq!(results[1].value, Observed::String { value: traps.into() });
}

#[test]
fn a_date_in_a_field_is_described_by_its_time() {
    let state = &results(&["self"])[0].state[0].description;
    assert_eq!(state.fields().unwrap()["when"], observed(r#"{"t":"date","v":86400000}"#));
}

#[test]
fn an_inspector_that_used_an_operation_engines_round_differently_says_so() {
    // Inspectors run after the call's result is described: whether their answers may differ under
    // another engine is asked for each, after it (the flag stays up for the rest of the test).
    let (_session, mut sandbox, watch) = load_sandbox(SHAPES);
    let test = r#"[[0,0,[],0],[1,0,"self",[],1],[3,0,["half","growth","half"]]]"#;
    let run = sandbox.run_isolated(Test::Json(test), 1, &watch, true).unwrap();
    assert_eq!(run.outcome, Outcome::Passed);
    let result = &run.results[0];
    assert!(!result.inexact, "the call itself used none");
    let flags: Vec<(&str, bool)> = result.inspected.iter().map(|i| (i.name.as_str(), i.inexact)).collect();
    assert_eq!(flags, [("half", false), ("growth", true), ("half", true)]);
}
