//! A test as JavaScript text: the exported suite's statements and what people read in the explorer.

use super::{CALL_ITSELF, Shape, Statement, TestCase, Value};
use crate::js::{PROXY, literal};
use crate::model::program::{ClassId, ProgramInfo};

/// How [`Value::Rejected`] is written: the rejected promise itself, passed on after a handler is attached
/// to it (the promise `.catch` answers is another, which resolves).
const REJECTED: &str = "(function (rejected) { rejected.catch(function () {}); return rejected; })(Promise.reject(new Error(\"rejected\")))";

impl TestCase {
    /// The JavaScript expression or statement text of statement `index`, without a terminating `;`:
    /// `new Node(5)` for constructions (see [`TestCase::declaration`]), `list.add(node)` for calls.
    pub(crate) fn expression(&self, index: usize, program: &ProgramInfo) -> String {
        let args = |args: &[Value]| args.iter().map(|a| self.value(a, program)).collect::<Vec<_>>().join(", ");
        match &self.statements[index] {
            Statement::Construct { class, args: a, .. } => program.classes[*class].making(&args(a)),
            Statement::Rebuild { class, fields, .. } => self.instance(program, *class, fields, None),
            Statement::Call { receiver, method, args: a, .. } if method == CALL_ITSELF => {
                let call = format!("{}({})", self.variables[*receiver].name, args(a));
                if self.awaits_as_written(index, program) { format!("await {call}") } else { call }
            }
            Statement::Call { receiver, method, args: a, .. } => {
                let variable = &self.variables[*receiver];
                let name = &variable.name;
                let call = match program.classes[variable.class].function(method) {
                    // A function of a module is called without a receiver, by the name the suite binds; a
                    // static member on its class, and a static property read (`Point.ORIGIN`).
                    Some(function) if function.property => function.alias.clone(),
                    Some(function) => format!("{}({})", function.alias, args(a)),
                    None if literal::is_identifier_name(method) => format!("{name}.{method}({})", args(a)),
                    None => format!("{name}[{}]({})", literal::string(method), args(a)),
                };
                // A deferred call's promise is awaited at the end of the test (see `suite/lines.rs`).
                if self.awaits_as_written(index, program) { format!("await {call}") } else { call }
            }
        }
    }

    /// Whether statement `index` is written out: not a variable of a module of functions, which stands
    /// for the module itself and is made by no statement (its functions are bound instead).
    pub(crate) fn is_written(&self, index: usize, program: &ProgramInfo) -> bool {
        !matches!(&self.statements[index], Statement::Construct { class, .. } if program.classes[*class].is_module())
    }

    /// `var name = new C(...)` for a construction (or a rebuilt instance), `var name = receiver.m(...)` for
    /// a call whose result defines a variable, the call expression otherwise.
    pub(crate) fn declaration(&self, index: usize, program: &ProgramInfo, keyword: &str) -> String {
        let expression = self.expression(index, program);
        match &self.statements[index] {
            Statement::Construct { variable, .. }
            | Statement::Rebuild { variable, .. }
            | Statement::Call { result: Some(variable), .. } => {
                format!("{keyword} {} = {expression}", self.variables[*variable].name)
            }
            Statement::Call { deferred: true, .. } => {
                format!("{keyword} {} = {expression}", self.deferred_name(index, program))
            }
            Statement::Call { result: None, .. } => expression,
        }
    }

    /// The name of the promise deferred call `index` leaves pending (`promise`, `promise2`...): counted
    /// over the test's deferred calls, and never a variable's or a class's name.
    pub(crate) fn deferred_name(&self, index: usize, program: &ProgramInfo) -> String {
        let taken = |name: &str| {
            self.variables.iter().any(|v| v.name == name) || program.classes.iter().any(|c| c.alias == name)
        };
        let mut names = (1..).map(|n| if n == 1 { "promise".to_string() } else { format!("promise{n}") });
        let mut name = String::new();
        for _ in self.statements[..=index].iter().filter(|s| s.is_deferred()) {
            name = names.by_ref().find(|name| !taken(name)).expect("some suffix is free");
        }
        name
    }

    pub(crate) fn value(&self, value: &Value, program: &ProgramInfo) -> String {
        self.annotated(value, program, None)
    }

