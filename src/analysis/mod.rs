//! Reading the code under test from its syntax trees, before anything runs: parsing and module formats
//! ([`parse`], TypeScript made JavaScript in [`typescript`] under its [`tsconfig`]), the files it loads ([`files`], and the imports of TypeScript types among them that go: [`elision`]) and the packages they come from ([`package`]), whether it writes state that outlives a test ([`state`]), the build-time globals it reads when loading fails on one ([`globals`]),
//! and facts about its functions that generation and inference use (`this` fields, the functions each calls, by name, through its own objects or across files ([`calls`]), arities, constants and the keys of the tables it looks names up in ([`tables`]),
//! `typeof` checks, the lengths it demands of its arguments ([`lengths`]), the members read on copies of options ([`copies`]), thrown values, `**` whose results engines round differently). Finding the classes needs the code loaded: see `discovery`.

pub(crate) mod arity;
pub(crate) mod calls;
pub(crate) mod constants;
pub(crate) mod copies;
pub(crate) mod declared;
pub(crate) mod elision;
pub(crate) mod fields;
pub(crate) mod files;
pub(crate) mod globals;
pub(crate) mod lengths;
pub(crate) mod package;
pub mod parse;
pub(crate) mod rounding;
pub(crate) mod shapes;
pub(crate) mod state;
pub(crate) mod tables;
pub(crate) mod throws;
pub(crate) mod tsconfig;
pub(crate) mod typeofs;
pub(crate) mod typescript;
