//! Running one test in a loaded engine: the probes cleared, the harness's interpreter called under
//! the deadline, awaited promises settled, and what the test did read back.

use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rquickjs::{Array, Ctx, Function, Object, Persistent, TypedArray};

use super::arrays::{probes, statement_running};
use super::comparisons;
use super::describe::Descriptions;
use super::direct::Direct;
use super::log;
use super::results::{self, Keys};
use super::script::exception_text;
use super::{Deadline, Engine};
use crate::error::{Error, Result};
use crate::instrument::Implied;
use crate::js::{
    AT, AWAITED, BRANCHES, COMPARISONS, DISTANCES, EXEC, FAILURE, LOG, MEASURING, QUIET, RESULTS, RETURNED, SETTLED,
    SHARED_WRITE, STACK, STATEMENTS, TIMERS, UNDO, UNHANDLED,
};
use crate::model::observed::{Observed, Outcome, Thrown};
use crate::model::program::ProgramInfo;
use crate::model::test::TestCase;
use crate::sandbox::events::first_user_frame;
use crate::sandbox::qjs::Anchor;
use crate::sandbox::{Execution, Watch};

/// The harness's globals that every run reads, taken once the harness is installed: looking each one up
/// by name (an atom made from the text, then a property of the global object) for every test cost
/// more than the rest of reading a test back. They are non-writable, non-configurable properties (see
/// `harness.js` and [`Engine::new`]), so they stay the objects the names reach.
pub(super) struct Handles {
    exec: Persistent<Function<'static>>,
    /// The recording proxies' and the patterns' log of the test that ran (see `log.rs`).
    log: Persistent<Array<'static>>,
    at: Persistent<TypedArray<'static, u32>>,
    statements: Persistent<TypedArray<'static, u8>>,
    branches: Persistent<TypedArray<'static, u8>>,
    shared_write: Persistent<TypedArray<'static, u8>>,
    /// The journal's undo (see [`Engine::restore_shared_state`]), called after most tests of code that
    /// writes shared state.
    undo: Persistent<Function<'static>>,
    /// The timers' `nextLeft`, and the flag that says whether it may fire one (see `run_left_jobs`).
    next_left: Persistent<Function<'static>>,
    timers_left: Persistent<Object<'static>>,
    /// Where the harness leaves the error a test threw (most candidates throw one).
    failure: Persistent<Object<'static>>,
    /// The calls of the test that ran that returned new instances (see [`returned`]).
    returned: Persistent<Array<'static>>,
    /// The results of the test that ran (describing runs only), and their keys.
    results: Persistent<Array<'static>>,
    keys: Keys,
    /// The descriptions made for the test that ran (see `describe/`).
    descriptions: Rc<Descriptions>,
    direct: Direct,
}

impl Handles {
    /// The handles of an engine, which [`Engine::new`] always sets.
    pub(super) fn of(handles: &Option<Handles>) -> rquickjs::Result<&Handles> {
        handles.as_ref().ok_or_else(|| rquickjs::Error::new_from_js("undefined", "the harness's globals"))
    }

    /// The handles of `ctx`, whose tests are described in `descriptions`.
    pub(super) fn take(ctx: &Ctx, anchor: &Anchor, descriptions: Rc<Descriptions>) -> rquickjs::Result<Handles> {
        let globals = ctx.globals();
        let timers: Object = globals.get(TIMERS)?;
        Ok(Handles {
            exec: Persistent::save(ctx, globals.get::<_, Function>(EXEC)?),
            log: Persistent::save(ctx, globals.get::<_, Array>(LOG)?),
            returned: Persistent::save(ctx, globals.get::<_, Array>(RETURNED)?),
            at: Persistent::save(ctx, globals.get::<_, TypedArray<u32>>(AT)?),
            statements: Persistent::save(ctx, globals.get::<_, TypedArray<u8>>(STATEMENTS)?),
            branches: Persistent::save(ctx, globals.get::<_, TypedArray<u8>>(BRANCHES)?),
            shared_write: Persistent::save(ctx, globals.get::<_, TypedArray<u8>>(SHARED_WRITE)?),
            undo: Persistent::save(ctx, globals.get::<_, Function>(UNDO)?),
            next_left: Persistent::save(ctx, timers.get::<_, Function>("nextLeft")?),
            timers_left: Persistent::save(ctx, timers.get::<_, Object>("left")?),
            failure: Persistent::save(ctx, globals.get::<_, Object>(FAILURE)?),
            results: Persistent::save(ctx, globals.get::<_, Array>(RESULTS)?),
            keys: Keys::new(ctx, anchor),
            descriptions,
            direct: Direct::take(ctx)?,
        })
    }

