//! The functions of a file each function calls, by their plain name or as members of the file's own
//! objects, read from the syntax tree.
//!
//! A module's exported function often delegates the work to functions the module keeps to itself
//! (`module.exports = function (val) { ... parse(val) }`, `const compile = (s) => ...`, helpers declared
//! inside the module's IIFE). Suites only reach those through the exported ones, so what a function
//! calls says which code its tests must cover (see `session/helpers.rs`). A name is resolved as the
//! language does, to the innermost scope declaring it (function declarations hoisted, a `const`, `let` or
//! `var` bound to a function or arrow counting as a named function); a parameter or another local of the
//! same name hides the outer function. Block scopes are read as their function's, which only matters
//! where one name is declared twice in one function. Calls count directly, through `.call`/`.apply`, and
//! where the function is passed as an argument (`items.map(normalize)`): a callback runs during the call
//! that receives it.
//!
//! Modules keep functions on objects too, and call them there: an object literal's members
//! (`var LZString = { compress: function (s) { return LZString._compress(s, 16) }, _compress: ... }`),
//! the module's exports (`exports.helper = function`, `module.exports = { ... }`, called as
//! `exports.helper()` or `module.exports.helper()`), a function's or class's own members
//! (`Base.prototype.init = function`, called as `Base.prototype.init.call(this)`; a class's methods and
//! static methods). A call through such a member (`X.y()`, `X.prototype.y.call(...)`, `X['y']()`) is
//! resolved to the function the member is bound to when the file binds it once, to a function, and the
//! object's name is bound to an object the file builds (an object literal, a function, a class, the
//! exports) and is never assigned again: what a member holds is then known without running the code.

use std::collections::{BTreeSet, HashMap};

use swc_common::{Span, Spanned};
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, AssignExpr, AssignOp, AssignTarget, CallExpr, Callee, Class, ClassDecl, ClassMember,
    Constructor, Expr, ExprOrSpread, FnDecl, Function, ImportDecl, MemberExpr, MemberProp, Module, ObjectLit, Pat,
    Prop, PropOrSpread, Script, SimpleAssignTarget, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::{constructor_params, member_name, prop_name};

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
    // The first binding is the module's exports (`exports`, `module.exports`).
    let exports = Bound { function: None, members: Some(HashMap::new()) };
    let mut collector =
        Collector { base, bindings: vec![exports], scopes: Vec::new(), open: Vec::new(), done: Vec::new() };
    program.visit_with(&mut collector);
    collector.finish()
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

/// What a declared name is bound to.
#[derive(Debug, Default)]
struct Bound {
    /// The function (its byte range), if it is bound to one.
    function: Option<(u32, u32)>,
    /// The functions its members are bound to, by path (`compress`, `prototype.init`); a member the file
    /// binds twice, or to something else, maps to `None`. `None` as a whole where the members cannot be
    /// known: a parameter, a value the file does not build where it declares it, a name assigned again.
    members: Option<HashMap<String, Option<(u32, u32)>>>,
}

/// The bindings a scope declares, by name: places in [`Collector::bindings`].
type Scope = HashMap<String, usize>;

/// A function being visited: its calls by name, and those through members (binding, path), which are
/// resolved once the whole file has bound its members.
struct Open {
    calls: NamedCalls,
    members: Vec<(usize, String)>,
}

struct Collector {
    base: u32,
    bindings: Vec<Bound>,
    scopes: Vec<Scope>,
    open: Vec<Open>,
    done: Vec<Open>,
}

impl Collector {
    fn range(&self, span: Span) -> (u32, u32) {
        (span.lo.0.saturating_sub(self.base), span.hi.0.saturating_sub(self.base))
    }

    /// Visits a function's parameters and body in a scope of their own.
    fn function<N: VisitWith<Self> + Spanned + ?Sized>(&mut self, node: &N, declared: HashMap<String, Bound>) {
        let (start, end) = self.range(node.span());
        self.open.push(Open { calls: NamedCalls { start, end, calls: BTreeSet::new() }, members: Vec::new() });
        self.enter(declared);
        node.visit_children_with(self);
        self.scopes.pop();
        let finished = self.open.pop().expect("pushed above");
        self.done.push(finished);
    }

    /// Opens a scope declaring `declared`.
    fn enter(&mut self, declared: HashMap<String, Bound>) {
        let mut scope = Scope::new();
        for (name, bound) in declared {
            scope.insert(name, self.bindings.len());
            self.bindings.push(bound);
        }
        self.scopes.push(scope);
    }

