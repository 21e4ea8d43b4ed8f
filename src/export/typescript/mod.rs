//! TypeScript suites: for code under test written in TypeScript (`.ts`, `.mts`, `.cts`), a suite is a
//! `.test.ts` file that its runner runs as TypeScript (vitest natively, `node --import tsx --test`, jest with
//! `@swc/jest`, and Node's `--experimental-strip-types` where the code under test runs under it, or
//! `--experimental-transform-types` for its enums, namespaces and parameter properties) and that
//! `tsc --noEmit --strict` accepts, under the project's own configuration too: Node's built-ins are taken
//! in forms that need no `esModuleInterop`, and what a test does not read is named with a leading `_`
//! (`noUnusedParameters`).
//!
//! The suite loads fresh copies of the code under test per test, as JavaScript suites do (by path, from the
//! suite's folder), and takes the classes' types from the user's files through `import()` types written the
//! way the project writes its own relative imports ([`Specifiers`]): `./x.js` (the NodeNext convention),
//! `./x.ts` or `./x`. Everything in it is erasable syntax (annotations, `as`, type aliases, `declare`), so
//! that a runner that only strips types runs it.
//!
//! Type-checking is decided per statement ([`expression`]): a value built for a parameter whose declared
//! type it carries is written as it is; any other value carries `as any`; a call or construction whose
//! member is not known to be declared public, or whose argument count is not known to fit, is made on the
//! receiver or class cast to `any`. What is known to be declared is [`Declarations`], the seam through which
//! declared types reach suites; until it is filled, every value is cast.

mod loader;
mod project;

use std::collections::HashMap;

use super::loader::member;
use crate::js::literal;
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{CALL_ITSELF, Statement, TestCase, Value};

pub(super) use loader::write_loader;
pub(crate) use project::{Project, jest_config, vitest_notes};

pub(crate) use crate::model::program::is_typescript;

/// How a project's relative imports name its TypeScript files, which a suite's type imports follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Specifiers {
    /// `./heap.js` names `heap.ts` (the `NodeNext` convention; also what bundler resolution accepts): the
    /// default, as every module resolution but the classic ones accepts it.
    #[default]
    Js,
    /// `./heap.ts` (with `allowImportingTsExtensions`, or under Node's type stripping).
    Ts,
    /// `./heap` (bundler resolution).
    Extensionless,
}

impl Specifiers {
    /// The style most relative imports of `sources` (TypeScript texts) use; [`Specifiers::Js`] when they
    /// have none. Import and export declarations, `import()` and `require()` calls are counted by their
    /// string's text: a string that merely looks like one is rare enough not to sway a count.
    pub(crate) fn detect<'a>(sources: impl IntoIterator<Item = &'a str>) -> Specifiers {
        let mut counts = [0usize; 3];
        for source in sources {
            for specifier in relative_specifiers(source) {
                let file = specifier.rsplit('/').next().unwrap_or_default();
                let style = match file.rsplit_once('.').map(|(_, ext)| ext) {
                    Some("js" | "mjs" | "cjs" | "jsx") => Specifiers::Js,
                    Some("ts" | "mts" | "cts" | "tsx") => Specifiers::Ts,
                    // `./x.y` names a file `x.y.ts` extensionless, or a file of another kind (`.json`).
                    _ if file.contains('.') => continue,
                    _ => Specifiers::Extensionless,
                };
                counts[style as usize] += 1;
            }
        }
        let styles = [Specifiers::Js, Specifiers::Ts, Specifiers::Extensionless];
        let best = (0..3).max_by_key(|&i| (counts[i], std::cmp::Reverse(i))).unwrap_or(0);
        if counts[best] == 0 { Specifiers::Js } else { styles[best] }
    }

    /// The specifier of a TypeScript file at `relative` (a path relative to the suite's folder, `/`
    /// separated) in this style.
    pub(crate) fn specifier(self, relative: &str) -> String {
        let relative = if relative.starts_with("../") || relative.starts_with('/') || relative.contains(':') {
            relative.to_string()
        } else {
            format!("./{relative}")
        };
        let Some((stem, extension)) = relative.rsplit_once('.') else { return relative };
        match (self, extension) {
            (Specifiers::Ts, _) => relative.clone(),
            (Specifiers::Js, "ts") => format!("{stem}.js"),
            (Specifiers::Extensionless, "ts") => stem.to_string(),
            // `.mts`/`.cts` files are named by their output's extension in every other style.
            (_, "mts") => format!("{stem}.mjs"),
            (_, "cts") => format!("{stem}.cjs"),
            _ => relative.clone(),
        }
    }
}

