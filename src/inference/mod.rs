//! Type inference for parameters: what recording proxies saw, and the types decided from it.
//!
//! Every parameter of every constructor and method is a [`ParamKey`]. Until its type is decided, tests
//! pass it a recording proxy; each use adds member accesses and primitive coercions (scored by
//! [`hints`]) to its [`ParamRecord`]. Once it has been used `delay` times, [`decide`] applies the
//! Flycatcher rules: the best matching class; else Number members → number; else String members →
//! string; else the coercion scores; with no evidence at all, a random primitive (a "leap of faith").

pub mod hints;

use std::collections::BTreeMap;
use std::fmt;

use rand::Rng;
use rand::RngExt;

use crate::analysis::typeofs::{INSTANCEOF, TypeofCheck, types_checked};
use crate::generate::literal::is_identifier_name;
use crate::program::{ClassId, ProgramInfo};
use crate::sandbox::CodeBase;
use crate::sandbox::ProxyEvent;
use crate::sandbox::events::EnginePosition;
use hints::Scores;

/// A parameter: which function of which class, at which position.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ParamKey {
    /// The class.
    pub class: ClassId,
    /// `constructor` or a method name.
    pub function: String,
    /// 0-based position.
    pub index: usize,
}

/// The type of a value a test passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// Not decided: tests pass a recording proxy.
    Unknown,
    /// A number.
    Number,
    /// A string.
    String,
    /// `true` or `false`.
    Boolean,
    /// An array of numbers or strings.
    Array,
    /// A function (a callback), returning a number.
    Function,
    /// A `Date`.
    Date,
    /// A regular expression (`RegExp`).
    RegExp,
    /// A plain object with the members read from the parameter (an options object, say).
    Object,
    /// An instance of a class of the program.
    Class(ClassId),
}

impl ParamType {
    /// Name for users; classes by their name in `program`.
    pub fn name(self, program: &ProgramInfo) -> String {
        match self {
            ParamType::Unknown => "Unknown".into(),
            ParamType::Number => "number".into(),
            ParamType::String => "string".into(),
            ParamType::Boolean => "boolean".into(),
            ParamType::Array => "array".into(),
            ParamType::Function => "function".into(),
            ParamType::Date => "Date".into(),
            ParamType::RegExp => "RegExp".into(),
            ParamType::Object => "object".into(),
            ParamType::Class(c) => program.classes[c].name.clone(),
        }
    }

    /// The types that are not classes of the program, as a user can name them.
    pub const BUILT_IN: [ParamType; 8] = [
        ParamType::Number,
        ParamType::String,
        ParamType::Boolean,
        ParamType::Array,
        ParamType::Function,
        ParamType::Date,
        ParamType::RegExp,
        ParamType::Object,
    ];

    /// Parses a type named by a user: a primitive or a class of `program`.
    pub fn parse(text: &str, program: &ProgramInfo) -> Option<ParamType> {
        ParamType::BUILT_IN
            .into_iter()
            .find(|t| t.name(program) == text)
            .or_else(|| program.class_named(text).map(ParamType::Class))
    }
}

/// How a decision was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionSource {
    /// From the recorded evidence.
    Inferred,
    /// No evidence: a random primitive.
    LeapOfFaith,
    /// The user accepted the inferred type (it no longer changes).
    Accepted,
    /// The user chose the type.
    Overridden,
    /// Read from the project file.
    Configured,
    /// The type of the values a recorded run passed (see [`crate::record`]).
    Recorded,
}

/// A decision with its reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The type tests use.
    pub ty: ParamType,
    /// Why, for people: the evidence that decided.
    pub evidence: String,
    /// How it was reached.
    pub source: DecisionSource,
}

/// How a member of a proxy was used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemberUse {
    /// Reads (including reads of methods that are then called).
    pub reads: u32,
    /// Writes and deletes.
    pub writes: u32,
    /// `in` checks.
    pub checks: u32,
}

impl MemberUse {
    /// All uses.
    pub fn total(&self) -> u32 {
        self.reads + self.writes + self.checks
    }
}

