//! A suite with its tests in another order: every run of `test`, `it` and `describe` calls inside a
//! `describe` body reversed, at every level, the rest of the file left as it is. Runners run tests in
//! the order they are registered, so the reversed file runs each test after the ones that ran after it
//! before: a test that needs what another left behind shows.

use std::path::Path;

use swc_common::Spanned;
use swc_ecma_ast::{ArrowFunctionBody, CallExpr, Callee, Expr, Stmt};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::parse::{ParsedFile, parse_source};
use crate::error::{Error, Result};

/// The text of the suite at `path` with its tests reversed.
pub(crate) fn reversed(path: &Path, text: String) -> Result<String> {
    let display = path.display().to_string();
    let parsed = parse_source(path, &display, text)
        .map_err(|e| Error::Usage(format!("{display}: not a suite flycatcher can reorder ({e})")))?;
    let mut groups = Groups { parsed: &parsed, found: Vec::new() };
    parsed.program.visit_with(&mut groups);
    let mut found = groups.found;
    found.sort();
    let text = parsed.text();
    Ok(render(text, &found, 0, text.len()))
}

/// Runs of sibling registrations: byte ranges of the statements, in order.
type Group = Vec<(usize, usize)>;

struct Groups<'a> {
    parsed: &'a ParsedFile,
    found: Vec<Group>,
}

/// The name a registration is called by: `test`, `it`, `describe`, or their `.skip`/`.only` forms.
fn registration(call: &CallExpr) -> Option<String> {
    let Callee::Expr(callee) = &call.callee else { return None };
    let name = match &**callee {
        Expr::Ident(ident) => ident.sym.to_string(),
        Expr::Member(member) => match &*member.obj {
            Expr::Ident(ident) => ident.sym.to_string(),
            _ => return None,
        },
        _ => return None,
    };
    matches!(name.as_str(), "test" | "it" | "describe").then_some(name)
}

impl Visit for Groups<'_> {
    fn visit_call_expr(&mut self, call: &CallExpr) {
        call.visit_children_with(self);
        if registration(call).as_deref() != Some("describe") {
            return;
        }
        let body = call.args.iter().find_map(|arg| match &*arg.expr {
            Expr::Arrow(arrow) => match &*arrow.body {
                ArrowFunctionBody::FunctionBody(block) => Some(&block.stmts),
                ArrowFunctionBody::Expr(_) => None,
            },
            Expr::Fn(function) => function.function.body.as_ref().map(|b| &b.stmts),
            _ => None,
        });
        let mut run: Group = Vec::new();
        for statement in body.into_iter().flatten() {
            let registers =
                matches!(statement, Stmt::Expr(e) if matches!(&*e.expr, Expr::Call(c) if registration(c).is_some()));
            if registers {
                let span = statement.span();
                run.push((self.parsed.offset(span.lo) as usize, self.parsed.offset(span.hi) as usize));
            } else {
                if run.len() > 1 {
                    self.found.push(run.clone());
                }
                run.clear();
            }
        }
        if run.len() > 1 {
            self.found.push(run);
        }
    }
}

/// `text[start..end]` with every group inside it reversed, each member rendered the same way.
fn render(text: &str, groups: &[Group], start: usize, end: usize) -> String {
    let mut out = String::new();
    let mut at = start;
    while let Some(group) = groups.iter().find(|g| g[0].0 >= at && g[g.len() - 1].1 <= end) {
        let (first, last) = (group[0].0, group[group.len() - 1].1);
        out.push_str(&text[at..first]);
        let gaps: Vec<&str> = group.windows(2).map(|pair| &text[pair[0].1..pair[1].0]).collect();
        for (i, member) in group.iter().rev().enumerate() {
            if i > 0 {
                out.push_str(gaps[i - 1]);
            }
            out.push_str(&render(text, groups, member.0, member.1));
        }
        at = last;
    }
    out.push_str(&text[at..end]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_are_reversed_at_every_level_and_nothing_else_moves() {
        let suite = "const a = require('x');\n\
                     describe(\"C\", () => {\n  \
                       describe(\"m\", () => {\n    test(\"1\", () => {});\n    test(\"2\", () => {});\n  });\n  \
                       const b = 1;\n  \
                       describe(\"n\", () => {\n    it(\"3\", function () {});\n  });\n  \
                       describe(\"o\", () => {\n    test.skip(\"4\", () => {});\n  });\n\
                     });\n";
        let reversed = reversed(Path::new("/suite.test.js"), suite.to_string()).unwrap();
        let order: Vec<&str> =
            ["\"1\"", "\"2\"", "\"3\"", "\"4\"", "const b", "\"m\"", "\"n\"", "\"o\""].into_iter().collect();
        let at = |needle: &str| reversed.find(needle).unwrap_or_else(|| panic!("{needle} in {reversed}"));
        assert!(at(order[1]) < at(order[0]), "{reversed}");
        // `const b` splits the groups: `m` stays first, `o` now comes before `n`.
        assert!(at(order[5]) < at(order[4]) && at(order[4]) < at(order[7]) && at(order[7]) < at(order[6]));
        assert_eq!(reversed.len(), suite.len());
        assert!(reversed.starts_with("const a = require('x');\ndescribe(\"C\""));
    }
}
