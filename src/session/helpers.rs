//! The private helpers a method under test reaches. Suites go through the public surface, so a private
//! method (`_up`, or declared `private`) is no method under test while its class offers public ones; its
//! mutants still count, and only the tests of the public methods calling it can kill them. A public
//! method's goal therefore holds the code of the private methods it calls on `this` (`this._up(i)`),
//! transitively (`_up` calling `_swap`), found in the syntax tree: statically, so that the goal is known
//! before the first candidate runs and does not depend on which paths the candidates took. Where several
//! methods reach one helper, a test elected for one of them marks the helper's code covered for all
//! ([`Session::share_helpers`]): a later method keeps a test for a helper only for code of it no earlier
//! test reached, so a helper adds at most as many tests as it has statements, whoever calls it.

use std::collections::{BTreeSet, VecDeque};

use crate::analysis::fields::{ThisFields, calls_of_function, this_fields};
use crate::model::program::{FunctionRef, ProgramInfo};
use crate::sandbox::CodeBase;

use super::{MethodState, Session};

/// Gives every method under test the private helpers of its class it reaches (see the module's text).
pub(super) fn reach_helpers(code: &CodeBase, program: &ProgramInfo, methods: &mut [MethodState]) {
    let syntax: Vec<Vec<ThisFields>> =
        code.files.iter().map(|f| this_fields(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    let calls_of = |function: &FunctionRef| -> BTreeSet<String> {
        code.function_of_statement(function.statements.start)
            .filter(|(file, _)| !function.statements.is_empty() && !code.files[*file].entry.builtin)
            .map(|(file, f)| calls_of_function(&syntax[file], f.start, f.end))
            .unwrap_or_default()
    };
    let tested: BTreeSet<(usize, String)> = methods.iter().map(|m| (m.class, m.method.clone())).collect();
    for m in methods.iter_mut() {
        let Some(own) = m.function.clone() else { continue };
        let class = &program.classes[m.class];
        let mut helpers: Vec<(String, FunctionRef)> = Vec::new();
        let mut seen = BTreeSet::from([m.method.clone()]);
        let mut queue: VecDeque<String> = calls_of(&own).into_iter().collect();
        while let Some(name) = queue.pop_front() {
            if !seen.insert(name.clone()) || !class.is_private(&name) || tested.contains(&(m.class, name.clone())) {
                continue;
            }
            let Some(function) = class.method(&name).and_then(|h| h.function.clone()) else { continue };
            let overlaps = |f: &FunctionRef| {
                f.statements.start < function.statements.end && function.statements.start < f.statements.end
            };
            if function.statements.is_empty()
                || std::iter::once(&own).chain(helpers.iter().map(|(_, f)| f)).any(overlaps)
            {
                continue;
            }
            queue.extend(calls_of(&function));
            helpers.push((name, function));
        }
        m.reaching(helpers);
    }
}

impl Session {
    /// Marks the helpers' code that a test elected for method `index` covered (`statements` and
    /// `branches`, offsets into its watch) covered for the other methods of its class reaching the same
    /// helpers.
    pub(super) fn share_helpers(&mut self, index: usize, statements: &[u32], branches: &[u32]) {
        let watch = self.methods[index].watch();
        let own = self.methods[index].function.as_ref().map_or(0, |f| f.statements.len() as u32);
        let own_branches = self.methods[index].function.as_ref().map_or(0, |f| f.branches.len() as u32);
        let statements: Vec<u32> =
            statements.iter().filter(|s| **s >= own).filter_map(|s| watch.statement_id(*s)).collect();
        let branches: Vec<u32> =
            branches.iter().filter(|b| **b >= own_branches).filter_map(|b| watch.branch_id(*b)).collect();
        if statements.is_empty() && branches.is_empty() {
            return;
        }
        let class = self.methods[index].class;
        for (other, m) in self.methods.iter_mut().enumerate() {
            if other == index || m.class != class || m.helpers.is_empty() {
                continue;
            }
            let watch = m.watch();
            for offset in statements.iter().filter_map(|id| watch.statement_offset(*id)) {
                m.covered[offset as usize] = true;
            }
            for offset in branches.iter().filter_map(|id| watch.branch_offset(*id)) {
                m.branches[offset as usize] = true;
            }
        }
    }
}
