//! The probe writes as syntax: `array[id] || (array[id] = 1)`, and the forms a condition marks its
//! outcome with.
//!
//! A probe runs every time its statement does, and in a hot loop of hashing or big-number code probes
//! are a good part of the work: the fewer a run makes, the cheaper it is (see `implied.rs`). A probe
//! stores only when its byte is still clear: QuickJS's store into a typed array goes through a generic
//! property setter and the check for a null object that every element assignment compiles to, where a
//! read of the element is a few instructions, so a probe that ran before in the test costs a read and
//! a jump. Both are counted work (see `sandbox/engine/deadline.rs`): the jump as the store was, and the
//! first store of each probe in a test once more.

use swc_common::{BytePos, DUMMY_SP, Span, Spanned, util::take::Take};
use swc_ecma_ast::*;

use crate::js::{BRANCHES, TRUTHY};

pub(super) fn num(value: u32) -> Box<Expr> {
    Box::new(Expr::Lit(Lit::Num(Number { span: DUMMY_SP, value: value.into(), raw: None })))
}

pub(super) fn ident(name: &str, at: BytePos) -> Box<Expr> {
    Box::new(Expr::Ident(Ident::new_no_ctxt(name.into(), Span::new(at, at))))
}

/// `array[id] || (array[id] = 1)`: the store only when the probe is still clear (see the module's
/// documentation). Every byte of a probe array is 0 or 1, and a reader clears the ones it reads before a
/// run, so a probe set earlier stays what this store would make it.
pub(super) fn mark(array: &str, id: u32, at: BytePos) -> Box<Expr> {
    let store = Box::new(Expr::Paren(ParenExpr { span: DUMMY_SP, expr: mark_as(array, id, 1, at) }));
    Box::new(Expr::Bin(BinExpr {
        span: DUMMY_SP,
        op: BinaryOp::LogicalOr,
        left: Box::new(Expr::Member(element(array, id, at))),
        right: store,
    }))
}

/// `array[id]`.
fn element(array: &str, id: u32, at: BytePos) -> MemberExpr {
    MemberExpr {
        span: DUMMY_SP,
        obj: ident(array, at),
        prop: MemberProp::Computed(ComputedPropName { span: DUMMY_SP, expr: num(id) }),
    }
}

/// `array[id] = value`.
pub(super) fn mark_as(array: &str, id: u32, value: u32, at: BytePos) -> Box<Expr> {
    Box::new(Expr::Assign(AssignExpr {
        span: DUMMY_SP,
        op: AssignOp::Assign,
        left: AssignTarget::Simple(SimpleAssignTarget::Member(element(array, id, at))),
        right: num(value),
    }))
}

/// `array[id] || (array[id] = 1);`, positioned at `at`.
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
    /// Only the condition's truth is used (a loop's test): `(test ? (mark(id), true) :
    /// (mark(id + 1), false))` ([`mark`]), where a call of `__fc$c` on every iteration cost more than
    /// the body of many loops. Without `taken`, `(test ? true : (mark(id + 1), false))`: the probe of
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

/// `expr` becomes `(mark(id), expr)` ([`mark`]).
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

/// Whether `stmt` is `array[id] || (array[id] = 1);` (see [`mark_stmt`]).
fn is_mark(stmt: &Stmt, array: &str, id: u32) -> bool {
    let Stmt::Expr(ExprStmt { expr, .. }) = stmt else { return false };
    let Expr::Bin(BinExpr { op: BinaryOp::LogicalOr, left, .. }) = &**expr else { return false };
    let Expr::Member(m) = &**left else { return false };
    let named = matches!(&*m.obj, Expr::Ident(i) if i.sym == array);
    let at = matches!(&m.prop, MemberProp::Computed(c) if matches!(&*c.expr, Expr::Lit(Lit::Num(n)) if n.value == f64::from(id)));
    named && at
}
