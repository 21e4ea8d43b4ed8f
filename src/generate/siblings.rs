//! Values of one argument drawn from another's. Code often takes a collection and then values that must
//! be in it: edges between the nodes it was given (`sort(nodes, edges)`), an item to find in a list
//! (`position(list, item)`), keys to pick from an object's. Drawn apart, such values hardly ever meet,
//! and the code stops at its first check (`unknown node`). So, now and then, while an argument of a
//! call is built, its numbers and strings are drawn from those held inside the call's earlier arguments
//! (items of arrays, members of objects, entries of maps and sets), all of them, so that a whole list of
//! edges fits. Such a collection read only by index (`edge[0]`, `nodes[i]`) may have been taken for a
//! string, which answers indexes as well: now and then it is an array. Values passed earlier in the test
//! are drawn as well, as a key put into a map must be given again to find it.

use rand::Rng;
use rand::RngExt;

use super::random::{Builder, MAX_ARRAY_LENGTH};
use crate::inference::{ParamType, is_index};
use crate::model::test::{Statement, Value};

/// Chance of passing a number or string already passed earlier in the test (guided strategies only).
const EARLIER_PRIMITIVE_PROBABILITY: f64 = 0.2;
/// Chance of an array for a parameter decided a string whose code reads nothing of it but indexes (and
/// `length`): a string and an array answer both alike (`edge[0]`, `nodes[i]`), and inference chose one.
const INDEXED_ARRAY_PROBABILITY: f64 = 0.3;
/// Chance that such an array is as long as the largest index read needs (a pair for `edge[0]`,
/// `edge[1]`) rather than of any length.
const TUPLE_PROBABILITY: f64 = 0.5;
/// Chance that an argument draws its numbers and strings from those inside the call's earlier arguments,
/// when they hold any (guided strategies only).
const FIT_PROBABILITY: f64 = 0.3;

/// The primitives of a call's earlier arguments, and whether the argument being built draws from them.
#[derive(Debug, Default)]
pub(super) struct Siblings {
    values: Vec<Value>,
    drawing: bool,
}

impl Builder<'_> {
    /// Sometimes (guided strategies) a number or string (of type `ty`; any primitive without one)
    /// passed earlier in the test: a key put into a map is found again only by the same key, an id given
    /// to `add` is the one `remove` must name.
    pub(super) fn earlier_primitive(&self, ty: Option<ParamType>, rng: &mut (impl Rng + ?Sized)) -> Option<Value> {
        if !self.settings.strategy.guided_inputs() {
            return None;
        }
        // Counted before anything is collected: this runs for every number and string argument.
        let earlier = || {
            self.test.statements.iter().flat_map(Statement::args).filter(move |v| match ty {
                Some(ParamType::Number) => matches!(v, Value::Number(_)),
                Some(_) => matches!(v, Value::String(_)),
                None => matches!(v, Value::Number(_) | Value::String(_) | Value::Boolean(_)),
            })
        };
        let count = earlier().count();
        if count == 0 || !rng.random_bool(EARLIER_PRIMITIVE_PROBABILITY) {
            return None;
        }
        earlier().nth(rng.random_range(0..count)).cloned()
    }

    /// Now and then an array, for a parameter decided a string of which its code reads only indexes
    /// and `length` (see [`INDEXED_ARRAY_PROBABILITY`]): items are numbers or strings, from the call's
    /// earlier arguments when it draws from them.
    pub(super) fn indexed_items(&self, param: u32, ty: ParamType, rng: &mut (impl Rng + ?Sized)) -> Option<Value> {
        if ty != ParamType::String {
            return None;
        }
        let members = self.types.get(param).type_members();
        let indexes: Vec<usize> =
            members.iter().filter_map(|m| m.parse::<usize>().ok().filter(|_| is_index(m))).collect();
        if indexes.is_empty()
            || !members.iter().all(|m| is_index(m) || *m == "length")
            || !rng.random_bool(INDEXED_ARRAY_PROBABILITY)
        {
            return None;
        }
        let largest = indexes.iter().copied().max().unwrap_or(0);
        let length = if largest < MAX_ARRAY_LENGTH && rng.random_bool(TUPLE_PROBABILITY) {
            largest + 1
        } else {
            self.array_length(param, rng)
        };
        let of = if rng.random_bool(0.5) { ParamType::Number } else { ParamType::String };
        Some(Value::Array(
            (0..length).map(|_| self.sibling(None, rng).unwrap_or_else(|| self.primitive(of, rng))).collect(),
        ))
    }

    /// Chooses whether the next argument of a call, after `earlier`, draws its numbers and strings from
    /// those inside `earlier`; a top-level primitive of theirs does not count (an earlier primitive of
    /// the test may be drawn anyway, see [`Builder::earlier_primitive`]).
    pub(super) fn choose_siblings(&mut self, earlier: &[Value], rng: &mut (impl Rng + ?Sized)) {
        let mut values = Vec::new();
        for value in earlier {
            collect(value, false, &mut values);
        }
        let drawing = !values.is_empty() && self.settings.strategy.guided_inputs() && rng.random_bool(FIT_PROBABILITY);
        self.siblings = Siblings { values, drawing };
    }

    /// A number or string (of type `ty`; either without one) from the call's earlier arguments, when the
    /// argument being built draws from them.
    pub(super) fn sibling(&self, ty: Option<ParamType>, rng: &mut (impl Rng + ?Sized)) -> Option<Value> {
        if !self.siblings.drawing {
            return None;
        }
        let fits = |v: &&Value| match ty {
            Some(ParamType::Number) => matches!(v, Value::Number(_)),
            Some(ParamType::String) => matches!(v, Value::String(_)),
            _ => true,
        };
        let count = self.siblings.values.iter().filter(fits).count();
        (count > 0).then(|| self.siblings.values.iter().filter(fits).nth(rng.random_range(0..count)).cloned()).flatten()
    }
}

/// Pushes the numbers and strings inside `value` (itself too when `nested`) onto `out`.
fn collect(value: &Value, nested: bool, out: &mut Vec<Value>) {
    match value {
        Value::Number(_) | Value::String(_) if nested && !out.contains(value) => out.push(value.clone()),
        Value::Array(items) | Value::Set(items) => items.iter().for_each(|item| collect(item, true, out)),
        Value::Object { members, .. } => members.iter().for_each(|(key, member)| {
            // Keys are what a lookup by name needs (`key in table`, `table[key]`).
            collect(&Value::String(key.clone()), true, out);
            collect(member, true, out);
        }),
        Value::Map(entries) => entries.iter().for_each(|(key, item)| {
            collect(key, true, out);
            collect(item, true, out);
        }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_inside_arguments_are_collected_once_and_top_level_primitives_are_not() {
        let mut out = Vec::new();
        collect(&Value::String("top".into()), false, &mut out);
        let nodes = Value::Array(vec![Value::String("a".into()), Value::String("b".into()), Value::String("a".into())]);
        collect(&nodes, false, &mut out);
        collect(
            &Value::object(vec![("key".into(), Value::Number(2.0)), ("flag".into(), Value::Boolean(true))]),
            false,
            &mut out,
        );
        let strings = |names: &[&str]| names.iter().map(|n| Value::String((*n).into())).collect::<Vec<_>>();
        let mut expected = strings(&["a", "b", "key"]);
        expected.push(Value::Number(2.0));
        expected.extend(strings(&["flag"]));
        assert_eq!(out, expected);
    }
}
