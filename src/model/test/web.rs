//! Instances of Node's global web classes (`URL`, `Headers`, `AbortSignal`...), as arguments: built as a
//! user builds them (`new URL("https://example.com/a?b=1")`, `new AbortController().signal`), the same
//! text in the sandbox (the harness builds them from the globals the sandbox gives, `js/node/*.js`) and
//! in every exported suite (Node's own globals).

use crate::js::literal;

/// A global web class a declaration may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebClass {
    /// `URL`.
    Url,
    /// `URLSearchParams`.
    SearchParams,
    /// `Headers`.
    Headers,
    /// `Blob`.
    Blob,
    /// `AbortSignal`.
    AbortSignal,
    /// `AbortController`.
    AbortController,
    /// `EventTarget`.
    EventTarget,
    /// `TextEncoder`.
    TextEncoder,
    /// `TextDecoder`.
    TextDecoder,
}

/// Every class, with the name declarations and code give it.
const NAMES: [(WebClass, &str); 9] = [
    (WebClass::Url, "URL"),
    (WebClass::SearchParams, "URLSearchParams"),
    (WebClass::Headers, "Headers"),
    (WebClass::Blob, "Blob"),
    (WebClass::AbortSignal, "AbortSignal"),
    (WebClass::AbortController, "AbortController"),
    (WebClass::EventTarget, "EventTarget"),
    (WebClass::TextEncoder, "TextEncoder"),
    (WebClass::TextDecoder, "TextDecoder"),
];

impl WebClass {
    /// The class a global name stands for.
    pub fn named(name: &str) -> Option<WebClass> {
        NAMES.iter().find(|(_, n)| *n == name).map(|(class, _)| *class)
    }

    /// Its global name.
    pub fn name(self) -> &'static str {
        NAMES.iter().find(|(class, _)| *class == self).map_or("", |(_, name)| name)
    }
}

/// An instance of a web class, by what builds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Web {
    /// `new URL(href)`.
    Url(String),
    /// `new URLSearchParams(query)`.
    SearchParams(String),
    /// `new Headers({ name: value, ... })`.
    Headers(Vec<(String, String)>),
    /// `new Blob([text])`.
    Blob(String),
    /// `AbortSignal.abort()` when aborted, else `new AbortController().signal`.
    Signal {
        /// Whether it is aborted already.
        aborted: bool,
    },
    /// `new AbortController()`.
    Controller,
    /// `new EventTarget()`.
    EventTarget,
    /// `new TextEncoder()`.
    TextEncoder,
    /// `new TextDecoder()`.
    TextDecoder,
}

impl Web {
    /// Its class.
    pub fn class(&self) -> WebClass {
        match self {
            Web::Url(_) => WebClass::Url,
            Web::SearchParams(_) => WebClass::SearchParams,
            Web::Headers(_) => WebClass::Headers,
            Web::Blob(_) => WebClass::Blob,
            Web::Signal { .. } => WebClass::AbortSignal,
            Web::Controller => WebClass::AbortController,
            Web::EventTarget => WebClass::EventTarget,
            Web::TextEncoder => WebClass::TextEncoder,
            Web::TextDecoder => WebClass::TextDecoder,
        }
    }

    /// Its code in the harness format (`{"w": [code, text]}`), kept by manifests.
    pub(crate) fn code(&self) -> u8 {
        match self {
            Web::Url(_) => 0,
            Web::SearchParams(_) => 1,
            Web::Headers(_) => 2,
            Web::Blob(_) => 3,
            Web::Signal { aborted: false } => 4,
            Web::Signal { aborted: true } => 5,
            Web::Controller => 6,
            Web::EventTarget => 7,
            Web::TextEncoder => 8,
            Web::TextDecoder => 9,
        }
    }

    /// The instance of a code and its text (a `Headers`'s entries are its text's lines, a name and a value
    /// apart by a tab), as [`Web::code`] and [`Web::text`] give them.
    pub(crate) fn from_code(code: u64, text: &str) -> Option<Web> {
        Some(match code {
            0 => Web::Url(text.to_string()),
            1 => Web::SearchParams(text.to_string()),
            2 => Web::Headers(
                text.lines().filter_map(|l| l.split_once('\t')).map(|(n, v)| (n.to_string(), v.to_string())).collect(),
            ),
            3 => Web::Blob(text.to_string()),
            4 | 5 => Web::Signal { aborted: code == 5 },
            6 => Web::Controller,
            7 => Web::EventTarget,
            8 => Web::TextEncoder,
            9 => Web::TextDecoder,
            _ => return None,
        })
    }

    /// The one text it is built from, as the harness format holds it (see [`Web::from_code`]).
    pub(crate) fn text(&self) -> String {
        match self {
            Web::Url(text) | Web::SearchParams(text) | Web::Blob(text) => text.clone(),
            Web::Headers(entries) => entries.iter().map(|(n, v)| format!("{n}\t{v}\n")).collect(),
            _ => String::new(),
        }
    }

    /// The JavaScript that builds it, the same in a script, a CommonJS module, an ES module and TypeScript.
    pub(crate) fn javascript(&self) -> String {
        match self {
            Web::Url(href) => format!("new URL({})", literal::string(href)),
            Web::SearchParams(query) => format!("new URLSearchParams({})", literal::string(query)),
            Web::Headers(entries) if entries.is_empty() => "new Headers()".into(),
            Web::Headers(entries) => {
                let entries: Vec<String> =
                    entries.iter().map(|(n, v)| format!("{}: {}", literal::string(n), literal::string(v))).collect();
                format!("new Headers({{ {} }})", entries.join(", "))
            }
            Web::Blob(text) => format!("new Blob([{}])", literal::string(text)),
            Web::Signal { aborted: true } => "AbortSignal.abort()".into(),
            Web::Signal { aborted: false } => "new AbortController().signal".into(),
            Web::Controller => "new AbortController()".into(),
            Web::EventTarget => "new EventTarget()".into(),
            Web::TextEncoder => "new TextEncoder()".into(),
            Web::TextDecoder => "new TextDecoder()".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_instance_comes_back_from_its_code_and_text() {
        let all = [
            Web::Url("https://example.com/a?b=1".into()),
            Web::SearchParams("a=1&b=2".into()),
            Web::Headers(vec![("content-type".into(), "text/plain".into()), ("x-id".into(), "7".into())]),
            Web::Blob("hello".into()),
            Web::Signal { aborted: false },
            Web::Signal { aborted: true },
            Web::Controller,
            Web::EventTarget,
            Web::TextEncoder,
            Web::TextDecoder,
        ];
        for web in all {
            assert_eq!(Web::from_code(u64::from(web.code()), &web.text()), Some(web.clone()));
            assert_eq!(WebClass::named(web.class().name()), Some(web.class()));
        }
        assert_eq!(
            Web::Headers(vec![("accept".into(), "*/*".into())]).javascript(),
            "new Headers({ \"accept\": \"*/*\" })"
        );
    }
}
