//! JavaScript source text for primitive values and for names derived from arbitrary text.

use std::fmt::Write as _;
use std::sync::OnceLock;

use regex_syntax::hir::{Class, ClassUnicode, HirKind};

/// Words that cannot name a variable in strict-mode code or a module, plus the global names that
/// cannot be rebound (`undefined`) or bound at all in strict code (`arguments`, `eval`).
const RESERVED: [&str; 49] = [
    "arguments",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "eval",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "undefined",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// `Number.MAX_SAFE_INTEGER`: every integer up to it is a double exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A JavaScript expression that evaluates to exactly `v` (`Object.is` equal), written as JavaScript's
/// own `String(v)` would write it, except that negative zero is `-0`.
pub(crate) fn number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    // Most numbers tests pass are small integers: a safe integer is its digits, without the search for
    // the shortest ones below (a candidate's encoding writes several).
    if v.fract() == 0.0 && v.abs() <= MAX_SAFE_INTEGER {
        return (v as i64).to_string();
    }
    // `{:e}` gives the shortest digits that round-trip, closest to the value, as JavaScript's
    // Number::toString chooses them; only the layout differs, and is redone by its rules here.
    let scientific = format!("{:e}", v.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    let (digits, exponent) = break_tie_to_even(digits, exponent.parse().unwrap_or(0), v.abs());
    let k = digits.len() as i32;
    let n = exponent + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (whole, fraction) = digits.split_at(n as usize);
        format!("{whole}.{fraction}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat(-n as usize))
    } else {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let sign = if n > 0 { '+' } else { '-' };
        format!("{first}{point}{rest}e{sign}{}", (n - 1).abs())
    };
    if v < 0.0 { format!("-{body}") } else { body }
}

/// JavaScript breaks a tie between two equally close shortest digit strings toward the even one
/// (Number::toString, step 5), where Rust's formatter may pick the odd one: `1023857973533182.25`
/// is `…182.2` in JavaScript. Takes and returns significant digits and the decimal exponent of the first.
fn break_tie_to_even(digits: String, exponent: i32, v: f64) -> (String, i32) {
    // Two k-digit decimals fit within half an ulp of `v` only from 16 digits on, except among subnormals,
    // whose ulp is large relative to them; everywhere else there is no tie to look for.
    if digits.len() < 16 && v >= f64::MIN_POSITIVE {
        return (digits, exponent);
    }
    // 800 places exceed the longest exact decimal expansion of a double (767 digits): this is exact.
    let exact = format!("{v:.800e}");
    let Some((mantissa, exact_exponent)) = exact.split_once('e') else {
        return (digits, exponent);
    };
    let exact_digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    let exact_digits = exact_digits.trim_end_matches('0');
    // A tie means `v` lies exactly half a unit past the last digit: one more digit, a 5.
    let shift = exact_exponent.parse::<i32>().unwrap_or(exponent) - exponent;
    if !exact_digits.ends_with('5') || exact_digits.len() as i32 != digits.len() as i32 + 1 + shift {
        return (digits, exponent);
    }
    let (Ok(exact_units), Ok(units)) = (exact_digits.parse::<u128>(), digits.parse::<u128>()) else {
        return (digits, exponent);
    };
    let other = if exact_units + 5 == units * 10 {
        units - 1
    } else if exact_units == units * 10 + 5 {
        units + 1
    } else {
        return (digits, exponent);
    };
    let other_digits = other.to_string();
    let other_exponent = exponent + other_digits.len() as i32 - digits.len() as i32;
    let round_trips = format!("{other_digits}e{}", other_exponent + 1 - other_digits.len() as i32).parse() == Ok(v);
    if other % 2 == 1 || !round_trips {
        return (digits, exponent);
    }
    (other_digits.trim_end_matches('0').to_owned(), other_exponent)
}

/// A double-quoted JavaScript string literal for `s`. Control characters, U+2028 and U+2029 are
/// escaped so the literal stays on one line and is safe in any JavaScript version.
pub(crate) fn string(s: &str) -> String {
    let mut literal = String::with_capacity(s.len() + 2);
    literal.push('"');
    for c in s.chars() {
        match c {
            '\\' => literal.push_str("\\\\"),
            '"' => literal.push_str("\\\""),
            '\n' => literal.push_str("\\n"),
            '\r' => literal.push_str("\\r"),
            '\t' => literal.push_str("\\t"),
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(literal, "\\u{:04x}", u32::from(c));
            }
            c => literal.push(c),
        }
    }
    literal.push('"');
    literal
}

