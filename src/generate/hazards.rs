//! Methods and parameters that tend to run into a limit, learnt while generating, so that calls made
//! only to reach a state avoid those methods, and those parameters get small numbers.
//!
//! A call that loops or fills memory costs the whole per-test time limit (100 ms by default) where an
//! ordinary test takes well under a millisecond, and it ends the test before the method under test
//! runs. When other methods of the class loop on many inputs (`collatzSteps(0)`, `range(-1)`), nearly
//! every candidate with a few calls before the method under test is cut off, and a second of budget
//! buys a handful of candidates. The method under test itself is always called: its limits are findings.
//! Numbers that size something (`new Matrix(rows, cols)`, `new Array(n)`, a loop to `n`) cut a test off
//! when they are large, and the guided pools hold large ones (boundaries, fuzzed constants). They are
//! as often members of an options object (`{ start, end, size }` bounding a loop) or items of an array:
//! a large number anywhere in an argument counts against its parameter, and the numbers built inside it
//! turn small too.

use std::cell::Cell;

use rand::{Rng, RngExt};
use rustc_hash::FxHashMap;

use crate::inference::TypeTable;
use crate::model::program::{ClassId, ProgramInfo};
use crate::model::test::{Statement, TestCase};

/// How much a cut-off call costs compared with an ordinary one, roughly: a method that hits a limit in
/// a fraction `r` of its calls is chosen `1 / (1 + PENALTY * r)` as often.
const PENALTY: f64 = 50.0;

/// Above this magnitude a number passed to a cut-off statement counts against its parameter.
const LARGE: f64 = 100.0;

/// Calls made before the method under test, and how many of them a limit cut off, per class and method;
/// large numbers passed to each parameter, and how many of them were passed to a cut-off statement.
#[derive(Debug, Clone, Default)]
pub struct Hazards {
    /// Per class, per method in the class's order ([`crate::model::program::ClassInfo::methods`]): a draw
    /// weighs every method of the class, and a library's class has hundreds.
    counts: FxHashMap<ClassId, Weights>,
    /// Per class, where each method name first appears among its methods: every recorded call looks one
    /// up, and comparing the name with hundreds of others cost more than the run of many tests.
    positions: FxHashMap<ClassId, FxHashMap<String, usize>>,
    large_numbers: FxHashMap<u32, Count>,
}

/// One class's counts, and the places of the methods a draw chooses among
/// ([`crate::model::program::ClassInfo::methods_to_call`]), found once: deciding which are private for
/// every draw cost more than the rest of it on a class of hundreds of methods.
#[derive(Debug, Clone)]
struct Weights {
    counts: Vec<Count>,
    callable: Vec<usize>,
    /// The sum of the callable methods' weights, summed again at the first draw after a count changed
    /// (NaN until then): a draw between tests summed them for each state call it chose.
    total: Cell<f64>,
}

impl Weights {
    fn total(&self) -> f64 {
        if self.total.get().is_nan() {
            self.total.set(self.callable.iter().map(|&at| self.counts[at].weight).sum::<f64>());
        }
        self.total.get()
    }
}

#[derive(Debug, Clone, Copy)]
struct Count {
    calls: u32,
    cut_off: u32,
    /// What [`Count::weigh`] makes of the two, kept: a draw reads every method's weight twice, and a
    /// library's class has hundreds of methods.
    weight: f64,
}

impl Default for Count {
    fn default() -> Count {
        Count { calls: 0, cut_off: 0, weight: 1.0 }
    }
}

impl Count {
    /// Counts one more call, cut off or not.
    fn add(&mut self, cut_off: bool) {
        self.calls += 1;
        self.cut_off += u32::from(cut_off);
        self.weight = self.weigh();
    }

    /// `1 / (1 + PENALTY * rate)` of being cut off, where a prior of one uncut try keeps a single
    /// unlucky one from deciding.
    fn weigh(&self) -> f64 {
        let rate = f64::from(self.cut_off) / f64::from(self.calls + 1);
        1.0 / (1.0 + PENALTY * rate)
    }
}

