//! Type inference for parameters: what recording proxies saw, and the types decided from it.
//!
//! Every parameter of every constructor and method is a [`ParamKey`]. Until its type is decided, tests
//! pass it a recording proxy; each use adds member accesses and primitive coercions (scored by
//! [`hints`]) to its [`ParamRecord`]. Once it has been used `delay` times, [`decide()`] applies the
//! Flycatcher rules: the best matching class; else Number members → number; else String members →
//! string; else the coercion scores; with no evidence at all, a random primitive (a "leap of faith").
//!
//! Files: `types.rs` (types and decisions), `record.rs` (one parameter's evidence), `table.rs` (every
//! parameter's record, fed by proxy events), [`hints`] (scoring coercions), [`errors`] (what thrown
//! messages say of the value that caused them), [`patterns`] (the regular expressions its values met, as
//! generators), `decide.rs` (the rules), [`leap`] (leaps of faith on trial) and [`declared`] (types
//! declared in TypeScript, decided before any proxy runs).

mod decide;
pub(crate) mod declared;
pub(crate) mod errors;
pub(crate) mod hints;
pub(crate) mod leap;
pub(crate) mod patterns;
mod record;
mod table;
mod types;

pub(crate) use decide::{CALLED, decide, is_index};
pub(crate) use record::{ParamKey, ParamRecord};
pub(crate) use table::TypeTable;
pub use types::{Decision, DecisionSource, ParamType};
