//! `typeof` checks on parameters, read from the syntax tree, and equalities with literals.
//!
//! A recording proxy cannot see `typeof fn !== 'function'`: the check answers for the proxy itself
//! ('function'), and validation code then throws before using the parameter. The comparison names the
//! type the code wants, so inference takes it as evidence. Comparisons with `null` (`x === null`,
//! `x != null`) are read too, as the pseudo-type `'null'`: they name no type, but say that passing
//! `null` takes a branch of its own. So are `x instanceof C`, as `'instanceof C'` (`C` as written,
//! `Geo.Point` for a member chain): a proxy's prototype is no class's, so validation like
//! `if (!(other instanceof Matrix)) throw` rejects every proxy before it shows a member; `Array.isArray(x)`
//! is read as `x instanceof Array`, for the same reason. Equalities
//! with a literal (`kind === 'major'`, `switch (kind) { case 'minor': }`) leave no trace on a proxy
//! either, and are read as the pseudo-types `'=string'`, `'=number'` and `'=boolean'` (see [`EQUALS`]),
//! with the literal itself kept: a `switch` over a few names is passed by nothing but those names.
//!
//! The name checked may be a member chain (`typeof options.max !== 'number'`, `opts.charset ===
//! 'utf-8'`): an options object's members are inferred like parameters, and these checks are theirs.
//! Checks a helper of the same file makes on what it is passed are read as the caller's (see
//! [`checks_passed_on`]), and checks on a local declared as a parameter as the parameter's (see
//! [`checks_through_aliases`]).
//!
//! A check made after the name was bound to a value not made from it (`url = cleanUpProtocol(p); if
//! (url === false)`) is about that other value, not about what the caller passed: it is not read (see
//! [`Finder::scopes`]). A name rebound to something made from itself (`kind = kind.toLowerCase()`) or to a
//! literal (a default) keeps its checks: the value is still the one passed, or of the type a caller gives.

use std::collections::BTreeMap;

use swc_common::{Span, Spanned};
use swc_ecma_ast::{
    ArrowExpr, AssignExpr, AssignOp, AssignTarget, BinExpr, BinaryOp, CallExpr, Callee, Expr, Function, Ident, Lit,
    MemberProp, Pat, Program, SimpleAssignTarget, SwitchStmt, UnaryExpr, UnaryOp, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

use super::constants::Constant;
use super::lengths::{self, NamedNumbers, is_length_relation};

/// A `typeof name === 'type'` (or `name === null`, as type `'null'`) comparison: where, on which name,
/// against which type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TypeofCheck {
    /// Byte offset of the comparison in the file.
    pub at: u32,
    /// The variable checked.
    pub name: String,
    /// The type string compared with (`'function'`, `'string'`...).
    pub ty: String,
    /// The literal of an equality (`'minor'` of `kind === 'minor'`), whose type `ty` names after
    /// [`EQUALS`]; `None` for every other check.
    pub literal: Option<Constant>,
    /// Byte offset of the function whose parameter the checked name is, if it is one's: a callback's own
    /// `s` (`list.reduce(function (acc, s) { typeof s === 'object' ... })`) hides the `s` of the function
    /// around it, and a check on it says nothing of what that function was passed (see [`hidden_within`]).
    pub param_of: Option<u32>,
}

/// Every `typeof identifier` compared (`===`, `!==`, `==`, `!=`) with a string literal, and every
/// identifier compared with `null`, in `program`; `base` is the file's start position.
pub(crate) fn typeof_checks(program: &Program, base: u32) -> Vec<TypeofCheck> {
    let named = NamedNumbers::of(program);
    let mut finder = Finder { base, found: Vec::new(), scopes: vec![Scope::default()], named };
    program.visit_with(&mut finder);
    finder.found
}

/// The types compared with `name` between two offsets, most often compared first.
pub(crate) fn types_checked(checks: &[TypeofCheck], name: &str, start: u32, end: u32) -> Vec<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for check in checks.iter().filter(|c| c.name == name && (start..end).contains(&c.at) && !is_length_relation(&c.ty))
    {
        *counts.entry(check.ty.as_str()).or_default() += 1;
    }
    let mut types: Vec<(&str, usize)> = counts.into_iter().collect();
    types.sort_by_key(|t| std::cmp::Reverse(t.1));
    types.into_iter().map(|(t, _)| t.to_string()).collect()
}

