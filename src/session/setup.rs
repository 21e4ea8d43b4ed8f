//! Preparing a run once the program is loaded: which classes and methods are under test, the constants
//! each method's guided inputs mine, the statements its branch outcomes guard, and the `typeof` checks
//! of every parameter.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::analysis::constants::{Constant, Literals};
use crate::analysis::copies::{CopyFlows, View, copies_and_reads};
use crate::analysis::declared::{Declarations, lookup_of};
use crate::analysis::shapes::members_passed;
use crate::analysis::tables::Tables;
use crate::analysis::typeofs::{
    Alias, NamedCall, TypeofCheck, checks_passed_on, checks_through_aliases, flows, hidden_within, typeof_checks,
};
use crate::error::{Error, Result};
use crate::generate::guided::ConstantPool;
use crate::generate::search::Archive;
use crate::inference::{ParamKey, TypeTable};
use crate::instrument::{Branch, Function};
use crate::model::program::{CONSTRUCTOR, ClassId, ClassInfo, FunctionRef, MethodInfo, Origin, ProgramInfo};
use crate::sandbox::{CodeBase, Watch};

use super::MethodState;

pub(super) fn select_classes(program: &mut ProgramInfo, wanted: &[String]) -> Result<()> {
    if wanted.is_empty() {
        return Ok(());
    }
    for name in wanted {
        if program.class_named(name).is_none() {
            return Err(Error::Unknown {
                what: "class",
                name: name.clone(),
                candidates: program.classes.iter().map(|c| c.name.clone()).collect(),
            });
        }
    }
    let chosen = |class: &ClassInfo| wanted.iter().any(|w| *w == class.name || *w == class.alias);
    let selected: Vec<bool> = program
        .classes
        .iter()
        // A class chosen brings its static members along.
        .map(|c| chosen(c) || c.statics_of.is_some_and(|of| chosen(&program.classes[of])))
        .collect();
    for (class, selected) in program.classes.iter_mut().zip(selected) {
        class.under_test = selected;
    }
    Ok(())
}

pub(super) fn methods_under_test(program: &ProgramInfo, method: Option<&str>) -> Result<Vec<MethodState>> {
    let mut methods = Vec::new();
    let mut constructions_only = Vec::new();
    for (class, info) in program.classes.iter().enumerate().filter(|(_, c)| c.under_test) {
        // An alias (`abs` and `absoluteValue` being one function object) is tested once, under its first
        // name; closures made from one function expression in a loop are distinct methods. A private
        // method (`_sortNodeUp`, or declared `private`) is tested through the public ones that call it,
        // as a user would, unless it is asked for by name or the class has nothing public to call.
        let callable: Vec<&MethodInfo> = info.methods_to_call().map(|(_, m)| m).collect();
        let tested = |m: &MethodInfo| match method {
            Some(wanted) => wanted == m.name,
            None => callable.iter().any(|c| c.name == m.name),
        };
        let count = methods.len();
        for m in info.own_methods().filter(|m| m.alias_of.is_none() && tested(m)) {
            methods.push(MethodState::new(class, m.name.clone(), m.function.clone()));
        }
        // A constructor that does the work (parses or validates what it is given) is a goal of its own,
        // before the methods, unless one method was asked for: tests of the methods reach its code only
        // by chance, building their receivers. Only a class its users build by `new` qualifies: a module
        // of functions is built by nothing, an abstract base by its subclasses, and what a factory makes
        // by the factory, whose own goal holds the construction (see `helpers.rs`).
        let built_by_new = !info.is_module() && info.concrete.is_empty() && info.factory.is_none();
        let construction = info.constructor.function.as_ref().filter(|f| !f.statements.is_empty());
        if let Some(function) = construction.filter(|_| method.is_none() && methods.len() > count && built_by_new) {
            methods.insert(count, MethodState::new(class, CONSTRUCTOR.to_string(), Some(function.clone())));
        }
        // A class with nothing of its own to call (a record, a value object, an options holder, an error
        // with fields) is tested by how it is built: its tests construct it and assert the public state
        // the construction left (its fields, its getters), as users read it. After the classes with
        // methods, where the behaviour is: the explorer opens on the first goal, and a list's `Node`
        // record is no reason to open on it.
        if method.is_none()
            && methods.len() == count
            && built_by_new
            && (construction.is_some() || !info.fields.is_empty())
        {
            constructions_only.push(MethodState::new(
                class,
                CONSTRUCTOR.to_string(),
                info.constructor.function.clone(),
            ));
        }
    }
    methods.extend(constructions_only);
    if let Some(wanted) = method
        && methods.is_empty()
    {
        let candidates = program
            .classes
            .iter()
            .filter(|c| c.under_test)
            .flat_map(|c| {
                c.methods
                    .iter()
                    .filter(|m| m.origin != Origin::Inherited)
                    .map(move |m| format!("{}.{}", c.name, m.name))
            })
            .collect();
        return Err(Error::Unknown { what: "method", name: wanted.to_string(), candidates });
    }
    if methods.is_empty() {
        return Err(Error::NoClass {
            message: format!(
                "the classes selected have nothing to test: {} (no method, and no constructor code, field or \
                 getter to test how an instance is built); select classes with --class, or pass the files that \
                 define their methods",
                program.classes.iter().filter(|c| c.under_test).map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
            ),
        });
    }
    Ok(methods)
}

