//! Assertions from observed results.
//!
//! The harness describes each result of the method under test right after the call (`harness.js`,
//! `describe`): primitives by value, variables of the test by identity, arrays and plain objects by
//! structure, class instances by their observable own fields. This module turns a description into
//! assertion lines: strict equality for primitives (`NaN` and `-0` included: `assert.strictEqual` uses
//! `Object.is`), deep equality where a literal can be written, and field by field otherwise.
//!
//! An instance is asserted through what its class promises: its public fields. Its private ones (named
//! `_x` by convention, or declared `private`/`protected` in TypeScript) are an implementation a
//! refactoring may rename without changing behaviour, and a suite that fails then cries wolf. A plain
//! object holding private keys (bookkeeping such as `{ _version: 3, isValid: true }`) is asserted by its
//! other keys, one by one: a whole literal would name the private ones.

use std::collections::BTreeMap;

use crate::export::{Expected, Line};
use crate::js::literal;
use crate::model::observed::Observed;
use crate::model::program::{ClassId, ProgramInfo, private_member};
use crate::model::test::TestCase;

/// Most assertion lines written for one result, so a large structure does not drown the test.
const MAX_LINES: usize = 12;

/// What an assertion compares with: the test, its program, and whether the numbers described may differ
/// in their last bits under another engine (the test used `Math.sin`, `**`...: see
/// [`DescribedResult::inexact`](crate::model::observed::DescribedResult::inexact)).
#[derive(Clone, Copy)]
pub(crate) struct Against<'a> {
    /// The test whose variables descriptions name.
    pub test: &'a TestCase,
    /// The program whose classes descriptions name.
    pub program: &'a ProgramInfo,
    /// Whether numbers that are not safe integers are compared within a tolerance ([`Line::Close`]).
    pub inexact: bool,
}

/// Writes assertions that `actual` (a JavaScript expression) has the described value.
pub(crate) fn assert_described(description: &Observed, actual: &str, against: Against, lines: &mut Vec<Line>) {
    let start = lines.len();
    describe_into(description, actual, against, lines, true);
    lines.truncate(start + MAX_LINES);
}

/// Whether the assertions on a description compare it in one line, so that the expression asserted is
/// evaluated once: a value with a literal, unless it holds numbers compared one by one within a tolerance.
pub(crate) fn asserted_whole(description: &Observed, inexact: bool) -> bool {
    literal_of(description).is_some()
        && (!inexact || matches!(description, Observed::Number { .. }) || !holds_rounded_number(description))
}

/// Whether a description holds a number another engine may round differently: one that is not a safe
/// integer (a fraction, or an integer past 2^53), in a value whose literal would be asserted whole.
fn holds_rounded_number(description: &Observed) -> bool {
    match description {
        Observed::Number { text } => text.parse::<f64>().is_ok_and(|x| {
            const SAFE: f64 = 9_007_199_254_740_991.0;
            x.is_finite() && (x.fract() != 0.0 || x.abs() > SAFE)
        }),
        Observed::Array { items, .. } => items.iter().any(holds_rounded_number),
        Observed::Object { fields, .. } => fields.values().any(holds_rounded_number),
        _ => false,
    }
}

/// Adds to `classes` the classes a description names: instances are asserted with `instanceof`, and a
/// class returned as a value is compared with its binding, so the suite must bring them into scope even
/// when no statement of the test builds one.
pub(crate) fn classes_named(description: &Observed, classes: &mut Vec<ClassId>) {
    let mut add = |class: ClassId| {
        if !classes.contains(&class) {
            classes.push(class);
        }
    };
    match description {
        Observed::Class { class } => add(*class),
        Observed::Instance { class, fields } => {
            add(*class);
            fields.values().for_each(|field| classes_named(field, classes));
        }
        Observed::Object { fields, .. } => fields.values().for_each(|field| classes_named(field, classes)),
        Observed::Array { items, .. } | Observed::Iterator { items, .. } => {
            items.iter().for_each(|item| classes_named(item, classes))
        }
        _ => {}
    }
}

