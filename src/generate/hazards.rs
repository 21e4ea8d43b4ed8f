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
//! turn small too. Negative numbers are counted apart: as an index (`i >>> 5`, `words[i]`) one is four
//! billion, and its parameter gets positive numbers once they cut tests off. So are numbers of hundreds,
//! which rarely cut off what millions do: the small numbers keep a share of them while they run. And
//! so are `0`, `false` and `''`, a loop's step that adds nothing: once they cut tests off, the parameter
//! gets `1`, `true` and `'1'` instead.
//!
//! A call that loops over its receiver's state (`set.union(other)`, `list.toArray()`) hits the limit
//! where the numbers that made that state were passed before it: the cut counts against the numbers of
//! every earlier statement that built or changed an object the cut call used.

use std::cell::Cell;

use rand::{Rng, RngExt};
use rustc_hash::FxHashMap;

use crate::inference::TypeTable;
use crate::model::program::{ClassId, MethodInfo, ProgramInfo};
use crate::model::test::{Statement, TestCase, Value};

/// How much a cut-off call costs compared with an ordinary one, roughly: a method that hits a limit in
/// a fraction `r` of its calls is chosen `1 / (1 + PENALTY * r)` as often.
const PENALTY: f64 = 50.0;

/// Above this magnitude a number passed to a cut-off statement counts against its parameter.
const LARGE: f64 = 100.0;
/// Up to this magnitude a large number is counted apart as well, as one of hundreds: an index past a
/// few blocks, a size of a few hundred items, which most code that loops on millions runs at once.
const HUNDREDS: f64 = 1000.0;

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
    /// Arguments whose largest number is of hundreds (see [`HUNDREDS`]) passed to each parameter, and how
    /// many of them were passed to a statement a cut off blames.
    hundreds: FxHashMap<u32, Count>,
    /// Negative numbers passed to each parameter, and how many of them were passed to a statement a cut
    /// off blames.
    negative_numbers: FxHashMap<u32, Count>,
    /// Arguments that add nothing (`0`, `false`, `''`) passed to each parameter, and how many of them were
    /// passed to a statement a cut off blames: a loop's step of any of them never ends.
    nothing: FxHashMap<u32, Count>,
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
        let blamed = cut_at.map(|at| blamed(test, at)).unwrap_or_default();
        for (index, statement) in test.statements.iter().enumerate().take_while(|(i, _)| *i <= last) {
            let cut_off = index == last;
            let blame = blamed.get(index).copied().unwrap_or(false);
            let (class, function) = match statement {
                Statement::Construct { class, .. } => (*class, "constructor"),
                Statement::Call { receiver, method, .. } => (test.variables[*receiver].class, method.as_str()),
                Statement::Rebuild { .. } => continue,
            };
            for (param, arg) in types.params_of(class, function).iter().zip(statement.args()) {
                if arg.has_number(|n| n.abs() > LARGE) {
                    self.large_numbers.entry(*param).or_default().add(blame);
                    if !arg.has_number(|n| n.abs() > HUNDREDS) {
                        self.hundreds.entry(*param).or_default().add(blame);
                    }
                }
                if arg.has_number(|n| n < 0.0) {
                    self.negative_numbers.entry(*param).or_default().add(blame);
                }
                if adds_nothing(arg) {
                    self.nothing.entry(*param).or_default().add(blame);
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

    /// `program.classes[class].method(name)`, through the positions kept for the class once a call of it
    /// was recorded: a candidate looks up each method it calls, and comparing the name with each of a
    /// library class's hundreds of methods was much of generating one. A position that does not hold
    /// the name (another program's) is not trusted.
    pub(crate) fn method<'p>(&self, program: &'p ProgramInfo, class: ClassId, name: &str) -> Option<&'p MethodInfo> {
        let info = &program.classes[class];
        match self.positions.get(&class).and_then(|p| p.get(name)).and_then(|&at| info.methods.get(at)) {
            Some(method) if method.name == name => Some(method),
            _ => info.method(name),
        }
    }

    /// The chance that parameter `param` (or a number inside its value) should get a small number rather
    /// than a drawn one: none until large numbers passed in it were cut off.
    pub(crate) fn small_number_chance(&self, param: u32) -> f64 {
        self.large_numbers.get(&param).map_or(0.0, |count| 1.0 - count.weight)
    }

    /// The chance that a small number drawn for parameter `param` (see [`Hazards::small_number_chance`])
    /// may be one of hundreds: high until numbers of hundreds passed in it were cut off. Numbers cut off
    /// are mostly millions and more, and a loop stepping over blocks needs hundreds to take its step.
    pub(crate) fn hundreds_chance(&self, param: u32) -> f64 {
        self.hundreds.get(&param).map_or(1.0, |count| count.weight)
    }

    /// The chance that a negative number drawn for parameter `param` (or inside its value) should be
    /// made positive: none until negative numbers passed in it were cut off.
    pub(crate) fn positive_number_chance(&self, param: u32) -> f64 {
        self.negative_numbers.get(&param).map_or(0.0, |count| 1.0 - count.weight)
    }

    /// The chance that `0`, `false` or `''` drawn for parameter `param` should be `1`, `true` or `'1'`:
    /// none until those passed in it were cut off.
    pub(crate) fn something_chance(&self, param: u32) -> f64 {
        self.nothing.get(&param).map_or(0.0, |count| 1.0 - count.weight)
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

/// Whether `value` is `0`, `false` or `''`: what, added to an index, leaves it as it was.
fn adds_nothing(value: &Value) -> bool {
    match value {
        Value::Number(n) => *n == 0.0,
        Value::Boolean(b) => !b,
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

/// Which statements of `test` a cut off at statement `at` blames for its numbers: that one, and the
/// earlier ones that built or changed an object it used (its receiver and the variables among its
/// arguments), and so on back through those statements' own receivers and arguments.
fn blamed(test: &TestCase, at: usize) -> Vec<bool> {
    fn use_all(statement: &Statement, used: &mut [bool]) {
        if let Statement::Call { receiver, .. } = statement {
            used[*receiver] = true;
        }
        for (variable, used) in used.iter_mut().enumerate() {
            *used |= statement.args().iter().any(|a| a.uses_variable(variable));
        }
    }
    let mut blamed = vec![false; at + 1];
    let mut used = vec![false; test.variables.len()];
    use_all(&test.statements[at], &mut used);
    blamed[at] = true;
    for index in (0..at).rev() {
        let statement = &test.statements[index];
        let touched = match statement {
            Statement::Construct { variable, .. } | Statement::Rebuild { variable, .. } => used[*variable],
            Statement::Call { receiver, result, .. } => used[*receiver] || result.is_some_and(|r| used[r]),
        };
        if touched {
            blamed[index] = true;
            use_all(statement, &mut used);
        }
    }
    blamed
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
        // Millions were cut off, hundreds ran: the small numbers may still be hundreds, until those are cut.
        assert!(hazards.hundreds_chance(count) > 0.99, "{}", hazards.hundreds_chance(count));
        for _ in 0..5 {
            hazards.record(&range(-700.0), Some(1), types, program);
        }
        assert!(hazards.hundreds_chance(count) < 0.1, "{}", hazards.hundreds_chance(count));
        assert_eq!(hazards.hundreds_chance(other), 1.0);
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
    fn negative_numbers_that_were_cut_off_make_a_parameter_s_numbers_positive() {
        let (session, class) = sequences();
        let (program, types) = (session.subject().program(), session.subject().types());
        let count = types.params_of(class, "range")[0];
        let range = |arg: Value| calling_range(class, arg);
        let mut hazards = Hazards::default();
        for _ in 0..20 {
            hazards.record(&range(Value::Number(-5.0)), None, types, program);
        }
        assert_eq!(hazards.positive_number_chance(count), 0.0, "negative numbers that ran say nothing");
        let items = Value::Array(vec![Value::Number(3.0), Value::Number(-1.0)]);
        for _ in 0..5 {
            hazards.record(&range(items.clone()), Some(1), types, program);
        }
        assert!(hazards.positive_number_chance(count) > 0.5, "{}", hazards.positive_number_chance(count));
        assert_eq!(hazards.small_number_chance(count), 0.0, "no large number was cut off");
        assert_eq!(hazards.something_chance(count), 0.0, "no zero was cut off");
        for _ in 0..5 {
            hazards.record(&range(Value::Boolean(false)), Some(1), types, program);
        }
        assert!(hazards.something_chance(count) > 0.5, "{}", hazards.something_chance(count));
    }

    #[test]
    fn a_cut_off_call_blames_the_numbers_that_made_the_objects_it_used() {
        let (session, class) = sequences();
        let (program, types) = (session.subject().program(), session.subject().types());
        let (range, percent) = (types.params_of(class, "range")[0], types.params_of(class, "percent")[0]);
        // `a.range(-1e9)` made `a`, which `b.isPrime(a)` used when the limit cut it off; `c.percent(-1e9)`
        // made `c`, which nothing cut off used.
        let test = TestCase {
            class,
            method: "isPrime".into(),
            variables: ["a", "b", "c"].map(|name| Variable { class, name: name.into() }).to_vec(),
            statements: vec![
                Statement::Construct { variable: 0, class, args: Vec::new() },
                Statement::call(0, "range", vec![Value::Number(-1e9)], false),
                Statement::Construct { variable: 2, class, args: Vec::new() },
                Statement::call(2, "percent", vec![Value::Number(-1e9)], false),
                Statement::Construct { variable: 1, class, args: Vec::new() },
                Statement::call(1, "isPrime", vec![Value::Variable(0)], true),
            ],
        };
        let mut hazards = Hazards::default();
        for _ in 0..5 {
            hazards.record(&test, Some(5), types, program);
        }
        assert!(hazards.small_number_chance(range) > 0.9, "{}", hazards.small_number_chance(range));
        assert!(hazards.positive_number_chance(range) > 0.9, "{}", hazards.positive_number_chance(range));
        assert_eq!(hazards.small_number_chance(percent), 0.0);
        assert_eq!(hazards.positive_number_chance(percent), 0.0);
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

    #[test]
    fn a_method_is_looked_up_as_the_class_looks_it_up_before_and_after_its_calls_are_recorded() {
        use crate::model::program::{ClassInfo, Origin};
        let methods = ["push", "pop", "push"].map(|m| MethodInfo::bare(m, Vec::new(), Origin::Prototype)).to_vec();
        let program =
            ProgramInfo { classes: vec![ClassInfo { methods, ..ClassInfo::script("Q") }], ..Default::default() };
        let class = &program.classes[0];
        let same = |hazards: &Hazards| {
            for name in ["push", "pop", "peek"] {
                let (found, wanted) = (hazards.method(&program, 0, name), class.method(name));
                assert!(found.map(std::ptr::from_ref) == wanted.map(std::ptr::from_ref), "{name}");
            }
        };
        let mut hazards = Hazards::default();
        same(&hazards);
        let test = TestCase {
            class: 0,
            method: "pop".into(),
            variables: vec![Variable { class: 0, name: "q".into() }],
            statements: vec![
                Statement::Construct { variable: 0, class: 0, args: Vec::new() },
                Statement::call(0, "push", Vec::new(), false),
                Statement::call(0, "pop", Vec::new(), true),
            ],
        };
        hazards.record(&test, None, &TypeTable::default(), &program);
        assert!(hazards.positions.contains_key(&0), "the call of push was recorded");
        same(&hazards);
    }
}