/// The literals compared with `name` (see [`TypeofCheck::literal`]), each once, in source order.
pub(crate) fn literals_compared(checks: &[TypeofCheck], name: &str) -> Vec<Constant> {
    let mut literals: Vec<Constant> = Vec::new();
    for literal in
        checks.iter().filter(|c| c.name == name && !is_length_relation(&c.ty)).filter_map(|c| c.literal.as_ref())
    {
        if !literals.contains(literal) {
            literals.push(literal.clone());
        }
    }
    literals
}

/// A call of a function by its bare name (`normalizeOptions(opts)`, `assertNumber(n, 'n')`), with the
/// variable (or member chain) passed as each argument, if the argument is one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NamedCall {
    /// Byte offset of the call in the file.
    pub at: u32,
    /// The name called.
    pub callee: String,
    /// Per argument, the name passed (`opts`, `options.size`), or the values of one under a computed key
    /// (`props[key]` as `props[]`, see [`ANY_VALUE`]); `None` for any other expression.
    pub args: Vec<Option<String>>,
}

/// A local declared as another name (`var obj = object`, `const opts = options.parse`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Alias {
    /// Byte offset of the declaration in the file.
    pub at: u32,
    /// The local declared.
    pub name: String,
    /// The name (or member chain) it is declared as.
    pub of: String,
}

/// Every call of a bare name and every alias in `program`; `base` is the file's start position.
pub(crate) fn flows(program: &Program, base: u32) -> (Vec<NamedCall>, Vec<Alias>) {
    let mut finder = FlowFinder { base, calls: Vec::new(), aliases: Vec::new() };
    program.visit_with(&mut finder);
    (finder.calls, finder.aliases)
}

/// The checks made on an alias of a name (`var obj = object; if (typeof obj !== 'object')`, or `const
/// opts = options || {}`) after it is declared within `range`, read as checks on the name itself.
pub(crate) fn checks_through_aliases(
    checks: &[TypeofCheck],
    aliases: &[Alias],
    range: std::ops::Range<u32>,
) -> Vec<TypeofCheck> {
    let mut found = Vec::new();
    for alias in aliases.iter().filter(|a| range.contains(&a.at) && a.name != a.of) {
        for check in checks.iter().filter(|c| (alias.at..range.end).contains(&c.at)) {
            let rest = match check.name.strip_prefix(alias.name.as_str()) {
                Some(rest) if rest.is_empty() || rest.starts_with('.') => rest,
                _ => continue,
            };
            let name = format!("{}{rest}", alias.of);
            let (ty, literal) = (check.ty.clone(), check.literal.clone());
            found.push(TypeofCheck { at: check.at, name, ty, literal, param_of: None });
        }
    }
    found
}

/// Whether `check` is on a parameter of a function nested within the function at `range` (`functions` are
/// the ranges of its file's functions) rather than on what that function itself was passed.
pub(crate) fn hidden_within(
    check: &TypeofCheck,
    range: &std::ops::Range<u32>,
    functions: &[std::ops::Range<u32>],
) -> bool {
    check.param_of.is_some_and(|at| {
        functions.iter().any(|g| g != range && range.start <= g.start && g.end <= range.end && g.contains(&at))
    })
}

/// The checks a helper makes on what a function passes it: validation often lives in a function of its
/// own (`var options = normalizeOptions(opts)`, then `typeof opts.encoder !== 'function'` there), so the
/// checks its callee `callee(name)` (its byte range and parameter names, for a function of the same file
/// known by a single name) makes on a parameter, or on that parameter's members, are read as checks on
/// the name passed, placed at the call. One level of calls from the `calls` within `range`.
pub(crate) fn checks_passed_on(
    checks: &[TypeofCheck],
    calls: &[NamedCall],
    range: std::ops::Range<u32>,
    functions: &[std::ops::Range<u32>],
    callee: impl Fn(&str) -> Option<(std::ops::Range<u32>, Vec<String>)>,
) -> Vec<TypeofCheck> {
    let mut found = Vec::new();
    for call in calls.iter().filter(|c| range.contains(&c.at)) {
        let Some((body, params)) = callee(&call.callee) else { continue };
        if body.contains(&call.at) {
            continue;
        }
        for (passed, param) in call.args.iter().zip(&params) {
            let Some(passed) = passed else { continue };
            for check in checks.iter().filter(|c| body.contains(&c.at) && !hidden_within(c, &body, functions)) {
                let rest = match check.name.strip_prefix(param.as_str()) {
                    Some(rest) if rest.is_empty() || rest.starts_with('.') => rest,
                    _ => continue,
                };
                let name = format!("{passed}{rest}");
                let (ty, literal) = (check.ty.clone(), check.literal.clone());
                found.push(TypeofCheck { at: call.at, name, ty, literal, param_of: None });
            }
        }
    }
    found
}

