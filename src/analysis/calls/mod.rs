//! The functions each function of a file calls, by their plain name, as members of the file's own
//! objects, or as what another file exports, read from the syntax tree.
//!
//! A module's exported function often delegates the work to functions the module keeps to itself
//! (`module.exports = function (val) { ... parse(val) }`, `const compile = (s) => ...`, helpers declared
//! inside the module's IIFE). Suites only reach those through the exported ones, so what a function
//! calls says which code its tests must cover (see `session/helpers.rs`). A name is resolved as the
//! language does, to the innermost scope declaring it (function declarations hoisted, a `const`, `let` or
//! `var` bound to a function or arrow counting as a named function); a parameter or another local of the
//! same name hides the outer function. Block scopes are read as their function's, which only matters
//! where one name is declared twice in one function. Calls count directly, through `.call`/`.apply`, and
//! where the function is passed as an argument (`items.map(normalize)`): a callback runs during the call
//! that receives it. Building an instance of a class of the file (`new Lexer(text)`) calls the methods of
//! its prototype of the names it calls (`lexer.next()`), and of those these and the constructor call.
//!
//! Modules keep functions on objects too, and call them there: an object literal's members
//! (`var LZString = { compress: function (s) { return LZString._compress(s, 16) }, _compress: ... }`),
//! the module's exports (`exports.helper = function`, `module.exports = { ... }`, called as
//! `exports.helper()` or `module.exports.helper()`), a function's or class's own members
//! (`Base.prototype.init = function`, called as `Base.prototype.init.call(this)`; a class's methods and
//! static methods). A call through such a member (`X.y()`, `X.prototype.y.call(...)`, `X['y']()`) is
//! resolved to the function the member is bound to when the file binds it once, to a function, and the
//! object's name is bound to an object the file builds (an object literal, a function, a class, the
//! exports) and is never assigned again: what a member holds is then known without running the code.
//!
//! Another file's functions are called the same ways, through what it exports: a name bound to
//! `require('./parser')` (or to a member of it, destructured or not), `require('./parser').parse(...)`,
//! and ES imports (`import { parse } from`, `import * as parser from`, a default import). Each file notes
//! those calls with the module specifier and the path among its exports, and what it exports itself
//! (`module.exports`, its members, a module IIFE's returned object literal, `export` declarations and
//! lists); [`link`] then resolves them to the other file's functions, for the specifiers its caller says
//! to follow.

use std::collections::{BTreeSet, HashMap};

use swc_common::{Span, Spanned};
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, AssignExpr, AssignOp, AssignTarget, CallExpr, Callee, Class, ClassDecl, ClassMember,
    Constructor, Decl, DefaultDecl, ExportSpecifier, Expr, ExprOrSpread, FnDecl, Function, ImportDecl, ImportSpecifier,
    MemberExpr, MemberProp, Module, ModuleDecl, ModuleExportName, ModuleItem, NewExpr, ObjectLit, ObjectPatProp, Pat,
    Prop, PropOrSpread, ReturnStmt, Script, SimpleAssignTarget, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

use built::built_calls;

use crate::analysis::parse::{constructor_params, member_name, prop_name};

mod built;

/// One function of a file and the functions it calls by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NamedCalls {
    /// Byte offset of the function's start in the file.
    pub start: u32,
    /// Byte offset of its end.
    pub end: u32,
    /// The byte ranges (start, end) of the functions of its file it calls, not counting those its nested
    /// functions call.
    pub calls: BTreeSet<(u32, u32)>,
    /// The functions of other files it calls (file, byte range), once [`link`]ed.
    pub elsewhere: BTreeSet<(usize, (u32, u32))>,
}

