//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use flycatcher::app::Opening;
use flycatcher::app::bench::BenchOptions;
use flycatcher::app::project::{self, Project};
use flycatcher::app::shard::Shard;
use flycatcher::error::Error;
use flycatcher::export::Format;
use flycatcher::model::settings::{Settings, SettingsOrigin, SettingsPatch, Strategy};
use flycatcher::record::SeedFrom;
use flycatcher::session::SessionOptions;

/// Writes unit tests for JavaScript and TypeScript classes by itself.
///
/// Flycatcher loads your JavaScript or TypeScript files into a QuickJS sandbox, finds their classes and
/// exported functions, and for each method or function generates random call sequences. Parameters whose type TypeScript declares (in a .ts
/// source, or in the .d.ts a JavaScript file ships) get values of that type; others receive recording
/// proxies until their type is inferred; tests that cover new statements are kept, with assertions on the results
/// observed, and written as a regression suite for a JavaScript test runner.
#[derive(Debug, Parser)]
#[command(name = "flycatcher", version, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Watch and steer test generation in a terminal UI: step, run, inspect inferred types, coverage and
    /// the elected suite, change settings live, override types, export.
    Explore(ExploreArgs),
    /// Generate a regression suite headless, run to the end (for scripts and CI).
    Generate(GenerateArgs),
    /// Measure candidate tests per second on a sample against a bare QuickJS loop.
    Bench(BenchArgs),
    /// Measure how strong a suite is: run it against mutants of the code under test (an operator, a
    /// constant or a decision changed, a statement deleted, inside the methods and constructors under
    /// test) and report the mutation score per class and method, with the mutants no test killed.
    ///
    /// A test kills a mutant when an asserted value, the thrown/not-thrown outcome or the error differs,
    /// or when it hits the per-test time, stack or memory limit. Mutants in statements no test runs are
    /// reported as uncovered. Each surviving mutant gets random tests run on it and on the original: one
    /// never told apart is reported as presumed equivalent and left out of the score.
    ///
    /// Without --suite the suite is generated first, with the options of `generate`, and written to
    /// --out. --class and --method choose the code mutated (constructors too, unless --method is given).
    /// The analysis, with or without --suite, uses at most three times the work generating the methods
    /// under test may (--budget each), as `generate --mutation` grants its passes, and takes at most
    /// three times their --timeout caps: the mutants left then are not judged, and the score line says
    /// how many. The summary says how long generating and mutating took.
    Mutate(MutateArgs),
    /// Run a suite written by `generate` under its real runner (node:test, jest, mocha or vitest, the one
    /// it was written for), several times as written and once with its tests in reverse order, the
    /// first run under c8: prints how many tests passed, failed (every run) or were flaky (some runs),
    /// each failing or flaky test with the runner's reason, and the line and branch coverage of the code
    /// under test as c8 measures it. Exits with 1 when a test failed or was flaky.
    ///
    /// The runner and c8 come from the nearest node_modules above the suite or the code it tests, or
    /// from --node-modules. Vitest runs with --pool=threads (its default forks end before they write
    /// their coverage).
    Verify(VerifyArgs),
    /// Merge the JSON reports of the shards of one run (`generate --shard K/N --report FILE.json` on
    /// each machine) into one report, `report.json` in --out, and print its summary. Reports of other
    /// runs (another seed or other files), of shards that split the classes otherwise, or holding the
    /// same class, are refused. The suites need no merging: every shard wrote its own classes' files,
    /// so the shards' out folders copied into one hold the whole suite.
    Merge(MergeArgs),
    /// Run an entry script (a demo or smoke script using the classes) in the sandbox, record every
    /// construction and call it makes on them, and write the recording and replay tests built from it.
    Record(RecordArgs),
}

/// Options of `flycatcher explore`.
#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// What to test and how.
    #[command(flatten)]
    pub run: RunArgs,

    /// Colour theme: dark, light, high-contrast, or a path to a theme file (JSON, see themes/). Colours
    /// are off when NO_COLOR is set.
    #[arg(long, default_value = "dark", value_name = "NAME")]
    pub theme: String,

    /// Bring the suite already in --out up to date rather than write it anew: its tests are run and kept
    /// when the session opens, so stepping elects only what they leave uncovered, and the export (on
    /// quit, or the dialog's) writes the kept tests with the new ones.
    #[command(flatten)]
    pub update: UpdateArgs,
}