    /// The statement probes (see [`crate::js::STATEMENTS`]).
    pub(super) fn statements<'js>(&self, ctx: &Ctx<'js>) -> rquickjs::Result<TypedArray<'js, u8>> {
        self.statements.clone().restore(ctx)
    }

    /// The flag code under test sets when it writes shared state (see [`Engine::restore_shared_state`]).
    pub(super) fn shared_write<'js>(&self, ctx: &Ctx<'js>) -> rquickjs::Result<TypedArray<'js, u8>> {
        self.shared_write.clone().restore(ctx)
    }

    /// The journal's undo.
    pub(super) fn undo<'js>(&self, ctx: &Ctx<'js>) -> rquickjs::Result<Function<'js>> {
        self.undo.clone().restore(ctx)
    }
}

/// A test to run.
#[derive(Debug, Clone, Copy)]
pub enum Test<'a> {
    /// In the harness interpreter's encoding ([`TestCase::to_json`]), which can say more than a
    /// [`TestCase`] (inspections after its last call).
    Json(&'a str),
    /// A test of the program's classes: its statements performed from Rust (see `direct.rs`).
    Case(&'a TestCase, &'a ProgramInfo),
}

impl Engine {
    /// Makes the next test's uninitialised memory (`Buffer.allocUnsafe`'s) hold bytes drawn from `salt`
    /// rather than zeros: runs that compare what a test asserts give each a salt of its own, so that
    /// bytes the code never wrote differ between them, as they do between two runs under Node.
    pub(crate) fn vary_uninitialized(&mut self, salt: u32) {
        self.salt = salt;
    }

