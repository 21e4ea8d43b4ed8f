//! The report's random generator: build the class under test (declaring what its constructor needs
//! first), make a random number of calls on it, and call the method under test last.

use rand::Rng;
use rand::RngExt;

use super::Request;
use super::guided::ConstantPool;
use super::hazards::Hazards;
use super::lengths::length_of;
use super::objects::any_entry;
use super::returns::Returns;
use super::siblings::Siblings;
use super::values::REGEXPS;
use crate::analysis::constants::Constant;
use crate::inference::{DecisionSource, ParamRecord, ParamType, TypeTable, patterns};
use crate::js::literal;
use crate::model::program::{CONSTRUCTOR, ClassId, MethodInfo, ProgramInfo};
use crate::model::settings::{GenerationSettings, NumberSource, StringSource};
use crate::model::test::{Shape, Statement, TestCase, Value, Variable};
use crate::sandbox::CallArguments;

/// Chance of reusing an existing variable when an instance of a class is needed.
const REUSE_PROBABILITY: f64 = 0.25;
/// Chance of an async iterable of the items rather than an array, for a parameter whose values the code
/// asks for `Symbol.asyncIterator`.
const ASYNC_ITERABLE_PROBABILITY: f64 = 0.5;
/// How deep constructor arguments may nest before existing variables (or `null`) are used instead.
pub(super) const MAX_CONSTRUCTION_DEPTH: usize = 4;
/// Chance of passing a value of another type (`null`, `''` for a number, `0` for a string) to a
/// parameter whose type is known.
const OFF_TYPE_PROBABILITY: f64 = 0.03;
/// Chance of passing `undefined` to a parameter whose function checks `typeof x === 'undefined'`, or
/// `null` to one it compares with `null`.
const ABSENT_PROBABILITY: f64 = 0.1;
/// Chance of building one of the class's subclasses (or the class itself) when a class has some.
const SUBCLASS_PROBABILITY: f64 = 0.3;
/// Chance of putting a newly built argument instance into a state by calling some of its own methods
/// first (guided strategies only): a collection passed in empty is rarely what the code is written for.
const STATE_PROBABILITY: f64 = 0.3;
/// Most calls made on an argument instance to put it into a state.
const MAX_STATE_CALLS: usize = 2;
/// Chance that a state is copied from an elected test's receiver rather than drawn at random, when one
/// of the class exists.
const ELECTED_STATE_PROBABILITY: f64 = 0.5;
/// Chance that a call before the method under test calls the method the call before it called (guided
/// strategies): states are built by runs of one method (a search tree whose node to remove has two
/// children, and its right child a left child, takes four inserts; a list filled past its capacity),
/// which calls drawn one by one seldom make: among four methods, a test of up to ten calls has four
/// inserts once in 25 tests, and once in 10 with runs.
const REPEAT_PROBABILITY: f64 = 0.5;
/// Chance that a call whose method was seen to return a new instance of a class of the program binds
/// that result to a variable of the test, which later calls may use (see [`super::returns`]).
const BIND_PROBABILITY: f64 = 0.8;
/// Chance that the calls after one whose bound result is of the receiver's class are made on that
/// result: a persistent tree grows only along its results (`tree2 = tree.insert(1); tree3 =
/// tree2.insert(2)`).
const FOLLOW_PROBABILITY: f64 = 0.8;
/// Chance of making an instance by calling a method of another class seen to return one (a tree's
/// iterator from `tree.begin()`), when one is known, rather than by its constructor.
const PRODUCE_PROBABILITY: f64 = 0.3;
/// Chance that an argument instance is built with the same constructor arguments as an instance of its
/// class already in the test (guided strategies only): code that takes a second instance often
/// requires it to be compatible with the first (same currency, same unit, equal keys).
const SIBLING_PROBABILITY: f64 = 0.3;
/// Chance of a string matching one of the patterns a string parameter's values met at run time.
const LEARNT_PATTERN_PROBABILITY: f64 = 0.5;
/// Chance of one of the literals a parameter's function compares it with (`case 'minor':`), when it
/// compares it with literals of the parameter's type.
const COMPARED_PROBABILITY: f64 = 0.3;
/// The same chance for a member of an object compared with several literals (`node.type === 'num'`,
/// `case 'array':`): such a member says what kind of object it is, and the code reads the rest of the
/// object by it, so any other value stops it at the first test.
const DISCRIMINANT_PROBABILITY: f64 = 0.8;
/// Chance of a list of strings, joined as the code splits them, for a string parameter it splits.
const LIST_PROBABILITY: f64 = 0.25;
/// Chance, for such a list, that it is composed of the code's names and the parameter's joiners (see
/// [`super::composed`]) rather than of items joined by one joiner.
const COMPOSED_PROBABILITY: f64 = 0.5;
/// Chance of a number for a string parameter whose function also checks `typeof x === 'number'`, and
/// the other way round; of one of the two for a parameter of another type checked against them.
const OTHER_CHECKED_PROBABILITY: f64 = 0.3;
/// Chance that a call of a method whose awaited promise was seen to stall (see
/// [`crate::model::program::MethodInfo::stalls`]) leaves its promise un-awaited until the test's end.
const DEFER_PROBABILITY: f64 = 0.5;
/// Most calls made after a method under test whose promise is deferred: what may settle it (the `emit`
/// a `once` waits for).
const MAX_CALLS_AFTER_DEFERRED: usize = 3;
/// Largest small number, given to a parameter whose large numbers were cut off by limits (sizes).
pub(super) const SMALL_NUMBER: i32 = 10;
/// Chance that a callback the code was seen calling with arguments has a shape that fits the call (see
/// [`shapes_for`]) rather than a constant result: a sort with a constant comparator, or a filter whose
/// predicate always says the same, never reaches the code that depends on the answer.
const SHAPED_CALLBACK_PROBABILITY: f64 = 0.5;
/// Chance of a call with another number of arguments than parameters, where the function shows that
/// the count matters (see [`crate::analysis::arity`]; guided strategies only).
const ARITY_PROBABILITY: f64 = 0.2;
/// Most arguments passed past the parameters of a function that reads `arguments`.
const MAX_EXTRA_ARGUMENTS: usize = 3;
/// Longest generated array.
pub(super) const MAX_ARRAY_LENGTH: usize = 5;
/// Dates are drawn between 2000-01-01 and 2030-01-01, in whole seconds since the epoch.
const DATE_RANGE: (i64, i64) = (946_684_800, 1_893_456_000);

