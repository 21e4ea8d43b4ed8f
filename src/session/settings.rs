//! Settings of a run: everything the user may change between steps.

use std::time::Duration;

use crate::generate::random::{GenerationSettings, Strategy};
use crate::generate::values::{NumberSource, StringSource};
use crate::sandbox::Limits;

/// Settings of a session. Defaults are the documented command-line defaults.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Uses of a parameter before its type is inferred.
    pub delay: u32,
    /// Time budget per method under test (time spent stepping it).
    pub timeout: Duration,
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
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            delay: 20,
            timeout: Duration::from_secs(10),
            max_stale: 50_000,
            target_coverage: 100.0,
            generation: GenerationSettings {
                max_calls: 10,
                strings: StringSource::Default,
                numbers: NumberSource::Default,
                strategy: Strategy::Guided,
            },
            limits: Limits::default(),
            seed: 0,
        }
    }
}
