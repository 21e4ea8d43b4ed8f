//! Marks on the writes that outlive a test, and the undo journal's entries for those it can undo.
//!
//! `analysis::state` finds, in the functions of a file, every write to state that a later test could
//! observe (an implicit global, a module-level binding, a property reached from one, a prototype or a
//! constructor's property, a module-level collection changed by a mutating method). Tests share one
//! context, so the sandbox must know whether a test ran such a write, and undo it: these marks set the
//! flag `__fc$sw[0]` instead of the sandbox scanning the heap.
//!
//! - `x = v`, `x += v`, `x++` on a binding become `(__fc$jv(() => x, (v) => x = v, "x"), write)`: the
//!   journal keeps the old value (or that there was none) and how to put it back;
//! - `o.k = v`, `o[k] op= v`, `o.k++`, `delete o.k` journal through their object: `__fc$jm(o, "k").k = v`,
//!   `__fc$jm(o, k)[__fc$jk] = v` (the key evaluated once, in its place: `__fc$jk` is what `__fc$jm` made
//!   of it), so the journal keeps the property's old descriptor (see `js/journal.js`);
//! - a mutating method's call journals its receiver: `__fc$jc(log, "push").push(x)` (the journal keeps a
//!   copy of an array's, a Map's or a Set's contents, once per test);
//! - `o.#k = v`, `o.#k op= v`, `o.#k++` on a private field of a class around the write journal through
//!   their object too: `__fc$jp(o, (o) => o.#k, (o, v) => o.#k = v).#k = v`, the getter and setter made
//!   where the private name is in scope (a class that guards its constructor with a static flag,
//!   `Stack.#constructing = true`, wrote it on every construction, and every test then needed a new
//!   context);
//! - every other marked write (`Object.defineProperty`, a `super` target, a private accessor, whose
//!   setter may write anything) becomes `(__fc$sw[0] = 2, write)`: not undoable, the sandbox builds a
//!   new context.
//!
//! Flag and journal are set before the write runs: a write that then throws still counts. The write
//! itself is left as it was, so its value, its `this` (a mutating method call stays a method call) and
//! its coercions do not change.

use std::collections::{HashMap, HashSet};

use swc_atoms::Atom;
use swc_common::{DUMMY_SP, Span, Spanned, util::take::Take};
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, AssignExpr, AssignOp, AssignTarget, AutoAccessor, BindingIdent, CallExpr, Callee,
    Class, ClassMember, ComputedPropName, Expr, ExprOrSpread, Ident, Key, Lit, MemberExpr, MemberProp, ParenExpr, Pat,
    PrivateName, Program, SeqExpr, SimpleAssignTarget, Str, UnaryOp,
};
use swc_ecma_visit::{VisitMut, VisitMutWith};

use super::marks::{ident, mark_as};
use crate::js::{
    JOURNAL_BINDING, JOURNAL_COLLECTION, JOURNAL_KEY, JOURNAL_MEMBER, JOURNAL_NEW_VALUE, JOURNAL_OBJECT,
    JOURNAL_PRIVATE, SHARED_WRITE,
};

/// Marks, in `program` (instrumented already: its original nodes keep their spans), each write at one of
/// `sites`.
pub(super) fn mark_writes(program: &mut Program, sites: &[Span]) {
    if sites.is_empty() {
        return;
    }
    program.visit_mut_with(&mut Marker { sites: sites.iter().copied().collect(), private: Vec::new() });
}

struct Marker {
    sites: HashSet<Span>,
    /// The private names of the classes around the node visited, innermost last, each with whether it
    /// is a field (writing its old value back undoes a write) rather than a method or an accessor.
    private: Vec<HashMap<Atom, bool>>,
}

impl Marker {
    /// Whether `#name`, where the node visited is, names a private field.
    fn is_private_field(&self, name: &PrivateName) -> bool {
        self.private.iter().rev().find_map(|names| names.get(&name.name)).copied().unwrap_or(false)
    }
}

