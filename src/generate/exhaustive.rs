//! Bounded-exhaustive generation: every call sequence, shortest first, with every combination of values
//! from small canonical pools (`0`, `1`, `-1`, `''`, `'a'`, `true`, `null`...), in a fixed order.
//!
//! A sequence of length n is the receiver's construction, n - 1 calls of the class's methods and the
//! method under test last. Sequences are taken in order of length, then of the methods called, then of
//! the values (the last argument varies fastest). An instance parameter takes a new instance (built from
//! canonical values that differ from one instance to the next), the latest or the first earlier variable
//! of its class, or `null`: that is how aliasing and "the same node again" appear. While a parameter of
//! the sequence at the current position has no type yet, random candidates with recording proxies stand
//! in (inference needs varied uses), and the enumeration waits.
//!
//! The combined strategy (Andrews, Zhang and Groce, "best of both worlds") enumerates sequences of up to
//! [`COMBINED_CALLS`] calls, at most [`COMBINED_CANDIDATES`] candidates, then generates guided random
//! tests. The exhaustive strategy goes on enumerating longer sequences, up to the most calls allowed,
//! and then starts again.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::random::{Builder, generate as random_test};

use super::Request;
use super::declared::literal_value;
use super::values::REGEXPS;
use crate::analysis::declared::DeclaredType;
use crate::inference::{DecisionSource, ParamType, TypeTable};
use crate::model::program::ClassId;
use crate::model::settings::Strategy;
use crate::model::test::{Statement, TestCase, Value};

/// Longest call sequence the combined strategy enumerates before going random.
pub const COMBINED_CALLS: usize = 2;
/// Most candidates the combined strategy enumerates per method before going random, so that a method
/// with many parameters still gets to the random phase.
pub(crate) const COMBINED_CANDIDATES: u64 = 2_000;
/// How deep constructor arguments nest before `null` is passed instead.
const MAX_DEPTH: usize = 3;

const NUMBERS: [f64; 5] = [0.0, 1.0, -1.0, 2.0, 0.5];
const STRINGS: [&str; 3] = ["", "a", "ab"];
/// 1970-01-01, Saturday 2024-01-06 and Monday 2024-01-08, in milliseconds.
const DATES: [f64; 3] = [0.0, 1_704_499_200_000.0, 1_704_672_000_000.0];
/// Draws from the declaration enumerated for a parameter of a declared type other than a primitive or
/// literals (an options object, a callback, an instance...).
const DECLARED_DRAWS: u128 = 4;
/// What an instance parameter takes, in this order.
const INSTANCE_CHOICES: u128 = 4;

/// How far one method's call sequences have been enumerated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Enumeration {
    /// Calls in the current sequences (0 before the first candidate).
    calls: usize,
    /// Which methods the calls before the method under test call: digits in base "callable methods".
    shape: u64,
    /// Which combination of values, within the shape.
    index: u128,
    /// Valid candidates enumerated so far.
    pub enumerated: u64,
}

impl Enumeration {
    /// Calls in the sequences being enumerated (1 for the method under test alone).
    pub(crate) fn calls(&self) -> usize {
        self.calls.max(1)
    }
}

/// The next candidate of `method` of `class` under an exhaustive strategy (the combined strategy's
/// random phase included), moving `enumeration` past it when its types are all known; the random
/// tests take states of argument instances from the `elected` tests.
pub(crate) fn generate(request: &Request, enumeration: &mut Enumeration, rng: &mut (impl Rng + ?Sized)) -> TestCase {
    let Request { program, types, settings, class, method, .. } = *request;
    let bounded = settings.strategy == Strategy::Combined;
    if bounded && (enumeration.calls() > COMBINED_CALLS || enumeration.enumerated >= COMBINED_CANDIDATES) {
        return random_test(request, rng);
    }
    // The calls before the method under test reach a state the way a user would: by public methods.
    let callable: Vec<&str> = program.classes[class].methods_to_call().map(|(_, m)| m.name.as_str()).collect();
    let max_calls = if callable.is_empty() { 1 } else { settings.max_calls.max(1) };
    enumeration.calls = enumeration.calls();
    let calls = shape_calls(&callable, enumeration, method);
    let radices: Vec<u128> = slots(types, class, &calls).iter().map(|p| radix_of(types, *p)).collect();
    let size = radices.iter().fold(1u128, |size, r| size.saturating_mul(*r));
    let mut digits = vec![0u128; radices.len()];
    let mut rest = enumeration.index;
    for (digit, radix) in digits.iter_mut().zip(&radices).rev() {
        *digit = rest % radix;
        rest /= radix;
    }
    let mut builder = Builder::new(request);
    let mut digits = digits.into_iter();
    let receiver = construct(&mut builder, class, &mut digits, 0);
    for (position, name) in calls.iter().enumerate() {
        let args =
            builder.types.params_of(class, name).iter().map(|p| value(&mut builder, *p, &mut digits, 0)).collect();
        let under_test = position + 1 == calls.len();
        builder.test.statements.push(Statement::call(receiver, *name, args, under_test));
    }
    let test = builder.test;
    if !test.is_valid() {
        // The same sequence again would show a proxy the same uses every time (an empty schedule never
        // calls its callback): random sequences give inference varied evidence, as in the report.
        return random_test(request, rng);
    }
    enumeration.enumerated += 1;
    advance(enumeration, size, callable.len() as u64, max_calls);
    test
}

