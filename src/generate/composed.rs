//! Strings in the structure the code parses: a header of attributes (`"id=7;max-age=60;secure"`), a
//! line of configuration (`"port=8080"`), a list of flags (`"low,strict"`).
//!
//! A parser cuts its input at separators, then compares the pieces with the names it knows (`switch
//! (key.toLowerCase()) { case 'max-age': ... }`). Each half is known apart: the separators from runs
//! (the record's joiners: a split, or a search for a separator, of a string that came from the argument;
//! often in a helper the parameter reaches under another name, `endIndex(str, at)`, which only a run
//! ties to the argument), the names from the code's own literals (the constant pool). Drawn apart, a
//! list of random pieces never holds a name, and a name alone has no separator: composed, every
//! attribute the code knows is one draw away.
//!
//! The joiners come in the order the code first met them, which is the order it cuts: the outer
//! separator first (`;`), then the one of each piece (`=`). A composed string is a few items joined by
//! one joiner; with a later joiner, each item is a name, or a name, that joiner and a value; with none,
//! the first item is a name and the others values (`port=8080` cut by `=` alone). Values are short:
//! numbers, names, or the strings the parameter's items are drawn from, so that suites stay readable.

use rand::Rng;
use rand::RngExt;

use super::random::Builder;
use crate::js::literal;

/// Most items of a composed string.
const MOST_ITEMS: usize = 4;
/// Chance that the outer joiner is the first one met, rather than any.
const FIRST_JOINER: f64 = 0.7;
/// Chance that an item cut again holds a value after its name (`max-age=60`), rather than the name
/// alone (`secure`).
const VALUED: f64 = 0.75;
/// Chance that a value is a number, and that it is a name of the code's.
const NUMBER_VALUE: f64 = 0.35;
const NAME_VALUE: f64 = 0.3;

impl Builder<'_> {
    /// A string of `param`'s joiners and the code's names (see the module's docs), when its values
    /// were seen cut by a joiner and the code has names that none of its joiners cuts.
    pub(super) fn composed(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> Option<String> {
        let joiners = &self.types.get(param).joiners;
        self.constants.word(rng, joiners)?;
        let outer =
            if joiners.len() == 1 || rng.random_bool(FIRST_JOINER) { 0 } else { rng.random_range(0..joiners.len()) };
        let inner = (outer + 1 < joiners.len()).then(|| &joiners[rng.random_range(outer + 1..joiners.len())]);
        let count = if rng.random_bool(0.5) { 2 } else { rng.random_range(1..=MOST_ITEMS) };
        let name = |rng: &mut _| self.constants.word(rng, joiners).map(str::to_string);
        let items: Vec<String> = (0..count)
            .map(|at| match inner {
                Some(inner) => {
                    let key = name(rng).unwrap_or_else(|| self.value(param, rng));
                    if rng.random_bool(VALUED) { format!("{key}{inner}{}", self.value(param, rng)) } else { key }
                }
                None if at == 0 => name(rng).unwrap_or_default(),
                None => self.value(param, rng),
            })
            .collect();
        Some(items.join(&joiners[outer]))
    }

    /// A value after a name: a number, a name of the code's, or an item of `param`'s lists.
    fn value(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> String {
        let draw: f64 = rng.random_range(0.0..1.0);
        if draw < NUMBER_VALUE {
            return literal::number(self.constants.number(rng, |r| f64::from(r.random_range(0..100u8))));
        }
        let joiners = &self.types.get(param).joiners;
        match self.constants.word(rng, joiners) {
            Some(word) if draw < NUMBER_VALUE + NAME_VALUE => word.to_string(),
            _ => self.list_item(param, rng),
        }
    }
}
