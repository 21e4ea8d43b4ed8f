//! Test titles that say what a test exercises: what the call of the method under test did, then the
//! decisions of the method that set the test apart from the method's other tests (each told by the
//! condition's own source text, and each once).
//!
//! `returns 1 when this.head === null`, `throws RangeError "index out of range" when index >= this.length`.
//! The method itself names the group the test is in, so it is not repeated here.

use std::collections::HashMap;

use super::ElectedTest;
use super::assertion::literal_of;
use crate::instrument::{Branch, BranchKind, shorten};
use crate::model::observed::{Observed, Outcome, Thrown};
use crate::model::program::{CONSTRUCTOR, ProgramInfo};
use crate::sandbox::CodeBase;

/// Most decisions named in one title.
const MAX_DECISIONS: usize = 2;

/// Longest condition or value quoted in a title, in characters.
const MAX_QUOTE: usize = 40;

/// The titles of `elected`, in order: each test's peers are the tests of the same class and method.
pub(crate) fn titles(program: &ProgramInfo, code: &CodeBase, elected: &[&ElectedTest]) -> Vec<String> {
    elected
        .iter()
        .map(|e| {
            let peers: Vec<&ElectedTest> = elected
                .iter()
                .copied()
                .filter(|o| o.test.class == e.test.class && o.test.method == e.test.method)
                .collect();
            test_title(program, code, e, &peers)
        })
        .collect()
}

/// The title of `elected`, whose method's elected tests (itself included) are `peers`.
pub(crate) fn test_title(
    program: &ProgramInfo,
    code: &CodeBase,
    elected: &ElectedTest,
    peers: &[&ElectedTest],
) -> String {
    let branches = method_branches(program, code, elected);
    let conditions =
        said_once(distinguishing(branches, elected, peers).into_iter().map(|b| decision(&branches[b as usize])));
    phrase(result(program, elected), &conditions).unwrap_or_else(|| {
        let lines = super::compress_lines(&elected.new_lines);
        if lines.is_empty() { "runs".to_string() } else { format!("covers line {lines}") }
    })
}

/// The conditions, each once: two decisions with one condition (a guard repeated further down, a
/// ternary after an `if` on the same test) say it once.
fn said_once(conditions: impl Iterator<Item = String>) -> Vec<String> {
    let mut said: Vec<String> = Vec::new();
    for condition in conditions {
        if !said.contains(&condition) {
            said.push(condition);
        }
    }
    said
}

/// The behaviour first, then the path: `returns [] when size === 0 and i < n`; `when size === 0` alone
/// for a call that returned nothing; none when there is neither.
fn phrase(behaviour: Option<String>, conditions: &[String]) -> Option<String> {
    let path = (!conditions.is_empty()).then(|| format!("when {}", conditions.join(" and ")));
    match (behaviour, path) {
        (Some(behaviour), Some(path)) => Some(format!("{behaviour} {path}")),
        (behaviour, path) => behaviour.or(path),
    }
}

/// The branch outcomes of the method under test of `elected`, by offset in its branch range.
fn method_branches<'a>(program: &ProgramInfo, code: &'a CodeBase, elected: &ElectedTest) -> &'a [Branch] {
    let class = &program.classes[elected.test.class];
    // A constructor under test is no method of its class (see `CONSTRUCTOR`).
    let method = match elected.test.method.as_str() {
        CONSTRUCTOR => Some(&class.constructor),
        name => class.methods.iter().find(|m| m.name == name),
    };
    let function = method.and_then(|m| m.function.as_ref());
    let Some(function) = function else { return &[] };
    let Some(file) = code.files.get(function.file) else { return &[] };
    let range = (function.branches.start - file.branches.start) as usize
        ..(function.branches.end - file.branches.start) as usize;
    file.instrumented.branches.get(range).unwrap_or_default()
}

/// Up to [`MAX_DECISIONS`] branch outcomes that `elected` takes, in source order: only decisions it went
/// one way (a loop that ran and ended went both ways, which says nothing), the ones fewest other tests of
/// the method take first.
fn distinguishing(branches: &[Branch], elected: &ElectedTest, peers: &[&ElectedTest]) -> Vec<u32> {
    // Counted once per test, not per outcome: a method of thousands of branch outcomes, each looked up
    // in the test's and every peer's list, took minutes.
    let own: Vec<u32> = elected.branches.iter().copied().filter(|&b| (b as usize) < branches.len()).collect();
    let decision = |b: u32| {
        let branch = &branches[b as usize];
        (branch.kind != BranchKind::Switch).then_some((branch.kind, branch.start))
    };
    let mut outcomes_taken: HashMap<(BranchKind, u32), usize> = HashMap::new();
    for key in own.iter().filter_map(|&b| decision(b)) {
        *outcomes_taken.entry(key).or_default() += 1;
    }
    let mut taken_by_others: HashMap<u32, usize> = HashMap::new();
    for peer in peers.iter().filter(|p| !std::ptr::eq(**p, elected)) {
        for &b in &peer.branches {
            *taken_by_others.entry(b).or_default() += 1;
        }
    }
    let mut candidates: Vec<(usize, bool, u32)> = own
        .into_iter()
        // The other outcome of the same decision was taken too.
        .filter(|&b| decision(b).is_none_or(|key| outcomes_taken[&key] < 2))
        .map(|b| {
            let others = taken_by_others.get(&b).copied().unwrap_or(0);
            // A compound condition reads worse than its operands, which are decisions of their own.
            let long = branches[b as usize].condition.chars().count() > MAX_QUOTE / 2;
            (others, long, b)
        })
        .collect();
    candidates.sort_unstable();
    let mut chosen: Vec<u32> = Vec::new();
    for (_, _, b) in candidates {
        // A condition and an operand of it (`a || b` and `a`) would say one thing twice.
        let said = |c: &u32| overlap(&branches[*c as usize].condition, &branches[b as usize].condition);
        if chosen.len() < MAX_DECISIONS && !chosen.iter().any(said) {
            chosen.push(b);
        }
    }
    chosen.sort_unstable_by_key(|&b| (branches[b as usize].start, b));
    chosen
}

