//! The regression suite: elected tests with what they observed, the failing-tests log, and writing both
//! out for JavaScript test runners.

pub mod assertion;
pub mod export;
pub mod manifest;
pub mod stability;
pub mod title;

use std::path::{Path, PathBuf};

use crate::analysis::parse::{ModuleKind, package_type_is_module};
use crate::error::{Error, Result};
use crate::generate::{Statement, TestCase};
use crate::program::{Access, ClassId, ProgramInfo};
use crate::sandbox::{CodeBase, DescribedResult, Outcome, Thrown};
use export::{Binding, ExportSuite, ExportTest, Format, Line, SubjectFile};
pub use stability::Unstable;

/// A test kept because it covered new statements of its method under test.
#[derive(Debug, Clone)]
pub struct ElectedTest {
    /// The test.
    pub test: TestCase,
    /// Results of the calls of the method under test, described right after each call.
    pub results: Vec<DescribedResult>,
    /// `Passed`, or `Threw` at the last statement (an expected-exception regression test).
    pub outcome: Outcome,
    /// Lines of the statements it covered first.
    pub new_lines: Vec<u32>,
    /// Whether the error it throws (if any) was built by the code under test: only then is its message
    /// asserted, since messages of the engine's own errors differ between engines.
    pub own_message: bool,
    /// The seed it ran with: `Math.random` in the exported test starts from it too.
    pub seed: u32,
    /// Statements of its method it covers (offsets in the method's range), new or not: minimising it
    /// keeps them all.
    pub covers: Vec<u32>,
    /// Branch outcomes of its method it takes (offsets in the method's range): its title tells them.
    pub branches: Vec<u32>,
    /// Whether it was minimised already.
    pub minimized: bool,
}

/// A valid test that threw or hit a limit: a possible bug, for people to look at.
#[derive(Debug, Clone)]
pub struct FailingTest {
    /// The test.
    pub test: TestCase,
    /// The call that failed (`get`, `new Node`), when known.
    pub culprit: Option<String>,
    /// What happened.
    pub message: String,
    /// How it ended: only tests that threw are exported as tests (one that hit a limit would hang a runner).
    pub outcome: Outcome,
}

/// Everything elected so far, and the failing-tests log.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    /// Elected tests, in election order.
    pub elected: Vec<ElectedTest>,
    /// Failing tests, one per distinct method and message.
    pub failing: Vec<FailingTest>,
    /// Assertions (or whole tests) dropped because their values changed when the tests ran again.
    pub unstable: Vec<Unstable>,
}

/// Most failing tests kept per method under test.
const MAX_FAILING_PER_METHOD: usize = 20;

impl Suite {
    /// Logs a failing test unless the same call already failed the same way in a test of the same
    /// class (messages that differ only in numbers, like `index out of bounds: 7`, count as the same).
    pub fn log_failure(&mut self, test: TestCase, culprit: Option<String>, message: String, outcome: Outcome) -> bool {
        let shape = message_shape(&message);
        let same_method = |f: &&FailingTest| f.test.class == test.class && f.test.method == test.method;
        let same_failure = |f: &FailingTest| {
            f.test.class == test.class
                && f.culprit == culprit
                && (culprit.is_some() || f.test.method == test.method)
                && message_shape(&f.message) == shape
        };
        if self.failing.iter().any(same_failure)
            || self.failing.iter().filter(same_method).count() >= MAX_FAILING_PER_METHOD
        {
            return false;
        }
        self.failing.push(FailingTest { test, culprit, message, outcome });
        true
    }

    /// The classes that have elected or failing tests, in class order.
    pub fn classes(&self) -> Vec<ClassId> {
        let mut classes: Vec<ClassId> =
            self.elected.iter().map(|e| e.test.class).chain(self.failing.iter().map(|f| f.test.class)).collect();
        classes.sort_unstable();
        classes.dedup();
        classes
    }

