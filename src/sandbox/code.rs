//! The program under test as the sandbox runs it: every file instrumented, with global statement and
//! branch ids, and the maps from engine positions back to the original source.

use std::ops::Range;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use swc_common::sync::Lrc;
use swc_common::{BytePos, SourceMap};

use crate::analysis::files::{SourceEntry, SourceSet};
use crate::analysis::globals;
use crate::analysis::parse::{ParsedFile, line_col};
use crate::analysis::rounding::uses_power_operator;
use crate::analysis::throws::{
    ErrorConstruction, error_building_ranges, error_constructions, made_while_building, throw_argument_ranges,
};
use crate::error::Error;
use crate::instrument::{Function, Implied, Instrumented, PositionMap, instrument};
use crate::model::observed::{EnginePosition, Outcome, Thrown};
use crate::model::program::ModuleKind;
use crate::sandbox::{Execution, instrumented_position};

/// One instrumented file.
pub struct CodeFile {
    /// Everything known about the file's source.
    pub entry: SourceEntry,
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
    /// Byte ranges where the code builds errors (see [`error_building_ranges`]).
    error_builds: Rc<Vec<(u32, u32)>>,
    /// The errors the code builds (see [`made_while_building`]).
    error_constructions: Rc<Vec<ErrorConstruction>>,
    /// Whether the file has the `**` operator (see [`CodeBase::power`]).
    power: bool,
    /// How long instrumenting the file took: the least a mutant of it costs to build, before the
    /// mutation analysis has built one (see `mutate::Judging`).
    pub instrumenting: Duration,
}

impl CodeFile {
    /// Instruments `entry` with statement and branch ids from `first`.
    fn new(entry: SourceEntry, first: (u32, u32), distances: bool) -> CodeFile {
        let started = Instant::now();
        let instrumented = instrument(&entry.parsed, first.0, first.1, distances);
        let statements = first.0..first.0 + instrumented.statements.len() as u32;
        let branches = first.1..first.1 + instrumented.branches.len() as u32;
        let engine_name = entry.parsed.path.display().to_string();
        let base = entry.parsed.source.start_pos.0;
        let throw_arguments = throw_argument_ranges(&entry.parsed.program, base);
        let error_builds = Rc::new(error_building_ranges(&entry.parsed.program, base));
        let error_constructions = Rc::new(error_constructions(&entry.parsed.program, base));
        let power = uses_power_operator(&entry.parsed.program);
        let instrumenting = started.elapsed();
        CodeFile {
            entry,
            instrumented,
            statements,
            branches,
            engine_name,
            throw_arguments,
            error_builds,
            error_constructions,
            power,
            instrumenting,
        }
    }

    /// Whether a byte offset of the original text lies in the argument of a `throw` statement.
    pub fn in_throw_argument(&self, offset: u32) -> bool {
        self.throw_arguments.iter().any(|(start, end)| (*start..*end).contains(&offset))
    }
}

/// All instrumented files.
pub struct CodeBase {
    /// Files in [`SourceSet`] order; shared with the code bases of mutants, which differ in one file.
    pub files: Vec<Rc<CodeFile>>,
    /// Number of statement probes over all files.
    pub statement_count: u32,
    /// Number of branch outcomes over all files.
    pub branch_count: u32,
    /// Whether conditions measure branch distances.
    pub distances: bool,
    /// Whether some file has the `**` operator, whose results engines round differently (see
    /// [`crate::analysis::rounding`]).
    pub power: bool,
    /// Engine positions back to the user's files, shared with the sandbox.
    pub positions: Rc<SourcePositions>,
    /// Every file's probes left out, which readers of the probes put back (see [`Implied`]).
    pub implied: std::sync::Arc<Implied>,
}

impl CodeBase {
    /// Instruments every file of `sources`, measuring branch distances when asked to (see
    /// [`crate::instrument::instrument`]).
    pub fn new(sources: SourceSet, distances: bool) -> CodeBase {
        let mut files = Vec::new();
        let mut next = (0u32, 0u32);
        for entry in sources.entries {
            let file = CodeFile::new(entry, next, distances);
            next = (file.statements.end, file.branches.end);
            files.push(Rc::new(file));
        }
        CodeBase::of(files, distances)
    }