/// Whether one condition is the other or holds it as an operand, negated or not: `node.next` and
/// `node.next || node.prev`, `!x` and `x`.
fn overlap(a: &str, b: &str) -> bool {
    let (a, b) = (core(a), core(b));
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.');
    !short.is_empty()
        && long
            .match_indices(short)
            .any(|(at, _)| !word(long[..at].chars().next_back()) && !word(long[at + short.len()..].chars().next()))
}

/// A condition without the negations and parentheses around it.
fn core(condition: &str) -> &str {
    let mut text = condition.trim();
    loop {
        let inner = text.strip_prefix('!').map(str::trim_start).unwrap_or(text);
        let inner = match inner.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            Some(t) if balanced(t) => t.trim(),
            _ => inner,
        };
        if inner == text {
            return text;
        }
        text = inner;
    }
}

/// Whether the parentheses of `text` close in order.
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// One branch outcome as words: `i < n`, `i >= n`, `options is nullish`.
fn decision(branch: &Branch) -> String {
    let condition = shorten(&branch.condition, MAX_QUOTE);
    match (branch.kind, branch.outcome.as_str()) {
        (BranchKind::Nullish, outcome) => format!("{condition} is {outcome}"),
        (BranchKind::Switch, "default") => format!("{condition} takes the default"),
        (BranchKind::Switch, "no case") => format!("{condition} matches no case"),
        (BranchKind::Switch, case) => format!("{condition} is {}", case.trim_start_matches("case ")),
        (_, "then" | "true") => condition,
        _ => negated(&condition),
    }
}

/// The negation of a condition, written the way people would: `a >= b` for `!(a < b)`, `x` for `!x`.
fn negated(condition: &str) -> String {
    let trimmed = condition.trim();
    if let Some(inner) = trimmed.strip_prefix('!')
        && !inner.starts_with('=')
        && is_simple_operand(inner)
    {
        return inner.to_string();
    }
    // Only a single comparison between simple operands is rewritten; anything else is wrapped.
    const SWAPS: [(&str, &str); 8] = [
        (" === ", " !== "),
        (" !== ", " === "),
        (" == ", " != "),
        (" != ", " == "),
        (" <= ", " > "),
        (" >= ", " < "),
        (" < ", " >= "),
        (" > ", " <= "),
    ];
    for (operator, opposite) in SWAPS {
        if let Some((left, right)) = trimmed.split_once(operator)
            && is_simple_operand(left)
            && is_simple_operand(right)
        {
            return format!("{left}{opposite}{right}");
        }
    }
    if is_simple_operand(trimmed) { format!("!{trimmed}") } else { format!("!({trimmed})") }
}

/// Identifiers, member chains, calls without nested operators and literals: no operator that would bind
/// differently once negated.
fn is_simple_operand(text: &str) -> bool {
    // A regular expression literal (`/^\d+$/.test(s)`) binds like an identifier.
    let text = match without_leading_regex(text) {
        Some("") => return true,
        Some(rest) => rest,
        None => text,
    };
    !text.is_empty()
        && text.chars().all(|c| c.is_alphanumeric() || "_$.()[]'\"-, ".contains(c))
        && !text.contains(" - ")
        && !text.trim_start_matches('-').contains(' ')
}

/// What follows a regular expression literal that `text` starts with, if it starts with one.
fn without_leading_regex(text: &str) -> Option<&str> {
    let end = crate::js::literal::regex_end(text)?;
    Some(text[end + 1..].trim_start_matches(|f: char| f.is_ascii_alphabetic()))
}