/// Generates one random candidate test for the request's method, drawing guided primitives from its
/// constants and states of argument instances from its elected tests. Methods whose parameters cannot be
/// tested are never called; the caller makes sure the method under test is testable.
pub fn generate(request: &Request, rng: &mut (impl Rng + ?Sized)) -> TestCase {
    let Request { program, settings, class, method, .. } = *request;
    if method == CONSTRUCTOR {
        return super::construction::generate(request, rng);
    }
    let mut builder = Builder::new(request);
    let mut receiver = builder.made(class, 0, rng);
    let calls = rng.random_range(1..=settings.max_calls.max(1));
    let mut previous: Option<&str> = None;
    for _ in 1..calls {
        let repeat = previous.filter(|_| settings.strategy.guided_inputs() && rng.random_bool(REPEAT_PROBABILITY));
        let Some(name) = repeat.or_else(|| request.hazards.pick(program, class, rng)) else { break };
        receiver = builder.call_following(receiver, name, name == method, 0, rng);
        previous = Some(name);
    }
    builder.call(receiver, method, true, rng);
    let tested = builder.test.statements.len() - 1;
    if builder.test.statements[tested].is_deferred() {
        for _ in 0..rng.random_range(1..=MAX_CALLS_AFTER_DEFERRED) {
            let Some(name) = request.hazards.pick(program, class, rng) else { break };
            receiver = builder.call_following(receiver, name, name == method, 0, rng);
        }
    } else {
        builder.call_result(tested, rng);
    }
    builder.test
}

/// A test being built, statement by statement; shared with [`super::exhaustive`], which chooses the
/// values itself.
pub(super) struct Builder<'a> {
    pub(super) program: &'a ProgramInfo,
    pub(super) types: &'a TypeTable,
    pub(super) settings: &'a GenerationSettings,
    pub(super) constants: &'a ConstantPool,
    /// Tests already elected, whose receivers' calls are states known to be reachable.
    pub(super) elected: &'a [&'a TestCase],
    pub(super) hazards: &'a Hazards,
    pub(super) returns: &'a Returns,
    pub(super) test: TestCase,
    /// The parameter whose value is being built, while its members and items are: numbers inside it
    /// turn small as its own do once large ones cut tests off (see [`Hazards::small_number_chance`]).
    pub(super) enclosing: Option<u32>,
    /// What the call's earlier arguments hold, for the argument being built (see `siblings.rs`).
    pub(super) siblings: Siblings,
    /// The lengths of the call's earlier arguments, by parameter: one compared with another's is drawn as
    /// long (see `lengths.rs`).
    pub(super) earlier_lengths: Vec<(u32, usize)>,
}

