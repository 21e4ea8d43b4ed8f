//! Putting original values back: minimisation makes a test's values simpler while it covers what it
//! covered (`session/minimize.rs`), but a simpler value may tell fewer mutants apart (`1` tells `a * b`
//! from `a / b` least of all, an integer tells `Math.round(x)` from `x` not at all). For a mutant every
//! covering test survived, the covering tests that were simplified are tried with their original
//! values back, one value first, then all of them: the first that kills replaces its test, which stays
//! as long as it was.

use super::extend::{adopt, tells_apart};
use super::{Judging, Mutant, SuiteTest};
use crate::error::Result;
use crate::session::Runner;

/// Tries the covering tests of `mutant` (which each survived) with their original values back, up to
/// [`super::Options::restorations`] of them: the first that is a regression test on the original, covers at least
/// what its test covered, and kills the mutant replaces that test. A test made longer is left alone:
/// its values were simplified before the calls added to it.
pub(super) fn tell_apart(
    judging: &mut Judging,
    runner: &mut Runner,
    mutant: &mut Mutant,
    covering: &[usize],
) -> Result<()> {
    let mut tried = 0;
    for &t in covering {
        let base = &judging.analysis.tests[t];
        let Some(simplified) = base.simplified.as_ref().filter(|_| base.extended == 0) else { continue };
        for (test, left) in simplified.restorations() {
            if tried == judging.options.restorations {
                return Ok(());
            }
            tried += 1;
            let base = &judging.analysis.tests[t];
            let trial = SuiteTest { test, simplified: left, ..base.clone() };
            let Some((trial, baseline, kill)) = tells_apart(judging, runner, trial)? else { continue };
            // Coverage the simpler values gained stays: a mutant they reach keeps its tests.
            let covered = &judging.baselines[t].covers;
            if covered.iter().all(|s| baseline.covers.binary_search(s).is_ok()) {
                adopt(judging, mutant, t, trial, baseline, kill);
                return Ok(());
            }
        }
    }
    Ok(())
}
