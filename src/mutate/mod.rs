//! Mutation analysis: how strong a suite is, measured by the small faults it catches.
//!
//! Mutants are copies of the code under test with one small edit each ([`operators`]), made only inside
//! the methods and constructors under test. The suite's tests run against every mutant in the sandbox, one
//! fresh context per test as the exported suite runs them, with the usual per-test limits: a mutant that
//! loops or recurses is ended by the limit, and that counts as killed. A test kills a mutant when the
//! thrown/not-thrown outcome, the error, or any value the exported test asserts differs from the
//! original's.
//!
//! Tests run only against mutants in statements they cover (measured on the original with the coverage
//! probes); mutants in statements no test covers are reported as uncovered. Survivors get a short
//! differential generation, random tests run on the original and the mutant and compared: those never told
//! apart are reported as presumed equivalent, and the headline score leaves them out.

pub mod operators;
pub mod report;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::analysis::classes::sandbox_expression;
use crate::analysis::files::SourceSet;
use crate::analysis::parse::parse_source;
use crate::error::{Error, Result};
use crate::generate::Request;
use crate::generate::random::generate;
use crate::generate::{Statement, TestCase};
use crate::program::{ClassId, ProgramInfo};
use crate::sandbox::{CodeBase, Execution, Outcome, Sandbox, Thrown, Watch};
use crate::session::Session;
use crate::suite::title::titles;
use crate::suite::{ElectedTest, Suite, manifest};
use operators::Edit;

/// A test of the suite, as mutation analysis runs it.
#[derive(Debug, Clone)]
pub struct SuiteTest {
    /// Its title in the exported suite.
    pub title: String,
    /// The test.
    pub test: TestCase,
    /// The seed it runs with.
    pub seed: u32,
    /// Whether it asserts the message of the error it expects.
    pub own_message: bool,
    /// The assertions its exported form makes, when read from a manifest: checked against the original
    /// code before any mutant runs.
    pub asserts: Option<Vec<String>>,
}

impl SuiteTest {
    /// The tests of a session's elected suite, in election order.
    pub fn elected(suite: &Suite, program: &ProgramInfo, code: &CodeBase) -> Vec<SuiteTest> {
        let elected: Vec<&ElectedTest> = suite.elected.iter().collect();
        elected
            .iter()
            .zip(titles(program, code, &elected))
            .map(|(e, title)| SuiteTest {
                title,
                test: e.test.clone(),
                seed: e.seed,
                own_message: e.own_message,
                asserts: None,
            })
            .collect()
    }

    /// The tests of a manifest.
    pub fn from_manifest(tests: Vec<manifest::ManifestTest>) -> Vec<SuiteTest> {
        tests
            .into_iter()
            .map(|t| SuiteTest {
                title: t.title,
                test: t.test,
                seed: t.seed,
                own_message: t.own_message,
                asserts: Some(t.asserts),
            })
            .collect()
    }
}

/// What became of a mutant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// A test told it from the original.
    Killed {
        /// Index of the first test that killed it.
        test: usize,
        /// How: a failed assertion, another outcome, a limit.
        reason: String,
    },
    /// Every covering test passed on it, and random tests told it from the original.
    Survived,
    /// Every covering test passed on it, and no random test told it from the original either.
    Equivalent,
    /// No test runs the statement it is in.
    Uncovered,
    /// The edit does not give valid JavaScript (e.g. `??` mixed with `||`): not counted.
    Invalid,
}

/// One mutant and its fate.
#[derive(Debug, Clone)]
pub struct Mutant {
    /// The class whose method or constructor it changes.
    pub class: ClassId,
    /// The method (`constructor` for a constructor).
    pub method: String,
    /// The file, as an index of the program's files.
    pub file: usize,
    /// The edit.
    pub edit: Edit,
    /// 1-based line of the edit.
    pub line: usize,
    /// 1-based column of the edit.
    pub column: usize,
    /// The enclosing construct before the edit.
    pub original: String,
    /// The enclosing construct after the edit.
    pub mutated: String,
    /// The global id of the innermost probed statement containing the edit.
    pub statement: Option<u32>,
    /// What became of it.
    pub status: Status,
}

