//! The program under test as the sandbox runs it: every file instrumented, with global statement and
//! branch ids, and the maps from engine positions back to the original source.

use std::ops::Range;

use crate::analysis::files::SourceSet;
use crate::analysis::rounding::uses_power_operator;
use crate::analysis::throws::throw_argument_ranges;
use crate::instrument::{Function, Instrumented, instrument};
use crate::model::observed::EnginePosition;
use crate::sandbox::instrumented_position;

/// One instrumented file.
pub struct CodeFile {
    /// Everything known about the file's source.
    pub entry: crate::analysis::files::SourceEntry,
    /// The instrumented code and its tables.
    pub instrumented: Instrumented,
    /// This file's statement ids.
    pub statements: Range<u32>,
    /// This file's branch ids.
    pub branches: Range<u32>,
    /// The name the engine knows the file by (its absolute path), as it appears in stack traces.
    pub engine_name: String,
    /// Byte ranges of the arguments of `throw` statements (see [`crate::analysis::throws`]).
    pub throw_arguments: Vec<(u32, u32)>,
}

impl CodeFile {
    /// Whether a byte offset of the original text lies in the argument of a `throw` statement.
    pub fn in_throw_argument(&self, offset: u32) -> bool {
        self.throw_arguments.iter().any(|(start, end)| (*start..*end).contains(&offset))
    }
}

/// All instrumented files.
pub struct CodeBase {
    /// Files in [`SourceSet`] order.
    pub files: Vec<CodeFile>,
    /// Number of statement probes over all files.
    pub statement_count: u32,
    /// Number of branch outcomes over all files.
    pub branch_count: u32,
    /// Whether conditions measure branch distances.
    pub distances: bool,
    /// Whether some file has the `**` operator, whose results engines round differently (see
    /// [`crate::analysis::rounding`]).
    pub power: bool,
}

impl CodeBase {
    /// Instruments every file of `sources`, measuring branch distances when asked to (see
    /// [`crate::instrument::instrument`]).
    pub fn new(sources: SourceSet, distances: bool) -> CodeBase {
        let mut files = Vec::new();
        let (mut next_statement, mut next_branch) = (0u32, 0u32);
        let power = sources.entries.iter().any(|e| uses_power_operator(&e.parsed.program));
        for entry in sources.entries {
            let instrumented = instrument(&entry.parsed, next_statement, next_branch, distances);
            let statements = next_statement..next_statement + instrumented.statements.len() as u32;
            let branches = next_branch..next_branch + instrumented.branches.len() as u32;
            next_statement = statements.end;
            next_branch = branches.end;
            let engine_name = entry.parsed.path.display().to_string();
            let throw_arguments = throw_argument_ranges(&entry.parsed.program, entry.parsed.source.start_pos.0);
            files.push(CodeFile { entry, instrumented, statements, branches, engine_name, throw_arguments });
        }
        CodeBase { files, statement_count: next_statement, branch_count: next_branch, distances, power }
    }

    /// The file and function that statement `id` belongs to (the innermost function).
    pub fn function_of_statement(&self, id: u32) -> Option<(usize, &Function)> {
        let file = self.files.iter().position(|f| f.statements.contains(&id))?;
        self.files[file].instrumented.function_by_statement(id).map(|f| (file, f))
    }

    /// Whether an engine position lies in the argument of a `throw` statement: the code under test is
    /// building a value to throw there (see [`crate::analysis::throws`]).
    pub fn in_throw_argument(&self, position: &EnginePosition) -> bool {
        self.original_offset(position).is_some_and(|(file, offset)| self.files[file].in_throw_argument(offset))
    }

    /// The file and original byte offset of an engine position.
    pub fn original_offset(&self, position: &EnginePosition) -> Option<(usize, u32)> {
        let index = self.file_by_engine_name(&position.file)?;
        let file = &self.files[index];
        let (line, column) = instrumented_position(file.entry.parsed.kind, position.line, position.column)?;
        Some((index, file.instrumented.positions.original_offset(line, column)?))
    }

    /// Rewrites every `file:line:column` of the engine in `text` (stack frames in messages) as the
    /// user's file and position.
    pub fn source_positions(&self, text: &str) -> String {
        let mut out = text.to_string();
        for frame in text.split(['(', ')', '\n']) {
            let frame = frame.trim().trim_start_matches("at ");
            let Some(position) =
                super::events::first_user_frame(&format!("at {frame}"), |f| self.file_by_engine_name(f).is_some())
            else {
                continue;
            };
            if let Some((file, offset)) = self.original_offset(&position) {
                let parsed = &self.files[file].entry.parsed;
                let (line, column) = parsed.line_col(swc_common::BytePos(parsed.source.start_pos.0 + offset));
                out = out.replace(frame, &format!("{}:{line}:{column}", parsed.display));
            }
        }
        out
    }

    /// The file the engine calls `name` (a path in a stack frame).
    pub fn file_by_engine_name(&self, name: &str) -> Option<usize> {
        self.files.iter().position(|f| f.engine_name == name)
    }
}
