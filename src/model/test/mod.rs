//! A candidate test: a straight-line sequence of constructions (`var node = new Node(5);`) and calls on
//! the class under test (`list.add(node);`), the method under test last. The sandbox interprets it from
//! JSON (`interpreter.rs`); people and exported suites read it as JavaScript (`javascript.rs`).

mod declared;
mod interpreter;
mod javascript;
mod web;

pub use web::{Web, WebClass};

use crate::js::literal;
use crate::model::program::{CONSTRUCTOR, ClassId, ProgramInfo};

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
    /// A recording proxy for a parameter of unknown type (its id in the `inference::TypeTable`).
    Proxy(u32),
    /// An array literal.
    Array(Vec<Value>),
    /// A function of `arity` parameters that returns a value: `function (a, b) { return 3; }` (a
    /// callback of a declared function type takes as many parameters as the type: code may read
    /// `length`).
    Function {
        /// How many parameters it names.
        arity: usize,
        /// What every call returns.
        result: Box<Value>,
    },
    /// A method of `arity` parameters that returns its receiver: `function (a) { return this; }`, what a
    /// declared `this` return type asks for, so that chained calls (`h.update(x).finish(out)`) reach the
    /// object again.
    Fluent {
        /// How many parameters it names.
        arity: usize,
    },
    /// A class of the program itself, passed by reference (`Queue`): what constructs its instances.
    Class(ClassId),
    /// A class written for a parameter that constructs instances of an object type: `class { size = 3;
    /// update(a) { return this; } }`. Each construction gets its own values of the data members (the
    /// fields); the functions among the members are its methods, each call making its result afresh.
    Constructor(Vec<(String, Value)>),
    /// A pure callback whose result follows from its arguments as such a callback's would: a
    /// consistent comparator, a sum, a predicate (see [`Shape`]).
    Callback(Shape),
    /// A BigInt literal: `10n`.
    BigInt(i64),
    /// `new Map([[key, value], ...])`.
    Map(Vec<(Value, Value)>),
    /// `new Set([item, ...])`.
    Set(Vec<Value>),
    /// A promise resolved with a value: `Promise.resolve(3)`.
    Promise(Box<Value>),
    /// An async iterable yielding items in turn, an async generator's:
    /// `(async function* () { yield* [1, 2]; })()`. Like a generator, it is consumed once.
    AsyncIterable(Vec<Value>),
    /// A promise rejected with `new Error("rejected")`, a handler attached when it is made: code that
    /// never awaits it leaves no unhandled rejection, in the engine as under Node.
    Rejected,
    /// `new Uint8Array(length).fill(fill)`: bytes, all the same.
    Bytes {
        /// How many.
        length: usize,
        /// The value of each.
        fill: u8,
    },
    /// `new Date(milliseconds)`.
    Date(f64),
    /// An instance of one of Node's global web classes: `new URL("https://example.com/")`.
    Web(Web),
    /// A regular expression literal: `/source/flags`.
    RegExp {
        /// The pattern, as written between the slashes.
        source: String,
        /// Its flags (`g`, `i`...).
        flags: String,
    },
    /// A plain object literal. One built for an options object names its parameter's record
    /// (`inference::TypeTable`): the sandbox passes it behind a view that reports reads of members it
    /// lacks to that record, so that options read only when others are set are learnt as well (the
    /// suites write the plain object).
    Object {
        /// Its members, in order.
        members: Vec<(String, Value)>,
        /// The record reads of absent members are reported to, if any.
        record: Option<u32>,
    },
    /// A stub function that returns these values in order, then the last one again (a recorded
    /// callback's answers, see `record`).
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

/// The shapes of callbacks with a meaning, beside those returning a constant: a sort needs a consistent
/// order, a filter a predicate that sometimes says yes, a reduction something that combines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Orders numbers: `function (a, b) { return a - b; }`, or `b - a` when descending.
    Subtract {
        /// Whether it orders from the largest down.
        descending: bool,
    },
    /// Orders numbers and strings alike: `function (a, b) { return a < b ? -1 : a > b ? 1 : 0; }`,
    /// reversed when descending.
    Compare {
        /// Whether it orders from the largest down.
        descending: bool,
    },
    /// Combines two values: `function (a, b) { return a + b; }` (a reducer's sum or concatenation).
    Add,
    /// Passes its argument on: `function (a) { return a; }` (a mapper, a key function).
    Identity,
    /// Says yes to some values and no to others: `function (a) { return a > 0; }`.
    Positive,
}

