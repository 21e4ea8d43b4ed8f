//! Members of a parameter that a function passes to a function under test as one of its parameters
//! (`evaluate(node.left)` inside `evaluate(node)`, `validate(item, schema.items)`, `validate(value,
//! props[key])` after `const props = schema.properties || {}`): the callee reads them as it reads that
//! parameter, so values built for them take that parameter's shape. Structured objects (schemas, syntax
//! trees, nested filters or options) are recursive this way: what a test must build to reach the code
//! that reads `node.left.type` is a node, not a member of its own kind.
//!
//! Read from the syntax tree: a recording proxy sees the reads on a member, but not that they are the
//! reads of another parameter, and an inert proxy returned for `node.left` never shows them at all.

use std::ops::Range;

use super::typeofs::{Alias, NamedCall};

/// A member chain of a parameter passed as an argument of a named call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Passed {
    /// The chain from a parameter of the caller (`node.left`), ending in [`super::typeofs::ANY_VALUE`] for the value of
    /// any key (`schema.properties[]`, from `props[key]`).
    pub path: String,
    /// The name called.
    pub callee: String,
    /// The position of the argument.
    pub index: usize,
}

/// The members of `params` (the parameters of the function spanning `range`) that the `calls` within
/// `range` pass, seen through the `aliases` declared there (`const props = schema.properties || {}`).
pub(crate) fn members_passed(
    calls: &[NamedCall],
    aliases: &[Alias],
    range: Range<u32>,
    params: &[String],
) -> Vec<Passed> {
    let mut found = Vec::new();
    for call in calls.iter().filter(|c| range.contains(&c.at)) {
        for (index, arg) in call.args.iter().enumerate() {
            let Some(arg) = arg else { continue };
            let path = unaliased(arg, aliases, range.start..call.at);
            let root_end = path.find(['.', '[']).unwrap_or(path.len());
            if root_end < path.len() && params.iter().any(|p| *p == path[..root_end]) {
                found.push(Passed { path, callee: call.callee.clone(), index });
            }
        }
    }
    found
}

/// `path` with its root replaced by what the last alias of it declared within `range` names, a few
/// aliases deep.
fn unaliased(path: &str, aliases: &[Alias], range: Range<u32>) -> String {
    let mut path = path.to_string();
    for _ in 0..4 {
        let root_end = path.find(['.', '[']).unwrap_or(path.len());
        let alias =
            aliases.iter().rev().find(|a| range.contains(&a.at) && a.name == path[..root_end] && a.name != a.of);
        match alias {
            Some(alias) => path = format!("{}{}", alias.of, &path[root_end..]),
            None => break,
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::parse::parse_source;
    use crate::analysis::typeofs::flows;
    use std::path::Path;

    fn passed(code: &str, params: &[&str]) -> Vec<(String, String, usize)> {
        let parsed = parse_source(Path::new("/nonexistent/t.js"), "t.js", code.into()).unwrap();
        let base = parsed.source.start_pos.0;
        let (calls, aliases) = flows(&parsed.program, base);
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        members_passed(&calls, &aliases, 0..code.len() as u32, &params)
            .into_iter()
            .map(|p| (p.path, p.callee, p.index))
            .collect()
    }

    #[test]
    fn members_passed_back_are_found_through_aliases_and_computed_keys() {
        let code = "function validate(instance, schema) {\n\
                    const props = schema.properties || {};\n\
                    for (const k of Object.keys(props)) validate(instance[k], props[k]);\n\
                    validate(instance, schema.items); check(schema); other(x.y); }";
        let found = passed(code, &["instance", "schema"]);
        let expected =
            [("instance[]", "validate", 0), ("schema.properties[]", "validate", 1), ("schema.items", "validate", 1)];
        let expected: Vec<(String, String, usize)> =
            expected.iter().map(|(p, c, i)| (p.to_string(), c.to_string(), *i)).collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn a_parameter_passed_whole_is_no_member() {
        assert_eq!(
            passed("function f(node) { return f(node) + g(node.left.right); }", &["node"]),
            [("node.left.right".to_string(), "g".to_string(), 0)]
        );
    }
}