/// What a file's functions call, and what it exports.
#[derive(Debug, Default)]
pub(crate) struct FileCalls {
    /// Its functions and what they call.
    pub functions: Vec<NamedCalls>,
    /// The calls of functions another file exports: (index in `functions`, module specifier, path among
    /// its exports, `""` for the module itself).
    imports: Vec<(usize, String, String)>,
    /// The functions it exports, by path (`parse`, `default`, `api.parse`; `""` for a module that is one).
    exports: HashMap<String, (u32, u32)>,
}

/// What every function of `program` calls, and what the file exports; `base` is the file's start
/// position, to turn spans into offsets.
pub(crate) fn named_calls(program: &swc_ecma_ast::Program, base: u32) -> FileCalls {
    // The first binding is the module's exports (`exports`, `module.exports`).
    let exports = Bound { members: Some(HashMap::new()), ..Bound::default() };
    let mut collector = Collector {
        base,
        bindings: vec![exports],
        scopes: Vec::new(),
        open: Vec::new(),
        done: Vec::new(),
        exported: Vec::new(),
        exports_alias: None,
        returns_into: None,
    };
    program.visit_with(&mut collector);
    collector.finish()
}

/// Resolves the calls of functions other files export: `dependency(file, specifier)` says which file a
/// specifier of `file` means, when it should be followed.
pub(crate) fn link(files: &mut [FileCalls], dependency: impl Fn(usize, &str) -> Option<usize>) {
    let mut found = Vec::new();
    for (file, calls) in files.iter().enumerate() {
        for (function, specifier, path) in &calls.imports {
            let Some(other) = dependency(file, specifier).filter(|other| *other != file) else { continue };
            let exports = &files[other].exports;
            // `import parse from './parse.cjs'`: a CommonJS module's default export is the module.
            let target = exports.get(path).or_else(|| (path == "default").then(|| exports.get("")).flatten());
            if let Some(target) = target {
                found.push((file, *function, (other, *target)));
            }
        }
    }
    for (file, function, target) in found {
        files[file].functions[function].elsewhere.insert(target);
    }
}

/// The functions within `start..end` that are not within one of `holes` (ranges of nested functions left
/// out), nested functions included.
fn within<'a>(
    all: &'a [NamedCalls],
    start: u32,
    end: u32,
    holes: &'a [(u32, u32)],
) -> impl Iterator<Item = &'a NamedCalls> {
    let inside = |f: &NamedCalls, (s, e): (u32, u32)| f.start >= s && f.end <= e;
    all.iter().filter(move |f| inside(f, (start, end)) && !holes.iter().any(|h| inside(f, *h)))
}

/// The functions of the file called by the code within `start..end` that is not within one of `holes`.
pub(crate) fn calls_within(all: &[NamedCalls], start: u32, end: u32, holes: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
    within(all, start, end, holes).flat_map(|f| f.calls.iter().copied()).collect()
}

/// The functions of other files called by the code within `start..end` that is not within one of `holes`.
pub(crate) fn calls_elsewhere_within(
    all: &[NamedCalls],
    start: u32,
    end: u32,
    holes: &[(u32, u32)],
) -> BTreeSet<(usize, (u32, u32))> {
    within(all, start, end, holes).flat_map(|f| f.elsewhere.iter().copied()).collect()
}

/// What a declared name is bound to.
#[derive(Debug, Default)]
struct Bound {
    /// The function (its byte range), if it is bound to one.
    function: Option<(u32, u32)>,
    /// The functions its members are bound to, by path (`compress`, `prototype.init`); a member the file
    /// binds twice, or to something else, maps to `None`. `None` as a whole where the members cannot be
    /// known: a parameter, a value the file does not build where it declares it, a name assigned again.
    members: Option<HashMap<String, Option<(u32, u32)>>>,
    /// What another file exports that it is bound to: the module specifier and the path among its exports
    /// (`require('./parser')`: `""`; `const { parse } = require('./parser')`: `parse`).
    import: Option<(String, String)>,
}

/// Where a member expression starts: a binding of the file, or a module another file is
/// (`require('./parser').parse`), and the path of names after it.
enum Start {
    Binding(usize),
    Module(String),
}

