//! Making mutants: the functions under test, the edits inside them, and a runner holding each mutated
//! program.

use super::{Mutant, Status, SuiteTest};
use crate::analysis::parse::parse_source;
use crate::error::{Error, Result};
use crate::model::program::ClassId;
use crate::sandbox::CodeBase;
use crate::session::{MethodState, Runner, Subject};

/// The ranges of `methods` (the methods under test, and their constructors) in `subject`'s code, and
/// the mutants made inside them.
pub(super) fn create_mutants(
    subject: &Subject,
    methods: &[MethodState],
    tests: &[SuiteTest],
    constructors: bool,
) -> Vec<Mutant> {
    let (program, code) = (subject.program(), subject.code());
    // (file, start, end, class, method) of every function under test.
    let mut targets: Vec<(usize, u32, u32, ClassId, String)> = Vec::new();
    let mut add = |class: ClassId, method: &str, function: Option<&crate::model::program::FunctionRef>| {
        let Some(function) = function.filter(|f| !f.statements.is_empty()) else { return };
        if let Some((file, f)) = code.function_of_statement(function.statements.start)
            && !targets.iter().any(|t| t.0 == file && t.1 == f.start && t.2 == f.end)
        {
            targets.push((file, f.start, f.end, class, method.to_string()));
        }
    };
    for m in methods {
        add(m.class, &m.method, m.function.as_ref());
    }
    // A class's private methods are tested through its public ones (`session/setup.rs`): when all of
    // those are under test, the private ones' mutants are judged by the tests that reach them.
    for (id, class) in program.classes.iter().enumerate() {
        let tested = |name: &str| methods.iter().any(|m| m.class == id && m.method == name);
        let public: Vec<&str> = class.own_methods().filter(|m| !class.is_private(&m.name)).map(|m| &*m.name).collect();
        if public.is_empty() || !public.iter().all(|name| tested(name)) {
            continue;
        }
        for m in class.own_methods().filter(|m| class.is_private(&m.name) && m.alias_of.is_none()) {
            add(id, &m.name, m.function.as_ref());
        }
    }
    if constructors {
        for (id, class) in program.classes.iter().enumerate() {
            let tested = methods.iter().any(|m| m.class == id);
            let used = tests.iter().any(|t| t.test.classes_used().contains(&id));
            if tested || (class.under_test && used) {
                add(id, "constructor", class.constructor.function.as_ref());
            }
        }
    }
    let mut mutants = Vec::new();
    for (index, file) in code.files.iter().enumerate() {
        let ranges: Vec<(u32, u32)> = targets.iter().filter(|t| t.0 == index).map(|t| (t.1, t.2)).collect();
        if ranges.is_empty() {
            continue;
        }
        let parsed = &file.entry.parsed;
        for edit in super::operators::edits(parsed, &ranges) {
            // The innermost function under test holding the edit owns it (methods defined inside a
            // constructor are theirs, not the constructor's).
            let Some(owner) = targets
                .iter()
                .filter(|t| t.0 == index && t.1 <= edit.start && edit.end <= t.2)
                .min_by_key(|t| t.2 - t.1)
            else {
                continue;
            };
            let statement = file
                .instrumented
                .statements
                .iter()
                .enumerate()
                .filter(|(_, s)| s.start <= edit.start && edit.end <= s.end)
                .min_by_key(|(_, s)| s.end - s.start)
                .map(|(i, _)| file.statements.start + i as u32);
            let (line, column) = parsed.line_col(swc_common::BytePos(parsed.source.start_pos.0 + edit.start));
            let (original, mutated) = edit.snippets(parsed.text());
            mutants.push(Mutant {
                class: owner.3,
                method: owner.4.clone(),
                file: index,
                edit,
                line,
                column,
                original,
                mutated,
                statement,
                status: Status::Uncovered,
            });
        }
    }
    mutants
}

/// A mutant's runner, or why there is none.
pub(super) enum Built {
    /// Boxed: a runner is many times the size of the other variants.
    Runner(Box<Runner>),
    /// The edit does not parse.
    Invalid,
    /// The mutated code fails to load: every test fails.
    Fails(String),
}

/// A runner of `code` (the original's) with `mutant`'s edit made, beside the `original` runner.
pub(super) fn mutant_runner(
    code: &CodeBase,
    original: &Runner,
    mutant: &Mutant,
    expressions: &[String],
) -> Result<Built> {
    // The mutant is the program the session analysed with one file edited: that file alone is parsed
    // and instrumented again, and only it is compiled (the others' bytecode is `original`'s). Reading
    // and parsing every file again was two thirds of judging a mutant of a package of many files.
    let parsed = &code.files[mutant.file].entry.parsed;
    let text = mutant.edit.apply(parsed.text());
    let parsed = match parse_source(&parsed.path, &parsed.display, text) {
        Ok(mutated) if mutated.kind == parsed.kind => mutated,
        _ => return Ok(Built::Invalid),
    };
    let code = code.with_file(mutant.file, parsed);
    // A mutant that loops while loading is told by its work, as a test on a mutant is.
    let load_work = super::load_work_limit(original.loaded_work());
    let mut runner = match original.beside_loading_within(&code, Some(load_work)) {
        Ok(runner) => runner,
        Err(Error::Load { message, .. }) => return Ok(Built::Fails(format!("the code fails to load: {message}"))),
        Err(e) => return Err(e),
    };
    if let Err(e) = runner.bind_classes(expressions) {
        return Ok(Built::Fails(format!("a class is no longer found: {e}")));
    }
    // Tests run on a mutant alone (`run_on_mutant`), and the equivalence check in a context of its own.
    runner.keep_loaded_for_tests_alone();
    Ok(Built::Runner(Box::new(runner)))
}
