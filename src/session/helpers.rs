//! What a method under test must cover besides its own code, and what of its own code it need not.
//!
//! Suites go through the public surface, so code only a public method reaches is part of that method's
//! goal:
//! - the private methods of its class it calls on `this` (`this._up(i)`, or `self._up(i)` from a callback
//!   after `var self = this`): a private method (`_up`, or declared `private`) is no method under test
//!   while its class offers public ones; its mutants still count, and only the tests of the public
//!   methods calling it can kill them;
//! - the functions of its file it calls by plain name, or through a member of an object the file builds
//!   and binds the member of once, that are not under test themselves (`parse(val)`, `const compile = (s)
//!   => ...`, a function of the module's IIFE, `LZString._compress(...)` on the object literal the module
//!   keeps its functions on, `exports._sum(xs)`; see [`crate::analysis::calls`]): an exported function
//!   delegating to them "covers" its own few statements long before their branches, most of a package's
//!   code, are reached; building an instance of a class of the file (`new TokenStream(this, text)`) calls
//!   the prototype's methods it runs, through which a parser the module keeps to itself runs;
//! - the functions other files of its package export that it calls, through a relative `require` or
//!   `import` (`require('./lib/parser').parse(input)`), on the same terms: an entry point that only
//!   delegates "covered" its two statements while the parser it hands the work to, the package, stayed
//!   at the few lines chance reached. A file below another `node_modules` is another package's, and a
//!   function under test in another file (the user named it too) is tested through its own calls.
//!
//! All transitively (`_up` calling `_swap`, `parse` calling `fmtShort`), found in the syntax tree:
//! statically, so that the goal is known before the first candidate runs and does not depend on which
//! paths the candidates took.
//!
//! A function's own code leaves out the functions nested in it that its own run only defines, when it is
//! a factory: the closures of the object it returns (`createParser(cb)` returning `{ feed, reset }`) are
//! methods of the unit it makes, tested through it, and their goals hold them and what they reach
//! (`dispatch`, which `feed` calls). Its goal holding them kept it from ever being covered, spending its
//! whole budget in vain. The factory's other nested functions that its own code does not call by name
//! (`const emit = cb || (() => {})`) are left out too: only what it makes can run them, so they are part of
//! no goal, rather than of one that can never be met. A function that makes no unit keeps its nested
//! functions (a closure it returns bare): tests reach them through nothing else, and its figures say so.
//!
//! Where several methods reach one helper, a test elected for one of them marks the helper's code
//! covered for all ([`Session::share_helpers`]): a later method keeps a test for a helper only for code
//! of it no earlier test reached, so a helper adds at most as many tests as it has statements, whoever
//! calls it.

use std::collections::{BTreeSet, VecDeque};

use crate::analysis::calls::{FileCalls, calls_elsewhere_within, calls_within, link, named_calls};
use crate::analysis::fields::{ThisFields, calls_of_function, this_fields};
use crate::instrument::Function;
use crate::model::program::{ClassId, FunctionRef, ProgramInfo};
use crate::sandbox::CodeBase;

use super::{MethodState, Session};

/// A call found in the syntax tree: of a member of `this`, or of a function of the file by its range.
enum Callee {
    This(String),
    Named(usize, (u32, u32)),
}

/// The syntax facts reaching needs, per file.
struct Reach<'a> {
    code: &'a CodeBase,
    program: &'a ProgramInfo,
    this_calls: Vec<Vec<ThisFields>>,
    named: Vec<FileCalls>,
    /// The methods under test, by class and name.
    tested: BTreeSet<(ClassId, String)>,
}

