//! Declared types as decisions: a parameter whose declaration the engine can build a value of is
//! decided before any candidate runs, and no recording proxy is spent on it. `any`, `unknown`, an
//! unconstrained generic and what cannot be built are left to the proxies, as without declarations.

use super::decide::ARRAY_ONLY_MEMBERS;
use super::{Decision, DecisionSource, ParamType};
use crate::analysis::declared::{DeclaredParam, DeclaredType, Literal, Member};
use crate::model::program::ProgramInfo;

/// The decision a declaration makes for its parameter, when the engine can build its values.
pub(crate) fn decision(param: &DeclaredParam, program: &ProgramInfo) -> Option<Decision> {
    if !buildable(&param.ty, program, true) {
        return None;
    }
    Some(Decision {
        ty: coarse(&param.ty, program),
        evidence: format!("the annotation `{}`", param.text),
        source: DecisionSource::Declared,
    })
}

/// Whether values of `ty` can be built for `program`. Inside another type (`top` false) any value will do
/// for `any`; a parameter declared `any` is left to its proxy, which learns more. An optional member
/// that cannot be built is left out; a required one makes the object unbuildable.
pub(crate) fn buildable(ty: &DeclaredType, program: &ProgramInfo, top: bool) -> bool {
    match ty {
        DeclaredType::Number
        | DeclaredType::String
        | DeclaredType::Boolean
        | DeclaredType::BigInt
        | DeclaredType::Literal(_)
        | DeclaredType::Null
        | DeclaredType::Undefined
        | DeclaredType::Date
        | DeclaredType::RegExp
        | DeclaredType::Bytes
        | DeclaredType::Template(..)
        | DeclaredType::Web(_) => true,
        DeclaredType::Any => !top,
        // A method returning its receiver is built as one.
        DeclaredType::This => true,
        DeclaredType::Opaque => false,
        DeclaredType::Constructs(made) => constructible(made, program),
        DeclaredType::Class(name) => program.type_named(name).is_some(),
        // `K | undefined` is left to its proxy as `K` is. Inside another type, where no proxy can learn, a
        // union is built of the members that can be (`Hardfork | string` of strings), unless only `null`
        // or `undefined` could.
        DeclaredType::Union(members) if top => {
            members.iter().all(|m| buildable(m, program, false)) && !members.contains(&DeclaredType::Any)
        }
        DeclaredType::Union(members) => members
            .iter()
            .any(|m| !matches!(m, DeclaredType::Null | DeclaredType::Undefined) && buildable(m, program, false)),
        DeclaredType::Array(element)
        | DeclaredType::Set(element)
        | DeclaredType::Promise(element)
        | DeclaredType::AsyncIterable(element)
        | DeclaredType::Dictionary(element) => buildable(element, program, false),
        DeclaredType::Map(key, value) => buildable(key, program, false) && buildable(value, program, false),
        DeclaredType::Tuple(items) => items.iter().all(|i| buildable(i, program, false)),
        DeclaredType::Object(members) => members.iter().all(|m| m.optional || buildable(&m.ty, program, false)),
        DeclaredType::Function { returns, .. } => buildable(returns, program, false),
    }
}

/// Whether something constructing instances of `made` can be built for `program`: a class of the program
/// (passed itself), an object type whose members can be built (a class written of them), or any instances
/// at all (an empty class); of a union, one of its members.
pub(crate) fn constructible(made: &DeclaredType, program: &ProgramInfo) -> bool {
    match made {
        DeclaredType::Class(name) => program.type_named(name).is_some_and(|class| program.classes[class].is_class()),
        DeclaredType::Object(_) => buildable(made, program, false),
        DeclaredType::Any => true,
        DeclaredType::Union(members) => members.iter().any(|m| constructible(m, program)),
        _ => false,
    }
}

