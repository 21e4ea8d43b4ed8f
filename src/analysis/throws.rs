//! Where the code builds the values it throws.
//!
//! Validation code checks a parameter in ways a proxy cannot see (`typeof value !== 'number'`) and then
//! throws an error whose message mentions the value (`` `expected a number, got ${value}` ``). The
//! coercion in that message says nothing about the parameter's type: inference ignores coercions whose
//! position lies in the argument of a `throw`.

use swc_common::Spanned;
use swc_ecma_ast::{Program, ThrowStmt};
use swc_ecma_visit::{Visit, VisitWith};

/// Byte ranges (start, end) of the arguments of every `throw` statement in `program`; `base` is the
/// file's start position.
pub(crate) fn throw_argument_ranges(program: &Program, base: u32) -> Vec<(u32, u32)> {
    let mut collector = ThrowCollector { base, ranges: Vec::new() };
    program.visit_with(&mut collector);
    collector.ranges
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
}
