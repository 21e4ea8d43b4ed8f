//! Clean engines kept on a thread between sandboxes of one program, for tests run alone.
//!
//! A sandbox keeps the context its tests run alone in while the journal puts it back as the program
//! loaded (see [`super::Sandbox::run_isolated`]); when the sandbox goes, that context is as good as a
//! new one for the next sandbox of the same program on the thread: the units of `generate --jobs` (a
//! session per class, one after another on a worker), the originals of a mutation analysis, the
//! sessions the bench opens one after another. Without it, each of those builds the engine again at its
//! first election (reading the harness and the program, running the setup, the built-ins' snapshot).
//! Engines never leave their thread (QuickJS runtimes stay on the thread that made them); one is kept
//! at a time, so a thread holds at most one engine more than its sandboxes.

use std::cell::RefCell;

use super::engine::{Engine, Sources};
use crate::model::settings::Limits;

/// An engine kept, and what it was built for besides its program.
struct Kept {
    engine: Engine,
    /// The script that bound its classes (see [`super::Sandbox::bind_classes`]).
    bound: Option<String>,
    /// The limits it was built under: its runtime's memory and stack, and what loading it was allowed.
    limits: Limits,
}

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// Keeps `engine`, clean (the journal undid what its tests wrote, no built-in changed), for the next
/// sandbox of its program on this thread; the engine kept before goes.
pub(super) fn keep(engine: Engine, bound: Option<String>, limits: &Limits) {
    let kept = Kept { engine, bound, limits: limits.clone() };
    // Dropped outside the borrow: freeing a runtime runs no code of ours, but the order costs nothing.
    let before = KEPT.with(|k| k.borrow_mut().replace(kept));
    drop(before);
}

/// The engine kept for the program of `sources` with its classes bound by `bound`, built under the
/// same limits, if there is one.
pub(super) fn take(sources: &Sources, bound: Option<&str>, limits: &Limits) -> Option<Engine> {
    KEPT.with(|k| {
        let mut kept = k.borrow_mut();
        let fits = kept
            .as_ref()
            .is_some_and(|e| e.bound.as_deref() == bound && same_build(&e.limits, limits) && e.engine.loads(sources));
        if fits { kept.take().map(|e| e.engine) } else { None }
    })
}

/// Lets the engine kept go unless it loads the program of `sources`: a thread that moved on to
/// another program need not hold the last one's.
pub(super) fn forget_unless(sources: &Sources) {
    let before = KEPT.with(|k| {
        let mut kept = k.borrow_mut();
        if kept.as_ref().is_some_and(|e| !e.engine.loads(sources)) { kept.take() } else { None }
    });
    drop(before);
}

/// Whether an engine built under `a` is one built under `b`: the runtime's limits and the load's work
/// limit (a program that loads within one may not within the other). A test's own time is set per run.
fn same_build(a: &Limits, b: &Limits) -> bool {
    a.memory == b.memory && a.stack == b.stack && a.load_work == b.load_work && a.load_time == b.load_time
}
