//! The integration tests, one file per subject, built as one test binary: each file of `tests/` was a
//! binary of its own, linked against the library and every dependency on its own, and `cargo test` ran
//! them one after another (a file with one long test left a core idle). Run a file's tests with
//! `cargo test --release --test it FILE::` (`cargo test --release --test it typescript_suites::`).
//!
//! A new file of tests goes here, beside the others, and gets its `mod` line below (the test at the end
//! checks both). Tests share the process: none may change its environment, current directory or other
//! global state (each writes under a temporary folder of its own and runs programs with what they need).

#[path = "../common/mod.rs"]
mod common;

mod abstract_bases;
mod async_iterables;
mod bad_input;
mod bench;
mod budget;
mod callbacks;
mod declared_types;
mod deferred;
mod describing;
mod evidence;
mod explore;
mod factories;
mod formats;
mod functions;
mod generate;
mod goals;
mod heldout;
mod hostile;
mod isolation;
mod jobs;
mod layers;
mod loading;
mod mutate;
mod npm_package;
mod parsers;
mod published;
mod receivers;
mod record;
mod relations;
mod reproducible;
mod returned;
mod sandbox;
mod sandbox_parity;
mod session;
mod statics;
mod strategies;
mod structured;
mod suite_quality;
mod tables;
mod typeof_checks;
mod typescript_fixtures_run;
mod typescript_input;
mod typescript_projects;
mod typescript_suites;
mod update;
mod verify;
mod walls;

/// Every file of tests is a module of this binary: none is left at the top of `tests/` (cargo would build
/// it as a binary of its own again), and none in `tests/it/` lacks its `mod` line (it would never run).
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let tests = common::root().join("tests");
    let at_top: Vec<String> = std::fs::read_dir(&tests)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs"))
        .collect();
    assert!(at_top.is_empty(), "move {at_top:?} into tests/it/ and declare each with `mod` in tests/it/main.rs");
    let main = std::fs::read_to_string(tests.join("it/main.rs")).unwrap();
    for entry in std::fs::read_dir(tests.join("it")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "main") else { continue };
        assert!(main.contains(&format!("\nmod {module};\n")), "tests/it/{name} is no module: add `mod {module};`");
    }
}
