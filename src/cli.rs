//! Command-line arguments.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use flycatcher::bench::BenchOptions;
use flycatcher::error::Error;
use flycatcher::generate::values::{NumberSource, RegexGenerator, StringSource};
use flycatcher::session::{SessionOptions, Settings};
use flycatcher::suite::export::Format;

/// Writes unit tests for JavaScript classes by itself.
///
/// Flycatcher loads your JavaScript files into a QuickJS sandbox, finds their classes, and for each
/// method generates random call sequences. Parameters of unknown type receive recording proxies until
/// their type is inferred; tests that cover new statements are kept, with assertions on the results
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
    /// Generate a regression suite headless, run to the end (for scripts and CI).
    Generate(GenerateArgs),
    /// Measure candidate tests per second on a sample against a bare QuickJS loop.
    Bench(BenchArgs),
}

/// Options of `flycatcher generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// JavaScript files to test (.js, .cjs, .mjs): plain scripts, CommonJS or ES modules. Files they
    /// require or import are loaded too.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Only look for classes under this namespace object (a dotted path, e.g. `Geo` or `Geo.Shapes`).
    #[arg(long, value_name = "PATH")]
    pub namespace: Option<String>,

    /// Only test this class (repeatable). Other classes still serve as parameter types.
    #[arg(long = "class", value_name = "NAME")]
    pub classes: Vec<String>,

    /// Only test this method (of the selected classes).
    #[arg(long, value_name = "NAME")]
    pub method: Option<String>,

    /// Uses of a parameter (calls that received a recording proxy for it) before its type is inferred.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub delay: u32,

    /// Most calls in one candidate test, the method under test included.
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_calls: u32,

    /// Time budget per method under test, in seconds (strict).
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    pub timeout: f64,

    /// Stop a method after this many valid candidates in a row add no coverage.
    #[arg(long, default_value_t = 50_000, value_name = "N")]
    pub max_stale: u64,

    /// Stop a method once its statement coverage reaches this percentage.
    #[arg(long, default_value_t = 100.0, value_name = "PCT")]
    pub target_coverage: f64,

    /// Generate strings from this regular expression (JavaScript syntax, e.g. '\d{13}' or '/[a-z]+/').
    /// Default: short printable ASCII strings, the empty string included.
    #[arg(long, value_name = "REGEX")]
    pub string_gen: Option<String>,

    /// Generate numbers from this regular expression, converted with Number() (e.g. '-?\d{1,3}').
    /// Default: a mix of small integers, zero, negatives, fractions and large values.
    #[arg(long, value_name = "REGEX")]
    pub number_gen: Option<String>,

    /// Seed of every random choice: the same seed gives the same suite. Default: a random seed, printed
    /// in the suite's header.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Test format: node-test (node:test + node:assert), assert (plain script), nodeunit, expresso, vows.
    #[arg(long, default_value = "node-test", value_name = "FORMAT")]
    pub format: Format,

    /// Folder for the suites (`<Class>.test.js`) and failing-test logs (`<Class>.failing.log`).
    #[arg(long, default_value = "flycatcher-out", value_name = "DIR")]
    pub out: PathBuf,

    /// Also write a JSON report of the run to this file.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,

    /// Time limit of one candidate test, in milliseconds (ends infinite loops).
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub test_timeout_ms: u64,

    /// Memory limit of the JavaScript engine, in MiB (ends unbounded allocation).
    #[arg(long, default_value_t = 256, value_name = "MIB")]
    pub memory_mb: usize,

    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

impl GenerateArgs {
    /// The session's options and settings; invalid values are usage errors.
    pub fn session(&self) -> Result<(SessionOptions, Settings), Error> {
        let regex = |flag: &str, pattern: &Option<String>| {
            pattern
                .as_deref()
                .map(RegexGenerator::parse)
                .transpose()
                .map_err(|e| Error::Usage(format!("--{flag}: {e}")))
        };
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            return Err(Error::Usage(format!("--timeout must be a positive number of seconds, not {}", self.timeout)));
        }
        if !(0.0..=100.0).contains(&self.target_coverage) {
            return Err(Error::Usage(format!("--target-coverage must be between 0 and 100, not {}", self.target_coverage)));
        }
        let mut settings = Settings {
            delay: self.delay,
            timeout: Duration::from_secs_f64(self.timeout),
            max_stale: self.max_stale,
            target_coverage: self.target_coverage,
            seed: self.seed.unwrap_or_else(rand::random),
            ..Settings::default()
        };
        settings.generation.max_calls = self.max_calls as usize;
        settings.generation.strings = regex("string-gen", &self.string_gen)?.map_or(StringSource::Default, StringSource::Regex);
        settings.generation.numbers = regex("number-gen", &self.number_gen)?.map_or(NumberSource::Default, NumberSource::Regex);
        settings.limits.test_time = Duration::from_millis(self.test_timeout_ms.max(1));
        settings.limits.memory = self.memory_mb.max(16) << 20;
        let options = SessionOptions {
            files: self.files.clone(),
            namespace: self.namespace.clone(),
            classes: self.classes.clone(),
            method: self.method.clone(),
        };
        Ok((options, settings))
    }

    /// The command that reproduces this run, for the suite's header.
    pub fn command_line(&self) -> String {
        let mut parts = vec!["flycatcher generate".to_string()];
        parts.extend(self.files.iter().map(|f| f.display().to_string()));
        std::env::args().skip(2).filter(|a| !self.files.iter().any(|f| f.as_os_str() == a.as_str())).for_each(|a| parts.push(a));
        parts.join(" ")
    }
}

/// Options of `flycatcher bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The sample to measure on.
    #[arg(default_value = "samples/linked-list.js", value_name = "FILE")]
    pub file: PathBuf,

    /// Seconds to measure each side.
    #[arg(long, default_value_t = 3.0, value_name = "SECS")]
    pub seconds: f64,

    /// Seed.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
}

impl BenchArgs {
    /// The benchmark's options.
    pub fn to_options(&self) -> BenchOptions {
        BenchOptions { file: self.file.clone(), seconds: self.seconds.max(0.1), seed: self.seed }
    }
}
