//! JavaScript as Flycatcher writes and reads it: the programs the sandbox installs beside the code under
//! test (real `.js` files in this folder), the `__fc$` names through which Rust and those programs talk,
//! and the language's own rules where Rust needs them: literals ([`literal`]), `Number(text)`
//! ([`number`]) and regular expressions as generators ([`regex`]).
//!
//! This is the bottom layer: it imports nothing else of the crate, so every other layer may use it.
//!
//! # The protocol
//! Every `__fc$` name Rust, these programs and the instrumented code share is in [`protocol`], one
//! table that a test checks against the `.js` files; its constants are re-exported here.

pub(crate) mod literal;
pub(crate) mod node;
pub(crate) mod number;
pub(crate) mod protocol;
pub(crate) mod regex;
pub(crate) mod runners;

pub(crate) use protocol::*;

/// The name of the error a test that reached the host ends with (never a regression test).
pub(crate) const HOST_ACCESS_ERROR: &str = "HostAccessError";

/// The name of the error a test that left a promise rejected with no handler ends with (never a
/// regression test: Node fails it, see `harness.js`); its message is the reason's `name: message`.
pub(crate) const UNHANDLED_REJECTION: &str = "UnhandledRejection";

/// The name of the error a test ends with when a timer's callback threw, in the test or firing after it
/// (never a regression test: Node reports it as uncaught and fails the test, see `harness.js`); its
/// message is the error's `name: message`.
pub(crate) const UNCAUGHT_EXCEPTION: &str = "UncaughtException";

/// The built-ins that [`HARNESS_JS`], [`RECORDER_JS`], [`CONSOLE_JS`] and the describers use, captured on
/// the hidden global [`PRIMORDIALS`] before any code under test runs (Node calls them primordials), with
/// the rules those programs follow so that nothing the code under test does to a built-in (a throwing
/// `Object.prototype.toJSON`, a patched `Array.prototype.push`, `JSON` or `Proxy` replaced) changes or
/// stops them. Installed first in every context.
pub(crate) const PRIMORDIALS_JS: &str = include_str!("primordials.js");

/// Has a test changed a built-in? `snapshot()` records the own properties of the global object, the
/// built-ins it holds and their prototypes once the program has loaded; `changed(all)` names the first
/// that differs now (`Array.prototype.push`), or answers `''`. Each call checks the prototypes every
/// value inherits from and a slice of the rest, so that checking after every test costs little; `all`
/// checks everything.
pub(crate) const BUILTINS_JS: &str = include_str!("builtins.js");

/// Flycatcher's side of the sandbox: recording and inert proxies, the test interpreter, result
/// descriptions and discovery. Installed in every context before the code under test.
pub(crate) const HARNESS_JS: &str = include_str!("harness.js");

/// Record mode's recorder: wraps the program's classes and logs the outermost constructions and calls.
pub(crate) const RECORDER_JS: &str = include_str!("recorder.js");

/// The program's `console`, as under Node but host-free: with [`PRINT`] defined (record mode's entry
/// script) the logging methods hand it one line, strings as they are and other values as JSON where
/// they can be; without it (generated tests) every method does nothing, so code that warns or logs runs
/// as it would under Node instead of throwing `ReferenceError: console`.
pub(crate) const CONSOLE_JS: &str = include_str!("console.js");

/// Makes the code under test deterministic in a global scope, in the sandbox and in exported suites
/// alike: `Math.random` is the harness's xorshift32 from the test's seed, and the clock stands still at
/// 2024-01-01T00:00:00Z (`Date.now()`, `new Date()`, `Date()`), `performance.now()` at 1000 ms; dates
/// built from arguments are untouched, and subclasses of `Date` still work.
pub(crate) const DETERMINISM_JS: &str = include_str!("determinism.js");

/// Wraps the `Math` functions that are not correctly rounded (`sin`, `pow`, `asinh`...: QuickJS and V8 may
/// differ in their last bit) so that the harness knows whether a test used one, as [`INEXACT`]: the numbers
/// such a test gives are asserted within a tolerance. Installed before [`HARNESS_JS`].
pub(crate) const INEXACT_JS: &str = include_str!("inexact.js");
/// The undo journal of writes to shared state (`__fc$jv`, `__fc$jm`, `__fc$jp`, `__fc$jk`, called by the code the
/// instrumenter marked; [`UNDO`] and [`FORGET`], called by the engine), installed before any user code.
pub(crate) const JOURNAL_JS: &str = include_str!("journal.js");
/// Wraps the array methods that loop over `length` in C, where QuickJS checks no interrupt, so that a loop
/// over a sparse array a billion long ends the test at its limits instead of running for minutes: each
/// asks [`CHARGE`] first. Installed after Flycatcher's own programs, before any user code.
pub(crate) const LOOPS_JS: &str = include_str!("loops.js");
/// Replaces the `Promise` constructor, which runs its executor in C and turns an interrupt the executor
/// meets into a rejection, by one that runs the executor in JavaScript, where the interrupt ends the test
/// at its limits. Installed after Flycatcher's own programs, before any user code.
pub(crate) const EXECUTOR_JS: &str = include_str!("executor.js");
/// Corrections of where QuickJS departs from the specification and V8 does not (Date setters given
/// NaN), or reads what the specification leaves to the engine otherwise than V8 (dates read from strings:
/// `dates.js`), installed before any user code so that the sandbox observes what Node will.
pub(crate) const PARITY_JS: &str = concat!(include_str!("dates.js"), include_str!("parity.js"));

/// The seed of `Math.random` while the code under test loads, before each test's own seed applies.
pub(crate) const LOAD_SEED: u32 = 1;

/// What instrumented code calls: the branch helpers `__fc$c` (truthiness) and `__fc$n` (nullishness) of
/// `probes.js` (with `__fc$sp`, an object spread's operand, see `instrument/parity.rs`), the
/// branch-distance helpers of `distance.js` (`__fc$q`, `__fc$w`, `__fc$t`, `__fc$j`, `__fc$x`, `__fc$v`,
/// with their stack [`STACK`] and the switch [`MEASURING`]), and the pattern observer of `patterns.js`
/// (`__fc$o`, `__fc$a`; the harness tells it each test's arguments through `__fc$observe`). They expect
/// [`BRANCHES`] (and [`DISTANCES`]) to be installed already and look them up on every call, so the
/// caller may replace the arrays between runs. They are non-enumerable, none converts its argument (a
/// recording proxy must not notice them), and they capture what they use from the built-ins before user
/// code runs, so code under test that replaces `Math`, `RegExp.prototype` or `String.prototype.charCodeAt`
/// cannot change their results, nor see them.
pub(crate) const RUNTIME_JS: &str =
    concat!(include_str!("probes.js"), include_str!("distance.js"), include_str!("patterns.js"));
