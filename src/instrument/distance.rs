//! Branch distances: how far a run came from the outcome of a condition that it did not take.
//!
//! Search-based test generation needs more than "taken or not": a test whose `x * 3 === y + 1000`
//! was off by 2 is closer than one off by 2000. Korel's and Tracey et al.'s branch distance measures
//! that for each comparison, and combines them through `!`, `&&` (sum) and `||` (minimum). Each
//! distance is normalised to `d / (d + 1)`, so 0 means taken and 1 means no idea.
//!
//! A branch condition (of `if`, `?:`, a loop, or the left operand of `&&` and `||`) is rewritten when it
//! holds a comparison that may be numeric or between strings (not one with `null`, `typeof`, a boolean
//! or an object literal): every node of its `!`/`&&`/`||` tree pushes two distances, to its true and to
//! its false outcome, on a stack, and the branch point pops them and keeps, per branch outcome, the
//! smallest seen in the run (`__fc$d`, a `Float64Array` by branch id that the sandbox resets and reads
//! like the coverage arrays). The rewrite of each node:
//!
//! | original | rewritten | pushes |
//! |---|---|---|
//! | `a < b` | `__fc$q(a, b, 0) < __fc$r[0]` | the comparison's distances |
//! | `!x` | `__fc$x(!x')` | x's, swapped |
//! | `l && r` | `__fc$l(id, l', 0) && __fc$j(r', 0)` | l's, combined with r's when r ran |
//! | anything else `e` | `__fc$v(e)` | 0 and 1 by its truthiness |
//! | the whole condition `c` | `__fc$t(id, c')` | (pops) |
//!
//! `__fc$q` evaluates both operands once, in order, as the comparison did, computes the distances only
//! when both are numbers (or both strings, for equality), and returns `a` while keeping `b` in a slot
//! read right after: the comparison itself, with its coercions, still runs in the code under test and
//! gives the same value. The helpers never convert a value (a recording proxy must not notice them)
//! and return what they were given, so the rewritten code behaves as the original. A comparison of
//! other values pushes "unknown", which its consumer resolves from the outcome (0 taken, 1 not).
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

/// `Float64Array` of the smallest distance per branch outcome in the current run.
pub const DISTANCES: &str = "__fc$d";
/// `Float64Array` stack of distance pairs; element 0 is its depth, which the sandbox sets to 0.
pub const STACK: &str = "__fc$k";
/// Helper evaluating a comparison's operands: `__fc$q(a, b, op)`.
const COMPARE: &str = "__fc$q";
/// Array whose element 0 holds the right operand of the comparison being evaluated.
const RIGHT: &str = "__fc$r";
/// Helper at a branch point: `__fc$t(id, condition)`.
const TEST: &str = "__fc$t";
/// Helper for the left operand of `&&` or `||` inside a condition: `__fc$l(id, left, or)`.
const LEFT: &str = "__fc$l";
/// Helper for the right operand of `&&` or `||` inside a condition: `__fc$j(right, or)`.
const JOIN: &str = "__fc$j";
/// Helper for `!`: `__fc$x(!x)`.
const NOT: &str = "__fc$x";
/// Helper for any other operand of a condition: `__fc$v(e)`.
const VALUE: &str = "__fc$v";

