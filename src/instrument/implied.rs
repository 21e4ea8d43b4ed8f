//! Probes the instrumented code leaves out because another probe marks whenever they would, and how a
//! reader of the probes puts them back.
//!
//! A probe costs a few bytecodes each time it runs, and in a hot loop of hashing or big-number code
//! they are a good part of the work. Two kinds of probe are implied by a statement probe that runs
//! right after them, or right before:
//!
//! - a branch outcome whose body starts with a probed statement (the `then` of an `if`, a loop's body):
//!   the statement's probe runs exactly when the outcome is taken (see `probes.rs`, `probed_block`);
//! - a statement after one that cannot complete abruptly (no throw, no jump; see `folding.rs`): the
//!   probe before the first statement of such a run marks them all.
//!
//! Readers expand what ran with [`Implied`], so everything downstream sees the same statements and
//! outcomes as if every probe had been written.

/// The probes left out of one program (or file), by global ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Implied {
    /// `(probe, statement)`: the statement ran whenever statement probe `probe` marked, sorted by
    /// statement.
    pub statements: Vec<(u32, u32)>,
    /// `(probe, outcome)`: the branch outcome happened whenever statement probe `probe` marked, sorted by
    /// outcome.
    pub branches: Vec<(u32, u32)>,
}

impl Implied {
    /// The probes of every part, one after another (parts hold disjoint ids).
    pub(crate) fn merged<'a>(parts: impl IntoIterator<Item = &'a Implied>) -> Implied {
        let mut all = Implied::default();
        for part in parts {
            all.statements.extend_from_slice(&part.statements);
            all.branches.extend_from_slice(&part.branches);
        }
        all.sort();
        all
    }

    pub(super) fn sort(&mut self) {
        self.statements.sort_unstable_by_key(|&(_, id)| id);
        self.branches.sort_unstable_by_key(|&(_, id)| id);
    }

    /// Marks, in the statement probes `bytes` of ids `range`, every statement implied by a marked probe:
    /// one of the range, or one outside it for which `marked_outside` is true. A probe and the statements
    /// it implies are in one function: a range of whole functions holds both or neither, and a range of a
    /// function less the functions nested in it (a method's own code, see `session/helpers.rs`) may hold
    /// a statement whose probe another range of that function holds.
    pub fn expand_statements(
        &self,
        range: std::ops::Range<u32>,
        bytes: &mut [u8],
        marked_outside: impl Fn(u32) -> bool,
    ) {
        for &(probe, id) in within(&self.statements, &range) {
            let marked = match probe.checked_sub(range.start).filter(|_| range.contains(&probe)) {
                Some(at) => bytes.get(at as usize).is_some_and(|b| *b != 0),
                None => marked_outside(probe),
            };
            if marked && let Some(byte) = bytes.get_mut((id - range.start) as usize) {
                *byte = 1;
            }
        }
    }

    /// Marks, in the branch probes `bytes` of ids `range`, every outcome implied by a statement for which
    /// `ran` is true.
    pub fn expand_branches(&self, range: std::ops::Range<u32>, bytes: &mut [u8], ran: impl Fn(u32) -> bool) {
        for &(probe, id) in within(&self.branches, &range) {
            if ran(probe)
                && let Some(byte) = bytes.get_mut((id - range.start) as usize)
            {
                *byte = 1;
            }
        }
    }
}

/// The pairs (sorted by their second id) whose second id is in `range`.
fn within<'a>(pairs: &'a [(u32, u32)], range: &std::ops::Range<u32>) -> &'a [(u32, u32)] {
    let start = pairs.partition_point(|&(_, id)| id < range.start);
    let end = pairs.partition_point(|&(_, id)| id < range.end);
    &pairs[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_another_range_holds_marks_what_it_implies() {
        // Probe 0 implies statement 1 and the function's last, 9, read after a nested function's 3..9.
        let mut implied = Implied { statements: vec![(0, 9), (0, 1)], branches: Vec::new() };
        implied.sort();
        let mut own = [1, 0, 0];
        implied.expand_statements(0..3, &mut own, |_| false);
        assert_eq!(own, [1, 1, 0]);
        let mut last = [0];
        implied.expand_statements(9..10, &mut last, |_| false);
        assert_eq!(last, [0]);
        implied.expand_statements(9..10, &mut last, |probe| probe == 0);
        assert_eq!(last, [1]);
    }
}