/// Whether `expr` is of a kind that `analysis::state` reports as a write (its span alone could be shared
/// by an enclosing parenthesis-free node of another kind).
fn is_write(expr: &Expr) -> bool {
    match expr {
        Expr::Assign(_) | Expr::Update(_) | Expr::Call(_) => true,
        Expr::Unary(u) => u.op == UnaryOp::Delete,
        _ => false,
    }
}

/// `callee(args...)`, its arguments given as the boxes the syntax tree holds.
pub(super) fn call<const N: usize>(callee: &str, args: [Box<Expr>; N], at: swc_common::BytePos) -> Box<Expr> {
    Box::new(Expr::Call(CallExpr {
        callee: Callee::Expr(ident(callee, at)),
        args: args.into_iter().map(|expr| ExprOrSpread { spread: None, expr }).collect(),
        ..Default::default()
    }))
}

fn arrow(params: Vec<Pat>, body: Box<Expr>) -> Box<Expr> {
    Box::new(Expr::Arrow(ArrowExpr { params, body: Box::new(ArrowFunctionBody::Expr(body)), ..Default::default() }))
}

fn string(text: &str) -> Box<Expr> {
    Box::new(Expr::Lit(Lit::Str(Str { span: DUMMY_SP, value: text.into(), raw: None })))
}

/// A parameter of the arrows the journal is given, named so that it shadows no binding of the code.
fn parameter(name: &str) -> Pat {
    Pat::Ident(BindingIdent::from(Ident::new_no_ctxt(name.into(), DUMMY_SP)))
}

/// `(params..., __fc$nv) => target = __fc$nv`: how the journal puts an old value back.
fn setter(params: &[&str], target: SimpleAssignTarget, at: swc_common::BytePos) -> Box<Expr> {
    let set = Box::new(Expr::Assign(AssignExpr {
        span: DUMMY_SP,
        op: AssignOp::Assign,
        left: AssignTarget::Simple(target),
        right: ident(JOURNAL_NEW_VALUE, at),
    }));
    arrow(params.iter().chain([&JOURNAL_NEW_VALUE]).map(|p| parameter(p)).collect(), set)
}

/// `__fc$jv(() => x, (v) => x = v, "x")` for a write to binding `x`.
fn journal_binding(name: &Ident) -> Box<Expr> {
    let at = name.span.lo;
    let get = arrow(Vec::new(), Box::new(Expr::Ident(name.clone())));
    let set = setter(&[], SimpleAssignTarget::Ident(BindingIdent::from(name.clone())), at);
    call(JOURNAL_BINDING, [get, set, string(&name.sym)], at)
}

/// `__fc$ob.#name`.
fn private_member(name: &PrivateName, at: swc_common::BytePos) -> MemberExpr {
    MemberExpr { span: DUMMY_SP, obj: ident(JOURNAL_OBJECT, at), prop: MemberProp::PrivateName(name.clone()) }
}

/// `__fc$jp(object, (__fc$ob) => __fc$ob.#name, (__fc$ob, __fc$nv) => __fc$ob.#name = __fc$nv)`.
fn journal_private(object: Box<Expr>, name: &PrivateName, at: swc_common::BytePos) -> Box<Expr> {
    let get = arrow(vec![parameter(JOURNAL_OBJECT)], Box::new(Expr::Member(private_member(name, at))));
    let set = setter(&[JOURNAL_OBJECT], SimpleAssignTarget::Member(private_member(name, at)), at);
    call(JOURNAL_PRIVATE, [object, get, set], at)
}

