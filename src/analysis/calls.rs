//! The functions of a file each function calls by its plain name, read from the syntax tree.
//!
//! A module's exported function often delegates the work to functions the module keeps to itself
//! (`module.exports = function (val) { ... parse(val) }`, `const compile = (s) => ...`, helpers declared
//! inside the module's IIFE). Suites only reach those through the exported ones, so what a function
//! calls by name says which code its tests must cover (see `session/helpers.rs`). A name is resolved as
//! the language does, to the innermost scope declaring it (function declarations hoisted, a `const`,
//! `let` or `var` bound to a function or arrow counting as a named function); a parameter or another
//! local of the same name hides the outer function. Block scopes are read as their function's, which
//! only matters where one name is declared twice in one function. Calls count directly, through
//! `.call`/`.apply`, and where the function is passed as an argument (`items.map(normalize)`): a
//! callback runs during the call that receives it.

use std::collections::{BTreeSet, HashMap};

use swc_common::{Span, Spanned};
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, CallExpr, Callee, ClassDecl, Constructor, Expr, ExprOrSpread, FnDecl, Function,
    ImportDecl, MemberProp, Module, ParamOrTsParamProp, Pat, Script, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

/// One function of a file and the functions of the file it calls by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NamedCalls {
    /// Byte offset of the function's start in the file.
    pub start: u32,
    /// Byte offset of its end.
    pub end: u32,
    /// The byte ranges (start, end) of the functions it calls, not counting those its nested functions call.
    pub calls: BTreeSet<(u32, u32)>,
}

/// Every function of `program` with the functions it calls by name; `base` is the file's start position,
/// to turn spans into offsets.
pub(crate) fn named_calls(program: &swc_ecma_ast::Program, base: u32) -> Vec<NamedCalls> {
    let mut collector = Collector { base, scopes: Vec::new(), open: Vec::new(), done: Vec::new() };
    program.visit_with(&mut collector);
    collector.done
}

/// The functions called by name by the code within `start..end` that is not within one of `holes`
/// (ranges of nested functions left out), nested functions included.
pub(crate) fn calls_within(all: &[NamedCalls], start: u32, end: u32, holes: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
    let inside = |f: &NamedCalls, (s, e): (u32, u32)| f.start >= s && f.end <= e;
    all.iter()
        .filter(|f| inside(f, (start, end)) && !holes.iter().any(|h| inside(f, *h)))
        .flat_map(|f| f.calls.iter().copied())
        .collect()
}

/// What a name of a scope is bound to: a function (its byte range) or something else.
type Scope = HashMap<String, Option<(u32, u32)>>;

struct Collector {
    base: u32,
    scopes: Vec<Scope>,
    open: Vec<NamedCalls>,
    done: Vec<NamedCalls>,
}

impl Collector {
    fn range(&self, span: Span) -> (u32, u32) {
        (span.lo.0.saturating_sub(self.base), span.hi.0.saturating_sub(self.base))
    }

    /// Visits a function's parameters and body in a scope of their own.
    fn function<N: VisitWith<Self> + Spanned + ?Sized>(&mut self, node: &N, scope: Scope) {
        let (start, end) = self.range(node.span());
        self.open.push(NamedCalls { start, end, calls: BTreeSet::new() });
        self.scopes.push(scope);
        node.visit_children_with(self);
        self.scopes.pop();
        let finished = self.open.pop().expect("pushed above");
        self.done.push(finished);
    }

    /// The function a plain name means here, if it means one.
    fn resolve(&self, name: &str) -> Option<(u32, u32)> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name)).copied().flatten()
    }

    fn calls(&mut self, name: &str) {
        if let Some(target) = self.resolve(name)
            && let Some(current) = self.open.last_mut()
        {
            current.calls.insert(target);
        }
    }

    /// The names a scope declares: its parameters' and those its statements declare, hoisted.
    fn declared<N: VisitWith<Declarations> + ?Sized>(&self, params: &[&Pat], body: Option<&N>) -> Scope {
        let mut declarations = Declarations { base: self.base, scope: Scope::new() };
        for param in params {
            bind_pattern(param, &mut declarations.scope);
        }
        if let Some(body) = body {
            body.visit_children_with(&mut declarations);
        }
        declarations.scope
    }
}

