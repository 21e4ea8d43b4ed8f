//! The records of every parameter of the program, by a dense id that generated code names, and how a
//! run's proxy events are added to them.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use super::hints;
use super::{CALLED, ParamKey, ParamRecord, ParamType};
use crate::analysis::declared::Signature;
use crate::analysis::lengths::lengths_checked;
use crate::analysis::typeofs::{ANY_VALUE, TypeofCheck, literals_compared, types_checked};
use crate::js::literal::is_identifier_name;
use crate::model::observed::EnginePosition;
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{Statement, TestCase, Value};
use crate::sandbox::{CodeBase, ProxyEvent};

/// The records of every parameter of the program, indexed by a dense id used in generated code.
#[derive(Debug, Clone, Default)]
pub struct TypeTable {
    pub(super) records: Vec<ParamRecord>,
    /// Parameter ids of each function, in parameter order, by class and function name: generation asks
    /// for them on every call, so a lookup borrows the name rather than making a key of it, and hashes it
    /// with Fx rather than SipHash (no key here comes from an adversary; SipHash was 2 % of a step).
    by_function: Vec<FxHashMap<String, Vec<u32>>>,
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
    /// The parameter whose shape the values of a member chain of a parameter take, by class, function
    /// and chain (`node.left`, `schema.properties[]`): the function passes them to that parameter's
    /// function (see [`crate::analysis::shapes`]).
    shapes: BTreeMap<(ClassId, String, String), ParamKey>,
    /// Every word of the code's text (names, keys), made at the first run: a member a typed options
    /// object reports is learnt only when the code names it (see [`TypeTable::record`]).
    words: Option<FxHashSet<String>>,
}

