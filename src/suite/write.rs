//! Writing a class's suite: its elected tests as an [`ExportSuite`] rendered for the format, its
//! manifest, its failing tests as a skipped suite, and its failing-tests log.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::lines::{declaration, test_lines_in};
use crate::analysis::parse::package_type_is_module;
use crate::analysis::tsconfig;
use crate::error::{Error, Result};
use crate::export::{
    self, Binding, Declarations, EnumBinding, ExportSuite, ExportTest, Format, Line, Project, Specifiers, SubjectFile,
    TypeScript,
};
use crate::model::observed::Outcome;
use crate::model::program::{Access, ClassId, ModuleKind, ProgramInfo};
use crate::model::test::{Statement, TestCase};
use crate::sandbox::CodeBase;
use crate::suite::kept::{AsWritten, ChangedTest, KeptTest, Source, changed_log};
use crate::suite::{ElectedTest, FailingTest, Suite, assertion, manifest, title};

impl Suite {
    /// Writes `<Class>.test.js` (or `.mjs`), `<Class>.failing.test.js` (tests that threw unexpectedly,
    /// skipped, for runners that can skip) and `<Class>.failing.log` files into `out_dir`; returns the files
    /// written. A suite brought up to date (see [`super::kept`]) keeps its header and its tests as written,
    /// adds `<Class>.changed.log` when tests changed, and writes only the files whose text changes.
    /// `sources` are the fingerprints of the methods' goals, which the manifests keep for an update.
    pub fn write(
        &self,
        program: &ProgramInfo,
        code: &CodeBase,
        sources: &[(ClassId, String, Source)],
        format: Format,
        out_dir: &Path,
        header: &[String],
    ) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(out_dir).map_err(|source| Error::Write { path: out_dir.to_path_buf(), source })?;
        let mut written = Vec::new();
        let marks = manifest::Marks { sources };
        for class in self.classes() {
            let header = self.kept.header(class).unwrap_or(header);
            let mut out = Output { dir: out_dir, only_changed: self.kept.updates(class), written: &mut written };
            let kept: Vec<&KeptTest> = self.kept.tests.iter().filter(|k| k.elected.test.class == class).collect();
            let elected: Vec<&ElectedTest> = self.elected.iter().filter(|e| e.test.class == class).collect();
            let failing: Vec<&FailingTest> =
                self.kept.failing.iter().chain(&self.failing).filter(|f| f.test.class == class).collect();
            let typescript = typescript_of(program, class);
            let tests = entries(program, code, &kept, &elected, typescript.as_ref().map(|(_, declared)| declared));
            if !tests.is_empty() {
                let suite = suite_of(program, class, &tests, self.kept.groups(class), header, typescript);
                let file_name = out.rendered(&suite, format)?;
                let subjects = suite.files.iter().map(|f| f.path.as_path()).collect();
                let suite_file = manifest::Written { format, file_name: &file_name, subjects, header };
                let (path, text) = manifest::render(program, &marks, class, &tests, &failing, &suite_file, out_dir);
                out.put(path, text)?;
            }
            let thrown: Vec<&FailingTest> =
                failing.iter().copied().filter(|f| matches!(f.outcome, Outcome::Threw { .. })).collect();
            if format.can_skip() && !thrown.is_empty() {
                let suite = failing_suite(program, class, &thrown, header);
                out.rendered(&suite, format)?;
            }
            let stem = export::suite_stem(program, class);
            if !failing.is_empty() {
                let path = out_dir.join(format!("{stem}.failing.log"));
                out.put(path, failing_log(program, class, &failing, header))?;
            }
            // An update that changes nothing leaves the log of the last one that did.
            let changed: Vec<&ChangedTest> = self.kept.changed.iter().filter(|c| c.class == class).collect();
            if !changed.is_empty() {
                let path = out_dir.join(format!("{stem}.changed.log"));
                out.put(path, changed_log(&program.classes[class].name, &changed, header))?;
            }
        }
        Ok(written)
    }
}

/// Where a class's files go: every one written, or, for a suite brought up to date, only those whose text
/// changes (so that an update of unchanged code touches nothing).
struct Output<'a> {
    dir: &'a Path,
    only_changed: bool,
    written: &'a mut Vec<PathBuf>,
}

