//! Writing the suite: minimised, checked for stability, then written in a format.

use std::path::PathBuf;

use super::{Pass, Session, Status};
use crate::error::Result;
use crate::model::program::ClassId;

impl Session {
    /// Minimises the elected tests (see [`Session::minimize`]), drops what changes between runs (see
    /// [`Session::check_stability`]), then writes the suite and the failing tests; see [`crate::suite::Suite::write`].
    pub fn export(
        &mut self,
        format: crate::export::Format,
        out_dir: &std::path::Path,
        command: &str,
    ) -> Result<Vec<PathBuf>> {
        self.export_noting(format, out_dir, command, &[], &mut |_, _, _| {})
    }

    /// [`Session::export`], telling `progress` (the pass, steps done, steps in all) as its passes go.
    pub(crate) fn export_telling(
        &mut self,
        format: crate::export::Format,
        out_dir: &std::path::Path,
        command: &str,
        progress: &mut dyn FnMut(Pass, usize, usize),
    ) -> Result<Vec<PathBuf>> {
        self.export_noting(format, out_dir, command, &[], progress)
    }

    /// [`Session::export`], with `changes` made to the run after it started (the explorer's live
    /// settings and types) named in the suites' headers under the command: the command alone would not
    /// reproduce the run.
    pub(crate) fn export_noting(
        &mut self,
        format: crate::export::Format,
        out_dir: &std::path::Path,
        command: &str,
        changes: &[String],
        progress: &mut dyn FnMut(Pass, usize, usize),
    ) -> Result<Vec<PathBuf>> {
        self.minimize_telling(&mut |done, count| progress(Pass::Minimising, done, count))?;
        self.check_stability(&mut |done, count| progress(Pass::Stability, done, count))?;
        self.note_time_capped_runs();
        let mut header = crate::suite::header::lines(self.settings.seed, command);
        header.extend(changes.iter().cloned());
        let sources = self.sources();
        let mut written =
            self.suite.write(&self.subject.program, &self.subject.code, &sources, format, out_dir, &header)?;
        if self.suite.elected.is_empty() && self.suite.kept.tests.is_empty() && self.suite.kept.classes.is_empty() {
            for path in self.suite.write_unelected(&self.subject.program, format, out_dir, &header, &self.outcomes())? {
                if !written.contains(&path) {
                    written.push(path);
                }
            }
        }
        Ok(written)
    }

    /// Per class under test, one line per method saying how it ended: what a suite without tests says.
    fn outcomes(&self) -> Vec<(ClassId, Vec<String>)> {
        let mut outcomes: Vec<(ClassId, Vec<String>)> = Vec::new();
        for m in &self.methods {
            let stop = match m.status {
                Status::Done(reason) => reason.name(),
                Status::Pending | Status::Running => "not finished",
            };
            let mut line = format!(
                "{}: {}/{} statements covered, {} candidates, {} failing, stopped: {stop}",
                m.method,
                m.covered_count(),
                m.covered.len(),
                m.executions,
                m.failing
            );
            // Why a method was given up says the most; other warnings are in the run's output.
            for warning in m.warnings.iter().filter_map(|w| w.strip_prefix("aborted: ")) {
                line.push_str(&format!(": {warning}"));
            }
            match outcomes.iter_mut().find(|(class, _)| *class == m.class) {
                Some((_, lines)) => lines.push(line),
                None => outcomes.push((m.class, vec![line])),
            }
        }
        outcomes
    }
}