/// How each frame of a stack trace starts, in QuickJS's `stack` and in V8's.
const TRACE_FRAME: &str = "    at ";

/// How the text of a function a test passes starts: the suite writes every callback so.
const TEST_FUNCTION: &str = "function (";

/// What comes before the part of a string no runner prints as the sandbox did, if it holds one:
/// - a stack trace (an error's `stack` the code copied into a result, `{ stack: this.stack }`, or wrote into
///   a message): the trace names the sandbox's frames, which no runner's stack matches, and QuickJS's
///   `stack` starts at the first frame where V8's starts with the error's `name: message` line;
/// - the text of a callback the test passed (`Unknown event type: function () { return 1; }`, or a
///   function added to a number): the suite writes that text, and the runner's transform of a suite
///   prints it again its own way (`function(){return 1}` under tsx's and vitest's esbuild).
pub(crate) fn stable_prefix(text: &str) -> Option<&str> {
    [TRACE_FRAME, TEST_FUNCTION].iter().filter_map(|mark| text.find(mark)).min().map(|cut| &text[..cut])
}

/// The JavaScript literal of a described value, when it has one (primitives, and arrays and plain
/// objects of such values). An object with a private key has none a suite should write: a refactoring
/// renames the key; nor has a string holding what runners print their own way (see [`stable_prefix`]).
pub(crate) fn literal_of(description: &Observed) -> Option<String> {
    match description {
        Observed::Undefined => Some("undefined".into()),
        Observed::Null => Some("null".into()),
        Observed::Boolean { value } => Some(value.to_string()),
        Observed::Number { text } => Some(text.clone()),
        Observed::String { value } if stable_prefix(value).is_some() => None,
        Observed::String { value } => Some(literal::string(value)),
        Observed::BigInt { digits } => Some(format!("{digits}n")),
        Observed::Array { items, extra: false } => array_literal(items),
        Observed::Object { fields, cut: false, bare } => object_literal(fields, *bare),
        _ => None,
    }
}

/// The assertions on an iterator's items, taken once as the sandbox took them: `Array.from` consumes an
/// iterator, `for await` an async one (Node 20 has no `Array.fromAsync`). A throw while consuming is what is
/// asserted when there was one; the items when it ended.
fn iterator_lines(
    items: &[Observed],
    done: bool,
    asynchronous: bool,
    threw: Option<&Observed>,
    actual: &str,
    inexact: bool,
    lines: &mut Vec<Line>,
) {
    let consumed = match asynchronous {
        true => format!(
            "await (async () => {{ const items = []; for await (const item of {actual}) items.push(item); return items; }})()"
        ),
        false => format!("Array.from({actual})"),
    };
    if let Some(thrown) = threw.and_then(expected_thrown) {
        lines.push(Line::Throws { code: format!("{consumed};"), thrown });
    } else if done {
        let taken = if asynchronous { format!("({consumed})") } else { consumed };
        match array_literal(items).filter(|_| !(inexact && items.iter().any(holds_rounded_number))) {
            Some(expected) => lines.push(Line::DeepStrictEqual { actual: taken, expected }),
            None => {
                lines.push(Line::StrictEqual { actual: format!("{taken}.length"), expected: items.len().to_string() })
            }
        }
    }
}

/// The assertions on a map, a set or a typed array (see [`Observed::Collection`]): a typed array's
/// constructor (its elements alone are an array's too), then its items as `Array.from` takes them,
/// compared with an array literal. That checks their order, which deep equality of two maps or sets
/// does not, and every runner's deep equality compares two arrays alike. Without a literal (instances
/// among the items, numbers compared within a tolerance), its size.
fn collection_lines(class: &str, items: &[Observed], actual: &str, inexact: bool, lines: &mut Vec<Line>) {
    let typed = class != "Map" && class != "Set";
    if typed {
        let message = format!("an instance of {class}");
        lines.push(Line::Ok { expression: format!("{actual} instanceof {class}"), message });
    }
    match array_literal(items).filter(|_| !(inexact && items.iter().any(holds_rounded_number))) {
        Some(expected) => lines.push(Line::DeepStrictEqual { actual: format!("Array.from({actual})"), expected }),
        None => lines.push(Line::StrictEqual {
            actual: format!("{actual}.{}", if typed { "length" } else { "size" }),
            expected: items.len().to_string(),
        }),
    }
}