/// Everything recorded about one parameter.
#[derive(Debug, Clone)]
pub struct ParamRecord {
    /// Which parameter.
    pub key: ParamKey,
    /// Its name in the source.
    pub name: String,
    /// How many calls received a recording proxy for it.
    pub uses: u32,
    /// Members used, by name.
    pub members: BTreeMap<String, MemberUse>,
    /// Accumulated number/string scores of coercions.
    pub scores: Scores,
    /// Coercions seen, described (`'>' at triangle.js:12`), with counts.
    pub coercions: BTreeMap<String, u32>,
    /// Types its function compares it with through `typeof`, most often first, `'null'` for a
    /// comparison with `null` (see [`crate::analysis::typeofs`]).
    pub typeofs: Vec<String>,
    /// The decision, once made.
    pub decision: Option<Decision>,
}

impl ParamRecord {
    /// A record with nothing seen yet.
    fn blank(key: ParamKey, name: String) -> ParamRecord {
        ParamRecord {
            key,
            name,
            uses: 0,
            members: BTreeMap::new(),
            scores: Scores::default(),
            coercions: BTreeMap::new(),
            typeofs: Vec::new(),
            decision: None,
        }
    }

    /// Whether anything recorded can decide the type (members read, coercions scored or `typeof`
    /// checks naming a type; `undefined` and `null` name none): without, [`decide`] takes a leap of
    /// faith.
    pub fn has_evidence(&self) -> bool {
        !self.type_members().is_empty()
            || self.typeofs.iter().any(|t| t != "undefined" && t != "null")
            || self.scores.number > 0
            || self.scores.string > 0
    }

    /// The type tests use now (`Unknown` until decided).
    pub fn current_type(&self) -> ParamType {
        self.decision.as_ref().map_or(ParamType::Unknown, |d| d.ty)
    }

    /// The members that say something about the type: not those every object has, and with keys that
    /// are neither names nor indexes (a random value used as a key, like `' 1b'`) counted as an index.
    pub fn type_members(&self) -> Vec<&str> {
        let mut members: Vec<&str> = Vec::new();
        for name in self.members.keys().map(String::as_str).filter(|m| !OBJECT_MEMBERS.contains(m)) {
            let member = if name == CALLED || is_identifier_name(name) || is_index(name) { name } else { "0" };
            if !members.contains(&member) {
                members.push(member);
            }
        }
        members
    }

    /// Whether the user fixed the type (inference leaves it alone).
    pub fn frozen(&self) -> bool {
        matches!(
            self.decision.as_ref().map(|d| d.source),
            Some(DecisionSource::Accepted | DecisionSource::Overridden | DecisionSource::Configured)
        )
    }
}

/// The records of every parameter of the program, indexed by a dense id used in generated code.
#[derive(Debug, Clone, Default)]
pub struct TypeTable {
    records: Vec<ParamRecord>,
    /// Parameter ids of each function, in parameter order: generation asks for them on every call.
    by_function: BTreeMap<(ClassId, String), Vec<u32>>,
    /// The record of the elements of each parameter that turns out to be an array (`times[i]`), by the
    /// parameter's id: arrays are filled with recording proxies for it until its type is decided.
    elements: BTreeMap<u32, u32>,
    /// The record of the result of each parameter that turns out to be a callback (`label()`), by the
    /// parameter's id: generated functions return a recording proxy for it until its type is decided.
    results: BTreeMap<u32, u32>,
    /// The record of each member of a parameter typed as a plain object, by the parameter's id and the
    /// member's name (see [`TypeTable::add_member_records`]).
    members: BTreeMap<(u32, String), u32>,
    /// The `typeof` checks of each function, by class and function name, for the members' records.
    checks: BTreeMap<(ClassId, String), Vec<TypeofCheck>>,
}

