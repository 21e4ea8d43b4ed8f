//! Mutation operators: small edits of the source text of the code under test, found on its swc syntax tree.
//!
//! Every mutant is one textual edit (a byte range of the original file and its replacement), so a mutant is
//! the original text with that range replaced: nothing else of the file moves, and a mutant's position is
//! the user's own `file:line:col`. Edits are only made inside the given byte ranges (the methods and
//! constructors under test).

use swc_common::{Span, Spanned};
use swc_ecma_ast::{
    AssignExpr, BinExpr, CondExpr, DoWhileStmt, Expr, ForStmt, IfStmt, Lit, Stmt, UnaryExpr, UnaryOp, UpdateExpr,
    WhileStmt,
};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::ParsedFile;
use crate::js::literal;

/// The kind of change a mutant makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Operator {
    /// `+` ↔ `-`, `*` ↔ `/`, `%` → `*`, and the bitwise operators.
    Arithmetic,
    /// `<` → `<=`/`>=` and the like: boundaries and reversals.
    Relational,
    /// `===` ↔ `!==`, `==` ↔ `!=`.
    Equality,
    /// `&&` ↔ `||`, `??` → `||`.
    Logical,
    /// `-x`, `!x`, `~x` → `x`.
    Unary,
    /// `++` ↔ `--`.
    Update,
    /// `+=` ↔ `-=`, `*=` ↔ `/=`, `&&=` ↔ `||=` and the like.
    Assignment,
    /// A number to ±1 or 0, a string to `""` (or a non-empty one), a boolean to its opposite.
    Constant,
    /// The condition of an `if`, loop or `?:` negated.
    Decision,
    /// An expression statement, `return`, `throw`, `break` or `continue` removed.
    Deletion,
}

impl Operator {
    /// The name used in reports.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Operator::Arithmetic => "arithmetic",
            Operator::Relational => "relational",
            Operator::Equality => "equality",
            Operator::Logical => "logical",
            Operator::Unary => "unary",
            Operator::Update => "update",
            Operator::Assignment => "assignment",
            Operator::Constant => "constant",
            Operator::Decision => "decision",
            Operator::Deletion => "deletion",
        }
    }
}

/// One textual edit of a file: what a mutant changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// The kind of change.
    pub(crate) operator: Operator,
    /// Byte offset of the replaced text in the original file.
    pub(crate) start: u32,
    /// Byte offset just past the replaced text.
    pub(crate) end: u32,
    /// The text put in its place.
    pub(crate) replacement: String,
    /// The byte range of the enclosing construct, shown to people before and after the edit.
    pub(crate) context: (u32, u32),
}

impl Edit {
    /// The file's text with the edit applied.
    pub(crate) fn apply(&self, text: &str) -> String {
        let (start, end) = (self.start as usize, self.end as usize);
        format!("{}{}{}", &text[..start], self.replacement, &text[end..])
    }

    /// The enclosing construct's text before and after the edit, on one line and shortened.
    pub(crate) fn snippets(&self, text: &str) -> (String, String) {
        let (from, to) = (self.context.0 as usize, self.context.1 as usize);
        let before = &text[from..to];
        let after = format!("{}{}{}", &text[from..self.start as usize], self.replacement, &text[self.end as usize..to]);
        (one_line(before), one_line(&after))
    }
}

/// Longest snippet shown, in characters.
const SNIPPET_CHARS: usize = 70;

fn one_line(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= SNIPPET_CHARS {
        return flat;
    }
    let cut: String = flat.chars().take(SNIPPET_CHARS - 1).collect();
    format!("{cut}…")
}

/// Every edit of `file` inside `ranges` (byte offsets of the original text), in source order.
pub(crate) fn edits(file: &ParsedFile, ranges: &[(u32, u32)]) -> Vec<Edit> {
    let mut collector = Collector { file, ranges, edits: Vec::new() };
    file.program.visit_with(&mut collector);
    collector.edits.sort_by_key(|e| (e.start, e.end));
    collector.edits.dedup_by(|a, b| a.start == b.start && a.end == b.end && a.replacement == b.replacement);
    collector.edits
}

