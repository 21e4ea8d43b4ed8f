//! The program as an engine loads it: each file's instrumented code, module kind and resolved
//! dependencies, plain data that outlives no runtime; and where a CommonJS file's wrapper shifts columns.

use std::sync::{Arc, LazyLock};

use super::script::ScriptCache;
use crate::instrument::{Implied, SourceTexts};
use crate::js::{
    BRANCHES, COMPARE, DISTANCE_JOIN, DISTANCE_NOT, DISTANCE_TEST, DISTANCE_VALUE, JOURNAL_BINDING, JOURNAL_COLLECTION,
    JOURNAL_MEMBER, JOURNAL_PRIVATE, MEASURING, NULLISH, PATTERN_ARGUMENT, PATTERN_RECEIVER, RIGHT_OPERAND,
    SHARED_WRITE, SPREAD, STATEMENTS, STRING_PREDICATE, TRUTHY,
};
use crate::model::program::ModuleKind;
use crate::sandbox::code::{CodeBase, CodeFile};

/// The globals instrumented code reads, which a CommonJS file reaches as parameters of a function around
/// its factory ([`COMMONJS_HEADER`]): a closure variable is one indexed read where a global is two lookups
/// by name, paid by every probe, measured condition and journalled write of a hot loop. Each keeps the
/// value it has when the file loads: every one is a constant (probe arrays, the switch between measuring
/// and plain conditions, helpers), never replaced; what changes between runs is an element of one
/// ([`MEASURING`]'s), never the global itself (as [`crate::js::MUTANT`] and the journal's key are, which
/// stay globals).
pub(super) const ALIASED: [&str; 20] = [
    STATEMENTS,
    BRANCHES,
    TRUTHY,
    NULLISH,
    SHARED_WRITE,
    MEASURING,
    COMPARE,
    RIGHT_OPERAND,
    DISTANCE_TEST,
    DISTANCE_JOIN,
    DISTANCE_NOT,
    DISTANCE_VALUE,
    STRING_PREDICATE,
    SPREAD,
    PATTERN_RECEIVER,
    PATTERN_ARGUMENT,
    JOURNAL_BINDING,
    JOURNAL_MEMBER,
    JOURNAL_COLLECTION,
    JOURNAL_PRIVATE,
];

/// CommonJS files are wrapped in a function whose header starts their first line, so line numbers
/// stay those of the instrumented code and only columns on line 1 are shifted. The factory Node would
/// call is the inner function, returned by the outer one, which takes the [`ALIASED`] globals: the
/// factory's own parameters stay Node's five (`arguments` at a module's top level is Node's), and its
/// body starts with the file's own text, whose directive prologue (`'use strict'`) stays first.
pub(super) static COMMONJS_HEADER: LazyLock<String> = LazyLock::new(|| {
    format!(
        "(function ({}) {{ return function (exports, require, module, __filename, __dirname) {{",
        ALIASED.join(", ")
    )
});

/// What closes [`COMMONJS_HEADER`] after the file's last line.
pub(super) const COMMONJS_FOOTER: &str = "\n}; })";

/// The code of one file as the engine needs it (plain data: the engine outlives no Rc).
pub(crate) struct SourceCode {
    pub(super) engine_name: String,
    pub(super) dirname: String,
    pub(super) kind: ModuleKind,
    pub(super) given: bool,
    /// One of Node's built-in modules as the sandbox offers them: not the code under test.
    pub(super) builtin: bool,
    /// Whether its default imports of a CommonJS module marked `__esModule` get that module's `default`
    /// (see [`ParsedFile::commonjs_interop`](crate::analysis::parse::ParsedFile::commonjs_interop) and
    /// [`modules::INTEROP_VIEW`](super::modules::INTEROP_VIEW)).
    pub(super) interop: bool,
    pub(super) code: String,
    pub(super) deps: Vec<(String, usize)>,
    /// CommonJS specifiers that resolve to nothing, and why (see [`crate::analysis::files::SourceEntry`]).
    pub(super) missing: Vec<(String, String)>,
    /// The names ES modules of the program import from this file by name.
    pub(super) imported_names: Vec<String>,
    /// The user's text of its functions and classes (see [`Sources::source_text`]).
    texts: Arc<SourceTexts>,
}