    /// Writes `<Class>.test.js` (or `.mjs`), `<Class>.failing.test.js` (tests that threw unexpectedly,
    /// skipped, for runners that can skip) and `<Class>.failing.log` files into `out_dir`; returns the files
    /// written.
    pub fn write(
        &self,
        program: &ProgramInfo,
        code: &CodeBase,
        format: Format,
        out_dir: &Path,
        header: &[String],
    ) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(out_dir).map_err(|source| Error::Write { path: out_dir.to_path_buf(), source })?;
        let mut written = Vec::new();
        for class in self.classes() {
            let elected: Vec<&ElectedTest> = self.elected.iter().filter(|e| e.test.class == class).collect();
            if !elected.is_empty() {
                let suite = export_suite(program, code, class, &elected, header);
                write_rendered(&suite, format, out_dir, &mut written)?;
                written.push(manifest::write(program, code, class, &elected, out_dir)?);
            }
            let failing: Vec<&FailingTest> = self.failing.iter().filter(|f| f.test.class == class).collect();
            let thrown: Vec<&FailingTest> =
                failing.iter().copied().filter(|f| matches!(f.outcome, Outcome::Threw { .. })).collect();
            if format.can_skip() && !thrown.is_empty() {
                let suite = failing_suite(program, class, &thrown, header);
                write_rendered(&suite, format, out_dir, &mut written)?;
            }
            if !failing.is_empty() {
                let path = out_dir.join(format!("{}.failing.log", export::file_stem(&program.classes[class].name)));
                let text = failing_log(program, class, &failing, header);
                std::fs::write(&path, text).map_err(|source| Error::Write { path: path.clone(), source })?;
                written.push(path);
            }
        }
        Ok(written)
    }
}

/// Renders `suite` into `out_dir`, adding the files written to `written`.
fn write_rendered(suite: &ExportSuite, format: Format, out_dir: &Path, written: &mut Vec<PathBuf>) -> Result<()> {
    let rendered = export::render(suite, format, out_dir);
    let path = out_dir.join(&rendered.file_name);
    std::fs::write(&path, rendered.text).map_err(|source| Error::Write { path: path.clone(), source })?;
    if path.extension().is_some_and(|e| e == "js") && package_type_is_module(&path) {
        // A `.test.js` suite is CommonJS; under a `"type": "module"` package Node would load it as an ES
        // module.
        let manifest = out_dir.join("package.json");
        if !written.contains(&manifest) {
            std::fs::write(&manifest, "{ \"type\": \"commonjs\" }\n")
                .map_err(|source| Error::Write { path: manifest.clone(), source })?;
            written.push(manifest);
        }
    }
    written.push(path);
    Ok(())
}

/// The message with every number replaced by `#`.
fn message_shape(message: &str) -> String {
    let mut shape = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        let starts_number = c.is_ascii_digit() || (c == '-' && chars.peek().is_some_and(char::is_ascii_digit));
        if starts_number {
            while chars.peek().is_some_and(|n| n.is_ascii_digit() || *n == '.' || *n == 'e') {
                chars.next();
            }
            shape.push('#');
        } else {
            shape.push(c);
        }
    }
    shape
}

fn failing_log(program: &ProgramInfo, class: ClassId, failing: &[&FailingTest], header: &[String]) -> String {
    let mut text: String = header.iter().map(|h| format!("# {h}\n")).collect();
    text.push_str(&format!(
        "# {} test(s) of {} that threw or hit a limit: possible bugs, or inputs the code does not accept.\n",
        failing.len(),
        program.classes[class].name
    ));
    for f in failing {
        let culprit = f.culprit.as_deref().map(|c| format!("{c}: ")).unwrap_or_default();
        text.push_str(&format!("\n## {culprit}{} (while testing {})\n", f.message, f.test.method));
        for i in 0..f.test.statements.len() {
            text.push_str(&f.test.declaration(i, program, "var"));
            text.push_str(";\n");
        }
    }
    text
}

/// The exportable form of the elected tests of one class: one group per method under test, titles saying
/// what each test exercises (see [`title`]).
pub fn export_suite(
    program: &ProgramInfo,
    code: &CodeBase,
    class: ClassId,
    elected: &[&ElectedTest],
    header: &[String],
) -> ExportSuite {
    let tests = elected
        .iter()
        .zip(title::titles(program, code, elected))
        .map(|(e, title)| ExportTest {
            group: e.test.method.clone(),
            title,
            lines: test_lines(program, e),
            seed: e.seed,
        })
        .collect();
    let tests_used: Vec<&TestCase> = elected.iter().map(|e| &e.test).collect();
    subjects_suite(program, class, &tests_used, header, tests, false)
}