/// The relative module specifiers (`./x`, `../y/z.js`) in a source text: the strings after `from`,
/// `import` (a side-effect import, or `import(`), and `require(`.
fn relative_specifiers(source: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for keyword in ["from", "import", "require("] {
        let mut rest = source;
        while let Some(at) = rest.find(keyword) {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + keyword.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
                continue;
            }
            let after = rest.trim_start().trim_start_matches('(').trim_start();
            let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else { continue };
            let Some(end) = after[1..].find(quote) else { continue };
            let specifier = &after[1..=end];
            if specifier.starts_with("./") || specifier.starts_with("../") {
                found.push(specifier);
            }
        }
    }
    found
}

/// What the TypeScript declarations of the code under test say about its members, as far as a suite's
/// casts need it: the seam through which declared parameter types reach TypeScript suites. A member that
/// is absent is not known to be callable as declared (a private, protected or overloaded method, an
/// abstract class's constructor, one assigned at run time, or any member of code without declarations):
/// it is called on its receiver cast to `any`. A member that is present is declared public, with its
/// parameters, each able to say whether a value carries its declared type.
#[derive(Debug, Default)]
pub(crate) struct Declarations {
    /// Per class and member (`None`: the constructor, or the factory that makes the class's instances).
    pub(crate) members: HashMap<(ClassId, Option<String>), DeclaredMember>,
    /// The enums whose members values of declared parameters are written as (`Color.Red`), bound in the
    /// suite as classes are.
    pub(crate) enums: Vec<EnumBinding>,
}

/// A constructor or method declared public with one signature.
#[derive(Debug)]
pub(crate) struct DeclaredMember {
    /// How many of its parameters a call must give (those before the first optional one).
    pub(crate) required: usize,
    /// Its parameters, before any rest parameter.
    pub(crate) params: Vec<Box<dyn DeclaredParam>>,
    /// What every argument past `params` is declared to be, when it has a rest parameter of an array type.
    pub(crate) rest: Option<Box<dyn DeclaredParam>>,
    /// Whether it has a rest parameter of a type not read (a tuple, `Parameters<typeof f>`, a generic):
    /// TypeScript checks a call's arguments against that type, so no count of them is known to fit.
    pub(crate) unread_rest: bool,
    /// The enums (indices in [`Declarations::enums`]) its parameters' values may be written with.
    pub(crate) enums: Vec<usize>,
    /// How many type parameters a call may give it (see [`type_arguments`]).
    pub(crate) generics: usize,
}

/// A declared parameter, as a suite writes the values given for it.
pub(crate) trait DeclaredParam: std::fmt::Debug {
    /// How `value` (an argument of `test`) is written so that it carries the parameter's declared type;
    /// `None` when it cannot be proved to (it is then cast to `any`).
    fn typed(&self, value: &Value, test: &TestCase, program: &ProgramInfo) -> Option<Typed>;
}

/// How a value that carries its declared type is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Typed {
    /// As JavaScript writes it.
    AsWritten,
    /// As JavaScript writes it, its callbacks' parameters annotated: the declared type gives them none (a
    /// union of several object or function types, whose signatures for the callback differ).
    Annotated,
    /// As this text: an enum's member (`Color.Red`), which TypeScript requires for a value of an enum type.
    As(String),
}

/// An enum a suite binds: under `alias`, export `export` of program file `file`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EnumBinding {
    /// The name tests use.
    pub(crate) alias: String,
    /// The program file exporting it.
    pub(crate) file: usize,
    /// Its export's name.
    pub(crate) export: String,
}

impl Declarations {
    /// `member` of `class` when it is declared callable and a call with `count` arguments fits its
    /// declared parameters (each required one given, no more than declared unless a rest parameter takes
    /// them).
    fn fitting(&self, class: ClassId, member: Option<&str>, count: usize) -> Option<&DeclaredMember> {
        let declared = self.members.get(&(class, member.map(str::to_string)))?;
        let fits = declared.required <= count && (count <= declared.params.len() || declared.rest.is_some());
        (fits && !declared.unread_rest).then_some(declared)
    }

