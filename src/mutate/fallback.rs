//! The last resort for a survivor: a private field. A suite asserts what a class promises (`keep.rs`
//! offers public candidates only, `extend.rs` and `restore.rs` look for a test that shows the change
//! publicly); a mutant none of that tells apart may still change the private state a covering test
//! leaves behind, which only a private assertion sees (a layout the public surface hides). Then, and
//! only then, one private field is asserted: the one closest to public, as [`keep::best`] ranks them (of
//! the last call's receiver, after the last call). A refactoring that renames it fails that test, so
//! this stays rare: one field per mutant nothing public kills.

use super::verdict::{Check, verdict};
use super::{Baseline, Judging, Mutant, Status, keep, run_on_mutant};
use crate::error::Result;
use crate::model::observed::Outcome;
use crate::session::Runner;
use crate::suite::FieldCheck;
use crate::suite::checks::private_field;

/// Tries the covering tests of `mutant` (a survivor of everything public) with the private fields they
/// describe asserted too; the first that a private field lets kill it keeps that field.
pub(super) fn tell_apart(judging: &mut Judging, runner: &mut Runner, mutant: &mut Mutant, covering: &[usize]) -> Result<()> {
    let (program, limits) = (judging.under.subject.program(), &judging.under.settings.limits);
    for &t in covering {
        if judging.past(0) {
            return Ok(());
        }
        let baseline = &judging.baselines[t];
        if baseline.elected.outcome != Outcome::Passed {
            continue;
        }
        let test = &judging.analysis.tests[t];
        let private: Vec<FieldCheck> = keep::all_fields(&baseline.elected.results)
            .into_iter()
            .filter(|f| private_field(program, &test.test, f.variable, &f.field))
            .collect();
        if private.is_empty() {
            continue;
        }
        let mut probe = test.clone();
        probe.checks.get_or_insert_with(Default::default).fields.extend(private);
        let mut elected = baseline.elected.clone();
        elected.checks = probe.checks.clone();
        let mut trial = Baseline { elected, covers: Vec::new(), work_limit: baseline.work_limit, cost: 0 };
        let run = run_on_mutant(program, runner, &probe, &trial, true)?;
        judging.analysis.runs += 1;
        if verdict(program, limits, &trial.elected, &run).is_none() {
            continue;
        }
        // Only a field that kills is worth finding what of it changes when the test runs again.
        judging.originals.settle(program, &probe, &mut trial)?;
        judging.analysis.runs += 2;
        let Some(kill) = verdict(program, limits, &trial.elected, &run) else { continue };
        let fields: Vec<Check> = kill
            .checks
            .into_iter()
            .filter(|c| matches!(c, Check::Field(f) if private_field(program, &probe.test, f.variable, &f.field)))
            .collect();
        if fields.is_empty() {
            continue;
        }
        mutant.status = Status::Killed { test: t, reason: kill.reason };
        judging.analysis.kills[t] += 1;
        // A field kept for another mutant that kills this one too is enough.
        let kept = &mut judging.analysis.kept[t];
        if !fields.iter().any(|c| kept.contains(c)) {
            kept.push(keep::best(&probe.test, fields));
        }
        return Ok(());
    }
    Ok(())
}
