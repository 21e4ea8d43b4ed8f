//! TypeScript's elision of names that are types only, across files. Stripping a file alone cannot tell
//! whether `export { Shape } from './shapes'` (or `import { Shape } from './shapes'; export { Shape }`)
//! names a value: swc keeps such a re-export, and the ES module it lands in then fails to link
//! ("Could not find export 'Shape'"), where `tsc` drops it, knowing `Shape` is an interface, and `tsx`,
//! where it compiles to CommonJS, reads `undefined`. Once every file of the program is loaded and resolved, the
//! names each module exports only as types are known, and the imports and re-exports of them go as
//! `tsc` makes them go; a declaration left with no name goes whole, as `tsc` drops it. The re-exports
//! that went are kept with their lines: tsx keeps them too where it makes ES modules (a `"type": "module"`
//! package, `.mts`), and Node refuses to link those, so a suite for such code loads it otherwise (see
//! `export::typescript`'s loader).
//!
//! A name is a type only in a module when the module exports it in its TypeScript text and not at run
//! time: an interface, a type alias, a namespace of types only, `export type`, a `declare`d name, or a
//! re-export of such a name, directly or through `export *`. Names a file does not export at all are left
//! alone, so a misspelt import still fails to load and says so.

use std::collections::{BTreeMap, BTreeSet};

use swc_common::Span;
use swc_ecma_ast::{
    Decl, ExportSpecifier, Expr, ImportSpecifier, ModuleDecl, ModuleExportName, ModuleItem, Pat, Program, TsModuleName,
};

use crate::analysis::files::SourceEntry;
use crate::analysis::typescript::Language;
use crate::model::program::ModuleKind;

/// Module specifier → the names taken from it (by `import { a }` or `export { a } from`) that the module
/// it resolves to exports only as types.
pub(crate) type TypeOnly = BTreeMap<String, BTreeSet<String>>;

/// The names a module exports by its own declarations and export lists, types included (`export *`
/// adds none: its names are the other module's).
pub(crate) fn exported_names(program: &Program) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let Program::Module(module) = program else { return names };
    for item in &module.body {
        let ModuleItem::ModuleDecl(decl) = item else { continue };
        match decl {
            ModuleDecl::ExportDecl(export) => match &export.decl {
                Decl::Class(class) => {
                    names.insert(class.ident.sym.to_string());
                }
                Decl::Fn(function) => {
                    names.insert(function.ident.sym.to_string());
                }
                Decl::Var(var) => var.decls.iter().for_each(|d| bindings(&d.name, &mut names)),
                Decl::Using(using) => using.decls.iter().for_each(|d| bindings(&d.name, &mut names)),
                Decl::TsInterface(interface) => {
                    names.insert(interface.id.sym.to_string());
                }
                Decl::TsTypeAlias(alias) => {
                    names.insert(alias.id.sym.to_string());
                }
                Decl::TsEnum(enumeration) => {
                    names.insert(enumeration.id.sym.to_string());
                }
                Decl::TsModule(namespace) => {
                    if let TsModuleName::Ident(id) = &namespace.id {
                        names.insert(id.sym.to_string());
                    }
                }
            },
            ModuleDecl::ExportDefaultDecl(_) | ModuleDecl::ExportDefaultExpr(_) => {
                names.insert("default".into());
            }
            ModuleDecl::ExportNamed(export) => {
                for specifier in &export.specifiers {
                    names.insert(match specifier {
                        ExportSpecifier::Namespace(ns) => name(&ns.name),
                        ExportSpecifier::Default(default) => default.exported.sym.to_string(),
                        ExportSpecifier::Named(named) => name(named.exported.as_ref().unwrap_or(&named.orig)),
                    });
                }
            }
            ModuleDecl::TsImportEquals(import) if import.is_export => {
                names.insert(import.id.sym.to_string());
            }
            _ => {}
        }
    }
    names
}

fn name(name: &ModuleExportName) -> String {
    match name {
        ModuleExportName::Ident(ident) => ident.sym.to_string(),
        ModuleExportName::Str(s) => s.value.to_atom_lossy().to_string(),
    }
}

