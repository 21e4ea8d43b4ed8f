//! Calls resolved by name, through the file's own objects, and across files.

use super::*;
use crate::analysis::parse::parse_source;
use std::path::Path;

fn range_of(code: &str, from: &str, to: &str) -> (u32, u32) {
    let start = code.find(from).unwrap();
    (start as u32, (start + code[start..].find(to).unwrap() + to.len()) as u32)
}

#[test]
fn resolves_plain_calls_to_the_functions_of_the_file() {
    let code = "module.exports = function (val, options) { if (typeof val === 'string') return parse(val);\n\
                return [val].map(fmt).concat(compile.call(null, val), shadowed(val)); };\n\
                function parse(str) { return Number(str); }\n\
                const compile = (s) => s + '';\n\
                var fmt = function (n) { return n; };\n\
                function shadowed(x) { return x; }\n\
                function other(shadowed) { return shadowed(1) + parse(2); }";
    let parsed = parse_source(Path::new("/nonexistent/m.js"), "m.js", code.into()).unwrap();
    let all = named_calls(&parsed.program, parsed.source.start_pos.0).functions;
    let exported = range_of(code, "function (val", "};");
    let parse = range_of(code, "function parse", "}");
    let compile = range_of(code, "(s) =>", "''");
    let fmt = range_of(code, "function (n)", "}");
    let shadowed = range_of(code, "function shadowed", "}");
    let calls = calls_within(&all, exported.0, exported.1, &[]);
    assert_eq!(calls, BTreeSet::from([parse, compile, fmt, shadowed]));
    let other = range_of(code, "function other", "}");
    // Its parameter hides the function of the same name.
    assert_eq!(calls_within(&all, other.0, other.1, &[]), BTreeSet::from([parse]));
}

#[test]
fn finds_the_helpers_of_an_iife_and_leaves_out_holes() {
    let code = "(function () { function step(x) { return x + 1; }\n\
                function make() { function feed(c) { return step(c); } return { feed }; }\n\
                window.make = make; })();";
    let parsed = parse_source(Path::new("/nonexistent/i.js"), "i.js", code.into()).unwrap();
    let all = named_calls(&parsed.program, parsed.source.start_pos.0).functions;
    let step = range_of(code, "function step", "; }");
    let make = range_of(code, "function make", "feed }; }");
    let feed = range_of(code, "function feed", "; }");
    assert_eq!(calls_within(&all, make.0, make.1, &[]), BTreeSet::from([step]));
    assert_eq!(calls_within(&all, make.0, make.1, &[feed]), BTreeSet::new());
    assert_eq!(calls_within(&all, feed.0, feed.1, &[]), BTreeSet::from([step]));
}

#[test]
fn resolves_calls_through_the_members_of_the_files_own_objects() {
    let code = "var Codec = (function () { var api = {\n\
                  pack: function (s) { return api._pack(s, 16) + Codec.nope(); },\n\
                  _pack: function (s, bits) { return s; },\n\
                  unpack(s) { return api['_unpack'].call(null, s); },\n\
                  _unpack: (s) => s,\n\
                }; return api; })();\n\
                exports.trim = function (s) { return exports._strip(s) + module.exports._strip(s); };\n\
                exports._strip = function (s) { return s; };\n\
                function Base() {}\n\
                Base.prototype.init = function () { return 1; };\n\
                function Child() { Base.prototype.init.call(this); }\n\
                var twice = { a: function () { return twice.b() + loose.b() + spread.c(); }, b: function () {} };\n\
                twice.b = function () {};\n\
                var loose = { b: function () {} }; loose = {};\n\
                var spread = { ...loose, c: function () {} };\n\
                function param(o) { o.b = function () {}; return o.b(); }";
    let parsed = parse_source(Path::new("/nonexistent/o.js"), "o.js", code.into()).unwrap();
    let all = named_calls(&parsed.program, parsed.source.start_pos.0).functions;
    let pack = range_of(code, "function (s) { return api._pack", "; },");
    let inner_pack = range_of(code, "function (s, bits)", "}");
    assert_eq!(calls_within(&all, pack.0, pack.1 - 1, &[]), BTreeSet::from([inner_pack]));
    let unpack = range_of(code, "unpack(s) {", "; }");
    let arrow = range_of(code, "(s) => s", "=> s");
    assert_eq!(calls_within(&all, unpack.0, unpack.1, &[]), BTreeSet::from([arrow]));
    let trim = range_of(code, "function (s) { return exports._strip", "; }");
    let strip = range_of(code, "function (s) { return s; };", "}");
    assert_eq!(calls_within(&all, trim.0, trim.1, &[]), BTreeSet::from([strip]));
    let child = range_of(code, "function Child", "}");
    let init = range_of(code, "function () { return 1; }", "}");
    assert_eq!(calls_within(&all, child.0, child.1, &[]), BTreeSet::from([init]));
    // A member bound twice, an object assigned again, one with a spread and a parameter's resolve to
    // nothing: what they hold is not known without running the code.
    let ambiguous = range_of(code, "function () { return twice", "; }");
    assert_eq!(calls_within(&all, ambiguous.0, ambiguous.1, &[]), BTreeSet::new());
    let param = range_of(code, "function param", "; }");
    assert_eq!(calls_within(&all, param.0, param.1, &[]), BTreeSet::new());
}