/// Everything an engine needs to load the program.
pub(crate) struct Sources {
    pub(super) files: Vec<SourceCode>,
    /// Bytecode of the program's files, which every engine evaluates.
    pub(super) scripts: Arc<ScriptCache>,
    pub(super) statement_count: u32,
    pub(super) branch_count: u32,
    /// The probes the instrumented code leaves out, which reading the probes puts back.
    pub(super) implied: Arc<Implied>,
    /// Whether the code measures branch distances, which runs then reset and read.
    pub(super) distances: bool,
    /// Whether the code has `**`: every test's numbers may then differ in their last bits under Node.
    pub(super) power: bool,
    /// Record mode: the file whose imports of ES modules get the recording view of them instead (see
    /// [`RECORDING_VIEW`](super::modules::RECORDING_VIEW)).
    pub(crate) recorded_importer: Option<usize>,
    /// Record mode with echo: the program's `console` prints to standard output (see
    /// [`Engine::install_console`](super::Engine::install_console)); otherwise it is silent.
    pub(crate) print_console: bool,
}

impl Sources {
    pub(crate) fn new(code: &CodeBase) -> Sources {
        Sources::with_text(code, |f| f.instrumented.code.clone())
    }

    /// The program without instrumentation, as its files were written (the bare side of the benchmark).
    pub(crate) fn plain(code: &CodeBase) -> Sources {
        Sources::with_text(code, |f| f.entry.parsed.plain_code())
    }

    fn with_text(code: &CodeBase, text: impl Fn(&CodeFile) -> String) -> Sources {
        let mut files = code
            .files
            .iter()
            .map(|f| SourceCode {
                engine_name: f.engine_name.clone(),
                dirname: f.entry.parsed.path.parent().map(|p| p.display().to_string()).unwrap_or_default(),
                kind: f.entry.parsed.kind,
                given: f.entry.given,
                builtin: f.entry.builtin,
                interop: f.entry.parsed.commonjs_interop,
                code: text(f),
                deps: f.entry.deps.iter().map(|(spec, target)| (spec.clone(), *target)).collect(),
                missing: f.entry.missing.iter().map(|(spec, why)| (spec.clone(), why.clone())).collect(),
                imported_names: Vec::new(),
                texts: f.instrumented.texts.clone(),
            })
            .collect::<Vec<_>>();
        for entry in code.files.iter().map(|f| &f.entry) {
            for (specifier, names) in &entry.imported_names {
                if let Some(target) = entry.deps.get(specifier) {
                    files[*target].imported_names.extend(names.iter().cloned());
                }
            }
        }
        Sources {
            files,
            scripts: Arc::default(),
            statement_count: code.statement_count,
            branch_count: code.branch_count,
            implied: code.implied.clone(),
            distances: code.distances,
            power: code.power,
            recorded_importer: None,
            print_console: false,
        }
    }

    /// These sources reading the bytecode of the files they share with `original` from its cache: a
    /// mutant's files are the original program's but one.
    pub(crate) fn beside(mut self, original: &Sources) -> Sources {
        self.scripts = Arc::new(ScriptCache::over(original.scripts.clone()));
        self
    }

