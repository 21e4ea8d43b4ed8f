//! Fields a class's code assigns to `this`, and the methods it calls on `this`, read from the syntax
//! tree.
//!
//! Discovery learns an instance's fields by building one with inert arguments, but constructors that
//! validate their arguments throw before assigning anything, and some fields are only assigned by
//! methods. The assignments themselves (`this.radius = r`, `this.count += 1`) name the fields whatever
//! the arguments: type inference needs them to match parameters like `other.radius` to a class.
//!
//! The calls (`this._up(i)`, `this._swap.call(this, i, j)`) say which private helpers a public method
//! reaches: a method under test must cover them too, since tests no longer call them directly. A name
//! holding `this` (`var self = this`) calls on it too, from the callbacks that capture it
//! (`items.forEach(function (x) { self._add(x) })`): those calls are the function's that declared it.

use std::collections::BTreeSet;

use swc_common::Spanned;
use swc_ecma_ast::{
    ArrowExpr, AssignExpr, AssignTarget, CallExpr, Callee, Constructor, Expr, Function, MemberExpr, MemberProp, Pat,
    Program, SimpleAssignTarget, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::{constructor_params, member_name};

/// The `this` fields one function assigns: its byte range in the file and the names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ThisFields {
    /// Byte offset of the function's start in the file.
    pub start: u32,
    /// Byte offset of its end.
    pub end: u32,
    /// Field names assigned through `this` (arrow functions inside count: they share `this`).
    pub names: BTreeSet<String>,
    /// Member names called on `this`, directly or through `.call`/`.apply`.
    pub calls: BTreeSet<String>,
}

/// Every function (and constructor) of `program` with the fields it assigns to `this`; `base` is the
/// file's start position, to turn spans into offsets.
pub(crate) fn this_fields(program: &Program, base: u32) -> Vec<ThisFields> {
    let mut collector = Collector { base, open: Vec::new(), aliases: Vec::new(), done: Vec::new() };
    program.visit_with(&mut collector);
    collector.done
}

/// The fields assigned by the function that spans `start..end`, or nested in it with the same `this`.
pub(crate) fn fields_of_function(all: &[ThisFields], start: u32, end: u32) -> BTreeSet<String> {
    own_entry(all, start, end).map(|f| f.names.clone()).unwrap_or_default()
}

/// The members called on `this` by the function that spans `start..end`, or nested in it with the same
/// `this`.
pub(crate) fn calls_of_function(all: &[ThisFields], start: u32, end: u32) -> BTreeSet<String> {
    own_entry(all, start, end).map(|f| f.calls.clone()).unwrap_or_default()
}

/// The function's own entry: the largest one inside its range; others are nested functions.
fn own_entry(all: &[ThisFields], start: u32, end: u32) -> Option<&ThisFields> {
    all.iter().filter(|f| f.start >= start && f.end <= end).max_by_key(|f| f.end - f.start)
}

/// The name of `this.x` or `this['x']`.
fn member_of_this(member: &MemberExpr) -> Option<String> {
    if !matches!(&*member.obj, Expr::This(_)) {
        return None;
    }
    member_name(&member.prop)
}

struct Collector {
    base: u32,
    open: Vec<ThisFields>,
    /// Per open function, the names of its own that hold its `this` (`self`, `that`) and those that
    /// hide an outer function's (a parameter or local of the same name).
    aliases: Vec<(BTreeSet<String>, BTreeSet<String>)>,
    done: Vec<ThisFields>,
}

impl Collector {
    fn within<N: VisitWith<Self> + Spanned + ?Sized>(&mut self, node: &N, params: Vec<&Pat>) {
        let span = node.span();
        self.open.push(ThisFields {
            start: span.lo.0.saturating_sub(self.base),
            end: span.hi.0.saturating_sub(self.base),
            names: BTreeSet::new(),
            calls: BTreeSet::new(),
        });
        let hidden = params.into_iter().filter_map(|p| p.as_ident()).map(|id| id.id.sym.to_string()).collect();
        self.aliases.push((BTreeSet::new(), hidden));
        node.visit_children_with(self);
        self.aliases.pop();
        let finished = self.open.pop().expect("pushed above");
        self.done.push(finished);
    }

    /// The open function whose `this` the object of `member` is, and the member's name: `this.x` the
    /// innermost one's, `self.x` the one declaring `self` as its `this`.
    fn member_of_this(&self, member: &MemberExpr) -> Option<(usize, String)> {
        let name = member_name(&member.prop)?;
        let function = match &*member.obj {
            Expr::This(_) => self.open.len().checked_sub(1)?,
            Expr::Ident(alias) => {
                let holding = |(this, hidden): &(BTreeSet<String>, BTreeSet<String>)| {
                    if this.contains(&*alias.sym) { Some(true) } else { hidden.contains(&*alias.sym).then_some(false) }
                };
                let (at, holds) = self.aliases.iter().enumerate().rev().find_map(|(i, a)| Some((i, holding(a)?)))?;
                holds.then_some(at)?
            }
            _ => return None,
        };
        Some((function, name))
    }
}

