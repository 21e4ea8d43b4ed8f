//! The inference rules: once a parameter has been used `delay` times, its type from the evidence, in
//! the report's order (the best matching class; else Number members → number; else String members →
//! string; else the coercion scores), with built-in objects, `typeof`/`instanceof` checks and the types
//! thrown errors named (see [`super::errors`]) besides; with no evidence at all, a random primitive (a
//! leap of faith, see [`super::leap`]).

use rand::Rng;
use rand::RngExt;

use super::hints::Scores;
use super::{Decision, DecisionSource, ParamRecord, ParamType};
use crate::analysis::typeofs::{EQUALS, INSTANCEOF};
use crate::model::program::{ClassId, ProgramInfo};

/// Members every object has: they say nothing about a parameter's type.
pub(super) const OBJECT_MEMBERS: &[&str] = &[
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "toJSON",
];

/// The pseudo-member a call of the proxy itself is recorded as.
pub(crate) const CALLED: &str = "()";

/// Members only functions have (with being called).
const FUNCTION_MEMBERS: &[&str] = &[CALLED, "call", "apply", "bind"];

/// Members of `RegExp.prototype` that strings, arrays and dates lack.
const REGEXP_MEMBERS: &[&str] = &[
    "test",
    "exec",
    "source",
    "flags",
    "global",
    "ignoreCase",
    "multiline",
    "sticky",
    "unicode",
    "dotAll",
    "lastIndex",
];

/// Members of `Date.prototype` that strings and numbers lack.
const DATE_MEMBERS: &[&str] = &[
    "getTime",
    "getFullYear",
    "getMonth",
    "getDate",
    "getDay",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
    "getUTCFullYear",
    "getUTCMonth",
    "getUTCDate",
    "getUTCDay",
    "getUTCHours",
    "getTimezoneOffset",
    "toISOString",
    "toDateString",
    "toUTCString",
    "setTime",
    "setFullYear",
    "setMonth",
    "setDate",
];

/// Members of `Array.prototype` that strings lack: with indexes and `length`, they make an array.
pub(super) const ARRAY_ONLY_MEMBERS: &[&str] = &[
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "map",
    "forEach",
    "filter",
    "reduce",
    "reduceRight",
    "some",
    "every",
    "find",
    "findIndex",
    "findLast",
    "sort",
    "reverse",
    "join",
    "fill",
    "flat",
    "flatMap",
    "keys",
    "values",
    "entries",
];

/// Members strings and arrays both have, beyond indexes.
const STRING_AND_ARRAY_MEMBERS: &[&str] =
    &["length", "concat", "includes", "indexOf", "lastIndexOf", "slice", "at", "@@iterator"];

/// Members of `Number.prototype` beyond those of every object.
const NUMBER_MEMBERS: &[&str] = &["toFixed", "toPrecision", "toExponential"];

/// Members of `String.prototype` (and indexes) beyond those of every object.
const STRING_MEMBERS: &[&str] = &[
    "length",
    "charAt",
    "charCodeAt",
    "codePointAt",
    "concat",
    "endsWith",
    "includes",
    "indexOf",
    "lastIndexOf",
    "localeCompare",
    "match",
    "matchAll",
    "normalize",
    "padEnd",
    "padStart",
    "repeat",
    "replace",
    "replaceAll",
    "search",
    "slice",
    "split",
    "startsWith",
    "substring",
    "substr",
    "toLowerCase",
    "toUpperCase",
    "toLocaleLowerCase",
    "toLocaleUpperCase",
    "trim",
    "trimStart",
    "trimEnd",
    "trimLeft",
    "trimRight",
    "at",
    "@@iterator",
];

