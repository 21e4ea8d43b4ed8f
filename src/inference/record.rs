//! What recording proxies saw of one parameter: its uses, the members read on it, the coercions and
//! their scores, and the `typeof` checks its function makes.

use rustc_hash::FxHashSet;
use std::collections::BTreeMap;
use std::fmt;

use super::decide::{OBJECT_MEMBERS, is_index};
use super::errors::Wanted;
use super::hints::Scores;
use super::patterns::LearntPattern;
use super::{CALLED, Decision, DecisionSource, ParamType};
use crate::analysis::constants::Constant;
use crate::analysis::declared::DeclaredParam;
use crate::analysis::lengths::Lengths;
use crate::js::literal::is_identifier_name;
use crate::model::program::{ClassId, ProgramInfo};
use crate::sandbox::CallArguments;

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

impl fmt::Display for ParamKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}.{}[{}]", self.class, self.function, self.index)
    }
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
    pub(crate) fn total(&self) -> u32 {
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
    /// Members used, by name (with those its function reads on a copy of it: see
    /// [`crate::analysis::copies`]).
    pub members: BTreeMap<String, MemberUse>,
    /// Accumulated number/string scores of coercions.
    pub scores: Scores,
    /// Coercions seen, described (`'>' at triangle.js:12`), with counts.
    pub coercions: BTreeMap<String, u32>,
    /// Accumulated number/string scores of coercions of items read on it by index (`data[i] - x`): a
    /// value read only by index and `length` is a string or an array, and these tell which.
    pub item_scores: Scores,
    /// Types its function compares it with through `typeof`, most often first, `'null'` for a
    /// comparison with `null` (see [`crate::analysis::typeofs`]).
    pub typeofs: Vec<String>,
    /// The string and number literals its function compares it with (`kind === 'major'`, `case
    /// 'minor':`), each once: a branch that names a value is taken by that value and hardly any other.
    pub literals: Vec<Constant>,
    /// What its function compares its length with (see [`crate::analysis::lengths`]): lengths its
    /// values are drawn with now and then.
    pub(crate) lengths: Lengths,
    /// The decision, once made.
    pub decision: Option<Decision>,
    /// The patterns its values met in the code under test (see [`super::patterns`]).
    pub patterns: Vec<LearntPattern>,
    /// What joins the items when the code splits its values into lists (`' '` for `split(/\s+/)`).
    pub joiners: Vec<String>,
    /// The types that errors thrown when it was passed a recording proxy asked for (see
    /// [`super::errors`]).
    pub wanted: Vec<Wanted>,
    /// What the code passed it when it called it as a function, over every call (see
    /// [`CallArguments::merge`]): a comparator is called with two numbers or strings, a predicate with one.
    pub calls: Option<CallArguments>,
    /// Calls it was passed a recording proxy in that threw an error rejecting it.
    pub rejected: u32,
    /// How many times the code listed its own keys (`Object.keys`, `for...in`, a spread): it walks the
    /// entries of a plain object, whatever they are named.
    pub keys_listed: u32,
    /// Reads of members, by name, in calls that then rejected it: probes (`v.toStringTag`), not uses.
    pub probed: BTreeMap<String, u32>,
    /// What TypeScript declares it as, when its class ships declarations (see
    /// [`crate::analysis::declared`]); it decides the type when the engine can build its values.
    pub(crate) declared: Option<DeclaredParam>,
    /// Whether it comes after every parameter its declared signature lists, with no rest parameter
    /// there: TypeScript callers cannot pass it (`Buffer(arg, encodingOrOffset, length)` declared
    /// only as `(str, encoding?)`, `(size)`...), so calls that keep to declared types leave it out.
    pub(crate) beyond_declaration: bool,
    /// Whether it is a rest parameter whose declared element it was given as `declared`: every argument
    /// from its place on is one, so calls pass several of them.
    pub(crate) gathers: bool,
}

impl ParamRecord {
    /// A record with nothing seen yet.
    pub(super) fn blank(key: ParamKey, name: String) -> ParamRecord {
        ParamRecord {
            key,
            name,
            uses: 0,
            members: BTreeMap::new(),
            scores: Scores::default(),
            coercions: BTreeMap::new(),
            item_scores: Scores::default(),
            typeofs: Vec::new(),
            literals: Vec::new(),
            lengths: Lengths::default(),
            decision: None,
            patterns: Vec::new(),
            joiners: Vec::new(),
            wanted: Vec::new(),
            calls: None,
            rejected: 0,
            keys_listed: 0,
            probed: BTreeMap::new(),
            declared: None,
            beyond_declaration: false,
            gathers: false,
        }
    }

    /// Whether anything recorded can decide the type (members read, keys listed, coercions scored or
    /// `typeof` checks naming a type; `undefined` and `null` name none): without,
    /// [`crate::inference::decide()`] takes a leap of faith.
    pub(crate) fn has_evidence(&self) -> bool {
        !self.type_members().is_empty()
            || self.keys_listed > 0
            || !self.wanted.is_empty()
            || self.typeofs.iter().any(|t| t != "undefined" && t != "null")
            || self.scores.number > 0
            || self.scores.string > 0
    }

