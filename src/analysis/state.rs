//! Does the code under test change state that outlives one test?
//!
//! Tests run in one reused QuickJS context only while no test can observe what an earlier one did. The
//! state a test can leave behind is what its calls write outside the objects the test itself created:
//! globals and module-level variables, static properties of classes, prototypes (user or built-in), and
//! module-level collections. This pass looks for such writes in function bodies, and the instrumenter
//! marks each one it finds (`instrument/writes.rs`): a test that runs a marked write is followed by a new
//! context. It errs on the side of "shared": a false alarm only costs speed.

use std::collections::HashSet;

use swc_common::Span;
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, AssignExpr, AssignTarget, CallExpr, Callee, CatchClause, ClassDecl, ClassProp,
    Constructor, Decl, Expr, FnDecl, Function, FunctionBody, GetterProp, MemberProp, ModuleDecl, ModuleItem, Pat,
    Program, Prop, SetterProp, SimpleAssignTarget, Stmt, UnaryExpr, UnaryOp, UpdateExpr, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

/// One expression in a function that writes state shared between tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SharedWrite {
    /// The writing expression: an assignment, `++`/`--`, `delete`, or the call of a mutating method.
    pub span: Span,
    /// What it writes, for the user (e.g. "assigns to 'nextId', which outlives a call").
    pub what: String,
}

/// Every write in the functions of `program` to state shared between tests, in source order.
pub(crate) fn shared_writes(program: &Program) -> Vec<SharedWrite> {
    let mut finder = SharedWriteFinder { scopes: Vec::new(), found: Vec::new(), load_only: load_only(program) };
    program.visit_with(&mut finder);
    finder.found
}

/// Whether functions in `program` write state shared between tests: the first such write, described
/// for the user.
pub(crate) fn shared_state_write(program: &Program) -> Option<String> {
    shared_writes(program).into_iter().next().map(|w| w.what)
}

/// The statements at the top level of `program`.
fn top_level(program: &Program) -> Vec<&Stmt> {
    match program {
        Program::Script(s) => s.body.iter().collect(),
        Program::Module(m) => {
            m.body.iter().filter_map(|i| if let ModuleItem::Stmt(s) = i { Some(s) } else { None }).collect()
        }
    }
}

