//! JavaScript as Flycatcher writes and reads it: the programs the sandbox installs beside the code under
//! test (real `.js` files in this folder), the `__fc$` names through which Rust and those programs talk,
//! and the language's own rules where Rust needs them: literals ([`literal`]), `Number(text)`
//! ([`number`]) and regular expressions as generators ([`regex`]).
//!
//! This is the bottom layer: it imports nothing else of the crate, so every other layer may use it.
//!
//! # The protocol
//! Every name the harness, the probes and the recorder put on `globalThis` starts with `__fc$` and is
//! non-enumerable, so code under test that walks the global object does not see it. The names Rust
//! writes or reads are the constants below; the rest are private to one program:
//!
//! | name | who defines it | what it is |
//! |---|---|---|
//! | [`PRIMORDIALS`] | [`PRIMORDIALS_JS`] | the built-ins every program below uses, captured before user code |
//! | [`STATEMENTS`], [`BRANCHES`] | the engine | `Uint8Array`s of statement and branch-outcome probes |
//! | [`DISTANCES`], [`STACK`] | the engine, [`RUNTIME_JS`] | branch distances per outcome; the operand stack |
//! | [`SHARED_WRITE`] | the engine | a `Uint8Array(1)` that writes to shared state set: 1 undoable, 2 not (see `instrument/writes.rs`) |
//! | `__fc$jv`, `__fc$jm`, `__fc$jp`, `__fc$jk`, [`UNDO`], [`FORGET`] | [`JOURNAL_JS`] | the undo journal of those writes |
//! | `__fc$c`, `__fc$n`, `__fc$sp`, `__fc$q`, `__fc$r`, `__fc$t`, `__fc$j`, `__fc$x`, `__fc$v`, `__fc$w`, `__fc$o`, `__fc$a` | [`RUNTIME_JS`] | helpers the instrumented code calls |
//! | [`MEASURING`] | [`RUNTIME_JS`], set by the engine | whether measured conditions take their measuring form |
//! | `__fc$observe` | [`RUNTIME_JS`] (`patterns.js`) | what the harness tells the pattern observer: a test's arguments, where to log |
//! | [`DETERMINISTIC`] | the engine, from [`DETERMINISM_JS`] | fixes `Math.random` and the clocks |
//! | [`INEXACT`] | [`INEXACT_JS`] | whether a test used an operation engines round differently |
//! | [`TIMERS`] | [`node::GLOBALS_JS`] | Node's timers, on a virtual clock |
//! | [`PRINT`] | the engine (record mode) | where [`CONSOLE_JS`] sends a printed line |
//! | [`CHARGE`] | the engine, taken by [`LOOPS_JS`] | charges a built-in's loop over an array's length as work |
//! | [`HAS_SETTER`] | the engine, taken by [`JOURNAL_JS`] | whether an object has an own setter |
//! | `__fc$baseline` | the engine | the globals before the code under test loaded |
//! | [`BUILTINS`] | [`BUILTINS_JS`] | the built-ins' snapshot, and which one a test changed |
//! | [`CLASSES`], [`EXEC`], [`DIRECT`], [`AT`], [`FAILURE`], [`SETTLED`], [`AWAITED`], [`LOG`], [`RESULTS`], [`DISCOVER`], [`DISCOVER_MADE`], [`VIA_FACTORY`] | [`HARNESS_JS`] | the class table, running a test and reading what it did, discovery |
//! | [`DEFINE_MODULE`], [`REQUIRE`], [`SET_EXPORTS`], [`NAMESPACES`] | [`HARNESS_JS`] | CommonJS factories, `require`, ES-module namespaces |
//! | [`HOST_ACCESS`] | [`HARNESS_JS`] | what the stand-ins of Node's host modules ([`node`]) report a use to |
//! | [`PROXY`] | nothing: only text | a recording proxy as a test's text shows it, `__fc$u(id)` |
//! | [`RECORDER`] | [`RECORDER_JS`] | record mode's recorder |
//! | [`DESCRIBE`] | the engine (`sandbox/engine/describe.rs`) | describes values for the harness and the recorder |

pub mod literal;
pub mod node;
pub mod number;
pub mod regex;
pub mod runners;

