//! Regressions found by running Flycatcher on held-out code (real npm packages), each reproduced on a
//! small self-written fixture: the exported suite must pass where the sandbox passed.

mod common;

use common::{fixture, generate, node_test_passes, suites};

#[test]
fn a_stored_callback_text_is_the_one_the_suite_writes() {
    let out = tempfile::tempdir().unwrap();
    generate(&[fixture("callback-text.js")], out.path(), &["--seed", "7", "--timeout", "2"]);
    let suite = std::fs::read_to_string(out.path().join("Handlers.test.js")).unwrap();
    // The expected value of `describe` holds a callback's text exactly as the suite builds that callback.
    assert!(suite.contains("\"function () { return "), "{suite}");
    assert!(!suite.contains("return result;"), "{suite}");
    node_test_passes(&suites(out.path()));
}