/// The error-revealing tests of one class: each runs its statements up to the one that threw, under a
/// title and a comment naming the error; the suite is skipped by default.
fn failing_suite(program: &ProgramInfo, class: ClassId, failing: &[&FailingTest], header: &[String]) -> ExportSuite {
    let tests = failing
        .iter()
        .map(|f| {
            let reached = match f.outcome {
                Outcome::Threw { at, .. } => at + 1,
                _ => f.test.statements.len(),
            };
            // A line comment ends at any line terminator (\r, U+2028 ...), all of which are whitespace.
            let message = f.message.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut lines = vec![Line::Code(format!("// Threw in the sandbox: {message}"))];
            lines.extend(
                (0..reached.min(f.test.statements.len()))
                    .map(|i| Line::Code(format!("{};", f.test.declaration(i, program, "const")))),
            );
            let culprit = f.culprit.as_deref().map(|c| format!(" (in {c})")).unwrap_or_default();
            ExportTest {
                group: f.test.method.clone(),
                title: format!("{}{culprit}", crate::instrument::shorten(&f.message, 80)),
                lines,
                seed: 1,
            }
        })
        .collect();
    let mut header = header.to_vec();
    header.push(
        "Tests that threw unexpectedly: possible bugs, or inputs the code does not accept. They are skipped; remove \
         the skip to see the error."
            .to_string(),
    );
    let tests_used: Vec<&TestCase> = failing.iter().map(|f| &f.test).collect();
    subjects_suite(program, class, &tests_used, &header, tests, true)
}

/// A suite of `tests` with the files and bindings that the test cases `used` need.
fn subjects_suite(
    program: &ProgramInfo,
    class: ClassId,
    used_by: &[&TestCase],
    header: &[String],
    tests: Vec<ExportTest>,
    failing: bool,
) -> ExportSuite {
    let mut used: Vec<ClassId> = Vec::new();
    for test in used_by {
        for c in test.classes_used() {
            if !used.contains(&c) {
                used.push(c);
            }
        }
    }
    // Scripts share one global scope and may depend on each other: load every given script, in order.
    let mut file_ids: Vec<usize> = program
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.given
                && f.kind == ModuleKind::Script
                && used.iter().any(|c| matches!(program.classes[*c].access, Access::Script { .. }))
        })
        .map(|(i, _)| i)
        .collect();
    for c in &used {
        if let Access::CommonJs { file, .. } | Access::EsModule { file, .. } = &program.classes[*c].access
            && !file_ids.contains(file)
        {
            file_ids.push(*file);
        }
    }
    let files: Vec<SubjectFile> = file_ids
        .iter()
        .map(|f| SubjectFile { path: program.files[*f].path.clone(), kind: program.files[*f].kind })
        .collect();
    let position = |file: &usize| file_ids.iter().position(|f| f == file).unwrap_or(0);
    let bindings = used
        .iter()
        .map(|c| {
            let info = &program.classes[*c];
            let access = match &info.access {
                Access::Script { expression } => export::Access::Script { expression: expression.clone() },
                Access::CommonJs { file, path } => {
                    export::Access::CommonJs { file: position(file), path: path.clone() }
                }
                Access::EsModule { file, export, path } => {
                    export::Access::EsModule { file: position(file), export: export.clone(), path: path.clone() }
                }
            };
            Binding { alias: info.alias.clone(), access }
        })
        .collect();
    ExportSuite {
        class_name: program.classes[class].name.clone(),
        header: header.to_vec(),
        files,
        bindings,
        tests,
        failing,
    }
}

/// `3, 5-7, 9`.
pub fn compress_lines(lines: &[u32]) -> String {
    let mut sorted = lines.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end { start.to_string() } else { format!("{start}-{end}") });
        i += 1;
    }
    parts.join(", ")
}

