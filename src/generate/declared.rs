//! Values of declared types (TypeScript annotations, see [`crate::analysis::declared`]): a union draws one
//! of its members, a literal is itself, an enum one of its values, an object type an object with its
//! members (optional ones now and then left out), a dictionary up to three entries, a function type a callback of its arity returning a
//! value of its return type (a consistent comparator for one that orders two values: `a - b` for numbers,
//! `a < b ? -1 : ...` for strings and values of a type the caller picks; a method declared to return `this`
//! one returning its receiver), a type that constructs instances a class (the program's own, else one
//! written of the instances' members), an array of `T` an array of `T`s, a `Map`, `Set` or `Promise` one of them holding values of their type
//! arguments (a promise now and then rejected instead), an async iterable an async generator yielding its items, a class an instance built like any other argument,
//! one of Node's global web classes (`URL`, `Headers`, `AbortSignal`...) an instance built as a user would.
//! Parts declared `any` (the elements of `any[]`, what a callback returns) take their type from inference
//! where the parameter has a record for them, and are any primitive elsewhere. Optional parameters are now
//! and then left out. Values outside the declared types are passed only under `--probe-outside-types`.

use rand::{Rng, RngExt};

use super::random::{Builder, SMALL_NUMBER, date};
use crate::analysis::declared::{DeclaredType, Literal, Member, Orders};
use crate::inference::ParamType;
use crate::inference::declared::{arrays_satisfy, buildable, constructible};
use crate::js::literal;
use crate::model::program::is_typescript;
use crate::model::test::{Shape, Value, Web, WebClass};

/// Longest array built for an array type.
const MAX_ARRAY_LENGTH: usize = 5;
/// Most entries built for a dictionary type (`{ [key: string]: T }`), and their plain keys.
const MAX_DICTIONARY_LENGTH: usize = 3;
const KEYS: [&str; MAX_DICTIONARY_LENGTH] = ["a", "b", "c"];
/// Object types nested this deep are built with their required members only.
const MAX_OBJECT_DEPTH: usize = 4;
/// Chance that an optional member of an object type is given a value, at most...
const OPTIONAL_MEMBER_PROBABILITY: f64 = 0.5;
/// ...and how many optional members an object is given on average: real options objects set a few of
/// many (an object with twenty options set at random mostly breaks one of the rules that tie them).
const OPTIONAL_MEMBERS_EXPECTED: f64 = 2.0;
/// Chance of an array for an object type that arrays satisfy.
const ARRAY_FOR_OBJECT_PROBABILITY: f64 = 0.5;
/// Chance of leaving out the optional parameters at the end of a call (some of them).
const OMIT_OPTIONAL_PROBABILITY: f64 = 0.3;
/// Chance of `NaN`, `Infinity` or `-Infinity` for a declared `number`: values of the type that code
/// guards against (`Number.isFinite`), which the ordinary number pools never draw.
const NON_FINITE_PROBABILITY: f64 = 0.05;
/// Chance of a consistent comparator for a function type that orders two values; a callback
/// returning 0 whatever it is given is the other choice.
const COMPARATOR_PROBABILITY: f64 = 0.8;
/// Chance that such a comparator orders from the largest down.
const DESCENDING_PROBABILITY: f64 = 0.3;
/// Chance of a rejected promise for `Promise<T>`: the failure an awaiting caller handles.
const REJECTED_PROBABILITY: f64 = 0.25;
/// BigInts past the doubles' exact integers: what a `bigint` parameter exists for.
const LARGE_BIGINTS: [i64; 4] = [9_007_199_254_740_993, -9_007_199_254_740_993, i64::MAX, i64::MIN];
/// Under `--probe-outside-types`, chance of a value outside a parameter's declared type.
const OUTSIDE_PROBABILITY: f64 = 0.05;