/// A readable camelCase JavaScript identifier derived from any text: `"Node"` → `node`, `"my-list"` →
/// `myList`, `"HTTPServer"` → `httpServer`, `"class"` → `klass`, `""` → `value`, `"3d"` → `_3d`.
///
/// Characters that cannot be in an identifier, and `_` and `$`, separate words; a name that would
/// start with a digit gets a leading `_`, and reserved words get a `Value` suffix.
pub(crate) fn identifier(base: &str) -> String {
    let mut name = String::new();
    let words = base.split(|c: char| c == '_' || c == '$' || !is_id_continue(c)).filter(|word| !word.is_empty());
    for (index, word) in words.enumerate() {
        if index == 0 {
            name.push_str(&first_word(word));
        } else {
            name.push_str(&later_word(word));
        }
    }
    if name.is_empty() {
        return "value".to_owned();
    }
    if !name.chars().next().is_some_and(is_id_start) {
        name.insert(0, '_');
    }
    if name == "class" {
        return "klass".to_owned();
    }
    if RESERVED.contains(&name.as_str()) {
        name.push_str("Value");
    }
    name
}

/// Whether `name` is a reserved word (or `arguments`, `eval`, `undefined`...): it cannot name a binding.
pub(crate) fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// Whether `name` can follow a dot (`object.name`) or stand unquoted as a property key (`{ name: 1 }`).
/// Reserved words qualify there (`object.class`), unlike in [`identifier`].
pub(crate) fn is_identifier_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_id_start) && chars.all(|c| is_id_continue(c) || c == '\u{200C}' || c == '\u{200D}')
}

/// Lower-cases the leading capitals, keeping the last one of a run that starts the next word:
/// `Node` → `node`, `URL` → `url`, `HTTPServer` → `httpServer`.
fn first_word(word: &str) -> String {
    if !word.chars().any(char::is_lowercase) {
        return word.to_lowercase();
    }
    let capitals = word.chars().take_while(|c| c.is_uppercase()).count();
    let lowered = if capitals > 1 { capitals - 1 } else { capitals };
    // Into one string: a string per character showed in the profile of generation, which names a
    // variable after its class for every construction.
    let mut name = String::with_capacity(word.len());
    for (index, c) in word.chars().enumerate() {
        if index < lowered {
            name.extend(c.to_lowercase());
        } else {
            name.push(c);
        }
    }
    name
}

/// Capitalises a following word: `list` → `List`, `LIST` → `List`, `xmlHttp` → `XmlHttp`.
fn later_word(word: &str) -> String {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let rest: String = chars.collect();
    let rest = if word.chars().any(char::is_lowercase) { rest } else { rest.to_lowercase() };
    format!("{}{rest}", first.to_uppercase())
}

fn is_id_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$' || (!c.is_ascii() && in_class(id_classes().0.as_ref(), c))
}

fn is_id_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$' || (!c.is_ascii() && in_class(id_classes().1.as_ref(), c))
}

fn in_class(class: Option<&ClassUnicode>, c: char) -> bool {
    class.is_some_and(|class| {
        let ranges = class.ranges();
        ranges.get(ranges.partition_point(|range| range.end() < c)).is_some_and(|range| range.start() <= c)
    })
}

/// Unicode's `ID_Start` and `ID_Continue`, which JavaScript identifiers are made of. regex-syntax
/// holds the tables; without them only ASCII names are produced.
fn id_classes() -> &'static (Option<ClassUnicode>, Option<ClassUnicode>) {
    static CLASSES: OnceLock<(Option<ClassUnicode>, Option<ClassUnicode>)> = OnceLock::new();
    CLASSES.get_or_init(|| {
        // `regex_syntax::parse` builds a fresh parser each time; 0.8.11 panics when one is reused.
        let property = |name: &str| match regex_syntax::parse(&format!("\\p{{{name}}}")).map(|hir| hir.into_kind()) {
            Ok(HirKind::Class(Class::Unicode(class))) => Some(class),
            _ => None,
        };
        (property("ID_Start"), property("ID_Continue"))
    })
}