struct FlowFinder {
    base: u32,
    calls: Vec<NamedCall>,
    aliases: Vec<Alias>,
}

impl Visit for FlowFinder {
    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        if let (Pat::Ident(name), Some(of)) = (&node.name, node.init.as_deref().and_then(aliased)) {
            let at = node.span().lo.0.saturating_sub(self.base);
            self.aliases.push(Alias { at, name: name.id.sym.to_string(), of });
        }
        node.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        if let Callee::Expr(callee) = &node.callee
            && let Expr::Ident(name) = &**callee
        {
            let args = node.args.iter().map(|a| if a.spread.is_some() { None } else { passed(&a.expr) }).collect();
            let at = node.span().lo.0.saturating_sub(self.base);
            self.calls.push(NamedCall { at, callee: name.sym.to_string(), args });
        }
        node.visit_children_with(self);
    }
}

struct Finder {
    base: u32,
    found: Vec<TypeofCheck>,
    /// Per function open around the place visited (the program's top level first): its parameters, and
    /// the names it bound, before that place, to a value not made from them: checks on those say nothing
    /// of what was passed.
    scopes: Vec<Scope>,
    /// The file's constants of numbers, which lengths are compared with (see [`lengths`]).
    named: NamedNumbers,
}

/// A function's parameters, and the names it rebound so far (see [`Finder::scopes`]).
#[derive(Default)]
struct Scope {
    /// Byte offset of the function (none for the program's top level).
    start: Option<u32>,
    params: Vec<String>,
    rebound: Vec<String>,
}

impl Finder {
    /// Keeps `check` unless the variable it is on was rebound before it (see the module's documentation),
    /// in its own function or, unless a parameter of that function hides it, in one around it.
    fn push(&mut self, mut check: TypeofCheck) {
        let root = check.name.split('.').next().unwrap_or_default();
        for scope in self.scopes.iter().rev() {
            if scope.rebound.iter().any(|n| n == root) {
                return;
            }
            if scope.params.iter().any(|n| n == root) {
                check.param_of = scope.start;
                break;
            }
        }
        self.found.push(check);
    }

    /// Keeps the check that `name` is of type `ty` (or equals `literal`) made at `span`.
    fn check(&mut self, span: Span, name: String, ty: String, literal: Option<Constant>) {
        let at = span.lo.0.saturating_sub(self.base);
        self.push(TypeofCheck { at, name, ty, literal, param_of: None });
    }

    /// Visits a function's parts with a scope of its own, whose parameters are `params`.
    fn scoped<'p>(&mut self, span: Span, params: impl Iterator<Item = &'p Pat>, visit: impl FnOnce(&mut Finder)) {
        let params = params
            .filter_map(|p| match p {
                Pat::Ident(id) => Some(id.id.sym.to_string()),
                Pat::Assign(a) => a.left.as_ident().map(|id| id.id.sym.to_string()),
                _ => None,
            })
            .collect();
        let start = Some(span.lo.0.saturating_sub(self.base));
        self.scopes.push(Scope { start, params, rebound: Vec::new() });
        visit(self);
        self.scopes.pop();
    }
}

/// Whether `e` reads the variable `name`.
fn mentions(e: &Expr, name: &str) -> bool {
    struct Mentions<'n> {
        name: &'n str,
        found: bool,
    }
    impl Visit for Mentions<'_> {
        fn visit_ident(&mut self, node: &Ident) {
            self.found |= &*node.sym == self.name;
        }
    }
    let mut finder = Mentions { name, found: false };
    e.visit_with(&mut finder);
    finder.found
}

