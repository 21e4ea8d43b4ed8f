//! Summaries of a run: a table for people and a JSON document for scripts.

use serde_json::{Value as Json, json};

use crate::session::{Session, Status};

/// The JSON report (`--report FILE.json`).
pub fn json_report(session: &Session) -> Json {
    let program = &session.program;
    let classes: Vec<Json> = program
        .classes
        .iter()
        .enumerate()
        .filter(|(id, _)| session.methods.iter().any(|m| m.class == *id))
        .map(|(id, class)| {
            let methods: Vec<Json> = session
                .methods
                .iter()
                .filter(|m| m.class == id)
                .map(|m| {
                    json!({
                        "name": m.method,
                        "statements": m.covered.len(),
                        "covered": m.covered_count(),
                        "branches": m.branches.len(),
                        "branches_covered": m.branches_covered(),
                        "elected": m.elected,
                        "failing": m.failing,
                        "executions": m.executions,
                        "time_to_full_ms": m.time_to_full.map(|t| t.as_millis() as u64),
                        "stop": match m.status { Status::Done(reason) => reason.name(), _ => "running" },
                        "warnings": m.warnings,
                    })
                })
                .collect();
            json!({ "name": class.name, "file": program.files[class.file].display, "methods": methods })
        })
        .collect();
    let types: Vec<Json> = session
        .types
        .records()
        .iter()
        .filter(|r| r.decision.is_some())
        .map(|r| {
            let decision = r.decision.as_ref().expect("filtered on decisions");
            json!({
                "class": program.classes[r.key.class].name,
                "function": r.key.function,
                "parameter": r.name,
                "type": decision.ty.name(program),
                "evidence": decision.evidence,
                "uses": r.uses,
            })
        })
        .collect();
    json!({
        "executions": session.executions,
        "elapsed_ms": session.elapsed.as_millis() as u64,
        "time": {
            "generating_ms": session.elapsed.as_millis() as u64,
            "minimising_ms": session.passes.minimising.as_millis() as u64,
            "mutation_ms": session.passes.mutation.as_millis() as u64,
            "stability_ms": session.passes.stability.as_millis() as u64,
        },
        "seed": session.settings().seed,
        "classes": classes,
        "types": types,
        "unstable": session.suite.unstable.iter().map(|u| json!({
            "class": program.classes[u.class].name,
            "method": u.method,
            "what": u.what,
            "test_dropped": u.test_dropped,
        })).collect::<Vec<Json>>(),
        "warnings": session.warnings,
    })
}

/// The human summary: one line per method, then warnings.
pub fn summary(session: &Session) -> String {
    let program = &session.program;
    let mut out = String::new();
    let name_width = session
        .methods
        .iter()
        .map(|m| program.classes[m.class].name.len() + m.method.len() + 1)
        .max()
        .unwrap_or(10)
        .max(6);
    out.push_str(&format!(
        "{:<name_width$}  {:>10}  {:>9}  {:>7}  {:>7}  {:>8}\n",
        "method", "statements", "branches", "elected", "failing", "stop"
    ));
    for m in &session.methods {
        let name = format!("{}.{}", program.classes[m.class].name, m.method);
        let stop = match m.status {
            Status::Done(reason) => reason.name(),
            _ => "running",
        };
        out.push_str(&format!(
            "{name:<name_width$}  {:>10}  {:>9}  {:>7}  {:>7}  {:>8}\n",
            format!("{}/{}", m.covered_count(), m.covered.len()),
            format!("{}/{}", m.branches_covered(), m.branches.len()),
            m.elected,
            m.failing,
            stop
        ));
    }
    let full = session.methods.iter().filter(|m| m.covered_count() == m.covered.len()).count();
    out.push_str(&format!(
        "{} of {} methods fully covered; {} tests elected, {} failing logged; {} candidates in {:.1} s; seed {}\n",
        full,
        session.methods.len(),
        session.suite.elected.len(),
        session.suite.failing.len(),
        session.executions,
        session.elapsed.as_secs_f64(),
        session.settings().seed
    ));
    out.push_str(&format!(
        "time: generating {:.1} s, minimising {:.1} s, mutation analysis {:.1} s, stability {:.1} s\n",
        session.elapsed.as_secs_f64(),
        session.passes.minimising.as_secs_f64(),
        session.passes.mutation.as_secs_f64(),
        session.passes.stability.as_secs_f64()
    ));
    if !session.suite.unstable.is_empty() {
        let tests = session.suite.unstable.iter().filter(|u| u.test_dropped).count();
        out.push_str(&format!(
            "{} assertions and {tests} tests dropped: they changed when the tests ran again (see the warnings)\n",
            session.suite.unstable.len() - tests
        ));
    }
    let warnings: Vec<String> = session
        .warnings
        .iter()
        .cloned()
        .chain(session.methods.iter().flat_map(|m| {
            m.warnings.iter().map(move |w| format!("{}.{}: {w}", program.classes[m.class].name, m.method))
        }))
        .collect();
    for w in warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}
