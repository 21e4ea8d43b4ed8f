//! Candidate tests: the model, how it is written as JavaScript, and how it is generated.
//!
//! A test is a straight-line sequence: constructions (`var node = new Node(5);`) and calls on the class
//! under test (`list.add(node);`), the method under test last. The sandbox interprets it from JSON; people
//! and exported suites read it as JavaScript.

pub mod exhaustive;
pub mod guided;
pub mod hazards;
pub mod literal;
pub mod random;
pub mod search;
pub mod values;

use rand::Rng;

use crate::inference::TypeTable;
use crate::program::{ClassId, ProgramInfo};
use exhaustive::Enumeration;
use guided::ConstantPool;
use hazards::Hazards;
use random::{GenerationSettings, Strategy};
use search::Archive;

/// What a candidate is generated from, whatever the strategy.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The program under test.
    pub program: &'a ProgramInfo,
    /// What is known of the parameters' types.
    pub types: &'a TypeTable,
    /// How to generate.
    pub settings: &'a GenerationSettings,
    /// Guided primitives of the method under test.
    pub constants: &'a ConstantPool,
    /// The class under test.
    pub class: ClassId,
    /// The method under test.
    pub method: &'a str,
    /// Tests elected so far (of any method): states their receivers reached can be given to argument
    /// instances, and search mutates the method's own.
    pub elected: &'a [&'a TestCase],
    /// Methods that tend to hit a limit, which calls made to reach a state avoid.
    pub hazards: &'a Hazards,
}

/// The next candidate for `request` under the settings' strategy: random and guided draw every
/// candidate afresh; the exhaustive strategies move the method's `enumeration` on; search evolves the
/// closest candidates in the method's `archive` and its elected tests.
pub fn candidate(
    request: &Request,
    enumeration: &mut Enumeration,
    archive: &mut Archive,
    rng: &mut (impl Rng + ?Sized),
) -> TestCase {
    match request.settings.strategy {
        Strategy::Search | Strategy::SearchCoverage => search::generate(request, archive, rng),
        Strategy::Random | Strategy::Guided => random::generate(request, rng),
        Strategy::Exhaustive | Strategy::Combined => exhaustive::generate(request, enumeration, rng),
    }
}

/// A value passed to a constructor or method.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number literal.
    Number(f64),
    /// A string literal.
    String(String),
    /// `true` or `false`.
    Boolean(bool),
    /// `null`: only where a class instance was needed and none could be built.
    Null,
    /// `undefined`: an omitted optional argument, where the code checks `typeof x === 'undefined'`, or a
    /// recorded argument or answer.
    Undefined,
    /// A variable of the test.
    Variable(usize),
    /// A recording proxy for a parameter of unknown type (its id in the [`TypeTable`]).
    Proxy(u32),
    /// An array literal.
    Array(Vec<Value>),
    /// A function that returns a value: `function () { return 3; }`.
    Function(Box<Value>),
    /// `new Date(milliseconds)`.
    Date(f64),
    /// A regular expression literal: `/source/flags`.
    RegExp {
        /// The pattern, as written between the slashes.
        source: String,
        /// Its flags (`g`, `i`...).
        flags: String,
    },
    /// A plain object literal.
    Object(Vec<(String, Value)>),
    /// A stub function that returns these values in order, then the last one again (a recorded
    /// callback's answers, see [`crate::record`]).
    Answers(Vec<Value>),
    /// An instance of a class rebuilt from its fields without running its constructor:
    /// `Object.assign(Object.create(C.prototype), { ... })` (a recorded object the program made itself).
    Instance {
        /// Its class.
        class: ClassId,
        /// Its own fields, in order.
        fields: Vec<(String, Value)>,
    },
}

impl Value {
    /// Whether the value means the same in any test: it names no variable and holds no proxy.
    pub fn is_self_contained(&self) -> bool {
        match self {
            Value::Variable(_) | Value::Proxy(_) => false,
            Value::Array(items) | Value::Answers(items) => items.iter().all(Value::is_self_contained),
            Value::Function(result) => result.is_self_contained(),
            Value::Object(members) => members.iter().all(|(_, v)| v.is_self_contained()),
            _ => true,
        }
    }
}

