//! The types of TypeScript's standard library the engine builds values of (`Date`, `Uint8Array`, `Map<K,
//! V>`, `Partial<T>`, `Record<K, V>`...), named where no declaration in scope takes the name.

use super::types::{DeclaredType, Literal, Member};
use crate::model::test::WebClass;

/// The types of the standard library the engine builds, by name, with their type arguments.
pub(super) fn built_in(name: &str, args: &[DeclaredType]) -> DeclaredType {
    let first = || args.first().cloned().unwrap_or(DeclaredType::Any);
    let members_optional = |optional: bool| match first() {
        DeclaredType::Object(members) => {
            DeclaredType::Object(members.into_iter().map(|m| Member { optional, ..m }).collect())
        }
        _ => DeclaredType::Opaque,
    };
    match name {
        "Date" => DeclaredType::Date,
        "RegExp" => DeclaredType::RegExp,
        "Uint8Array" => DeclaredType::Bytes,
        "Number" => DeclaredType::Number,
        "String" => DeclaredType::String,
        "Boolean" => DeclaredType::Boolean,
        "BigInt" => DeclaredType::BigInt,
        // An array is an `Iterable` and an `ArrayLike` of its elements: what code taking either walks.
        "Array" | "ReadonlyArray" | "Iterable" | "ArrayLike" => DeclaredType::Array(Box::new(first())),
        "Map" | "ReadonlyMap" => {
            DeclaredType::Map(Box::new(first()), Box::new(args.get(1).cloned().unwrap_or(DeclaredType::Any)))
        }
        "Set" | "ReadonlySet" => DeclaredType::Set(Box::new(first())),
        "Promise" | "PromiseLike" => DeclaredType::Promise(Box::new(first())),
        "AsyncIterable" | "AsyncIterableIterator" | "AsyncGenerator" | "AsyncIterator" => {
            DeclaredType::AsyncIterable(Box::new(first()))
        }
        "Function" => DeclaredType::Function { arity: 0, returns: Box::new(DeclaredType::Any), compares: None },
        "Object" => DeclaredType::Any,
        "Readonly" => first(),
        "Partial" => members_optional(true),
        "Required" => members_optional(false),
        "Pick" | "Omit" => match (first(), args.get(1).map(literal_strings)) {
            (DeclaredType::Object(members), Some(Some(keys))) => DeclaredType::Object(
                members.into_iter().filter(|m| keys.contains(&m.name) == (name == "Pick")).collect(),
            ),
            _ => DeclaredType::Opaque,
        },
        // A record of any string keys is a dictionary; with literal keys, it has each of them.
        "Record" => match args.first() {
            Some(DeclaredType::String) => {
                DeclaredType::Dictionary(Box::new(args.get(1).cloned().unwrap_or(DeclaredType::Any)))
            }
            Some(keys) => match (literal_strings(keys), args.get(1)) {
                (Some(keys), Some(value)) => DeclaredType::Object(
                    keys.into_iter().map(|name| Member { name, ty: value.clone(), optional: false }).collect(),
                ),
                _ => DeclaredType::Opaque,
            },
            None => DeclaredType::Opaque,
        },
        _ => WebClass::named(name).map_or(DeclaredType::Opaque, DeclaredType::Web),
    }
}

/// The strings a union of string literals (or one literal) is made of.
fn literal_strings(ty: &DeclaredType) -> Option<Vec<String>> {
    let one = |t: &DeclaredType| match t {
        DeclaredType::Literal(Literal::String(s)) => Some(s.clone()),
        _ => None,
    };
    match ty {
        DeclaredType::Union(members) => members.iter().map(one).collect(),
        other => one(other).map(|s| vec![s]),
    }
}