/// The lines of an elected test as exported: statements and assertions.
pub fn test_lines(program: &ProgramInfo, elected: &ElectedTest) -> Vec<Line> {
    let test = &elected.test;
    let mut lines = Vec::new();
    let mut result_names = 0;
    let last = test.statements.len().saturating_sub(1);
    for (index, statement) in test.statements.iter().enumerate() {
        let expression = test.expression(index, program);
        match statement {
            Statement::Construct { .. } | Statement::Rebuild { .. } => {
                lines.push(Line::Code(format!("{};", test.declaration(index, program, "const"))))
            }
            Statement::Call { under_test, .. } => {
                if index == last
                    && let Outcome::Threw { at, thrown } = &elected.outcome
                    && *at == index
                {
                    let thrown = match thrown {
                        // Messages of errors the engine makes (not reading a property of undefined, say)
                        // differ between engines: only the name of those is asserted.
                        Thrown::Error { name, message, .. } => export::Thrown::Error {
                            name: name.clone(),
                            message: elected.own_message.then(|| message.clone()),
                        },
                        Thrown::Value(description) => export::Thrown::Value {
                            literal: assertion::literal_of(description).unwrap_or_else(|| "undefined".into()),
                        },
                    };
                    lines.push(Line::Throws { code: format!("{expression};"), thrown });
                    continue;
                }
                let result = elected.results.iter().find(|r| r.at == index).filter(|_| *under_test);
                match result {
                    None => lines.push(Line::Code(format!("{expression};"))),
                    Some(r) if r.state.is_some() => {
                        let state = r.state.as_ref().expect("matched on state");
                        let mut fields = Vec::new();
                        if let Some(variable) = test.variables.get(state.variable) {
                            assertion::assert_fields(&state.description, &variable.name, test, program, &mut fields);
                        }
                        // `undefined` is asserted only when the object's state says nothing: a test
                        // without any assertion would pass whatever the code did.
                        if assertion::literal_of(&r.value).as_deref() == Some("undefined") && !fields.is_empty() {
                            lines.push(Line::Code(format!("{expression};")));
                        } else {
                            assertion::assert_described(&r.value, &expression, test, program, &mut lines);
                        }
                        lines.extend(fields);
                    }
                    Some(r) if assertion::literal_of(&r.value).is_some() => {
                        assertion::assert_described(&r.value, &expression, test, program, &mut lines);
                    }
                    Some(r) => {
                        let name = loop {
                            result_names += 1;
                            let name =
                                if result_names == 1 { "result".to_string() } else { format!("result{result_names}") };
                            if !test.variables.iter().any(|v| v.name == name) {
                                break name;
                            }
                        };
                        let mut asserted = Vec::new();
                        assertion::assert_described(&r.value, &name, test, program, &mut asserted);
                        if asserted.is_empty() {
                            // Nothing stable to assert (an iterator, a cycle): no unused variable either.
                            result_names -= 1;
                            lines.push(Line::Code(format!("{expression};")));
                        } else {
                            lines.push(Line::Code(format!("const {name} = {expression};")));
                            lines.extend(asserted);
                        }
                    }
                }
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_lists_are_compressed() {
        assert_eq!(compress_lines(&[7, 3, 4, 5, 9, 4]), "3-5, 7, 9");
        assert_eq!(compress_lines(&[]), "");
    }

    #[test]
    fn failures_differing_only_in_numbers_are_logged_once() {
        assert_eq!(message_shape("index out of bounds: -52.2"), message_shape("index out of bounds: 7"));
        assert_ne!(message_shape("index out of bounds: 7"), message_shape("node is already linked"));
        let mut suite = Suite::default();
        let test = TestCase { class: 0, method: "get".into(), variables: Vec::new(), statements: Vec::new() };
        let log = |suite: &mut Suite, culprit: &str, message: &str| {
            suite.log_failure(test.clone(), Some(culprit.into()), message.into(), Outcome::TimedOut)
        };
        assert!(log(&mut suite, "get", "out of bounds: 1"));
        assert!(!log(&mut suite, "get", "out of bounds: -3.5"));
        assert!(log(&mut suite, "insertAt", "out of bounds: 1"));
    }
}
