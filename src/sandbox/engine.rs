//! One QuickJS runtime and context with the program loaded: the part that talks to rquickjs.

use std::collections::HashMap;
use std::ffi::CString;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::{Context, Ctx, Function, Module, Object, Runtime, TypedArray, Value, qjs};

use super::code::CodeBase;
use super::events::{first_user_frame, parse_log};
use super::{DescribedResult, Execution, Limits, Outcome, Thrown, Watch};
use crate::analysis::parse::ModuleKind;
use crate::error::{Error, Result};
use crate::instrument::{DISTANCES, STACK};
use crate::suite::export::{DETERMINISM_JS, LOAD_SEED};

const HARNESS_JS: &str = include_str!("harness.js");
/// The program's `console`, as under Node but host-free: with `__fc$print` defined (record mode's entry
/// script, see [`Engine::install_console`]) the logging methods hand it one line, strings as they are and
/// other values as JSON where they can be; without it (generated tests) every method does nothing, so
/// code that warns or logs runs as it would under Node instead of throwing `ReferenceError: console`.
pub const CONSOLE_JS: &str = r#"(function (g) {
  const print = g.__fc$print;
  delete g.__fc$print;
  const show = (v) => {
    if (typeof v === 'string') return v;
    try {
      const json = JSON.stringify(v);
      return json === undefined ? String(v) : json;
    } catch (_) {
      return String(v);
    }
  };
  const silent = () => {};
  const line = print ? (...values) => print(values.map(show).join(' ')) : silent;
  const console = {};
  for (const name of ['log', 'info', 'warn', 'error', 'debug']) console[name] = line;
  for (const name of ['trace', 'dir', 'dirxml', 'table', 'time', 'timeEnd', 'timeLog', 'timeStamp', 'assert',
    'count', 'countReset', 'group', 'groupCollapsed', 'groupEnd', 'clear', 'profile', 'profileEnd']) {
    console[name] = silent;
  }
  g.console = console;
})(globalThis);"#;
/// Bytes allocated between two cycle collections.
const GC_THRESHOLD: usize = 16 << 20;
/// CommonJS files are wrapped in a function whose header starts their first line, so line numbers
/// stay those of the instrumented code and only columns on line 1 are shifted.
const COMMONJS_HEADER: &str = "(function (exports, require, module, __filename, __dirname) {";

/// The code of one file as the engine needs it (plain data: the engine outlives no Rc).
pub(crate) struct SourceCode {
    engine_name: String,
    dirname: String,
    kind: ModuleKind,
    given: bool,
    code: String,
    deps: Vec<(String, usize)>,
}

/// Everything an engine needs to load the program.
pub(crate) struct Sources {
    files: Vec<SourceCode>,
    /// Bytecode of the scripts every engine evaluates.
    scripts: ScriptCache,
    statement_count: u32,
    branch_count: u32,
    /// Whether the code measures branch distances, which runs then reset and read.
    distances: bool,
    /// Record mode: the file whose imports of ES modules get the recording view of them instead (see
    /// [`RECORDING_VIEW`]).
    pub(crate) recorded_importer: Option<usize>,
    /// Record mode with echo: the program's `console` prints to standard output (see
    /// [`Engine::install_console`]); otherwise it is silent.
    pub(crate) print_console: bool,
}

impl Sources {
    pub(crate) fn new(code: &CodeBase) -> Sources {
        let files = code
            .files
            .iter()
            .map(|f| SourceCode {
                engine_name: f.engine_name.clone(),
                dirname: f.entry.parsed.path.parent().map(|p| p.display().to_string()).unwrap_or_default(),
                kind: f.entry.parsed.kind,
                given: f.entry.given,
                code: f.instrumented.code.clone(),
                deps: f.entry.deps.iter().map(|(spec, target)| (spec.clone(), *target)).collect(),
            })
            .collect();
        Sources {
            files,
            scripts: ScriptCache::default(),
            statement_count: code.statement_count,
            branch_count: code.branch_count,
            distances: code.distances,
            recorded_importer: None,
            print_console: false,
        }
    }

