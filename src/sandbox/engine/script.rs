//! Evaluating Flycatcher's own scripts: compiled once to bytecode and cached for every engine, with
//! errors read back as text.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex};

use rquickjs::module::Declared;
use rquickjs::{Ctx, Module};

use crate::js::node;
use crate::sandbox::qjs::script::{self, Bytecode};

/// A script's name and the hash of its text.
type ScriptKey = (String, u64);

/// Compiled scripts and ES modules shared by engines. Every test that must run alone gets a new engine,
/// and parsing the harness and the program again each time would cost more than the test: a new engine
/// reads their bytecode instead. The program's own files are cached by the sandbox that loads them
/// ([`super::Sources::scripts`]), Flycatcher's scripts and Node's built-in modules once for the process
/// ([`HARNESS_SCRIPTS`], [`NODE_SCRIPTS`]). A mutant's cache lies over the original program's
/// ([`ScriptCache::over`]): every file but the mutated one is the same text, already compiled.
#[derive(Default)]
pub(crate) struct ScriptCache {
    /// Bytecode by (file name, hash of the text); shared, not copied, by the engines reading it.
    compiled: Mutex<HashMap<ScriptKey, Bytecode>>,
    /// Where a script not compiled here is looked up next; what this cache compiles stays in it.
    base: Option<Arc<ScriptCache>>,
    /// Whether functions compiled here answer `toString` with `[native code]` rather than their text
    /// (see [`HARNESS_SCRIPTS`]).
    strip_source: bool,
}

impl ScriptCache {
    /// An empty cache that reads what `base` holds and adds nothing to it.
    pub(crate) fn over(base: Arc<ScriptCache>) -> ScriptCache {
        ScriptCache { compiled: Mutex::default(), base: Some(base), strip_source: false }
    }

    fn get(&self, key: &ScriptKey) -> Option<Bytecode> {
        let own = self.compiled.lock().ok().and_then(|c| c.get(key).cloned());
        own.or_else(|| self.base.as_ref().and_then(|b| b.get(key)))
    }

    fn insert(&self, key: ScriptKey, bytes: Bytecode) {
        if let Ok(mut c) = self.compiled.lock() {
            c.insert(key, bytes);
        }
    }
}

/// Bytecode of the scripts whose text is the same in every sandbox: Flycatcher's own and Node's built-in
/// modules. Mutation analysis opens a sandbox per mutant, whose first engine compiled them all again:
/// about three quarters of its 7.5 ms. This one holds what is JavaScript in Node too (its built-in
/// modules, `Buffer`, `TextEncoder`, the timers: `node/`), whose functions keep their text.
pub(crate) static NODE_SCRIPTS: LazyLock<ScriptCache> = LazyLock::new(ScriptCache::default);

/// Flycatcher's own scripts (the harness, the encoder, the journal, the determinism shim, and the setup
/// written for a program, such as its probe arrays and class bindings), compiled without the text of
/// their functions: reading that text into every new engine was ~50 us of the ~1.3 ms of building
/// one, and what the code under test can reach of them (`Math.random`, the clock, corrected or
/// guarded built-ins, `console`) is native code in Node, whose `toString` says `[native code]` as
/// theirs now does.
pub(crate) static HARNESS_SCRIPTS: LazyLock<ScriptCache> =
    LazyLock::new(|| ScriptCache { strip_source: true, ..ScriptCache::default() });

fn key_of(filename: &str, code: &str) -> ScriptKey {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    code.hash(&mut hasher);
    (filename.to_string(), hasher.finish())
}

/// Compiles ES module `name` from `code`, or reads it from `cache`'s bytecode when it has it: every
/// engine imports the program's modules, and compiling them cost more than loading bytecode, as for
/// scripts.
pub(super) fn declare_module<'js>(
    ctx: &Ctx<'js>,
    cache: &ScriptCache,
    name: &str,
    code: &str,
) -> rquickjs::Result<Module<'js, Declared>> {
    let key = key_of(name, code);
    if let Some(bytes) = cache.get(&key) {
        return script::load_module(ctx, &bytes);
    }
    let module = Module::declare(ctx.clone(), name, code)?;
    match script::write_module(&module) {
        Some(bytes) => cache.insert(key, bytes),
        // A module that cannot be written is still declared, and the next engine compiles it again; the
        // exception the failed write left pending must not be taken for the module's own.
        None => drop(ctx.catch()),
    }
    Ok(module)
}

/// Evaluates a global, non-strict script named `filename`, from `cache`'s bytecode when it has it.
pub(super) fn eval_script<'js, V: rquickjs::FromJs<'js>>(
    ctx: &Ctx<'js>,
    cache: &ScriptCache,
    code: &str,
    filename: &str,
) -> rquickjs::Result<V> {
    let key = key_of(filename, code);
    let compiled = match cache.get(&key) {
        Some(bytes) => script::read(ctx, &bytes)?,
        None => {
            let compiled = script::compile(ctx, code, filename)?;
            if let Some(bytes) = compiled.write(cache.strip_source) {
                cache.insert(key, bytes);
            }
            compiled
        }
    };
    V::from_js(ctx, compiled.run()?)
}

/// The name Flycatcher's own scripts run under, in stack frames.
pub(super) const SETUP: &str = "<flycatcher setup>";

/// Text of a pending exception (or of a non-JavaScript error): name, message and the top frame of the
/// program's own code, where there is one: a `require` of a missing package or a use of a host module
/// throws in Flycatcher's code (or a built-in's stand-in), called from the user's line that matters.
pub(super) fn exception_text(ctx: &Ctx, error: rquickjs::Error) -> String {
    if !matches!(error, rquickjs::Error::Exception) {
        return error.to_string();
    }
    let value = ctx.catch();
    if let Some(exception) = value.as_exception() {
        let message = exception.message().unwrap_or_default();
        let name: String = exception.get("name").unwrap_or_else(|_| "Error".into());
        let frame = exception
            .stack()
            .and_then(|s| {
                let mut frames = s.lines().filter(|l| l.contains(':'));
                let own = |l: &&str| !l.contains(SETUP) && !l.contains(&format!("({}", node::PREFIX));
                frames.clone().find(own).or_else(|| frames.next()).map(|l| l.trim().to_string())
            })
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
