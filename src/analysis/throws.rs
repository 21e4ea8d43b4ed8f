//! Where the code builds the values it throws, and the errors it builds.
//!
//! Validation code checks a parameter in ways a proxy cannot see (`typeof value !== 'number'`) and then
//! throws an error whose message mentions the value (`` `expected a number, got ${value}` ``). The
//! coercion in that message says nothing about the parameter's type: inference ignores coercions whose
//! position lies in the argument of a `throw`.

use swc_common::Spanned;
use swc_ecma_ast::{Expr, NewExpr, Program, ThrowStmt};
use swc_ecma_visit::{Visit, VisitWith};

/// Byte ranges (start, end) of the arguments of every `throw` statement in `program`; `base` is the
/// file's start position.
pub(crate) fn throw_argument_ranges(program: &Program, base: u32) -> Vec<(u32, u32)> {
    let mut collector = ThrowCollector { base, ranges: Vec::new() };
    program.visit_with(&mut collector);
    collector.ranges
}

/// Byte ranges (start, end) of where `program` builds errors: the arguments of `throw` statements, and
/// every `new` of a constructor named as errors are (`new Error(..)`, `new ValidationError(..)`,
/// `new errors.ParseException(..)`); `base` is the file's start position. An error made elsewhere is the
/// engine's (`op()` that is not a function, inside `new Ok(op())`), whose message differs between engines.
pub(crate) fn error_building_ranges(program: &Program, base: u32) -> Vec<(u32, u32)> {
    let mut collector = ErrorCollector { throws: ThrowCollector { base, ranges: Vec::new() } };
    program.visit_with(&mut collector);
    collector.throws.ranges
}

struct ErrorCollector {
    throws: ThrowCollector,
}

impl Visit for ErrorCollector {
    fn visit_throw_stmt(&mut self, node: &ThrowStmt) {
        self.throws.visit_throw_stmt(node);
    }

    fn visit_new_expr(&mut self, node: &NewExpr) {
        let name = match &*node.callee {
            Expr::Ident(id) => Some(id.sym.as_str()),
            Expr::Member(m) => m.prop.as_ident().map(|p| p.sym.as_str()),
            _ => None,
        };
        if name.is_some_and(|n| n.ends_with("Error") || n.ends_with("Exception")) {
            let span = node.span();
            let base = self.throws.base;
            self.throws.ranges.push((span.lo.0.saturating_sub(base), span.hi.0.saturating_sub(base)));
        }
        node.visit_children_with(self);
    }
}

struct ThrowCollector {
    base: u32,
    ranges: Vec<(u32, u32)>,
}

impl Visit for ThrowCollector {
    fn visit_throw_stmt(&mut self, node: &ThrowStmt) {
        let span = node.arg.span();
        self.ranges.push((span.lo.0.saturating_sub(self.base), span.hi.0.saturating_sub(self.base)));
        node.visit_children_with(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    #[test]
    fn finds_thrown_expressions() {
        let code = "function f(v) { if (typeof v !== 'number') throw new TypeError(`got ${v}`); return v * 2; }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let ranges = throw_argument_ranges(&parsed.program, parsed.source.start_pos.0);
        assert_eq!(ranges.len(), 1);
        let (start, end) = ranges[0];
        assert_eq!(&code[start as usize..end as usize], "new TypeError(`got ${v}`)");
    }

    #[test]
    fn finds_errors_built_and_thrown_but_not_other_constructions() {
        let code = "function f(op) { try { return new Ok(op()); } catch (e) { return new Err(new errors.BadError(e)); } }\n\
                    function g() { return new Error('no'); }\nfunction h(v) { throw v; }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let ranges = error_building_ranges(&parsed.program, parsed.source.start_pos.0);
        let texts: Vec<&str> = ranges.iter().map(|(s, e)| &code[*s as usize..*e as usize]).collect();
        assert_eq!(texts, ["new errors.BadError(e)", "new Error('no')", "v"]);
    }
}
