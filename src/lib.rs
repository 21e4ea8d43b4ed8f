//! Flycatcher writes unit tests for JavaScript classes by itself.
//!
//! The pipeline, one module per concept: [`analysis`] parses the code under test and finds its classes,
//! [`program`] is the model of what was found, [`instrument`] adds coverage probes, [`sandbox`] runs code in
//! QuickJS under limits, [`generate`] builds candidate tests, [`inference`] turns recorded uses of unknown
//! parameters into types, [`session`] steps the whole loop one candidate at a time, and [`suite`] turns the
//! elected tests into files for real JavaScript test runners.

pub mod analysis;