/// Prefix of the pseudo-type of an `instanceof` check.
pub(crate) const INSTANCEOF: &str = "instanceof ";

/// Prefix of the pseudo-type of an equality with a literal (`kind === 'major'`, a `case 'minor':` of
/// `switch (kind)`, `urlSafe === true`): `=string`, `=number`, `=boolean`. Weaker than a `typeof`
/// check: the code names a value, not a type.
pub(crate) const EQUALS: &str = "=";

/// What a local declared as `init` aliases: a name or member chain, also when an empty object stands
/// in for it (`const opts = options || {}`, `?? {}`): the checks on the local are the name's.
fn aliased(init: &Expr) -> Option<String> {
    match init {
        Expr::Paren(p) => aliased(&p.expr),
        Expr::Bin(b) if matches!(b.op, BinaryOp::LogicalOr | BinaryOp::NullishCoalescing) => {
            matches!(&*b.right, Expr::Object(o) if o.props.is_empty()).then(|| dotted(&b.left)).flatten()
        }
        other => dotted(other),
    }
}

/// What a call passes as an argument: a name or member chain, or the value of one under a computed key
/// (`props[key]` as `props[]`).
fn passed(e: &Expr) -> Option<String> {
    match e {
        Expr::Member(m) if matches!(m.prop, MemberProp::Computed(_)) => Some(format!("{}{ANY_VALUE}", dotted(&m.obj)?)),
        other => dotted(other),
    }
}

/// Suffix of a name passed under a computed key (`props[key]` is `props[]`): any value of it.
pub(crate) const ANY_VALUE: &str = "[]";

/// `a.b.c` for a chain of identifiers and member names.
pub(super) fn dotted(e: &Expr) -> Option<String> {
    match e {
        Expr::Ident(i) => Some(i.sym.to_string()),
        Expr::Member(m) => Some(format!("{}.{}", dotted(&m.obj)?, m.prop.as_ident()?.sym)),
        _ => None,
    }
}

impl Visit for Finder {
    fn visit_function(&mut self, node: &Function) {
        self.scoped(node.span, node.params.iter().map(|p| &p.pat), |finder| node.visit_children_with(finder));
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        self.scoped(node.span, node.params.iter(), |finder| node.visit_children_with(finder));
    }

