//! How many arguments a function takes, read from the syntax tree: which trailing parameters it can do
//! without, and whether it takes more than it declares.
//!
//! Real code tells a call with fewer or more arguments apart from a full one: `emit` switches on
//! `arguments.length`, `push()` loops over `arguments`, a default value (`limit = 10`), a check like
//! `x === undefined` or a test of its truth (`if (data)`, `data && ...`, `!data`) stands for an omitted
//! argument. Calls with exactly one argument per parameter never
//! take those paths, so generation changes the count now and then where the function shows it matters.

use std::collections::BTreeSet;

use swc_common::Spanned;
use swc_ecma_ast::{
    ArrowExpr, BinExpr, BinaryOp, CondExpr, Constructor, Expr, Function, Ident, IfStmt, Lit, Pat, UnaryExpr, UnaryOp,
};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::constructor_params;

/// One function's arity, as far as calls with another number of arguments matter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Arity {
    /// Byte offset of the function's start in the file.
    pub start: u32,
    /// Byte offset of its end.
    pub end: u32,
    /// Index of the first parameter that calls may leave out together with every one after it; `None`
    /// when the function needs them all, as far as its text shows.
    pub optional_from: Option<usize>,
    /// Whether it reads `arguments`, so that arguments past its parameters matter too.
    pub variadic: bool,
}

/// Every function (and constructor) of `program` with its arity; `base` is the file's start position,
/// to turn spans into offsets.
pub(crate) fn arities(program: &swc_ecma_ast::Program, base: u32) -> Vec<Arity> {
    let mut collector = Collector { base, open: Vec::new(), done: Vec::new() };
    program.visit_with(&mut collector);
    collector.done
}

/// The arity of the function spanning `start..end` (one that shows nothing when it is not found).
pub(crate) fn arity_of(all: &[Arity], start: u32, end: u32) -> Arity {
    // The function's own entry is the largest one inside its range; others are nested functions.
    all.iter().filter(|f| f.start >= start && f.end <= end).max_by_key(|f| f.end - f.start).cloned().unwrap_or_default()
}

/// A parameter: its name (none when destructured) and whether it has a default value or gathers the
/// rest.
struct Param {
    name: Option<String>,
    optional: bool,
}

/// A function being visited.
struct Open {
    start: u32,
    end: u32,
    params: Vec<Param>,
    /// Arrow functions have no `arguments` of their own: theirs is the enclosing function's.
    arrow: bool,
    reads_arguments: bool,
    /// Names compared with `undefined` (or loosely with `null`, which `undefined` equals), or whose
    /// truth is tested.
    checked: BTreeSet<String>,
}

impl Open {
    fn optional_from(&self) -> Option<usize> {
        if self.reads_arguments {
            return (!self.params.is_empty()).then_some(0);
        }
        let optional =
            |p: &Param| p.optional || p.name.as_ref().is_some_and(|name| self.checked.contains(name.as_str()));
        let required = self.params.iter().rposition(|p| !optional(p)).map_or(0, |last| last + 1);
        (required < self.params.len()).then_some(required)
    }
}

struct Collector {
    base: u32,
    open: Vec<Open>,
    done: Vec<Arity>,
}

impl Collector {
    fn within<'p, N: VisitWith<Self> + Spanned + ?Sized>(
        &mut self,
        node: &N,
        params: impl Iterator<Item = &'p Pat>,
        arrow: bool,
    ) {
        let span = node.span();
        let params = params
            .map(|pat| {
                let (named, optional) = match pat {
                    Pat::Assign(a) => (&*a.left, true),
                    Pat::Rest(r) => (&*r.arg, true),
                    other => (other, false),
                };
                let name = match named {
                    Pat::Ident(b) => Some(b.id.sym.to_string()),
                    _ => None,
                };
                Param { name, optional }
            })
            .collect();
        self.open.push(Open {
            start: span.lo.0.saturating_sub(self.base),
            end: span.hi.0.saturating_sub(self.base),
            params,
            arrow,
            reads_arguments: false,
            checked: BTreeSet::new(),
        });
        node.visit_children_with(self);
        let finished = self.open.pop().expect("pushed above");
        self.done.push(Arity {
            start: finished.start,
            end: finished.end,
            optional_from: finished.optional_from(),
            variadic: finished.reads_arguments,
        });
    }
}

/// Whether `e` is `undefined` or `void 0`.
fn is_undefined(e: &Expr) -> bool {
    match e {
        Expr::Ident(i) => i.sym == *"undefined",
        Expr::Unary(UnaryExpr { op: UnaryOp::Void, arg, .. }) => matches!(&**arg, Expr::Lit(Lit::Num(_))),
        _ => false,
    }
}

impl Visit for Collector {
    fn visit_function(&mut self, node: &Function) {
        self.within(node, node.params.iter().map(|p| &p.pat), false);
    }

    fn visit_constructor(&mut self, node: &Constructor) {
        self.within(node, constructor_params(node), false);
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        self.within(node, node.params.iter(), true);
    }

    fn visit_ident(&mut self, node: &Ident) {
        if node.sym == *"arguments"
            && let Some(function) = self.open.iter_mut().rev().find(|f| !f.arrow)
        {
            function.reads_arguments = true;
        }
    }

