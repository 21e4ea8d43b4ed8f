//! Options copied before they are read: `var o = assign({}, defaults, options)`, `Object.assign({},
//! DEFAULTS, opts)`, `{ ...DEFAULTS, ...opts }`, `this.options = extend({}, defaults, options)`. A
//! recording proxy passed as `options` sees only its keys listed; every read after that is on the plain
//! copy (`o.language`, `o.units`), so no member of `options` is ever learnt and every test passes `{}`.
//! The member names the code reads on the copy, there or in the helpers of the same file it is passed
//! to (`getPieces(ms, o)` reading `options.units`), are the members the parameter may set.
//!
//! Read from the syntax tree: the copy is made before any read, and what is read on it later would only
//! show on the proxy if the copy were the proxy itself.

use std::collections::BTreeSet;
use std::ops::Range;

use swc_common::Spanned;
use swc_ecma_ast::{
    AssignExpr, AssignOp, AssignTarget, BinExpr, BinaryOp, CallExpr, Callee, Expr, Lit, MemberExpr, MemberProp,
    ObjectPatProp, Pat, Program, PropOrSpread, SimpleAssignTarget, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

use super::parse::prop_name;
use super::typeofs::NamedCall;

/// A copy of some values into another: `into` holds their members after `at`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Copy {
    /// Byte offset of the copy in the file.
    pub at: u32,
    /// The name (or member chain: `this.options`) that holds the copy.
    pub into: String,
    /// The names (or member chains) copied from, in order.
    pub from: Vec<String>,
}

/// A member read by name on a name or member chain (`o.language`, `'units' in o`, `const { round } = o`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Read {
    /// Byte offset of the read in the file.
    pub at: u32,
    /// The name or member chain read from.
    pub object: String,
    /// The member read.
    pub member: String,
}

/// Functions that copy the members of their later arguments into their first, whatever it is; any
/// other function copies only when its first argument is an object literal (`assign({}, ...)`).
const COPIERS: &[&str] = &["assign", "extend", "merge", "defaults"];

/// How many helpers deep a copy is followed (`formatPieces(pieces, o)` calling `getLanguage(o)`).
const DEPTH: usize = 3;

/// Every copy and every member read by name in `program`; `base` is the file's start position.
pub(crate) fn copies_and_reads(program: &Program, base: u32) -> (Vec<Copy>, Vec<Read>) {
    let mut finder = Finder { base, copies: Vec::new(), reads: Vec::new() };
    program.visit_with(&mut finder);
    (finder.copies, finder.reads)
}

/// What a file says about copies: its copies, its reads, its calls of bare names, and the range and
/// parameters of the function of the file a name calls, if one only.
pub(crate) struct CopyFlows<'a, F: Fn(&str) -> Option<(Range<u32>, Vec<String>)>> {
    /// The file's copies (see [`copies_and_reads`]).
    pub copies: &'a [Copy],
    /// The file's reads.
    pub reads: &'a [Read],
    /// The file's calls of bare names (see [`super::typeofs::flows`]).
    pub calls: &'a [NamedCall],
    /// The function a name calls.
    pub callee: F,
}

/// A name a copy of a parameter is seen as, and where: `o` in the function that made it, `opts` in a
/// helper it is passed to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct View {
    /// The name or member chain.
    pub name: String,
    /// Where it holds the copy.
    pub range: Range<u32>,
}

impl<F: Fn(&str) -> Option<(Range<u32>, Vec<String>)>> CopyFlows<'_, F> {
    /// The names copies of `param` made within `range` (the function whose parameter it is) are seen as:
    /// there, in the helpers the copy is passed to whole, and copies of the copy. A copy held by a member
    /// of `this` is read by the other methods too: it is seen in `file` (the whole file's range).
    pub(crate) fn views(&self, param: &str, range: Range<u32>, file: Range<u32>) -> Vec<View> {
        let mut found = Vec::new();
        self.copies_of(param, range, &file, 0, &mut found);
        found
    }

    /// The members read on `views`, each once, sorted.
    pub(crate) fn members_read(&self, views: &[View]) -> Vec<String> {
        let read = |r: &&Read| views.iter().any(|v| v.range.contains(&r.at) && v.name == r.object);
        let members: BTreeSet<&str> = self.reads.iter().filter(read).map(|r| r.member.as_str()).collect();
        members.into_iter().map(String::from).collect()
    }

    /// Adds the views of the copies of `name` made within `range` to `found`.
    fn copies_of(&self, name: &str, range: Range<u32>, file: &Range<u32>, depth: usize, found: &mut Vec<View>) {
        for copy in self.copies.iter().filter(|c| range.contains(&c.at) && c.from.iter().any(|f| f == name)) {
            let within = if copy.into.starts_with("this.") { file.clone() } else { copy.at..range.end };
            self.seen_as(&copy.into, within, file, depth, found);
        }
    }

    /// Adds `name` within `range` to `found`, with the helpers it is passed to whole and its copies.
    fn seen_as(&self, name: &str, range: Range<u32>, file: &Range<u32>, depth: usize, found: &mut Vec<View>) {
        if depth > DEPTH || found.iter().any(|v| v.name == name && v.range == range) {
            return;
        }
        found.push(View { name: name.to_string(), range: range.clone() });
        for call in self.calls.iter().filter(|c| range.contains(&c.at)) {
            let Some((body, params)) = (self.callee)(&call.callee) else { continue };
            if body.contains(&call.at) {
                continue;
            }
            for (passed, param) in call.args.iter().zip(&params) {
                if passed.as_deref() == Some(name) {
                    self.seen_as(param, body.clone(), file, depth + 1, found);
                }
            }
        }
        self.copies_of(name, range, file, depth + 1, found);
    }
}