    fn visit_assign_expr(&mut self, node: &AssignExpr) {
        node.visit_children_with(self);
        if node.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Ident(target)) = &node.left
            && !matches!(&*node.right, Expr::Lit(_))
            && !mentions(&node.right, &target.id.sym)
            && let Some(scope) = self.scopes.last_mut()
        {
            scope.rebound.push(target.id.sym.to_string());
        }
    }

    fn visit_bin_expr(&mut self, node: &BinExpr) {
        if node.op == BinaryOp::InstanceOf
            && let (Some(name), Some(class)) = (dotted(&node.left), dotted(&node.right))
        {
            let ty = format!("{INSTANCEOF}{class}");
            self.check(node.span(), name, ty, None);
        }
        if matches!(node.op, BinaryOp::EqEqEq | BinaryOp::NotEqEq | BinaryOp::EqEq | BinaryOp::NotEq) {
            let typeof_of = |e: &Expr| match e {
                Expr::Unary(UnaryExpr { op: UnaryOp::TypeOf, arg, .. }) => dotted(arg),
                _ => None,
            };
            let string = |e: &Expr| match e {
                Expr::Lit(Lit::Str(s)) => Some(s.value.to_atom_lossy().to_string()),
                _ => None,
            };
            let identifier = dotted;
            let null = |e: &Expr| matches!(e, Expr::Lit(Lit::Null(_))).then(|| ("null".to_string(), None));
            let literal = |e: &Expr| equality(e).map(|(ty, literal)| (format!("{EQUALS}{ty}"), literal));
            let type_named = |e: &Expr| string(e).map(|ty| (ty, None));
            let found = typeof_of(&node.left)
                .zip(type_named(&node.right))
                .or_else(|| typeof_of(&node.right).zip(type_named(&node.left)))
                .or_else(|| identifier(&node.left).zip(null(&node.right)))
                .or_else(|| identifier(&node.right).zip(null(&node.left)))
                .or_else(|| identifier(&node.left).zip(literal(&node.right)))
                .or_else(|| identifier(&node.right).zip(literal(&node.left)));
            if let Some((name, (ty, literal))) = found {
                self.check(node.span(), name, ty, literal);
            }
        }
        for (name, ty, literal) in lengths::comparison_checks(node, &self.named) {
            self.check(node.span(), name, ty, literal);
        }
        node.visit_children_with(self);
    }

    // `Array.isArray(x)` (or an `isArray` of a library or of the file's own, `var isArray = Array.isArray
    // || ...`) is the check `x instanceof Array` written as a call: a recording proxy answers `false` to
    // it and shows nothing, so the call is read as that check.
    fn visit_call_expr(&mut self, node: &CallExpr) {
        let callee = match &node.callee {
            Callee::Expr(callee) => dotted(callee),
            _ => None,
        };
        let is_array_check = callee.is_some_and(|c| c.rsplit('.').next() == Some("isArray"));
        if is_array_check
            && let Some(arg) = node.args.first().filter(|a| a.spread.is_none())
            && let Some(name) = dotted(&arg.expr)
        {
            let ty = format!("{INSTANCEOF}Array");
            self.check(node.span(), name, ty, None);
        }
        for (name, ty, literal) in lengths::includes_checks(node, &self.named) {
            self.check(node.span(), name, ty, literal);
        }
        node.visit_children_with(self);
    }

    fn visit_switch_stmt(&mut self, node: &SwitchStmt) {
        if let Some(name) = dotted(&node.discriminant) {
            for case in &node.cases {
                if let Some((ty, literal)) = case.test.as_deref().and_then(equality) {
                    let (name, ty) = (name.clone(), format!("{EQUALS}{ty}"));
                    self.check(case.span, name, ty, literal);
                }
            }
        }
        node.visit_children_with(self);
    }
}

