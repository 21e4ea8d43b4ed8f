//! What one TypeScript file declares, by name: its interfaces, type aliases, enums, classes, functions
//! and namespaces (`declare namespace`, `declare module 'x'`), what it imports and what it re-exports, so that
//! a type named anywhere in it can be looked up.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use swc_common::sync::Lrc;
use swc_common::{FileName, SourceMap, SourceMapper, Span, Spanned};
use swc_ecma_ast::{
    Class, Decl, DefaultDecl, EsVersion, ExportSpecifier, Expr, ImportSpecifier, Lit, ModuleDecl, ModuleExportName,
    ModuleItem, Pat, Prop, PropName, PropOrSpread, Stmt, TsEnumDecl, TsEnumMemberId, TsFnOrConstructorType,
    TsInterfaceDecl, TsModuleDecl, TsModuleName, TsNamespaceBody, TsType, TsTypeAliasDecl, UnaryOp, VarDeclKind,
    VarDeclarator,
};
use swc_ecma_parser::{Syntax, TsSyntax, parse_file_as_module};

use super::functions::FunctionDecl;
use super::types::Literal;

/// Where a name declared elsewhere comes from.
#[derive(Debug, Clone)]
pub(super) struct Import {
    /// The module specifier (`./heap`).
    pub from: String,
    /// What of that module.
    pub what: Imported,
}

/// What an import takes of its module.
#[derive(Debug, Clone)]
pub(super) enum Imported {
    /// `{ name }`.
    Named(String),
    /// The default export.
    Default,
    /// `* as ns`.
    Namespace,
}

/// The declarations of one file or namespace body.
#[derive(Default)]
pub(super) struct Scope {
    /// Interfaces, each with every declaration of its name (they merge).
    pub interfaces: HashMap<String, Vec<Rc<TsInterfaceDecl>>>,
    /// Type aliases.
    pub aliases: HashMap<String, Rc<TsTypeAliasDecl>>,
    /// Enums, with the values of their members by name, in order.
    pub enums: HashMap<String, Vec<(String, Literal)>>,
    /// Classes.
    pub classes: HashMap<String, Rc<Class>>,
    /// Functions, each with every declaration of its name (overloads, then maybe the implementation).
    pub functions: HashMap<String, Vec<Rc<FunctionDecl>>>,
    /// Variables declared with a type other than a function's (`declare const Queue: QueueConstructor`),
    /// by name: the value of a class declared as an interface of its instances and a constructor.
    pub values: HashMap<String, Rc<TsType>>,
    /// Namespaces, merged by name; a `const` bound to an object of functions is one too (see
    /// `FunctionDecl::of_object`).
    pub namespaces: HashMap<String, Scope>,
    /// Names imported from other files, by local name.
    pub imports: HashMap<String, Import>,
    /// Names exported under another name (`export { A as B }`, `export default A`): exported → local.
    pub exported_as: HashMap<String, String>,
    /// Names re-exported from other files, by exported name (`export { A } from './a'`).
    pub reexports: HashMap<String, Import>,
    /// Modules all of whose exports are re-exported (`export * from './a'`).
    pub star_exports: Vec<String>,
    /// Names declared here and exported under their own name (`export enum A`, `export namespace N`,
    /// `export { A }`).
    pub exported: HashSet<String>,
    /// Enums that exist at run time (not `const enum`), whose members code can read.
    pub runtime_enums: HashSet<String>,
}

/// A parsed declarations file (or TypeScript source) and what it declares.
pub(super) struct FileScope {
    /// Its path.
    pub path: PathBuf,
    /// Its top-level declarations.
    pub top: Scope,
    /// Its text, for the annotations people read.
    cm: Lrc<SourceMap>,
}