    /// The binding a plain name means here.
    fn binding(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name)).copied()
    }

    /// The function a plain name means here, if it means one.
    fn resolve(&self, name: &str) -> Option<(u32, u32)> {
        self.binding(name).and_then(|b| self.bindings[b].function)
    }

    fn calls(&mut self, name: &str) {
        if let Some(target) = self.resolve(name)
            && let Some(current) = self.open.last_mut()
        {
            current.calls.calls.insert(target);
        }
    }

    /// The binding a member expression starts from and the path of names after it (`X.prototype.y`:
    /// X's, `prototype.y`), the module's exports standing for a free `exports` or `module.exports`.
    fn member(&self, member: &MemberExpr) -> Option<(usize, String)> {
        let mut path = vec![member_name(&member.prop)?];
        let mut object = member.obj.unwrap_parens();
        while let Expr::Member(inner) = object {
            path.push(member_name(&inner.prop)?);
            object = inner.obj.unwrap_parens();
        }
        let Expr::Ident(root) = object else { return None };
        path.reverse();
        let binding = self.binding(&root.sym);
        match (binding, &*root.sym, path.first().map(String::as_str)) {
            (Some(b), _, _) => Some((b, path.join("."))),
            (None, "exports", _) => Some((0, path.join("."))),
            (None, "module", Some("exports")) => Some((0, path[1..].join("."))),
            _ => None,
        }
    }

    fn calls_member(&mut self, member: &MemberExpr) {
        if let Some(reference) = self.member(member)
            && let Some(current) = self.open.last_mut()
        {
            current.members.push(reference);
        }
    }

    /// Binds member `path` of `binding` to `function`; a second binding of it makes it unknown.
    fn define(&mut self, binding: usize, path: String, function: Option<(u32, u32)>) {
        if let Some(members) = &mut self.bindings[binding].members {
            members.entry(path).and_modify(|f| *f = None).or_insert(function);
        }
    }

    /// The function a value is, when the syntax says: a function or arrow, or a name bound to one.
    fn function_value(&self, value: &Expr) -> Option<(u32, u32)> {
        match value.unwrap_parens() {
            Expr::Fn(f) => Some(self.range(f.function.span)),
            Expr::Arrow(a) => Some(self.range(a.span)),
            Expr::Ident(name) => self.resolve(&name.sym),
            _ => None,
        }
    }

    /// Binds the members an object literal gives `binding`.
    fn object(&mut self, binding: usize, object: &ObjectLit) {
        for prop in &object.props {
            let (name, function) = match prop {
                // What a spread brings is not known.
                PropOrSpread::Spread(_) => {
                    self.bindings[binding].members = None;
                    return;
                }
                PropOrSpread::Prop(prop) => match &**prop {
                    Prop::Shorthand(name) => (Some(name.sym.to_string()), self.resolve(&name.sym)),
                    Prop::KeyValue(kv) => (prop_name(&kv.key), self.function_value(&kv.value)),
                    Prop::Method(m) => (prop_name(&m.key), Some(self.range(m.key.span().with_hi(m.function.span.hi)))),
                    Prop::Getter(g) => (prop_name(&g.key), None),
                    Prop::Setter(s) => (prop_name(&s.key), None),
                    Prop::Assign(_) => (None, None),
                },
            };
            if let Some(name) = name {
                self.define(binding, name, function);
            }
        }
    }

    /// The names a scope declares: its parameters' and those its statements declare, hoisted.
    fn declared<N: VisitWith<Declarations> + ?Sized>(
        &self,
        params: &[&Pat],
        body: Option<&N>,
    ) -> HashMap<String, Bound> {
        let mut declarations = Declarations { base: self.base, scope: HashMap::new() };
        for param in params {
            bind_pattern(param, &mut declarations.scope);
        }
        if let Some(body) = body {
            body.visit_children_with(&mut declarations);
        }
        declarations.scope
    }

    /// The functions each function calls, its calls through members resolved.
    fn finish(self) -> Vec<NamedCalls> {
        let bindings = self.bindings;
        self.done
            .into_iter()
            .map(|open| {
                let mut named = open.calls;
                for (binding, path) in open.members {
                    if let Some(Some(target)) = bindings[binding].members.as_ref().and_then(|m| m.get(&path)) {
                        named.calls.insert(*target);
                    }
                }
                named
            })
            .collect()
    }
}

impl Visit for Collector {
    fn visit_module(&mut self, node: &Module) {
        let declared = self.declared(&[], Some(node));
        self.enter(declared);
        node.visit_children_with(self);
        self.scopes.pop();
    }

    fn visit_script(&mut self, node: &Script) {
        let declared = self.declared(&[], Some(node));
        self.enter(declared);
        node.visit_children_with(self);
        self.scopes.pop();
    }

