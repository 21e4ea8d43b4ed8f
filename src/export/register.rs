//! How tests are registered with each runner: in `describe` groups (one per method under test) for runners
//! that have them, otherwise under titles that start with the group, in the shape the runner expects (an
//! exported object, a vows batch, the assert format's own list). Every test is `withSubjects(seeded(seed,
//! body))`, its body a function of the bound classes; titles are made single-line and unique.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::loader::{Import, Js};
use super::typescript::class_type;
use super::{ExportSuite, ExportTest, Format, js_string, statement};
use crate::js::runners::{ASSERT_RUN_JS, EXPRESSO_SETTLED_JS, SETTLE_JS, VOWS_PASSES_JS};

/// Why the tests of a failing suite are skipped, for runners that show a reason.
const SKIP_REASON: &str = "it throws unexpectedly: a possible bug; remove the skip to see the error";

/// Names that runners give a meaning as keys of a test object (or that set an object's prototype).
const RESERVED_TITLES: &[&str] = &["__proto__", "setUp", "tearDown", "setup", "teardown", "topic", "on", "events"];

/// Tests by group (a group's name and its tests), groups in the order of their first test.
type Groups<'a> = Vec<(&'a str, Vec<&'a ExportTest>)>;

/// Writes the tests, registered the way `format`'s runner expects.
pub(super) fn write_tests(js: &mut Js, suite: &ExportSuite, format: Format) {
    // A TypeScript body's parameters carry the types of the classes they are.
    let params: Vec<Param> = suite
        .bindings
        .iter()
        .map(|binding| Param {
            alias: &binding.alias,
            typed: suite.typescript.as_ref().map(|_| class_type(&binding.alias)),
        })
        .collect();
    let aliases = &params[..];
    let groups = groups(&suite.tests);
    if format.has_groups() {
        write_grouped(js, suite, format, &groups, aliases);
    } else {
        write_flat(js, suite, format, &groups, aliases);
    }
}

/// Writes the tests for a runner with `describe`: one describe per class, one per method under test inside it.
fn write_grouped(js: &mut Js, suite: &ExportSuite, format: Format, groups: &Groups, aliases: &[Param]) {
    let test_function = match format {
        Format::NodeTest => {
            js.import("node:test", Import::Named("describe"));
            js.import("node:test", Import::Named("test"));
            "test"
        }
        Format::Vitest => {
            js.import("vitest", Import::Named("describe"));
            js.import("vitest", Import::Named("test"));
            "test"
        }
        Format::Mocha => "it",
        // TypeScript needs jest's globals imported to know their types.
        Format::Jest if suite.typescript.is_some() => {
            js.import("@jest/globals", Import::Named("describe"));
            js.import("@jest/globals", Import::Named("test"));
            "test"
        }
        _ => "test",
    };
    let skip = if suite.failing { ".skip" } else { "" };
    js.line(&format!("describe({}, () => {{", js_string(&suite.describe)));
    for (group, tests) in groups {
        let titles = unique_titles(tests.iter().map(|test| test.title.as_str()));
        let nested = !group.is_empty();
        let indent = if nested { 4 } else { 2 };
        if nested {
            js.line(&format!("  describe({}, () => {{", js_string(group)));
        }
        for (test, title) in tests.iter().zip(&titles) {
            js.line(&format!(
                "{:indent$}{test_function}{skip}({}, () => withSubjects(seeded({}, {})));",
                "",
                js_string(title),
                test.seed,
                test_body(test, aliases, indent)
            ));
        }
        if nested {
            js.line("  });");
        }
    }
    js.line("});");
}

/// Writes the tests for a runner without groups: the group starts each title.
fn write_flat(js: &mut Js, suite: &ExportSuite, format: Format, groups: &Groups, aliases: &[Param]) {
    let flat: Vec<String> = groups
        .iter()
        .flat_map(|(group, tests)| {
            tests.iter().map(
                move |test| {
                    if group.is_empty() { test.title.clone() } else { format!("{group}: {}", test.title) }
                },
            )
        })
        .collect();
    let titles = unique_titles(flat.iter().map(String::as_str));
    let ordered = groups.iter().flat_map(|(_, tests)| tests.iter().copied());
    let FlatLayout { before, open, close, indent, after } = flat_layout(js, suite, format);
    if !before.is_empty() {
        js.line(&before);
    }
    for (test, title) in ordered.zip(&titles) {
        let open = open.replace("TITLE", &js_string(title));
        js.line(&format!("{open}seeded({}, {}){close}", test.seed, test_body(test, aliases, indent)));
    }
    if !after.is_empty() {
        js.line(&after);
    }
}

/// How a runner without groups takes its tests.
struct FlatLayout {
    /// The text before the tests (none when empty).
    before: String,
    /// Each test's opening before its body; `TITLE` becomes the test's title.
    open: &'static str,
    /// Each test's closing after its body.
    close: &'static str,
    /// The indentation of the body's closing brace (its statements are 2 spaces further in).
    indent: usize,
    /// The text after the tests (none when empty).
    after: String,
}

