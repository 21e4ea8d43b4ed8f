//! Branch distances: how far a run came from the outcome of a condition that it did not take.
//!
//! Search-based test generation needs more than "taken or not": a test whose `x * 3 === y + 1000`
//! was off by 2 is closer than one off by 2000. Korel's and Tracey et al.'s branch distance measures
//! that for each comparison, and combines them through `!`, `&&` (sum) and `||` (minimum). Each
//! distance is normalised to `d / (d + 1)`, so 0 means taken and 1 means no idea.
//!
//! A branch condition (of `if`, `?:`, a loop, or the left operand of `&&` and `||`) is measured when it
//! holds a comparison that may be numeric or between strings (not one with `null`, `typeof`, a boolean
//! or an object literal), or a string predicate: `a.startsWith(b)`, `a.endsWith(b)`, `a.includes(b)`,
//! and `a.indexOf(b)` compared with `0` or `-1`, whose distance is the character distance of `b` to
//! the closest part of `a` that would do. A regular expression's `re.test(s)` is measured as a
//! predicate too, with no distance (unknown), so that a measuring run notes the pattern `s` met (see
//! `generate/correspondence.rs`). The smallest distance per branch outcome in a run goes to
//! `__fc$d`, a `Float64Array` by branch id that the sandbox resets and reads like the coverage arrays. A
//! condition that is one comparison `a < b` becomes `__fc$q(a, b, 0, id) < __fc$r[0]`, which records its
//! distances itself. In a `!`/`&&`/`||` tree, every node pushes its two distances (to true, to false)
//! on a stack and the branch point pops them:
//!
//! | original | rewritten | pushes |
//! |---|---|---|
//! | `a < b` | `__fc$q(a, b, 0) < __fc$r[0]` | the comparison's distances |
//! | `a.startsWith(b)` | `__fc$w(a, b, 0, 0).startsWith(__fc$r[0])` | the predicate's distances |
//! | `a.indexOf(b) === -1` | `__fc$w(a, b, 2, 1).indexOf(__fc$r[0]) === -1` | `includes`', swapped |
//! | `!x` | `__fc$x(!x')` | x's, swapped |
//! | `l && r` | `__fc$t(id, l', 0) && __fc$j(r', 0)` | l's (also kept for its own branch), combined with r's when r ran |
//! | anything else `e` | `__fc$v(e)` | 0 and 1 by its truthiness |
//! | the whole condition `c` | `__fc$t(id, c')` | (pops) |
//!
//! `__fc$q` and `__fc$w` evaluate both operands once, in order, as the comparison did, compute the
//! distances only when both are numbers (or both strings, for equality and the predicates), and return
//! `a` while keeping `b` in a slot read right after: the comparison itself, with its coercions, still
//! runs in the code under test and gives the same value. The helpers never convert a value (a recording
//! proxy must not notice them) and return what they were given, so the rewritten code behaves as the
//! original. A comparison of other values gives no distance when it is the whole condition, and
//! "unknown" in a tree, which its consumer resolves from the outcome (0 taken, 1 not).
//!
//! A `switch` is measured as the chain of `===` it stands for: its discriminant `d` becomes
//! `__fc$sc(d, () => [c1, id1, c2, id2, ...])` over the clauses whose test is a constant (a literal, a
//! name, a path of names), which gives each clause's outcome the distance of `d` to its constant and
//! notes the unequal ones, so that search can write a `case`'s string or character into the input.
//!
//! Measuring costs a call or more per condition, and only search reads distances: a measured condition
//! is written both ways, `(__fc$on[0] ? measuring : plain)`, the plain form being the measuring one with
//! the helpers taken out again (so nested probes keep their ids). The sandbox sets `__fc$on[0]` per run,
//! so a method pays for distances only once its search needs them.
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

use super::marks::{Marker, mark_outcome, wrap};
use super::patterns::observe;
use super::probes::Probes;
use crate::js::{
    COMPARE, DISTANCE_JOIN, DISTANCE_NOT, DISTANCE_TEST, DISTANCE_VALUE, MEASURING, RIGHT_OPERAND, STRING_PREDICATE,
    SWITCH_CASES, TRUTHY,
};

