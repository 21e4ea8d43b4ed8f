//! What recording proxies report, parsed from the harness's log.

use crate::model::observed::EnginePosition;

/// The argument QuickJS passed to `Symbol.toPrimitive`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hint {
    /// "number": arithmetic, comparison, `Number()`, `Math.*`.
    Number,
    /// "string": templates, `String()`, property keys, string methods.
    String,
    /// "default": `+`, `==`, and a few others.
    Default,
}

impl Hint {
    /// Reads the hint string JavaScript passes; anything unexpected counts as "default".
    pub fn from_js(hint: &str) -> Hint {
        match hint {
            "number" => Hint::Number,
            "string" => Hint::String,
            _ => Hint::Default,
        }
    }
}

/// One use of a recording proxy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProxyEvent {
    /// A proxy for parameter `key` was passed to a call.
    Created {
        /// The parameter.
        key: u32,
    },
    /// A member was read, or called (`p.m()` reads `m` first).
    Get {
        /// The parameter.
        key: u32,
        /// Member name (`@@iterator` for `Symbol.iterator`).
        name: String,
    },
    /// A member was written or deleted.
    Set {
        /// The parameter.
        key: u32,
        /// Member name.
        name: String,
    },
    /// The proxy itself was called (or constructed): it stands for a function.
    Called {
        /// The parameter.
        key: u32,
        /// What the call passed it (`None` for a construction).
        arguments: Option<CallArguments>,
    },
    /// `name in p` was asked.
    Has {
        /// The parameter.
        key: u32,
        /// Member name.
        name: String,
    },
    /// The proxy's own keys were listed (`Object.keys(p)`, `for (k in p)`, a spread): the code walks
    /// the entries of an object.
    KeysListed {
        /// The parameter.
        key: u32,
    },
    /// The proxy was converted to a primitive, or an item read on it by index was (`data[i] * 2`).
    Coerced {
        /// The parameter.
        key: u32,
        /// The hint the engine gave.
        hint: Hint,
        /// The first frame of the code under test in the stack, if any.
        position: Option<EnginePosition>,
        /// Whether an item read by index was converted rather than the proxy itself.
        item: bool,
    },
}

impl ProxyEvent {
    /// The parameter the event is about.
    pub fn key(&self) -> u32 {
        match self {
            ProxyEvent::Created { key }
            | ProxyEvent::Called { key, .. }
            | ProxyEvent::Get { key, .. }
            | ProxyEvent::Set { key, .. }
            | ProxyEvent::Has { key, .. }
            | ProxyEvent::KeysListed { key }
            | ProxyEvent::Coerced { key, .. } => *key,
        }
    }
}

/// What a call of a recording proxy passed it, as the harness logs it: a letter per argument, `n` for a
/// number, `s` for a string, `o` for anything else (`"nn"` for a comparator's call on numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallArguments {
    /// How many arguments.
    pub count: usize,
    /// Whether every one was a number (false for none).
    pub numbers: bool,
    /// Whether every one was a string (false for none).
    pub strings: bool,
}

impl CallArguments {
    /// Reads the harness's detail of a call; `None` for a construction (an empty detail).
    fn from_js(detail: &str) -> Option<CallArguments> {
        let kinds = detail.strip_prefix('(')?;
        let count = kinds.len();
        Some(CallArguments {
            count,
            numbers: count > 0 && kinds.bytes().all(|k| k == b'n'),
            strings: count > 0 && kinds.bytes().all(|k| k == b's'),
        })
    }

    /// What two calls passed, as one: the most arguments either passed, of a kind both agree on.
    pub fn merge(self, other: CallArguments) -> CallArguments {
        CallArguments {
            count: self.count.max(other.count),
            numbers: self.numbers && other.numbers,
            strings: self.strings && other.strings,
        }
    }
}

/// A regular expression that a value from the test's arguments met (logged by `js/patterns.js`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternNote {
    /// The parameter whose recording proxy met it, when a proxy did.
    pub key: Option<u32>,
    /// The string that met it, when a string did (see [`PatternNote::came_from`]).
    pub subject: Option<String>,
    /// The method: `test`, `exec`, `match`, `matchAll`, `search`, `replace` or `replaceAll`; or `split`,
    /// when the value was split into a list.
    pub method: String,
    /// The pattern's source, as `RegExp.prototype.source` gives it (a string made a RegExp by
    /// `match` as it was); for a `split`, what joins the items (the separator, or a usual separator
    /// its pattern matches).
    pub source: String,
    /// Its flags.
    pub flags: String,
    /// When the value met was one of the pieces an earlier `split` of the argument gave: what joins
    /// them.
    pub separator: Option<String>,
    /// How many pieces that split (or this one) gave.
    pub pieces: Option<usize>,
}

