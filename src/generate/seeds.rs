//! What generation takes from a recorded run (`--seed-from`, see `record::seed`): recorded call
//! sequences that candidates start from, and recorded values that replace generated arguments.

use std::collections::BTreeMap;

use rand::{Rng, RngExt};

use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{Statement, TestCase, Value};

/// Chance that a candidate starts from a recorded state of its class.
const START_FROM_RECORDED: f64 = 0.5;
/// Chance that an argument is replaced by a value recorded for the same parameter.
const RECORDED_VALUE: f64 = 0.25;

/// What generation takes from a recording while it runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Seeds {
    /// Recorded call sequences (constructions and calls, none under test), per class of their receiver.
    states: BTreeMap<ClassId, Vec<TestCase>>,
    /// Recorded values without references to recorded objects, per (class, function, parameter index).
    values: BTreeMap<(ClassId, String, usize), Vec<Value>>,
}

impl Seeds {
    /// Adds a recorded call sequence (none of its calls under test) as a starting state of `class`.
    pub(crate) fn add_state(&mut self, class: ClassId, state: TestCase) {
        self.states.entry(class).or_default().push(state);
    }

    /// Adds a value recorded for parameter `index` of `function` of `class` to that parameter's pool,
    /// once; it must not refer to objects of the recorded run.
    pub(crate) fn add_value(&mut self, class: ClassId, function: &str, index: usize, value: &Value) {
        let pool = self.values.entry((class, function.to_string(), index)).or_default();
        if !pool.contains(value) {
            pool.push(value.clone());
        }
    }

    /// Whether there is nothing to seed from.
    pub(crate) fn is_empty(&self) -> bool {
        self.states.is_empty() && self.values.is_empty()
    }

    /// A candidate made from `test`: half the time starting from a recorded state of its class instead of
    /// a fresh receiver, and with some arguments replaced by values recorded for the same parameter.
    /// Returns `test` unchanged (drawing nothing from `rng`) when there is nothing to seed from.
    pub(crate) fn start_from(
        &self,
        mut test: TestCase,
        program: &ProgramInfo,
        rng: &mut (impl Rng + ?Sized),
    ) -> TestCase {
        if self.is_empty() {
            return test;
        }
        for statement in &mut test.statements {
            let (class, function, args) = match statement {
                Statement::Construct { class, args, .. } => (*class, "constructor".to_string(), args),
                Statement::Call { method, args, .. } => (test.class, method.clone(), args),
                Statement::Rebuild { .. } => continue,
            };
            for (index, arg) in args.iter_mut().enumerate() {
                if let Some(pool) = self.values.get(&(class, function.clone(), index))
                    && rng.random_bool(RECORDED_VALUE)
                {
                    *arg = pool[rng.random_range(0..pool.len())].clone();
                }
            }
        }
        match self.states.get(&test.class) {
            Some(states) if rng.random_bool(START_FROM_RECORDED) => {
                splice(&states[rng.random_range(0..states.len())], test, program)
            }
            _ => test,
        }
    }
}

/// `state`'s statements, then `test`'s with its receiver replaced by the receiver of `state`'s last
/// statement (and the construction of its own receiver dropped).
fn splice(state: &TestCase, test: TestCase, program: &ProgramInfo) -> TestCase {
    let receiver_of = |t: &TestCase| match t.statements.last() {
        Some(Statement::Call { receiver, .. }) => Some(*receiver),
        Some(Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. }) => Some(*variable),
        None => None,
    };
    let (Some(state_receiver), Some(test_receiver)) = (receiver_of(state), receiver_of(&test)) else { return test };
    let mut spliced = state.appended(&test, program, Some((test_receiver, state_receiver)));
    spliced.method = test.method.clone();
    spliced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::settings::Settings;
    use crate::model::test::Variable;
    use crate::session::Session;
    use crate::session::SessionOptions;

    #[test]
    fn a_candidate_started_from_a_recorded_state_calls_the_recorded_receiver() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/linked-list.js");
        let session =
            Session::new(&SessionOptions { files: vec![file], ..Default::default() }, Settings::default()).unwrap();
        let program = session.subject().program();
        let (list, node) = (program.class_named("LinkedList").unwrap(), program.class_named("Node").unwrap());
        let variable = |class, name: &str| Variable { class, name: name.into() };
        let state = TestCase {
            class: list,
            method: "add".into(),
            variables: vec![variable(list, "linkedList"), variable(node, "node")],
            statements: vec![
                Statement::Construct { variable: 0, class: list, args: vec![] },
                Statement::Construct { variable: 1, class: node, args: vec![Value::String("a".into())] },
                Statement::call(0, "add", vec![Value::Variable(1)], false),
            ],
        };
        let generated = TestCase {
            class: list,
            method: "remove".into(),
            variables: vec![variable(list, "linkedList"), variable(node, "node")],
            statements: vec![
                Statement::Construct { variable: 0, class: list, args: vec![] },
                Statement::Construct { variable: 1, class: node, args: vec![Value::Number(3.0)] },
                Statement::call(0, "remove", vec![Value::Variable(1)], true),
            ],
        };
        let spliced = splice(&state, generated, program);
        assert_eq!(
            spliced.source(program),
            "var linkedList = new LinkedList();\nvar node = new Node(\"a\");\nlinkedList.add(node);\n\
             var node2 = new Node(3);\nlinkedList.remove(node2);\n"
        );
        assert_eq!(spliced.method, "remove");

        let seeds = Seeds { states: BTreeMap::from([(list, vec![state])]), values: BTreeMap::new() };
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
        let fresh = TestCase { class: node, ..spliced.clone() };
        // No state of that class: the candidate is left as it was.
        assert_eq!(seeds.start_from(fresh.clone(), program, &mut rng), fresh);
        assert!(Seeds::default().is_empty());
    }
}
