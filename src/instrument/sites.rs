//! Where values are converted to primitives, indexed by the position QuickJS reports for the conversion.
//!
//! A stack frame's position is the last source position QuickJS recorded in the bytecode before the
//! current instruction. QuickJS-ng records one, in bytecode order:
//!
//! - at every identifier reference (`x`, also as an assignment target or callee);
//! - for a binary operator (arithmetic, comparison, equality, bitwise, shift, `in`, `instanceof`; not
//!   `**`, `&&`, `||`, `??`) at the first token of its right operand, before that operand's own;
//! - for a call, at the first token after `(` (when that token is not a word, the parser's mark stays on
//!   the last word before it: the method name), before the arguments' own;
//! - for `new X`, at `X`; for an expression statement at its start; for `throw` at its operand.
//!
//! So a conversion is reported at the last of those before its instruction: `p * 2` at `2`, `q + p` at
//! `p`, `p++` at `p`, `this.n++` at the start of its statement, `s.charAt(p)` at `p`. [`find`] replays
//! this order over the instrumented tree (probes included: they are expression statements) and files
//! each site under the original offset of that position, which is what [`super::PositionMap`] gives back.
//! Sites sharing an offset are kept innermost first: `p * (q + 1)` reports both `+` and `*` at `1`, and
//! `x <= this.n / 2` both `/` and `<=` at `2`. Each site names its operands that are plain identifiers,
//! so that the conversion of a parameter is filed under the operator that has it as an operand
//! ([`CoercionSites::of`]): `<=` for `x`, not the innermost `/`.

use rustc_hash::FxHashSet;
use swc_atoms::Atom;
use swc_common::{BytePos, Spanned};
use swc_ecma_ast::*;
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::ParsedFile;
use crate::analysis::tables::names_of_tables;
use crate::js::PREFIX;

/// The kind of operation that converts a value to a primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SiteKind {
    /// A binary operator: `+`, `>`, `==`, `<<`, ...
    Binary,
    /// A compound assignment: `+=`, `-=`, ...
    CompoundAssignment,
    /// Unary `-`, `+` or `~` (`!` never converts an object).
    Unary,
    /// `++` or `--`, prefix or postfix.
    Update,
    /// An interpolation `${..}` in an untagged template literal.
    Template,
    /// A computed member key `o[k]`.
    ComputedKey,
    /// A computed member key of a table of names the file binds (`UNITS[k]`; see
    /// [`crate::analysis::tables`]): a string, where `o[k]` alone may as well index an array.
    TableKey,
    /// A call, where a native function converts an argument: `String(p)`, `s.charAt(p)`, `Math.max(p)`.
    Call,
    /// A call of [`NUMBER_TESTS`] whose result is compared strictly with the value it converts
    /// (`parseInt(p) === p`): it asks for a string, but only a number comes back unchanged, so the code
    /// checks for a whole number.
    NumberTest,
}

/// A literal on the other side of a binary operator, which says what the operator expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum LiteralKind {
    /// A number (or bigint) literal, possibly negated.
    Number,
    /// A string literal, or a template without interpolations.
    String,
}

/// One operation that may convert a value to a primitive. A file has about as many as operators and
/// calls: names are atoms (8 bytes, an identifier's shared with the syntax tree), not strings of their own;
/// a bundle of 6 MB held 100 MB of sites as strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CoercionSite {
    /// What kind of operation.
    pub kind: SiteKind,
    /// The literal on the other side of a binary operator or compound assignment.
    pub literal_operand: Option<LiteralKind>,
    /// The operator as written: "+", ">", "+=", "-" (unary), "++", "${}", "[]", or for calls the callee:
    /// "String()", "Math.max()" (a global namespace), ".charAt()" (any other method), "()" (anything else).
    pub operator: Atom,
    /// Its operands (arguments, for calls) that are plain identifiers, by name.
    pub operands: Box<[Atom]>,
}

/// Conversion sites by original byte offset of the position QuickJS reports for them.
#[derive(Debug, Clone)]
pub struct CoercionSites {
    /// Sorted by offset; those at one offset in the order found (innermost first).
    sites: Vec<(u32, CoercionSite)>,
}

impl CoercionSites {
    /// Every site reported at `offset`, innermost first.
    pub(crate) fn all_at(&self, offset: u32) -> impl Iterator<Item = &CoercionSite> {
        let start = self.sites.partition_point(|(at, _)| *at < offset);
        self.sites[start..].iter().take_while(move |(at, _)| *at == offset).map(|(_, site)| site)
    }

    /// The site at `offset` that converted the variable `name`: the innermost with `name` as an operand,
    /// else the innermost (the value may have come through a field or another variable).
    pub(crate) fn of(&self, offset: u32, name: &str) -> Option<&CoercionSite> {
        self.all_at(offset).find(|s| s.operands.iter().any(|o| o == name)).or_else(|| self.all_at(offset).next())
    }
}