impl Hazards {
    /// Learns from one run of `test`: the statements that started, and whether the one at `cut_at` was
    /// ended by a limit. `types` names the parameters of each statement.
    pub(crate) fn record(&mut self, test: &TestCase, cut_at: Option<usize>, types: &TypeTable, program: &ProgramInfo) {
        let last = cut_at.unwrap_or(usize::MAX);
        for (index, statement) in test.statements.iter().enumerate().take_while(|(i, _)| *i <= last) {
            let cut_off = index == last;
            let (class, function) = match statement {
                Statement::Construct { class, .. } => (*class, "constructor"),
                Statement::Call { receiver, method, .. } => (test.variables[*receiver].class, method.as_str()),
                Statement::Rebuild { .. } => continue,
            };
            for (param, arg) in types.params_of(class, function).iter().zip(statement.args()) {
                if arg.has_number_beyond(LARGE) {
                    self.large_numbers.entry(*param).or_default().add(cut_off);
                }
            }
            if let Statement::Call { under_test: false, .. } = statement {
                let info = &program.classes[class];
                let methods = &info.methods;
                let positions = self.positions.entry(class).or_insert_with(|| {
                    let mut positions = FxHashMap::with_capacity_and_hasher(methods.len(), Default::default());
                    for (at, method) in methods.iter().enumerate() {
                        positions.entry(method.name.clone()).or_insert(at);
                    }
                    positions
                });
                let Some(&at) = positions.get(function) else { continue };
                let weights = self.counts.entry(class).or_insert_with(|| Weights {
                    counts: vec![Count::default(); methods.len()],
                    callable: info.methods_to_call().map(|(at, _)| at).collect(),
                    total: Cell::new(f64::NAN),
                });
                weights.counts[at].add(cut_off);
                weights.total.set(f64::NAN);
            }
        }
    }

    /// The chance that parameter `param` (or a number inside its value) should get a small number rather
    /// than a drawn one: none until large numbers passed in it were cut off.
    pub(crate) fn small_number_chance(&self, param: u32) -> f64 {
        self.large_numbers.get(&param).map_or(0.0, |count| 1.0 - count.weight)
    }