    /// Runs one test. Whatever the test does, the answer is an execution: when the harness cannot read
    /// what the test did (the code under test broke something the harness needed, or the context ran out
    /// of memory while reading), the test ends as an `InternalError` and the engine is marked
    /// [`Engine::broken`], so that the next test gets a fresh one. Errors are the engine's own failures
    /// before the test ran.
    pub(crate) fn run(
        &mut self,
        test: Test,
        seed: u32,
        watch: &Watch,
        describe: bool,
        measuring: bool,
        limit: Duration,
    ) -> Result<Execution> {
        self.switch_mutant()?;
        let salt = std::mem::take(&mut self.salt);
        let sources = self.sources.clone();
        let deadline = self.deadline.clone();
        let (rejected, work_limit) = (self.rejected.clone(), self.work_limit);
        let mut broken = false;
        let execution = self.context.with(|ctx| {
            let engine_error = |e: rquickjs::Error| Error::Engine(exception_text(&ctx, e));
            let globals = ctx.globals();
            let measuring = measuring && sources.distances;
            let handles = Handles::of(&self.handles).map_err(engine_error)?;
            clear_probes(&ctx, handles, watch, sources.distances, measuring).map_err(engine_error)?;
            if rejected.swap(false, Ordering::Relaxed) {
                // Rejections of the load, or of a test whose end was not read: not this test's.
                globals.get::<_, Function>(UNHANDLED).and_then(|f| f.call::<_, String>(())).map_err(engine_error)?;
            }
            handles.descriptions.reset();
            let exec = handles.exec.clone().restore(&ctx).map_err(engine_error)?;
            let running = handles.at.clone().restore(&ctx).map_err(engine_error)?;
            deadline.set(limit);
            if let Some(work) = self.work_limit {
                deadline.limit_work(work);
            }
            let result = match test {
                // Deferred calls are kept and read at the end by the interpreter alone.
                Test::Case(case, program) if case.has_deferred() => {
                    exec.call::<_, String>((case.to_json(program), seed, describe, salt))
                }
                Test::Case(case, program) => {
                    handles.direct.run(&ctx, (case, program), (seed, salt), describe, &running)
                }
                Test::Json(json) => exec.call::<_, String>((json, seed, describe, salt)),
            };
            let awaiting = matches!(&result, Ok(info) if info == AWAITING);
            let stalled = awaiting && run_jobs(&ctx, &globals, &deadline).map_err(engine_error)?;
            let timed_out = deadline.passed();
            deadline.clear();
            let at = statement_running(&running);
            let read = |outcome: &mut Outcome| {
                let mut awaited = Vec::new();
                if awaiting {
                    let (settled, statements) = settle(&globals)?;
                    *outcome = outcome_of(&ctx, handles, settled, timed_out, true, &sources);
                    awaited = statements;
                }
                if *outcome == Outcome::OutOfMemory {
                    // Nothing more can be read reliably from a runtime at its memory limit.
                    let mut execution = Execution::ended(outcome.clone(), at);
                    execution.awaited = awaited;
                    return Ok(execution);
                }
                let mut execution = read_execution(&ctx, handles, watch, describe, measuring, &sources)?;
                execution.outcome = outcome.clone();
                execution.awaited = awaited;
                execution.stalled = if stalled { at } else { None };
                execution.cut_at = if outcome.hit_limit() { at } else { None };
                Ok::<_, rquickjs::Error>(execution)
            };
            let mut outcome = outcome_of(&ctx, handles, result.map_err(Some), timed_out, awaiting, &sources);
            let read = |outcome: &mut Outcome| {
                let mut execution = read(outcome)?;
                if matches!(execution.outcome, Outcome::Passed | Outcome::Threw { .. }) {
                    let left = run_left_jobs(&ctx, handles, &deadline, (limit, work_limit))?;
                    if left {
                        // What those jobs ran is the test's coverage too (the probes were not cleared).
                        (execution.statements, execution.branches) = covered(&ctx, handles, watch, &sources.implied)?;
                    }
                    // Timers fire only in a test that awaited or after one: only then can one have thrown.
                    let timers = left || !execution.awaited.is_empty();
                    if let Some(answer) = unhandled(&globals, &rejected, timers)? {
                        execution.outcome = outcome_of(&ctx, handles, Ok(answer), false, false, &sources);
                    }
                }
                Ok::<_, rquickjs::Error>(execution)
            };
            match read(&mut outcome) {
                Ok(execution) => Ok(execution),
                Err(e) => {
                    broken = true;
                    let text = exception_text(&ctx, e);
                    if text.contains("out of memory") {
                        return Ok(Execution::ended(Outcome::OutOfMemory, at));
                    }
                    let message = format!("Flycatcher could not read what the test did: {text}");
                    let thrown = Thrown::Error { name: "InternalError".into(), message, origin: None };
                    Ok(Execution::ended(Outcome::Threw { at: at.unwrap_or(0), thrown }, None))
                }
            }
        });
        self.broken |= broken;
        let by_time = self.deadline.ended_by_time();
        execution.map(|execution| Execution {
            work: self.deadline.work(),
            time_capped: execution.outcome == Outcome::TimedOut && by_time,
            ..execution
        })
    }
}

/// What `__fc$exec` (or `__fc$settled`) answered: its text, the exception it threw, or `Err(None)` when a
/// test that awaited never settled.
type Answer = std::result::Result<String, Option<rquickjs::Error>>;

/// How a test ended, from what the harness answered.
fn outcome_of(
    ctx: &rquickjs::Ctx,
    handles: &Handles,
    result: Answer,
    timed_out: bool,
    awaiting: bool,
    sources: &super::Sources,
) -> Outcome {
    match result {
        Ok(info) if info == AWAITING => Outcome::Passed,
        Ok(info) if info.is_empty() => Outcome::Passed,
        Ok(info) if info == THREW => outcome_of_failure(ctx, handles, sources),
        Ok(info) => outcome_of_thrown_value(&info),
        Err(None) => Outcome::TimedOut,
        Err(Some(rquickjs::Error::Allocation)) => Outcome::OutOfMemory,
        Err(Some(e)) => {
            let text = exception_text(ctx, e);
            if timed_out || awaiting || text.contains("interrupted") {
                Outcome::TimedOut
            } else if text.contains("out of memory") {
                Outcome::OutOfMemory
            } else {
                Outcome::Threw {
                    at: 0,
                    thrown: Thrown::Error { name: "InternalError".into(), message: text, origin: None },
                }
            }
        }
    }
}

