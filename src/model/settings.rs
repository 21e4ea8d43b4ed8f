//! Settings of a run: everything the user may change between steps, and the one patch type through
//! which the command line, the project file and the terminal UI change them.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::js::regex::RegexGenerator;

/// Settings of a session. Defaults are the documented command-line defaults.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Uses of a parameter before its type is inferred.
    pub delay: u32,
    /// Wall-clock cap per method under test (time spent stepping it): ends a method this machine has not
    /// finished by then, whatever is left of its [`Settings::budget`]. A suite shaped by the cap depends on
    /// the machine's speed and load, and the reports say so.
    pub timeout: Duration,
    /// Work budget per method under test, in work units (see [`WORK_PER_SECOND`]): what decides where a
    /// method stops, and the share of the passes after generation, the same on any machine.
    pub budget: u64,
    /// Valid runs without new coverage after which a method stops.
    pub max_stale: u64,
    /// Statement coverage (percent) at which a method stops.
    pub target_coverage: f64,
    /// What candidates may contain.
    pub generation: GenerationSettings,
    /// Per-test limits.
    pub limits: Limits,
    /// Seed of every random choice.
    pub seed: u64,
    /// Whether the mutation analysis switches mutants in one program of mutant schemata (on) or builds
    /// every mutant's program (off; slower, kept to compare the two).
    pub mutant_switching: bool,
}

/// Work units a session spends in a second of stepping on one core of the machine the defaults were
/// calibrated on (2 cores, 2026): a unit is about 15 µs there, what a short candidate costs (see
/// `session::budget` for what a run is charged).
pub const WORK_PER_SECOND: u64 = 60_000;

/// The share of the `--timeout` cap a method's work budget derived from it stands for on that machine:
/// the cap is then three times what the budget costs there, so that a machine twice as slow, or as
/// loaded, still ends methods by work, and so with the same suite.
const BUDGET_SHARE_OF_CAP: f64 = 1.0 / 3.0;

/// The work budget a cap of `timeout` implies when no budget is given (see [`BUDGET_SHARE_OF_CAP`]).
pub fn budget_for(timeout: Duration) -> u64 {
    (timeout.as_secs_f64() * BUDGET_SHARE_OF_CAP * WORK_PER_SECOND as f64).round().max(1.0) as u64
}

/// The cap a work budget of `budget` implies when no cap is given: the inverse of [`budget_for`].
pub fn cap_for(budget: u64) -> Duration {
    Duration::from_secs_f64(budget as f64 / WORK_PER_SECOND as f64 / BUDGET_SHARE_OF_CAP)
}

/// The default cap per method: its budget is then about ten seconds of this machine's stepping, what a
/// method cost when the budget was ten seconds of time.
const DEFAULT_CAP: Duration = Duration::from_secs(30);

impl Default for Settings {
    fn default() -> Self {
        Settings {
            delay: 20,
            timeout: DEFAULT_CAP,
            budget: budget_for(DEFAULT_CAP),
            max_stale: 50_000,
            target_coverage: 100.0,
            generation: GenerationSettings {
                max_calls: 10,
                strings: StringSource::Default,
                numbers: NumberSource::Default,
                strategy: Strategy::Guided,
                probe_outside_types: false,
            },
            limits: Limits::default(),
            seed: 0,
            mutant_switching: true,
        }
    }
}

/// How candidates are generated (`--strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The report's generator: random values only.
    Random,
    /// Random values mixed with the constants of the method under test and its class, and mutations of
    /// them (see `generate::guided`); a method on which they stop finding coverage goes on with
    /// search, branch distances and all.
    #[default]
    Guided,
    /// Every call sequence in order of length over small canonical value pools (see
    /// `generate::exhaustive`).
    Exhaustive,
    /// Exhaustive over short sequences first, then guided random: Andrews, Zhang and Groce's "best of
    /// both worlds".
    Combined,
    /// Tests evolved towards the branch outcomes not taken yet, guided by branch distance (see
    /// `generate::search`).
    Search,
    /// Search guided by coverage alone: guided random tests half of the time, else a mutation of one of
    /// the method's elected tests; kept to measure what branch distances bring.
    SearchCoverage,
}

