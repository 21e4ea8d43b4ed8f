//! Statement and branch probes: which ran, where they stand, and that instrumented code behaves as
//! the original.

use super::*;

const CONTROL: &str = r#"function f(x, y) {
  "use strict";
  var out = [];
  if (x > 0) out.push("pos");
  else if (x < 0) out.push("neg");
  else out.push("zero");
  out.push(x ? "t" : "f");
  var z = y && y.k || "none";
  var w = y ?? "dflt";
  var i = 0;
  while (i < x) i++;
  do { i--; } while (i > 5);
  for (var j = 0; j < 2; j++) out.push(j);
  switch (x) {
    case 1:
      out.push("one");
    case 2:
      out.push("two");
      break;
    case 3:
      out.push("three");
  }
  outer: for (;;) { break outer; }
  return out.concat([z, w]);
}
"#;

#[test]
fn probes_mark_exactly_the_statements_and_outcomes_that_ran() {
    let file = parse(CONTROL);
    let inst = instrument(&file, 0, 0, true);
    let run = Loaded::instrumented(&inst, "");
    assert_eq!(run.settle("f(1, {k: 'v'})"), r#"["pos","t",0,1,"one","two","v",{"k":"v"}]"#);
    let stmts: Vec<&str> = run.hits(STATEMENTS).iter().map(|&id| statement_text(&file, &inst, id)).collect();
    assert_eq!(
        stmts,
        [
            "var out = [];",
            r#"if (x > 0) out.push("pos");"#,
            r#"out.push("pos");"#,
            r#"out.push(x ? "t" : "f");"#,
            r#"var z = y && y.k || "none";"#,
            r#"var w = y ?? "dflt";"#,
            "var i = 0;",
            "while (i < x) i++;",
            "i++;",
            "do { i--; } while (i > 5);",
            "i--;",
            "for (var j = 0; j < 2; j++) out.push(j);",
            "out.push(j);",
            "switch (x) {",
            r#"out.push("one");"#,
            r#"out.push("two");"#,
            "break;",
            "outer: for (;;) { break outer; }",
            "break outer;",
            "return out.concat([z, w]);",
        ]
    );
    let branches: Vec<String> = run.hits(BRANCHES).iter().map(|&id| branch_text(&inst, id)).collect();
    assert_eq!(
        branches,
        [
            "4:If:then",
            "7:Conditional:true",
            "8:Or:true",
            "8:And:true",
            "9:Nullish:not nullish",
            "11:While:true",
            "11:While:false",
            "12:DoWhile:false",
            "13:For:true",
            "13:For:false",
            "15:Switch:case 1",
            "17:Switch:case 2",
        ]
    );

    run.reset();
    assert_eq!(run.settle("f(-7, null)"), r#"["neg","t",0,1,"none","dflt"]"#);
    let branches: Vec<String> = run.hits(BRANCHES).iter().map(|&id| branch_text(&inst, id)).collect();
    assert_eq!(
        branches,
        [
            "4:If:else",
            "5:If:then",
            "7:Conditional:true",
            "8:Or:false",
            "8:And:false",
            "9:Nullish:nullish",
            "11:While:false",
            "12:DoWhile:false",
            "13:For:true",
            "13:For:false",
            "14:Switch:no case",
        ]
    );
    assert_eq!(inst.branches.iter().filter(|b| b.kind == BranchKind::Switch).count(), 4);
}

/// What never runs as a statement has no probe: a declaration without an initialiser, what follows a
/// statement that always leaves its list (the `var` of a minifier's temporaries after the `return` using
/// them), with what it holds; a function declared there is hoisted, and its body probed. What runs still
/// marks as it did.
#[test]
fn statements_that_never_run_have_no_probe() {
    let code = r#"function hex(c) {
  return r = c.r, g = c.g, '#' + r + g + later();
  var r, g;
  if (r) { g = 2; }
  function later() { return '!'; }
}
function clamp(v) {
  let result;
  var unused, low = 0;
  if (v < low) { var x; result = low; } else { result = v; }
  return result;
}
function loop(n) {
  for (;;) { if (n-- < 0) { break; n = 3; } continue; n = 4; }
  throw new Error('after ' + n);
  n = 5;
}
"#;
    let file = parse(code);
    let inst = instrument(&file, 0, 0, true);
    let probed: Vec<&str> = (0..inst.statements.len() as u32).map(|id| statement_text(&file, &inst, id)).collect();
    assert_eq!(
        probed,
        [
            "return r = c.r, g = c.g, '#' + r + g + later();",
            "return '!';",
            "var unused, low = 0;",
            "if (v < low) { var x; result = low; } else { result = v; }",
            "result = low;",
            "result = v;",
            "return result;",
            "for (;;) { if (n-- < 0) { break; n = 3; } continue; n = 4; }",
            "if (n-- < 0) { break; n = 3; }",
            "break;",
            "continue;",
            "throw new Error('after ' + n);",
        ]
    );
    let run = Loaded::instrumented(&inst, "");
    assert_eq!(run.settle("[hex({ r: 1, g: 2 }), clamp(-1), clamp(3)]"), r##"["#12!",0,3]"##);
    assert_eq!(run.hits(STATEMENTS).len(), 7, "every probe of hex and clamp marked");
    assert!(run.settle("loop(1)").starts_with("threw Error: after -2"));
}

#[test]
fn directives_and_labels_stay_in_place() {
    let file = parse(CONTROL);
    let code = instrument(&file, 0, 0, true).code;
    let body = &code[code.find('{').unwrap() + 1..];
    assert!(body.trim_start().starts_with("\"use strict\";"), "{code}");
    assert!(code.contains("outer: for(;;)") || code.contains("outer: for (;;)"), "{code}");
}

#[test]
fn top_level_code_has_no_probes_and_ids_start_where_asked() {
    let file = parse("var a = 1 ? 2 : 3;\nif (a) a++;\nfunction g() { return a && 1; }\n");
    let inst = instrument(&file, 100, 50, true);
    assert_eq!(inst.statements.len(), 1);
    assert_eq!(inst.branches.len(), 2);
    assert!(
        inst.code.contains(&format!("{STATEMENTS}[100]")) && inst.code.contains(&format!("{TRUTHY}(50,")),
        "{}",
        inst.code
    );
    assert_eq!(inst.functions[0].statements, 100..101);
    assert_eq!(inst.functions[0].branches, 50..52);
    assert_eq!(inst.function_by_statement(100).unwrap().name.as_deref(), Some("g"));
    assert_eq!(inst.function_by_statement(101), None);
}

/// A probe stores only while its byte is clear: the statements and outcomes of a loop's body store once
/// per run, not once per iteration (a typed array's element store costs several times its read).
#[test]
fn a_probe_already_marked_is_not_stored_again() {
    let file = parse(
        "function f(n) { var t = 0; for (var i = 0; i < n; i++) { if (i % 2) t += i; else t -= 1; t = t ? t : 1; } \
         return t; }\n",
    );
    let inst = instrument(&file, 0, 0, false);
    // The arrays count their stores (a proxy's `set` sees each element assignment); `raw` keeps them.
    let counting = format!(
        "globalThis.stores = 0; globalThis.raw = []; for (const name of ['{STATEMENTS}', '{BRANCHES}']) {{ \
           const bytes = globalThis[name]; raw.push(bytes); \
           globalThis[name] = new Proxy(bytes, {{ set(t, k, v) {{ stores++; t[k] = v; return true; }}, \
             get(t, k) {{ return t[k]; }} }}); }}"
    );
    let run = Loaded::instrumented(&inst, &counting);
    assert_eq!(run.settle("f(50)"), "602");
    let marked: u32 = run.eval("raw.reduce((n, bytes) => n + bytes.filter((b) => b !== 0).length, 0)");
    let stores: u32 = run.eval("stores");
    // The loop's probes ran fifty times each: one store apiece.
    assert!(marked > 5, "{marked} probes marked:\n{}", inst.code);
    assert_eq!(stores, marked, "{stores} stores for {marked} probes marked:\n{}", inst.code);
}

/// Runs `main()` in the original and in the instrumented code: the results must agree.
#[test]
fn loop_conditions_mark_their_outcomes_without_a_call_per_iteration() {
    // A loop's condition is only tested for truth: its probe is inline. `&&` keeps its operand's value
    // through the helper.
    let file = parse(
        "function f(n, o) { var i = 0; while (i < n) i++; for (var j = 0; j < n; j++) {} do { n--; } while (n > 0); \
         return o && i; }\n",
    );
    for distances in [false, true] {
        let inst = instrument(&file, 0, 0, distances);
        assert_eq!(inst.code.matches(&format!("{TRUTHY}(")).count(), 1, "{}", inst.code);
        let run = Loaded::instrumented(&inst, "");
        assert_eq!(run.settle("f(2, {})"), "2");
        assert_eq!(run.hits(BRANCHES), [0, 1, 2, 3, 4, 5, 6], "every outcome of the loops, `&&`'s truthy one");
        run.reset();
        assert_eq!(run.settle("f(0, 0)"), "0");
        assert_eq!(run.hits(BRANCHES), [1, 3, 5, 7], "each loop's false outcome, `&&`'s falsy one");
    }
}

#[test]
fn instrumented_code_behaves_like_the_original() {
    let snippets = [
        // labels, continue to an outer loop, labelled blocks
        r#"function main() { var r = []; outer: for (var i = 0; i < 3; i++) { inner: for (var j = 0; j < 3; j++) {
             if (j == 1) continue outer; if (i == 2) break outer; r.push(i + ":" + j); } }
           blk: { r.push("a"); if (r.length) break blk; r.push("never"); } lbl: if (r) r.push("l");
           return r; }"#,
        // directives keep strict mode; sloppy functions see the global this
        r#"function main() { "use strict"; return [typeof this, (function () { return typeof this; })()]; }"#,
        // else-if chains and dangling else
        r#"function main() { var r = []; for (var x = -1; x <= 2; x++) { if (x < 0) r.push("n"); else if (x == 0) r.push("z");
             else if (x == 1) { r.push("o"); } else r.push("m"); if (x) if (x > 1) r.push("big"); else r.push("small"); } return r; }"#,
        // switch fallthrough, default in the middle, no default
        r#"function main() { var r = []; for (var x = 0; x < 5; x++) { switch (x) { case 0: r.push(0); case 1: r.push(1); break;
             default: r.push("d"); case 3: r.push(3); } switch (x) { case 4: r.push("four") } } return r; }"#,
        // arrows: expression bodies, object literals, sequences, this capture, defaults
        r#"function main() { var o = { v: 2, m() { return [1, 2].map(x => x * this.v); } };
             var mk = (a, b = a + 1) => ({ a, b }); var seq = () => (1, 2); var nested = a => b => a + b;
             return [o.m(), mk(1), seq(), nested(2)(3), [3, 1, 2].sort((a, b) => a - b)]; }"#,
        // getters, setters, classes with super(), static members, private fields
        r#"class A { #x = 1; constructor(v) { this.v = v; } get x() { return this.#x + this.v; } set x(n) { this.#x = n; }
             static make() { return new this(5); } }
           class B extends A { constructor() { super(10); this.b = this.v > 5 ? "big" : "small"; } get x() { return super.x * 2; } }
           function main() { var b = new B(); b.x = 3; var o = { get g() { return 7; }, set s(v) { this.t = v; } }; o.s = 4;
             return [b.x, b.b, A.make().x, o.g, o.t]; }"#,
        // generators
        r#"function* gen(n) { for (var i = 0; i < n; i++) { if (i % 2) yield i; else yield* [i, -i]; } return "end"; }
           function main() { var r = []; for (var v of gen(4)) r.push(v); var g = gen(1); return [r, g.next(), g.next(), g.next()]; }"#,
        // async functions and await in conditions
        r#"async function later(v) { await null; return v; }
           async function main() { var r = []; if (await later(true)) r.push(await later(1)); var x = (await later(0)) || await later(2);
             for await (var v of [later(3), 4]) r.push(v); return [r, x]; }"#,
        // destructuring with defaults, in parameters and declarations
        r#"function f({ a = 1, b: [c = 2, ...d] = [] } = {}, ...rest) { return [a, c, d, rest]; }
           function main() { var { x = 1, y: { z = 2 } = {} } = { y: {} }; var [p = 3, q = p * 2] = [];
             return [f(), f({ a: 5, b: [undefined, 7, 8] }, 9), x, z, p, q]; }"#,
        // this of method calls inside probed operands and conditions
        r#"function main() { var o = { n: 1, m() { return this.n; }, k: null };
             return [o.m && o.m(), o.k ?? o.m(), o.m() ? o.m() : 0, (o.m || 0).call(o), typeof nothing === "undefined" && 1]; }"#,
        // closures defined in loops, var hoisting, function declarations in blocks
        r#"function main() { var fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); h(); function h() { v = 1; } var v;
             { function inner() { return 2; } } return [fs.map(f => f()), v, inner()]; }"#,
        // exceptions, finally, catch without binding
        r#"function main() { var r = []; try { try { throw new Error("x"); } finally { r.push("f"); } } catch (e) { r.push(e.message); }
             try { null.x; } catch { r.push("c"); } return r; }"#,
        // comparisons measured for branch distances: conversions in order, once each, and the same values
        r#"function main() { var log = [], n = 0;
             function v(name, x) { return { valueOf() { log.push(name); return x; } }; }
             function next() { return ++n; }
             var r = [];
             if (v("a", 1) < v("b", 2)) r.push("lt"); if (v("c", 2) > v("d", 1)) r.push("gt");
             if (next() < next()) r.push(n); while (next() <= 8 && n % 7 != 0) r.push(n);
             r.push(NaN < 1 ? "y" : "n", !(NaN >= 1) ? "y" : "n", "5" == 5 ? "y" : "n", "ab" === "ab" ? "y" : "n");
             r.push((1 < 2 && "last") || "none", (n > 100 || 0) && "x", !(n !== 9) || "ne");
             for (var i = 0; i < 3 && !(i == 2); i++) r.push("i" + i);
             try { if (n > 0 && null.x > 1) r.push("never"); } catch (e) { r.push(e.constructor.name); }
             if (n === 9 && (n < 3 || "a" < "b")) r.push("mixed");
             return [r, log]; }"#,
        // conditions around yield and await, and a throwing valueOf
        r#"function* g(x) { while (x < (yield x)) x++; return x; }
           function main() { var it = g(1), r = [it.next().value, it.next(5).value, it.next(0)];
             var bad = { valueOf() { throw new Error("bad") } };
             try { if (bad > 1) r.push("no"); } catch (e) { r.push(e.message); }
             return r; }"#,
        // string predicates measured, on strings and on other receivers, with their conversions
        r#"function main() { var log = [], r = [], s = "abcdef";
             var t = { toString() { log.push("t"); return "cd"; } };
             if (s.startsWith("ab")) r.push(1); if (!s.endsWith(t)) r.push(2); if (s.includes("x") || [1, 2].includes(2)) r.push(3);
             if (s.indexOf("c") === -1 && s.indexOf(t) !== 0) r.push(4); else r.push(5);
             while (s.indexOf("a") >= 0) s = s.slice(1);
             try { if (null.startsWith("a")) r.push(6); } catch (e) { r.push(e.constructor.name); }
             return [r, s, log]; }"#,
        // pattern methods observed: receivers evaluated once, before the arguments, `this` kept
        r#"function main() { var log = [], n = 0;
             var re = { get test() { log.push("get"); return function (x) { log.push("call " + x + " " + (this === re)); return true; }; } };
             function which() { log.push("which"); return re; }
             var r = [which().test((log.push("arg"), "a")), /b+/.exec("abbc")[0], "x,y".split(","), "aXa".replace(/a/g, "b"),
               "q1w2".match(/\d/g), [..."a1b2".matchAll(/\d/g)].length, "xyz".search("y"), "aaa".replaceAll("a", "c")];
             try { n.test("x"); } catch (e) { r.push(e.constructor.name); }
             return [r, log]; }"#,
    ];
    for snippet in snippets {
        let original = Loaded::new(snippet, 0, 0, "").settle("main()");
        let file = parse(snippet);
        let inst = instrument(&file, 0, 0, true);
        assert!(!original.starts_with("threw"), "{original}\n{snippet}");
        // Both forms of measured conditions.
        for measuring in ["false", "true"] {
            let instrumented = Loaded::instrumented(&inst, &format!("{MEASURING}[0] = {measuring};")).settle("main()");
            assert_eq!(instrumented, original, "\n{snippet}\n---\n{}", inst.code);
        }
    }
}

