//! What recording proxies saw of one parameter: its uses, the members read on it, the coercions and
//! their scores, and the `typeof` checks its function makes.

use std::collections::BTreeMap;
use std::fmt;

use super::decide::{OBJECT_MEMBERS, is_index};
use super::hints::Scores;
use super::{CALLED, Decision, DecisionSource, ParamType};
use crate::js::literal::is_identifier_name;
use crate::model::program::ClassId;

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
    pub(super) fn blank(key: ParamKey, name: String) -> ParamRecord {
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
    /// checks naming a type; `undefined` and `null` name none): without, [`crate::inference::decide`] takes a leap of
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
