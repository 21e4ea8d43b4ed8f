//! Bracketed classes, the `i` flag's case folding, and a class's HIR sampled readably.

use std::sync::OnceLock;

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir};

use super::LARGE_CLASS;
use super::syntax::{Fault, Parsed, Parser, choice};

/// One item of a bracketed class.
enum ClassItem {
    Char(char),
    Set(ClassUnicode),
}

impl Parser {
    /// A bracketed class after its `[` at `at`, case-folded and negated as written.
    pub(super) fn class(&mut self, at: usize) -> Parsed<ClassUnicode> {
        let negated = self.eat('^');
        let mut class = ClassUnicode::empty();
        let add = |class: &mut ClassUnicode, item: ClassItem| match item {
            ClassItem::Char(c) => class.push(ClassUnicodeRange::new(c, c)),
            ClassItem::Set(set) => class.union(&set),
        };
        loop {
            match self.peek() {
                None => return Err(Fault::at(at, "unclosed character class: this `[` has no matching `]`")),
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => {}
            }
            let first_at = self.pos;
            let first = self.class_item(at)?;
            let is_range = self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&c| c != ']');
            if !is_range {
                add(&mut class, first);
                continue;
            }
            self.pos += 1;
            match (first, self.class_item(at)?) {
                (ClassItem::Char(low), ClassItem::Char(high)) => {
                    if low > high {
                        return Err(Fault::at(
                            first_at,
                            format!("range out of order in character class: `{low}` comes after `{high}`"),
                        ));
                    }
                    class.push(ClassUnicodeRange::new(low, high));
                }
                // Annex B: a class escape cannot bound a range, so the `-` is literal.
                (first, second) => {
                    add(&mut class, first);
                    add(&mut class, ClassItem::Char('-'));
                    add(&mut class, second);
                }
            }
        }
        // JavaScript compares case-folded characters against the written set, so folding comes
        // before negation.
        if self.flags.ignore_case {
            self.fold_case(&mut class);
        }
        if negated {
            class.negate();
        }
        Ok(class)
    }

    /// One character or escape inside a class opened at `class_at`.
    fn class_item(&mut self, class_at: usize) -> Parsed<ClassItem> {
        let at = self.pos;
        let Some(c) = self.bump() else {
            return Err(Fault::at(class_at, "unclosed character class: this `[` has no matching `]`"));
        };
        let c = if c == '\\' {
            match self.peek() {
                Some('b') => {
                    self.pos += 1;
                    '\u{8}'
                }
                Some('-') => {
                    self.pos += 1;
                    '-'
                }
                Some(e @ ('d' | 'D' | 'w' | 'W' | 's' | 'S')) => {
                    self.pos += 1;
                    return Ok(ClassItem::Set(self.escape_class(e)));
                }
                Some(e @ ('p' | 'P')) if self.flags.unicode => {
                    self.pos += 1;
                    return Ok(ClassItem::Set(self.property(at, e == 'P')?));
                }
                _ => self.char_escape(at, true)?,
            }
        } else {
            c
        };
        if !self.flags.unicode && c > '\u{FFFF}' {
            return Err(Fault::at(
                at,
                "without the `u` flag a character above U+FFFF in a class stands for its two UTF-16 halves; add the `u` flag",
            ));
        }
        Ok(ClassItem::Char(c))
    }

    /// Adds every character JavaScript's `i` flag treats as equal to one in `class`.
    pub(super) fn fold_case(&self, class: &mut ClassUnicode) {
        // With `u`, JavaScript folds by Unicode simple case folding, which regex-syntax implements.
        if self.flags.unicode && class.try_case_fold_simple().is_ok() {
            return;
        }
        let groups = case_groups();
        let mut extra = Vec::new();
        for range in class.ranges() {
            let first = groups.members.partition_point(|&(c, _)| c < range.start());
            for &(_, group) in groups.members[first..].iter().take_while(|&&(c, _)| c <= range.end()) {
                extra.extend(groups.groups[group].iter().map(|&c| ClassUnicodeRange::new(c, c)));
            }
        }
        class.union(&ClassUnicode::new(extra));
    }

    /// Turns a finished class into HIR sampled readably.
    pub(super) fn class_hir(&self, mut class: ClassUnicode) -> Hir {
        if !self.flags.unicode {
            // Without `u` a class matches one UTF-16 unit, so a character above U+FFFF would not match.
            class.intersect(&ClassUnicode::new([ClassUnicodeRange::new('\0', '\u{FFFF}')]));
        }
        let size: usize = class.ranges().iter().map(|range| range.len()).sum();
        let mut printable = ClassUnicode::new([ClassUnicodeRange::new(' ', '~')]);
        printable.intersect(&class);
        // Sampling is uniform over code points, so `.`, `\D` or `[^,]` would almost never give ASCII;
        // half of the draws come from the printable ASCII part instead.
        if size > LARGE_CLASS && !printable.ranges().is_empty() {
            choice(vec![Hir::class(Class::Unicode(printable)), Hir::class(Class::Unicode(class))])
        } else {
            Hir::class(Class::Unicode(class))
        }
    }
}

/// Characters that JavaScript's `i` flag without `u` treats as equal, grouped.
struct CaseGroups {
    /// Every member of a group with its group's index, sorted by character.
    members: Vec<(char, usize)>,
    groups: Vec<Vec<char>>,
}

/// Groups by JavaScript's non-Unicode `Canonicalize` (ES2024 22.2.2.7.3): a UTF-16 unit is upper-cased,
/// unless that takes more than one unit or takes a non-ASCII unit to ASCII.
fn case_groups() -> &'static CaseGroups {
    static GROUPS: OnceLock<CaseGroups> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let canonicalize = |c: char| {
            let mut upper = c.to_uppercase();
            match (upper.next(), upper.next()) {
                (Some(u), None) if u <= '\u{FFFF}' && (c.is_ascii() || !u.is_ascii()) => u,
                _ => c,
            }
        };
        let mut pairs: Vec<(char, char)> = ('\0'..='\u{FFFF}')
            .filter_map(|c| {
                let canonical = canonicalize(c);
                (canonical != c).then_some((canonical, c))
            })
            .collect();
        pairs.sort_unstable();
        let mut groups: Vec<Vec<char>> = Vec::new();
        for chunk in pairs.chunk_by(|a, b| a.0 == b.0) {
            let canonical = chunk[0].0;
            let mut group: Vec<char> = chunk.iter().map(|&(_, c)| c).collect();
            if canonicalize(canonical) == canonical {
                group.push(canonical);
            }
            if group.len() > 1 {
                groups.push(group);
            }
        }
        let mut members: Vec<(char, usize)> =
            groups.iter().enumerate().flat_map(|(index, group)| group.iter().map(move |&c| (c, index))).collect();
        members.sort_unstable();
        CaseGroups { members, groups }
    })
}
