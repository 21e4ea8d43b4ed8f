//! Mutant schemata: one program that carries every mutant, each switched on by its id.
//!
//! Judging a mutant by building its own program costs a parse, an instrumentation, a compilation and a
//! load of the mutated file each time. Untch, Offutt and Harrold's mutant schemata (ISSTA 1993), as
//! StrykerJS does them, print every mutant into one copy of each file, where each mutated spot reads the
//! active mutant: `(__fc$mut === 17 ? (a - b) : (a + b))` for an expression, `{ if (__fc$mut !== 18) stmt }`
//! for a deleted statement. That program is loaded once ([`Schemata::build`]) and a test runs under
//! mutant `k` once the switch holds `k` ([`crate::sandbox::Sandbox::set_mutant`]).
//!
//! A mutated copy holds the original text of everything inside it, so inner spots switch only inside
//! the original's branch; nested mutants never combine. The spots read a plain global and make no call,
//! so a test does the same work under a switched mutant as on the mutant's own program, and the work
//! limit judges both alike. A function body holding spots (and no function of its own) also runs as
//! written behind a gate unless one of its mutants is on ([`print_gate`]), so that the spots cost
//! nothing under every other mutant.
//!
//! Some mutants cannot be switched, and are judged on their own program as before (never mis-scored):
//!
//! - static ones: a context loads the program with the switch at 0, so a mutant whose code runs while
//!   the program loads (a constructor a static field or a module-level constant calls, a method the top
//!   level calls) would be loaded as the original. The statements the original ran at load say which
//!   ([`Loaded`]); a mutant outside every probed statement counts as one.
//! - those whose text, glued to what surrounds it, reads otherwise than in parentheses: an operator of
//!   another precedence next to other operators (`a & b ^ c` made `a | b ^ c`), a replacement that
//!   joins a neighbouring token (`return!0` made `return0`, `1..toString()` made `2.toString()`), a
//!   literal that is a directive or the specifier of a `require`. Their own program is what was always
//!   judged.
//! - every mutant of a file whose schema does not parse, or of a program whose schema does not load.

use std::collections::{HashMap, HashSet};

use swc_common::Spanned;
use swc_ecma_ast::{BinExpr, BinaryOp, CallExpr, Callee, Decl, Expr, ExprStmt, FunctionBody, Lit, Stmt};
use swc_ecma_visit::{Visit, VisitWith};

use super::operators::{Edit, Operator};
use super::{Mutant, Originals};
use crate::analysis::parse::{ParsedFile, parse_source};
use crate::error::{Error, Result};
use crate::js::MUTANT;
use crate::session::{Runner, Subject};

/// The program of mutant schemata of an analysis, and which mutants it switches.
pub(super) struct Schemata {
    /// The runner of the program, while no mutant borrows it (see [`Schemata::take`]).
    runner: Option<Box<Runner>>,
    /// Per mutant (by index in the analysis), its switch id, or `None` when it is judged on its own
    /// program.
    switches: Vec<Option<u32>>,
}

/// The statements the original program ran while it loaded. Binding its classes may run more (a
/// factory's, called to learn its instances' prototype); those are not here: a context binds them with no
/// mutant on, so a mutant of them is switched as any other.
pub(super) type Loaded = HashSet<u32>;

impl Schemata {
    /// No schemata: every mutant is judged on its own program.
    pub(super) fn none(count: usize) -> Schemata {
        Schemata { runner: None, switches: vec![None; count] }
    }

