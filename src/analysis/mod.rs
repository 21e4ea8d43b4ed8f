//! Reading the code under test: parsing, the files it loads, whether it shares state between tests, and
//! the classes it defines.

pub mod arity;
pub mod classes;
pub mod constants;
pub mod fields;
pub mod files;
pub mod parse;
pub mod state;
pub mod throws;
pub mod typeofs;