impl TypeTable {
    /// One record per parameter of every constructor and method of `program`.
    pub fn new(program: &ProgramInfo) -> TypeTable {
        let mut records = Vec::new();
        for (class, info) in program.classes.iter().enumerate() {
            for function in std::iter::once(&info.constructor).chain(info.methods.iter()) {
                for (index, name) in function.params.iter().enumerate() {
                    let key = ParamKey { class, function: function.name.clone(), index };
                    if records.iter().any(|r: &ParamRecord| r.key == key) {
                        continue;
                    }
                    records.push(ParamRecord::blank(key, name.clone()));
                }
            }
        }
        let mut by_function: BTreeMap<(ClassId, String), Vec<u32>> = BTreeMap::new();
        for (id, record) in records.iter().enumerate() {
            by_function.entry((record.key.class, record.key.function.clone())).or_default().push(id as u32);
        }
        let (mut elements, mut results) = (BTreeMap::new(), BTreeMap::new());
        for id in 0..records.len() {
            for (derived, suffix) in [(&mut elements, "[i]"), (&mut results, "()")] {
                let parameter = &records[id];
                let record = ParamRecord::blank(parameter.key.clone(), format!("{}{suffix}", parameter.name));
                derived.insert(id as u32, records.len() as u32);
                records.push(record);
            }
        }
        TypeTable { records, by_function, elements, results, members: BTreeMap::new(), checks: BTreeMap::new() }
    }

    /// Gives the parameters of `function` of `class` the types its `typeof` checks (`checks`, those in
    /// the function's range) compare them with, and keeps the checks for the members of options objects.
    pub fn set_typeof_checks(&mut self, class: ClassId, function: &str, checks: Vec<TypeofCheck>) {
        for id in self.params_of(class, function).to_vec() {
            let record = &mut self.records[id as usize];
            record.typeofs = types_checked(&checks, &record.name, 0, u32::MAX);
        }
        self.checks.insert((class, function.to_string()), checks);
    }

    /// Gives every member read on a parameter now typed as a plain object (`options.max`) a record of
    /// its own, once, so that its value's type is inferred like a parameter's instead of guessed: an
    /// options object is only accepted when each member has the type the code checks. A member read into
    /// a local of its own name (`const { dispose } = options`) takes that local's `typeof` checks. A
    /// member that is an object itself (`options.perf.now`) gets member records the same way: only what
    /// the code reads has a record, so nesting ends where the code's reads end.
    pub fn add_member_records(&mut self) {
        for id in 0..self.records.len() as u32 {
            if self.records[id as usize].current_type() != ParamType::Object {
                continue;
            }
            let parent = &self.records[id as usize];
            let new: Vec<String> = parent
                .type_members()
                .into_iter()
                .filter(|m| is_identifier_name(m) && !self.members.contains_key(&(id, m.to_string())))
                .map(String::from)
                .collect();
            let (key, name) = (parent.key.clone(), parent.name.clone());
            for member in new {
                let mut record = ParamRecord::blank(key.clone(), format!("{name}.{member}"));
                if let Some(checks) = self.checks.get(&(key.class, key.function.clone())) {
                    record.typeofs = types_checked(checks, &member, 0, u32::MAX);
                }
                self.members.insert((id, member), self.records.len() as u32);
                self.records.push(record);
            }
        }
    }

    /// The record of member `name` of parameter `id`, once the parameter is a plain object and the code
    /// read that member (see [`TypeTable::add_member_records`]).
    pub fn member_of(&self, id: u32, name: &str) -> Option<u32> {
        self.members.get(&(id, name.to_string())).copied()
    }

    /// The record of the results of parameter `id`, when it is a callback; `None` for an element or a
    /// result itself (their callbacks return numbers).
    pub fn result_of(&self, id: u32) -> Option<u32> {
        self.results.get(&id).copied()
    }

    /// The record of the elements of parameter `id`, when it is an array; `None` for an element itself
    /// (elements of elements are numbers or strings).
    pub fn element_of(&self, id: u32) -> Option<u32> {
        self.elements.get(&id).copied()
    }

    /// The ids of a function's parameters, in order.
    pub fn params_of(&self, class: ClassId, function: &str) -> &[u32] {
        // Records are created in parameter order, so each list is already sorted by index.
        self.by_function.get(&(class, function.to_string())).map(Vec::as_slice).unwrap_or(&[])
    }