/// The bindings a scope declares, by name: places in [`Collector::bindings`].
type Scope = HashMap<String, usize>;

/// A function being visited: its calls by name, those through members (binding, path), which are
/// resolved once the whole file has bound its members, and those of what other files export
/// (specifier, path).
struct Open {
    calls: NamedCalls,
    members: Vec<(usize, String)>,
    /// The bindings it constructs (`new TokenStream(...)`), and the names of the methods it calls on
    /// anything (`lexer.next()`): the methods of those names on what it built run.
    built: Vec<usize>,
    methods: BTreeSet<String>,
    imports: Vec<(String, String)>,
}

struct Collector {
    base: u32,
    bindings: Vec<Bound>,
    scopes: Vec<Scope>,
    open: Vec<Open>,
    done: Vec<Open>,
    /// An ES module's exports: the name each is exported as, and its binding.
    exported: Vec<(String, usize)>,
    /// The binding `module.exports` is assigned (`module.exports = posix`).
    exports_alias: Option<usize>,
    /// The function whose `return { ... }` gives a binding its members (`module.exports = (function () {
    /// ... return { parse: parse }; })()`), and that binding.
    returns_into: Option<((u32, u32), usize)>,
}

impl Collector {
    fn range(&self, span: Span) -> (u32, u32) {
        (span.lo.0.saturating_sub(self.base), span.hi.0.saturating_sub(self.base))
    }

    /// Visits a function's parameters and body in a scope of their own.
    fn function<N: VisitWith<Self> + Spanned + ?Sized>(&mut self, node: &N, declared: HashMap<String, Bound>) {
        let (start, end) = self.range(node.span());
        let calls = NamedCalls { start, end, calls: BTreeSet::new(), elsewhere: BTreeSet::new() };
        self.open.push(Open {
            calls,
            members: Vec::new(),
            built: Vec::new(),
            methods: BTreeSet::new(),
            imports: Vec::new(),
        });
        self.enter(declared);
        node.visit_children_with(self);
        self.scopes.pop();
        let finished = self.open.pop().expect("pushed above");
        self.done.push(finished);
    }

    /// Opens a scope declaring `declared`.
    fn enter(&mut self, declared: HashMap<String, Bound>) {
        let mut scope = Scope::new();
        for (name, bound) in declared {
            scope.insert(name, self.bindings.len());
            self.bindings.push(bound);
        }
        self.scopes.push(scope);
    }