/// The type of a string, number or boolean literal (a number possibly negated), with the literal for
/// a string or a number: a boolean has only two values, which generation draws anyway.
fn equality(e: &Expr) -> Option<(&'static str, Option<Constant>)> {
    match e {
        Expr::Lit(Lit::Str(s)) => Some(("string", Some(Constant::String(s.value.to_atom_lossy().to_string())))),
        Expr::Tpl(t) if t.exprs.is_empty() => {
            let text = t.quasis.first().and_then(|q| q.cooked.as_ref()).map(|c| c.to_atom_lossy().to_string());
            Some(("string", text.map(Constant::String)))
        }
        Expr::Lit(Lit::Num(n)) => Some(("number", Some(Constant::Number(n.value)))),
        Expr::Unary(UnaryExpr { op: UnaryOp::Minus, arg, .. }) => match &**arg {
            Expr::Lit(Lit::Num(n)) => Some(("number", Some(Constant::Number(-n.value)))),
            _ => None,
        },
        Expr::Lit(Lit::Bool(_)) => Some(("boolean", None)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    #[test]
    fn finds_typeof_comparisons_either_way_round() {
        let code = "function on(event, fn) { if (typeof fn !== 'function') throw new TypeError('x');\n\
                    if ('string' === typeof event || typeof event == 'symbol') return; }\nfunction g(fn) { typeof fn === 'number'; }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let end_of_on = code.find("\nfunction g").unwrap() as u32;
        assert_eq!(types_checked(&checks, "fn", 0, end_of_on), vec!["function"]);
        assert_eq!(types_checked(&checks, "event", 0, end_of_on), vec!["string", "symbol"]);
        assert_eq!(types_checked(&checks, "fn", end_of_on, code.len() as u32), vec!["number"]);
    }

    #[test]
    fn finds_null_comparisons_of_every_kind() {
        let code = "function f(a, b, c, d, e) { if (a === null) return; if (null == b || c !== null) return;\n\
                    if (d != null && e.x === null && e === undefined) return; }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let all = code.len() as u32;
        for name in ["a", "b", "c", "d"] {
            assert_eq!(types_checked(&checks, name, 0, all), vec!["null"], "{name}");
        }
        // A member compared with null, or a comparison with undefined, is no evidence about `e` itself.
        assert!(types_checked(&checks, "e", 0, all).is_empty());
    }

    #[test]
    fn finds_equalities_with_literals_and_switch_cases() {
        let code = "function f(a, b, c, d) { if (a === 'x' || 3 == b || c !== true) return; switch (d) { case 'major': case -1: default: } }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let all = code.len() as u32;
        assert_eq!(types_checked(&checks, "a", 0, all), vec!["=string"]);
        assert_eq!(types_checked(&checks, "b", 0, all), vec!["=number"]);
        assert_eq!(types_checked(&checks, "c", 0, all), vec!["=boolean"]);
        let mut d = types_checked(&checks, "d", 0, all);
        d.sort();
        assert_eq!(d, vec!["=number", "=string"]);
        assert_eq!(literals_compared(&checks, "a"), vec![Constant::String("x".into())]);
        assert_eq!(literals_compared(&checks, "b"), vec![Constant::Number(3.0)]);
        assert!(literals_compared(&checks, "c").is_empty(), "a boolean's two values need no list");
        let cases = vec![Constant::String("major".into()), Constant::Number(-1.0)];
        assert_eq!(literals_compared(&checks, "d"), cases, "switch cases, in source order");
    }

    #[test]
    fn checks_after_a_name_is_rebound_to_another_value_are_not_read() {
        let code = "function f(url, kind, n) { kind = kind.toLowerCase(); n = 5; if (kind === 'major' || n === 3) return;\n\
                    url = clean(other); if (url === false) return; }\nfunction g(url) { if (url === 'x') return; }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let end_of_f = code.find("\nfunction g").unwrap() as u32;
        assert!(types_checked(&checks, "url", 0, end_of_f).is_empty(), "what `clean` returned, not what was passed");
        assert_eq!(types_checked(&checks, "kind", 0, end_of_f), vec!["=string"], "made from itself");
        assert_eq!(types_checked(&checks, "n", 0, end_of_f), vec!["=number"], "a default");
        assert_eq!(types_checked(&checks, "url", end_of_f, code.len() as u32), vec!["=string"], "another function's");
    }

    #[test]
    fn a_parameter_of_an_inner_function_hides_a_name_rebound_around_it() {
        let code = "function f(url) { url = clean(url2); return [1].map((url) => url === 2); }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        assert_eq!(types_checked(&checks, "url", 0, code.len() as u32), vec!["=number"], "the arrow's own `url`");
    }

    #[test]
    fn finds_instanceof_checks_of_identifiers_against_names_as_written() {
        let code = "function f(a, b, c) { if (!(a instanceof Matrix)) throw 1; if (b instanceof Geo.Point) return;\n\
                    if (c.x instanceof Date || make() instanceof Date) return; }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let all = code.len() as u32;
        assert_eq!(types_checked(&checks, "a", 0, all), vec!["instanceof Matrix"]);
        assert_eq!(types_checked(&checks, "b", 0, all), vec!["instanceof Geo.Point"]);
        assert!(types_checked(&checks, "c", 0, all).is_empty(), "a member's check says nothing about `c`");
    }

    #[test]
    fn is_array_calls_are_instanceof_array_checks() {
        let code = "var isArray = Array.isArray; function f(a, b, c, d) { if (Array.isArray(a) || isArray(b.list)) return;\n\
                    if (_.isArray(c)) return; isArray([d]); }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let all = code.len() as u32;
        assert_eq!(types_checked(&checks, "a", 0, all), vec!["instanceof Array"]);
        assert_eq!(types_checked(&checks, "b.list", 0, all), vec!["instanceof Array"]);
        assert_eq!(types_checked(&checks, "c", 0, all), vec!["instanceof Array"]);
        assert!(types_checked(&checks, "d", 0, all).is_empty(), "an array made of `d` says nothing of `d`");
    }

    #[test]
    fn finds_checks_on_members_of_a_parameter() {
        let code = "function f(opts) { if (typeof opts.max !== 'number') throw 1; if (opts.charset === 'utf-8') return;\n\
                    if (opts.perf.now instanceof Date || opts.encoder !== null) return; switch (opts.kind) { case 'a': } }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let all = code.len() as u32;
        assert_eq!(types_checked(&checks, "opts.max", 0, all), vec!["number"]);
        assert_eq!(types_checked(&checks, "opts.charset", 0, all), vec!["=string"]);
        assert_eq!(literals_compared(&checks, "opts.charset"), vec![Constant::String("utf-8".into())]);
        assert_eq!(types_checked(&checks, "opts.perf.now", 0, all), vec!["instanceof Date"]);
        assert_eq!(types_checked(&checks, "opts.encoder", 0, all), vec!["null"]);
        assert_eq!(types_checked(&checks, "opts.kind", 0, all), vec!["=string"]);
        assert!(types_checked(&checks, "opts", 0, all).is_empty(), "a member's check says nothing about `opts`");
    }

    #[test]
    fn checks_of_a_helper_on_what_it_is_passed_are_the_callers() {
        let code = "function normalize(o, n) { if (typeof o.sort !== 'function') throw 1; if (typeof n !== 'string') throw 2;\n\
                    if (typeof other === 'number') return; }\n\
                    function stringify(object, options) { var opts = normalize(options, object.name); other(options); return opts; }\n\
                    function other(x) { typeof x === 'boolean'; } function other(y) {}";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let base = parsed.source.start_pos.0;
        let checks = typeof_checks(&parsed.program, base);
        let (calls, _) = flows(&parsed.program, base);
        let start = code.find("function stringify").unwrap() as u32;
        let end = code.find("\nfunction other").unwrap() as u32;
        let normalize = (0..start, vec!["o".to_string(), "n".to_string()]);
        let callee = |name: &str| (name == "normalize").then(|| normalize.clone());
        let passed = checks_passed_on(&checks, &calls, start..end, &[], callee);
        let all = code.len() as u32;
        assert_eq!(types_checked(&passed, "options.sort", 0, all), vec!["function"]);
        assert_eq!(types_checked(&passed, "object.name", 0, all), vec!["string"]);
        assert!(passed.iter().all(|c| (start..end).contains(&c.at)), "placed at the call");
        assert!(types_checked(&passed, "other", 0, all).is_empty(), "only checks on the callee's parameters");
    }

    #[test]
    fn a_callback_s_own_parameter_hides_the_one_around_it() {
        let code = "function parse(s, env) { if (typeof env !== 'function') return s;\n\
                    return s.reduce(function (acc, s) { if (typeof s === 'object') acc.push(s); return acc; }, []); }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let checks = typeof_checks(&parsed.program, parsed.source.start_pos.0);
        let all = code.len() as u32;
        let callback = code.find("function (acc").unwrap() as u32..code.rfind(" }, []").unwrap() as u32 + 2;
        let functions = [0..all, callback];
        let own: Vec<TypeofCheck> =
            checks.iter().filter(|c| !hidden_within(c, &(0..all), &functions)).cloned().collect();
        assert_eq!(types_checked(&own, "env", 0, all), vec!["function"]);
        assert!(types_checked(&own, "s", 0, all).is_empty(), "the callback's `s` is not parse's");
        assert_eq!(types_checked(&checks, "s", 0, all), vec!["object"], "the callback's own check is kept for it");
    }

    #[test]
    fn checks_on_an_alias_are_the_names() {
        let code = "function f(object, opts) { if (typeof obj === 'string') return; var obj = object, o = opts.sort;\n\
                    if (typeof obj !== 'object' || obj === null) return ''; if (typeof o.x === 'number') return;\n\
                    const d = (opts || {}); if (d.pad === true) return; }";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let base = parsed.source.start_pos.0;
        let checks = typeof_checks(&parsed.program, base);
        let (_, aliases) = flows(&parsed.program, base);
        let all = code.len() as u32;
        let aliased = checks_through_aliases(&checks, &aliases, 0..all);
        assert_eq!(types_checked(&aliased, "object", 0, all), vec!["null", "object"]);
        assert_eq!(types_checked(&aliased, "opts.sort.x", 0, all), vec!["number"]);
        // An empty object standing in for the name: the local is still the name.
        assert_eq!(types_checked(&aliased, "opts.pad", 0, all), vec!["=boolean"]);
        assert!(!types_checked(&aliased, "object", 0, all).contains(&"string".to_string()), "not before the alias");
    }
}
