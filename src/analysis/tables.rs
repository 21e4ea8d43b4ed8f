//! Lookup tables: object literals the code indexes with a value it was given, and the keys they hold.
//!
//! Code often turns a name into behaviour through a table of its own (`LANGUAGES[options.language]`,
//! `UNITS[unit]`, `unit in FACTORS`, `aliases.hasOwnProperty(name)`): every path past the look-up waits
//! for a string equal to one of the table's keys. The keys are property names, not string literals, so
//! mining literals never offers them, and a random string never is one. Where a function reads a table of
//! its file with a computed key, the table's keys are constants of that function's code, and the key it
//! reads with is a string ([`names_of_tables`]; an array index would be a number, which the syntax of
//! `o[k]` alone cannot tell apart).

use std::rc::Rc;

use rustc_hash::FxHashSet;

use swc_ecma_ast::{
    BinExpr, BinaryOp, CallExpr, Callee, Expr, Lit, MemberExpr, MemberProp, Pat, Program, Prop, PropOrSpread,
    VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::prop_name;

/// Most keys one table gives: a table of hundreds (a MIME database, every language) would otherwise fill
/// a method's pool of constants. One key reaches the path past the look-up; a few spread over the
/// table vary what follows.
const MAX_KEYS: usize = 8;
/// Fewest keys an object literal needs to be read as a table rather than a record of options.
const MIN_KEYS: usize = 2;

/// The look-ups of a file's tables, with their byte offsets.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tables {
    /// Where a table is read with a computed key, and (a spread of) its keys.
    reads: Vec<(u32, Rc<[String]>)>,
}

impl Tables {
    /// Finds the tables of `program` and where they are read; `base` is the file's start position.
    pub(crate) fn find(program: &Program, base: u32) -> Tables {
        let finder = Finder::run(program, base);
        let tables: Vec<(String, Rc<[String]>)> =
            finder.tables.into_iter().map(|(name, keys)| (name, spread(keys))).collect();
        let mut reads = Vec::new();
        for (at, name) in finder.reads {
            // A name bound to two tables (in two scopes) gives the keys of both: which one a read reaches
            // is not worth resolving for a list of candidate strings.
            for (_, keys) in tables.iter().filter(|(table, _)| *table == name) {
                reads.push((at, keys.clone()));
            }
        }
        Tables { reads }
    }

    /// The keys of the tables read between two byte offsets, each table's once.
    pub(crate) fn keys_within(&self, start: u32, end: u32) -> Vec<String> {
        let mut seen: Vec<&Rc<[String]>> = Vec::new();
        for (_, keys) in self.reads.iter().filter(|(at, _)| (start..end).contains(at)) {
            if !seen.iter().any(|s| Rc::ptr_eq(s, keys)) {
                seen.push(keys);
            }
        }
        seen.into_iter().flat_map(|keys| keys.iter().cloned()).collect()
    }
}

/// The names `program` binds to tables of names: object literals of [`MIN_KEYS`] keys or more, one of
/// them at least no array index (`{ kibibyte: 1024 }`, not `{ 0: 'a', 1: 'b' }`).
pub(crate) fn names_of_tables(program: &Program) -> FxHashSet<String> {
    let is_index = |key: &String| key.parse::<u32>().is_ok_and(|n| n.to_string() == *key);
    let tables = Finder::run(program, 0).tables.into_iter();
    tables.filter(|(_, keys)| !keys.iter().all(is_index)).map(|(name, _)| name).collect()
}

struct Finder {
    base: u32,
    /// Names bound to object literals, with their keys.
    tables: Vec<(String, Vec<String>)>,
    /// Where a name is read with a computed key, `in` or `hasOwnProperty`.
    reads: Vec<(u32, String)>,
}

impl Finder {
    fn run(program: &Program, base: u32) -> Finder {
        let mut finder = Finder { base, tables: Vec::new(), reads: Vec::new() };
        program.visit_with(&mut finder);
        finder
    }

    fn read(&mut self, at: swc_common::BytePos, table: &Expr) {
        if let Expr::Ident(name) = table {
            self.reads.push((at.0.saturating_sub(self.base), name.sym.to_string()));
        }
    }
}