/// `--update` and `--accept-changes`, shared by `generate` and `explore`.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// Bring the suite already in --out up to date with the code rather than write it anew: every test
    /// of its manifests runs on the current code; those that still pass are kept byte for byte, those
    /// whose assertions no longer hold are behaviour changes, set aside and named with the reason (in the
    /// summary, --report under `changed`, and <Class>.changed.log); then only the methods whose code
    /// changed (their own, or that of a private method or module-private function they call), or whose
    /// kept tests cover less than before, are generated again, named with why (the summary's
    /// `reopened:` lines, --report under `reopened`), and what covers statements the kept tests leave is
    /// appended. Files whose text would not change are not written:
    /// with unchanged code, nothing is. Without a suite in --out, the suite is written anew.
    #[arg(long)]
    pub update: bool,

    /// With --update: the changes were intended. Tests whose behaviour changed are rewritten in place to
    /// assert the new behaviour (and still listed in <Class>.changed.log), rather than set aside.
    #[arg(long, requires = "update")]
    pub accept_changes: bool,
}

impl UpdateArgs {
    /// What `--update` asks for, if it was given.
    pub fn update(&self) -> Option<flycatcher::app::update::Update> {
        self.update.then_some(flycatcher::app::update::Update { accept_changes: self.accept_changes })
    }
}

/// Options of `flycatcher generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// What to test and how.
    #[command(flatten)]
    pub run: RunArgs,

    /// Also write a JSON report of the run to this file.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,

    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,

    /// Work harder on the suite before writing it (see `flycatcher mutate`). By default, a mutation
    /// analysis keeps the state assertions (fields after a call, answers of argument-less methods and
    /// getters after the last call) that kill a mutant, and makes a covering test one call longer where
    /// that tells a surviving mutant apart. With --mutation, survivors are also checked for equivalence,
    /// the random test that told one apart is grafted onto a covering test, more longer tests are tried,
    /// and the summary (and --report, under `mutation`) shows the mutation score. The suite keeps its
    /// number of tests either way.
    #[arg(long)]
    pub mutation: bool,

    /// Once the suite is written, run it under its real runner with c8, as `flycatcher verify` does
    /// (the summary, and --report under `verify`, say what passed and the coverage measured); exits
    /// with 1 when a test failed or was flaky.
    #[arg(long)]
    pub verify: bool,

    /// With --verify: the node_modules folder holding c8 and the runner (default: the nearest one above
    /// the out folder or the code).
    #[arg(long, value_name = "DIR", requires = "verify")]
    pub node_modules: Option<PathBuf>,

    /// Worker threads: the classes are shared out among them, each class in a QuickJS runtime of its
    /// own, from its first candidate to its written suite. Each class's tests depend only on --seed and
    /// the class, so the suite is the same whatever N is [default: the machine's cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Test only share K of N of the classes (sorted by file and name, dealt round-robin), e.g. 2/4 on
    /// the second machine of a CI matrix of four. Every shard needs the same files and --seed; each
    /// writes the suites of its classes, and `flycatcher merge` makes one report of their --report files.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,

    /// Bring the suite already in --out up to date rather than write it anew.
    #[command(flatten)]
    pub update: UpdateArgs,
}

impl GenerateArgs {
    /// The worker threads to run: --jobs, else the machine's cores.
    pub fn workers(&self) -> usize {
        self.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from)
    }
}