    fn is_user_file(&self, name: &str) -> bool {
        self.files.iter().any(|f| f.engine_name == name)
    }
}

/// Converts a position in a stack frame to a position in the file's instrumented code.
pub fn instrumented_position(kind: ModuleKind, line: u32, column: u32) -> Option<(u32, u32)> {
    if kind == ModuleKind::CommonJs && line == 1 {
        return Some((line, column.checked_sub(COMMONJS_HEADER.len() as u32)?));
    }
    Some((line, column))
}

/// The time a running evaluation must stop at, checked by QuickJS's interrupt handler.
pub(crate) struct Deadline {
    epoch: Instant,
    /// Nanoseconds after `epoch`; `u64::MAX` when no limit is set.
    at: AtomicU64,
}

impl Deadline {
    pub(crate) fn new() -> Deadline {
        Deadline { epoch: Instant::now(), at: AtomicU64::new(u64::MAX) }
    }

    fn set(&self, limit: Duration) {
        let at = self.epoch.elapsed().saturating_add(limit).as_nanos().min(u64::MAX as u128 - 1) as u64;
        self.at.store(at, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.at.store(u64::MAX, Ordering::Relaxed);
    }

    fn passed(&self) -> bool {
        let at = self.at.load(Ordering::Relaxed);
        at != u64::MAX && self.epoch.elapsed().as_nanos() as u64 >= at
    }
}

/// Suffix of the recording view of an ES module: a module that re-exports it with every export that is a
/// class replaced by the recorder's constructor proxy (an ES module's own bindings cannot be replaced).
const RECORDING_VIEW: &str = "?flycatcher-record";

/// Resolves `import` specifiers through the table built from the sources (never the file system).
struct TableResolver {
    /// (importer engine name, specifier) → imported engine name.
    table: HashMap<(String, String), String>,
    known: Vec<String>,
    /// Record mode: the importer that gets recording views, and the modules that have one.
    recorded_importer: Option<String>,
    es_modules: std::collections::HashSet<String>,
}

impl Resolver for TableResolver {
    fn resolve<'js>(
        &mut self,
        _: &Ctx<'js>,
        base: &str,
        name: &str,
        _: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<String> {
        if name.ends_with(RECORDING_VIEW) {
            return Ok(name.to_string());
        }
        let target = if self.known.iter().any(|k| k == name) {
            name.to_string()
        } else {
            self.table.get(&(base.to_string(), name.to_string())).cloned().ok_or_else(|| {
                rquickjs::Error::new_resolving_message(base, name, "not a file of the program under test")
            })?
        };
        if self.recorded_importer.as_deref() == Some(base) && self.es_modules.contains(&target) {
            return Ok(format!("{target}{RECORDING_VIEW}"));
        }
        Ok(target)
    }
}

/// Hands the instrumented code of ES modules to QuickJS.
struct TableLoader {
    code: HashMap<String, String>,
    /// File index by engine name.
    index: HashMap<String, usize>,
}

impl Loader for TableLoader {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<Module<'js>> {
        if let Some(original) = name.strip_suffix(RECORDING_VIEW) {
            // The original is loaded already (it is a file of the program): its exports are known.
            let keys: String = ctx.eval(format!(
                "JSON.stringify(Object.keys(__fc$ns[{}] || {{}}))",
                self.index.get(original).copied().unwrap_or(usize::MAX)
            ))?;
            let keys: Vec<String> = serde_json::from_str(&keys).unwrap_or_default();
            let quoted = serde_json::Value::String(original.to_string());
            let mut view = format!("import * as __fc$m from {quoted};\nexport * from {quoted};\n");
            for (n, key) in keys.into_iter().enumerate() {
                let key_text = serde_json::Value::String(key.clone());
                let value = format!("globalThis.__fc$recorder.exported(__fc$m[{key_text}])");
                if key == "default" {
                    view.push_str(&format!("export default {value};\n"));
                } else {
                    view.push_str(&format!("const __fc$e{n} = {value};\nexport {{ __fc$e{n} as {key_text} }};\n"));
                }
            }
            return Module::declare(ctx.clone(), name, view);
        }
        let code = self.code.get(name).ok_or_else(|| rquickjs::Error::new_loading_message(name, "unknown module"))?;
        Module::declare(ctx.clone(), name, code.as_str())
    }
}