/// Leaves out the constructors under test whose code, with what it reaches, has no branch: any test
/// building an instance covers it, and a goal of its own would only spend a budget. The goal of a class
/// with nothing else to test stays: its tests are the only ones that build it.
pub(super) fn drop_straight_constructors(methods: &mut Vec<MethodState>) {
    let with_methods: Vec<ClassId> = methods.iter().filter(|m| m.method != CONSTRUCTOR).map(|m| m.class).collect();
    methods.retain(|m| m.method != CONSTRUCTOR || !m.branches.is_empty() || !with_methods.contains(&m.class));
}

/// Leaves out the constructors under test that the class's declarations keep from its users (`private
/// constructor`, found as [`record_declared_types`] finds signatures): they build it through what the
/// class offers instead (`Money.parse`), so that a goal of its own would test arguments no caller can
/// pass, in suites that do not type-check.
pub(super) fn drop_hidden_constructors(
    declarations: &mut Declarations,
    program: &ProgramInfo,
    methods: &mut Vec<MethodState>,
) {
    methods.retain(|m| {
        m.method != CONSTRUCTOR
            || declarations.member_of(program, &program.classes[m.class], CONSTRUCTOR).is_none_or(|d| d.public)
    });
}

/// Gives each method under test the constants of its own code (counted twice: they matter most) and of
/// its class's constructor and methods, the keys of the tables its code looks names up in (see
/// [`crate::analysis::tables`]), and the string literals of each condition guarding one of its statements
/// (see [`ConstantPool::aiming_at`]).
pub(super) fn mine_constants(code: &CodeBase, program: &ProgramInfo, methods: &mut [MethodState]) {
    let literals: Vec<Literals> =
        code.files.iter().map(|f| Literals::mine(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    let range_of = |function: &FunctionRef| {
        code.function_of_statement(function.statements.start).filter(|_| !function.statements.is_empty())
    };
    let tables: Vec<Tables> =
        code.files.iter().map(|f| Tables::find(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    let constants_of = |function: &FunctionRef| -> Vec<Constant> {
        range_of(function).map(|(file, f)| literals[file].within(f.start, f.end).cloned().collect()).unwrap_or_default()
    };
    let keys_of = |function: &FunctionRef| -> Vec<Constant> {
        let keys = range_of(function).map(|(file, f)| tables[file].keys_within(f.start, f.end));
        keys.unwrap_or_default().into_iter().map(Constant::String).collect()
    };
    for m in methods.iter_mut() {
        let class = &program.classes[m.class];
        // Its helpers' code is its own to cover: their constants weigh as its own do.
        let goal = m.function.iter().chain(m.helpers.iter().map(|(_, f)| f));
        let mut constants: Vec<Constant> = goal.clone().flat_map(&constants_of).collect();
        constants.extend(constants.clone());
        // The keys of the tables its code looks names up in, once: a table's keys are many, and one reaches
        // what follows the look-up.
        constants.extend(goal.flat_map(&keys_of));
        // The functions of a module share no state as a class's methods do: each mines its own code only.
        let siblings = if class.is_module() { &[][..] } else { &class.methods[..] };
        let own = siblings.iter().filter(|m| m.origin != Origin::Inherited);
        for f in std::iter::once(&class.constructor).chain(own).filter_map(|f| f.function.as_ref()) {
            constants.extend(constants_of(f));
        }
        let reads_codes = m
            .function
            .as_ref()
            .and_then(range_of)
            .is_some_and(|(file, f)| literals[file].reads_character_codes(f.start, f.end));
        let targets = condition_literals(code, &literals, &m.watch());
        m.constants = ConstantPool::new(constants.iter()).reading_character_codes(reads_codes).aiming_at(targets);
    }
}

/// Per branch outcome of a method's goal that guards a statement of it, that statement (an offset into
/// the goal's statements) and the string literals its condition compares with, in order.
fn condition_literals(code: &CodeBase, literals: &[Literals], watch: &Watch) -> Vec<(u32, Vec<String>)> {
    let strings = |file: usize, branch: &Branch| -> Vec<String> {
        literals[file].values_within(branch.start, branch.condition_end).map(String::from).collect()
    };
    goal_branches(code, watch)
        .filter_map(|found| {
            let (file, branch, guarded) = found?;
            Some((guarded?, strings(file, branch)))
        })
        .collect()
}

/// Gives each method's search archive the statement each of its branch outcomes guards.
pub(super) fn prepare_archives(code: &CodeBase, methods: &mut [MethodState]) {
    for m in methods.iter_mut().filter(|m| m.function.is_some()) {
        let watch = m.watch();
        let guards = goal_branches(code, &watch).map(|found| found.and_then(|(_, _, guarded)| guarded)).collect();
        m.archive = Archive::new(guards);
    }
}

/// The branch outcomes of a method's goal in the order of its watch: each one's file, the branch, and
/// the statement it guards when the goal holds it (an offset into the goal's statements).
fn goal_branches<'a>(
    code: &'a CodeBase,
    watch: &'a Watch,
) -> impl Iterator<Item = Option<(usize, &'a Branch, Option<u32>)>> + 'a {
    watch.branches.iter().flat_map(|range| range.clone()).map(move |id| {
        let file = code.files.iter().position(|f| f.branches.contains(&id))?;
        let branches = &code.files[file].branches;
        let branch = code.files[file].instrumented.branches.get((id - branches.start) as usize)?;
        Some((file, branch, branch.guards.and_then(|s| watch.statement_offset(s))))
    })
}

/// Gives every parameter the types its function compares it with through `typeof` (through a local
/// declared as it too), and those a helper of the same file it passes the parameter to compares it
/// with (see [`checks_passed_on`]). A parameter copied before it is read (`var o = assign({}, defaults,
/// options)`) gets the members read on the copy, and the checks made on them (see [`CopyFlows`]): a
/// recording proxy only sees its keys listed for the copy.
pub(super) fn record_typeof_checks(code: &CodeBase, program: &ProgramInfo, types: &mut TypeTable) {
    let checks: Vec<Vec<TypeofCheck>> =
        code.files.iter().map(|f| typeof_checks(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    let flows: Vec<(Vec<NamedCall>, Vec<Alias>)> =
        code.files.iter().map(|f| flows(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    let copies: Vec<_> = code
        .files
        .iter()
        .map(|f| copies_and_reads(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0))
        .collect();
    for (class, info) in program.classes.iter().enumerate() {
        for method in std::iter::once(&info.constructor).chain(&info.methods) {
            let Some(function) = &method.function else { continue };
            let Some((file, f)) = code.function_of_statement(function.statements.start) else { continue };
            let functions = &code.files[file].instrumented.functions;
            let callee = |name: &str| named(functions, name).map(|only| (only.start..only.end, only.params.clone()));
            let ranges: Vec<Range<u32>> = functions.iter().map(|g| g.start..g.end).collect();
            let range = f.start..f.end;
            let mut within: Vec<TypeofCheck> = checks[file]
                .iter()
                .filter(|c| range.contains(&c.at) && !hidden_within(c, &range, &ranges))
                .cloned()
                .collect();
            let (calls, aliases) = &flows[file];
            within.extend(checks_passed_on(&checks[file], calls, f.start..f.end, &ranges, callee));
            let aliased = checks_through_aliases(&within, aliases, f.start..f.end);
            within.extend(aliased);
            let (copies, reads) = &copies[file];
            if !copies.is_empty() {
                let copied = CopyFlows { copies, reads, calls, callee };
                let whole = 0..code.files[file].entry.parsed.source.src.len() as u32;
                for (index, param) in f.params.iter().enumerate() {
                    let views = copied.views(param, f.start..f.end, whole.clone());
                    within.extend(checks_on_copies(&checks[file], &views, param));
                    types.add_copied_members(class, &method.name, index, copied.members_read(&views));
                }
            }
            types.set_typeof_checks(class, &method.name, within);
        }
    }
}

/// The checks made on members of the `views` of copies of `param` (`o.unit === 'ms'`), as checks on its
/// members (`param.unit`).
fn checks_on_copies(checks: &[TypeofCheck], views: &[View], param: &str) -> Vec<TypeofCheck> {
    let mut found = Vec::new();
    for view in views {
        for check in checks.iter().filter(|c| view.range.contains(&c.at)) {
            if let Some(rest) = check.name.strip_prefix(view.name.as_str()).filter(|rest| rest.starts_with('.')) {
                found.push(TypeofCheck { name: format!("{param}{rest}"), ..check.clone() });
            }
        }
    }
    found
}

/// The function of a file known by `name`, if only one is.
fn named<'f>(functions: &'f [Function], name: &str) -> Option<&'f Function> {
    let mut named = functions.iter().filter(|g| g.name.as_deref() == Some(name));
    named.next().filter(|_| named.next().is_none())
}

/// Tells the type table which member chains of each parameter its function passes to a parameter of a
/// function under test of the same file (see [`members_passed`]): their values are built in that
/// parameter's shape.
pub(super) fn record_members_passed(code: &CodeBase, program: &ProgramInfo, types: &mut TypeTable) {
    // The functions under test by where they start: the callee of a call is found by its name.
    let mut under_test: BTreeMap<(usize, u32), ParamKey> = BTreeMap::new();
    let mut callers = Vec::new();
    for (class, info) in program.classes.iter().enumerate() {
        for method in std::iter::once(&info.constructor).chain(&info.methods) {
            let Some(function) = &method.function else { continue };
            let Some((file, f)) = code.function_of_statement(function.statements.start) else { continue };
            let key = ParamKey { class, function: method.name.clone(), index: 0 };
            under_test.entry((file, f.start)).or_insert(key);
            callers.push((class, &method.name, file, f));
        }
    }
    let flows: Vec<(Vec<NamedCall>, Vec<Alias>)> =
        code.files.iter().map(|f| flows(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    for (class, name, file, f) in callers {
        let (calls, aliases) = &flows[file];
        let functions = &code.files[file].instrumented.functions;
        for passed in members_passed(calls, aliases, f.start..f.end, &f.params) {
            let Some(callee) = named(functions, &passed.callee) else { continue };
            if let Some(to) = under_test.get(&(file, callee.start)) {
                types.pass_on(class, name, passed.path, ParamKey { index: passed.index, ..to.clone() });
            }
        }
    }
}

/// Marks the members each class's TypeScript declarations keep `private` or `protected` (found as
/// [`record_declared_types`] finds signatures): suites call and assert them no more than `_x` members.
pub(super) fn record_declared_private(declarations: &mut Declarations, program: &mut ProgramInfo) {
    let hidden: Vec<Vec<String>> = program
        .classes
        .iter()
        .map(|info| {
            let (files, names) = lookup_of(program, info);
            let statics = info.statics_of.is_some();
            let mut hidden: Vec<String> =
                files.iter().flat_map(|f| declarations.hidden_members(f, &names, statics)).collect();
            hidden.dedup();
            hidden
        })
        .collect();
    for (info, hidden) in program.classes.iter_mut().zip(hidden) {
        info.declared_private = hidden;
    }
}

/// Marks the static methods whose TypeScript declarations say they return an instance of their class
/// (found as [`record_declared_types`] finds signatures): factories tests make instances with, whether or
/// not discovery's calls of them made one.
pub(super) fn record_declared_factories(declarations: &mut Declarations, program: &mut ProgramInfo) {
    let mut declared: Vec<(usize, usize)> = Vec::new();
    for (unit, info) in program.classes.iter().enumerate().filter(|(_, info)| info.statics_of.is_some()) {
        let (files, names) = lookup_of(program, info);
        for (index, f) in info.functions.iter().flatten().enumerate().filter(|(_, f)| !f.makes && !f.property) {
            if files.iter().any(|file| declarations.static_factory(file, &names, &f.method)) {
                declared.push((unit, index));
            }
        }
    }
    for (unit, index) in declared {
        if let Some(function) = program.classes[unit].functions.as_mut().and_then(|f| f.get_mut(index)) {
            function.makes = true;
        }
    }
}

/// Gives every parameter its declared type, where the code declares one (a TypeScript source) or ships
/// declarations (a `.d.ts` beside a JavaScript file, or its package's `types`): each class is looked up by
/// name in the declarations of the file that defines it, then of the file that exports it. Returns
/// warnings for declaration files that could not be read.
pub(super) fn record_declared_types(
    declarations: &mut Declarations,
    program: &ProgramInfo,
    types: &mut TypeTable,
) -> Vec<String> {
    for (class, info) in program.classes.iter().enumerate() {
        for function in std::iter::once(&info.constructor).chain(&info.methods) {
            if let Some(member) = declarations.member_of(program, info, &function.name) {
                types.declare(class, &function.name, &member.signature, program);
            }
        }
    }
    declarations
        .errors()
        .iter()
        .map(|e| format!("{e}: the declarations there cannot be read, so parameter types are inferred instead"))
        .collect()
}
