//! The keys each place of the explorer offers, in one table: the footer shows those of the focused pane
//! (or of the full view) before the global ones, and the help lists them all, by place. `update.rs`
//! is what acts on them; `keys_in_the_table_do_something` in its tests keeps the two together.

use super::state::Pane;

/// A key (or keys) and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Binding {
    /// The keys, as written in the help: `j k, ↑ ↓`.
    pub(crate) keys: &'static str,
    /// The footer's short form: `a accept`; empty to leave it out of the footer.
    pub(crate) short: &'static str,
    /// What it does, for the help.
    pub(crate) what: &'static str,
}

const fn key(keys: &'static str, short: &'static str, what: &'static str) -> Binding {
    Binding { keys, short, what }
}

/// Keys that work in every pane, most used first (the footer keeps the first ones when it is short).
pub(crate) const GLOBAL: &[Binding] = &[
    key("space, n", "n step", "step: run one candidate"),
    key("r", "r run", "run / pause continuous stepping"),
    key("?", "? help", "this help (j k scroll, esc close)"),
    key("q", "q quit", "quit (asks when tests are unexported or changes unsaved)"),
    key("x", "x export", "export the suite (format and folder asked)"),
    key("t", "t settings", "settings: delay, timeout, limits, generators"),
    key("s", "", "save settings and fixed types to flycatcher.json"),
    key("tab, shift-tab", "", "next / previous pane, in screen order"),
    key("l h, → ←", "", "next / previous pane"),
    key("j k, ↓ ↑", "", "move in the focused pane"),
    key("PgDn PgUp", "", "move by a page"),
    key("esc", "", "clear the filter; back to the latest candidate"),
    key("ctrl-c", "", "quit now, writing the suite (exit status 130)"),
    key("mouse", "", "click focuses a pane and selects a row; the wheel scrolls"),
];

const METHODS: &[Binding] = &[
    key("enter", "enter work on", "work on the selected method (a stopped one is reopened)"),
    key("/", "/ filter", "filter methods and tests by name (enter keeps it, esc clears)"),
];

const CANDIDATE: &[Binding] = &[
    key("k j", "k/j back/forward", "step back through the last candidates, and forward again"),
    key("enter", "enter view", "the candidate full screen: code, outcome, coverage diff"),
];

const PARAMS: &[Binding] = &[
    key("a", "a accept", "accept the type (before the delay: the leading guess)"),
    key("o, enter", "o override", "override the type with a primitive or a class"),
    key("i", "i infer", "give an accepted or overridden type back to inference"),
];

const COVERAGE: &[Binding] = &[key("j k", "j k scroll", "scroll the source")];

const SUITE: &[Binding] = &[
    key("e", "e tab", "switch between elected tests and the failing log"),
    key("enter", "enter view", "the selected test or log entry full screen"),
    key("v", "v suite", "the whole suite as it would be written, full screen"),
    key("/", "/ filter", "filter methods and tests by name (enter keeps it, esc clears)"),
];

/// Keys of a full view.
pub(crate) const FULL_VIEW: &[Binding] = &[
    key("j k, ↓ ↑", "j k scroll", "scroll"),
    key("PgDn PgUp, g G", "g G top/end", "by a page; to the top, to the end"),
    key("w", "w wrap", "wrap long lines, or cut them"),
    key("esc, q", "esc close", "close"),
];

/// The keys of `pane`.
pub(crate) fn of_pane(pane: Pane) -> &'static [Binding] {
    match pane {
        Pane::Methods => METHODS,
        Pane::Candidate => CANDIDATE,
        Pane::Params => PARAMS,
        Pane::Coverage => COVERAGE,
        Pane::Suite => SUITE,
    }
}

/// The footer's hints with `pane` focused: its own keys first, then the global ones.
pub(crate) fn footer(pane: Pane) -> Vec<&'static str> {
    of_pane(pane).iter().chain(GLOBAL).map(|b| b.short).filter(|s| !s.is_empty()).collect()
}

/// Every binding by place, for the help.
pub(crate) fn sections() -> Vec<(&'static str, &'static [Binding])> {
    let mut sections = vec![("Everywhere", GLOBAL)];
    sections.extend(Pane::ALL.iter().map(|p| (p.title(), of_pane(*p))));
    sections.push(("Full view", FULL_VIEW));
    sections
}
