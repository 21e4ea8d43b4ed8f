//! Input-to-state correspondence (Redqueen's; AFL++'s CmpLog): a string of the test is rewritten where
//! the code compared a part of it with a constant and found them unequal, so that the part becomes
//! the constant. A parser that reads `input.charCodeAt(pos) === 91` or `input.substr(pos, 2) === "''"`
//! refuses a random string at its first character (as does one that reads `switch (c) { case 91: ... }`,
//! each of whose `case` constants is a comparison), and the branch distance of one comparison says how
//! far a character is from `[`, not where it sits; the run's comparisons (`Execution::comparisons`) say
//! both what the character met and, by finding it in the test's strings, where it is. One such
//! rewrite per candidate grows a string into the grammar token by token: search keeps each candidate
//! that gets further (see [`super::search`]), with the comparisons of its own run.
//!
//! A compared character (its code) is replaced by the other operand's character at one of its places
//! in the string, or that character inserted there; a code read past the end (NaN) is appended to. A
//! compared substring is replaced by the other string (the empty string, read past the end, is
//! appended to). `a.startsWith(b)`, `endsWith` and `includes` put `b` at the start, the end or inside
//! of `a`, where `a` sits in the string. A part a regular expression's test refused (`/^[0-9]/.test(c)`,
//! a character class) is replaced by a string the pattern matches.

use rand::Rng;
use rand::RngExt;

use super::places::{Place, places, value_at};
use crate::js::regex::RegexGenerator;
use crate::model::test::{Statement, TestCase, Value};
use crate::sandbox::{Comparison, Operand, Relation};

/// Draws of a comparison and a string before giving up on a test.
const TRIES: usize = 8;
/// Chance of drawing among the comparisons of the condition aimed at, when it made some.
const AIMED: f64 = 0.5;
/// Chance of inserting the constant at a compared character's place rather than replacing it.
const INSERT: f64 = 0.25;

/// Rewrites one string of `test` (at a place `free` lets change) after one of `comparisons`, preferring
/// those of the condition of branch outcome `target`; answers whether it did.
pub(super) fn rewrite(
    test: &mut TestCase,
    comparisons: &[Comparison],
    target: u32,
    free: impl Fn(&Place) -> bool,
    rng: &mut (impl Rng + ?Sized),
) -> bool {
    let strings: Vec<Place> = places(test, |v| matches!(v, Value::String(_)))
        .into_iter()
        .map(|(place, _)| place)
        .filter(|place| free(place))
        .collect();
    if strings.is_empty() || comparisons.is_empty() {
        return false;
    }
    // A condition's comparisons note its "true" outcome; the target may be either.
    let aimed: Vec<&Comparison> =
        comparisons.iter().filter(|c| c.branch.is_some_and(|b| b == target || b + 1 == target)).collect();
    let all: Vec<&Comparison> = comparisons.iter().collect();
    let pool = if !aimed.is_empty() && rng.random_bool(AIMED) { aimed } else { all };
    for _ in 0..TRIES {
        let comparison = pool[rng.random_range(0..pool.len())];
        // The strings where the comparison's operand sits, one of them drawn.
        let mut rewritten: Vec<(&Place, String)> = Vec::new();
        for place in &strings {
            if let Some(Value::String(text)) = value_at(test, place)
                && let Some(new) = written(text, comparison, rng)
            {
                rewritten.push((place, new));
            }
        }
        // The call under test's own strings first: a rewrite that makes an earlier call throw makes the
        // test worthless (it must end at its last statement).
        let last = test.statements.len().saturating_sub(1);
        if rewritten.iter().any(|(place, _)| place.statement == last) {
            rewritten.retain(|(place, _)| place.statement == last);
        }
        if rewritten.is_empty() {
            continue;
        }
        let (place, new) = rewritten.swap_remove(rng.random_range(0..rewritten.len()));
        let at = place.statement;
        if let Some(Value::String(text)) = value_at(test, place) {
            *text = new;
            // A string of an earlier call of the method under test: the comparisons may be that call's,
            // which then threw (a parse error) and ended the run there, so it becomes the last.
            let under_test = matches!(&test.statements[at], Statement::Call { method, .. } if *method == test.method);
            while under_test && test.statements.len() > at + 1 {
                match test.without_statement(test.statements.len() - 1) {
                    Some(shorter) => *test = shorter,
                    None => break,
                }
            }
            return true;
        }
    }
    false
}

/// `text` rewritten after `comparison`, if a compared operand is found in it: in either direction,
/// since either operand may be the input's.
fn written(text: &str, comparison: &Comparison, rng: &mut (impl Rng + ?Sized)) -> Option<String> {
    let (left, right) = (&comparison.left, &comparison.right);
    match comparison.relation {
        Relation::Equal => {
            let (first, second) =
                if rng.random_bool(0.5) { ((left, right), (right, left)) } else { ((right, left), (left, right)) };
            equal(text, first.0, first.1, rng).or_else(|| equal(text, second.0, second.1, rng))
        }
        Relation::Matches => {
            let (Operand::Text(tested), Operand::Text(source)) = (left, right) else { return None };
            let sample = RegexGenerator::parse(&format!("/{source}/")).ok()?.sample(rng);
            equal(text, &Operand::Text(tested.clone()), &Operand::Text(sample), rng)
        }
        relation => {
            let (Operand::Text(receiver), Operand::Text(part)) = (left, right) else { return None };
            let at = occurrence(text, receiver, rng)?;
            let affixed = match relation {
                Relation::Prefix => format!("{part}{receiver}"),
                Relation::Suffix => format!("{receiver}{part}"),
                _ => {
                    let cut = boundary(receiver, rng);
                    format!("{}{part}{}", &receiver[..cut], &receiver[cut..])
                }
            };
            Some(format!("{}{affixed}{}", &text[..at], &text[at + receiver.len()..]))
        }
    }
}

