//! A test in the sandbox interpreter's encoding (see `__fc$exec` in `js/harness.js`): a JSON array of
//! operations, far cheaper for the engine than compiling JavaScript for every candidate.

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
                    json.push_str(&format!("[0,{class},"));
                    self.push_json_args(&mut json, args, program);
                    json.push_str(&format!(",{variable}"));
                }
                Statement::Call { receiver, method, args, under_test } => {
                    json.push_str(&format!("[1,{receiver},{},", serde_json::Value::String(method.clone())));
                    self.push_json_args(&mut json, args, program);
                    json.push_str(if *under_test { ",1" } else { ",0" });
                }
                Statement::Rebuild { variable, class, fields } => {
                    json.push_str(&format!("[2,{class},"));
                    self.push_json_members(&mut json, fields, program);
                    json.push_str(&format!(",{variable}"));
                }
            }
            json.push(']');
        }
        json.push(']');
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
            Value::Number(n) => json.push_str(&format!("{{\"x\":\"{}\"}}", literal::number(*n))),
            Value::String(text) => json.push_str(&serde_json::Value::String(text.clone()).to_string()),
            Value::Boolean(b) => json.push_str(if *b { "true" } else { "false" }),
            Value::Null => json.push_str("null"),
            Value::Undefined => json.push_str("{\"u\":0}"),
            Value::Variable(v) => json.push_str(&format!("{{\"v\":{v}}}")),
            Value::Proxy(id) => json.push_str(&format!("{{\"p\":{id}}}")),
            Value::Array(items) => {
                json.push_str("{\"a\":");
                self.push_json_args(json, items, program);
                json.push('}');
            }
            Value::Function(result) => {
                json.push_str("{\"f\":");
                self.push_json_value(json, result, program);
                self.push_json_text(json, value, program);
            }
            Value::Date(ms) => json.push_str(&format!("{{\"d\":{}}}", literal::number(*ms))),
            Value::RegExp { source, flags } => json.push_str(&format!(
                "{{\"r\":[{},{}]}}",
                serde_json::Value::String(source.clone()),
                serde_json::Value::String(flags.clone())
            )),
            Value::Object(members) => {
                json.push_str("{\"o\":");
                self.push_json_members(json, members, program);
                json.push('}');
            }
            Value::Instance { class, fields } => {
                json.push_str(&format!("{{\"i\":[{class},"));
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
            json.push_str(&format!("[{},", serde_json::Value::String(key.clone())));
            self.push_json_value(json, value, program);
            json.push(']');
        }
        json.push(']');
    }

    /// Ends a function argument with `"t"`, the text the exported suite writes for it: the harness gives
    /// the sandbox's function that text as its `toString`, so code that prints or stores a callback
    /// (`String(cb)`, an error message naming it) observes in the sandbox what it observes in the suite.
    fn push_json_text(&self, json: &mut String, function: &Value, program: &ProgramInfo) {
        json.push_str(&format!(",\"t\":{}}}", serde_json::Value::String(self.value(function, program))));
    }
}
