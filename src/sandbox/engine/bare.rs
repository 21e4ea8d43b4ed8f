//! Bare QuickJS for the benchmarks: a plain context without the program or the harness, and the program
//! loaded without instrumentation, evaluating plain test code.

use std::sync::Arc;
use std::time::Duration;

use rquickjs::context::EvalOptions;
use rquickjs::{Context, Runtime};

use super::script::exception_text;
use super::{Deadline, Engine, Sources};
use crate::error::{Error, Result};
use crate::model::settings::Limits;
use crate::sandbox::CodeBase;

/// Runs `f` with a non-strict `eval` of a plain QuickJS context: no limits, harness or instrumentation.
/// Benchmarks compare Flycatcher's runs with this bare engine.
pub fn with_bare_context<R>(f: impl FnOnce(&dyn Fn(&str) -> Result<()>) -> Result<R>) -> Result<R> {
    let engine = |e: rquickjs::Error| Error::Engine(e.to_string());
    let runtime = Runtime::new().map_err(engine)?;
    let context = Context::full(&runtime).map_err(engine)?;
    context.with(|ctx| {
        let eval = |code: &str| {
            let mut options = EvalOptions::default();
            options.strict = false;
            ctx.eval_with_options::<(), _>(code, options).map_err(engine)
        };
        f(&eval)
    })
}

/// The program as its files were written, loaded the way the sandbox loads it (scripts, CommonJS
/// factories with `require`, ES modules, Node's host-free built-ins), in one context that evaluates plain
/// JavaScript: what a minimal runner of tests needs to reach the classes of a package of any module
/// format. A plain context evaluating the source as one script cannot: `module.exports` and `export`
/// fail there.
pub struct BareProgram {
    engine: Engine,
    time_limit: Duration,
}

impl BareProgram {
    /// Loads `code`'s files uninstrumented, under `limits`.
    pub fn new(code: &CodeBase, limits: &Limits) -> Result<BareProgram> {
        let engine = Engine::new(Arc::new(Sources::plain(code)), limits, Arc::new(Deadline::new()), false)?;
        Ok(BareProgram { engine, time_limit: limits.test_time })
    }

    /// Evaluates `script` as a global non-strict script, cut off at the limits' test time (a test that
    /// loops must not hang the benchmark). An error names what it threw.
    pub fn eval(&self, script: &str) -> Result<()> {
        self.engine.deadline.set(self.time_limit);
        let evaluated = self.engine.context.with(|ctx| {
            let mut options = EvalOptions::default();
            options.strict = false;
            ctx.eval_with_options::<(), _>(script, options).map_err(|e| Error::Engine(exception_text(&ctx, e)))
        });
        self.engine.deadline.clear();
        evaluated
    }
}