/// Decides a parameter's type from its record (see the module docs for the rules).
pub(crate) fn decide(record: &ParamRecord, program: &ProgramInfo, rng: &mut (impl Rng + ?Sized)) -> Decision {
    let inferred = |ty, evidence| Decision { ty, evidence, source: DecisionSource::Inferred };
    // The code says which class it wants; members read after the check belong to that class anyway.
    // Unless it also checks `typeof` (`x instanceof Decimal` then `typeof x === 'number'`: one of
    // several accepted types, typeof's are the ones the rest of this decision reads), or it is a copy
    // constructor, which would need an instance to build the first one.
    let checks_typeof = record
        .typeofs
        .iter()
        .any(|t| !t.starts_with(INSTANCEOF) && !t.starts_with(EQUALS) && t != "null" && t != "undefined");
    let copy = |ty: &ParamType| record.key.function == "constructor" && *ty == ParamType::Class(record.key.class);
    if !checks_typeof
        && let Some((ty, class)) =
            record.typeofs.iter().filter_map(|t| instanceof_type(t, program)).find(|(ty, _)| !copy(ty))
    {
        return inferred(ty, format!("its function checks {} instanceof {class}", record.name));
    }
    let members = record.type_members();
    if !members.is_empty() {
        return by_members(record, &members, program);
    }
    // `for await` reads `Symbol.asyncIterator`, and so does a check for an async iterable; `for await`
    // takes an array as well, and values of the type are arrays and async iterables of items in turn.
    if record.iterates_async() {
        return inferred(ParamType::Array, format!("its function reads {}[Symbol.asyncIterator]", record.name));
    }
    let checked = record.typeofs.iter().find_map(|t| {
        Some(match t.as_str() {
            "function" => ParamType::Function,
            "string" => ParamType::String,
            "number" | "bigint" => ParamType::Number,
            "boolean" => ParamType::Boolean,
            "object" => ParamType::Object,
            _ => return None,
        })
    });
    if let Some(ty) = checked {
        let checks = record
            .typeofs
            .iter()
            .filter(|t| *t != "null" && !t.starts_with(EQUALS))
            .map(|t| format!("'{t}'"))
            .collect::<Vec<_>>()
            .join(", ");
        return inferred(ty, format!("its function checks typeof {} against {checks}", record.name));
    }
    // Code that iterates a value and reads no member by name (`for (const v of xs)`, `[...xs]`) takes
    // an iterable: an array is one, whose items are learnt in turn.
    if record.iterates() {
        return inferred(ParamType::Array, format!("its function iterates {}", record.name));
    }
    // Code that lists the keys of a value and reads no member by name walks the entries of a plain
    // object (a record of names to values, serialised, merged or copied).
    if record.keys_listed > 0 {
        return inferred(ParamType::Object, format!("its function lists the keys of {}", record.name));
    }
    let compared = record.typeofs.iter().find_map(|t| {
        Some(match t.strip_prefix(EQUALS)? {
            "string" => ParamType::String,
            "number" => ParamType::Number,
            "boolean" => ParamType::Boolean,
            _ => return None,
        })
    });
    let compared = compared
        .map(|ty| inferred(ty, format!("its function compares {} with {} literals", record.name, ty.name(program))));
    // A member compared with several literals is the kind of its object: a message thrown while it was a
    // proxy is more likely about another member the code read by that kind.
    if record.discriminates()
        && let Some(compared) = compared
    {
        return compared;
    }
    // Validation that rejected the proxy before any use said in words what it wanted (after members
    // and typeof checks: a message may be about a value derived from the parameter, like a callback's
    // result).
    if let Some(wanted) = record.most_wanted() {
        return inferred(wanted.ty, format!("calls threw '{}' for {}", wanted.message, record.name));
    }
    if let Some(compared) = compared {
        return compared;
    }
    let Scores { number, string } = record.scores;
    if number > 0 || string > 0 {
        let coercions = record.coercions.keys().cloned().collect::<Vec<_>>().join(", ");
        let (ty, side) = if number >= string { (ParamType::Number, "number") } else { (ParamType::String, "string") };
        return inferred(ty, format!("coercions favour {side} ({number} to {string}): {coercions}"));
    }
    // Code compared only by identity (`at !== link`) shows nothing; a name is better than a guess.
    if let Some(class) = class_named_like(record, program) {
        let name = &program.classes[class].name;
        return inferred(ParamType::Class(class), format!("no evidence but its name: {} is a {name}", record.name));
    }
    let ty = [ParamType::Number, ParamType::String, ParamType::Boolean][rng.random_range(0..3)];
    Decision {
        ty,
        evidence: format!("no evidence after {} uses: leap of faith to {}", record.uses, ty.name(program)),
        source: DecisionSource::LeapOfFaith,
    }
}

