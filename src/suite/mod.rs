//! The regression suite: elected tests with what they observed, the failing-tests log, and writing both
//! out for JavaScript test runners: this module puts the tests in JavaScript terms (an
//! [`crate::export::ExportSuite`]), and [`crate::export`] renders them for each runner.

pub(crate) mod assertion;
pub(crate) mod checks;
mod declared;
pub(crate) mod header;
pub(crate) mod kept;
pub(crate) mod lines;
pub(crate) mod manifest;
pub(crate) mod simplified;
pub(crate) mod stability;
pub(crate) mod title;
mod unelected;
mod write;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::model::observed::{DescribedResult, Outcome};
use crate::model::program::ClassId;
use crate::model::test::TestCase;
pub(crate) use checks::{FieldCheck, StateChecks};
pub(crate) use lines::test_lines;
pub(crate) use simplified::Simplified;
pub(crate) use stability::Unstable;
pub(crate) use write::{compress_lines, export_suite, written_lines};

/// A test kept because it covered new statements of its method under test.
#[derive(Debug, Clone)]
pub struct ElectedTest {
    /// The test.
    pub test: TestCase,
    /// Results of the calls of the method under test, described right after each call.
    pub results: Vec<DescribedResult>,
    /// `Passed`, or `Threw` at the last statement (an expected-exception regression test).
    pub outcome: Outcome,
    /// Lines of the statements it covered first.
    pub new_lines: Vec<u32>,
    /// Whether the error it throws (if any) was built by the code under test: only then is its message
    /// asserted, since messages of the engine's own errors differ between engines.
    pub own_message: bool,
    /// The seed it ran with: `Math.random` in the exported test starts from it too.
    pub seed: u32,
    /// Statements of its method it covers (offsets in the method's range), new or not: minimising it
    /// keeps them all.
    pub covers: Vec<u32>,
    /// Branch outcomes of its method it takes (offsets in the method's range): its title tells them.
    pub branches: Vec<u32>,
    /// Whether it was minimised already.
    pub minimized: bool,
    /// The state assertions chosen for it (see [`checks`]); `None` until mutation analysis chose, when
    /// the fields that calls returning nothing changed are asserted.
    pub checks: Option<StateChecks>,
    /// Where the statements added to tell mutants apart start (see `mutate::extend`), if any: the test
    /// as generated ends before, and its title tells that part.
    pub extended_at: Option<usize>,
    /// The values minimisation made simpler in it, if any: the mutation analysis puts an original one
    /// back where the simpler one lets a mutant live.
    pub simplified: Option<Simplified>,
}

/// A valid test that threw or hit a limit: a possible bug, for people to look at.
#[derive(Debug, Clone)]
pub struct FailingTest {
    /// The test.
    pub test: TestCase,
    /// The call that failed (`get`, `new Node`), when known.
    pub culprit: Option<String>,
    /// What happened.
    pub message: String,
    /// How it ended: only tests that threw are exported as tests (one that hit a limit would hang a runner).
    pub outcome: Outcome,
}

/// Everything elected so far, and the failing-tests log.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    /// Elected tests, in election order.
    pub elected: Vec<ElectedTest>,
    /// Failing tests, one per distinct method and message.
    pub failing: Vec<FailingTest>,
    /// Assertions (or whole tests) dropped because their values changed when the tests ran again.
    pub unstable: Vec<Unstable>,
    /// What `generate --update` keeps of the suite it brings up to date (nothing otherwise).
    pub kept: kept::Kept,
    /// The failures logged, as [`Suite::log_failure`] tells them apart, and how many per method under
    /// test: every failing candidate is looked up, and a library's run meets thousands.
    logged: FxHashSet<FailureKey>,
    logged_per_method: FxHashMap<(ClassId, String), usize>,
}

/// What makes a failure the same as one logged: its class, the call that failed (or the method under
/// test when that is unknown), and its message with numbers left out.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct FailureKey {
    class: ClassId,
    culprit: Option<String>,
    method: Option<String>,
    shape: String,
}

impl FailureKey {
    fn of(test: &TestCase, culprit: Option<&str>, message: &str) -> FailureKey {
        FailureKey {
            class: test.class,
            method: culprit.is_none().then(|| test.method.clone()),
            culprit: culprit.map(String::from),
            shape: message_shape(message),
        }
    }
}

