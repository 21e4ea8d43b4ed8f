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
    },
    /// `name in p` was asked.
    Has {
        /// The parameter.
        key: u32,
        /// Member name.
        name: String,
    },
    /// The proxy was converted to a primitive.
    Coerced {
        /// The parameter.
        key: u32,
        /// The hint the engine gave.
        hint: Hint,
        /// The first frame of the code under test in the stack, if any.
        position: Option<EnginePosition>,
    },
}

impl ProxyEvent {
    /// The parameter the event is about.
    pub fn key(&self) -> u32 {
        match self {
            ProxyEvent::Created { key }
            | ProxyEvent::Called { key }
            | ProxyEvent::Get { key, .. }
            | ProxyEvent::Set { key, .. }
            | ProxyEvent::Has { key, .. }
            | ProxyEvent::Coerced { key, .. } => *key,
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

/// Parses the harness log (flat JSON triples) into the proxies' events and the patterns met; once for
/// both: a log with stacks runs to kilobytes, and a test with recording proxies writes one every run.
/// `is_user_file` tells the code under test's files from the harness and test code in stack frames.
/// Read straight into events and notes, not through a JSON tree: a test of code that validates its
/// input meets a dozen patterns, and the tree cost more than the rest of reading the test back.
pub fn parse_log(json: &str, is_user_file: impl Fn(&str) -> bool) -> (Vec<ProxyEvent>, Vec<PatternNote>) {
    let json = paired_surrogates(json);
    let mut reader = serde_json::Deserializer::from_str(&json);
    serde::Deserializer::deserialize_seq(&mut reader, Triples(is_user_file)).unwrap_or_default()
}

/// The log with every lone surrogate's escape (`\ud800`) made U+FFFD's. JavaScript strings may hold
/// one (a member name the code made, an emoji sliced in half that met a pattern), `JSON.stringify`
/// escapes it, and serde_json refuses it: the whole test's log was lost. U+FFFD is one UTF-16 unit
/// too, so a note's lengths still hold.
fn paired_surrogates(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.contains("\\ud") && !json.contains("\\uD") {
        return std::borrow::Cow::Borrowed(json);
    }
    let unit = |at: usize| {
        json.get(at..at + 6).filter(|e| e.starts_with("\\u")).and_then(|e| u16::from_str_radix(&e[2..], 16).ok())
    };
    let (mut out, mut at, mut copied) = (String::with_capacity(json.len()), 0, 0);
    let bytes = json.as_bytes();
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        let Some(code) = unit(at) else {
            // Another escape (`\\`, `\"`...): its second character is not the start of one.
            at += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&code);
        let paired = high && unit(at + 6).is_some_and(|next| (0xDC00..0xE000).contains(&next));
        if paired {
            at += 12;
        } else if (0xD800..0xE000).contains(&code) {
            out.push_str(&json[copied..at]);
            out.push_str("\\ufffd");
            at += 6;
            copied = at;
        } else {
            at += 6;
        }
    }
    out.push_str(&json[copied..]);
    std::borrow::Cow::Owned(out)
}

/// Reads the log's triples (parameter key, event, detail).
struct Triples<F>(F);

impl<'de, F: Fn(&str) -> bool> serde::de::Visitor<'de> for Triples<F> {
    type Value = (Vec<ProxyEvent>, Vec<PatternNote>);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("the harness's log: (key, event, detail) triples")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let (mut events, mut notes) = (Vec::new(), Vec::new());
        while let Some(key) = seq.next_element::<i64>()? {
            let Some(event) = seq.next_element::<u8>()? else { break };
            let Some(detail) = seq.next_element::<String>()? else { break };
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
                4 => ProxyEvent::Called { key },
                5 => {
                    let (hint, stack) = detail.split_once('\n').unwrap_or((&detail, ""));
                    ProxyEvent::Coerced { key, hint: Hint::from_js(hint), position: first_user_frame(stack, &self.0) }
                }
                _ => continue,
            });
        }
        Ok((events, notes))
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
    fn a_lone_surrogate_costs_its_character_not_the_log() {
        let get = |name: &str| ProxyEvent::Get { key: 0, name: name.into() };
        let read = |log: &str| parse_log(log, |_| true).0;
        assert_eq!(read(r#"[0,1,"\ud800x",0,1,"ok"]"#), [get("\u{fffd}x"), get("ok")]);
        assert_eq!(read(r#"[0,1,"a\udc00",0,1,"\ud800\ud800"]"#), [get("a\u{fffd}"), get("\u{fffd}\u{fffd}")]);
        // A pair is a character; an escaped backslash before `ud800` is text.
        assert_eq!(read(r#"[0,1,"\ud83d\ude00",0,1,"\\ud800"]"#), [get("😀"), get("\\ud800")]);
    }

    #[test]
    fn a_log_that_is_not_triples_gives_nothing() {
        for log in ["", "{}", "[3,0", r#"[3,"get","x"]"#, r#"[-1,6,[0,"a","",null,null,null]]"#] {
            assert_eq!(parse_log(log, |_| true), (Vec::new(), Vec::new()), "{log}");
        }
        // Events of a key no proxy has, and of a number no event has, are left out; so are notes that are
        // not as the patterns write them; the rest is read.
        let (events, notes) =
            parse_log(r#"[-1,1,"x",2,9,"",2,1,"y",-1,6,"9 null  1 a sx",-1,6,"0 null  2 a sx"]"#, |_| true);
        assert_eq!(events, vec![ProxyEvent::Get { key: 2, name: "y".into() }]);
        assert!(notes.is_empty(), "a method the patterns do not number, a source shorter than its length");
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
            matches!(&events[3], ProxyEvent::Coerced { key: 4, hint: Hint::Number, position: Some(p) } if p.line == 2)
        );
    }
}