/// The distance helpers, installed by [`super::RUNTIME_JS`] (a macro so it can be `concat!`ed).
///
/// They capture what they use from the built-ins before user code runs, so code under test that
/// replaces `Math` or `String.prototype.charCodeAt` cannot change their results.
macro_rules! runtime {
    () => {
        r#"(function () {
  var hide = { writable: false, enumerable: false, configurable: true };
  // 4096 pairs; deeper pushes (recursion inside conditions) are only counted and pop as unknown.
  var stack = new Float64Array(2 * 4096 + 1), slot = [undefined], T = 0, F = 0;
  var code = Function.prototype.call.bind(String.prototype.charCodeAt);
  function norm(d) { return d === d && d !== Infinity ? d / (d + 1) : 1; }
  function push(t, f) {
    var n = stack[0] + 2;
    stack[0] = n;
    if (n < stack.length) { stack[n - 1] = t; stack[n] = f; }
  }
  // Pops into T and F, resolving an unknown distance from the outcome: 0 taken, 1 not.
  function pop(v) {
    var n = stack[0];
    if (n >= 2 && n < stack.length) { T = stack[n - 1]; F = stack[n]; } else { T = NaN; F = NaN; }
    stack[0] = n >= 2 ? n - 2 : 0;
    if (v) { T = 0; if (F !== F) F = 1; } else { F = 0; if (T !== T) T = 1; }
  }
  function keep(id, v) {
    __fc$b[v ? id : id + 1] = 1;
    var d = __fc$d;
    if (T < d[id]) d[id] = T;
    if (F < d[id + 1]) d[id + 1] = F;
  }
  // Normalised sum over the first 64 characters of how far apart the codes are, plus the lengths'.
  function text(a, b) {
    var n = a.length < b.length ? a.length : b.length, d = a.length - b.length, i, c;
    if (d < 0) d = -d;
    if (n > 64) { if (a !== b) d += 1; n = 64; }
    for (i = 0; i < n; i++) { c = code(a, i) - code(b, i); if (c) { if (c < 0) c = -c; d += c / (c + 1); } }
    return d;
  }
  function define(name, value) { hide.value = value; Object.defineProperty(globalThis, name, hide); }
  define("__fc$k", stack);
  define("__fc$r", slot);
  // Operators: 0 <, 1 <=, 2 >, 3 >=, 4 ==, 5 ===, 6 !=, 7 !==.
  define("__fc$q", function (a, b, op) {
    slot[0] = b;
    var t = NaN, f = NaN, d, kind = typeof a;
    if (kind === "number" && typeof b === "number") {
      switch (op) {
        case 0: if (a < b) { t = 0; f = norm(b - a); } else { t = norm(a - b + 1); f = 0; } break;
        case 1: if (a <= b) { t = 0; f = norm(b - a + 1); } else { t = norm(a - b); f = 0; } break;
        case 2: if (a > b) { t = 0; f = norm(a - b); } else { t = norm(b - a + 1); f = 0; } break;
        case 3: if (a >= b) { t = 0; f = norm(a - b + 1); } else { t = norm(b - a); f = 0; } break;
        default:
          d = a - b;
          if (a === b) { t = 0; f = 0.5; } else { t = norm(d < 0 ? -d : d); f = 0; }
          if (op >= 6) { d = t; t = f; f = d; }
      }
    } else if (kind === "string" && typeof b === "string" && op >= 4) {
      if (a === b) { t = 0; f = 0.5; } else { t = norm(text(a, b)); f = 0; }
      if (op >= 6) { d = t; t = f; f = d; }
    }
    push(t, f);
    return a;
  });
  define("__fc$t", function (id, v) { pop(v); keep(id, v); return v; });
  // An operand not evaluated because of short-circuiting counts as 1.
  define("__fc$l", function (id, v, or) {
    pop(v);
    keep(id, v);
    if (or) push(T, v ? F + 1 : F); else push(v ? T : T + 1, F);
    return v;
  });
  define("__fc$j", function (v, or) {
    pop(v);
    var t = T, f = F;
    pop(!or);
    if (or) push(t < T ? t : T, f + F); else push(t + T, f < F ? f : F);
    return v;
  });
  define("__fc$x", function (v) { pop(!v); push(F, T); return v; });
  define("__fc$v", function (v) { push(v ? 0 : 1, v ? 1 : 0); return v; });
})();
"#
    };
}
pub(super) use runtime;

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
        if has_comparison(test) {
            self.tree(test);
            wrap(test, TEST, id);
        } else {
            test.visit_mut_with(self);
            if let Some(marker) = marker {
                wrap(test, marker, id);
            }
        }
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
                *b.left = helper(LEFT, left_at, vec![number(id as f64), left, number(or)]);
                self.tree(&mut b.right);
                let (right_at, right) = (b.right.span().lo, b.right.take());
                *b.right = helper(JOIN, right_at, vec![right, number(or)]);
                return;
            }
            Expr::Bin(b) if measurable(b) => {
                b.left.visit_mut_with(self);
                b.right.visit_mut_with(self);
                let op = OPERATORS.iter().position(|o| *o == b.op).expect("measurable operators are listed");
                let right_at = b.right.span().lo;
                let (left, right) = (b.left.take(), b.right.take());
                *b.left = helper(COMPARE, at, vec![left, right, number(op as f64)]);
                let slot = MemberExpr {
                    span: DUMMY_SP,
                    obj: Box::new(Expr::Ident(Ident::new_no_ctxt(RIGHT.into(), Span::new(right_at, right_at)))),
                    prop: MemberProp::Computed(ComputedPropName { span: DUMMY_SP, expr: number(0.0) }),
                };
                *b.right = Expr::Member(slot);
                return;
            }
            _ => {
                expr.visit_mut_with(self);
                let value = expr.take();
                **expr = helper(VALUE, at, vec![value]);
                return;
            }
        }
        // Only `!` falls through: its pair is swapped.
        let value = expr.take();
        **expr = helper(NOT, at, vec![value]);
    }
}

/// The operands `a` and `b` of a comparison rewritten as `__fc$q(a, b, op) < __fc$r[0]`, for the
/// literal operands `sites` reads.
pub(super) fn compared(b: &BinExpr) -> Option<(&Expr, &Expr)> {
    let Expr::Call(CallExpr { callee: Callee::Expr(callee), args, .. }) = &*b.left else { return None };
    match (&**callee, args.as_slice()) {
        (Expr::Ident(i), [a, b, _]) if i.sym == COMPARE => Some((&a.expr, &b.expr)),
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

fn number(value: f64) -> Box<Expr> {
    Box::new(Expr::Lit(Lit::Num(Number { span: DUMMY_SP, value, raw: None })))
}

/// `name(args)`, its callee positioned at `at` like the probes' helpers.
fn helper(name: &str, at: BytePos, args: Vec<Box<Expr>>) -> Expr {
    Expr::Call(CallExpr {
        callee: Callee::Expr(Box::new(Expr::Ident(Ident::new_no_ctxt(name.into(), Span::new(at, at))))),
        args: args.into_iter().map(|expr| ExprOrSpread { spread: None, expr }).collect(),
        ..Default::default()
    })
}
