//! Flycatcher writes unit tests for JavaScript classes by itself.
//!
//! The pipeline, one module per concept: [`analysis`] reads the code under test and finds its classes,
//! [`program`] is the model of what was found, [`instrument`] adds coverage probes, [`sandbox`] runs code
//! in QuickJS under limits, [`generate`] builds candidate tests, [`inference`] turns recorded uses of
//! unknown parameters into types, [`session`] steps the whole loop one candidate at a time, [`suite`]
//! turns the elected tests into files for real JavaScript test runners, [`mutate`] measures their strength
//! on mutants of the code, and [`report`] summarises a run. [`record`] turns a real run of an entry script
//! into seeds and replay tests, [`project`] keeps a person's choices between runs, and [`tui`] is the
//! terminal UI over the stepper.

pub mod analysis;
pub mod bench;
pub mod error;
pub mod generate;
pub mod inference;
pub mod instrument;
pub mod mutate;
pub mod program;
pub mod project;
pub mod record;
pub mod report;
pub mod sandbox;
pub mod session;
pub mod suite;
pub mod tui;