/// The decision for a parameter whose values had `members` read (the rules' second step).
fn by_members(record: &ParamRecord, members: &[&str], program: &ProgramInfo) -> Decision {
    let inferred = |ty, evidence| Decision { ty, evidence, source: DecisionSource::Inferred };
    let is_string_member = |m: &&str| STRING_MEMBERS.contains(m) || is_index(m);
    // A constructor's parameter matched by its own class is more likely an options object whose
    // keys mirror the fields than a copy constructor: the class itself is left out of the match.
    let candidate = |class: ClassId| record.key.function != "constructor" || class != record.key.class;
    if let Some((class, matched)) = best_class(members, program, candidate)
        && matched == members.len()
    {
        return inferred(
            ParamType::Class(class),
            format!("members {} all belong to {}", list(members), program.classes[class].name),
        );
    }
    let any_of = |set: &[&str]| members.iter().any(|m| set.contains(m));
    if any_of(FUNCTION_MEMBERS) {
        return inferred(ParamType::Function, format!("called, or function members {}", list(members)));
    }
    if any_of(DATE_MEMBERS) {
        return inferred(ParamType::Date, format!("Date members {}", list(members)));
    }
    if any_of(REGEXP_MEMBERS) && members.iter().all(|m| REGEXP_MEMBERS.contains(m)) {
        return inferred(ParamType::RegExp, format!("RegExp members {}", list(members)));
    }
    let is_array_member = |m: &&str| ARRAY_ONLY_MEMBERS.contains(m) || STRING_MEMBERS.contains(m) || is_index(m);
    if any_of(ARRAY_ONLY_MEMBERS) && members.iter().all(is_array_member) {
        return inferred(ParamType::Array, format!("Array members {}", list(members)));
    }
    // Read by index, and by members strings and arrays share: the items' use tells which. A string's
    // characters are compared and joined, an array's numbers are computed with (`data[j] - data[i]`).
    let Scores { number, string } = record.item_scores;
    if number > string
        && members.iter().any(|m| is_index(m))
        && members.iter().all(|m| is_index(m) || STRING_AND_ARRAY_MEMBERS.contains(m))
    {
        return inferred(
            ParamType::Array,
            format!("members {} read items it computed with as numbers ({number} to {string})", list(members)),
        );
    }
    if members.iter().all(|m| NUMBER_MEMBERS.contains(m)) {
        return inferred(ParamType::Number, format!("Number members {}", list(members)));
    }
    if members.iter().all(is_string_member) {
        return inferred(ParamType::String, format!("String members {}", list(members)));
    }
    if let Some((class, matched)) = best_class(members, program, candidate)
        && matched * 2 >= members.len()
    {
        let missing: Vec<&str> = members.iter().copied().filter(|m| !program.classes[class].has_member(m)).collect();
        return inferred(
            ParamType::Class(class),
            format!(
                "best match {} ({matched} of {} members; not {})",
                program.classes[class].name,
                members.len(),
                list(&missing)
            ),
        );
    }
    inferred(ParamType::Object, format!("members {} match no class, Number or String: a plain object", list(members)))
}

/// The type an `instanceof` pseudo-type names (see [`crate::analysis::typeofs`]): a class of the
/// program (by name, alias, or the last part of a namespaced name) or a built-in, with the name as
/// written.
fn instanceof_type<'t>(checked: &'t str, program: &ProgramInfo) -> Option<(ParamType, &'t str)> {
    let written = checked.strip_prefix(INSTANCEOF)?;
    let ty = match written {
        "Array" => ParamType::Array,
        "Date" => ParamType::Date,
        "RegExp" => ParamType::RegExp,
        "Function" => ParamType::Function,
        _ => {
            let last = written.rsplit('.').next().unwrap_or(written);
            let class = program.classes.iter().position(|c| {
                !c.is_module() && (c.name == written || c.alias == written || c.name.rsplit('.').next() == Some(last))
            })?;
            ParamType::Class(class)
        }
    };
    Some((ty, written))
}

/// The class a parameter is named after (`link` for `Link`, `otherNode` for `Node`), but the
/// constructor's own class (a copy constructor would need an instance to build the first one).
fn class_named_like(record: &ParamRecord, program: &ProgramInfo) -> Option<ClassId> {
    let name = &record.name;
    program.classes.iter().position(|class| {
        let class_name = class.name.rsplit('.').next().unwrap_or(&class.name);
        let own = record.key.function == "constructor" && program.classes[record.key.class].name == class.name;
        let suffix = name.len() > class_name.len()
            && name.ends_with(class_name)
            && name[..name.len() - class_name.len()].chars().last().is_some_and(|c| c.is_ascii_lowercase());
        !own && !class.is_module() && !class_name.is_empty() && (name.eq_ignore_ascii_case(class_name) || suffix)
    })
}

/// The class that has most of `members`, preferring the one with fewest other members (the tightest
/// fit), then the first found. Returns the class and how many members it has.
fn best_class(
    members: &[&str],
    program: &ProgramInfo,
    candidate: impl Fn(ClassId) -> bool,
) -> Option<(ClassId, usize)> {
    program
        .classes
        .iter()
        .enumerate()
        // A module of functions is no type: no value is one.
        .filter(|(id, class)| candidate(*id) && !class.is_module())
        .map(|(id, class)| (id, members.iter().filter(|m| class.has_member(m)).count(), class.member_count()))
        .filter(|(_, matched, _)| *matched > 0)
        .min_by_key(|(id, matched, size)| (std::cmp::Reverse(*matched), *size, *id))
        .map(|(id, matched, _)| (id, matched))
}

pub(crate) fn is_index(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

fn list(names: &[&str]) -> String {
    names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
}
