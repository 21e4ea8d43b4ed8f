//! The probe writes as syntax: `array[id] = 1`, and the forms a condition marks its outcome with.
//!
//! Every write of a probe array is an array element store, which QuickJS counts as work (see
//! `sandbox/engine/deadline.rs`) as well as spends time on: the fewer a run makes, the cheaper it is
//! (see `implied.rs`).

use swc_common::{BytePos, DUMMY_SP, Span, Spanned, util::take::Take};
use swc_ecma_ast::*;

use crate::js::{BRANCHES, TRUTHY};

pub(super) fn num(value: u32) -> Box<Expr> {
    Box::new(Expr::Lit(Lit::Num(Number { span: DUMMY_SP, value: value.into(), raw: None })))
}

pub(super) fn ident(name: &str, at: BytePos) -> Box<Expr> {
    Box::new(Expr::Ident(Ident::new_no_ctxt(name.into(), Span::new(at, at))))
}

/// `array[id] = 1`.
pub(super) fn mark(array: &str, id: u32, at: BytePos) -> Box<Expr> {
    mark_as(array, id, 1, at)
}

/// `array[id] = value`.
pub(super) fn mark_as(array: &str, id: u32, value: u32, at: BytePos) -> Box<Expr> {
    let target = MemberExpr {
        span: DUMMY_SP,
        obj: ident(array, at),
        prop: MemberProp::Computed(ComputedPropName { span: DUMMY_SP, expr: num(id) }),
    };
    Box::new(Expr::Assign(AssignExpr {
        span: DUMMY_SP,
        op: AssignOp::Assign,
        left: AssignTarget::Simple(SimpleAssignTarget::Member(target)),
        right: num(value),
    }))
}

/// `array[id] = 1;`, positioned at `at`.
pub(super) fn mark_stmt(array: &str, id: u32, at: BytePos) -> Stmt {
    Stmt::Expr(ExprStmt { span: Span::new(at, at), expr: mark(array, id, at) })
}

/// `expr` becomes `helper(id, expr)`: only ever an operand or a condition, never a callee, so no call
/// loses its `this`.
pub(super) fn wrap(expr: &mut Box<Expr>, helper: &str, id: u32) {
    let at = expr.span().lo;
    let mut value = expr.take();
    // A sequence as one argument (a `for` loop's test `i < n, j < m` has no parentheses of its own).
    if matches!(*value, Expr::Seq(_)) {
        value = Box::new(Expr::Paren(ParenExpr { span: DUMMY_SP, expr: value }));
    }
    **expr = Expr::Call(CallExpr {
        callee: Callee::Expr(ident(helper, at)),
        args: vec![ExprOrSpread { spread: None, expr: num(id) }, ExprOrSpread { spread: None, expr: value }],
        ..Default::default()
    });
}

/// How a condition whose construct has no branch of its own to mark (a loop's test, the left operand of
/// `&&` and `||`) marks which way it went.
#[derive(Debug, Clone, Copy)]
pub(super) enum Marker {
    /// Only the condition's truth is used (a loop's test): `(test ? (__fc$b[id] = 1, true) :
    /// (__fc$b[id + 1] = 1, false))`, where a call of `__fc$c` on every iteration cost more than the
    /// body of many loops. Without `taken`, `(test ? true : (__fc$b[id + 1] = 1, false))`: the probe of
    /// the statement the body starts with marks the true outcome (see `implied.rs`).
    Truth { taken: bool },
    /// The operand's value is the expression's (`&&`, `||`): `__fc$c(id, test)`.
    Value,
}

/// Marks the outcome of condition `expr` (branch outcomes `id` and `id + 1`) as `marker` says.
pub(super) fn mark_outcome(expr: &mut Box<Expr>, marker: Marker, id: u32) {
    match marker {
        Marker::Value => wrap(expr, TRUTHY, id),
        Marker::Truth { taken } => {
            let at = expr.span().lo;
            let outcome = |id: u32, value: bool| {
                let seq = SeqExpr {
                    span: DUMMY_SP,
                    exprs: vec![mark(BRANCHES, id, at), Box::new(Expr::Lit(Lit::Bool(Bool { span: DUMMY_SP, value })))],
                };
                Box::new(Expr::Paren(ParenExpr { span: DUMMY_SP, expr: Box::new(Expr::Seq(seq)) }))
            };
            // In parentheses: an assignment or a sequence binds looser than `?:`, and `while (q = next())`
            // would otherwise assign the outcome's `true` to `q`.
            let test = Box::new(Expr::Paren(ParenExpr { span: DUMMY_SP, expr: expr.take() }));
            let cons = if taken {
                outcome(id, true)
            } else {
                Box::new(Expr::Lit(Lit::Bool(Bool { span: DUMMY_SP, value: true })))
            };
            let choice = CondExpr { span: DUMMY_SP, test, cons, alt: outcome(id + 1, false) };
            **expr = Expr::Paren(ParenExpr { span: DUMMY_SP, expr: Box::new(Expr::Cond(choice)) });
        }
    }
}

/// `expr` becomes `(__fc$b[id] = 1, expr)`.
pub(super) fn marked(expr: &mut Box<Expr>, id: u32) {
    let at = expr.span().lo;
    let value = expr.take();
    let seq = Expr::Seq(SeqExpr { span: DUMMY_SP, exprs: vec![mark(BRANCHES, id, at), value] });
    **expr = Expr::Paren(ParenExpr { span: DUMMY_SP, expr: Box::new(seq) });
}

/// Takes away the `else` that only marks `outcome` from `stmt`, an `if` whose `then` always leaves;
/// false when `stmt` is anything else.
pub(super) fn drop_else_mark(stmt: Option<&mut Stmt>, outcome: u32) -> bool {
    let Some(Stmt::If(s)) = stmt else { return false };
    let marks = match s.alt.as_deref() {
        Some(Stmt::Block(b)) => matches!(&b.stmts[..], [only] if is_mark(only, BRANCHES, outcome)),
        _ => false,
    };
    if marks {
        s.alt = None;
    }
    marks
}

/// Whether `stmt` is `array[id] = 1;` (see [`mark_stmt`]).
fn is_mark(stmt: &Stmt, array: &str, id: u32) -> bool {
    let Stmt::Expr(ExprStmt { expr, .. }) = stmt else { return false };
    let Expr::Assign(AssignExpr { left: AssignTarget::Simple(SimpleAssignTarget::Member(m)), .. }) = &**expr else {
        return false;
    };
    let named = matches!(&*m.obj, Expr::Ident(i) if i.sym == array);
    let at = matches!(&m.prop, MemberProp::Computed(c) if matches!(&*c.expr, Expr::Lit(Lit::Num(n)) if n.value == f64::from(id)));
    named && at
}
