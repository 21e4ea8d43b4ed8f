//! One QuickJS runtime and context with the program loaded: the part that talks to rquickjs.
//!
//! `mod.rs` builds an engine (limits, probes, the determinism shim, the describers, the harness, then the
//! program: scripts, CommonJS factories, ES modules); `run.rs` runs one test in it (`direct.rs` performing
//! its statements from Rust, `describe/` describing its results and the state they left, `results.rs` and
//! `log.rs` reading its results and its log back, `comparisons.rs` the comparisons its conditions made, `text.rs` their strings within a budget, `arrays.rs` the
//! harness's typed arrays in place); `sources.rs` is
//! the program as plain data, `modules.rs` the ES-module resolver and loader, `script.rs` the bytecode
//! cache of Flycatcher's own scripts, `deadline.rs` the interrupt deadline, `guard.rs` the built-ins'
//! listing and snapshot (reading objects in place for its checks, see `sandbox/qjs/layout.rs`),
//! `props.rs` the undo journal's native question, `ready.rs` what an engine is like when ready for its
//! first test (for the thread's pool of engines), `bare.rs` for the benchmarks a context without any of
//! it, and the program loaded uninstrumented. Every raw call of QuickJS's C interface is
//! `sandbox/qjs`'s: this engine is written in its safe API.

mod arrays;
mod bare;
mod comparisons;
mod deadline;
mod describe;
mod direct;
mod guard;
mod log;
mod modules;
mod props;
mod ready;
mod results;
mod run;
mod script;
mod sources;
mod text;

pub use bare::{BareProgram, with_bare_context};
pub use comparisons::{Comparison, Operand, Relation};
pub(crate) use deadline::Deadline;
pub use deadline::WORK_PER_MS;
pub use run::Test;
pub(crate) use sources::Sources;
pub use sources::instrumented_position;

use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rquickjs::function::Args;
use rquickjs::{Context, Ctx, Function, Module, Object, Runtime, Value};

use crate::error::{Error, Result};
use crate::js::{
    BASELINE, BRANCHES, BUILTINS_JS, CHARGE, CONSOLE_JS, DEFINE_MODULE, DETERMINISM_JS, DETERMINISTIC, DISCOVER,
    DISCOVER_MADE, DISCOVER_STATIC_MADE, DISTANCES, EXECUTOR_JS, FORGET, HARNESS_JS, HAS_SETTER, IEEE754, INEXACT,
    INEXACT_JS, JOURNAL_JS, LOAD_NODE, LOAD_SEED, LOOPS_JS, MUTANT, NAMESPACES, PARITY_JS, PRIMORDIALS_JS, PRINT,
    REJECTED, REQUIRE, RUNTIME_JS, SHARED_WRITE, SOURCE_TEXT, STATEMENTS,
};
use crate::model::program::ModuleKind;
use crate::model::settings::Limits;
use crate::sandbox::qjs::{Anchor, Cx, Ref};
use modules::{TableLoader, TableResolver};
use script::{HARNESS_SCRIPTS, NODE_SCRIPTS, SETUP, ScriptCache, eval_script, exception_text};
use sources::{ALIASED, COMMONJS_FOOTER, COMMONJS_HEADER, SourceCode};

/// Bytes allocated between two cycle collections.
const GC_THRESHOLD: usize = 16 << 20;

/// JavaScript stack while the program loads (a test has [`Limits::stack`]). The engine runs on a thread
/// of `app::ENGINE_THREAD_STACK` bytes, which leaves room for QuickJS's own frames above it.
const LOAD_STACK: usize = 16 << 20;
/// Memory the runtime may allocate while the program loads (a test has [`Limits::memory`]): parsing and
/// compiling a bundle of several megabytes takes several hundred.
const LOAD_MEMORY: usize = 1 << 30;