impl Visit for Collector {
    fn visit_function(&mut self, node: &Function) {
        self.within(node, node.params.iter().map(|p| &p.pat).collect());
    }

    fn visit_constructor(&mut self, node: &Constructor) {
        self.within(node, constructor_params(node).collect());
    }

    fn visit_arrow_expr(&mut self, node: &ArrowExpr) {
        // Same `this` as the enclosing function: keep collecting into it.
        node.visit_children_with(self);
    }

    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        if let (Pat::Ident(id), Some((this, hidden))) = (&node.name, self.aliases.last_mut()) {
            let holds_this = matches!(node.init.as_deref().map(Expr::unwrap_parens), Some(Expr::This(_)));
            let name = id.id.sym.to_string();
            if holds_this {
                this.insert(name)
            } else {
                hidden.insert(name)
            };
        }
        node.visit_children_with(self);
    }

    fn visit_assign_expr(&mut self, node: &AssignExpr) {
        if let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &node.left
            && let Some(name) = member_of_this(member)
            && let Some(current) = self.open.last_mut()
        {
            current.names.insert(name);
        }
        node.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        if let Callee::Expr(callee) = &node.callee
            && let Expr::Member(member) = &**callee
        {
            // `this.x(...)`, or `this.x.call(...)` and `this.x.apply(...)`; the same on `self`.
            let through = match (&*member.obj, &member.prop) {
                (Expr::Member(inner), MemberProp::Ident(how)) if how.sym == "call" || how.sym == "apply" => {
                    self.member_of_this(inner)
                }
                _ => None,
            };
            if let Some((function, name)) = through.or_else(|| self.member_of_this(member)) {
                self.open[function].calls.insert(name);
            }
        }
        node.visit_children_with(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    #[test]
    fn finds_fields_assigned_through_this() {
        let code = "function Circle(r) { if (r < 0) throw new Error('negative'); this.radius = r; }\n\
                    Circle.prototype.grow = function () { var self = this; [1].forEach(() => { this.grown = true; });\n\
                      function helper() { this.notMine = 1; } this['label'] = 'x'; };";
        let parsed = parse_source(Path::new("/nonexistent/c.js"), "c.js", code.into()).unwrap();
        let all = this_fields(&parsed.program, parsed.source.start_pos.0);
        let ctor = code.find("function Circle").unwrap() as u32;
        let ctor_end = code.find('\n').unwrap() as u32;
        assert_eq!(fields_of_function(&all, ctor, ctor_end), BTreeSet::from(["radius".to_string()]));
        let grow = code.find("function () {").unwrap() as u32;
        let names = fields_of_function(&all, grow, code.len() as u32);
        assert_eq!(names, BTreeSet::from(["grown".to_string(), "label".to_string()]));
    }

    #[test]
    fn finds_methods_called_on_this() {
        let code = "class Heap { push(x) { this.data.push(x); this._up(this.length++); }\n\
                    _up(i) { [1].forEach(() => this['_swap'](i)); this._down.call(this, i); other._no(); \
                      function f() { this._notMine(); } } }";
        let parsed = parse_source(Path::new("/nonexistent/h.js"), "h.js", code.into()).unwrap();
        let all = this_fields(&parsed.program, parsed.source.start_pos.0);
        let push = code.find("push(x)").unwrap() as u32;
        let calls = calls_of_function(&all, push, code.find('\n').unwrap() as u32);
        assert_eq!(calls, BTreeSet::from(["_up".to_string()]));
        let up = code.find("_up(i)").unwrap() as u32;
        let calls = calls_of_function(&all, up, code.len() as u32 - 1);
        assert_eq!(calls, BTreeSet::from(["_down".to_string(), "_swap".to_string()]));
    }

    #[test]
    fn finds_methods_called_on_a_name_holding_this() {
        let code = "function Bag() {}\n\
                    Bag.prototype.addAll = function (xs) { var self = this; xs.forEach(function (x) { self._add(x); });\n\
                      xs.map(function (self) { return self._notMine(); }); function g() { var self = 1; self._no(); } };";
        let parsed = parse_source(Path::new("/nonexistent/b.js"), "b.js", code.into()).unwrap();
        let all = this_fields(&parsed.program, parsed.source.start_pos.0);
        let add_all = code.find("function (xs)").unwrap() as u32;
        let calls = calls_of_function(&all, add_all, code.len() as u32 - 1);
        assert_eq!(calls, BTreeSet::from(["_add".to_string()]));
    }
}