#[test]
fn function_ranges_nest_and_are_contiguous() {
    let file = parse(
        "function outer(a, { b }, ...rest) {\n  var x = 1;\n  var inner = function () {\n    if (a) return 1;\n    return () => a ? 2 : 3;\n  };\n  return inner;\n}\nclass K { m(p = 1) { return p; } static s() {} constructor(z) { this.z = z; } }\nvar o = { k: function () { return 1; }, get g() { return 2; } };\nK.prototype.q = function named() { return 3; };\nfunction ctor() { this.m = function () { return 4; }; }\nmodule.exports = function Exported() { return 5; };\n",
    );
    let inst = instrument(&file, 10, 20, true);
    let summary: Vec<String> = inst
        .functions
        .iter()
        .map(|f| {
            let name = f.name.as_deref().unwrap_or("?");
            format!("{name}({}) {:?} {:?}", f.params.join(", "), f.statements, f.branches)
        })
        .collect();
    assert_eq!(
        summary,
        [
            "outer(a, arg1, rest) 10..17 20..24",
            "inner() 12..16 20..24",
            "?() 15..16 22..24",
            "m(p) 17..18 24..24",
            // An empty body has one probe of its own.
            "s() 18..19 24..24",
            "constructor(z) 19..20 24..24",
            "k() 20..21 24..24",
            "g() 21..22 24..24",
            "q() 22..23 24..24",
            "ctor() 23..25 24..24",
            "m() 24..25 24..24",
            "Exported() 25..26 24..24",
        ]
    );
    assert_eq!(inst.function_by_statement(15).unwrap().line, 5);
    assert_eq!(inst.function_by_statement(14).unwrap().name.as_deref(), Some("inner"));
    assert_eq!(inst.function_by_statement(16).unwrap().name.as_deref(), Some("outer"));
    assert_eq!(inst.statements[5].line, 5);
    let f = &inst.functions[3];
    assert_eq!(&file.text()[f.start as usize..f.end as usize], "m(p = 1) { return p; }");
}