/// Whether conditions instrumented both ways take their measuring form (see `instrument/distance.rs`): a
/// writable global the engine sets before each run, false until then.
pub const MEASURING: &str = "__fc$on";
/// The built-ins Flycatcher's programs use, as they were before the code under test ran (see
/// [`PRIMORDIALS_JS`]).
pub const PRIMORDIALS: &str = "__fc$P";
/// The built-ins' snapshot and check (see [`BUILTINS_JS`]).
pub const BUILTINS: &str = "__fc$builtins";
/// Statement probes: `__fc$s[id] = 1` before every statement of a function.
pub const STATEMENTS: &str = "__fc$s";
/// Branch-outcome probes: `__fc$b[id] = 1` when outcome `id` is taken.
pub const BRANCHES: &str = "__fc$b";
/// Set by every write the instrumenter marked as one to state shared between tests: 1 when the journal
/// ([`JOURNAL_JS`]) can undo what was written, 2 when only a new context can.
pub const SHARED_WRITE: &str = "__fc$sw";
/// Smallest branch distance seen per outcome in a run (a `Float64Array` as long as [`BRANCHES`]),
/// measured under `--strategy search` only; 0 for taken outcomes, 1 for unknown ones.
pub const DISTANCES: &str = "__fc$d";
/// The distance helpers' stack of operand distances.
pub const STACK: &str = "__fc$k";
/// The determinism shim installed from [`DETERMINISM_JS`].
pub const DETERMINISTIC: &str = "__fc$deterministic";
/// Node's timers on a virtual clock ([`node::GLOBALS_JS`]): `next()` fires the one due first.
pub const TIMERS: &str = "__fc$timers";
/// Whether the running test used a `Math` function engines round differently (see [`INEXACT_JS`]).
pub const INEXACT: &str = "__fc$inexact";
/// Record mode: the native function the program's `console` prints through.
pub const PRINT: &str = "__fc$print";
/// The native function that charges a built-in's loop over an array's length as work (see
/// [`LOOPS_JS`], which takes it off the global object).
pub const CHARGE: &str = "__fc$charge";
/// The native function that answers whether an object has an own setter (see [`JOURNAL_JS`], which
/// takes it off the global object).
pub const HAS_SETTER: &str = "__fc$hasSetter";
/// The harness's class table, in `ProgramInfo` order once classes are bound.
pub const CLASSES: &str = "__fc$C";
/// Runs one test given as JSON; answers `''`, that it threw an error (see [`FAILURE`]), the JSON of another
/// thrown value, or that the test awaits a promise.
pub const EXEC: &str = "__fc$exec";
/// What Rust calls to run a test's statements itself (see `sandbox/engine/direct.rs`): the harness's
/// steps before, between and after them, as functions.
pub const DIRECT: &str = "__fc$direct";
/// The error the last test that threw one ended with: `name`, `message`, `stack` and `at`, the statement.
pub const FAILURE: &str = "__fc$failure";
/// The index of the test statement running (a `Uint32Array`), readable after a limit cut a test off.
pub const AT: &str = "__fc$at";
/// How an awaiting test ended, or `null` while it has not.
pub const SETTLED: &str = "__fc$settled";
/// The statements whose promises the last test awaited.
pub const AWAITED: &str = "__fc$awaited";
/// The recording proxies' and the patterns' log of the last test: the harness's array of triples,
/// read by `sandbox/engine/log.rs`.
pub const LOG: &str = "__fc$log";
/// Descriptions of the results of the last test's calls of the method under test: the harness's array
/// of them, read by `sandbox/engine/results.rs`.
pub const RESULTS: &str = "__fc$results";
/// Discovery: what the values reachable from some roots define.
pub const DISCOVER: &str = "__fc$discover";
/// Discovery: the class of what the `i`th plain function the walk met returns, if the walk missed it.
pub const DISCOVER_MADE: &str = "__fc$discoverMade";
/// What a class made by a factory is bound as: a constructor that calls the factory.
pub const VIA_FACTORY: &str = "__fc$viaFactory";
/// Registers a CommonJS file's factory.
pub const DEFINE_MODULE: &str = "__fc$defineModule";
/// `require` of a CommonJS file by index.
pub const REQUIRE: &str = "__fc$require";
/// Record mode: replaces a CommonJS file's exports.
pub const SET_EXPORTS: &str = "__fc$setExports";
/// Called by the stand-ins of Node's host modules when used: the test then fails with a
/// [`HOST_ACCESS_ERROR`].
pub const HOST_ACCESS: &str = "__fc$hostAccess";
/// The name of the error a test that reached the host ends with (never a regression test).
pub const HOST_ACCESS_ERROR: &str = "HostAccessError";
/// The namespaces of loaded ES modules, by file index.
pub const NAMESPACES: &str = "__fc$ns";
/// A recording proxy in a test's text: `__fc$u(id)`.
pub const PROXY: &str = "__fc$u";
/// Record mode's recorder.
pub const RECORDER: &str = "__fc$recorder";
/// The describers of values, made in Rust (`sandbox/engine/describe.rs`): the harness describes results
/// and states with them, the recorder recorded calls, in the format of `model::observed`.
pub const DESCRIBE: &str = "__fc$describe";