    /// A record by id.
    pub fn get(&self, id: u32) -> &ParamRecord {
        &self.records[id as usize]
    }

    /// A record by id, to change.
    pub fn get_mut(&mut self, id: u32) -> &mut ParamRecord {
        &mut self.records[id as usize]
    }

    /// All records.
    pub fn records(&self) -> &[ParamRecord] {
        &self.records
    }

    /// Adds what one test's proxies saw. Coercion positions are mapped back to the code under test to
    /// find the operator that coerced.
    pub fn record(&mut self, events: &[ProxyEvent], code: &CodeBase) {
        for event in events {
            let Some(record) = self.records.get_mut(event.key() as usize) else { continue };
            if record.frozen() {
                continue;
            }
            match event {
                ProxyEvent::Created { .. } => record.uses += 1,
                ProxyEvent::Get { name, .. } => record.members.entry(name.clone()).or_default().reads += 1,
                ProxyEvent::Set { name, .. } => record.members.entry(name.clone()).or_default().writes += 1,
                ProxyEvent::Has { name, .. } => record.members.entry(name.clone()).or_default().checks += 1,
                ProxyEvent::Called { .. } => record.members.entry(CALLED.to_string()).or_default().reads += 1,
                ProxyEvent::Coerced { hint, position, .. } => {
                    let located = match position.as_ref().map(|p| locate_site(code, p)) {
                        Some(Located::InThrow) => continue,
                        Some(Located::Site(site, place)) => Some((site, place)),
                        Some(Located::Unknown) | None => None,
                    };
                    let site = located.as_ref().map(|(site, _)| site);
                    let scores = hints::score(site, *hint);
                    record.scores.number += scores.number;
                    record.scores.string += scores.string;
                    let description = match &located {
                        Some((site, place)) => format!("'{}' at {place}", site.operator),
                        None => format!("{hint:?} hint (position unknown)").to_lowercase(),
                    };
                    *record.coercions.entry(description).or_default() += 1;
                }
            }
        }
    }
}

/// Where a coercion happened.
enum Located {
    /// At a known site, described by file and line.
    Site(crate::instrument::CoercionSite, String),
    /// While building a value to throw: not evidence of the parameter's type.
    InThrow,
    /// Somewhere the site index does not know.
    Unknown,
}

/// Finds the coercion site of an engine position: the file, then the original offset through the
/// instrumented code's position map, then the syntax node there.
fn locate_site(code: &CodeBase, position: &EnginePosition) -> Located {
    let Some((index, offset)) = code.original_offset(position) else { return Located::Unknown };
    let file = &code.files[index];
    if file.in_throw_argument(offset) {
        return Located::InThrow;
    }
    let Some(site) = file.instrumented.coercion_sites.at(offset) else { return Located::Unknown };
    let (line, _) = file.entry.parsed.line_col(swc_common::BytePos(file.entry.parsed.source.start_pos.0 + offset));
    let name = file.entry.parsed.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Located::Site(site.clone(), format!("{name}:{line}"))
}

