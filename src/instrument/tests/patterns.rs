//! The pattern observer: what a value met, and in which method.

use super::*;

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
fn a_literal_is_described_once_and_each_by_its_own_flags() {
    // Each evaluation of a literal makes a new RegExp: the observer is told the literal's text and
    // describes the first it meets, so that later ones cost a look-up; literals of one source and other
    // flags stay apart.
    let code = "function both(x) { return /a+/i.test(x) + /a+/g.test(x) + x.split(/,/).length; }\n";
    let inst = instrument(&parse(code), 0, 0, true);
    for text in ["/a+/i", "/a+/g", "/,/"] {
        assert!(inst.code.contains(&format!("\"{text}\"")), "{text} in {}", inst.code);
    }
    let prelude = format!(
        "var notes = []; {OBSERVE}.attach(function (key, event, detail) {{ notes.push(key + ' ' + event + ' ' + detail); }});"
    );
    let run = Loaded::instrumented(&inst, &prelude);
    let observe = |call: &str| -> Vec<String> {
        run.eval::<()>(&format!("notes.length = 0; {OBSERVE}.reset(); {call};"));
        run.eval("notes")
    };
    let first = observe("both('Aa')");
    assert_eq!(first, ["-1 6 0 null i 2 a+ sAa", "-1 6 0 null g 2 a+ sAa", "-1 6 7 1  1 , sAa"]);
    assert_eq!(observe("both('Aa')"), first);
    assert_eq!(observe("both('b,c')"), ["-1 6 0 null i 2 a+ sb,c", "-1 6 0 null g 2 a+ sb,c", "-1 6 7 2  1 , sb,c"]);
}
