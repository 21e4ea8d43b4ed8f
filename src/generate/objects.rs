//! Plain objects built for a parameter typed as one: an options object of the members the code read,
//! and structured objects (schemas, syntax trees) whose members the code passes back to a parameter, built
//! in that parameter's shape (see [`crate::analysis::shapes`]).

use rand::Rng;
use rand::RngExt;

use super::random::{Builder, MAX_CONSTRUCTION_DEPTH};
use crate::inference::ParamType;
use crate::js::literal;
use crate::model::test::Value;

/// Chance that an object is built without a member that says its kind (one compared with several
/// literals, see `ParamRecord::discriminates`); other members of a known type are left out half the time.
const DISCRIMINANT_LEFT_OUT: f64 = 0.1;

impl Builder<'_> {
    /// An options object for `param`: the members the code read, each of its own inferred type (a proxy
    /// until decided, always passed so that it shows its use); real options objects leave most members
    /// out, so a decided one is there half the time. Members without a record (nested too deep) are
    /// numbers mostly (counts, limits), else strings or flags. An object whose keys the code lists, or
    /// of which it reads no member by name, gets a few entries of any name as well.
    pub(super) fn options_object(&mut self, param: u32, depth: usize, rng: &mut (impl Rng + ?Sized)) -> Value {
        let types = self.types;
        let mut members = Vec::new();
        for m in types.get(param).type_members().into_iter().filter(|m| literal::is_identifier_name(m)) {
            let member = types.member_of(param, m);
            let too_deep = depth >= MAX_CONSTRUCTION_DEPTH;
            // A primitive member ends no deeper, so its record builds it at any depth.
            let primitive = |member: &u32| {
                matches!(types.get(*member).current_type(), ParamType::Number | ParamType::String | ParamType::Boolean)
            };
            let value = match member.filter(|member| !too_deep || primitive(member)) {
                // A member the code passes to a parameter (its own, recursively: `evaluate(node.left)`)
                // is built as that parameter is, whatever its own record has seen; too deep, left out.
                Some(member) if let Some(shape) = self.shape(types.shape_of(member)) => {
                    if rng.random_bool(0.5) {
                        continue;
                    }
                    self.argument(shape, depth + 1, rng)
                }
                None if member.is_some_and(|member| types.shape_of(member).is_some()) => continue,
                Some(member) if types.get(member).current_type() == ParamType::Unknown => Value::Proxy(member),
                Some(member)
                    if rng.random_bool(if types.get(member).discriminates() { DISCRIMINANT_LEFT_OUT } else { 0.5 }) =>
                {
                    continue;
                }
                Some(member) => self.argument(member, depth + 1, rng),
                None => match rng.random_range(0..4u32) {
                    0 | 1 => self.primitive(ParamType::Number, rng),
                    2 => self.primitive(ParamType::String, rng),
                    _ => Value::Boolean(rng.random_bool(0.5)),
                },
            };
            members.push((m.to_string(), value));
        }
        // Code that lists the object's keys walks whatever entries it has, and code that reads none by
        // name passes it on or walks it: a few more, of any name.
        // A map whose values the code passes to a parameter (`validate(v, props[key])`) holds values of
        // that parameter's shape.
        let values = self.shape(types.values_shape_of(param)).filter(|_| depth < MAX_CONSTRUCTION_DEPTH);
        if let Some(shape) = values {
            let extra = self.entries(rng, |builder, rng| builder.argument(shape, depth + 1, rng));
            members.retain(|(key, _)| !extra.iter().any(|(k, _)| k == key));
            members.extend(extra);
        } else if types.get(param).keys_listed > 0 || types.get(param).type_members().is_empty() {
            let extra = self.entries(rng, any_entry);
            for (key, value) in extra {
                if !members.iter().any(|(k, _)| *k == key) {
                    members.push((key, value));
                }
            }
        }
        // Members the code reads later, once another is set, are reported to the record: see
        // [`Value::Object`].
        Value::Object { members, record: Some(param) }
    }

    /// The parameter `passed_to` (see [`crate::inference::TypeTable::shape_of`]), once its type is decided: values are
    /// built in its shape from then on.
    pub(super) fn shape(&self, passed_to: Option<u32>) -> Option<u32> {
        passed_to.filter(|p| self.types.get(*p).current_type() != ParamType::Unknown)
    }
}

/// The value of an entry of a plain object whose entries the code walks by whatever name they have.
pub(super) fn any_entry(builder: &mut Builder<'_>, rng: &mut (impl Rng + ?Sized)) -> Value {
    match rng.random_range(0..4u32) {
        0 => builder.primitive(ParamType::Number, rng),
        1 => builder.primitive(ParamType::String, rng),
        2 => Value::Boolean(rng.random_bool(0.5)),
        _ => Value::Array(vec![builder.primitive(ParamType::Number, rng), builder.primitive(ParamType::String, rng)]),
    }
}
