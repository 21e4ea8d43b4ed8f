//! Lengths the code demands of its arguments, read from its comparisons: a length compared with a
//! number (`key.length !== 32`, `nonce.length < 12`, `[16, 20, 24].includes(ent.length)`), a length's
//! remainder compared (`hex.length % 2 !== 0`), a length read in parts (`coords.length >> 1`: pairs) and a
//! length compared with another's (`dst.length < src.length`); a number may be named by a constant (`key.length !== KEY_LENGTH`). Validation that throws on the wrong length stops every call with a value of another
//! length at its first statement; values of a length drawn at random meet such a check seldom (a 12-byte
//! nonce), and two related ones hardly ever together with it.
//!
//! They are kept as [`TypeofCheck`](super::typeofs::TypeofCheck)s on the length's name (`key.length`),
//! so that helpers' checks and aliases carry them to the caller's parameter as they do other checks: a
//! number compared as an equality with it (`=number`, see [`EQUALS`]), a divisor as [`MULTIPLE_OF`], the
//! other name as [`LENGTH_OF`]. [`lengths_checked`] reads them back per parameter.

use std::collections::HashMap;

use swc_ecma_ast::{
    BinExpr, BinaryOp, CallExpr, Callee, Expr, ExprOrSpread, Lit, MemberProp, Pat, Program, VarDecl, VarDeclKind,
};
use swc_ecma_visit::{Visit, VisitWith};

use super::constants::Constant;
use super::typeofs::{EQUALS, TypeofCheck, dotted};

/// Pseudo-type of a length's remainder compared: the divisor is the check's literal.
pub(crate) const MULTIPLE_OF: &str = "%";
/// Prefix of the pseudo-type of a length compared with another value's length: the other name follows.
pub(crate) const LENGTH_OF: &str = "~";

/// Whether `ty` is one of the pseudo-types of this module that no other reader of checks knows.
pub(crate) fn is_length_relation(ty: &str) -> bool {
    ty == MULTIPLE_OF || ty.starts_with(LENGTH_OF)
}

/// What a parameter's length is compared with.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Lengths {
    /// Lengths compared with (`32` of `key.length !== 32`), each once, in source order; past 1.
    pub exact: Vec<usize>,
    /// Divisors of its length compared (`2` of `hex.length % 2`), each once.
    pub multiples: Vec<usize>,
    /// Names of the values whose lengths its length is compared with (`src` of `dst.length <
    /// src.length`), each once.
    pub like: Vec<String>,
}

impl Lengths {
    /// Whether nothing is known.
    pub(crate) fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.multiples.is_empty() && self.like.is_empty()
    }
}

/// What the `checks` compare the length of `name` with.
pub(crate) fn lengths_checked(checks: &[TypeofCheck], name: &str) -> Lengths {
    let length = format!("{name}.length");
    let mut lengths = Lengths::default();
    let whole = |c: &TypeofCheck| match c.literal {
        Some(Constant::Number(n)) if n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n) => Some(n as usize),
        _ => None,
    };
    let once = |list: &mut Vec<usize>, value: Option<usize>| {
        if let Some(value) = value.filter(|v| !list.contains(v)) {
            list.push(value);
        }
    };
    for check in checks.iter().filter(|c| c.name == length) {
        if let Some(other) = check.ty.strip_prefix(LENGTH_OF) {
            if other != name && !lengths.like.iter().any(|l| l == other) {
                lengths.like.push(other.to_string());
            }
        } else if check.ty == MULTIPLE_OF {
            once(&mut lengths.multiples, whole(check).filter(|n| *n > 1));
        } else if check.ty == format!("{EQUALS}number") {
            // Not 0 or 1 (`s.length === 0`, `items.length > 1`): values of every kind are drawn empty or of
            // one item often, and forcing those lengths only takes draws from the others.
            once(&mut lengths.exact, whole(check).filter(|n| *n > 1));
        }
    }
    lengths
}

/// The name whose length `e` reads (`key` of `key.length`, `this.buf` of `this.buf.length`).
fn length_of(e: &Expr) -> Option<String> {
    match e {
        Expr::Paren(p) => length_of(&p.expr),
        Expr::Member(m) if m.prop.as_ident().is_some_and(|p| &*p.sym == "length") => dotted(&m.obj),
        _ => None,
    }
}