impl Shape {
    /// The shape's code in the harness format (`{"c": code}`), kept by manifests: the comparators of
    /// numbers were the only shapes once, 0 ascending and 1 descending.
    pub(crate) fn code(self) -> u8 {
        match self {
            Shape::Subtract { descending } => u8::from(descending),
            Shape::Compare { descending } => 2 + u8::from(descending),
            Shape::Add => 4,
            Shape::Identity => 5,
            Shape::Positive => 6,
        }
    }

    /// The shape of a code (see [`Shape::code`]).
    pub(crate) fn from_code(code: u64) -> Option<Shape> {
        Some(match code {
            0 | 1 => Shape::Subtract { descending: code == 1 },
            2 | 3 => Shape::Compare { descending: code == 3 },
            4 => Shape::Add,
            5 => Shape::Identity,
            6 => Shape::Positive,
            _ => return None,
        })
    }
}

impl Value {
    /// A plain object literal that reports nothing.
    pub(crate) fn object(members: Vec<(String, Value)>) -> Value {
        Value::Object { members, record: None }
    }

    /// A function of no parameters returning `result`: `function () { return 3; }`.
    pub(crate) fn returning(result: Value) -> Value {
        Value::Function { arity: 0, result: Box::new(result) }
    }

    /// The values this value holds, in order: items, members, a map's keys and values, a callback's
    /// result, what a promise resolves to, a rebuilt instance's fields.
    pub(crate) fn inner(&self) -> Vec<&Value> {
        match self {
            Value::Array(items) | Value::Answers(items) | Value::Set(items) | Value::AsyncIterable(items) => {
                items.iter().collect()
            }
            Value::Object { members, .. } | Value::Instance { fields: members, .. } | Value::Constructor(members) => {
                members.iter().map(|(_, v)| v).collect()
            }
            Value::Map(entries) => entries.iter().flat_map(|(k, v)| [k, v]).collect(),
            Value::Function { result, .. } | Value::Promise(result) => vec![&**result],
            _ => Vec::new(),
        }
    }

    /// Whether the value means the same in any test: it names no variable and holds no proxy.
    pub(crate) fn is_self_contained(&self) -> bool {
        match self {
            Value::Variable(_) | Value::Proxy(_) => false,
            other => other.inner().into_iter().all(Value::is_self_contained),
        }
    }
}