/// A variable of a test: always an instance of a class of the program.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Its class.
    pub class: ClassId,
    /// Its name in the code (`list`, `node2`).
    pub name: String,
}

/// One statement of a test.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// `var v = new C(args);`
    Construct {
        /// The variable defined.
        variable: usize,
        /// Its class.
        class: ClassId,
        /// Constructor arguments.
        args: Vec<Value>,
    },
    /// `receiver.method(args);`
    Call {
        /// The variable called on.
        receiver: usize,
        /// Method name.
        method: String,
        /// Arguments.
        args: Vec<Value>,
        /// Whether this is a call of the method under test (its result is asserted).
        under_test: bool,
    },
    /// `var v = Object.assign(Object.create(C.prototype), { ... });`: an instance rebuilt from the fields
    /// it was recorded with, for a receiver whose history of constructor and calls cannot be replayed.
    Rebuild {
        /// The variable defined.
        variable: usize,
        /// Its class.
        class: ClassId,
        /// Its own fields, in order.
        fields: Vec<(String, Value)>,
    },
}

/// A candidate test for one method under test.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// The class under test.
    pub class: ClassId,
    /// The method under test.
    pub method: String,
    /// Variables, in order of definition.
    pub variables: Vec<Variable>,
    /// Statements, in order.
    pub statements: Vec<Statement>,
}

impl TestCase {
    /// Whether the test has no unknowns left: only such tests can be elected.
    pub fn is_valid(&self) -> bool {
        self.proxies().is_empty()
    }

    /// Ids of the parameters (and array elements) passed a recording proxy.
    pub fn proxies(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.statements.iter().flat_map(Statement::proxies).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Whether a variable is used by a statement other than its own construction.
    pub fn uses_variable(&self, variable: usize) -> bool {
        let in_value = |v: &Value| v.uses_variable(variable);
        self.statements.iter().any(|s| match s {
            Statement::Call { receiver, args, .. } => *receiver == variable || args.iter().any(in_value),
            Statement::Construct { args, .. } => args.iter().any(in_value),
            // Fields refer to other variables from anywhere inside (a list's `head` node).
            Statement::Rebuild { fields, .. } => fields.iter().any(|(_, v)| v.uses_variable(variable)),
        })
    }

    /// A name for a new variable of `class`: `list`, then `list2`, ...: named after the class, never
    /// clashing with another variable or a class alias.
    pub fn variable_name(&self, program: &ProgramInfo, class: ClassId) -> String {
        let base = literal::identifier(&program.classes[class].alias);
        let taken = |name: &str| {
            self.variables.iter().any(|v| v.name == name) || program.classes.iter().any(|c| c.alias == name)
        };
        if !taken(&base) {
            return base;
        }
        (2..).map(|n| format!("{base}{n}")).find(|name| !taken(name)).expect("some suffix is free")
    }

    /// The classes the test names, in order of first use: those it constructs or rebuilds, and those of
    /// rebuilt instances among values.
    pub fn classes_used(&self) -> Vec<ClassId> {
        let mut classes = Vec::new();
        let mut add = |class: ClassId| {
            if !classes.contains(&class) {
                classes.push(class);
            }
        };
        for s in &self.statements {
            match s {
                Statement::Construct { class, .. } | Statement::Rebuild { class, .. } => add(*class),
                Statement::Call { .. } => {}
            }
            match s {
                Statement::Rebuild { fields, .. } => fields.iter().for_each(|(_, v)| v.visit_classes(&mut add)),
                _ => s.args().iter().for_each(|v| v.visit_classes(&mut add)),
            }
        }
        classes
    }

    /// The JavaScript expression or statement text of statement `index`, without a terminating `;`:
    /// `new Node(5)` for constructions (see [`TestCase::declaration`]), `list.add(node)` for calls.
    pub fn expression(&self, index: usize, program: &ProgramInfo) -> String {
        let args = |args: &[Value]| args.iter().map(|a| self.value(a, program)).collect::<Vec<_>>().join(", ");
        match &self.statements[index] {
            Statement::Construct { class, args: a, .. } => {
                format!("new {}({})", program.classes[*class].alias, args(a))
            }
            Statement::Rebuild { class, fields, .. } => self.instance(program, *class, fields),
            Statement::Call { receiver, method, args: a, .. } => {
                let variable = &self.variables[*receiver];
                let name = &variable.name;
                let call = if literal::is_identifier_name(method) {
                    format!("{name}.{method}({})", args(a))
                } else {
                    format!("{name}[{}]({})", literal::string(method), args(a))
                };
                let asynchronous = program.classes[variable.class].method(method).is_some_and(|m| m.asynchronous);
                if asynchronous { format!("await {call}") } else { call }
            }
        }
    }

    /// What statement `index` calls, for messages: `add` or `new Node`.
    pub fn callee(&self, index: usize, program: &ProgramInfo) -> String {
        match self.statements.get(index) {
            Some(Statement::Construct { class, .. }) => format!("new {}", program.classes[*class].alias),
            Some(Statement::Rebuild { class, .. }) => {
                format!("a {} rebuilt from its fields", program.classes[*class].alias)
            }
            Some(Statement::Call { method, .. }) => method.clone(),
            None => self.method.clone(),
        }
    }

    /// `var name = new C(...)` for a construction (or a rebuilt instance), the call expression otherwise.
    pub fn declaration(&self, index: usize, program: &ProgramInfo, keyword: &str) -> String {
        let expression = self.expression(index, program);
        match &self.statements[index] {
            Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. } => {
                format!("{keyword} {} = {expression}", self.variables[*variable].name)
            }
            Statement::Call { .. } => expression,
        }
    }