/// The string predicates measured, by the kind `__fc$w` takes; a regular expression's `test` (kind 3)
/// gives no distance, only the pattern the string met (see `distance.js`).
const PREDICATES: [&str; 4] = ["startsWith", "endsWith", "includes", "test"];

/// What a measurable node of a condition is.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// A comparison of values that may be numbers or strings.
    Comparison,
    /// `a.startsWith(b)` (kind 0), `a.endsWith(b)` (1) or `a.includes(b)` (2), negated when `swap`:
    /// a call, or `a.indexOf(b)` compared with `0` or `-1`.
    Predicate { kind: u8, swap: bool },
}

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
    /// Instruments the condition of branch outcomes `id` (true) and `id + 1` (false). One holding a
    /// measurable comparison or predicate is written both ways (see the module's docs): measuring, where
    /// one comparison records its distances to the outcomes itself and a tree ends in `__fc$t`, which
    /// also marks the outcome; and plain. Either way `marker`, when the construct has no other way to
    /// mark its outcome, marks it.
    pub(super) fn condition(&mut self, test: &mut Box<Expr>, id: u32, marker: Option<Marker>) {
        if !(self.distances && has_measurable(test)) {
            test.visit_mut_with(self);
            if let Some(marker) = marker {
                mark_outcome(test, marker, id);
            }
            return;
        }
        let span = test.span();
        if let Some(kind) = kind_of(test) {
            self.measure(test, kind, Some(id));
            let plain = plain((**test).clone());
            let measuring = *test.take();
            **test = both(span, measuring, plain);
            if let Some(marker) = marker {
                mark_outcome(test, marker, id);
            }
            return;
        }
        self.tree(test);
        let mut plain = Box::new(plain((**test).clone()));
        if let Some(marker) = marker {
            mark_outcome(&mut plain, marker, id);
        }
        wrap(test, DISTANCE_TEST, id);
        let measuring = *test.take();
        **test = both(span, measuring, *plain);
    }

    /// Rewrites a measurable node of `kind` (through parentheses) so that it gives its distances: to
    /// outcomes `id` and `id + 1` when it is a whole condition, else on the stack.
    fn measure(&mut self, expr: &mut Expr, kind: Kind, id: Option<u32>) {
        match (expr, kind) {
            (Expr::Paren(p), _) => self.measure(&mut p.expr, kind, id),
            (Expr::Bin(b), Kind::Comparison) => self.comparison(b, id),
            (Expr::Call(c), Kind::Predicate { kind, swap }) => self.predicate(c, kind, swap, id),
            (Expr::Bin(b), Kind::Predicate { kind, swap }) => {
                if let Expr::Call(c) = &mut *b.left {
                    self.predicate(c, kind, swap, id);
                }
                b.right.visit_mut_with(self);
            }
            (other, _) => other.visit_mut_with(self),
        }
    }

    /// Rewrites a string predicate `a.m(b)` as `__fc$w(a, b, kind, swap).m(__fc$r[0])` (with `id` when
    /// it is a whole condition), probing its operands.
    fn predicate(&mut self, c: &mut CallExpr, kind: u8, swap: bool, id: Option<u32>) {
        c.visit_mut_children_with(self);
        let Callee::Expr(callee) = &mut c.callee else { return };
        let (Expr::Member(m), Some(argument)) = (&mut **callee, c.args.first_mut()) else { return };
        let (at, argument_at) = (m.obj.span().lo, argument.expr.span().lo);
        let mut args = vec![*m.obj.take(), *argument.expr.take(), number(f64::from(kind)), number(f64::from(swap))];
        args.extend(id.map(|id| number(id as f64)));
        *m.obj = helper(STRING_PREDICATE, at, args);
        *argument.expr = slot(argument_at);
    }

    /// Rewrites a measurable comparison `a < b` as `__fc$q(a, b, 0) < __fc$r[0]` (with `id` when it is
    /// a whole condition), probing its operands.
    fn comparison(&mut self, b: &mut BinExpr, id: Option<u32>) {
        b.left.visit_mut_with(self);
        b.right.visit_mut_with(self);
        let mut op = OPERATORS.iter().position(|o| *o == b.op).expect("measurable operators are listed");
        // A length is no character: its comparison gives distances but is not noted.
        if is_length(&b.left) || is_length(&b.right) {
            op += OPERATORS.len();
        }
        let (at, right_at) = (b.left.span().lo, b.right.span().lo);
        let mut args = vec![*b.left.take(), *b.right.take(), number(op as f64)];
        args.extend(id.map(|id| number(id as f64)));
        *b.left = helper(COMPARE, at, args);
        *b.right = slot(right_at);
    }

    /// Rewrites one node of a condition's `!`/`&&`/`||` tree so that it pushes its distances, visiting
    /// (probing) everything else in source order.
    fn tree(&mut self, expr: &mut Box<Expr>) {
        let at = expr.span().lo;
        let kind = kind_of(expr);
        match &mut **expr {
            Expr::Paren(p) => return self.tree(&mut p.expr),
            Expr::Unary(u) if u.op == UnaryOp::Bang => self.tree(&mut u.arg),
            Expr::Bin(b) if matches!(b.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) => {
                let or = f64::from(b.op == BinaryOp::LogicalOr);
                let id = self.logical_pair(b);
                self.tree(&mut b.left);
                let (left_at, left) = (b.left.span().lo, b.left.take());
                *b.left = helper(DISTANCE_TEST, left_at, vec![number(id as f64), *left, number(or)]);
                self.tree(&mut b.right);
                let (right_at, right) = (b.right.span().lo, b.right.take());
                *b.right = helper(DISTANCE_JOIN, right_at, vec![*right, number(or)]);
                return;
            }
            _ if kind.is_some() => return self.measure(expr, kind.expect("just checked"), None),
            _ => {
                expr.visit_mut_with(self);
                let value = expr.take();
                **expr = helper(DISTANCE_VALUE, at, vec![*value]);
                return;
            }
        }
        // Only `!` falls through: its pair is swapped.
        let value = expr.take();
        **expr = helper(DISTANCE_NOT, at, vec![*value]);
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

/// What a node of a condition measures, through parentheses.
fn kind_of(expr: &Expr) -> Option<Kind> {
    match expr {
        Expr::Paren(p) => kind_of(&p.expr),
        Expr::Call(c) => predicate(c).map(|kind| Kind::Predicate { kind, swap: false }),
        Expr::Bin(b) => index_of(b).or_else(|| measurable(b).then_some(Kind::Comparison)),
        _ => None,
    }
}

/// The kind of a string predicate call `a.startsWith(b)`, `a.endsWith(b)`, `a.includes(b)`.
fn predicate(c: &CallExpr) -> Option<u8> {
    let name = method_called(c)?;
    PREDICATES.iter().position(|p| *p == name).map(|kind| kind as u8)
}

/// `a.m(b)`'s method name `m`, for a call with one argument and no spread.
fn method_called(c: &CallExpr) -> Option<&str> {
    let Callee::Expr(callee) = &c.callee else { return None };
    let Expr::Member(MemberExpr { prop: MemberProp::Ident(name), .. }) = &**callee else { return None };
    matches!(c.args.as_slice(), [ExprOrSpread { spread: None, .. }]).then_some(&*name.sym)
}

/// `a.indexOf(b)` compared with `0` (a `startsWith`) or `-1` (an `includes`), as a predicate.
fn index_of(b: &BinExpr) -> Option<Kind> {
    let Expr::Call(call) = &*b.left else { return None };
    if method_called(call) != Some("indexOf") {
        return None;
    }
    let right = match &*b.right {
        Expr::Lit(Lit::Num(n)) => n.value,
        Expr::Unary(UnaryExpr { op: UnaryOp::Minus, arg, .. }) => match &**arg {
            Expr::Lit(Lit::Num(n)) => -n.value,
            _ => return None,
        },
        _ => return None,
    };
    use BinaryOp::*;
    let (kind, swap) = match (b.op, right) {
        (EqEq | EqEqEq, 0.0) => (0, false),
        (NotEq | NotEqEq, 0.0) => (0, true),
        (EqEq | EqEqEq, -1.0) | (Lt, 0.0) => (2, true),
        (NotEq | NotEqEq, -1.0) | (Gt, -1.0) | (GtEq, 0.0) => (2, false),
        _ => return None,
    };
    Some(Kind::Predicate { kind, swap })
}

/// Whether a condition's `!`/`&&`/`||` tree holds something worth measuring.
fn has_measurable(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => has_measurable(&p.expr),
        Expr::Unary(u) if u.op == UnaryOp::Bang => has_measurable(&u.arg),
        Expr::Bin(b) if matches!(b.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) => {
            has_measurable(&b.left) || has_measurable(&b.right)
        }
        other => kind_of(other).is_some(),
    }
}