/// Members every object has: they say nothing about a parameter's type.
const OBJECT_MEMBERS: &[&str] = &[
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
pub const CALLED: &str = "()";

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
const ARRAY_ONLY_MEMBERS: &[&str] = &[
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
pub fn decide(record: &ParamRecord, program: &ProgramInfo, rng: &mut (impl Rng + ?Sized)) -> Decision {
    let inferred = |ty, evidence| Decision { ty, evidence, source: DecisionSource::Inferred };
    // The code says which class it wants; members read after the check belong to that class anyway.
    // Unless it also checks `typeof` (`x instanceof Decimal` then `typeof x === 'number'`: one of
    // several accepted types, typeof's are the ones the rest of this decision reads), or it is a copy
    // constructor, which would need an instance to build the first one.
    let checks_typeof = record.typeofs.iter().any(|t| !t.starts_with(INSTANCEOF) && t != "null" && t != "undefined");
    let copy = |ty: &ParamType| record.key.function == "constructor" && *ty == ParamType::Class(record.key.class);
    if !checks_typeof
        && let Some((ty, class)) =
            record.typeofs.iter().filter_map(|t| instanceof_type(t, program)).find(|(ty, _)| !copy(ty))
    {
        return inferred(ty, format!("its function checks {} instanceof {class}", record.name));
    }
    let members = record.type_members();
    if !members.is_empty() {
        let is_string_member = |m: &&str| STRING_MEMBERS.contains(m) || is_index(m);
        // A constructor's parameter matched by its own class is more likely an options object whose
        // keys mirror the fields than a copy constructor: the class itself is left out of the match.
        let candidate = |class: ClassId| record.key.function != "constructor" || class != record.key.class;
        if let Some((class, matched)) = best_class(&members, program, candidate)
            && matched == members.len()
        {
            return inferred(
                ParamType::Class(class),
                format!("members {} all belong to {}", list(&members), program.classes[class].name),
            );
        }
        let any_of = |set: &[&str]| members.iter().any(|m| set.contains(m));
        if any_of(FUNCTION_MEMBERS) {
            return inferred(ParamType::Function, format!("called, or function members {}", list(&members)));
        }
        if any_of(DATE_MEMBERS) {
            return inferred(ParamType::Date, format!("Date members {}", list(&members)));
        }
        if any_of(REGEXP_MEMBERS) && members.iter().all(|m| REGEXP_MEMBERS.contains(m)) {
            return inferred(ParamType::RegExp, format!("RegExp members {}", list(&members)));
        }
        let is_array_member = |m: &&str| ARRAY_ONLY_MEMBERS.contains(m) || STRING_MEMBERS.contains(m) || is_index(m);
        if any_of(ARRAY_ONLY_MEMBERS) && members.iter().all(is_array_member) {
            return inferred(ParamType::Array, format!("Array members {}", list(&members)));
        }
        if members.iter().all(|m| NUMBER_MEMBERS.contains(m)) {
            return inferred(ParamType::Number, format!("Number members {}", list(&members)));
        }
        if members.iter().all(is_string_member) {
            return inferred(ParamType::String, format!("String members {}", list(&members)));
        }
        if let Some((class, matched)) = best_class(&members, program, candidate)
            && matched * 2 >= members.len()
        {
            let missing: Vec<&str> =
                members.iter().copied().filter(|m| !program.classes[class].has_member(m)).collect();
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
        return inferred(
            ParamType::Object,
            format!("members {} match no class, Number or String: a plain object", list(&members)),
        );
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
        let checks =
            record.typeofs.iter().filter(|t| *t != "null").map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ");
        return inferred(ty, format!("its function checks typeof {} against {checks}", record.name));
    }
    let Scores { number, string } = record.scores;
    if number > 0 || string > 0 {
        let coercions = record.coercions.keys().cloned().collect::<Vec<_>>().join(", ");
        let (ty, side) = if number >= string { (ParamType::Number, "number") } else { (ParamType::String, "string") };
        return inferred(ty, format!("coercions favour {side} ({number} to {string}): {coercions}"));
    }
    let ty = [ParamType::Number, ParamType::String, ParamType::Boolean][rng.random_range(0..3)];
    Decision {
        ty,
        evidence: format!("no evidence after {} uses: leap of faith to {}", record.uses, ty.name(program)),
        source: DecisionSource::LeapOfFaith,
    }
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
            let class = program
                .classes
                .iter()
                .position(|c| c.name == written || c.alias == written || c.name.rsplit('.').next() == Some(last))?;
            ParamType::Class(class)
        }
    };
    Some((ty, written))
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
        .filter(|(id, _)| candidate(*id))
        .map(|(id, class)| (id, members.iter().filter(|m| class.has_member(m)).count(), class.member_count()))
        .filter(|(_, matched, _)| *matched > 0)
        .min_by_key(|(id, matched, size)| (std::cmp::Reverse(*matched), *size, *id))
        .map(|(id, matched, _)| (id, matched))
}

fn is_index(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

fn list(names: &[&str]) -> String {
    names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for ParamKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}.{}[{}]", self.class, self.function, self.index)
    }
}
