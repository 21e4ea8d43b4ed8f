//! Coverage probes for one parsed file, and the maps that read QuickJS stack positions back.
//!
//! [`instrument`] rewrites a copy of the file's syntax tree and prints it again:
//!
//! - every statement inside a function-like body is preceded by `__fc$s[ID] || (__fc$s[ID] = 1);` (see
//!   `marks.rs`; statement ids are global: the caller reserves a range per file), unless the probe
//!   before marks it too (see `implied.rs`: readers of the probes expand what ran with [`Implied`]);
//! - every decision point marks which way it went in `__fc$b`: `if` then/else, `c ? a : b`, the left
//!   operand of `&&`, `||` and `??`, loop conditions, and `switch` clauses;
//! - conditions holding comparisons also keep, per outcome, the smallest branch distance to it in
//!   `__fc$d` (see `distance.rs`);
//! - every write to state shared between tests sets `__fc$sw[0]` (see `writes.rs`);
//! - what QuickJS compiles otherwise than V8 (a string spread into an object) is rewritten to do as the
//!   specification says (see `parity.rs`).
//!
//! Both arrays are `Uint8Array`s the caller installs on `globalThis`; [`crate::js::RUNTIME_JS`] adds the two helper
//! functions the branch probes call. The printed code comes with a [`PositionMap`] (QuickJS stack
//! `line:column` to original byte offset) and the [`CoercionSites`] of the file, which together say which
//! operation converted a recording proxy to a primitive.
//!
//! Top-level code is left unprobed: it runs once when the file loads, so it tells nothing about tests.

mod distance;
mod folding;
mod implied;
mod marks;
mod parity;
mod patterns;
mod positions;
mod probes;
mod sites;
#[cfg(test)]
mod tests;
mod texts;
mod writes;

use std::ops::Range;

use swc_common::SourceMapper;
use swc_ecma_ast::EsVersion;
use swc_ecma_codegen::text_writer::JsWriter;
use swc_ecma_codegen::{Config, Emitter};
use swc_ecma_visit::VisitMutWith;

use crate::analysis::parse::ParsedFile;
use crate::analysis::state::shared_writes;
use crate::analysis::typescript::Language;

pub use implied::Implied;
pub(crate) use positions::PositionMap;
pub(crate) use sites::{CoercionSite, CoercionSites, LiteralKind, SiteKind};
pub use texts::{SourceText, SourceTexts};

/// A file with coverage probes, and what its probe ids and positions mean.
#[derive(Debug, Clone)]
pub struct Instrumented {
    /// The instrumented JavaScript.
    pub code: String,
    /// Index `i` describes statement id `first_statement + i`.
    pub statements: Vec<Statement>,
    /// Index `i` describes branch id `first_branch + i`.
    pub branches: Vec<Branch>,
    /// Every function-like node (functions, arrows, methods, accessors, constructors), in source order.
    pub functions: Vec<Function>,
    /// Instrumented `(line, column)`, as QuickJS prints them in stacks, to original byte offsets (shared
    /// with the sandbox, which rewrites the positions in its messages: see `sandbox::code`).
    pub positions: std::rc::Rc<PositionMap>,
    /// Original byte offsets to the operations that convert a value to a primitive there.
    pub coercion_sites: CoercionSites,
    /// The user's text of each function and class, for `Function.prototype.toString` (see `texts.rs`).
    pub texts: std::sync::Arc<SourceTexts>,
    /// The statements and branch outcomes whose probes were left out, and the probes that mark them
    /// (see `implied.rs`).
    pub implied: Implied,
}

/// One probed statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// Byte offset of its start in the original text.
    pub start: u32,
    /// Byte offset just past its end in the original text.
    pub end: u32,
    /// 1-based line of its start.
    pub line: u32,
}

/// The construct a branch outcome belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BranchKind {
    /// `if (..) .. else ..`: outcomes "then" and "else".
    If,
    /// `c ? a : b`: outcomes "true" and "false".
    Conditional,
    /// The left operand of `&&`: "true" and "false".
    And,
    /// The left operand of `||`: "true" and "false".
    Or,
    /// The left operand of `??`: "nullish" and "not nullish".
    Nullish,
    /// A `while` condition: "true" and "false".
    While,
    /// A `do .. while` condition: "true" and "false".
    DoWhile,
    /// A `for (;;)` condition: "true" and "false".
    For,
    /// One clause of a `switch` ("case X" or "default"), or "no case" when it has no `default`.
    Switch,
}