/// The plain form of a measuring condition or tree node: the helpers taken out again, the left
/// operands of `&&` and `||` marking their outcomes as plain code does.
fn plain(expr: Expr) -> Expr {
    match expr {
        Expr::Paren(p) => Expr::Paren(ParenExpr { expr: Box::new(plain(*p.expr)), ..p }),
        Expr::Unary(u) if u.op == UnaryOp::Bang => Expr::Unary(UnaryExpr { arg: Box::new(plain(*u.arg)), ..u }),
        Expr::Bin(b) => {
            if let Some((left, right)) = compared(&b) {
                let (left, right) = (Box::new(left.clone()), Box::new(right.clone()));
                return Expr::Bin(BinExpr { left, right, ..b });
            }
            let logical = matches!(b.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr);
            let right = if logical { Box::new(plain(*b.right)) } else { b.right };
            Expr::Bin(BinExpr { left: Box::new(plain(*b.left)), right, ..b })
        }
        Expr::Call(call) => plain_call(call),
        other => other,
    }
}

/// A call of the tree's helpers, or a rewritten predicate, in plain form.
fn plain_call(mut call: CallExpr) -> Expr {
    let Callee::Expr(callee) = &mut call.callee else { return Expr::Call(call) };
    let mut args: Vec<Expr> = call.args.iter().map(|a| (*a.expr).clone()).collect();
    match &mut **callee {
        Expr::Ident(i) if i.sym == DISTANCE_TEST && args.len() == 3 => {
            let mut left = Box::new(plain(args.swap_remove(1)));
            let Expr::Lit(Lit::Num(id)) = &args[0] else { unreachable!("the tree's ids are literals") };
            wrap(&mut left, TRUTHY, id.value as u32);
            *left
        }
        Expr::Ident(i) if (i.sym == DISTANCE_JOIN || i.sym == DISTANCE_NOT) && !args.is_empty() => {
            plain(args.swap_remove(0))
        }
        Expr::Ident(i) if i.sym == DISTANCE_VALUE && !args.is_empty() => args.swap_remove(0),
        Expr::Member(m) => {
            let Expr::Call(inner) = &mut *m.obj else { return Expr::Call(call) };
            let is_string =
                matches!(&inner.callee, Callee::Expr(c) if matches!(&**c, Expr::Ident(i) if i.sym == STRING_PREDICATE));
            if is_string && inner.args.len() >= 2 && !call.args.is_empty() {
                *call.args[0].expr = (*inner.args[1].expr).clone();
                *m.obj = (*inner.args[0].expr).clone();
                observe(&mut call);
            }
            Expr::Call(call)
        }
        _ => Expr::Call(call),
    }
}

