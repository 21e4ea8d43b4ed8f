//! The instrumenter's unit tests, by concept, with the runtime they load instrumented code into.

mod distance;
mod implied;
mod patterns;
mod probes;
mod sites;
mod writes;

use std::path::Path;

use rquickjs::context::EvalOptions;
use rquickjs::{Context, Runtime};

use super::*;
use crate::analysis::parse::parse_source;
use crate::js::{
    BRANCHES, COMPARE, DISTANCE_TEST, DISTANCES, FORGET, HAS_SETTER, JOURNAL_BINDING, JOURNAL_COLLECTION,
    JOURNAL_MEMBER, JOURNAL_PRIVATE, MEASURING, OBSERVE, RUNTIME_JS, SHARED_WRITE, STACK, STATEMENTS, SWITCH_CASES,
    TRUTHY,
};

fn parse(text: &str) -> ParsedFile {
    parse_source(Path::new("/nonexistent/code.js"), "code.js", text.to_string()).unwrap()
}

fn options(filename: &str) -> EvalOptions {
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = false;
    options.filename = Some(filename.to_string());
    options
}

/// A runtime with the probe arrays, the helpers and `code` (as "code.js") loaded.
struct Loaded {
    runtime: Runtime,
    context: Context,
    /// The probes the code leaves out, which [`Loaded::hits`] puts back as the sandbox does.
    implied: Implied,
}

impl Loaded {
    /// `prelude` runs first, as "prelude.js".
    fn new(code: &str, statements: usize, branches: usize, prelude: &str) -> Loaded {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let arrays = format!(
                "globalThis.{STATEMENTS} = new Uint8Array({}); globalThis.{BRANCHES} = new Uint8Array({branches}); \
                 globalThis.{DISTANCES} = new Float64Array({branches}).fill(Infinity);",
                statements.max(1),
                branches = branches.max(1)
            );
            ctx.eval_with_options::<(), _>(arrays, options("setup.js")).unwrap();
            ctx.eval_with_options::<(), _>(RUNTIME_JS, options("runtime.js")).unwrap();
            ctx.eval_with_options::<(), _>(prelude, options("prelude.js")).unwrap();
            if let Err(e) = ctx.eval_with_options::<(), _>(code, options("code.js")) {
                panic!("{e}: {:?}\n{code}", ctx.catch());
            }
        });
        Loaded { runtime, context, implied: Implied::default() }
    }

    fn instrumented(inst: &Instrumented, prelude: &str) -> Loaded {
        let loaded = Loaded::new(&inst.code, inst.statements.len(), inst.branches.len(), prelude);
        Loaded { implied: inst.implied.clone(), ..loaded }
    }

    fn eval<T: for<'js> rquickjs::FromJs<'js>>(&self, code: &str) -> T {
        self.context.with(|ctx| match ctx.eval_with_options::<T, _>(code, options("test.js")) {
            Ok(v) => v,
            Err(e) => panic!("{e}: {:?}\nin {code}", ctx.catch()),
        })
    }

    /// Runs `expr` (maybe a promise) to completion and gives its JSON, or "threw ..." .
    fn settle(&self, expr: &str) -> String {
        self.eval::<()>(&format!(
            "globalThis.__out = undefined; Promise.resolve().then(() => {expr}).then(\
             v => {{ globalThis.__out = JSON.stringify(v); }}, e => {{ globalThis.__out = 'threw ' + e; }});"
        ));
        while self.runtime.execute_pending_job().unwrap() {}
        self.eval("String(globalThis.__out)")
    }

    /// The ids the probes of `array` marked, with those they imply.
    fn hits(&self, array: &str) -> Vec<u32> {
        let read = |array: &str| self.eval::<Vec<u8>>(&format!("Array.from({array})"));
        let mut statements = read(STATEMENTS);
        self.implied.expand_statements(0..statements.len() as u32, &mut statements, |_| false);
        let mut bytes = if array == STATEMENTS { statements.clone() } else { read(array) };
        if array == BRANCHES {
            let ran = |id: u32| statements.get(id as usize) == Some(&1);
            self.implied.expand_branches(0..bytes.len() as u32, &mut bytes, ran);
        }
        bytes.iter().enumerate().filter(|(_, b)| **b == 1).map(|(i, _)| i as u32).collect()
    }

    fn reset(&self) {
        self.eval::<()>(&format!(
            "{STATEMENTS}.fill(0); {BRANCHES}.fill(0); {DISTANCES}.fill(Infinity); {STACK}[0] = 0;"
        ));
    }
}

/// The original text of statement `id`, first line only.
fn statement_text<'a>(file: &'a ParsedFile, inst: &Instrumented, id: u32) -> &'a str {
    let s = &inst.statements[id as usize];
    file.text()[s.start as usize..s.end as usize].lines().next().unwrap().trim()
}

fn branch_text(inst: &Instrumented, id: u32) -> String {
    let b = &inst.branches[id as usize];
    format!("{}:{:?}:{}", b.line, b.kind, b.outcome)
}

/// Checks which statement each branch outcome of `code` guards (see `Branch::guards`), in branch order.
fn assert_guards(code: &str, expected: &[(&str, Option<&str>)]) {
    let file = parse(code);
    let inst = instrument(&file, 0, 0, true);
    let guarded: Vec<(String, Option<&str>)> = inst
        .branches
        .iter()
        .enumerate()
        .map(|(id, b)| (branch_text(&inst, id as u32), b.guards.map(|s| statement_text(&file, &inst, s))))
        .collect();
    let expected: Vec<(String, Option<&str>)> = expected.iter().map(|(b, s)| (b.to_string(), *s)).collect();
    assert_eq!(guarded, expected);
}