/// The built-ins that [`HARNESS_JS`], [`RECORDER_JS`], [`CONSOLE_JS`] and the describers use, captured on
/// the hidden global [`PRIMORDIALS`] before any code under test runs (Node calls them primordials), with
/// the rules those programs follow so that nothing the code under test does to a built-in (a throwing
/// `Object.prototype.toJSON`, a patched `Array.prototype.push`, `JSON` or `Proxy` replaced) changes or
/// stops them. Installed first in every context.
pub const PRIMORDIALS_JS: &str = include_str!("primordials.js");

/// Has a test changed a built-in? `snapshot()` records the own properties of the global object, the
/// built-ins it holds and their prototypes once the program has loaded; `changed(all)` names the first
/// that differs now (`Array.prototype.push`), or answers `''`. Each call checks the prototypes every
/// value inherits from and a slice of the rest, so that checking after every test costs little; `all`
/// checks everything.
pub const BUILTINS_JS: &str = include_str!("builtins.js");

/// Flycatcher's side of the sandbox: recording and inert proxies, the test interpreter, result
/// descriptions and discovery. Installed in every context before the code under test.
pub const HARNESS_JS: &str = include_str!("harness.js");

/// Record mode's recorder: wraps the program's classes and logs the outermost constructions and calls.
pub const RECORDER_JS: &str = include_str!("recorder.js");

/// The program's `console`, as under Node but host-free: with [`PRINT`] defined (record mode's entry
/// script) the logging methods hand it one line, strings as they are and other values as JSON where
/// they can be; without it (generated tests) every method does nothing, so code that warns or logs runs
/// as it would under Node instead of throwing `ReferenceError: console`.
pub const CONSOLE_JS: &str = include_str!("console.js");

/// Makes the code under test deterministic in a global scope, in the sandbox and in exported suites
/// alike: `Math.random` is the harness's xorshift32 from the test's seed, and the clock stands still at
/// 2024-01-01T00:00:00Z (`Date.now()`, `new Date()`, `Date()`), `performance.now()` at 1000 ms; dates
/// built from arguments are untouched, and subclasses of `Date` still work.
pub const DETERMINISM_JS: &str = include_str!("determinism.js");

/// Wraps the `Math` functions that are not correctly rounded (`sin`, `pow`, `asinh`...: QuickJS and V8 may
/// differ in their last bit) so that the harness knows whether a test used one, as [`INEXACT`]: the numbers
/// such a test gives are asserted within a few units in the last place. Installed before [`HARNESS_JS`].
pub const INEXACT_JS: &str = include_str!("inexact.js");
/// The undo journal of writes to shared state (`__fc$jv`, `__fc$jm`, `__fc$jp`, `__fc$jk`, called by the code the
/// instrumenter marked; [`UNDO`] and [`FORGET`], called by the engine), installed before any user code.
pub const JOURNAL_JS: &str = include_str!("journal.js");
/// Wraps the array methods that loop over `length` in C, where QuickJS checks no interrupt, so that a loop
/// over a sparse array a billion long ends the test at its limits instead of running for minutes: each
/// asks [`CHARGE`] first. Installed after Flycatcher's own programs, before any user code.
pub const LOOPS_JS: &str = include_str!("loops.js");
/// Undoes the journal after a test: answers whether the context is as loaded again.
pub const UNDO: &str = "__fc$undo";
/// Empties the journal and clears [`SHARED_WRITE`]: what loading wrote is the program's own state.
pub const FORGET: &str = "__fc$forget";
/// Corrections of where QuickJS departs from the specification and V8 does not (Date setters given
/// NaN), installed before any user code so that the sandbox observes what Node will.
pub const PARITY_JS: &str = include_str!("parity.js");

/// The seed of `Math.random` while the code under test loads, before each test's own seed applies.
pub const LOAD_SEED: u32 = 1;

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
pub const RUNTIME_JS: &str =
    concat!(include_str!("probes.js"), include_str!("distance.js"), include_str!("patterns.js"));