/// A runtime and a context with the harness and the program loaded.
///
/// What holds references of the context is let go before it, by [`Engine`]'s `Drop`.
pub(crate) struct Engine {
    /// Set once the harness is installed (see [`run::Handles`]).
    handles: Option<run::Handles>,
    guard: Option<guard::Guard>,
    descriptions: Rc<describe::Descriptions>,
    /// A reference to the context, for what the engine keeps of it between two scopes.
    anchor: Anchor,
    context: Context,
    runtime: Runtime,
    sources: Arc<Sources>,
    deadline: Arc<Deadline>,
    /// Set when a test left the context unusable for the harness (see [`Engine::run`]): the sandbox
    /// replaces it.
    pub(crate) broken: bool,
    /// Most work (interrupt checks, see [`Deadline`]) one test may do besides its time limit.
    pub(crate) work_limit: Option<u64>,
    /// The work (interrupt checks) loading the program did.
    pub(crate) loaded_work: std::cell::Cell<u64>,
    /// The mutant the next test runs under, in a program of mutant schemata ([`MUTANT`]; 0: the
    /// original).
    pub(crate) mutant: u32,
    /// The mutant [`MUTANT`] holds now.
    switched: u32,
    /// What memory Node leaves uninitialised holds in the next test (see [`Engine::vary_uninitialized`]).
    salt: u32,
    /// Set by the promise rejection tracker: a promise was rejected with no handler (or got one) since
    /// [`Engine::run`] last asked the harness (see [`crate::js::UNHANDLED`]).
    rejected: Arc<AtomicBool>,
    /// Whether the countdown to QuickJS's next interrupt check can be read (see `qjs/countdown.rs`).
    countdown_known: bool,
    /// The collector's threshold the runtime was built with.
    gc_threshold: usize,
    /// What the engine was like when ready for its first test (see `ready.rs`).
    ready: Option<ready::Ready>,
}

/// Tells the harness of a promise rejected with no handler, or of a handler added to one ([`REJECTED`]).
/// Before the harness is installed (the program's own load) there is nothing to tell; an exception of
/// the call (an interrupt) is dropped, so that the rejection that called it goes on as it would.
fn track_rejection<'js>(ctx: &Ctx<'js>, promise: Value<'js>, reason: Value<'js>, handled: bool) {
    let Ok(track) = ctx.globals().get::<_, Function>(REJECTED) else { return };
    if track.call::<_, ()>((promise, reason, handled)).is_err() {
        let _ = ctx.catch();
    }
}

