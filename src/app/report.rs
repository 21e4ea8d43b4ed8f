//! Summaries of a run: a table for people and a JSON document for scripts.

use serde_json::{Value as Json, json};

use crate::model::program::CONSTRUCTOR;
use crate::session::{MethodState, Session, Status};

/// The JSON report (`--report FILE.json`).
pub fn json_report(session: &Session) -> Json {
    let program = session.subject().program();
    let classes: Vec<Json> = program
        .classes
        .iter()
        .enumerate()
        .filter(|(id, _)| session.methods().iter().any(|m| m.class == *id))
        .map(|(id, class)| {
            let goals = session.methods().iter().filter(|m| m.class == id);
            let (constructors, methods): (Vec<&MethodState>, Vec<&MethodState>) =
                goals.partition(|m| m.method == CONSTRUCTOR);
            let methods: Vec<Json> = methods.into_iter().map(goal).collect();
            let mut entry =
                json!({ "name": class.name, "file": program.files[class.file].display, "methods": methods });
            // Apart from the methods: a constructor's code may hold checks no caller keeping to the class's
            // declarations passes (an argument its own helpers alone give), and "methods fully covered"
            // counts what users call on an instance.
            if let Some(constructor) = constructors.first() {
                entry["constructor"] = goal(constructor);
            }
            entry
        })
        .collect();
    let types: Vec<Json> = session
        .subject()
        .types()
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
                "source": decision.source.name(),
                "declared": r.declared.as_ref().map(|d| d.text.as_str()),
                "uses": r.uses,
            })
        })
        .collect();
    json!({
        "executions": session.executions(),
        "elapsed_ms": session.elapsed().as_millis() as u64,
        "work": session.methods().iter().map(|m| m.work).sum::<u64>(),
        "passes_work": session.passes().work,
        "time": {
            "generating_ms": session.elapsed().as_millis() as u64,
            "minimising_ms": session.passes().minimising.as_millis() as u64,
            "mutation_ms": session.passes().mutation.as_millis() as u64,
            "stability_ms": session.passes().stability.as_millis() as u64,
        },
        "seed": session.settings().seed,
        "budget": session.settings().budget,
        "elected": session.suite().elected.len(),
        "kept": session.suite().kept.tests.iter().filter(|k| k.written.is_some()).count(),
        "changed": session.suite().kept.changed.iter().map(|c| json!({
            "class": program.classes[c.class].name,
            "method": c.method,
            "title": c.title,
            "reason": c.reason,
            "accepted": c.accepted,
            "log": format!("{}.changed.log", crate::export::suite_stem(program, c.class)),
        })).collect::<Vec<Json>>(),
        "reopened": session.suite().kept.reopened.iter().map(|r| json!({
            "class": program.classes[r.class].name,
            "method": r.method,
            "why": r.why,
        })).collect::<Vec<Json>>(),
        "failing": session.suite().failing.len(),
        "classes": classes,
        "types": types,
        "unstable": session.suite().unstable.iter().map(|u| json!({
            "class": program.classes[u.class].name,
            "method": u.method,
            "what": u.what,
            "test_dropped": u.test_dropped,
        })).collect::<Vec<Json>>(),
        "warnings": session.warnings(),
    })
}

/// One goal's entry of the JSON report: a method's, or a constructor's under test.
fn goal(m: &MethodState) -> Json {
    json!({
        "name": m.method,
        // The counts below include these private methods' code: tests reach it through this method (see
        // `session/helpers.rs`).
        "helpers": m.helpers(),
        "statements": m.covered.len(),
        "covered": m.covered_count(),
        "branches": m.branches.len(),
        "branches_covered": m.branches_covered(),
        "elected": m.elected,
        "failing": m.failing,
        "executions": m.executions,
        "work": m.work,
        "time_to_full_ms": m.time_to_full.map(|t| t.as_millis() as u64),
        "stop": match m.status { Status::Done(reason) => reason.name(), _ => "running" },
        "warnings": m.warnings,
    })
}

/// The human summary: one line per method, then warnings.
pub fn summary(session: &Session) -> String {
    text(&json_report(session))
}