/// Options of `flycatcher merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The JSON reports of the shards (`generate --shard K/N --report FILE.json`), in any order.
    #[arg(required = true, value_name = "REPORT.json")]
    pub reports: Vec<PathBuf>,

    /// Folder for the merged report (`report.json`).
    #[arg(long, default_value = "flycatcher-out", value_name = "DIR")]
    pub out: PathBuf,

    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `flycatcher verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The folder `generate` wrote the suite into (its `<Class>.flycatcher.json` say the format).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// The node_modules folder holding c8 and the runner (default: the nearest one above DIR or the
    /// code it tests); for TypeScript suites also typescript and @types/node (which type-check them), and
    /// tsx (node-test) or @swc/core and @swc/jest (jest).
    #[arg(long, value_name = "DIR")]
    pub node_modules: Option<PathBuf>,

    /// Runs as written (the first under c8); one more runs the tests in reverse order.
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100))]
    pub runs: u64,

    /// Also write c8's coverage of the code under test as an lcov file.
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,

    /// Also write a JSON report: every test's status and reason, and the coverage per file.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,

    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `flycatcher mutate`.
#[derive(Debug, Args)]
pub struct MutateArgs {
    /// What to test and how.
    #[command(flatten)]
    pub run: RunArgs,

    /// Mutate against the suite in this folder (the --out folder of `flycatcher generate`, with its
    /// `<Class>.flycatcher.json` files) instead of generating one. The files given must be the ones it
    /// tests; its tests must still pass on them. Without --seed, the analysis's random tests are drawn
    /// from the seed the suite was written with, so that a suite scored twice gets one score.
    #[arg(long, value_name = "DIR")]
    pub suite: Option<PathBuf>,

    /// Also write a JSON report to this file: the scores per class and method, every mutant killed (by
    /// which test, and how), and the surviving, uncovered and presumed-equivalent ones.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,

    /// Random tests run on the original and on each surviving mutant; a survivor none of them tells
    /// apart is presumed equivalent (0: no check, every survivor counts).
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub equivalence_tests: usize,

    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options shared by `explore` and `generate`. Settings not given here come from the project file
/// (flycatcher.json beside the first file), then from the defaults shown.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// JavaScript or TypeScript files to test (.js, .cjs, .mjs, .ts, .mts, .cts): plain scripts, CommonJS
    /// or ES modules. TypeScript is stripped of its types by swc under its tsconfig.json (enums,
    /// namespaces, parameter properties and decorators run as TypeScript emits them); lines and columns
    /// stay those of the .ts file, and its suites are written in TypeScript (.test.ts, for node-test
    /// through tsx, jest through @swc/jest, or vitest). .tsx is refused; .d.ts files hold no code. Files
    /// they require or import are loaded too (from TypeScript: `./x`, `./x.js` naming x.ts, index.ts,
    /// tsconfig paths), Node's built-in modules as host-free versions or stand-ins. A package folder (`.`,
    /// `node_modules/some-lib`) stands for the entry Node loads for it: package.json's `exports` (a
    /// `types` condition naming TypeScript sources first, then `require`, then `import`), then `main`,
    /// then index.js or index.ts; its classes are named by their export path.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub files: Vec<PathBuf>,

    /// Only look for classes under this namespace object (a dotted path, e.g. `Geo` or `Geo.Shapes`).
    #[arg(long, value_name = "PATH")]
    pub namespace: Option<String>,

    /// Only test this class (repeatable). Other classes still serve as parameter types. The functions a
    /// module exports are tested as one more unit, named by the module (its file's name, or its package's
    /// for an index file) or by the namespace object holding them: `--class utils` selects them.
    #[arg(long = "class", value_name = "NAME")]
    pub classes: Vec<String>,

    /// Only test this method (of the selected classes), or this exported function.
    #[arg(long, value_name = "NAME")]
    pub method: Option<String>,

    /// Uses of a parameter (calls that received a recording proxy for it) before its type is inferred
    /// [default: 20]. A parameter that leaves no evidence waits five times as long before a leap of
    /// faith picks a type at random.
    #[arg(long, value_name = "N")]
    pub delay: Option<u32>,

    /// Most calls in one candidate test, the method under test included [default: 10].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_calls: Option<u32>,

    /// Work budget per method under test, in work units: one per candidate run, eight per 10,000 calls
    /// and loop iterations it made, eighty per context built. Counted, not timed, so that a seed gives
    /// the same suite on any machine, under any load and with any --jobs; 60,000 units are about a
    /// second of generation on one core of a 2026 machine. The passes after generation (minimising, the
    /// mutation analysis, stability) share as much again [default: a third of --timeout's worth, 600000].
    #[arg(long, value_name = "UNITS")]
    pub budget: Option<u64>,

    /// Wall-clock cap per method under test, in seconds: a method this machine has not finished by then
    /// stops there (the summary and the report then say its suite may differ on another machine), and
    /// the passes after generation take at most as long again. Without --budget, the budget is what a
    /// 2026 machine spends in a third of it [default: 30, or three times what --budget costs].
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,

    /// Stop a method once this many valid candidates in a row added no coverage and half its --budget
    /// has been spent since its last new coverage (a fast engine runs 50,000 candidates in about two
    /// seconds) [default: 50000].
    #[arg(long, value_name = "N")]
    pub max_stale: Option<u64>,

    /// Stop a method once its statement coverage reaches this percentage [default: 100].
    #[arg(long, value_name = "PCT")]
    pub target_coverage: Option<f64>,

    /// Generate strings from this regular expression (JavaScript syntax, e.g. '\d{13}' or '/[a-z]+/').
    /// Default: short printable ASCII strings, the empty string included.
    #[arg(long, value_name = "REGEX")]
    pub string_gen: Option<String>,

    /// Generate numbers from this regular expression, converted with Number() (e.g. '-?\d{1,3}').
    /// Default: a mix of small integers, zero, negatives, integers of tens and hundreds, fractions and
    /// large values.
    #[arg(long, value_name = "REGEX")]
    pub number_gen: Option<String>,

    /// How candidates are generated: guided (random call sequences whose values mix constants mined
    /// from the method and its class, and mutations of them; instances passed as arguments often get
    /// calls first, preferably an elected test's, and parameters compared with null get null now and
    /// then), random (the report's generator),
    /// exhaustive (every call sequence, shortest first, over small value pools: 0, 1, -1, '', 'a',
    /// true, null...), combined (exhaustive up to 2 calls, then guided random), search (tests evolved
    /// towards the branch outcomes not taken yet: the closest candidate per outcome, by branch distance,
    /// is climbed with the alternating variable method and mutated; guided hands a method to this
    /// search once 200 candidates in a row added nothing) or search-cov (search guided by coverage
    /// alone: half guided random, half mutations of the tests elected so far; for comparison) [default:
    /// guided].
    #[arg(long, value_name = "STRATEGY")]
    pub strategy: Option<Strategy>,

    /// Seed of every random choice: the same seed gives the same suite, on any machine and with any
    /// --jobs, as long as no method is stopped by its --timeout cap (the summary says so when one is).
    /// Default: a random seed, printed in the suite's header.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Test format: node-test (node:test + node:assert), assert (plain script), nodeunit, expresso, vows,
    /// jest, mocha or vitest (all with node:assert). Tests that threw unexpectedly also go to
    /// `<Class>.failing.test.js`, skipped, for the runners that can skip (all but nodeunit, expresso, vows).
    /// Jest suites of ES modules need `NODE_OPTIONS=--experimental-vm-modules`. TypeScript code gets
    /// TypeScript suites (`<Class>.test.ts`, which `tsc --strict` accepts, with or without
    /// `esModuleInterop`), for node-test (run with `node --import tsx --test`, or with Node ≥ 22.6's
    /// `--experimental-strip-types` when the code under test runs under it: `--experimental-transform-types`
    /// for enums, namespaces and parameter properties), jest (with `@swc/jest`: the suite's header gives
    /// the configuration) or vitest.
    #[arg(long, default_value = "node-test", value_name = "FORMAT")]
    pub format: Format,

    /// Folder for the suites (`<Class>.test.js`) and failing-test logs (`<Class>.failing.log`).
    #[arg(long, default_value = "flycatcher-out", value_name = "DIR")]
    pub out: PathBuf,

    /// Limit of one candidate test, in milliseconds on a 2026 machine (ends infinite loops): counted as
    /// work (10,000 calls and loop iterations of instrumented code a millisecond), with fifty times the
    /// time as a cap for what work does not count, so that a loaded machine still ends tests by their
    /// work. Under a small --budget a candidate may also use at most an eighth of its method's budget
    /// (never less than 2,000 units, 25 ms), so that a few looping candidates do not spend all of it;
    /// one ended there is logged as one ended by this limit is, with the time it ran [default: 100].
    #[arg(long, value_name = "MS")]
    pub test_timeout_ms: Option<u64>,

    /// Memory limit of the JavaScript engine, in MiB (ends unbounded allocation).
    #[arg(long, default_value_t = 256, value_name = "MIB")]
    pub memory_mb: usize,

    /// The project file to read settings and parameter types from (and that explore saves to).
    /// Default: flycatcher.json beside the first file.
    #[arg(long, value_name = "FILE")]
    pub project: Option<PathBuf>,

    /// Seed generation from a recording made by `flycatcher record`: recorded argument types decide
    /// parameter types, recorded values join the input pools, recorded call sequences become starting
    /// states, and recorded calls of the methods under test become replay tests.
    #[arg(long, value_name = "RECORDING.json")]
    pub seed_from: Option<PathBuf>,

    /// Most replay tests elected per method from --seed-from (only calls that add coverage are elected).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub threshold: usize,

    /// Also pass values outside the parameters' declared types now and then (null, undefined, another
    /// primitive, fewer arguments), for code that validates its arguments at run time. Types are declared
    /// by TypeScript sources, or by the `.d.ts` files a JavaScript file ships (beside it, or named by its
    /// package's `types`); by default tests respect them, as a TypeScript caller must.
    #[arg(long)]
    pub probe_outside_types: bool,

    /// Judge every mutant on a program of its own instead of switching mutants in one program of mutant
    /// schemata: slower, kept to compare the two (tests, measurements).
    #[arg(long, hide = true)]
    pub no_mutant_switching: bool,
}

impl RunArgs {
    /// The project file's path.
    pub fn project_path(&self) -> PathBuf {
        self.project.clone().unwrap_or_else(|| project::default_path(&self.files))
    }

    /// What the run opens: the session's options, its settings (defaults, then the project file, then
    /// the command line), the project file and the recording to seed from. Invalid values are usage
    /// errors.
    pub fn opening(&self) -> Result<Opening, Error> {
        let project = Project::load(&self.project_path())?;
        let mut settings = Settings { seed: self.seed.unwrap_or_else(rand::random), ..Settings::default() };
        project.settings.apply(&mut settings, SettingsOrigin::ProjectFile)?;
        let given = SettingsPatch {
            delay: self.delay,
            timeout: self.timeout,
            budget: self.budget,
            max_stale: self.max_stale,
            max_calls: self.max_calls,
            target_coverage: self.target_coverage,
            test_timeout_ms: self.test_timeout_ms,
            string_gen: self.string_gen.clone().map(Some),
            number_gen: self.number_gen.clone().map(Some),
            probe_outside_types: self.probe_outside_types.then_some(true),
        };
        given.apply(&mut settings, SettingsOrigin::CommandLine)?;
        if let Some(strategy) = self.strategy {
            settings.generation.strategy = strategy;
        }
        settings.mutant_switching &= !self.no_mutant_switching;
        settings.limits.memory = self.memory_mb.max(16).checked_mul(1 << 20).ok_or_else(|| {
            Error::Usage(format!("--memory-mb {} is more than this machine can address", self.memory_mb))
        })?;
        let options = SessionOptions {
            files: self.files.clone(),
            namespace: self.namespace.clone(),
            classes: self.classes.clone(),
            method: self.method.clone(),
        };
        let seed_from = self.seed_from.clone().map(|path| SeedFrom { path, threshold: self.threshold });
        Ok(Opening { options, settings, project, seed_from })
    }

    /// The command that reproduces this run, for the suite's header. `--jobs` and `--no-mutant-switching`
    /// are left out: the suite is the same whatever they are, and so is the header; so are `--update` and
    /// `--accept-changes`, since a suite brought up to date keeps the header it was written with.
    pub fn command_line(&self, command: &str) -> String {
        let mut parts = vec![format!("flycatcher {command}")];
        let mut args = std::env::args().skip(2);
        while let Some(arg) = args.next() {
            if arg == "--jobs" || arg == "-j" {
                args.next();
            } else if arg == "--no-mutant-switching" || arg == "--update" || arg == "--accept-changes" {
                continue;
            } else if !(arg.starts_with("--jobs=") || arg.starts_with("-j")) {
                parts.push(arg);
            }
        }
        parts.join(" ")
    }
}

/// Options of `flycatcher bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The code to measure on: a script, a CommonJS file, an ES module, a TypeScript file or a package
    /// folder.
    #[arg(default_value = "samples/linked-list.js", value_name = "FILE|DIR")]
    pub file: PathBuf,

    /// Seconds of CPU time to measure each side.
    #[arg(long, default_value_t = 3.0, value_name = "SECS")]
    pub seconds: f64,

    /// Seed.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,

    /// Keep one session: once every method is done, work on them in turn, each reopened with a fresh
    /// budget, instead of starting a new session with the next seed. Measures what a long run spends per
    /// candidate, without the elections and contexts of session starts.
    #[arg(long)]
    pub steady: bool,

    /// Also measure the speed-up of `generate --jobs 2` over `--jobs 1` on this file of several classes
    /// (both from loading to the written suite, --seconds per method at most, in this same run; the
    /// median of up to five pairs of runs).
    #[arg(long, value_name = "FILE")]
    pub jobs_on: Option<PathBuf>,

    /// Measure the cost of recording instead: the entry script (first) and the plain scripts it uses,
    /// recorded against a plain run in bare QuickJS (median of 21 runs), e.g.
    /// `--record samples/demo-bookshop.js samples/isbn.js samples/circle.js`.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub record: Vec<PathBuf>,
}