/// How an awaiting test settled (see `__fc$settled`), and the statements whose promises it awaited.
fn settle<'js>(globals: &Object<'js>) -> rquickjs::Result<(Answer, Vec<usize>)> {
    let settled: Function = globals.get(SETTLED)?;
    // A test whose promise never settles (it waits for something that never comes) would fail under a
    // runner as well; it ends as if it had not finished.
    let result = match settled.call::<_, Option<String>>(())? {
        Some(info) => Ok(info),
        None => Err(None),
    };
    let list: Function = globals.get(AWAITED)?;
    let text: String = list.call(())?;
    Ok((result, text.split(',').filter_map(|i| i.parse().ok()).collect()))
}

/// The statements and branch outcomes the probes `watch` reads have marked since they were cleared,
/// with those the marked probes imply (a watch holds whole functions, or a function less the functions
/// nested in it, in several ranges: see [`Implied`]).
fn covered(ctx: &Ctx, handles: &Handles, watch: &Watch, implied: &Implied) -> rquickjs::Result<(Vec<u32>, Vec<u32>)> {
    let mut marked: Vec<Vec<u8>> = Vec::with_capacity(watch.statements.len());
    for range in &watch.statements {
        probes(handles.statements.clone().restore(ctx)?, range.clone(), |bytes| marked.push(bytes.to_vec()))?;
    }
    let probes_marked = marked.clone();
    let marked_elsewhere = |probe: u32| {
        watch.statements.iter().zip(&probes_marked).any(|(range, bytes)| {
            range.contains(&probe) && bytes.get((probe - range.start) as usize).is_some_and(|b| *b != 0)
        })
    };
    let mut statements = Vec::new();
    let mut base = 0;
    for (range, bytes) in watch.statements.iter().zip(&mut marked) {
        implied.expand_statements(range.clone(), bytes, marked_elsewhere);
        statements.extend(set_offsets(bytes).into_iter().map(|o| base + o));
        base += range.len() as u32;
    }
    let ran = |id: u32| watch.statement_offset(id).is_some_and(|o| statements.binary_search(&o).is_ok());
    let mut branches = Vec::new();
    let mut base = 0;
    for range in &watch.branches {
        probes(handles.branches.clone().restore(ctx)?, range.clone(), |bytes| {
            implied.expand_branches(range.clone(), bytes, ran);
            branches.extend(set_offsets(bytes).into_iter().map(|o| base + o))
        })?;
        base += range.len() as u32;
    }
    Ok((statements, branches))
}

/// What a test that ended did: the proxies' log, the probes, the distances and the described results.
fn read_execution<'js>(
    ctx: &Ctx<'js>,
    handles: &Handles,
    watch: &Watch,
    describe: bool,
    measuring: bool,
    sources: &super::Sources,
) -> rquickjs::Result<Execution> {
    let globals = ctx.globals();
    // The log's text and the descriptions' share one budget; the descriptions took theirs as made.
    let budget = handles.descriptions.budget();
    let (events, patterns) = log::read(ctx, &handles.log.clone().restore(ctx)?, budget, |f| sources.is_user_file(f))?;
    let (statements, branches) = covered(ctx, handles, watch, &sources.implied)?;
    let mut distances = Vec::new();
    let mut execution = Execution::ended(Outcome::Passed, None);
    if measuring {
        let mut base = 0;
        for range in &watch.branches {
            probes::<f64>(globals.get(DISTANCES)?, range.clone(), |bytes| {
                distances.extend(near_misses(bytes).into_iter().map(|(o, d)| (base + o, d)))
            })?;
            base += range.len() as u32;
        }
        execution.comparisons = comparisons::read(ctx, &globals.get(COMPARISONS)?, watch, budget)?;
    }
    let results = if describe {
        results::read(ctx, &handles.keys, &handles.results.clone().restore(ctx)?, &handles.descriptions)?
    } else {
        Vec::new()
    };
    execution.events = events;
    execution.patterns = patterns;
    execution.statements = statements;
    execution.branches = branches;
    execution.distances = distances;
    execution.results = results;
    let (returned, functions) = returned(&handles.returned.clone().restore(ctx)?)?;
    execution.returned = returned;
    execution.functions = functions;
    Ok(execution)
}

/// What calls of the last test returned (the harness's `__fc$returned`): new instances of the program's
/// classes (`statement:class` texts), as (statement, class), and functions of the code under test
/// (`statement:f<length>:<name>`), as (statement, length, name).
type Returned = (Vec<(usize, usize)>, Vec<(usize, usize, String)>);

