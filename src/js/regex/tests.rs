use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng as _};

use super::*;

fn generator(pattern: &str) -> RegexGenerator {
    RegexGenerator::parse(pattern).unwrap_or_else(|e| panic!("{e}"))
}

fn samples(pattern: &str, count: usize) -> Vec<String> {
    let generator = generator(pattern);
    let mut rng = StdRng::seed_from_u64(7);
    (0..count).map(|_| generator.sample(&mut rng)).collect()
}

fn error(pattern: &str) -> RegexError {
    match RegexGenerator::parse(pattern) {
        Ok(_) => panic!("`{pattern}` should be rejected"),
        Err(e) => e,
    }
}

#[test]
fn digit_and_word_classes_are_ascii() {
    for s in samples(r"\d{13}", 200) {
        assert!(s.len() == 13 && s.bytes().all(|b| b.is_ascii_digit()), "{s:?}");
    }
    for s in samples(r"\w{5}", 200) {
        assert!(s.len() == 5 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'), "{s:?}");
    }
    for s in samples(r"\s", 200) {
        assert!(s.len() == 1 && s.bytes().all(|b| b.is_ascii_whitespace() || b == 0x0B), "{s:?}");
    }
}

#[test]
fn anchors_are_stripped_and_literals_read() {
    assert!(samples(r"/^\d{3}$/", 50).iter().all(|s| s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit())));
    assert!(samples("^abc$", 5).iter().all(|s| s == "abc"));
    let branches = samples("^ab$|^cd$$", 100);
    assert!(branches.iter().all(|s| s == "ab" || s == "cd"));
    assert!(branches.iter().any(|s| s == "ab") && branches.iter().any(|s| s == "cd"));
    assert!(samples(r"/a\/b/g", 5).iter().all(|s| s == "a/b"));
    // Not a literal: nothing but flags may follow the closing slash.
    assert!(samples("/usr/lib/x", 5).iter().all(|s| s == "/usr/lib/x"));
    assert_eq!(generator("/^a$/m").pattern(), "/^a$/m");
    assert_eq!(format!("{:?}", generator("/^a$/m")), r#"RegexGenerator { pattern: "/^a$/m", .. }"#);
}

#[test]
fn flags() {
    let cased = samples("/ab/i", 200);
    assert!(cased.iter().all(|s| s.eq_ignore_ascii_case("ab")));
    for variant in ["ab", "aB", "Ab", "AB"] {
        assert!(cased.iter().any(|s| s == variant), "{variant} never drawn");
    }
    // Without `u`, JavaScript's `i` never maps a non-ASCII character to ASCII: no Kelvin sign.
    assert!(samples("/k/i", 300).iter().all(|s| s == "k" || s == "K"));
    assert!(samples("/k/iu", 300).iter().any(|s| s == "\u{212A}"));
    assert!(samples("/é/i", 100).iter().any(|s| s == "É"));
    assert!(samples("/[^a-z]/i", 500).iter().all(|s| !s.chars().any(|c| c.is_ascii_alphabetic())));
    assert!(samples(".{40}", 100).iter().all(|s| !s.contains(['\n', '\r', '\u{2028}', '\u{2029}'])));
    assert!(samples(".{40}", 100).iter().all(|s| s.chars().all(|c| c <= '\u{FFFF}')));
    assert!(samples("/.{40}/u", 100).iter().any(|s| s.chars().any(|c| c > '\u{FFFF}')));
    assert!(error("/a/v").message.contains("`v`"));
    assert!(error("/a/q").message.contains("unknown flag `q`"));
    let twice = error("/abc/gig");
    assert!(twice.message.contains("twice") && twice.position == Some(7), "{twice}");
}

#[test]
fn unbounded_repetition_is_capped() {
    for (pattern, min, max) in [("a*", 0, 8), ("a+", 1, 9), ("a{2,}", 2, 10), ("(?:ab)*", 0, 16)] {
        let lengths: Vec<usize> = samples(pattern, 500).iter().map(String::len).collect();
        assert_eq!(lengths.iter().min(), Some(&min), "{pattern}");
        assert_eq!(lengths.iter().max(), Some(&max), "{pattern}");
    }
}

#[test]
fn branches_are_equally_likely() {
    let drawn = samples("a|b|[c-z]|cat", 4000);
    for (name, hit) in [
        ("a", drawn.iter().filter(|s| *s == "a").count()),
        ("b", drawn.iter().filter(|s| *s == "b").count()),
        ("class", drawn.iter().filter(|s| s.len() == 1 && s.as_str() > "b").count()),
        ("cat", drawn.iter().filter(|s| *s == "cat").count()),
    ] {
        assert!((800..1200).contains(&hit), "{name}: {hit}");
    }
}

#[test]
fn large_classes_favour_printable_ascii() {
    let drawn = samples("[^,]", 1000);
    let ascii = drawn.iter().filter(|s| s.len() == 1 && (' '..='~').contains(&s.chars().next().unwrap())).count();
    assert!((400..650).contains(&ascii), "{ascii}");
    assert!(drawn.iter().all(|s| s != ","));
}

#[test]
fn invalid_patterns_are_explained() {
    for (pattern, needle, position) in [
        ("ab(c", "unclosed group", Some(2)),
        ("/ab(c/", "unclosed group", Some(3)),
        ("ab)", "unmatched `)`", Some(2)),
        ("a{3,2}", "out of order", Some(1)),
        ("*a", "nothing to repeat", Some(0)),
        ("a|{2}", "nothing to repeat", Some(2)),
        ("x(?=a)", "lookahead `(?=…)`", Some(1)),
        ("(?!a)", "negative lookahead", Some(0)),
        ("(?<=a)b", "lookbehind", Some(0)),
        ("(?<!a)b", "negative lookbehind", Some(0)),
        ("(a)\\1", "backreference `\\1`", Some(3)),
        ("(?<x>a)\\k<x>", "named backreference", Some(7)),
        ("a^b", "anchor `^`", Some(1)),
        ("(^a)", "anchor `^`", Some(1)),
        ("a$b", "anchor `$`", Some(1)),
        ("\\bword", "word boundary `\\b`", Some(0)),
        ("[abc", "unclosed character class", Some(0)),
        ("[z-a]", "range out of order", Some(1)),
        ("a[]", "never match", None),
        ("a[^\\s\\S]|[]", "never match", None),
        ("a{20000}", "longer than", None),
        ("(a{1000}){1000}", "longer than", None),
        ("a{99999999999}", "too large", Some(1)),
        ("ab\\", "lone `\\`", Some(2)),
        ("(?i)a", "unsupported group", Some(0)),
        ("(?<1>a)", "group name", Some(0)),
        ("/\\p{Nope}/u", "unknown Unicode property `Nope`", Some(1)),
        ("/\\uD800/", "lone surrogate", Some(1)),
        ("/\\u{D800}/u", "lone surrogate", Some(1)),
        ("😀+", "`u` flag", Some(0)),
        ("[😀]", "`u` flag", Some(1)),
        ("\\01", "octal", Some(0)),
    ] {
        let e = error(pattern);
        assert!(e.message.contains(needle), "`{pattern}`: {e}");
        assert_eq!(e.position, position, "`{pattern}`: {e}");
        let shown = e.to_string();
        assert!(shown.contains(pattern) && shown.contains(needle), "{shown}");
    }
    assert_eq!(
        error("ab(c").to_string(),
        "invalid regex `ab(c`: unclosed group: this `(` has no matching `)` (at character 3)"
    );
    assert!(error(&"(".repeat(200)).message.contains("nested"));
}

#[test]
fn annex_b_forms_are_literals() {
    for (pattern, expected) in [
        ("x{", "x{"),
        ("a{2}}", "aa}"),
        ("{a}", "{a}"),
        ("]", "]"),
        ("\\c", "\\c"),
        ("\\ca", "\u{1}"),
        ("\\k", "k"),
        ("\\x41\\u0042\\x4", "ABx4"),
        ("\\uD83D\\uDE00", "😀"),
        ("/\\u{1F600}/u", "😀"),
        ("[\\b]", "\u{8}"),
        ("\\0", "\0"),
        ("(?<year>19)(?:9)9", "1999"),
    ] {
        assert!(samples(pattern, 3).iter().all(|s| s == expected), "`{pattern}`");
    }
    assert!(samples("[\\d-z]", 300).iter().all(|s| s == "-" || s == "z" || s.bytes().all(|b| b.is_ascii_digit())));
}

#[test]
fn parsing_arbitrary_text_never_panics() {
    const PIECES: [&str; 40] = [
        "a", "Z", "0", "9", "(", ")", "[", "]", "{", "}", "|", "*", "+", "?", ".", "^", "$", "\\", "-", ",", "\\d",
        "\\W", "\\u{", "\\uD83D", "\\x", "\\c", "\\k<", "\\p{L}", "(?:", "(?<n>", "(?=", "{2,", "{1,3}", "😀", "é",
        "/", "/i", "/u", "\\b", "[^",
    ];
    let mut rng = StdRng::seed_from_u64(1);
    let mut accepted = 0;
    for _ in 0..20_000 {
        let len = rng.random_range(0..12);
        let pattern: String = (0..len).map(|_| PIECES[rng.random_range(0..PIECES.len())]).collect();
        if let Ok(generator) = RegexGenerator::parse(&pattern) {
            accepted += 1;
            for _ in 0..3 {
                assert!(generator.sample(&mut rng).len() <= MAX_OUTPUT_BYTES);
            }
        }
    }
    assert!(accepted > 1000, "{accepted}");
}

/// Every sample must match in JavaScript itself, which is the semantics promised.
#[test]
fn samples_match_in_node() {
    let patterns = [
        r"\d{3}-[A-Z]+",
        r"/^\d{3}$/",
        r"[a-z]{2,5}@[a-z]+\.(com|org)",
        r"\w+\s\W\D\S",
        r".{0,10}",
        r"/.{5}/s",
        r"[^abc]{3}",
        r"[\d\-x]+",
        r"[\w-]",
        r"[\d-z]",
        r"a|b|cd",
        r"(?:ab)+c*?",
        r"(?<year>\d{4})-\d\d",
        r"\x41\u0042\cJ[\cJ\c_]",
        r"[\b]\0",
        r"x{",
        r"a{2}}",
        r"]",
        r"\c",
        r"\k",
        r"/[^]/",
        r"/café/i",
        r"/[a-f]+/i",
        r"/[^a-z]/i",
        r"/\W/i",
        r"/\W\w/iu",
        r"/k[^k]/iu",
        r"/ſ[^s]/i",
        r"/\p{Lu}{3}/u",
        r"/\P{L}[\p{Nd}x]/u",
        r"/\P{Lu}/iu",
        r"/\p{Script=Greek}+/u",
        r"/\u{1F600}+/u",
        r"😀",
        r"/.+/u",
        r"/[😀-😂]/u",
        r"[\s\S]",
        r"[^\s]",
        r"\uD83D\uDE00",
        r"/\//",
        r"[/]",
        r"(|a)(a|)+",
        r"a??b{0}[]?",
        r"^a|b$",
        r"/[\w$]+/gimsyd",
    ];
    let mut rng = StdRng::seed_from_u64(13);
    let cases: Vec<serde_json::Value> = patterns
        .iter()
        .map(|pattern| {
            let generator = generator(pattern);
            let (body, flags) = split_literal(pattern).unwrap_or((pattern, ""));
            let drawn: Vec<String> = (0..100).map(|_| generator.sample(&mut rng)).collect();
            serde_json::json!({ "body": body, "flags": flags.replace(['g', 'y'], ""), "samples": drawn })
        })
        .collect();
    let script = format!(
        "const bad = [];\n\
         for (const c of {}) {{\n\
           const re = new RegExp('^(?:' + c.body + ')$', c.flags);\n\
           for (const s of c.samples) if (!re.test(s)) bad.push([c.body, s]);\n\
         }}\n\
         console.log(JSON.stringify(bad.slice(0, 10)));",
        serde_json::Value::Array(cases)
    );
    assert_eq!(crate::js::literal::tests::node(&script), "[]");
}