    /// Prints the schemata of every file holding `mutants` and loads them beside the original (see the
    /// module documentation for the mutants left out). A schema that does not parse, or a program that
    /// does not load, leaves its mutants to their own programs. Without `switching` (the settings'
    /// [`mutant_switching`](crate::model::settings::Settings::mutant_switching), off to compare the two
    /// paths) every mutant gets its own program.
    pub(super) fn build(
        subject: &Subject,
        originals: &Originals,
        mutants: &[Mutant],
        switching: bool,
    ) -> Result<Schemata> {
        let mut schemata = Schemata::none(mutants.len());
        if !switching {
            return Ok(schemata);
        }
        let mut code: Option<crate::sandbox::CodeBase> = None;
        for file in 0..subject.code().files.len() {
            let parsed = &subject.code().files[file].entry.parsed;
            let candidates: Vec<(usize, &Mutant)> = mutants
                .iter()
                .enumerate()
                .filter(|(_, m)| m.file == file && m.statement.is_some_and(|s| !originals.loaded.contains(&s)))
                .collect();
            if candidates.is_empty() {
                continue;
            }
            let context = Context::of(parsed);
            let spots: Vec<Spot> = candidates
                .iter()
                .filter_map(|(index, m)| context.spot(parsed.text(), &m.edit, *index as u32 + 1))
                .collect();
            let (text, placed) = print(parsed.text(), spots, &context);
            match parse_source(&parsed.path, &parsed.display, text) {
                Ok(schema) if schema.kind == parsed.kind && !placed.is_empty() => {
                    code = Some(code.as_ref().unwrap_or(subject.code()).with_file(file, schema));
                    for id in placed {
                        schemata.switches[id as usize - 1] = Some(id);
                    }
                }
                _ => {}
            }
        }
        let Some(code) = code else { return Ok(schemata) };
        let mut runner = match originals.runner.beside(&code) {
            Ok(runner) => runner,
            Err(Error::Load { .. }) => return Ok(Schemata::none(mutants.len())),
            Err(e) => return Err(e),
        };
        if runner.bind_classes(&originals.expressions).is_err() {
            return Ok(Schemata::none(mutants.len()));
        }
        runner.keep_loaded_for_tests_alone();
        schemata.runner = Some(Box::new(runner));
        Ok(schemata)
    }

    /// The switch id of mutant `index`, when the schemata carry it.
    pub(super) fn switch(&self, index: usize) -> Option<u32> {
        self.switches.get(index).copied().flatten()
    }

    /// The runner of the schemata, switched to mutant `id`, lent until [`Schemata::give_back`].
    pub(super) fn take(&mut self, id: u32) -> Option<Box<Runner>> {
        let mut runner = self.runner.take()?;
        runner.set_mutant(id);
        Some(runner)
    }

    /// Takes back the runner lent by [`Schemata::take`], switched back to the original.
    pub(super) fn give_back(&mut self, mut runner: Box<Runner>) {
        runner.set_mutant(0);
        self.runner = Some(runner);
    }
}

/// What a spot does when its mutant is active.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Not a mutant: a function body holding spots, which runs as written unless one of its mutants is
    /// on (see [`print_gate`]).
    Gate,
    /// The statement is not run (a deletion).
    Skipped,
    /// The expression is replaced by the mutated text.
    Replaced(String),
}

/// One mutant's place in the schema: a whole expression (or statement) of the original text, and what
/// its mutant makes of it.
#[derive(Debug, Clone)]
struct Spot {
    start: u32,
    end: u32,
    id: u32,
    kind: Kind,
}

/// What the syntax tree says about where spots may go.
#[derive(Default)]
struct Context {
    /// Per binary expression (its byte range), the operators of its operands that are binary
    /// expressions themselves, unparenthesised.
    operands: HashMap<(u32, u32), (Option<BinaryOp>, Option<BinaryOp>)>,
    /// Per binary expression that is an unparenthesised operand of another, that one's operator and
    /// whether it is the left operand.
    parents: HashMap<(u32, u32), (BinaryOp, bool)>,
    /// String literals that must stay as written: directives (and any string statement), `require`
    /// and `import()` specifiers.
    fixed: HashSet<(u32, u32)>,
    /// Where expression statements start: a `(` put there would continue the statement before it when
    /// that one ends without a semicolon.
    statement_starts: HashSet<u32>,
    /// The function bodies that may be gated (see [`print_gate`]): from after their directives to
    /// their closing brace. Those declaring a function or class at their top level are left out (in a
    /// block, such a declaration is scoped otherwise), and so are those holding any function: one made
    /// while another mutant was on (at load, by a method that ran at load) would keep the body as
    /// written, and its mutants would silently not run.
    bodies: Vec<(u32, u32)>,
    /// Every function body (and arrow function's expression body), with whether it holds a loop of its
    /// own (see [`Context::loops_around`]).
    functions: Vec<Function>,
    /// Whether the file's top level, outside every function, holds a loop.
    top_loops: bool,
}

