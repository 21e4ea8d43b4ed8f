//! Names a function looks up in a table of its file (`FACTORS[unit]`, `ALIASES[word]`): the table's keys
//! are offered as the strings its parameters may be, and a key it reads with is taken for a string.

use crate::common;

use common::*;

const BUDGET: &[&str] = &["--seed", "1", "--budget", "20000", "--timeout", "600"];

#[test]
fn a_name_looked_up_in_a_table_takes_the_table_s_keys() {
    let out = tempfile::tempdir().unwrap();
    let report = generate(&[fixture("tables/units.cjs")], out.path(), BUDGET);
    // Before, `unit` was taken for a number (`FACTORS[unit]` could index an array as well) and no string
    // drawn was a key: 3 of 8 statements of `convert`, past nothing but its `throw`.
    fully_covered(&report, "units", &["convert", "spelling"]);
    let suite = std::fs::read_to_string(out.path().join("units.test.js")).unwrap();
    for key in ["\"nibble\"", "\"gibibyte\""] {
        assert!(suite.contains(key), "{key}: {suite}");
    }
    node_test_passes(&suites(out.path()));
}