/// Rewrites the object of member `m` to journal the write through it; false when it cannot (a `super`
/// member, or a private name `is_private_field` does not answer for).
fn journal_member(m: &mut MemberExpr, is_private_field: &impl Fn(&PrivateName) -> bool) -> bool {
    let at = m.obj.span().lo;
    let key = match &mut m.prop {
        MemberProp::Ident(name) => string(&name.sym),
        MemberProp::Computed(ComputedPropName { expr, .. }) => {
            let key = expr.take();
            *expr = ident(JOURNAL_KEY, at);
            key
        }
        MemberProp::PrivateName(name) if is_private_field(name) => {
            let name = name.clone();
            m.obj = journal_private(m.obj.take(), &name, at);
            return true;
        }
        MemberProp::PrivateName(_) => return false,
    };
    let object = m.obj.take();
    m.obj = call(JOURNAL_MEMBER, [object, key], at);
    true
}

/// How a marked write is journalled.
enum Journal {
    /// Through this call, run before the write (a binding's).
    Before(Box<Expr>),
    /// Through its rewritten object (a property's).
    InPlace,
    /// Not at all: it cannot be undone exactly.
    Not,
}

/// Makes write `expr` journal itself, when it can be undone; `is_private_field` tells the private
/// fields in scope.
fn journal(expr: &mut Expr, is_private_field: impl Fn(&PrivateName) -> bool) -> Journal {
    let in_place = |journalled: bool| if journalled { Journal::InPlace } else { Journal::Not };
    let member = |target: &mut Expr| match target {
        Expr::Member(m) => in_place(journal_member(m, &is_private_field)),
        _ => Journal::Not,
    };
    match expr {
        Expr::Assign(a) => match &mut a.left {
            AssignTarget::Simple(SimpleAssignTarget::Ident(name)) => Journal::Before(journal_binding(&name.id)),
            AssignTarget::Simple(SimpleAssignTarget::Member(m)) => in_place(journal_member(m, &is_private_field)),
            _ => Journal::Not,
        },
        Expr::Update(u) => match &mut *u.arg {
            Expr::Ident(name) => Journal::Before(journal_binding(name)),
            target => member(target),
        },
        Expr::Unary(u) => member(&mut u.arg),
        Expr::Call(c) => match &mut c.callee {
            Callee::Expr(callee) => match &mut **callee {
                Expr::Member(MemberExpr { obj, prop: MemberProp::Ident(name), .. }) if !is_object_or_reflect(obj) => {
                    let (at, method) = (obj.span().lo, string(&name.sym));
                    *obj = call(JOURNAL_COLLECTION, [obj.take(), method], at);
                    Journal::InPlace
                }
                _ => Journal::Not,
            },
            _ => Journal::Not,
        },
        _ => Journal::Not,
    }
}

/// `Object.defineProperty(o, ..)` and the like write their argument, not their receiver.
fn is_object_or_reflect(expr: &Expr) -> bool {
    matches!(expr, Expr::Ident(i) if &*i.sym == "Object" || &*i.sym == "Reflect")
}

impl VisitMut for Marker {
    fn visit_mut_class(&mut self, class: &mut Class) {
        let names = class
            .body
            .iter()
            .filter_map(|member| match member {
                ClassMember::PrivateProp(p) => Some((p.key.name.clone(), true)),
                ClassMember::PrivateMethod(m) => Some((m.key.name.clone(), false)),
                ClassMember::AutoAccessor(AutoAccessor { key: Key::Private(k), .. }) => Some((k.name.clone(), false)),
                _ => None,
            })
            .collect();
        self.private.push(names);
        class.visit_mut_children_with(self);
        self.private.pop();
    }

    fn visit_mut_expr(&mut self, expr: &mut Expr) {
        expr.visit_mut_children_with(self);
        if !(is_write(expr) && self.sites.contains(&expr.span())) {
            return;
        }
        let at = expr.span().lo;
        let before = match journal(expr, |name| self.is_private_field(name)) {
            Journal::InPlace => return,
            Journal::Before(call) => call,
            Journal::Not => mark_as(SHARED_WRITE, 0, 2, at),
        };
        let write = Box::new(expr.take());
        let seq = Expr::Seq(SeqExpr { span: DUMMY_SP, exprs: vec![before, write] });
        *expr = Expr::Paren(ParenExpr { span: DUMMY_SP, expr: Box::new(seq) });
    }
}
