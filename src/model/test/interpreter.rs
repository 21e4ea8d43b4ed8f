//! A test in the sandbox interpreter's encoding (see `__fc$exec` in `js/harness.js`): a JSON array of
//! operations, far cheaper for the engine than compiling JavaScript for every candidate.

use std::fmt::Write;

use super::{Statement, TestCase, Value};
use crate::js::literal;
use crate::model::program::ProgramInfo;

impl TestCase {
    /// The test as the sandbox's interpreter takes it (see `__fc$exec` in the harness): a JSON array of
    /// operations, far cheaper for the engine than compiling JavaScript for every candidate.
    pub fn to_json(&self, program: &ProgramInfo) -> String {
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
                }
                Statement::Call { receiver, method, args, under_test, result, deferred } => {
                    let _ = write!(json, "[1,{receiver},");
                    push_json_string(&mut json, method);
                    json.push(',');
                    self.push_json_args(&mut json, args, program);
                    json.push_str(if *under_test { ",1" } else { ",0" });
                    // Only a bound result is written, and a deferred call's flag after it (-1: unbound):
                    // tests without them read as they always did.
                    match (result, deferred) {
                        (Some(result), _) => {
                            let _ = write!(json, ",{result}");
                        }
                        (None, true) => json.push_str(",-1"),
                        (None, false) => {}
                    }
                    if *deferred {
                        json.push_str(",1");
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
        stored.to_json(program)
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
                let _ = write!(json, "{{\"x\":\"{}\"}}", literal::number(*n));
            }
            Value::String(text) => push_json_string(json, text),
            Value::Boolean(b) => json.push_str(if *b { "true" } else { "false" }),
            Value::Null => json.push_str("null"),
            Value::Undefined => json.push_str("{\"u\":0}"),
            Value::Variable(v) => {
                let _ = write!(json, "{{\"v\":{v}}}");
            }
            Value::Proxy(id) => {
                let _ = write!(json, "{{\"p\":{id}}}");
            }
            Value::Array(items) => {
                json.push_str("{\"a\":");
                self.push_json_args(json, items, program);
                json.push('}');
            }
            Value::Function { arity, result } => {
                json.push_str("{\"f\":");
                self.push_json_value(json, result, program);
                if *arity > 0 {
                    let _ = write!(json, ",\"n\":{arity}");
                }
                self.push_json_text(json, value, program);
            }
            Value::Callback(shape) => {
                let _ = write!(json, "{{\"c\":{}", shape.code());
                self.push_json_text(json, value, program);
            }
            Value::BigInt(n) => {
                let _ = write!(json, "{{\"b\":\"{n}\"}}");
            }
            Value::Map(entries) => {
                json.push_str("{\"m\":[");
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
                json.push_str("{\"e\":");
                self.push_json_args(json, items, program);
                json.push('}');
            }
            Value::Promise(result) => {
                json.push_str("{\"q\":");
                self.push_json_value(json, result, program);
                json.push('}');
            }
            Value::Rejected => json.push_str("{\"j\":1}"),
            Value::Bytes { length, fill } => {
                let _ = write!(json, "{{\"y\":[{length},{fill}]}}");
            }
            Value::Date(ms) => {
                let _ = write!(json, "{{\"d\":{}}}", literal::number(*ms));
            }
            Value::Web(web) => {
                let _ = write!(json, "{{\"w\":[{},", web.code());
                push_json_string(json, &web.text());
                json.push_str("]}");
            }
            Value::RegExp { source, flags } => {
                json.push_str("{\"r\":[");
                push_json_string(json, source);
                json.push(',');
                push_json_string(json, flags);
                json.push_str("]}");
            }
            Value::Object { members, record } => {
                json.push_str("{\"o\":");
                self.push_json_members(json, members, program);
                if let Some(record) = record {
                    let _ = write!(json, ",\"k\":{record}");
                }
                json.push('}');
            }
            Value::Instance { class, fields } => {
                let _ = write!(json, "{{\"i\":[{class},");
                self.push_json_members(json, fields, program);
                json.push_str("]}");
            }
            Value::Answers(answers) => {
                json.push_str("{\"s\":");
                self.push_json_args(json, answers, program);
                self.push_json_text(json, value, program);
            }
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
        json.push_str(",\"t\":");
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
    use super::push_json_string;

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
