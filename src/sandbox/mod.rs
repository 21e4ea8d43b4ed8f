//! The sandbox: QuickJS contexts holding the instrumented program, and test execution under limits.
//!
//! A context has ECMAScript built-ins only (QuickJS adds no host objects: no file system, network,
//! process or timers) plus Flycatcher's harness (`harness.js`). Every test runs with a time limit (the
//! interrupt handler), a stack limit (runaway recursion becomes a catchable `RangeError`) and a memory
//! limit for the runtime. A context is reused between tests only while no test can observe another:
//! a test that wrote shared state (the instrumenter marks each such write, see `instrument/writes.rs`)
//! has it undone from a journal after it; when that cannot be exact (a collection changed by a method
//! call, an accessor, `Object.defineProperty`), after a test ended abnormally, and always after running
//! out of memory, the next test gets a fresh runtime and context, loaded from bytecode compiled once.

pub mod code;
mod engine;
pub mod events;
mod ieee754;
mod pool;
mod qjs;

use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

pub use code::CodeBase;
pub use engine::WORK_PER_MS;
pub use events::{CallArguments, PatternNote, ProxyEvent};

use crate::error::{Error, Result};
use crate::js::{CLASSES, MISSING_GLOBALS, PRIMORDIALS};
use crate::model::observed::{DescribedResult, Outcome};
use crate::model::program::ClassId;
use crate::model::settings::Limits;
use code::SourcePositions;
pub use engine::{BareProgram, Comparison, Operand, Relation, Test, instrumented_position, with_bare_context};
use engine::{Deadline, Engine};

/// Which probes a test reads (and clears before it runs): the method under test's, and the private
/// helpers' it reaches. Each list holds ranges of whole functions; a run reports what it covered as
/// offsets into the ranges laid end to end, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Watch {
    /// Statement ids.
    pub statements: Vec<std::ops::Range<u32>>,
    /// Branch ids.
    pub branches: Vec<std::ops::Range<u32>>,
}

impl Watch {
    /// The probes of one range of statements and one of branches.
    pub fn of(statements: std::ops::Range<u32>, branches: std::ops::Range<u32>) -> Watch {
        Watch { statements: vec![statements], branches: vec![branches] }
    }

    /// The offset of statement `id` in the watch, if it is watched.
    pub(crate) fn statement_offset(&self, id: u32) -> Option<u32> {
        offset_in(&self.statements, id)
    }

    /// The offset of branch outcome `id` in the watch, if it is watched.
    pub(crate) fn branch_offset(&self, id: u32) -> Option<u32> {
        offset_in(&self.branches, id)
    }

    /// The statement id at `offset` in the watch.
    pub(crate) fn statement_id(&self, offset: u32) -> Option<u32> {
        id_at(&self.statements, offset)
    }

    /// The branch id at `offset` in the watch.
    pub(crate) fn branch_id(&self, offset: u32) -> Option<u32> {
        id_at(&self.branches, offset)
    }
}

/// Where `id` lies in `ranges` laid end to end.
fn offset_in(ranges: &[std::ops::Range<u32>], id: u32) -> Option<u32> {
    let mut base = 0;
    for range in ranges {
        if range.contains(&id) {
            return Some(base + id - range.start);
        }
        base += range.len() as u32;
    }
    None
}

/// The id at `offset` of `ranges` laid end to end.
fn id_at(ranges: &[std::ops::Range<u32>], mut offset: u32) -> Option<u32> {
    for range in ranges {
        let len = range.len() as u32;
        if offset < len {
            return Some(range.start + offset);
        }
        offset -= len;
    }
    None
}