    /// The binding a plain name means here.
    fn binding(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name)).copied()
    }

    /// The function a plain name means here, if it means one.
    fn resolve(&self, name: &str) -> Option<(u32, u32)> {
        self.binding(name).and_then(|b| self.bindings[b].function)
    }

    fn calls(&mut self, name: &str) {
        let Some(binding) = self.binding(name) else { return };
        let bound = &self.bindings[binding];
        let (function, import) = (bound.function, bound.import.clone());
        let Some(current) = self.open.last_mut() else { return };
        if let Some(target) = function {
            current.calls.calls.insert(target);
        } else if let Some(import) = import {
            current.imports.push(import);
        }
    }

    /// Where a member expression starts and the path of names after it (`X.prototype.y`: X's binding,
    /// `prototype.y`), the module's exports standing for a free `exports` or `module.exports`.
    fn start(&self, member: &MemberExpr) -> Option<(Start, String)> {
        let mut path = vec![member_name(&member.prop)?];
        let mut object = member.obj.unwrap_parens();
        while let Expr::Member(inner) = object {
            path.push(member_name(&inner.prop)?);
            object = inner.obj.unwrap_parens();
        }
        path.reverse();
        let root = match object {
            Expr::Ident(root) => root,
            call => return required(call).map(|specifier| (Start::Module(specifier), path.join("."))),
        };
        let binding = self.binding(&root.sym);
        match (binding, &*root.sym, path.first().map(String::as_str)) {
            (Some(b), _, _) => Some((Start::Binding(b), path.join("."))),
            (None, "exports", _) => Some((Start::Binding(0), path.join("."))),
            (None, "module", Some("exports")) => Some((Start::Binding(0), path[1..].join("."))),
            _ => None,
        }
    }

    /// The binding of the file a member expression starts from, and the path after it.
    fn member(&self, member: &MemberExpr) -> Option<(usize, String)> {
        match self.start(member)? {
            (Start::Binding(b), path) => Some((b, path)),
            (Start::Module(_), _) => None,
        }
    }

    fn calls_member(&mut self, member: &MemberExpr) {
        let import = match self.start(member) {
            Some((Start::Binding(b), path)) => match &self.bindings[b].import {
                Some((specifier, at)) => Some((specifier.clone(), joined(at, &path))),
                None => {
                    if let Some(current) = self.open.last_mut() {
                        current.members.push((b, path));
                    }
                    None
                }
            },
            Some((Start::Module(specifier), path)) => Some((specifier, path)),
            None => None,
        };
        if let Some(import) = import
            && let Some(current) = self.open.last_mut()
        {
            current.imports.push(import);
        }
    }

    /// Binds member `path` of `binding` to `function`; a second binding of it makes it unknown.
    fn define(&mut self, binding: usize, path: String, function: Option<(u32, u32)>) {
        if let Some(members) = &mut self.bindings[binding].members {
            members.entry(path).and_modify(|f| *f = None).or_insert(function);
        }
    }

    /// The function a value is, when the syntax says: a function or arrow, or a name bound to one.
    fn function_value(&self, value: &Expr) -> Option<(u32, u32)> {
        match value.unwrap_parens() {
            Expr::Fn(f) => Some(self.range(f.function.span)),
            Expr::Arrow(a) => Some(self.range(a.span)),
            Expr::Ident(name) => self.resolve(&name.sym),
            _ => None,
        }
    }

    /// Binds the members an object literal gives `binding`.
    fn object(&mut self, binding: usize, object: &ObjectLit) {
        for prop in &object.props {
            let (name, function) = match prop {
                // What a spread brings is not known.
                PropOrSpread::Spread(_) => {
                    self.bindings[binding].members = None;
                    return;
                }
                PropOrSpread::Prop(prop) => match &**prop {
                    Prop::Shorthand(name) => (Some(name.sym.to_string()), self.resolve(&name.sym)),
                    Prop::KeyValue(kv) => (prop_name(&kv.key), self.function_value(&kv.value)),
                    Prop::Method(m) => (prop_name(&m.key), Some(self.range(m.key.span().with_hi(m.function.span.hi)))),
                    Prop::Getter(g) => (prop_name(&g.key), None),
                    Prop::Setter(s) => (prop_name(&s.key), None),
                    Prop::Assign(_) => (None, None),
                },
            };
            if let Some(name) = name {
                self.define(binding, name, function);
            }
        }
    }

    /// The names a scope declares: its parameters' and those its statements declare, hoisted.
    fn declared<N: VisitWith<Declarations> + ?Sized>(
        &self,
        params: &[&Pat],
        body: Option<&N>,
    ) -> HashMap<String, Bound> {
        let mut declarations = Declarations { base: self.base, scope: HashMap::new() };
        for param in params {
            bind_pattern(param, &mut declarations.scope);
        }
        if let Some(body) = body {
            body.visit_children_with(&mut declarations);
        }
        declarations.scope
    }

    /// Notes what an ES module exports (`export function parse`, `export { parse as read }`, `export
    /// default format`), once its top-level names are bound.
    fn exports_of(&mut self, module: &Module) {
        let mut exported = Vec::new();
        for item in &module.body {
            let ModuleItem::ModuleDecl(declaration) = item else { continue };
            match declaration {
                ModuleDecl::ExportDecl(d) => match &d.decl {
                    Decl::Fn(f) => exported.push((f.ident.sym.to_string(), f.ident.sym.to_string())),
                    Decl::Class(c) => exported.push((c.ident.sym.to_string(), c.ident.sym.to_string())),
                    Decl::Var(v) => {
                        for name in v.decls.iter().filter_map(|d| d.name.as_ident()) {
                            exported.push((name.id.sym.to_string(), name.id.sym.to_string()));
                        }
                    }
                    _ => {}
                },
                ModuleDecl::ExportNamed(named) if named.src.is_none() => {
                    for specifier in &named.specifiers {
                        let ExportSpecifier::Named(s) = specifier else { continue };
                        let name = |n: &ModuleExportName| match n {
                            ModuleExportName::Ident(name) => name.sym.to_string(),
                            ModuleExportName::Str(name) => name.value.to_atom_lossy().to_string(),
                        };
                        let local = name(&s.orig);
                        exported.push((s.exported.as_ref().map_or_else(|| local.clone(), name), local));
                    }
                }
                ModuleDecl::ExportDefaultDecl(d) => {
                    if let DefaultDecl::Fn(f) = &d.decl {
                        let function = self.range(f.function.span);
                        self.bindings.push(Bound { function: Some(function), ..Bound::default() });
                        self.exported.push(("default".to_string(), self.bindings.len() - 1));
                    }
                }
                ModuleDecl::ExportDefaultExpr(e) => match e.expr.unwrap_parens() {
                    Expr::Ident(name) => exported.push(("default".to_string(), name.sym.to_string())),
                    value => {
                        let function = self.function_value(value);
                        self.bindings.push(Bound { function, ..Bound::default() });
                        self.exported.push(("default".to_string(), self.bindings.len() - 1));
                    }
                },
                _ => {}
            }
        }
        for (name, local) in exported {
            if let Some(binding) = self.binding(&local) {
                self.exported.push((name, binding));
            }
        }
    }

    /// The functions each function calls, its calls through members resolved, and what the file exports.
    fn finish(self) -> FileCalls {
        let bindings = self.bindings;
        let mut file = FileCalls::default();
        let methods_called: Vec<((u32, u32), BTreeSet<String>)> =
            self.done.iter().map(|open| ((open.calls.start, open.calls.end), open.methods.clone())).collect();
        for open in self.done {
            let mut named = open.calls;
            for (binding, path) in open.members {
                if let Some(Some(target)) = bindings[binding].members.as_ref().and_then(|m| m.get(&path)) {
                    named.calls.insert(*target);
                }
            }
            if !open.built.is_empty() {
                let built = open.built.iter().map(|b| &bindings[*b]);
                let calls = built_calls(built, open.methods, &methods_called);
                named.calls.extend(calls);
            }
            let index = file.functions.len();
            file.imports.extend(open.imports.into_iter().map(|(specifier, path)| (index, specifier, path)));
            file.functions.push(named);
        }
        let commonjs = std::iter::once((String::new(), self.exports_alias.unwrap_or(0)));
        for (name, binding) in commonjs.chain(self.exported) {
            let bound = &bindings[binding];
            if let Some(function) = bound.function {
                file.exports.insert(name.clone(), function);
            }
            for (path, function) in bound.members.iter().flatten() {
                if let Some(function) = function {
                    file.exports.insert(joined(&name, path), *function);
                }
            }
        }
        file
    }
}