/// The type, among those inference knows, that values of `ty` have: what people see, and what the
/// strategies that do not read declarations fall back on.
fn coarse(ty: &DeclaredType, program: &ProgramInfo) -> ParamType {
    match ty {
        // A bigint is shown as a number: the values built for it come from its declaration alone.
        DeclaredType::Number
        | DeclaredType::BigInt
        | DeclaredType::Literal(Literal::Number(_) | Literal::BigInt(_)) => ParamType::Number,
        DeclaredType::String | DeclaredType::Literal(Literal::String(_)) | DeclaredType::Template(..) => {
            ParamType::String
        }
        DeclaredType::Boolean | DeclaredType::Literal(Literal::Boolean(_)) => ParamType::Boolean,
        DeclaredType::Array(_) | DeclaredType::Tuple(_) => ParamType::Array,
        DeclaredType::Function { .. } | DeclaredType::Constructs(_) => ParamType::Function,
        DeclaredType::Date => ParamType::Date,
        DeclaredType::RegExp => ParamType::RegExp,
        DeclaredType::Class(name) => program.type_named(name).map_or(ParamType::Object, ParamType::Class),
        // The first member that is a value (`Node | null` is a node).
        DeclaredType::Union(members) => members
            .iter()
            .find(|m| !matches!(m, DeclaredType::Null | DeclaredType::Undefined))
            .map_or(ParamType::Object, |m| coarse(m, program)),
        DeclaredType::Object(_)
        | DeclaredType::Dictionary(_)
        | DeclaredType::Bytes
        | DeclaredType::Web(_)
        | DeclaredType::Map(..)
        | DeclaredType::Set(_)
        | DeclaredType::Promise(_)
        | DeclaredType::AsyncIterable(_)
        | DeclaredType::Null
        | DeclaredType::Undefined
        | DeclaredType::Any
        | DeclaredType::This
        | DeclaredType::Opaque => ParamType::Object,
    }
}

/// What a parameter left to its proxy is declared to take besides any value: `undefined` and `null`,
/// named by a union (`K | undefined`), as the `typeof` checks that are passed them now and then name them.
pub(crate) fn absent_values(param: &DeclaredParam) -> Vec<&'static str> {
    let DeclaredType::Union(members) = &param.ty else { return Vec::new() };
    let mut absent = Vec::new();
    if members.contains(&DeclaredType::Undefined) {
        absent.push("undefined");
    }
    if members.contains(&DeclaredType::Null) {
        absent.push("null");
    }
    absent
}

/// Whether an array satisfies an object type (structurally, as TypeScript checks): every required
/// member is one arrays have (`forEach`, `length`...). Collections that take "anything with `forEach`"
/// are mostly given arrays.
pub(crate) fn arrays_satisfy(members: &[Member]) -> bool {
    const ALSO: [&str; 7] = ["length", "indexOf", "lastIndexOf", "includes", "slice", "concat", "at"];
    let mut required = members.iter().filter(|m| !m.optional).peekable();
    required.peek().is_some()
        && required.all(|m| ARRAY_ONLY_MEMBERS.contains(&m.name.as_str()) || ALSO.contains(&m.name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_value_or_undefined_is_left_to_the_proxy_which_is_also_passed_undefined() {
        let param = |ty: DeclaredType| DeclaredParam { name: "k".into(), ty, text: String::new(), optional: false };
        let key = param(DeclaredType::union(vec![DeclaredType::Any, DeclaredType::Undefined]));
        let program = ProgramInfo::default();
        assert!(decision(&key, &program).is_none(), "left to the proxy");
        assert!(buildable(&key.ty, &program, false), "inside another value, any primitive or undefined");
        assert_eq!(absent_values(&key), ["undefined"]);
        let nullable = param(DeclaredType::union(vec![DeclaredType::Number, DeclaredType::Null]));
        assert!(decision(&nullable, &program).is_some());
        assert!(absent_values(&param(DeclaredType::Any)).is_empty());
    }

    #[test]
    fn inside_another_type_a_union_is_built_of_the_members_that_can_be() {
        let program = ProgramInfo::default();
        let hash = DeclaredType::union(vec![DeclaredType::Opaque, DeclaredType::String]);
        assert!(!buildable(&hash, &program, true), "a parameter's proxy learns which");
        assert!(buildable(&hash, &program, false));
        let absent = DeclaredType::union(vec![DeclaredType::Opaque, DeclaredType::Null, DeclaredType::Undefined]);
        assert!(!buildable(&absent, &program, false), "never a value of the type, only its absence");
        let member = |ty: DeclaredType| Member { name: "hash".into(), ty, optional: false };
        let config = DeclaredType::Object(vec![member(hash)]);
        assert!(
            decision(&DeclaredParam { name: "c".into(), ty: config, text: String::new(), optional: false }, &program)
                .is_some()
        );
    }
}