/// The methods a candidate calls at the enumeration's position, the method under test last.
fn shape_calls<'a>(callable: &[&'a str], enumeration: &Enumeration, method: &'a str) -> Vec<&'a str> {
    let mut calls = Vec::with_capacity(enumeration.calls());
    let mut shape = enumeration.shape;
    for _ in 1..enumeration.calls() {
        calls.push(callable[(shape % callable.len() as u64) as usize]);
        shape /= callable.len() as u64;
    }
    calls.push(method);
    calls
}

/// The parameters whose values the enumeration chooses: the receiver's constructor's, then each call's.
fn slots(types: &TypeTable, class: ClassId, calls: &[&str]) -> Vec<u32> {
    std::iter::once("constructor")
        .chain(calls.iter().copied())
        .flat_map(|function| types.params_of(class, function).iter().copied())
        .collect()
}

/// The next position: the next values, else the next methods, else one call more (back to one call
/// after the longest).
fn advance(enumeration: &mut Enumeration, size: u128, callable: u64, max_calls: usize) {
    enumeration.index += 1;
    if enumeration.index < size {
        return;
    }
    enumeration.index = 0;
    enumeration.shape += 1;
    let shapes = callable.checked_pow(enumeration.calls() as u32 - 1).unwrap_or(u64::MAX);
    if enumeration.shape < shapes {
        return;
    }
    enumeration.shape = 0;
    enumeration.calls = if enumeration.calls() >= max_calls { 1 } else { enumeration.calls() + 1 };
}

/// How many canonical values parameter `param` takes: one per literal of a declared union of literals,
/// [`DECLARED_DRAWS`] draws of another declared type (but `number`, `string` and `boolean`), else as many
/// as its type's pool has.
fn radix_of(types: &TypeTable, param: u32) -> u128 {
    match types.get(param).declared_in_force().filter(|d| !is_primitive(&d.ty)) {
        Some(declared) => literals(&declared.ty).map_or(DECLARED_DRAWS, |values| values.len() as u128),
        None => radix(types.get(param).current_type()),
    }
}

/// Whether a declared type is one whose canonical pool is the inferred type's.
fn is_primitive(ty: &DeclaredType) -> bool {
    matches!(ty, DeclaredType::Number | DeclaredType::String | DeclaredType::Boolean)
}

/// The values of a declared literal or union of literals.
fn literals(ty: &DeclaredType) -> Option<Vec<Value>> {
    let value = |t: &DeclaredType| match t {
        DeclaredType::Literal(literal) => Some(literal_value(literal)),
        _ => None,
    };
    match ty {
        DeclaredType::Union(members) => members.iter().map(value).collect(),
        other => value(other).map(|v| vec![v]),
    }
}

/// How many canonical values a parameter of type `ty` takes.
fn radix(ty: ParamType) -> u128 {
    match ty {
        ParamType::Unknown => 1,
        ParamType::Number => NUMBERS.len() as u128,
        ParamType::String => STRINGS.len() as u128,
        ParamType::Boolean => 2,
        ParamType::Array => 4,
        ParamType::Function => 4,
        ParamType::Date => DATES.len() as u128,
        ParamType::RegExp => REGEXPS.len() as u128,
        ParamType::Object => 3,
        ParamType::Class(_) => INSTANCE_CHOICES,
    }
}

/// Declares an instance of `class` (of its concrete subclass, for an abstract base) whose constructor
/// arguments take the next digits (or, nested, a digit of its own: see [`value`]).
fn construct(builder: &mut Builder, class: ClassId, digits: &mut impl Iterator<Item = u128>, depth: usize) -> usize {
    let class = builder.program.classes[class].concrete.first().copied().unwrap_or(class);
    let params = builder.types.params_of(class, "constructor").to_vec();
    let args = params.iter().map(|p| value(builder, *p, digits, depth)).collect();
    builder.declare(class, args)
}

/// The canonical value of parameter `param` for the next digit. Below the top level (the receiver's
/// constructor and the calls), digits are not enumerated: each nested instance takes the values at the
/// position of its variable's number, so that successive instances differ.
fn value(builder: &mut Builder, param: u32, digits: &mut impl Iterator<Item = u128>, depth: usize) -> Value {
    let digit = if depth == 0 {
        digits.next().unwrap_or(0)
    } else {
        builder.test.variables.len() as u128 % radix_of(builder.types, param)
    };
    canonical(builder, param, digit, depth)
}