impl<'a> Builder<'a> {
    /// An empty test of the request's method.
    pub(super) fn new(request: &Request<'a>) -> Builder<'a> {
        let Request { program, types, settings, constants, class, method, elected, hazards, returns } = *request;
        let test = TestCase { class, method: method.to_string(), variables: Vec::new(), statements: Vec::new() };
        Builder {
            program,
            types,
            settings,
            constants,
            elected,
            hazards,
            returns,
            test,
            enclosing: None,
            siblings: Siblings::default(),
            earlier_lengths: Vec::new(),
        }
    }

    /// Appends a call of `method` on `receiver` with generated arguments, its result unbound.
    pub(super) fn call(&mut self, receiver: usize, method: &str, under_test: bool, rng: &mut (impl Rng + ?Sized)) {
        self.call_at(receiver, method, under_test, 0, 0.0, rng);
    }

    /// Appends a call of `method` on `receiver` (its class arguments built at `depth`), and answers the
    /// receiver of the calls after it: mostly the call's result, when it is bound and of the receiver's
    /// class (a persistent structure's new version), else `receiver` again.
    pub(super) fn call_following(
        &mut self,
        receiver: usize,
        method: &str,
        under_test: bool,
        depth: usize,
        rng: &mut (impl Rng + ?Sized),
    ) -> usize {
        let class = self.test.variables[receiver].class;
        match self.call_at(receiver, method, under_test, depth, BIND_PROBABILITY, rng) {
            Some(result)
                if self.program.is_subclass(self.test.variables[result].class, class)
                    && rng.random_bool(FOLLOW_PROBABILITY) =>
            {
                result
            }
            _ => receiver,
        }
    }

    /// Appends a call of `method` on `receiver` (of any class) whose class arguments are built at
    /// `depth`, so that states of argument instances cannot nest without end. When the method was seen
    /// to return new instances of a class of the program, its result is bound to a new variable of that
    /// class with probability `bind`; answers that variable. An unbound call of a method seen to stall is
    /// sometimes deferred (see [`DEFER_PROBABILITY`]).
    fn call_at(
        &mut self,
        receiver: usize,
        method: &str,
        under_test: bool,
        depth: usize,
        bind: f64,
        rng: &mut (impl Rng + ?Sized),
    ) -> Option<usize> {
        let class = self.test.variables[receiver].class;
        // Looked up once: a library's class has hundreds of methods.
        let info = self.hazards.method(self.program, class, method);
        let args = self.arguments(class, method, info, depth, rng);
        let result = match self.returns.of(class, method) {
            Some(made) if bind > 0.0 && rng.random_bool(bind) => {
                let name = self.test.variable_name(self.program, made);
                self.test.variables.push(Variable { class: made, name });
                Some(self.test.variables.len() - 1)
            }
            _ => None,
        };
        let stalls = info.is_some_and(|m| m.stalls);
        let deferred = result.is_none() && stalls && rng.random_bool(DEFER_PROBABILITY);
        let method = method.to_string();
        self.test.statements.push(Statement::Call { receiver, method, args, under_test, result, deferred });
        result
    }

    /// A new instance of `class`, `depth` constructions deep: now and then made by a call of another
    /// class's method seen to return one (see [`Builder::produce`]), else by its constructor. Only the
    /// receiver and the arguments of the test's own calls are produced: in a library whose every class
    /// makes the others (collections and their sequences), producing nested instances too built tests
    /// whose instances each grew a tree of others.
    pub(super) fn made(&mut self, class: ClassId, depth: usize, rng: &mut (impl Rng + ?Sized)) -> usize {
        if depth == 0
            && rng.random_bool(PRODUCE_PROBABILITY)
            && let Some(variable) = self.produce(class, depth, rng)
        {
            return variable;
        }
        self.construct(class, depth, rng)
    }

    /// An instance of `class` (or of a subclass) made as a result: an instance of a class whose method
    /// was seen to return one is built, grown by a few calls (along their results, as the receiver
    /// is), and that method called on it, its result bound. `None` when no such method is known, or
    /// nothing can be built that deep.
    fn produce(&mut self, class: ClassId, depth: usize, rng: &mut (impl Rng + ?Sized)) -> Option<usize> {
        let producers = self.returns.producers(class, self.program);
        if producers.is_empty() {
            return None;
        }
        let (owner_class, method) = producers[rng.random_range(0..producers.len())];
        let mut owner = self.construct(owner_class, depth + 1, rng);
        // A module of functions (a class's static members among them) has no state to grow.
        let calls =
            if self.program.classes[owner_class].is_module() { 0 } else { rng.random_range(0..=2 * MAX_STATE_CALLS) };
        for _ in 0..calls {
            let Some(name) = self.hazards.pick(self.program, owner_class, rng) else { break };
            owner = self.call_following(owner, name, false, depth + 1, rng);
        }
        self.call_at(owner, method, false, depth + 1, 1.0, rng)
    }

    /// Calls on `variable` what an elected test called on its receiver of `class` before the method
    /// under test: a state earlier tests reached without a throw and that mattered to them. Calls whose
    /// arguments are other variables of that test (or proxies) are left out. Whether a state was copied.
    fn copy_elected_state(&mut self, variable: usize, class: ClassId, rng: &mut (impl Rng + ?Sized)) -> bool {
        // Counted first, and only the drawn test's calls copied: cloning every test's calls to keep one
        // cost a class of many elected tests more than the rest of the draw.
        let prefix = |test: &'a TestCase| {
            let receiver = match test.statements.last() {
                Some(Statement::Call { receiver, .. })
                    if test.variables[*receiver].class == class && !test.is_function(*receiver) =>
                {
                    *receiver
                }
                _ => return None,
            };
            let calls = test.statements[..test.statements.len() - 1].iter().filter_map(move |s| match s {
                Statement::Call { receiver: r, method, args, .. }
                    if *r == receiver && args.iter().all(Value::is_self_contained) =>
                {
                    Some((method, args))
                }
                _ => None,
            });
            calls.clone().next().is_some().then_some(calls)
        };
        let elected = self.elected;
        let count = elected.iter().filter(|test| prefix(test).is_some()).count();
        if count == 0 {
            return false;
        }
        let chosen = rng.random_range(0..count);
        let calls = elected.iter().filter_map(|test| prefix(test)).nth(chosen).expect("one of those counted");
        for (method, args) in calls {
            self.test.statements.push(Statement::call(variable, method.clone(), args.clone(), false));
        }
        true
    }