/// One branch outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The construct.
    pub kind: BranchKind,
    /// Which way it went: "then", "else", "true", "false", "nullish", "not nullish", "case 2", "default",
    /// "no case".
    pub outcome: String,
    /// 1-based line of `start`.
    pub line: u32,
    /// Byte offset in the original text of the construct (of the clause, for `switch`).
    pub start: u32,
    /// Source text of what decides it, on one line and shortened: the test of an `if`, `?:` or loop, the
    /// left operand of `&&`, `||` or `??`, the discriminant of a `switch`.
    pub condition: String,
    /// Byte offset in the original text just past what decides it (`condition` in full): the literals
    /// between `start` and here are the ones the condition compares with.
    pub condition_end: u32,
    /// The first statement id of the body this outcome runs, when it has one of its own: `if` and
    /// `else` blocks, `switch` clauses, and the body of a `while` or `for` ("true"); or the statement
    /// after the construct, for the outcome that stays where the other always leaves (the `else` of
    /// `if (!ok) return;`, the exit of a loop that returns from inside). Taking the outcome is the only
    /// way to cover that statement.
    pub guards: Option<u32>,
}

/// One function-like node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The name it is known by syntactically: declaration, method or property name, the variable or
    /// property it is assigned to (`X.prototype.m = function` is "m"), else its own name.
    pub name: Option<String>,
    /// Byte offset of its start in the original text (of the key, for methods).
    pub start: u32,
    /// Byte offset just past its end.
    pub end: u32,
    /// 1-based line of `start`.
    pub line: u32,
    /// Parameter names; `...rest` is `rest`, a destructured parameter at index `i` is `argI`.
    pub params: Vec<String>,
    /// Its statement ids, nested functions' included (they are contiguous).
    pub statements: Range<u32>,
    /// Its branch ids, nested functions' included.
    pub branches: Range<u32>,
}

impl Instrumented {
    /// The innermost function containing statement `id`.
    pub(crate) fn function_by_statement(&self, id: u32) -> Option<&Function> {
        // Functions are in pre-order and ranges nest, so the last one containing `id` is the innermost.
        self.functions.iter().rev().find(|f| f.statements.contains(&id))
    }
}

/// Adds probes to a copy of `file`'s program and prints it.
///
/// Statement ids start at `first_statement` and branch ids at `first_branch`, both assigned in source
/// pre-order so that every function's ids, nested functions' included, are contiguous. With
/// `distances`, conditions holding comparisons also measure branch distances (see `distance.rs`): only
/// search uses them, and they cost time in every run.
pub(crate) fn instrument(file: &ParsedFile, first_statement: u32, first_branch: u32, distances: bool) -> Instrumented {
    let mut program = file.program.clone();
    let mut probes = probes::Probes::new(file, first_statement, first_branch, distances);
    program.visit_mut_with(&mut probes);
    // TypeScript runs under Node compiled: its functions' text there is not the file's.
    let as_written = (file.language == Language::JavaScript).then(|| file.text());
    let texts = texts::collect(as_written, probes.texts());
    let coercion_sites = sites::find(file, &program);
    let shared: Vec<_> = shared_writes(&file.program).into_iter().map(|w| w.span).collect();
    writes::mark_writes(&mut program, &shared);
    parity::rewrite(&mut program);

    let mut buf = Vec::new();
    let mut entries = Vec::new();
    {
        let mut emitter = Emitter {
            cfg: Config::default().with_target(EsVersion::latest()),
            cm: file.cm.clone(),
            comments: None,
            wr: JsWriter::new(file.cm.clone(), "\n", &mut buf, Some(&mut entries)),
        };
        // Writing to a Vec cannot fail.
        emitter.emit_program(&program).expect("codegen into memory");
    }
    // Codegen escapes lone surrogates, so its output is UTF-8; lossy conversion only keeps this total.
    let code = String::from_utf8_lossy(&buf).into_owned();
    let positions = std::rc::Rc::new(PositionMap::new(&code, &entries, file.source.start_pos, file.source.end_pos));
    let probes::Probes { statements, branches, functions, mut implied, .. } = probes;
    implied.sort();
    Instrumented { code, statements, branches, functions, positions, coercion_sites, texts, implied }
}

/// 1-based line of an original byte position.
fn line_of(file: &ParsedFile, pos: swc_common::BytePos) -> u32 {
    file.source.lookup_line(pos).map_or(1, |l| l as u32 + 1)
}

/// `text` on one line and at most `max` characters (then ending in an ellipsis), for labels and titles.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        text
    } else {
        format!("{}…", text.chars().take(max.saturating_sub(1)).collect::<String>().trim_end())
    }
}

/// Source text of a span of the original file, for branch labels like "case 'a'".
fn snippet(file: &ParsedFile, span: swc_common::Span) -> String {
    file.cm.span_to_snippet(span).unwrap_or_default()
}