impl Visit for Collector {
    fn visit_module(&mut self, node: &Module) {
        let scope = self.declared(&[], Some(node));
        self.scopes.push(scope);
        node.visit_children_with(self);
        self.scopes.pop();
    }

    fn visit_script(&mut self, node: &Script) {
        let scope = self.declared(&[], Some(node));
        self.scopes.push(scope);
        node.visit_children_with(self);
        self.scopes.pop();
    }

    fn visit_function(&mut self, node: &Function) {
        let params: Vec<&Pat> = node.params.iter().map(|p| &p.pat).collect();
        let scope = self.declared(&params, node.body.as_ref());
        self.function(node, scope);
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        let params: Vec<&Pat> = node.params.iter().collect();
        let scope = match &*node.body {
            ArrowFunctionBody::FunctionBody(block) => self.declared(&params, Some(block)),
            ArrowFunctionBody::Expr(_) => self.declared::<Function>(&params, None),
        };
        self.function(node, scope);
    }

    fn visit_constructor(&mut self, node: &Constructor) {
        let params: Vec<&Pat> = node
            .params
            .iter()
            .filter_map(|p| match p {
                ParamOrTsParamProp::Param(p) => Some(&p.pat),
                ParamOrTsParamProp::TsParamProp(_) => None,
            })
            .collect();
        let scope = self.declared(&params, node.body.as_ref());
        self.function(node, scope);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        if let Callee::Expr(callee) = &node.callee {
            match &**callee {
                Expr::Ident(name) => self.calls(&name.sym),
                // `parse.call(this, text)`, `parse.apply(null, args)`.
                Expr::Member(member) => {
                    if let (Expr::Ident(name), MemberProp::Ident(how)) = (&*member.obj, &member.prop)
                        && (how.sym == "call" || how.sym == "apply")
                    {
                        self.calls(&name.sym);
                    }
                }
                _ => {}
            }
        }
        for ExprOrSpread { expr, .. } in &node.args {
            if let Expr::Ident(name) = &**expr {
                self.calls(&name.sym);
            }
        }
        node.visit_children_with(self);
    }
}

/// The names a scope declares, without entering nested functions (their names are theirs).
struct Declarations {
    base: u32,
    scope: Scope,
}

impl Declarations {
    fn range(&self, span: Span) -> (u32, u32) {
        (span.lo.0.saturating_sub(self.base), span.hi.0.saturating_sub(self.base))
    }
}

impl Visit for Declarations {
    fn visit_fn_decl(&mut self, node: &FnDecl) {
        let range = self.range(node.function.span);
        self.scope.insert(node.ident.sym.to_string(), Some(range));
    }

    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        let function = node.init.as_deref().and_then(|init| match init.unwrap_parens() {
            Expr::Fn(f) => Some(f.function.span),
            Expr::Arrow(a) => Some(a.span),
            _ => None,
        });
        match (&node.name, function) {
            (Pat::Ident(id), Some(span)) => {
                let range = self.range(span);
                self.scope.insert(id.id.sym.to_string(), Some(range));
            }
            (pattern, _) => bind_pattern(pattern, &mut self.scope),
        }
    }

    fn visit_class_decl(&mut self, node: &ClassDecl) {
        self.scope.insert(node.ident.sym.to_string(), None);
    }

    fn visit_import_decl(&mut self, node: &ImportDecl) {
        for specifier in &node.specifiers {
            let local = match specifier {
                swc_ecma_ast::ImportSpecifier::Named(s) => &s.local,
                swc_ecma_ast::ImportSpecifier::Default(s) => &s.local,
                swc_ecma_ast::ImportSpecifier::Namespace(s) => &s.local,
            };
            self.scope.insert(local.sym.to_string(), None);
        }
    }

    // Expressions declare nothing of this scope: the functions and classes in them have scopes of their own.
    fn visit_expr(&mut self, _: &Expr) {}

    fn visit_function(&mut self, _: &Function) {}

    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}
}