/// The module and path an initialiser takes from another file: `require('./x')`, `require('./x').a.b`.
fn import_of(init: &Expr) -> Option<(String, String)> {
    let mut path = Vec::new();
    let mut expr = init.unwrap_parens();
    while let Expr::Member(member) = expr {
        path.push(member_name(&member.prop)?);
        expr = member.obj.unwrap_parens();
    }
    path.reverse();
    required(expr).map(|specifier| (specifier, path.join(".")))
}

/// `a.b` of two paths, either of which may be empty.
fn joined(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}.{b}"),
    }
}

/// The specifier of `require('./x')`.
fn required(expr: &Expr) -> Option<String> {
    let Expr::Call(call) = expr.unwrap_parens() else { return None };
    let Callee::Expr(callee) = &call.callee else { return None };
    let (Expr::Ident(name), [argument]) = (&**callee, &call.args[..]) else { return None };
    match (&*name.sym, &*argument.expr) {
        ("require", Expr::Lit(swc_ecma_ast::Lit::Str(s))) if argument.spread.is_none() => {
            Some(s.value.to_atom_lossy().to_string())
        }
        _ => None,
    }
}

impl Visit for Collector {
    fn visit_module(&mut self, node: &Module) {
        let declared = self.declared(&[], Some(node));
        self.enter(declared);
        self.exports_of(node);
        node.visit_children_with(self);
        self.scopes.pop();
    }