/// The name of an object literal's own property, when the syntax says it.
fn key_of(prop: &PropOrSpread) -> Option<String> {
    let PropOrSpread::Prop(prop) = prop else { return None };
    match &**prop {
        Prop::Shorthand(ident) => Some(ident.sym.to_string()),
        Prop::KeyValue(p) => prop_name(&p.key),
        Prop::Method(p) => prop_name(&p.key),
        _ => None,
    }
}

/// Up to [`MAX_KEYS`] of `keys`, evenly spread, in their order.
fn spread(keys: Vec<String>) -> Rc<[String]> {
    if keys.len() <= MAX_KEYS {
        return keys.into();
    }
    (0..MAX_KEYS).map(|i| keys[i * keys.len() / MAX_KEYS].clone()).collect()
}

impl Visit for Finder {
    fn visit_var_declarator(&mut self, node: &VarDeclarator) {
        if let (Pat::Ident(name), Some(init)) = (&node.name, &node.init)
            && let Expr::Object(object) = &**init
        {
            let keys: Vec<String> = object.props.iter().filter_map(key_of).collect();
            if keys.len() >= MIN_KEYS {
                self.tables.push((name.id.sym.to_string(), keys));
            }
        }
        node.visit_children_with(self);
    }

    fn visit_member_expr(&mut self, node: &MemberExpr) {
        // `TABLE[key]`, not `TABLE['literal']` or `TABLE[0]`: a literal key is no input's.
        if let MemberProp::Computed(key) = &node.prop
            && !matches!(&*key.expr, Expr::Lit(Lit::Str(_) | Lit::Num(_)))
        {
            self.read(node.span.lo, &node.obj);
        }
        node.visit_children_with(self);
    }

    fn visit_bin_expr(&mut self, node: &BinExpr) {
        if node.op == BinaryOp::In && !matches!(&*node.left, Expr::Lit(_)) {
            self.read(node.span.lo, &node.right);
        }
        node.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        // `TABLE.hasOwnProperty(key)`.
        if let Callee::Expr(callee) = &node.callee
            && let Expr::Member(member) = &**callee
            && let MemberProp::Ident(method) = &member.prop
            && &*method.sym == "hasOwnProperty"
        {
            self.read(node.span.lo, &member.obj);
        }
        node.visit_children_with(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use std::path::Path;

    fn tables(code: &str) -> Tables {
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        Tables::find(&parsed.program, parsed.source.start_pos.0)
    }

    #[test]
    fn the_keys_of_a_table_read_with_a_computed_key_are_the_reading_function_s() {
        let code = "const UNITS = { kibibyte: 1024, 'mebi byte': 2 ** 20, 3: 'x', short };\n\
                    const OPTIONS = { a: 1 };\n\
                    function f(u) { return UNITS[u] * 2; }\n\
                    function g(u) { return UNITS['kibibyte'] + OPTIONS[u]; }\n\
                    function h(u) { return u in UNITS || UNITS.hasOwnProperty(u); }";
        let t = tables(code);
        let range = |name: &str| {
            let start = code.find(name).unwrap();
            (start as u32, (start + code[start..].find('}').unwrap()) as u32)
        };
        let (start, end) = range("function f");
        assert_eq!(t.keys_within(start, end), vec!["kibibyte", "mebi byte", "3", "short"]);
        let (start, end) = range("function g");
        assert!(t.keys_within(start, end).is_empty(), "a literal key reads no input, one key is no table");
        let (start, end) = range("function h");
        assert_eq!(t.keys_within(start, end).len(), 4, "one table read twice gives its keys once");
    }

    #[test]
    fn tables_of_names_are_told_from_arrays_written_as_objects() {
        let code = "var UNITS = { kb: 1, 2: 'x' }, ROWS = { 0: 'a', 1: 'b' }, ONE = { only: 1 };\nlet x = [];";
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let names = names_of_tables(&parsed.program);
        assert_eq!(names.into_iter().collect::<Vec<_>>(), vec!["UNITS".to_string()]);
    }

    #[test]
    fn a_large_table_gives_a_spread_of_its_keys() {
        let keys: Vec<String> = (0..100).map(|i| format!("k{i}: {i}")).collect();
        let code = format!("var T = {{ {} }};\nfunction f(k) {{ return T[k]; }}", keys.join(", "));
        let found = tables(&code).keys_within(0, code.len() as u32);
        assert_eq!(found.len(), MAX_KEYS);
        assert_eq!(found.first().map(String::as_str), Some("k0"));
        assert_eq!(found.last().map(String::as_str), Some("k87"), "{found:?}");
    }
}
