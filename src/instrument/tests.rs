use std::path::Path;

use rquickjs::context::EvalOptions;
use rquickjs::{Context, Runtime};

use super::*;
use crate::analysis::parse::parse_source;
use crate::js::{
    BRANCHES, COMPARE, DISTANCE_TEST, DISTANCES, FORGET, HAS_SETTER, JOURNAL_BINDING, JOURNAL_COLLECTION,
    JOURNAL_MEMBER, JOURNAL_PRIVATE, MEASURING, OBSERVE, RUNTIME_JS, SHARED_WRITE, STACK, STATEMENTS, TRUTHY,
};

fn parse(text: &str) -> ParsedFile {
    parse_source(Path::new("/nonexistent/code.js"), "code.js", text.to_string()).unwrap()
}

fn options(filename: &str) -> EvalOptions {
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = false;
    options.filename = Some(filename.to_string());
    options
}

/// A runtime with the probe arrays, the helpers and `code` (as "code.js") loaded.
struct Loaded {
    runtime: Runtime,
    context: Context,
}

impl Loaded {
    /// `prelude` runs first, as "prelude.js".
    fn new(code: &str, statements: usize, branches: usize, prelude: &str) -> Loaded {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let arrays = format!(
                "globalThis.{STATEMENTS} = new Uint8Array({}); globalThis.{BRANCHES} = new Uint8Array({branches}); \
                 globalThis.{DISTANCES} = new Float64Array({branches}).fill(Infinity);",
                statements.max(1),
                branches = branches.max(1)
            );
            ctx.eval_with_options::<(), _>(arrays, options("setup.js")).unwrap();
            ctx.eval_with_options::<(), _>(RUNTIME_JS, options("runtime.js")).unwrap();
            ctx.eval_with_options::<(), _>(prelude, options("prelude.js")).unwrap();
            if let Err(e) = ctx.eval_with_options::<(), _>(code, options("code.js")) {
                panic!("{e}: {:?}\n{code}", ctx.catch());
            }
        });
        Loaded { runtime, context }
    }

    fn instrumented(inst: &Instrumented, prelude: &str) -> Loaded {
        Loaded::new(&inst.code, inst.statements.len(), inst.branches.len(), prelude)
    }

    fn eval<T: for<'js> rquickjs::FromJs<'js>>(&self, code: &str) -> T {
        self.context.with(|ctx| match ctx.eval_with_options::<T, _>(code, options("test.js")) {
            Ok(v) => v,
            Err(e) => panic!("{e}: {:?}\nin {code}", ctx.catch()),
        })
    }

    /// Runs `expr` (maybe a promise) to completion and gives its JSON, or "threw ..." .
    fn settle(&self, expr: &str) -> String {
        self.eval::<()>(&format!(
            "globalThis.__out = undefined; Promise.resolve().then(() => {expr}).then(\
             v => {{ globalThis.__out = JSON.stringify(v); }}, e => {{ globalThis.__out = 'threw ' + e; }});"
        ));
        while self.runtime.execute_pending_job().unwrap() {}
        self.eval("String(globalThis.__out)")
    }

    fn hits(&self, array: &str) -> Vec<u32> {
        let bytes: Vec<u8> = self.eval(&format!("Array.from({array})"));
        bytes.iter().enumerate().filter(|(_, b)| **b == 1).map(|(i, _)| i as u32).collect()
    }

    fn reset(&self) {
        self.eval::<()>(&format!(
            "{STATEMENTS}.fill(0); {BRANCHES}.fill(0); {DISTANCES}.fill(Infinity); {STACK}[0] = 0;"
        ));
    }
}

/// The original text of statement `id`, first line only.
fn statement_text<'a>(file: &'a ParsedFile, inst: &Instrumented, id: u32) -> &'a str {
    let s = &inst.statements[id as usize];
    file.text()[s.start as usize..s.end as usize].lines().next().unwrap().trim()
}