/// Top-level functions that only run while the file loads: called from top-level code and named
/// nowhere else (not exported, not called from a function, not passed on). What they write (a grammar's
/// tables, `createToken` filling `re[]`) is written once, before any test: not shared between tests.
fn load_only(program: &Program) -> HashSet<String> {
    let mut names = HashSet::new();
    for stmt in top_level(program) {
        match stmt {
            Stmt::Decl(Decl::Fn(f)) => {
                names.insert(f.ident.sym.to_string());
            }
            Stmt::Decl(Decl::Var(v)) => {
                for d in &v.decls {
                    if let (Pat::Ident(name), Some(init)) = (&d.name, &d.init)
                        && matches!(&**init, Expr::Fn(_) | Expr::Arrow(_))
                    {
                        names.insert(name.id.sym.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    let mut uses = Uses { names: &names, depth: 0, called: HashSet::new(), escaped: HashSet::new() };
    program.visit_with(&mut uses);
    // One never called may be found as a class of a script's, and called by tests.
    names.retain(|n| uses.called.contains(n) && !uses.escaped.contains(n));
    names
}

/// Which of `names` top-level code calls, and which are named in any other way.
struct Uses<'a> {
    names: &'a HashSet<String>,
    /// Function bodies around the node visited.
    depth: usize,
    called: HashSet<String>,
    escaped: HashSet<String>,
}

impl Uses<'_> {
    fn inside<N: VisitWith<Self> + ?Sized>(&mut self, node: &N) {
        self.depth += 1;
        node.visit_children_with(self);
        self.depth -= 1;
    }
}

impl Visit for Uses<'_> {
    fn visit_function(&mut self, node: &Function) {
        self.inside(node);
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        self.inside(node);
    }

    fn visit_constructor(&mut self, node: &Constructor) {
        self.inside(node);
    }

    fn visit_getter_prop(&mut self, node: &GetterProp) {
        self.inside(node);
    }

    fn visit_setter_prop(&mut self, node: &SetterProp) {
        self.inside(node);
    }

    fn visit_class_prop(&mut self, node: &ClassProp) {
        self.inside(node);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        match &node.callee {
            Callee::Expr(callee)
                if self.depth == 0 && matches!(&**callee, Expr::Ident(i) if self.names.contains(&*i.sym)) =>
            {
                if let Expr::Ident(i) = &**callee {
                    self.called.insert(i.sym.to_string());
                }
                node.args.visit_with(self);
            }
            _ => node.visit_children_with(self),
        }
    }

    fn visit_expr(&mut self, node: &Expr) {
        if let Expr::Ident(i) = node
            && self.names.contains(&*i.sym)
        {
            self.escaped.insert(i.sym.to_string());
        }
        node.visit_children_with(self);
    }

    fn visit_prop(&mut self, node: &Prop) {
        if let Prop::Shorthand(i) = node
            && self.names.contains(&*i.sym)
        {
            self.escaped.insert(i.sym.to_string());
        }
        node.visit_children_with(self);
    }
}

/// Names declared at the top level of a script with `class`, `let` or `const`: such bindings are not
/// properties of the global object, so discovery must ask for them by name.
pub(crate) fn lexical_globals(program: &Program) -> Vec<String> {
    let mut names = Vec::new();
    for stmt in top_level(program) {
        match stmt {
            Stmt::Decl(Decl::Class(c)) => names.push(c.ident.sym.to_string()),
            Stmt::Decl(Decl::Var(v)) if v.kind != swc_ecma_ast::VarDeclKind::Var => {
                for d in &v.decls {
                    if let Pat::Ident(i) = &d.name {
                        names.push(i.id.sym.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    names
}

/// Methods that change the collection they are called on.
const MUTATORS: &[&str] = &[
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "sort",
    "reverse",
    "fill",
    "copyWithin",
    "set",
    "add",
    "delete",
    "clear",
];

/// Functions that change their first argument.
const OBJECT_WRITERS: &[&str] = &["defineProperty", "defineProperties", "assign", "setPrototypeOf", "freeze", "seal"];

/// Property names through which an instance reaches shared objects.
const SHARED_LINKS: &[&str] = &["prototype", "__proto__", "constructor"];

struct SharedWriteFinder {
    /// Names declared in each enclosing function, innermost last. Empty outside functions.
    scopes: Vec<HashSet<String>>,
    found: Vec<SharedWrite>,
    /// Top-level functions that only run at load (see [`load_only`]): their writes are not looked at.
    load_only: HashSet<String>,
}

impl SharedWriteFinder {
    fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    fn report(&mut self, span: Span, what: String) {
        if !self.scopes.is_empty() {
            self.found.push(SharedWrite { span, what });
        }
    }

    fn enter<N: VisitWith<Self> + ?Sized>(&mut self, declared: HashSet<String>, node: &N) {
        self.scopes.push(declared);
        node.visit_children_with(self);
        self.scopes.pop();
    }

    /// Checks a written expression (`x`, `a.b.c`, `a[k]`) that the expression at `span` writes.
    fn check_target_expr(&mut self, span: Span, expr: &Expr) {
        match expr {
            Expr::Ident(i) => self.check_ident(span, &i.sym),
            Expr::Member(_) => self.check_member_chain(span, expr),
            Expr::Paren(p) => self.check_target_expr(span, &p.expr),
            _ => {}
        }
    }

    fn check_ident(&mut self, span: Span, name: &str) {
        if !self.is_local(name) {
            self.report(span, format!("assigns to '{name}', which outlives a call"));
        }
    }

    fn check_member_chain(&mut self, span: Span, expr: &Expr) {
        let mut current = expr;
        let mut through_shared_link = false;
        let mut written = true;
        loop {
            match current {
                Expr::Member(m) => {
                    // Writing `this.constructor` itself changes the instance; writing through it
                    // (`this.constructor.count`) changes the class.
                    if let MemberProp::Ident(p) = &m.prop
                        && SHARED_LINKS.contains(&&*p.sym)
                        && !written
                    {
                        through_shared_link = true;
                    }
                    written = false;
                    current = &m.obj;
                }
                Expr::Paren(p) => current = &p.expr,
                _ => break,
            }
        }
        match current {
            Expr::Ident(root) if !self.is_local(&root.sym) => {
                self.report(span, format!("changes an object reached from '{}', which outlives a call", root.sym));
            }
            Expr::Ident(_) | Expr::This(_) if through_shared_link => {
                self.report(span, "changes a prototype or a constructor's properties".to_string());
            }
            _ => {}
        }
    }
}

impl Visit for SharedWriteFinder {
    fn visit_fn_decl(&mut self, node: &FnDecl) {
        if !(self.scopes.is_empty() && self.load_only.contains(&*node.ident.sym)) {
            node.visit_children_with(self);
        }
    }

    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        let loading = matches!(&node.name, Pat::Ident(name) if self.load_only.contains(&*name.id.sym));
        if !(self.scopes.is_empty() && loading) {
            node.visit_children_with(self);
        }
    }

    fn visit_function(&mut self, node: &Function) {
        let mut declared = declared_in(node.body.as_ref());
        for p in &node.params {
            pattern_names(&p.pat, &mut declared);
        }
        declared.insert("arguments".into());
        self.enter(declared, node);
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        let mut declared = match &*node.body {
            ArrowFunctionBody::FunctionBody(b) => declared_in(Some(b)),
            ArrowFunctionBody::Expr(_) => HashSet::new(),
        };
        for p in &node.params {
            pattern_names(p, &mut declared);
        }
        self.enter(declared, node);
    }

    fn visit_constructor(&mut self, node: &Constructor) {
        let mut declared = declared_in(node.body.as_ref());
        for p in &node.params {
            if let swc_ecma_ast::ParamOrTsParamProp::Param(p) = p {
                pattern_names(&p.pat, &mut declared);
            }
        }
        self.enter(declared, node);
    }

    fn visit_catch_clause(&mut self, node: &CatchClause) {
        let mut declared = HashSet::new();
        if let Some(p) = &node.param {
            pattern_names(p, &mut declared);
        }
        self.enter(declared, node);
    }

    fn visit_assign_expr(&mut self, node: &AssignExpr) {
        match &node.left {
            AssignTarget::Simple(SimpleAssignTarget::Ident(i)) => self.check_ident(node.span, &i.id.sym),
            AssignTarget::Simple(SimpleAssignTarget::Member(m)) => {
                self.check_member_chain(node.span, &Expr::Member(m.clone()));
            }
            _ => {}
        }
        node.visit_children_with(self);
    }

    fn visit_update_expr(&mut self, node: &UpdateExpr) {
        self.check_target_expr(node.span, &node.arg);
        node.visit_children_with(self);
    }

    fn visit_unary_expr(&mut self, node: &UnaryExpr) {
        if node.op == UnaryOp::Delete {
            self.check_target_expr(node.span, &node.arg);
        }
        node.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        if self.scopes.is_empty()
            && let Callee::Expr(callee) = &node.callee
            && let Some(body) = invoked(callee)
        {
            // A function called at the top level runs once, while the file loads (a UMD or IIFE wrapper,
            // and the factory such a wrapper calls): its bindings outlive every test, as the top level's
            // do (lunr's `lunr.TokenSet._nextId += 1`, `lunr` declared in the wrapper, counted on from
            // one test to the next when it was taken for a local).
            self.at_top_level(body);
            for arg in &node.args {
                match function_expr(&arg.expr) {
                    Some(factory) => self.at_top_level(factory),
                    None => arg.visit_with(self),
                }
            }
            return;
        }
        if let Callee::Expr(callee) = &node.callee
            && let Expr::Member(m) = &**callee
            && let MemberProp::Ident(method) = &m.prop
        {
            let on_object_or_reflect = matches!(&*m.obj, Expr::Ident(o) if &*o.sym == "Object" || &*o.sym == "Reflect");
            if on_object_or_reflect && OBJECT_WRITERS.contains(&&*method.sym) {
                if let Some(first) = node.args.first() {
                    self.check_target_expr(node.span, &first.expr);
                }
            } else if MUTATORS.contains(&&*method.sym) {
                self.check_target_expr(node.span, &m.obj);
            }
        }
        node.visit_children_with(self);
    }
}

/// A function expression, as a call's callee or argument holds it.
#[derive(Clone, Copy)]
enum Body<'a> {
    Function(&'a Function),
    Arrow(&'a ArrowExpr),
}

/// The function expression `expr` is, parenthesised or not.
fn function_expr(expr: &Expr) -> Option<Body<'_>> {
    match expr {
        Expr::Paren(p) => function_expr(&p.expr),
        Expr::Fn(f) => Some(Body::Function(&f.function)),
        Expr::Arrow(a) => Some(Body::Arrow(a)),
        _ => None,
    }
}

/// The function a call of `callee` runs there and then: `(function () {...})()`, `(() => {...})()`,
/// `(function () {...}).call(this)` or `.apply(...)`.
fn invoked(callee: &Expr) -> Option<Body<'_>> {
    function_expr(callee).or_else(|| match callee {
        Expr::Paren(p) => invoked(&p.expr),
        Expr::Member(m) if matches!(&m.prop, MemberProp::Ident(p) if &*p.sym == "call" || &*p.sym == "apply") => {
            function_expr(&m.obj)
        }
        _ => None,
    })
}

impl SharedWriteFinder {
    /// Looks into a function that runs while the file loads as into the top level: no scope of its own,
    /// so what it declares is shared by the functions it defines.
    fn at_top_level(&mut self, body: Body) {
        match body {
            Body::Function(f) => {
                f.params.visit_with(self);
                f.body.visit_with(self);
            }
            Body::Arrow(a) => {
                a.params.visit_with(self);
                a.body.visit_with(self);
            }
        }
    }
}

/// Names a function body declares, without looking into nested functions (they have their own scope).
fn declared_in(body: Option<&FunctionBody>) -> HashSet<String> {
    let mut collector = DeclaredNames::default();
    if let Some(body) = body {
        body.visit_with(&mut collector);
    }
    collector.names
}

#[derive(Default)]
struct DeclaredNames {
    names: HashSet<String>,
}

impl Visit for DeclaredNames {
    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        pattern_names(&node.name, &mut self.names);
        node.init.visit_with(self);
    }

    fn visit_fn_decl(&mut self, node: &FnDecl) {
        self.names.insert(node.ident.sym.to_string());
    }

    fn visit_class_decl(&mut self, node: &ClassDecl) {
        self.names.insert(node.ident.sym.to_string());
    }

    fn visit_function(&mut self, _: &Function) {}

    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}

    fn visit_module_decl(&mut self, _: &ModuleDecl) {}
}

fn pattern_names(pat: &Pat, names: &mut HashSet<String>) {
    match pat {
        Pat::Ident(i) => {
            names.insert(i.id.sym.to_string());
        }
        Pat::Array(a) => a.elems.iter().flatten().for_each(|p| pattern_names(p, names)),
        Pat::Rest(r) => pattern_names(&r.arg, names),
        Pat::Assign(a) => pattern_names(&a.left, names),
        Pat::Object(o) => {
            for prop in &o.props {
                match prop {
                    swc_ecma_ast::ObjectPatProp::KeyValue(kv) => pattern_names(&kv.value, names),
                    swc_ecma_ast::ObjectPatProp::Assign(a) => {
                        names.insert(a.key.sym.to_string());
                    }
                    swc_ecma_ast::ObjectPatProp::Rest(r) => pattern_names(&r.arg, names),
                }
            }
        }
        Pat::Expr(_) | Pat::Invalid(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    fn shared(code: &str) -> Option<String> {
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.to_string()).unwrap();
        shared_state_write(&parsed.program)
    }

    #[test]
    fn instance_and_parameter_writes_are_not_shared() {
        let code = "function List() { this.head = null; this.constructor = List; }
            List.prototype.add = function (node) { var n = node; n.next = this.head; this.head = n; this.size++;
              var items = []; items.push(1); for (var i = 0; i < 3; i++) {} };
            class A { m(o) { o.x = 1; const f = () => { let y = 0; y += 1; }; f(); } }";
        assert_eq!(shared(code), None);
    }

    #[test]
    fn writes_that_outlive_a_call_are_shared() {
        for code in [
            "var count = 0; function C() { count++; }",
            "function C() {} C.prototype.m = function () { C.instances = 1; };",
            "function C() {} C.prototype.m = function () { Array.prototype.last = 1; };",
            "var cache = {}; function C() {} C.prototype.m = function (k) { cache[k] = 1; };",
            "var seen = []; class C { m(x) { seen.push(x); } }",
            "class C { m() { this.constructor.total = 1; } }",
            "class C { m() { Object.defineProperty(C, 'x', { value: 1 }); } }",
            "function C() {} C.prototype.m = function () { leaked = 1; };",
        ] {
            assert!(shared(code).is_some(), "{code}");
        }
    }

    #[test]
    fn a_wrapper_called_while_loading_declares_shared_state() {
        // lunr's shape: a counter on a constructor kept in a variable of the file's wrapper.
        for wrapper in [
            ";(function () { var lib = {}; lib.Node = function () { this.id = lib.Node.next; lib.Node.next += 1; }; })();",
            "(function () { var n = 0; this.C = function () { n++; }; }).call(this);",
            "(() => { let seen = []; globalThis.C = class { m(x) { seen.push(x); } }; })();",
            "(function (root, factory) { root.lib = factory(); })(this, function () { var n = 0;              return function C() { n += 1; }; });",
        ] {
            assert!(shared(wrapper).is_some(), "{wrapper}");
        }
        // What the wrapper itself does while loading, and the locals of a function each call makes anew
        // (a factory's closure), are no shared writes.
        assert_eq!(shared(";(function () { var lib = {}; lib.n = 0; lib.n += 1; })();"), None);
        assert_eq!(shared("(function () { this.make = function () { var n = 0; return () => { n++; }; }; })();"), None);
    }

    #[test]
    fn top_level_initialisation_is_not_a_shared_write() {
        assert_eq!(shared("var registry = []; registry.push(1); function C() {}"), None);
    }

    #[test]
    fn functions_only_called_while_loading_write_nothing_shared() {
        // A grammar built at load time by a helper (semver's `createToken`).
        let grammar = "const re = [], t = {}; let R = 0;\n\
                       const token = (name, value) => { const i = R++; t[name] = i; re[i] = new RegExp(value); };\n\
                       function define(n) { t[n] = 1; }\n\
                       token('A', 'a'); token('B', 'b'); define('C');\n\
                       class V { test(x) { return re[t.A].test(x); } }";
        assert_eq!(shared(grammar), None);
        // The same helper called from a method, passed on, or exported writes shared state.
        for escape in ["class W { m() { define('D'); } }", "setTimeout(define);", "module.exports = { token };"] {
            assert!(shared(&format!("{grammar}\n{escape}")).is_some(), "{escape}");
        }
    }

    #[test]
    fn finds_lexical_globals_of_scripts() {
        let parsed = parse_source(
            Path::new("/nonexistent/t.js"),
            "t.js",
            "class A {} const B = 1; var C; let D = class {};".into(),
        )
        .unwrap();
        assert_eq!(lexical_globals(&parsed.program), vec!["A", "B", "D"]);
    }
}
