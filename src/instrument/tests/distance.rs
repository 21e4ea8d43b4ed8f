//! Branch distances: how far each operator's outcome not taken was, measured once per operand.

use super::*;

/// The smallest distance to each branch outcome of the last run (`inf` when not reached).
fn distances(run: &Loaded) -> Vec<f64> {
    run.eval::<Vec<f64>>(&format!("Array.from({DISTANCES})"))
}

const INF: f64 = f64::INFINITY;

fn assert_near(got: f64, want: f64, what: &str) {
    assert!(got == want || (got - want).abs() < 1e-9, "{what}: got {got}, want {want}");
}

const COMPARISONS: &str = r#"function lt(a, b) { if (a < b) { return 1; } return 0; }
function le(a, b) { if (a <= b) { return 1; } return 0; }
function gt(a, b) { if (a > b) { return 1; } return 0; }
function ge(a, b) { if (a >= b) { return 1; } return 0; }
function eq(a, b) { if (a == b) { return 1; } return 0; }
function seq(a, b) { if (a === b) { return 1; } return 0; }
function ne(a, b) { if (a != b) { return 1; } return 0; }
function sne(a, b) { if (a !== b) { return 1; } return 0; }
function and(a, b) { if (a > 0 && b === 3) { return 1; } return 0; }
function or(a, b) { if (a < 0 || b == 7) { return 1; } return 0; }
function not(a) { if (!(a >= 10)) { return 1; } return 0; }
function loop(n) { var i = 0; while (i < n) { i++; } return i; }
function cond(a) { return a === 42 ? "yes" : "no"; }
"#;

/// Calls `call` on a fresh run and gives the distances to the two outcomes of branch pair `pair`.
fn pair_after(run: &Loaded, call: &str, pair: usize) -> (f64, f64) {
    run.reset();
    run.eval::<()>(call);
    let d = distances(run);
    (d[2 * pair], d[2 * pair + 1])
}

#[test]
fn branch_distances_follow_each_operator_to_the_outcome_not_taken() {
    let inst = instrument(&parse(COMPARISONS), 0, 0, true);
    let run = Loaded::instrumented(&inst, &format!("{MEASURING}[0] = true;"));
    let norm = |d: f64| d / (d + 1.0);
    // (call, branch pair, distance to true, distance to false); the pair of `and` is the `if`, then
    // the `&&`'s left operand; likewise for `or`.
    let cases: &[(&str, usize, f64, f64)] = &[
        ("lt(1, 5)", 0, 0.0, norm(4.0)),
        ("lt(5, 1)", 0, norm(5.0), 0.0),
        ("lt(3, 3)", 0, norm(1.0), 0.0),
        ("le(3, 3)", 1, 0.0, norm(1.0)),
        ("le(4.5, 3)", 1, norm(1.5), 0.0),
        ("gt(2, 7)", 2, norm(6.0), 0.0),
        ("gt(7, 2)", 2, 0.0, norm(5.0)),
        ("ge(2, 7)", 3, norm(5.0), 0.0),
        ("ge(7, 7)", 3, 0.0, norm(1.0)),
        ("eq(3, 10)", 4, norm(7.0), 0.0),
        ("eq(-4, -4)", 4, 0.0, norm(1.0)),
        ("seq(3, -10)", 5, norm(13.0), 0.0),
        ("ne(3, 10)", 6, 0.0, norm(7.0)),
        ("sne(8, 8)", 7, norm(1.0), 0.0),
        // strings: character codes one apart in one place; a longer string
        ("seq('abc', 'abd')", 5, norm(norm(1.0)), 0.0),
        ("seq('ab', 'abcd')", 5, norm(2.0), 0.0),
        ("sne('x', 'x')", 7, norm(1.0), 0.0),
        // NaN never compares true: no distance to true, "unknown" (1)
        ("lt(NaN, 1)", 0, 1.0, 0.0),
        ("eq(NaN, NaN)", 4, 1.0, 0.0),
        ("ge(Infinity, 1)", 3, 0.0, 1.0),
        // mixed or non-primitive operands: outcome only, which is no distance for a whole condition
        // and 0 or 1 inside `&&` and `||`
        ("lt('5', 7)", 0, INF, INF),
        ("seq('3', 3)", 5, INF, INF),
        ("lt({ valueOf() { return 9; } }, 1)", 0, INF, INF),
        ("lt('a', 'b')", 0, INF, INF),
        ("and('5', 3)", 9, 0.0, 1.0),
        ("and('5', 3)", 8, 0.0, norm(1.0)),
        // &&: the sum to true (an operand not evaluated counts 1), the minimum to false
        ("and(-2, 5)", 8, norm(3.0) + 1.0, 0.0),
        ("and(-2, 5)", 9, norm(3.0), 0.0),
        ("and(2, 5)", 8, norm(2.0), 0.0),
        ("and(2, 3)", 8, 0.0, norm(1.0)),
        // ||: the minimum to true, the sum to false
        ("or(1, 5)", 10, norm(2.0), 0.0),
        ("or(-1, 5)", 10, 0.0, norm(1.0) + 1.0),
        ("or(-1, 7)", 10, 0.0, norm(1.0) + 1.0),
        ("or(1, 7)", 10, 0.0, norm(1.0)),
        // !: swapped
        ("not(4)", 12, 0.0, norm(6.0)),
        ("not(12)", 12, norm(3.0), 0.0),
        // loops: both outcomes of `i < n` are taken
        ("loop(3)", 13, 0.0, 0.0),
        ("loop(-2)", 13, norm(3.0), 0.0),
        ("cond(40)", 14, norm(2.0), 0.0),
        // the smallest distance over the run
        ("lt(1, 10); lt(1, 3); lt(1, 5)", 0, 0.0, norm(2.0)),
    ];
    for &(call, pair, to_true, to_false) in cases {
        let (t, f) = pair_after(&run, call, pair);
        assert_near(t, to_true, &format!("{call}: to true"));
        assert_near(f, to_false, &format!("{call}: to false"));
    }
    // A branch not reached has no distance.
    let (t, f) = pair_after(&run, "lt(1, 2)", 1);
    assert!(t.is_infinite() && f.is_infinite(), "{t} {f}");
    // The plain form measures nothing, and marks the same outcomes.
    run.eval::<()>(&format!("{MEASURING}[0] = false;"));
    for call in ["lt(1, 5)", "and(-2, 5)", "or(1, 7)", "not(4)", "loop(3)"] {
        run.reset();
        run.eval::<()>(call);
        let measured_nothing = distances(&run).iter().all(|d| d.is_infinite());
        let plain = run.hits(BRANCHES);
        run.reset();
        run.eval::<()>(&format!("{MEASURING}[0] = true; {call}; {MEASURING}[0] = false;"));
        assert!(measured_nothing, "{call}");
        assert_eq!(plain, run.hits(BRANCHES), "{call}");
    }
}