/// The human summary of a JSON report (one session's, or several merged: see [`super::merge`]).
pub fn text(report: &Json) -> String {
    // Every goal, a class's constructor under test first: each has its line, but the constructors are
    // counted apart from the methods.
    let methods: Vec<(String, &Json)> = report["classes"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|class| {
            let name = class["name"].as_str().unwrap_or_default();
            let methods = class["methods"].as_array().into_iter().flatten();
            class
                .get("constructor")
                .into_iter()
                .chain(methods)
                .map(move |m| (format!("{name}.{}", m["name"].as_str().unwrap_or_default()), m))
        })
        .collect();
    let number = |json: &Json| json.as_u64().unwrap_or_default();
    let seconds = |json: &Json| number(json) as f64 / 1000.0;
    let name_width = methods.iter().map(|(name, _)| name.len()).max().unwrap_or(10).max(6);
    let mut out = format!(
        "{:<name_width$}  {:>10}  {:>9}  {:>7}  {:>7}  {:>8}\n",
        "method", "statements", "branches", "elected", "failing", "stop"
    );
    for (name, m) in &methods {
        out.push_str(&format!(
            "{name:<name_width$}  {:>10}  {:>9}  {:>7}  {:>7}  {:>8}\n",
            format!("{}/{}", number(&m["covered"]), number(&m["statements"])),
            format!("{}/{}", number(&m["branches_covered"]), number(&m["branches"])),
            number(&m["elected"]),
            number(&m["failing"]),
            m["stop"].as_str().unwrap_or_default()
        ));
    }
    let reaching: Vec<String> = methods
        .iter()
        .filter_map(|(name, m)| {
            let helpers: Vec<&str> = m["helpers"].as_array()?.iter().filter_map(Json::as_str).collect();
            (!helpers.is_empty()).then(|| format!("{name} ({})", helpers.join(", ")))
        })
        .collect();
    if !reaching.is_empty() {
        out.push_str(&format!(
            "statements and branches include the private methods and module functions each calls, tested through it: {}\n",
            reaching.join(", ")
        ));
    }
    let (full_methods, count) = fully_covered(&methods, false);
    out.push_str(&format!(
        "{} of {} methods fully covered; {} tests elected, {} failing logged; {} candidates in {:.1} s; seed {}\n",
        full_methods,
        count,
        number(&report["elected"]),
        number(&report["failing"]),
        number(&report["executions"]),
        seconds(&report["elapsed_ms"]),
        number(&report["seed"])
    ));
    let (full_constructors, constructors) = fully_covered(&methods, true);
    if constructors > 0 {
        out.push_str(&format!(
            "{full_constructors} of {constructors} constructors under test fully covered (goals of their own, \
             apart from the methods)\n"
        ));
    }
    let time = &report["time"];
    out.push_str(&format!(
        "time: generating {:.1} s, minimising {:.1} s, mutation analysis {:.1} s, stability {:.1} s
",
        seconds(&time["generating_ms"]),
        seconds(&time["minimising_ms"]),
        seconds(&time["mutation_ms"]),
        seconds(&time["stability_ms"])
    ));
    out.push_str(&format!(
        "work: generating {} units, passes {} units (budget {} units a method)\n",
        number(&report["work"]),
        number(&report["passes_work"]),
        number(&report["budget"]),
    ));
    if let Some(workers) = time["workers"].as_u64() {
        out.push_str(&format!("workers: {workers} ({:.1} s from start to end)\n", seconds(&time["wall_ms"])));
    }
    out.push_str(&update_lines(report));
    let unstable = report["unstable"].as_array().map(Vec::as_slice).unwrap_or_default();
    if !unstable.is_empty() {
        let tests = unstable.iter().filter(|u| u["test_dropped"] == true).count();
        out.push_str(&format!(
            "{} assertions and {tests} tests dropped: they changed when the tests ran again (see the warnings)\n",
            unstable.len() - tests
        ));
    }
    let run_warnings = report["warnings"].as_array().into_iter().flatten().filter_map(Json::as_str).map(String::from);
    let method_warnings = methods.iter().flat_map(|(name, m)| {
        m["warnings"].as_array().into_iter().flatten().filter_map(Json::as_str).map(move |w| format!("{name}: {w}"))
    });
    for w in run_warnings.chain(method_warnings) {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}

/// Of the goals that are constructors under test (else of the methods), how many are fully covered, and
/// how many there are.
fn fully_covered(goals: &[(String, &Json)], constructors: bool) -> (usize, usize) {
    let goals: Vec<&Json> =
        goals.iter().map(|(_, m)| *m).filter(|m| (m["name"] == CONSTRUCTOR) == constructors).collect();
    (goals.iter().filter(|m| m["covered"] == m["statements"]).count(), goals.len())
}

/// What an update kept and what changed (see [`super::update`]): nothing for a run that wrote its suite
/// anew.
fn update_lines(report: &Json) -> String {
    let kept = report["kept"].as_u64().unwrap_or_default();
    let changed = report["changed"].as_array().map(Vec::as_slice).unwrap_or_default();
    let reopened = report["reopened"].as_array().map(Vec::as_slice).unwrap_or_default();
    if kept == 0 && changed.is_empty() && reopened.is_empty() {
        return String::new();
    }
    let accepted = changed.iter().filter(|c| c["accepted"] == true).count();
    let mut out = format!(
        "update: {kept} tests kept as written, {} changed behaviour ({} set aside, {accepted} rewritten to the new \
         behaviour)\n",
        changed.len(),
        changed.len() - accepted
    );
    for c in changed {
        let text = |key: &str| c[key].as_str().unwrap_or_default().to_string();
        let what = if c["accepted"] == true { "rewritten" } else { "set aside" };
        out.push_str(&format!(
            "changed: {}.{}: {}: {} ({what}; see {})\n",
            text("class"),
            text("method"),
            text("title"),
            text("reason"),
            text("log")
        ));
    }
    for r in reopened {
        let text = |key: &str| r[key].as_str().unwrap_or_default().to_string();
        out.push_str(&format!("reopened: {}.{}: {}\n", text("class"), text("method"), text("why")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constructor_under_test_has_its_line_but_is_counted_apart_from_the_methods() {
        let goal = |name: &str, covered: u64| {
            json!({ "name": name, "statements": 4, "covered": covered, "branches": 2, "branches_covered": 1,
                    "elected": 1, "failing": 0, "stop": "stale", "helpers": [], "warnings": [] })
        };
        let class = json!({ "name": "Bytes", "methods": [goal("at", 4)], "constructor": goal("constructor", 3) });
        let text = text(&json!({ "classes": [class], "seed": 1 }));
        assert!(text.contains("Bytes.constructor         3/4"), "{text}");
        assert!(text.contains("1 of 1 methods fully covered;"), "{text}");
        assert!(text.contains("0 of 1 constructors under test fully covered"), "{text}");
    }
}