/// Replays QuickJS's source positions over the instrumented `program` of `file`.
pub(super) fn find(file: &ParsedFile, program: &Program) -> CoercionSites {
    let mut finder = Finder {
        file,
        last: None,
        sites: Vec::new(),
        tables: names_of_tables(program),
        number_tests: FxHashSet::default(),
    };
    program.visit_with(&mut finder);
    // Stable: sites at one offset keep the order they were found in.
    finder.sites.sort_by_key(|(at, _)| *at);
    finder.sites.shrink_to_fit();
    CoercionSites { sites: finder.sites }
}

/// Namespaces whose functions are named with their object: `Math.max()` rather than `.max()`.
const NAMESPACES: &[&str] = &["Math", "Number", "String", "Object", "Array", "JSON", "Date", "Reflect", "BigInt"];

/// Conversions to a number that ask for a string, and give back unchanged only a whole (or finite) number.
const NUMBER_TESTS: &[&str] = &["parseInt()", "parseFloat()", "Number.parseInt()", "Number.parseFloat()"];

struct Finder<'a> {
    file: &'a ParsedFile,
    /// Original offset of the last position QuickJS recorded, in bytecode order.
    last: Option<u32>,
    sites: Vec<(u32, CoercionSite)>,
    /// The names the file binds to tables of names.
    tables: FxHashSet<String>,
    /// Starts of the calls that are number tests (see [`SiteKind::NumberTest`]), met in comparisons not
    /// yet visited below.
    number_tests: FxHashSet<BytePos>,
}

impl Finder<'_> {
    fn position(&mut self, pos: BytePos) {
        if !pos.is_dummy() {
            self.last = Some(self.file.offset(pos));
        }
    }

    /// The kind of conversion of a computed key of `object`: a table's key, or any object's.
    fn key_of(&self, object: &Expr) -> SiteKind {
        match object {
            Expr::Ident(name) if self.tables.contains(&*name.sym) => SiteKind::TableKey,
            _ => SiteKind::ComputedKey,
        }
    }

    fn record(&mut self, kind: SiteKind, operator: &str, literal_operand: Option<LiteralKind>, operands: Vec<Atom>) {
        if let Some(at) = self.last {
            let site = CoercionSite { kind, literal_operand, operator: operator.into(), operands: operands.into() };
            self.sites.push((at, site));
        }
    }

    /// Each function has its own position table, which starts afresh.
    fn function<N: VisitWith<Self>>(&mut self, node: &N) {
        let outer = self.last.take();
        node.visit_children_with(self);
        self.last = outer;
    }

    fn binary(&mut self, b: &BinExpr) {
        use BinaryOp::*;
        // A comparison rewritten for branch distances compares the operands its helper was given.
        let (left, right) = super::distance::compared(b).unwrap_or((&b.left, &b.right));
        if matches!(b.op, EqEqEq | NotEqEq) {
            for at in [number_test(left, right), number_test(right, left)].into_iter().flatten() {
                self.number_tests.insert(at);
            }
        }
        b.left.visit_with(self);
        if !matches!(b.op, LogicalAnd | LogicalOr | NullishCoalescing | Exp) {
            self.position(start_of(&b.right));
        }
        b.right.visit_with(self);
        if !matches!(b.op, LogicalAnd | LogicalOr | NullishCoalescing | EqEqEq | NotEqEq | In | InstanceOf) {
            let literal = literal_of(right).or_else(|| literal_of(left));
            self.record(SiteKind::Binary, b.op.as_str(), literal, identifiers([left, right]));
        }
    }

    fn assign(&mut self, a: &AssignExpr) {
        let compound = a.op.to_update().is_some() && !a.op.may_short_circuit();
        let computed_key = match &a.left {
            AssignTarget::Simple(SimpleAssignTarget::Member(m)) => match &m.prop {
                MemberProp::Computed(key) if !matches!(*key.expr, Expr::Lit(_)) => Some((m, key)),
                _ => None,
            },
            _ => None,
        };
        match computed_key {
            // A plain store converts its key only when it stores, after the value.
            Some((member, key)) if !compound => {
                member.obj.visit_with(self);
                key.expr.visit_with(self);
                a.right.visit_with(self);
                self.record(self.key_of(&member.obj), "[]", None, identifiers([key.expr.as_ref()]));
            }
            _ => {
                a.left.visit_with(self);
                a.right.visit_with(self);
            }
        }
        if compound {
            let mut operands = identifiers([a.right.as_ref()]);
            if let AssignTarget::Simple(SimpleAssignTarget::Ident(i)) = &a.left {
                operands.push(i.id.sym.clone());
            }
            self.record(SiteKind::CompoundAssignment, a.op.as_str(), literal_of(&a.right), operands);
        }
    }

    fn call(&mut self, kind: SiteKind, callee: Option<&Expr>, callee_word: Option<BytePos>, args: &[ExprOrSpread]) {
        if let Some(callee) = callee {
            callee.visit_with(self);
        }
        match args.first() {
            Some(first) if first.spread.is_none() && self.starts_with_word(&first.expr) => {
                self.position(start_of(&first.expr))
            }
            _ => {
                if let Some(word) = callee_word {
                    self.position(word);
                }
            }
        }
        args.visit_with(self);
        let probe_helper = matches!(callee, Some(Expr::Ident(i)) if i.sym.starts_with(PREFIX));
        if !args.is_empty() && !probe_helper {
            let name = callee.map_or_else(|| "()".to_string(), call_name);
            self.record(
                kind,
                &name,
                None,
                identifiers(args.iter().filter(|a| a.spread.is_none()).map(|a| a.expr.as_ref())),
            );
        }
    }

    /// Whether the expression's first token is a word, which moves QuickJS's mark (numbers, strings and
    /// punctuation do not).
    fn starts_with_word(&self, expr: &Expr) -> bool {
        let pos = start_of(expr);
        !pos.is_dummy()
            && self
                .file
                .text()
                .as_bytes()
                .get(self.file.offset(pos) as usize)
                .is_some_and(|&c| c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b'\\') || c >= 0x80)
    }

    fn template(&mut self, tpl: &Tpl, converts: bool) {
        for expr in &tpl.exprs {
            expr.visit_with(self);
            if converts {
                self.record(SiteKind::Template, "${}", None, identifiers([expr.as_ref()]));
            }
        }
    }
}