impl PatternNote {
    /// Whether the string that met the pattern came from `argument`: all of it, a part of it, or what
    /// is left of it once characters were taken out (trimmed, hyphens removed), case aside.
    pub fn came_from(&self, argument: &str) -> bool {
        let Some(subject) = self.subject.as_deref().filter(|s| !s.is_empty()) else { return false };
        if subject.len() > argument.len() {
            return false;
        }
        if argument.contains(subject) {
            return true;
        }
        let mut wanted = subject.chars().map(|c| c.to_ascii_lowercase()).peekable();
        for c in argument.chars().map(|c| c.to_ascii_lowercase()) {
            if wanted.peek() == Some(&c) {
                wanted.next();
            }
        }
        wanted.peek().is_none()
    }
}

/// The methods `js/patterns.js` numbers, in its order.
const PATTERN_METHODS: [&str; 8] = ["test", "exec", "match", "matchAll", "search", "replace", "replaceAll", "split"];

/// One value of the harness's log (a flat array of (parameter key, event, detail) triples), as the
/// sandbox reads it from the array itself (`sandbox/engine/log.rs`).
#[derive(Debug, Clone, PartialEq)]
pub enum LogValue {
    /// A number: a key or an event.
    Number(f64),
    /// A string: a detail (see [`lossy_text`]).
    Text(String),
    /// Anything else, which no triple holds.
    Other,
}

/// Reads the harness's log into the proxies' events and the patterns met; once for both: a log with
/// stacks runs to kilobytes, and a test with recording proxies writes one every run. `is_user_file`
/// tells the code under test's files from the harness and test code in stack frames. A log that is not
/// triples of an integer key, an event number and a text gives nothing; a triple left incomplete at
/// its end is left out.
pub fn read_log(
    values: impl IntoIterator<Item = LogValue>,
    is_user_file: impl Fn(&str) -> bool,
) -> (Vec<ProxyEvent>, Vec<PatternNote>) {
    let (mut events, mut notes) = (Vec::new(), Vec::new());
    let mut values = values.into_iter();
    let integer = |value: LogValue| match value {
        LogValue::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Some(n as i64),
        _ => None,
    };
    while let Some(key) = values.next() {
        let (Some(event), Some(detail)) = (values.next(), values.next()) else { break };
        let (Some(key), Some(event), LogValue::Text(detail)) = (integer(key), integer(event), detail) else {
            return (Vec::new(), Vec::new());
        };
        let Ok(event) = u8::try_from(event) else { return (Vec::new(), Vec::new()) };
        if event == 6 {
            notes.extend(note(key, &detail));
            continue;
        }
        let Ok(key) = u32::try_from(key) else { continue };
        events.push(match event {
            0 => ProxyEvent::Created { key },
            1 => ProxyEvent::Get { key, name: detail },
            2 => ProxyEvent::Set { key, name: detail },
            3 => ProxyEvent::Has { key, name: detail },
            4 => ProxyEvent::Called { key, arguments: CallArguments::from_js(&detail) },
            5 | 8 => {
                let (hint, stack) = detail.split_once('\n').unwrap_or((&detail, ""));
                let (hint, position) = (Hint::from_js(hint), first_user_frame(stack, &is_user_file));
                ProxyEvent::Coerced { key, hint, position, item: event == 8 }
            }
            7 => ProxyEvent::KeysListed { key },
            _ => continue,
        });
    }
    (events, notes)
}

/// A JavaScript string's text from QuickJS's UTF-8 (`JS_ToCStringLen`), where a lone surrogate (a
/// member name the code made, an emoji sliced in half that met a pattern) comes encoded as if it were
/// a character: each is made U+FFFD, one UTF-16 unit too, so that a note's lengths still hold.
pub fn lossy_text(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                text.push_str(valid);
                return text;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                text.push_str(std::str::from_utf8(valid).expect("checked valid"));
                text.push('\u{fffd}');
                // A surrogate is three bytes (ED A0..BF xx); anything else invalid, what the error spans.
                let skip = if after.len() >= 3 && after[0] == 0xED && (0xA0..=0xBF).contains(&after[1]) {
                    3
                } else {
                    e.error_len().unwrap_or(after.len())
                };
                rest = &after[skip..];
            }
        }
    }
}

