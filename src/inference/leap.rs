//! The leap of faith: a parameter that left no evidence gets a random primitive type, and a leap whose
//! calls fail every time is probably the wrong primitive (a `typeof` check leaves no trace on a proxy),
//! so the next is tried.

use std::collections::BTreeMap;

use super::{Decision, DecisionSource, ParamType, TypeTable};
use crate::model::observed::Outcome;
use crate::model::program::ProgramInfo;
use crate::model::test::{Statement, TestCase, Value};
use crate::sandbox::Execution;

/// How many inference delays a parameter without evidence waits before its leap of faith.
pub(crate) const LEAP_PATIENCE: u32 = 5;

/// Failures in a row, with no success, after which a leap of faith is retried with another primitive.
const LEAP_FAILURES: u32 = 30;

/// How many failures a call cut off by a limit counts for in a leap's trial.
const LEAP_FAILURES_PER_LIMIT: u32 = 10;

/// A leap of faith on trial: a parameter typed at random whose calls fail every time is probably the
/// wrong primitive (a `typeof` check leaves no trace on a proxy), so the next primitive is tried.
#[derive(Debug, Clone, Default)]
struct LeapTrial {
    tried: Vec<ParamType>,
    failures: u32,
    successes: u32,
}

/// The leaps of faith on trial, by parameter id.
#[derive(Debug, Clone, Default)]
pub(crate) struct Leaps {
    trials: BTreeMap<u32, LeapTrial>,
}

impl Leaps {
    /// Counts, for parameters typed by a leap of faith, whether the calls of `test` receiving them
    /// succeeded, and switches a parameter to another primitive when its calls only ever fail. Returns
    /// the new decisions, already made in `types`.
    pub(crate) fn judge(
        &mut self,
        types: &mut TypeTable,
        program: &ProgramInfo,
        test: &TestCase,
        execution: &Execution,
    ) -> Vec<(u32, Decision)> {
        let failed_at = execution.failed_at();
        if execution.outcome != Outcome::Passed && failed_at.is_none() {
            // Which call a limit cut off is unknown: nothing to judge.
            return Vec::new();
        }
        // A cut-off call cost the whole time limit, as much as many failed calls.
        let weight = if execution.outcome.hit_limit() { LEAP_FAILURES_PER_LIMIT } else { 1 };
        let reached = failed_at.map_or(test.statements.len(), |at| at + 1);
        let mut switched = Vec::new();
        for (index, statement) in test.statements.iter().enumerate().take(reached) {
            // A call that received a proxy may have failed because of the proxy.
            if statement.args().iter().any(Value::contains_proxy) {
                continue;
            }
            let (class, function) = match statement {
                Statement::Construct { class, .. } => (*class, "constructor"),
                Statement::Call { method, .. } => (test.class, method.as_str()),
                Statement::Rebuild { .. } => continue,
            };
            // The members an options object held are judged like parameters: each was given to the call.
            let mut judged = Vec::new();
            for (&id, arg) in types.params_of(class, function).iter().zip(statement.args()) {
                given_records(types, id, arg, &mut judged);
            }
            for id in judged {
                let record = types.get(id);
                let Some(Decision { source: DecisionSource::LeapOfFaith, .. }) = &record.decision else { continue };
                let current = record.current_type();
                let trial = self.trials.entry(id).or_default();
                if Some(index) == failed_at {
                    trial.failures += weight;
                } else {
                    trial.successes += 1;
                }
                if trial.successes > 0 || trial.failures < LEAP_FAILURES {
                    continue;
                }
                trial.tried.push(current);
                // Primitives first, then the built-in objects a `typeof` or `instanceof` check may want.
                let primitives = [
                    ParamType::Number,
                    ParamType::String,
                    ParamType::Boolean,
                    ParamType::Function,
                    ParamType::Array,
                    ParamType::Object,
                ];
                if primitives.iter().all(|t| trial.tried.contains(t)) {
                    // Another parameter of the same call may have been to blame: go round again.
                    trial.tried = vec![current];
                }
                let Some(next) = primitives.into_iter().find(|t| !trial.tried.contains(t)) else { continue };
                trial.failures = 0;
                let evidence = format!(
                    "no evidence; calls failed every time with a {}, so a leap of faith to {}",
                    current.name(program),
                    next.name(program)
                );
                let decision = Decision { ty: next, evidence, source: DecisionSource::LeapOfFaith };
                types.get_mut(id).decision = Some(decision.clone());
                switched.push((id, decision));
            }
        }
        switched
    }
}

/// Adds `id` and the records of the members `arg` holds when it is an options object, nested ones too.
fn given_records(types: &TypeTable, id: u32, arg: &Value, out: &mut Vec<u32>) {
    out.push(id);
    if let Value::Object { members, .. } = arg {
        for (name, value) in members {
            if let Some(member) = types.member_of(id, name) {
                given_records(types, member, value, out);
            }
        }
    }
}