    /// Whether it is a member of a plain object (see [`super::TypeTable::add_member_records`]), named by
    /// its chain, that its function compares with several literals (`node.type === 'num'`, `case
    /// 'array':`): it says what kind of object it is, and the code reads the rest of the object by it.
    pub(crate) fn discriminates(&self) -> bool {
        self.name.contains('.') && self.literals.len() > 1
    }

    /// The type tests use now (`Unknown` until decided).
    pub fn current_type(&self) -> ParamType {
        self.decision.as_ref().map_or(ParamType::Unknown, |d| d.ty)
    }

    /// The members that say something about the type: not those every object has, nor probes (brand
    /// and protocol checks like `toStringTag`, `_isBig` or `Symbol.iterator`, and members read only in
    /// calls that then rejected the proxy), and with keys that are neither names nor indexes (a random
    /// value used as a key, like `' 1b'`, or a number that is no index, like `NaN`) counted as an index.
    pub(crate) fn type_members(&self) -> Vec<&str> {
        let probe = |name: &str, used: &MemberUse| {
            is_probe(name)
                || (used.writes == 0 && used.checks == 0 && self.probed.get(name).is_some_and(|p| *p >= used.reads))
        };
        let mut members: Vec<&str> = Vec::new();
        // A proxy indexed in a loop has thousands of members: a set keeps this linear.
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        let telling = self.members.iter().filter(|(m, used)| !OBJECT_MEMBERS.contains(&m.as_str()) && !probe(m, used));
        for name in telling.map(|(m, _)| m.as_str()) {
            // `NaN` and `Infinity` are names, but as keys they are numbers the code computed (`xs[(i + 1) %
            // xs.length]` while `length` was inert).
            let named = is_identifier_name(name) && !["NaN", "Infinity"].contains(&name);
            let member = if name == CALLED || named || is_index(name) { name } else { "0" };
            if seen.insert(member) {
                members.push(member);
            }
        }
        members
    }

    /// The type the errors thrown for it asked for most, if any.
    pub(crate) fn most_wanted(&self) -> Option<&Wanted> {
        self.wanted.iter().max_by_key(|w| w.count)
    }

    /// Whether the user fixed the type (inference leaves it alone; a declared type is never decided
    /// again either, having a decision, but it is not the user's to give back).
    pub(crate) fn frozen(&self) -> bool {
        matches!(
            self.decision.as_ref().map(|d| d.source),
            Some(DecisionSource::Accepted | DecisionSource::Overridden | DecisionSource::Configured)
        )
    }

    /// The declaration values are built from: while the declaration decides the type (a person's choice
    /// or the project file's replaces it).
    pub(crate) fn declared_in_force(&self) -> Option<&DeclaredParam> {
        let in_force = self.decision.as_ref().is_some_and(|d| d.source == DecisionSource::Declared);
        self.declared.as_ref().filter(|_| in_force)
    }

    /// Gives it its declaration, and the type that decides when the engine can build its values (else
    /// the absent values the declaration names, for its proxy's `typeof` checks).
    pub(super) fn declare(&mut self, declared: &DeclaredParam, program: &ProgramInfo) {
        self.decision = super::declared::decision(declared, program).or(self.decision.take());
        if self.decision.is_none() {
            for absent in super::declared::absent_values(declared) {
                if !self.typeofs.iter().any(|t| t == absent) {
                    self.typeofs.push(absent.to_string());
                }
            }
        }
        self.declared = Some(declared.clone());
    }

    /// Whether callers may leave it out, by its declaration.
    pub(crate) fn declared_optional(&self) -> bool {
        self.declared.as_ref().is_some_and(|d| d.optional)
    }
}

/// The member a recording proxy logs for `Symbol.asyncIterator`: what `for await` and async-iterable
/// checks read.
pub(crate) const ASYNC_ITERATOR: &str = "@@asyncIterator";

/// The pseudo-member a recording proxy logs when the code calls its `Symbol.iterator`: `for...of`, a
/// spread or `Array.from` iterating it (reading the member alone may be a check).
pub(crate) const ITERATED: &str = "@@iterated";

impl ParamRecord {
    /// Whether the code asked its values for `Symbol.asyncIterator`: it takes async iterables.
    pub(crate) fn iterates_async(&self) -> bool {
        self.members.contains_key(ASYNC_ITERATOR)
    }

    /// Whether the code iterated its values (see [`ITERATED`]).
    pub(crate) fn iterates(&self) -> bool {
        self.members.contains_key(ITERATED)
    }
}

/// Members read to check what a value is rather than to use it: `Symbol.toStringTag`,
/// `Symbol.iterator` and `Symbol.asyncIterator` checks, a `toStringTag` field, and brand flags such as
/// `_isBigNumber` or `$isDayjsObject`; and iterating ([`ITERATED`]), which decides by a rule of its own.
fn is_probe(name: &str) -> bool {
    const PROBES: [&str; 5] = ["toStringTag", "@@toStringTag", "@@iterator", ASYNC_ITERATOR, ITERATED];
    let brand = ["_is", "$is"].iter().any(|prefix| {
        name.strip_prefix(prefix).and_then(|rest| rest.chars().next()).is_some_and(|c| c.is_ascii_uppercase())
    });
    PROBES.contains(&name) || brand
}