/// What consuming an iterator must throw, as it threw in the sandbox: an error by name (and by its message
/// when the code under test wrote it and it holds no stack trace), another value by its literal.
fn expected_thrown(thrown: &Observed) -> Option<Expected> {
    match thrown {
        Observed::Error { name, message, .. } => Some(Expected::Error {
            name: name.clone(),
            message: message.clone().filter(|m| stable_prefix(m).is_none()),
        }),
        other => literal_of(other).map(|literal| Expected::Value { literal }),
    }
}

/// `[1, , 3]`, when every item but the holes has a literal.
fn array_literal(items: &[Observed]) -> Option<String> {
    let hole = |item: &Observed| matches!(item, Observed::Hole);
    let texts: Option<Vec<String>> =
        items.iter().map(|item| if hole(item) { Some(String::new()) } else { literal_of(item) }).collect();
    // A trailing hole needs its own comma: `[1, ,]` has length 2.
    let trailing = if items.last().is_some_and(hole) { "," } else { "" };
    Some(format!("[{}{trailing}]", texts?.join(", ")))
}

/// `{ a: 1 }`, when every field has a literal and no key is private; `bare` for an object without a
/// prototype.
fn object_literal(fields: &BTreeMap<String, Observed>, bare: bool) -> Option<String> {
    if fields.keys().any(|k| private_member(k)) {
        return None;
    }
    let parts: Option<Vec<String>> =
        fields.iter().map(|(k, v)| literal_of(v).map(|v| format!("{}: {v}", property_key(k)))).collect();
    let parts = parts?;
    let object = if parts.is_empty() { "{}".into() } else { format!("{{ {} }}", parts.join(", ")) };
    Some(match bare {
        // A dictionary without a prototype (`Object.create(null)`) is not deep-equal to `{}`.
        true if parts.is_empty() => "Object.create(null)".into(),
        true => format!("Object.assign(Object.create(null), {object})"),
        false => object,
    })
}

