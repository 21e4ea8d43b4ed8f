//! Constants mined from the code under test: the numbers, strings and regular expressions it compares
//! its inputs with. Inputs built from them reach branches that random values almost never do (a
//! `'978'` prefix, a length of 13, a `/^\d{13}$/` shape).

use swc_common::Spanned;
use swc_ecma_ast::{BinExpr, BinaryOp, Expr, Lit, MemberExpr, MemberProp, Program, Tpl, UnaryExpr, UnaryOp};
use swc_ecma_visit::{Visit, VisitWith};

/// Longest string literal worth feeding back as an input.
const MAX_STRING: usize = 64;

/// One literal and where it is.
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    /// A number literal (negated when written `-n`).
    Number(f64),
    /// A string literal or a template literal's text.
    String(String),
    /// A regular expression literal: its pattern and its flags, which some patterns need to be valid at
    /// all (`/\p{L}/u`).
    Regex {
        /// The pattern, as written between the slashes.
        pattern: String,
        /// Its flags (`u`, `gi`...), as written.
        flags: String,
    },
}

/// The literals of a file, with their byte offsets.
#[derive(Debug, Clone, Default)]
pub(crate) struct Literals {
    found: Vec<(u32, Constant)>,
    /// Where the code reads a character's code (`.charCodeAt`, `.codePointAt`): there, its numbers
    /// may be compared with codes.
    code_reads: Vec<u32>,
    /// Where a string compared with a `typeof` is (`typeof path !== 'string'`): the name of a type, not a
    /// value any argument could be.
    type_names: Vec<u32>,
}

impl Literals {
    /// Mines `program`; `base` is the file's start position.
    pub(crate) fn mine(program: &Program, base: u32) -> Literals {
        let mut miner = Miner { base, found: Vec::new(), code_reads: Vec::new(), type_names: Vec::new() };
        program.visit_with(&mut miner);
        Literals { found: miner.found, code_reads: miner.code_reads, type_names: miner.type_names }
    }

    /// The string literals between two byte offsets that a value could equal: not the type names
    /// compared with a `typeof`.
    pub(crate) fn values_within(&self, start: u32, end: u32) -> impl Iterator<Item = &str> {
        self.found.iter().filter(move |(at, _)| (start..end).contains(at) && !self.type_names.contains(at)).filter_map(
            |(_, c)| match c {
                Constant::String(s) => Some(s.as_str()),
                _ => None,
            },
        )
    }

    /// The literals between two byte offsets.
    pub(crate) fn within(&self, start: u32, end: u32) -> impl Iterator<Item = &Constant> {
        self.found.iter().filter(move |(at, _)| (start..end).contains(at)).map(|(_, c)| c)
    }

    /// Whether the code between two byte offsets reads a character's code.
    pub(crate) fn reads_character_codes(&self, start: u32, end: u32) -> bool {
        self.code_reads.iter().any(|at| (start..end).contains(at))
    }
}

struct Miner {
    base: u32,
    found: Vec<(u32, Constant)>,
    code_reads: Vec<u32>,
    type_names: Vec<u32>,
}

impl Miner {
    fn push(&mut self, at: swc_common::BytePos, constant: Constant) {
        self.found.push((at.0.saturating_sub(self.base), constant));
    }
}

impl Visit for Miner {
    fn visit_bin_expr(&mut self, node: &BinExpr) {
        let is_typeof = |e: &Expr| matches!(e, Expr::Unary(u) if u.op == UnaryOp::TypeOf);
        let compares = matches!(node.op, BinaryOp::EqEq | BinaryOp::EqEqEq | BinaryOp::NotEq | BinaryOp::NotEqEq);
        for (one, other) in [(&node.left, &node.right), (&node.right, &node.left)].into_iter().filter(|_| compares) {
            if let Expr::Lit(Lit::Str(s)) = &**one
                && is_typeof(other)
            {
                self.type_names.push(s.span.lo.0.saturating_sub(self.base));
            }
        }
        node.visit_children_with(self);
    }

