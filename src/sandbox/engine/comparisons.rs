//! Reading the comparisons a measuring run's conditions made and found unequal (`__fc$cl`, kept by
//! `distance.js`): the constants the input met where it went no further, for generation to write into
//! the input (see `generate/correspondence.rs`).

use rquickjs::{Array, Ctx, Value};

use super::text::{TextBudget, with_text};
use crate::sandbox::Watch;
use crate::sandbox::events::lossy_text;

/// How a comparison related its two operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// `a === b` (or `==`, `!==`, `!=`).
    Equal,
    /// `a.startsWith(b)`.
    Prefix,
    /// `a.endsWith(b)`.
    Suffix,
    /// `a.includes(b)`.
    Contains,
    /// `re.test(a)`, which failed: `b` is the pattern's source.
    Matches,
}

/// One operand of a comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    /// A character's code.
    Code(u32),
    /// NaN where a code was compared: `charCodeAt` read past the end of the string.
    End,
    /// A string.
    Text(String),
}

/// A comparison a condition made that came out unequal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The branch outcome (its "true" one, an offset into the watched range) of the condition when the
    /// comparison was the whole of it and is watched.
    pub branch: Option<u32>,
    /// The left operand (the receiver of a string predicate).
    pub left: Operand,
    /// The right operand (the argument of a string predicate).
    pub right: Operand,
    /// How they were compared.
    pub relation: Relation,
}

/// Slots of the log per comparison, and comparisons the ring holds (as in `distance.js`).
const SLOTS: u32 = 4;
const RING: u32 = 128;

/// The comparisons in `log`, oldest first, without repeats; strings read within `budget`.
pub(super) fn read<'js>(
    ctx: &Ctx<'js>,
    log: &Array<'js>,
    watch: &Watch,
    budget: &TextBudget,
) -> rquickjs::Result<Vec<Comparison>> {
    let made: f64 = log.get(0)?;
    let made = made as u32;
    let first = made.saturating_sub(RING);
    let mut out: Vec<Comparison> = Vec::new();
    for n in first..made {
        let at = (1 + SLOTS * (n % RING)) as usize;
        let id: f64 = log.get(at)?;
        let operand = |value: Value<'js>| -> rquickjs::Result<Option<Operand>> {
            if let Some(n) = value.as_number() {
                // `distance.js` notes only NaN and whole codes up to 0x10ffff.
                return Ok(Some(if n.is_nan() { Operand::End } else { Operand::Code(n as u32) }));
            }
            Ok(with_text(ctx, &value, budget, lossy_text)?.map(Operand::Text))
        };
        let (Some(left), Some(right)) = (operand(log.get(at + 1)?)?, operand(log.get(at + 2)?)?) else { continue };
        let relation = match log.get::<f64>(at + 3)? as u8 {
            1 => Relation::Prefix,
            2 => Relation::Suffix,
            3 => Relation::Contains,
            4 => Relation::Matches,
            _ => Relation::Equal,
        };
        let branch = (id >= 0.0).then(|| watch.branch_offset(id as u32)).flatten();
        let comparison = Comparison { branch, left, right, relation };
        if !out.contains(&comparison) {
            out.push(comparison);
        }
    }
    Ok(out)
}