/// What running one test produced.
#[derive(Debug, Clone)]
pub struct Execution {
    /// How it ended.
    pub outcome: Outcome,
    /// What the recording proxies saw.
    pub events: Vec<ProxyEvent>,
    /// The regular expressions that values from the test's arguments met.
    pub patterns: Vec<PatternNote>,
    /// Watched statements that ran, as offsets into the watched range.
    pub statements: Vec<u32>,
    /// Watched branch outcomes that happened, as offsets into the watched range.
    pub branches: Vec<u32>,
    /// Watched branch outcomes whose condition was evaluated but never took them, as offsets into the
    /// watched range, with the smallest branch distance to them seen in the run (above 0; 1 when it
    /// could not be measured; see [`crate::js::DISTANCES`]); only when the run measured them (see
    /// [`Sandbox::set_measuring`]).
    pub distances: Vec<(u32, f64)>,
    /// The comparisons of measured conditions that came out unequal, the last ones of the run (only
    /// when it measured distances): what the input met where it went no further.
    pub comparisons: Vec<Comparison>,
    /// Descriptions of results of the method under test (describe mode only).
    pub results: Vec<DescribedResult>,
    /// Index of the test statement a time or memory limit cut off (stack overflows say it in the
    /// outcome).
    pub cut_at: Option<usize>,
    /// Test statements whose results were promises, which the test awaited.
    pub awaited: Vec<usize>,
    /// The statement whose awaited promise stalled the test: pending with no job or timer left to
    /// settle it (the test ends as timed out, as it would under a runner).
    pub stalled: Option<usize>,
    /// Calls that returned a new instance of a class of the program, as (statement, class): what
    /// generation learns to bind results from.
    pub returned: Vec<(usize, ClassId)>,
    /// Calls that returned a function of the code under test, as (statement, its `length`, its `name`):
    /// what generation learns to call results from.
    pub functions: Vec<(usize, usize, String)>,
    /// The built-in the test changed (`Array.prototype.push`), as far as an isolated run checks: such
    /// a test cannot be a regression test, since under a real runner the change outlives it.
    pub changed_builtin: Option<String>,
    /// The work the test did, in QuickJS's interrupt checks (see [`WORK_PER_MS`]): unlike its time, the
    /// same on any machine.
    pub work: u64,
    /// Whether the wall-clock cap of its time limit ended it rather than its work limit: a machine too
    /// busy to do the work its limit allows in time, where a quieter one would have let it go on, so
    /// what was decided on it may differ there.
    pub time_capped: bool,
}

impl Execution {
    /// An execution that ended with `outcome` and nothing else read (a limit cut the test off at
    /// statement `cut_at`, or the harness could not read more).
    pub(crate) fn ended(outcome: Outcome, cut_at: Option<usize>) -> Execution {
        Execution {
            outcome,
            events: Vec::new(),
            patterns: Vec::new(),
            statements: Vec::new(),
            branches: Vec::new(),
            distances: Vec::new(),
            comparisons: Vec::new(),
            results: Vec::new(),
            cut_at,
            awaited: Vec::new(),
            stalled: None,
            returned: Vec::new(),
            functions: Vec::new(),
            changed_builtin: None,
            work: 0,
            time_capped: false,
        }
    }

    /// Index of the test statement that was running when a limit ended the test.
    pub fn limit_hit_at(&self) -> Option<usize> {
        match self.outcome {
            Outcome::StackOverflow { at } => Some(at),
            Outcome::TimedOut | Outcome::OutOfMemory => self.cut_at,
            _ => None,
        }
    }

    /// Index of the test statement that threw or that a limit ended, when known.
    pub fn failed_at(&self) -> Option<usize> {
        match self.outcome {
            Outcome::Threw { at, .. } => Some(at),
            _ => self.limit_hit_at(),
        }
    }
}

/// What discovery found in the sandbox.
#[derive(Debug, Clone)]
pub struct Found {
    /// The classes: those the walk met, then those made by factories.
    pub classes: Vec<FoundClass>,
    /// The plain functions the walk met that make no class (a factory of plain objects is one), in walk
    /// order.
    pub functions: Vec<FoundFunction>,
}

/// A plain function discovery met on its walk: a function of a module (or a namespace object), or a
/// static method of a class.
#[derive(Debug, Clone, Deserialize)]
pub struct FoundFunction {
    /// Root index, then property names from the root.
    pub path: Vec<serde_json::Value>,
    /// The function's `name`.
    pub name: String,
    /// Every coverage probe in its text.
    pub probes: Vec<u32>,
    /// Its `length`.
    pub length: usize,
    /// Whether a class holds it (a static method) rather than a module or a namespace object.
    pub in_class: bool,
}

