//! Abstract bases: classes whose instances cannot exist on their own, tested through a concrete subclass.
//!
//! A base is abstract when its constructor refuses direct use (it reads `new.target`, or throws an error
//! that says "abstract"), or when its own methods use members of `this` that it lacks and a subclass
//! defines (`this.get(i, j)` in a matrix base whose subclasses store the data). Its methods would only
//! throw on an instance of its own, so they run on an instance of a concrete subclass the program offers
//! instead ([`ClassInfo::concrete`]): subclasses that are no abstract bases themselves and define every
//! member the base lacks. Half of the instances are of the preferred one: the one the base's own code names
//! most (a matrix base builds its results as `new Matrix(...)`), then the nearest, then the one with the
//! most methods of its own; the rest are of any of them, since one subclass may reach states another
//! cannot (a symmetric matrix is square).

use std::collections::BTreeSet;

use crate::model::program::{ClassId, ClassInfo, FunctionRef, Origin, ProgramInfo};
use crate::sandbox::CodeBase;

/// Sets [`ClassInfo::concrete`] of every abstract base of `program`: its concrete subclasses, the preferred
/// first.
pub(super) fn choose_concrete_subclasses(code: &CodeBase, program: &mut ProgramInfo) {
    let missing: Vec<Option<BTreeSet<String>>> =
        (0..program.classes.len()).map(|c| abstract_because(code, program, c)).collect();
    for base in 0..program.classes.len() {
        let Some(needed) = &missing[base] else { continue };
        let texts = own_texts(code, &program.classes[base]);
        let mut concrete: Vec<ClassId> = (0..program.classes.len())
            .filter(|s| *s != base && missing[*s].is_none() && program.is_subclass(*s, base))
            .filter(|s| needed.iter().all(|m| program.classes[*s].has_member(m)))
            .filter(|s| !program.classes[*s].is_module() && program.classes[*s].factory.is_none())
            .collect();
        concrete.sort_by_key(|s| {
            let class = &program.classes[*s];
            let named = texts.iter().map(|text| mentions(text, &class.alias)).sum::<usize>();
            (usize::MAX - named, depth_below(program, *s, base), usize::MAX - class.own_methods().count(), *s)
        });
        program.classes[base].concrete = concrete;
    }
}

/// Why `class` is an abstract base: `Some` with the members of `this` its methods use that it lacks (empty
/// when its constructor refuses direct use), `None` when it is no abstract base.
fn abstract_because(code: &CodeBase, program: &ProgramInfo, class: ClassId) -> Option<BTreeSet<String>> {
    let info = &program.classes[class];
    if info.is_module() || info.factory.is_some() {
        return None;
    }
    let refuses = info.constructor.function.as_ref().and_then(|f| text_of(code, f)).is_some_and(refuses_direct_use);
    let mut lacking = BTreeSet::new();
    for method in info.methods.iter().filter(|m| m.origin == Origin::Prototype) {
        let Some(text) = method.function.as_ref().and_then(|f| text_of(code, f)) else { continue };
        lacking.extend(members_of_this(text).into_iter().filter(|m| !info.has_member(m)));
    }
    // Only what a subclass defines: a member no class has is a bug or an optional hook, not a contract.
    let subclasses: Vec<&ClassInfo> = (0..program.classes.len())
        .filter(|s| *s != class && program.is_subclass(*s, class))
        .map(|s| &program.classes[s])
        .collect();
    lacking.retain(|m| subclasses.iter().any(|s| s.has_member(m)));
    (refuses || !lacking.is_empty()).then_some(lacking)
}

/// Whether a constructor's text refuses direct use: it compares `new.target`, or throws about being
/// abstract.
fn refuses_direct_use(text: &str) -> bool {
    text.contains("new.target") || (text.contains("throw") && text.to_ascii_lowercase().contains("abstract"))
}

/// The names read or called on `this` in `text` (`this.get(`, `this.rows`).
fn members_of_this(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("this.").map(|i| from + i) {
        from = at + 5;
        let word_before =
            at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'_' | b'$' | b'.'));
        let name: String =
            text[from..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$').collect();
        if !word_before && !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
            found.insert(name);
        }
    }
    found
}

/// The texts of a class's constructor and of its own methods.
fn own_texts<'a>(code: &'a CodeBase, class: &ClassInfo) -> Vec<&'a str> {
    std::iter::once(&class.constructor)
        .chain(class.methods.iter().filter(|m| m.origin == Origin::Prototype))
        .filter_map(|m| m.function.as_ref().and_then(|f| text_of(code, f)))
        .collect()
}

/// How many times `text` names `word` as a whole word.
fn mentions(text: &str, word: &str) -> usize {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word)
        .filter(|(at, _)| {
            !text[..*at].chars().next_back().is_some_and(is_word)
                && !text[at + word.len()..].chars().next().is_some_and(is_word)
        })
        .count()
}

/// The original text of a located function.
fn text_of<'a>(code: &'a CodeBase, function: &FunctionRef) -> Option<&'a str> {
    let (file, located) = code.function_of_statement(function.statements.start)?;
    let source = &code.files[file].entry.parsed.source.src;
    source.get(located.start as usize..located.end as usize)
}

/// How many classes down from `base` `sub` is (1 for a direct subclass).
fn depth_below(program: &ProgramInfo, sub: ClassId, base: ClassId) -> usize {
    let mut depth = 0;
    let mut current = Some(sub);
    while let Some(c) = current.filter(|c| *c != base) {
        depth += 1;
        current = program.classes[c].superclass;
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_of_this_are_read_from_the_text() {
        let names = members_of_this("add(v) { return this.get(0) + that.this.x + this.rows + this._n$; }");
        assert_eq!(names.into_iter().collect::<Vec<_>>(), ["_n$", "get", "rows"]);
    }

    #[test]
    fn a_subclass_is_named_as_a_whole_word() {
        assert_eq!(mentions("return new Matrix(1) || SymmetricMatrix.zeros(Matrix$2) + Matrix", "Matrix"), 2);
    }

    #[test]
    fn a_constructor_refuses_direct_use_by_new_target_or_an_abstract_error() {
        assert!(refuses_direct_use("constructor() { if (new.target === Shape) throw new TypeError('no'); }"));
        assert!(refuses_direct_use("function Coder() { throw new Error('Coder is abstract'); }"));
        assert!(!refuses_direct_use("constructor(n) { if (n < 0) throw new RangeError('negative'); }"));
    }
}