    /// The enums the calls `used` (class and member, `None` the constructor) may write values with.
    pub(crate) fn enums_of<'a>(&self, used: impl IntoIterator<Item = (ClassId, Option<&'a str>)>) -> Vec<&EnumBinding> {
        let mut found: Vec<usize> = Vec::new();
        for (class, member) in used {
            for &e in self.members.get(&(class, member.map(str::to_string))).map_or(&[][..], |m| &m.enums) {
                if !found.contains(&e) {
                    found.push(e);
                }
            }
        }
        found.sort_unstable();
        found.iter().map(|&e| &self.enums[e]).collect()
    }
}

/// The TypeScript text of statement `index` of `test`, without a terminating `;`: as
/// [`TestCase::expression`] writes it, with the casts [`Declarations`] calls for.
pub(crate) fn expression(test: &TestCase, index: usize, program: &ProgramInfo, declared: &Declarations) -> String {
    match &test.statements[index] {
        Statement::Construct { class, args, .. } => {
            let info = &program.classes[*class];
            let member = declared.fitting(*class, None, args.len());
            let arguments = arguments(test, args, member, program);
            match (&info.factory, member) {
                (Some(factory), Some(m)) => format!("{}{}({arguments})", factory.alias, type_arguments(m, args)),
                (Some(factory), None) => format!("({} as any)({arguments})", factory.alias),
                (None, Some(m)) => format!("new {}{}({arguments})", info.alias, type_arguments(m, args)),
                (None, None) => format!("new ({} as any)({arguments})", info.alias),
            }
        }
        // Rebuilt from `Object.create`, which TypeScript types `any`.
        Statement::Rebuild { .. } => test.expression(index, program),
        // The function is a bound result, of type `any`: called as it is.
        Statement::Call { method, .. } if method == CALL_ITSELF => test.expression(index, program),
        Statement::Call { receiver, method, args, deferred, .. } => {
            let variable = &test.variables[*receiver];
            let class = variable.class;
            let declared = called(test, index, program, declared);
            // A static member not declared public is reached on its class cast to `any` (a private one is
            // no member of the class to TypeScript, cast or not); a static property is read, not called.
            let statics_of =
                program.classes[class].statics_of.map(|c| format!("({} as any)", program.classes[c].alias));
            if let Some(function) = program.classes[class].function(method).filter(|f| f.property) {
                return statics_of.as_ref().map_or_else(|| function.alias.clone(), |of| member(of, &function.method));
            }
            let callee = match (program.classes[class].function(method), declared, statics_of) {
                // A function of a module is called by the name the suite binds it to.
                (Some(function), Some(_), _) => function.alias.clone(),
                (Some(_), None, Some(of)) => member(&of, method),
                (Some(function), None, None) => format!("({} as any)", function.alias),
                (None, Some(_), _) => member(&variable.name, method),
                (None, None, _) => member(&format!("({} as any)", variable.name), method),
            };
            let generics = declared.map_or_else(String::new, |m| type_arguments(m, args));
            let call = format!("{callee}{generics}({})", arguments(test, args, declared, program));
            let asynchronous = program.classes[class].method(method).is_some_and(|m| m.asynchronous);
            if asynchronous && !deferred { format!("await {call}") } else { call }
        }
    }
}

/// Whether statement `index` of `test` is written typed (its member declared public, its arguments
/// fitting, and a method called on a typed receiver): a construction then gives a typed variable, and a
/// call a typed result. What a test reads of those by parts (fields, inspectors, members of results) is
/// read through `any`, as members may be declared private or protected, or results of a union type.
pub(crate) fn is_typed(test: &TestCase, index: usize, program: &ProgramInfo, declared: &Declarations) -> bool {
    match &test.statements[index] {
        Statement::Construct { class, args, .. } => declared.fitting(*class, None, args.len()).is_some(),
        Statement::Rebuild { .. } => false,
        Statement::Call { .. } => called(test, index, program, declared).is_some(),
    }
}

/// The declared member call statement `index` of `test` is typed by: none when the member is not
/// declared to fit, or when the method is called on an `any` receiver (a call's bound result, a rebuilt
/// instance, an instance of a class cast to `any`), which gives its arguments no types from their
/// context (their callbacks' parameters would be implicit `any`s, TS7006). A module's functions are
/// called by the names the suite binds, whatever their receiver.
fn called<'a>(
    test: &TestCase,
    index: usize,
    program: &ProgramInfo,
    declared: &'a Declarations,
) -> Option<&'a DeclaredMember> {
    let Statement::Call { receiver, method, args, .. } = &test.statements[index] else { return None };
    let class = test.variables[*receiver].class;
    let bound = program.classes[class].function(method).is_some();
    if !bound && !typed_variable(test, *receiver, declared) {
        return None;
    }
    declared.fitting(class, Some(method), args.len())
}