impl Reach<'_> {
    /// The file and byte range of a function's code, outside Node's built-in modules.
    fn located(&self, function: &FunctionRef) -> Option<(usize, u32, u32)> {
        let file = self.code.files.get(function.file).filter(|f| !f.entry.builtin)?;
        let g = file.instrumented.functions.iter().find(|g| g.statements == function.statements)?;
        Some((function.file, g.start, g.end))
    }

    /// What `function` calls, leaving out the code of `holes`.
    fn calls_of(&self, function: &FunctionRef, holes: &[FunctionRef]) -> Vec<Callee> {
        let Some((file, start, end)) = self.located(function).filter(|_| !function.statements.is_empty()) else {
            return Vec::new();
        };
        let holes: Vec<(u32, u32)> =
            holes.iter().filter_map(|h| self.located(h)).filter(|h| h.0 == file).map(|(_, s, e)| (s, e)).collect();
        let this = calls_of_function(&self.this_calls[file], start, end).into_iter().map(Callee::This);
        let functions = &self.named[file].functions;
        let named = calls_within(functions, start, end, &holes).into_iter().map(|r| Callee::Named(file, r));
        let elsewhere = calls_elsewhere_within(functions, start, end, &holes).into_iter();
        this.chain(named).chain(elsewhere.map(|(file, r)| Callee::Named(file, r))).collect()
    }

    /// The function a call reaches, with the name a report gives it, when it is a helper of a method of
    /// `class`: not under test itself.
    fn helper(&self, class: ClassId, callee: &Callee) -> Option<(String, FunctionRef)> {
        match callee {
            Callee::This(name) => {
                let info = &self.program.classes[class];
                if !info.is_private(name) || self.tested.contains(&(class, name.clone())) {
                    return None;
                }
                Some((name.clone(), info.method(name)?.function.clone()?))
            }
            Callee::Named(file, (start, end)) => {
                let g = self.code.files[*file]
                    .instrumented
                    .functions
                    .iter()
                    .find(|g| g.start == *start && g.end == *end)?;
                let function = reference(*file, g);
                // An exported function (or a public method) is tested through its own calls.
                let public = self.program.classes.iter().any(|c| {
                    c.methods.iter().any(|m| !c.is_private(&m.name) && m.function.as_ref() == Some(&function))
                });
                let name = g.name.clone().unwrap_or_else(|| format!("line {}", g.line));
                (!public).then_some((name, function))
            }
        }
    }

    /// The helpers `own` (a method of `class`) reaches, leaving out the code of `holes`, transitively.
    fn helpers(&self, class: ClassId, own: &FunctionRef, holes: &[FunctionRef]) -> Vec<(String, FunctionRef)> {
        let mut helpers: Vec<(String, FunctionRef)> = Vec::new();
        let mut queue: VecDeque<Callee> = self.calls_of(own, holes).into();
        while let Some(callee) = queue.pop_front() {
            let Some((name, function)) = self.helper(class, &callee) else { continue };
            let overlaps = |f: &FunctionRef| {
                f.statements.start < function.statements.end && function.statements.start < f.statements.end
            };
            if function.statements.is_empty()
                || std::iter::once(own).chain(helpers.iter().map(|(_, f)| f)).any(overlaps)
            {
                continue;
            }
            queue.extend(self.calls_of(&function, &[]));
            helpers.push((name, function));
        }
        helpers
    }

    /// The functions nested in `own` that its goal leaves out: methods of a unit (the closures of the
    /// object a factory returns), the helpers they reach within `own`, and in such a factory the other
    /// closures its own run does not call.
    fn nested(&self, own: &FunctionRef) -> Vec<FunctionRef> {
        let inside = |f: &FunctionRef| {
            f.file == own.file
                && own.statements.start <= f.statements.start
                && f.statements.end <= own.statements.end
                && f.statements != own.statements
                && !f.statements.is_empty()
        };
        let mut nested: Vec<FunctionRef> = Vec::new();
        for (class, info) in self.program.classes.iter().enumerate() {
            for method in info.methods.iter().filter(|m| m.function.as_ref().is_some_and(inside)) {
                let function = method.function.clone().expect("filtered above");
                let reached = self.helpers(class, &function, &[]).into_iter().map(|(_, f)| f).filter(inside);
                for f in std::iter::once(function).chain(reached) {
                    if !nested.contains(&f) {
                        nested.push(f);
                    }
                }
            }
        }
        if !nested.is_empty() {
            nested.extend(self.uncalled_closures(own, &nested));
        }
        nested
    }

    /// The other functions nested in a factory `own` that its own run does not call (those of `holes`
    /// left out): closures only what it makes reaches (`const emit = fn || (() => {})`). They are part
    /// of no goal; the factory's own would hold code its run never executes.
    fn uncalled_closures(&self, own: &FunctionRef, holes: &[FunctionRef]) -> Vec<FunctionRef> {
        let Some((file, start, end)) = self.located(own) else { return Vec::new() };
        let hole_ranges: Vec<(u32, u32)> =
            holes.iter().filter_map(|h| self.located(h)).map(|(_, s, e)| (s, e)).collect();
        let called = calls_within(&self.named[file].functions, start, end, &hole_ranges);
        let within = |g: &Function, (s, e): (u32, u32)| g.start >= s && g.end <= e;
        self.code.files[file]
            .instrumented
            .functions
            .iter()
            .filter(|g| within(g, (start, end)) && (g.start, g.end) != (start, end) && !g.statements.is_empty())
            .filter(|g| !called.iter().chain(&hole_ranges).any(|r| within(g, *r)))
            .map(|g| reference(file, g))
            .collect()
    }
}