    fn visit_bin_expr(&mut self, node: &BinExpr) {
        if matches!(node.op, BinaryOp::EqEqEq | BinaryOp::NotEqEq | BinaryOp::EqEq | BinaryOp::NotEq) {
            let loose = matches!(node.op, BinaryOp::EqEq | BinaryOp::NotEq);
            // `x === undefined`, `x == null` (`undefined == null`), `typeof x === 'undefined'`.
            let checked = |e: &Expr, other: &Expr| match e {
                Expr::Ident(i) if is_undefined(other) || (loose && matches!(other, Expr::Lit(Lit::Null(_)))) => {
                    Some(i.sym.to_string())
                }
                Expr::Unary(UnaryExpr { op: UnaryOp::TypeOf, arg, .. }) if matches!(other, Expr::Lit(Lit::Str(s)) if &*s.value.to_atom_lossy() == "undefined") => {
                    match &**arg {
                        Expr::Ident(i) => Some(i.sym.to_string()),
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some(name) = checked(&node.left, &node.right).or_else(|| checked(&node.right, &node.left)) {
                self.check(name);
            }
        }
        if matches!(node.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) {
            self.truth_tested(&node.left);
        }
        node.visit_children_with(self);
    }

    fn visit_if_stmt(&mut self, node: &IfStmt) {
        self.truth_tested(&node.test);
        node.visit_children_with(self);
    }

    fn visit_cond_expr(&mut self, node: &CondExpr) {
        self.truth_tested(&node.test);
        node.visit_children_with(self);
    }

    fn visit_unary_expr(&mut self, node: &UnaryExpr) {
        if node.op == UnaryOp::Bang {
            self.truth_tested(&node.arg);
        }
        node.visit_children_with(self);
    }
}

impl Collector {
    /// Marks `name` as a parameter the code checks for absence. A check inside a callback still
    /// concerns the enclosing function's parameter.
    fn check(&mut self, name: String) {
        for function in &mut self.open {
            function.checked.insert(name.clone());
        }
    }

    /// A name whose truth is tested (`if (data)`, `data && ...`, `data ? a : b`, `!data`) is checked for
    /// absence: `undefined` is false (kdbush's `constructor(numItems, nodeSize = 64, ArrayType =
    /// Float64Array, data)` reads `data && ...`, and every call that passed an `ArrayType` failed).
    fn truth_tested(&mut self, test: &Expr) {
        match test {
            Expr::Ident(i) => self.check(i.sym.to_string()),
            Expr::Paren(p) => self.truth_tested(&p.expr),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    /// `optional_from` and `variadic` of the function whose text starts with `head`.
    fn arity(code: &str, head: &str) -> (Option<usize>, bool) {
        let parsed = parse_source(Path::new("/nonexistent/o.js"), "o.js", code.into()).unwrap();
        let all = arities(&parsed.program, parsed.source.start_pos.0);
        let start = code.find(head).unwrap() as u32;
        let end = start + code[start as usize..].find("\n}").unwrap() as u32 + 2;
        let found = arity_of(&all, start, end);
        (found.optional_from, found.variadic)
    }

    #[test]
    fn reads_what_a_function_does_with_absent_arguments() {
        let code = "function emit(event, a1, a2) {\n  var n = arguments.length; return n;\n}\n\
                    function push() {\n  for (var i = 0; i < arguments.length; i++) this.add(arguments[i]);\n}\n\
                    function arrowInside(a, b) {\n  return [1].map(() => arguments[0]);\n}\n\
                    function defaults(a, b = 1, c = 2) {\n  return a + b + c;\n}\n\
                    function gap(a = 1, b) {\n  return a + b;\n}\n\
                    function checks(a, b, c) {\n  if (c === undefined) c = 0; if (typeof b === 'undefined') b = 1; \
                    return a + b + c;\n}\n\
                    function loose(a, b) {\n  return [a].map(x => b == null ? x : b);\n}\n\
                    function strictNull(a, b) {\n  return b === null ? a : b;\n}\n\
                    function truth(a, b = 1, c) {\n  if (c && c.length) return a; return b;\n}\n\
                    function negated(a, b) {\n  return !(b) ? a : b;\n}\n\
                    function rest(a, ...more) {\n  return more.length;\n}\n\
                    function plain(a, b) {\n  return a + b + [0].map(function () { return arguments.length; })[0];\n}\n\
                    class Queue {\n  constructor(items = []) { this.items = items; }\n  \
                    take(count) { return count === void 0 ? 1 : count; }\n}\n";
        assert_eq!(arity(code, "function emit"), (Some(0), true));
        assert_eq!(arity(code, "function push"), (None, true));
        assert_eq!(arity(code, "function arrowInside"), (Some(0), true));
        assert_eq!(arity(code, "function defaults"), (Some(1), false));
        // A default before a required parameter only stands for `undefined` passed on purpose.
        assert_eq!(arity(code, "function gap"), (None, false));
        assert_eq!(arity(code, "function checks"), (Some(1), false));
        assert_eq!(arity(code, "function loose"), (Some(1), false));
        assert_eq!(arity(code, "function strictNull"), (None, false));
        assert_eq!(arity(code, "function truth"), (Some(1), false));
        assert_eq!(arity(code, "function negated"), (Some(1), false));
        assert_eq!(arity(code, "function rest"), (Some(1), false));
        // `arguments` of a nested function is that function's own.
        assert_eq!(arity(code, "function plain"), (None, false));
        let parsed = parse_source(Path::new("/nonexistent/o.js"), "o.js", code.into()).unwrap();
        let all = arities(&parsed.program, parsed.source.start_pos.0);
        let (constructor, take) = (code.find("constructor(").unwrap() as u32, code.find("take(").unwrap() as u32);
        assert_eq!(arity_of(&all, constructor, take).optional_from, Some(0));
        assert_eq!(arity_of(&all, take, code.len() as u32).optional_from, Some(0));
    }
}
