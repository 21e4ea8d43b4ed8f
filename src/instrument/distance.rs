//! Branch distances: how far a run came from the outcome of a condition that it did not take.
//!
//! Search-based test generation needs more than "taken or not": a test whose `x * 3 === y + 1000`
//! was off by 2 is closer than one off by 2000. Korel's and Tracey et al.'s branch distance measures
//! that for each comparison, and combines them through `!`, `&&` (sum) and `||` (minimum). Each
//! distance is normalised to `d / (d + 1)`, so 0 means taken and 1 means no idea.
//!
//! A branch condition (of `if`, `?:`, a loop, or the left operand of `&&` and `||`) is rewritten when it
//! holds a comparison that may be numeric or between strings (not one with `null`, `typeof`, a boolean
//! or an object literal). The smallest distance per branch outcome in a run goes to `__fc$d`, a
//! `Float64Array` by branch id that the sandbox resets and reads like the coverage arrays. A condition
//! that is one comparison `a < b` becomes `__fc$q(a, b, 0, id) < __fc$r[0]`, which records its
//! distances itself. In a `!`/`&&`/`||` tree, every node pushes its two distances (to true, to false)
//! on a stack and the branch point pops them:
//!
//! | original | rewritten | pushes |
//! |---|---|---|
//! | `a < b` | `__fc$q(a, b, 0) < __fc$r[0]` | the comparison's distances |
//! | `!x` | `__fc$x(!x')` | x's, swapped |
//! | `l && r` | `__fc$t(id, l', 0) && __fc$j(r', 0)` | l's (also kept for its own branch), combined with r's when r ran |
//! | anything else `e` | `__fc$v(e)` | 0 and 1 by its truthiness |
//! | the whole condition `c` | `__fc$t(id, c')` | (pops) |
//!
//! `__fc$q` evaluates both operands once, in order, as the comparison did, computes the distances only
//! when both are numbers (or both strings, for equality), and returns `a` while keeping `b` in a slot
//! read right after: the comparison itself, with its coercions, still runs in the code under test and
//! gives the same value. The helpers never convert a value (a recording proxy must not notice them)
//! and return what they were given, so the rewritten code behaves as the original. A comparison of
//! other values gives no distance when it is the whole condition, and "unknown" in a tree, which its
//! consumer resolves from the outcome (0 taken, 1 not).
//!
//! The slot's identifier gets the empty span at the right operand's start, so QuickJS reports the
//! comparison where it did before (see the header of `probes.rs`), and `sites` reads the literal
//! operands through [`compared`].
//!
//! A throw out of a half-evaluated condition leaves its pushes on the stack; consumers only look at
//! the top, so those are harmless, and the sandbox empties the stack before every test.

use swc_common::{BytePos, DUMMY_SP, Span, Spanned, util::take::Take};
use swc_ecma_ast::*;
use swc_ecma_visit::VisitMutWith;

use super::probes::{Probes, wrap};

/// Helper evaluating a comparison's operands: `__fc$q(a, b, op)`, or `__fc$q(a, b, op, id)` for a
/// condition that is one comparison.
const COMPARE: &str = "__fc$q";
/// Array whose element 0 holds the right operand of the comparison being evaluated.
const RIGHT: &str = "__fc$r";
/// Helper at a branch point: `__fc$t(id, condition)`, or `__fc$t(id, left, or)` for the left operand
/// of `&&` (`or` 0) or `||` (1) inside a condition.
const TEST: &str = "__fc$t";
/// Helper for the right operand of `&&` or `||` inside a condition: `__fc$j(right, or)`.
const JOIN: &str = "__fc$j";
/// Helper for `!`: `__fc$x(!x)`.
const NOT: &str = "__fc$x";
/// Helper for any other operand of a condition: `__fc$v(e)`.
const VALUE: &str = "__fc$v";

/// The comparison operators measured, by the code `__fc$q` takes.
const OPERATORS: [BinaryOp; 8] = [
    BinaryOp::Lt,
    BinaryOp::LtEq,
    BinaryOp::Gt,
    BinaryOp::GtEq,
    BinaryOp::EqEq,
    BinaryOp::EqEqEq,
    BinaryOp::NotEq,
    BinaryOp::NotEqEq,
];