/// The numbers of a file's constants (`const KEY_LENGTH = 32`) by name: those declared once only, with a
/// number literal.
#[derive(Debug, Default)]
pub(crate) struct NamedNumbers(HashMap<String, Option<f64>>);

impl NamedNumbers {
    /// The constants of `program`.
    pub(crate) fn of(program: &Program) -> NamedNumbers {
        let mut named = NamedNumbers::default();
        program.visit_with(&mut named);
        named
    }

    /// The number `e` is: a number literal (`32`), or a constant named for one (`KEY_LENGTH`).
    fn number(&self, e: &Expr) -> Option<f64> {
        match e {
            Expr::Paren(p) => self.number(&p.expr),
            Expr::Lit(Lit::Num(n)) => Some(n.value),
            Expr::Ident(name) => self.0.get(&*name.sym).copied().flatten(),
            _ => None,
        }
    }
}

impl Visit for NamedNumbers {
    fn visit_var_decl(&mut self, node: &VarDecl) {
        for declarator in node.decls.iter() {
            let Pat::Ident(name) = &declarator.name else { continue };
            let value = match declarator.init.as_deref() {
                Some(Expr::Lit(Lit::Num(n))) if node.kind == VarDeclKind::Const => Some(n.value),
                _ => None,
            };
            // Declared twice, or not a constant number: no number to read for it.
            let once = !self.0.contains_key(&*name.id.sym);
            self.0.insert(name.id.sym.to_string(), value.filter(|_| once));
        }
        node.visit_children_with(self);
    }
}

/// The checks on lengths a comparison makes, as (name checked, pseudo-type, literal): `x.length < n` on
/// `x.length` as `=number` with `n` (an equality with a literal is read elsewhere, as any is), `x.length % n OP m` as [`MULTIPLE_OF`] with `n`, and `x.length OP
/// y.length` as [`LENGTH_OF`] on both lengths; a length read in parts (see [`parts`]) though no comparison.
pub(crate) fn comparison_checks(node: &BinExpr, named: &NamedNumbers) -> Vec<(String, String, Option<Constant>)> {
    let number = |e: &Expr| named.number(e);
    let compares = matches!(
        node.op,
        BinaryOp::EqEqEq
            | BinaryOp::NotEqEq
            | BinaryOp::EqEq
            | BinaryOp::NotEq
            | BinaryOp::Lt
            | BinaryOp::LtEq
            | BinaryOp::Gt
            | BinaryOp::GtEq
    );
    if !compares {
        return parts(node, named).into_iter().collect();
    }
    let remainder = |e: &Expr| match e {
        Expr::Bin(b) if b.op == BinaryOp::Mod => length_of(&b.left).zip(number(&b.right)),
        Expr::Paren(p) => match &*p.expr {
            Expr::Bin(b) if b.op == BinaryOp::Mod => length_of(&b.left).zip(number(&b.right)),
            _ => None,
        },
        _ => None,
    };
    // An equality with a number literal is read as every equality with a literal is (see `typeofs`);
    // one with a constant's name is not.
    let relational = matches!(node.op, BinaryOp::Lt | BinaryOp::LtEq | BinaryOp::Gt | BinaryOp::GtEq);
    let mut found = Vec::new();
    for (one, other) in [(&node.left, &node.right), (&node.right, &node.left)] {
        if let Some(name) = length_of(one) {
            if let Some(n) = number(other).filter(|_| relational || !matches!(&**other, Expr::Lit(_))) {
                found.push((format!("{name}.length"), format!("{EQUALS}number"), Some(Constant::Number(n))));
            } else if let Some(with) = length_of(other).filter(|w| *w != name) {
                found.push((format!("{name}.length"), format!("{LENGTH_OF}{with}"), None));
            }
        } else if let Some((name, divisor)) = remainder(one).filter(|_| number(other).is_some()) {
            found.push((format!("{name}.length"), MULTIPLE_OF.to_string(), Some(Constant::Number(divisor))));
        }
    }
    found
}