    fn visit_return_stmt(&mut self, node: &ReturnStmt) {
        if let (Some((function, binding)), Some(current)) = (self.returns_into, self.open.last())
            && (current.calls.start, current.calls.end) == function
            && let Some(Expr::Object(object)) = node.arg.as_deref().map(Expr::unwrap_parens)
        {
            self.object(binding, object);
        }
        node.visit_children_with(self);
    }

    fn visit_script(&mut self, node: &Script) {
        let declared = self.declared(&[], Some(node));
        self.enter(declared);
        node.visit_children_with(self);
        self.scopes.pop();
    }

    fn visit_function(&mut self, node: &Function) {
        let params: Vec<&Pat> = node.params.iter().map(|p| &p.pat).collect();
        let declared = self.declared(&params, node.body.as_ref());
        self.function(node, declared);
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        let params: Vec<&Pat> = node.params.iter().collect();
        let declared = match &*node.body {
            ArrowFunctionBody::FunctionBody(block) => self.declared(&params, Some(block)),
            ArrowFunctionBody::Expr(_) => self.declared::<Function>(&params, None),
        };
        self.function(node, declared);
    }

    fn visit_constructor(&mut self, node: &Constructor) {
        let params: Vec<&Pat> = constructor_params(node).collect();
        let declared = self.declared(&params, node.body.as_ref());
        self.function(node, declared);
    }

    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        if let (Pat::Ident(id), Some(Expr::Object(object))) =
            (&node.name, node.init.as_deref().map(Expr::unwrap_parens))
            && let Some(binding) = self.binding(&id.id.sym)
        {
            self.object(binding, object);
        }
        node.visit_children_with(self);
    }

    fn visit_assign_expr(&mut self, node: &AssignExpr) {
        let function = if node.op == AssignOp::Assign { self.function_value(&node.right) } else { None };
        match &node.left {
            // A name assigned again may hold anything.
            AssignTarget::Simple(SimpleAssignTarget::Ident(name)) => {
                if let Some(binding) = self.binding(&name.id.sym) {
                    self.bindings[binding].members = None;
                }
            }
            AssignTarget::Simple(SimpleAssignTarget::Member(member)) => match self.member(member) {
                // `module.exports = { ... }`, `module.exports = posix`, `module.exports = (function () { ...
                // return { ... }; })()`, `module.exports = function (...) {...}`.
                Some((binding, path)) if path.is_empty() => match node.right.unwrap_parens() {
                    Expr::Object(object) if node.op == AssignOp::Assign => self.object(binding, object),
                    Expr::Ident(name) if binding == 0 => self.exports_alias = self.binding(&name.sym),
                    Expr::Call(call) if binding == 0 => {
                        self.returns_into = match &call.callee {
                            Callee::Expr(f) => self.function_value(f).map(|f| (f, binding)),
                            _ => None,
                        };
                    }
                    _ => {
                        self.bindings[binding].function = function;
                        self.bindings[binding].members = function.map(|_| HashMap::new());
                    }
                },
                Some((binding, path)) => self.define(binding, path, function),
                None => {}
            },
            _ => {}
        }
        node.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        if let Callee::Expr(callee) = &node.callee {
            match &**callee {
                Expr::Ident(name) => self.calls(&name.sym),
                // `parse.call(this, text)`, `api.parse(text)`, `Base.prototype.init.apply(this, args)`.
                Expr::Member(member) => {
                    if let (MemberProp::Ident(name), Some(current)) = (&member.prop, self.open.last_mut()) {
                        current.methods.insert(name.sym.to_string());
                    }
                    let through =
                        matches!(&member.prop, MemberProp::Ident(how) if how.sym == "call" || how.sym == "apply");
                    match (&*member.obj, through) {
                        (Expr::Ident(name), true) => self.calls(&name.sym),
                        (Expr::Member(inner), true) => self.calls_member(inner),
                        _ => self.calls_member(member),
                    }
                }
                _ => {}
            }
        }
        for ExprOrSpread { expr, .. } in &node.args {
            match &**expr {
                Expr::Ident(name) => self.calls(&name.sym),
                Expr::Member(member) => self.calls_member(member),
                _ => {}
            }
        }
        node.visit_children_with(self);
    }

    fn visit_new_expr(&mut self, node: &NewExpr) {
        if let Expr::Ident(name) = node.callee.unwrap_parens() {
            self.builds(&name.sym);
        }
        node.visit_children_with(self);
    }
}