/// A function's body: its byte range, and whether a loop of its own is in it (one of a function nested
/// in it is that function's).
struct Function {
    range: (u32, u32),
    loops: bool,
}

struct Collector<'a> {
    file: &'a ParsedFile,
    found: Context,
}

impl Collector<'_> {
    fn range(&self, span: swc_common::Span) -> (u32, u32) {
        (self.file.offset(span.lo), self.file.offset(span.hi))
    }
}

fn binary(expr: &Expr) -> Option<&BinExpr> {
    match expr {
        Expr::Bin(b) => Some(b),
        _ => None,
    }
}

/// Whether a loop is found outside every function body (visit a body's statements, not the body).
struct Loops(bool);

impl Visit for Loops {
    fn visit_function_body(&mut self, _: &FunctionBody) {}

    fn visit_while_stmt(&mut self, _: &swc_ecma_ast::WhileStmt) {
        self.0 = true;
    }

    fn visit_do_while_stmt(&mut self, _: &swc_ecma_ast::DoWhileStmt) {
        self.0 = true;
    }

    fn visit_for_stmt(&mut self, _: &swc_ecma_ast::ForStmt) {
        self.0 = true;
    }

    fn visit_for_in_stmt(&mut self, _: &swc_ecma_ast::ForInStmt) {
        self.0 = true;
    }

    fn visit_for_of_stmt(&mut self, _: &swc_ecma_ast::ForOfStmt) {
        self.0 = true;
    }
}

/// Whether a function-like node is found.
struct Nested(bool);

impl Visit for Nested {
    fn visit_function(&mut self, _: &swc_ecma_ast::Function) {
        self.0 = true;
    }

    fn visit_arrow_expr(&mut self, _: &swc_ecma_ast::ArrowExpr) {
        self.0 = true;
    }

    fn visit_class(&mut self, _: &swc_ecma_ast::Class) {
        self.0 = true;
    }
}

impl Collector<'_> {
    /// Records `body` as a body that may be gated.
    fn body(&mut self, body: &FunctionBody) {
        // A body TypeScript's transform wrote (an enum's or a namespace's function) has no text of its
        // own to gate: it holds no mutant either.
        if body.span.is_dummy() {
            return;
        }
        let mut loops = Loops(false);
        body.stmts.visit_with(&mut loops);
        self.found.functions.push(Function { range: self.range(body.span), loops: loops.0 });
        let declares = body.stmts.iter().any(|s| matches!(s, Stmt::Decl(Decl::Fn(_) | Decl::Class(_))));
        let mut nested = Nested(false);
        body.stmts.visit_with(&mut nested);
        if declares || nested.0 {
            return;
        }
        let directives =
            body.stmts.iter().take_while(|s| matches!(s, Stmt::Expr(e) if matches!(&*e.expr, Expr::Lit(Lit::Str(_)))));
        let start = directives.last().map_or(self.file.offset(body.span.lo) + 1, |d| self.file.offset(d.span().hi));
        let end = self.file.offset(body.span.hi) - 1;
        if start < end {
            self.found.bodies.push((start, end));
        }
    }
}