fn returned(list: &Array) -> rquickjs::Result<Returned> {
    let mut instances = Vec::with_capacity(list.len());
    let mut functions = Vec::new();
    for index in 0..list.len() {
        let pair: String = list.get(index)?;
        let Some((at, what)) = pair.split_once(':') else { continue };
        let Ok(at) = at.parse() else { continue };
        match what.strip_prefix('f').and_then(|f| f.split_once(':')) {
            Some((length, name)) => {
                if let Ok(length) = length.parse() {
                    functions.push((at, length, name.to_string()));
                }
            }
            None => {
                if let Ok(class) = what.parse() {
                    instances.push((at, class));
                }
            }
        }
    }
    Ok((instances, functions))
}

/// Runs the jobs of a test that awaits a promise, each under the test's deadline (once it has passed, the
/// rest are interrupted at once). Once no job is left, the timer due first fires (Node's event loop, on a
/// virtual clock), until the test settles or no timer is pending; then a test that waits only for its
/// deferred promises ends (see `__fc$quiet`). Answers whether the test stalled: still pending with
/// nothing left to settle it (an awaited `once(name)` whose event never comes).
fn run_jobs(ctx: &Ctx, globals: &Object, deadline: &Deadline) -> rquickjs::Result<bool> {
    let settled: Function = globals.get(SETTLED)?;
    let quiet: Function = globals.get(QUIET)?;
    let timer: Function = globals.get::<_, Object>(TIMERS)?.get("next")?;
    loop {
        while ctx.execute_pending_job() {}
        let pending = matches!(settled.call::<_, Option<String>>(()), Ok(None));
        if !pending || deadline.passed() {
            return Ok(false);
        }
        if !timer.call::<_, bool>(()).unwrap_or(false) && !quiet.call::<_, bool>(()).unwrap_or(false) {
            return Ok(true);
        }
    }
}

/// Runs the jobs a test left queued, then the timers Node would still fire after it (a debounce's
/// timeout, see `__fc$timers.nextLeft`) with the jobs each leaves, as Node does before its process ends,
/// under the test's limits (counting on from its work); answers whether any ran. Done once the test's
/// end is read, since the exported test asserts synchronously what the sandbox read before these.
/// `nextLeft` is called only while the timers' flag says one may be left: most tests leave none.
fn run_left_jobs(
    ctx: &Ctx,
    handles: &Handles,
    deadline: &Deadline,
    (limit, work_limit): (Duration, Option<u64>),
) -> rquickjs::Result<bool> {
    deadline.resume(limit, work_limit);
    let timer = handles.next_left.clone().restore(ctx)?;
    let maybe = handles.timers_left.clone().restore(ctx)?;
    let mut ran = false;
    loop {
        while ctx.execute_pending_job() {
            ran = true;
        }
        let fired = || maybe.get::<_, bool>("maybe").unwrap_or(true) && timer.call::<_, bool>(()).unwrap_or(false);
        if deadline.passed() || !fired() {
            break;
        }
        ran = true;
    }
    deadline.clear();
    Ok(ran)
}

/// When a promise of the test (or of the jobs it left) is left rejected with no handler, or (when
/// `timers` may have fired) a timer's callback threw, the harness's answer for it ([`UNHANDLED`]): Node
/// fails such a test.
fn unhandled(globals: &Object, rejected: &AtomicBool, timers: bool) -> rquickjs::Result<Option<String>> {
    if !rejected.swap(false, Ordering::Relaxed) && !timers {
        return Ok(None);
    }
    let answer: String = globals.get::<_, Function>(UNHANDLED)?.call(())?;
    Ok((!answer.is_empty()).then_some(answer))
}