const PREDICATES: &str = r#"function starts(s, p) { if (s.startsWith(p)) { return 1; } return 0; }
function ends(s, p) { if (s.endsWith(p)) { return 1; } return 0; }
function has(s, p) { if (s.includes(p)) { return 1; } return 0; }
function first(s, p) { if (s.indexOf(p) === 0) { return 1; } return 0; }
function absent(s, p) { if (s.indexOf(p) === -1) { return 1; } return 0; }
function both(s, p) { if (s.length > 2 && s.startsWith(p)) { return 1; } return 0; }
"#;

#[test]
fn string_predicates_measure_the_characters_to_change() {
    let inst = instrument(&parse(PREDICATES), 0, 0, true);
    let run = Loaded::instrumented(&inst, &format!("{MEASURING}[0] = true;"));
    let norm = |d: f64| d / (d + 1.0);
    // One character code off by one: norm(1) = 0.5 before the whole distance is normalised.
    let one_off = norm(norm(1.0));
    let cases: &[(&str, usize, f64, f64)] = &[
        ("starts('978123', '978')", 0, 0.0, norm(1.0)),
        ("starts('977123', '978')", 0, one_off, 0.0),
        ("starts('97', '978')", 0, norm(1.0), 0.0),
        ("ends('abc', 'bd')", 1, one_off, 0.0),
        ("has('xxabdxx', 'abc')", 2, one_off, 0.0),
        ("has('xxabcxx', 'abc')", 2, 0.0, norm(1.0)),
        ("first('978123', '978')", 3, 0.0, norm(1.0)),
        ("first('877', '978')", 3, norm(norm(1.0) + norm(1.0)), 0.0),
        // `=== -1` is the negation of `includes`.
        ("absent('abc', 'b')", 4, norm(1.0), 0.0),
        ("absent('abc', 'd')", 4, 0.0, norm(norm(1.0))),
        // Not both strings: no distance for a whole condition.
        ("has([1, 2], 1)", 2, INF, INF),
        // In a tree: `&&` adds the distances to true.
        ("both('abc', 'b')", 5, norm(norm(1.0)), 0.0),
    ];
    for &(call, pair, to_true, to_false) in cases {
        let (t, f) = pair_after(&run, call, pair);
        assert_near(t, to_true, &format!("{call}: to true"));
        assert_near(f, to_false, &format!("{call}: to false"));
    }
}

