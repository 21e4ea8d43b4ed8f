//! Where the code under test meets its inputs with regular expressions, so that generation can learn
//! the patterns it validates them against, however they were built (a literal, `new RegExp(source)`
//! in another module, a pattern assembled from pieces).
//!
//! A call `x.m(a, ...)` of a method named `test`, `exec`, `match`, `matchAll`, `search`, `replace`,
//! `replaceAll`, `split`, `indexOf`, `lastIndexOf` or `includes` becomes `__fc$o(x).m(__fc$a(a, k, ...))`: `__fc$o` keeps the receiver and
//! returns it, `__fc$a` pairs it with the first argument and returns that (`k` says which method; a
//! RegExp literal's text follows it, see [`literal_pattern`]), and
//! `js/patterns.js` logs the pattern with the subject (a string's text, a recording proxy's key); Rust
//! keeps it for the parameters whose arguments the subject came from. The receiver is
//! still evaluated first and the method looked up on it before the arguments, so nothing the code can
//! observe changes; only functions' code is rewritten (top-level code runs once, at load).
//!
//! The helpers' identifiers stand at the start of what they wrap, like the probes' helpers (see
//! `probes.rs`), so positions QuickJS reports map to the same original operands as before.

use swc_common::{Spanned, util::take::Take};
use swc_ecma_ast::*;
use swc_ecma_visit::VisitMutWith;

use super::distance::{helper, number};
use super::probes::Probes;
use crate::js::{PATTERN_ARGUMENT, PATTERN_RECEIVER};

/// The methods observed, by the kind `__fc$a` takes: RegExp methods first (the subject is the
/// argument), then String methods (the subject is the receiver). The searches for a string after
/// `split` find the separators of code that walks its input by hand (`str.indexOf(';', at)`).
const OBSERVED: [&str; 11] = [
    "test",
    "exec",
    "match",
    "matchAll",
    "search",
    "replace",
    "replaceAll",
    "split",
    "indexOf",
    "lastIndexOf",
    "includes",
];

impl Probes<'_> {
    /// Probes a call, then rewrites it for the pattern observer when it calls an observed method.
    pub(super) fn call(&mut self, call: &mut CallExpr) {
        call.visit_mut_children_with(self);
        observe(call);
    }
}

/// Rewrites a call whose parts are probed already for the pattern observer, when it calls an observed
/// method (the plain form of a measured `s.indexOf(';') === -1` is one: see `distance.rs`).
pub(super) fn observe(call: &mut CallExpr) {
    let Some(kind) = observed(call) else { return };
    let Callee::Expr(callee) = &mut call.callee else { return };
    let Expr::Member(member) = &mut **callee else { return };
    let first = &mut call.args[0].expr;
    let (receiver_at, argument_at) = (member.obj.span().lo, first.span().lo);
    let receiver = member.obj.take();
    let literal = literal_pattern(kind, &receiver, first);
    *member.obj = helper(PATTERN_RECEIVER, receiver_at, vec![*receiver]);
    let argument = first.take();
    let mut args = vec![*argument, number(kind as f64)];
    args.extend(literal.map(|text| Expr::Lit(Lit::Str(text.as_str().into()))));
    **first = helper(PATTERN_ARGUMENT, argument_at, args);
}

/// The text of the pattern of an observed call of `kind` when it is a RegExp literal (`/a+/g`): each
/// evaluation of a literal makes a new RegExp, of the same source and flags, which the observer then
/// describes once per literal rather than once per object (reading its source and eight flags, and
/// compiling what a split by it needs, at every call of a method that meets its input so).
fn literal_pattern(kind: usize, receiver: &Expr, argument: &Expr) -> Option<String> {
    // RegExp methods (`test`, `exec`) are called on the pattern; the others take it as their argument,
    // and the searches for a string (`indexOf` and after) take no RegExp.
    let pattern = match kind {
        0 | 1 => receiver,
        2..=7 => argument,
        _ => return None,
    };
    match pattern {
        Expr::Lit(Lit::Regex(regex)) => Some(format!("/{}/{}", regex.exp, regex.flags)),
        _ => None,
    }
}

/// The kind of an observed call `x.m(a, ...)`: a method named in [`OBSERVED`], on any receiver but
/// `super`, with a first argument that is not spread.
fn observed(call: &CallExpr) -> Option<usize> {
    let Callee::Expr(callee) = &call.callee else { return None };
    let Expr::Member(MemberExpr { prop: MemberProp::Ident(name), .. }) = &**callee else { return None };
    if call.args.first().is_none_or(|a| a.spread.is_some()) {
        return None;
    }
    OBSERVED.iter().position(|m| *m == &*name.sym)
}