/// The file a relative specifier of `file` loads (`require('./lib/parser')`, `import './parse.js'`), when
/// it is of the same package: not one of Node's built-in modules, nor below another `node_modules`.
fn same_package(code: &CodeBase, file: usize, specifier: &str) -> Option<usize> {
    let relative = specifier.starts_with("./") || specifier.starts_with("../") || matches!(specifier, "." | "..");
    let other = *code.files[file].entry.deps.get(specifier).filter(|_| relative)?;
    let packages = |f: usize| {
        let path = &code.files[f].entry.parsed.path;
        path.components().filter(|c| c.as_os_str() == "node_modules").count()
    };
    (!code.files[other].entry.builtin && packages(other) == packages(file)).then_some(other)
}

/// Where the coverage of function `g` of file `file` is counted.
fn reference(file: usize, g: &Function) -> FunctionRef {
    FunctionRef {
        file,
        line: g.line,
        name: g.name.clone(),
        statements: g.statements.clone(),
        branches: g.branches.clone(),
    }
}

/// Gives every method under test the helpers it reaches, and leaves out of its own code the nested
/// functions other goals hold (see the module's text).
pub(super) fn reach_helpers(code: &CodeBase, program: &ProgramInfo, methods: &mut [MethodState]) {
    let mut named: Vec<FileCalls> =
        code.files.iter().map(|f| named_calls(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0)).collect();
    link(&mut named, |file, specifier| same_package(code, file, specifier));
    let reach = Reach {
        code,
        program,
        this_calls: code
            .files
            .iter()
            .map(|f| this_fields(&f.entry.parsed.program, f.entry.parsed.source.start_pos.0))
            .collect(),
        named,
        tested: methods.iter().map(|m| (m.class, m.method.clone())).collect(),
    };
    for m in methods.iter_mut() {
        let Some(own) = m.function.clone() else { continue };
        let nested = reach.nested(&own);
        let helpers = reach.helpers(m.class, &own, &nested);
        m.set_goal(helpers, nested);
    }
}

impl Session {
    /// Marks the helpers' code that a test elected for method `index` covered (`statements` and
    /// `branches`, offsets into its watch) covered for the other methods of its class reaching the same
    /// helpers.
    pub(super) fn share_helpers(&mut self, index: usize, statements: &[u32], branches: &[u32]) {
        let watch = self.methods[index].watch();
        let (own, own_branches) = self.methods[index].own_len();
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