impl FileScope {
    /// Parses `text`, the file at `path` (a `.d.ts` when its name says so). The error says where the file
    /// stops being TypeScript.
    pub(super) fn parse(path: &Path, text: String) -> Result<FileScope, String> {
        let cm: Lrc<SourceMap> = Default::default();
        let file = cm.new_source_file(FileName::Real(path.to_path_buf()).into(), text);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let dts = [".d.ts", ".d.mts", ".d.cts"].iter().any(|e| name.ends_with(e));
        let syntax = Syntax::Typescript(TsSyntax { dts, decorators: true, ..Default::default() });
        let module = parse_file_as_module(&file, syntax, EsVersion::latest(), None, &mut Vec::new()).map_err(|e| {
            let at = cm.lookup_char_pos(e.span().lo);
            format!("{}:{}:{}: {}", path.display(), at.line, at.col_display + 1, e.kind().msg())
        })?;
        let mut top = Scope::default();
        top.add_items(&module.body);
        Ok(FileScope { path: path.to_path_buf(), top, cm })
    }

    /// The text of `span`, on one line.
    pub(super) fn text(&self, span: Span) -> String {
        let text = self.cm.span_to_snippet(span).unwrap_or_default();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The scope at `path` (namespace names from the top).
    pub(super) fn scope(&self, path: &[String]) -> Option<&Scope> {
        path.iter().try_fold(&self.top, |scope, name| scope.namespaces.get(name))
    }
}

impl Scope {
    fn add_items(&mut self, items: &[ModuleItem]) {
        for item in items {
            match item {
                ModuleItem::Stmt(Stmt::Decl(decl)) => self.add_decl(decl),
                ModuleItem::ModuleDecl(decl) => self.add_module_decl(decl),
                ModuleItem::Stmt(_) => {}
            }
        }
    }

    fn add_decl(&mut self, decl: &Decl) {
        match decl {
            Decl::Class(c) => {
                self.classes.insert(c.ident.sym.to_string(), Rc::new((*c.class).clone()));
            }
            Decl::TsInterface(i) => {
                self.interfaces.entry(i.id.sym.to_string()).or_default().push(Rc::new((**i).clone()));
            }
            Decl::TsTypeAlias(a) => {
                self.aliases.insert(a.id.sym.to_string(), Rc::new((**a).clone()));
            }
            Decl::TsEnum(e) => {
                if !e.is_const {
                    self.runtime_enums.insert(e.id.sym.to_string());
                }
                self.enums.insert(e.id.sym.to_string(), enum_values(e));
            }
            Decl::TsModule(m) => self.add_namespace(m),
            Decl::Fn(f) => {
                let decl = Rc::new(FunctionDecl::of_function(&f.function));
                self.functions.entry(f.ident.sym.to_string()).or_default().push(decl);
            }
            Decl::Var(var) => {
                for (name, ty) in var.decls.iter().filter_map(typed_value) {
                    self.values.insert(name, ty);
                }
                if var.kind != VarDeclKind::Const {
                    return;
                }
                for (name, values) in var.decls.iter().filter_map(const_object) {
                    self.runtime_enums.insert(name.clone());
                    self.enums.insert(name, values);
                }
                for (name, decl) in var.decls.iter().filter_map(FunctionDecl::of_binding) {
                    self.functions.entry(name).or_default().push(Rc::new(decl));
                }
                // Callers reach an object's functions by the binding's name as a namespace's.
                for (name, functions) in var.decls.iter().filter_map(FunctionDecl::of_object) {
                    let namespace = self.namespaces.entry(name).or_default();
                    for (member, decl) in functions {
                        namespace.functions.entry(member).or_default().push(Rc::new(decl));
                    }
                }
            }
            _ => {}
        }
    }

    fn add_namespace(&mut self, module: &TsModuleDecl) {
        let name = match &module.id {
            TsModuleName::Ident(id) => id.sym.to_string(),
            TsModuleName::Str(s) => s.value.to_atom_lossy().to_string(),
        };
        let mut body = module.body.as_ref();
        let mut scope = self.namespaces.entry(name).or_default();
        // `namespace A.B { }` nests one namespace in another.
        while let Some(TsNamespaceBody::TsNamespaceDecl(inner)) = body {
            scope.exported.insert(inner.id.sym.to_string());
            scope = scope.namespaces.entry(inner.id.sym.to_string()).or_default();
            body = Some(&inner.body);
        }
        if let Some(TsNamespaceBody::TsModuleBlock(block)) = body {
            scope.add_items(&block.body);
        }
    }