impl Strategy {
    /// Every strategy, in the order benchmarks print them.
    pub const ALL: [Strategy; 6] = [
        Strategy::Random,
        Strategy::Guided,
        Strategy::Exhaustive,
        Strategy::Combined,
        Strategy::Search,
        Strategy::SearchCoverage,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Guided => "guided",
            Strategy::Exhaustive => "exhaustive",
            Strategy::Combined => "combined",
            Strategy::Search => "search",
            Strategy::SearchCoverage => "search-cov",
        }
    }

    /// Whether conditions are instrumented to measure branch distances: search reads them on every run,
    /// guided once a method stops progressing (see `session`).
    pub(crate) fn measures_distances(self) -> bool {
        matches!(self, Strategy::Guided | Strategy::Search)
    }

    /// Whether random primitives are mixed with mined constants.
    pub(crate) fn guided_inputs(self) -> bool {
        matches!(self, Strategy::Guided | Strategy::Combined | Strategy::Search | Strategy::SearchCoverage)
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Strategy, String> {
        Strategy::ALL.into_iter().find(|s| s.name() == text).ok_or_else(|| {
            format!("unknown strategy '{text}' (expected random, guided, exhaustive, combined, search or search-cov)")
        })
    }
}

/// What the generator may choose from.
#[derive(Debug, Clone)]
pub struct GenerationSettings {
    /// Most calls in a test, the method under test included (at least 1).
    pub max_calls: usize,
    /// Where strings come from.
    pub strings: StringSource,
    /// Where numbers come from.
    pub numbers: NumberSource,
    /// How primitives are chosen when no regular expression is given for their type.
    pub strategy: Strategy,
    /// Whether parameters with a declared type (TypeScript) are also given values outside it, now and
    /// then, for code that validates at run time; by default tests respect declared types.
    pub probe_outside_types: bool,
}

/// Per-test and per-load limits.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Wall-clock time one test may run.
    pub test_time: Duration,
    /// Wall-clock time loading the code under test may take.
    pub load_time: Duration,
    /// Most work (interrupt checks) loading may do, besides `load_time`: set for a mutant's program, a
    /// multiple of what the original's load did, so that a mutant that loops while loading is told by
    /// its work, the same on any machine, and not after `load_time`.
    pub load_work: Option<u64>,
    /// Memory the JavaScript runtime may allocate, in bytes.
    pub memory: usize,
    /// JavaScript stack size, in bytes.
    pub stack: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            test_time: Duration::from_millis(100),
            load_time: Duration::from_secs(5),
            load_work: None,
            memory: 256 << 20,
            stack: 512 << 10,
        }
    }
}

/// Where generated string arguments come from.
#[derive(Clone, Debug, Default)]
pub enum StringSource {
    /// Short printable ASCII, sometimes empty.
    #[default]
    Default,
    /// Strings matching a user-given pattern.
    Regex(RegexGenerator),
}

impl StringSource {
    /// The pattern of a regex source, `None` for the default generator.
    pub(crate) fn pattern(&self) -> Option<&str> {
        match self {
            StringSource::Default => None,
            StringSource::Regex(regex) => Some(regex.pattern()),
        }
    }
}

/// Where generated number arguments come from.
#[derive(Clone, Debug, Default)]
pub enum NumberSource {
    /// Mostly small integers, with zero, negatives, fractions, large values and boundaries; never
    /// `NaN` or an infinity.
    #[default]
    Default,
    /// Strings matching a user-given pattern, converted as JavaScript's `Number(s)` would.
    Regex(RegexGenerator),
}

impl NumberSource {
    /// The pattern of a regex source, `None` for the default generator.
    pub(crate) fn pattern(&self) -> Option<&str> {
        match self {
            NumberSource::Default => None,
            NumberSource::Regex(regex) => Some(regex.pattern()),
        }
    }
}

