//! Node's built-in modules as the sandbox offers them. The pure ones libraries lean on are host-free
//! versions written to behave as Node's (`node/events.js`, `util.js`, `assert.js`, `path.js`,
//! `string_decoder.js`, `buffer.js`), loaded like the program's own CommonJS files; the `process` module is
//! the host-free global `process` (code reading its command line while it loads imports it as often as it
//! reads the global); what a library reads of `tty`, `cluster`, `worker_threads`, `timers` and `crypto`
//! while it loads or at call time is host-free too, answering as under `node --test` (no terminal, the
//! primary process, the main thread, the virtual clock's timers, the seeded Web Crypto object), their
//! parts that reach the host being stand-ins;
//! every other built-in (the file system, the network, processes, the operating system,
//! threads...) is a stand-in (`node/host.js`) that loads, so the rest of a library stays testable, and
//! throws "no host access in the sandbox" when used. `node/globals.js` gives every context Node's
//! host-free globals: `Buffer`, `TextEncoder`, `TextDecoder`.

/// How the sandbox offers one built-in module.
enum Offer {
    /// A host-free implementation.
    Source(&'static str),
    /// `module.exports = <expression>`: another name for (a part of) a module.
    Alias(&'static str),
    /// A stand-in whose every use throws "no host access in the sandbox".
    StandIn,
    /// A host-free implementation whose parts that reach the host are stand-ins (`standIn(path)`).
    Partly(&'static str),
}

const MODULES: &[(&str, Offer)] = &[
    ("assert", Offer::Source(include_str!("node/assert.js"))),
    ("assert/strict", Offer::Alias("require('assert').strict")),
    ("buffer", Offer::Source(include_str!("node/buffer.js"))),
    ("cluster", Offer::Partly(include_str!("node/cluster.js"))),
    ("console", Offer::Alias("globalThis.console")),
    ("crypto", Offer::Partly(include_str!("node/crypto.js"))),
    ("events", Offer::Source(include_str!("node/events.js"))),
    ("path", Offer::Source(include_str!("node/path.js"))),
    ("path/posix", Offer::Alias("require('path')")),
    ("string_decoder", Offer::Source(include_str!("node/string_decoder.js"))),
    ("sys", Offer::Alias("require('util')")),
    ("timers", Offer::Partly(include_str!("node/timers.js"))),
    ("timers/promises", Offer::Partly(include_str!("node/timers-promises.js"))),
    ("tty", Offer::Partly(include_str!("node/tty.js"))),
    ("util", Offer::Source(include_str!("node/util.js"))),
    ("util/types", Offer::Alias("require('util').types")),
    ("worker_threads", Offer::Partly(include_str!("node/worker-threads.js"))),
    ("async_hooks", Offer::StandIn),
    ("child_process", Offer::StandIn),
    ("constants", Offer::StandIn),
    ("dgram", Offer::StandIn),
    ("diagnostics_channel", Offer::StandIn),
    ("dns", Offer::StandIn),
    ("dns/promises", Offer::StandIn),
    ("domain", Offer::StandIn),
    ("fs", Offer::StandIn),
    ("fs/promises", Offer::StandIn),
    ("http", Offer::StandIn),
    ("http2", Offer::StandIn),
    ("https", Offer::StandIn),
    ("inspector", Offer::StandIn),
    ("module", Offer::StandIn),
    ("net", Offer::StandIn),
    ("os", Offer::StandIn),
    ("path/win32", Offer::StandIn),
    ("perf_hooks", Offer::StandIn),
    ("process", Offer::Alias("globalThis.process")),
    ("punycode", Offer::StandIn),
    ("querystring", Offer::StandIn),
    ("readline", Offer::StandIn),
    ("readline/promises", Offer::StandIn),
    ("repl", Offer::StandIn),
    ("stream", Offer::StandIn),
    ("stream/consumers", Offer::StandIn),
    ("stream/promises", Offer::StandIn),
    ("stream/web", Offer::StandIn),
    ("tls", Offer::StandIn),
    ("trace_events", Offer::StandIn),
    ("url", Offer::StandIn),
    ("v8", Offer::StandIn),
    ("vm", Offer::StandIn),
    ("wasi", Offer::StandIn),
    ("zlib", Offer::StandIn),
];

/// Built-ins Node knows only with the `node:` prefix.
const PREFIX_ONLY: &[&str] = &["sea", "sqlite", "test", "test/reporters"];

/// The maker of stand-ins (`standIn(path)`), which the module's exports follow.
const HOST_JS: &str = include_str!("node/host.js");

/// Node's host-free globals (`Buffer`, `TextEncoder`, `TextDecoder`, the timers), installed in every
/// context before the code under test.
pub(crate) const GLOBALS_JS: &str = include_str!("node/globals.js");

/// The code of `Buffer`, `TextEncoder`, `TextDecoder` and `Blob`, read into a context when one is first used
/// (see [`GLOBALS_JS`]).
const ENCODING_JS: &str = include_str!("node/encoding.js");

/// The code of the events (`Event`, `CustomEvent`, `EventTarget`), `AbortController`, `AbortSignal` and
/// `structuredClone`, read into a context when one is first used (see [`GLOBALS_JS`]).
const WEB_JS: &str = include_str!("node/web.js");

/// The code of `URL` and `URLSearchParams`, read into a context when one is first used.
const URL_JS: &str = include_str!("node/url.js");

/// The code of `Headers`, read into a context when first used.
const HEADERS_JS: &str = include_str!("node/headers.js");

/// The code of the script of Node's globals named `name` (`encoding`, `web`, `url`, `headers`), which
/// `globals.js` has the engine read in when one of its globals is first used: most code under test
/// never uses them, and a context is built for every test.
pub(crate) fn lazy_script(name: &str) -> Option<&'static str> {
    match name {
        "encoding" => Some(ENCODING_JS),
        "web" => Some(WEB_JS),
        "url" => Some(URL_JS),
        "headers" => Some(HEADERS_JS),
        _ => None,
    }
}

/// The prefix of the name a built-in module has in the sandbox, as Node writes it in stacks: `node:events`.
pub(crate) const PREFIX: &str = "node:";

/// The name of the built-in module `specifier` names (`events` for `events` and `node:events`), if it
/// names one.
pub(crate) fn builtin(specifier: &str) -> Option<&'static str> {
    let prefixed = specifier.strip_prefix(PREFIX);
    let bare = prefixed.unwrap_or(specifier);
    if let Some((name, _)) = MODULES.iter().find(|(name, _)| *name == bare) {
        return Some(name);
    }
    prefixed.and_then(|bare| PREFIX_ONLY.iter().find(|name| **name == bare).copied())
}

/// The CommonJS source of built-in module `name` (as [`builtin`] answers it).
pub(crate) fn source(name: &str) -> Option<String> {
    if PREFIX_ONLY.contains(&name) {
        return Some(stand_in(name));
    }
    MODULES.iter().find(|(n, _)| *n == name).map(|(_, offer)| match offer {
        Offer::Source(text) => (*text).to_string(),
        Offer::Alias(expression) => format!("'use strict';\nmodule.exports = {expression};\n"),
        Offer::StandIn => stand_in(name),
        Offer::Partly(text) => format!("{HOST_JS}{text}"),
    })
}

fn stand_in(name: &str) -> String {
    format!("{HOST_JS}module.exports = standIn('{name}');\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_and_without_the_prefix() {
        assert_eq!(builtin("events"), Some("events"));
        assert_eq!(builtin("node:events"), Some("events"));
        assert_eq!(builtin("path/posix"), Some("path/posix"));
        assert_eq!(builtin("node:test"), Some("test"));
        assert_eq!(builtin("test"), None, "a package named test, not a built-in");
        assert_eq!(builtin("lodash"), None);
        assert!(source("fs").unwrap().contains("module.exports = standIn('fs');"));
        assert!(source("assert/strict").unwrap().contains("require('assert').strict"));
    }
}
