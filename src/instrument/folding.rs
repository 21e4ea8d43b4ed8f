//! Statements that cannot complete abruptly, so that one probe can stand for a run of them.
//!
//! A statement probe runs before its statement, so a statement ran exactly when its probe marked. When
//! statement `S` cannot complete abruptly (throw, `return`, `break`, `continue`) and the next statement
//! of its list starts right after it, the next one ran exactly when `S` did: the probe of the first
//! statement of such a run marks them all (see [`super::implied`]).
//!
//! Nearly every expression can throw (a getter, a `valueOf`, a proxy, a `BigInt` mixed with a number, a
//! variable in its temporal dead zone, a write to a constant), so the statements kept are few and plain:
//! declarations and assignments of this function's own variables to literals, to other such variables,
//! and to `!`, `void`, `typeof` and `===` of those. None of them calls, allocates or jumps back, so QuickJS
//! checks no interrupt (the deadline, the work limit) inside a run of them either.
//!
//! A variable is this function's own when its name is declared once in the function (nested functions
//! aside): a parameter or `var` anywhere, or a `let` or `const` whose block holds the statement and whose
//! declaration ends before the statement starts (so it was initialised when control got there; `switch`
//! clauses, which share one block that control enters in the middle, do not count). A function with
//! `with` or a direct `eval` has no variable of its own here.

use std::collections::HashMap;

use swc_common::{BytePos, Span, Spanned};
use swc_ecma_ast::*;
use swc_ecma_visit::{Visit, VisitWith};

/// How a name is declared in a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A parameter or `var`: a binding for the whole body, initialised before it runs.
    Var,
    /// A `let`, `const` or `catch` binding, initialised where its declaration ends.
    Lexical { constant: bool, scope: Span, declared: BytePos },
    /// Anything else (a function or class declaration, `using`, a `let` of a `switch` clause).
    Other,
}

/// The names a function declares, for telling which of its statements cannot complete abruptly.
#[derive(Debug, Default)]
pub(super) struct Bindings {
    /// Per name, its declaration, or `None` when it is declared more than once.
    names: HashMap<String, Option<Kind>>,
    /// False when the function has `with` or a direct `eval`.
    usable: bool,
}

impl Bindings {
    /// The bindings of a function with parameters `params` and body `body`.
    pub(super) fn of<'p>(params: impl Iterator<Item = &'p Pat>, body: &FunctionBody) -> Bindings {
        let mut collector =
            Collector { bindings: Bindings { names: HashMap::new(), usable: true }, scopes: Vec::new() };
        for param in params {
            for name in declared_names(param) {
                collector.add(name, Kind::Var);
            }
        }
        collector.scopes.push((body.span, false));
        body.stmts.visit_with(&mut collector);
        collector.bindings
    }

    /// Whether `stmt`, a statement of this function, cannot complete abruptly.
    pub(super) fn cannot_leave(&self, stmt: &Stmt) -> bool {
        if !self.usable {
            return false;
        }
        let at = stmt.span().lo;
        match stmt {
            Stmt::Expr(ExprStmt { expr, .. }) => self.effect(expr, at),
            Stmt::Decl(Decl::Var(v)) => v
                .decls
                .iter()
                .all(|d| matches!(d.name, Pat::Ident(_)) && d.init.as_deref().is_none_or(|init| self.value(init, at))),
            _ => false,
        }
    }

    /// An expression statement's expression that cannot throw: an assignment to an own variable, or a
    /// value.
    fn effect(&self, expr: &Expr, at: BytePos) -> bool {
        match expr {
            Expr::Assign(AssignExpr {
                op: AssignOp::Assign,
                left: AssignTarget::Simple(SimpleAssignTarget::Ident(b)),
                right,
                ..
            }) => self.own(&b.id, at, true) && self.value(right, at),
            Expr::Seq(s) => s.exprs.iter().all(|e| self.effect(e, at)),
            Expr::Paren(p) => self.effect(&p.expr, at),
            other => self.value(other, at),
        }
    }

    /// A value whose evaluation cannot throw, call or allocate.
    fn value(&self, expr: &Expr, at: BytePos) -> bool {
        match expr {
            Expr::Lit(Lit::Str(_) | Lit::Bool(_) | Lit::Null(_) | Lit::Num(_) | Lit::BigInt(_)) => true,
            Expr::Tpl(t) => t.exprs.is_empty(),
            Expr::Ident(i) => self.own(i, at, false),
            Expr::Paren(p) => self.value(&p.expr, at),
            Expr::Unary(u) => match u.op {
                UnaryOp::Bang | UnaryOp::Void | UnaryOp::TypeOf => self.value(&u.arg, at),
                // `-1`: a number literal converts to nothing.
                UnaryOp::Minus | UnaryOp::Plus | UnaryOp::Tilde => matches!(&*u.arg, Expr::Lit(Lit::Num(_))),
                UnaryOp::Delete => false,
            },
            Expr::Bin(b) => {
                matches!(b.op, BinaryOp::EqEqEq | BinaryOp::NotEqEq)
                    && self.value(&b.left, at)
                    && self.value(&b.right, at)
            }
            _ => false,
        }
    }

    /// Whether `name`, used (written when `write`) by a statement starting at `at`, is one of this
    /// function's own variables, initialised there.
    fn own(&self, name: &Ident, at: BytePos, write: bool) -> bool {
        match self.names.get(&*name.sym) {
            Some(Some(Kind::Var)) => true,
            Some(Some(Kind::Lexical { constant, scope, declared })) => {
                !(write && *constant) && scope.lo <= at && at < scope.hi && *declared <= at
            }
            _ => false,
        }
    }
}