/// How thorough the analysis is.
#[derive(Debug, Clone)]
pub struct Options {
    /// Random tests per surviving mutant in the equivalence check (0: survivors stay survivors).
    pub equivalence_tests: usize,
    /// Run every covering test against every mutant, not only until the first kill (what
    /// [`strengthen`] needs to know which assertions kill).
    pub exhaustive: bool,
    /// Mutate the constructors of the classes under test too (off when one method is chosen).
    pub constructors: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { equivalence_tests: 200, exhaustive: false, constructors: true }
    }
}

/// The result of a mutation analysis.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The tests run.
    pub tests: Vec<SuiteTest>,
    /// The mutants, in file and source order.
    pub mutants: Vec<Mutant>,
    /// Per test, the statements of the test (calls of the method under test) whose assertions killed a
    /// mutant.
    pub killing_calls: Vec<BTreeSet<usize>>,
    /// Per test, the mutants it killed.
    pub kills: Vec<usize>,
    /// Test runs against mutants (equivalence checks included).
    pub runs: u64,
    /// Time the analysis took.
    pub elapsed: Duration,
}

/// Mutant counts of a group of mutants (a method, a class, everything).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    /// Killed by a test.
    pub killed: usize,
    /// Not killed, and told from the original by random tests.
    pub survived: usize,
    /// Not killed, and never told from the original.
    pub equivalent: usize,
    /// In statements no test covers.
    pub uncovered: usize,
}

impl Score {
    /// Counts the valid mutants among `mutants`.
    pub fn of<'a>(mutants: impl IntoIterator<Item = &'a Mutant>) -> Score {
        let mut score = Score::default();
        for m in mutants {
            match m.status {
                Status::Killed { .. } => score.killed += 1,
                Status::Survived => score.survived += 1,
                Status::Equivalent => score.equivalent += 1,
                Status::Uncovered => score.uncovered += 1,
                Status::Invalid => {}
            }
        }
        score
    }

    /// Valid mutants.
    pub fn total(&self) -> usize {
        self.killed + self.survived + self.equivalent + self.uncovered
    }

    /// Killed mutants in percent of the non-equivalent ones (uncovered ones count as not killed); `None`
    /// without any.
    pub fn percent(&self) -> Option<f64> {
        let counted = self.killed + self.survived + self.uncovered;
        (counted > 0).then(|| 100.0 * self.killed as f64 / counted as f64)
    }
}

impl Analysis {
    /// The score of every valid mutant.
    pub fn score(&self) -> Score {
        Score::of(&self.mutants)
    }
}