#[test]
fn links_calls_to_what_other_files_export() {
    let entry = "import { parse as read } from './read.mjs';\n\
                 import * as tools from './tools.mjs';\n\
                 import show from './show.cjs';\n\
                 const { trim } = require('./trim.cjs');\n\
                 export function run(s) { return read(s) + tools.pad(s) + show(s) + trim(s) + require('./trim.cjs').cut(s); }";
    let read = "export function parse(s) { return s; }";
    let tools = "const pad = (s) => s; export { pad };";
    let show = "module.exports = function (s) { return s; };";
    let trim = "exports.trim = function (s) { return s; }; exports.cut = function (s) { return s; };";
    let texts = [entry, read, tools, show, trim];
    let mut files: Vec<FileCalls> = texts
        .iter()
        .enumerate()
        .map(|(i, code)| {
            let parsed = parse_source(Path::new(&format!("/nonexistent/{i}.mjs")), "f.mjs", code.to_string()).unwrap();
            named_calls(&parsed.program, parsed.source.start_pos.0)
        })
        .collect();
    let specifiers = ["./read.mjs", "./tools.mjs", "./show.cjs", "./trim.cjs"];
    link(&mut files, |_, specifier| specifiers.iter().position(|s| *s == specifier).map(|i| i + 1));
    let run = range_of(entry, "function run", "; }");
    let elsewhere = calls_elsewhere_within(&files[0].functions, run.0, run.1, &[]);
    let cut = trim.rfind("function (s)").unwrap();
    let expected = BTreeSet::from([
        (1, range_of(read, "function parse", "}")),
        (2, range_of(tools, "(s) => s", "=> s")),
        (3, range_of(show, "function (s)", "}")),
        (4, range_of(trim, "function (s)", "}")),
        (4, (cut as u32, (cut + "function (s) { return s; }".len()) as u32)),
    ]);
    assert_eq!(elsewhere, expected);
}

#[test]
fn a_function_that_builds_a_class_of_the_file_calls_the_methods_it_runs() {
    let code = "function Lexer(text) { this.text = text; this.start(); }\n\
                Lexer.prototype.start = function () { return 0; };\n\
                Lexer.prototype.next = function () { return this.text; };\n\
                Lexer.prototype.peek = function () { return this.next(); };\n\
                Lexer.prototype.unused = function () { return 2; };\n\
                Lexer.peek = function () {};\n\
                class Reader { read() { return 1; } write() { return 3; } }\n\
                function parse(text) { var lexer = new Lexer(text); return [lexer.peek(), new Reader().read(), new Error()]; }";
    let parsed = parse_source(Path::new("/nonexistent/p.js"), "p.js", code.into()).unwrap();
    let all = named_calls(&parsed.program, parsed.source.start_pos.0).functions;
    let start = range_of(code, "function () { return 0", "}");
    let next = range_of(code, "function () { return this.text", "}");
    let peek = range_of(code, "function () { return this.next", "}");
    let read = range_of(code, "read() {", "}");
    let parse = range_of(code, "function parse", "; }");
    // What the constructor and `peek` call run too; `unused`, `write` and the static `peek` do not. The
    // constructor itself is no helper: a class's factory never reaches the checks it makes.
    assert_eq!(calls_within(&all, parse.0, parse.1, &[]), BTreeSet::from([start, next, peek, read]));
}
