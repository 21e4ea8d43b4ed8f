//! Values of the lengths their code demands (see [`crate::analysis::lengths`]): now and then, the array,
//! bytes or string built for a parameter whose function compares its length is made as long as one the
//! code names (`32` of `key.length !== 32`, or one off it, either side of a bound), a multiple of a
//! divisor it uses (`hex.length % 2`), or as long as the call's earlier argument whose length it is
//! compared with (`dst.length < src.length`). Drawn at random, a 12-byte nonce together with a 32-byte
//! key and a destination as long as the source hardly ever meet, and the first check that throws ends
//! every other call.

use rand::{Rng, RngExt};

use super::random::{Builder, MAX_ARRAY_LENGTH};
use crate::inference::{ParamRecord, is_index};
use crate::model::test::Value;

/// Chance that a value of a parameter whose length its code compares is given one of those lengths.
const LENGTH_PROBABILITY: f64 = 0.5;
/// Chance that a length the code names is moved by one: a bound (`nonce.length < 12`) has two sides.
const OFF_BY_ONE_PROBABILITY: f64 = 0.2;
/// Most times a divisor is taken for a multiple of it.
const MAX_MULTIPLE: usize = 4;
/// Longest array made so (its items are written out one by one in a test), and longest string or bytes.
const LONGEST_ARRAY: usize = 32;
const LONGEST: usize = 1024;

/// Chance that an array for a parameter whose code walks its items by index is longer than usual.
const LOOPED_PROBABILITY: f64 = 0.3;
/// Longest such array.
const LONG_ARRAY: usize = 24;

/// The length of `value`, when it has one that [`Builder::fit_length`] can change.
pub(super) fn length_of(value: &Value) -> Option<usize> {
    match value {
        Value::Array(items) => Some(items.len()),
        Value::Bytes { length, .. } => Some(*length),
        Value::String(text) => Some(text.chars().count()),
        _ => None,
    }
}

impl Builder<'_> {
    /// The length of an array built for `param`: short enough to read in a test, but now and then longer
    /// (guided strategies) when its recording proxy had more items read by index than a short array
    /// holds. The code walks it in a loop (`for (i = 0; i < data.length; i += dim)`), and the branches of
    /// such code want more items than a handful: a polygon of a few vertices, a window over a series.
    pub(super) fn array_length(&self, param: u32, rng: &mut (impl Rng + ?Sized)) -> usize {
        // A proxy indexed in a loop has thousands of members: the count stops past a short array's.
        let walked = || self.types.get(param).members.keys().filter(|m| is_index(m)).nth(MAX_ARRAY_LENGTH).is_some();
        // Drawn only where the code walks it: other arrays are built as they were.
        if self.settings.strategy.guided_inputs() && walked() && rng.random_bool(LOOPED_PROBABILITY) {
            rng.random_range(MAX_ARRAY_LENGTH + 1..=LONG_ARRAY)
        } else {
            rng.random_range(0..=MAX_ARRAY_LENGTH)
        }
    }

    /// `value`, built for parameter `param`, now and then made as long as its code demands (see the
    /// module's documentation): bytes keep their fill, an array or a string repeats its own items (an
    /// empty one stays empty) or is cut.
    pub(super) fn fit_length(&self, param: u32, value: Value, rng: &mut (impl Rng + ?Sized)) -> Value {
        let record = self.types.get(param);
        if record.lengths.is_empty()
            || length_of(&value).is_none()
            || !self.settings.strategy.guided_inputs()
            || !rng.random_bool(LENGTH_PROBABILITY)
        {
            return value;
        }
        let Some(length) = self.demanded_length(record, rng) else { return value };
        match value {
            Value::Bytes { fill, .. } if length <= LONGEST => Value::Bytes { length, fill },
            Value::Array(items) if length <= LONGEST_ARRAY && !items.is_empty() => {
                Value::Array(items.iter().cycle().take(length).cloned().collect())
            }
            Value::String(text) if length <= LONGEST && !text.is_empty() => {
                Value::String(text.chars().cycle().take(length).collect())
            }
            other => other,
        }
    }

    /// One of the lengths `record`'s function compares its length with: the length of an earlier
    /// argument of the call, a length it names (moved by one now and then), or a multiple of a divisor.
    fn demanded_length(&self, record: &ParamRecord, rng: &mut (impl Rng + ?Sized)) -> Option<usize> {
        let lengths = &record.lengths;
        let params = self.types.params_of(record.key.class, &record.key.function);
        let related: Vec<usize> = lengths
            .like
            .iter()
            .filter_map(|name| params.iter().find(|p| self.types.get(**p).name == *name))
            .filter_map(|p| self.earlier_lengths.iter().find(|(q, _)| q == p).map(|(_, n)| *n))
            .collect();
        let sources: Vec<usize> = [!related.is_empty(), !lengths.exact.is_empty(), !lengths.multiples.is_empty()]
            .iter()
            .enumerate()
            .filter_map(|(i, has)| has.then_some(i))
            .collect();
        if sources.is_empty() {
            return None;
        }
        Some(match sources[rng.random_range(0..sources.len())] {
            0 => related[rng.random_range(0..related.len())],
            1 => {
                let named = lengths.exact[rng.random_range(0..lengths.exact.len())];
                if rng.random_bool(OFF_BY_ONE_PROBABILITY) {
                    if rng.random_bool(0.5) { named + 1 } else { named.saturating_sub(1) }
                } else {
                    named
                }
            }
            _ => lengths.multiples[rng.random_range(0..lengths.multiples.len())] * rng.random_range(1..=MAX_MULTIPLE),
        })
    }
}
