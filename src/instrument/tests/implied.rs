//! Probes left out because another marks whenever they would: fewer probes run, and what ran reads the
//! same.

use super::*;

/// How many probes of `array` the printed code writes (each `array[id] || (array[id] = 1)`).
fn written(inst: &Instrumented, array: &str) -> usize {
    inst.code.matches(&format!("|| ({array}[")).count()
}

/// The first lines of the statements `run` reports as run.
fn ran<'a>(file: &'a ParsedFile, inst: &Instrumented, run: &Loaded) -> Vec<&'a str> {
    run.hits(STATEMENTS).iter().map(|&id| statement_text(file, inst, id)).collect()
}

#[test]
fn a_run_of_statements_that_cannot_throw_shares_the_probe_of_its_first() {
    let file = parse(
        "function f(x, o) {\n  var a = 1;\n  let b = a;\n  b = -1;\n  const c = b === a, e = !x;\n  var d = o.k;\n  \
         d = typeof c;\n  return d;\n}\n",
    );
    let inst = instrument(&file, 0, 0, false);
    // `var d = o.k` follows a statement that cannot leave, but may throw itself: `d = typeof c` needs its own.
    assert_eq!(written(&inst, STATEMENTS), 2, "{}", inst.code);
    let run = Loaded::instrumented(&inst, "");
    assert_eq!(run.settle("f(1, { k: 2 })"), r#""boolean""#);
    let all = [
        "var a = 1;",
        "let b = a;",
        "b = -1;",
        "const c = b === a, e = !x;",
        "var d = o.k;",
        "d = typeof c;",
        "return d;",
    ];
    assert_eq!(ran(&file, &inst, &run), all);
    run.reset();
    assert!(run.settle("f(1, null)").starts_with("threw TypeError"));
    assert_eq!(ran(&file, &inst, &run), all[..5], "nothing after the statement that threw");
}

#[test]
fn statements_that_may_throw_keep_their_probes() {
    // Each `then()` comes after a statement that throws for some argument: a variable in its temporal
    // dead zone, a constant, a `let` of another `switch` clause, a name whose `let` is in another block,
    // a variable a `with` object may hold, a name declared twice, a call.
    let code = r#"function tdz(k) { if (k) { x = 1; then(); } let x; }
function constant() { const c = 1; c = 2; then(); }
function clause(k) { switch (k) { case 1: let s = 1; break; case 2: s = 2; then(); } }
function block() { "use strict"; { let y = 1; } y = 2; then(); }
function within(o) { var v = 1; with (o) { v = 2; then(); } }
function twice(k) { let t = 1; { let t = 2; } if (k) { t = 3; then(); } }
function calls() { var n = 0; n = go(); then(); }
function then() {}
function go() { throw new Error("no"); }
"#;
    let file = parse(code);
    let inst = instrument(&file, 0, 0, false);
    let run = Loaded::instrumented(&inst, "");
    let then_ran = |call: &str| {
        run.reset();
        let answer = run.settle(call);
        let ran = ran(&file, &inst, &run).contains(&"then();");
        (answer.starts_with("threw"), ran)
    };
    assert_eq!(then_ran("tdz(1)"), (true, false));
    assert_eq!(then_ran("constant()"), (true, false));
    assert_eq!(then_ran("clause(2)"), (true, false));
    assert_eq!(then_ran("block()"), (true, false));
    assert_eq!(then_ran("within({ set v(_) { throw 1; } })"), (true, false));
    assert_eq!(then_ran("calls()"), (true, false));
    // `twice` cannot throw, but its `t` is declared twice: the analysis does not tell them apart.
    assert_eq!(then_ran("twice(1)"), (false, true));
    let then = (0..inst.statements.len() as u32).filter(|&id| statement_text(&file, &inst, id) == "then();");
    assert_eq!(then.clone().count(), 7);
    for id in then {
        assert!(!inst.implied.statements.iter().any(|&(_, left_out)| left_out == id), "{}", inst.code);
    }
}

#[test]
fn an_outcome_whose_body_starts_with_a_statement_is_marked_by_its_probe() {
    let file = parse(
        "function f(n, k) {\n  if (!k) return -1;\n  var i = 0;\n  while (i < n) { i++; }\n  for (; i > 0; i--) {}\n  \
         if (i) { i = 9; } else { i = 8; }\n  do { n--; } while (n > 0);\n  return i;\n}\n",
    );
    let inst = instrument(&file, 0, 0, false);
    // Left: the `while`'s and the `for`'s false outcomes, the `for`'s true one (its body is empty), the
    // `do`'s two.
    assert_eq!(written(&inst, BRANCHES), 5, "{}", inst.code);
    let run = Loaded::instrumented(&inst, "");
    assert_eq!(run.settle("f(2, true)"), "8");
    let outcomes: Vec<String> = run.hits(BRANCHES).iter().map(|&id| branch_text(&inst, id)).collect();
    let expected = ["2:If:else", "4:While:true", "4:While:false", "5:For:true", "5:For:false", "6:If:else"];
    assert_eq!(outcomes, [&expected[..], &["7:DoWhile:true", "7:DoWhile:false"]].concat());
    run.reset();
    assert_eq!(run.settle("f(0, false)"), "-1");
    let outcomes: Vec<String> = run.hits(BRANCHES).iter().map(|&id| branch_text(&inst, id)).collect();
    assert_eq!(outcomes, ["2:If:then"]);
}

#[test]
fn a_function_whose_last_statements_share_a_probe_prints_as_written() {
    let code = "function f(a) {\n  var b = 1;\n  var c = b;\n}\nclass K { m() { var x = 1; x = 2; } }\n";
    let file = parse(code);
    let inst = instrument(&file, 0, 0, false);
    assert_eq!(written(&inst, STATEMENTS), 2, "{}", inst.code);
    let run = Loaded::instrumented(&inst, "");
    for (expr, original) in [
        ("f.toString()", "function f(a) {\n  var b = 1;\n  var c = b;\n}"),
        ("K.prototype.m.toString()", "m() { var x = 1; x = 2; }"),
        ("K.toString()", "class K { m() { var x = 1; x = 2; } }"),
    ] {
        let printed: String = run.eval(expr);
        assert_eq!(inst.texts.original_of(&printed), Some(original), "{printed}");
    }
}