/// A class as discovery found it in the sandbox.
#[derive(Debug, Clone, Deserialize)]
pub struct FoundClass {
    /// Root index, then property names from the root.
    pub path: Vec<serde_json::Value>,
    /// Index in the harness's class table.
    pub index: usize,
    /// Index of its parent class in the same table, or -1.
    pub parent: i64,
    /// What it defines.
    pub info: FoundMembers,
    /// Set when the class was found through the factory at `path` rather than on the walk.
    #[serde(default)]
    pub factory: Option<FoundFactory>,
}

/// A function whose calls return instances of a class the walk did not meet (`module.exports = createTree`).
#[derive(Debug, Clone, Deserialize)]
pub struct FoundFactory {
    /// Which of the harness's argument lists made the instance (`__fc$viaFactory` makes one the same way).
    pub kind: usize,
    /// The function's `name`.
    pub name: String,
    /// Every coverage probe in its text.
    pub probes: Vec<u32>,
    /// Its `length`.
    pub length: usize,
    /// Whether it makes plain objects of closures (`{ addNode() {...}, ... }`) rather than instances of a
    /// class: the unit is then what it makes, whose methods are the object's function members.
    #[serde(default)]
    pub plain: bool,
}

/// The members of a found class.
#[derive(Debug, Clone, Deserialize)]
pub struct FoundMembers {
    /// Every coverage probe in the constructor's text (for a `class`, in all its members).
    pub probes: Vec<u32>,
    /// Whether it is written with `class`.
    pub is_class: bool,
    /// The constructor's `length`.
    pub length: usize,
    /// Prototype methods, nearest prototype first.
    pub methods: Vec<FoundMethod>,
    /// Accessor properties of the prototypes.
    pub accessors: Vec<String>,
    /// Methods the constructor put on the instance.
    pub own: Vec<FoundMethod>,
    /// Data fields of an instance built with inert arguments.
    pub fields: Vec<String>,
    /// The constructor's `name`.
    #[serde(default)]
    pub name: String,
    /// Its own static members that tests may use: its functions, and its getters and fields whose value
    /// is an instance of it.
    #[serde(default)]
    pub statics: Vec<FoundStatic>,
}

/// A static member of a class that discovery found.
#[derive(Debug, Clone, Deserialize)]
pub struct FoundStatic {
    /// Property name.
    pub name: String,
    /// Every coverage probe in its text (none for a property).
    pub probes: Vec<u32>,
    /// Its `length` (0 for a property).
    pub length: usize,
    /// Whether a call of it (or its value, for a property) made an instance of the class.
    pub made: bool,
    /// For a function, which of the harness's static trials tells `made` (asked after the walk).
    #[serde(default)]
    pub trial: Option<usize>,
    /// Whether it is a getter or a data field rather than a function: read, not called.
    pub property: bool,
}

/// A method found on a prototype or an instance.
#[derive(Debug, Clone, Deserialize)]
pub struct FoundMethod {
    /// Property name.
    pub name: String,
    /// Every coverage probe in its text.
    pub probes: Vec<u32>,
    /// Its `length`.
    pub length: usize,
    /// 0 for the class's own prototype, more for prototypes further up.
    #[serde(default)]
    pub depth: usize,
    /// The name under which the same function object was found first, when this is an alias.
    #[serde(default)]
    pub alias: Option<String>,
}