/// A change to [`Settings`]: what the command line, the project file (`"settings"`) and the terminal
/// UI's settings dialog give. Absent fields leave a setting as it is; applying a patch checks every value
/// and names the option or key at fault.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsPatch {
    /// Inference delay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<u32>,
    /// Wall-clock cap per method, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// Work budget per method, in work units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u64>,
    /// Stale runs before a method stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_stale: Option<u64>,
    /// Most calls per candidate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_calls: Option<u32>,
    /// Coverage percentage at which a method stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_coverage: Option<f64>,
    /// Time limit of one candidate, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_timeout_ms: Option<u64>,
    /// String generator: a pattern, or `None` (`null` in the file, an empty field in the UI) for the
    /// default generator.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub string_gen: Option<Option<String>>,
    /// Number generator, as [`string_gen`](Self::string_gen).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub number_gen: Option<Option<String>>,
    /// Whether values outside declared types are generated too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe_outside_types: Option<bool>,
}

/// A key that is present, even as `null`, is a change (see [`SettingsPatch::string_gen`]).
fn present<'de, D: serde::Deserializer<'de>>(value: D) -> std::result::Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(value).map(Some)
}

/// The name of the project file, looked for beside the first file under test.
pub(crate) const PROJECT_FILE: &str = "flycatcher.json";

/// Where a patch comes from, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsOrigin {
    /// The project file.
    ProjectFile,
    /// Command-line options.
    CommandLine,
    /// The terminal UI's settings dialog.
    Explorer,
}

impl SettingsOrigin {
    /// How an error about `key` starts: `flycatcher.json: timeout`, `--timeout` or `settings: timeout`.
    fn name(self, key: &str) -> String {
        match self {
            SettingsOrigin::ProjectFile => format!("{PROJECT_FILE}: {key}"),
            SettingsOrigin::CommandLine => format!("--{}", key.replace('_', "-")),
            SettingsOrigin::Explorer => format!("settings: {key}"),
        }
    }
}

impl SettingsPatch {
    /// Every setting the patch can change, as `settings` has it: what the project file saves.
    pub(crate) fn of(settings: &Settings) -> SettingsPatch {
        SettingsPatch {
            delay: Some(settings.delay),
            timeout: Some(settings.timeout.as_secs_f64()),
            budget: Some(settings.budget),
            max_stale: Some(settings.max_stale),
            max_calls: Some(settings.generation.max_calls as u32),
            target_coverage: Some(settings.target_coverage),
            test_timeout_ms: Some(settings.limits.test_time.as_millis() as u64),
            string_gen: settings.generation.strings.pattern().map(|p| Some(p.to_string())),
            number_gen: settings.generation.numbers.pattern().map(|p| Some(p.to_string())),
            // Saved only when on: the default needs no line in a project file.
            probe_outside_types: settings.generation.probe_outside_types.then_some(true),
        }
    }

    /// Applies the patch over `settings` (the project file's over the defaults, then the command line's;
    /// the UI's over the settings in force).
    pub fn apply(&self, settings: &mut Settings, origin: SettingsOrigin) -> Result<()> {
        let regex = |key: &str, pattern: &str| {
            RegexGenerator::parse(pattern).map_err(|e| Error::Usage(format!("{}: {e}", origin.name(key))))
        };
        if let Some(delay) = self.delay {
            settings.delay = delay;
        }
        if let Some(timeout) = self.timeout {
            settings.timeout = Duration::try_from_secs_f64(timeout).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
                Error::Usage(format!("{} must be a positive number of seconds, not {timeout}", origin.name("timeout")))
            })?;
            if self.budget.is_none() {
                settings.budget = budget_for(settings.timeout);
            }
        }
        if let Some(budget) = self.budget {
            if budget == 0 {
                return Err(Error::Usage(format!("{} must be a positive number of work units", origin.name("budget"))));
            }
            settings.budget = budget;
            if self.timeout.is_none() {
                settings.timeout = settings.timeout.max(cap_for(budget));
            }
        }
        if let Some(max_stale) = self.max_stale {
            settings.max_stale = max_stale;
        }
        if let Some(max_calls) = self.max_calls {
            settings.generation.max_calls = max_calls.max(1) as usize;
        }
        if let Some(target) = self.target_coverage {
            if !(0.0..=100.0).contains(&target) {
                let key = origin.name("target_coverage");
                return Err(Error::Usage(format!("{key} must be between 0 and 100, not {target}")));
            }
            settings.target_coverage = target;
        }
        if let Some(ms) = self.test_timeout_ms {
            settings.limits.test_time = Duration::from_millis(ms.max(1));
        }
        if let Some(pattern) = &self.string_gen {
            settings.generation.strings = match pattern {
                Some(pattern) => StringSource::Regex(regex("string_gen", pattern)?),
                None => StringSource::Default,
            };
        }
        if let Some(probe) = self.probe_outside_types {
            settings.generation.probe_outside_types = probe;
        }
        if let Some(pattern) = &self.number_gen {
            settings.generation.numbers = match pattern {
                Some(pattern) => NumberSource::Regex(
                    number_generator(pattern)
                        .map_err(|e| Error::Usage(format!("{}: {e}", origin.name("number_gen"))))?,
                ),
                None => NumberSource::Default,
            };
        }
        Ok(())
    }
}