    fn visit_function(&mut self, node: &Function) {
        let params: Vec<&Pat> = node.params.iter().map(|p| &p.pat).collect();
        let declared = self.declared(&params, node.body.as_ref());
        self.function(node, declared);
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        let params: Vec<&Pat> = node.params.iter().collect();
        let declared = match &*node.body {
            ArrowFunctionBody::FunctionBody(block) => self.declared(&params, Some(block)),
            ArrowFunctionBody::Expr(_) => self.declared::<Function>(&params, None),
        };
        self.function(node, declared);
    }

    fn visit_constructor(&mut self, node: &Constructor) {
        let params: Vec<&Pat> = constructor_params(node).collect();
        let declared = self.declared(&params, node.body.as_ref());
        self.function(node, declared);
    }

    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        if let (Pat::Ident(id), Some(Expr::Object(object))) =
            (&node.name, node.init.as_deref().map(Expr::unwrap_parens))
            && let Some(binding) = self.binding(&id.id.sym)
        {
            self.object(binding, object);
        }
        node.visit_children_with(self);
    }

    fn visit_assign_expr(&mut self, node: &AssignExpr) {
        let function = if node.op == AssignOp::Assign { self.function_value(&node.right) } else { None };
        match &node.left {
            // A name assigned again may hold anything.
            AssignTarget::Simple(SimpleAssignTarget::Ident(name)) => {
                if let Some(binding) = self.binding(&name.id.sym) {
                    self.bindings[binding].members = None;
                }
            }
            AssignTarget::Simple(SimpleAssignTarget::Member(member)) => match self.member(member) {
                // `module.exports = { ... }`.
                Some((binding, path)) if path.is_empty() => match node.right.unwrap_parens() {
                    Expr::Object(object) if node.op == AssignOp::Assign => self.object(binding, object),
                    _ => self.bindings[binding].members = None,
                },
                Some((binding, path)) => self.define(binding, path, function),
                None => {}
            },
            _ => {}
        }
        node.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        if let Callee::Expr(callee) = &node.callee {
            match &**callee {
                Expr::Ident(name) => self.calls(&name.sym),
                // `parse.call(this, text)`, `api.parse(text)`, `Base.prototype.init.apply(this, args)`.
                Expr::Member(member) => {
                    let through =
                        matches!(&member.prop, MemberProp::Ident(how) if how.sym == "call" || how.sym == "apply");
                    match (&*member.obj, through) {
                        (Expr::Ident(name), true) => self.calls(&name.sym),
                        (Expr::Member(inner), true) => self.calls_member(inner),
                        _ => self.calls_member(member),
                    }
                }
                _ => {}
            }
        }
        for ExprOrSpread { expr, .. } in &node.args {
            match &**expr {
                Expr::Ident(name) => self.calls(&name.sym),
                Expr::Member(member) => self.calls_member(member),
                _ => {}
            }
        }
        node.visit_children_with(self);
    }
}

/// The names a scope declares, without entering nested functions (their names are theirs).
struct Declarations {
    base: u32,
    scope: HashMap<String, Bound>,
}

impl Declarations {
    fn range(&self, span: Span) -> (u32, u32) {
        (span.lo.0.saturating_sub(self.base), span.hi.0.saturating_sub(self.base))
    }

    /// Declares `name`; declared twice, its members are not known (which declaration runs last is).
    fn declare(
        &mut self,
        name: String,
        function: Option<(u32, u32)>,
        members: Option<HashMap<String, Option<(u32, u32)>>>,
    ) {
        let members = if self.scope.contains_key(&name) { None } else { members };
        self.scope.insert(name, Bound { function, members });
    }

    /// A class's methods, by path: static ones by name, the others under `prototype`.
    fn class_members(&self, class: &Class) -> HashMap<String, Option<(u32, u32)>> {
        let mut members = HashMap::new();
        for member in &class.body {
            let ClassMember::Method(m) = member else { continue };
            let Some(name) = prop_name(&m.key) else { continue };
            let path = if m.is_static { name } else { format!("prototype.{name}") };
            let function = (m.kind == swc_ecma_ast::MethodKind::Method).then(|| self.range(m.span));
            members.entry(path).and_modify(|f| *f = None).or_insert(function);
        }
        members
    }
}