/// Runs tests against one program.
pub struct Sandbox {
    code: Arc<engine::Sources>,
    limits: Limits,
    deadline: Arc<Deadline>,
    /// The work (interrupt checks) loading the program did the first time.
    loaded_work: u64,
    engine: Option<Engine>,
    /// The context tests run alone in (see [`Sandbox::run_isolated`]), kept while every test run in it
    /// left it as the program loaded.
    alone: Option<Engine>,
    /// JavaScript that fills the harness's class table in a fresh context, once classes are known.
    bind_classes: Option<String>,
    fresh_each_test: bool,
    engine_used: bool,
    /// How many times the shared context was built.
    contexts: u64,
    /// Whether [`Sandbox::run`] measures branch distances (when the code is instrumented for them).
    measuring: bool,
    /// Most work one test may do besides its time limit (see [`Sandbox::set_work_limit`]).
    work_limit: Option<u64>,
    /// The built-in a test changed in the shared context, until [`Sandbox::take_builtin_change`].
    builtin_change: Option<String>,
    /// The engine reports positions in the instrumented code: errors and messages show the user's.
    positions: Rc<SourcePositions>,
    /// Whether the built-ins' guard reads objects in place (see [`Sandbox::set_reading_in_place`]).
    reading_in_place: bool,
    /// The mutant tests run under, in a program of mutant schemata (see [`Sandbox::set_mutant`]).
    mutant: u32,
    /// The sequences [`Sandbox::run_in_sequence`] ran: each gives uninitialised memory a salt of its own
    /// (see [`Engine::vary_uninitialized`]).
    sequences: u32,
}

impl Sandbox {
    /// Loads the program in a first context. Errors name the file that failed to load.
    pub fn new(code: &CodeBase, limits: Limits) -> Result<Sandbox> {
        Sandbox::load(code, engine::Sources::new(code), limits)
    }

    /// Loads `code`, a variant of the program `original` runs (a mutant: all its files but one are the
    /// original's), compiling only the files `original` has not.
    pub fn new_beside(code: &CodeBase, limits: Limits, original: &Sandbox) -> Result<Sandbox> {
        Sandbox::load(code, engine::Sources::new(code).beside(&original.code), limits)
    }

    /// Loads the program for recording (see `record`): the ES modules that file `entry` imports
    /// are given to it through a view whose class exports are the recorder's constructor proxies, and
    /// the program's `console` prints to standard output when `echo` is set. In generated tests it is
    /// silent: their sandbox stays host-free.
    pub fn for_recording(code: &CodeBase, limits: Limits, entry: usize, echo: bool) -> Result<Sandbox> {
        let mut sources = engine::Sources::new(code);
        sources.recorded_importer = Some(entry);
        sources.print_console = echo;
        Sandbox::load(code, sources, limits)
    }

    fn load(code: &CodeBase, sources: engine::Sources, limits: Limits) -> Result<Sandbox> {
        let sources = Arc::new(sources);
        pool::forget_unless(&sources);
        let deadline = Arc::new(Deadline::new());
        let engine =
            Engine::new(sources.clone(), &limits, deadline.clone(), true).map_err(|e| code.positions.locate(e))?;
        let positions = code.positions.clone();
        let code = sources;
        let loaded_work = engine.loaded_work.get();
        Ok(Sandbox {
            code,
            limits,
            deadline,
            loaded_work,
            engine: Some(engine),
            alone: None,
            bind_classes: None,
            fresh_each_test: false,
            engine_used: false,
            contexts: 1,
            measuring: false,
            work_limit: None,
            builtin_change: None,
            positions,
            reading_in_place: true,
            mutant: 0,
            sequences: 0,
        })
    }

