//! Modules of functions: the plain functions a module exports (or a namespace object holds, or a
//! script defines as globals) are methods under test without a receiver.
//!
//! Each object that holds such functions becomes one unit of state, beside the classes (see
//! [`ClassInfo::functions`]): a CommonJS module's `module.exports` (and a function exported whole, with
//! the functions set on it), an ES module's named exports, a namespace object below either. The unit has
//! no constructor and no fields; its methods are the functions, each reached by its own [`Access`], so
//! that a suite binds and calls it by name (`parse(text)`). Static methods of classes are not such
//! functions (they are units of their own, called on their class: see `statics.rs`), nor are the
//! factories that make a class's instances (they are that class's constructor); a factory of plain
//! objects is both, under one name.

use std::collections::BTreeSet;

use super::{Root, Syntax, method_info, outermost_functions, unique_alias};
use crate::model::program::{Access, ClassInfo, MethodInfo, ModuleFunction, Origin};
use crate::sandbox::{CodeBase, FoundFunction};

/// Names a suite's test bodies use themselves (assertions, results, the built-ins values are written
/// with): a function bound under one of them would hide it.
const USED_BY_TESTS: &[&str] = &[
    "assert",
    "nodeAssert",
    "result",
    "Object",
    "Date",
    "Math",
    "Array",
    "RegExp",
    "Error",
    "Number",
    "String",
    "Boolean",
    "JSON",
    "Symbol",
    "Promise",
    "Map",
    "Set",
    "undefined",
    "NaN",
    "Infinity",
    "eval",
    "arguments",
    "globalThis",
    "withSubjects",
    "seeded",
];

/// One object holding functions, as the walk met it: its root and path, and its functions.
struct Holder {
    root: usize,
    path: Vec<String>,
    /// Each function's export name, what it is, how tests reach it, and its own `name`.
    functions: Vec<(String, MethodInfo, Access, String)>,
}

/// The modules of functions among `found` (the plain functions discovery met that make no class), one
/// unit per object that holds some, in the order the walk met them. `names` are the names of the units
/// found so far (classes), which a unit's name must differ from.
pub(super) fn module_units(
    code: &CodeBase,
    syntax: &Syntax,
    roots: &[Root],
    found: &[FoundFunction],
    names: &mut BTreeSet<String>,
    aliases: &mut BTreeSet<String>,
    factories: &[(Access, String)],
) -> Vec<ClassInfo> {
    let mut holders: Vec<Holder> = Vec::new();
    for function in found.iter().filter(|f| !f.in_class) {
        let Some(located) = outermost_functions(code, &function.probes).first().copied() else { continue };
        // Functions of Node's built-in modules are not the code under test.
        if code.files[located.0].entry.builtin {
            continue;
        }
        let root_index = function.path.first().and_then(|v| v.as_u64()).unwrap_or(0) as usize;
        let Some(root) = roots.get(root_index) else { continue };
        let path: Vec<String> = function.path.iter().skip(1).filter_map(|v| v.as_str().map(str::to_string)).collect();
        // A function that is the whole export (`module.exports = parse`) is held by the module itself.
        let (holder_path, method) = match path.split_last() {
            Some((last, before)) => (before.to_vec(), last.clone()),
            None if !function.name.is_empty() => (Vec::new(), function.name.clone()),
            None => (Vec::new(), file_stem(code, located.0)),
        };
        let info = method_info(syntax, &method, Some(located), function.length, Origin::Prototype);
        let access = root.access(&path);
        let index = match holders.iter().position(|h| h.root == root_index && h.path == holder_path) {
            Some(index) => index,
            None => {
                holders.push(Holder { root: root_index, path: holder_path, functions: Vec::new() });
                holders.len() - 1
            }
        };
        if !holders[index].functions.iter().any(|(name, ..)| *name == method) {
            holders[index].functions.push((method, info, access, function.name.clone()));
        }
    }
    holders.into_iter().map(|holder| unit(code, roots, holder, names, aliases, factories)).collect()
}

/// The unit of a holder of functions.
fn unit(
    code: &CodeBase,
    roots: &[Root],
    holder: Holder,
    names: &mut BTreeSet<String>,
    aliases: &mut BTreeSet<String>,
    factories: &[(Access, String)],
) -> ClassInfo {
    let root = &roots[holder.root];
    let first_file = holder.functions.first().and_then(|(_, m, ..)| m.function.as_ref()).map(|f| f.file);
    let file = root.file().or(first_file).unwrap_or_else(|| code.files.iter().position(|f| f.entry.given).unwrap_or(0));
    // Named by the namespace that holds the functions, else by the module's file.
    let named = holder.path.iter().filter(|p| *p != "default").cloned().collect::<Vec<_>>().join(".");
    let base = if named.is_empty() { module_name(code, file) } else { named };
    let mut name = base.clone();
    let mut n = 2;
    while !names.insert(name.clone()) {
        name = format!("{base}{n}");
        n += 1;
    }
    let alias = unique_alias(&name, aliases);
    let mut functions = Vec::new();
    let mut methods = Vec::new();
    for (method, info, access, own_name) in holder.functions {
        // An export named `default` is called by the function's own name, or the module's.
        let wanted = match method.as_str() {
            "default" if !own_name.is_empty() && own_name != "default" => own_name,
            "default" => name.clone(),
            _ => method.clone(),
        };
        let wanted = if USED_BY_TESTS.contains(&wanted.as_str()) || wanted.starts_with("result") {
            format!("{wanted}Fn")
        } else {
            wanted
        };
        // A factory of plain objects is called by the same name as a function and as the maker of its unit.
        let alias = match factories.iter().find(|(made_by, _)| *made_by == access) {
            Some((_, alias)) => alias.clone(),
            None => unique_alias(&wanted, aliases),
        };
        functions.push(ModuleFunction { method, alias, access, property: false, makes: false });
        methods.push(info);
    }
    ClassInfo {
        name,
        alias,
        file,
        access: root.access(&holder.path),
        superclass: None,
        constructor: MethodInfo::bare("constructor", Vec::new(), Origin::Prototype),
        methods,
        fields: Vec::new(),
        under_test: true,
        factory: None,
        functions: Some(functions),
        statics_of: None,
        concrete: Vec::new(),
        declared_private: Vec::new(),
    }
}

/// The name people know a module by: its file's stem, or for an `index` file, its package's name (the
/// last part of a scoped one) when its folder is a package's, else its folder's name.
fn module_name(code: &CodeBase, file: usize) -> String {
    let stem = file_stem(code, file);
    let Some(folder) = code.files[file].entry.parsed.path.parent().filter(|_| stem == "index") else { return stem };
    let package = std::fs::read_to_string(folder.join("package.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|json| json.get("name")?.as_str().map(|n| n.rsplit('/').next().unwrap_or(n).to_string()))
        .filter(|n| !n.is_empty());
    package.or_else(|| folder.file_name().map(|n| n.to_string_lossy().into_owned())).unwrap_or(stem)
}

fn file_stem(code: &CodeBase, file: usize) -> String {
    let path = &code.files[file].entry.parsed.path;
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "module".into())
}
