//! Scoring one conversion of a recording proxy as evidence that the parameter is a number or a string.
//!
//! When code converts a proxy to a primitive, QuickJS calls its `Symbol.toPrimitive` with a hint, and
//! the stack says where ([`CoercionSite`]). Neither alone is enough: `p + 1`, `"a" + p` and `p == 5` all
//! give the hint "default". The site's operator and literal operand decide, the hint helps:
//!
//! | site                                                      | number | string |
//! |-----------------------------------------------------------|-------:|-------:|
//! | `++`, `--`                                                |     10 |        |
//! | `>` `<` `>=` `<=`                                         |      2 |      1 |
//! | `-` `*` `/` `%` `**` `<<` `>>` `>>>` `^` `\|` `&` (also as `-=` ...), unary `-` `+` `~` | 2 | |
//! | `+`, `+=`, `==`, `!=`                                     |        |        |
//! | ... and the other operand is a number literal             |     +5 |        |
//! | ... and the other operand is a string literal             |        |     +5 |
//! | template interpolation `${p}`                             |        |     10 |
//! | computed key `o[p]` (a name or an index)                  |      1 |      1 |
//! | call with hint "number" (`Math.max(p)`, `s.charAt(p)`, `a.slice(p)`, `isNaN(p)`) | 10 | |
//! | call with hint "string" (`String(p)`, `s.indexOf(p)`, `s.split(p)`, `parseInt(p)`) | | 10 |
//! | call with hint "default": by the function's name, from the lists below | 10 | 10 |
//! | `parseInt(p)` compared strictly with `p` (a test for a whole number)       | 10 |    |
//! | unknown site: the hint alone                              |      1 |      1 |
//!
//! A native function converting its argument asks for exactly what it needs, so for calls the hint is
//! reliable; the name lists only cover a "default" hint. Operators are weak evidence except `++`/`--`,
//! which only make sense on numbers, and literals, which say what the other side is compared or joined
//! with. A weight of 0 on both sides means "no evidence".

use crate::instrument::{CoercionSite, LiteralKind, SiteKind};
use crate::sandbox::events::Hint;

/// Evidence from one conversion.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scores {
    /// Weight for "the value is a number".
    pub number: u32,
    /// Weight for "the value is a string".
    pub string: u32,
}

/// Strong evidence: a conversion that only makes sense for one type.
const STRONG: u32 = 10;
/// A literal on the other side of the operator.
const LITERAL: u32 = 5;

/// Functions and methods whose argument is a number.
const NUMBER_CALLS: &[&str] = &[
    "Number()",
    "isNaN()",
    "isFinite()",
    "Number.isNaN()",
    ".charAt()",
    ".charCodeAt()",
    ".codePointAt()",
    ".substring()",
    ".substr()",
    ".slice()",
    ".repeat()",
    ".padStart()",
    ".padEnd()",
    ".at()",
    ".toFixed()",
    ".toPrecision()",
    ".toExponential()",
    ".splice()",
    ".fill()",
];

/// Functions and methods whose argument is a string.
const STRING_CALLS: &[&str] = &[
    "String()",
    "parseInt()",
    "parseFloat()",
    ".indexOf()",
    ".lastIndexOf()",
    ".split()",
    ".startsWith()",
    ".endsWith()",
    ".includes()",
    ".concat()",
    ".localeCompare()",
    ".join()",
    ".replace()",
    ".replaceAll()",
    ".search()",
    ".match()",
    ".normalize()",
];

/// Scores a conversion seen at `site` (`None` when the position matched no known site) with `hint`.
pub(crate) fn score(site: Option<&CoercionSite>, hint: Hint) -> Scores {
    let Some(site) = site else {
        return by_hint(hint, 1);
    };
    let mut scores = match site.kind {
        SiteKind::Update => Scores { number: STRONG, string: 0 },
        SiteKind::Template => Scores { number: 0, string: STRONG },
        SiteKind::ComputedKey => Scores { number: 1, string: 1 },
        SiteKind::TableKey => Scores { number: 0, string: 1 },
        SiteKind::Call => call(&site.operator, hint),
        SiteKind::NumberTest => Scores { number: STRONG, string: 0 },
        SiteKind::Binary | SiteKind::CompoundAssignment | SiteKind::Unary => operator(&site.operator, site.kind),
    };
    match site.literal_operand {
        Some(LiteralKind::Number) => scores.number += LITERAL,
        Some(LiteralKind::String) => scores.string += LITERAL,
        None => {}
    }
    scores
}

fn by_hint(hint: Hint, weight: u32) -> Scores {
    match hint {
        Hint::Number => Scores { number: weight, string: 0 },
        Hint::String => Scores { number: 0, string: weight },
        Hint::Default => Scores::default(),
    }
}

fn call(name: &str, hint: Hint) -> Scores {
    match hint {
        Hint::Number | Hint::String => by_hint(hint, STRONG),
        Hint::Default if NUMBER_CALLS.contains(&name) || name.starts_with("Math.") => by_hint(Hint::Number, STRONG),
        Hint::Default if STRING_CALLS.contains(&name) => by_hint(Hint::String, STRONG),
        Hint::Default => Scores::default(),
    }
}