impl Builder<'_> {
    /// A value for a parameter declared `number` or `string` (`of`), `None` inside another value.
    fn number_or_string(&mut self, param: Option<u32>, of: ParamType, rng: &mut (impl Rng + ?Sized)) -> Value {
        if of == ParamType::Number && rng.random_bool(NON_FINITE_PROBABILITY) {
            return Value::Number([f64::NAN, f64::INFINITY, f64::NEG_INFINITY][rng.random_range(0..3)]);
        }
        match param {
            Some(p) if of == ParamType::Number && rng.random_bool(self.small_number_chance(Some(p))) => {
                Value::Number(self.small_number(Some(p), rng))
            }
            // A member or item: small as its parameter's numbers are, once any are (no draw before).
            None if of == ParamType::Number
                && self.small_number_chance(None) > 0.0
                && rng.random_bool(self.small_number_chance(None)) =>
            {
                Value::Number(self.small_number(None, rng))
            }
            Some(p) => match self.earlier_primitive(Some(of), rng) {
                Some(earlier) => earlier,
                None => self.primitive_for(p, of, rng),
            },
            None => {
                let value = self.primitive(of, rng);
                self.positive(None, value, rng)
            }
        }
    }

    /// A value of declared type `ty` for parameter `param` (`None` inside another value), `depth`
    /// constructions deep.
    pub(super) fn declared(
        &mut self,
        param: Option<u32>,
        ty: &DeclaredType,
        depth: usize,
        rng: &mut (impl Rng + ?Sized),
    ) -> Value {
        let types = self.types;
        match ty {
            DeclaredType::Number => self.number_or_string(param, ParamType::Number, rng),
            DeclaredType::String => self.number_or_string(param, ParamType::String, rng),
            DeclaredType::Boolean => Value::Boolean(rng.random_bool(0.5)),
            DeclaredType::Literal(literal) => literal_value(literal),
            DeclaredType::Null => Value::Null,
            DeclaredType::Undefined => Value::Undefined,
            DeclaredType::Union(members) => {
                let built: Vec<&DeclaredType> = members.iter().filter(|m| buildable(m, self.program, false)).collect();
                match built.len() {
                    0 => Value::Undefined,
                    n => self.declared(param, built[rng.random_range(0..n)], depth, rng),
                }
            }
            DeclaredType::Array(element) => {
                let length = rng.random_range(0..=MAX_ARRAY_LENGTH);
                let record = param.and_then(|p| types.element_of(p)).filter(|_| **element == DeclaredType::Any);
                Value::Array(
                    (0..length)
                        .map(|_| match record {
                            Some(record) => self.argument(record, depth + 1, rng),
                            None => self.declared(None, element, depth + 1, rng),
                        })
                        .collect(),
                )
            }
            DeclaredType::Tuple(items) => {
                Value::Array(items.iter().map(|item| self.declared(None, item, depth + 1, rng)).collect())
            }
            DeclaredType::Object(members)
                if arrays_satisfy(members) && rng.random_bool(ARRAY_FOR_OBJECT_PROBABILITY) =>
            {
                self.declared(param, &DeclaredType::Array(Box::new(DeclaredType::Any)), depth, rng)
            }
            DeclaredType::Object(members) => Value::object(self.members(members, depth, rng)),
            DeclaredType::Constructs(made) => self.constructor(made, depth, rng),
            DeclaredType::Function { arity, compares: Some(orders), .. } => comparator(*orders, *arity, rng),
            DeclaredType::Function { arity, returns, .. } if **returns == DeclaredType::This => {
                Value::Fluent { arity: *arity }
            }
            DeclaredType::Function { arity, returns, .. } => {
                let record = param.and_then(|p| types.result_of(p)).filter(|_| **returns == DeclaredType::Any);
                let result = match record {
                    Some(record) => self.argument(record, depth + 1, rng),
                    None => self.declared(None, returns, depth + 1, rng),
                };
                Value::Function { arity: *arity, result: Box::new(result) }
            }
            DeclaredType::Map(key, value) => Value::Map(
                (0..rng.random_range(0..=MAX_ARRAY_LENGTH))
                    .map(|_| (self.declared(None, key, depth + 1, rng), self.declared(None, value, depth + 1, rng)))
                    .collect(),
            ),
            DeclaredType::Dictionary(item) => self.dictionary(param, item, depth, rng),
            DeclaredType::Set(item) => Value::Set(
                (0..rng.random_range(0..=MAX_ARRAY_LENGTH))
                    .map(|_| self.declared(None, item, depth + 1, rng))
                    .collect(),
            ),
            DeclaredType::Promise(_) if rng.random_bool(REJECTED_PROBABILITY) => Value::Rejected,
            DeclaredType::Promise(result) => Value::Promise(Box::new(self.declared(None, result, depth + 1, rng))),
            DeclaredType::AsyncIterable(item) => Value::AsyncIterable(
                (0..rng.random_range(0..=MAX_ARRAY_LENGTH))
                    .map(|_| self.declared(None, item, depth + 1, rng))
                    .collect(),
            ),
            DeclaredType::BigInt => Value::BigInt(bigint(rng)),
            DeclaredType::Class(name) => match self.program.type_named(name) {
                Some(class) => self.instance(class, depth, rng),
                None => Value::Null,
            },
            DeclaredType::Date => date(rng),
            DeclaredType::RegExp => self.regexp(rng),
            DeclaredType::Bytes => bytes(rng),
            DeclaredType::Template(texts, holes) => Value::String(self.template(texts, holes, rng)),
            DeclaredType::Web(class) => Value::Web(web(*class, rng)),
            // Inside another value, any primitive is a value of `any`.
            DeclaredType::Any => match rng.random_range(0..3u32) {
                0 => self.primitive(ParamType::Number, rng),
                1 => self.primitive(ParamType::String, rng),
                _ => Value::Boolean(rng.random_bool(0.5)),
            },
            // Never built: `buildable` keeps such types to proxies, and optional members of them out; `this`
            // is only ever a method's result, built with the method.
            DeclaredType::Opaque | DeclaredType::This => Value::Undefined,
        }
    }

    /// Values of the members of an object type: the required ones, and now and then optional ones.
    fn members(&mut self, members: &[Member], depth: usize, rng: &mut (impl Rng + ?Sized)) -> Vec<(String, Value)> {
        let optional = members.iter().filter(|m| m.optional).count().max(1) as f64;
        let chance = (OPTIONAL_MEMBERS_EXPECTED / optional).min(OPTIONAL_MEMBER_PROBABILITY);
        let mut values = Vec::new();
        for member in members {
            let wanted = !member.optional
                || (depth < MAX_OBJECT_DEPTH && buildable(&member.ty, self.program, false) && rng.random_bool(chance));
            if wanted {
                values.push((member.name.clone(), self.declared(None, &member.ty, depth + 1, rng)));
            }
        }
        values
    }

    /// Something constructing instances of `made` (see [`constructible`]): the class of the program it
    /// names, itself; else a class written of an object type's members, each of its instances given values
    /// of them (a method returning `this` returns the instance); for instances of any type, an empty class.
    fn constructor(&mut self, made: &DeclaredType, depth: usize, rng: &mut (impl Rng + ?Sized)) -> Value {
        match made {
            DeclaredType::Class(name) => self.program.type_named(name).map_or(Value::Null, Value::Class),
            DeclaredType::Object(members) => Value::Constructor(self.members(members, depth + 1, rng)),
            DeclaredType::Union(types) => {
                let built: Vec<&DeclaredType> = types.iter().filter(|t| constructible(t, self.program)).collect();
                match built.len() {
                    0 => Value::Null,
                    n => self.constructor(built[rng.random_range(0..n)], depth, rng),
                }
            }
            _ => Value::Constructor(Vec::new()),
        }
    }

    /// An object of up to [`MAX_DICTIONARY_LENGTH`] entries of values of `item` (see [`Builder::entries`]).
    fn dictionary(
        &mut self,
        param: Option<u32>,
        item: &DeclaredType,
        depth: usize,
        rng: &mut (impl Rng + ?Sized),
    ) -> Value {
        let members = self.entries(rng, |builder, rng| builder.declared(None, item, depth + 1, rng));
        // A parameter's own dictionary is watched for the names the code reads on it (see
        // `fit.rs`): which names it must hold often depends on another value of the test.
        Value::Object { members, record: param }
    }

    /// Up to [`MAX_DICTIONARY_LENGTH`] entries, each value made by `value`: keys the code may look up
    /// (strings it mentions) now and then, short plain ones otherwise; a key drawn twice keeps its last
    /// value in the order drawn.
    pub(super) fn entries<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        mut value: impl FnMut(&mut Self, &mut R) -> Value,
    ) -> Vec<(String, Value)> {
        let mut entries: Vec<(String, Value)> = Vec::new();
        for plain in KEYS.iter().take(rng.random_range(0..=MAX_DICTIONARY_LENGTH)) {
            let key = match self.primitive(ParamType::String, rng) {
                Value::String(s) if !s.is_empty() && rng.random_bool(0.5) => s,
                _ => plain.to_string(),
            };
            let value = value(self, rng);
            entries.retain(|(k, _)| *k != key);
            entries.push((key, value));
        }
        entries
    }

    /// Now and then `null` or `undefined` for a parameter of JavaScript code that a `.d.ts` declares, when
    /// the code itself compares it with them (`if (input == null) return ""`): the declaration speaks
    /// for TypeScript callers, the guard for the JavaScript ones, whose calls the suite makes. A
    /// TypeScript source's declaration is its own code's contract: its guards get such values only under
    /// `--probe-outside-types`.
    pub(super) fn absent_checked(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> Option<Value> {
        let class = self.types.get(param).key.class;
        let file = &self.program.files[self.program.classes[class].file];
        if is_typescript(&file.path) || !self.settings.strategy.guided_inputs() {
            return None;
        }
        self.absent(param, rng)
    }

    /// Under `--probe-outside-types` (guided strategies), now and then a value outside `param`'s declared
    /// type: `null`, `undefined`, or a primitive of another type.
    pub(super) fn outside_declared(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> Option<Value> {
        if !self.settings.probe_outside_types
            || !self.settings.strategy.guided_inputs()
            || !rng.random_bool(OUTSIDE_PROBABILITY)
        {
            return None;
        }
        Some(match (rng.random_range(0..3u32), self.types.get(param).current_type()) {
            (0, _) => Value::Null,
            (1, _) => Value::Undefined,
            (_, ParamType::Number) => Value::String(String::new()),
            (_, ParamType::String) => Value::Number(0.0),
            _ => Value::Number(1.0),
        })
    }

    /// How many of `params` a call passes, given `count` drawn for the code's own signs of optional
    /// parameters: now and then fewer, leaving out declared optional parameters at the end; never fewer
    /// than the declared required ones, nor more than the declared signature lists, unless outside values
    /// are probed.
    pub(super) fn declared_count(&self, params: &[u32], count: usize, rng: &mut (impl Rng + ?Sized)) -> usize {
        let record = |p: &u32| self.types.get(*p);
        let leavable = |p: &&u32| record(p).declared_optional() || record(p).beyond_declaration;
        let optional_from = params.len() - params.iter().rev().take_while(leavable).count();
        let count = if optional_from < params.len() && rng.random_bool(OMIT_OPTIONAL_PROBABILITY) {
            rng.random_range(optional_from..params.len()).min(count)
        } else {
            count
        };
        if self.settings.probe_outside_types {
            return count;
        }
        let required = params.iter().rposition(|p| record(p).declared.as_ref().is_some_and(|d| !d.optional));
        let passable = params.iter().position(|p| record(p).beyond_declaration).unwrap_or(params.len());
        count.max(required.map_or(0, |last| last + 1)).min(passable)
    }
}

/// A callback for a function type of `arity` that orders `orders`: mostly a consistent order of them, else
/// every pair equal: consistent too, where any other constant would leave a sort's order to the engine
/// (QuickJS's here, V8's where the suite runs).
fn comparator(orders: Orders, arity: usize, rng: &mut (impl Rng + ?Sized)) -> Value {
    if !rng.random_bool(COMPARATOR_PROBABILITY) {
        return Value::Function { arity, result: Box::new(Value::Number(0.0)) };
    }
    let descending = rng.random_bool(DESCENDING_PROBABILITY);
    Value::Callback(match orders {
        Orders::Numbers => Shape::Subtract { descending },
        Orders::Strings | Orders::Values => Shape::Compare { descending },
    })
}

/// A value for `bigint`: mostly a small integer (zero and `-1` among them), now and then one past the
/// doubles' exact integers.
fn bigint(rng: &mut (impl Rng + ?Sized)) -> i64 {
    match rng.random_range(0..8u32) {
        0 => LARGE_BIGINTS[rng.random_range(0..LARGE_BIGINTS.len())],
        1 => rng.random_range(-1_000_000_000_000..1_000_000_000_000),
        _ => rng.random_range(-1..=SMALL_NUMBER as i64),
    }
}

/// The value a literal type stands for.
pub(super) fn literal_value(literal: &Literal) -> Value {
    match literal {
        Literal::Number(n) => Value::Number(*n),
        Literal::String(s) => Value::String(s.clone()),
        Literal::Boolean(b) => Value::Boolean(*b),
        Literal::BigInt(n) => Value::BigInt(*n),
    }
}

impl Builder<'_> {
    /// A string of a template literal type: its text, each hole filled with what the hole's type shows as
    /// text. A string hole after `0x` is hex digits (`0x${string}` is how TypeScript code declares hex),
    /// an even count as bytes take, any short string elsewhere.
    fn template(&mut self, texts: &[String], holes: &[DeclaredType], rng: &mut (impl Rng + ?Sized)) -> String {
        let mut text = texts[0].clone();
        for (hole, after) in holes.iter().zip(&texts[1..]) {
            let mut ty = hole;
            while let DeclaredType::Union(members) = ty {
                ty = &members[rng.random_range(0..members.len())];
            }
            match ty {
                DeclaredType::String if text.to_ascii_lowercase().ends_with("0x") => {
                    const HEX: &[u8] = b"0123456789abcdef";
                    let length = 2 * rng.random_range(0..=4usize);
                    text.extend((0..length).map(|_| HEX[rng.random_range(0..HEX.len())] as char));
                }
                DeclaredType::String => match self.primitive(ParamType::String, rng) {
                    Value::String(s) => text.push_str(&s),
                    _ => text.push('a'),
                },
                DeclaredType::Number => text.push_str(&rng.random_range(0..=SMALL_NUMBER).to_string()),
                DeclaredType::BigInt => text.push_str(&bigint(rng).to_string()),
                DeclaredType::Boolean => text.push_str(if rng.random_bool(0.5) { "true" } else { "false" }),
                DeclaredType::Literal(Literal::String(s)) => text.push_str(s),
                DeclaredType::Literal(Literal::Boolean(b)) => text.push_str(if *b { "true" } else { "false" }),
                DeclaredType::Literal(Literal::BigInt(n)) => text.push_str(&n.to_string()),
                DeclaredType::Literal(Literal::Number(n)) => text.push_str(&literal::number(n + 0.0)),
                // `template` in analysis/declared keeps holes to the types above.
                _ => {}
            }
            text.push_str(after);
        }
        text
    }
}