impl Visit for Collector<'_> {
    fn visit_function_body(&mut self, body: &FunctionBody) {
        self.body(body);
        body.visit_children_with(self);
    }

    fn visit_arrow_expr(&mut self, arrow: &swc_ecma_ast::ArrowExpr) {
        // An expression body holds no loop of its own.
        if let swc_ecma_ast::ArrowFunctionBody::Expr(expr) = &*arrow.body
            && !expr.span().is_dummy()
        {
            self.found.functions.push(Function { range: self.range(expr.span()), loops: false });
        }
        arrow.visit_children_with(self);
    }

    fn visit_bin_expr(&mut self, e: &BinExpr) {
        let (left, right) = (binary(&e.left), binary(&e.right));
        self.found.operands.insert(self.range(e.span), (left.map(|b| b.op), right.map(|b| b.op)));
        for (child, is_left) in [(left, true), (right, false)] {
            if let Some(child) = child {
                self.found.parents.insert(self.range(child.span), (e.op, is_left));
            }
        }
        e.visit_children_with(self);
    }

    fn visit_expr_stmt(&mut self, s: &ExprStmt) {
        self.found.statement_starts.insert(self.file.offset(s.span.lo));
        if let Expr::Lit(Lit::Str(lit)) = &*s.expr {
            self.found.fixed.insert(self.range(lit.span));
        }
        s.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, c: &CallExpr) {
        let loads = match &c.callee {
            Callee::Import(_) => true,
            Callee::Expr(callee) => matches!(&**callee, Expr::Ident(i) if &*i.sym == "require"),
            Callee::Super(_) => false,
        };
        if loads && let Some(Expr::Lit(Lit::Str(lit))) = c.args.first().map(|a| &*a.expr) {
            self.found.fixed.insert(self.range(lit.span));
        }
        c.visit_children_with(self);
    }
}

/// Binding strength of a binary operator: higher binds tighter.
fn precedence(op: &str) -> u8 {
    match op {
        "??" | "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" | "===" | "!==" => 6,
        "<" | ">" | "<=" | ">=" | "in" | "instanceof" => 7,
        "<<" | ">>" | ">>>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => 11,
    }
}

/// Operators that do not mix freely: `??` with `||` and `&&`, and right-associative `**`.
fn unusual(op: &str) -> bool {
    op == "??" || op == "**"
}

impl Context {
    fn of(file: &ParsedFile) -> Context {
        let mut collector = Collector { file, found: Context::default() };
        file.program.visit_with(&mut collector);
        let mut loops = Loops(false);
        file.program.visit_with(&mut loops);
        collector.found.top_loops = loops.0;
        collector.found
    }

    /// Whether the code around `edit` loops within its own function (or at the top level, outside
    /// every function): a mutant there keeps its own program. Under its switch that function runs with
    /// its spots' checks, and a loop of its own would run them on every turn: a test that ends within
    /// the time limit on the mutant's own program could end past it on the schemata (the equivalence
    /// check's random tests that count to large numbers did, and a mutant presumed equivalent
    /// survived). A loop of a function around it, or of one nested in it, runs no check of its
    /// function: a call of it from a loop costs its checks once per call, as any function called in a
    /// loop does. (Every mutant of a file whose module wrapper held a loop anywhere, all of big.js's,
    /// kept its own program while any loop of an enclosing body counted.)
    fn loops_around(&self, edit: &Edit) -> bool {
        let inside = |f: &&Function| f.range.0 <= edit.start && edit.end <= f.range.1;
        // Bodies nest: the innermost one holding the edit starts last.
        match self.functions.iter().filter(inside).max_by_key(|f| f.range.0) {
            Some(function) => function.loops,
            None => self.top_loops,
        }
    }

    /// Where `edit` goes in the schema as mutant `id`, or `None` when its own program must judge it.
    fn spot(&self, text: &str, edit: &Edit, id: u32) -> Option<Spot> {
        if self.loops_around(edit) {
            return None;
        }
        let (start, end) = match edit.operator {
            Operator::Deletion => return Some(Spot { start: edit.start, end: edit.end, id, kind: Kind::Skipped }),
            Operator::Decision => (edit.start, edit.end),
            _ => edit.context,
        };
        if !(start <= edit.start && edit.end <= end) || self.fixed.contains(&(edit.start, edit.end)) {
            return None;
        }

        if joins(text, edit.start, edit.end, &edit.replacement) {
            return None;
        }
        let mutated = format!(
            "{}{}{}",
            text.get(start as usize..edit.start as usize)?,
            edit.replacement,
            text.get(edit.end as usize..end as usize)?
        );
        if joins(text, start, end, &mutated) || self.starts_another_statement(start, &mutated) {
            return None;
        }
        if matches!(edit.operator, Operator::Arithmetic | Operator::Relational | Operator::Equality | Operator::Logical)
            && !self.keeps_grouping((start, end), text.get(edit.start as usize..edit.end as usize)?, &edit.replacement)
        {
            return None;
        }
        Some(Spot { start, end, id, kind: Kind::Replaced(mutated) })
    }

