//! Where the primitives of a test sit: a statement's argument, and inside it the items of arrays, the
//! members of options objects and the results of callbacks. Search moves and mutates values at these
//! places, nested ones as much as top-level ones (`new Matrix([[1, 2], [3, 4]])`, `{ limit: 3 }`).

use crate::analysis::declared::DeclaredType;
use crate::inference::TypeTable;
use crate::model::test::{Statement, TestCase, Value};

/// A path to a value in a test: a statement's argument, then child indexes (array items, object
/// members in order, a callback's result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    pub statement: usize,
    pub argument: usize,
    pub inner: Vec<usize>,
}

/// Every place of `test` whose value `wanted` accepts, with that value, in order, nested ones after
/// their container.
pub(crate) fn places(test: &TestCase, wanted: impl Fn(&Value) -> bool) -> Vec<(Place, &Value)> {
    let mut out = Vec::new();
    for (statement, s) in test.statements.iter().enumerate() {
        for (argument, value) in s.args().iter().enumerate() {
            let mut place = Place { statement, argument, inner: Vec::new() };
            collect(value, &mut place, &wanted, &mut out);
        }
    }
    out
}

fn collect<'t>(
    value: &'t Value,
    place: &mut Place,
    wanted: &impl Fn(&Value) -> bool,
    out: &mut Vec<(Place, &'t Value)>,
) {
    if wanted(value) {
        out.push((place.clone(), value));
    }
    for (i, child) in children(value).into_iter().enumerate() {
        place.inner.push(i);
        collect(child, place, wanted, out);
        place.inner.pop();
    }
}

/// The values a value holds that are passed on to the code: items, members, a callback's result.
fn children(value: &Value) -> Vec<&Value> {
    match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object { members, .. } => members.iter().map(|(_, v)| v).collect(),
        Value::Function { result, .. } => vec![&**result],
        _ => Vec::new(),
    }
}

/// The value at `place`.
pub(super) fn value_at<'t>(test: &'t mut TestCase, place: &Place) -> Option<&'t mut Value> {
    let mut value = match test.statements.get_mut(place.statement)? {
        Statement::Construct { args, .. } | Statement::Call { args, .. } => args.get_mut(place.argument)?,
        Statement::Rebuild { .. } => return None,
    };
    for &i in &place.inner {
        value = match value {
            Value::Array(items) => items.get_mut(i)?,
            Value::Object { members, .. } => &mut members.get_mut(i)?.1,
            Value::Function { result, .. } if i == 0 => &mut **result,
            _ => return None,
        };
    }
    Some(value)
}

/// The record (a parameter's, or an element's, member's or callback result's of one) whose value
/// sits at `place`.
pub(super) fn record_at(types: &TypeTable, test: &TestCase, place: &Place) -> Option<u32> {
    let (class, function) = match test.statements.get(place.statement)? {
        Statement::Construct { class, .. } => (*class, "constructor"),
        Statement::Call { receiver, method, .. } => (test.variables.get(*receiver)?.class, method.as_str()),
        Statement::Rebuild { .. } => return None,
    };
    let mut record = *types.params_of(class, function).get(place.argument)?;
    let mut value = test.statements[place.statement].args().get(place.argument)?;
    for &i in &place.inner {
        (record, value) = match value {
            Value::Array(items) => (types.element_of(record)?, items.get(i)?),
            Value::Object { members, .. } => {
                let (name, member) = members.get(i)?;
                (types.member_of(record, name)?, member)
            }
            Value::Function { result, .. } => (types.result_of(record)?, &**result),
            _ => return None,
        };
    }
    Some(record)
}

/// Whether search may move the primitive at `place` and stay within its parameter's declared type: a
/// parameter without a declaration in force may take anything; in a declared one, only a place declared
/// `number`, `string`, `boolean` or `any` (not a literal, nor a member of a union) is free.
pub(super) fn free(types: &TypeTable, test: &TestCase, place: &Place) -> bool {
    declared_at(types, test, place).is_none_or(|ty| {
        matches!(ty, Some(DeclaredType::Number | DeclaredType::String | DeclaredType::Boolean | DeclaredType::Any))
    })
}