impl Probes<'_> {
    /// Measures a `switch`'s discriminant (already instrumented) against the constant tests of its
    /// `cases`, whose branch outcomes start at `first` (see the module's docs), both ways as a condition
    /// is.
    pub(super) fn switch_cases(&mut self, discriminant: &mut Box<Expr>, cases: &[SwitchCase], first: u32) {
        let constants: Vec<Option<ExprOrSpread>> = (first..)
            .zip(cases)
            .filter_map(|(id, case)| case.test.as_deref().filter(|test| is_case_constant(test)).map(|test| (test, id)))
            .flat_map(|(test, id)| [test.clone(), number(f64::from(id))])
            .map(|expr| Some(ExprOrSpread { spread: None, expr: Box::new(expr) }))
            .collect();
        if !self.distances || constants.is_empty() {
            return;
        }
        let span = discriminant.span();
        let list = Expr::Array(ArrayLit { span: DUMMY_SP, elems: constants });
        let thunk =
            Expr::Arrow(ArrowExpr { body: Box::new(ArrowFunctionBody::Expr(Box::new(list))), ..Default::default() });
        let plain = (**discriminant).clone();
        let measuring = helper(SWITCH_CASES, span.lo, vec![*discriminant.take(), thunk]);
        **discriminant = both(span, measuring, plain);
    }
}