impl Visit for Declarations {
    fn visit_fn_decl(&mut self, node: &FnDecl) {
        let range = self.range(node.function.span);
        self.declare(node.ident.sym.to_string(), Some(range), Some(HashMap::new()));
    }

    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        let (function, members) = match node.init.as_deref().map(Expr::unwrap_parens) {
            Some(Expr::Fn(f)) => (Some(f.function.span), Some(HashMap::new())),
            Some(Expr::Arrow(a)) => (Some(a.span), Some(HashMap::new())),
            Some(Expr::Class(c)) => (None, Some(self.class_members(&c.class))),
            // Its members are bound where the collector visits the literal.
            Some(Expr::Object(_)) => (None, Some(HashMap::new())),
            _ => (None, None),
        };
        match (&node.name, function, members) {
            (Pat::Ident(id), function, Some(members)) => {
                let range = function.map(|span| self.range(span));
                self.declare(id.id.sym.to_string(), range, Some(members));
            }
            (pattern, _, _) => bind_pattern(pattern, &mut self.scope),
        }
    }

    fn visit_class_decl(&mut self, node: &ClassDecl) {
        let members = self.class_members(&node.class);
        self.declare(node.ident.sym.to_string(), None, Some(members));
    }

    fn visit_import_decl(&mut self, node: &ImportDecl) {
        for specifier in &node.specifiers {
            let local = match specifier {
                swc_ecma_ast::ImportSpecifier::Named(s) => &s.local,
                swc_ecma_ast::ImportSpecifier::Default(s) => &s.local,
                swc_ecma_ast::ImportSpecifier::Namespace(s) => &s.local,
            };
            self.scope.insert(local.sym.to_string(), Bound::default());
        }
    }

    // Expressions declare nothing of this scope: the functions and classes in them have scopes of their own.
    fn visit_expr(&mut self, _: &Expr) {}

    fn visit_function(&mut self, _: &Function) {}

    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}
}

/// Binds every name of a parameter or destructuring pattern as no function, unless already bound.
fn bind_pattern(pattern: &Pat, scope: &mut HashMap<String, Bound>) {
    let mut names = Vec::new();
    collect_names(pattern, &mut names);
    for name in names {
        scope.entry(name).or_default();
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

    #[test]
    fn resolves_calls_through_the_members_of_the_files_own_objects() {
        let code = "var Codec = (function () { var api = {\n\
                      pack: function (s) { return api._pack(s, 16) + Codec.nope(); },\n\
                      _pack: function (s, bits) { return s; },\n\
                      unpack(s) { return api['_unpack'].call(null, s); },\n\
                      _unpack: (s) => s,\n\
                    }; return api; })();\n\
                    exports.trim = function (s) { return exports._strip(s) + module.exports._strip(s); };\n\
                    exports._strip = function (s) { return s; };\n\
                    function Base() {}\n\
                    Base.prototype.init = function () { return 1; };\n\
                    function Child() { Base.prototype.init.call(this); }\n\
                    var twice = { a: function () { return twice.b() + loose.b() + spread.c(); }, b: function () {} };\n\
                    twice.b = function () {};\n\
                    var loose = { b: function () {} }; loose = {};\n\
                    var spread = { ...loose, c: function () {} };\n\
                    function param(o) { o.b = function () {}; return o.b(); }";
        let parsed = parse_source(Path::new("/nonexistent/o.js"), "o.js", code.into()).unwrap();
        let all = named_calls(&parsed.program, parsed.source.start_pos.0);
        let pack = range_of(code, "function (s) { return api._pack", "; },");
        let inner_pack = range_of(code, "function (s, bits)", "}");
        assert_eq!(calls_within(&all, pack.0, pack.1 - 1, &[]), BTreeSet::from([inner_pack]));
        let unpack = range_of(code, "unpack(s) {", "; }");
        let arrow = range_of(code, "(s) => s", "=> s");
        assert_eq!(calls_within(&all, unpack.0, unpack.1, &[]), BTreeSet::from([arrow]));
        let trim = range_of(code, "function (s) { return exports._strip", "; }");
        let strip = range_of(code, "function (s) { return s; };", "}");
        assert_eq!(calls_within(&all, trim.0, trim.1, &[]), BTreeSet::from([strip]));
        let child = range_of(code, "function Child", "}");
        let init = range_of(code, "function () { return 1; }", "}");
        assert_eq!(calls_within(&all, child.0, child.1, &[]), BTreeSet::from([init]));
        // A member bound twice, an object assigned again, one with a spread and a parameter's resolve to
        // nothing: what they hold is not known without running the code.
        let ambiguous = range_of(code, "function () { return twice", "; }");
        assert_eq!(calls_within(&all, ambiguous.0, ambiguous.1, &[]), BTreeSet::new());
        let param = range_of(code, "function param", "; }");
        assert_eq!(calls_within(&all, param.0, param.1, &[]), BTreeSet::new());
    }
}