/// A runtime and a context with the harness and the program loaded.
pub(crate) struct Engine {
    // Field order matters: the context must go before its runtime.
    context: Context,
    _runtime: Runtime,
    sources: Arc<Sources>,
    deadline: Arc<Deadline>,
}

impl Engine {
    pub(crate) fn new(sources: Arc<Sources>, limits: &Limits, deadline: Arc<Deadline>) -> Result<Engine> {
        let runtime = Runtime::new().map_err(|e| Error::Engine(e.to_string()))?;
        runtime.set_memory_limit(limits.memory);
        runtime.set_max_stack_size(limits.stack);
        // Tests make a lot of short-lived garbage that reference counting frees at once; collecting
        // cycles less often than QuickJS's default (every 256 KiB) saves time and costs little memory.
        runtime.set_gc_threshold(GC_THRESHOLD.min(limits.memory / 4));
        let interrupt = deadline.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || interrupt.passed())));
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
            let code = sources
                .files
                .iter()
                .filter(|f| f.kind == ModuleKind::EsModule)
                .map(|f| (f.engine_name.clone(), f.code.clone()))
                .collect();
            let index = sources.files.iter().enumerate().map(|(i, f)| (f.engine_name.clone(), i)).collect();
            let recorded_importer = sources.recorded_importer.map(|i| sources.files[i].engine_name.clone());
            let es_modules = sources
                .files
                .iter()
                .filter(|f| f.kind == ModuleKind::EsModule)
                .map(|f| f.engine_name.clone())
                .collect();
            runtime
                .set_loader(TableResolver { table, known, recorded_importer, es_modules }, TableLoader { code, index });
        }
        let context = Context::full(&runtime).map_err(|e| Error::Engine(e.to_string()))?;
        let engine = Engine { context, _runtime: runtime, sources, deadline };
        engine.install(limits)?;
        Ok(engine)
    }

    fn install(&self, limits: &Limits) -> Result<()> {
        let probes = format!(
            "Object.defineProperty(globalThis, '__fc$s', {{ value: new Uint8Array({}) }});\
             Object.defineProperty(globalThis, '__fc$b', {{ value: new Uint8Array({branches}) }});\
             Object.defineProperty(globalThis, '{DISTANCES}', {{ value: new Float64Array({branches}).fill(Infinity) }});",
            self.sources.statement_count.max(1),
            branches = self.sources.branch_count.max(1)
        );
        self.eval_setup(&probes, "installing probes")?;
        self.eval_setup(crate::instrument::RUNTIME_JS, "installing the coverage runtime")?;
        // Randomness and the clock are fixed before any user code runs, from the same seed as in
        // exported suites, and again for every test from the test's seed.
        let determinism = format!(
            "Object.defineProperty(globalThis, '__fc$deterministic', {{ value: ({DETERMINISM_JS}) }}); \
             __fc$deterministic(globalThis, {LOAD_SEED});"
        );
        self.eval_setup(&determinism, "fixing randomness and the clock")?;
        self.eval_setup(HARNESS_JS, "installing the harness")?;
        self.install_console()?;
        // What the global object holds before user code runs: discovery looks at what is added.
        self.eval_setup(
            "Object.defineProperty(globalThis, '__fc$baseline', { value: new Set(Object.getOwnPropertyNames(globalThis)) });",
            "recording the built-in globals",
        )?;
        self.deadline.set(limits.load_time);
        let loaded = self.load_program();
        let timed_out = self.deadline.passed();
        self.deadline.clear();
        match loaded {
            Err(Error::Load { file, .. }) if timed_out => Err(Error::Load {
                file,
                message: format!(
                    "did not finish within {} s (an endless loop at load time?)",
                    limits.load_time.as_secs()
                ),
            }),
            other => other,
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
                    ModuleKind::Script if file.given => self.start_module(&ctx, index)?,
                    ModuleKind::EsModule => {}
                    _ => {
                        let source = format!("{COMMONJS_HEADER}{}\n}})", file.code);
                        let factory: Function = eval_script(&ctx, &self.sources.scripts, &source, &file.engine_name)
                            .map_err(|e| failed(&ctx, e))?;
                        let deps = Object::new(ctx.clone()).map_err(|e| failed(&ctx, e))?;
                        for (spec, target) in &file.deps {
                            deps.set(spec.as_str(), *target).map_err(|e| failed(&ctx, e))?;
                        }
                        let define: Function = globals.get("__fc$defineModule").map_err(|e| failed(&ctx, e))?;
                        define
                            .call::<_, ()>((index, factory, file.engine_name.as_str(), file.dirname.as_str(), deps))
                            .map_err(|e| failed(&ctx, e))?;
                    }
                }
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
                let require: Function = globals.get("__fc$require").map_err(failed)?;
                require.call::<_, Value>((index,)).map_err(failed)?;
            }
            ModuleKind::EsModule => {
                let namespace: Object = Module::import(ctx, file.engine_name.as_str())
                    .and_then(|promise| promise.finish::<Object>())
                    .map_err(failed)?;
                let namespaces: Object = globals.get("__fc$ns").map_err(failed)?;
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
                    .set("__fc$print", print)
                    .map_err(|e| Error::Engine(format!("installing console: {}", exception_text(&ctx, e))))
            })?;
        }
        self.eval_setup(CONSOLE_JS, "installing console")
    }

    /// Evaluates harness-side JavaScript that answers with a string.
    pub(crate) fn eval_string(&self, script: &str, what: &str) -> Result<String> {
        self.context.with(|ctx| {
            eval_script::<String>(&ctx, &self.sources.scripts, script, "<flycatcher setup>")
                .map_err(|e| Error::Engine(format!("{what}: {}", exception_text(&ctx, e))))
        })
    }

    /// Evaluates harness-side JavaScript (not user code) in the global scope.
    pub(crate) fn eval_setup(&self, script: &str, what: &str) -> Result<()> {
        self.context.with(|ctx| {
            eval_script::<()>(&ctx, &self.sources.scripts, script, "<flycatcher setup>")
                .map_err(|e| Error::Engine(format!("{what}: {}", exception_text(&ctx, e))))
        })
    }

    pub(crate) fn discover(&mut self, roots: &[String], depth: usize) -> Result<String> {
        let script = format!(
            "(function () {{ var roots = []; {} return __fc$discover(roots, {depth}); }})()",
            roots
                .iter()
                .enumerate()
                .map(|(i, root)| format!("try {{ roots.push([[{i}], ({root})]); }} catch (e) {{}}"))
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

    pub(crate) fn run(
        &mut self,
        test: &str,
        seed: u32,
        watch: &Watch,
        describe: bool,
        limit: Duration,
    ) -> Result<Execution> {
        let sources = self.sources.clone();
        let deadline = self.deadline.clone();
        self.context.with(|ctx| {
            let engine_error = |e: rquickjs::Error| Error::Engine(exception_text(&ctx, e));
            let globals = ctx.globals();
            probes::<u8>(&globals, "__fc$s", watch.statements.clone(), |bytes| bytes.fill(0)).map_err(engine_error)?;
            probes::<u8>(&globals, "__fc$b", watch.branches.clone(), |bytes| bytes.fill(0)).map_err(engine_error)?;
            if sources.distances {
                probes::<f64>(&globals, DISTANCES, watch.branches.clone(), |bytes| {
                    bytes.chunks_exact_mut(8).for_each(|d| d.copy_from_slice(&f64::INFINITY.to_ne_bytes()))
                })
                .map_err(engine_error)?;
                // The stack's depth: a throw out of a half-evaluated condition leaves pairs behind.
                probes::<f64>(&globals, STACK, 0..1, |depth| depth.copy_from_slice(&0f64.to_ne_bytes()))
                    .map_err(engine_error)?;
            }
            let exec: Function = globals.get("__fc$exec").map_err(engine_error)?;
            let running: TypedArray<u32> = globals.get("__fc$at").map_err(engine_error)?;
            deadline.set(limit);
            let mut result = exec.call::<_, String>((test, seed, describe));
            let awaiting = matches!(&result, Ok(info) if info == AWAITING);
            if awaiting {
                // Each job runs under the test's deadline: once it has passed, the rest are interrupted
                // at once.
                while ctx.execute_pending_job() {}
            }
            let timed_out = deadline.passed();
            deadline.clear();
            let mut awaited = Vec::new();
            if awaiting {
                let settled: Function = globals.get("__fc$settled").map_err(engine_error)?;
                // A test whose promise never settles (it waits for something that never comes) would
                // fail under a runner as well; it ends as if it had not finished.
                result = match settled.call::<_, Option<String>>(()).map_err(engine_error)? {
                    Some(info) => Ok(info),
                    None => Err(rquickjs::Error::Exception),
                };
                let list: Function = globals.get("__fc$awaited").map_err(engine_error)?;
                let text: String = list.call(()).map_err(engine_error)?;
                awaited = text.split(',').filter_map(|i| i.parse().ok()).collect();
            }
            let outcome = match result {
                Ok(info) if info.is_empty() => Outcome::Passed,
                Ok(info) => outcome_of_error_info(&info, |f| sources.is_user_file(f)),
                Err(rquickjs::Error::Exception) => {
                    let text = exception_text(&ctx, rquickjs::Error::Exception);
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
                Err(rquickjs::Error::Allocation) => Outcome::OutOfMemory,
                Err(e) => return Err(engine_error(e)),
            };
            let cut_at = if matches!(outcome, Outcome::TimedOut | Outcome::OutOfMemory) {
                // SAFETY: `as_raw` checks that the buffer is attached; the harness holds the array, and no
                // JavaScript runs while the slice is read.
                running.as_raw().and_then(|raw| unsafe { (*raw.as_ptr()).first() }).map(|at| *at as usize)
            } else {
                None
            };
            if outcome == Outcome::OutOfMemory {
                // Nothing more can be read reliably from a runtime at its memory limit.
                return Ok(Execution {
                    outcome,
                    events: Vec::new(),
                    statements: Vec::new(),
                    branches: Vec::new(),
                    distances: Vec::new(),
                    results: Vec::new(),
                    cut_at,
                    awaited,
                });
            }
            let end: Function = globals.get("__fc$end").map_err(engine_error)?;
            let log: String = end.call(()).map_err(engine_error)?;
            let events = if log.is_empty() { Vec::new() } else { parse_log(&log, |f| sources.is_user_file(f)) };
            let mut statements = Vec::new();
            probes::<u8>(&globals, "__fc$s", watch.statements.clone(), |bytes| statements = set_offsets(bytes))
                .map_err(engine_error)?;
            let mut branches = Vec::new();
            probes::<u8>(&globals, "__fc$b", watch.branches.clone(), |bytes| branches = set_offsets(bytes))
                .map_err(engine_error)?;
            let mut distances = Vec::new();
            if sources.distances {
                probes::<f64>(&globals, DISTANCES, watch.branches.clone(), |bytes| distances = near_misses(bytes))
                    .map_err(engine_error)?;
            }
            let results = if describe {
                let read: Function = globals.get("__fc$results").map_err(engine_error)?;
                let json: String = read.call(()).map_err(engine_error)?;
                serde_json::from_str::<Vec<DescribedResult>>(&json)
                    .map_err(|e| Error::Engine(format!("reading results: {e}")))?
            } else {
                Vec::new()
            };
            Ok(Execution { outcome, events, statements, branches, distances, results, cut_at, awaited })
        })
    }
}

/// Runs `f` with a non-strict `eval` of a plain QuickJS context: no limits, harness or instrumentation.
/// Benchmarks compare Flycatcher's runs with this bare engine.
pub fn with_bare_context<R>(f: impl FnOnce(&dyn Fn(&str) -> Result<()>) -> Result<R>) -> Result<R> {
    let engine = |e: rquickjs::Error| Error::Engine(e.to_string());
    let runtime = Runtime::new().map_err(engine)?;
    let context = Context::full(&runtime).map_err(engine)?;
    context.with(|ctx| {
        let eval = |code: &str| {
            let mut options = rquickjs::context::EvalOptions::default();
            options.strict = false;
            ctx.eval_with_options::<(), _>(code, options).map_err(engine)
        };
        f(&eval)
    })
}

/// What the harness answers for a test that awaits a promise (see `harness.js`).
const AWAITING: &str = "\u{1}async";

fn set_offsets(bytes: &[u8]) -> Vec<u32> {
    bytes.iter().enumerate().filter(|(_, b)| **b != 0).map(|(i, _)| i as u32).collect()
}

/// Branch outcomes reached but not taken, with their distances (see [`crate::instrument::DISTANCES`]):
/// offsets with a finite distance above 0, read from native-endian `f64`s.
fn near_misses(bytes: &[u8]) -> Vec<(u32, f64)> {
    bytes
        .chunks_exact(8)
        .map(|d| f64::from_ne_bytes(d.try_into().expect("chunks of 8")))
        .enumerate()
        .filter(|(_, d)| d.is_finite() && *d > 0.0)
        .map(|(i, d)| (i as u32, d))
        .collect()
}

/// Gives `f` the bytes of the elements in `range` of the harness's typed array `name` of `T`s.
fn probes<'js, T>(
    globals: &Object<'js>,
    name: &str,
    range: std::ops::Range<u32>,
    f: impl FnOnce(&mut [u8]),
) -> rquickjs::Result<()>
where
    TypedArray<'js, T>: rquickjs::FromJs<'js>,
{
    if range.is_empty() {
        return Ok(());
    }
    let array: TypedArray<'js, T> = globals.get(name)?;
    // User code could detach the buffer (`__fc$s.buffer.transfer()`): then there is nothing to read.
    let Some(raw) = array.as_raw() else { return Ok(()) };
    // SAFETY: `as_raw` has just checked that the buffer is attached, and the slice lives only while this
    // function runs, during which no JavaScript runs that could detach or resize it.
    let bytes = unsafe { &mut *raw.as_ptr() };
    let width = std::mem::size_of::<T>();
    let end = (range.end as usize * width).min(bytes.len());
    let start = (range.start as usize * width).min(end);
    f(&mut bytes[start..end]);
    Ok(())
}

/// Compiled scripts shared by the engines of one sandbox. Every test that must run alone gets a new
/// engine, and parsing the harness and the program again each time would cost more than the test:
/// a new engine reads their bytecode instead.
#[derive(Default)]
pub(crate) struct ScriptCache(Mutex<HashMap<(String, u64), Vec<u8>>>);

/// Evaluates a global, non-strict script named `filename`, from `cache`'s bytecode when it has it.
fn eval_script<'js, V: rquickjs::FromJs<'js>>(
    ctx: &Ctx<'js>,
    cache: &ScriptCache,
    code: &str,
    filename: &str,
) -> rquickjs::Result<V> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    code.hash(&mut hasher);
    let key = (filename.to_string(), hasher.finish());
    let raw = ctx.as_raw().as_ptr();
    let is_exception = |v: qjs::JSValue| unsafe { qjs::JS_VALUE_GET_NORM_TAG(v) == qjs::JS_TAG_EXCEPTION };
    let cached = cache.0.lock().ok().and_then(|c| c.get(&key).cloned());
    // SAFETY: `raw` is the live context of `ctx`; every JSValue made here is either handed on to a call
    // that takes ownership of it (JS_EvalFunction) or wrapped in a `Value` that frees it; the bytecode
    // buffer from JS_WriteObject is copied and freed with the context's allocator.
    let function = unsafe {
        match cached {
            Some(bytes) => qjs::JS_ReadObject(raw, bytes.as_ptr(), bytes.len() as _, qjs::JS_READ_OBJ_BYTECODE as i32),
            None => {
                let source = CString::new(code)?;
                let name = CString::new(filename)?;
                let flags = (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32;
                let function = qjs::JS_Eval(raw, source.as_ptr(), code.len() as _, name.as_ptr(), flags);
                if !is_exception(function) {
                    let mut size = 0;
                    let bytes = qjs::JS_WriteObject(raw, &mut size, function, qjs::JS_WRITE_OBJ_BYTECODE as i32);
                    if !bytes.is_null() {
                        let copy = std::slice::from_raw_parts(bytes, size as usize).to_vec();
                        qjs::js_free(raw, bytes.cast());
                        if let Ok(mut c) = cache.0.lock() {
                            c.insert(key, copy);
                        }
                    }
                }
                function
            }
        }
    };
    if is_exception(function) {
        return Err(rquickjs::Error::Exception);
    }
    // SAFETY: as above; JS_EvalFunction takes ownership of `function`.
    let result = unsafe { qjs::JS_EvalFunction(raw, function) };
    if is_exception(result) {
        return Err(rquickjs::Error::Exception);
    }
    // SAFETY: `result` is a new value owned by us, now by the `Value`.
    V::from_js(ctx, unsafe { Value::from_raw(ctx.clone(), result) })
}

/// Text of a pending exception (or of a non-JavaScript error): name, message and the top frame.
fn exception_text(ctx: &Ctx, error: rquickjs::Error) -> String {
    if !matches!(error, rquickjs::Error::Exception) {
        return error.to_string();
    }
    let value = ctx.catch();
    if let Some(exception) = value.as_exception() {
        let message = exception.message().unwrap_or_default();
        let name: String = exception.get("name").unwrap_or_else(|_| "Error".into());
        let frame = exception
            .stack()
            .and_then(|s| s.lines().find(|l| l.contains(':')).map(|l| l.trim().to_string()))
            .unwrap_or_default();
        if frame.is_empty() { format!("{name}: {message}") } else { format!("{name}: {message} ({frame})") }
    } else {
        value
            .as_string()
            .and_then(|s| s.to_string().ok())
            .map(|s| format!("threw {s:?}"))
            .unwrap_or_else(|| format!("threw a {}", value.type_name()))
    }
}

/// Turns the harness's description of a caught exception into an outcome.
fn outcome_of_error_info(json: &str, is_user_file: impl Fn(&str) -> bool) -> Outcome {
    let info: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let at = info.get("at").and_then(|a| a.as_u64()).unwrap_or(0) as usize;
    let text = |k: &str| info.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    if info.get("error").and_then(|e| e.as_bool()).unwrap_or(false) {
        let (name, message) = (text("name"), text("message"));
        if name == "RangeError" && message.contains("call stack") || message == "stack overflow" {
            Outcome::StackOverflow { at }
        } else if message == "out of memory" {
            Outcome::OutOfMemory
        } else {
            let origin = first_user_frame(&text("stack"), is_user_file);
            Outcome::Threw { at, thrown: Thrown::Error { name, message, origin } }
        }
    } else {
        Outcome::Threw { at, thrown: Thrown::Value(info.get("value").cloned().unwrap_or_default()) }
    }
}