/// `x.length`.
fn is_length(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => is_length(&p.expr),
        Expr::Member(m) => matches!(&m.prop, MemberProp::Ident(p) if p.sym == "length"),
        _ => false,
    }
}

/// A `case` test the discriminant is measured against: a string or number literal, a name, or a path of
/// names (`Token.Comma`), which the helper may read before the clauses would.
fn is_case_constant(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => is_case_constant(&p.expr),
        Expr::Lit(Lit::Str(_) | Lit::Num(_)) | Expr::Ident(_) => true,
        Expr::Tpl(t) => t.exprs.is_empty(),
        Expr::Unary(u) => u.op == UnaryOp::Minus && matches!(&*u.arg, Expr::Lit(Lit::Num(_))),
        Expr::Member(m) => {
            matches!(m.prop, MemberProp::Ident(_))
                && matches!(&*m.obj, Expr::Ident(_) | Expr::Member(_))
                && is_case_constant(&m.obj)
        }
        _ => false,
    }
}

/// `(__fc$on[0] ? measuring : plain)`, spanning the condition it stands for.
fn both(span: Span, measuring: Expr, plain: Expr) -> Expr {
    let switch = Expr::Member(MemberExpr {
        span: DUMMY_SP,
        obj: Box::new(Expr::Ident(Ident::new_no_ctxt(MEASURING.into(), Span::new(span.lo, span.lo)))),
        prop: MemberProp::Computed(ComputedPropName { span: DUMMY_SP, expr: Box::new(number(0.0)) }),
    });
    let choice = CondExpr { span, test: Box::new(switch), cons: Box::new(measuring), alt: Box::new(plain) };
    Expr::Paren(ParenExpr { span, expr: Box::new(Expr::Cond(choice)) })
}

/// `__fc$r[0]`, its identifier positioned at `at`: the operand a helper kept.
fn slot(at: BytePos) -> Expr {
    Expr::Member(MemberExpr {
        span: DUMMY_SP,
        obj: Box::new(Expr::Ident(Ident::new_no_ctxt(RIGHT_OPERAND.into(), Span::new(at, at)))),
        prop: MemberProp::Computed(ComputedPropName { span: DUMMY_SP, expr: Box::new(number(0.0)) }),
    })
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

/// A number literal.
pub(super) fn number(value: f64) -> Expr {
    Expr::Lit(Lit::Num(Number { span: DUMMY_SP, value, raw: None }))
}

/// `name(args)`, its callee positioned at `at` like the probes' helpers.
pub(super) fn helper(name: &str, at: BytePos, args: Vec<Expr>) -> Expr {
    Expr::Call(CallExpr {
        callee: Callee::Expr(Box::new(Expr::Ident(Ident::new_no_ctxt(name.into(), Span::new(at, at))))),
        args: args.into_iter().map(|expr| ExprOrSpread { spread: None, expr: Box::new(expr) }).collect(),
        ..Default::default()
    })
}