    fn of(files: Vec<Rc<CodeFile>>, distances: bool) -> CodeBase {
        let statement_count = files.iter().map(|f| f.statements.end).max().unwrap_or(0);
        let branch_count = files.iter().map(|f| f.branches.end).max().unwrap_or(0);
        let power = files.iter().any(|f| f.power);
        let positions = Rc::new(SourcePositions::new(&files));
        let implied = std::sync::Arc::new(Implied::merged(files.iter().map(|f| &f.instrumented.implied)));
        CodeBase { files, statement_count, branch_count, distances, power, positions, implied }
    }

    /// This code with file `index` parsed anew as `parsed` (a mutant's): only that file is instrumented
    /// again, the others are shared. Its probes keep their ids when they fit in the file's ranges, and
    /// take new ones past every file's otherwise; either way no other file's ids move, so the other files'
    /// instrumented text, and their bytecode, stay the same.
    pub fn with_file(&self, index: usize, parsed: ParsedFile) -> CodeBase {
        let old = &self.files[index];
        let mut file =
            CodeFile::new(old.entry.with_parsed(parsed), (old.statements.start, old.branches.start), self.distances);
        if file.statements.end > old.statements.end || file.branches.end > old.branches.end {
            file = CodeFile::new(file.entry, (self.statement_count, self.branch_count), self.distances);
        }
        let mut files = self.files.clone();
        files[index] = Rc::new(file);
        CodeBase::of(files, self.distances)
    }

    /// The file and function that statement `id` belongs to (the innermost function).
    pub fn function_of_statement(&self, id: u32) -> Option<(usize, &Function)> {
        let file = self.files.iter().position(|f| f.statements.contains(&id))?;
        self.files[file].instrumented.function_by_statement(id).map(|f| (file, f))
    }

    /// Whether a test that ended so threw an error the code under test built, whose message is then its
    /// own to assert: its origin lies in the argument of a `throw` statement, and the engine did not make
    /// it there while the code built the error thrown (see [`made_while_building`]).
    pub fn threw_own_error(&self, outcome: &Outcome) -> bool {
        let Outcome::Threw { thrown: Thrown::Error { name, origin: Some(origin), .. }, .. } = outcome else {
            return false;
        };
        self.original_offset(origin).is_some_and(|(file, offset)| {
            let file = &self.files[file];
            file.in_throw_argument(offset) && !made_while_building(&file.error_constructions, offset, Some(name))
        })
    }

    /// The file and original byte offset of an engine position.
    pub fn original_offset(&self, position: &EnginePosition) -> Option<(usize, u32)> {
        self.positions.original_offset(position)
    }

    /// Whether two runs of a test ended the same way in the user's code: an error's origin is compared
    /// as a place in the original text. A run that measures branch distances evaluates the measuring form
    /// of a condition, whose operands stand elsewhere on the instrumented line than in the plain form
    /// other runs evaluate: the same error of the same operation has another engine column there.
    pub fn same_end(&self, a: &Outcome, b: &Outcome) -> bool {
        match (a, b) {
            (
                Outcome::Threw { at, thrown: Thrown::Error { name, message, origin: Some(origin) } },
                Outcome::Threw {
                    at: other_at,
                    thrown: Thrown::Error { name: other_name, message: other_message, origin: Some(other) },
                },
            ) => {
                at == other_at
                    && name == other_name
                    && message == other_message
                    && (origin == other
                        || self.original_offset(origin).is_some_and(|o| self.original_offset(other) == Some(o)))
            }
            _ => a == b,
        }
    }

    /// Rewrites every `file:line:column` of the engine in `text` (stack frames in messages) as the
    /// user's file and position.
    pub fn source_positions(&self, text: &str) -> String {
        self.positions.rewrite(text)
    }

    /// The file the engine calls `name` (a path in a stack frame).
    pub fn file_by_engine_name(&self, name: &str) -> Option<usize> {
        self.files.iter().position(|f| f.engine_name == name)
    }
}

/// Engine positions back in the user's files: what a stack frame of the instrumented code
/// (`/abs/file.js:53:27`) says in the original text (`file.js:20:5`). Every position a user reads
/// (errors, failing logs, titles, the terminal UI) goes through it; shared by the code base and its
/// sandbox, which rewrites the messages of the tests it runs.
pub struct SourcePositions {
    files: Vec<PositionedFile>,
}

struct PositionedFile {
    engine_name: String,
    display: String,
    kind: ModuleKind,
    map: Rc<PositionMap>,
    cm: Lrc<SourceMap>,
    start: BytePos,
    error_builds: Rc<Vec<(u32, u32)>>,
    error_constructions: Rc<Vec<ErrorConstruction>>,
}