/// Whether `variable` has a declared type in the suite: it is made by a construction written typed. A
/// call's bound result is declared `any` (see [`declaration`]), and so is what `Object.create` makes.
fn typed_variable(test: &TestCase, variable: usize, declared: &Declarations) -> bool {
    test.statements.iter().any(|statement| match statement {
        Statement::Construct { class, args, .. } if statement.declared() == Some(variable) => {
            declared.fitting(*class, None, args.len()).is_some()
        }
        _ => false,
    })
}

/// How a test reads the state of `variable`: by its name when it is `any` already, else cast to `any`
/// (see [`is_typed`]).
pub(crate) fn state_reader(test: &TestCase, variable: usize, declared: &Declarations) -> String {
    let name = &test.variables[variable].name;
    if typed_variable(test, variable, declared) { format!("({name} as any)") } else { name.clone() }
}

/// `const name = ...` for a construction (or a rebuilt instance), the call expression otherwise: as
/// [`TestCase::declaration`] writes it, in TypeScript. A call's bound result is `any`: its class was seen
/// at run time, and the declared return type may say less (a union, `this`, an interface), so that
/// calling the class's methods on it would not type-check.
pub(crate) fn declaration(test: &TestCase, index: usize, program: &ProgramInfo, declared: &Declarations) -> String {
    let expression = expression(test, index, program, declared);
    match &test.statements[index] {
        Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. } => {
            format!("const {} = {expression}", test.variables[*variable].name)
        }
        Statement::Call { result: Some(variable), .. } => {
            format!("const {}: any = {expression}", test.variables[*variable].name)
        }
        // Read by the assertions at the test's end whatever its declared type.
        Statement::Call { deferred: true, .. } => {
            format!("const {}: any = {expression}", test.deferred_name(index, program))
        }
        Statement::Call { result: None, .. } => expression,
    }
}

/// The type arguments a call of `member` with `args` is written with: `<any, any>` for a generic one
/// given arguments, none otherwise. TypeScript would infer them from the arguments, as narrowly as they
/// are written: a construction's record of phrases makes its keys the only keys of every later call, and
/// a function returned where a string was inferred is refused (TS2322).
fn type_arguments(member: &DeclaredMember, args: &[Value]) -> String {
    if !given_type_arguments(member, args) {
        return String::new();
    }
    format!("<{}>", vec!["any"; member.generics].join(", "))
}

/// Whether a call of `member` with `args` is written with type arguments (see [`type_arguments`]). Its
/// arguments then get no types from their context: their callbacks' parameters are annotated.
fn given_type_arguments(member: &DeclaredMember, args: &[Value]) -> bool {
    member.generics > 0 && !args.is_empty()
}

/// Arguments of a call of `declared`, each as its parameter types it (see [`DeclaredParam::typed`]), else
/// cast to `any`; of a callee cast to `any` (no `declared`): as they are.
fn arguments(test: &TestCase, args: &[Value], declared: Option<&DeclaredMember>, program: &ProgramInfo) -> String {
    let contextual = !declared.is_some_and(|d| given_type_arguments(d, args));
    let texts: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let Some(param) = declared.and_then(|d| d.params.get(i).or(d.rest.as_ref())) else {
                return value_text(test, value, program, false);
            };
            match param.typed(value, test, program) {
                Some(Typed::AsWritten) => value_text(test, value, program, contextual),
                Some(Typed::Annotated) => value_text(test, value, program, false),
                Some(Typed::As(text)) => text,
                None => format!("{} as any", value_text(test, value, program, false)),
            }
        })
        .collect();
    texts.join(", ")
}

/// A value's text in TypeScript: JavaScript's, but a function handing out answers in turn names the type
/// of its parameter, which TypeScript would otherwise refuse as an implicit `any`, and so do the
/// parameters of callbacks unless the value is `typed` (its declared type gives them theirs).
fn value_text(test: &TestCase, value: &Value, program: &ProgramInfo, typed: bool) -> String {
    let text = test.annotated(value, program, Some(if typed { "" } else { ": any" }));
    if value_has_answers(value) { text.replace(ANSWERS_JS, ANSWERS_TS) } else { text }
}

/// How [`TestCase::value`] opens a [`Value::Answers`], and its typed form.
const ANSWERS_JS: &str = "(function (answers) {";
const ANSWERS_TS: &str = "(function (answers: unknown[]) {";

