//! The JavaScript an exported suite carries beside its tests: how it loads fresh copies of the code under
//! test for every test, and the glue some runners need to learn when a test has finished. Each program is a
//! real file in `runners/`, copied into suites as it is (so these texts are part of every suite written:
//! changing a byte changes every exported file). Loaders hold the placeholder [`FILES`] where the suite writes
//! the paths of its subject files.
//!
//! Like the rest of [`crate::js`], this imports nothing else of the crate.

/// The placeholder in a loader's text that becomes the items of its array of subject file paths, one per
/// line, each with a trailing comma.
pub(crate) const FILES: &str = "FILES";

/// Plain scripts: compiled once under their real paths, run in order in a new `vm` context per test; test
/// bodies are compiled again inside that context (`inContext`), so that their literals, arrays and errors
/// share the scripts' realm. Needs `fs`, `vm`, `path`, `__filename`, `__dirname` and `assert`.
pub(crate) const SCRIPTS_JS: &str = include_str!("runners/scripts.js");

/// CommonJS modules, required afresh per test (`requireFresh`) after dropping them, and the files they
/// required outside `node_modules`, from `require.cache`.
pub(crate) const COMMON_JS_JS: &str = include_str!("runners/commonjs.js");

/// CommonJS modules under jest, whose module registry is its own: `requireFresh` loads them inside
/// `jest.isolateModules`.
pub(crate) const JEST_COMMON_JS_JS: &str = include_str!("runners/jest-commonjs.js");

/// ES modules under jest (which loads them only with `NODE_OPTIONS=--experimental-vm-modules`):
/// `importFresh` imports them inside `jest.isolateModulesAsync`.
pub(crate) const JEST_ES_MODULES_JS: &str = include_str!("runners/jest-esm.js");

/// ES modules under vitest: `importFresh` empties vitest's module registry (`vi.resetModules`) first.
pub(crate) const VITEST_ES_MODULES_JS: &str = include_str!("runners/vitest-esm.js");

/// ES modules under Node's own loader: `importFresh` imports them with a new query string per test, and a
/// resolve hook, registered once per process, hands that query on to their relative imports.
pub(crate) const ES_MODULES_JS: &str = include_str!("runners/esm.js");

/// Under Node (tsx), TypeScript files that are modules compiled strict as CommonJS: a `Module.prototype._compile`
/// hook, installed once per process; [`FILES`] lists the `.ts` files that are not modules. Needs `path`,
/// `__dirname` and `Module`.
pub(crate) const STRICT_TYPESCRIPT_JS: &str = include_str!("runners/strict-typescript.js");

/// `undo(g)`: gives a realm its own clocks and `Math.random` back after [`DETERMINISM_JS`](super::DETERMINISM_JS)
/// fixed them, once a test of modules (which run in the suite's own realm) is over.
pub(crate) const UNDO_JS: &str = include_str!("runners/undo.js");

/// `withoutGlobals(g, names, load)`: calls `load` with the globals `names` of realm `g` hidden (read as
/// `undefined`) and gives them back once it has loaded (once its promise settles, for ES modules): the
/// globals Node has and the sandbox lacked that the code read while it loaded there.
pub(crate) const WITHOUT_GLOBALS_JS: &str = include_str!("runners/without-globals.js");

/// `settle(body, callback)`: runs a test whether it finishes at once or later and calls back once with its
/// error or `null`, for runners that learn the outcome through a callback (nodeunit, expresso, vows).
pub(crate) const SETTLE_JS: &str = include_str!("runners/settle.js");

/// expresso's `settled(body)`: starts a test through `settle` and returns the check that expresso's
/// `beforeExit` calls when the process is about to exit.
pub(crate) const EXPRESSO_SETTLED_JS: &str = include_str!("runners/expresso-settled.js");

/// vows' `passes` vow: rethrows the error a topic handed it, so that a failed assertion counts as broken.
pub(crate) const VOWS_PASSES_JS: &str = include_str!("runners/vows-passes.js");

/// The assert format's runner loop over `tests` (`[title, body]` pairs): a TAP line per test and a
/// `N passed, N failed` line, exiting with 1 unless every test passed; `skipping`, when not `false`, is why
/// every test is skipped. Ends without a newline.
pub(crate) const ASSERT_RUN_JS: &str = include_str!("runners/assert-run.js");