/// Collects a function's declarations, nested functions aside.
struct Collector {
    bindings: Bindings,
    /// The blocks (and loop heads, `catch` clauses) inside, innermost last; true for a `switch`'s.
    scopes: Vec<(Span, bool)>,
}

impl Collector {
    /// Notes a declaration of `name`; a name declared twice has no kind, unless both are `var`s (or a
    /// parameter and a `var`), which declare one binding.
    fn add(&mut self, name: String, kind: Kind) {
        self.bindings
            .names
            .entry(name)
            .and_modify(|k| *k = k.filter(|k| *k == Kind::Var && kind == Kind::Var))
            .or_insert(Some(kind));
    }

    fn lexical(&self, constant: bool, declared: BytePos) -> Kind {
        match self.scopes.last() {
            Some(&(scope, false)) => Kind::Lexical { constant, scope, declared },
            _ => Kind::Other,
        }
    }

    fn scoped(&mut self, scope: Span, switch: bool, visit: impl FnOnce(&mut Collector)) {
        self.scopes.push((scope, switch));
        visit(self);
        self.scopes.pop();
    }
}

impl Visit for Collector {
    // Nested functions and classes have scopes of their own.
    fn visit_function(&mut self, _: &Function) {}
    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}
    fn visit_class(&mut self, _: &Class) {}

    fn visit_fn_decl(&mut self, f: &FnDecl) {
        self.add(f.ident.sym.to_string(), Kind::Other);
    }

    fn visit_class_decl(&mut self, c: &ClassDecl) {
        self.add(c.ident.sym.to_string(), Kind::Other);
    }

    fn visit_var_decl(&mut self, v: &VarDecl) {
        let kind = match v.kind {
            VarDeclKind::Var => Kind::Var,
            VarDeclKind::Let => self.lexical(false, v.span.hi),
            VarDeclKind::Const => self.lexical(true, v.span.hi),
        };
        for d in &v.decls {
            for name in declared_names(&d.name) {
                self.add(name, kind);
            }
        }
        v.visit_children_with(self);
    }

    fn visit_using_decl(&mut self, u: &UsingDecl) {
        for d in &u.decls {
            for name in declared_names(&d.name) {
                self.add(name, Kind::Other);
            }
        }
        u.visit_children_with(self);
    }

    fn visit_block_stmt(&mut self, b: &BlockStmt) {
        self.scoped(b.span, false, |c| b.visit_children_with(c));
    }

    fn visit_for_stmt(&mut self, s: &ForStmt) {
        self.scoped(s.span, false, |c| s.visit_children_with(c));
    }

    fn visit_for_in_stmt(&mut self, s: &ForInStmt) {
        self.scoped(s.span, false, |c| s.visit_children_with(c));
    }

    fn visit_for_of_stmt(&mut self, s: &ForOfStmt) {
        self.scoped(s.span, false, |c| s.visit_children_with(c));
    }

    fn visit_switch_stmt(&mut self, s: &SwitchStmt) {
        s.discriminant.visit_with(self);
        self.scoped(s.span, true, |c| s.cases.visit_with(c));
    }

    fn visit_catch_clause(&mut self, clause: &CatchClause) {
        self.scoped(clause.span, false, |c| {
            if let Some(param) = &clause.param {
                let kind = c.lexical(false, param.span().hi);
                for name in declared_names(param) {
                    c.add(name, kind);
                }
            }
            clause.body.visit_with(c);
        });
    }

    fn visit_with_stmt(&mut self, _: &WithStmt) {
        self.bindings.usable = false;
    }

    fn visit_ident(&mut self, i: &Ident) {
        if i.sym == "eval" {
            self.bindings.usable = false;
        }
    }
}

/// The names a binding pattern declares (default values' nested functions aside).
fn declared_names(pat: &Pat) -> Vec<String> {
    struct Names(Vec<String>);
    impl Visit for Names {
        fn visit_binding_ident(&mut self, b: &BindingIdent) {
            self.0.push(b.id.sym.to_string());
        }
        fn visit_function(&mut self, _: &Function) {}
        fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}
        fn visit_class(&mut self, _: &Class) {}
    }
    let mut names = Names(Vec::new());
    pat.visit_with(&mut names);
    names.0
}
