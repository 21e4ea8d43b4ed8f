//! Reading the code under test from its syntax trees, before anything runs: parsing and module formats
//! ([`parse`]), the files it loads ([`files`]) and the packages they come from ([`package`]), whether it writes state that outlives a test ([`state`]),
//! and facts about its functions that generation and inference use (`this` fields, arities, constants,
//! `typeof` checks, thrown values, `**` whose results engines round differently). Finding the classes needs the code loaded: see `discovery`.

pub mod arity;
pub mod constants;
pub mod fields;
pub mod files;
pub mod package;
pub mod parse;
pub mod rounding;
pub mod state;
pub mod throws;
pub mod typeofs;