fn branch_text(inst: &Instrumented, id: u32) -> String {
    let b = &inst.branches[id as usize];
    format!("{}:{:?}:{}", b.line, b.kind, b.outcome)
}

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
            let instrumented = Loaded::instrumented(&inst, &format!("{MEASURING} = {measuring};")).settle("main()");
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

// ---- coercion sites ----

const HARNESS: &str = r#"
globalThis.__seen = [];
globalThis.rec = function () {
  return new Proxy({}, { get(t, k) {
    if (k === Symbol.toPrimitive) return function (hint) {
      var frame = new Error().stack.split("\n").find(function (l) { return l.indexOf("code.js:") >= 0; });
      __seen.push(hint + " " + frame);
      return hint === "string" ? "1" : 1;
    };
    return undefined;
  } });
};
"#;

/// What a site should be: kind, operator, literal operand.
type Expected = (SiteKind, &'static str, Option<LiteralKind>);

fn frame_position(frame: &str) -> (u32, u32) {
    let at = &frame[frame.find("code.js:").unwrap() + "code.js:".len()..];
    let mut parts = at.trim_end_matches(')').split(':').map(|n| n.trim().parse::<u32>().unwrap());
    (parts.next().unwrap(), parts.next().unwrap())
}

/// Evaluates `code` instrumented, runs `call`, and maps every conversion it records to a site, with the
/// plain form of measured conditions, then with the measuring one.
fn conversions(code: &str, call: &str) -> Vec<(String, Option<CoercionSite>, Vec<CoercionSite>)> {
    let file = parse(code);
    let inst = instrument(&file, 0, 0, true);
    let mut seen: Vec<String> = Vec::new();
    for measuring in ["false", "true"] {
        let prelude = format!(
            "{HARNESS}\nvar p = rec(), o = {{ v: 1 }}, s = 'abcdef', a = [1, 2, 3]; {MEASURING} = {measuring};"
        );
        let run = Loaded::instrumented(&inst, &prelude);
        run.eval::<()>(call);
        seen.extend(run.eval::<Vec<String>>("__seen"));
    }
    seen.iter()
        .map(|entry| {
            let (hint, frame) = entry.split_once(' ').unwrap();
            let (line, column) = frame_position(frame);
            let offset = inst.positions.original_offset(line, column).unwrap_or_else(|| {
                panic!("{line}:{column} unmapped in\n{}", inst.code);
            });
            // The tests' recording proxy is the variable `p`.
            let site = inst.coercion_sites.of(offset, "p").cloned();
            (hint.to_string(), site, inst.coercion_sites.all_at(offset).cloned().collect())
        })
        .collect()
}

fn check(code: &str, call: &str, expected: Expected, hint: &str) {
    let seen = conversions(code, call);
    assert!(!seen.is_empty(), "no conversion in {code}");
    for (got_hint, site, _) in seen {
        let site = site.unwrap_or_else(|| panic!("no site for {code}"));
        assert_eq!((site.kind, site.operator.as_str(), site.literal_operand), expected, "{code}");
        assert_eq!(got_hint, hint, "{code}");
    }
}

const EXPRESSIONS: &[(&str, Expected, &str)] = &[
    ("p * 2", (SiteKind::Binary, "*", Some(LiteralKind::Number)), "number"),
    ("2 - p", (SiteKind::Binary, "-", Some(LiteralKind::Number)), "number"),
    ("p / o.v", (SiteKind::Binary, "/", None), "number"),
    ("p % 3", (SiteKind::Binary, "%", Some(LiteralKind::Number)), "number"),
    ("p ** 2", (SiteKind::Binary, "**", Some(LiteralKind::Number)), "number"),
    ("p + 1", (SiteKind::Binary, "+", Some(LiteralKind::Number)), "default"),
    ("'a' + p", (SiteKind::Binary, "+", Some(LiteralKind::String)), "default"),
    ("p + s", (SiteKind::Binary, "+", None), "default"),
    ("p > 3", (SiteKind::Binary, ">", Some(LiteralKind::Number)), "number"),
    ("p <= -1", (SiteKind::Binary, "<=", Some(LiteralKind::Number)), "number"),
    ("'b' < p", (SiteKind::Binary, "<", Some(LiteralKind::String)), "number"),
    ("p == 5", (SiteKind::Binary, "==", Some(LiteralKind::Number)), "default"),
    ("p != 'x'", (SiteKind::Binary, "!=", Some(LiteralKind::String)), "default"),
    ("p << 2", (SiteKind::Binary, "<<", Some(LiteralKind::Number)), "number"),
    ("p >>> 0", (SiteKind::Binary, ">>>", Some(LiteralKind::Number)), "number"),
    ("p & 1", (SiteKind::Binary, "&", Some(LiteralKind::Number)), "number"),
    ("p ^ o.v", (SiteKind::Binary, "^", None), "number"),
    ("-p", (SiteKind::Unary, "-", None), "number"),
    ("+p", (SiteKind::Unary, "+", None), "number"),
    ("~p", (SiteKind::Unary, "~", None), "number"),
    ("`a${p}b`", (SiteKind::Template, "${}", None), "string"),
    ("`${s}-${p}`", (SiteKind::Template, "${}", None), "string"),
    ("o[p]", (SiteKind::ComputedKey, "[]", None), "string"),
    ("a[p] + 1", (SiteKind::ComputedKey, "[]", None), "string"),
    ("String(p)", (SiteKind::Call, "String()", None), "string"),
    ("Number(p)", (SiteKind::Call, "Number()", None), "number"),
    ("parseInt(p)", (SiteKind::Call, "parseInt()", None), "string"),
    ("parseFloat(p)", (SiteKind::Call, "parseFloat()", None), "string"),
    ("isNaN(p)", (SiteKind::Call, "isNaN()", None), "number"),
    ("Math.max(p, 1)", (SiteKind::Call, "Math.max()", None), "number"),
    ("Math.floor(p)", (SiteKind::Call, "Math.floor()", None), "number"),
    ("s.charAt(p)", (SiteKind::Call, ".charAt()", None), "number"),
    ("s.indexOf(p)", (SiteKind::Call, ".indexOf()", None), "string"),
    ("s.substring(1, p)", (SiteKind::Call, ".substring()", None), "number"),
    ("s.repeat(p)", (SiteKind::Call, ".repeat()", None), "number"),
    ("s.split(p)", (SiteKind::Call, ".split()", None), "string"),
    ("s.startsWith(p)", (SiteKind::Call, ".startsWith()", None), "string"),
    ("a.slice(p)", (SiteKind::Call, ".slice()", None), "number"),
    ("'héllo wörld ' + (`😀` + p)", (SiteKind::Binary, "+", Some(LiteralKind::String)), "default"),
];

#[test]
fn conversions_in_functions_map_to_their_sites() {
    for &(expr, expected, hint) in EXPRESSIONS {
        // Later lines, inside a probed function, once as a return value and once as a statement.
        check(&format!("function t(p) {{\n  var x = 0;\n  return {expr};\n}}"), "t(p)", expected, hint);
        check(&format!("function t(p) {{\n  if (p) {{ {expr}; }}\n}}"), "t(p)", expected, hint);
        // In conditions measured for branch distances, alone and in a tree.
        check(&format!("function t(p) {{\n  while ({expr}) {{ return 1; }}\n}}"), "t(p)", expected, hint);
        check(&format!("function t(p) {{\n  if (o.v < 2 && ({expr})) {{ return 1; }}\n}}"), "t(p)", expected, hint);
    }
}

#[test]
fn conversions_on_the_first_line_map_to_their_sites() {
    for &(expr, expected, hint) in EXPRESSIONS {
        // Top-level code prints on the first line, where QuickJS numbers most columns from 0.
        check(&format!("var r = {expr};"), "", expected, hint);
        check(&format!("{expr};"), "", expected, hint);
    }
}

#[test]
fn updates_and_compound_assignments_map_to_their_sites() {
    let update = (SiteKind::Update, "++", None);
    let cases: &[(&str, Expected, &str)] = &[
        ("function t(p) {\n  p++;\n}", update, "number"),
        ("function t(p) {\n  return ++p;\n}", update, "number"),
        ("function t(p) {\n  var x = p--;\n  return x;\n}", (SiteKind::Update, "--", None), "number"),
        ("function t(p) {\n  var o = { v: p };\n  o.v++;\n}", update, "number"),
        ("function t(p) {\n  var o = { n: p, f() { return this.n++; } };\n  return o.f();\n}", update, "number"),
        ("function t(p) {\n  var x = 1;\n  x += p;\n}", (SiteKind::CompoundAssignment, "+=", None), "default"),
        ("function t(p) {\n  p -= 1;\n}", (SiteKind::CompoundAssignment, "-=", Some(LiteralKind::Number)), "number"),
        ("function t(p) {\n  var o = { v: 2 };\n  o.v *= p;\n}", (SiteKind::CompoundAssignment, "*=", None), "number"),
        ("function t(p) {\n  var o = {};\n  o[p] = 1;\n}", (SiteKind::ComputedKey, "[]", None), "string"),
        (
            "function t(p) {\n  return { n: p, f() { return s.charAt(this.n); } }.f();\n}",
            (SiteKind::Call, ".charAt()", None),
            "number",
        ),
        ("function t(p) {\n  return { n: p, f() { return -this.n; } }.f();\n}", (SiteKind::Unary, "-", None), "number"),
        (
            "function t(p) {\n  return { n: p, f() { var k = `${this.n}`; return k; } }.f();\n}",
            (SiteKind::Template, "${}", None),
            "string",
        ),
        (
            "function t(p) {\n  return { n: p, f() { return this.n > 1 ? 1 : 0; } }.f();\n}",
            (SiteKind::Binary, ">", Some(LiteralKind::Number)),
            "number",
        ),
        (
            "function t(p) {\n  return { n: p, f() { return a[this.n]; } }.f();\n}",
            (SiteKind::ComputedKey, "[]", None),
            "string",
        ),
        (
            "function t(p) {\n  if (p > 3 && s) return 1;\n}",
            (SiteKind::Binary, ">", Some(LiteralKind::Number)),
            "number",
        ),
        ("function t(p) {\n  while (p-- > 0) {}\n}", (SiteKind::Update, "--", None), "number"),
        ("function t(p) {\n  return o.x || p * 2;\n}", (SiteKind::Binary, "*", Some(LiteralKind::Number)), "number"),
        ("function t(p) {\n  throw new Error(`bad ${p}`);\n}", (SiteKind::Template, "${}", None), "string"),
        // The call's position is taken after `(`, where `-` leaves QuickJS's mark on `charAt`.
        (
            "function t(p) {\n  return { n: p, f() { return s.charAt(-this.n); } }.f();\n}",
            (SiteKind::Unary, "-", None),
            "number",
        ),
        ("p++;", update, "number"),
        ("o.v = p; o.v++;", update, "number"),
        ("var q = 3; q |= p;", (SiteKind::CompoundAssignment, "|=", None), "number"),
    ];
    for &(code, expected, hint) in cases {
        let call = if code.starts_with("function") { "try { t(p) } catch (e) {}" } else { "" };
        check(code, call, expected, hint);
    }
}

#[test]
fn shared_positions_keep_every_site_innermost_first_and_file_a_parameter_under_its_own_operator() {
    let seen = conversions("function t(p) {\n  return p * (o.v + 1);\n}", "t(p)");
    let (_, site, all) = &seen[0];
    let operators: Vec<&str> = all.iter().map(|s| s.operator.as_str()).collect();
    assert_eq!(operators, ["+", "*"]);
    assert_eq!(site.as_ref().unwrap().operator, "*", "p is an operand of *, not of the innermost +");
    // `x <= this.n / 2`: QuickJS reports both operators at `2`; `x` is compared, not divided.
    let seen = conversions("function t(p) {\n  return p <= this.n / 2;\n}", "t.call({ n: 8 }, p)");
    let (_, site, all) = &seen[0];
    let operators: Vec<&str> = all.iter().map(|s| s.operator.as_str()).collect();
    assert_eq!(operators, ["/", "<="]);
    assert_eq!(site.as_ref().unwrap().operator, "<=");
    assert_eq!(site.as_ref().unwrap().literal_operand, None, "the 2 is the divisor's, not the comparison's");
}

#[test]
fn positions_between_tokens_fall_back_to_the_token_before() {
    let file = parse("function f(a) {\n  return a.b;\n}");
    let inst = instrument(&file, 0, 0, true);
    let line = inst.code.lines().position(|l| l.contains("return")).unwrap() as u32 + 1;
    let text = inst.code.lines().nth(line as usize - 1).unwrap();
    let column = text.find("a.b").unwrap() as u32 + 1;
    let a = file.text().find("a.b").unwrap() as u32;
    assert_eq!(inst.positions.original_offset(line, column), Some(a));
    // `.` has no entry of its own: it reads as the identifier before it.
    assert_eq!(inst.positions.original_offset(line, column + 1), Some(a));
    assert_eq!(inst.positions.original_offset(line, 1), None);
    assert_eq!(inst.positions.original_offset(99, 1), None);
}

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
    let run = Loaded::instrumented(&inst, &format!("{MEASURING} = true;"));
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
    run.eval::<()>(&format!("{MEASURING} = false;"));
    for call in ["lt(1, 5)", "and(-2, 5)", "or(1, 7)", "not(4)", "loop(3)"] {
        run.reset();
        run.eval::<()>(call);
        let measured_nothing = distances(&run).iter().all(|d| d.is_infinite());
        let plain = run.hits(BRANCHES);
        run.reset();
        run.eval::<()>(&format!("{MEASURING} = true; {call}; {MEASURING} = false;"));
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
    let run = Loaded::instrumented(&inst, &format!("{MEASURING} = true;"));
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
    let file = parse(code);
    let inst = instrument(&file, 0, 0, true);
    let guarded: Vec<(String, Option<&str>)> = inst
        .branches
        .iter()
        .enumerate()
        .map(|(id, b)| (branch_text(&inst, id as u32), b.guards.map(|s| statement_text(&file, &inst, s))))
        .collect();
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
    let expected: Vec<(String, Option<&str>)> = expected.iter().map(|(b, s)| (b.to_string(), *s)).collect();
    assert_eq!(guarded, expected);
}

#[test]
fn patterns_met_by_values_are_observed() {
    let code = r#"var FULL = new RegExp("^(\\d+)\\.(\\d+)$");
function parse(text) { var m = text.trim().match(FULL); if (!m) throw new Error("bad"); return +m[1]; }
function hand(h) { var cards = h.split(/\s+/); for (var c of cards) { if (!/^[2-9][SH]$/.test(c)) return false; } return true; }
function other(x) { return /q/.test(x) || x.replace(/a/g, "b") === 1 || [].map.call("x", String); }
"#;
    let inst = instrument(&parse(code), 0, 0, true);
    let prelude = format!(
        "var notes = []; {OBSERVE}.attach(function (key, event, detail) {{ notes.push(key + ' ' + event + ' ' + detail); }});"
    );
    let run = Loaded::instrumented(&inst, &prelude);
    let observe = |before: &str, call: &str| -> Vec<String> {
        run.eval::<()>(&format!("notes.length = 0; {OBSERVE}.reset(); {before}; try {{ {call}; }} catch (e) {{}}"));
        run.eval("notes")
    };
    // A string meets a pattern built at run time elsewhere.
    let seen = observe("", "parse(' 1.x ')");
    assert_eq!(seen, [r#"-1 6 2 null  14 ^(\d+)\.(\d+)$ s1.x"#]);
    // A split string is a list: what joins it (a usual separator its pattern matches), then the pattern
    // its pieces meet one by one, with the joiner and their count.
    let seen = observe("", "hand('2S\t9H x')");
    assert_eq!(
        seen,
        [
            "-1 6 7 3  1   s2S\t9H x",
            "-1 6 0 3  11 ^[2-9][SH]$ 1   s2S",
            "-1 6 0 3  11 ^[2-9][SH]$ 1   s9H",
            "-1 6 0 3  11 ^[2-9][SH]$ 1   sx"
        ]
    );
    // A recording proxy (here any object the harness registered) is noted by its key, without its text;
    // a replacement that is not anchored is no validation.
    let seen = observe(&format!("var proxy = {{}}; {OBSERVE}.proxy(proxy, 4)"), "other('a'); other(proxy)");
    assert_eq!(seen, ["-1 6 0 null  1 q sa", "4 6 0 null  1 q p"]);
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
fn branch_outcomes_name_the_statement_only_they_cover() {
    let code = "function f(x) {\n  if (x) {\n    g(1);\n  }\n  if (x > 1) h(); else { k(); }\n  while (x < 3) x++;\n  switch (x) {\n    case 1:\n      m();\n    case 2:\n  }\n  return x ? 1 : 2;\n}";
    let file = parse(code);
    let inst = instrument(&file, 0, 0, true);
    let guarded: Vec<(String, Option<&str>)> = inst
        .branches
        .iter()
        .enumerate()
        .map(|(id, b)| (branch_text(&inst, id as u32), b.guards.map(|s| statement_text(&file, &inst, s))))
        .collect();
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
    let expected: Vec<(String, Option<&str>)> = expected.iter().map(|(b, s)| (b.to_string(), *s)).collect();
    assert_eq!(guarded, expected);
}

/// Runs `check` in a context holding the undo journal and then `code`, as the engine sets them up.
fn with_journal(code: &str, check: impl FnOnce(rquickjs::Ctx)) {
    let runtime = Runtime::new().unwrap();
    let context = Context::full(&runtime).unwrap();
    context.with(|ctx| {
        // The engine gives the journal a native setter check (`sandbox/engine/props.rs`); a stand-in
        // that answers the same here.
        let prelude = format!(
            "var {SHARED_WRITE} = new Uint8Array(1); var {STATEMENTS} = new Uint8Array(64); var {BRANCHES} = new Uint8Array(64);\
             var {HAS_SETTER} = function (o, skipProto) {{ return Reflect.ownKeys(o).some(function (k) {{ \
             var d = Object.getOwnPropertyDescriptor(o, k); \
             return d.set !== undefined && !(skipProto && k === '__proto__'); }}); }};"
        );
        ctx.eval_with_options::<(), _>(prelude, options("prelude.js")).unwrap();
        ctx.eval_with_options::<(), _>(crate::js::PRIMORDIALS_JS, options("primordials.js")).unwrap();
        ctx.eval_with_options::<(), _>(crate::js::JOURNAL_JS, options("journal.js")).unwrap();
        ctx.eval_with_options::<(), _>(code, options("code.js")).unwrap();
        check(ctx);
    });
}

#[test]
fn writes_to_shared_state_are_journalled_and_undone() {
    let code = "var log = [];\nvar count = 0;\nvar seen = new Map([[1, 'a']]);\nfunction C() { this.n = 0; }\n\
                C.total = 5;\n\
                C.prototype.local = function () { var k = 0; k++; this.n++; return [k].push(1); };\n\
                C.prototype.shared = function (x) { count += 1; C.total++; C['made' + x] = x; seen.set(x, 'b'); \
                seen.delete(1); leaked = x; return log.push(x); };\n\
                C.prototype.fixed = function () { Object.defineProperty(C, 'total', { value: 0 }); };\n                var dict = { a: 1, b: 2 };\nvar list = [1, 2];\nlist.tag = 't';\n                C.prototype.keyed = function (x) { var key = { toString: function () { return x; } };                 dict[key] = 3; delete dict.a; dict[{ toString: function () { return 'a'; } }] = 1;                 list[key] = 4; list[5] = x; list.push(x); return list.length; };\n                var seal = Object.freeze;\n                C.prototype.tagged = function (x) { list[{ toString: function () { return x; } }] = 1; return list.length; };\n                C.prototype.frozen = function () { dict[{}] = 0; seal(dict); };\n";
    let inst = instrument(&parse(code), 0, 0, false);
    // Each write keeps its value and its receiver.
    for journalled in [
        format!("{JOURNAL_COLLECTION}(log, \"push\").push(x)"),
        format!("{JOURNAL_MEMBER}(C, \"total\").total++"),
        format!("{JOURNAL_BINDING}(()=>count"),
    ] {
        assert!(inst.code.replace(' ', "").contains(&journalled.replace(' ', "")), "{journalled}: {}", inst.code);
    }
    with_journal(&inst.code, |ctx| {
        let state = "JSON.stringify([count, C.total, Object.keys(C), [...seen], log, typeof leaked, \
                     Object.keys(dict), dict, Object.keys(list), list, Object.getPrototypeOf(dict) === Object.prototype])";
        let loaded: String = ctx.eval(state).unwrap();
        let flag = |ctx: &rquickjs::Ctx| ctx.eval::<u32, _>(format!("{SHARED_WRITE}[0]")).unwrap();
        let _: u32 = ctx.eval("new C().local()").unwrap();
        assert_eq!(flag(&ctx), 0);
        let _: u32 = ctx.eval("new C().shared(7) + new C().shared(8)").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert_ne!(ctx.eval::<String, _>(state).unwrap(), loaded);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded.clone(), 0));
        // Keys that are objects, and arrays: the whole object is copied, and put back key order included.
        let _: u32 = ctx.eval("new C().keyed('b') + new C().keyed('__proto__')").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert_ne!(ctx.eval::<String, _>(state).unwrap(), loaded);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded, 0));
        // An object the test froze (through a name the analysis does not know) cannot be put back.
        ctx.eval::<(), _>("new C().frozen()").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert!(!ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        // What the journal cannot undo asks for a new context.
        ctx.eval::<(), _>("new C().fixed()").unwrap();
        assert_eq!(flag(&ctx), 2);
        // So does a write to an array whose prototype has a setter the write could run.
        ctx.eval::<(), _>(format!("{SHARED_WRITE}[0] = 0; {FORGET}();")).unwrap();
        ctx.eval::<(), _>("new C().tagged('c')").unwrap();
        assert_eq!(flag(&ctx), 1);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        ctx.eval::<(), _>("Object.defineProperty(Array.prototype, 'x', { set: function (v) {}, configurable: true })")
            .unwrap();
        ctx.eval::<(), _>("new C().tagged('c')").unwrap();
        assert_eq!(flag(&ctx), 2);
    });
}

#[test]
fn writes_to_the_elements_of_a_shared_typed_array_are_journalled() {
    // A module's scratch buffer read as a float's bits, as numeric and hashing libraries keep one; a
    // DataView and a typed array's named property cannot be put back by key.
    let code = "var f64 = new Float64Array(1); var u32 = new Uint32Array(f64.buffer); var view = new DataView(new ArrayBuffer(4));\n\
                function bits(x) { f64[0] = x; u32[5] = 1; u32['-0'] = 2; return u32[1]; }\n\
                function count(i) { u32[i]++; return u32[i]; }\n\
                function poke() { view[0] = 1; }\n\
                function tag() { u32.tag = 1; }";
    let inst = instrument(&parse(code), 0, 0, false);
    with_journal(&inst.code, |ctx| {
        let flag = |ctx: &rquickjs::Ctx| ctx.eval::<u32, _>(format!("{SHARED_WRITE}[0]")).unwrap();
        let undo = |ctx: &rquickjs::Ctx| ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap();
        let state = "JSON.stringify([Array.from(u32), Object.keys(u32), f64[0]])";
        let loaded: String = ctx.eval(state).unwrap();
        assert_eq!(ctx.eval::<u32, _>("bits(-2) + count(0) + count(0)").unwrap(), 0xc000_0000 + 3);
        assert_eq!(flag(&ctx), 1);
        assert!(undo(&ctx));
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded.clone(), 0));
        // An element the array no longer has (its buffer detached) cannot take its value back.
        ctx.eval::<(), _>("count(1); u32.buffer.transfer && u32.buffer.transfer()").unwrap();
        assert!(!undo(&ctx));
        for write in ["poke()", "tag()"] {
            ctx.eval::<(), _>(format!("{SHARED_WRITE}[0] = 0; {FORGET}(); {write}")).unwrap();
            assert_eq!(flag(&ctx), 2, "{write}");
        }
    });
}