#[test]
fn branch_outcomes_name_the_statement_only_they_cover() {
    let code = "function f(x) {\n  if (x) {\n    g(1);\n  }\n  if (x > 1) h(); else { k(); }\n  while (x < 3) x++;\n  switch (x) {\n    case 1:\n      m();\n    case 2:\n  }\n  return x ? 1 : 2;\n}";
    let expected = [
        ("2:If:then", Some("g(1);")),
        ("2:If:else", None),
        ("5:If:then", Some("h();")),
        ("5:If:else", Some("k();")),
        ("6:While:true", Some("x++;")),
        ("6:While:false", None),
        ("8:Switch:case 1", Some("m();")),
        ("10:Switch:case 2", None),
        ("7:Switch:no case", None),
        ("12:Conditional:true", None),
        ("12:Conditional:false", None),
    ];
    assert_guards(code, &expected);
}

#[test]
fn conditions_that_assign_or_sequence_keep_their_value() {
    let code = r#"function drain(items) {
  var q, seen = [];
  while (q = items.pop()) seen.push(q);
  var node = { next: { next: null, v: 2 }, v: 1 };
  do seen.push(node.v); while (node = node.next);
  for (var i = 0, j = 3; i++, i < j; ) seen.push(i);
  if ((q = seen.length) && q > 2) seen.push("n" + q);
  return seen;
}
"#;
    let expected = r#"["c","b","a",1,2,1,2,"n7"]"#;
    for distances in [true, false] {
        let file = parse(code);
        let inst = instrument(&file, 0, 0, distances);
        let run = Loaded::instrumented(&inst, "");
        assert_eq!(run.settle(r#"drain(["a", "b", "c"])"#), expected, "distances {distances}:\n{}", inst.code);
    }
}