    fn value(&self, value: &Value, program: &ProgramInfo) -> String {
        match value {
            Value::Number(n) => literal::number(*n),
            Value::String(s) => literal::string(s),
            Value::Boolean(b) => b.to_string(),
            Value::Null => "null".into(),
            Value::Undefined => "undefined".into(),
            Value::Variable(v) => self.variables[*v].name.clone(),
            Value::Proxy(id) => format!("__fc$u({id})"),
            Value::Array(items) => {
                format!("[{}]", items.iter().map(|i| self.value(i, program)).collect::<Vec<_>>().join(", "))
            }
            Value::Function(result) => format!("function () {{ return {}; }}", self.value(result, program)),
            Value::Date(ms) => format!("new Date({})", literal::number(*ms)),
            // `//` would open a comment: the empty pattern is written as JavaScript prints it.
            Value::RegExp { source, flags } if source.is_empty() => format!("/(?:)/{flags}"),
            Value::RegExp { source, flags } => format!("/{source}/{flags}"),
            Value::Object(members) => self.object(members, program),
            Value::Instance { class, fields } => self.instance(program, *class, fields),
            Value::Answers(answers) => {
                let answers: Vec<String> = answers.iter().map(|a| self.value(a, program)).collect();
                format!(
                    "(function (answers) {{ var i = 0; return function () {{ return answers[i < answers.length - 1 ? i++ : i]; }}; }})([{}])",
                    answers.join(", ")
                )
            }
        }
    }

    /// An object literal: `{ a: 1, "b-c": 2 }`.
    fn object(&self, members: &[(String, Value)], program: &ProgramInfo) -> String {
        if members.is_empty() {
            return "{}".into();
        }
        let key = |k: &str| {
            if literal::is_identifier_name(k) && k != "__proto__" { k.to_string() } else { literal::string(k) }
        };
        let members: Vec<String> =
            members.iter().map(|(k, v)| format!("{}: {}", key(k), self.value(v, program))).collect();
        format!("{{ {} }}", members.join(", "))
    }