/// The names a declaration's pattern binds (`export const { a, b: [c] } = ...` binds `a` and `c`).
fn bindings(pat: &Pat, names: &mut BTreeSet<String>) {
    match pat {
        Pat::Ident(ident) => {
            names.insert(ident.id.sym.to_string());
        }
        Pat::Array(array) => array.elems.iter().flatten().for_each(|p| bindings(p, names)),
        Pat::Object(object) => {
            for prop in &object.props {
                match prop {
                    swc_ecma_ast::ObjectPatProp::KeyValue(kv) => bindings(&kv.value, names),
                    swc_ecma_ast::ObjectPatProp::Assign(assign) => {
                        names.insert(assign.key.sym.to_string());
                    }
                    swc_ecma_ast::ObjectPatProp::Rest(rest) => bindings(&rest.arg, names),
                }
            }
        }
        Pat::Assign(assign) => bindings(&assign.left, names),
        Pat::Rest(rest) => bindings(&rest.arg, names),
        Pat::Expr(_) | Pat::Invalid(_) => {}
    }
}

/// What one ES module exports and takes from others, as the fixpoints below need it.
#[derive(Default)]
struct Exports {
    /// Its own export declarations and lists, at run time (the stripped program's).
    explicit: BTreeSet<String>,
    /// Names exported in its text that stripping removed.
    types: BTreeSet<String>,
    /// The modules `export *` re-exports.
    stars: Vec<usize>,
    /// `import { orig as local } from target`: (local, target, orig). TypeScript files only.
    imports: Vec<(String, usize, String)>,
    /// `export { orig as exported } from target`: (exported, target, orig). TypeScript files only.
    reexports: Vec<(String, usize, String)>,
    /// `export { local as exported }` and `export default local`: (exported, local).
    locals: Vec<(String, String)>,
}

