//! The `__fc$` protocol: every name through which Rust, the programs of this folder and the code the
//! instrumenter writes talk, in one table.
//!
//! Every name the harness, the probes and the recorder put on `globalThis` starts with [`PREFIX`] and is
//! non-enumerable, so code under test that walks the global object does not see it. The table has two
//! parts:
//!
//! - the names Rust writes or reads: a constant each, used wherever Rust spells the name (in `format!`
//!   with `{NAME}`); the compiler's dead-code lint tells when Rust stops using one;
//! - the names only the JavaScript uses (one program defines it, another takes it): constants the unit
//!   tests may use, documented here so that the table is whole.
//!
//! The test below reads every `.js` file of this folder and checks that each `__fc$` name they use is in
//! the table and that each JavaScript-only name is used by one of them.

/// Declares the table: the names Rust uses as constants, the JavaScript-only names as constants of the
/// unit tests, and (for the test) the list of all of them.
macro_rules! protocol {
    (
        rust { $( $(#[$rust_attr:meta])* $rust:ident = $rust_value:literal; )* }
        javascript { $( $(#[$js_attr:meta])* $js:ident = $js_value:literal; )* }
    ) => {
        $( $(#[$rust_attr])* pub(crate) const $rust: &str = $rust_value; )*
        $( $(#[$js_attr])* #[cfg(test)] pub(crate) const $js: &str = $js_value; )*
        /// Every name of the protocol, with the constant that holds it, Rust's first. The values of the
        /// Rust part are spelled out rather than named so that the dead-code lint still sees which of
        /// those constants Rust uses.
        #[cfg(test)]
        const ALL: &[(&str, &str)] = &[$((stringify!($rust), $rust_value),)* $((stringify!($js), $js),)*];
        /// How many names the Rust part has (the first entries of [`ALL`]).
        #[cfg(test)]
        const RUST: usize = [$(stringify!($rust)),*].len();
    };
}

protocol! {
    rust {
        /// What every name of the protocol starts with: a global that does is Flycatcher's, not the
        /// program's.
        PREFIX = "__fc$";

        // Installed first, by `primordials.js`.
        /// The built-ins Flycatcher's programs use, as they were before the code under test ran (see
        /// [`super::PRIMORDIALS_JS`]).
        PRIMORDIALS = "__fc$P";

        // Coverage, defined by the engine before the code under test loads (see `instrument/probes.rs`).
        /// Statement probes: `__fc$s[id] || (__fc$s[id] = 1)` before every statement of a function.
        STATEMENTS = "__fc$s";
        /// Branch-outcome probes: `__fc$b[id] || (__fc$b[id] = 1)` when outcome `id` is taken.
        BRANCHES = "__fc$b";
        /// Helper marking a truthy/falsy outcome (`probes.js`): `__fc$c(id, value)`.
        TRUTHY = "__fc$c";
        /// Helper marking a nullish/defined outcome (`probes.js`): `__fc$n(id, value)`.
        NULLISH = "__fc$n";
        /// The helper an object spread's operand goes through (`probes.js`, see `instrument/parity.rs`).
        SPREAD = "__fc$sp";
        /// The user's own text of a function of theirs, `__fc$text(fileName, instrumentedText)`, which
        /// `parity.js` takes (and removes from the global object) for `Function.prototype.toString`
        /// (see `instrument/texts.rs`).
        SOURCE_TEXT = "__fc$text";

        // Branch distances (`distance.js`, see `instrument/distance.rs`).
        /// Smallest branch distance seen per outcome in a run (a `Float64Array` as long as [`BRANCHES`]),
        /// measured under `--strategy search` only; 0 for taken outcomes, 1 for unknown ones.
        DISTANCES = "__fc$d";
        /// The distance helpers' stack of operand distances.
        STACK = "__fc$k";
        /// The unequal comparisons measured conditions made in a run (`distance.js`): a count, then four
        /// slots per comparison (branch id, operands, relation) in a ring; see
        /// `sandbox/engine/comparisons.rs`.
        COMPARISONS = "__fc$cl";
        /// Whether conditions instrumented both ways take their measuring form (see
        /// `instrument/distance.rs`): element 0 of an array that never changes itself (a CommonJS file
        /// reaches it as a closure variable), which the engine sets before each run, false until then.
        MEASURING = "__fc$on";

        // Mutant switching (see `mutate/schema.rs`).
        /// The mutant a program of mutant schemata runs: every mutated spot reads it (`__fc$mut === 17 ?
        /// mutated : original`); 0, the original, while the program loads. A writable global the engine
        /// defines after the built-ins' snapshot and sets before each run.
        MUTANT = "__fc$mut";
        /// Helper evaluating a comparison's operands: `__fc$q(a, b, op)`, or `__fc$q(a, b, op, id)` for a
        /// condition that is one comparison.
        COMPARE = "__fc$q";
        /// Array whose element 0 holds the right operand of the comparison being evaluated.
        RIGHT_OPERAND = "__fc$r";
        /// Helper at a branch point: `__fc$t(id, condition)`, or `__fc$t(id, left, or)` for the left
        /// operand of `&&` (`or` 0) or `||` (1) inside a condition.
        DISTANCE_TEST = "__fc$t";
        /// Helper for the right operand of `&&` or `||` inside a condition: `__fc$j(right, or)`.
        DISTANCE_JOIN = "__fc$j";
        /// Helper for `!`: `__fc$x(!x)`.
        DISTANCE_NOT = "__fc$x";
        /// Helper for any other operand of a condition: `__fc$v(e)`.
        DISTANCE_VALUE = "__fc$v";
        /// Helper evaluating a string predicate's receiver and argument: `__fc$w(a, b, kind, swap)`, or
        /// `__fc$w(a, b, kind, swap, id)` for a condition that is one predicate.
        STRING_PREDICATE = "__fc$w";
        /// Helper evaluating a `switch`'s discriminant: `__fc$sc(value, () => [case, id, ...])`, the
        /// constants of its `case` clauses with their branch outcomes.
        SWITCH_CASES = "__fc$sc";

        // The pattern observer (`patterns.js`, see `instrument/patterns.rs`).
        /// Helper keeping the receiver: `__fc$o(x)`.
        PATTERN_RECEIVER = "__fc$o";
        /// Helper pairing the kept receiver with the first argument: `__fc$a(a, kind)`.
        PATTERN_ARGUMENT = "__fc$a";

        // Writes to state shared between tests (`journal.js`, see `instrument/writes.rs`).
        /// Set by every write the instrumenter marked as one to state shared between tests: 1 when the
        /// journal ([`super::JOURNAL_JS`]) can undo what was written, 2 when only a new context can.
        SHARED_WRITE = "__fc$sw";
        /// Journals a write to a binding: `__fc$jv(get, set, name)`.
        JOURNAL_BINDING = "__fc$jv";
        /// Journals a write to a property and answers its object: `__fc$jm(object, key)`.
        JOURNAL_MEMBER = "__fc$jm";
        /// Journals a collection before a mutating method's call and answers it:
        /// `__fc$jc(collection, method)`.
        JOURNAL_COLLECTION = "__fc$jc";
        /// Journals a write to a private field and answers its object: `__fc$jp(object, get, set)`.
        JOURNAL_PRIVATE = "__fc$jp";
        /// The key [`JOURNAL_MEMBER`] made of a computed member's key.
        JOURNAL_KEY = "__fc$jk";
        /// The new value's parameter of the journal's setters the instrumenter writes.
        JOURNAL_NEW_VALUE = "__fc$nv";
        /// The object parameter of a private field's getter and setter the instrumenter writes.
        JOURNAL_OBJECT = "__fc$ob";
        /// Undoes the journal after a test: answers whether the context is as loaded again.
        UNDO = "__fc$undo";
        /// Empties the journal and clears [`SHARED_WRITE`]: what loading wrote is the program's own state.
        FORGET = "__fc$forget";
        /// The native function that answers whether an object has an own setter (see
        /// [`super::JOURNAL_JS`], which takes it off the global object).
        HAS_SETTER = "__fc$hasSetter";

        // Defined by the engine for the programs.
        /// The determinism shim installed from [`super::DETERMINISM_JS`]: fixes `Math.random` and the
        /// clocks.
        DETERMINISTIC = "__fc$deterministic";
        /// The names of the globals before the code under test loaded (a `Set`): a script's classes are
        /// the globals it added.
        BASELINE = "__fc$baseline";
        /// Record mode: the native function the program's `console` ([`super::CONSOLE_JS`]) prints
        /// through.
        PRINT = "__fc$print";
        /// The native function that charges a built-in's loop over an array's length as work (see
        /// [`super::LOOPS_JS`], which takes it off the global object).
        CHARGE = "__fc$charge";
        /// The native function that reads one of Node's globals' scripts into the context when one of
        /// its globals is first used, given the script's name (see [`super::node::lazy_script`];
        /// `node/globals.js` takes it off the global object).
        LOAD_NODE = "__fc$loadNode";
        /// The describers of values, made in Rust (`sandbox/engine/describe/`): the harness describes
        /// results and states with them, the recorder recorded calls, in the format of `model::observed`.
        DESCRIBE = "__fc$describe";

        // Defined by the programs for the engine.
        /// The built-ins' snapshot and check (see [`super::BUILTINS_JS`]).
        BUILTINS = "__fc$builtins";
        /// Whether the running test used a `Math` function engines round differently (see
        /// [`super::INEXACT_JS`]).
        INEXACT = "__fc$inexact";
        /// V8's `Math` functions, made in Rust (`sandbox/ieee754/`): [`super::INEXACT_JS`] wraps them
        /// as `Math`'s and takes them off the global object.
        IEEE754 = "__fc$ieee754";
        /// Node's timers on a virtual clock ([`super::node::GLOBALS_JS`]): `next()` fires the one due
        /// first.
        TIMERS = "__fc$timers";
        /// The globals Node has and the sandbox does not that code read, as own keys (`node/globals.js`).
        MISSING_GLOBALS = "__fc$missingGlobals";

        // The harness (`harness.js`).
        /// The harness's class table, in `ProgramInfo` order once classes are bound.
        CLASSES = "__fc$C";
        /// Runs one test given as JSON; answers `''`, that it threw an error (see [`FAILURE`]), the JSON of
        /// another thrown value, or that the test awaits a promise.
        EXEC = "__fc$exec";
        /// What Rust calls to run a test's statements itself (see `sandbox/engine/direct.rs`): the
        /// harness's steps before, between and after them, as functions; and `standIn`, what the bench's bare
        /// loop passes for a recording proxy.
        DIRECT = "__fc$direct";
        /// The error the last test that threw one ended with: `name`, `message`, `stack` and `at`, the
        /// statement.
        FAILURE = "__fc$failure";
        /// The index of the test statement running (a `Uint32Array`), readable after a limit cut a test
        /// off.
        AT = "__fc$at";
        /// How an awaiting test ended, or `null` while it has not.
        SETTLED = "__fc$settled";
        /// What Rust calls when no job or timer is left and the test has not ended: a test waiting only
        /// for its deferred promises ends (answers `true`), those still pending read as pending.
        QUIET = "__fc$quiet";
        /// The statements whose promises the last test awaited.
        AWAITED = "__fc$awaited";
        /// What the engine's promise rejection tracker calls with each promise rejected with no
        /// handler, and again once one gets a handler.
        REJECTED = "__fc$rejected";
        /// Whether a promise rejected in the last test is still without a handler: `''`, or that the test
        /// threw (see [`FAILURE`]) an `UnhandledRejection` naming its reason.
        UNHANDLED = "__fc$unhandled";
        /// The classes of the program calls of the last test returned new instances of: the harness's
        /// array of `statement:class` texts.
        RETURNED = "__fc$returned";
        /// The recording proxies' and the patterns' log of the last test: the harness's array of triples,
        /// read by `sandbox/engine/log.rs`.
        LOG = "__fc$log";
        /// Descriptions of the results of the last test's calls of the method under test: the harness's
        /// array of them, read by `sandbox/engine/results.rs`.
        RESULTS = "__fc$results";
        /// A recording proxy in a test's text: `__fc$u(id)` (nothing defines it: only text).
        PROXY = "__fc$u";
        /// Discovery: what the values reachable from some roots define.
        DISCOVER = "__fc$discover";
        /// Discovery: the class of what the `i`th plain function the walk met returns, if the walk missed
        /// it, or the unit of the plain objects of closures it returns.
        DISCOVER_MADE = "__fc$discoverMade";
        /// Discovery: whether calls of the `i`th static function the walk met make instances of its
        /// class.
        DISCOVER_STATIC_MADE = "__fc$discoverStaticMade";
        /// What a class made by a factory (or a factory's plain objects) is bound as: a constructor that
        /// calls the factory.
        VIA_FACTORY = "__fc$viaFactory";
        /// What a module of functions is bound as: a constructor of the object its tests call the
        /// functions on, each without a receiver.
        MODULE_FUNCTIONS = "__fc$moduleFunctions";

        // Modules (`harness.js`, and the module views of `sandbox/engine/modules.rs`).
        /// Registers a CommonJS file's factory.
        DEFINE_MODULE = "__fc$defineModule";
        /// `require` of a CommonJS file by index.
        REQUIRE = "__fc$require";
        /// Record mode: replaces a CommonJS file's exports.
        SET_EXPORTS = "__fc$setExports";
        /// The namespaces of loaded ES modules, by file index.
        NAMESPACES = "__fc$ns";
        /// A module view's binding of the module it stands for.
        VIEW_MODULE = "__fc$m";
        /// A module view's bindings of the exports it re-exports: `__fc$e0`, `__fc$e1`, ...
        VIEW_EXPORT = "__fc$e";

        // Record mode (`recorder.js`).
        /// Record mode's recorder.
        RECORDER = "__fc$recorder";
        /// The globals `node/globals.js` defines when first read, which the built-ins' snapshot
        /// (`builtins.js`) also watches, and an engine kept for reuse must not have made since it was
        /// ready (`sandbox/engine/ready.rs`).
        LAZY_GLOBALS = "__fc$lazyGlobals";
    }
    javascript {
        /// What the harness tells the pattern observer (`patterns.js`): a test's arguments, where to log.
        OBSERVE = "__fc$observe";
        /// Called by the stand-ins of Node's host modules (`node/*.js`) when used: the test then fails
        /// with a `HostAccessError` (defined by the harness).
        HOST_ACCESS = "__fc$hostAccess";
        /// The errors Node's built-in modules throw (`node/globals.js`), for the stand-ins of those
        /// modules (`node/*.js`).
        NODE_ERRORS = "__fc$nodeErrors";
        /// The maker of Node's iterators of name/value lists (`node/globals.js`), for `node/url.js` and
        /// `node/headers.js`.
        PAIR_ITERATORS = "__fc$pairIterators";
        /// What memory Node leaves uninitialised holds in a run (`node/globals.js`): reset by the
        /// harness before each test with the run's salt, filled by `Buffer.allocUnsafe`.
        UNINITIALIZED = "__fc$uninitialized";
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};

    use super::{ALL, PREFIX, RUST};

    /// Every `__fc$` name the `.js` files of `src/js/` use, with the files that use it.
    fn used_by_programs() -> BTreeMap<String, BTreeSet<PathBuf>> {
        let mut names: BTreeMap<String, BTreeSet<PathBuf>> = BTreeMap::new();
        let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src/js")];
        let mut files = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "js") {
                    files += 1;
                    let text = std::fs::read_to_string(&path).unwrap();
                    for (at, _) in text.match_indices(PREFIX) {
                        let rest = &text[at + PREFIX.len()..];
                        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                        // The bare prefix is the family's name in comments (`__fc$...`).
                        if end > 0 {
                            names.entry(format!("{PREFIX}{}", &rest[..end])).or_default().insert(path.clone());
                        }
                    }
                }
            }
        }
        assert!(files > 30, "the programs were found ({files} files)");
        names
    }

    #[test]
    fn every_name_the_programs_use_is_in_the_table() {
        let table: BTreeSet<&str> = ALL.iter().map(|(_, name)| *name).collect();
        let missing: Vec<String> = used_by_programs()
            .into_iter()
            .filter(|(name, _)| !table.contains(name.as_str()))
            .map(|(name, files)| format!("{name} ({files:?})"))
            .collect();
        assert!(missing.is_empty(), "not in js/protocol.rs: {missing:?}");
    }

    #[test]
    fn every_javascript_only_name_is_used_by_a_program() {
        // The Rust part is the compiler's to check (dead code); the JavaScript part is this test's.
        let used = used_by_programs();
        let unused: Vec<&str> =
            ALL[RUST..].iter().filter(|(_, name)| !used.contains_key(*name)).map(|(c, _)| *c).collect();
        assert!(unused.is_empty(), "no program uses {unused:?}");
    }

    #[test]
    fn every_name_is_one_of_its_own() {
        let mut seen = BTreeSet::new();
        for (constant, name) in ALL {
            assert!(name.starts_with(PREFIX), "{constant}");
            assert!(seen.insert(*name), "{name} is in the table twice");
        }
        assert!(ALL.len() > RUST && RUST > 0);
    }
}
