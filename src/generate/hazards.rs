//! Methods and parameters that tend to run into a limit, learnt while generating, so that calls made
//! only to reach a state avoid those methods, and those parameters get small numbers.
//!
//! A call that loops or fills memory costs the whole per-test time limit (100 ms by default) where an
//! ordinary test takes well under a millisecond, and it ends the test before the method under test
//! runs. When other methods of the class loop on many inputs (`collatzSteps(0)`, `range(-1)`), nearly
//! every candidate with a few calls before the method under test is cut off, and a second of budget
//! buys a handful of candidates. The method under test itself is always called: its limits are findings.
//! Numbers that size something (`new Matrix(rows, cols)`, `new Array(n)`, a loop to `n`) cut a test off
//! when they are large, and the guided pools hold large ones (boundaries, fuzzed constants).

use std::collections::HashMap;

use rand::{Rng, RngExt};

use crate::inference::TypeTable;
use crate::model::program::ClassId;
use crate::model::test::{Statement, TestCase, Value};

/// How much a cut-off call costs compared with an ordinary one, roughly: a method that hits a limit in
/// a fraction `r` of its calls is chosen `1 / (1 + PENALTY * r)` as often.
const PENALTY: f64 = 50.0;

/// Above this magnitude a number passed to a cut-off statement counts against its parameter.
const LARGE: f64 = 100.0;

/// Calls made before the method under test, and how many of them a limit cut off, per class and method;
/// large numbers passed to each parameter, and how many of them were passed to a cut-off statement.
#[derive(Debug, Clone, Default)]
pub struct Hazards {
    counts: HashMap<(ClassId, String), Count>,
    large_numbers: HashMap<u32, Count>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Count {
    calls: u32,
    cut_off: u32,
}

impl Count {
    /// `1 / (1 + PENALTY * rate)` of being cut off, where a prior of one uncut try keeps a single
    /// unlucky one from deciding.
    fn weight(&self) -> f64 {
        let rate = f64::from(self.cut_off) / f64::from(self.calls + 1);
        1.0 / (1.0 + PENALTY * rate)
    }
}

impl Hazards {
    /// Learns from one run of `test`: the statements that started, and whether the one at `cut_at` was
    /// ended by a limit. `types` names the parameters of each statement.
    pub fn record(&mut self, test: &TestCase, cut_at: Option<usize>, types: &TypeTable) {
        let last = cut_at.unwrap_or(usize::MAX);
        for (index, statement) in test.statements.iter().enumerate().take_while(|(i, _)| *i <= last) {
            let cut_off = u32::from(index == last);
            let (class, function) = match statement {
                Statement::Construct { class, .. } => (*class, "constructor"),
                Statement::Call { receiver, method, .. } => (test.variables[*receiver].class, method.as_str()),
                Statement::Rebuild { .. } => continue,
            };
            for (param, arg) in types.params_of(class, function).iter().zip(statement.args()) {
                if matches!(arg, Value::Number(n) if n.abs() > LARGE) {
                    let count = self.large_numbers.entry(*param).or_default();
                    count.calls += 1;
                    count.cut_off += cut_off;
                }
            }
            if let Statement::Call { under_test: false, .. } = statement {
                let count = self.counts.entry((class, function.to_string())).or_default();
                count.calls += 1;
                count.cut_off += cut_off;
            }
        }
    }

    /// The chance that parameter `param` should get a small number rather than a drawn one: none until
    /// large numbers passed to it were cut off.
    pub fn small_number_chance(&self, param: u32) -> f64 {
        self.large_numbers.get(&param).map_or(0.0, |count| 1.0 - count.weight())
    }

    /// How often a call of `method` of `class` should be chosen to reach a state, relative to a
    /// method never cut off.
    pub fn weight(&self, class: ClassId, method: &str) -> f64 {
        self.counts.get(&(class, method.to_string())).map_or(1.0, Count::weight)
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
    use crate::model::test::{Value, Variable};

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
            hazards.record(&test_calling(&["push", "loop", "peek"]), Some(2), &TypeTable::default());
            // The method under test hitting a limit is a finding, not a hazard of a state call.
            hazards.record(&test_calling(&["push", "peek"]), Some(2), &TypeTable::default());
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
        hazards.record(&test_calling(&["loop", "push", "peek"]), Some(1), &TypeTable::default());
        assert_eq!(hazards.weight(0, "push"), 1.0, "push never started");
        assert!(hazards.weight(0, "loop") > 0.03);
        for _ in 0..200 {
            hazards.record(&test_calling(&["loop", "peek"]), None, &TypeTable::default());
        }
        assert!(hazards.weight(0, "loop") > 0.7, "a method that stopped looping recovers");
    }

    #[test]
    fn large_numbers_that_were_cut_off_make_a_parameter_prefer_small_ones() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/pathological.js");
        let options = crate::session::SessionOptions { files: vec![file], ..Default::default() };
        let session = crate::session::Session::new(&options, crate::model::settings::Settings::default()).unwrap();
        let (types, class) = (&session.types, session.program.class_named("Sequences").unwrap());
        let count = types.params_of(class, "range")[0];
        let range = |n: f64| TestCase {
            class,
            method: "range".into(),
            variables: vec![Variable { class, name: "s".into() }],
            statements: vec![
                Statement::Construct { variable: 0, class, args: Vec::new() },
                Statement::Call { receiver: 0, method: "range".into(), args: vec![Value::Number(n)], under_test: true },
            ],
        };
        let mut hazards = Hazards::default();
        for _ in 0..20 {
            hazards.record(&range(5.0), None, types);
        }
        assert_eq!(hazards.small_number_chance(count), 0.0, "small numbers say nothing");
        for _ in 0..5 {
            hazards.record(&range(1e9), Some(1), types);
            hazards.record(&range(500.0), None, types);
        }
        assert!(hazards.small_number_chance(count) > 0.9, "{}", hazards.small_number_chance(count));
        let other = types.params_of(class, "factorial")[0];
        assert_eq!(hazards.small_number_chance(other), 0.0);
    }
}
