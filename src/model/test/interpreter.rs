//! A test in the sandbox interpreter's encoding (see `__fc$exec` in `js/harness.js`): a JSON array of
//! operations, far cheaper for the engine than compiling JavaScript for every candidate.

use std::fmt::Write;

use super::{CALL_ITSELF, Statement, TestCase, Value};
use crate::js::literal;
use crate::model::program::ProgramInfo;

/// A key of an argument's object in the interpreter's encoding: its letter, what it means, and the text
/// by which `argument` in `js/harness.js` reads it that meaning (a test holds the harness to it).
struct Key {
    /// The member's name in the JSON.
    letter: &'static str,
    /// What the object holding it stands for, or what it adds to the value it is beside.
    #[cfg_attr(not(test), allow(dead_code, reason = "read by the tests that hold the harness to the table"))]
    meaning: &'static str,
    /// What the harness does with it, as written after its `hasOwn(a, '<letter>')`.
    #[cfg_attr(not(test), allow(dead_code, reason = "read by the tests that hold the harness to the table"))]
    harness: &'static str,
}

/// Every key, in the harness's order: the one table the encoder writes from and the harness is held to.
/// The keys beside another (`t`, `n`, `k`) share its object, and the harness takes the first key it knows,
/// so each letter is distinct from every other: an options object's record once took `w`, a web value's,
/// and the harness read every such options object as a URL.
#[cfg(test)]
const KEYS: [Key; 26] = [
    VARIABLE,
    UNDEFINED,
    PROXY,
    ARRAY,
    TEXT,
    FUNCTION,
    ARITY,
    CALLBACK,
    BIGINT,
    MAP,
    SET,
    PROMISE,
    ASYNC_ITERABLE,
    REJECTED,
    DATE,
    WEB,
    BYTES,
    REGEXP,
    ANSWERS,
    INSTANCE,
    OBJECT,
    RECORD,
    FLUENT,
    CLASS,
    CONSTRUCTOR,
    NUMBER,
];

const VARIABLE: Key = Key { letter: "v", meaning: "a variable of the test", harness: "return vars[a.v | 0]" };
const UNDEFINED: Key = Key { letter: "u", meaning: "undefined", harness: "return undefined" };
const PROXY: Key = Key { letter: "p", meaning: "a recording proxy of a record", harness: "return recording(a.p)" };
const ARRAY: Key = Key { letter: "a", meaning: "an array of values", harness: "return map(a.a, argument)" };
const TEXT: Key = Key { letter: "t", meaning: "beside a function: the text it prints", harness: "? a.t : undefined" };
const FUNCTION: Key = Key {
    letter: "f",
    meaning: "a function returning a value, built anew on each call as the suite's text builds it",
    harness: "if (!built) result = argument(a.f);",
};
const ARITY: Key =
    Key { letter: "n", meaning: "beside a function: its `length`", harness: "'length', { __proto__: null, value: a.n" };
const FLUENT: Key = Key {
    letter: "h",
    meaning: "a method returning its receiver",
    harness: "printed(withLength(function () { return this; }, a.h), text)",
};
const CLASS: Key = Key { letter: "l", meaning: "a class of the program", harness: "return classes[a.l | 0]" };
const CONSTRUCTOR: Key =
    Key { letter: "z", meaning: "a class written of members", harness: "printed(written(a.z, argument), text)" };
const CALLBACK: Key = Key { letter: "c", meaning: "a callback of a shape", harness: "printed(shaped(a.c), text)" };
const BIGINT: Key = Key { letter: "b", meaning: "a bigint, by its digits", harness: "P.BigInt(a.b)" };
const MAP: Key = Key { letter: "m", meaning: "a map, by its entries", harness: "P.mapSet(m, argument(a.m[i][0])" };
const SET: Key = Key { letter: "e", meaning: "a set, by its items", harness: "P.setAdd(set, argument(a.e[i]))" };
const PROMISE: Key = Key { letter: "q", meaning: "a promise resolved with a value", harness: "resolve(result)" };
const ASYNC_ITERABLE: Key =
    Key { letter: "g", meaning: "an async iterable, by its items", harness: "yieldAll(map(a.g, argument))" };
const REJECTED: Key = Key { letter: "j", meaning: "a rejected promise", harness: "reject(new P.Error('rejected'))" };
const DATE: Key = Key { letter: "d", meaning: "a date, by its time", harness: "new RealDate(a.d)" };
const WEB: Key =
    Key { letter: "w", meaning: "a web value, by its class and text", harness: "web(a.w[0] | 0, '' + a.w[1])" };
const BYTES: Key =
    Key { letter: "y", meaning: "bytes, by length and fill", harness: "new P.Uint8Array(a.y[0]), a.y[1]" };