/// Clears the probes `watch` reads before a test, and tells code instrumented for `distances` whether
/// it is `measuring` them in this run.
fn clear_probes(ctx: &Ctx, handles: &Handles, watch: &Watch, distances: bool, measuring: bool) -> rquickjs::Result<()> {
    let globals = ctx.globals();
    for range in &watch.statements {
        probes(handles.statements.clone().restore(ctx)?, range.clone(), |bytes| bytes.fill(0))?;
    }
    for range in &watch.branches {
        probes(handles.branches.clone().restore(ctx)?, range.clone(), |bytes| bytes.fill(0))?;
    }
    if distances {
        globals.get::<_, Array>(MEASURING)?.set(0, measuring)?;
    }
    if measuring {
        for range in &watch.branches {
            probes::<f64>(globals.get(DISTANCES)?, range.clone(), |bytes| {
                bytes.chunks_exact_mut(8).for_each(|d| d.copy_from_slice(&f64::INFINITY.to_ne_bytes()))
            })?;
        }
        // The stack's depth: a throw out of a half-evaluated condition leaves pairs behind.
        probes::<f64>(globals.get(STACK)?, 0..1, |depth| depth.copy_from_slice(&0f64.to_ne_bytes()))?;
        globals.get::<_, Array>(COMPARISONS)?.set(0, 0)?;
    }
    Ok(())
}

/// What the harness answers for a test that awaits a promise (see `harness.js`).
pub(super) const AWAITING: &str = "\u{1}async";
/// What the harness answers for a test that threw an error, described in [`FAILURE`].
const THREW: &str = "\u{2}threw";

pub(super) fn set_offsets(bytes: &[u8]) -> Vec<u32> {
    bytes.iter().enumerate().filter(|(_, b)| **b != 0).map(|(i, _)| i as u32).collect()
}

/// Branch outcomes reached but not taken, with their distances (see [`crate::js::DISTANCES`]):
/// offsets with a finite distance above 0, read from native-endian `f64`s.
pub(super) fn near_misses(bytes: &[u8]) -> Vec<(u32, f64)> {
    bytes
        .chunks_exact(8)
        .map(|d| f64::from_ne_bytes(d.try_into().expect("chunks of 8")))
        .enumerate()
        .filter(|(_, d)| d.is_finite() && *d > 0.0)
        .map(|(i, d)| (i as u32, d))
        .collect()
}

/// How a test that threw an error ended, from what the harness left in [`FAILURE`].
fn outcome_of_failure(ctx: &rquickjs::Ctx, handles: &Handles, sources: &super::Sources) -> Outcome {
    let read = || -> rquickjs::Result<_> {
        let failure = handles.failure.clone().restore(ctx)?;
        Ok((failure.get("name")?, failure.get("message")?, failure.get::<_, String>("stack")?, failure.get("at")?))
    };
    match read() {
        Ok((name, message, stack, at)) => outcome_of_error(name, message, &stack, at, |f| sources.is_user_file(f)),
        Err(e) => {
            let message = format!("Flycatcher could not read the error the test threw: {}", exception_text(ctx, e));
            Outcome::Threw { at: 0, thrown: Thrown::Error { name: "InternalError".into(), message, origin: None } }
        }
    }
}

/// How a test that threw an error (`name: message`) at statement `at` ended.
fn outcome_of_error(
    name: String,
    message: String,
    stack: &str,
    at: usize,
    is_user_file: impl Fn(&str) -> bool,
) -> Outcome {
    if name == "RangeError" && message.contains("call stack") || message == "stack overflow" {
        Outcome::StackOverflow { at }
    } else if message == "out of memory" || (name == "RangeError" && message == "invalid array buffer length") {
        // QuickJS refuses array buffers past 2^31 - 1 bytes, which Node allocates: like running out of
        // memory, a limit of the sandbox rather than a result.
        Outcome::OutOfMemory
    } else {
        let origin = first_user_frame(stack, is_user_file);
        Outcome::Threw { at, thrown: Thrown::Error { name, message, origin } }
    }
}

/// How a test that threw something other than an error ended, from the harness's JSON `{value, at}`.
fn outcome_of_thrown_value(json: &str) -> Outcome {
    let info: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let at = info.get("at").and_then(|a| a.as_u64()).unwrap_or(0) as usize;
    // The harness always describes the value; were it missing or malformed, the value is as good as unread.
    let value = info.get("value").and_then(Observed::from_json);
    Outcome::Threw { at, thrown: Thrown::Value(value.unwrap_or(Observed::Unreadable)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_buffers_past_the_engines_cap_are_a_limit_not_a_result() {
        let error = |message: &str| outcome_of_error("RangeError".into(), message.into(), "", 1, |_| true);
        assert_eq!(error("invalid array buffer length"), Outcome::OutOfMemory);
        let thrown = error("invalid array index");
        assert!(matches!(thrown, Outcome::Threw { at: 1, .. }), "{thrown:?}");
    }
}