    /// A method of `class` to call to reach a state, drawn by weight: a method never cut off weighs 1, one
    /// often cut off much less. Private methods are drawn only when the class has no public one
    /// ([`ClassInfo::methods_to_call`](crate::model::program::ClassInfo::methods_to_call)): a suite calling
    /// `_sortNodeUp` fails once a refactoring renames it. `None` when the class has no methods.
    pub(crate) fn pick<'p>(
        &self,
        program: &'p ProgramInfo,
        class: ClassId,
        rng: &mut (impl Rng + ?Sized),
    ) -> Option<&'p str> {
        let info = &program.classes[class];
        let Some(weights) = self.counts.get(&class).filter(|w| w.counts.len() == info.methods.len()) else {
            // Every method weighs 1: a walk by weight would stop at the draw's whole part.
            let methods = info.methods_to_call();
            let count = methods.clone().count();
            if count == 0 {
                return None;
            }
            let at = ((rng.random::<f64>() * count as f64) as usize).min(count - 1);
            return methods.clone().nth(at).map(|(_, m)| m.name.as_str());
        };
        let (counts, callable) = (&weights.counts, &weights.callable);
        let last = callable.last()?;
        let mut target = rng.random::<f64>() * weights.total();
        for &at in callable {
            if target < counts[at].weight {
                return Some(&info.methods[at].name);
            }
            target -= counts[at].weight;
        }
        Some(&info.methods[*last].name)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::model::test::{Value, Variable};
    use crate::session::{Session, SessionOptions};

    /// A session on the pathological sample, whose `Sequences` has methods that loop (`collatzSteps`).
    fn sequences() -> (Session, ClassId) {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/pathological.js");
        let options = SessionOptions { files: vec![file], ..Default::default() };
        let session = Session::new(&options, crate::model::settings::Settings::default()).unwrap();
        let class = session.subject().program().class_named("Sequences").unwrap();
        (session, class)
    }

    fn test_calling(class: ClassId, methods: &[&str]) -> TestCase {
        let mut statements = vec![Statement::Construct { variable: 0, class, args: Vec::new() }];
        for (i, method) in methods.iter().enumerate() {
            let under_test = i == methods.len() - 1;
            statements.push(Statement::call(0, *method, vec![Value::Null], under_test));
        }
        TestCase {
            class,
            method: methods[methods.len() - 1].to_string(),
            variables: vec![Variable { class, name: "s".into() }],
            statements,
        }
    }

    /// How often `method` is drawn in 2,000 draws.
    fn share(hazards: &Hazards, program: &ProgramInfo, class: ClassId, method: &str) -> f64 {
        let mut rng = StdRng::seed_from_u64(3);
        let drawn = (0..2000).filter(|_| hazards.pick(program, class, &mut rng) == Some(method)).count();
        drawn as f64 / 2000.0
    }

    #[test]
    fn a_method_cut_off_often_is_rarely_chosen_and_the_method_under_test_is_never_blamed() {
        let (session, class) = sequences();
        let (program, types) = (session.subject().program(), session.subject().types());
        let methods = program.classes[class].methods.len() as f64;
        let mut hazards = Hazards::default();
        let fair = share(&hazards, program, class, "collatzSteps");
        assert!((fair - 1.0 / methods).abs() < 0.03, "{fair} of draws for one of {methods} methods");
        for _ in 0..10 {
            // `collatzSteps` is cut off at statement 2; `fibonacci` ran before it.
            hazards.record(&test_calling(class, &["fibonacci", "collatzSteps", "isPrime"]), Some(2), types, program);
            // The method under test hitting a limit is a finding, not a hazard of a state call.
            hazards.record(&test_calling(class, &["fibonacci", "isPrime"]), Some(2), types, program);
        }
        assert!(share(&hazards, program, class, "collatzSteps") < 0.1 * fair);
        // The others share what it lost, alike.
        let (is_prime, fibonacci) =
            (share(&hazards, program, class, "isPrime"), share(&hazards, program, class, "fibonacci"));
        assert!(is_prime > 0.9 * fair && (is_prime - fibonacci).abs() < 0.03, "{is_prime} {fibonacci} {fair}");
    }

    #[test]
    fn calls_after_the_cut_are_not_counted_and_one_cut_does_not_banish_a_method() {
        let (session, class) = sequences();
        let (program, types) = (session.subject().program(), session.subject().types());
        let fair = share(&Hazards::default(), program, class, "collatzSteps");
        let mut hazards = Hazards::default();
        hazards.record(&test_calling(class, &["collatzSteps", "fibonacci", "isPrime"]), Some(1), types, program);
        let once = share(&hazards, program, class, "collatzSteps");
        assert!(once > 0.03 * fair && once < fair, "{once}");
        assert!(share(&hazards, program, class, "fibonacci") > fair, "fibonacci never started");
        for _ in 0..200 {
            hazards.record(&test_calling(class, &["collatzSteps", "isPrime"]), None, types, program);
        }
        let recovered = share(&hazards, program, class, "collatzSteps");
        assert!(recovered > 0.7 * fair, "a method that stopped looping recovers: {recovered}");
    }

    /// A test calling `range(arg)` on a new `Sequences`.
    fn calling_range(class: ClassId, arg: Value) -> TestCase {
        TestCase {
            class,
            method: "range".into(),
            variables: vec![Variable { class, name: "s".into() }],
            statements: vec![
                Statement::Construct { variable: 0, class, args: Vec::new() },
                Statement::call(0, "range", vec![arg], true),
            ],
        }
    }

    #[test]
    fn large_numbers_that_were_cut_off_make_a_parameter_prefer_small_ones() {
        let (session, class) = sequences();
        let (program, types) = (session.subject().program(), session.subject().types());
        let count = types.params_of(class, "range")[0];
        let range = |n: f64| calling_range(class, Value::Number(n));
        let mut hazards = Hazards::default();
        for _ in 0..20 {
            hazards.record(&range(5.0), None, types, program);
        }
        assert_eq!(hazards.small_number_chance(count), 0.0, "small numbers say nothing");
        for _ in 0..5 {
            hazards.record(&range(1e9), Some(1), types, program);
            hazards.record(&range(500.0), None, types, program);
        }
        assert!(hazards.small_number_chance(count) > 0.9, "{}", hazards.small_number_chance(count));
        let other = types.params_of(class, "factorial")[0];
        assert_eq!(hazards.small_number_chance(other), 0.0);
    }

    #[test]
    fn large_numbers_inside_an_argument_count_against_its_parameter() {
        let (session, class) = sequences();
        let (program, types) = (session.subject().program(), session.subject().types());
        let count = types.params_of(class, "range")[0];
        let range = |arg: Value| calling_range(class, arg);
        let options = |end: f64| Value::object(vec![("end".to_string(), Value::Number(end))]);
        let mut hazards = Hazards::default();
        hazards.record(&range(options(5.0)), Some(1), types, program);
        assert_eq!(hazards.small_number_chance(count), 0.0, "a small member says nothing");
        for _ in 0..3 {
            hazards.record(&range(options(1e9)), Some(1), types, program);
            hazards.record(&range(Value::Array(vec![Value::Number(-1e9)])), Some(1), types, program);
        }
        assert!(hazards.small_number_chance(count) > 0.9, "{}", hazards.small_number_chance(count));
    }

    #[test]
    fn private_methods_are_drawn_only_when_nothing_public_is_there() {
        use crate::model::program::{ClassInfo, MethodInfo, Origin};
        let class = |methods: &[&str], declared_private: &[&str]| ClassInfo {
            methods: methods.iter().map(|m| MethodInfo::bare(m, Vec::new(), Origin::Prototype)).collect(),
            declared_private: declared_private.iter().map(|m| m.to_string()).collect(),
            ..ClassInfo::script("Q")
        };
        let program = ProgramInfo {
            classes: vec![class(&["_sift", "push", "record"], &["record"]), class(&["_a", "_b"], &[])],
            ..Default::default()
        };
        let hazards = Hazards::default();
        let mut rng = StdRng::seed_from_u64(1);
        let drawn: Vec<&str> = (0..200).filter_map(|_| hazards.pick(&program, 0, &mut rng)).collect();
        assert!(drawn.iter().all(|m| *m == "push"), "{drawn:?}");
        let drawn: Vec<&str> = (0..200).filter_map(|_| hazards.pick(&program, 1, &mut rng)).collect();
        assert!(drawn.contains(&"_a") && drawn.contains(&"_b"));
    }
}