/// Binds every name of a parameter or destructuring pattern as no function, unless already bound.
fn bind_pattern(pattern: &Pat, scope: &mut Scope) {
    let mut names = Vec::new();
    collect_names(pattern, &mut names);
    for name in names {
        scope.entry(name).or_insert(None);
    }
}

fn collect_names(pattern: &Pat, names: &mut Vec<String>) {
    match pattern {
        Pat::Ident(id) => names.push(id.id.sym.to_string()),
        Pat::Array(array) => array.elems.iter().flatten().for_each(|p| collect_names(p, names)),
        Pat::Rest(rest) => collect_names(&rest.arg, names),
        Pat::Object(object) => {
            for prop in &object.props {
                match prop {
                    swc_ecma_ast::ObjectPatProp::KeyValue(kv) => collect_names(&kv.value, names),
                    swc_ecma_ast::ObjectPatProp::Assign(a) => names.push(a.key.id.sym.to_string()),
                    swc_ecma_ast::ObjectPatProp::Rest(rest) => collect_names(&rest.arg, names),
                }
            }
        }
        Pat::Assign(assign) => collect_names(&assign.left, names),
        Pat::Invalid(_) | Pat::Expr(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    fn range_of(code: &str, from: &str, to: &str) -> (u32, u32) {
        let start = code.find(from).unwrap();
        (start as u32, (start + code[start..].find(to).unwrap() + to.len()) as u32)
    }

    #[test]
    fn resolves_plain_calls_to_the_functions_of_the_file() {
        let code = "module.exports = function (val, options) { if (typeof val === 'string') return parse(val);\n\
                    return [val].map(fmt).concat(compile.call(null, val), shadowed(val)); };\n\
                    function parse(str) { return Number(str); }\n\
                    const compile = (s) => s + '';\n\
                    var fmt = function (n) { return n; };\n\
                    function shadowed(x) { return x; }\n\
                    function other(shadowed) { return shadowed(1) + parse(2); }";
        let parsed = parse_source(Path::new("/nonexistent/m.js"), "m.js", code.into()).unwrap();
        let all = named_calls(&parsed.program, parsed.source.start_pos.0);
        let exported = range_of(code, "function (val", "};");
        let parse = range_of(code, "function parse", "}");
        let compile = range_of(code, "(s) =>", "''");
        let fmt = range_of(code, "function (n)", "}");
        let shadowed = range_of(code, "function shadowed", "}");
        let calls = calls_within(&all, exported.0, exported.1, &[]);
        assert_eq!(calls, BTreeSet::from([parse, compile, fmt, shadowed]));
        let other = range_of(code, "function other", "}");
        // Its parameter hides the function of the same name.
        assert_eq!(calls_within(&all, other.0, other.1, &[]), BTreeSet::from([parse]));
    }

    #[test]
    fn finds_the_helpers_of_an_iife_and_leaves_out_holes() {
        let code = "(function () { function step(x) { return x + 1; }\n\
                    function make() { function feed(c) { return step(c); } return { feed }; }\n\
                    window.make = make; })();";
        let parsed = parse_source(Path::new("/nonexistent/i.js"), "i.js", code.into()).unwrap();
        let all = named_calls(&parsed.program, parsed.source.start_pos.0);
        let step = range_of(code, "function step", "; }");
        let make = range_of(code, "function make", "feed }; }");
        let feed = range_of(code, "function feed", "; }");
        assert_eq!(calls_within(&all, make.0, make.1, &[]), BTreeSet::from([step]));
        assert_eq!(calls_within(&all, make.0, make.1, &[feed]), BTreeSet::new());
        assert_eq!(calls_within(&all, feed.0, feed.1, &[]), BTreeSet::from([step]));
    }
}