/// What the call of the method under test did: `throws RangeError "bad index"`, `returns 3`, `returns a
/// Node`; nothing when it returned `undefined`.
fn result(program: &ProgramInfo, elected: &ElectedTest) -> Option<String> {
    let last = elected.extended_at.unwrap_or(elected.test.statements.len()).checked_sub(1)?;
    if let Outcome::Threw { at, thrown } = &elected.outcome
        && *at == last
    {
        return Some(match thrown {
            Thrown::Error { name, message, .. } if elected.own_message && !message.is_empty() => {
                format!("throws {name} {}", crate::js::literal::string(&shorten(message, MAX_QUOTE)))
            }
            Thrown::Error { name, .. } => format!("throws {name}"),
            Thrown::Value(value) => format!("throws {}", value_words(program, elected, value)?),
        });
    }
    // The construction under test answers the instance it built, which the test's state assertions read.
    if elected.test.constructed_under_test(last).is_some() {
        return Some("builds an instance".to_string());
    }
    let value = &elected.results.iter().rev().find(|r| r.at == last)?.value;
    if *value == Observed::Undefined {
        return None;
    }
    Some(format!("returns {}", value_words(program, elected, value)?))
}

/// A described value in a few words: its literal when short, else what it is.
fn value_words(program: &ProgramInfo, elected: &ElectedTest, value: &Observed) -> Option<String> {
    if let Some(literal) = literal_of(value)
        && literal.chars().count() <= MAX_QUOTE
    {
        return Some(literal);
    }
    Some(match value {
        Observed::Variable { index } => elected.test.variables.get(*index)?.name.clone(),
        Observed::Instance { class, .. } => format!("a {}", program.classes.get(*class)?.name),
        Observed::Class { class } => program.classes.get(*class)?.name.clone(),
        Observed::Array { .. } | Observed::LongArray { .. } => "an array".to_string(),
        Observed::Iterator { asynchronous: true, .. } => "an async iterator".to_string(),
        Observed::Iterator { .. } => "an iterator".to_string(),
        Observed::Collection { class, .. } if class.starts_with(['A', 'E', 'I', 'O', 'U']) => format!("an {class}"),
        Observed::Collection { class, .. } => format!("a {class}"),
        Observed::Object { .. } => "an object".to_string(),
        Observed::Function => "a function".to_string(),
        Observed::Date { .. } => "a date".to_string(),
        Observed::Error { .. } => "an error".to_string(),
        Observed::String { .. } => "a long string".to_string(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn branch(kind: BranchKind, outcome: &str, condition: &str, start: u32) -> Branch {
        Branch {
            kind,
            outcome: outcome.into(),
            line: 1,
            start,
            condition: condition.into(),
            condition_end: start + condition.len() as u32,
            guards: None,
        }
    }

    #[test]
    fn decisions_read_as_conditions() {
        assert_eq!(decision(&branch(BranchKind::If, "then", "this.head === null", 0)), "this.head === null");
        assert_eq!(decision(&branch(BranchKind::If, "else", "this.head === null", 0)), "this.head !== null");
        assert_eq!(decision(&branch(BranchKind::For, "false", "i < n", 0)), "i >= n");
        assert_eq!(decision(&branch(BranchKind::If, "else", "!this.items.length", 0)), "this.items.length");
        assert_eq!(decision(&branch(BranchKind::If, "else", "!/^\\d{13}$/.test(s)", 0)), "/^\\d{13}$/.test(s)");
        assert_eq!(decision(&branch(BranchKind::If, "else", "!/a/ / b", 0)), "!(!/a/ / b)");
        assert_eq!(decision(&branch(BranchKind::If, "else", "a < b && b < c", 0)), "!(a < b && b < c)");
        assert_eq!(decision(&branch(BranchKind::If, "else", "x - 1 > 0", 0)), "!(x - 1 > 0)");
        assert_eq!(decision(&branch(BranchKind::Nullish, "nullish", "options", 0)), "options is nullish");
        assert_eq!(decision(&branch(BranchKind::Switch, "case 'a'", "kind", 0)), "kind is 'a'");
        assert_eq!(decision(&branch(BranchKind::Switch, "no case", "kind", 0)), "kind matches no case");
    }

    #[test]
    fn titles_say_the_behaviour_first_then_each_condition_once() {
        let conditions = |list: &[&str]| list.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        assert_eq!(
            phrase(Some("returns []".into()), &conditions(&["size === 0", "i >= n"])).unwrap(),
            "returns [] when size === 0 and i >= n"
        );
        assert_eq!(phrase(None, &conditions(&["size === 0"])).unwrap(), "when size === 0");
        assert_eq!(phrase(Some("throws TypeError".into()), &[]).unwrap(), "throws TypeError");
        assert_eq!(phrase(None, &[]), None);
        assert!(overlap("node.next || node.prev", "node.next") && overlap("!(a < b)", "a < b"));
        assert!(overlap("!(node.next || node.prev)", "!node.next") && !overlap("node.next", "node.nextSibling"));
        assert!(!overlap("this.size", "size") && !overlap("(a) + (b)", "a + b") && !overlap("i < n", "j < n"));
        let twice = ["highestKey === undefined", "highestKey === undefined"].map(String::from);
        assert_eq!(said_once(twice.into_iter()), conditions(&["highestKey === undefined"]));
    }
}