const REGEXP: Key = Key { letter: "r", meaning: "a regular expression", harness: "new RealRegExp(a.r[0], a.r[1])" };
const ANSWERS: Key = Key { letter: "s", meaning: "a stub answering values in turn", harness: "map(a.s, argument)" };
const INSTANCE: Key = Key { letter: "i", meaning: "a rebuilt instance", harness: "rebuilt(a.i[0], a.i[1], argument)" };
const OBJECT: Key =
    Key { letter: "o", meaning: "a plain object, by its members", harness: "object[a.o[i][0]] = argument(a.o[i][1])" };
const RECORD: Key =
    Key { letter: "k", meaning: "beside an object: the record its reads report to", harness: "watching(a.k, object)" };
/// The harness's last resort, read without `hasOwn`: what no other key claims is a number.
const NUMBER: Key = Key { letter: "x", meaning: "a number JSON has no literal for", harness: "return +a.x;" };

/// Opens an argument's object with `key`: `{"<letter>":`.
fn open(json: &mut String, key: &Key) {
    json.push_str("{\"");
    json.push_str(key.letter);
    json.push_str("\":");
}

/// Adds `key` beside the first: `,"<letter>":`.
fn beside(json: &mut String, key: &Key) {
    json.push_str(",\"");
    json.push_str(key.letter);
    json.push_str("\":");
}

impl TestCase {
    /// The test as the sandbox's interpreter takes it (see `__fc$exec` in the harness): a JSON array of
    /// operations, far cheaper for the engine than compiling JavaScript for every candidate.
    pub fn to_json(&self, program: &ProgramInfo) -> String {
        self.encode(program, true)
    }

    /// The encoding; `awaits` adds the flag of calls the exported test awaits whatever they give (see
    /// [`TestCase::awaits_as_written`]), which the program's methods decide, so a manifest stores none.
    fn encode(&self, program: &ProgramInfo, awaits: bool) -> String {
        let mut json = String::from("[");
        for (index, statement) in self.statements.iter().enumerate() {
            if index > 0 {
                json.push(',');
            }
            match statement {
                Statement::Construct { class, args, variable } => {
                    let _ = write!(json, "[0,{class},");
                    self.push_json_args(&mut json, args, program);
                    let _ = write!(json, ",{variable}");
                    // Only the construction under test is flagged: other tests read as they always did.
                    if self.constructed_under_test(index).is_some() {
                        json.push_str(",1");
                    }
                }
                Statement::Call { receiver, method, args, under_test, result, deferred } => {
                    let _ = write!(json, "[1,{receiver},");
                    // A call of the receiver itself names no method (see `CALL_ITSELF`).
                    if method == CALL_ITSELF {
                        json.push_str("null");
                    } else {
                        push_json_string(&mut json, method);
                    }
                    json.push(',');
                    self.push_json_args(&mut json, args, program);
                    json.push_str(if *under_test { ",1" } else { ",0" });
                    // Only a bound result is written, and a deferred call's flag after it (-1: unbound),
                    // then the flag of a call awaited whatever it gives: tests without them read as they
                    // always did.
                    let awaited = awaits && self.awaits_as_written(index, program);
                    match (result, *deferred || awaited) {
                        (Some(result), _) => {
                            let _ = write!(json, ",{result}");
                        }
                        (None, true) => json.push_str(",-1"),
                        (None, false) => {}
                    }
                    if *deferred {
                        json.push_str(",1");
                    } else if awaited {
                        json.push_str(",0,1");
                    }
                }
                Statement::Rebuild { variable, class, fields } => {
                    let _ = write!(json, "[2,{class},");
                    self.push_json_members(&mut json, fields, program);
                    let _ = write!(json, ",{variable}");
                }
            }
            json.push(']');
        }
        json.push(']');
        json
    }

    /// The test in the interpreter's encoding as a suite manifest stores it: no options object reports
    /// to a record there (records are numbered by the session that ran the test, see [`Value::Object`]).
    pub fn to_stored_json(&self, program: &ProgramInfo) -> String {
        let mut stored = self.clone();
        stored.statements.iter_mut().flat_map(super::Statement::values_mut).for_each(Value::unreported);
        stored.encode(program, false)
    }

    /// One argument in the interpreter's encoding: what the sandbox's direct runs hand the harness for
    /// an argument they do not build themselves (see `sandbox/engine/direct.rs`).
    pub(crate) fn value_json(&self, value: &Value, program: &ProgramInfo) -> String {
        let mut json = String::new();
        self.push_json_value(&mut json, value, program);
        json
    }