    /// An instance made without its constructor, its fields then set: what the harness does for
    /// [`Statement::Rebuild`] and [`Value::Instance`].
    fn instance(&self, program: &ProgramInfo, class: ClassId, fields: &[(String, Value)]) -> String {
        let prototype = format!("Object.create({}.prototype)", program.classes[class].alias);
        if fields.is_empty() {
            return prototype;
        }
        format!("Object.assign({prototype}, {})", self.object(fields, program))
    }

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

    /// The test as plain JavaScript statements, one per line (`var` declarations, calls).
    pub fn source(&self, program: &ProgramInfo) -> String {
        (0..self.statements.len()).map(|i| format!("{};\n", self.declaration(i, program, "var"))).collect()
    }

    /// The test as readable JavaScript, with unknown parameters marked (`<?name>`), for people.
    pub fn display(&self, program: &ProgramInfo, types: &TypeTable) -> Vec<String> {
        (0..self.statements.len())
            .map(|i| {
                let mut text = self.declaration(i, program, "var");
                for id in self.proxies() {
                    text = text.replace(&format!("__fc$u({id})"), &format!("<?{}>", types.get(id).name));
                }
                format!("{text};")
            })
            .collect()
    }
}

impl Value {
    /// Whether `variable` appears anywhere in this value.
    pub fn uses_variable(&self, variable: usize) -> bool {
        match self {
            Value::Variable(v) => *v == variable,
            Value::Array(items) | Value::Answers(items) => items.iter().any(|i| i.uses_variable(variable)),
            Value::Function(result) => result.uses_variable(variable),
            Value::Object(members) | Value::Instance { fields: members, .. } => {
                members.iter().any(|(_, v)| v.uses_variable(variable))
            }
            _ => false,
        }
    }

    /// Calls `visit` with the class of every rebuilt instance in this value.
    fn visit_classes(&self, visit: &mut impl FnMut(ClassId)) {
        match self {
            Value::Instance { class, fields } => {
                visit(*class);
                fields.iter().for_each(|(_, v)| v.visit_classes(visit));
            }
            Value::Array(items) | Value::Answers(items) => items.iter().for_each(|i| i.visit_classes(visit)),
            Value::Function(result) => result.visit_classes(visit),
            Value::Object(members) => members.iter().for_each(|(_, v)| v.visit_classes(visit)),
            _ => {}
        }
    }

    /// Whether a recording proxy is in this value, nested ones included (an options object's member).
    pub fn contains_proxy(&self) -> bool {
        let mut ids = Vec::new();
        self.collect_proxies(&mut ids);
        !ids.is_empty()
    }

    /// Adds the ids of the recording proxies in this value, nested ones included, to `ids`.
    fn collect_proxies(&self, ids: &mut Vec<u32>) {
        match self {
            Value::Proxy(id) => ids.push(*id),
            Value::Array(items) => items.iter().for_each(|i| i.collect_proxies(ids)),
            Value::Function(result) => result.collect_proxies(ids),
            Value::Object(members) | Value::Instance { fields: members, .. } => {
                members.iter().for_each(|(_, v)| v.collect_proxies(ids))
            }
            Value::Answers(items) => items.iter().for_each(|i| i.collect_proxies(ids)),
            _ => {}
        }
    }
}

impl Statement {
    /// The values the statement passes, in order: its arguments, or the fields of a rebuilt instance.
    pub fn values_mut(&mut self) -> Vec<&mut Value> {
        match self {
            Statement::Construct { args, .. } | Statement::Call { args, .. } => args.iter_mut().collect(),
            Statement::Rebuild { fields, .. } => fields.iter_mut().map(|(_, v)| v).collect(),
        }
    }

    /// The arguments of the statement (a rebuilt instance has none: its fields are not parameters).
    pub fn args(&self) -> &[Value] {
        match self {
            Statement::Construct { args, .. } | Statement::Call { args, .. } => args,
            Statement::Rebuild { .. } => &[],
        }
    }

    /// Ids of the recording proxies among the statement's arguments, nested ones included.
    pub fn proxies(&self) -> Vec<u32> {
        let mut ids = Vec::new();
        self.args().iter().for_each(|a| a.collect_proxies(&mut ids));
        ids
    }
}
