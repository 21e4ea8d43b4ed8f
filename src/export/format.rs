//! The test runners a suite can be written for, and the properties that tell them apart when a suite is
//! rendered: the suite file's module system, whether the runner can skip tests, and whether it groups them.

use std::fmt;
use std::str::FromStr;

use super::loader::Syntax;

/// A test runner (or runner-less style) that a suite is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Node's own runner: `node:test` `describe`/`test` with `node:assert/strict`.
    NodeTest,
    /// A plain Node script that prints TAP lines and a `N passed, N failed` line, exiting with 1 on failure.
    Assert,
    /// nodeunit: exported test functions that call `test.done()`.
    Nodeunit,
    /// expresso: an exported object of `'title': function` tests.
    Expresso,
    /// vows: `vows.describe(...).addBatch(...).export(module)`.
    Vows,
    /// jest: global `describe`/`test`; suites of ES modules need `NODE_OPTIONS=--experimental-vm-modules`.
    Jest,
    /// mocha: global `describe`/`it`.
    Mocha,
    /// vitest: `describe`/`test` imported from `vitest`; the suite is always an ES module.
    Vitest,
}

impl Format {
    /// Every format, in the order they are offered to users.
    pub(crate) fn all() -> [Format; 8] {
        [
            Format::NodeTest,
            Format::Assert,
            Format::Nodeunit,
            Format::Expresso,
            Format::Vows,
            Format::Jest,
            Format::Mocha,
            Format::Vitest,
        ]
    }

    /// The name users give on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::NodeTest => "node-test",
            Format::Assert => "assert",
            Format::Nodeunit => "nodeunit",
            Format::Expresso => "expresso",
            Format::Vows => "vows",
            Format::Jest => "jest",
            Format::Mocha => "mocha",
            Format::Vitest => "vitest",
        }
    }

    /// The module system of a suite in this format, given whether it loads ES modules: nodeunit, expresso, vows
    /// and jest (without experimental flags) `require()` their test files, and vitest runs every test file as
    /// an ES module.
    pub(super) fn syntax(self, loads_es_modules: bool) -> Syntax {
        match self {
            Format::Vitest => Syntax::EsModule,
            Format::NodeTest | Format::Assert | Format::Mocha if loads_es_modules => Syntax::EsModule,
            _ => Syntax::CommonJs,
        }
    }

    /// Whether its runner can skip a test (failing tests are exported skipped, and only for such runners).
    pub(crate) fn can_skip(self) -> bool {
        !matches!(self, Format::Nodeunit | Format::Expresso | Format::Vows)
    }

    /// Whether suites of TypeScript code can be written for it: its runner runs TypeScript (vitest itself,
    /// node:test through tsx or Node's type stripping, jest through `@swc/jest`) and ships the types of
    /// what a suite imports from it, so that the suite type-checks.
    pub(crate) fn writes_typescript(self) -> bool {
        matches!(self, Format::NodeTest | Format::Jest | Format::Vitest)
    }

    /// Whether its runner groups tests with `describe`: then each method under test gets its own group;
    /// otherwise the group's name starts each title.
    pub(super) fn has_groups(self) -> bool {
        matches!(self, Format::NodeTest | Format::Jest | Format::Mocha | Format::Vitest)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Format`] from a name that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(
    /// The name that was given.
    pub String,
);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Format::all().iter().map(|format| format.name()).collect();
        write!(f, "unknown test format `{}` (expected one of: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Format::all().into_iter().find(|format| format.name() == name).ok_or_else(|| UnknownFormat(name.to_string()))
    }
}