    fn push_json_args(&self, json: &mut String, args: &[Value], program: &ProgramInfo) {
        json.push('[');
        for (index, arg) in args.iter().enumerate() {
            if index > 0 {
                json.push(',');
            }
            self.push_json_value(json, arg, program);
        }
        json.push(']');
    }

    /// One argument in the interpreter's encoding (see `__fc$exec` in the harness).
    fn push_json_value(&self, json: &mut String, value: &Value, program: &ProgramInfo) {
        match value {
            Value::Number(n) if n.is_finite() => json.push_str(&literal::number(*n)),
            Value::Number(n) => {
                open(json, &NUMBER);
                let _ = write!(json, "\"{}\"}}", literal::number(*n));
            }
            Value::String(text) => push_json_string(json, text),
            Value::Boolean(b) => json.push_str(if *b { "true" } else { "false" }),
            Value::Null => json.push_str("null"),
            Value::Undefined => {
                open(json, &UNDEFINED);
                json.push_str("0}");
            }
            Value::Variable(v) => {
                open(json, &VARIABLE);
                let _ = write!(json, "{v}}}");
            }
            Value::Proxy(id) => {
                open(json, &PROXY);
                let _ = write!(json, "{id}}}");
            }
            Value::Array(items) => {
                open(json, &ARRAY);
                self.push_json_args(json, items, program);
                json.push('}');
            }
            Value::Function { arity, result } => {
                open(json, &FUNCTION);
                self.push_json_value(json, result, program);
                if *arity > 0 {
                    beside(json, &ARITY);
                    let _ = write!(json, "{arity}");
                }
                self.push_json_text(json, value, program);
            }
            Value::Fluent { arity } => {
                open(json, &FLUENT);
                let _ = write!(json, "{arity}");
                self.push_json_text(json, value, program);
            }
            Value::Class(class) => {
                open(json, &CLASS);
                let _ = write!(json, "{class}}}");
            }
            Value::Constructor(members) => {
                open(json, &CONSTRUCTOR);
                self.push_json_members(json, members, program);
                self.push_json_text(json, value, program);
            }
            Value::Callback(shape) => {
                open(json, &CALLBACK);
                let _ = write!(json, "{}", shape.code());
                self.push_json_text(json, value, program);
            }
            Value::BigInt(n) => {
                open(json, &BIGINT);
                let _ = write!(json, "\"{n}\"}}");
            }
            Value::Map(_)
            | Value::Set(_)
            | Value::Promise(_)
            | Value::AsyncIterable(_)
            | Value::Rejected
            | Value::Bytes { .. }
            | Value::Date(_)
            | Value::Web(_)
            | Value::RegExp { .. } => self.push_json_builtin(json, value, program),
            Value::Object { members, record } => {
                open(json, &OBJECT);
                self.push_json_members(json, members, program);
                if let Some(record) = record {
                    beside(json, &RECORD);
                    let _ = write!(json, "{record}");
                }
                json.push('}');
            }
            Value::Instance { class, fields } => {
                open(json, &INSTANCE);
                let _ = write!(json, "[{class},");
                self.push_json_members(json, fields, program);
                json.push_str("]}");
            }
            Value::Answers(answers) => {
                open(json, &ANSWERS);
                self.push_json_args(json, answers, program);
                self.push_json_text(json, value, program);
            }
        }
    }

    /// A value of a built-in class (a map, a set, a promise, bytes, a date, a web value, a regular
    /// expression) in the interpreter's encoding.
    fn push_json_builtin(&self, json: &mut String, value: &Value, program: &ProgramInfo) {
        match value {
            Value::Map(entries) => {
                open(json, &MAP);
                json.push('[');
                for (index, (key, value)) in entries.iter().enumerate() {
                    if index > 0 {
                        json.push(',');
                    }
                    json.push('[');
                    self.push_json_value(json, key, program);
                    json.push(',');
                    self.push_json_value(json, value, program);
                    json.push(']');
                }
                json.push_str("]}");
            }
            Value::Set(items) => {
                open(json, &SET);
                self.push_json_args(json, items, program);
                json.push('}');
            }
            Value::Promise(result) => {
                open(json, &PROMISE);
                self.push_json_value(json, result, program);
                json.push('}');
            }
            Value::AsyncIterable(items) => {
                open(json, &ASYNC_ITERABLE);
                self.push_json_args(json, items, program);
                json.push('}');
            }
            Value::Rejected => {
                open(json, &REJECTED);
                json.push_str("1}");
            }
            Value::Bytes { length, fill } => {
                open(json, &BYTES);
                let _ = write!(json, "[{length},{fill}]}}");
            }
            Value::Date(ms) => {
                open(json, &DATE);
                let _ = write!(json, "{}}}", literal::number(*ms));
            }
            Value::Web(web) => {
                open(json, &WEB);
                let _ = write!(json, "[{},", web.code());
                push_json_string(json, &web.text());
                json.push_str("]}");
            }
            Value::RegExp { source, flags } => {
                open(json, &REGEXP);
                json.push('[');
                push_json_string(json, source);
                json.push(',');
                push_json_string(json, flags);
                json.push_str("]}");
            }
            _ => unreachable!("only values of built-in classes are written here"),
        }
    }

