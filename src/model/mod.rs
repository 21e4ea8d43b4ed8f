//! The model every layer shares: the program under test as found ([`program`]), a candidate test
//! ([`test`](mod@test)), what a run observed ([`observed`]) and the settings of a run ([`settings`]). Plain data
//! and the queries on it; nothing here runs JavaScript, generates or decides.

pub mod observed;
pub(crate) mod program;
pub mod settings;
pub mod test;