    /// Often puts `variable`, an instance just built for an argument, into a state: a short random
    /// sequence of its own class's methods, written as ordinary calls before the instance is used.
    /// Answers the instance to use: `variable`, or the result a call of the sequence returned of its
    /// class (a persistent structure's new version).
    fn prepare(&mut self, variable: usize, depth: usize, rng: &mut (impl Rng + ?Sized)) -> usize {
        if !self.settings.strategy.guided_inputs() || !rng.random_bool(STATE_PROBABILITY) {
            return variable;
        }
        let class = self.test.variables[variable].class;
        if rng.random_bool(ELECTED_STATE_PROBABILITY) && self.copy_elected_state(variable, class, rng) {
            return variable;
        }
        // Methods with parameters of unknown type are called too: their proxies teach inference, as
        // the class under test's own calls do.
        let program = self.program;
        if program.classes[class].methods.is_empty() {
            return variable;
        }
        let mut current = variable;
        for _ in 0..rng.random_range(1..=MAX_STATE_CALLS) {
            let Some(method) = self.hazards.pick(program, class, rng) else { break };
            current = self.call_following(current, method, false, depth + 1, rng);
        }
        current
    }

    /// Declares a new instance of `class` (for an abstract base, of a concrete subclass: the preferred one
    /// half of the time, else any), its constructor's arguments first.
    pub(super) fn construct(&mut self, class: ClassId, depth: usize, rng: &mut (impl Rng + ?Sized)) -> usize {
        let concrete = &self.program.classes[class].concrete;
        let class = match concrete.len() {
            0 => class,
            1 => concrete[0],
            n if rng.random_bool(0.5) => concrete[rng.random_range(0..n)],
            _ => concrete[0],
        };
        let args = self.arguments(class, "constructor", Some(&self.program.classes[class].constructor), depth + 1, rng);
        self.declare(class, args)
    }

    /// Sometimes the constructor arguments of an instance of exactly `class` declared earlier in the test.
    fn sibling_arguments(&self, class: ClassId, rng: &mut (impl Rng + ?Sized)) -> Option<Vec<Value>> {
        if !self.settings.strategy.guided_inputs() {
            return None;
        }
        let siblings: Vec<&Vec<Value>> = self
            .test
            .statements
            .iter()
            .filter_map(|s| match s {
                Statement::Construct { class: c, args, .. } if *c == class && !args.is_empty() => Some(args),
                _ => None,
            })
            .collect();
        if siblings.is_empty() || !rng.random_bool(SIBLING_PROBABILITY) {
            return None;
        }
        let mut args = siblings[rng.random_range(0..siblings.len())].clone();
        self.one_piece_more_or_less(class, &mut args, rng);
        Some(args)
    }

    /// Half of the time makes one of `args`, a string the constructor of `class` splits into a list, one
    /// piece longer (its last piece again) or shorter (nothing is drawn when it splits none): code that
    /// compares lists item by item (prerelease identifiers of two versions) has a branch for one list
    /// ending first, which only a list and its prefix take.
    fn one_piece_more_or_less(&self, class: ClassId, args: &mut [Value], rng: &mut (impl Rng + ?Sized)) {
        let params = self.types.params_of(class, "constructor");
        let lists: Vec<(usize, &str)> = params
            .iter()
            .zip(args.iter())
            .enumerate()
            .filter_map(|(at, (param, value))| {
                let joiner = self.types.get(*param).joiners.first()?;
                matches!(value, Value::String(text) if text.contains(joiner.as_str())).then_some((at, joiner.as_str()))
            })
            .collect();
        if lists.is_empty() || !rng.random_bool(0.5) {
            return;
        }
        let (at, joiner) = lists[rng.random_range(0..lists.len())];
        let Value::String(text) = &mut args[at] else { return };
        let Some((rest, last)) = text.rsplit_once(joiner) else { return };
        *text = if rng.random_bool(0.5) { format!("{text}{joiner}{last}") } else { rest.to_string() };
    }