    fn add_module_decl(&mut self, decl: &ModuleDecl) {
        match decl {
            ModuleDecl::ExportDecl(export) => {
                let name = match &export.decl {
                    Decl::Class(c) => Some(&c.ident.sym),
                    Decl::Fn(f) => Some(&f.ident.sym),
                    Decl::TsEnum(e) => Some(&e.id.sym),
                    // A const object of literals, which code uses as an enum (see `const_object`).
                    Decl::Var(var) => {
                        for (name, _) in var.decls.iter().filter_map(typed_value) {
                            self.exported.insert(name);
                        }
                        if var.kind != VarDeclKind::Const {
                            return self.add_decl(&export.decl);
                        }
                        for name in var.decls.iter().filter_map(const_object).map(|(name, _)| name) {
                            self.exported.insert(name);
                        }
                        for (name, _) in var.decls.iter().filter_map(FunctionDecl::of_binding) {
                            self.exported.insert(name);
                        }
                        None
                    }
                    // A namespace holding an enum is there at run time, and a suite reaches the enum in it.
                    Decl::TsModule(m) => match &m.id {
                        TsModuleName::Ident(id) => Some(&id.sym),
                        TsModuleName::Str(_) => None,
                    },
                    _ => None,
                };
                if let Some(name) = name {
                    self.exported.insert(name.to_string());
                }
                self.add_decl(&export.decl)
            }
            ModuleDecl::ExportDefaultDecl(export) => {
                if let DefaultDecl::Class(c) = &export.decl {
                    let name = c.ident.as_ref().map_or_else(|| "default".to_string(), |i| i.sym.to_string());
                    self.classes.insert(name.clone(), Rc::new((*c.class).clone()));
                    self.exported_as.insert("default".into(), name);
                } else if let DefaultDecl::Fn(f) = &export.decl {
                    let name = f.ident.as_ref().map_or_else(|| "default".to_string(), |i| i.sym.to_string());
                    let decl = Rc::new(FunctionDecl::of_function(&f.function));
                    self.functions.entry(name.clone()).or_default().push(decl);
                    self.exported_as.insert("default".into(), name);
                } else if let DefaultDecl::TsInterfaceDecl(i) = &export.decl {
                    self.interfaces.entry(i.id.sym.to_string()).or_default().push(Rc::new((**i).clone()));
                    self.exported_as.insert("default".into(), i.id.sym.to_string());
                }
            }
            ModuleDecl::ExportDefaultExpr(export) => {
                if let Expr::Ident(id) = &*export.expr {
                    self.exported_as.insert("default".into(), id.sym.to_string());
                }
            }
            ModuleDecl::TsExportAssignment(export) => {
                if let Expr::Ident(id) = &*export.expr {
                    self.exported_as.insert("default".into(), id.sym.to_string());
                }
            }
            ModuleDecl::Import(import) => {
                let from = import.src.value.to_atom_lossy().to_string();
                for specifier in &import.specifiers {
                    let (local, what) = match specifier {
                        ImportSpecifier::Named(n) => {
                            let name = n.imported.as_ref().map_or_else(|| n.local.sym.to_string(), export_name);
                            let what = if name == "default" { Imported::Default } else { Imported::Named(name) };
                            (n.local.sym.to_string(), what)
                        }
                        ImportSpecifier::Default(d) => (d.local.sym.to_string(), Imported::Default),
                        ImportSpecifier::Namespace(n) => (n.local.sym.to_string(), Imported::Namespace),
                    };
                    self.imports.insert(local, Import { from: from.clone(), what });
                }
            }
            ModuleDecl::ExportNamed(export) => self.add_export_named(export),
            ModuleDecl::ExportAll(all) => self.star_exports.push(all.src.value.to_atom_lossy().to_string()),
            _ => {}
        }
    }

