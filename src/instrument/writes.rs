//! Marks on the writes that outlive a test: each becomes `(__fc$sw[0] = 1, write)`.
//!
//! `analysis::state` finds, in the functions of a file, every write to state that a later test could
//! observe (an implicit global, a module-level binding, a property reached from one, a prototype or a
//! constructor's property, a module-level collection changed by a mutating method). Tests share one
//! context, so the sandbox must know whether a test ran such a write: it reads the flag these marks set
//! instead of scanning the heap, and a context whose flag is set is not reused (see `sandbox`).
//!
//! The flag is set before the write runs: a write that then throws still counts, which costs a new
//! context and never lets a changed one through. The write itself is left as it was, so its value,
//! its `this` (a mutating method call stays a method call) and its coercions do not change.

use std::collections::HashSet;

use swc_common::{DUMMY_SP, Span, Spanned, util::take::Take};
use swc_ecma_ast::{Expr, ParenExpr, Program, SeqExpr, UnaryOp};
use swc_ecma_visit::{VisitMut, VisitMutWith};

use super::probes::mark;
use crate::js::SHARED_WRITE;

/// Marks, in `program` (instrumented already: its original nodes keep their spans), each write at one of
/// `sites`.
pub(super) fn mark_writes(program: &mut Program, sites: &[Span]) {
    if sites.is_empty() {
        return;
    }
    program.visit_mut_with(&mut Marker { sites: sites.iter().copied().collect() });
}

struct Marker {
    sites: HashSet<Span>,
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

impl VisitMut for Marker {
    fn visit_mut_expr(&mut self, expr: &mut Expr) {
        expr.visit_mut_children_with(self);
        if is_write(expr) && self.sites.contains(&expr.span()) {
            let at = expr.span().lo;
            let write = Box::new(expr.take());
            let seq = Expr::Seq(SeqExpr { span: DUMMY_SP, exprs: vec![mark(SHARED_WRITE, 0, at), write] });
            *expr = Expr::Paren(ParenExpr { span: DUMMY_SP, expr: Box::new(seq) });
        }
    }
}
