//! Finding the classes of the program: load it, then walk what it defines.
//!
//! Walking live values rather than only the syntax tree finds every way JavaScript defines a class:
//! `class` bodies with `extends`, constructor functions with prototype methods, prototypes assigned
//! whole, methods added in loops or behind feature checks, methods defined on `this` by the
//! constructor (found by building one instance with inert arguments), classes under namespace objects,
//! and everything a module exports or re-exports. The syntax tree supplies what the values cannot:
//! the names of top-level `class`/`let`/`const` bindings of scripts, and parameter names.

mod abstract_bases;
mod functions;
mod statics;
mod twin_factories;
mod unexported_bases;

use std::collections::BTreeSet;

use crate::analysis::arity::{self, Arity, arity_of};
use crate::analysis::fields::{self, ThisFields, fields_of_function};
use crate::analysis::files::{SourceEntry, reached_type_reexports};
use crate::analysis::state::lexical_globals;
use crate::error::{Error, Result};
use crate::instrument::Function;
use crate::js::{BASELINE, MODULE_FUNCTIONS, NAMESPACES, REQUIRE, VIA_FACTORY};
use crate::model::program::ModuleKind;
use crate::model::program::{Access, ClassInfo, Factory, FileInfo, FunctionRef, MethodInfo, Origin, ProgramInfo};
use crate::sandbox::{CodeBase, FoundClass, FoundMembers, FoundMethod, Sandbox};

/// How deep discovery walks namespace objects (`Geo.Shapes.Rect` is three levels below the globals).
const NAMESPACE_DEPTH: usize = 4;

/// Where a discovery root comes from, and how a path below it becomes an [`Access`].
enum Root {
    /// The globals a script defined (a synthetic object keyed by global name), or a namespace in them.
    Script { prefix: Vec<String> },
    /// `module.exports` of a CommonJS file, or a namespace in it.
    CommonJs { file: usize, prefix: Vec<String> },
    /// The namespace object of an ES module, or a namespace in one of its exports.
    EsModule { file: usize, prefix: Vec<String> },
}

impl Root {
    fn access(&self, path: &[String]) -> Access {
        let full = |prefix: &[String]| prefix.iter().chain(path).cloned().collect::<Vec<_>>();
        match self {
            Root::Script { prefix } => Access::Script { expression: full(prefix).join(".") },
            Root::CommonJs { file, prefix } => Access::CommonJs { file: *file, path: full(prefix) },
            Root::EsModule { file, prefix } => {
                let mut all = full(prefix);
                let export = if all.is_empty() { "default".to_string() } else { all.remove(0) };
                Access::EsModule { file: *file, export, path: all }
            }
        }
    }

    fn file(&self) -> Option<usize> {
        match self {
            Root::Script { .. } => None,
            Root::CommonJs { file, .. } | Root::EsModule { file, .. } => Some(*file),
        }
    }
}

/// The JavaScript expression that reaches a class inside the sandbox.
pub fn sandbox_expression(access: &Access) -> String {
    let properties = |path: &[String]| path.iter().map(|p| format!("[{}]", json_string(p))).collect::<String>();
    match access {
        Access::Script { expression } => format!("({expression})"),
        Access::CommonJs { file, path } => format!("{REQUIRE}({file}){}", properties(path)),
        Access::EsModule { file, export, path } => {
            format!("{NAMESPACES}[{file}][{}]{}", json_string(export), properties(path))
        }
    }
}