    /// Whether `mutated`, put where an expression statement starts, would be read as another kind of
    /// statement (`!function () {}()` made `function () {}()`, a declaration that does not parse).
    fn starts_another_statement(&self, start: u32, mutated: &str) -> bool {
        let word = mutated.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).next().unwrap_or("");
        self.statement_starts.contains(&start)
            && (mutated.starts_with('{') || matches!(word, "function" | "class" | "let" | "async"))
    }

    /// Whether the binary expression at `range` with operator `from` made `to` groups with its
    /// operands and its parent as before, read as the mutant's own text is read.
    fn keeps_grouping(&self, range: (u32, u32), from: &str, to: &str) -> bool {
        let Some(&(left, right)) = self.operands.get(&range) else { return false };
        let parent = self.parents.get(&range).copied();
        let neighbours = left.is_some() || right.is_some() || parent.is_some();
        let (new, old) = (precedence(to), precedence(from));
        if unusual(from) || unusual(to) {
            return !neighbours;
        }
        if new == old {
            return true;
        }
        let fits_left = left.is_none_or(|op| !unusual(op.as_str()) && precedence(op.as_str()) >= new);
        let fits_right = right.is_none_or(|op| !unusual(op.as_str()) && precedence(op.as_str()) > new);
        let fits_parent = parent.is_none_or(|(op, is_left)| {
            let outer = precedence(op.as_str());
            !unusual(op.as_str()) && if is_left { new >= outer } else { new > outer }
        });
        fits_left && fits_right && fits_parent
    }
}

/// Whether `replacement`, put at `start..end` of `text`, would join the character before or after it
/// into another token (`return!0` made `return0`, `a+-b` made `a--b`): the mutant's own program reads
/// it so, a schema's parentheses would not.
fn joins(text: &str, start: u32, end: u32, replacement: &str) -> bool {
    let before = text.get(..start as usize).and_then(|t| t.chars().next_back());
    let after = text.get(end as usize..).and_then(|t| t.chars().next());
    let (first, last) = (replacement.chars().next(), replacement.chars().next_back());
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || !c.is_ascii();
    let operator = |c: char| "+-*/%&|^!~<>=?.:".contains(c);
    let glued = |a: Option<char>, b: Option<char>| match (a, b) {
        (Some(a), Some(b)) => (word(a) && word(b)) || (operator(a) && operator(b)) || (word(a) && b == '.'),
        _ => false,
    };
    glued(before, first) || glued(last, after)
}

/// A spot and the spots inside it.
struct Node {
    spot: Spot,
    inner: Vec<Node>,
}

/// The schema of `text` with `spots`, and the ids of those placed: a spot that overlaps another
/// without holding it or lying inside it is left out.
fn print(text: &str, mut spots: Vec<Spot>, context: &Context) -> (String, Vec<u32>) {
    spots.extend(context.bodies.iter().map(|&(start, end)| Spot { start, end, id: 0, kind: Kind::Gate }));
    // Outer before inner; at one range a gate, then a statement, then the expression that is all of
    // it, and then the mutants in source order.
    let rank = |kind: &Kind| match kind {
        Kind::Gate => 0,
        Kind::Skipped => 1,
        Kind::Replaced(_) => 2,
    };
    spots.sort_by(|a, b| {
        (a.start, std::cmp::Reverse(a.end), rank(&a.kind), a.id).cmp(&(
            b.start,
            std::cmp::Reverse(b.end),
            rank(&b.kind),
            b.id,
        ))
    });
    let starts = &context.statement_starts;
    let mut roots: Vec<Node> = Vec::new();
    let mut placed = Vec::new();
    for spot in spots {
        let id = spot.id;
        if insert(&mut roots, spot) && id > 0 {
            placed.push(id);
        }
    }
    let mut out = String::with_capacity(text.len() * 2);
    print_range(text, 0, text.len() as u32, &roots, starts, &mut out);
    (out, placed)
}