/// Whether `to` may take the place of the value at `place` and keep within its parameter's declared type
/// (what minimisation asks before trying a simpler value): anything where no declaration is in force; a
/// primitive of the declared primitive type, an empty array, map or set for an array, map or set type,
/// anything for `any`.
pub(crate) fn replaceable(types: &TypeTable, test: &TestCase, place: &Place, to: &Value) -> bool {
    declared_at(types, test, place).is_none_or(|ty| ty.is_some_and(|ty| fits(&ty, to)))
}

/// Whether `value` is of declared type `ty`, for the kinds of values minimisation tries.
fn fits(ty: &DeclaredType, value: &Value) -> bool {
    match (ty, value) {
        (DeclaredType::Union(types), _) => types.iter().any(|t| fits(t, value)),
        (DeclaredType::Any, _)
        | (DeclaredType::Number, Value::Number(_))
        | (DeclaredType::String, Value::String(_))
        | (DeclaredType::Boolean, Value::Boolean(_))
        | (DeclaredType::Array(_), Value::Array(_))
        | (DeclaredType::Map(..), Value::Map(_))
        | (DeclaredType::Set(_), Value::Set(_))
        | (DeclaredType::AsyncIterable(_), Value::AsyncIterable(_))
        | (DeclaredType::Dictionary(_), Value::Object { .. }) => value.inner().is_empty(),
        _ => false,
    }
}

/// The declared type at `place`: `None` when its parameter has no declaration in force, `Some(None)` when
/// the declaration does not say (a place inside a value the declaration does not describe).
fn declared_at(types: &TypeTable, test: &TestCase, place: &Place) -> Option<Option<DeclaredType>> {
    let top = Place { inner: Vec::new(), ..place.clone() };
    let declared = record_at(types, test, &top).and_then(|record| types.get(record).declared_in_force())?;
    let value = test.statements.get(place.statement).and_then(|s| s.args().get(place.argument));
    Some(value.and_then(|value| declared_within(&declared.ty, value, &place.inner)).cloned())
}

/// The declared type of the value at path `inner` of `value`, of declared type `ty`.
fn declared_within<'t>(ty: &'t DeclaredType, value: &Value, inner: &[usize]) -> Option<&'t DeclaredType> {
    let Some((&i, rest)) = inner.split_first() else { return Some(ty) };
    match (ty, value) {
        (DeclaredType::Any, _) => Some(ty),
        (DeclaredType::Array(element), Value::Array(items)) => declared_within(element, items.get(i)?, rest),
        (DeclaredType::Tuple(elements), Value::Array(items)) => declared_within(elements.get(i)?, items.get(i)?, rest),
        (DeclaredType::Object(declared), Value::Object { members, .. }) => {
            let (name, v) = members.get(i)?;
            declared_within(&declared.iter().find(|m| m.name == *name)?.ty, v, rest)
        }
        (DeclaredType::Dictionary(item), Value::Object { members, .. }) => {
            declared_within(item, &members.get(i)?.1, rest)
        }
        (DeclaredType::Function { returns, .. }, Value::Function { result, .. }) => {
            declared_within(returns, result, rest)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_values_have_places() {
        let args = vec![
            Value::Number(1.0),
            Value::Array(vec![Value::String("a".into()), Value::Array(vec![Value::Number(2.0)])]),
            Value::object(vec![("limit".into(), Value::Number(3.0))]),
            Value::returning(Value::String("b".into())),
        ];
        let mut test = TestCase {
            class: 0,
            method: "m".into(),
            variables: Vec::new(),
            statements: vec![Statement::call(0, "m", args, true)],
        };
        let numbers: Vec<Place> = places(&test, |v| matches!(v, Value::Number(_))).into_iter().map(|p| p.0).collect();
        let paths: Vec<(usize, Vec<usize>)> = numbers.iter().map(|p| (p.argument, p.inner.clone())).collect();
        assert_eq!(paths, [(0, vec![]), (1, vec![1, 0]), (2, vec![0])]);
        let strings: Vec<Place> = places(&test, |v| matches!(v, Value::String(_))).into_iter().map(|p| p.0).collect();
        assert_eq!(strings.len(), 2);
        *value_at(&mut test, &numbers[1]).unwrap() = Value::Number(7.0);
        assert_eq!(
            test.statements[0].args()[1],
            Value::Array(vec![Value::String("a".into()), Value::Array(vec![Value::Number(7.0)])])
        );
        assert_eq!(value_at(&mut test, &strings[1]).cloned(), Some(Value::String("b".into())));
    }
}