/// For every file of `entries` (resolved), the names it imports or re-exports that their module exports
/// only as types (see the module's documentation).
pub(crate) fn type_only(entries: &[SourceEntry]) -> Vec<TypeOnly> {
    let modules: Vec<Option<Exports>> = entries.iter().map(exports).collect();
    let explicit = |t: usize| modules[t].as_ref().map(|m| &m.explicit);
    // Everything a module exports, types included: the least fixpoint through `export *`.
    let mut all: Vec<BTreeSet<String>> =
        modules.iter().map(|m| m.as_ref().map(|m| &m.explicit | &m.types).unwrap_or_default()).collect();
    let mut values: Vec<BTreeSet<String>> =
        (0..entries.len()).map(|t| explicit(t).cloned().unwrap_or_default()).collect();
    while star_closure(&modules, &mut all) | star_closure(&modules, &mut values) {}
    // What it exports at run time once its re-exports of types are gone: from the run-time exports
    // without any elision (an upper bound), names go until nothing changes.
    loop {
        let mut changed = false;
        for (t, module) in modules.iter().enumerate() {
            let Some(module) = module else { continue };
            let dropped = dropped(module, &all, &values);
            let mut next: BTreeSet<String> = module.explicit.difference(&dropped).cloned().collect();
            for &s in &module.stars {
                next.extend(values[s].iter().filter(|n| *n != "default").cloned());
            }
            if next != values[t] {
                values[t] = next;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    entries
        .iter()
        .zip(&modules)
        .map(|(entry, module)| {
            let mut type_only = TypeOnly::new();
            let Some(module) = module else { return type_only };
            for (specifier, &target) in &entry.deps {
                let names: BTreeSet<String> = module
                    .imports
                    .iter()
                    .chain(&module.reexports)
                    .filter(|(_, t, orig)| *t == target && is_type(orig, target, &all, &values))
                    .map(|(_, _, orig)| orig.clone())
                    .collect();
                if !names.is_empty() {
                    type_only.insert(specifier.clone(), names);
                }
            }
            type_only
        })
        .collect()
}

/// Adds to each module's set the names of the modules it `export *`s (but `default`); whether any was
/// added.
fn star_closure(modules: &[Option<Exports>], sets: &mut [BTreeSet<String>]) -> bool {
    let mut changed = false;
    for (t, module) in modules.iter().enumerate() {
        let Some(module) = module else { continue };
        for &s in &module.stars {
            let names: Vec<String> =
                sets[s].iter().filter(|n| *n != "default" && !sets[t].contains(*n)).cloned().collect();
            changed |= !names.is_empty();
            sets[t].extend(names);
        }
    }
    changed
}

fn is_type(name: &str, target: usize, all: &[BTreeSet<String>], values: &[BTreeSet<String>]) -> bool {
    all[target].contains(name) && !values[target].contains(name)
}

/// The names `module` exports that name types of other modules, given what they export.
fn dropped(module: &Exports, all: &[BTreeSet<String>], values: &[BTreeSet<String>]) -> BTreeSet<String> {
    let elided: BTreeSet<&str> = module
        .imports
        .iter()
        .filter(|(_, target, orig)| is_type(orig, *target, all, values))
        .map(|(local, ..)| local.as_str())
        .collect();
    let reexported = module.reexports.iter().filter(|(_, target, orig)| is_type(orig, *target, all, values));
    let local = module.locals.iter().filter(|(_, local)| elided.contains(local.as_str()));
    reexported.map(|(exported, ..)| exported).chain(local.map(|(exported, _)| exported)).cloned().collect()
}

/// What an ES module of `entry` exports and takes; `None` for CommonJS files and scripts, whose missing
/// names read `undefined` rather than failing to link.
fn exports(entry: &SourceEntry) -> Option<Exports> {
    let parsed = &entry.parsed;
    let Program::Module(module) = &parsed.program else { return None };
    if parsed.kind != ModuleKind::EsModule {
        return None;
    }
    let typescript = parsed.language == Language::TypeScript;
    let mut exports =
        Exports { explicit: exported_names(&parsed.program), types: parsed.type_exports.clone(), ..Exports::default() };
    let target = |src: &swc_ecma_ast::Str| entry.deps.get(src.value.to_atom_lossy().as_str()).copied();
    for item in &module.body {
        let ModuleItem::ModuleDecl(decl) = item else { continue };
        match decl {
            ModuleDecl::ExportAll(all) => exports.stars.extend(target(&all.src)),
            ModuleDecl::Import(import) if typescript => {
                let Some(t) = target(&import.src) else { continue };
                for specifier in &import.specifiers {
                    match specifier {
                        ImportSpecifier::Named(named) => {
                            let orig = named.imported.as_ref().map_or_else(|| named.local.sym.to_string(), name);
                            exports.imports.push((named.local.sym.to_string(), t, orig));
                        }
                        ImportSpecifier::Default(default) => {
                            exports.imports.push((default.local.sym.to_string(), t, "default".into()));
                        }
                        ImportSpecifier::Namespace(_) => {}
                    }
                }
            }
            ModuleDecl::ExportNamed(export) => {
                let t = export.src.as_deref().and_then(target);
                for specifier in &export.specifiers {
                    let ExportSpecifier::Named(named) = specifier else { continue };
                    let exported = name(named.exported.as_ref().unwrap_or(&named.orig));
                    match (export.src.is_some(), t) {
                        (true, Some(t)) if typescript => exports.reexports.push((exported, t, name(&named.orig))),
                        (false, _) => exports.locals.push((exported, name(&named.orig))),
                        _ => {}
                    }
                }
            }
            ModuleDecl::ExportDefaultExpr(default) => {
                if let Expr::Ident(ident) = &*default.expr {
                    exports.locals.push(("default".into(), ident.sym.to_string()));
                }
            }
            _ => {}
        }
    }
    Some(exports)
}

/// Removes from `program` the imports and re-exports `type_only` names, the exports of what such
/// imports bound, and the declarations left with no name. Returns the exports removed, each by its name
/// and span: re-exports of types written without `type`, which tools that compile one file at a time
/// (tsx, esbuild, swc, Node's type stripping) keep, so that Node cannot link the ES module they make
/// (where an import of a type that is not used as a value goes in every tool).
pub(crate) fn elide(program: &mut Program, type_only: &TypeOnly) -> Vec<(String, Span)> {
    let mut reexports = Vec::new();
    let Program::Module(module) = program else { return reexports };
    if type_only.is_empty() {
        return reexports;
    }
    let types = |src: &swc_ecma_ast::Str| type_only.get(src.value.to_atom_lossy().as_str());
    let mut elided = BTreeSet::new();
    module.body.retain_mut(|item| {
        let ModuleItem::ModuleDecl(ModuleDecl::Import(import)) = item else { return true };
        let Some(names) = types(&import.src) else { return true };
        let before = import.specifiers.len();
        import.specifiers.retain(|specifier| {
            let (local, orig) = match specifier {
                ImportSpecifier::Named(named) => {
                    (&named.local, named.imported.as_ref().map_or_else(|| named.local.sym.to_string(), name))
                }
                ImportSpecifier::Default(default) => (&default.local, "default".to_string()),
                ImportSpecifier::Namespace(_) => return true,
            };
            let keep = !names.contains(&orig);
            if !keep {
                elided.insert(local.sym.to_string());
            }
            keep
        });
        before == 0 || !import.specifiers.is_empty()
    });
    module.body.retain_mut(|item| match item {
        ModuleItem::ModuleDecl(ModuleDecl::ExportNamed(export)) => {
            let names = export.src.as_deref().and_then(types);
            let before = export.specifiers.len();
            export.specifiers.retain(|specifier| {
                let ExportSpecifier::Named(named) = specifier else { return true };
                let orig = name(&named.orig);
                let keep = match (&export.src, names) {
                    (Some(_), Some(names)) => !names.contains(&orig),
                    (None, _) => !elided.contains(&orig),
                    (Some(_), None) => true,
                };
                if !keep {
                    reexports.push((name(named.exported.as_ref().unwrap_or(&named.orig)), named.span));
                }
                keep
            });
            before == 0 || !export.specifiers.is_empty()
        }
        ModuleItem::ModuleDecl(ModuleDecl::ExportDefaultExpr(default)) => {
            let keep = !matches!(&*default.expr, Expr::Ident(ident) if elided.contains(&*ident.sym));
            if !keep {
                reexports.push(("default".into(), default.span));
            }
            keep
        }
        _ => true,
    });
    reexports
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    fn names(name: &str, text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
        let parsed = parse_source(Path::new(&format!("/nonexistent/{name}")), name, text.into()).unwrap();
        (exported_names(&parsed.program), parsed.type_exports)
    }

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_typescript_file_tells_its_types_from_its_values() {
        let text = "export interface I { x: number }\nexport type T = 1 | 2;\nexport declare const d: number;\n\
                    export namespace Types { export type U = string }\nexport namespace Values { export const v = 1 }\n\
                    export enum E { A }\nexport const { a, b: [c] } = { a: 1, b: [2] };\nexport class C {}\n\
                    interface Local {}\nexport type { Local };\nexport default interface D {}\n";
        let (values, types) = names("m.ts", text);
        assert_eq!(values, set(&["C", "E", "Values", "a", "c"]));
        assert_eq!(types, set(&["I", "Local", "T", "Types", "d", "default"]));
        let (values, types) = names("m.js", "export const a = 1;\nexport { a as b };\nexport default a;\n");
        assert_eq!((values, types), (set(&["a", "b", "default"]), set(&[])));
    }

    /// Types re-exported through `export *` and a cycle of `export *`s: the run-time exports stay,
    /// misspelt names are left to fail.
    #[test]
    fn types_reached_through_stars_and_cycles_go() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write("a.ts", "export * from './b';\nexport interface A { x: number }\nexport const a = 1;\n");
        write("b.ts", "export * from './a';\nexport type B = string;\nexport function b() { return 2; }\n");
        write(
            "c.ts",
            "export { A, B, a, b } from './b';\nimport { A as Alias, Missing } from './a';\nexport { Alias };\n",
        );
        let set = crate::analysis::files::SourceSet::load(&[dir.path().join("c.ts")]).unwrap();
        let c = &set.entries[0];
        assert_eq!(c.type_only.get("./b"), Some(&self::set(&["A", "B"])));
        assert_eq!(c.type_only.get("./a"), Some(&self::set(&["A"])), "`Missing` is no type of a.ts: it stays");
        assert_eq!(exported_names(&c.parsed.program), self::set(&["a", "b"]));
        // What per-file transpilers keep, and Node then fails to link: the re-exports, not the imports.
        let places: Vec<(usize, &str)> = c.type_reexports.iter().map(|r| (r.line, r.name.as_str())).collect();
        assert_eq!(places, [(1, "A"), (1, "B"), (3, "Alias")]);
        assert!(set.entries[1..].iter().all(|e| e.type_reexports.is_empty()), "b.ts and a.ts re-export no type");
    }
}