/// Creates the mutants of the session's methods under test (and, unless one method was chosen, of their
/// classes' constructors), runs `tests` against them and checks survivors for equivalence.
///
/// `tests` with recorded assertions (from a manifest) must pass on the original code first: an error says
/// which does not. `progress` is told (mutants done, mutants in all) after each mutant.
pub fn analyse(
    session: &Session,
    tests: Vec<SuiteTest>,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis> {
    let started = Instant::now();
    let program = &session.program;
    let code = &session.code;
    let limits = session.settings().limits.clone();
    let expressions: Vec<String> = program.classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let mut original = Sandbox::new(code, limits.clone())?;
    original.bind_classes(&expressions)?;

    // Baseline: what every test does on the original, and which statements it runs.
    let everything = Watch { statements: 0..code.statement_count, branches: 0..0 };
    let mut baselines = Vec::new();
    for (index, t) in tests.iter().enumerate() {
        let run = original.run_isolated(&t.test.to_json(program), t.seed, &everything, true)?;
        let elected = as_elected(t, &run);
        if let Some(expected) = &t.asserts {
            let actual = manifest::assertions(program, &elected);
            if run.outcome.hit_limit() || actual != *expected {
                return Err(Error::Usage(format!(
                    "test {} of the suite (`{}`) does not pass on the current code ({}): generate the suite again",
                    index + 1,
                    t.title,
                    match actual.iter().find(|a| !expected.contains(a)) {
                        Some(a) => format!("it now gives `{a}`"),
                        None => run.outcome.describe(&limits),
                    }
                )));
            }
        }
        // A test cut off by a limit on the original (a loaded machine) cannot tell anything apart: it
        // covers nothing, so it runs against no mutant.
        let covers = if run.outcome.hit_limit() { Vec::new() } else { run.statements };
        baselines.push((elected, covers));
    }

    let mut mutants = create_mutants(session, &tests, options.constructors);
    let mut analysis = Analysis {
        killing_calls: vec![BTreeSet::new(); tests.len()],
        kills: vec![0; tests.len()],
        tests,
        mutants: Vec::new(),
        runs: 0,
        elapsed: Duration::ZERO,
    };
    let count = mutants.len();
    for (id, mutant) in mutants.iter_mut().enumerate() {
        progress(id, count);
        let covering: Vec<usize> =
            (0..baselines.len()).filter(|t| mutant.statement.is_none_or(|s| baselines[*t].1.contains(&s))).collect();
        if covering.is_empty() {
            mutant.status = Status::Uncovered;
            continue;
        }
        let mut sandbox = match mutant_sandbox(session, mutant, &expressions)? {
            Built::Sandbox(sandbox) => sandbox,
            Built::Invalid => {
                mutant.status = Status::Invalid;
                continue;
            }
            Built::Fails(reason) => {
                mutant.status = Status::Killed { test: covering[0], reason };
                analysis.kills[covering[0]] += 1;
                continue;
            }
        };
        mutant.status = Status::Survived;
        for &t in &covering {
            let test = &analysis.tests[t];
            let run = sandbox.run_isolated(&test.test.to_json(&session.program), test.seed, &Watch::default(), true)?;
            analysis.runs += 1;
            let Some(kill) = verdict(session, &baselines[t].0, &run) else { continue };
            analysis.killing_calls[t].extend(kill.calls);
            analysis.kills[t] += 1;
            if !matches!(mutant.status, Status::Killed { .. }) {
                mutant.status = Status::Killed { test: t, reason: kill.reason };
            }
            if !options.exhaustive {
                break;
            }
        }
        if mutant.status == Status::Survived && options.equivalence_tests > 0 {
            let seed = session.settings().seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut rng = StdRng::seed_from_u64(seed);
            let (distinguished, runs) =
                distinguish(session, &mut original, &mut sandbox, mutant, options.equivalence_tests, &mut rng)?;
            analysis.runs += runs;
            if !distinguished {
                mutant.status = Status::Equivalent;
            }
        }
    }
    analysis.mutants = mutants;
    analysis.elapsed = started.elapsed();
    Ok(analysis)
}

/// Keeps, in every test that kills a mutant, only the assertions on calls that kill one, and drops the
/// observer calls (see [`add_observers`]) whose assertions were dropped. A test that kills none stays for
/// its coverage, as it was before observers were added; a test that passes always keeps an assertion.
/// `analysis` must come from an [`Options::exhaustive`] analysis of `suite`'s elected tests.
pub fn strengthen(suite: &mut Suite, analysis: &Analysis) {
    for (index, elected) in suite.elected.iter_mut().enumerate() {
        let test = &elected.test;
        // The method under test is the last call the generator made; observers come after it.
        let Some(last) =
            test.statements.iter().rposition(|s| matches!(s, Statement::Call { method, .. } if *method == test.method))
        else {
            continue;
        };
        let calls = &analysis.killing_calls[index];
        let own: Vec<_> = elected.results.iter().filter(|r| r.at <= last).cloned().collect();
        let killing: Vec<_> = elected.results.iter().filter(|r| calls.contains(&r.at)).cloned().collect();
        elected.results = if analysis.kills[index] == 0 {
            own
        } else if killing.is_empty() && elected.outcome == Outcome::Passed {
            // It kills by a limit alone: without an assertion it would pass whatever the code returned.
            own
        } else {
            killing
        };
        // Calls whose results are not asserted are not described either, so a rerun asserts the same.
        for (at, statement) in elected.test.statements.iter_mut().enumerate() {
            if let Statement::Call { under_test, .. } = statement {
                *under_test = elected.results.iter().any(|r| r.at == at);
            }
        }
        while elected.test.statements.len() > last + 1
            && !elected.results.iter().any(|r| r.at + 1 == elected.test.statements.len())
        {
            elected.test.statements.pop();
        }
    }
}

/// Methods of `class` that take no argument: calling one after the method under test shows state the
/// call left behind.
fn observers(program: &ProgramInfo, class: ClassId) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for m in program.classes[class].methods.iter().filter(|m| m.params.is_empty() && m.alias_of.is_none()) {
        if !names.contains(&m.name) {
            names.push(m.name.clone());
        }
    }
    names
}

