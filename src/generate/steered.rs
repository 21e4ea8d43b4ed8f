//! Values steered away from what the hazards learnt cuts tests off (see [`super::hazards`]): small
//! numbers for a parameter whose large ones were cut off, positive ones for one whose negative ones
//! were, and `1`, `true` or `'1'` for one whose `0`, `false` or `''` were.

use rand::{Rng, RngExt};

use super::hazards::Hazards;
use super::random::{Builder, SMALL_NUMBER};
use super::values::middle_integer;
use crate::model::test::Value;

/// Chance that such a small number is one of hundreds instead, while numbers of hundreds passed to the
/// parameter were not cut off (see [`Hazards::hundreds_chance`]).
const HUNDREDS_PROBABILITY: f64 = 0.25;

impl Builder<'_> {
    /// The chance of a small number for parameter `param`, or for a number inside the value of the
    /// parameter being built (see [`Builder::enclosing`]).
    pub(super) fn small_number_chance(&self, param: Option<u32>) -> f64 {
        let chance = |p: Option<u32>| p.map_or(0.0, |p| self.hazards.small_number_chance(p));
        chance(param).max(chance(self.enclosing))
    }

    /// A small number for parameter `param`, or for a number inside the value of the parameter being
    /// built: now and then one of hundreds, while those were not cut off.
    pub(super) fn small_number(&self, param: Option<u32>, rng: &mut (impl Rng + ?Sized)) -> f64 {
        let chance = |p: Option<u32>| p.map_or(1.0, |p| self.hazards.hundreds_chance(p));
        if rng.random_bool(HUNDREDS_PROBABILITY * chance(param).min(chance(self.enclosing))) {
            middle_integer(rng)
        } else {
            f64::from(rng.random_range(-1..=SMALL_NUMBER))
        }
    }

    /// `value`, or its opposite when it is a negative number and negative numbers of parameter `param`
    /// (or of the one being built) cut tests off (see [`Hazards::positive_number_chance`]); `1`, `true` or
    /// `'1'` for `0`, `false` or `''` when those cut tests off (see [`Hazards::something_chance`]).
    pub(super) fn positive(&self, param: Option<u32>, value: Value, rng: &mut (impl Rng + ?Sized)) -> Value {
        let chance = |learnt: fn(&Hazards, u32) -> f64| {
            let of = |p: Option<u32>| p.map_or(0.0, |p| learnt(self.hazards, p));
            of(param).max(of(self.enclosing))
        };
        // No draw before any such value was cut off: the seeds' suites stay as they were.
        let mut draw = |chance: f64| chance > 0.0 && rng.random_bool(chance);
        match value {
            Value::Number(n) if n < 0.0 && draw(chance(Hazards::positive_number_chance)) => Value::Number(-n),
            Value::Number(n) if n == 0.0 && draw(chance(Hazards::something_chance)) => Value::Number(1.0),
            Value::Boolean(false) if draw(chance(Hazards::something_chance)) => Value::Boolean(true),
            Value::String(s) if s.is_empty() && draw(chance(Hazards::something_chance)) => Value::String("1".into()),
            value => value,
        }
    }
}