impl TypeTable {
    /// One record per parameter of every constructor and method of `program`.
    pub(crate) fn new(program: &ProgramInfo) -> TypeTable {
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
        let mut by_function: Vec<FxHashMap<String, Vec<u32>>> = vec![FxHashMap::default(); program.classes.len()];
        for (id, record) in records.iter().enumerate() {
            by_function[record.key.class].entry(record.key.function.clone()).or_default().push(id as u32);
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
        TypeTable {
            records,
            by_function,
            elements,
            results,
            members: BTreeMap::new(),
            checks: BTreeMap::new(),
            shapes: BTreeMap::new(),
            words: None,
        }
    }

    /// Gives the parameters of `function` of `class` the types its `typeof` checks (`checks`, those in
    /// the function's range) compare them with and the literals its equalities name, and keeps the
    /// checks for the members of options objects.
    pub(crate) fn set_typeof_checks(&mut self, class: ClassId, function: &str, checks: Vec<TypeofCheck>) {
        for id in self.params_of(class, function).to_vec() {
            let record = &mut self.records[id as usize];
            record.typeofs = types_checked(&checks, &record.name, 0, u32::MAX);
            record.literals = literals_compared(&checks, &record.name);
            record.lengths = lengths_checked(&checks, &record.name);
        }
        self.checks.insert((class, function.to_string()), checks);
    }

    /// Gives the parameters of `function` of `class` their declarations (`signature`), and the types of
    /// those whose values the engine can build (see [`super::declared`]).
    pub(crate) fn declare(&mut self, class: ClassId, function: &str, signature: &Signature, program: &ProgramInfo) {
        let params = self.params_of(class, function).to_vec();
        for (id, declared) in params.iter().zip(&signature.params) {
            self.records[*id as usize].declare(declared, program);
        }
        // The code's rest parameter, when the declaration's is the same one.
        let rest = signature.rest.as_ref().zip(params.get(signature.params.len()));
        if let Some((declared, id)) = rest.filter(|(declared, id)| self.records[**id as usize].name == declared.name) {
            let record = &mut self.records[*id as usize];
            record.declare(declared, program);
            record.gathers = true;
        }
        if !signature.open {
            for id in params.iter().skip(signature.params.len()) {
                self.records[*id as usize].beyond_declaration = true;
            }
        }
    }

    /// Gives parameter `index` of `function` of `class` the members its function reads on copies of it
    /// (see [`crate::analysis::copies`]), as reads: they are what its values may hold.
    pub(crate) fn add_copied_members(&mut self, class: ClassId, function: &str, index: usize, members: Vec<String>) {
        let Some(&id) = self.params_of(class, function).get(index) else { return };
        let record = &mut self.records[id as usize];
        for member in members {
            record.members.entry(member).or_default().reads += 1;
        }
    }

    /// Gives every member read on a parameter now typed as a plain object (`options.max`) a record of
    /// its own, once, so that its value's type is inferred like a parameter's instead of guessed: an
    /// options object is only accepted when each member has the type the code checks: its own checks
    /// (`typeof options.max`), and those of a local of its name it is read into (`const { dispose } =
    /// options`). A member that is an object itself (`options.perf.now`) gets member records the same
    /// way: only what the code reads has a record, so nesting ends where the code's reads end.
    pub(crate) fn add_member_records(&mut self) {
        for id in 0..self.records.len() as u32 {
            if self.records[id as usize].current_type() != ParamType::Object {
                continue;
            }
            let parent = &self.records[id as usize];
            // The records this one has, read in place: asking for each member by an owned key allocated
            // a name per member of every options object at every step.
            let has: FxHashSet<&str> = self
                .members
                .range((id, String::new())..(id + 1, String::new()))
                .map(|((_, m), _)| m.as_str())
                .collect();
            let new: Vec<String> = parent
                .type_members()
                .into_iter()
                .filter(|m| is_identifier_name(m) && !has.contains(m))
                .map(String::from)
                .collect();
            let (key, name) = (parent.key.clone(), parent.name.clone());
            for member in new {
                let mut record = ParamRecord::blank(key.clone(), format!("{name}.{member}"));
                if let Some(checks) = self.checks.get(&(key.class, key.function.clone())) {
                    // Checks on the member itself (`typeof options.max`), then on a local of its name.
                    for name in [record.name.clone(), member.clone()] {
                        for ty in types_checked(checks, &name, 0, u32::MAX) {
                            if !record.typeofs.contains(&ty) {
                                record.typeofs.push(ty);
                            }
                        }
                        for literal in literals_compared(checks, &name) {
                            if !record.literals.contains(&literal) {
                                record.literals.push(literal);
                            }
                        }
                        if record.lengths.is_empty() {
                            record.lengths = lengths_checked(checks, &name);
                        }
                    }
                }
                self.members.insert((id, member), self.records.len() as u32);
                self.records.push(record);
            }
        }
    }

    /// Says that `function` of `class` passes its member chain `path` (see [`TypeTable::shapes`]) to
    /// parameter `to`.
    pub(crate) fn pass_on(&mut self, class: ClassId, function: &str, path: String, to: ParamKey) {
        self.shapes.insert((class, function.to_string(), path), to);
    }

    /// The parameter whose shape values of record `id` take: its function passes them to that
    /// parameter (`node.left` to `evaluate`'s `node`).
    pub(crate) fn shape_of(&self, id: u32) -> Option<u32> {
        self.passed_as(id, "")
    }

    /// The parameter whose shape the values under any key of record `id` (a plain object used as a map)
    /// take (`schema.properties`, whose `props[key]` is passed to `validate`'s `schema`).
    pub(crate) fn values_shape_of(&self, id: u32) -> Option<u32> {
        self.passed_as(id, ANY_VALUE)
    }

    fn passed_as(&self, id: u32, suffix: &str) -> Option<u32> {
        let record = &self.records[id as usize];
        let path = (record.key.class, record.key.function.clone(), format!("{}{suffix}", record.name));
        let to = self.shapes.get(&path)?;
        self.params_of(to.class, &to.function).get(to.index).copied()
    }

    /// The record of member `name` of parameter `id`, once the parameter is a plain object and the code
    /// read that member (see [`TypeTable::add_member_records`]).
    pub(crate) fn member_of(&self, id: u32, name: &str) -> Option<u32> {
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
        self.by_function.get(class).and_then(|functions| functions.get(function)).map_or(&[], Vec::as_slice)
    }

    /// A record by id.
    pub fn get(&self, id: u32) -> &ParamRecord {
        &self.records[id as usize]
    }

    /// A record by id, to change.
    pub(crate) fn get_mut(&mut self, id: u32) -> &mut ParamRecord {
        &mut self.records[id as usize]
    }

    /// All records.
    pub(crate) fn records(&self) -> &[ParamRecord] {
        &self.records
    }

    /// Every value `test` gives a record: each argument to its parameter's, and inside arrays, options
    /// objects and callbacks, to the elements', members' and results' records, in order.
    pub(crate) fn given<'t>(&self, test: &'t TestCase) -> Vec<Given<'t>> {
        let mut out = Vec::new();
        for (statement, s) in test.statements.iter().enumerate() {
            let (class, function) = match s {
                Statement::Construct { class, .. } => (*class, "constructor"),
                Statement::Call { receiver, method, .. } => (test.variables[*receiver].class, method.as_str()),
                Statement::Rebuild { .. } => continue,
            };
            for (&record, value) in self.params_of(class, function).iter().zip(s.args()) {
                self.given_value(statement, record, value, &mut out);
            }
        }
        out
    }

    fn given_value<'t>(&self, statement: usize, record: u32, value: &'t Value, out: &mut Vec<Given<'t>>) {
        out.push(Given { statement, record, value });
        match value {
            Value::Array(items) => {
                if let Some(element) = self.element_of(record) {
                    items.iter().for_each(|item| self.given_value(statement, element, item, out));
                }
            }
            Value::Object { members, .. } => {
                for (name, member) in members {
                    if let Some(id) = self.member_of(record, name) {
                        self.given_value(statement, id, member, out);
                    }
                }
            }
            Value::Function { result, .. } => {
                if let Some(id) = self.result_of(record) {
                    self.given_value(statement, id, result, out);
                }
            }
            _ => {}
        }
    }

    /// Adds what one test's proxies saw. Coercion positions are mapped back to the code under test to
    /// find the operator that coerced.
    /// A typed options object reports the members it lacks that the code reads or checks (see
    /// [`Value::Object`]); a name the code's text never holds is data (`doc[key]` with a key a test
    /// passed), not an option, and is left out.
    pub(crate) fn record(&mut self, events: &[ProxyEvent], code: &CodeBase) {
        let words = self.words.get_or_insert_with(|| source_words(code));
        for event in events {
            let Some(record) = self.records.get_mut(event.key() as usize) else { continue };
            if record.frozen() {
                continue;
            }
            if let ProxyEvent::Get { name, .. } | ProxyEvent::Has { name, .. } = event
                && record.decision.is_some()
                && !words.contains(name.as_str())
            {
                continue;
            }
            match event {
                ProxyEvent::Created { .. } => record.uses += 1,
                ProxyEvent::Get { name, .. } => record.members.entry(name.clone()).or_default().reads += 1,
                ProxyEvent::Set { name, .. } => record.members.entry(name.clone()).or_default().writes += 1,
                ProxyEvent::Has { name, .. } => record.members.entry(name.clone()).or_default().checks += 1,
                ProxyEvent::KeysListed { .. } => record.keys_listed += 1,
                ProxyEvent::Called { arguments, .. } => {
                    record.members.entry(CALLED.to_string()).or_default().reads += 1;
                    if let Some(arguments) = arguments {
                        record.calls = Some(record.calls.map_or(*arguments, |seen| seen.merge(*arguments)));
                    }
                }
                ProxyEvent::Coerced { hint, position, item, .. } => {
                    let located = match position.as_ref().map(|p| locate_site(code, p, &record.name)) {
                        Some(Located::InThrow) => continue,
                        Some(Located::Site(site, place)) => Some((site, place)),
                        Some(Located::Unknown) | None => None,
                    };
                    let site = located.as_ref().map(|(site, _)| site);
                    let scores = hints::score(site, *hint);
                    let total = if *item { &mut record.item_scores } else { &mut record.scores };
                    total.number += scores.number;
                    total.string += scores.string;
                    let of = if *item { " on an item" } else { "" };
                    let description = match &located {
                        Some((site, place)) => format!("'{}' at {place}{of}", site.operator),
                        None => format!("{hint:?} hint (position unknown){of}").to_lowercase(),
                    };
                    *record.coercions.entry(description).or_default() += 1;
                }
            }
        }
    }
}