    fn add_export_named(&mut self, export: &swc_ecma_ast::NamedExport) {
        for specifier in &export.specifiers {
            let (local, exported) = match specifier {
                ExportSpecifier::Named(n) => {
                    let local = export_name(&n.orig);
                    (local.clone(), n.exported.as_ref().map_or(local, export_name))
                }
                ExportSpecifier::Default(d) => ("default".to_string(), d.exported.sym.to_string()),
                ExportSpecifier::Namespace(n) => ("*".to_string(), export_name(&n.name)),
            };
            match &export.src {
                Some(src) => {
                    let from = src.value.to_atom_lossy().to_string();
                    let what = match local.as_str() {
                        "default" => Imported::Default,
                        "*" => Imported::Namespace,
                        _ => Imported::Named(local),
                    };
                    self.reexports.insert(exported, Import { from, what });
                }
                None if local != exported => {
                    self.exported_as.insert(exported, local);
                }
                None => {
                    self.exported.insert(local);
                }
            }
        }
    }
}

/// A variable declared with a type that is not a function's (those are functions, see `functions.rs`):
/// its name and type.
fn typed_value(declarator: &VarDeclarator) -> Option<(String, Rc<TsType>)> {
    let Pat::Ident(id) = &declarator.name else { return None };
    let ty = &id.type_ann.as_deref()?.type_ann;
    let function = matches!(&**ty, TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(_)));
    (!function).then(|| (id.id.sym.to_string(), Rc::new((**ty).clone())))
}

fn export_name(name: &ModuleExportName) -> String {
    match name {
        ModuleExportName::Ident(id) => id.sym.to_string(),
        ModuleExportName::Str(s) => s.value.to_atom_lossy().to_string(),
    }
}

/// The values of an enum's members: a number or string initialiser as written (a negative number too),
/// one more than the member before for a member without one (0 for the first). A member computed
/// otherwise has no value the declaration shows, and ends the counting.
/// A `const` bound to an object of literal values (`const Mode = { Fast: 'fast', Slow: 'slow' } as const`):
/// TypeScript code that avoids `enum` declares its enums so, with the type of their values beside them
/// (`type Mode = (typeof Mode)[keyof typeof Mode]`). Its name and its members' values, in order.
fn const_object(declarator: &VarDeclarator) -> Option<(String, Vec<(String, Literal)>)> {
    let Pat::Ident(name) = &declarator.name else {
        return None;
    };
    let mut init = declarator.init.as_deref()?;
    loop {
        init = match init {
            Expr::TsConstAssertion(a) => &a.expr,
            Expr::TsSatisfies(s) => &s.expr,
            Expr::Paren(p) => &p.expr,
            _ => break,
        };
    }
    let Expr::Object(object) = init else {
        return None;
    };
    let mut values = Vec::new();
    for prop in &object.props {
        let PropOrSpread::Prop(prop) = prop else {
            return None;
        };
        let Prop::KeyValue(kv) = &**prop else {
            return None;
        };
        let key = match &kv.key {
            PropName::Ident(id) => id.sym.to_string(),
            PropName::Str(s) => s.value.to_atom_lossy().to_string(),
            _ => return None,
        };
        values.push((key, literal(&kv.value)?));
    }
    (!values.is_empty()).then(|| (name.id.sym.to_string(), values))
}

/// The value of a literal expression an enum member or a const object's member is bound to.
fn literal(expr: &Expr) -> Option<Literal> {
    match expr {
        Expr::Lit(Lit::Num(n)) => Some(Literal::Number(n.value)),
        Expr::Lit(Lit::Str(s)) => Some(Literal::String(s.value.to_atom_lossy().to_string())),
        Expr::Unary(u) if u.op == UnaryOp::Minus => match &*u.arg {
            Expr::Lit(Lit::Num(n)) => Some(Literal::Number(-n.value)),
            _ => None,
        },
        _ => None,
    }
}

fn enum_values(decl: &TsEnumDecl) -> Vec<(String, Literal)> {
    let mut values = Vec::new();
    let mut next = Some(0.0);
    for member in &decl.members {
        let name = match &member.id {
            TsEnumMemberId::Ident(id) => id.sym.to_string(),
            TsEnumMemberId::Str(s) => s.value.to_atom_lossy().to_string(),
        };
        let value = match member.init.as_deref() {
            None => next.map(Literal::Number),
            Some(init) => literal(init),
        };
        next = match &value {
            Some(Literal::Number(n)) => Some(n + 1.0),
            _ => None,
        };
        if let Some(value) = value {
            values.push((name, value));
        }
    }
    values
}