    fn visit_unary_expr(&mut self, node: &UnaryExpr) {
        if node.op == UnaryOp::Minus
            && let swc_ecma_ast::Expr::Lit(Lit::Num(n)) = &*node.arg
        {
            self.push(node.span.lo, Constant::Number(-n.value));
            return;
        }
        node.visit_children_with(self);
    }

    fn visit_member_expr(&mut self, node: &MemberExpr) {
        if let MemberProp::Ident(name) = &node.prop
            && matches!(&*name.sym, "charCodeAt" | "codePointAt")
        {
            self.code_reads.push(node.span.lo.0.saturating_sub(self.base));
        }
        node.visit_children_with(self);
    }

    fn visit_lit(&mut self, node: &Lit) {
        match node {
            Lit::Num(n) => self.push(n.span.lo, Constant::Number(n.value)),
            Lit::Str(s) => {
                let text = s.value.to_atom_lossy().to_string();
                if text.chars().count() <= MAX_STRING {
                    self.push(s.span.lo, Constant::String(text));
                }
            }
            Lit::Regex(r) => {
                self.push(r.span.lo, Constant::Regex { pattern: r.exp.to_string(), flags: r.flags.to_string() })
            }
            _ => {}
        }
    }

    fn visit_tpl(&mut self, node: &Tpl) {
        for quasi in &node.quasis {
            let text = quasi.cooked.as_ref().map(|c| c.to_atom_lossy().to_string()).unwrap_or_default();
            if !text.is_empty() && text.chars().count() <= MAX_STRING {
                self.push(quasi.span().lo, Constant::String(text));
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
    fn mines_numbers_strings_templates_and_regexes() {
        let code = "function f(s) { if (/^\\d{13}$/.test(s) && s.slice(0, 3) === '978') return `n${s}-x`; return -1; }\n\
                    function g() { return /\\p{L}/gu.test('x') && 42; }";
        let parsed = parse_source(Path::new("/nonexistent/c.js"), "c.js", code.into()).unwrap();
        let literals = Literals::mine(&parsed.program, parsed.source.start_pos.0);
        let in_f: Vec<&Constant> = literals.within(0, code.find('\n').unwrap() as u32).collect();
        let isbn = Constant::Regex { pattern: "^\\d{13}$".into(), flags: String::new() };
        assert!(in_f.contains(&&isbn), "{in_f:?}");
        assert!(in_f.contains(&&Constant::String("978".into())));
        assert!(in_f.contains(&&Constant::String("n".into())) && in_f.contains(&&Constant::String("-x".into())));
        assert!(in_f.contains(&&Constant::Number(-1.0)) && in_f.contains(&&Constant::Number(3.0)));
        assert!(!in_f.contains(&&Constant::Number(42.0)), "g's constant is not f's");
        assert!(literals.within(0, code.len() as u32).any(|c| *c == Constant::Number(42.0)));
        let letter = Constant::Regex { pattern: "\\p{L}".into(), flags: "gu".into() };
        assert!(literals.within(0, code.len() as u32).any(|c| *c == letter), "flags kept");
    }

    #[test]
    fn type_names_compared_with_typeof_are_no_values() {
        let code =
            "function f(p) { if (typeof p !== 'string' || p === 'number') throw 1; return 'object' == typeof p; }";
        let parsed = parse_source(Path::new("/nonexistent/c.js"), "c.js", code.into()).unwrap();
        let literals = Literals::mine(&parsed.program, parsed.source.start_pos.0);
        let values: Vec<&str> = literals.values_within(0, code.len() as u32).collect();
        assert_eq!(values, vec!["number"], "a value compared with the parameter stays, type names go");
        assert_eq!(literals.within(0, code.len() as u32).count(), 4, "all are still mined: {values:?}");
    }

    #[test]
    fn finds_where_character_codes_are_read() {
        let code = "function f(s) { return s.charCodeAt(0) > 255; }\nfunction g(s) { return s.charAt(0); }";
        let parsed = parse_source(Path::new("/nonexistent/c.js"), "c.js", code.into()).unwrap();
        let literals = Literals::mine(&parsed.program, parsed.source.start_pos.0);
        let g = code.find('\n').unwrap() as u32;
        assert!(literals.reads_character_codes(0, g) && !literals.reads_character_codes(g, code.len() as u32));
    }
}
