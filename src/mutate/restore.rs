//! Putting original values back: minimisation makes a test's values simpler while it covers what it
//! covered (`session/minimize.rs`), but a simpler value may tell fewer mutants apart (`1` tells `a * b`
//! from `a / b` least of all, an integer tells `Math.round(x)` from `x` not at all). For a mutant every
//! covering test survived, the covering tests that were simplified are tried with their original
//! values back, one value first, then all of them: the first that kills replaces its test, which stays
//! as long as it was. The simpler value may have been what killed an earlier mutant (`1` tells `r >= 1`
//! from `r > 1`, the original `47.6` does not): a test with its values back replaces the simplified one
//! only if it still kills every mutant that one was the first to kill.

use super::extend::{adopt, tells_apart};
use super::mutants::Built;
use super::verdict::verdict;
use super::{Baseline, Judging, Mutant, SuiteTest, run_on_mutant};
use crate::error::Result;
use crate::session::Runner;

/// Tries the covering tests of `mutant` (mutant `id`, which each survived) with their original values
/// back, up to [`super::Options::restorations`] of them: the first that is a regression test on the
/// original, covers at least what its test covered, still kills what its test killed first, and kills
/// the mutant replaces that test. A test made longer is left alone: its values were simplified before
/// the calls added to it.
pub(super) fn tell_apart(
    judging: &mut Judging,
    runner: &mut Runner,
    mutant: &mut Mutant,
    id: usize,
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
            if covered.iter().all(|s| baseline.covers.binary_search(s).is_ok())
                && keeps_kills(judging, runner, id, t, &trial, &baseline)?
            {
                adopt(judging, mutant, t, trial, baseline, kill);
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Whether `trial`, test `t` with values put back (its run on the original is `baseline`), still kills
/// every mutant `t` was the first to kill, by what the suite asserts of it. `runner` runs mutant
/// `current`. The earlier mutants the schemata carry run on them, switched to each in turn, first (a
/// switch costs nothing); the others on their own programs, built again as when they were judged, so
/// that switching on and off write the same suite. A program the limit leaves no work to build refuses
/// the trial.
fn keeps_kills(
    judging: &mut Judging,
    runner: &mut Runner,
    current: usize,
    t: usize,
    trial: &SuiteTest,
    baseline: &Baseline,
) -> Result<bool> {
    // Lent out while they run: an error ends the analysis.
    let mut earlier = std::mem::take(&mut judging.killed[t]);
    earlier.sort_by_key(|(k, _)| judging.schemata.switch(*k).is_none());
    let lent = judging.schemata.switch(current);
    let mut kept = true;
    for (k, mutant) in &earlier {
        let killed = match judging.schemata.switch(*k) {
            // The runner of schemata is `runner` when the current mutant borrowed it.
            Some(switch) if lent.is_some() => {
                runner.set_mutant(switch);
                still_kills(judging, runner, t, trial, baseline)
            }
            Some(switch) => match judging.schemata.take(switch) {
                Some(mut other) => {
                    let killed = still_kills(judging, &mut other, t, trial, baseline);
                    judging.schemata.give_back(other);
                    killed
                }
                None => Ok(false),
            },
            None => match judging.build(mutant)? {
                Some(Built::Runner(mut own)) => still_kills(judging, &mut own, t, trial, baseline),
                _ => Ok(false),
            },
        };
        if !killed? {
            kept = false;
            break;
        }
    }
    if let Some(switch) = lent {
        runner.set_mutant(switch);
    }
    judging.killed[t] = earlier;
    Ok(kept)
}

/// Whether `trial` fails on the mutant `runner` runs by what the suite asserts of test `t`: how it ends
/// and what its calls return, or (when the analysis chooses state assertions) a check kept for `t`.
fn still_kills(
    judging: &mut Judging,
    runner: &mut Runner,
    t: usize,
    trial: &SuiteTest,
    baseline: &Baseline,
) -> Result<bool> {
    let program = judging.under.subject.program();
    let run = run_on_mutant(program, runner, trial, baseline, true)?;
    judging.analysis.runs += 1;
    let kept = &judging.analysis.kept[t];
    Ok(verdict(program, &judging.under.settings.limits, &baseline.elected, &run)
        .is_some_and(|kill| !judging.options.choose || kill.primary || kill.checks.iter().any(|c| kept.contains(c))))
}