    /// Arguments for a call of `function` of `class`, instances among them built at `depth`: one per
    /// parameter, or now and then (guided strategies) fewer where the function can do without its
    /// trailing parameters, or more where it reads `arguments` or has a rest parameter of a declared
    /// element type (each of them one of that type). An omitted argument gets no value at all,
    /// so its record sees no use; arguments past the parameters have no record of their own: values of
    /// the rest parameter's record, or primitives. `method` is `function`'s information, when known.
    fn arguments(
        &mut self,
        class: ClassId,
        function: &str,
        method: Option<&'a MethodInfo>,
        depth: usize,
        rng: &mut (impl Rng + ?Sized),
    ) -> Vec<Value> {
        let params = self.types.params_of(class, function);
        let fewer = method.and_then(|m| m.optional_from).filter(|from| *from < params.len());
        // A rest parameter of a declared element: each argument from its place on is one.
        let gathers = params.last().copied().filter(|p| self.types.get(*p).gathers);
        let more = method.is_some_and(|m| m.variadic) || gathers.is_some();
        let (mut count, mut extra) = (params.len(), 0);
        if (fewer.is_some() || more) && self.settings.strategy.guided_inputs() && rng.random_bool(ARITY_PROBABILITY) {
            match fewer {
                Some(from) if !more || rng.random_bool(0.5) => count = rng.random_range(from..params.len()),
                _ => extra = rng.random_range(1..=MAX_EXTRA_ARGUMENTS),
            }
        }
        let count = self.declared_count(params, count, rng);
        // A declared rest parameter's elements follow every parameter before it: a call leaving some out
        // passes none, which would take the places of those left out (a number where a `Part` is declared).
        let extra = if gathers.is_some() && count < params.len() { 0 } else { extra };
        let outer = std::mem::take(&mut self.siblings);
        let outer_lengths = std::mem::take(&mut self.earlier_lengths);
        let mut args: Vec<Value> = Vec::with_capacity(count + extra);
        for p in &params[..count] {
            self.choose_siblings(&args, rng);
            let arg = self.argument(*p, depth, rng);
            if let Some(length) = length_of(&arg) {
                self.earlier_lengths.push((*p, length));
            }
            args.push(arg);
        }
        self.siblings = outer;
        self.earlier_lengths = outer_lengths;
        for _ in 0..extra {
            let value = match gathers {
                Some(rest) => self.argument(rest, depth, rng),
                None => self.primitive(if rng.random_bool(0.6) { ParamType::Number } else { ParamType::String }, rng),
            };
            args.push(value);
        }
        args
    }

    /// Declares a new instance of `class` built with `args`.
    pub(super) fn declare(&mut self, class: ClassId, args: Vec<Value>) -> usize {
        let variable = self.test.variables.len();
        let name = self.test.variable_name(self.program, class);
        self.test.variables.push(Variable { class, name });
        self.test.statements.push(Statement::Construct { variable, class, args });
        variable
    }

    /// A value for parameter `param`, `depth` constructions deep, of its type as inferred so far.
    pub(super) fn argument(&mut self, param: u32, depth: usize, rng: &mut (impl Rng + ?Sized)) -> Value {
        let outer = self.enclosing;
        self.enclosing = outer.or(Some(param));
        let value = self.argument_of(param, depth, rng);
        let value = self.positive(Some(param), value, rng);
        self.enclosing = outer;
        self.fit_length(param, value, rng)
    }