impl Probes<'_> {
    /// Instruments the condition of branch outcomes `id` (true) and `id + 1` (false): with distances
    /// when it holds a measurable comparison (then `__fc$t` marks the outcome), else by visiting it and
    /// wrapping it in `marker`, when the construct has no other way to mark its outcome.
    pub(super) fn condition(&mut self, test: &mut Box<Expr>, id: u32, marker: Option<&str>) {
        let distances = self.distances;
        if distances && as_measurable(test).is_none() && has_comparison(test) {
            self.tree(test);
            wrap(test, TEST, id);
            return;
        }
        match as_measurable(test).filter(|_| distances) {
            // One comparison: its distances go straight to the outcomes.
            Some(b) => self.comparison(b, Some(id)),
            None => test.visit_mut_with(self),
        }
        if let Some(marker) = marker {
            wrap(test, marker, id);
        }
    }

    /// Rewrites a measurable comparison `a < b` as `__fc$q(a, b, 0) < __fc$r[0]` (with `id` when it is
    /// a whole condition), probing its operands.
    fn comparison(&mut self, b: &mut BinExpr, id: Option<u32>) {
        b.left.visit_mut_with(self);
        b.right.visit_mut_with(self);
        let op = OPERATORS.iter().position(|o| *o == b.op).expect("measurable operators are listed");
        let (at, right_at) = (b.left.span().lo, b.right.span().lo);
        let mut args = vec![*b.left.take(), *b.right.take(), number(op as f64)];
        args.extend(id.map(|id| number(id as f64)));
        *b.left = helper(COMPARE, at, args);
        let slot = MemberExpr {
            span: DUMMY_SP,
            obj: Box::new(Expr::Ident(Ident::new_no_ctxt(RIGHT.into(), Span::new(right_at, right_at)))),
            prop: MemberProp::Computed(ComputedPropName { span: DUMMY_SP, expr: Box::new(number(0.0)) }),
        };
        *b.right = Expr::Member(slot);
    }

    /// Rewrites one node of a condition's `!`/`&&`/`||` tree so that it pushes its distances, visiting
    /// (probing) everything else in source order.
    fn tree(&mut self, expr: &mut Box<Expr>) {
        let at = expr.span().lo;
        match &mut **expr {
            Expr::Paren(p) => return self.tree(&mut p.expr),
            Expr::Unary(u) if u.op == UnaryOp::Bang => self.tree(&mut u.arg),
            Expr::Bin(b) if matches!(b.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) => {
                let or = f64::from(b.op == BinaryOp::LogicalOr);
                let id = self.logical_pair(b);
                self.tree(&mut b.left);
                let (left_at, left) = (b.left.span().lo, b.left.take());
                *b.left = helper(TEST, left_at, vec![number(id as f64), *left, number(or)]);
                self.tree(&mut b.right);
                let (right_at, right) = (b.right.span().lo, b.right.take());
                *b.right = helper(JOIN, right_at, vec![*right, number(or)]);
                return;
            }
            Expr::Bin(b) if measurable(b) => return self.comparison(b, None),
            _ => {
                expr.visit_mut_with(self);
                let value = expr.take();
                **expr = helper(VALUE, at, vec![*value]);
                return;
            }
        }
        // Only `!` falls through: its pair is swapped.
        let value = expr.take();
        **expr = helper(NOT, at, vec![*value]);
    }
}

/// The operands `a` and `b` of a comparison rewritten as `__fc$q(a, b, op) < __fc$r[0]`, for the
/// literal operands `sites` reads.
pub(super) fn compared(b: &BinExpr) -> Option<(&Expr, &Expr)> {
    let Expr::Call(CallExpr { callee: Callee::Expr(callee), args, .. }) = &*b.left else { return None };
    match (&**callee, args.as_slice()) {
        (Expr::Ident(i), [a, b, ..]) if i.sym == COMPARE => Some((&a.expr, &b.expr)),
        _ => None,
    }
}

/// The condition as a measurable comparison, through parentheses.
fn as_measurable(expr: &mut Expr) -> Option<&mut BinExpr> {
    match expr {
        Expr::Paren(p) => as_measurable(&mut p.expr),
        Expr::Bin(b) if measurable(b) => Some(b),
        _ => None,
    }
}

/// Whether a condition's `!`/`&&`/`||` tree holds a comparison worth measuring.
fn has_comparison(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => has_comparison(&p.expr),
        Expr::Unary(u) if u.op == UnaryOp::Bang => has_comparison(&u.arg),
        Expr::Bin(b) if matches!(b.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) => {
            has_comparison(&b.left) || has_comparison(&b.right)
        }
        Expr::Bin(b) => measurable(b),
        _ => false,
    }
}

/// A comparison whose operands may both be numbers or strings, and are not both constants.
fn measurable(b: &BinExpr) -> bool {
    OPERATORS.contains(&b.op)
        && may_be_number_or_string(&b.left)
        && may_be_number_or_string(&b.right)
        && !(is_literal(&b.left) && is_literal(&b.right))
}

/// Whether an operand could be a number or a string: not `null`, `undefined`, a boolean, a `typeof`,
/// a `void`, or an object, array, function, class or regular expression literal.
fn may_be_number_or_string(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => may_be_number_or_string(&p.expr),
        Expr::Lit(Lit::Null(_) | Lit::Bool(_) | Lit::Regex(_)) => false,
        Expr::Ident(i) => i.sym != "undefined",
        Expr::Unary(u) => !matches!(u.op, UnaryOp::TypeOf | UnaryOp::Void | UnaryOp::Bang | UnaryOp::Delete),
        Expr::Object(_) | Expr::Array(_) | Expr::Fn(_) | Expr::Arrow(_) | Expr::Class(_) | Expr::New(_) => false,
        _ => true,
    }
}

fn is_literal(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => is_literal(&p.expr),
        Expr::Lit(_) => true,
        Expr::Unary(u) if matches!(u.op, UnaryOp::Minus | UnaryOp::Plus) => is_literal(&u.arg),
        Expr::Tpl(t) => t.exprs.is_empty(),
        _ => false,
    }
}

fn number(value: f64) -> Expr {
    Expr::Lit(Lit::Num(Number { span: DUMMY_SP, value, raw: None }))
}

/// `name(args)`, its callee positioned at `at` like the probes' helpers.
fn helper(name: &str, at: BytePos, args: Vec<Expr>) -> Expr {
    Expr::Call(CallExpr {
        callee: Callee::Expr(Box::new(Expr::Ident(Ident::new_no_ctxt(name.into(), Span::new(at, at))))),
        args: args.into_iter().map(|expr| ExprOrSpread { spread: None, expr: Box::new(expr) }).collect(),
        ..Default::default()
    })
}