/// The layout of `format`'s tests, once the helpers its tests call are written (and imported).
fn flat_layout(js: &mut Js, suite: &ExportSuite, format: Format) -> FlatLayout {
    match format {
        Format::Assert => {
            js.import("node:util", Import::Named("inspect"));
            let skipping = if suite.failing { js_string(SKIP_REASON) } else { "false".to_string() };
            let after = format!("];\nconst skipping = {skipping};\n\n{ASSERT_RUN_JS}");
            FlatLayout { before: "const tests = [".to_string(), open: "  [TITLE, ", close: "],", indent: 2, after }
        }
        Format::Nodeunit => {
            js.line(SETTLE_JS);
            FlatLayout {
                before: String::new(),
                open: "exports[TITLE] = (test) => settle(",
                close: ", (error) => test.done(error));",
                indent: 0,
                after: String::new(),
            }
        }
        Format::Expresso => {
            js.line(SETTLE_JS);
            js.line(EXPRESSO_SETTLED_JS);
            FlatLayout {
                before: "module.exports = {".to_string(),
                open: "  TITLE: (beforeExit) => beforeExit(settled(",
                close: ")),",
                indent: 2,
                after: "};".to_string(),
            }
        }
        Format::Vows => {
            js.import("vows", Import::Default("vows"));
            js.line(SETTLE_JS);
            js.line(VOWS_PASSES_JS);
            FlatLayout {
                before: format!("vows.describe({}).addBatch({{", js_string(&suite.describe)),
                open: "  TITLE: {\n    topic: function () {\n      settle(",
                close: ", (error) => this.callback(error));\n    },\n    passes,\n  },",
                indent: 6,
                after: "}).export(module);".to_string(),
            }
        }
        Format::NodeTest | Format::Jest | Format::Mocha | Format::Vitest => unreachable!("formats with groups"),
    }
}

/// The tests by group, groups in the order of their first test.
fn groups(tests: &[ExportTest]) -> Groups<'_> {
    let mut groups: Groups = Vec::new();
    for test in tests {
        match groups.iter_mut().find(|(group, _)| *group == test.group) {
            Some((_, members)) => members.push(test),
            None => groups.push((&test.group, vec![test])),
        }
    }
    groups
}

/// A parameter of every test body: a bound class, and the type it is declared with in TypeScript.
struct Param<'a> {
    alias: &'a str,
    typed: Option<String>,
}

impl Param<'_> {
    /// The parameter as written before `body`. A typed one the body does not mention is named with a
    /// leading `_` (then unique among `params`), which `noUnusedParameters` lets pass unread: projects turn
    /// it on, and a test reaches only some of the classes it is given.
    fn declared(&self, body: &str, params: &[Param]) -> String {
        let Some(typed) = &self.typed else { return self.alias.to_string() };
        let mut name = self.alias.to_string();
        if !mentions(body, &name) {
            name.insert(0, '_');
            while params.iter().any(|p| p.alias == name) || mentions(body, &name) {
                name.insert(0, '_');
            }
        }
        format!("{name}: {typed}")
    }
}

/// Whether `name` appears in `text` as a whole identifier (in a string too: a name kept needlessly is
/// harmless, one dropped is not).
fn mentions(text: &str, name: &str) -> bool {
    let identifier = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(identifier) && !after.is_some_and(identifier)
    })
}

/// A test as a function of the bound classes; its statements are indented by `indent` + 2 spaces.
fn test_body(test: &ExportTest, params: &[Param], indent: usize) -> String {
    let asynchronous = if test.awaits() { "async " } else { "" };
    let mut body = String::new();
    for line in &test.lines {
        for physical in statement(line).lines() {
            let _ = writeln!(body, "{:indent$}  {physical}", "", indent = indent);
        }
    }
    let declared: Vec<String> = params.iter().map(|p| p.declared(&body, params)).collect();
    format!("{asynchronous}function ({}) {{\n{body}{:indent$}}}", declared.join(", "), "", indent = indent)
}

/// Single-line, trimmed titles, none reserved by a runner, all distinct; equal titles get ` (2)`, ` (3)`, ...
pub(super) fn unique_titles<'a>(titles: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut taken = HashSet::new();
    titles
        .map(|title| {
            let flat: String = title.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            let mut base = flat.trim().to_string();
            if base.is_empty() {
                base = "test".to_string();
            }
            if RESERVED_TITLES.contains(&base.as_str()) {
                base.push_str(" (test)");
            }
            let title = (1..)
                .map(|n| if n == 1 { base.clone() } else { format!("{base} ({n})") })
                .find(|title| !taken.contains(title))
                .expect("some numbered title is free");
            taken.insert(title.clone());
            title
        })
        .collect()
}