/// A length read in parts of a size, as (name, [`MULTIPLE_OF`], the size): `coords.length >> 1` (pairs),
/// `data.length / 3` (triples). The code walks the value that many items at a time, so only a multiple of
/// the size is read whole, and a longer one holds more than one part (more than one point).
fn parts(node: &BinExpr, named: &NamedNumbers) -> Option<(String, String, Option<Constant>)> {
    let name = length_of(&node.left)?;
    let n = named.number(&node.right).filter(|n| n.fract() == 0.0)?;
    let size = match node.op {
        BinaryOp::RShift | BinaryOp::ZeroFillRShift if (1.0..=3.0).contains(&n) => 2f64.powf(n),
        BinaryOp::Div if (2.0..=8.0).contains(&n) => n,
        _ => return None,
    };
    Some((format!("{name}.length"), MULTIPLE_OF.to_string(), Some(Constant::Number(size))))
}

/// The lengths a literal list's `includes` compares (`[16, 20, 24].includes(ent.length)`: each an
/// equality), as (name checked, `=number`, literal).
pub(crate) fn includes_checks(node: &CallExpr, named: &NamedNumbers) -> Vec<(String, String, Option<Constant>)> {
    let Callee::Expr(callee) = &node.callee else { return Vec::new() };
    let Expr::Member(member) = &**callee else { return Vec::new() };
    let (Expr::Array(list), MemberProp::Ident(method)) = (&*member.obj, &member.prop) else { return Vec::new() };
    let Some(name) = node.args.first().filter(|a| a.spread.is_none()).and_then(|a| length_of(&a.expr)) else {
        return Vec::new();
    };
    if &*method.sym != "includes" {
        return Vec::new();
    }
    let numbers: Option<Vec<f64>> = list
        .elems
        .iter()
        .map(|e| e.as_ref().filter(|e: &&ExprOrSpread| e.spread.is_none()).and_then(|e| named.number(&e.expr)))
        .collect();
    numbers
        .unwrap_or_default()
        .into_iter()
        .map(|n| (format!("{name}.length"), format!("{EQUALS}number"), Some(Constant::Number(n))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use crate::analysis::typeofs::{literals_compared, typeof_checks, types_checked};
    use std::path::Path;

    fn checks(code: &str) -> Vec<TypeofCheck> {
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        typeof_checks(&parsed.program, parsed.source.start_pos.0)
    }

    #[test]
    fn lengths_compared_with_numbers_divisors_and_other_lengths_are_read() {
        let code = "function f(key, nonce, src, dst, hex, ent, n) {\n\
                    if (key.length !== 32) throw 1; if (nonce.length < 12 || 16 <= nonce.length) throw 2;\n\
                    if (dst.length < src.length) throw 3; if ((hex.length % 2) !== 0) throw 4;\n\
                    if (![16, 20].includes(ent.length)) throw 5; if (n.length < n.length + 1) return;\n\
                    if (key.length === KEY || nonce.length > VARIES || n.length === LET) return;\n\
                    if (n.length === 0 || n.length > 1) return; }\n\
                    const KEY = 64; const VARIES = 1; let LET = 3;\n\
                    function g() { const VARIES = 2; }";
        let checks = checks(code);
        let lengths = |name| lengths_checked(&checks, name);
        assert_eq!(lengths("key").exact, vec![32, 64]);
        assert_eq!(lengths("nonce").exact, vec![12, 16]);
        assert_eq!((lengths("dst").like, lengths("src").like), (vec!["src".to_string()], vec!["dst".to_string()]));
        assert_eq!((lengths("hex").multiples, lengths("hex").exact), (vec![2], vec![]));
        assert_eq!(lengths("ent").exact, vec![16, 20]);
        assert!(lengths("n").is_empty());
        // The relations are no types and no literals to readers of other checks.
        assert!(types_checked(&checks, "dst.length", 0, u32::MAX).is_empty());
        assert!(literals_compared(&checks, "hex.length").is_empty());
    }

    #[test]
    fn lengths_read_in_parts_want_multiples_of_the_part() {
        let code = "function f(coords, data, mid, odd) {\n\
                    const n = coords.length >> 1; const m = data.length / 3;\n\
                    const k = mid.length >>> 0; const h = odd.length / 2.5; }";
        let checks = checks(code);
        let multiples = |name| lengths_checked(&checks, name).multiples;
        assert_eq!((multiples("coords"), multiples("data")), (vec![2], vec![3]));
        assert!(multiples("mid").is_empty() && multiples("odd").is_empty());
    }
}
