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
pub fn parse_log(json: &str, is_user_file: impl Fn(&str) -> bool) -> (Vec<ProxyEvent>, Vec<PatternNote>) {
    let Ok(serde_json::Value::Array(items)) = serde_json::from_str::<serde_json::Value>(json) else {
        return (Vec::new(), Vec::new());
    };
    (events(&items, is_user_file), notes(&items))
}

/// The patterns met, from the log's triples of event 6 (see `js/patterns.js`).
fn notes(items: &[serde_json::Value]) -> Vec<PatternNote> {
    items
        .chunks_exact(3)
        .filter(|triple| triple[1].as_u64() == Some(6))
        .filter_map(|triple| {
            let key = triple[0].as_i64().and_then(|k| u32::try_from(k).ok());
            let detail: serde_json::Value = serde_json::from_str(triple[2].as_str()?).ok()?;
            let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
            let separator = text(detail.get(4)?);
            Some(PatternNote {
                key,
                subject: text(detail.get(3)?),
                method: PATTERN_METHODS.get(detail.get(0)?.as_u64()? as usize)?.to_string(),
                source: text(detail.get(1)?)?,
                flags: text(detail.get(2)?)?,
                separator,
                pieces: detail.get(5).and_then(serde_json::Value::as_u64).map(|n| n as usize),
            })
        })
        .collect()
}

/// The proxies' events, from the log's triples.
fn events(items: &[serde_json::Value], is_user_file: impl Fn(&str) -> bool) -> Vec<ProxyEvent> {
    items
        .chunks_exact(3)
        .filter_map(|triple| {
            let key = triple[0].as_u64()? as u32;
            let detail = triple[2].as_str().unwrap_or_default();
            Some(match triple[1].as_u64()? {
                0 => ProxyEvent::Created { key },
                1 => ProxyEvent::Get { key, name: detail.to_string() },
                2 => ProxyEvent::Set { key, name: detail.to_string() },
                3 => ProxyEvent::Has { key, name: detail.to_string() },
                4 => ProxyEvent::Called { key },
                5 => {
                    let (hint, stack) = detail.split_once('\n').unwrap_or((detail, ""));
                    ProxyEvent::Coerced {
                        key,
                        hint: Hint::from_js(hint),
                        position: first_user_frame(stack, &is_user_file),
                    }
                }
                _ => return None,
            })
        })
        .collect()
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
        let log = r#"[3,0,"",3,6,"[0,\"^\\\\d+$\",\"i\",null,null,null]",-1,6,"[2,\"[SH]\",\"\",\"AS KH\",\" \",2]",-1,6,"[7,\",\",\"\",\"a,b\",null,2]"]"#;
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