impl Visit for Finder<'_> {
    fn visit_function(&mut self, f: &swc_ecma_ast::Function) {
        self.function(f);
    }

    fn visit_arrow_expr(&mut self, a: &ArrowExpr) {
        self.function(a);
    }

    fn visit_constructor(&mut self, c: &Constructor) {
        self.function(c);
    }

    fn visit_class_prop(&mut self, p: &ClassProp) {
        // Field initialisers are compiled into a function of their own.
        self.function(p);
    }

    fn visit_private_prop(&mut self, p: &PrivateProp) {
        self.function(p);
    }

    fn visit_static_block(&mut self, b: &StaticBlock) {
        self.function(b);
    }

    fn visit_expr_stmt(&mut self, s: &ExprStmt) {
        self.position(s.span.lo);
        s.expr.visit_with(self);
    }

    fn visit_throw_stmt(&mut self, s: &ThrowStmt) {
        self.position(start_of(&s.arg));
        s.arg.visit_with(self);
    }

    fn visit_for_stmt(&mut self, s: &ForStmt) {
        s.init.visit_with(self);
        // With a condition, QuickJS moves the update's bytecode after the body.
        if let Some(test) = &s.test {
            test.visit_with(self);
            s.body.visit_with(self);
            s.update.visit_with(self);
        } else {
            s.update.visit_with(self);
            s.body.visit_with(self);
        }
    }

    fn visit_simple_assign_target(&mut self, t: &SimpleAssignTarget) {
        match t {
            SimpleAssignTarget::Ident(i) => self.position(i.id.span.lo),
            _ => t.visit_children_with(self),
        }
    }

    fn visit_member_expr(&mut self, m: &MemberExpr) {
        m.obj.visit_with(self);
        if let MemberProp::Computed(key) = &m.prop {
            key.expr.visit_with(self);
            if !matches!(*key.expr, Expr::Lit(_)) {
                self.record(self.key_of(&m.obj), "[]", None, identifiers([key.expr.as_ref()]));
            }
        }
    }

    fn visit_opt_call(&mut self, c: &OptCall) {
        self.call(SiteKind::Call, Some(&c.callee), last_word(&c.callee), &c.args);
    }

    fn visit_expr(&mut self, e: &Expr) {
        match e {
            Expr::Ident(i) => self.position(i.span.lo),
            Expr::Bin(b) => self.binary(b),
            Expr::Assign(a) => self.assign(a),
            Expr::Unary(u) => {
                u.arg.visit_with(self);
                // `-1` is a literal operand, not a conversion that could shadow the operator around it.
                if matches!(u.op, UnaryOp::Minus | UnaryOp::Plus | UnaryOp::Tilde) && !matches!(*u.arg, Expr::Lit(_)) {
                    self.record(SiteKind::Unary, u.op.as_str(), None, identifiers([u.arg.as_ref()]));
                }
            }
            Expr::Update(u) => {
                u.arg.visit_with(self);
                self.record(SiteKind::Update, u.op.as_str(), None, identifiers([u.arg.as_ref()]));
            }
            Expr::Tpl(t) => self.template(t, true),
            Expr::TaggedTpl(t) => {
                t.tag.visit_with(self);
                self.template(&t.tpl, false);
            }
            Expr::Call(c) => match &c.callee {
                Callee::Expr(callee) => {
                    let kind = if self.number_tests.remove(&c.span.lo) { SiteKind::NumberTest } else { SiteKind::Call };
                    self.call(kind, Some(callee), last_word(callee), &c.args)
                }
                Callee::Super(s) => self.call(SiteKind::Call, None, Some(s.span.lo), &c.args),
                Callee::Import(i) => self.call(SiteKind::Call, None, Some(i.span.lo), &c.args),
            },
            Expr::New(n) => {
                self.position(start_of(&n.callee));
                n.callee.visit_with(self);
                if let Some(args) = &n.args {
                    self.call(SiteKind::Call, None, last_word(&n.callee), args);
                }
            }
            _ => e.visit_children_with(self),
        }
    }
}