struct Finder {
    base: u32,
    copies: Vec<Copy>,
    reads: Vec<Read>,
}

impl Finder {
    fn at(&self, node: &impl Spanned) -> u32 {
        node.span().lo.0.saturating_sub(self.base)
    }

    /// Records `value` as a copy into `into` when it is one.
    fn copy(&mut self, at: u32, into: Option<String>, value: &Expr) {
        if let (Some(into), Some(from)) = (into, copied_from(value)) {
            self.copies.push(Copy { at, into, from });
        }
    }
}

impl Visit for Finder {
    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        let at = self.at(node);
        match (&node.name, node.init.as_deref()) {
            (Pat::Ident(name), Some(init)) => self.copy(at, Some(name.id.sym.to_string()), init),
            // `const { round, units } = o`: reads of those members.
            (Pat::Object(pattern), Some(init)) => {
                if let Some(object) = dotted(unwrapped(init)) {
                    for prop in &pattern.props {
                        let member = match prop {
                            ObjectPatProp::KeyValue(kv) => prop_name(&kv.key),
                            ObjectPatProp::Assign(a) => Some(a.key.id.sym.to_string()),
                            ObjectPatProp::Rest(_) => None,
                        };
                        if let Some(member) = member {
                            self.reads.push(Read { at, object: object.clone(), member });
                        }
                    }
                }
            }
            _ => {}
        }
        node.visit_children_with(self);
    }

    fn visit_assign_expr(&mut self, node: &AssignExpr) {
        if node.op == AssignOp::Assign {
            let into = match &node.left {
                AssignTarget::Simple(SimpleAssignTarget::Ident(id)) => Some(id.id.sym.to_string()),
                AssignTarget::Simple(SimpleAssignTarget::Member(m)) => dotted(&Expr::Member(m.clone())),
                _ => None,
            };
            self.copy(self.at(node), into, &node.right);
        }
        node.visit_children_with(self);
    }

    // `assign(target, defaults, options)` copies into its target, whatever is done with its result.
    fn visit_call_expr(&mut self, node: &CallExpr) {
        if is_copier(&node.callee)
            && let Some(target) = node.args.first().filter(|a| a.spread.is_none()).and_then(|a| dotted(&a.expr))
            && let Some(from) = call_copies(node)
        {
            self.copies.push(Copy { at: self.at(node), into: target, from });
        }
        node.visit_children_with(self);
    }

    fn visit_member_expr(&mut self, node: &MemberExpr) {
        let member = match &node.prop {
            MemberProp::Ident(name) => Some(name.sym.to_string()),
            MemberProp::Computed(c) => match &*c.expr {
                Expr::Lit(Lit::Str(s)) => Some(s.value.to_atom_lossy().to_string()),
                _ => None,
            },
            MemberProp::PrivateName(_) => None,
        };
        if let (Some(object), Some(member)) = (dotted(&node.obj), member) {
            self.reads.push(Read { at: self.at(node), object, member });
        }
        node.visit_children_with(self);
    }

    // `'units' in o`.
    fn visit_bin_expr(&mut self, node: &BinExpr) {
        if node.op == BinaryOp::In
            && let (Expr::Lit(Lit::Str(s)), Some(object)) = (&*node.left, dotted(&node.right))
        {
            self.reads.push(Read { at: self.at(node), object, member: s.value.to_atom_lossy().to_string() });
        }
        node.visit_children_with(self);
    }
}

/// The names a value copies the members of, when it is a copy: a call of a copier or of any function
/// whose first argument is an object literal, with the names among its later arguments, or an object
/// literal spreading names. A name may stand with an empty object for its absence (`options || {}`).
fn copied_from(value: &Expr) -> Option<Vec<String>> {
    let from: Vec<String> = match unwrapped(value) {
        Expr::Call(call) => return call_copies(call),
        Expr::Object(object) => object
            .props
            .iter()
            .filter_map(|p| match p {
                PropOrSpread::Spread(spread) => source(&spread.expr),
                PropOrSpread::Prop(_) => None,
            })
            .collect(),
        _ => return None,
    };
    (!from.is_empty()).then_some(from)
}