fn operator(op: &str, kind: SiteKind) -> Scores {
    let op = if kind == SiteKind::CompoundAssignment { op.strip_suffix('=').unwrap_or(op) } else { op };
    match (kind, op) {
        // Only `-`, `+` and `~` are recorded as unary sites, and all three convert to a number.
        (SiteKind::Unary, _) => Scores { number: 2, string: 0 },
        (_, ">" | "<" | ">=" | "<=") => Scores { number: 2, string: 1 },
        (_, "-" | "*" | "/" | "%" | "**" | "<<" | ">>" | ">>>" | "^" | "|" | "&") => Scores { number: 2, string: 0 },
        _ => Scores::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(kind: SiteKind, operator: &str, literal_operand: Option<LiteralKind>) -> CoercionSite {
        CoercionSite { kind, operator: operator.into(), literal_operand, operands: Box::default() }
    }

    fn scored(kind: SiteKind, operator: &str, literal: Option<LiteralKind>, hint: Hint) -> (u32, u32) {
        let s = score(Some(&site(kind, operator, literal)), hint);
        (s.number, s.string)
    }

    #[test]
    fn operators_score_as_the_table_says() {
        use SiteKind::*;
        assert_eq!(scored(Update, "++", None, Hint::Number), (10, 0));
        assert_eq!(scored(Update, "--", None, Hint::Number), (10, 0));
        for op in [">", "<", ">=", "<="] {
            assert_eq!(scored(Binary, op, None, Hint::Number), (2, 1), "{op}");
        }
        for op in ["-", "*", "/", "%", "**", "<<", ">>", ">>>", "^", "|", "&"] {
            assert_eq!(scored(Binary, op, None, Hint::Number), (2, 0), "{op}");
            assert_eq!(scored(CompoundAssignment, &format!("{op}="), None, Hint::Number), (2, 0), "{op}=");
        }
        for op in ["-", "+", "~"] {
            assert_eq!(scored(Unary, op, None, Hint::Number), (2, 0), "unary {op}");
        }
        assert_eq!(scored(Binary, "+", None, Hint::Default), (0, 0));
        assert_eq!(scored(CompoundAssignment, "+=", None, Hint::Default), (0, 0));
        assert_eq!(scored(Binary, "==", None, Hint::Default), (0, 0));
        assert_eq!(scored(Binary, "!=", None, Hint::Default), (0, 0));
    }

    #[test]
    fn literal_operands_add_their_type() {
        use SiteKind::*;
        let (number, string) = (Some(LiteralKind::Number), Some(LiteralKind::String));
        assert_eq!(scored(Binary, "+", number, Hint::Default), (5, 0));
        assert_eq!(scored(Binary, "+", string, Hint::Default), (0, 5));
        assert_eq!(scored(Binary, "==", number, Hint::Default), (5, 0));
        assert_eq!(scored(Binary, "!=", string, Hint::Default), (0, 5));
        assert_eq!(scored(Binary, ">", number, Hint::Number), (7, 1));
        assert_eq!(scored(Binary, "<", string, Hint::Number), (2, 6));
        assert_eq!(scored(CompoundAssignment, "-=", number, Hint::Number), (7, 0));
    }

    #[test]
    fn syntax_that_knows_better_than_the_hint_wins() {
        use SiteKind::*;
        assert_eq!(scored(Template, "${}", None, Hint::String), (0, 10));
        assert_eq!(scored(ComputedKey, "[]", None, Hint::String), (1, 1));
        assert_eq!(scored(TableKey, "[]", None, Hint::String), (0, 1), "a table of names has string keys");
        assert_eq!(scored(Call, "String()", None, Hint::String), (0, 10));
        assert_eq!(scored(Call, "parseInt()", None, Hint::String), (0, 10));
        assert_eq!(scored(NumberTest, "parseInt()", None, Hint::String), (10, 0), "only a number survives it");
        for call in ["Math.max()", "isNaN()", ".charAt()", ".substring()", ".slice()", ".repeat()"] {
            assert_eq!(scored(Call, call, None, Hint::Number), (10, 0), "{call}");
            assert_eq!(scored(Call, call, None, Hint::Default), (10, 0), "{call} by name");
        }
        for call in [".indexOf()", ".split()", ".startsWith()"] {
            assert_eq!(scored(Call, call, None, Hint::String), (0, 10), "{call}");
            assert_eq!(scored(Call, call, None, Hint::Default), (0, 10), "{call} by name");
        }
        // An unlisted native function: its hint is what it needs.
        assert_eq!(scored(Call, "Date.UTC()", None, Hint::Number), (10, 0));
        assert_eq!(scored(Call, "()", None, Hint::Default), (0, 0));
    }

    #[test]
    fn unknown_sites_fall_back_to_the_hint() {
        assert_eq!(score(None, Hint::Number), Scores { number: 1, string: 0 });
        assert_eq!(score(None, Hint::String), Scores { number: 0, string: 1 });
        assert_eq!(score(None, Hint::Default), Scores::default());
        assert_eq!(
            [Hint::from_js("number"), Hint::from_js("string"), Hint::from_js("default"), Hint::from_js("?")],
            [Hint::Number, Hint::String, Hint::Default, Hint::Default]
        );
    }
}
