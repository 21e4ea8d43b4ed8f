//! What calls return: the classes of the program whose new instances a method's calls were seen to
//! return, learnt from every run, so that generation binds such results to variables of the test and
//! calls later methods on them.
//!
//! Persistent and fluent APIs leave their receiver as it was and return a new object (`tree.insert(k)`
//! returns a new tree, `date.add(1, 'day')` a new date): calls made on one receiver never get past its
//! first state. JavaScript declares no return types, so the harness looks at each call's result at run
//! time: an object that is no variable of the test already (`return this` is none), whose prototype
//! chain holds the prototype of a class of the program, is a new instance of that class (see `note` in
//! `js/harness.js`).
//!
//! A call may also return a function of the code under test (an unsubscribe closure, a counter's
//! `next`), whose code runs only when a test calls it: tests of the method bind it and call it after
//! the method ([`Builder::call_result`]).

use rand::{Rng, RngExt};
use rustc_hash::FxHashMap;

use super::random::Builder;
use crate::inference::ParamType;
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{CALL_ITSELF, Statement, TestCase, Variable};

/// Chance that the function of the code under test a call of the method under test returns (see
/// [`Returned`]) is bound and called: its code runs only then.
const CALL_RESULT_PROBABILITY: f64 = 0.7;
/// Most calls of such a function in a test: a closure that keeps state (a counter's `next`, `once`'s
/// wrapper, a cache) takes other branches on its second and third calls.
const MAX_RESULT_CALLS: usize = 3;

/// Per class and method, the class of the new instances its calls returned, or the function of the code
/// under test.
#[derive(Debug, Clone, Default)]
pub struct Returns {
    seen: FxHashMap<(ClassId, String), ClassId>,
    functions: FxHashMap<(ClassId, String), Returned>,
}

/// A function of the code under test a method's calls return (`hub.on(name, fn)` returns `off`): its
/// code runs only when a test calls it, and it counts toward the method's goal (nested functions are part
/// of a function's statements).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Returned {
    /// How many parameters it declares (its `length`): how many arguments its calls pass.
    pub(crate) arity: usize,
    /// Its name (`off`, `next`), empty for an anonymous function: what the test names it.
    pub(crate) name: String,
}

impl Returns {
    /// What is known before any run: the static members of a class that make its instances (seen at
    /// discovery, or declared so) return instances of it.
    pub(crate) fn from_factories(program: &ProgramInfo) -> Returns {
        let mut returns = Returns::default();
        for (unit, info) in program.classes.iter().enumerate() {
            let (Some(class), Some(functions)) = (info.statics_of, &info.functions) else { continue };
            for function in functions.iter().filter(|f| f.makes) {
                returns.seen.insert((unit, function.method.clone()), class);
            }
        }
        returns
    }

    /// Learns from one run of `test`, whose calls at the statements of `returned` returned new instances
    /// of those classes. A method seen to return instances of two classes of one family returns their
    /// common superclass as far as a test can tell; of two unrelated ones, the one seen first.
    pub(crate) fn record(&mut self, test: &TestCase, returned: &[(usize, ClassId)], program: &ProgramInfo) {
        for &(at, class) in returned {
            let Some(Statement::Call { receiver, method, .. }) = test.statements.get(at) else { continue };
            let Some(variable) = test.variables.get(*receiver) else { continue };
            if class >= program.classes.len() || program.classes[class].is_module() {
                continue;
            }
            let key = (variable.class, method.clone());
            match self.seen.get(&key) {
                None => {
                    self.seen.insert(key, class);
                }
                Some(&known) if known != class && program.is_subclass(known, class) => {
                    self.seen.insert(key, class);
                }
                Some(_) => {}
            }
        }
    }

    /// Learns from one run of `test`, whose calls at the statements of `functions` returned functions of
    /// the code under test, as (statement, length, name). The first seen per method is kept: the same
    /// closure again, in every case seen so far.
    pub(crate) fn record_functions(&mut self, test: &TestCase, functions: &[(usize, usize, String)]) {
        for (at, arity, name) in functions {
            let Some(Statement::Call { receiver, method, .. }) = test.statements.get(*at) else { continue };
            let Some(variable) = test.variables.get(*receiver) else { continue };
            if method == CALL_ITSELF {
                continue;
            }
            let returned = Returned { arity: *arity, name: name.clone() };
            self.functions.entry((variable.class, method.clone())).or_insert(returned);
        }
    }

    /// The function of the code under test that calls of `method` on an instance of `class` return, if
    /// seen.
    pub(crate) fn function_of(&self, class: ClassId, method: &str) -> Option<&Returned> {
        if self.functions.is_empty() {
            return None;
        }
        self.functions.get(&(class, method.to_string()))
    }

    /// The class of the new instances calls of `method` on an instance of `class` return, if seen.
    pub(crate) fn of(&self, class: ClassId, method: &str) -> Option<ClassId> {
        // Without any result seen, a look-up would hash the name for nothing on every call generated.
        if self.seen.is_empty() {
            return None;
        }
        self.seen.get(&(class, method.to_string())).copied()
    }

    /// The methods of other classes (and modules of functions) whose calls return instances of `class`
    /// or of a subclass, as (class, method), in a fixed order: another way to make an instance than its
    /// constructor (a tree's iterator from `tree.begin()`, a node from `list.first()`).
    pub(crate) fn producers(&self, class: ClassId, program: &ProgramInfo) -> Vec<(ClassId, &str)> {
        let mut found: Vec<(ClassId, &str)> = self
            .seen
            .iter()
            .filter(|((owner, method), made)| {
                // A private method is no route a suite should take: a refactoring may rename it.
                *owner != class && program.is_subclass(**made, class) && !program.classes[*owner].is_private(method)
            })
            .map(|((owner, method), _)| (*owner, method.as_str()))
            .collect();
        found.sort_unstable();
        found
    }
}