/// `test` with every observer of its receiver (other than its method under test) called at the end, their
/// results described; with `all`, the results of its other calls too.
fn observed(program: &ProgramInfo, test: &TestCase, all: bool) -> TestCase {
    let mut observed = test.clone();
    let Some(receiver) = test.statements.iter().rev().find_map(|s| match s {
        Statement::Call { receiver, .. } => Some(*receiver),
        Statement::Construct { .. } | Statement::Rebuild { .. } => None,
    }) else {
        return observed;
    };
    if all {
        for statement in &mut observed.statements {
            if let Statement::Call { under_test, .. } = statement {
                *under_test = true;
            }
        }
    }
    for method in observers(program, test.variables[receiver].class).into_iter().filter(|m| *m != test.method) {
        observed.statements.push(Statement::Call { receiver, method, args: Vec::new(), under_test: true });
    }
    observed
}

/// Appends to every elected test that passes the observer calls (see [`observers`]) that still pass on
/// the original code, with their results described: candidate assertions for [`strengthen`] to keep
/// where they kill a mutant. Tests that throw are left alone.
pub fn add_observers(session: &mut Session) -> Result<()> {
    let expressions: Vec<String> = session.program.classes.iter().map(|c| sandbox_expression(&c.access)).collect();
    let mut sandbox = Sandbox::new(&session.code, session.settings().limits.clone())?;
    sandbox.bind_classes(&expressions)?;
    for elected in session.suite.elected.iter_mut().filter(|e| e.outcome == Outcome::Passed) {
        let full = observed(&session.program, &elected.test, false);
        let mut test = elected.test.clone();
        let mut kept = None;
        // One at a time: an observer that throws (`pop` on an empty stack) is left out, not the others.
        for statement in full.statements[test.statements.len()..].iter() {
            let mut longer = test.clone();
            longer.statements.push(statement.clone());
            let run = sandbox.run_isolated(&longer.to_json(&session.program), elected.seed, &Watch::default(), true)?;
            if run.outcome == Outcome::Passed {
                test = longer;
                kept = Some(run);
            }
        }
        if let Some(run) = kept {
            elected.test = test;
            elected.results = run.results;
        }
    }
    Ok(())
}

/// The user's files, in the order they were given.
fn given_files(session: &Session) -> Vec<PathBuf> {
    session.program.files.iter().filter(|f| f.given).map(|f| f.path.clone()).collect()
}