/// Puts `spot` in the tree of `nodes` (sorted as [`print`] sorts): false when it overlaps a node
/// without nesting.
fn insert(nodes: &mut Vec<Node>, spot: Spot) -> bool {
    match nodes.last_mut() {
        Some(last) if spot.start >= last.spot.end => {}
        Some(last) if spot.end <= last.spot.end => {
            // Inside `last` (sorting puts a spot that holds `last` before it).
            let same_expression = (spot.start, spot.end) == (last.spot.start, last.spot.end)
                && matches!((&spot.kind, &last.spot.kind), (Kind::Replaced(_), Kind::Replaced(_)));
            if same_expression {
                // Another mutant of the same expression: one more alternative of the same spot.
                nodes.push(Node { spot, inner: Vec::new() });
                return true;
            }
            return insert(&mut last.inner, spot);
        }
        Some(_) => return false,
        None => {}
    }
    nodes.push(Node { spot, inner: Vec::new() });
    true
}

/// Prints `text[from..to]` with the spots of `nodes` (inside that range, in order) switched.
fn print_range(text: &str, from: u32, to: u32, nodes: &[Node], starts: &HashSet<u32>, out: &mut String) {
    let mut at = from;
    let mut i = 0;
    while i < nodes.len() {
        let node = &nodes[i];
        out.push_str(&text[at as usize..node.spot.start as usize]);
        // The alternatives of one expression are siblings with one range: they share one switch.
        let mut j = i + 1;
        while j < nodes.len() && (nodes[j].spot.start, nodes[j].spot.end) == (node.spot.start, node.spot.end) {
            j += 1;
        }
        print_spot(text, &nodes[i..j], starts, out);
        at = node.spot.end;
        i = j;
    }
    out.push_str(&text[at as usize..to as usize]);
}

/// Prints one spot with its alternatives (`nodes`, one range); the original text inside it keeps its
/// own spots, which the last alternative holds.
fn print_spot(text: &str, nodes: &[Node], starts: &HashSet<u32>, out: &mut String) {
    let (start, end) = (nodes[0].spot.start, nodes[0].spot.end);
    let inner = &nodes[nodes.len() - 1].inner;
    match &nodes[0].spot.kind {
        Kind::Gate => print_gate(text, &nodes[0], starts, out),
        Kind::Skipped => {
            // A block, so that an `else` after it stays the outer `if`'s; the line break ends a statement
            // that has no semicolon.
            out.push_str(&format!("{{ if ({MUTANT} !== {}) ", nodes[0].spot.id));
            print_range(text, start, end, inner, starts, out);
            out.push_str("\n}");
        }
        Kind::Replaced(_) => {
            if starts.contains(&start) {
                // A statement that starts with `(` would be read as a call of the line before it.
                out.push_str(&format!("{MUTANT}, "));
            }
            out.push('(');
            for node in nodes {
                if let Kind::Replaced(mutated) = &node.spot.kind {
                    out.push_str(&format!("{MUTANT} === {} ? ({mutated}) : ", node.spot.id));
                }
            }
            out.push('(');
            print_range(text, start, end, inner, starts, out);
            out.push_str("))");
        }
    }
}

