//! Whether a file raises numbers to powers with the `**` operator. Engines round `x ** y` differently (V8
//! and QuickJS may disagree in its last bit, as for `Math.pow`); the sandbox sees every call of a `Math`
//! function (`js/inexact.js`) but no operator, so a program that has `**` anywhere has the numbers of
//! every test asserted within a tolerance.

use swc_ecma_ast::{AssignExpr, AssignOp, BinExpr, BinaryOp, Program};
use swc_ecma_visit::{Visit, VisitWith};

/// Whether `program` has a `**` or `**=` operator.
pub(crate) fn uses_power_operator(program: &Program) -> bool {
    let mut finder = PowerFinder::default();
    program.visit_with(&mut finder);
    finder.found
}

#[derive(Default)]
struct PowerFinder {
    found: bool,
}

impl Visit for PowerFinder {
    fn visit_bin_expr(&mut self, node: &BinExpr) {
        self.found |= node.op == BinaryOp::Exp;
        node.visit_children_with(self);
    }

    fn visit_assign_expr(&mut self, node: &AssignExpr) {
        self.found |= node.op == AssignOp::ExpAssign;
        node.visit_children_with(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;

    fn has_power(text: &str) -> bool {
        uses_power_operator(
            &parse_source(std::path::Path::new("/nonexistent/a.js"), "a.js", text.into()).unwrap().program,
        )
    }

    #[test]
    fn finds_the_operator_and_its_assignment() {
        assert!(has_power("function f(x) { return x ** 0.5; }"));
        assert!(has_power("let y = 2; y **= 3;"));
        assert!(!has_power("function f(x) { return Math.pow(x, 2) * x; } // x ** 2"));
    }
}