    /// Now and then `undefined` or `null` for a parameter its function checks against them (`typeof x
    /// === 'undefined'`, `x == null`).
    pub(super) fn absent(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> Option<Value> {
        let typeofs = &self.types.get(param).typeofs;
        [("undefined", Value::Undefined), ("null", Value::Null)]
            .into_iter()
            .find(|(checked, _)| typeofs.iter().any(|t| t == checked) && rng.random_bool(ABSENT_PROBABILITY))
            .map(|(_, absent)| absent)
    }

    fn argument_of(&mut self, param: u32, depth: usize, rng: &mut (impl Rng + ?Sized)) -> Value {
        let types = self.types;
        if let Some(declared) = types.get(param).declared_in_force() {
            if let Some(absent) = self.absent_checked(param, rng) {
                return absent;
            }
            return match self.outside_declared(param, rng) {
                Some(outside) => outside,
                None => self.declared(Some(param), &declared.ty, depth, rng),
            };
        }
        let ty = self.types.get(param).current_type();
        let guided = ty != ParamType::Unknown && self.settings.strategy.guided_inputs();
        if guided && let Some(absent) = self.absent(param, rng) {
            return absent;
        }
        // A leap of faith is a guess: a value compared by identity (`at.value === value`) may have been
        // guessed another type where it was stored, so any primitive passed earlier will do.
        let leap = self.types.get(param).decision.as_ref().is_some_and(|d| d.source == DecisionSource::LeapOfFaith);
        if guided
            && leap
            && matches!(ty, ParamType::Number | ParamType::String | ParamType::Boolean)
            && let Some(value) = self.earlier_primitive(None, rng)
        {
            return value;
        }
        if guided && rng.random_bool(OFF_TYPE_PROBABILITY) {
            // Validation branches (`if (node === null) throw`, `typeof fn !== 'function'`) need a value
            // of another type now and then.
            return match ty {
                ParamType::Number => Value::String(String::new()),
                ParamType::String => Value::Number(0.0),
                _ => Value::Null,
            };
        }
        if guided
            && matches!(ty, ParamType::Number | ParamType::String | ParamType::Boolean)
            && self.types.get(param).typeofs.iter().any(|t| t == "object")
            && rng.random_bool(OTHER_CHECKED_PROBABILITY)
        {
            // A primitive its function also checks against `'object'` ("a number, a string or an object
            // of them", the instance a validator takes): now and then a plain object of a few entries.
            return Value::object(self.entries(rng, any_entry));
        }
        if guided && let Some(items) = self.indexed_items(param, ty, rng) {
            return items;
        }
        if guided
            && !matches!(ty, ParamType::Number | ParamType::String)
            && let Some(primitive) = self.other_checked(param, rng)
        {
            return self.primitive_for(param, primitive, rng);
        }
        match ty {
            ParamType::Unknown => Value::Proxy(param),
            ParamType::Number if rng.random_bool(self.small_number_chance(Some(param))) => {
                Value::Number(self.small_number(Some(param), rng))
            }
            ParamType::Number | ParamType::String => {
                match self.sibling(Some(ty), rng).or_else(|| self.earlier_primitive(Some(ty), rng)) {
                    Some(value) => value,
                    None => self.primitive_for(param, ty, rng),
                }
            }
            ParamType::Boolean => Value::Boolean(rng.random_bool(0.5)),
            ParamType::Array => {
                // Short enough to read in a test. Elements have a record of their own, so the code's
                // use of `items[i]` decides their type; elements of elements are numbers or strings.
                let length = self.array_length(param, rng);
                let shaped = self.shape(self.types.values_shape_of(param)).filter(|_| depth < MAX_CONSTRUCTION_DEPTH);
                let items = match shaped.or(self.types.element_of(param)) {
                    Some(element) => (0..length).map(|_| self.argument(element, depth + 1, rng)).collect(),
                    None => {
                        let of = if rng.random_bool(0.6) { ParamType::Number } else { ParamType::String };
                        (0..length)
                            .map(|_| self.sibling(None, rng).unwrap_or_else(|| self.primitive(of, rng)))
                            .collect()
                    }
                };
                // Code that asks for `Symbol.asyncIterator` takes async iterables (an array only where it
                // also takes sync ones).
                if self.types.get(param).iterates_async() && rng.random_bool(ASYNC_ITERABLE_PROBABILITY) {
                    Value::AsyncIterable(items)
                } else {
                    Value::Array(items)
                }
            }
            ParamType::Function => self.callback(param, depth, rng),
            ParamType::Object => self.options_object(param, depth, rng),
            ParamType::Date => date(rng),
            ParamType::RegExp => self.regexp(rng),
            ParamType::Class(class) => self.instance(class, depth, rng),
        }
    }

    /// A callback for parameter `param`: of a shape that fits how the code calls it, now and then, else
    /// returning a value of its result's type.
    fn callback(&mut self, param: u32, depth: usize, rng: &mut (impl Rng + ?Sized)) -> Value {
        if let Some(calls) = self.types.get(param).calls.filter(|calls| calls.count > 0)
            && rng.random_bool(SHAPED_CALLBACK_PROBABILITY)
        {
            let shapes = shapes_for(calls);
            return Value::Callback(shapes[rng.random_range(0..shapes.len())]);
        }
        Value::returning(match self.types.result_of(param) {
            // With no evidence of what the caller does with the result, each callback returns a
            // primitive of a type drawn afresh: a single guess could miss a `typeof` check forever.
            Some(result)
                if self
                    .types
                    .get(result)
                    .decision
                    .as_ref()
                    .is_some_and(|d| d.source == DecisionSource::LeapOfFaith) =>
            {
                let ty = [ParamType::Number, ParamType::String, ParamType::Boolean][rng.random_range(0..3)];
                self.argument_of_type(ty, rng)
            }
            Some(result) => self.argument(result, depth + 1, rng),
            None => self.primitive(ParamType::Number, rng),
        })
    }

    /// An instance of `class` for an argument `depth` constructions deep: often a variable of the class
    /// (or a subclass) already in the test, else one built (of a subclass now and then) and perhaps put
    /// into a state; `null` when nothing can be built that deep.
    pub(super) fn instance(&mut self, class: ClassId, depth: usize, rng: &mut (impl Rng + ?Sized)) -> Value {
        let pool: Vec<usize> = (0..self.test.variables.len())
            .filter(|v| self.program.is_subclass(self.test.variables[*v].class, class) && !self.test.is_function(*v))
            .collect();
        let too_deep = depth >= MAX_CONSTRUCTION_DEPTH;
        if !pool.is_empty() && (too_deep || rng.random_bool(REUSE_PROBABILITY)) {
            Value::Variable(pool[rng.random_range(0..pool.len())])
        } else if too_deep {
            Value::Null
        } else {
            // An instance of a subclass satisfies the class too, and may take other branches.
            let family: Vec<ClassId> =
                (0..self.program.classes.len()).filter(|c| self.program.is_subclass(*c, class)).collect();
            let chosen = if family.len() > 1 && rng.random_bool(SUBCLASS_PROBABILITY) {
                family[rng.random_range(0..family.len())]
            } else {
                class
            };
            let variable = match self.sibling_arguments(chosen, rng) {
                Some(args) => self.declare(chosen, args),
                None => self.made(chosen, depth, rng),
            };
            Value::Variable(self.prepare(variable, depth, rng))
        }
    }

    /// A regular expression: one the code uses (guided strategies), else one of a fixed pool.
    pub(super) fn regexp(&self, rng: &mut (impl Rng + ?Sized)) -> Value {
        let mined = if self.settings.strategy.guided_inputs() { self.constants.regex(rng) } else { None };
        let (source, flags) = mined.unwrap_or_else(|| REGEXPS[rng.random_range(0..REGEXPS.len())]);
        Value::RegExp { source: source.to_string(), flags: flags.to_string() }
    }

    /// Now and then `'number'` or `'string'`, when the function of `param` (decided another type)
    /// checks `typeof` against it: a parameter is often of several types ("a colour object, an array
    /// of channels or a colour string"), and inference decides one of them.
    fn other_checked(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> Option<ParamType> {
        let typeofs = &self.types.get(param).typeofs;
        let checked: Vec<ParamType> = [("number", ParamType::Number), ("string", ParamType::String)]
            .into_iter()
            .filter(|(name, _)| typeofs.iter().any(|t| t == name))
            .map(|(_, ty)| ty)
            .collect();
        if checked.is_empty() || !rng.random_bool(OTHER_CHECKED_PROBABILITY) {
            return None;
        }
        Some(checked[rng.random_range(0..checked.len())])
    }

    /// A number or a string for `param` (guided strategies): of the other of the two types now and then
    /// when its function checks `typeof` against both ("a number or a numeric string"), now and then a
    /// literal its function compares it with, the digits of a number for a string checked against
    /// `'number'` too, and often a string matching a pattern its values met at run time (see
    /// [`crate::inference::patterns`]).
    pub(super) fn primitive_for(&self, param: u32, ty: ParamType, rng: &mut (impl Rng + ?Sized)) -> Value {
        let record = self.types.get(param);
        if !self.settings.strategy.guided_inputs() {
            return self.primitive(ty, rng);
        }
        let checked = |name: &str| record.typeofs.iter().any(|t| t == name);
        // A declared type says which of the two it is.
        let either = record.declared_in_force().is_none();
        let ty = match ty {
            ParamType::Number if either && checked("string") && rng.random_bool(OTHER_CHECKED_PROBABILITY) => {
                ParamType::String
            }
            ParamType::String if either && checked("number") && rng.random_bool(OTHER_CHECKED_PROBABILITY) => {
                ParamType::Number
            }
            ty => ty,
        };
        let default_strings = matches!(self.settings.strings, StringSource::Default);
        // A user's regular expression for the type replaces guidance, literals included.
        let default_source = match ty {
            ParamType::Number => matches!(self.settings.numbers, NumberSource::Default),
            _ => default_strings,
        };
        if default_source && let Some(literal) = compared(record, ty, rng) {
            return literal;
        }
        if ty == ParamType::String && default_strings {
            if !record.joiners.is_empty() && rng.random_bool(LIST_PROBABILITY) {
                if rng.random_bool(COMPOSED_PROBABILITY)
                    && let Some(text) = self.composed(param, rng)
                {
                    return Value::String(text);
                }
                let joiner = &record.joiners[rng.random_range(0..record.joiners.len())];
                let count = self.constants.count(rng);
                return Value::String(patterns::list(joiner, count, rng, |r| self.list_item(param, r)));
            }
            if !record.patterns.is_empty() && rng.random_bool(LEARNT_PATTERN_PROBABILITY) {
                let pattern = &record.patterns[rng.random_range(0..record.patterns.len())];
                return Value::String(pattern.sample(self.constants.count(rng), rng));
            }
            if checked("number") && rng.random_bool(0.5) {
                let number = self.constants.number(rng, |r| self.settings.numbers.generate(r));
                return Value::String(literal::number(number));
            }
        }
        self.primitive(ty, rng)
    }

    /// An item of a list the code splits `param`'s values into: a string of one of the patterns its
    /// values met, or of the code's own, else any string.
    pub(super) fn list_item(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> String {
        let learnt = &self.types.get(param).patterns;
        if !learnt.is_empty() && rng.random_bool(0.5) {
            return learnt[rng.random_range(0..learnt.len())].sample(1, rng);
        }
        self.constants.pattern_sample(rng).unwrap_or_else(|| self.settings.strings.generate(rng))
    }

    /// A string for the value of `record` (when known: its learnt patterns apply), else any string.
    pub(super) fn string_for(&self, record: Option<u32>, rng: &mut (impl Rng + ?Sized)) -> Value {
        match record {
            Some(record) => self.primitive_for(record, ParamType::String, rng),
            None => self.primitive(ParamType::String, rng),
        }
    }

    /// A primitive of type `ty` (number, string or boolean).
    fn argument_of_type(&self, ty: ParamType, rng: &mut (impl Rng + ?Sized)) -> Value {
        match ty {
            ParamType::Boolean => Value::Boolean(rng.random_bool(0.5)),
            _ => self.primitive(ty, rng),
        }
    }

    /// A number or a string. A regular expression given by the user replaces guidance for its type.
    pub(super) fn primitive(&self, ty: ParamType, rng: &mut (impl Rng + ?Sized)) -> Value {
        let guided = self.settings.strategy.guided_inputs();
        match (ty, &self.settings.numbers, &self.settings.strings) {
            (ParamType::Number, NumberSource::Default, _) if guided => {
                Value::Number(self.constants.number(rng, |r| self.settings.numbers.generate(r)))
            }
            (ParamType::Number, numbers, _) => Value::Number(numbers.generate(rng)),
            (_, _, StringSource::Default) if guided => {
                Value::String(self.constants.string(rng, |r| self.settings.strings.generate(r)))
            }
            (_, _, strings) => Value::String(strings.generate(rng)),
        }
    }
}

/// A date between 2000 and 2030, in whole seconds.
pub(super) fn date(rng: &mut (impl Rng + ?Sized)) -> Value {
    Value::Date(rng.random_range(DATE_RANGE.0..DATE_RANGE.1) as f64 * 1000.0)
}

/// Sometimes one of the literals of type `ty` that `record`'s function compares it with, as it is.
fn compared(record: &ParamRecord, ty: ParamType, rng: &mut (impl Rng + ?Sized)) -> Option<Value> {
    let of_type = |c: &&Constant| match ty {
        ParamType::Number => matches!(c, Constant::Number(_)),
        _ => matches!(c, Constant::String(_)),
    };
    let count = record.literals.iter().filter(of_type).count();
    let chance = if record.discriminates() && count > 1 { DISCRIMINANT_PROBABILITY } else { COMPARED_PROBABILITY };
    if count == 0 || !rng.random_bool(chance) {
        return None;
    }
    match record.literals.iter().filter(of_type).nth(rng.random_range(0..count))? {
        Constant::Number(n) => Some(Value::Number(*n)),
        Constant::String(s) => Some(Value::String(s.clone())),
        Constant::Regex { .. } => None,
    }
}

/// The shapes of callback that fit calls passing `calls`: two arguments are compared or combined (numbers
/// subtracted, anything else compared with `<`, which orders strings and numbers alike), one is passed on
/// or tested.
fn shapes_for(calls: CallArguments) -> &'static [Shape] {
    const NUMBERS_PAIR: &[Shape] =
        &[Shape::Subtract { descending: false }, Shape::Subtract { descending: true }, Shape::Add];
    const STRINGS_PAIR: &[Shape] =
        &[Shape::Compare { descending: false }, Shape::Compare { descending: true }, Shape::Add];
    const ANY_PAIR: &[Shape] = &[Shape::Compare { descending: false }, Shape::Compare { descending: true }];
    const NUMBER: &[Shape] = &[Shape::Identity, Shape::Positive];
    const ANY: &[Shape] = &[Shape::Identity];
    match calls {
        CallArguments { count: 2.., numbers: true, .. } => NUMBERS_PAIR,
        CallArguments { count: 2.., strings: true, .. } => STRINGS_PAIR,
        CallArguments { count: 2.., .. } => ANY_PAIR,
        CallArguments { numbers: true, .. } => NUMBER,
        _ => ANY,
    }
}