/// Writes the assertions on one described value: the value as a whole when it has a literal, else what
/// can be said of it (identity, type, length, fields or items one by one). `top` says it is the result
/// itself rather than a part of one: only there is an empty array asserted.
fn describe_into(description: &Observed, actual: &str, against: Against, lines: &mut Vec<Line>, top: bool) {
    let Against { test, program, inexact } = against;
    let strict = |expected: String| Line::StrictEqual { actual: actual.to_string(), expected };
    // A value holding numbers another engine may round differently is asserted part by part, those
    // numbers within a tolerance.
    if let Some(expected) = literal_of(description).filter(|_| !(inexact && holds_rounded_number(description))) {
        match description {
            Observed::Array { .. } if expected == "[]" && !top => {}
            Observed::Array { .. } | Observed::Object { .. } => {
                lines.push(Line::DeepStrictEqual { actual: actual.to_string(), expected })
            }
            _ => lines.push(strict(expected)),
        }
        return;
    }
    match description {
        Observed::Variable { index } => {
            if let Some(variable) = test.variables.get(*index) {
                lines.push(strict(variable.name.clone()));
            }
        }
        Observed::Class { class } => {
            // A class made by a factory has no binding of its own to compare with.
            if let Some(class) = program.classes.get(*class).filter(|c| c.factory.is_none()) {
                lines.push(strict(class.alias.clone()));
            }
        }
        Observed::Number { text } => lines.push(Line::Close { actual: actual.to_string(), expected: text.clone() }),
        Observed::Function => {
            lines.push(Line::StrictEqual { actual: format!("typeof {actual}"), expected: "\"function\"".into() })
        }
        Observed::Array { items, .. } => {
            lines.push(Line::StrictEqual { actual: format!("{actual}.length"), expected: items.len().to_string() });
            for (i, item) in items.iter().enumerate() {
                describe_into(item, &format!("{actual}[{i}]"), against, lines, false);
            }
        }
        Observed::Iterator { done, items, asynchronous, threw } => {
            iterator_lines(items, *done, *asynchronous, threw.as_deref(), actual, inexact, lines)
        }
        Observed::Collection { class, items } if !items.is_empty() || top => {
            collection_lines(class, items, actual, inexact, lines)
        }
        Observed::LongArray { length } => {
            lines.push(Line::StrictEqual { actual: format!("{actual}.length"), expected: length.to_string() })
        }
        Observed::Object { fields, .. } | Observed::Instance { fields, .. } => {
            if let Observed::Instance { class, .. } = description
                && let Some(class) = program.classes.get(*class).filter(|c| c.factory.is_none())
            {
                lines.push(Line::Ok {
                    expression: format!("{actual} instanceof {}", class.alias),
                    message: format!("an instance of {}", class.name),
                });
            }
            let class = match description {
                Observed::Instance { class, .. } => program.classes.get(*class),
                _ => None,
            };
            let private = |name: &str| class.map_or_else(|| private_member(name), |c| c.is_private(name));
            for (name, field) in fields.iter().filter(|(name, _)| !private(name)) {
                describe_into(field, &member(actual, name), against, lines, false);
            }
        }
        Observed::Date { time } => {
            if let Some(time) = time.as_ref().and_then(serde_json::Number::as_f64) {
                lines
                    .push(Line::StrictEqual { actual: format!("{actual}.getTime()"), expected: literal::number(time) });
            }
        }
        Observed::RegExp { source } => {
            lines.push(Line::StrictEqual { actual: format!("String({actual})"), expected: literal::string(source) })
        }
        Observed::Web { class, text } => lines.extend(web(class, text, actual)),
        Observed::String { value } => {
            // A string holding what runners print their own way: a string, starting as it did.
            lines.push(Line::StrictEqual { actual: format!("typeof {actual}"), expected: "\"string\"".into() });
            if let Some(before) = stable_prefix(value).filter(|before| !before.is_empty()) {
                lines.push(Line::Ok {
                    expression: format!("{actual}.startsWith({})", literal::string(before)),
                    message: "the text up to what engines and runners print their own way".into(),
                });
            }
        }
        Observed::Error { name, message, .. } => {
            // Described as `String(e.name)` and `String(e.message)`: code may set either to a number. The
            // message of an error the engine made is another engine's in the suite.
            let message = message.as_ref().map(|m| ("message", m));
            for (key, text) in std::iter::once(("name", name)).chain(message) {
                let actual = format!("String({})", member(actual, key));
                lines.push(Line::StrictEqual { actual, expected: literal::string(text) });
            }
        }
        // Cycles, depth cut-offs, symbols and built-in objects other than the above are not asserted:
        // their structure is either already asserted elsewhere or not stable to write down.
        _ => {}
    }
}