/// Prints a function body that holds spots behind a gate: the body as written runs unless one of its
/// mutants is on, so that code under test runs at its own speed under every other mutant (the spots
/// of a loop of a big-number library otherwise cost more than its arithmetic). Ids in the gate's range
/// that are another function's only cost that function's speed. The gate is a conditional, as the
/// spots are: no call, so the work a test does stays the same.
fn print_gate(text: &str, node: &Node, starts: &HashSet<u32>, out: &mut String) {
    let (start, end) = (node.spot.start, node.spot.end);
    let mut ids = Vec::new();
    let mut stack: Vec<&Node> = node.inner.iter().collect();
    while let Some(n) = stack.pop() {
        if n.spot.id > 0 {
            ids.push(n.spot.id);
        }
        stack.extend(n.inner.iter());
    }
    let (Some(lo), Some(hi)) = (ids.iter().min(), ids.iter().max()) else {
        print_range(text, start, end, &node.inner, starts, out);
        return;
    };
    out.push_str(&format!("if ({MUTANT} >= {lo} ? {MUTANT} > {hi} : true) {{"));
    out.push_str(&text[start as usize..end as usize]);
    out.push_str("\n} else {");
    print_range(text, start, end, &node.inner, starts, out);
    out.push_str("\n}");
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::mutate::operators::edits;

    /// The schema of `source` with every edit of its functions, and how many edits it switches.
    fn schema(source: &str) -> (String, usize, usize) {
        let file = parse_source(Path::new("/m.js"), "m.js", source.to_string()).unwrap();
        let all = edits(&file, &[(0, source.len() as u32)]);
        let context = Context::of(&file);
        let spots: Vec<Spot> =
            all.iter().enumerate().filter_map(|(i, e)| context.spot(source, e, i as u32 + 1)).collect();
        let (text, placed) = print(source, spots, &context);
        parse_source(Path::new("/s.js"), "s.js", text.clone()).expect("the schema parses");
        (text, placed.len(), all.len())
    }

    #[test]
    fn every_mutant_of_plain_code_is_switched_and_the_schema_parses() {
        let (text, placed, all) =
            schema("function f(a, b) { if (a < b) { a++; } else b = -b\n a += 1\n return a === 0 ? 'x' : b * 2; }");
        assert_eq!(placed, all, "{text}");
        assert!(text.contains(&format!("{MUTANT} === ")), "{text}");
        assert!(text.contains(&format!("{{ if ({MUTANT} !== ")), "{text}");
        // A statement that starts a line after one without a semicolon does not become a call of it.
        assert!(text.contains(&format!("{MUTANT}, ({MUTANT} === ")), "{text}");
    }

    #[test]
    fn mutants_that_read_otherwise_glued_to_their_neighbours_are_left_to_their_own_programs() {
        // `!0` made `0` after `return`, `+` made `-` before `-b`, a directive, a `require` specifier, a
        // function expression that would start a statement, `&` made `|` under `^`: each one's own program
        // reads it otherwise than a schema would.
        for (source, text) in [
            ("function f() { return!0 }", "!0"),
            ("function f(a, b) { return a+-b }", "+"),
            ("function f() { 'use strict'; return 1 }", "'use strict'"),
            ("function f() { return require('x') }", "'x'"),
            ("function f() { !function () {}(); }", "!function () {}()"),
        ] {
            let file = parse_source(Path::new("/m.js"), "m.js", source.to_string()).unwrap();
            let context = Context::of(&file);
            let at = source.find(text).unwrap() as u32;
            let all = edits(&file, &[(0, source.len() as u32)]);
            let edit = all.iter().find(|e| e.start == at && e.end == at + text.len() as u32).expect(text);
            assert!(context.spot(source, edit, 1).is_none(), "{source}: {edit:?}");
        }
        let source = "function f(a, b, c) { return a & b ^ c }";
        let file = parse_source(Path::new("/m.js"), "m.js", source.to_string()).unwrap();
        let context = Context::of(&file);
        let all = edits(&file, &[(0, source.len() as u32)]);
        let and = all.iter().find(|e| e.replacement == "|").unwrap();
        assert!(context.spot(source, and, 1).is_none());
        // `^` made `&` under nothing, over `a & b`: `a & b & c` groups as `(a & b) & c`, as in the schema.
        let xor = all.iter().find(|e| e.replacement == "&").unwrap();
        assert!(context.spot(source, xor, 2).is_some());
    }

    #[test]
    fn mutants_in_code_the_load_runs_are_left_to_their_own_programs() {
        use crate::model::settings::Settings;
        use crate::mutate::mutants::create_mutants;
        use crate::session::{Session, SessionOptions};
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/static-mutants.js");
        let options = SessionOptions { files: vec![file], ..Default::default() };
        let session = Session::new(&options, Settings::default()).unwrap();
        let subject = session.subject();
        let mutants = create_mutants(subject, session.methods(), &[], true);
        let originals = Originals::new(subject, &session.settings().limits).unwrap();
        let schemata = Schemata::build(subject, &originals, &mutants, true).unwrap();
        // The constructor (a static field's instance), `plus` and the `factor === 0` part of `scaled` (a
        // module-level constant) ran at load; the rest of `scaled`, `converted` and `isFree` did not.
        for (index, mutant) in mutants.iter().enumerate() {
            let at_load = match mutant.method.as_str() {
                "constructor" | "plus" => true,
                "scaled" => mutant.line < 23,
                _ => false,
            };
            assert_eq!(
                schemata.switch(index).is_none(),
                at_load,
                "{}:{} {:?}",
                mutant.method,
                mutant.line,
                mutant.edit
            );
        }
        let methods: HashSet<&str> = mutants.iter().map(|m| m.method.as_str()).collect();
        assert_eq!(methods, HashSet::from(["constructor", "plus", "scaled", "converted", "isFree"]));
    }

    #[test]
    fn only_a_loop_of_its_own_function_keeps_a_mutant_on_its_own_program() {
        // The wrapper loops, and so does the callback inside `sum`: neither is `plus`'s loop nor `sum`'s
        // own code's, whose mutants are switched. `count` loops itself, and so does the wrapper's top.
        let source = "(function () {\n var t = 0; for (var i = 0; i < 3; i++) t = t + i;\n \
                      P.plus = function (a) { return a + t; };\n \
                      P.sum = function (xs) { return xs.map(function (x) { while (x > 9) x = x - 9; return x; }).length > 0; };\n \
                      P.count = function (n) { var c = 0; do { c++; } while (c < n); return c * 2; };\n \
                      P.half = (x) => x / 2;\n})();";
        let file = parse_source(Path::new("/m.js"), "m.js", source.to_string()).unwrap();
        let context = Context::of(&file);
        let all = edits(&file, &[(0, source.len() as u32)]);
        let range = |from: &str, to: &str| {
            let start = source.find(from).unwrap();
            start as u32..(start + source[start..].find(to).unwrap() + to.len()) as u32
        };
        let inside = |r: &std::ops::Range<u32>, e: &Edit| r.start <= e.start && e.end <= r.end;
        let wrapper = range("{\n var t", "\n}");
        let callback = range("{ while", "return x; }");
        let switching = [range("{ return a", "}"), range("{ return xs", "}).length > 0; }"), range("x / 2", "2")];
        let looping = [callback.clone(), range("{ var c", "c * 2; }")];
        let mut seen = [0; 5];
        for (i, edit) in all.iter().enumerate() {
            // The wrapper's own code loops; the statement calling it is the file's top level, which does not.
            let own_loop = looping.iter().any(|r| inside(r, edit))
                || (inside(&wrapper, edit) && !switching.iter().any(|r| inside(r, edit)));
            let switched = context.spot(source, edit, i as u32 + 1).is_some();
            assert_eq!(switched, !own_loop, "{:?} in {source}", &source[edit.start as usize..edit.end as usize]);
            // Each kind of place holds a mutant: the wrapper's top, `plus`, `sum`, its callback, `count`.
            let place = [
                inside(&wrapper, edit) && !switching.iter().chain(&looping).any(|r| inside(r, edit)),
                inside(&switching[0], edit),
                inside(&switching[1], edit) && !inside(&callback, edit),
                inside(&callback, edit),
                inside(&looping[1], edit),
            ];
            for (n, is) in place.iter().enumerate() {
                seen[n] += usize::from(*is);
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn only_bodies_without_functions_inside_are_gated() {
        // The callback runs at load and makes the method: behind a gate, the method would be made from
        // the body as written, without its spots.
        let source = "[1].forEach(function (u) { X.prototype.f = function (a) { return a + u; }; });";
        let (text, placed, all) = schema(source);
        assert_eq!(placed, all);
        assert_eq!(text.matches(&format!("if ({MUTANT} >= ")).count(), 1, "{text}");
        assert!(text.contains(&format!("X.prototype.f = function (a) {{if ({MUTANT} >= ")), "{text}");
    }

    #[test]
    fn nested_mutants_switch_inside_the_originals_branch_only() {
        let (text, placed, all) = schema("function f(a, b, c) { return (a + b) * c; }");
        assert_eq!(placed, all);
        // The outer mutant's copy holds `a + b` as written; the original's branch switches it.
        let outer = text.find("(a + b) / c").expect(&text);
        let inner = text.find("(a - b)").expect(&text);
        assert!(outer < inner, "{text}");
    }
}