    /// Whether `other` is the same program loaded the same way: an engine built from either is one
    /// built from the other (the bytecode caches, the omitted probes and the user's texts follow from the
    /// code). Destructured whole, so that a field added later is compared here or said to follow.
    pub(crate) fn same_program(&self, other: &Sources) -> bool {
        let same_file = |a: &SourceCode, b: &SourceCode| {
            let SourceCode {
                engine_name,
                dirname,
                kind,
                given,
                builtin,
                interop,
                code,
                deps,
                missing,
                imported_names,
                texts: _,
            } = a;
            (engine_name, dirname, kind, given, builtin, interop)
                == (&b.engine_name, &b.dirname, &b.kind, &b.given, &b.builtin, &b.interop)
                && (deps, missing, imported_names, code) == (&b.deps, &b.missing, &b.imported_names, &b.code)
        };
        let Sources {
            files,
            scripts: _,
            statement_count,
            branch_count,
            implied: _,
            distances,
            power,
            recorded_importer,
            print_console,
        } = self;
        (statement_count, branch_count, distances, power, recorded_importer, print_console)
            == (
                &other.statement_count,
                &other.branch_count,
                &other.distances,
                &other.power,
                &other.recorded_importer,
                &other.print_console,
            )
            && files.len() == other.files.len()
            && files.iter().zip(&other.files).all(|(a, b)| same_file(a, b))
    }

    /// What `Function.prototype.toString` answers for a function of file `name` that QuickJS prints as
    /// `text`: the user's own text when the file is theirs (as written, or `text` when its probes name
    /// nothing the file wrote), and nothing for Flycatcher's files, whose functions print as native ones.
    pub(super) fn source_text(&self, name: &str, text: &str) -> Option<String> {
        let file = self.files.iter().find(|f| f.engine_name == name && !f.builtin)?;
        Some(file.texts.original_of(text).unwrap_or(text).to_string())
    }

    /// Whether stack frames in file `name` are the code under test's: errors built in a built-in module
    /// are the engine's side, whose messages Node words its own way.
    pub(super) fn is_user_file(&self, name: &str) -> bool {
        self.files.iter().any(|f| f.engine_name == name && !f.builtin)
    }
}

/// Converts a position in a stack frame to a position in the file's instrumented code.
pub fn instrumented_position(kind: ModuleKind, line: u32, column: u32) -> Option<(u32, u32)> {
    if kind == ModuleKind::CommonJs && line == 1 {
        return Some((line, column.checked_sub(COMMONJS_HEADER.len() as u32)?));
    }
    Some((line, column))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::ALIASED;
    use crate::analysis::parse::parse_source;
    use crate::instrument::instrument;
    use crate::js::{JOURNAL_KEY, JOURNAL_NEW_VALUE, JOURNAL_OBJECT, PREFIX};

    /// Every kind of code the instrumenter rewrites: probes, measured and plain conditions, `&&` and
    /// `??`, patterns, a spread string, and writes to state shared between tests.
    const CODE: &str = "let count = 0;\nconst shared = [];\nclass A {\n  static n = 0;\n  static #m = 0;\n  \
        f(a, b, s) {\n    for (let i = 0; i < b; i++) count++;\n    if ((a < b && s.startsWith('x')) || !a) A.n += 1;\n    \
        A.#m = a ?? 1;\n    shared.push({ ...s });\n    return /x/.test(s) ? s.split(/,/) : a;\n  }\n}\nmodule.exports = A;\n";

    #[test]
    fn a_commonjs_file_reaches_every_name_instrumented_code_reads_that_never_changes_as_a_closure_variable() {
        let file = parse_source(Path::new("/nonexistent/code.cjs"), "code.cjs", CODE.to_string()).unwrap();
        let code = instrument(&file, 0, 0, true).code;
        let mut names: Vec<&str> = code
            .match_indices(PREFIX)
            .map(|(at, _)| {
                let rest = &code[at + PREFIX.len()..];
                let end =
                    rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).unwrap_or(rest.len());
                &code[at..at + PREFIX.len() + end]
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        // The journal's key changes with every computed member written; the others are parameters of the
        // accessors the instrumenter writes.
        let not_constant = [JOURNAL_KEY, JOURNAL_NEW_VALUE, JOURNAL_OBJECT];
        let global: Vec<&str> =
            names.iter().copied().filter(|n| !ALIASED.contains(n) && !not_constant.contains(n)).collect();
        assert!(names.len() >= 12, "the code exercises too little of the instrumenter: {names:?}");
        assert_eq!(global, Vec::<&str>::new(), "read as globals in:\n{code}");
    }
}