/// A variable of a test: an instance of a class of the program, made by a construction, rebuilt, or
/// returned by a call (whose result is the class the call was seen to return, and may be another
/// value when the code returns one now and then).
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
    /// `receiver.method(args);`, or `receiver(args);` when `method` is [`CALL_ITSELF`].
    Call {
        /// The variable called on.
        receiver: usize,
        /// Method name, or [`CALL_ITSELF`] for a call of the receiver itself (a function a call returned).
        method: String,
        /// Arguments.
        args: Vec<Value>,
        /// Whether this is a call of the method under test (its result is asserted).
        under_test: bool,
        /// The variable the call's result defines (`var tree2 = tree.insert(3);`), for later calls to
        /// use as receiver or argument: persistent and fluent APIs return a new instance and leave the
        /// receiver as it was, so only calls on their results get past an empty one. `None` for a
        /// call whose result no statement names.
        result: Option<usize>,
        /// Whether the call's promise is left un-awaited at its statement (`const promise = e.once('x');`):
        /// later statements run first (the `emit` it waits for), and it is awaited at the end of the test,
        /// or asserted pending if nothing left can settle it. Never with a bound `result`: a promise is no
        /// instance of a class of the program.
        deferred: bool,
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

/// The method name of a call of its receiver itself, without a `this`: the receiver is a function a
/// call of the code under test returned (`const off = hub.on("a", fn); off();`), whose code runs only
/// when a test calls it. No method is named so in practice: a name written `()` in the code would need a
/// computed key.
pub(crate) const CALL_ITSELF: &str = "()";

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
    /// Whether the test has no unknowns left and declares every variable it uses before using it (see
    /// `declared.rs`): only such tests can be elected.
    pub(crate) fn is_valid(&self) -> bool {
        self.proxies().is_empty() && self.check_declarations().is_ok()
    }

    /// Whether a call of the test leaves its promise un-awaited until the end (see [`Statement::Call`]).
    pub(crate) fn has_deferred(&self) -> bool {
        self.statements.iter().any(Statement::is_deferred)
    }

    /// Ids of the parameters (and array elements) passed a recording proxy.
    pub(crate) fn proxies(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.statements.iter().flat_map(Statement::proxies).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Whether `variable` is a function some call returned, which later statements call (see
    /// [`CALL_ITSELF`]): no instance of its class, so neither a receiver of methods nor an argument.
    pub(crate) fn is_function(&self, variable: usize) -> bool {
        self.statements.iter().any(
            |s| matches!(s, Statement::Call { receiver, method, .. } if *receiver == variable && method == CALL_ITSELF),
        )
    }

    /// For a statement that calls a function a call returned (see [`CALL_ITSELF`]), the statement of
    /// that call, which made the function: what the function holds, that call gave it.
    pub(crate) fn maker_of(&self, index: usize) -> Option<usize> {
        let Some(Statement::Call { receiver, method, .. }) = self.statements.get(index) else { return None };
        if method != CALL_ITSELF {
            return None;
        }
        self.statements[..index]
            .iter()
            .position(|s| matches!(s, Statement::Call { result: Some(made), .. } if made == receiver))
    }

    /// Whether the exported test awaits statement `index`, whatever the call gives: a call of a method
    /// some call of which gave a promise, or of a function such a method returned, is written `await`. The
    /// sandbox awaits it too, for awaiting a value that is no promise still lets the jobs queued before it
    /// run (a lock released by a `then` of the previous call).
    pub(crate) fn awaits_as_written(&self, index: usize, program: &ProgramInfo) -> bool {
        let Some(Statement::Call { receiver, method, deferred: false, .. }) = self.statements.get(index) else {
            return false;
        };
        let method_of = |class: ClassId, method: &str| program.classes.get(class).and_then(|c| c.method(method));
        if method != CALL_ITSELF {
            return method_of(self.variables[*receiver].class, method).is_some_and(|m| m.asynchronous);
        }
        let maker = self.maker_of(index).and_then(|at| self.called_at(at));
        maker.and_then(|(class, method)| method_of(class, method)).is_some_and(|m| m.returned_asynchronous)
    }

    /// The class of the receiver and the method of statement `index`, when it is a call.
    pub(crate) fn called_at(&self, index: usize) -> Option<(ClassId, &str)> {
        match self.statements.get(index)? {
            Statement::Call { receiver, method, .. } => Some((self.variables[*receiver].class, method)),
            _ => None,
        }
    }

    /// The variable that statement `index` builds when it is the construction under test, whose result is
    /// described as a call's of the method under test is: the last statement of a test of a constructor,
    /// building its class. A class with nothing but fields and getters (see `session/setup.rs`) is tested
    /// so: by what its construction left on the instance.
    pub(crate) fn constructed_under_test(&self, index: usize) -> Option<usize> {
        match self.statements.get(index) {
            Some(Statement::Construct { variable, class, .. })
                if self.method == CONSTRUCTOR && *class == self.class && index + 1 == self.statements.len() =>
            {
                Some(*variable)
            }
            _ => None,
        }
    }

    /// Whether statement `index` is what the test tests: a call of the method under test, or the
    /// construction under test (see [`TestCase::constructed_under_test`]).
    pub(crate) fn tests_at(&self, index: usize) -> bool {
        matches!(self.statements.get(index), Some(Statement::Call { under_test: true, .. }))
            || self.constructed_under_test(index).is_some()
    }

    /// The instance the test's state assertions look at: the one its construction under test built (see
    /// [`TestCase::constructed_under_test`]), else the receiver of its last call of a method.
    pub(crate) fn asserted_instance(&self) -> Option<usize> {
        let last = self.statements.len().checked_sub(1)?;
        self.constructed_under_test(last).or_else(|| self.last_receiver())
    }

    /// The receiver of the test's last call of a method: the instance the method under test is called
    /// on, also when calls of a function it returned come after it.
    pub(crate) fn last_receiver(&self) -> Option<usize> {
        self.statements.iter().rev().find_map(|s| match s {
            Statement::Call { receiver, method, .. } if method != CALL_ITSELF => Some(*receiver),
            _ => None,
        })
    }

    /// Whether a variable is used by a statement other than its own construction.
    pub(crate) fn uses_variable(&self, variable: usize) -> bool {
        let in_value = |v: &Value| v.uses_variable(variable);
        self.statements.iter().any(|s| match s {
            Statement::Call { receiver, args, .. } => *receiver == variable || args.iter().any(in_value),
            Statement::Construct { args, .. } => args.iter().any(in_value),
            // Fields refer to other variables from anywhere inside (a list's `head` node).
            Statement::Rebuild { fields, .. } => fields.iter().any(|(_, v)| v.uses_variable(variable)),
        })
    }

    /// This test's statements, then `other`'s, its variables renamed where they clash. With `shared`
    /// (a variable of `other`, one of this test), `other`'s variable is this test's and its construction
    /// (and variable) is dropped.
    pub(crate) fn appended(&self, other: &TestCase, program: &ProgramInfo, shared: Option<(usize, usize)>) -> TestCase {
        let mut joined = self.clone();
        let offset = joined.variables.len();
        let map = |v: usize| match shared {
            Some((theirs, ours)) if v == theirs => ours,
            _ => v + offset,
        };
        for variable in &other.variables {
            let name = joined.variable_name(program, variable.class);
            joined.variables.push(Variable { class: variable.class, name });
        }
        let remap = |value: &Value| value.remapped(&map);
        for statement in &other.statements {
            joined.statements.push(match statement {
                Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. }
                    if shared.is_some_and(|(theirs, _)| theirs == *variable) =>
                {
                    continue;
                }
                Statement::Construct { variable, class, args } => Statement::Construct {
                    variable: map(*variable),
                    class: *class,
                    args: args.iter().map(remap).collect(),
                },
                Statement::Call { receiver, method, args, under_test, result, deferred } => Statement::Call {
                    receiver: map(*receiver),
                    method: method.clone(),
                    args: args.iter().map(remap).collect(),
                    under_test: *under_test,
                    // The shared variable is this test's already: the call still runs, unbound.
                    result: result.filter(|r| shared.is_none_or(|(theirs, _)| theirs != *r)).map(map),
                    deferred: *deferred,
                },
                Statement::Rebuild { variable, class, fields } => Statement::Rebuild {
                    variable: map(*variable),
                    class: *class,
                    fields: fields.iter().map(|(k, v)| (k.clone(), remap(v))).collect(),
                },
            });
        }
        joined.forget_undeclared();
        joined
    }

    /// A name for a new variable of `class`: `list`, then `list2`, ...: named after the class, never
    /// clashing with another variable or a class alias.
    pub(crate) fn variable_name(&self, program: &ProgramInfo, class: ClassId) -> String {
        self.fresh_name(program, &program.classes[class].alias)
    }

    /// `base` made an identifier, or with the first number from 2 that makes it clash with no variable,
    /// class alias or function of a module.
    pub(crate) fn fresh_name(&self, program: &ProgramInfo, base: &str) -> String {
        let base = literal::identifier(base);
        let taken = |name: &str| {
            self.variables.iter().any(|v| v.name == name)
                || program.classes.iter().any(|c| {
                    c.alias == name || c.binding() == name || c.functions.iter().flatten().any(|f| f.alias == name)
                })
        };
        if !taken(&base) {
            return base;
        }
        (2..).map(|n| format!("{base}{n}")).find(|name| !taken(name)).expect("some suffix is free")
    }

    /// The classes the test names, in order of first use: those it constructs or rebuilds, and those of
    /// rebuilt instances and classes passed by reference among values.
    pub(crate) fn classes_used(&self) -> Vec<ClassId> {
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

    /// What statement `index` calls, for messages: `add`, `new Node`, or a factory (`createTree`).
    pub(crate) fn callee(&self, index: usize, program: &ProgramInfo) -> String {
        match self.statements.get(index) {
            Some(Statement::Construct { class, .. }) => match &program.classes[*class].factory {
                Some(factory) => factory.alias.clone(),
                None => format!("new {}", program.classes[*class].alias),
            },
            Some(Statement::Rebuild { class, .. }) => {
                format!("a {} rebuilt from its fields", program.classes[*class].alias)
            }
            Some(Statement::Call { receiver, method, .. }) if method == CALL_ITSELF => {
                format!("{}()", self.variables[*receiver].name)
            }
            Some(Statement::Call { method, .. }) => method.clone(),
            None => self.method.clone(),
        }
    }
}

impl Value {
    /// Whether `variable` appears anywhere in this value.
    pub(crate) fn uses_variable(&self, variable: usize) -> bool {
        match self {
            Value::Variable(v) => *v == variable,
            other => other.inner().into_iter().any(|i| i.uses_variable(variable)),
        }
    }

    /// The value with every variable it names replaced by `map` of it.
    pub(crate) fn remapped(&self, map: &impl Fn(usize) -> usize) -> Value {
        let list = |items: &[Value]| items.iter().map(|i| i.remapped(map)).collect();
        let members = |members: &[(String, Value)]| members.iter().map(|(k, v)| (k.clone(), v.remapped(map))).collect();
        match self {
            Value::Variable(v) => Value::Variable(map(*v)),
            Value::Array(items) => Value::Array(list(items)),
            Value::Answers(items) => Value::Answers(list(items)),
            Value::Set(items) => Value::Set(list(items)),
            Value::AsyncIterable(items) => Value::AsyncIterable(list(items)),
            Value::Map(entries) => {
                Value::Map(entries.iter().map(|(k, v)| (k.remapped(map), v.remapped(map))).collect())
            }
            Value::Function { arity, result } => {
                Value::Function { arity: *arity, result: Box::new(result.remapped(map)) }
            }
            Value::Promise(result) => Value::Promise(Box::new(result.remapped(map))),
            Value::Object { members: fields, record } => Value::Object { members: members(fields), record: *record },
            Value::Instance { class, fields } => Value::Instance { class: *class, fields: members(fields) },
            Value::Constructor(fields) => Value::Constructor(members(fields)),
            other => other.clone(),
        }
    }

    /// Calls `visit` with the class of every rebuilt instance in this value.
    fn visit_classes(&self, visit: &mut impl FnMut(ClassId)) {
        if let Value::Instance { class, .. } | Value::Class(class) = self {
            visit(*class);
        }
        self.inner().into_iter().for_each(|i| i.visit_classes(visit));
    }

    /// The value with no options object in it reporting to a record (see [`Value::Object`]).
    fn unreported(&mut self) {
        match self {
            Value::Object { members, record } => {
                *record = None;
                members.iter_mut().for_each(|(_, v)| v.unreported());
            }
            Value::Instance { fields: members, .. } | Value::Constructor(members) => {
                members.iter_mut().for_each(|(_, v)| v.unreported())
            }
            Value::Array(items) | Value::Answers(items) | Value::Set(items) | Value::AsyncIterable(items) => {
                items.iter_mut().for_each(Value::unreported);
            }
            Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
                k.unreported();
                v.unreported();
            }),
            Value::Function { result, .. } | Value::Promise(result) => result.unreported(),
            _ => {}
        }
    }

    /// Whether this value is a number that `test` holds for, or holds one, nested ones included (an
    /// options object's `end`, an array's item).
    pub(crate) fn has_number(&self, test: impl Fn(f64) -> bool + Copy) -> bool {
        match self {
            Value::Number(n) => test(*n),
            other => other.inner().into_iter().any(|i| i.has_number(test)),
        }
    }

    /// Whether a recording proxy is in this value, nested ones included (an options object's member).
    pub(crate) fn contains_proxy(&self) -> bool {
        let mut ids = Vec::new();
        self.collect_proxies(&mut ids);
        !ids.is_empty()
    }

    /// Adds the ids of the recording proxies in this value, nested ones included, to `ids`.
    fn collect_proxies(&self, ids: &mut Vec<u32>) {
        match self {
            Value::Proxy(id) => ids.push(*id),
            other => other.inner().into_iter().for_each(|i| i.collect_proxies(ids)),
        }
    }
}

impl Statement {
    /// `receiver.method(args);`, its result unbound and awaited at once when it is a promise.
    pub fn call(receiver: usize, method: impl Into<String>, args: Vec<Value>, under_test: bool) -> Statement {
        Statement::Call { receiver, method: method.into(), args, under_test, result: None, deferred: false }
    }

    /// Whether the statement is a call whose promise the test awaits only at its end (see
    /// [`Statement::Call`]).
    pub(crate) fn is_deferred(&self) -> bool {
        matches!(self, Statement::Call { deferred: true, .. })
    }

    /// The values the statement passes, in order: its arguments, or the fields of a rebuilt instance.
    pub(crate) fn values_mut(&mut self) -> Vec<&mut Value> {
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
    pub(crate) fn proxies(&self) -> Vec<u32> {
        let mut ids = Vec::new();
        self.args().iter().for_each(|a| a.collect_proxies(&mut ids));
        ids
    }
}