/// The replacements of a binary operator.
fn binary_replacements(op: &str) -> Option<(Operator, &'static [&'static str])> {
    let replacements: (Operator, &'static [&'static str]) = match op {
        "+" => (Operator::Arithmetic, &["-"]),
        "-" => (Operator::Arithmetic, &["+"]),
        "*" => (Operator::Arithmetic, &["/"]),
        "/" => (Operator::Arithmetic, &["*"]),
        "%" => (Operator::Arithmetic, &["*"]),
        "**" => (Operator::Arithmetic, &["*"]),
        "&" => (Operator::Arithmetic, &["|"]),
        "|" => (Operator::Arithmetic, &["&"]),
        "^" => (Operator::Arithmetic, &["&"]),
        "<<" => (Operator::Arithmetic, &[">>"]),
        ">>" => (Operator::Arithmetic, &["<<"]),
        ">>>" => (Operator::Arithmetic, &["<<"]),
        "<" => (Operator::Relational, &["<=", ">="]),
        "<=" => (Operator::Relational, &["<", ">"]),
        ">" => (Operator::Relational, &[">=", "<="]),
        ">=" => (Operator::Relational, &[">", "<"]),
        "===" => (Operator::Equality, &["!=="]),
        "!==" => (Operator::Equality, &["==="]),
        "==" => (Operator::Equality, &["!="]),
        "!=" => (Operator::Equality, &["=="]),
        "&&" => (Operator::Logical, &["||"]),
        "||" => (Operator::Logical, &["&&"]),
        "??" => (Operator::Logical, &["||"]),
        _ => return None,
    };
    Some(replacements)
}

/// The replacements of a compound assignment operator.
fn assignment_replacements(op: &str) -> &'static [&'static str] {
    match op {
        "+=" => &["-="],
        "-=" => &["+="],
        "*=" => &["/="],
        "/=" => &["*="],
        "%=" => &["*="],
        "&&=" => &["||="],
        "||=" => &["&&="],
        "??=" => &["||="],
        _ => &[],
    }
}

struct Collector<'a> {
    file: &'a ParsedFile,
    ranges: &'a [(u32, u32)],
    edits: Vec<Edit>,
}

impl Collector<'_> {
    fn offsets(&self, span: Span) -> (u32, u32) {
        (self.file.offset(span.lo), self.file.offset(span.hi))
    }

    fn inside(&self, span: Span) -> bool {
        let (start, end) = self.offsets(span);
        self.ranges.iter().any(|(from, to)| *from <= start && end <= *to)
    }

    fn push(&mut self, operator: Operator, replaced: (u32, u32), replacement: String, context: Span) {
        let context = self.offsets(context);
        self.edits.push(Edit { operator, start: replaced.0, end: replaced.1, replacement, context });
    }

    /// Replaces the operator token `op` found between two operands (outside comments).
    fn replace_between(&mut self, operator: Operator, left: Span, right: Span, op: &str, with: &[&str], whole: Span) {
        let (gap_start, _) = self.offsets(Span::new(left.hi, left.hi));
        let gap_end = self.file.offset(right.lo);
        let text = self.file.text();
        let Some(gap) = text.get(gap_start as usize..gap_end as usize) else { return };
        if gap.contains("/*") || gap.contains("//") {
            return;
        }
        let Some(at) = gap.find(op) else { return };
        let start = gap_start + at as u32;
        for replacement in with {
            self.push(operator, (start, start + op.len() as u32), (*replacement).to_string(), whole);
        }
    }

    fn negate(&mut self, test: &Expr, whole: Span) {
        let span = test.span();
        if !self.inside(span) {
            return;
        }
        let (start, end) = self.offsets(span);
        let Some(text) = self.file.text().get(start as usize..end as usize) else { return };
        self.push(Operator::Decision, (start, end), format!("!({text})"), whole);
    }
}