impl BenchArgs {
    /// The benchmark's options.
    pub fn to_options(&self) -> BenchOptions {
        BenchOptions {
            file: self.file.clone(),
            seconds: self.seconds.clamp(0.1, 3600.0),
            seed: self.seed,
            steady: self.steady,
        }
    }
}

/// Options of `flycatcher record`.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The entry script to run: a demo, example or smoke script that uses the classes. Modules it
    /// requires or imports are loaded with it.
    #[arg(value_name = "ENTRY.js")]
    pub entry: PathBuf,

    /// Plain scripts the entry uses (loaded before it, in this order, into one global scope, like
    /// script tags of a page).
    #[arg(value_name = "SCRIPT.js")]
    pub scripts: Vec<PathBuf>,

    /// Only write replay tests for this class (repeatable). Every class is recorded.
    #[arg(long = "class", value_name = "NAME")]
    pub classes: Vec<String>,

    /// Folder for the recording (`<entry>.recording.json`) and the replay suites.
    #[arg(long, default_value = "flycatcher-out", value_name = "DIR")]
    pub out: PathBuf,

    /// Calls recorded per method at most; later calls run unrecorded.
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_calls_per_method: u64,

    /// Most replay tests kept per method: recorded calls are elected in order when they add coverage of
    /// their method. Strings over 40 characters and arrays over 10 items anywhere in a replay test are
    /// shrunk while it keeps its coverage and its recorded result.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub threshold: usize,

    /// Time the entry script may run, in seconds.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    pub timeout: f64,

    /// Test format of the replay suites: node-test, assert, nodeunit, expresso, vows.
    #[arg(long, default_value = "node-test", value_name = "FORMAT")]
    pub format: Format,

    /// Print nothing but errors and the entry's console output.
    #[arg(long, short)]
    pub quiet: bool,
}

impl RecordArgs {
    /// The recording run's options.
    pub fn to_options(&self) -> Result<flycatcher::record::RecordOptions, Error> {
        if !(self.timeout > 0.0 && self.timeout <= 86_400.0) {
            return Err(Error::Usage(format!("--timeout {} must be between 0 and 86400 seconds", self.timeout)));
        }
        Ok(flycatcher::record::RecordOptions {
            entry: self.entry.clone(),
            scripts: self.scripts.clone(),
            max_calls_per_method: self.max_calls_per_method as usize,
            timeout: std::time::Duration::from_secs_f64(self.timeout),
            echo: true,
        })
    }
}