    /// Object members in the interpreter's encoding: `[["key", value], ...]`.
    fn push_json_members(&self, json: &mut String, members: &[(String, Value)], program: &ProgramInfo) {
        json.push('[');
        for (index, (key, value)) in members.iter().enumerate() {
            if index > 0 {
                json.push(',');
            }
            json.push('[');
            push_json_string(json, key);
            json.push(',');
            self.push_json_value(json, value, program);
            json.push(']');
        }
        json.push(']');
    }

    /// Ends a function argument with `"t"`, the text the exported suite writes for it: the harness gives
    /// the sandbox's function that text as its `toString`, so code that prints or stores a callback
    /// (`String(cb)`, an error message naming it) observes in the sandbox what it observes in the suite.
    fn push_json_text(&self, json: &mut String, function: &Value, program: &ProgramInfo) {
        beside(json, &TEXT);
        push_json_string(json, &self.value(function, program));
        json.push('}');
    }
}

/// Appends `text` as a JSON string, escaped exactly as `serde_json` escapes it (the harness parses it
/// either way; the same bytes keep the encoding what it was), without the copies that going through a
/// `serde_json::Value` per string made for every candidate.
fn push_json_string(json: &mut String, text: &str) {
    json.push('"');
    let mut start = 0;
    for (at, c) in text.char_indices() {
        let escape = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            c if c < ' ' => "",
            _ => continue,
        };
        json.push_str(&text[start..at]);
        if escape.is_empty() {
            let _ = write!(json, "\\u{:04x}", u32::from(c));
        } else {
            json.push_str(escape);
        }
        start = at + c.len_utf8();
    }
    json.push_str(&text[start..]);
    json.push('"');
}

#[cfg(test)]
mod tests {
    use super::{KEYS, NUMBER, push_json_string};
    use crate::js::HARNESS_JS;

    /// The harness's `argument`: where it reads an argument's keys.
    fn argument_reader() -> &'static str {
        let start = HARNESS_JS.find("const argument = (a) => {").expect("the harness's `argument`");
        let end = start + HARNESS_JS[start..].find(NUMBER.harness).expect("its last resort") + NUMBER.harness.len();
        &HARNESS_JS[start..end]
    }

    #[test]
    fn every_key_is_distinct() {
        for (i, key) in KEYS.iter().enumerate() {
            assert_eq!(key.letter.chars().count(), 1, "{}", key.meaning);
            if let Some(other) = KEYS[..i].iter().find(|other| other.letter == key.letter) {
                panic!("`{}` is both {} and {}", key.letter, other.meaning, key.meaning);
            }
        }
    }

    #[test]
    fn the_harness_reads_every_key_as_the_table_means_it_and_no_other() {
        let reader = argument_reader();
        let checks: Vec<(usize, &str)> = reader.match_indices("hasOwn(a, '").collect();
        for (at, check) in &checks {
            let letter = &reader[at + check.len()..].split('\'').next().unwrap_or_default();
            assert!(
                KEYS.iter().any(|key| key.letter == *letter),
                "the harness reads `{letter}`, which the table lacks"
            );
        }
        for key in KEYS.iter().filter(|key| key.letter != NUMBER.letter) {
            let check = format!("hasOwn(a, '{}')", key.letter);
            let at = reader
                .find(&check)
                .unwrap_or_else(|| panic!("the harness never reads `{}` ({})", key.letter, key.meaning));
            // What the harness does with the key: up to its next check, or to the end.
            let rest = &reader[at + check.len()..];
            let block = rest.find("hasOwn(a, '").map_or(rest, |next| &rest[..next]);
            assert!(
                block.contains(key.harness),
                "the harness reads `{}` otherwise than as {} (`{}`):\n{block}",
                key.letter,
                key.meaning,
                key.harness
            );
        }
        assert!(reader.ends_with(NUMBER.harness));
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut every: String = (0u32..0x100).filter_map(char::from_u32).collect();
        every.push_str("\u{2028}\u{2029}\u{fffd}é😀\"\\end");
        for text in [every.as_str(), "", "plain", "\u{1}", "a\"b", "tab\there\n"] {
            let mut json = String::new();
            push_json_string(&mut json, text);
            assert_eq!(json, serde_json::Value::String(text.into()).to_string());
        }
    }
}