impl Engine {
    /// Builds an engine with the program loaded; `guard` takes the snapshot of the built-ins that
    /// [`Engine::changed_builtins`] compares with (only a context that tests share needs it).
    pub(crate) fn new(sources: Arc<Sources>, limits: &Limits, deadline: Arc<Deadline>, guard: bool) -> Result<Engine> {
        let runtime = Runtime::new().map_err(|e| Error::Engine(e.to_string()))?;
        runtime.set_memory_limit(limits.memory);
        runtime.set_max_stack_size(limits.stack);
        // Tests make a lot of short-lived garbage that reference counting frees at once; collecting
        // cycles less often than QuickJS's default (every 256 KiB) saves time and costs little memory.
        let gc_threshold = GC_THRESHOLD.min(limits.memory / 4);
        runtime.set_gc_threshold(gc_threshold);
        let interrupt = deadline.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || interrupt.check())));
        let rejected = Arc::new(AtomicBool::new(false));
        let tracked = rejected.clone();
        runtime.set_host_promise_rejection_tracker(Some(Box::new(move |ctx, promise, reason, handled| {
            tracked.store(true, Ordering::Relaxed);
            track_rejection(&ctx, promise, reason, handled);
        })));
        if sources.files.iter().any(|f| f.kind == ModuleKind::EsModule) {
            let known: Vec<String> = sources.files.iter().map(|f| f.engine_name.clone()).collect();
            let table = sources
                .files
                .iter()
                .flat_map(|f| {
                    f.deps.iter().map(|(spec, target)| {
                        ((f.engine_name.clone(), spec.clone()), sources.files[*target].engine_name.clone())
                    })
                })
                .collect();
            let index = sources.files.iter().enumerate().map(|(i, f)| (f.engine_name.clone(), i)).collect();
            let recorded_importer = sources.recorded_importer.map(|i| sources.files[i].engine_name.clone());
            let es_modules = sources
                .files
                .iter()
                .filter(|f| f.kind == ModuleKind::EsModule)
                .map(|f| f.engine_name.clone())
                .collect();
            let imported_names =
                sources.files.iter().map(|f| (f.engine_name.clone(), f.imported_names.clone())).collect();
            let named = |keep: fn(&SourceCode) -> bool| {
                sources.files.iter().filter(|f| keep(f)).map(|f| f.engine_name.clone()).collect()
            };
            let interop_importers = named(|f| f.interop);
            let commonjs = named(|f| f.kind == ModuleKind::CommonJs);
            let loader = TableLoader { sources: sources.clone(), index, imported_names };
            let resolver = TableResolver { table, known, recorded_importer, es_modules, interop_importers, commonjs };
            runtime.set_loader(resolver, loader);
        }
        let context = Context::full(&runtime).map_err(|e| Error::Engine(e.to_string()))?;
        // Nothing has run in a context just made: QuickJS has not started its countdown.
        let countdown_known = context.with(|ctx| Cx::of(&ctx).countdown() == Some(0));
        let anchor = Anchor::new(&context);
        let descriptions = Rc::new(describe::Descriptions::new(anchor.clone(), limits.memory));
        let mut engine = Engine {
            handles: None,
            guard: None,
            descriptions,
            anchor,
            context,
            runtime,
            sources,
            deadline,
            broken: false,
            work_limit: None,
            loaded_work: std::cell::Cell::new(0),
            mutant: 0,
            switched: 0,
            salt: 0,
            rejected,
            countdown_known,
            gc_threshold,
            ready: None,
        };
        let baseline = engine.install(limits, guard)?;
        let descriptions = engine.descriptions.clone();
        let handles = engine.context.with(|ctx| {
            run::Handles::take(&ctx, &engine.anchor, descriptions)
                .map_err(|e| Error::Engine(format!("reading the harness's globals: {}", exception_text(&ctx, e))))
        });
        engine.handles = Some(handles?);
        if let Some(baseline) = baseline {
            let taken = engine.context.with(|ctx| {
                guard::Guard::take(&ctx, &engine.anchor, &baseline)
                    .map_err(|e| Error::Engine(format!("taking the built-ins' snapshot: {}", exception_text(&ctx, e))))
            });
            engine.guard = Some(taken?);
        }
        Ok(engine)
    }

    /// Installs Flycatcher's scripts and loads the program; answers, with `guard`, what the global object
    /// held before the program loaded, for the built-ins' guard.
    fn install(&self, limits: &Limits, guard: bool) -> Result<Option<guard::Baseline>> {
        self.eval_setup(PRIMORDIALS_JS, "capturing the built-ins")?;
        let probes = format!(
            "Object.defineProperty(globalThis, '{STATEMENTS}', {{ value: new Uint8Array({}) }});\
             Object.defineProperty(globalThis, '{BRANCHES}', {{ value: new Uint8Array({branches}) }});\
             Object.defineProperty(globalThis, '{DISTANCES}', {{ value: new Float64Array({branches}).fill(Infinity) }});\
             Object.defineProperty(globalThis, '{SHARED_WRITE}', {{ value: new Uint8Array(1) }});",
            self.sources.statement_count.max(1),
            branches = self.sources.branch_count.max(1)
        );
        self.eval_setup(&probes, "installing probes")?;
        self.eval_setup(RUNTIME_JS, "installing the coverage runtime")?;
        self.install_journal()?;
        self.install_source_text()?;
        self.eval_setup(PARITY_JS, "correcting where QuickJS departs from the specification")?;
        self.install_math()?;
        self.eval_setup(INEXACT_JS, "watching operations engines round differently")?;
        self.install_node_globals()?;
        // Randomness and the clock are fixed before any user code runs, from the same seed as in
        // exported suites, and again for every test from the test's seed. After Node's globals: the clock
        // includes `process.hrtime`, fixed here once rather than seen by the guard as a test's change.
        let determinism = format!(
            "Object.defineProperty(globalThis, '{DETERMINISTIC}', {{ value: ({DETERMINISM_JS}) }}); \
             {DETERMINISTIC}(globalThis, {LOAD_SEED});"
        );
        self.eval_setup(&determinism, "fixing randomness and the clock")?;
        self.context.with(|ctx| {
            describe::install(&ctx, &self.descriptions)
                .map_err(|e| Error::Engine(format!("installing the describers: {}", exception_text(&ctx, e))))
        })?;
        self.eval_setup(HARNESS_JS, "installing the harness")?;
        self.install_console()?;
        self.install_loops()?;
        self.eval_setup(EXECUTOR_JS, "installing the promise executor guard")?;
        // What the global object holds before user code runs: discovery looks at what is added. The set
        // answers `has` as `Set.prototype.has` did before the code ran, which may replace that.
        self.eval_setup(
            &format!(
                "(function () {{ var names = new Set(Object.getOwnPropertyNames(globalThis)); \
                 Object.defineProperty(names, 'has', {{ value: Set.prototype.has }}); \
                 Object.defineProperty(globalThis, '{BASELINE}', {{ value: names }}); }})();"
            ),
            "recording the built-in globals",
        )?;
        let baseline = if guard {
            let taken = self.context.with(|ctx| guard::Baseline::take(&ctx, &self.anchor));
            Some(taken.ok_or_else(|| Error::Engine("listing the global object's keys failed".into()))?)
        } else {
            None
        };
        self.eval_setup(BUILTINS_JS, "listing the built-ins")?;
        // After the snapshots: its value changes between tests, as the program's own globals do.
        self.eval_setup(
            &format!("Object.defineProperty(globalThis, '{MUTANT}', {{ value: 0, writable: true }});"),
            "installing the mutant switch",
        )?;
        self.deadline.set(limits.load_time);
        if let Some(work) = limits.load_work {
            self.deadline.limit_work(work);
        }
        // A test's stack is too small to load a bundle: QuickJS keeps a function's locals on the C stack,
        // and a module of 60,000 functions needs about 1 MB of it. Loading gets its own limits.
        self.runtime.set_max_stack_size(LOAD_STACK.max(limits.stack));
        self.runtime.set_memory_limit(LOAD_MEMORY.max(limits.memory));
        let loaded = self.load_program();
        self.runtime.set_max_stack_size(limits.stack);
        self.runtime.set_memory_limit(limits.memory);
        let timed_out = self.deadline.passed();
        self.loaded_work.set(self.deadline.work());
        self.deadline.clear();
        if loaded.is_ok() {
            self.eval_setup(&format!("{INEXACT}.loaded({})", self.sources.power), "reading how the program loaded")?;
            // What loading wrote is the loaded program: only later writes make a context differ from it.
            self.eval_setup(&format!("{FORGET}()"), "emptying the undo journal")?;
        }
        match loaded {
            Err(Error::Load { file, .. }) if timed_out => Err(Error::Load {
                file,
                message: match limits.load_work {
                    Some(work) if self.loaded_work.get() > work => {
                        format!("did not finish within {work} interrupt checks (an endless loop at load time?)")
                    }
                    _ => format!(
                        "did not finish within {} s (an endless loop at load time?)",
                        limits.load_time.as_secs()
                    ),
                },
            }),
            other => other.map(|()| baseline),
        }
    }

    fn load_program(&self) -> Result<()> {
        self.context.with(|ctx| {
            let globals = ctx.globals();
            for (index, file) in self.sources.files.iter().enumerate() {
                let failed = |ctx: &Ctx, e: rquickjs::Error| Error::Load {
                    file: file.engine_name.clone(),
                    message: exception_text(ctx, e),
                };
                match file.kind {
                    // Given scripts and ES modules run below, once every CommonJS factory is defined.
                    ModuleKind::Script if file.given => {}
                    ModuleKind::EsModule => {}
                    _ => {
                        let source = format!("{}{}{COMMONJS_FOOTER}", *COMMONJS_HEADER, file.code);
                        let scripts: &ScriptCache = if file.builtin { &NODE_SCRIPTS } else { &self.sources.scripts };
                        let outer: Function =
                            eval_script(&ctx, scripts, &source, &file.engine_name).map_err(|e| failed(&ctx, e))?;
                        let mut aliased = Args::new(ctx.clone(), ALIASED.len());
                        for name in ALIASED {
                            aliased
                                .push_arg(globals.get::<_, Value>(name).map_err(|e| failed(&ctx, e))?)
                                .map_err(|e| failed(&ctx, e))?;
                        }
                        let factory: Function = outer.call_arg(aliased).map_err(|e| failed(&ctx, e))?;
                        let deps = Object::new(ctx.clone()).map_err(|e| failed(&ctx, e))?;
                        for (spec, target) in &file.deps {
                            deps.set(spec.as_str(), *target).map_err(|e| failed(&ctx, e))?;
                        }
                        // What `require` of a specifier that resolves to nothing throws (see the harness).
                        for (spec, why) in &file.missing {
                            deps.set(spec.as_str(), why.as_str()).map_err(|e| failed(&ctx, e))?;
                        }
                        let define: Function = globals.get(DEFINE_MODULE).map_err(|e| failed(&ctx, e))?;
                        define
                            .call::<_, ()>((index, factory, file.engine_name.as_str(), file.dirname.as_str(), deps))
                            .map_err(|e| failed(&ctx, e))?;
                    }
                }
            }
            // `require` of an ES module gives its namespace, as Node 20.19 and later do. Node evaluates the
            // module when `require` is called; QuickJS can only finish a module's evaluation from here, outside
            // any JavaScript, so the ES modules CommonJS files require run first. Only a module whose top
            // level has effects another file observes could tell the order apart.
            let required: BTreeSet<usize> = self
                .sources
                .files
                .iter()
                .filter(|f| f.kind == ModuleKind::CommonJs)
                .flat_map(|f| f.deps.iter().map(|(_, target)| *target))
                .filter(|&target| self.sources.files[target].kind == ModuleKind::EsModule)
                .collect();
            for index in required {
                self.start_module(&ctx, index)?;
            }
            for (index, _) in self.sources.files.iter().enumerate().filter(|(_, f)| f.given) {
                self.start_module(&ctx, index)?;
            }
            Ok(())
        })
    }

    /// Runs a module file's top level, as Node's `require` or `import` of it would (scripts run while
    /// loading, see [`Engine::run_file`]).
    fn start_module(&self, ctx: &Ctx, index: usize) -> Result<()> {
        let file = &self.sources.files[index];
        let failed =
            |e: rquickjs::Error| Error::Load { file: file.engine_name.clone(), message: exception_text(ctx, e) };
        let globals = ctx.globals();
        match file.kind {
            ModuleKind::CommonJs => {
                let require: Function = globals.get(REQUIRE).map_err(failed)?;
                require.call::<_, Value>((index,)).map_err(failed)?;
            }
            ModuleKind::EsModule => {
                let namespace: Object = Module::import(ctx, file.engine_name.as_str())
                    .and_then(|promise| promise.finish::<Object>())
                    .map_err(failed)?;
                let namespaces: Object = globals.get(NAMESPACES).map_err(failed)?;
                namespaces.set(index as u32, namespace).map_err(failed)?;
            }
            ModuleKind::Script => {
                eval_script::<()>(ctx, &self.sources.scripts, &file.code, &file.engine_name).map_err(failed)?;
            }
        }
        Ok(())
    }

    /// Runs a file that loading held back (one not given: in record mode, the entry script) within
    /// `limit`.
    pub(crate) fn run_file(&self, index: usize, limit: Duration) -> Result<()> {
        self.deadline.set(limit);
        let ran = self.context.with(|ctx| self.start_module(&ctx, index));
        let timed_out = self.deadline.passed();
        self.deadline.clear();
        match ran {
            Err(Error::Load { file, .. }) if timed_out => Err(Error::Load {
                file,
                message: format!("did not finish within {} s (an endless loop?)", limit.as_secs_f64()),
            }),
            other => other,
        }
    }

    /// Gives the context a `console`: silent for generated tests, which stay host-free, and printing to
    /// this process's standard output only for a user's entry script run with echo (record mode).
    fn install_console(&self) -> Result<()> {
        if self.sources.print_console {
            self.context.with(|ctx| {
                let print = Function::new(ctx.clone(), |line: String| println!("{line}"))
                    .map_err(|e| Error::Engine(format!("installing console: {e}")))?;
                ctx.globals()
                    .set(PRINT, print)
                    .map_err(|e| Error::Engine(format!("installing console: {}", exception_text(&ctx, e))))
            })?;
        }
        self.eval_setup(CONSOLE_JS, "installing console")
    }

    /// Node's host-free globals (`js/node/globals.js`), with the function that reads the code of the
    /// encoding globals, the web ones, `URL` and `Headers` (`js/node/encoding.js`, `web.js`, `url.js`,
    /// `headers.js`) into the context when they are first used: most code under test never uses them,
    /// and a context is built for every test.
    fn install_node_globals(&self) -> Result<()> {
        self.context.with(|ctx| {
            let failed = |e| Error::Engine(format!("installing Node's host-free globals: {}", exception_text(&ctx, e)));
            let load = Function::new(ctx.clone(), load_node).map_err(failed)?;
            ctx.globals().set(LOAD_NODE, load).map_err(failed)?;
            eval_script::<()>(&ctx, &NODE_SCRIPTS, crate::js::node::GLOBALS_JS, SETUP).map_err(failed)
        })
    }

    /// V8's `Math` functions (see [`crate::sandbox::ieee754`]) on the hidden global [`IEEE754`], for
    /// `js/inexact.js` to put in `Math`'s place: a number a test makes with them is Node's, to the bit.
    fn install_math(&self) -> Result<()> {
        use crate::sandbox::ieee754 as m;
        type Unary = fn(f64) -> f64;
        type Binary = fn(f64, f64) -> f64;
        self.context.with(|ctx| {
            let failed = |e| Error::Engine(format!("installing V8's Math functions: {}", exception_text(&ctx, e)));
            let math = Object::new(ctx.clone()).map_err(failed)?;
            let unary: [(&str, Unary); 19] = [
                ("acos", m::acos),
                ("acosh", m::acosh),
                ("asin", m::asin),
                ("asinh", m::asinh),
                ("atan", m::atan),
                ("atanh", m::atanh),
                ("cbrt", m::cbrt),
                ("cos", m::cos),
                ("cosh", m::cosh),
                ("exp", m::exp),
                ("expm1", m::expm1),
                ("log", m::log),
                ("log1p", m::log1p),
                ("log10", m::log10),
                ("log2", m::log2),
                ("sin", m::sin),
                ("sinh", m::sinh),
                ("tan", m::tan),
                ("tanh", m::tanh),
            ];
            for (name, f) in unary {
                math.set(name, Function::new(ctx.clone(), move |x: f64| f(x)).map_err(failed)?).map_err(failed)?;
            }
            let binary: [(&str, Binary); 2] = [("atan2", m::atan2), ("pow", m::pow)];
            for (name, f) in binary {
                math.set(name, Function::new(ctx.clone(), move |x: f64, y: f64| f(x, y)).map_err(failed)?)
                    .map_err(failed)?;
            }
            let hypot = Function::new(ctx.clone(), |values: rquickjs::function::Rest<f64>| m::hypot(&values.0));
            math.set("hypot", hypot.map_err(failed)?).map_err(failed)?;
            ctx.globals().set(IEEE754, math).map_err(failed)
        })
    }

    /// The undo journal (`js/journal.js`), with the native setter check it takes.
    fn install_journal(&self) -> Result<()> {
        self.context.with(|ctx| {
            let failed = |e| Error::Engine(format!("installing the undo journal: {}", exception_text(&ctx, e)));
            let has_setter = Function::new(ctx.clone(), props::has_setter).map_err(failed)?;
            ctx.globals().set(HAS_SETTER, has_setter).map_err(failed)
        })?;
        self.eval_setup(JOURNAL_JS, "installing the undo journal")
    }

    /// Gives `parity.js` the user's text of their functions (see [`Sources::source_text`]).
    fn install_source_text(&self) -> Result<()> {
        let sources = self.sources.clone();
        self.context.with(|ctx| {
            let failed = |e| Error::Engine(format!("installing the functions' texts: {}", exception_text(&ctx, e)));
            let text = Function::new(ctx.clone(), move |file: String, text: String| sources.source_text(&file, &text))
                .map_err(failed)?;
            ctx.globals().set(SOURCE_TEXT, text).map_err(failed)
        })
    }

    /// Wraps the array methods whose loops QuickJS cannot interrupt (see [`LOOPS_JS`]): each charges the
    /// length of the array it loops over to the deadline first.
    fn install_loops(&self) -> Result<()> {
        let deadline = self.deadline.clone();
        self.context.with(|ctx| {
            let charge = Function::new(ctx.clone(), move |value: Value| {
                // A true array only: its `length` is an own data property, and reading it runs nothing.
                // Read by the built-in atom: a key made from the text hashed the name at every call of
                // an array method, which the code under test makes in its loops.
                let array = Ref::of(&value);
                array.is_array() && Cx::of(value.ctx()).length(array).is_ok_and(|length| deadline.charge(length as u64))
            })
            .map_err(|e| Error::Engine(format!("installing the loop guard: {e}")))?;
            ctx.globals()
                .set(CHARGE, charge)
                .map_err(|e| Error::Engine(format!("installing the loop guard: {}", exception_text(&ctx, e))))
        })?;
        self.eval_setup(LOOPS_JS, "installing the loop guard")
    }

    /// Evaluates harness-side JavaScript that answers with a string.
    pub(crate) fn eval_string(&self, script: &str, what: &str) -> Result<String> {
        self.context.with(|ctx| {
            eval_script::<String>(&ctx, &self.sources.scripts, script, SETUP)
                .map_err(|e| Error::Engine(format!("{what}: {}", exception_text(&ctx, e))))
        })
    }

    /// Evaluates harness-side JavaScript (not user code) in the global scope, compiled once for the
    /// process (see [`HARNESS_SCRIPTS`]).
    pub(crate) fn eval_setup(&self, script: &str, what: &str) -> Result<()> {
        self.context.with(|ctx| {
            eval_script::<()>(&ctx, &HARNESS_SCRIPTS, script, SETUP)
                .map_err(|e| Error::Engine(format!("{what}: {}", exception_text(&ctx, e))))
        })
    }

    /// The statements that have run in this context since it was built and no test has cleared (those
    /// that ran while the program loaded, before any test): every probe is read.
    pub(crate) fn statements_run(&self) -> Result<Vec<u32>> {
        self.context.with(|ctx| {
            let handles = run::Handles::of(&self.handles).map_err(|e| Error::Engine(exception_text(&ctx, e)))?;
            let mut statements = Vec::new();
            handles
                .statements(&ctx)
                .and_then(|array| {
                    let implied = &self.sources.implied;
                    arrays::probes(array, 0..self.sources.statement_count, |bytes| {
                        implied.expand_statements(0..bytes.len() as u32, bytes, |_| false);
                        statements = run::set_offsets(bytes)
                    })
                })
                .map_err(|e| Error::Engine(format!("reading the statement probes: {}", exception_text(&ctx, e))))?;
            Ok(statements)
        })
    }

    /// Sets [`MUTANT`] to [`Engine::mutant`] if it holds another.
    fn switch_mutant(&mut self) -> Result<()> {
        if self.mutant == self.switched {
            return Ok(());
        }
        let mutant = self.mutant;
        self.context.with(|ctx| {
            ctx.globals()
                .set(MUTANT, mutant)
                .map_err(|e| Error::Engine(format!("switching the mutant: {}", exception_text(&ctx, e))))
        })?;
        self.switched = mutant;
        Ok(())
    }

    /// Puts the context back as the program loaded after code wrote shared state (see
    /// `instrument/writes.rs`): true when it is (nothing was written, or the journal undid every write),
    /// false when only a new context is (a write that cannot be undone, a flag code under test detached,
    /// an undo that failed).
    pub(crate) fn restore_shared_state(&self) -> bool {
        self.context.with(|ctx| {
            let Ok(handles) = run::Handles::of(&self.handles) else { return false };
            let mut flag = 2;
            let read = handles
                .shared_write(&ctx)
                .and_then(|array| arrays::probes(array, 0..1, |f| flag = f.first().copied().unwrap_or(2)));
            match (read, flag) {
                (Ok(()), 0) => true,
                (Ok(()), 1) => {
                    let undone = handles.undo(&ctx).and_then(|undo| undo.call::<_, bool>(()));
                    undone.unwrap_or_else(|_| {
                        ctx.catch();
                        false
                    })
                }
                _ => false,
            }
        })
    }

    /// The built-in a test changed since the snapshot (`Array.prototype.push`), if any: a slice of them
    /// is checked, or all with `all` (see [`guard`]). `None` for an engine built without a guard.
    pub(crate) fn changed_builtins(&mut self, all: bool) -> Option<String> {
        let guard = self.guard.as_mut()?;
        self.context.with(|ctx| guard.changed(Cx::of(&ctx), all))
    }

    /// Whether this engine loaded the program `sources` describe.
    pub(crate) fn loads(&self, sources: &Sources) -> bool {
        std::ptr::eq(&*self.sources, sources) || self.sources.same_program(sources)
    }

    /// Makes the built-ins' guard read objects found unchanged in place (`on`, as an engine starts), or
    /// compare them all through the C interface (see `guard.rs`).
    pub(crate) fn set_reading_in_place(&mut self, on: bool) {
        if let Some(guard) = self.guard.as_mut() {
            self.context.with(|ctx| guard.set_in_place(Cx::of(&ctx), on));
        }
    }

    pub(crate) fn discover(&mut self, roots: &[String], depth: usize) -> Result<String> {
        let script = format!(
            "(function () {{ var roots = []; {} return {DISCOVER}(roots, {depth}); }})()",
            roots
                .iter()
                .enumerate()
                .map(|(i, root)| format!("try {{ roots[roots.length] = [[{i}], ({root})]; }} catch (e) {{}}"))
                .collect::<String>()
        );
        self.deadline.set(Duration::from_secs(5));
        let found = self.context.with(|ctx| {
            eval_script::<String>(&ctx, &self.sources.scripts, &script, "<flycatcher discovery>")
                .map_err(|e| Error::Engine(format!("discovering classes: {}", exception_text(&ctx, e))))
        });
        self.deadline.clear();
        found
    }

    /// Tries the `index`th function discovery met as a factory (`__fc$discoverMade`): the class of what it
    /// returns, as JSON, `''` when it made none, and `None` when it failed.
    pub(crate) fn discover_made(&mut self, index: usize) -> Option<String> {
        self.discovery_trial(DISCOVER_MADE, index)
    }

    /// Whether calls of the `index`th static function discovery met make instances of its class
    /// (`__fc$discoverStaticMade`); `None` when trying failed.
    pub(crate) fn discover_static_made(&mut self, index: usize) -> Option<bool> {
        self.discovery_trial(DISCOVER_STATIC_MADE, index)
    }

    /// Calls the harness's `trial` on `index`, within a short time limit since what it calls may loop.
    fn discovery_trial<T: for<'js> rquickjs::FromJs<'js>>(&mut self, trial: &str, index: usize) -> Option<T> {
        self.deadline.set(Duration::from_millis(200));
        let found = self.context.with(|ctx| {
            let function: Function = ctx.globals().get(trial).ok()?;
            let answer = function.call::<_, T>((index,));
            if answer.is_err() {
                ctx.catch();
            }
            answer.ok()
        });
        self.deadline.clear();
        found
    }
}

impl Drop for Engine {
    /// Lets go of what holds references of the context before the fields go: the harness's handles
    /// (rquickjs's `Persistent`s, which keep the context but not its runtime, so they must go before
    /// the runtime), the guard's snapshot, and the describers' references, which the describers'
    /// functions in the context hold (until released, the context would never be freed).
    fn drop(&mut self) {
        self.handles = None;
        self.guard = None;
        self.descriptions.release();
    }
}

/// The makers of the globals of Node's script `name` (`js/node/encoding.js`, `web.js`, `url.js`,
/// `headers.js`: see [`crate::js::node::lazy_script`]), read into the context of `ctx`.
fn load_node<'js>(ctx: Ctx<'js>, name: String) -> rquickjs::Result<Value<'js>> {
    let Some(code) = crate::js::node::lazy_script(&name) else {
        return Err(rquickjs::Exception::throw_internal(&ctx, &format!("no script of Node's globals named {name}")));
    };
    eval_script(&ctx, &NODE_SCRIPTS, code, SETUP)
}
