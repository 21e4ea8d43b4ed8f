//! Parsers: strings that get past the first few characters of a grammar. Search writes the constant a
//! run compared a character or a substring of its input with (or a string a character class it tested
//! there matches) into the input where that part sits, so that a string grows token by token.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "20000", "--timeout", "600"];

/// Statements of `method` the report says its tests covered.
fn covered(report: &serde_json::Value, method: &str) -> u64 {
    methods(report).into_iter().find(|m| m.0 == method).unwrap_or_else(|| panic!("no {method}")).1
}

#[test]
fn a_tokenizer_of_character_codes_is_led_through_several_tokens_in_a_row() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("parsers/directives.cjs")], out.path(), BUDGET);
    let suite = std::fs::read_to_string(out.path().join("directives.test.js")).unwrap();
    // Only past `@`, a name and `{`. Before, 20 of 38 statements, and no string got there.
    assert!(suite.contains("a value has digits"), "{suite}");
    assert!(covered(&report, "directives.directives") >= 27, "{report}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_generated_style_parser_is_led_through_literals_and_character_classes() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("parsers/assignments.cjs")], out.path(), BUDGET);
    let suite = std::fs::read_to_string(out.path().join("assignments.test.js")).unwrap();
    // A key, `=`, a value, then more: only the end was wrong. Before, 46 of 61 statements, and no such
    // string.
    assert!(suite.contains("expected the end at"), "{suite}");
    assert!(covered(&report, "assignments.assignment") >= 56, "{report}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn switch_cases_on_character_codes_and_on_words_are_written_into_the_input() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("parsers/machine.cjs")], out.path(), BUDGET);
    let suite = std::fs::read_to_string(out.path().join("machine.test.js")).unwrap();
    // A program of operations the `case` clauses name, ended by `;`, and a turn one of them names.
    // Before, 18 of 31 and 17 of 27 statements, no program got to its end and no turn was made.
    assert!(suite.contains("\"small: "), "{suite}");
    assert!(suite.contains("heading: \"west\""), "{suite}");
    assert!(covered(&report, "machine.run") >= 22, "{report}");
    assert!(covered(&report, "machine.interpret") >= 22, "{report}");
    node_test_passes(&suites(out.path()));
}

#[test]
fn a_parser_the_module_keeps_to_itself_is_the_goal_of_the_export_that_builds_it() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("parsers/calculator.cjs")], out.path(), BUDGET);
    // `evaluate` builds a `Lexer` and a `Parser` of the module's: their methods it runs (not `unused`,
    // nor the constructors) are its goal. Before, its goal was its own five statements, covered by two
    // tests.
    let (_, covered, statements, _) =
        methods(&report).into_iter().find(|m| m.0 == "calculator.evaluate").expect("evaluate");
    assert!((80..=95).contains(&statements), "{report}");
    assert!(covered >= 60, "{report}");
    node_test_passes(&suites(out.path()));
}
