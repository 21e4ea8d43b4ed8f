//! Syntax QuickJS compiles otherwise than the specification says (and V8 does), rewritten in the
//! instrumented copy only: the exported tests run the original code under Node, and must see there
//! what the sandbox saw (`js/parity.js` corrects the built-ins; this, what no built-in does).
//!
//! A string spread into an object literal (`{ ...'ab' }`) copies its characters by index, `{ 0: 'a',
//! 1: 'b' }`; QuickJS-ng copies nothing (luxon's `Duration` spreads its `values`, a string when a test
//! gives one, and its suite failed under Node). Each operand of an object spread goes through
//! [`SPREAD`] (`js/probes.js`), which makes a string a `String` object, whose characters QuickJS does
//! copy, and answers anything else as it is, unconverted (a recording proxy sees nothing).
//!
//! A RegExp literal with the `v` flag (`/^(-?\d*):(-?\d*)$/v`, `/;;;|;;/gv`) is refused by QuickJS-ng's
//! parser when a `-` or a doubled punctuator (`;;`, `&&`, `==`...) stands outside any character class:
//! it checks class-set syntax there as inside a class, where the specification alone forbids them, and
//! the whole module failed to load (jsonpath-plus). The copy writes such characters outside classes as
//! `\xNN` escapes (see [`unicode_sets_pattern`]), the same characters to the matcher. The literal's
//! `source` then reads the escapes; a test asserting it would differ under Node, which is rarer than a
//! module that loads.

use swc_common::Spanned;
use swc_common::util::take::Take;
use swc_ecma_ast::{Program, Regex, SpreadElement};
use swc_ecma_visit::{VisitMut, VisitMutWith};

use super::writes::call;
use crate::js::SPREAD;

/// Rewrites every object spread of `program` and the patterns of its RegExp literals with the `v` flag
/// (see the module's documentation), in one walk.
pub(super) fn rewrite(program: &mut Program) {
    program.visit_mut_with(&mut Parity);
}

struct Parity;

impl VisitMut for Parity {
    // Object literals' spreads only: an array's or a call's (`ExprOrSpread`) iterate, as in V8.
    fn visit_mut_spread_element(&mut self, spread: &mut SpreadElement) {
        spread.visit_mut_children_with(self);
        let at = spread.expr.span().lo;
        spread.expr = call(SPREAD, [spread.expr.take()], at);
    }

    fn visit_mut_regex(&mut self, regex: &mut Regex) {
        if regex.flags.contains('v')
            && let Some(pattern) = unicode_sets_pattern(&regex.exp)
        {
            regex.exp = pattern.into();
        }
    }
}

/// The characters QuickJS-ng refuses outside a class under the `v` flag when doubled (the
/// specification's reserved double punctuators; the parser itself reads `$`, `*`, `+`, `.`, `?` and `^`
/// outside a class).
const DOUBLED: &[char] = &['&', '!', '#', '%', ',', ':', ';', '<', '=', '>', '@', '`', '~'];

/// `pattern` with each `-`, and each punctuator of [`DOUBLED`] the same one follows, outside character
/// classes written as a `\xNN` escape; None when it holds none. Escapes are copied as they are, with the
/// braces or angle brackets after `\p`, `\P`, `\u`, `\k` and `\q`, and so are group openings
/// (`(?<=`, `(?<name>`): only atoms change.
fn unicode_sets_pattern(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut depth = 0usize;
    let mut changed = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                out.push(c);
                i += 1;
                let Some(&escaped) = chars.get(i) else { break };
                out.push(escaped);
                i += 1;
                let close = match (escaped, chars.get(i)) {
                    ('p' | 'P' | 'u' | 'q', Some('{')) => Some('}'),
                    ('k', Some('<')) => Some('>'),
                    _ => None,
                };
                if let Some(close) = close {
                    while let Some(&inner) = chars.get(i) {
                        out.push(inner);
                        i += 1;
                        if inner == close {
                            break;
                        }
                    }
                }
                continue;
            }
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            '(' if depth == 0 && chars.get(i + 1) == Some(&'?') => {
                // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: copied up to the group's body.
                let mut end = i + 2;
                if chars.get(end) == Some(&'<') {
                    end += 1;
                    if !matches!(chars.get(end), Some('=' | '!')) {
                        while end < chars.len() && chars[end] != '>' {
                            end += 1;
                        }
                    }
                }
                let end = (end + 1).min(chars.len());
                out.extend(&chars[i..end]);
                i = end;
                continue;
            }
            '-' if depth == 0 => {
                out.push_str("\\x2d");
                changed = true;
                i += 1;
                continue;
            }
            c if depth == 0 && DOUBLED.contains(&c) && chars.get(i + 1) == Some(&c) => {
                out.push_str(&format!("\\x{:02x}", c as u32));
                changed = true;
                i += 1;
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::unicode_sets_pattern;

    #[test]
    fn a_v_patterns_dashes_and_doubled_punctuators_outside_classes_become_escapes() {
        assert_eq!(unicode_sets_pattern(r"^(-?\d*):(-?\d*)$").as_deref(), Some(r"^(\x2d?\d*):(\x2d?\d*)$"));
        assert_eq!(unicode_sets_pattern(";;;|;;").as_deref(), Some(r"\x3b\x3b;|\x3b;"));
        // Inside a class (nested ones too), after a backslash, and in group openings nothing changes.
        assert_eq!(unicode_sets_pattern(r"[a-z[0-9]]\-(?<=x)(?<n>y)\p{Script=Greek}"), None);
        assert_eq!(unicode_sets_pattern(r"[\]-]a-b").as_deref(), Some(r"[\]-]a\x2db"));
    }
}
