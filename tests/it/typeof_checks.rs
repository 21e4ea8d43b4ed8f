//! `typeof` checks read from the syntax tree are evidence about the parameter they name, and only that
//! one: a nested function's own parameter of the same name hides it.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "20000", "--timeout", "600"];

#[test]
fn a_callback_s_own_parameter_is_not_the_function_s() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("typeofs/shadowed.cjs")], out.path(), BUDGET);
    // Before, the callback's `typeof text === 'object'` made `tokens`'s `text` an object: the regular
    // expression found only the letters of "[object Object]", never a number (12 of 15 statements).
    let text = report["types"].as_array().unwrap().iter().find(|t| t["parameter"] == "text").unwrap();
    assert_eq!(text["type"], "string", "{text}");
    let tokens = methods(&report).into_iter().find(|m| m.0.ends_with(".tokens")).unwrap();
    // All but the callback's `return acc` for an object, which no string reaches.
    assert_eq!((tokens.1, tokens.2), (14, 15), "{tokens:?}");
    node_test_passes(&suites(out.path()));
}