/// The names a call copies the members of, when it is a copy (see [`copied_from`]).
fn call_copies(call: &CallExpr) -> Option<Vec<String>> {
    let first = call.args.first().filter(|a| a.spread.is_none())?;
    if !is_copier(&call.callee) && !matches!(unwrapped(&first.expr), Expr::Object(_)) {
        return None;
    }
    let from: Vec<String> =
        call.args[1..].iter().filter(|a| a.spread.is_none()).filter_map(|a| source(&a.expr)).collect();
    (!from.is_empty()).then_some(from)
}

/// Whether a call's callee is one of the [`COPIERS`] (`assign`, `Object.assign`, `_.extend`).
fn is_copier(callee: &Callee) -> bool {
    let Callee::Expr(callee) = callee else { return false };
    dotted(callee).is_some_and(|c| COPIERS.contains(&c.rsplit('.').next().unwrap_or_default()))
}

/// The name a copied value is: `options`, `options || {}`, `options ?? {}`.
fn source(e: &Expr) -> Option<String> {
    match unwrapped(e) {
        Expr::Bin(b) if matches!(b.op, BinaryOp::LogicalOr | BinaryOp::NullishCoalescing) => {
            matches!(unwrapped(&b.right), Expr::Object(o) if o.props.is_empty()).then(|| dotted(&b.left)).flatten()
        }
        other => dotted(other),
    }
}

/// `e` without the parentheses and TypeScript casts around it.
fn unwrapped(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => unwrapped(&p.expr),
        Expr::TsAs(t) => unwrapped(&t.expr),
        Expr::TsTypeAssertion(t) => unwrapped(&t.expr),
        Expr::TsNonNull(t) => unwrapped(&t.expr),
        Expr::TsConstAssertion(t) => unwrapped(&t.expr),
        Expr::TsSatisfies(t) => unwrapped(&t.expr),
        other => other,
    }
}

/// `a.b.c` for a chain of identifiers and member names; unlike the `typeof` checks' chains, `this.b` is
/// one (a copy kept on the instance is read by the other methods) and casts are seen through.
fn dotted(e: &Expr) -> Option<String> {
    match unwrapped(e) {
        Expr::Ident(i) => Some(i.sym.to_string()),
        Expr::This(_) => Some("this".to_string()),
        Expr::Member(m) => Some(format!("{}.{}", dotted(&m.obj)?, m.prop.as_ident()?.sym)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use crate::analysis::typeofs::flows;
    use std::path::Path;

    fn read_on_copies(code: &str, function: &str, param: &str) -> Vec<String> {
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let base = parsed.source.start_pos.0;
        let (copies, reads) = copies_and_reads(&parsed.program, base);
        let (calls, _) = flows(&parsed.program, base);
        // Functions by name: from `function name(` to the next `\n}` (the tests' layout).
        let range_of = |name: &str| {
            let start = code.find(&format!("function {name}("))?;
            let end = start + code[start..].find("\n}")? + 2;
            let open = start + code[start..].find('(')? + 1;
            let close = start + code[start..].find(')')?;
            let params = code[open..close].split(',').map(|p| p.trim().to_string()).collect();
            Some((start as u32..end as u32, params))
        };
        let flows = CopyFlows { copies: &copies, reads: &reads, calls: &calls, callee: range_of };
        let (range, _) = range_of(function).unwrap();
        flows.members_read(&flows.views(param, range, 0..code.len() as u32))
    }

    #[test]
    fn members_read_on_a_copy_and_in_the_helpers_it_is_passed_to_are_found() {
        let code = "function format(ms, options) {\n  var o = assign({}, DEFAULTS, options || {});\n  \
                    if (o.round) ms = Math.round(ms);\n  return pieces(ms, o) + other(options);\n}\n\
                    function pieces(ms, opts) {\n  const { units, largest: l } = opts;\n  \
                    return 'spacer' in opts ? label(opts) : units;\n}\n\
                    function label(x) {\n  return x['language'] + x.delimiter;\n}\n\
                    function other(y) {\n  return y.notACopy;\n}";
        let found = read_on_copies(code, "format", "options");
        assert_eq!(found, ["delimiter", "language", "largest", "round", "spacer", "units"]);
    }

    #[test]
    fn object_assign_spreads_and_this_members_are_copies() {
        let code = "function make(opts) {\n  const s = { ...BASE, ...opts };\n  const t = Object.assign({}, s);\n  \
                    return s.width + t.height;\n}\n\
                    function init(options) {\n  this.options = Object.assign({}, defaults, options);\n}\n\
                    function later() {\n  return this.options.depth;\n}\n\
                    function not(options) {\n  var o = compute(options, {});\n  return o.nope;\n}";
        assert_eq!(read_on_copies(code, "make", "opts"), ["height", "width"]);
        assert_eq!(read_on_copies(code, "init", "options"), ["depth"]);
        assert!(read_on_copies(code, "not", "options").is_empty(), "a call that is no copy");
    }

    #[test]
    fn a_copier_copies_into_its_first_argument() {
        let code = "function f(config) {\n  var target = {};\n  extend(target, config);\n  return target.mode;\n}";
        assert_eq!(read_on_copies(code, "f", "config"), ["mode"]);
    }
}
