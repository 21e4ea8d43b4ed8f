//! Methods that tend to run into a limit, learnt while generating, so that calls made only to reach a
//! state avoid them.
//!
//! A call that loops or fills memory costs the whole per-test time limit (100 ms by default) where an
//! ordinary test takes well under a millisecond, and it ends the test before the method under test
//! runs. When other methods of the class loop on many inputs (`collatzSteps(0)`, `range(-1)`), nearly
//! every candidate with a few calls before the method under test is cut off, and a second of budget
//! buys a handful of candidates. The method under test itself is always called: its limits are findings.

use std::collections::HashMap;

use rand::{Rng, RngExt};

use super::{Statement, TestCase};
use crate::program::ClassId;

/// How much a cut-off call costs compared with an ordinary one, roughly: a method that hits a limit in
/// a fraction `r` of its calls is chosen `1 / (1 + PENALTY * r)` as often.
const PENALTY: f64 = 50.0;

/// Calls made before the method under test, and how many of them a limit cut off, per class and method.
#[derive(Debug, Clone, Default)]
pub struct Hazards {
    counts: HashMap<(ClassId, String), Count>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Count {
    calls: u32,
    cut_off: u32,
}

impl Hazards {
    /// Learns from one run of `test`: the calls not under test that started, and whether the one at
    /// `cut_at` was ended by a limit.
    pub fn record(&mut self, test: &TestCase, cut_at: Option<usize>) {
        let last = cut_at.unwrap_or(usize::MAX);
        for (index, statement) in test.statements.iter().enumerate().take_while(|(i, _)| *i <= last) {
            let Statement::Call { receiver, method, under_test: false, .. } = statement else { continue };
            let count = self.counts.entry((test.variables[*receiver].class, method.clone())).or_default();
            count.calls += 1;
            count.cut_off += u32::from(index == last);
        }
    }

    /// How often a call of `method` of `class` should be chosen to reach a state, relative to a
    /// method never cut off. A prior of one uncut call keeps a single unlucky call from banishing it.
    pub fn weight(&self, class: ClassId, method: &str) -> f64 {
        let Some(count) = self.counts.get(&(class, method.to_string())) else { return 1.0 };
        let rate = f64::from(count.cut_off) / f64::from(count.calls + 1);
        1.0 / (1.0 + PENALTY * rate)
    }

    /// One of `methods` of `class` (not empty), drawn by weight.
    pub fn pick<'m>(&self, class: ClassId, methods: &[&'m str], rng: &mut (impl Rng + ?Sized)) -> &'m str {
        let weights: Vec<f64> = methods.iter().map(|m| self.weight(class, m)).collect();
        let mut target = rng.random::<f64>() * weights.iter().sum::<f64>();
        for (method, weight) in methods.iter().zip(&weights) {
            if target < *weight {
                return method;
            }
            target -= weight;
        }
        methods[methods.len() - 1]
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::generate::{Value, Variable};

    fn test_calling(methods: &[&str]) -> TestCase {
        let mut statements = vec![Statement::Construct { variable: 0, class: 0, args: Vec::new() }];
        for (i, method) in methods.iter().enumerate() {
            let under_test = i == methods.len() - 1;
            statements.push(Statement::Call {
                receiver: 0,
                method: method.to_string(),
                args: vec![Value::Null],
                under_test,
            });
        }
        TestCase {
            class: 0,
            method: methods[methods.len() - 1].to_string(),
            variables: vec![Variable { class: 0, name: "s".into() }],
            statements,
        }
    }

    #[test]
    fn a_method_cut_off_often_is_rarely_chosen_and_the_method_under_test_is_never_blamed() {
        let mut hazards = Hazards::default();
        for _ in 0..10 {
            // `loop` is cut off at statement 2; `push` ran before it.
            hazards.record(&test_calling(&["push", "loop", "peek"]), Some(2));
            // The method under test hitting a limit is a finding, not a hazard of a state call.
            hazards.record(&test_calling(&["push", "peek"]), Some(2));
        }
        assert_eq!(hazards.weight(0, "push"), 1.0);
        assert_eq!(hazards.weight(0, "peek"), 1.0);
        assert!(hazards.weight(0, "loop") < 0.05, "{}", hazards.weight(0, "loop"));
        let mut rng = StdRng::seed_from_u64(3);
        let loops = (0..1000).filter(|_| hazards.pick(0, &["push", "loop"], &mut rng) == "loop").count();
        assert!(loops < 50, "{loops} of 1000 picks were the looping method");
    }

    #[test]
    fn calls_after_the_cut_are_not_counted_and_one_cut_does_not_banish_a_method() {
        let mut hazards = Hazards::default();
        hazards.record(&test_calling(&["loop", "push", "peek"]), Some(1));
        assert_eq!(hazards.weight(0, "push"), 1.0, "push never started");
        assert!(hazards.weight(0, "loop") > 0.03);
        for _ in 0..200 {
            hazards.record(&test_calling(&["loop", "peek"]), None);
        }
        assert!(hazards.weight(0, "loop") > 0.7, "a method that stopped looping recovers");
    }
}