impl Output<'_> {
    /// Writes `text` to `path` (unless it holds that text already and only changes are written).
    fn put(&mut self, path: PathBuf, text: String) -> Result<()> {
        if self.only_changed && std::fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
            return Ok(());
        }
        std::fs::write(&path, text).map_err(|source| Error::Write { path: path.clone(), source })?;
        self.written.push(path);
        Ok(())
    }

    /// Renders `suite` here; returns the suite's file name.
    fn rendered(&mut self, suite: &ExportSuite, format: Format) -> Result<String> {
        if let Some(refusal) = suite.refusal(format) {
            return Err(Error::Usage(refusal));
        }
        let rendered = export::render(suite, format, self.dir);
        let path = self.dir.join(&rendered.file_name);
        if path.extension().is_some_and(|e| e == "js") && package_type_is_module(&path) {
            // A `.test.js` suite is CommonJS; under a `"type": "module"` package Node would load it as an ES
            // module.
            let manifest = self.dir.join("package.json");
            if !self.written.contains(&manifest) {
                self.put(manifest, "{ \"type\": \"commonjs\" }\n".to_string())?;
            }
        }
        self.put(path, rendered.text)?;
        Ok(rendered.file_name)
    }
}

/// Renders `suite` into `out_dir`, adding the files written to `written`; returns the suite's file name.
pub(super) fn write_rendered(
    suite: &ExportSuite,
    format: Format,
    out_dir: &Path,
    written: &mut Vec<PathBuf>,
) -> Result<String> {
    Output { dir: out_dir, only_changed: false, written }.rendered(suite, format)
}

pub(super) fn failing_log(
    program: &ProgramInfo,
    class: ClassId,
    failing: &[&FailingTest],
    header: &[String],
) -> String {
    let mut text: String = header.iter().map(|h| format!("# {h}\n")).collect();
    text.push_str(&format!(
        "# {} test(s) of {} that threw or hit a limit: possible bugs, or inputs the code does not accept.\n",
        failing.len(),
        program.classes[class].name
    ));
    for f in failing {
        let culprit = f.culprit.as_deref().map(|c| format!("{c}: ")).unwrap_or_default();
        text.push_str(&format!("\n## {culprit}{} (while testing {})\n", f.message, f.test.method));
        for i in (0..f.test.statements.len()).filter(|i| f.test.is_written(*i, program)) {
            text.push_str(&f.test.declaration(i, program, "var"));
            text.push_str(";\n");
        }
    }
    text
}

/// One test as a suite writes it: its title and lines, and how it was written when it is written again as
/// it was (a test kept by an update).
pub(crate) struct Entry<'a> {
    /// The test and what it observed.
    pub elected: &'a ElectedTest,
    /// Its title.
    pub title: String,
    /// Its statements and assertions.
    pub lines: Vec<Line>,
    /// How it was written, if it is written again as it was.
    pub written: Option<&'a AsWritten>,
}

/// The tests of one class as its suite writes them: `kept` (by an update) first, in their manifest's order,
/// then `elected`. Titles of the tests not written before say what sets them apart from all the others.
fn entries<'a>(
    program: &ProgramInfo,
    code: &CodeBase,
    kept: &[&'a KeptTest],
    elected: &[&'a ElectedTest],
    declared: Option<&Declarations>,
) -> Vec<Entry<'a>> {
    let all: Vec<&ElectedTest> = kept.iter().map(|k| &k.elected).chain(elected.iter().copied()).collect();
    let written = kept.iter().map(|k| k.written.as_ref()).chain(elected.iter().map(|_| None));
    all.iter()
        .zip(title::titles(program, code, &all))
        .zip(written)
        .map(|((e, title), written)| match written {
            Some(w) => Entry {
                elected: e,
                title: w.title.clone(),
                lines: w.lines.iter().cloned().map(Line::Code).collect(),
                written: Some(w),
            },
            None => Entry { elected: e, title, lines: test_lines_in(program, e, declared), written: None },
        })
        .collect()
}

/// The lines of `elected` as its class's suite writes them, as statements.
pub(crate) fn written_lines(program: &ProgramInfo, elected: &ElectedTest) -> Vec<String> {
    let typescript = typescript_of(program, elected.test.class);
    test_lines_in(program, elected, typescript.as_ref().map(|(_, declared)| declared))
        .iter()
        .map(export::statement)
        .collect()
}

/// The exportable form of the elected tests of one class: one group per method under test, titles saying
/// what each test exercises (see [`title`]).
pub(crate) fn export_suite(
    program: &ProgramInfo,
    code: &CodeBase,
    class: ClassId,
    elected: &[&ElectedTest],
    header: &[String],
) -> ExportSuite {
    let typescript = typescript_of(program, class);
    let tests = entries(program, code, &[], elected, typescript.as_ref().map(|(_, declared)| declared));
    suite_of(program, class, &tests, &[], header, typescript)
}

