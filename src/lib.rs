//! Flycatcher writes unit tests for JavaScript classes by itself.
//!
//! The library is the engine; the `flycatcher` binary only parses arguments and prints, and the
//! terminal UI draws. Its modules stand in layers, each using only those below it (checked by
//! `tests/it/layers.rs`), bottom first:
//!
//! - [`js`]: the JavaScript Flycatcher installs in the sandbox and writes into suites, as `.js` files,
//!   with the `__fc$` names Rust and those programs share; JavaScript literals, `Number(text)` and
//!   regular expressions as generators.
//! - [`error`]: errors a user can act on.
//! - [`model`]: the data every layer shares: the program found, a candidate test, what a run observed,
//!   the settings of a run.
//! - [`analysis`] (the code's syntax trees, before it runs) and [`export`] (suites rendered for real
//!   test runners).
//! - [`instrument`]: coverage probes and branch distances, and the maps back to the original source.
//! - [`sandbox`]: QuickJS contexts holding the instrumented program; tests run there under limits.
//! - [`discovery`]: the classes, found by walking what the loaded program defines.
//! - [`inference`]: parameter types from what recording proxies saw.
//! - [`generate`]: candidate tests, by strategy.
//! - [`suite`]: the elected tests and failing log, with assertions, titles and stability.
//! - [`session`]: the loop, one candidate per step: generate, run, infer, elect, stop.
//! - [`mutate`] (how strong a suite is, on mutants) and [`record`] (seeds and replay tests from a real
//!   run of an entry script).
//! - [`app`]: the flows a person starts (`generate`, `mutate`, `record`, `bench`), the project file and
//!   reports.
//! - [`tui`]: `flycatcher explore`, the terminal UI over the same session.

#![deny(missing_docs)]
// The library's readers are its developers: its docs are built with `--document-private-items`, where
// links to crate-private items resolve. Items are `pub(crate)` so that the compiler finds dead code, not
// to hide the architecture from the module docs that describe it.
#![allow(rustdoc::private_intra_doc_links)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod analysis;
pub mod app;
pub mod discovery;
pub mod error;
pub mod export;
pub mod generate;
pub mod inference;
pub mod instrument;
pub mod js;
pub mod model;
pub mod mutate;
pub mod record;
pub mod sandbox;
pub mod session;
pub mod suite;
pub mod tui;