#[test]
fn writes_to_private_fields_are_journalled_where_the_name_is_in_scope() {
    // A constructor guarded by a static flag (as lru-cache's `Stack`), a static counter, an instance's
    // own field reached through the class, and a private setter, which may write anything. An inner
    // class's `#n` is a method: the outer field of that name is not its.
    let code = "var other = { hits: 0 };\n\
                class Pool {\n\
                  static #making = false; static #n = 0; #id = 0; static last = null;\n\
                  static make() { Pool.#making = true; const p = new Pool(); Pool.#making = false; Pool.#n += 2; \
                    Pool.#n++; return p; }\n\
                  constructor() { if (!Pool.#making) throw new TypeError('use make'); }\n\
                  static tag(p) { Pool.last = p; p.#id = Pool.#n; return p.#id; }\n\
                  static set #spy(v) { other.hits = v; }\n\
                  static spy(v) { Pool.#spy = v; }\n\
                  static count() { return Pool.#n; }\n\
                  static inner() { return class { #n() { return 1; } static poke() { try { Pool.#n = 1; } catch (e) {} } }; }\n\
                }";
    let inst = instrument(&parse(code), 0, 0, false);
    assert!(inst.code.contains(&format!("{JOURNAL_PRIVATE}(Pool")), "{}", inst.code);
    with_journal(&inst.code, |ctx| {
        let flag = |ctx: &rquickjs::Ctx| ctx.eval::<u32, _>(format!("{SHARED_WRITE}[0]")).unwrap();
        let state = "JSON.stringify([Pool.count(), Pool.last === null, other.hits])";
        let loaded: String = ctx.eval(state).unwrap();
        assert_eq!(ctx.eval::<u32, _>("Pool.tag(Pool.make()) + Pool.tag(Pool.make())").unwrap(), 9);
        assert_eq!(flag(&ctx), 1);
        assert!(ctx.eval::<bool, _>(format!("{}()", crate::js::UNDO)).unwrap());
        assert_eq!((ctx.eval::<String, _>(state).unwrap(), flag(&ctx)), (loaded.clone(), 0));
        assert!(ctx.eval::<bool, _>("try { new Pool(); false } catch (e) { true }").unwrap(), "the guard is back");
        // A write through a private accessor cannot be undone by writing a value back; nor can one
        // through a name that the class around the write declares as a method.
        ctx.eval::<(), _>("Pool.spy(3)").unwrap();
        assert_eq!(flag(&ctx), 2);
        ctx.eval::<(), _>(format!("{SHARED_WRITE}[0] = 0; {FORGET}(); Pool.inner().poke()")).unwrap();
        assert_eq!(flag(&ctx), 2);
    });
}