impl SourcePositions {
    fn new(files: &[Rc<CodeFile>]) -> SourcePositions {
        let files = files
            .iter()
            .map(|f| PositionedFile {
                engine_name: f.engine_name.clone(),
                display: f.entry.parsed.display.clone(),
                kind: f.entry.parsed.kind,
                map: f.instrumented.positions.clone(),
                cm: f.entry.parsed.cm.clone(),
                start: f.entry.parsed.source.start_pos,
                error_builds: f.error_builds.clone(),
                error_constructions: f.error_constructions.clone(),
            })
            .collect();
        SourcePositions { files }
    }

    /// The file and original byte offset of an engine position.
    pub fn original_offset(&self, position: &EnginePosition) -> Option<(usize, u32)> {
        let index = self.files.iter().position(|f| f.engine_name == position.file)?;
        let file = &self.files[index];
        let (line, column) = instrumented_position(file.kind, position.line, position.column)?;
        Some((index, file.map.original_offset(line, column)?))
    }

    /// `error` with its file and the positions in its message as the user knows them.
    pub fn locate(&self, error: Error) -> Error {
        match error {
            Error::Load { file, message } => {
                // A build-time global says what it is and which file to give instead.
                let hint = globals::undefined_global(Path::new(&file), &message);
                let message = self.rewrite(&message);
                Error::Load {
                    file: self.files.iter().find(|f| f.engine_name == file).map_or(file, |f| f.display.clone()),
                    message: match hint {
                        Some(hint) => format!("{message}. {hint}"),
                        None => message,
                    },
                }
            }
            Error::Engine(message) => Error::Engine(self.rewrite(&message)),
            other => other,
        }
    }

    /// `execution` with the positions in Flycatcher's own messages (an `InternalError`: what the engine
    /// or the harness said) as the user knows them; what the code under test threw is its own.
    pub fn locate_execution(&self, mut execution: Execution) -> Execution {
        if let Outcome::Threw { thrown: Thrown::Error { name, message, .. }, .. } = &mut execution.outcome
            && name == "InternalError"
        {
            *message = self.rewrite(message);
        }
        for result in &mut execution.results {
            let states = result.state.iter_mut().map(|s| &mut s.description);
            let answers = result.inspected.iter_mut().filter_map(|i| i.value.as_mut());
            for observed in std::iter::once(&mut result.value).chain(states).chain(answers) {
                observed.for_each_error(&mut |name, message, stack| self.keep_own_message(name, message, stack));
            }
        }
        execution
    }

    /// Forgets the message of an error the engine made (whose messages differ between engines): one whose
    /// stack's first frame in the code under test is not where the code builds errors, or where the
    /// engine made it while the code built one (see [`made_while_building`]). An error no frame of the code made (the
    /// test's own) keeps its message.
    fn keep_own_message(&self, name: &str, message: &mut Option<String>, stack: &mut Option<String>) {
        let Some(stack) = stack.take() else { return };
        let Some(origin) =
            super::events::first_user_frame(&stack, |f| self.files.iter().any(|file| file.engine_name == f))
        else {
            return;
        };
        let own = self.original_offset(&origin).is_some_and(|(file, offset)| {
            let file = &self.files[file];
            file.error_builds.iter().any(|(s, e)| (*s..*e).contains(&offset))
                && !made_while_building(&file.error_constructions, offset, Some(name))
        });
        if !own {
            *message = None;
        }
    }

    /// Rewrites every `file:line:column` of the engine in `text` (stack frames in messages) as the
    /// user's file and position.
    pub fn rewrite(&self, text: &str) -> String {
        let mut out = text.to_string();
        for frame in text.split(['(', ')', '\n']) {
            let frame = frame.trim().trim_start_matches("at ");
            let Some(position) = super::events::first_user_frame(&format!("at {frame}"), |f| {
                self.files.iter().any(|file| file.engine_name == f)
            }) else {
                continue;
            };
            let file = self.files.iter().position(|f| f.engine_name == position.file).expect("a user file");
            let original = self.original_offset(&position).map(|(_, offset)| offset);
            let file = &self.files[file];
            // A position that maps to nothing of the user's text is left out rather than shown wrong.
            let located = match original {
                Some(offset) => {
                    let (line, column) = line_col(&file.cm, BytePos(file.start.0 + offset));
                    format!("{}:{line}:{column}", file.display)
                }
                None => file.display.clone(),
            };
            out = out.replace(frame, &located);
        }
        out
    }
}
