//! Where the code builds the values it throws, and the errors it builds.
//!
//! Validation code checks a parameter in ways a proxy cannot see (`typeof value !== 'number'`) and then
//! throws an error whose message mentions the value (`` `expected a number, got ${value}` ``). The
//! coercion in that message says nothing about the parameter's type: inference ignores coercions whose
//! position lies in the argument of a `throw`.

use swc_common::{BytePos, Span, Spanned};
use swc_ecma_ast::{
    ArrowExpr, BinExpr, BinaryOp, CallExpr, Callee, Class, Expr, Function, NewExpr, Program, ThrowStmt,
};
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
        if constructor_name(node).is_some_and(names_an_error) {
            let span = node.span();
            let base = self.throws.base;
            self.throws.ranges.push((span.lo.0.saturating_sub(base), span.hi.0.saturating_sub(base)));
        }
        node.visit_children_with(self);
    }
}

/// The name `node` calls (`RangeError` of `RangeError('bad')`), if it names one.
fn called_name(node: &CallExpr) -> Option<&str> {
    match &node.callee {
        Callee::Expr(callee) => match &**callee {
            Expr::Ident(id) => Some(id.sym.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// The name `node` constructs (`Error`, `ParseException` of `errors.ParseException`), if it names one.
fn constructor_name(node: &NewExpr) -> Option<&str> {
    match &*node.callee {
        Expr::Ident(id) => Some(id.sym.as_str()),
        Expr::Member(m) => m.prop.as_ident().map(|p| p.sym.as_str()),
        _ => None,
    }
}

/// Whether a constructor is named as errors are.
fn names_an_error(name: &str) -> bool {
    name.ends_with("Error") || name.ends_with("Exception")
}

/// The language's own error constructors: a `new` of one makes the error in the caller's frame, where a
/// class of the code (`class ParseError extends Error`) makes it in its own constructor.
const LANGUAGE_ERRORS: [&str; 8] =
    ["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError"];

/// A `new` that builds an error (one thrown, or one named as errors are), in which an error the engine
/// makes while evaluating the arguments (`` new ParseError(`bad ${type.toString(16)}`) `` with `type`
/// undefined) takes the place of the one built, though the code never built it: its message is the engine's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ErrorConstruction {
    /// Byte range (start, end) of the whole `new` expression.
    range: (u32, u32),
    /// The constructor, when it is one of [`LANGUAGE_ERRORS`].
    language: Option<&'static str>,
    /// Where QuickJS places the error the `new` builds: the last place in the expression at which its
    /// bytecode records a position (see [`Reported`]), the callee's start when the arguments record none.
    reported: u32,
}

/// Every [`ErrorConstruction`] of `program`; `base` is the file's start position.
pub(crate) fn error_constructions(program: &Program, base: u32) -> Vec<ErrorConstruction> {
    let mut collector = ConstructionCollector { base, found: Vec::new() };
    program.visit_with(&mut collector);
    collector.found
}

/// Whether an error (named `name`, when known) whose stack's first frame in the code is at `offset` was
/// made by the engine while the code built an error: its origin lies in a `new` that builds one (the
/// innermost), and either the constructor is the code's own, which makes its error in its own frame, or
/// it is the language's and the error is not the one it builds: placed before where QuickJS places that
/// one, or named otherwise (`new Error(t.x)` throwing a `TypeError`).
pub(crate) fn made_while_building(constructions: &[ErrorConstruction], offset: u32, name: Option<&str>) -> bool {
    let innermost =
        constructions.iter().filter(|c| (c.range.0..c.range.1).contains(&offset)).min_by_key(|c| c.range.1 - c.range.0);
    innermost.is_some_and(|c| match c.language {
        None => true,
        Some(language) => offset < c.reported || name.is_some_and(|n| n != language),
    })
}

struct ConstructionCollector {
    base: u32,
    found: Vec<ErrorConstruction>,
}

impl ConstructionCollector {
    fn push(&mut self, node: &NewExpr) {
        let mut reported = Reported { last: node.callee.span().lo };
        node.args.visit_with(&mut reported);
        let language = constructor_name(node).and_then(language_error);
        self.push_range(node.span(), language, reported.last);
    }

    fn push_range(&mut self, span: Span, language: Option<&'static str>, reported: BytePos) {
        let offset = |pos: BytePos| pos.0.saturating_sub(self.base);
        let range = (offset(span.lo), offset(span.hi));
        self.found.push(ErrorConstruction { range, language, reported: offset(reported) });
    }
}

/// The language's error constructor `name` names, if it names one.
fn language_error(name: &str) -> Option<&'static str> {
    LANGUAGE_ERRORS.into_iter().find(|e| *e == name)
}

impl Visit for ConstructionCollector {
    fn visit_throw_stmt(&mut self, node: &ThrowStmt) {
        match &*node.arg {
            Expr::New(new) if !constructor_name(new).is_some_and(names_an_error) => self.push(new),
            Expr::New(_) => {}
            arg => match arg.as_call().and_then(|call| Some((call, called_name(call).and_then(language_error)?))) {
                // `throw RangeError('bad')`: the language's constructors build an error when called, too.
                Some((call, language)) => {
                    let mut reported = Reported { last: call.callee.span().lo };
                    call.visit_with(&mut reported);
                    self.push_range(call.span(), Some(language), reported.last);
                }
                // Anything else builds no error where it is written (`throw writer.err(e)`, `throw
                // errors[code]`): the error it throws is made in frames of its own, and one made in it
                // (`writer` is null) is the engine's.
                None => self.push_range(arg.span(), None, arg.span().lo),
            },
        }
        node.visit_children_with(self);
    }

    fn visit_new_expr(&mut self, node: &NewExpr) {
        if constructor_name(node).is_some_and(names_an_error) {
            self.push(node);
        }
        node.visit_children_with(self);
    }
}

/// The last byte position at which QuickJS's bytecode for an expression records a source position (as
/// QuickJS's parser emits them: at a variable read, at the right operand of a binary operator, at the first
/// argument of a call), where an instruction after it reports what it throws. Functions inside record
/// their own.
struct Reported {
    last: BytePos,
}

impl Reported {
    fn at(&mut self, pos: BytePos) {
        self.last = self.last.max(pos);
    }
}

impl Visit for Reported {
    fn visit_expr(&mut self, node: &Expr) {
        if let Expr::Ident(id) = node {
            self.at(id.span.lo);
        }
        node.visit_children_with(self);
    }

    fn visit_bin_expr(&mut self, node: &BinExpr) {
        node.left.visit_with(self);
        if !matches!(node.op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr | BinaryOp::NullishCoalescing | BinaryOp::Exp)
        {
            self.at(node.right.span().lo);
        }
        node.right.visit_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        node.callee.visit_with(self);
        // The token after `(`: the first argument, or `)`.
        self.at(node.args.first().map_or(BytePos(node.span.hi.0.saturating_sub(1)), |first| first.span().lo));
        node.args.visit_with(self);
    }

    fn visit_new_expr(&mut self, node: &NewExpr) {
        self.at(node.callee.span().lo);
        node.visit_children_with(self);
    }

    fn visit_function(&mut self, _: &Function) {}

    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}

    fn visit_class(&mut self, _: &Class) {}
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

    #[test]
    fn an_error_made_while_the_code_builds_one_is_the_engines() {
        let code = "function f(t, o) { throw new ParseError(`bad ${t.toString(16)} at ${o}`); }\n\
                    function g(t, o) { throw new TypeError(`bad ${t.x} at ${o}`); }\n\
                    function h(n) { throw new RangeError('bad ' + n); }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let built = error_constructions(&parsed.program, parsed.source.start_pos.0);
        let at = |text: &str| code.rfind(text).unwrap() as u32;
        // The code's own class makes its error in its own constructor: one made in the `new` is the engine's.
        assert!(made_while_building(&built, at("t.toString"), Some("TypeError")));
        assert!(made_while_building(&built, at("o}`); }\nfunction g"), Some("ParseError")));
        // The language's makes it where the arguments last record a position (`o`, `n`), under its name.
        assert!(made_while_building(&built, at("t.x"), Some("TypeError")));
        assert!(!made_while_building(&built, at("o}`); }\nfunction h"), Some("TypeError")));
        assert!(!made_while_building(&built, at("n);"), Some("RangeError")));
        assert!(made_while_building(&built, at("n);"), Some("TypeError")));
        assert!(!made_while_building(&built, at("h(n)"), None));
    }

    #[test]
    fn an_error_made_in_a_throw_that_builds_none_is_the_engines() {
        let code = "function f(w, e) { throw w.err(e); }\nfunction g(n) { throw RangeError('bad ' + n.x); }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let built = error_constructions(&parsed.program, parsed.source.start_pos.0);
        let at = |text: &str| code.rfind(text).unwrap() as u32;
        // `w` null: the engine's TypeError, at `w.err`.
        assert!(made_while_building(&built, at("w.err"), Some("TypeError")));
        // Called without `new`, a language constructor builds its error where its arguments end.
        assert!(!made_while_building(&built, at("n.x"), Some("RangeError")));
        assert!(made_while_building(&built, at("n.x"), Some("TypeError")));
    }
}