/// `text` with operand `from`, found in it, made `to`.
fn equal(text: &str, from: &Operand, to: &Operand, rng: &mut (impl Rng + ?Sized)) -> Option<String> {
    match (from, to) {
        (Operand::End, Operand::Code(code)) => Some(format!("{text}{}", char::from_u32(*code)?)),
        (Operand::Code(code), Operand::Code(other)) => {
            let (from, to) = (char::from_u32(*code)?, char::from_u32(*other)?);
            let places: Vec<usize> = text.char_indices().filter(|(_, c)| *c == from).map(|(i, _)| i).collect();
            if places.is_empty() {
                return None;
            }
            let at = places[rng.random_range(0..places.len())];
            let rest = if rng.random_bool(INSERT) { at } else { at + from.len_utf8() };
            Some(format!("{}{to}{}", &text[..at], &text[rest..]))
        }
        (Operand::Text(from), Operand::Text(to)) if from.is_empty() => Some(format!("{text}{to}")),
        (Operand::Text(from), Operand::Text(to)) => {
            let at = occurrence(text, from, rng)?;
            Some(format!("{}{to}{}", &text[..at], &text[at + from.len()..]))
        }
        _ => None,
    }
}

/// The start of one of the places where `part` (not empty) occurs in `text`, if it does.
fn occurrence(text: &str, part: &str, rng: &mut (impl Rng + ?Sized)) -> Option<usize> {
    if part.is_empty() {
        return None;
    }
    let starts: Vec<usize> = text.match_indices(part).map(|(i, _)| i).collect();
    (!starts.is_empty()).then(|| starts[rng.random_range(0..starts.len())])
}

/// A character boundary of `text`, drawn at random.
fn boundary(text: &str, rng: &mut (impl Rng + ?Sized)) -> usize {
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
    bounds[rng.random_range(0..bounds.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn equal_codes(left: Operand, right: char) -> Comparison {
        Comparison { branch: Some(4), left, right: Operand::Code(right as u32), relation: Relation::Equal }
    }

    fn all_written(text: &str, comparison: &Comparison) -> Vec<String> {
        let mut rng = StdRng::seed_from_u64(1);
        let mut out: Vec<String> = (0..200).filter_map(|_| written(text, comparison, &mut rng)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn a_compared_character_becomes_the_constant_where_it_sits() {
        let bracket = equal_codes(Operand::Code('x' as u32), '[');
        assert_eq!(all_written("axb", &bracket), ["a[b", "a[xb"]);
        assert_eq!(all_written("ab", &bracket), Vec::<String>::new(), "no `x` and no `[` to write over");
        assert_eq!(all_written("ab", &equal_codes(Operand::End, ']')), ["ab]"], "read past the end");
    }

    #[test]
    fn a_compared_substring_becomes_the_constant_and_affixes_go_where_the_receiver_is() {
        let text = |s: &str| Operand::Text(s.into());
        let quotes = Comparison { branch: None, left: text("ab"), right: text("''"), relation: Relation::Equal };
        assert_eq!(all_written("xaby", &quotes), ["x''y"]);
        let end = Comparison { branch: None, left: text(""), right: text("''"), relation: Relation::Equal };
        assert_eq!(all_written("x", &end), ["x''"]);
        let prefix = Comparison { branch: None, left: text("by"), right: text("0x"), relation: Relation::Prefix };
        assert_eq!(all_written("aby", &prefix), ["a0xby"]);
        let suffix = Comparison { branch: None, left: text("by"), right: text("!"), relation: Relation::Suffix };
        assert_eq!(all_written("aby", &suffix), ["aby!"]);
        let class = Comparison { branch: None, left: text(""), right: text("^[7]"), relation: Relation::Matches };
        assert_eq!(all_written("x", &class), ["x7"], "tested past the end");
    }

    #[test]
    fn the_aimed_conditions_comparisons_come_first() {
        let aimed = equal_codes(Operand::Code('x' as u32), '[');
        let other = Comparison { branch: Some(8), ..equal_codes(Operand::Code('x' as u32), '{') };
        let mut rng = StdRng::seed_from_u64(2);
        let test = |s: &str| TestCase {
            class: 0,
            method: "m".into(),
            variables: Vec::new(),
            statements: vec![crate::model::test::Statement::call(0, "m", vec![Value::String(s.into())], true)],
        };
        let mut brackets = 0;
        for _ in 0..100 {
            let mut case = test("x");
            assert!(rewrite(&mut case, &[aimed.clone(), other.clone()], 5, |_| true, &mut rng));
            // Replaced, or inserted before the `x`.
            let Value::String(text) = &case.statements[0].args()[0] else { panic!("a string") };
            brackets += usize::from(text.starts_with('['));
        }
        // Three in four: half of the draws among the aimed comparison alone, half among both.
        assert!(brackets > 60, "{brackets} of 100 aimed at outcome 5 (the false one of 4)");
    }
}