/// URLs built for a `URL`: a bare origin, a path with a query, and one with every part (credentials,
/// port, repeated query keys, fragment), which code taking URLs reads apart.
const URLS: [&str; 4] = [
    "https://example.com/",
    "https://example.com/a?b=1",
    "http://localhost:8080/path/to/file.txt",
    "https://user:pass@example.org:8443/x/y?q=1&q=2#top",
];

/// Queries built for a `URLSearchParams`: none, one key, several, a key repeated and an escaped space.
const QUERIES: [&str; 4] = ["", "a=1", "a=1&b=2", "q=x%20y&q=z&empty="];

/// Header entries built for a `Headers`, a few of them at a time: names code looks up, in the case
/// servers write them (a `Headers` lowercases them).
const HEADERS: [(&str, &str); 4] =
    [("Content-Type", "application/json"), ("Accept", "*/*"), ("Content-Length", "42"), ("X-Request-Id", "7")];

/// Texts built for a `Blob`.
const BLOB_TEXTS: [&str; 3] = ["", "hello", "{\"a\":1}"];

/// An instance of web class `class`, built as a user builds one; a signal is aborted now and then.
fn web(class: WebClass, rng: &mut (impl Rng + ?Sized)) -> Web {
    match class {
        WebClass::Url => Web::Url(pick(&URLS, rng)),
        WebClass::SearchParams => Web::SearchParams(pick(&QUERIES, rng)),
        WebClass::Headers => {
            let count = rng.random_range(0..=2);
            let start = rng.random_range(0..HEADERS.len());
            let entries = (0..count).map(|i| HEADERS[(start + i) % HEADERS.len()]);
            Web::Headers(entries.map(|(n, v)| (n.to_string(), v.to_string())).collect())
        }
        WebClass::Blob => Web::Blob(pick(&BLOB_TEXTS, rng)),
        WebClass::AbortSignal => Web::Signal { aborted: rng.random_bool(0.5) },
        WebClass::AbortController => Web::Controller,
        WebClass::EventTarget => Web::EventTarget,
        WebClass::TextEncoder => Web::TextEncoder,
        WebClass::TextDecoder => Web::TextDecoder,
    }
}

/// One of `pool`.
fn pick(pool: &[&str], rng: &mut (impl Rng + ?Sized)) -> String {
    pool[rng.random_range(0..pool.len())].to_string()
}

/// Lengths of the bytes built for a `Uint8Array`: empty, one, and the sizes keys, seeds, hashes and
/// addresses have (4, 16, 20, 32, 33, 64), which code checks by length.
const BYTE_LENGTHS: &[usize] = &[0, 1, 4, 16, 20, 32, 33, 64];

/// Bytes for a `Uint8Array`: a length code checks for, each byte the same (`new Uint8Array(32).fill(7)`
/// reads at a glance), zero now and then.
fn bytes(rng: &mut (impl Rng + ?Sized)) -> Value {
    let length = BYTE_LENGTHS[rng.random_range(0..BYTE_LENGTHS.len())];
    let fill = if rng.random_bool(0.2) { 0 } else { rng.random_range(1..=255) };
    Value::Bytes { length, fill }
}