/// Most failing tests kept per method under test.
const MAX_FAILING_PER_METHOD: usize = 20;

impl Suite {
    /// Logs a failing test unless the same call already failed the same way in a test of the same
    /// class (messages that differ only in numbers, like `index out of bounds: 7`, count as the same).
    /// Most candidates fail, nearly all of them as one logged already: the test, message and outcome
    /// are copied only when logged.
    pub(crate) fn log_failure(
        &mut self,
        test: &TestCase,
        culprit: Option<String>,
        message: &str,
        outcome: &Outcome,
    ) -> bool {
        let per_method = (test.class, test.method.clone());
        if self.logged_per_method.get(&per_method).copied().unwrap_or(0) >= MAX_FAILING_PER_METHOD {
            return false;
        }
        // After the count: a method that has its share logged makes no key (the message's shape is a
        // walk of its text, for every candidate that fails).
        let key = FailureKey::of(test, culprit.as_deref(), message);
        if self.logged.contains(&key) {
            return false;
        }
        self.logged.insert(key);
        *self.logged_per_method.entry(per_method).or_default() += 1;
        self.failing.push(FailingTest {
            test: test.clone(),
            culprit,
            message: message.to_string(),
            outcome: outcome.clone(),
        });
        true
    }

    /// Counts `failing`, a failing test an update keeps (see [`kept`]), as logged: the same failure found
    /// again is not logged twice.
    pub(crate) fn remember_failure(&mut self, failing: &FailingTest) {
        self.logged.insert(FailureKey::of(&failing.test, failing.culprit.as_deref(), &failing.message));
        *self.logged_per_method.entry((failing.test.class, failing.test.method.clone())).or_default() += 1;
    }

    /// The classes that have elected, kept or failing tests, or whose suite is brought up to date, in class
    /// order.
    pub(crate) fn classes(&self) -> Vec<ClassId> {
        let kept = &self.kept;
        let mut classes: Vec<ClassId> = self
            .elected
            .iter()
            .map(|e| e.test.class)
            .chain(self.failing.iter().chain(&kept.failing).map(|f| f.test.class))
            .chain(kept.tests.iter().map(|k| k.elected.test.class))
            .chain(kept.classes.iter().copied())
            .collect();
        classes.sort_unstable();
        classes.dedup();
        classes
    }
}

/// The message with every number replaced by `#`.
pub(crate) fn message_shape(message: &str) -> String {
    let mut shape = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        let starts_number = c.is_ascii_digit() || (c == '-' && chars.peek().is_some_and(char::is_ascii_digit));
        if starts_number {
            while chars.peek().is_some_and(|n| n.is_ascii_digit() || *n == '.' || *n == 'e') {
                chars.next();
            }
            shape.push('#');
        } else {
            shape.push(c);
        }
    }
    shape
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_lists_are_compressed() {
        assert_eq!(compress_lines(&[7, 3, 4, 5, 9, 4]), "3-5, 7, 9");
        assert_eq!(compress_lines(&[]), "");
    }

    #[test]
    fn failures_differing_only_in_numbers_are_logged_once() {
        assert_eq!(message_shape("index out of bounds: -52.2"), message_shape("index out of bounds: 7"));
        assert_ne!(message_shape("index out of bounds: 7"), message_shape("node is already linked"));
        let mut suite = Suite::default();
        let test = TestCase { class: 0, method: "get".into(), variables: Vec::new(), statements: Vec::new() };
        let log = |suite: &mut Suite, culprit: &str, message: &str| {
            suite.log_failure(&test, Some(culprit.into()), message, &Outcome::TimedOut)
        };
        assert!(log(&mut suite, "get", "out of bounds: 1"));
        assert!(!log(&mut suite, "get", "out of bounds: -3.5"));
        assert!(log(&mut suite, "insertAt", "out of bounds: 1"));
        let logged: Vec<_> = suite.failing.iter().map(|f| (f.culprit.as_deref(), f.message.as_str())).collect();
        assert_eq!(logged, [(Some("get"), "out of bounds: 1"), (Some("insertAt"), "out of bounds: 1")]);
    }
}