/// A pattern note of parameter `key` (-1 for a string subject) from its text in the log (see `note` in
/// `js/patterns.js`): `method pieces flags <length> source[ <length> joiner] s<subject>` or `... p`.
fn note(key: i64, text: &str) -> Option<PatternNote> {
    let mut text = NoteText(text);
    let method = PATTERN_METHODS.get(text.word()?.parse::<usize>().ok()?)?.to_string();
    let pieces = text.word()?.parse().ok();
    let flags = text.word()?.to_string();
    let source = text.sized()?.to_string();
    let mut rest = text.0.strip_prefix(' ')?;
    let mut separator = None;
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        let mut joiner = NoteText(rest);
        separator = Some(joiner.sized()?.to_string());
        rest = joiner.0.strip_prefix(' ')?;
    }
    let subject = match rest.strip_prefix('s') {
        Some(subject) => Some(subject.to_string()),
        None if rest == "p" => None,
        None => return None,
    };
    Some(PatternNote { key: u32::try_from(key).ok(), subject, method, source, flags, separator, pieces })
}

/// What is left to read of a note's text.
struct NoteText<'a>(&'a str);

impl<'a> NoteText<'a> {
    /// Up to the next space, which is passed.
    fn word(&mut self) -> Option<&'a str> {
        let (word, rest) = self.0.split_once(' ')?;
        self.0 = rest;
        Some(word)
    }

    /// A length in UTF-16 units (JavaScript's), a space, then that much text.
    fn sized(&mut self) -> Option<&'a str> {
        let units: usize = self.word()?.parse().ok()?;
        let mut counted = 0;
        let mut end = self.0.len();
        for (at, c) in self.0.char_indices() {
            if counted >= units {
                end = at;
                break;
            }
            counted += c.len_utf16();
        }
        if counted != units {
            return None;
        }
        let (sized, rest) = self.0.split_at(end);
        self.0 = rest;
        Some(sized)
    }
}