/// The words of the code's text: runs of letters, digits, `_` and `$`.
fn source_words(code: &CodeBase) -> FxHashSet<String> {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let text = code.files.iter().flat_map(|f| f.entry.parsed.source.src.split(move |c: char| !word(c)));
    text.filter(|w| !w.is_empty()).map(String::from).collect()
}

/// A value a test gives a record (see [`TypeTable::given`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Given<'t> {
    /// The statement that passes it.
    pub statement: usize,
    /// The record: a parameter, or an element, member or callback result of one.
    pub record: u32,
    /// The value.
    pub value: &'t Value,
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
/// instrumented code's position map, then the syntax node there that has the parameter `name` as an
/// operand, if one has.
fn locate_site(code: &CodeBase, position: &EnginePosition, name: &str) -> Located {
    let Some((index, offset)) = code.original_offset(position) else { return Located::Unknown };
    let file = &code.files[index];
    if file.in_throw_argument(offset) {
        return Located::InThrow;
    }
    let Some(site) = file.instrumented.coercion_sites.of(offset, name) else { return Located::Unknown };
    let (line, _) = file.entry.parsed.line_col(swc_common::BytePos(file.entry.parsed.source.start_pos.0 + offset));
    let name = file.entry.parsed.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Located::Site(site.clone(), format!("{name}:{line}"))
}