/// The assertion on a web instance (see [`Observed::Web`]): a `URL` by its `href`, a `URLSearchParams` by
/// its `toString()`, a `Headers` by its entries as an object (`Object.fromEntries`), or by its names and
/// values apart when a name repeats (`set-cookie`). The pairs `entries()` gives are arrays of Node's realm,
/// which jest's deep equality tells from the suite's literals: an object or arrays the suite's own
/// built-ins make are compared instead.
fn web(class: &str, text: &str, actual: &str) -> Vec<Line> {
    let strict = |actual: String| vec![Line::StrictEqual { actual, expected: literal::string(text) }];
    match class {
        "URL" => strict(format!("{actual}.href")),
        "URLSearchParams" => strict(format!("{actual}.toString()")),
        "Headers" => {
            let Ok(pairs) = serde_json::from_str::<Vec<(String, String)>>(text) else { return Vec::new() };
            let unique = pairs.iter().enumerate().all(|(i, (n, _))| pairs[..i].iter().all(|(m, _)| m != n));
            if unique {
                let members: Vec<String> =
                    pairs.iter().map(|(n, v)| format!("{}: {}", property_key(n), literal::string(v))).collect();
                let expected =
                    if members.is_empty() { "{}".to_string() } else { format!("{{ {} }}", members.join(", ")) };
                return vec![Line::DeepStrictEqual { actual: format!("Object.fromEntries({actual})"), expected }];
            }
            let list = |texts: Vec<&String>| {
                format!("[{}]", texts.iter().map(|t| literal::string(t)).collect::<Vec<_>>().join(", "))
            };
            vec![
                Line::DeepStrictEqual {
                    actual: format!("[...{actual}.keys()]"),
                    expected: list(pairs.iter().map(|(n, _)| n).collect()),
                },
                Line::DeepStrictEqual {
                    actual: format!("[...{actual}.values()]"),
                    expected: list(pairs.iter().map(|(_, v)| v).collect()),
                },
            ]
        }
        _ => Vec::new(),
    }
}

fn member(object: &str, name: &str) -> String {
    if literal::is_identifier_name(name) {
        format!("{object}.{name}")
    } else {
        format!("{object}[{}]", literal::string(name))
    }
}