/// What the sandbox's class table holds for `class`: the class, for one a factory makes, a constructor
/// that calls the factory (see [`crate::js::VIA_FACTORY`]), and for a module of functions, a constructor
/// of the object its tests call the functions on (see [`crate::js::MODULE_FUNCTIONS`]).
pub(crate) fn bound_expression(class: &ClassInfo) -> String {
    if let Some(functions) = &class.functions {
        // A module of functions: a constructor of the object its tests call the functions on. Static
        // members are called on their class, and a property is read when called, never at binding.
        let names: Vec<String> = functions.iter().map(|f| json_string(&f.method)).collect();
        let reached: Vec<String> = functions
            .iter()
            .map(|f| if f.property { "undefined".to_string() } else { sandbox_expression(&f.access) })
            .collect();
        let properties: Vec<&str> = functions.iter().map(|f| if f.property { "true" } else { "false" }).collect();
        let holder = if class.statics_of.is_some() { sandbox_expression(&class.access) } else { "undefined".into() };
        return format!(
            "{MODULE_FUNCTIONS}([{}], [{}], {holder}, [{}])",
            names.join(", "),
            reached.join(", "),
            properties.join(", ")
        );
    }
    match &class.factory {
        Some(factory) => {
            format!("{VIA_FACTORY}({}, {}, {})", sandbox_expression(&class.access), factory.sample, factory.plain)
        }
        None => sandbox_expression(&class.access),
    }
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// Builds the [`ProgramInfo`] of a loaded program. `namespace` (a dotted path) restricts discovery to
/// the classes under that object.
pub(crate) fn analyse(code: &CodeBase, sandbox: &mut Sandbox, namespace: Option<&str>) -> Result<ProgramInfo> {
    let namespace_path: Vec<String> = namespace.map(|n| n.split('.').map(str::to_string).collect()).unwrap_or_default();
    if namespace_path.iter().any(|p| !is_identifier(p)) {
        return Err(Error::Usage(format!(
            "--namespace '{}' is not a dotted path of identifiers",
            namespace.unwrap_or("")
        )));
    }
    let (roots, expressions) = discovery_roots(code, &namespace_path);
    let found = sandbox.discover(&expressions, NAMESPACE_DEPTH)?;
    let entries: Vec<&SourceEntry> = code.files.iter().map(|f| &f.entry).collect();
    let files = code
        .files
        .iter()
        .zip(reached_type_reexports(&entries))
        .map(|(f, type_reexports)| FileInfo {
            path: f.entry.parsed.path.clone(),
            display: f.entry.parsed.display.clone(),
            kind: f.entry.parsed.kind,
            given: f.entry.given,
            type_reexports,
        })
        .collect();
    let mut program = ProgramInfo { files, classes: Vec::new(), absent_at_load: Vec::new() };
    let mut aliases = BTreeSet::new();
    let this_fields: Vec<Vec<ThisFields>> = code
        .files
        .iter()
        .map(|f| fields::this_fields(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0))
        .collect();
    let arities: Vec<Vec<Arity>> =
        code.files.iter().map(|f| arity::arities(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    let syntax = Syntax { this_fields: &this_fields, arities: &arities };
    for class in &found.classes {
        program.classes.push(class_info(code, &syntax, &roots, class, &mut aliases));
    }
    // A twin's names are free again: its factory is called by its own name as a function of its module.
    for twin in twin_factories::take_twins(&mut program.classes) {
        aliases.remove(&twin.alias);
        if let Some(factory) = twin.factory {
            aliases.remove(&factory.alias);
        }
    }
    // Classes first, then the modules of functions.
    let mut names: BTreeSet<String> = program.classes.iter().map(|c| c.name.clone()).collect();
    let factories: Vec<(Access, String)> = program
        .classes
        .iter()
        .filter_map(|c| c.factory.as_ref().filter(|f| f.plain).map(|f| (c.access.clone(), f.alias.clone())))
        .collect();
    program.classes.extend(functions::module_units(
        code,
        &syntax,
        &roots,
        &found.functions,
        &mut names,
        &mut aliases,
        &factories,
    ));
    // Then the static members of the classes, called on their class.
    let statics = statics::static_units(code, &syntax, &program.classes, &found.classes, &mut names, &mut aliases);
    program.classes.extend(statics);
    if program.classes.is_empty() {
        return Err(Error::NoClass { message: nothing_found_message(code, namespace) });
    }
    inherit_constructors(&mut program);
    abstract_bases::choose_concrete_subclasses(code, &mut program);
    unexported_bases::adopt_their_methods(&mut program);
    let expressions: Vec<String> = program.classes.iter().map(bound_expression).collect();
    sandbox.bind_classes(&expressions)?;
    Ok(program)
}

/// What the syntax trees of the files tell about their functions, by file.
struct Syntax<'a> {
    this_fields: &'a [Vec<ThisFields>],
    arities: &'a [Vec<Arity>],
}

fn discovery_roots(code: &CodeBase, namespace: &[String]) -> (Vec<Root>, Vec<String>) {
    let mut roots = Vec::new();
    let mut expressions = Vec::new();
    let below = |base: String| namespace.iter().fold(base, |e, p| format!("{e}[{}]", json_string(p)));
    let scripts: Vec<_> =
        code.files.iter().filter(|f| f.entry.given && f.entry.parsed.kind == ModuleKind::Script).collect();
    if !scripts.is_empty() {
        let lexical: BTreeSet<String> = scripts.iter().flat_map(|f| lexical_globals(&f.entry.parsed.program)).collect();
        // An object keyed by every global the scripts defined: new properties of the global object, and
        // top-level `class`/`let`/`const` bindings, which are globals without being properties.
        let globals = format!(
            "(function () {{ var o = {{}}; Object.getOwnPropertyNames(globalThis).forEach(function (n) {{ \
             if (!{BASELINE}.has(n)) o[n] = globalThis[n]; }}); {} return o; }})()",
            lexical
                .iter()
                .map(|n| format!("try {{ o[{0}] = {1}; }} catch (e) {{}}", json_string(n), n))
                .collect::<String>()
        );
        roots.push(Root::Script { prefix: namespace.to_vec() });
        expressions.push(below(globals));
    }
    for (index, file) in code.files.iter().enumerate().filter(|(_, f)| f.entry.given) {
        match file.entry.parsed.kind {
            ModuleKind::CommonJs => {
                roots.push(Root::CommonJs { file: index, prefix: namespace.to_vec() });
                expressions.push(below(format!("{REQUIRE}({index})")));
            }
            ModuleKind::EsModule => {
                roots.push(Root::EsModule { file: index, prefix: namespace.to_vec() });
                expressions.push(below(format!("{NAMESPACES}[{index}]")));
            }
            ModuleKind::Script => {}
        }
    }
    (roots, expressions)
}

/// The dotted path a class is exported under, which names it; empty where the class names itself.
fn display_path(access: &Access) -> String {
    let path = match access {
        Access::Script { expression } => expression.clone(),
        Access::CommonJs { path, .. } | Access::EsModule { path, .. } if !path.is_empty() => path.join("."),
        Access::EsModule { export, .. } => export.clone(),
        Access::CommonJs { .. } => String::new(),
    };
    // `export default class Queue` and Babel's `exports.default = Queue` name the export, not the class,
    // and the class of an exported instance (reached as `.constructor`) is named by itself.
    match path.rsplit('.').next() {
        Some("default" | "constructor") => String::new(),
        _ => path,
    }
}

fn class_info(
    code: &CodeBase,
    syntax: &Syntax,
    roots: &[Root],
    found: &FoundClass,
    aliases: &mut BTreeSet<String>,
) -> ClassInfo {
    let root_index = found.path.first().and_then(|v| v.as_u64()).unwrap_or(0) as usize;
    let path: Vec<String> = found.path.iter().skip(1).filter_map(|v| v.as_str().map(str::to_string)).collect();
    let root = &roots[root_index.min(roots.len() - 1)];
    let access = root.access(&path);
    let display_path = display_path(&access);
    let info = &found.info;
    let outermost = outermost_functions(code, &info.probes);
    let constructor = match &found.factory {
        // Tests make the instances of a factory's class by calling the factory, with its parameters.
        Some(factory) => {
            let located = outermost_functions(code, &factory.probes).first().copied();
            method_info(syntax, "constructor", located, factory.length, Origin::Prototype)
        }
        None => constructor_of(syntax, info, &outermost),
    };
    let file = constructor
        .function
        .as_ref()
        .map(|f| f.file)
        .or_else(|| outermost.first().map(|(file, _)| *file))
        .or_else(|| root.file())
        .unwrap_or_else(|| code.files.iter().position(|f| f.entry.given).unwrap_or(0));
    let stem = || code.files[file].entry.parsed.path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let mut made_name = None;
    let factory = found.factory.as_ref().map(|factory| {
        // Named by where the module exports it, else by its own name.
        let name = [display_path.as_str(), factory.name.as_str()].into_iter().find(|n| !n.is_empty());
        let name = name.map(str::to_string).or_else(stem).unwrap_or_default();
        if factory.plain {
            made_name = Some(made_object_name(&name));
        }
        Factory { alias: unique_alias(&name, aliases), sample: factory.kind, plain: factory.plain }
    });
    // A factory's class is named by itself: the path names the factory.
    let display_path = if factory.is_some() { String::new() } else { display_path };
    let name = if let Some(made) = made_name {
        made
    } else if !display_path.is_empty() {
        display_path
    } else if !info.name.is_empty() {
        info.name.clone()
    } else {
        stem().unwrap_or_default()
    };
    let alias = unique_alias(&name, aliases);
    let mut methods: Vec<MethodInfo> = Vec::new();
    let add = |m: &FoundMethod, origin: Origin, methods: &mut Vec<MethodInfo>| {
        let located = outermost_functions(code, &m.probes).first().copied();
        // Methods inherited from Node's built-in modules (`EventEmitter`'s `on`, `emit`...) are left out like
        // those of native parents such as `Map`: they are not the code under test.
        let built_in = located.is_some_and(|(file, _)| code.files[file].entry.builtin);
        if !built_in && !methods.iter().any(|existing| existing.name == m.name) {
            let mut method = method_info(syntax, &m.name, located, m.length, origin);
            method.alias_of = m.alias.clone();
            methods.push(method);
        }
    };
    for m in info.methods.iter().filter(|m| m.depth == 0) {
        add(m, Origin::Prototype, &mut methods);
    }
    for m in &info.own {
        // A factory's object may mix in another package's functions (an event emitter's `on`): like methods
        // inherited from a class outside the files under test, they are not tested. Its closures are in the
        // factory's own file, which the user may reach only through re-exports (an index file's
        // `export { createStore } from './createStore'`): they are its methods.
        let mixed_in = factory.as_ref().is_some_and(|f| f.plain)
            && outermost_functions(code, &m.probes)
                .first()
                .is_some_and(|(at, _)| *at != file && !code.files[*at].entry.given);
        add(m, if mixed_in { Origin::Inherited } else { Origin::Constructor }, &mut methods);
    }
    for m in info.methods.iter().filter(|m| m.depth > 0) {
        add(m, Origin::Inherited, &mut methods);
    }
    // Fields: those of an instance built at discovery, accessors, and every `this.x =` in the code of
    // the constructor and the methods (constructors that reject inert arguments assign nothing).
    let mut names: BTreeSet<String> = info.fields.iter().chain(&info.accessors).cloned().collect();
    let mut own_code = outermost.clone();
    for m in info.methods.iter().chain(&info.own) {
        own_code.extend(
            outermost_functions(code, &m.probes).into_iter().filter(|(file, _)| !code.files[*file].entry.builtin),
        );
    }
    for (file, function) in own_code {
        names.extend(fields_of_function(&syntax.this_fields[file], function.start, function.end));
    }
    let fields = names.into_iter().filter(|n| !methods.iter().any(|m| &m.name == n)).collect();
    ClassInfo {
        name,
        alias,
        file,
        access,
        superclass: usize::try_from(found.parent).ok(),
        constructor,
        methods,
        fields,
        under_test: true,
        factory,
        functions: None,
        statics_of: None,
        concrete: Vec::new(),
        declared_private: Vec::new(),
    }
}

/// The constructor of a class found on the walk: its own (`class`'s `constructor` member, or the function
/// itself), or for a `class` without one, its parent's (filled in by [`inherit_constructors`]).
fn constructor_of(syntax: &Syntax, info: &FoundMembers, outermost: &[(usize, &Function)]) -> MethodInfo {
    if !info.is_class {
        return method_info(syntax, "constructor", outermost.first().copied(), info.length, Origin::Prototype);
    }
    match outermost.iter().find(|(_, f)| f.name.as_deref() == Some("constructor")) {
        Some(found) => method_info(syntax, "constructor", Some(*found), info.length, Origin::Prototype),
        None => MethodInfo::bare("constructor", Vec::new(), Origin::Inherited),
    }
}

/// The functions whose code holds `probes` (the probes found in a function's text), outermost only: the
/// function itself (not a callback or a default parameter value inside it), or a `class`'s members.
fn outermost_functions<'a>(code: &'a CodeBase, probes: &[u32]) -> Vec<(usize, &'a Function)> {
    let mut functions: Vec<(usize, &Function)> =
        probes.iter().filter_map(|id| code.function_of_statement(*id)).collect();
    functions.dedup_by_key(|(file, f)| (*file, f.start, f.end));
    let inside = |(file, f): &(usize, &Function), (other_file, g): &(usize, &Function)| {
        file == other_file && g.start <= f.start && f.end <= g.end && (g.start, g.end) != (f.start, f.end)
    };
    functions.iter().filter(|f| !functions.iter().any(|g| inside(f, g))).copied().collect()
}

/// Classes without a constructor of their own are built with their parent's arguments.
fn inherit_constructors(program: &mut ProgramInfo) {
    for _ in 0..program.classes.len() {
        let mut changed = false;
        for index in 0..program.classes.len() {
            let class = &program.classes[index];
            if class.constructor.origin != Origin::Inherited {
                continue;
            }
            if let Some(parent) =
                class.superclass.filter(|p| program.classes[*p].constructor.origin != Origin::Inherited)
            {
                let inherited = program.classes[parent].constructor.clone();
                let constructor = &mut program.classes[index].constructor;
                constructor.params = inherited.params;
                constructor.optional_from = inherited.optional_from;
                constructor.variadic = inherited.variadic;
                constructor.origin = Origin::Prototype;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

fn method_info(
    syntax: &Syntax,
    name: &str,
    located: Option<(usize, &Function)>,
    length: usize,
    origin: Origin,
) -> MethodInfo {
    let (params, function, arity) = match located {
        Some((file, f)) => (
            f.params.clone(),
            Some(FunctionRef {
                file,
                line: f.line,
                name: f.name.clone(),
                statements: f.statements.clone(),
                branches: f.branches.clone(),
            }),
            arity_of(&syntax.arities[file], f.start, f.end),
        ),
        None => ((0..length).map(|i| format!("arg{i}")).collect(), None, Arity::default()),
    };
    MethodInfo {
        name: name.to_string(),
        params,
        function,
        origin,
        alias_of: None,
        optional_from: arity.optional_from,
        variadic: arity.variadic,
        asynchronous: false,
        returned_asynchronous: false,
        stalls: false,
    }
}

/// The name of what a factory of plain objects makes: the noun after a verb of making (`createGraph`
/// makes a `Graph`), else the factory's own name with `Object` (`mitt` makes a `mittObject`), so that the
/// unit, its variables and the factory each have a name of their own.
fn made_object_name(factory: &str) -> String {
    let last = factory.rsplit('.').next().unwrap_or(factory);
    for verb in ["create", "make", "build", "new"] {
        if let Some(noun) = last.strip_prefix(verb).filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase())) {
            return noun.to_string();
        }
    }
    format!("{last}Object")
}

fn unique_alias(name: &str, taken: &mut BTreeSet<String>) -> String {
    let last = name.rsplit('.').next().unwrap_or(name);
    let mut base: String =
        last.chars().map(|c| if c.is_alphanumeric() || c == '_' || c == '$' { c } else { '_' }).collect();
    if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
        base.insert(0, '_');
    }
    if crate::js::literal::is_reserved(&base) {
        base.push_str("Class");
    }
    let mut alias = base.clone();
    let mut n = 2;
    while !taken.insert(alias.clone()) {
        alias = format!("{base}{n}");
        n += 1;
    }
    alias
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

fn nothing_found_message(code: &CodeBase, namespace: Option<&str>) -> String {
    let files: Vec<&str> =
        code.files.iter().filter(|f| f.entry.given).map(|f| f.entry.parsed.display.as_str()).collect();
    let mut defined: Vec<String> = Vec::new();
    for f in code.files.iter().filter(|f| f.entry.given) {
        defined.extend(f.instrumented.functions.iter().filter_map(|func| func.name.clone()));
    }
    defined.sort();
    defined.dedup();
    let place = namespace.map(|n| format!(" under namespace '{n}'")).unwrap_or_default();
    let what =
        if defined.is_empty() { "no functions".to_string() } else { format!("only functions: {}", defined.join(", ")) };
    format!(
        "{}{place} defines no class (a `class`, or a constructor function with prototype methods) and exports no \
         function of its own; found {what}",
        files.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::made_object_name;

    #[test]
    fn what_a_factory_of_plain_objects_makes_is_named_by_its_noun() {
        assert_eq!(made_object_name("createGraph"), "Graph");
        assert_eq!(made_object_name("makeStore"), "Store");
        assert_eq!(made_object_name("Geo.buildShape"), "Shape");
        // No verb of making: the factory's name, told apart from the factory's own binding.
        assert_eq!(made_object_name("mitt"), "mittObject");
        assert_eq!(made_object_name("creator"), "creatorObject");
    }
}
