//! Coercion sites: every conversion a run records maps back to the site of the original source.

use super::*;

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
            "{HARNESS}\nvar p = rec(), o = {{ v: 1 }}, s = 'abcdef', a = [1, 2, 3]; {MEASURING}[0] = {measuring};"
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
    ("parseInt(p, 10) === p", (SiteKind::NumberTest, "parseInt()", None), "string"),
    ("p !== (Number.parseFloat(p))", (SiteKind::NumberTest, "Number.parseFloat()", None), "string"),
    ("parseInt(p) === s", (SiteKind::Call, "parseInt()", None), "string"),
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
fn keys_of_tables_of_names_map_to_their_sites() {
    let table = (SiteKind::TableKey, "[]", None);
    let cases: &[(&str, Expected, &str)] = &[
        ("var UNITS = { kb: 1, mb: 2 };\nfunction t(p) {\n  return UNITS[p];\n}", table, "string"),
        ("function t(p) {\n  var seen = { a: 1, b: 2 };\n  seen[p] = 3;\n}", table, "string"),
        // An object of indices is an array's stand-in: its key stays any computed key.
        (
            "var ROWS = { 0: 'a', 1: 'b' };\nfunction t(p) {\n  return ROWS[p];\n}",
            (SiteKind::ComputedKey, "[]", None),
            "string",
        ),
    ];
    for &(code, expected, hint) in cases {
        check(code, "t(p)", expected, hint);
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