/// The names a scope declares, without entering nested functions (their names are theirs).
struct Declarations {
    base: u32,
    scope: HashMap<String, Bound>,
}

impl Declarations {
    fn range(&self, span: Span) -> (u32, u32) {
        (span.lo.0.saturating_sub(self.base), span.hi.0.saturating_sub(self.base))
    }

    /// Declares `name`; declared twice, its members are not known (which declaration runs last is).
    fn declare(
        &mut self,
        name: String,
        function: Option<(u32, u32)>,
        members: Option<HashMap<String, Option<(u32, u32)>>>,
    ) {
        let members = if self.scope.contains_key(&name) { None } else { members };
        self.scope.insert(name, Bound { function, members, import: None });
    }

    /// Binds the names of `pattern` to what module `specifier` exports at `path`: the whole of it to a
    /// name, a destructured member (`const { parse, format: fmt } = require('./x')`) to each name.
    fn imports(&mut self, pattern: &Pat, (specifier, path): (String, String)) {
        let mut imported = Vec::new();
        let mut others = Vec::new();
        match pattern {
            Pat::Ident(id) => imported.push((id.id.sym.to_string(), path)),
            Pat::Object(object) => {
                for prop in &object.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => match (prop_name(&kv.key), &*kv.value) {
                            (Some(key), Pat::Ident(id)) => imported.push((id.id.sym.to_string(), joined(&path, &key))),
                            (_, other) => others.push(other),
                        },
                        ObjectPatProp::Assign(a) => {
                            let name = a.key.id.sym.to_string();
                            imported.push((name.clone(), joined(&path, &name)));
                        }
                        ObjectPatProp::Rest(rest) => others.push(&rest.arg),
                    }
                }
            }
            other => others.push(other),
        }
        for (name, path) in imported {
            let import = Some((specifier.clone(), path));
            self.scope.insert(name, Bound { import, ..Bound::default() });
        }
        others.into_iter().for_each(|p| bind_pattern(p, &mut self.scope));
    }

    /// A class's methods, by path: static ones by name, the others under `prototype`.
    fn class_members(&self, class: &Class) -> HashMap<String, Option<(u32, u32)>> {
        let mut members = HashMap::new();
        for member in &class.body {
            let ClassMember::Method(m) = member else { continue };
            let Some(name) = prop_name(&m.key) else { continue };
            let path = if m.is_static { name } else { format!("prototype.{name}") };
            let function = (m.kind == swc_ecma_ast::MethodKind::Method).then(|| self.range(m.span));
            members.entry(path).and_modify(|f| *f = None).or_insert(function);
        }
        members
    }
}

