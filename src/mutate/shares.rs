//! Each method's share of a limited analysis: the mutants of a method wait, once they used its share
//! of the limit's work, until the mutants of every other method had theirs.
//!
//! Mutants are judged in source order, and the state assertions a test keeps are chosen as its
//! method's mutants are judged: a method whose mutants are never judged keeps none. Under `generate`'s
//! share of the passes, the survivors of the first methods (their values put back, their tests made
//! longer, all to no avail when no public route shows what they change) took all the work: denque's
//! `removeOne`, `remove`, `splice` and `clear` (405 of its 685 mutants) were left unjudged, and their
//! tests asserted nothing after the call. A method's share is the work left for judging in proportion
//! to its mutants; a survivor is tried with values put back or made longer only within what its
//! method's share leaves, and what the methods leave of their shares goes to the mutants that waited.

use crate::model::program::ClassId;

/// The shares of the methods of an analysis.
#[derive(Default)]
pub(super) struct Shares {
    /// Per mutant, the index of its method among `allowed` and `spent`.
    method: Vec<usize>,
    /// Per method, the work its mutants may use before the others had theirs (none without a limit).
    allowed: Vec<Option<u64>>,
    /// Per method, the work its mutants used.
    spent: Vec<u64>,
    /// Per method, its mutants not judged yet.
    pending: Vec<u64>,
    /// The work the cheap part of judging a mutant (building it, running its covering tests) took, and
    /// for how many mutants.
    cheap: (u64, u64),
}

impl Shares {
    /// The shares of `work` units (none when the analysis has no limit) of the methods of the mutants,
    /// given in order by their class and method.
    pub(super) fn new<'a>(mutants: impl IntoIterator<Item = (ClassId, &'a str)>, work: Option<u64>) -> Shares {
        let mut methods: Vec<(ClassId, &str)> = Vec::new();
        let mut counts: Vec<u64> = Vec::new();
        let mut method = Vec::new();
        for key in mutants {
            let index = methods.iter().position(|k| *k == key).unwrap_or_else(|| {
                methods.push(key);
                counts.push(0);
                methods.len() - 1
            });
            counts[index] += 1;
            method.push(index);
        }
        let all = method.len().max(1) as u64;
        let allowed = counts.iter().map(|&n| work.map(|w| (w as u128 * n as u128 / all as u128) as u64)).collect();
        Shares { method, allowed, spent: vec![0; counts.len()], pending: counts, cheap: (0, 0) }
    }

    /// Whether the method of mutant `id` used its share: the mutant waits.
    pub(super) fn used(&self, id: usize) -> bool {
        let m = self.method[id];
        self.allowed[m].is_some_and(|allowed| self.spent[m] >= allowed)
    }

    /// The work the method of mutant `id` has left of its share (all there is without a limit).
    pub(super) fn left(&self, id: usize) -> u64 {
        let m = self.method[id];
        self.allowed[m].map_or(u64::MAX, |allowed| allowed.saturating_sub(self.spent[m]))
    }

    /// Counts `work`, what judging mutant `id` took, against its method.
    pub(super) fn charge(&mut self, id: usize, work: u64) {
        let m = self.method[id];
        self.spent[m] = self.spent[m].saturating_add(work);
        self.pending[m] = self.pending[m].saturating_sub(1);
    }

    /// Whether mutant `id`, whose cheap part took `cheap` work units, may be tried with values put
    /// back or made longer: its method's share must keep, after that, what the cheap part of its
    /// mutants after it takes (as much as each mutant's took on average so far).
    pub(super) fn longer(&mut self, id: usize, cheap: u64) -> bool {
        self.cheap = (self.cheap.0.saturating_add(cheap), self.cheap.1 + 1);
        let after = self.pending[self.method[id]].saturating_sub(1);
        let needed = (self.cheap.0 / self.cheap.1).saturating_mul(after);
        self.left(id) > cheap.saturating_add(needed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_waits_once_it_used_its_share_in_proportion_to_its_mutants() {
        let mutants = [(0, "note"), (0, "note"), (0, "note"), (0, "add")];
        let mut shares = Shares::new(mutants, Some(400));
        shares.charge(0, 299);
        assert!(!shares.used(1), "note may use 300 of 400");
        shares.charge(1, 1);
        assert!(shares.used(2) && !shares.used(3), "add keeps its 100");
        assert_eq!((shares.left(2), shares.left(3)), (0, 100));
        // add's one mutant took 40 for its cheap part: 60 of its 100 are left for the long part.
        assert!(shares.longer(3, 40));
        let mut fresh = Shares::new(mutants, Some(400));
        // note's first mutant took 100: its two others will need as much, 300 in all.
        assert!(!fresh.longer(0, 100) && fresh.longer(3, 10));
        let mut unlimited = Shares::new(mutants, None);
        unlimited.charge(0, u64::MAX);
        assert!(!unlimited.used(1) && unlimited.left(1) == u64::MAX, "without a limit nothing waits");
    }
}