/// A number generator from `pattern`: a valid pattern whose strings `Number()` reads as numbers (some of
/// them at least: `abc` would only ever give `NaN`).
pub(crate) fn number_generator(pattern: &str) -> std::result::Result<RegexGenerator, String> {
    use rand::SeedableRng;
    let generator = RegexGenerator::parse(pattern).map_err(|e| e.to_string())?;
    // Samples from a fixed seed: the same pattern is always judged the same way.
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let samples: Vec<String> = (0..32).map(|_| generator.sample(&mut rng)).collect();
    if samples.iter().all(|s| crate::js::number::string_to_number(s).is_nan()) {
        return Err(format!(
            "'{pattern}' gives no number (Number('{}') is NaN): write digits, like '-?\\d{{1,3}}'",
            samples[0]
        ));
    }
    Ok(generator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_apply_over_defaults() {
        let mut settings = Settings::default();
        let file = SettingsPatch {
            delay: Some(3),
            max_calls: Some(4),
            number_gen: Some(Some("[1-6]".into())),
            ..Default::default()
        };
        file.apply(&mut settings, SettingsOrigin::ProjectFile).unwrap();
        assert_eq!((settings.delay, settings.generation.max_calls), (3, 4));
        assert_eq!(settings.generation.numbers.pattern(), Some("[1-6]"));
        let broken = SettingsPatch { string_gen: Some(Some("(".into())), ..Default::default() };
        assert!(
            broken.apply(&mut settings, SettingsOrigin::ProjectFile).unwrap_err().to_string().contains(PROJECT_FILE)
        );
        let message = broken.apply(&mut settings, SettingsOrigin::CommandLine).unwrap_err().to_string();
        assert!(message.starts_with("--string-gen: "), "{message}");
        let words = SettingsPatch { number_gen: Some(Some("abc".into())), ..Default::default() };
        let message = words.apply(&mut settings, SettingsOrigin::CommandLine).unwrap_err().to_string();
        assert!(message.starts_with("--number-gen: 'abc' gives no number (Number('abc') is NaN)"), "{message}");
        let some = SettingsPatch { number_gen: Some(Some("[0-9a]".into())), ..Default::default() };
        assert!(some.apply(&mut settings, SettingsOrigin::CommandLine).is_ok(), "some numbers are enough");
    }

    #[test]
    fn a_cap_alone_implies_a_budget_and_a_budget_alone_a_cap() {
        let mut settings = Settings::default();
        SettingsPatch { timeout: Some(4.0), ..Default::default() }
            .apply(&mut settings, SettingsOrigin::CommandLine)
            .unwrap();
        assert_eq!((settings.timeout, settings.budget), (Duration::from_secs(4), budget_for(Duration::from_secs(4))));
        let big = budget_for(Duration::from_secs(100));
        SettingsPatch { budget: Some(big), ..Default::default() }
            .apply(&mut settings, SettingsOrigin::CommandLine)
            .unwrap();
        assert_eq!((settings.timeout, settings.budget), (Duration::from_secs(100), big));
        let both = SettingsPatch { timeout: Some(1.0), budget: Some(7), ..Default::default() };
        both.apply(&mut settings, SettingsOrigin::ProjectFile).unwrap();
        assert_eq!((settings.timeout, settings.budget), (Duration::from_secs(1), 7));
        let zero = SettingsPatch { budget: Some(0), ..Default::default() };
        let message = zero.apply(&mut settings, SettingsOrigin::CommandLine).unwrap_err().to_string();
        assert!(message.starts_with("--budget must be a positive"), "{message}");
    }
}