/// Finds the first stack frame in the code under test. QuickJS prints frames as
/// `    at name (file:line:column)` or `    at file:line:column`.
pub fn first_user_frame(stack: &str, is_user_file: impl Fn(&str) -> bool) -> Option<EnginePosition> {
    stack.lines().find_map(|frame| {
        let frame = frame.trim().strip_prefix("at ")?;
        let location = match (frame.rfind('('), frame.ends_with(')')) {
            (Some(open), true) => &frame[open + 1..frame.len() - 1],
            _ => frame,
        };
        let (rest, column) = location.rsplit_once(':')?;
        let (file, line) = rest.rsplit_once(':')?;
        if !is_user_file(file) {
            return None;
        }
        Some(EnginePosition { file: file.to_string(), line: line.parse().ok()?, column: column.parse().ok()? })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log the harness would hold, written as JSON.
    fn parse_log(json: &str, is_user_file: impl Fn(&str) -> bool) -> (Vec<ProxyEvent>, Vec<PatternNote>) {
        let values: Vec<LogValue> = match serde_json::from_str(json) {
            Ok(serde_json::Value::Array(items)) => items
                .into_iter()
                .map(|item| match item {
                    serde_json::Value::Number(n) => LogValue::Number(n.as_f64().unwrap()),
                    serde_json::Value::String(text) => LogValue::Text(text),
                    _ => LogValue::Other,
                })
                .collect(),
            _ => Vec::new(),
        };
        read_log(values, is_user_file)
    }

    #[test]
    fn finds_the_first_frame_in_user_code() {
        let stack = "    at <anonymous> (harness:10:5)\n    at add (/src/list.js:12:17)\n    at <eval> (test:1:3)\n";
        let position = first_user_frame(stack, |f| f.starts_with("/src/")).unwrap();
        assert_eq!(position, EnginePosition { file: "/src/list.js".into(), line: 12, column: 17 });
        assert_eq!(first_user_frame(stack, |_| false), None);
        let bare = "    at /src/a b.js:3:4\n";
        assert_eq!(first_user_frame(bare, |_| true).unwrap().file, "/src/a b.js");
    }

    #[test]
    fn reads_the_patterns_met_apart_from_proxy_events() {
        let log = r#"[3,0,"",3,6,"0 null i 5 ^\\d+$ p",-1,6,"2 2  4 [SH] 1   sAS KH",-1,6,"7 2  1 , sa,b"]"#;
        let (events, notes) = parse_log(log, |_| true);
        assert_eq!(events, vec![ProxyEvent::Created { key: 3 }]);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert_eq!((notes[0].key, notes[0].method.as_str(), notes[0].source.as_str()), (Some(3), "test", "^\\d+$"));
        assert_eq!(notes[0].flags, "i");
        assert_eq!(
            (notes[1].key, notes[1].subject.as_deref(), notes[1].method.as_str()),
            (None, Some("AS KH"), "match")
        );
        assert_eq!((notes[1].separator.as_deref(), notes[1].pieces), (Some(" "), Some(2)));
        assert_eq!((notes[2].method.as_str(), notes[2].source.as_str(), notes[2].pieces), ("split", ",", Some(2)));
    }

    #[test]
    fn a_lone_surrogate_costs_its_character_not_the_text() {
        // QuickJS writes a lone surrogate as the three bytes a character of its number would take.
        assert_eq!(lossy_text(b"\xED\xA0\x80x"), "\u{fffd}x");
        assert_eq!(lossy_text(b"a\xED\xB0\x80"), "a\u{fffd}");
        assert_eq!(lossy_text(b"\xED\xA0\x80\xED\xA0\x80"), "\u{fffd}\u{fffd}");
        // A pair is a character; other bytes that make no character cost theirs.
        assert_eq!(lossy_text("😀\\ud800".as_bytes()), "😀\\ud800");
        assert_eq!(lossy_text(b"\xFFa\xE2\x82"), "\u{fffd}a\u{fffd}");
    }

    #[test]
    fn a_log_that_is_not_triples_gives_nothing() {
        for log in
            ["", "{}", r#"[3,"get","x"]"#, r#"[-1,6,[0,"a","",null,null,null]]"#, r#"[3.5,0,""]"#, r#"[3,-1,""]"#]
        {
            assert_eq!(parse_log(log, |_| true), (Vec::new(), Vec::new()), "{log}");
        }
        // Events of a key no proxy has, and of a number no event has, are left out; so are notes that are
        // not as the patterns write them; the rest is read.
        let (events, notes) =
            parse_log(r#"[-1,1,"x",2,9,"",2,1,"y",-1,6,"9 null  1 a sx",-1,6,"0 null  2 a sx"]"#, |_| true);
        assert_eq!(events, vec![ProxyEvent::Get { key: 2, name: "y".into() }]);
        assert!(notes.is_empty(), "a method the patterns do not number, a source shorter than its length");
        // A triple left incomplete at the end is left out, not the log.
        assert_eq!(parse_log(r#"[3,0,"",3,1]"#, |_| true).0, vec![ProxyEvent::Created { key: 3 }]);
    }

    #[test]
    fn a_note_counts_lengths_in_utf16_units() {
        // "𝔸" is two units in JavaScript, four bytes here; a source may hold spaces and digits.
        let (_, notes) = parse_log(r#"[-1,6,"1 3 gu 6 𝔸 1 x 2 𝔸 sa 𝔸"]"#, |_| true);
        let n = &notes[0];
        assert_eq!(
            (n.method.as_str(), n.pieces, n.flags.as_str(), n.source.as_str()),
            ("exec", Some(3), "gu", "𝔸 1 x")
        );
        assert_eq!((n.separator.as_deref(), n.subject.as_deref(), n.key), (Some("𝔸"), Some("a 𝔸"), None));
        assert!(note(-1, "1 3 gu 1 𝔸 1 x 2 𝔸 sa").is_none(), "a length that ends inside a character");
    }

    #[test]
    fn a_subject_comes_from_an_argument_it_is_drawn_from() {
        let note = |subject: &str| PatternNote {
            key: None,
            subject: Some(subject.into()),
            method: "test".into(),
            source: String::new(),
            flags: String::new(),
            separator: None,
            pieces: None,
        };
        assert!(note("978030").came_from(" 978-0-30 "), "hyphens and spaces taken out");
        assert!(note("abc").came_from("xABCy") && note("b c").came_from("a b c"));
        assert!(!note("abd").came_from("abc") && !note("").came_from("abc") && !note("abcd").came_from("abc"));
    }

    #[test]
    fn parses_log_triples() {
        let log = r#"[3,0,"",3,1,"next",3,2,"prev",4,5,"number\n    at f (/a.js:2:9)"]"#;
        let (events, notes) = parse_log(log, |f| f == "/a.js");
        assert!(notes.is_empty());
        assert_eq!(events.len(), 4);
        assert_eq!(events[1], ProxyEvent::Get { key: 3, name: "next".into() });
        assert!(
            matches!(&events[3], ProxyEvent::Coerced { key: 4, hint: Hint::Number, position: Some(p), item: false } if p.line == 2)
        );
        // 8: an item read by index on the proxy was coerced.
        let (events, _) = parse_log(r#"[4,8,"number\n    at f (/a.js:3:9)"]"#, |f| f == "/a.js");
        assert!(
            matches!(&events[..], [ProxyEvent::Coerced { key: 4, item: true, position: Some(p), .. }] if p.line == 3)
        );
    }
}
