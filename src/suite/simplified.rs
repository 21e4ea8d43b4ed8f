//! The values minimisation made simpler in a test, kept so that the mutation analysis can put an
//! original value back where the simpler one lets a mutant live: `94.812` tells `Math.round(x)` from
//! `x`, and `94` does not; `1` tells `a * b` from `a / b` least of all.

use crate::model::test::{Statement, TestCase, Value};

/// A test's values before minimisation made them simpler, and the replacements it made.
#[derive(Debug, Clone, PartialEq)]
pub struct Simplified {
    /// The test as it was before any of its values was made simpler (its statements as minimised).
    pub before: TestCase,
    /// Each value made simpler and the value put in its place everywhere it occurs, in the order made.
    pub replaced: Vec<(Value, Value)>,
}

impl Simplified {
    /// The test with original values back, fewest first: each value back alone (the other replacements
    /// made), then every one when there are several. Each comes with what stays simplified in it.
    pub(crate) fn restorations(&self) -> Vec<(TestCase, Option<Simplified>)> {
        let mut restored: Vec<(TestCase, Option<Simplified>)> = (0..self.replaced.len())
            .map(|back| {
                let replaced: Vec<(Value, Value)> =
                    self.replaced.iter().enumerate().filter(|(k, _)| *k != back).map(|(_, r)| r.clone()).collect();
                let test = replaced.iter().fold(self.before.clone(), |test, (from, to)| replaced_in(&test, from, to));
                let left = (!replaced.is_empty()).then(|| Simplified { before: self.before.clone(), replaced });
                (test, left)
            })
            .collect();
        if self.replaced.len() > 1 {
            restored.push((self.before.clone(), None));
        }
        restored
    }
}

/// `test` with every occurrence of `from` in its arguments replaced by `to`, so that values equal in
/// the test (a key set, then looked up) stay equal.
pub(crate) fn replaced_in(test: &TestCase, from: &Value, to: &Value) -> TestCase {
    fn replaced(value: &mut Value, from: &Value, to: &Value) {
        if value == from {
            *value = to.clone();
            return;
        }
        match value {
            Value::Array(items) | Value::Answers(items) => items.iter_mut().for_each(|v| replaced(v, from, to)),
            Value::Object { members, .. } => members.iter_mut().for_each(|(_, v)| replaced(v, from, to)),
            Value::Function { result, .. } => replaced(result, from, to),
            _ => {}
        }
    }
    let mut test = test.clone();
    for statement in &mut test.statements {
        if let Statement::Construct { args, .. } | Statement::Call { args, .. } = statement {
            args.iter_mut().for_each(|a| replaced(a, from, to));
        }
    }
    test
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_comes_back_alone_then_all_of_them() {
        let call = |args: Vec<Value>| Statement::call(0, "m", args, false);
        let (x, s) = (Value::Number(94.812), Value::String("size mismatch".into()));
        let before = TestCase {
            class: 0,
            method: "m".into(),
            variables: Vec::new(),
            statements: vec![call(vec![x.clone(), s.clone()]), call(vec![x.clone()])],
        };
        let (one, a) = (Value::Number(1.0), Value::String("a".into()));
        let simplified =
            Simplified { before: before.clone(), replaced: vec![(x.clone(), one.clone()), (s.clone(), a.clone())] };
        let restored = simplified.restorations();
        assert_eq!(restored.len(), 3);
        assert_eq!(restored[0].0.statements, vec![call(vec![x.clone(), a.clone()]), call(vec![x.clone()])]);
        assert_eq!(restored[0].1.as_ref().unwrap().replaced, vec![(s.clone(), a)]);
        assert_eq!(restored[1].0.statements, vec![call(vec![one.clone(), s]), call(vec![one.clone()])]);
        assert_eq!(restored[1].1.as_ref().unwrap().replaced, vec![(x.clone(), one.clone())]);
        assert_eq!((&restored[2].0, &restored[2].1), (&before, &None));
        // One value simplified: putting it back is putting every one back, tried once.
        let single = Simplified { before: before.clone(), replaced: vec![(x, one)] };
        assert_eq!(single.restorations(), vec![(before, None)]);
    }
}
