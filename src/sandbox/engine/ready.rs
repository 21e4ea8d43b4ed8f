//! What an engine is like once ready for its first test, kept so that an engine taken from the
//! thread's pool (`sandbox/pool.rs`) is put back so, or not taken.
//!
//! The journal puts back what tests wrote to the program's state, and the built-ins' guard refuses an
//! engine whose tests changed a built-in; what neither sees, and a new engine would not have, is here:
//! - the countdown to QuickJS's next interrupt check (see `qjs/countdown.rs`), which counts a test's
//!   work: set back;
//! - the collector's threshold, which collecting moves: set back to the one the runtime was built with;
//! - Node's globals made on first use (`js/node/globals.js`): a context where a test made one (`Buffer`)
//!   would give the next test it without the work of making it, so it is not kept;
//! - a rejection the harness has not been told of, and jobs left queued: not kept.
//!
//! What no engine can be put back to is the bytes its runtime holds (what tests left for the collector,
//! the atoms and shapes they made): the collector and the memory limit may come a few bytes sooner in a
//! reused engine, as they do for the second test in any engine.

use std::sync::atomic::Ordering;

use super::Engine;
use super::script::{HARNESS_SCRIPTS, SETUP, eval_script};
use crate::js::{LAZY_GLOBALS, PRIMORDIALS};
use crate::sandbox::qjs::Cx;

/// What [`Engine::mark_ready`] noted.
pub(super) struct Ready {
    /// Ticks left before the next interrupt check.
    countdown: i32,
    /// The names of Node's globals not made yet, as [`Engine::lazy_globals`] lists them.
    lazy: String,
}

impl Engine {
    /// Notes what the engine is like once ready for its first test, which [`Engine::as_ready`] sets
    /// back or checks, and leaves it as it was (the countdown is read first and set back last).
    pub(crate) fn mark_ready(&mut self) {
        if !self.countdown_known || self.rejected.load(Ordering::Relaxed) {
            return;
        }
        let Some(countdown) = self.context.with(|ctx| Cx::of(&ctx).countdown()) else { return };
        let lazy = self.lazy_globals();
        self.context.with(|ctx| Cx::of(&ctx).set_countdown(countdown));
        self.ready = lazy.map(|lazy| Ready { countdown, lazy });
    }

    /// Puts the engine back as [`Engine::mark_ready`] noted it, for a test of another sandbox to find it
    /// as in a new engine: false when it cannot be (nothing noted, or its tests left what no new engine
    /// has), and then it must not be reused.
    pub(crate) fn as_ready(&mut self) -> bool {
        let Some(ready) = &self.ready else { return false };
        let countdown = ready.countdown;
        let clean = !self.rejected.load(Ordering::Relaxed)
            && !self.runtime.is_job_pending()
            && self.lazy_globals().as_deref() == Some(ready.lazy.as_str());
        if clean {
            self.runtime.set_gc_threshold(self.gc_threshold);
            self.context.with(|ctx| Cx::of(&ctx).set_countdown(countdown));
        }
        clean
    }

    /// The names of Node's globals not made yet, space-separated; none when they cannot be read.
    fn lazy_globals(&self) -> Option<String> {
        let script = format!(
            "(() => {{ const names = {LAZY_GLOBALS}; let lazy = ''; \
             for (let i = 0; i < names.length; i++) {{ \
               const own = {PRIMORDIALS}.descriptor(globalThis, names[i]); \
               if (own !== undefined && typeof own.get === 'function') lazy += names[i] + ' '; \
             }} return lazy; }})()"
        );
        self.context.with(|ctx| eval_script::<String>(&ctx, &HARNESS_SCRIPTS, &script, SETUP).ok())
    }
}