/// The canonical value number `digit` of parameter `param`'s type.
fn canonical(builder: &mut Builder, param: u32, digit: u128, depth: usize) -> Value {
    let types = builder.types;
    if let Some(declared) = types.get(param).declared_in_force().filter(|d| !is_primitive(&d.ty)) {
        return match literals(&declared.ty) {
            Some(values) => values[(digit % values.len() as u128) as usize].clone(),
            // Values of other declared types are drawn from the declaration, the same for the same digit.
            None => builder.declared(Some(param), &declared.ty, depth, &mut StdRng::seed_from_u64(digit as u64)),
        };
    }
    let ty = builder.types.get(param).current_type();
    let pick = |values: &[f64]| values[(digit % values.len() as u128) as usize];
    match ty {
        ParamType::Unknown => Value::Proxy(param),
        ParamType::Number => Value::Number(pick(&NUMBERS)),
        ParamType::String => Value::String(STRINGS[digit as usize % STRINGS.len()].to_string()),
        ParamType::Boolean => Value::Boolean(digit == 0),
        // Arrays of 1, 2 and 3 canonical elements, each different, when the elements have a type.
        ParamType::Array
            if digit > 0
                && let Some(element) = builder.types.element_of(param) =>
        {
            Value::Array((0..digit).map(|k| canonical(builder, element, k, depth + 1)).collect())
        }
        ParamType::Array => Value::Array(match digit {
            0 => vec![],
            1 => vec![Value::Number(0.0)],
            2 => vec![Value::Number(1.0), Value::Number(0.0)],
            _ => vec![Value::String("a".into())],
        }),
        // A callback returns the canonical values of its result's type once that is inferred (a leap of
        // faith is no inference), else one of each primitive type.
        ParamType::Function
            if let Some(result) = builder.types.result_of(param)
                && builder
                    .types
                    .get(result)
                    .decision
                    .as_ref()
                    .is_some_and(|d| d.source != DecisionSource::LeapOfFaith) =>
        {
            let result_radix = radix(builder.types.get(result).current_type());
            Value::returning(canonical(builder, result, digit % result_radix, depth + 1))
        }
        ParamType::Function => Value::returning(match digit {
            0 => Value::Number(0.0),
            1 => Value::String("a".into()),
            2 => Value::Boolean(true),
            _ => Value::Boolean(false),
        }),
        ParamType::Date => Value::Date(pick(&DATES)),
        ParamType::RegExp => {
            let (source, flags) = REGEXPS[digit as usize % REGEXPS.len()];
            Value::RegExp { source: source.to_string(), flags: flags.to_string() }
        }
        ParamType::Object => {
            let members = builder.types.get(param).type_members();
            let members = members.into_iter().filter(|m| crate::js::literal::is_identifier_name(m));
            Value::object(match digit {
                0 => members.map(|m| (m.to_string(), Value::Number(0.0))).collect(),
                1 => members.map(|m| (m.to_string(), Value::Number(1.0))).collect(),
                _ => Vec::new(),
            })
        }
        ParamType::Class(class) => {
            let program = builder.program;
            let pool: Vec<usize> = (0..builder.test.variables.len())
                .filter(|v| program.is_subclass(builder.test.variables[*v].class, class))
                .collect();
            match (digit, pool.first(), pool.last()) {
                (1, _, Some(latest)) => Value::Variable(*latest),
                (2, Some(first), _) => Value::Variable(*first),
                (3, ..) => Value::Null,
                _ if depth >= MAX_DEPTH => Value::Null,
                _ => {
                    let mut none = std::iter::empty();
                    Value::Variable(construct(builder, class, &mut none, depth + 1))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_move_through_values_then_methods_then_lengths() {
        let mut e = Enumeration::default();
        e.calls = e.calls();
        // Two value combinations, three callable methods, at most three calls.
        let mut seen = Vec::new();
        for _ in 0..2 + 2 * 3 + 2 * 9 + 2 {
            seen.push((e.calls, e.shape, e.index));
            advance(&mut e, 2, 3, 3);
        }
        assert_eq!(&seen[..3], &[(1, 0, 0), (1, 0, 1), (2, 0, 0)]);
        assert_eq!(seen[2 + 6], (3, 0, 0), "after every two-call sequence come three calls");
        assert_eq!(seen[2 + 6 + 18], (1, 0, 0), "after the longest, it starts again");
        assert_eq!(seen.iter().filter(|p| p.0 == 3).count(), 18);
    }

    #[test]
    fn shapes_are_digits_over_the_callable_methods() {
        let callable = ["a", "b", "c"];
        let e = Enumeration { calls: 3, shape: 5, index: 0, enumerated: 0 };
        assert_eq!(shape_calls(&callable, &e, "m"), vec!["c", "b", "m"]);
    }
}