/// The exportable form of `entries`, the tests of `class`, the groups named in `groups` first and in
/// that order (a suite brought up to date keeps the order of its groups as written).
fn suite_of(
    program: &ProgramInfo,
    class: ClassId,
    entries: &[Entry],
    groups: &[String],
    header: &[String],
    typescript: Option<(TypeScript, Declarations)>,
) -> ExportSuite {
    let mut tests: Vec<ExportTest> = entries
        .iter()
        .map(|e| ExportTest {
            group: e.elected.test.method.clone(),
            title: e.title.clone(),
            lines: e.lines.clone(),
            seed: e.elected.seed,
        })
        .collect();
    tests.sort_by_key(|t| groups.iter().position(|g| *g == t.group).unwrap_or(groups.len()));
    let tests_used: Vec<&TestCase> = entries.iter().map(|e| &e.elected.test).collect();
    let mut named = Vec::new();
    for result in entries.iter().flat_map(|e| &e.elected.results) {
        assertion::classes_named(&result.value, &mut named);
        for state in &result.state {
            assertion::classes_named(&state.description, &mut named);
        }
        for answer in result.inspected.iter().filter_map(|i| i.value.as_ref()) {
            assertion::classes_named(answer, &mut named);
        }
    }
    let enums = typescript.as_ref().map(|(_, declared)| enums_bound(declared, &tests_used)).unwrap_or_default();
    let typescript = typescript.map(|(typescript, _)| typescript);
    subjects_suite(program, class, &tests_used, &named, &enums, header, tests, false, typescript)
}

/// For a class written in TypeScript: how its suite refers to the project's files (as most of the
/// project's TypeScript files import each other), and what is declared about its members.
pub(super) fn typescript_of(program: &ProgramInfo, class: ClassId) -> Option<(TypeScript, Declarations)> {
    if !export::is_typescript(&program.files[program.classes[class].file].path) {
        return None;
    }
    let sources: Vec<String> = program
        .files
        .iter()
        .filter(|file| export::is_typescript(&file.path))
        .filter_map(|file| std::fs::read_to_string(&file.path).ok())
        .collect();
    let specifiers = Specifiers::detect(sources.iter().map(String::as_str));
    let project = project_of(&program.files[program.classes[class].file].path);
    // The files the suite loads decide where their re-exports of types are ([`subjects_suite`]).
    let not_modules = program
        .files
        .iter()
        .filter(|file| file.path.extension().is_some_and(|e| e == "ts") && file.kind != ModuleKind::EsModule)
        .map(|file| file.path.clone())
        .collect();
    let typescript = TypeScript { specifiers, project, type_reexports: Vec::new(), not_modules };
    Some((typescript, super::declared::declarations(program)))
}

/// The re-exports of types written without `type` that the files `file_ids` load, each once, as
/// `file:line \`Name\``.
fn type_reexports(program: &ProgramInfo, file_ids: &[usize]) -> Vec<String> {
    let mut places: Vec<String> = Vec::new();
    for reexport in file_ids.iter().flat_map(|&f| &program.files[f].type_reexports) {
        let place = format!("{}:{} `{}`", reexport.file, reexport.line, reexport.name);
        if !places.contains(&place) {
            places.push(place);
        }
    }
    places
}

/// What the `tsconfig.json` governing `file` asks of the runners (a configuration that does not parse has
/// refused the file already).
fn project_of(file: &Path) -> Project {
    let Ok(config) = tsconfig::for_file(file) else { return Project::default() };
    let base = config.paths_base.unwrap_or_default();
    Project {
        legacy_decorators: config.experimental_decorators,
        decorator_metadata: config.experimental_decorators && config.emit_decorator_metadata,
        paths: config
            .paths
            .into_iter()
            .map(|(pattern, locations)| {
                (pattern, locations.iter().map(|l| base.join(l).components().collect()).collect())
            })
            .collect(),
        base_url: config.base_url,
        define_class_fields: config.define_class_fields,
        broken_chain: !config.unread.is_empty(),
    }
}

/// The enums the calls of `tests` may write values with (see [`Declarations::enums_of`]).
fn enums_bound(declared: &Declarations, tests: &[&TestCase]) -> Vec<EnumBinding> {
    let calls = tests.iter().flat_map(|test| {
        test.statements.iter().filter_map(|statement| match statement {
            Statement::Construct { class, .. } => Some((*class, None)),
            Statement::Call { receiver, method, .. } => Some((test.variables[*receiver].class, Some(method.as_str()))),
            Statement::Rebuild { .. } => None,
        })
    });
    declared.enums_of(calls).into_iter().cloned().collect()
}