    /// The work (interrupt checks) loading the program did.
    pub(crate) fn loaded_work(&self) -> u64 {
        self.loaded_work
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Changes the limits; memory and stack limits apply from the next fresh context.
    pub fn set_limits(&mut self, limits: Limits) {
        if limits.memory != self.limits.memory || limits.stack != self.limits.stack {
            self.engine = None;
            self.alone = None;
        }
        self.limits = limits;
    }

    /// Gives every test a fresh context (for code that keeps state between tests where no marked write
    /// shows it). The current context is dropped: discovery or earlier tests may have changed its state
    /// already.
    pub fn set_fresh_each_test(&mut self, fresh: bool) {
        if fresh {
            self.engine = None;
            self.alone = None;
        }
        self.fresh_each_test = fresh;
    }

    /// Whether every test gets a fresh context.
    pub fn fresh_each_test(&self) -> bool {
        self.fresh_each_test
    }

    /// How many times the context that [`Sandbox::run`] shares between tests was built, the first
    /// included: a measure of how well tests share it (contexts for tests run alone are not counted).
    pub fn contexts_built(&self) -> u64 {
        self.contexts
    }

    /// Stops every test after `work` interrupt checks (see [`Execution::work`]), besides its time limit:
    /// a limit that ends a test at the same point on a loaded machine as on a quiet one, for the
    /// decisions a suite depends on. `None` lifts it.
    pub fn set_work_limit(&mut self, work: Option<u64>) {
        self.work_limit = work;
        for engine in [&mut self.engine, &mut self.alone].into_iter().flatten() {
            engine.work_limit = work;
        }
    }

    /// Runs the tests from now on under mutant `id` of a program of mutant schemata (0: the original):
    /// every mutated spot reads the switch ([`crate::js::MUTANT`]), which the engine sets before each
    /// test, in every context this sandbox builds. Contexts still load the program as the original: a
    /// mutant whose code runs while it loads cannot be switched (see `mutate/schema.rs`).
    ///
    /// Another mutant's tests start in a new context, as on the mutant's own program: a context the last
    /// one's tests ran in may hold what they wrote where the journal does not see it (through a local
    /// alias: big.js's `mod` sets `Big.DP = 0` on `Big = x.constructor` and puts it back after a
    /// division, and a mutant that deletes its check for zero throws in between), and every later
    /// mutant would run on that state.
    pub fn set_mutant(&mut self, id: u32) {
        if id != self.mutant {
            self.engine = None;
            self.alone = None;
        }
        self.mutant = id;
    }

    /// The statements that ran in the context kept for tests since it was built and no test has run in
    /// it: those the program ran while it loaded, and those binding its classes ran if they are bound
    /// (a context is built if none is kept).
    pub fn statements_run_at_load(&mut self) -> Result<Vec<u32>> {
        let positions = self.positions.clone();
        let engine = match self.alone.as_ref() {
            Some(engine) => engine,
            None => self.engine_mut().map_err(|e| positions.locate(e))?,
        };
        engine.statements_run()
    }

    /// The globals Node has and the sandbox lacks (`Intl`, `URL`...) that the code read in the context kept
    /// for tests since it was built: asked once the program has loaded and no test has run, those it read
    /// while loading, whose absence sends every test down the path a library takes without them.
    pub fn globals_missing_at_load(&mut self) -> Result<Vec<String>> {
        let script = format!("{PRIMORDIALS}.join({PRIMORDIALS}.keys({MISSING_GLOBALS}), ',')");
        let names = self.evaluate(&script, "reading the globals the code missed")?;
        Ok(names.split(',').filter(|name| !name.is_empty()).map(String::from).collect())
    }

    /// Makes the check for a changed built-in after a test read the built-ins found unchanged in place,
    /// in QuickJS's own structures (`on`, the default: a few microseconds), or compare every one
    /// through QuickJS's C interface (about 27 us); both find the same changes.
    pub fn set_reading_in_place(&mut self, on: bool) {
        self.reading_in_place = on;
        for engine in [&mut self.engine, &mut self.alone].into_iter().flatten() {
            engine.set_reading_in_place(on);
        }
    }

    /// Makes [`Sandbox::run`] measure branch distances (or stop measuring them), when the code is
    /// instrumented for them; tests run alone or in sequence never do.
    pub fn set_measuring(&mut self, measuring: bool) {
        self.measuring = measuring;
    }

    /// Finds the classes reachable from `roots` (JavaScript expressions evaluated in the global scope
    /// after loading), walking plain objects up to `depth` levels. Must run before any test.
    /// Then each function met on the way that is not a class is tried as a factory: the class of what it
    /// returns, when the walk did not meet it, is found too (see [`FoundClass::factory`]).
    pub fn discover(&mut self, roots: &[String], depth: usize) -> Result<Found> {
        #[derive(Deserialize)]
        struct Walked {
            classes: Vec<FoundClass>,
            functions: Vec<FoundFunction>,
        }
        let positions = self.positions.clone();
        let engine = self.engine_mut().map_err(|e| positions.locate(e))?;
        let json = engine.discover(roots, depth).map_err(|e| positions.locate(e))?;
        let walked: Walked =
            serde_json::from_str(&json).map_err(|e| Error::Engine(format!("discovery answered badly: {e}")))?;
        let mut found = Found { classes: walked.classes, functions: Vec::new() };
        for (index, function) in walked.functions.into_iter().enumerate() {
            // A function that throws, loops or answers nothing usable makes no class.
            let made = engine.discover_made(index).filter(|json| !json.is_empty());
            match made.and_then(|json| serde_json::from_str::<FoundClass>(&json).ok()) {
                // A factory of plain objects is a function under test too: only its objects are the unit.
                Some(class) if class.factory.as_ref().is_some_and(|f| f.plain) => {
                    found.classes.push(class);
                    found.functions.push(function);
                }
                Some(class) => found.classes.push(class),
                None => found.functions.push(function),
            }
        }
        for member in found.classes.iter_mut().flat_map(|c| c.info.statics.iter_mut()) {
            if let Some(trial) = member.trial {
                // A call that throws or loops made no instance.
                member.made = engine.discover_static_made(trial).unwrap_or(false);
            }
        }
        if engine.changed_builtins(true).is_some() || !engine.restore_shared_state() {
            // Discovery built instances and called factories: they changed a built-in or shared state,
            // which no test may see.
            self.engine = None;
        }
        Ok(found)
    }

    /// Sets the expressions that reach each class in a fresh context, in ProgramInfo order.
    pub fn bind_classes(&mut self, expressions: &[String]) -> Result<()> {
        // Indexes, not `push`: the code under test may have patched `Array.prototype.push` while loading.
        let script = format!(
            "{CLASSES}.length = 0; {}",
            expressions.iter().enumerate().map(|(i, e)| format!("{CLASSES}[{i}] = ({e});")).collect::<String>()
        );
        // The context used for discovery has its table in discovery order: rebind it too.
        let positions = self.positions.clone();
        self.engine_mut().and_then(|e| e.eval_setup(&script, "binding classes")).map_err(|e| positions.locate(e))?;
        self.bind_classes = Some(script);
        // A context for tests run alone has the table it was built with: the next one gets this one.
        self.alone = None;
        Ok(())
    }

    /// Makes the context the program was loaded in (and its classes bound in) the one tests run alone in
    /// (see [`Sandbox::run_isolated`]), when no test has run in it yet: for a sandbox whose tests all run
    /// alone (a mutant's), where building a second context cost as much as loading the code.
    pub fn keep_loaded_for_tests_alone(&mut self) {
        if !self.engine_used && !self.fresh_each_test && self.alone.is_none() {
            self.alone = self.engine.take();
        }
    }

    /// Runs one test in the shared context, describing nothing; `seed` seeds every random choice made
    /// inside the sandbox; `watch` says which probes to report.
    pub fn run(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Execution> {
        if self.fresh_each_test && self.engine_used {
            self.engine = None;
        }
        let (limit, measuring) = (self.limits.test_time, self.measuring);
        let shared = !self.fresh_each_test;
        let positions = self.positions.clone();
        let engine = self.engine_mut().map_err(|e| positions.locate(e))?;
        let execution = engine.run(test, seed, watch, false, measuring, limit).map_err(|e| positions.locate(e))?;
        let broken = engine.broken;
        let changed = if shared { engine.changed_builtins(false) } else { None };
        let wrote = shared && !engine.restore_shared_state();
        self.engine_used = true;
        if execution.outcome.hit_limit() || broken || wrote {
            // Whatever the test was doing when it was cut off may be half done, and what it wrote to
            // shared state the next test would see: start clean.
            self.engine = None;
        }
        if changed.is_some() {
            // Like a test that wrote shared state: no later test may see what it did.
            self.set_fresh_each_test(true);
            self.builtin_change = changed;
        }
        Ok(positions.locate_execution(execution))
    }

    /// The built-in (`Array.prototype.push`) whose change by a test made every test run in a fresh
    /// context since the last call, if one did.
    pub fn take_builtin_change(&mut self) -> Option<String> {
        self.builtin_change.take()
    }

    /// Runs one test alone, as an exported test runs: in a context where no earlier test left anything
    /// it could observe, without touching the shared context. That context is kept for the next test run
    /// alone on the same terms as the shared one (see [`Sandbox::run`]): while no test wrote shared state
    /// that the journal could not undo, changed a built-in (every built-in is checked here) or ended
    /// abnormally. Building a context per test cost far more than most tests (the built-ins' snapshot
    /// alone); code that keeps state the analysis missed still gets a new context for every test once
    /// [`Sandbox::set_fresh_each_test`] is on.
    pub fn run_isolated(&mut self, test: Test, seed: u32, watch: &Watch, describe: bool) -> Result<Execution> {
        let mut runs = self.run_alone(test, seed, watch, describe, 1)?;
        Ok(runs.remove(0))
    }

    /// Runs one test alone as [`Sandbox::run_isolated`] does, then once more in the same context, which
    /// still holds what the first run left in shared state: as a runner that loads the code once runs a
    /// test after another that did the same. Describes the results; the second run is left out when the
    /// first was cut off by a limit.
    pub fn run_isolated_twice(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Vec<Execution>> {
        self.run_alone(test, seed, watch, true, 2)
    }

    /// Runs `test` up to `times` in a row in the context tests run alone in, undoing what they wrote
    /// after the last: stops after a run cut off by a limit or that broke the engine.
    fn run_alone(
        &mut self,
        test: Test,
        seed: u32,
        watch: &Watch,
        describe: bool,
        times: usize,
    ) -> Result<Vec<Execution>> {
        // Never kept under `fresh_each_test` (see below and `set_fresh_each_test`).
        let run = self.alone.take().map_or_else(|| self.engine_for_tests_alone(), Ok).and_then(|mut e| {
            let mut executions = Vec::with_capacity(times);
            let mut clean = true;
            while clean && executions.len() < times {
                // Runs after the first see other bytes in uninitialised memory, as another run of a suite does.
                e.vary_uninitialized(executions.len() as u32);
                let mut execution = e.run(test, seed, watch, describe, false, self.limits.test_time)?;
                execution.changed_builtin = e.changed_builtins(true);
                clean = !execution.outcome.hit_limit() && !e.broken && execution.changed_builtin.is_none();
                executions.push(execution);
            }
            if clean && !self.fresh_each_test && e.restore_shared_state() {
                self.alone = Some(e);
            }
            Ok(executions)
        });
        let located = run.map_err(|e| self.positions.locate(e))?;
        Ok(located.into_iter().map(|execution| self.positions.locate_execution(execution)).collect())
    }

    /// Runs one test in a context built for it and dropped after it, describing nothing: what the test
    /// does where nothing ran before it, not even the tests run alone (see `session/election.rs`).
    pub fn run_in_new_context(&mut self, test: Test, seed: u32, watch: &Watch) -> Result<Execution> {
        let located = |e| self.positions.locate(e);
        let mut engine = self.new_engine(false).map_err(located)?;
        let execution = engine.run(test, seed, watch, false, false, self.limits.test_time).map_err(located)?;
        Ok(self.positions.locate_execution(execution))
    }

    /// Runs tests one after another in one new context, describing their results, as a runner that loads
    /// the code once would run them; leaves the reused context as it was. A test cut off by a limit is
    /// followed by a new context, and so is every test once the code was seen to keep state the journal
    /// does not undo ([`Sandbox::fresh_each_test`]): the exported suites load the code afresh for each
    /// test, and a static method's `this[p] = v` on its constructor would otherwise reach the next test.
    /// Uninitialised memory holds other bytes in each sequence (see [`Engine::vary_uninitialized`]).
    pub fn run_in_sequence(&mut self, tests: &[(&str, u32, &Watch)]) -> Result<Vec<Execution>> {
        let apart = self.fresh_each_test;
        self.sequences += 1;
        self.sequence(tests, false, apart)
    }

    /// Runs tests as [`Sandbox::run_in_sequence`] does, starting from the context kept for tests alone
    /// when there is one: the journal put it back as the program loaded, so it starts them as a new
    /// context would, without loading the program again (the equivalence check runs a few hundred such
    /// sequences per analysis). The context is kept again when its tests changed no built-in and the
    /// journal undoes what they wrote.
    pub fn run_in_sequence_from_kept(&mut self, tests: &[(&str, u32, &Watch)]) -> Result<Vec<Execution>> {
        self.sequence(tests, true, false)
    }

    /// `apart`: each test in a context of its own.
    fn sequence(&mut self, tests: &[(&str, u32, &Watch)], kept: bool, apart: bool) -> Result<Vec<Execution>> {
        let located = |e| self.positions.locate(e);
        let kept = kept && !self.fresh_each_test;
        let mut engine = match if kept { self.alone.take() } else { None } {
            Some(engine) => engine,
            None if kept => self.engine_for_tests_alone().map_err(located)?,
            None => self.new_engine(false).map_err(located)?,
        };
        let mut executions = Vec::with_capacity(tests.len());
        for (i, (test, seed, watch)) in tests.iter().enumerate() {
            if i > 0 && apart {
                engine = self.new_engine(kept).map_err(located)?;
            }
            if !kept {
                engine.vary_uninitialized(self.sequences);
            }
            let execution =
                engine.run(Test::Json(test), *seed, watch, true, false, self.limits.test_time).map_err(located)?;
            if execution.outcome.hit_limit() || engine.broken {
                engine = self.new_engine(kept).map_err(located)?;
            }
            executions.push(self.positions.locate_execution(execution));
        }
        if kept && engine.changed_builtins(true).is_none() && engine.restore_shared_state() {
            self.alone = Some(engine);
        }
        Ok(executions)
    }

    /// Evaluates Flycatcher's own JavaScript in the loaded context and returns its string answer
    /// (record mode installs and reads its recorder with this).
    pub fn evaluate(&mut self, script: &str, what: &str) -> Result<String> {
        let positions = self.positions.clone();
        self.engine_mut().and_then(|e| e.eval_string(script, what)).map_err(|e| positions.locate(e))
    }

    /// Runs file `index` of `code`, which loading held back (it was not given), within `limit`: record
    /// mode runs the entry script this way, once the classes it uses are wrapped. Errors name the
    /// user's file and line.
    pub fn run_file(&mut self, index: usize, limit: Duration) -> Result<()> {
        let positions = self.positions.clone();
        self.engine_mut().and_then(|e| e.run_file(index, limit)).map_err(|e| positions.locate(e))
    }

    /// A new engine with the classes bound; `guard`: for tests that share it (see [`Engine::new`]).
    fn new_engine(&self, guard: bool) -> Result<Engine> {
        let mut engine = Engine::new(self.code.clone(), &self.limits, self.deadline.clone(), guard)?;
        if let Some(script) = &self.bind_classes {
            engine.eval_setup(script, "binding classes")?;
        }
        engine.work_limit = self.work_limit;
        engine.mutant = self.mutant;
        if !self.reading_in_place {
            engine.set_reading_in_place(false);
        }
        Ok(engine)
    }

    /// A context for tests run alone: the one a sandbox of the same program left on this thread (see
    /// `pool.rs`), or a new one.
    fn engine_for_tests_alone(&self) -> Result<Engine> {
        let Some(mut engine) = pool::take(&self.code, self.bind_classes.as_deref(), &self.limits) else {
            let mut engine = self.new_engine(true)?;
            engine.mark_ready();
            return Ok(engine);
        };
        engine.work_limit = self.work_limit;
        engine.mutant = self.mutant;
        engine.set_reading_in_place(self.reading_in_place);
        Ok(engine)
    }

    fn engine_mut(&mut self) -> Result<&mut Engine> {
        if self.engine.is_none() {
            self.engine = Some(self.new_engine(!self.fresh_each_test)?);
            self.engine_used = false;
            self.contexts += 1;
        }
        Ok(self.engine.as_mut().expect("engine was just built"))
    }
}

impl Drop for Sandbox {
    /// The context kept for tests run alone is as the program loaded it (it is kept only then): put back
    /// as it was when new where it can be (see `engine/ready.rs`), the next sandbox of the program on this
    /// thread takes it instead of building one.
    fn drop(&mut self) {
        if let Some(mut engine) = self.alone.take()
            && !self.fresh_each_test
            && engine.as_ready()
        {
            pool::keep(engine, self.bind_classes.take(), &self.limits);
        }
    }
}
