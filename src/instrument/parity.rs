//! Syntax QuickJS compiles otherwise than the specification says (and V8 does), rewritten in the
//! instrumented copy only: the exported tests run the original code under Node, and must see there
//! what the sandbox saw (`js/parity.js` corrects the built-ins; this, what no built-in does).
//!
//! A string spread into an object literal (`{ ...'ab' }`) copies its characters by index, `{ 0: 'a',
//! 1: 'b' }`; QuickJS-ng copies nothing (luxon's `Duration` spreads its `values`, a string when a test
//! gives one, and its suite failed under Node). Each operand of an object spread goes through
//! [`SPREAD`] (`js/probes.js`), which makes a string a `String` object, whose characters QuickJS does
//! copy, and answers anything else as it is, unconverted (a recording proxy sees nothing).

use swc_common::Spanned;
use swc_common::util::take::Take;
use swc_ecma_ast::{Program, SpreadElement};
use swc_ecma_visit::{VisitMut, VisitMutWith};

use super::writes::call;
use crate::js::SPREAD;

/// Rewrites every object spread of `program` (see the module's documentation).
pub(super) fn spread_strings(program: &mut Program) {
    program.visit_mut_with(&mut Spreads);
}

struct Spreads;

impl VisitMut for Spreads {
    // Object literals' spreads only: an array's or a call's (`ExprOrSpread`) iterate, as in V8.
    fn visit_mut_spread_element(&mut self, spread: &mut SpreadElement) {
        spread.visit_mut_children_with(self);
        let at = spread.expr.span().lo;
        spread.expr = call(SPREAD, [spread.expr.take()], at);
    }
}