impl Visit for Collector<'_> {
    fn visit_bin_expr(&mut self, e: &BinExpr) {
        if self.inside(e.span)
            && let Some((operator, with)) = binary_replacements(e.op.as_str())
        {
            self.replace_between(operator, e.left.span(), e.right.span(), e.op.as_str(), with, e.span);
        }
        e.visit_children_with(self);
    }

    fn visit_assign_expr(&mut self, e: &AssignExpr) {
        let with = assignment_replacements(e.op.as_str());
        if self.inside(e.span) && !with.is_empty() {
            self.replace_between(Operator::Assignment, e.left.span(), e.right.span(), e.op.as_str(), with, e.span);
        }
        e.visit_children_with(self);
    }

    fn visit_unary_expr(&mut self, e: &UnaryExpr) {
        if self.inside(e.span) && matches!(e.op, UnaryOp::Minus | UnaryOp::Bang | UnaryOp::Tilde) {
            let (start, end) = self.offsets(e.span);
            let (arg_start, arg_end) = self.offsets(e.arg.span());
            if let Some(arg) = self.file.text().get(arg_start as usize..arg_end as usize) {
                self.push(Operator::Unary, (start, end), arg.to_string(), e.span);
            }
        }
        e.visit_children_with(self);
    }

    fn visit_update_expr(&mut self, e: &UpdateExpr) {
        if self.inside(e.span) {
            let (start, end) = self.offsets(e.span);
            let at = if e.prefix { start } else { end.saturating_sub(2) };
            let token = self.file.text().get(at as usize..at as usize + 2);
            let replacement = match token {
                Some("++") => Some("--"),
                Some("--") => Some("++"),
                _ => None,
            };
            if let Some(replacement) = replacement {
                self.push(Operator::Update, (at, at + 2), replacement.to_string(), e.span);
            }
        }
        e.visit_children_with(self);
    }

    fn visit_expr(&mut self, e: &Expr) {
        if let Expr::Lit(lit) = e
            && self.inside(lit.span())
        {
            let span = lit.span();
            let range = self.offsets(span);
            let replacements: Vec<String> = match lit {
                Lit::Num(n) => {
                    // A literal is never negative (`-1` is a unary minus): neither are its replacements, so
                    // `a - 1` cannot become `a --1`.
                    let mut values: Vec<f64> = Vec::new();
                    for v in [0.0, n.value + 1.0, n.value - 1.0] {
                        if v >= 0.0 && v != n.value && !values.contains(&v) {
                            values.push(v);
                        }
                    }
                    values.into_iter().map(literal::number).collect()
                }
                Lit::Str(s) if s.value.is_empty() => vec![literal::string("Flycatcher")],
                Lit::Str(_) => vec!["\"\"".to_string()],
                Lit::Bool(b) => vec![(!b.value).to_string()],
                _ => Vec::new(),
            };
            for replacement in replacements {
                self.push(Operator::Constant, range, replacement, span);
            }
        }
        e.visit_children_with(self);
    }

    fn visit_cond_expr(&mut self, e: &CondExpr) {
        self.negate(&e.test, e.span);
        e.visit_children_with(self);
    }

    fn visit_if_stmt(&mut self, s: &IfStmt) {
        self.negate(&s.test, s.test.span());
        s.visit_children_with(self);
    }

    fn visit_while_stmt(&mut self, s: &WhileStmt) {
        self.negate(&s.test, s.test.span());
        s.visit_children_with(self);
    }

    fn visit_do_while_stmt(&mut self, s: &DoWhileStmt) {
        self.negate(&s.test, s.test.span());
        s.visit_children_with(self);
    }

    fn visit_for_stmt(&mut self, s: &ForStmt) {
        if let Some(test) = &s.test {
            self.negate(test, test.span());
        }
        s.visit_children_with(self);
    }

    fn visit_stmt(&mut self, s: &Stmt) {
        let deletable = match s {
            // A string expression statement may be a directive (`'use strict'`): deleting it is no change
            // a test could see, or one of the whole function's semantics.
            Stmt::Expr(e) => !matches!(&*e.expr, Expr::Lit(Lit::Str(_))),
            Stmt::Return(_) | Stmt::Throw(_) | Stmt::Break(_) | Stmt::Continue(_) => true,
            _ => false,
        };
        if deletable && self.inside(s.span()) {
            let range = self.offsets(s.span());
            self.push(Operator::Deletion, range, ";".to_string(), s.span());
        }
        s.visit_children_with(self);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::analysis::parse::parse_source;

    fn mutated(source: &str) -> Vec<(Operator, String)> {
        let file = parse_source(Path::new("/m.js"), "m.js", source.to_string()).unwrap();
        let start = source.find("function").unwrap() as u32;
        edits(&file, &[(start, source.len() as u32)])
            .into_iter()
            .map(|e| (e.operator, e.apply(source)[start as usize..].to_string()))
            .collect()
    }

    #[test]
    fn each_operator_makes_its_edits_inside_the_ranges_only() {
        let source = "var top = 1 + 2;\nfunction f(a, b) { if (a < b) { a++; } return a === 0 ? -b : b * 2; }";
        let found = mutated(source);
        let has = |op: Operator, text: &str| found.iter().any(|(o, t)| *o == op && t == text);
        assert!(has(Operator::Relational, "function f(a, b) { if (a <= b) { a++; } return a === 0 ? -b : b * 2; }"));
        assert!(has(Operator::Relational, "function f(a, b) { if (a >= b) { a++; } return a === 0 ? -b : b * 2; }"));
        assert!(has(Operator::Update, "function f(a, b) { if (a < b) { a--; } return a === 0 ? -b : b * 2; }"));
        assert!(has(Operator::Equality, "function f(a, b) { if (a < b) { a++; } return a !== 0 ? -b : b * 2; }"));
        assert!(has(Operator::Unary, "function f(a, b) { if (a < b) { a++; } return a === 0 ? b : b * 2; }"));
        assert!(has(Operator::Arithmetic, "function f(a, b) { if (a < b) { a++; } return a === 0 ? -b : b / 2; }"));
        assert!(has(Operator::Constant, "function f(a, b) { if (a < b) { a++; } return a === 1 ? -b : b * 2; }"));
        assert!(has(Operator::Constant, "function f(a, b) { if (a < b) { a++; } return a === 0 ? -b : b * 3; }"));
        assert!(has(Operator::Decision, "function f(a, b) { if (!(a < b)) { a++; } return a === 0 ? -b : b * 2; }"));
        assert!(has(Operator::Decision, "function f(a, b) { if (a < b) { a++; } return !(a === 0) ? -b : b * 2; }"));
        assert!(has(Operator::Deletion, "function f(a, b) { if (a < b) { ; } return a === 0 ? -b : b * 2; }"));
        assert!(has(Operator::Deletion, "function f(a, b) { if (a < b) { a++; } ; }"));
        // `1 + 2` at the top level is outside the range: no mutant of it.
        let file = parse_source(Path::new("/m.js"), "m.js", source.to_string()).unwrap();
        let start = source.find("function").unwrap() as u32;
        assert!(edits(&file, &[(start, source.len() as u32)]).iter().all(|e| e.start >= start));
    }

    #[test]
    fn strings_booleans_and_compound_assignments() {
        let found = mutated("function g(s) { s.total += 2; s.ok = true; return s.name || ''; }");
        let texts: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
        assert!(texts.contains(&"function g(s) { s.total -= 2; s.ok = true; return s.name || ''; }"));
        assert!(texts.contains(&"function g(s) { s.total += 2; s.ok = false; return s.name || ''; }"));
        assert!(texts.contains(&"function g(s) { s.total += 2; s.ok = true; return s.name || \"Flycatcher\"; }"));
        assert!(texts.contains(&"function g(s) { s.total += 2; s.ok = true; return s.name && ''; }"));
    }

    #[test]
    fn snippets_show_the_construct_before_and_after() {
        let source = "function h(x) { return x   >   1; }";
        let file = parse_source(Path::new("/m.js"), "m.js", source.to_string()).unwrap();
        let edit =
            edits(&file, &[(0, source.len() as u32)]).into_iter().find(|e| e.operator == Operator::Relational).unwrap();
        assert_eq!(edit.snippets(source), ("x > 1".to_string(), "x >= 1".to_string()));
    }
}