    /// The text of `value`: in JavaScript (`annotation` none), or in TypeScript with `annotation` written
    /// after each parameter of the functions it holds (`: any` where no declared type gives those
    /// parameters a type from the context).
    pub(crate) fn annotated(&self, value: &Value, program: &ProgramInfo, annotation: Option<&str>) -> String {
        let text = |v: &Value| self.annotated(v, program, annotation);
        match value {
            Value::Number(n) => literal::number(*n),
            Value::String(s) => literal::string(s),
            Value::Boolean(b) => b.to_string(),
            Value::Null => "null".into(),
            Value::Undefined => "undefined".into(),
            Value::Variable(v) => self.variables[*v].name.clone(),
            Value::Proxy(id) => format!("{PROXY}({id})"),
            Value::Array(items) => {
                format!("[{}]", items.iter().map(text).collect::<Vec<_>>().join(", "))
            }
            Value::Function { arity, result } => {
                let taken = |name: &str| {
                    self.variables.iter().any(|v| v.name == name) || program.classes.iter().any(|c| c.alias == name)
                };
                format!("function ({}) {{ return {}; }}", parameters(*arity, taken, annotation), text(result))
            }
            Value::Fluent { arity } => {
                format!("function ({}) {{ return this; }}", parameters(*arity, |_| false, annotation))
            }
            Value::Class(class) => program.classes[*class].alias.clone(),
            Value::Constructor(members) => self.constructor(members, program, annotation),
            Value::Callback(shape) => callback(*shape, annotation.unwrap_or_default()),
            Value::BigInt(n) => format!("{n}n"),
            Value::Map(entries) if entries.is_empty() => "new Map()".into(),
            Value::Map(pairs) => {
                let entries: Vec<String> = pairs.iter().map(|(k, v)| format!("[{}, {}]", text(k), text(v))).collect();
                // TypeScript infers a map's key and value types from its first entry and refuses the
                // entries that differ (`new Map([[0, 1], [true, "n"]])`): such a map's are `any`.
                let keys = one_kind(pairs.iter().map(|(k, _)| k));
                let arguments = if annotation.is_some() && !(keys && one_kind(pairs.iter().map(|(_, v)| v))) {
                    "<any, any>"
                } else {
                    ""
                };
                format!("new Map{arguments}([{}])", entries.join(", "))
            }
            Value::Set(items) if items.is_empty() => "new Set()".into(),
            Value::Set(items) => format!("new Set([{}])", items.iter().map(text).collect::<Vec<_>>().join(", ")),
            Value::Promise(result) => format!("Promise.resolve({})", text(result)),
            Value::AsyncIterable(items) => format!(
                "(async function* () {{ yield* [{}]; }})()",
                items.iter().map(text).collect::<Vec<_>>().join(", ")
            ),
            Value::Rejected => REJECTED.into(),
            Value::Bytes { length, fill: 0 } => format!("new Uint8Array({length})"),
            Value::Bytes { length, fill } => format!("new Uint8Array({length}).fill({fill})"),
            Value::Date(ms) => format!("new Date({})", literal::number(*ms)),
            Value::Web(web) => web.javascript(),
            // `//` would open a comment: the empty pattern is written as JavaScript prints it.
            Value::RegExp { source, flags } if source.is_empty() => format!("/(?:)/{flags}"),
            Value::RegExp { source, flags } => format!("/{source}/{flags}"),
            Value::Object { members, .. } => self.object(members, program, annotation),
            Value::Instance { class, fields } => self.instance(program, *class, fields, annotation),
            Value::Answers(answers) => {
                let answers: Vec<String> = answers.iter().map(text).collect();
                format!(
                    "(function (answers) {{ var i = 0; return function () {{ return answers[i < answers.length - 1 ? i++ : i]; }}; }})([{}])",
                    answers.join(", ")
                )
            }
        }
    }

    /// An object literal: `{ a: 1, "b-c": 2 }`.
    fn object(&self, members: &[(String, Value)], program: &ProgramInfo, annotation: Option<&str>) -> String {
        if members.is_empty() {
            return "{}".into();
        }
        let key = |k: &str| {
            if literal::is_identifier_name(k) && k != "__proto__" { k.to_string() } else { literal::string(k) }
        };
        let members: Vec<String> =
            members.iter().map(|(k, v)| format!("{}: {}", key(k), self.annotated(v, program, annotation))).collect();
        format!("{{ {} }}", members.join(", "))
    }