impl Builder<'_> {
    /// Now and then binds the result of the call at statement `at`, when its method was seen to return a
    /// function of the code under test, and calls that function a few times (`const off = hub.on("a",
    /// fn); off();`), each call asserted as the method's. Its arguments are as many as it declares,
    /// numbers and strings (an earlier one now and then, as a cache's key comes again): its parameters
    /// have no record of their own for proxies to teach, being no method the program declares.
    pub(super) fn call_result(&mut self, at: usize, rng: &mut (impl Rng + ?Sized)) {
        let Some(Statement::Call { receiver, method, result: None, deferred: false, .. }) =
            self.test.statements.get(at)
        else {
            return;
        };
        let class = self.test.variables[*receiver].class;
        let returns = self.returns;
        let Some(returned) = returns.function_of(class, method) else { return };
        if !rng.random_bool(CALL_RESULT_PROBABILITY) {
            return;
        }
        let base = if returned.name.is_empty() { format!("{method} result") } else { returned.name.clone() };
        let name = self.test.fresh_name(self.program, &base);
        self.test.variables.push(Variable { class, name });
        let function = self.test.variables.len() - 1;
        if let Some(Statement::Call { result, .. }) = self.test.statements.get_mut(at) {
            *result = Some(function);
        }
        for _ in 0..rng.random_range(1..=MAX_RESULT_CALLS) {
            let args = (0..returned.arity)
                .map(|_| {
                    self.earlier_primitive(None, rng).unwrap_or_else(|| {
                        let ty = if rng.random_bool(0.5) { ParamType::Number } else { ParamType::String };
                        self.primitive(ty, rng)
                    })
                })
                .collect();
            self.test.statements.push(Statement::call(function, CALL_ITSELF, args, true));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::program::{Access, ClassInfo, MethodInfo, ModuleFunction, Origin};
    use crate::model::test::Variable;

    fn program() -> ProgramInfo {
        let class = |name: &str, superclass: Option<ClassId>| ClassInfo {
            access: Access::EsModule { file: 0, export: name.into(), path: Vec::new() },
            superclass,
            methods: vec![MethodInfo::bare("insert", vec!["k".into()], Origin::Prototype)],
            ..ClassInfo::script(name)
        };
        let classes = vec![class("Tree", None), class("Iterator", None), class("Leaf", Some(0))];
        ProgramInfo { classes, ..Default::default() }
    }

    /// `tree = new Tree(); tree.insert(1); tree.insert(2)`.
    fn test() -> TestCase {
        let call = |method: &str| Statement::call(0, method, Vec::new(), false);
        TestCase {
            class: 0,
            method: "insert".into(),
            variables: vec![Variable { class: 0, name: "tree".into() }],
            statements: vec![
                Statement::Construct { variable: 0, class: 0, args: Vec::new() },
                call("insert"),
                call("begin"),
            ],
        }
    }

    #[test]
    fn a_family_s_results_are_of_its_superclass_and_other_classes_are_producers() {
        let program = program();
        let mut returns = Returns::default();
        assert_eq!(returns.of(0, "insert"), None);
        returns.record(&test(), &[(1, 2), (2, 1)], &program);
        assert_eq!(returns.of(0, "insert"), Some(2));
        returns.record(&test(), &[(1, 0), (0, 1)], &program);
        assert_eq!(returns.of(0, "insert"), Some(0), "a leaf and a tree: trees");
        returns.record(&test(), &[(1, 1)], &program);
        assert_eq!(returns.of(0, "insert"), Some(0), "an unrelated class does not replace the first");
        assert_eq!(returns.producers(1, &program), vec![(0, "begin")]);
        assert!(returns.producers(0, &program).is_empty(), "a class's own methods make no producer");
    }

    #[test]
    fn the_first_function_a_method_returns_is_kept_and_calls_of_results_teach_nothing() {
        let mut returns = Returns::default();
        let mut test = test();
        test.variables.push(Variable { class: 0, name: "off".into() });
        test.statements.push(Statement::call(1, CALL_ITSELF, Vec::new(), true));
        returns.record_functions(&test, &[(1, 1, "off".into()), (3, 0, String::new())]);
        returns.record_functions(&test, &[(1, 2, "other".into())]);
        let off = Returned { arity: 1, name: "off".into() };
        assert_eq!(returns.function_of(0, "insert"), Some(&off));
        assert_eq!(returns.function_of(0, CALL_ITSELF), None, "a function a returned function returns");
        assert_eq!(returns.of(0, "insert"), None, "a function is no instance");
    }

    #[test]
    fn the_static_members_that_make_a_class_s_instances_produce_it_before_any_run() {
        let mut program = program();
        let member = |method: &str, makes: bool| ModuleFunction {
            method: method.into(),
            alias: format!("Tree.{method}"),
            access: Access::EsModule { file: 0, export: "Tree".into(), path: vec![method.into()] },
            property: false,
            makes,
        };
        program.classes.push(ClassInfo {
            statics_of: Some(0),
            functions: Some(vec![member("of", true), member("compare", false)]),
            ..ClassInfo::script("Tree (static)")
        });
        let returns = Returns::from_factories(&program);
        assert_eq!(returns.of(3, "of"), Some(0));
        assert_eq!(returns.of(3, "compare"), None);
        assert_eq!(returns.producers(0, &program), vec![(3, "of")]);
    }
}
