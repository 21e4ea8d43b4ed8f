//! A bare QuickJS context, without the program or the harness: what the benchmarks compare against.

use rquickjs::{Context, Runtime};

use crate::error::{Error, Result};

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