fn property_key(name: &str) -> String {
    if literal::is_identifier_name(name) { name.to_string() } else { literal::string(name) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value as Json, json};

    /// A description from the harness's JSON.
    fn observed(json: Json) -> Observed {
        serde_json::from_value(json).expect("a description")
    }

    #[test]
    fn literals_of_primitives_and_plain_structures() {
        assert_eq!(literal_of(&observed(json!({"t": "n", "v": "-0"}))).unwrap(), "-0");
        assert_eq!(literal_of(&observed(json!({"t": "n", "v": "NaN"}))).unwrap(), "NaN");
        assert_eq!(literal_of(&observed(json!({"t": "s", "v": "a\"b"}))).unwrap(), "\"a\\\"b\"");
        let array =
            json!({"t": "arr", "items": [{"t": "n", "v": "1"}, {"t": "obj", "fields": {"x-y": {"t": "null"}}}]});
        assert_eq!(literal_of(&observed(array)).unwrap(), "[1, { \"x-y\": null }]");
        let sparse = json!({"t": "arr", "items": [{"t": "hole"}, {"t": "n", "v": "2"}, {"t": "hole"}]});
        assert_eq!(literal_of(&observed(sparse)).unwrap(), "[, 2, ,]");
        assert_eq!(literal_of(&observed(json!({"t": "inst", "c": 0, "fields": {}}))), None);
        assert_eq!(
            literal_of(&observed(json!({"t": "obj", "fields": {}, "bare": true}))).unwrap(),
            "Object.create(null)"
        );
        let dictionary = json!({"t": "obj", "fields": {"a": {"t": "n", "v": "1"}}, "bare": true});
        assert_eq!(literal_of(&observed(dictionary)).unwrap(), "Object.assign(Object.create(null), { a: 1 })");
    }

    #[test]
    fn web_instances_are_asserted_by_what_a_reader_checks() {
        let strict =
            |actual: &str, expected: &str| Line::StrictEqual { actual: actual.into(), expected: expected.into() };
        let deep =
            |actual: &str, expected: &str| Line::DeepStrictEqual { actual: actual.into(), expected: expected.into() };
        assert_eq!(web("URL", "https://a.io/", "r"), vec![strict("r.href", "\"https://a.io/\"")]);
        assert_eq!(web("URLSearchParams", "a=1", "r"), vec![strict("r.toString()", "\"a=1\"")]);
        let headers = r#"[["accept","*/*"],["x-id","7"]]"#;
        assert_eq!(
            web("Headers", headers, "r"),
            vec![deep("Object.fromEntries(r)", "{ accept: \"*/*\", \"x-id\": \"7\" }")]
        );
        let cookies = r#"[["set-cookie","a=1"],["set-cookie","b=2"]]"#;
        assert_eq!(
            web("Headers", cookies, "r"),
            vec![
                deep("[...r.keys()]", "[\"set-cookie\", \"set-cookie\"]"),
                deep("[...r.values()]", "[\"a=1\", \"b=2\"]")
            ]
        );
        assert_eq!(web("Headers", "[]", "r"), vec![deep("Object.fromEntries(r)", "{}")]);
    }

    #[test]
    fn iterators_are_asserted_by_their_items_once_they_ended() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let lines_of = |description: Json| {
            let mut lines = Vec::new();
            let against = Against { test: &test, program: &program, inexact: false };
            assert_described(&observed(description), "result", against, &mut lines);
            lines
        };
        let taken =
            |expected: &str| Line::DeepStrictEqual { actual: "Array.from(result)".into(), expected: expected.into() };
        assert_eq!(lines_of(json!({"t": "iter", "done": true, "items": [{"t": "n", "v": "1"}]})), vec![taken("[1]")]);
        let instances = json!({"t": "iter", "done": true, "items": [{"t": "inst", "c": 0, "fields": {}}]});
        let length = Line::StrictEqual { actual: "Array.from(result).length".into(), expected: "1".into() };
        assert_eq!(lines_of(instances), vec![length]);
        assert_eq!(lines_of(json!({"t": "iter", "done": false, "items": [{"t": "n", "v": "1"}]})), vec![]);
    }

    #[test]
    fn maps_sets_and_typed_arrays_are_asserted_by_their_items_in_order() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let lines_of = |description: Json| {
            let mut lines = Vec::new();
            let against = Against { test: &test, program: &program, inexact: false };
            assert_described(&observed(description), "r", against, &mut lines);
            lines
        };
        let n = |v: &str| json!({"t": "n", "v": v});
        let deep =
            |actual: &str, expected: &str| Line::DeepStrictEqual { actual: actual.into(), expected: expected.into() };
        let pair = json!({"t": "arr", "items": [{"t": "s", "v": "b"}, n("1")]});
        assert_eq!(
            lines_of(json!({"t": "coll", "c": "Map", "items": [pair]})),
            vec![deep("Array.from(r)", "[[\"b\", 1]]")]
        );
        assert_eq!(lines_of(json!({"t": "coll", "c": "Set", "items": []})), vec![deep("Array.from(r)", "[]")]);
        let typed =
            Line::Ok { expression: "r instanceof Int8Array".into(), message: "an instance of Int8Array".into() };
        assert_eq!(
            lines_of(json!({"t": "coll", "c": "Int8Array", "items": [n("2"), n("1")]})),
            vec![typed, deep("Array.from(r)", "[2, 1]")]
        );
        // Instances among the items: the size alone.
        let instances = json!({"t": "coll", "c": "Set", "items": [{"t": "inst", "c": 0, "fields": {}}]});
        assert_eq!(lines_of(instances), vec![Line::StrictEqual { actual: "r.size".into(), expected: "1".into() }]);
    }

    #[test]
    fn instances_are_asserted_field_by_field() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let description = json!({"t": "obj", "fields": {"size": {"t": "n", "v": "2"}, "items": {"t": "arr", "items": [{"t": "cycle"}]}}});
        let mut lines = Vec::new();
        assert_described(
            &observed(description),
            "result",
            Against { test: &test, program: &program, inexact: false },
            &mut lines,
        );
        assert_eq!(
            lines,
            vec![
                Line::StrictEqual { actual: "result.items.length".into(), expected: "1".into() },
                Line::StrictEqual { actual: "result.size".into(), expected: "2".into() },
            ]
        );
    }

    #[test]
    fn instances_are_asserted_by_their_public_fields_only() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let fields =
            json!({"_root": {"t": "n", "v": "1"}, "__proto__x": {"t": "n", "v": "2"}, "size": {"t": "n", "v": "3"}});
        let lines_of = |kind: &str| {
            let mut lines = Vec::new();
            let against = Against { test: &test, program: &program, inexact: false };
            assert_described(&observed(json!({"t": kind, "c": 0, "fields": fields})), "r", against, &mut lines);
            lines
        };
        let strict =
            |actual: &str, expected: &str| Line::StrictEqual { actual: actual.into(), expected: expected.into() };
        // The program has no class 0 to assert `instanceof` with.
        assert_eq!(lines_of("inst"), vec![strict("r.size", "3")]);
        // A plain object holding private keys (a class's bookkeeping it hands out) is asserted by its
        // other keys: its literal would name the private ones.
        assert_eq!(lines_of("obj"), vec![strict("r.size", "3")]);
        let public = json!({"t": "obj", "fields": {"size": {"t": "n", "v": "3"}, "a_b": {"t": "n", "v": "1"}}});
        assert_eq!(literal_of(&observed(public)).as_deref(), Some("{ a_b: 1, size: 3 }"));
        assert!(private_member("_size") && private_member("@_size") && private_member("#items"));
        assert!(!private_member("size") && !private_member("__proto__") && !private_member("a_b"));
    }

    #[test]
    fn members_a_class_declares_private_are_not_asserted() {
        let mut program = ProgramInfo::default();
        let class = crate::model::program::ClassInfo {
            fields: vec!["total".into(), "label".into()],
            declared_private: vec!["total".into()],
            ..crate::model::program::ClassInfo::script("Tally")
        };
        program.classes.push(class);
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let fields = json!({"total": {"t": "n", "v": "1"}, "label": {"t": "s", "v": "a"}});
        let mut lines = Vec::new();
        let against = Against { test: &test, program: &program, inexact: false };
        assert_described(&observed(json!({"t": "inst", "c": 0, "fields": fields})), "r", against, &mut lines);
        let label = Line::StrictEqual { actual: "r.label".into(), expected: "\"a\"".into() };
        assert_eq!(lines[1..], [label]);
        assert!(program.classes[0].is_private("total") && program.classes[0].is_private("@total"));
        assert!(program.classes[0].is_private("_x") && !program.classes[0].is_private("label"));
    }

    #[test]
    fn numbers_engines_round_differently_are_compared_within_a_tolerance() {
        let program = ProgramInfo::default();
        let test = TestCase { class: 0, method: "m".into(), variables: Vec::new(), statements: Vec::new() };
        let lines_of = |description: Json, inexact: bool| {
            let mut lines = Vec::new();
            assert_described(
                &observed(description),
                "r",
                Against { test: &test, program: &program, inexact },
                &mut lines,
            );
            lines
        };
        let number = |v: &str| json!({"t": "n", "v": v});
        let close = |actual: &str, expected: &str| Line::Close { actual: actual.into(), expected: expected.into() };
        let strict =
            |actual: &str, expected: &str| Line::StrictEqual { actual: actual.into(), expected: expected.into() };
        assert_eq!(lines_of(number("1.762747174039086"), true), vec![close("r", "1.762747174039086")]);
        assert_eq!(lines_of(number("1.762747174039086"), false), vec![strict("r", "1.762747174039086")]);
        // Safe integers are exact whatever computed them; past 2^53 they are not.
        assert_eq!(lines_of(number("42"), true), vec![strict("r", "42")]);
        assert_eq!(lines_of(number("1e+300"), true), vec![close("r", "1e+300")]);
        let array = json!({"t": "arr", "items": [number("2"), number("0.1")]});
        assert!(!asserted_whole(&observed(array.clone()), true));
        assert!(asserted_whole(&observed(array.clone()), false));
        assert_eq!(lines_of(array, true), vec![strict("r.length", "2"), strict("r[0]", "2"), close("r[1]", "0.1")]);
    }
}