#[test]
fn the_statement_after_an_early_exit_is_guarded_by_the_outcome_that_stays() {
    let code = "function f(s) {\n  if (s.length < 13) return;\n  var sum = 0;\n  for (var i = 0; i < s.length; i++) {\n    if (s[i] === 'x') {\n      throw new Error('x');\n    }\n    sum++;\n  }\n  if (sum) {\n    return 1;\n  } else {\n    return 2;\n  }\n}\nfunction g(a) {\n  while (a > 0) {\n    if (a === 5) break;\n    if (a === 7) return 7;\n    a--;\n  }\n  return a;\n}";
    let expected = [
        ("2:If:then", Some("return;")),
        ("2:If:else", Some("var sum = 0;")),
        ("4:For:true", Some("if (s[i] === 'x') {")),
        ("4:For:false", Some("if (sum) {")),
        ("5:If:then", Some("throw new Error('x');")),
        ("5:If:else", Some("sum++;")),
        ("10:If:then", Some("return 1;")),
        ("10:If:else", Some("return 2;")),
        // A loop that breaks reaches what follows it without its condition turning false.
        ("17:While:true", Some("if (a === 5) break;")),
        ("17:While:false", None),
        ("18:If:then", Some("break;")),
        ("18:If:else", Some("if (a === 7) return 7;")),
        ("19:If:then", Some("return 7;")),
        ("19:If:else", Some("a--;")),
    ];
    assert_guards(code, &expected);
}

#[test]
fn measured_operands_are_evaluated_once_in_order() {
    let code = r#"function f(o) { var log = [];
  function at(name, x) { log.push("get " + name); return { valueOf() { log.push("convert " + name); return x; } }; }
  if (at("a", o) < at("b", 2) && at("c", 1) !== at("d", 1)) { log.push("then"); }
  return log.join(",");
}"#;
    let original = Loaded::new(code, 0, 0, "");
    let inst = instrument(&parse(code), 0, 0, true);
    assert!(inst.code.contains(&format!("{COMPARE}(")), "the condition is measured: {}", inst.code);
    let run = Loaded::instrumented(&inst, "");
    for arg in ["1", "3"] {
        let want: String = original.eval(&format!("f({arg})"));
        let got: String = run.eval(&format!("f({arg})"));
        assert_eq!(got, want);
    }
    let want: String = original.eval("f(1)");
    assert_eq!(want, "get a,get b,convert a,convert b,get c,get d,then");
}

#[test]
fn conditions_without_measurable_comparisons_are_left_as_they_were() {
    let code = "function f(x, y) { if (x === null || typeof y === 'string' || !x) { return 1; } while (x) { x = 0; } return y ? 2 : 3; }";
    let inst = instrument(&parse(code), 0, 0, true);
    assert!(!inst.code.contains(COMPARE) && !inst.code.contains(DISTANCE_TEST), "{}", inst.code);
    // Without distances asked for, measurable conditions are left alone too.
    let inst = instrument(&parse(COMPARISONS), 0, 0, false);
    assert!(!inst.code.contains(COMPARE) && !inst.code.contains(DISTANCE_TEST), "{}", inst.code);
    assert_eq!(inst.branches.len(), instrument(&parse(COMPARISONS), 0, 0, true).branches.len());
}

#[test]
fn a_switch_measures_its_discriminant_against_each_constant_case_and_notes_them_once() {
    let code = "var K = { Z: 90 };\nvar later = 7;\nfunction f(c) {\n  switch (c) {\n    case 65: return 'a';\n    case K.Z: return 'z';\n    case later: return 'l';\n    case String(c): return 'not measured';\n    default: return 'other';\n  }\n}\nfunction g(w) {\n  switch (w) {\n    case 'left': return 1;\n    case 'right': return 2;\n  }\n  return 0;\n}";
    let original = Loaded::new(code, 0, 0, "");
    let inst = instrument(&parse(code), 0, 0, true);
    assert!(inst.code.contains(&format!("{SWITCH_CASES}(")), "{}", inst.code);
    let run = Loaded::instrumented(&inst, &format!("{MEASURING}[0] = true;"));
    for call in ["f(65)", "f(90)", "f(7)", "f(66)", "g('left')", "g('right')", "g('up')"] {
        let want: String = original.eval(&format!("String({call})"));
        let got: String = run.eval(&format!("String({call})"));
        assert_eq!(got, want, "{call}");
    }
    let norm = |d: f64| d / (d + 1.0);
    // Outcomes: f's cases 0 to 4 (the call's case has no constant: no distance), g's 5, 6 and "no case" 7.
    run.reset();
    // The ring of comparisons (not this file's program of comparisons).
    let log = crate::js::COMPARISONS;
    run.eval::<()>(&format!("{log}[0] = 0; f(66)"));
    let d = distances(&run);
    for (outcome, want) in [(0, norm(1.0)), (1, norm(24.0)), (2, norm(59.0)), (3, INF), (4, INF)] {
        assert_near(d[outcome], want, &format!("f(66), outcome {outcome}"));
    }
    // One note for the whole switch: its discriminant and its list of constants and outcomes.
    let note: Vec<f64> = run.eval(&format!("[{log}[0], {log}[2], {log}[4]]"));
    assert_eq!(note, [1.0, 66.0, 5.0]);
    let list: String = run.eval(&format!("JSON.stringify({log}[3])"));
    assert_eq!(list, "[65,0,90,1,7,2]");
    run.reset();
    run.eval::<()>("g('lefts')");
    let d = distances(&run);
    // Strings: unknown (1) unless equal.
    assert_near(d[5], norm(1.0), "g('lefts'), left");
    assert_near(d[6], norm(1.0), "g('lefts'), right");
}
