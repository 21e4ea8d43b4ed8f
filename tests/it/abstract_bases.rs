//! Abstract bases: a class whose constructor refuses direct use, or whose methods use members only its
//! subclasses define, has its methods tested on instances of a concrete subclass, and its suite says so.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "60000", "--timeout", "600"];

#[test]
fn an_abstract_bases_methods_run_on_a_concrete_subclass() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("abstract/figures.mjs")], out.path(), BUDGET);
    let methods = methods(&report);
    // `Figure` refuses `new Figure`; `Sequence` builds, but its methods read `this.at` and `this.length`.
    for (name, covered, total, stop) in
        methods.iter().filter(|m| m.0.starts_with("Figure.") || m.0.starts_with("Sequence."))
    {
        assert_eq!(covered, total, "{name} covered {covered}/{total} (stop: {stop})");
    }
    let figure = std::fs::read_to_string(out.path().join("Figure.test.mjs")).unwrap();
    // Both subclasses, the one with the most methods of its own first: `Rect` (it adds `isSquare`).
    assert!(figure.contains("describe(\"Figure, on Rect or Circle instances\""), "{figure}");
    assert!(!figure.contains("new Figure("), "{figure}");
    let sequence = std::fs::read_to_string(out.path().join("Sequence.test.mjs")).unwrap();
    assert!(
        sequence.contains("describe(\"Sequence, on Range instances\"") && sequence.contains("new Range("),
        "{sequence}"
    );
    // A concrete class keeps its own name.
    let rect = std::fs::read_to_string(out.path().join("Rect.test.mjs")).unwrap();
    assert!(rect.contains("describe(\"Rect\""), "{rect}");
    node_test_passes(&suites(out.path()));
}