/// The ranges of the methods (and constructors) under test, and the mutants made inside them.
fn create_mutants(session: &Session, tests: &[SuiteTest], constructors: bool) -> Vec<Mutant> {
    let program = &session.program;
    let code = &session.code;
    // (file, start, end, class, method) of every function under test.
    let mut targets: Vec<(usize, u32, u32, ClassId, String)> = Vec::new();
    let mut add = |class: ClassId, method: &str, function: Option<&crate::program::FunctionRef>| {
        let Some(function) = function.filter(|f| !f.statements.is_empty()) else { return };
        if let Some((file, f)) = code.function_of_statement(function.statements.start)
            && !targets.iter().any(|t| t.0 == file && t.1 == f.start && t.2 == f.end)
        {
            targets.push((file, f.start, f.end, class, method.to_string()));
        }
    };
    for m in &session.methods {
        add(m.class, &m.method, m.function.as_ref());
    }
    if constructors {
        for (id, class) in program.classes.iter().enumerate() {
            let tested = session.methods.iter().any(|m| m.class == id);
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
        for edit in operators::edits(parsed, &ranges) {
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

/// A mutant's sandbox, or why there is none.
enum Built {
    Sandbox(Sandbox),
    /// The edit does not parse.
    Invalid,
    /// The mutated code fails to load: every test fails.
    Fails(String),
}

fn mutant_sandbox(session: &Session, mutant: &Mutant, expressions: &[String]) -> Result<Built> {
    let mut sources = SourceSet::load(&given_files(session))?;
    let Some(entry) = sources.entries.get_mut(mutant.file) else {
        return Err(Error::Engine(format!("the files changed while mutating: {} is gone", mutant.file)));
    };
    let text = mutant.edit.apply(entry.parsed.text());
    let (path, display, kind) = (entry.parsed.path.clone(), entry.parsed.display.clone(), entry.parsed.kind);
    match parse_source(&path, &display, text) {
        Ok(parsed) if parsed.kind == kind => entry.parsed = parsed,
        _ => return Ok(Built::Invalid),
    }
    let code = CodeBase::new(sources, false);
    let mut sandbox = match Sandbox::new(&code, session.settings().limits.clone()) {
        Ok(sandbox) => sandbox,
        Err(Error::Load { message, .. }) => return Ok(Built::Fails(format!("the code fails to load: {message}"))),
        Err(e) => return Err(e),
    };
    if let Err(e) = sandbox.bind_classes(expressions) {
        return Ok(Built::Fails(format!("a class is no longer found: {e}")));
    }
    Ok(Built::Sandbox(sandbox))
}

/// The elected-test form of a run of `test`: what the exported test would assert.
fn as_elected(test: &SuiteTest, run: &Execution) -> ElectedTest {
    ElectedTest {
        test: test.test.clone(),
        results: run.results.clone(),
        outcome: run.outcome.clone(),
        new_lines: Vec::new(),
        own_message: test.own_message,
        seed: test.seed,
        covers: Vec::new(),
        branches: Vec::new(),
        minimized: true,
    }
}

/// How a run on a mutant differs from the original's.
struct Kill {
    reason: String,
    /// Statements whose assertions failed.
    calls: Vec<usize>,
}

/// Whether `run` (on a mutant) fails the test that `baseline` is the original run of, and why.
fn verdict(session: &Session, baseline: &ElectedTest, run: &Execution) -> Option<Kill> {
    let program = &session.program;
    let test = &baseline.test;
    let kill = |reason: String| Some(Kill { reason, calls: Vec::new() });
    let thrown_text = |thrown: &Thrown| match thrown {
        Thrown::Error { name, message, .. } => format!("{name}: {message}"),
        Thrown::Value(v) => format!("a non-error value {v}"),
    };
    match (&baseline.outcome, &run.outcome) {
        (_, Outcome::TimedOut | Outcome::OutOfMemory | Outcome::StackOverflow { .. }) => {
            return kill(run.outcome.describe(&session.settings().limits));
        }
        (Outcome::Passed, Outcome::Threw { at, thrown }) => {
            return kill(format!("`{}` threw {}", test.callee(*at, program), thrown_text(thrown)));
        }
        (Outcome::Threw { .. }, Outcome::Passed) => return kill("the expected error is no longer thrown".into()),
        (Outcome::Threw { at, thrown }, Outcome::Threw { at: now, thrown: instead }) => {
            let same = at == now
                && match (thrown, instead) {
                    (Thrown::Error { name, message, .. }, Thrown::Error { name: n, message: m, .. }) => {
                        name == n && (!baseline.own_message || message == m)
                    }
                    (a, b) => a == b,
                };
            if !same {
                return kill(format!(
                    "`{}` threw {} instead of {}",
                    test.callee(*now, program),
                    thrown_text(instead),
                    thrown_text(thrown)
                ));
            }
        }
        _ => {}
    }
    // Assertions, call by call, so that the calls whose assertions kill are known.
    let mut failed: Option<Kill> = None;
    for result in &baseline.results {
        let only = |results: Vec<crate::sandbox::DescribedResult>| ElectedTest {
            results,
            outcome: Outcome::Passed,
            ..baseline.clone()
        };
        let expected = manifest::assertions(program, &only(vec![result.clone()]));
        let actual =
            manifest::assertions(program, &only(run.results.iter().filter(|r| r.at == result.at).cloned().collect()));
        if let Some(line) = expected.iter().find(|line| !actual.contains(line)) {
            let kill = failed.get_or_insert_with(|| Kill { reason: format!("fails `{line}`"), calls: Vec::new() });
            kill.calls.push(result.at);
        }
    }
    failed
}

/// Random tests that hit a limit on the original after which the equivalence check of a mutant stops.
const LIMITED_TESTS: usize = 5;

/// Runs random tests on the original and on a surviving mutant; returns whether one told them apart,
/// and how many ran.
fn distinguish(
    session: &Session,
    original: &mut Sandbox,
    mutant_sandbox: &mut Sandbox,
    mutant: &Mutant,
    tests: usize,
    rng: &mut StdRng,
) -> Result<(bool, u64)> {
    // Half the tests call the mutated method last, with observers after it; the other half test other
    // methods of its class, where it is often called earlier and the later calls see what it left.
    let own = |i: &usize| session.methods[*i].class == mutant.class && session.methods[*i].method == mutant.method;
    let mut methods: Vec<usize> =
        (0..session.methods.len()).filter(|i| session.methods[*i].class == mutant.class).collect();
    if methods.is_empty() {
        methods = (0..session.methods.len()).collect();
    }
    let mutated: Vec<usize> = methods.iter().copied().filter(own).collect();
    if !mutated.is_empty() {
        methods = methods.into_iter().flat_map(|i| if own(&i) { vec![i] } else { vec![mutated[0], i] }).collect();
    }
    if methods.is_empty() {
        return Ok((false, 0));
    }
    let settings = session.settings();
    let (mut valid, mut runs, mut limited) = (0, 0, 0);
    // Candidates with parameters of unknown type cannot be compared: give up after a few of those.
    for attempt in 0..tests * 4 {
        if valid == tests {
            break;
        }
        let m = &session.methods[methods[attempt % methods.len()]];
        let request = Request {
            program: &session.program,
            types: &session.types,
            settings: &settings.generation,
            constants: &m.constants,
            class: m.class,
            method: &m.method,
            elected: &[],
            hazards: &session.hazards,
        };
        let test = generate(&request, rng);
        let seed = rng.random::<u32>();
        if !test.is_valid() {
            continue;
        }
        valid += 1;
        let test = observed(&session.program, &test, true);
        let json = test.to_json(&session.program);
        let base = original.run_isolated(&json, seed, &Watch::default(), true)?;
        if base.outcome.hit_limit() {
            // Each costs a whole time limit and compares nothing: code that often hits limits (slow or
            // endless for most inputs) gets fewer tests, counted rather than timed so the seed decides.
            limited += 1;
            if limited == LIMITED_TESTS {
                break;
            }
            continue;
        }
        let mut run = mutant_sandbox.run_isolated(&json, seed, &Watch::default(), true)?;
        if run.outcome == Outcome::TimedOut {
            // A test near the time limit can cross it on a busy machine: a mutant that loops does so
            // again.
            run = mutant_sandbox.run_isolated(&json, seed, &Watch::default(), true)?;
        }
        runs += 1;
        let probe = SuiteTest { title: String::new(), test, seed, own_message: true, asserts: None };
        if verdict(session, &as_elected(&probe, &base), &run).is_some() {
            return Ok((true, runs));
        }
    }
    Ok((false, runs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Statement, Variable};
    use crate::sandbox::DescribedResult;

    /// `list.add(1); list.size()` (the method under test) then the observers `isEmpty()` and `toArray()`.
    fn observed_test(seed: u32) -> ElectedTest {
        let call =
            |method: &str| Statement::Call { receiver: 0, method: method.into(), args: Vec::new(), under_test: true };
        let result = |at: usize| DescribedResult { at, value: serde_json::json!({"t": "n", "v": "1"}), state: None };
        ElectedTest {
            test: TestCase {
                class: 0,
                method: "size".into(),
                variables: vec![Variable { class: 0, name: "list".into() }],
                statements: vec![
                    Statement::Construct { variable: 0, class: 0, args: Vec::new() },
                    Statement::Call { receiver: 0, method: "add".into(), args: Vec::new(), under_test: false },
                    call("size"),
                    call("isEmpty"),
                    call("toArray"),
                ],
            },
            results: vec![result(2), result(3), result(4)],
            outcome: Outcome::Passed,
            new_lines: Vec::new(),
            own_message: false,
            branches: Vec::new(),
            seed,
            covers: Vec::new(),
            minimized: true,
        }
    }

    fn analysis(killing_calls: Vec<BTreeSet<usize>>, kills: Vec<usize>) -> Analysis {
        Analysis { tests: Vec::new(), mutants: Vec::new(), killing_calls, kills, runs: 0, elapsed: Duration::ZERO }
    }

    fn shape(e: &ElectedTest) -> (Vec<usize>, Vec<bool>) {
        let flags = e
            .test
            .statements
            .iter()
            .filter_map(|s| if let Statement::Call { under_test, .. } = s { Some(*under_test) } else { None })
            .collect();
        (e.results.iter().map(|r| r.at).collect(), flags)
    }

    #[test]
    fn strengthen_keeps_only_killing_assertions_and_drops_idle_observers() {
        let mut suite = Suite {
            elected: vec![observed_test(1), observed_test(2), observed_test(3)],
            failing: Vec::new(),
            ..Suite::default()
        };
        let kills_by_observer: BTreeSet<usize> = [3].into();
        strengthen(&mut suite, &analysis(vec![kills_by_observer, BTreeSet::new(), BTreeSet::new()], vec![1, 0, 2]));
        // Only `isEmpty()` killed: the assertion on `size()` goes, `toArray()` is dropped whole, and the
        // calls no longer asserted are no longer described.
        assert_eq!(shape(&suite.elected[0]), (vec![3], vec![false, false, true]));
        assert_eq!(suite.elected[0].test.statements.len(), 4);
        // A test that kills nothing keeps its own assertions, without the observers.
        assert_eq!(shape(&suite.elected[1]), (vec![2], vec![false, true]));
        // A test that kills only by a limit keeps its own assertions too: none would assert nothing.
        assert_eq!(shape(&suite.elected[2]), (vec![2], vec![false, true]));
    }

    #[test]
    fn scores_leave_equivalent_and_invalid_mutants_out() {
        let score = Score { killed: 8, survived: 1, equivalent: 5, uncovered: 1 };
        assert_eq!(score.percent(), Some(80.0));
        assert_eq!(score.total(), 15);
        assert_eq!(Score::default().percent(), None);
    }
}