    /// A class expression of `members` (see [`Value::Constructor`]): the functions among them its methods
    /// (a method returning `this` returns the instance), the others its fields. In TypeScript every
    /// parameter inside is annotated `: any`: a class body takes no types from where it is passed. A key
    /// that is no plain name, or is `constructor` (which would name the class's constructor), is computed.
    fn constructor(&self, members: &[(String, Value)], program: &ProgramInfo, annotation: Option<&str>) -> String {
        let annotation = annotation.map(|_| ": any");
        let taken = |name: &str| {
            self.variables.iter().any(|v| v.name == name) || program.classes.iter().any(|c| c.alias == name)
        };
        let key = |k: &str| {
            if literal::is_identifier_name(k) && k != "constructor" {
                k.to_string()
            } else {
                format!("[{}]", literal::string(k))
            }
        };
        let members: Vec<String> = members
            .iter()
            .map(|(k, v)| match v {
                Value::Fluent { arity } => {
                    format!("{}({}) {{ return this; }}", key(k), parameters(*arity, taken, annotation))
                }
                Value::Function { arity, result } => format!(
                    "{}({}) {{ return {}; }}",
                    key(k),
                    parameters(*arity, taken, annotation),
                    self.annotated(result, program, annotation)
                ),
                other => format!("{} = {};", key(k), self.annotated(other, program, annotation)),
            })
            .collect();
        if members.is_empty() { "class {}".into() } else { format!("class {{ {} }}", members.join(" ")) }
    }

    /// An instance made without its constructor, its fields then set: what the harness does for
    /// [`Statement::Rebuild`] and [`Value::Instance`].
    fn instance(
        &self,
        program: &ProgramInfo,
        class: ClassId,
        fields: &[(String, Value)],
        annotation: Option<&str>,
    ) -> String {
        let prototype = format!("Object.create({}.prototype)", program.classes[class].alias);
        if fields.is_empty() {
            return prototype;
        }
        format!("Object.assign({prototype}, {})", self.object(fields, program, annotation))
    }

    /// The test as plain JavaScript statements, one per line (`var` declarations, calls).
    pub fn source(&self, program: &ProgramInfo) -> String {
        (0..self.statements.len())
            .filter(|i| self.is_written(*i, program))
            .map(|i| format!("{};\n", self.declaration(i, program, "var")))
            .collect()
    }

    /// The test as readable JavaScript, with unknown parameters marked (`<?name>`, the name being
    /// `param_name` of the parameter's id), for people.
    pub(crate) fn display(&self, program: &ProgramInfo, param_name: impl Fn(u32) -> String) -> Vec<String> {
        (0..self.statements.len())
            .filter(|i| self.is_written(*i, program))
            .map(|i| {
                let mut text = self.declaration(i, program, "var");
                for id in self.proxies() {
                    text = text.replace(&format!("{PROXY}({id})"), &format!("<?{}>", param_name(id)));
                }
                format!("{text};")
            })
            .collect()
    }
}

/// The parameter list of a function of `arity` parameters that uses none of them: `a, b, c`, then `a26`...
/// past the alphabet, each after as many `_` as keep it from hiding a name the function's result uses;
/// in TypeScript (`annotation` given), each after one `_` more and followed by `annotation`.
fn parameters(arity: usize, taken: impl Fn(&str) -> bool, annotation: Option<&str>) -> String {
    (0..arity)
        .map(|i| {
            let mut name = match u8::try_from(i).ok().filter(|i| *i < 26) {
                Some(i) => char::from(b'a' + i).to_string(),
                None => format!("a{i}"),
            };
            // The function never reads them: in TypeScript, a leading `_` lets `noUnusedParameters` pass.
            if annotation.is_some() {
                name.insert(0, '_');
            }
            while taken(&name) {
                name.insert(0, '_');
            }
            name + annotation.unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text of a callback of `shape`, its parameters annotated with `annotation` (`: any` in TypeScript).
fn callback(shape: Shape, annotation: &str) -> String {
    let ordered = |descending: bool| if descending { ("b", "a") } else { ("a", "b") };
    let (parameters, body) = match shape {
        Shape::Subtract { descending } => {
            let (first, second) = ordered(descending);
            (2, format!("{first} - {second}"))
        }
        Shape::Compare { descending } => {
            let (first, second) = ordered(descending);
            (2, format!("{first} < {second} ? -1 : {first} > {second} ? 1 : 0"))
        }
        Shape::Add => (2, "a + b".to_string()),
        Shape::Identity => (1, "a".to_string()),
        Shape::Positive => (1, "a > 0".to_string()),
    };
    let names: Vec<String> = ["a", "b"][..parameters].iter().map(|name| format!("{name}{annotation}")).collect();
    format!("function ({}) {{ return {body}; }}", names.join(", "))
}

/// Whether `values` are primitives of one kind (numbers, strings, booleans or BigInts), whose type
/// TypeScript infers from the first of them.
fn one_kind<'a>(mut values: impl Iterator<Item = &'a Value>) -> bool {
    let kind = |v: &Value| match v {
        Value::Number(_) => Some(0),
        Value::String(_) => Some(1),
        Value::Boolean(_) => Some(2),
        Value::BigInt(_) => Some(3),
        _ => None,
    };
    let Some(first) = values.next().map(kind) else { return true };
    first.is_some() && values.all(|v| kind(v) == first)
}