fn value_has_answers(value: &Value) -> bool {
    match value {
        Value::Answers(_) => true,
        other => other.inner().into_iter().any(value_has_answers),
    }
}

/// The name of the type alias of a bound class, `typeof` what the binding reaches: `<alias>Class`
/// (type aliases live apart from values, and no two aliases give the same name).
pub(super) fn class_type(alias: &str) -> String {
    format!("{alias}Class")
}

/// `typeof import("specifier")` followed by the properties of `path`, outermost first. Beyond the export
/// itself, properties are indexed: `typeof import("x").format.date` reads `format` as a namespace, and an
/// object typed `Record<string, …>` declares no member `date` (tsc: "has no exported member").
pub(super) fn import_type(specifier: &str, path: &[&str]) -> String {
    // The class of an exported instance, reached as `.constructor`, which TypeScript types as `Function`:
    // what builds more of that instance.
    if let Some((&"constructor", instance)) = path.split_last() {
        return format!("new (...args: any[]) => {}", import_type(specifier, instance));
    }
    let module = format!("typeof import({})", literal::string(specifier));
    if path.len() <= 1 && path.iter().all(|key| literal::is_identifier_name(key)) {
        path.iter().fold(module, |text, key| format!("{text}.{key}"))
    } else {
        path.iter().fold(format!("({module})"), |text, key| format!("{text}[{}]", literal::string(key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::program::{Access, ClassInfo, MethodInfo, Origin};
    use crate::model::test::Variable;

    /// A program of one class, `Shelf(size)` with `put(item, count)`, and a test that builds one and
    /// calls `put` with an options object and a number, then with a function handing out answers.
    fn shelf_test() -> (ProgramInfo, TestCase) {
        let method = |name: &str, params: &[&str]| {
            MethodInfo::bare(name, params.iter().map(|p| p.to_string()).collect(), Origin::Prototype)
        };
        let class = ClassInfo {
            access: Access::EsModule { file: 0, export: "Shelf".into(), path: Vec::new() },
            constructor: method("constructor", &["size"]),
            methods: vec![method("put", &["item", "count"])],
            ..ClassInfo::script("Shelf")
        };
        let program = ProgramInfo { classes: vec![class], ..Default::default() };
        let put = |args: Vec<Value>| Statement::call(0, "put", args, true);
        let test = TestCase {
            class: 0,
            method: "put".into(),
            variables: vec![Variable { class: 0, name: "shelf".into() }],
            statements: vec![
                Statement::Construct { variable: 0, class: 0, args: vec![Value::Number(3.0)] },
                put(vec![Value::object(vec![("id".into(), Value::Number(1.0))]), Value::Number(2.0)]),
                put(vec![Value::Answers(vec![Value::Number(1.0)])]),
            ],
        };
        (program, test)
    }

    /// A parameter whose values carry its type, or do not, whatever they are.
    #[derive(Debug)]
    struct Carries(bool);

    impl DeclaredParam for Carries {
        fn typed(&self, _: &Value, _: &TestCase, _: &ProgramInfo) -> Option<Typed> {
            self.0.then_some(Typed::AsWritten)
        }
    }

    #[test]
    fn what_is_not_declared_is_cast_and_what_is_declared_is_not() {
        let (program, test) = shelf_test();
        let nothing = Declarations::default();
        let lines: Vec<String> = (0..3).map(|i| declaration(&test, i, &program, &nothing)).collect();
        assert_eq!(lines[0], "const shelf = new (Shelf as any)(3)");
        assert_eq!(lines[1], "(shelf as any).put({ id: 1 }, 2)");
        assert!(lines[2].starts_with("(shelf as any).put((function (answers: unknown[]) {"), "{}", lines[2]);

        let mut declared = Declarations::default();
        let param = |carries: bool| Box::new(Carries(carries)) as Box<dyn DeclaredParam>;
        let member = |params: Vec<Box<dyn DeclaredParam>>| DeclaredMember {
            required: params.len(),
            params,
            rest: None,
            unread_rest: false,
            enums: Vec::new(),
            generics: 0,
        };
        declared.members.insert((0, None), member(vec![param(true)]));
        declared.members.insert((0, Some("put".into())), member(vec![param(false), param(true)]));
        let lines: Vec<String> = (0..3).map(|i| declaration(&test, i, &program, &declared)).collect();
        assert_eq!(lines[0], "const shelf = new Shelf(3)");
        assert_eq!(lines[1], "shelf.put({ id: 1 } as any, 2)", "the object is not built for its declared type");
        assert!(lines[2].starts_with("(shelf as any).put("), "one argument of two: {}", lines[2]);
        assert_eq!(state_reader(&test, 0, &declared), "(shelf as any)", "a typed instance's state is read as any");
        assert_eq!(state_reader(&test, 0, &nothing), "shelf");
        assert!(is_typed(&test, 1, &program, &declared));
        assert!(!is_typed(&test, 2, &program, &declared) && !is_typed(&test, 1, &program, &nothing));

        // A method declared, called on an instance of a class whose constructor is not: the receiver is
        // `any`, which types no argument (a callback's parameters would be implicit `any`s).
        declared.members.remove(&(0, None));
        declared.members.insert((0, Some("put".into())), member(vec![param(true), param(true)]));
        assert_eq!(declaration(&test, 1, &program, &declared), "(shelf as any).put({ id: 1 }, 2)");
        assert!(!is_typed(&test, 1, &program, &declared));
    }

    #[test]
    fn maps_of_entries_of_several_kinds_are_maps_of_any() {
        // TypeScript infers a map's types from its first entry and refuses the entries that differ.
        let (program, test) = shelf_test();
        let map = |entries: Vec<(Value, Value)>| value_text(&test, &Value::Map(entries), &program, false);
        let (n, s) = (|x: f64| Value::Number(x), |x: &str| Value::String(x.into()));
        assert_eq!(map(vec![(n(0.0), n(1.0)), (n(2.0), n(3.0))]), "new Map([[0, 1], [2, 3]])");
        assert_eq!(map(vec![(n(0.0), n(1.0)), (n(2.0), s("n"))]), "new Map<any, any>([[0, 1], [2, \"n\"]])");
        assert_eq!(
            map(vec![(n(0.0), n(1.0)), (Value::Boolean(true), n(3.0))]),
            "new Map<any, any>([[0, 1], [true, 3]])"
        );
        assert_eq!(map(vec![(s("a"), Value::Array(vec![]))]), "new Map<any, any>([[\"a\", []]])");
        assert_eq!(
            test.value(&Value::Map(vec![(n(0.0), n(1.0)), (n(2.0), s("n"))]), &program),
            "new Map([[0, 1], [2, \"n\"]])"
        );
    }

    #[test]
    fn the_style_of_most_relative_imports_wins() {
        let nodenext =
            "import { Heap } from './heap.js';\nimport type { T } from \"../types.js\";\nimport x from 'lodash';";
        assert_eq!(Specifiers::detect([nodenext]), Specifiers::Js);
        let bundler = "export * from './a';\nconst b = await import('./b');\nimport './c.js';";
        assert_eq!(Specifiers::detect([bundler]), Specifiers::Extensionless);
        assert_eq!(
            Specifiers::detect(["import { a } from './a.ts';", "import b = require('./b.ts');"]),
            Specifiers::Ts
        );
        assert_eq!(Specifiers::detect(["import data from './data.json';"]), Specifiers::Js, "no evidence");
        assert_eq!(Specifiers::detect(["const information = 1; reimport('./x');"]), Specifiers::Js);
    }

    #[test]
    fn specifiers_name_typescript_files_in_each_style() {
        assert_eq!(Specifiers::Js.specifier("../src/heap.ts"), "../src/heap.js");
        assert_eq!(Specifiers::Js.specifier("heap.mts"), "./heap.mjs");
        assert_eq!(Specifiers::Ts.specifier("heap.cts"), "./heap.cts");
        assert_eq!(Specifiers::Extensionless.specifier("../heap.ts"), "../heap");
        assert_eq!(Specifiers::Extensionless.specifier("../heap.cts"), "../heap.cjs");
    }

    #[test]
    fn import_types_reach_nested_and_awkward_names() {
        assert_eq!(import_type("./a.js", &["Heap"]), "typeof import(\"./a.js\").Heap");
        assert_eq!(
            import_type("./a.js", &["default", "odd-name"]),
            "(typeof import(\"./a.js\"))[\"default\"][\"odd-name\"]"
        );
        assert_eq!(import_type("./a.js", &["format", "date"]), "(typeof import(\"./a.js\"))[\"format\"][\"date\"]");
        assert_eq!(
            import_type("./a.js", &["default", "constructor"]),
            "new (...args: any[]) => typeof import(\"./a.js\").default"
        );
    }
}
