//! Reading the code under test: parsing, and finding its classes and methods.

pub mod parse;
