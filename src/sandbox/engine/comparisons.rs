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
    /// `a === b` (or `==`, `!==`, `!=`), or a `switch`'s discriminant and one of its `case` constants.
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
        if log.get::<f64>(at + 3)? == SWITCH {
            cases(ctx, log.get(at + 1)?, log.get(at + 2)?, watch, budget, &mut out)?;
            continue;
        }
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
        add(&mut out, Comparison { branch, left, right, relation });
    }
    Ok(out)
}

/// The relation `distance.js` notes a `switch` with: the discriminant, then its `case` constants, each
/// followed by its clause's branch id.
const SWITCH: f64 = 5.0;

/// A `switch`'s comparisons: its discriminant `value` against each constant of `cases` unequal to it,
/// under the terms `distance.js` notes an equality (character codes and NaN, strings of at most 256).
fn cases<'js>(
    ctx: &Ctx<'js>,
    value: Value<'js>,
    cases: Value<'js>,
    watch: &Watch,
    budget: &TextBudget,
    out: &mut Vec<Comparison>,
) -> rquickjs::Result<()> {
    let Some(cases) = cases.into_array() else { return Ok(()) };
    let text = |value: &Value<'js>| -> rquickjs::Result<Option<String>> {
        if !value.is_string() {
            return Ok(None);
        }
        Ok(with_text(ctx, value, budget, lossy_text)?.filter(|t| t.encode_utf16().count() <= 256))
    };
    let left = match value.as_number() {
        Some(n) if n.is_nan() => Operand::End,
        Some(n) => match code(n) {
            Some(c) => Operand::Code(c),
            None => return Ok(()),
        },
        None => match text(&value)? {
            Some(t) => Operand::Text(t),
            None => return Ok(()),
        },
    };
    for pair in 0..cases.len() / 2 {
        let constant: Value<'js> = cases.get(2 * pair)?;
        let id: f64 = cases.get(2 * pair + 1)?;
        let right = match (&left, constant.as_number()) {
            (Operand::End | Operand::Code(_), Some(n)) => code(n).map(Operand::Code),
            (Operand::Text(_), None) => text(&constant)?.map(Operand::Text),
            _ => None,
        };
        let Some(right) = right.filter(|right| *right != left) else { continue };
        let branch = watch.branch_offset(id as u32);
        add(out, Comparison { branch, left: left.clone(), right, relation: Relation::Equal });
    }
    Ok(())
}

/// A number `distance.js` would note as a character's code: whole, from a tab to the last code point.
fn code(n: f64) -> Option<u32> {
    (n.fract() == 0.0 && (9.0..=1_114_111.0).contains(&n)).then_some(n as u32)
}

/// Adds `comparison` to `out` unless it is there already.
fn add(out: &mut Vec<Comparison>, comparison: Comparison) {
    if !out.contains(&comparison) {
        out.push(comparison);
    }
}