/// Where the regular expression literal that `text` starts with ends: the offset of its closing `/`
/// (an escaped `/` or one in a character class does not close it; a line break ends the search).
pub(crate) fn regex_end(text: &str) -> Option<usize> {
    let body = text.strip_prefix('/')?;
    let (mut escaped, mut in_class) = (false, false);
    for (index, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => return Some(index + 1),
            '\n' => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write as _;
    use std::process::{Command, Stdio};

    use rand::rngs::StdRng;
    use rand::{RngExt as _, SeedableRng as _};

    use super::*;

    /// Runs a script in node and returns what it printed (for the tests of this module and of
    /// `values`, which check against the real JavaScript engine).
    pub(crate) fn node(script: &str) -> String {
        let mut node = Command::new("node")
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node runs");
        node.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("script written");
        let output = node.wait_with_output().expect("node finishes");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    #[test]
    fn numbers_read_like_javascript() {
        for (value, expected) in [
            (0.0, "0"),
            (-0.0, "-0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1.0, "1"),
            (-42.0, "-42"),
            (1.5, "1.5"),
            (0.1, "0.1"),
            (-0.001, "-0.001"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (123456789012345680000.0, "123456789012345680000"),
            (2f64.powi(53), "9007199254740992"),
            (9_007_199_254_740_991.0, "9007199254740991"),
            (-9_007_199_254_740_991.0, "-9007199254740991"),
            (-(2f64.powi(53)), "-9007199254740992"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
            (1_023_857_973_533_182.0 + 0.25, "1023857973533182.2"),
            (1_023_857_973_533_182.0 + 0.75, "1023857973533182.8"),
        ] {
            assert_eq!(number(value), expected);
        }
    }

    /// `Object.is(eval(literal), value)` and `String(value) === literal` in node for a few thousand
    /// doubles of every kind: random bit patterns, subnormals, integers, short decimals, powers of ten.
    #[test]
    fn numbers_round_trip_in_node() {
        let mut rng = StdRng::seed_from_u64(17);
        let mut values: Vec<f64> = vec![0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, -f64::MAX];
        values.extend((0..1000).map(|_| f64::from_bits(rng.random())));
        values.extend(
            (0..500).map(|_| f64::from_bits(rng.random_range(1..1u64 << 52)) * if rng.random() { 1.0 } else { -1.0 }),
        );
        values.extend((0..500).map(|_| rng.random_range(-(1i64 << 60)..1i64 << 60) as f64));
        values.extend(
            (0..500).map(|_| rng.random_range(-100_000i32..100_000) as f64 / 10f64.powi(rng.random_range(1..8))),
        );
        values.extend((-330..310).map(|e| 10f64.powi(e)));
        values.extend((-30..30).map(|e| 10f64.powi(e) * (1.0 - f64::EPSILON)));
        let pairs: Vec<String> =
            values.iter().map(|v| format!("[{},\"{}\"]", string(&number(*v)), v.to_bits())).collect();
        let script = format!(
            "const bits = new BigUint64Array(1), view = new Float64Array(bits.buffer), bad = [];\n\
             for (const [literal, b] of [{}]) {{\n\
               bits[0] = BigInt(b);\n\
               const value = view[0];\n\
               if (!Object.is(eval(literal), value) || (!Object.is(value, -0) && String(value) !== literal)) bad.push([literal, String(value)]);\n\
             }}\n\
             console.log(JSON.stringify(bad.slice(0, 10)));",
            pairs.join(",")
        );
        assert_eq!(node(&script), "[]");
    }

    #[test]
    fn strings_are_escaped() {
        for (text, expected) in [
            ("", r#""""#),
            ("plain text", r#""plain text""#),
            ("say \"hi\"", r#""say \"hi\"""#),
            ("a\\b", r#""a\\b""#),
            ("line\nnext\r\ttab", r#""line\nnext\r\ttab""#),
            ("\0\u{8}\u{1b}\u{7f}\u{85}", r#""\u0000\u0008\u001b\u007f\u0085""#),
            ("\u{2028}\u{2029}", r#""\u2028\u2029""#),
            ("'single' `tick` ${x}", r#""'single' `tick` ${x}""#),
            ("é😀中", "\"é😀中\""),
        ] {
            assert_eq!(string(text), expected);
        }
    }

    #[test]
    fn identifiers_are_readable() {
        for (text, expected) in [
            ("Node", "node"),
            ("my-list", "myList"),
            ("class", "klass"),
            ("Class", "klass"),
            ("", "value"),
            ("---", "value"),
            ("3d", "_3d"),
            ("my 3d list", "my3dList"),
            ("HTTPServer", "httpServer"),
            ("URL", "url"),
            ("MY_CONST", "myConst"),
            ("xml http-request", "xmlHttpRequest"),
            ("linkedList", "linkedList"),
            ("LinkedList", "linkedList"),
            ("_private", "privateValue"),
            ("__items", "items"),
            ("$el", "el"),
            ("new", "newValue"),
            ("undefined", "undefinedValue"),
            ("yield", "yieldValue"),
            ("Ünïcode Straße", "ünïcodeStraße"),
            ("½ price", "price"),
        ] {
            assert_eq!(identifier(text), expected, "{text:?}");
        }
    }

    #[test]
    fn identifier_names_follow_javascript() {
        for name in ["a", "class", "$", "_x1", "café", "a\u{200C}b", "Σx", "x\u{301}"] {
            assert!(is_identifier_name(name), "{name:?}");
        }
        for name in ["", "1a", "a-b", "a b", "\u{301}x", "\u{200C}", "½", "a.b"] {
            assert!(!is_identifier_name(name), "{name:?}");
        }
    }

    /// Literals and identifiers from awkward text must parse in node: strings evaluate back to the text
    /// and identifiers bind in strict code.
    #[test]
    fn strings_and_identifiers_parse_in_node() {
        let mut rng = StdRng::seed_from_u64(23);
        let alphabet: Vec<char> = ('\0'..='\u{7f}')
            .chain([
                '\u{85}', '\u{a0}', '\u{2028}', '\u{2029}', '\u{feff}', 'é', 'ß', 'İ', '中', '😀', '\u{301}', '٣', 'Ⅻ',
            ])
            .collect();
        let texts: Vec<String> = (0..300)
            .map(|_| (0..rng.random_range(0..10)).map(|_| alphabet[rng.random_range(0..alphabet.len())]).collect())
            .chain(RESERVED.iter().map(|word| word.to_string()))
            .chain(["café", "a\u{200C}b", "x\u{301}", "\u{301}x", "Ⅻx", "x٣", "٣x", "$_"].map(String::from))
            .collect();
        let cases: Vec<String> = texts
            .iter()
            .map(|text| {
                let json = serde_json::to_string(text).expect("json");
                format!("[{json},{},{},{}]", string(text), string(&identifier(text)), is_identifier_name(text))
            })
            .collect();
        let script = format!(
            "const bad = [];\n\
             const member = (name) => {{\n\
               const mark = Symbol();\n\
               try {{ return new Function('o', 'return o.' + name)({{ [name]: mark }}) === mark; }} catch {{ return false; }}\n\
             }};\n\
             for (const [text, literal, id, name] of [{}]) {{\n\
               if (literal !== text) bad.push(['string', text]);\n\
               if (member(text) !== name) bad.push(['name', text, name]);\n\
               try {{ if (new Function('\"use strict\"; let ' + id + ' = 1; return ' + id + ';')() !== 1) bad.push(['id', id]); }}\n\
               catch (e) {{ bad.push(['id', id, String(e)]); }}\n\
             }}\n\
             console.log(JSON.stringify(bad.slice(0, 10)));",
            cases.join(",")
        );
        assert_eq!(node(&script), "[]");
    }
}