impl Visit for Declarations {
    fn visit_fn_decl(&mut self, node: &FnDecl) {
        let range = self.range(node.function.span);
        self.declare(node.ident.sym.to_string(), Some(range), Some(HashMap::new()));
    }

    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        if let Some(import) = node.init.as_deref().and_then(import_of) {
            return self.imports(&node.name, import);
        }
        let (function, members) = match node.init.as_deref().map(Expr::unwrap_parens) {
            Some(Expr::Fn(f)) => (Some(f.function.span), Some(HashMap::new())),
            Some(Expr::Arrow(a)) => (Some(a.span), Some(HashMap::new())),
            Some(Expr::Class(c)) => (None, Some(self.class_members(&c.class))),
            // Its members are bound where the collector visits the literal.
            Some(Expr::Object(_)) => (None, Some(HashMap::new())),
            _ => (None, None),
        };
        match (&node.name, function, members) {
            (Pat::Ident(id), function, Some(members)) => {
                let range = function.map(|span| self.range(span));
                self.declare(id.id.sym.to_string(), range, Some(members));
            }
            (pattern, _, _) => bind_pattern(pattern, &mut self.scope),
        }
    }

    fn visit_class_decl(&mut self, node: &ClassDecl) {
        let members = self.class_members(&node.class);
        self.declare(node.ident.sym.to_string(), None, Some(members));
    }

    fn visit_import_decl(&mut self, node: &ImportDecl) {
        let from = node.src.value.to_atom_lossy().to_string();
        for specifier in &node.specifiers {
            let (local, path) = match specifier {
                ImportSpecifier::Named(s) => {
                    let imported = match &s.imported {
                        Some(ModuleExportName::Ident(name)) => name.sym.to_string(),
                        Some(ModuleExportName::Str(name)) => name.value.to_atom_lossy().to_string(),
                        None => s.local.sym.to_string(),
                    };
                    (&s.local, imported)
                }
                ImportSpecifier::Default(s) => (&s.local, "default".to_string()),
                ImportSpecifier::Namespace(s) => (&s.local, String::new()),
            };
            let import = Some((from.clone(), path));
            self.scope.insert(local.sym.to_string(), Bound { import, ..Bound::default() });
        }
    }

    // Expressions declare nothing of this scope: the functions and classes in them have scopes of their own.
    fn visit_expr(&mut self, _: &Expr) {}

    fn visit_function(&mut self, _: &Function) {}

    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}
}

/// Binds every name of a parameter or destructuring pattern as no function, unless already bound.
fn bind_pattern(pattern: &Pat, scope: &mut HashMap<String, Bound>) {
    let mut names = Vec::new();
    collect_names(pattern, &mut names);
    for name in names {
        scope.entry(name).or_default();
    }
}

fn collect_names(pattern: &Pat, names: &mut Vec<String>) {
    match pattern {
        Pat::Ident(id) => names.push(id.id.sym.to_string()),
        Pat::Array(array) => array.elems.iter().flatten().for_each(|p| collect_names(p, names)),
        Pat::Rest(rest) => collect_names(&rest.arg, names),
        Pat::Object(object) => {
            for prop in &object.props {
                match prop {
                    swc_ecma_ast::ObjectPatProp::KeyValue(kv) => collect_names(&kv.value, names),
                    swc_ecma_ast::ObjectPatProp::Assign(a) => names.push(a.key.id.sym.to_string()),
                    swc_ecma_ast::ObjectPatProp::Rest(rest) => collect_names(&rest.arg, names),
                }
            }
        }
        Pat::Assign(assign) => collect_names(&assign.left, names),
        Pat::Invalid(_) | Pat::Expr(_) => {}
    }
}

#[cfg(test)]
mod tests;