/// Where an expression's first token is, looking through synthetic (spanless) probe wrappers.
fn start_of(expr: &Expr) -> BytePos {
    let span = expr.span();
    if !span.is_dummy() {
        return span.lo;
    }
    match expr {
        Expr::Call(CallExpr { callee: Callee::Expr(callee), .. }) => start_of(callee),
        Expr::Paren(p) => start_of(&p.expr),
        Expr::Seq(s) => s.exprs.first().map_or(span.lo, |e| start_of(e)),
        Expr::Assign(AssignExpr { left: AssignTarget::Simple(SimpleAssignTarget::Member(m)), .. })
        | Expr::Member(m) => start_of(&m.obj),
        _ => span.lo,
    }
}

/// The last word of a callee, where QuickJS's mark rests when the token after `(` is not a word.
fn last_word(callee: &Expr) -> Option<BytePos> {
    match callee {
        Expr::Ident(i) => Some(i.span.lo),
        Expr::Member(MemberExpr { prop: MemberProp::Ident(p), .. }) => Some(p.span.lo),
        Expr::Paren(p) => last_word(&p.expr),
        _ => None,
    }
}

/// The names of the operands that are plain identifiers, looking through parentheses.
fn identifiers<'e>(operands: impl IntoIterator<Item = &'e Expr>) -> Vec<Atom> {
    fn name(expr: &Expr) -> Option<Atom> {
        match expr {
            Expr::Ident(i) => Some(i.sym.clone()),
            Expr::Paren(p) => name(&p.expr),
            _ => None,
        }
    }
    operands.into_iter().filter_map(name).collect()
}

fn literal_of(expr: &Expr) -> Option<LiteralKind> {
    match expr {
        Expr::Lit(Lit::Num(_) | Lit::BigInt(_)) => Some(LiteralKind::Number),
        Expr::Lit(Lit::Str(_)) => Some(LiteralKind::String),
        Expr::Tpl(t) if t.exprs.is_empty() => Some(LiteralKind::String),
        Expr::Unary(u) if matches!(u.op, UnaryOp::Minus | UnaryOp::Plus) => {
            matches!(*u.arg, Expr::Lit(Lit::Num(_) | Lit::BigInt(_))).then_some(LiteralKind::Number)
        }
        Expr::Paren(p) => literal_of(&p.expr),
        _ => None,
    }
}

/// The start of `call` when it is a call of [`NUMBER_TESTS`] whose first argument is the identifier `value`.
fn number_test(call: &Expr, value: &Expr) -> Option<BytePos> {
    let (Expr::Call(call), Expr::Ident(value)) = (call.unwrap_parens(), value.unwrap_parens()) else {
        return None;
    };
    let Callee::Expr(callee) = &call.callee else { return None };
    let first = call.args.first().filter(|a| a.spread.is_none())?;
    let same = matches!(first.expr.unwrap_parens(), Expr::Ident(arg) if arg.sym == value.sym);
    (same && NUMBER_TESTS.contains(&call_name(callee).as_str())).then_some(call.span.lo)
}

fn call_name(callee: &Expr) -> String {
    match callee {
        Expr::Ident(i) => format!("{}()", i.sym),
        Expr::Member(MemberExpr { obj, prop: MemberProp::Ident(p), .. }) => match &**obj {
            Expr::Ident(o) if NAMESPACES.contains(&&*o.sym) => format!("{}.{}()", o.sym, p.sym),
            _ => format!(".{}()", p.sym),
        },
        Expr::Paren(p) => call_name(&p.expr),
        _ => "()".to_string(),
    }
}
