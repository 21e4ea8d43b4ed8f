//! Parameter types in the loop: deciding those whose inference delay has passed, judging leaps of faith
//! (see [`crate::inference::leap`]), fixing types a person chose, and warning about guesses.

use super::{MethodState, Session, Status, StopReason};
use crate::inference::leap::LEAP_PATIENCE;
use crate::inference::{Decision, DecisionSource, ParamType, decide, declared};
use crate::model::test::TestCase;
use crate::sandbox::Execution;

impl Session {
    /// Fixes a parameter's type, chosen by a person (`Overridden`) or read from the project file
    /// (`Configured`).
    pub fn set_type(&mut self, param: u32, ty: ParamType, source: DecisionSource) {
        let evidence = match source {
            DecisionSource::Configured => "from the project file".to_string(),
            _ => "chosen by the user".to_string(),
        };
        self.fix_type(param, Decision { ty, evidence, source });
    }

    /// Accepts a parameter's type as it stands, so that it no longer changes: the inferred one, or,
    /// before the inference delay has passed, the leading guess from the evidence so far. The evidence
    /// stays with the decision. `None` when there is nothing to accept (no evidence yet).
    pub fn accept_type(&mut self, param: u32) -> Option<ParamType> {
        let decision = match &self.subject.types.get(param).decision {
            Some(decision) => decision.clone(),
            None => self.subject.leading_guess(param)?,
        };
        let ty = decision.ty;
        self.fix_type(param, Decision { source: DecisionSource::Accepted, ..decision });
        Some(ty)
    }

    /// Gives a parameter's type back to inference after a person or a file fixed it: it is decided again
    /// from its evidence, which its records keep gathering, once the delay has passed; a parameter with a
    /// declared type goes back to its declaration. Returns whether there was a fixed type to give back.
    pub fn reinfer_type(&mut self, param: u32) -> bool {
        let program = &self.subject.program;
        let record = self.subject.types.get_mut(param);
        let fixed = record.frozen();
        if fixed {
            record.decision = record.declared.as_ref().and_then(|d| declared::decision(d, program));
        }
        fixed
    }

    /// Fixes a parameter's type to `decision` (a person's, a project file's, a recording's): it no longer
    /// changes until given back to inference ([`Session::reinfer_type`]).
    pub(crate) fn fix_type(&mut self, param: u32, decision: Decision) {
        self.subject.types.get_mut(param).decision = Some(decision);
        // A method aborted for want of this type may be testable now: it starts counting afresh.
        for m in &mut self.methods {
            if m.status == Status::Done(StopReason::Aborted) && m.function.is_some() {
                m.status = Status::Pending;
                m.constructions = (0, 0);
            }
        }
    }

    /// Decides the types of the test's parameters whose delay has passed. A proxy passed to the
    /// statement a limit cut off (`cut_at`) is decided at once: each further use would cost the whole
    /// time limit; a looping use already left plenty of evidence, and one that left none (`i !== n`
    /// never holds for a proxy) is what keeps the loop going, so a leap of faith (judged like any
    /// other) is the way out.
    pub(super) fn decide_types(&mut self, test: &TestCase, cut_at: Option<usize>) -> Vec<(u32, Decision)> {
        let cut_off = cut_at.and_then(|at| test.statements.get(at)).map(|s| s.proxies()).unwrap_or_default();
        let mut decisions = Vec::new();
        for id in test.proxies() {
            let record = self.subject.types.get(id);
            let hurried = cut_off.contains(&id);
            if record.decision.is_some() || (record.uses < self.settings.delay && !hurried) {
                continue;
            }
            // Most uses of a parameter can show nothing (a callback is not called while the list it
            // walks is empty, and the list fills only in some call sequences): a leap of faith, which
            // is only retried when calls fail every time, waits longer than an inference. Unless the
            // code keeps rejecting the proxy: then waiting shows nothing more.
            let rejected = record.rejected >= self.settings.delay;
            if !record.has_evidence() && record.uses < LEAP_PATIENCE * self.settings.delay && !hurried && !rejected {
                continue;
            }
            let decision = decide(record, &self.subject.program, &mut self.rng);
            self.warn_about_decision(id, &decision);
            self.subject.types.get_mut(id).decision = Some(decision.clone());
            decisions.push((id, decision));
        }
        decisions
    }

    /// Warns the methods a parameter concerns about a leap of faith, replacing an earlier warning about
    /// the same parameter.
    pub(super) fn warn_about_decision(&mut self, id: u32, decision: &Decision) {
        let record = self.subject.types.get(id);
        let key = &record.key;
        let name = format!("{}.{}({})", self.subject.program.classes[key.class].name, key.function, record.name);
        if decision.source != DecisionSource::LeapOfFaith {
            return;
        }
        let warning = format!("{name}: {}", decision.evidence);
        let concerned =
            |m: &MethodState| m.class == key.class && (m.method == key.function || key.function == "constructor");
        if !self.methods.iter().any(concerned) {
            // A class that is only a parameter type (like a list's Node) has no method to warn.
            self.warnings.retain(|w| !w.starts_with(&name));
            self.warnings.push(warning);
            return;
        }
        for m in self.methods.iter_mut().filter(|m| concerned(m)) {
            m.warnings.retain(|w| !w.starts_with(&name));
            m.warn(warning.clone());
        }
    }

    /// Judges the leaps of faith `test` exercised (see [`Leaps::judge`](crate::inference::leap::Leaps::judge)) and warns about the switches.
    pub(super) fn judge_leaps(&mut self, test: &TestCase, execution: &Execution) -> Vec<(u32, Decision)> {
        let switched = self.leaps.judge(&mut self.subject.types, &self.subject.program, test, execution);
        for (id, decision) in &switched {
            self.warn_about_decision(*id, decision);
        }
        switched
    }
}