/// The error-revealing tests of one class: each runs its statements up to the one that threw, under a
/// title and a comment naming the error; the suite is skipped by default.
pub(super) fn failing_suite(
    program: &ProgramInfo,
    class: ClassId,
    failing: &[&FailingTest],
    header: &[String],
) -> ExportSuite {
    let typescript = typescript_of(program, class);
    let declared = typescript.as_ref().map(|(_, declared)| declared);
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
                    .filter(|i| f.test.is_written(*i, program))
                    .map(|i| Line::Code(format!("{};", declaration(&f.test, i, program, declared)))),
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
    let enums = typescript.as_ref().map(|(_, declared)| enums_bound(declared, &tests_used)).unwrap_or_default();
    let typescript = typescript.map(|(typescript, _)| typescript);
    subjects_suite(program, class, &tests_used, &[], &enums, &header, tests, true, typescript)
}

/// A suite of `tests` with the files and bindings that the test cases `used_by` need, the classes
/// their assertions name and the enums their values are written with; in TypeScript when `typescript` is
/// given.
#[allow(clippy::too_many_arguments)] // the parts of a suite, each from its own source
pub(super) fn subjects_suite(
    program: &ProgramInfo,
    class: ClassId,
    used_by: &[&TestCase],
    named: &[ClassId],
    enums: &[EnumBinding],
    header: &[String],
    tests: Vec<ExportTest>,
    failing: bool,
    typescript: Option<TypeScript>,
) -> ExportSuite {
    let mut used: Vec<ClassId> = Vec::new();
    for c in used_by.iter().flat_map(|test| test.classes_used()).chain(named.iter().copied()) {
        if !used.contains(&c) {
            used.push(c);
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
    for e in enums {
        if !file_ids.contains(&e.file) {
            file_ids.push(e.file);
        }
    }
    let files: Vec<SubjectFile> = file_ids
        .iter()
        .map(|f| SubjectFile { path: program.files[*f].path.clone(), kind: program.files[*f].kind })
        .collect();
    let typescript =
        typescript.map(|typescript| TypeScript { type_reexports: type_reexports(program, &file_ids), ..typescript });
    let position = |file: &usize| file_ids.iter().position(|f| f == file).unwrap_or(0);
    let exported = |access: &Access| match access {
        Access::Script { expression } => export::Access::Script { expression: expression.clone() },
        Access::CommonJs { file, path } => export::Access::CommonJs { file: position(file), path: path.clone() },
        Access::EsModule { file, export, path } => {
            export::Access::EsModule { file: position(file), export: export.clone(), path: path.clone() }
        }
    };
    let bindings = used
        .iter()
        .flat_map(|c| {
            let info = &program.classes[*c];
            match (&info.functions, info.statics_of) {
                // Static members are reached on their class, which is bound.
                (Some(_), Some(of)) => {
                    let class = &program.classes[of];
                    vec![Binding { alias: class.alias.clone(), access: exported(&class.access) }]
                }
                // A module of functions binds the functions its tests call, each under its own name.
                (Some(functions), None) => functions
                    .iter()
                    .filter(|f| calls(used_by, *c, &f.method))
                    .map(|f| Binding { alias: f.alias.clone(), access: exported(&f.access) })
                    .collect(),
                (None, _) => vec![Binding { alias: info.binding().to_string(), access: exported(&info.access) }],
            }
        })
        .chain(enums.iter().map(|e| Binding {
            alias: e.alias.clone(),
            access: export::Access::EsModule { file: position(&e.file), export: e.export.clone(), path: Vec::new() },
        }));
    // A factory of plain objects is bound once, as its unit's maker and as a function of its module.
    let mut bound = BTreeSet::new();
    let bindings = bindings.filter(|b| bound.insert(b.alias.clone())).collect();
    ExportSuite {
        class_name: program.classes[class].name.clone(),
        stem: export::suite_stem(program, class),
        describe: described(program, class),
        header: header.to_vec(),
        files,
        bindings,
        absent_at_load: program.absent_at_load.clone(),
        tests,
        failing,
        typescript,
    }
}

/// The suite's outer group: the class's name, and for an abstract base, the subclasses its methods run on.
fn described(program: &ProgramInfo, class: ClassId) -> String {
    let info = &program.classes[class];
    if info.concrete.is_empty() {
        return info.name.clone();
    }
    let names: Vec<&str> = info.concrete.iter().map(|c| program.classes[*c].name.as_str()).collect();
    format!("{}, on {} instances", info.name, names.join(" or "))
}

/// Whether one of `tests` calls `method` of `unit`.
fn calls(tests: &[&TestCase], unit: ClassId, method: &str) -> bool {
    tests.iter().any(|test| {
        test.statements.iter().any(|s| {
            matches!(s, Statement::Call { receiver, method: m, .. } if test.variables[*receiver].class == unit && m == method)
        })
    })
}

/// `3, 5-7, 9`.
pub(crate) fn compress_lines(lines: &[u32]) -> String {
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
