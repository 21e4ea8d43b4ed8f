//! Mutation scores per class and method, with the mutants that were not killed: a table for people and a
//! JSON document for scripts (`mutate --report`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value as Json, json};

use super::{Analysis, Mutant, Score, Status};
use crate::model::program::{ClassId, ProgramInfo};

/// `file:line:col` of a mutant.
pub(crate) fn position(program: &ProgramInfo, mutant: &Mutant) -> String {
    format!("{}:{}:{}", program.files[mutant.file].display, mutant.line, mutant.column)
}

/// The classes and their methods that have mutants, in order of first mutant.
fn groups(analysis: &Analysis) -> Vec<(ClassId, Vec<String>)> {
    let mut groups: Vec<(ClassId, Vec<String>)> = Vec::new();
    for m in &analysis.mutants {
        let at = match groups.iter().position(|(c, _)| *c == m.class) {
            Some(at) => at,
            None => {
                groups.push((m.class, Vec::new()));
                groups.len() - 1
            }
        };
        if !groups[at].1.contains(&m.method) {
            groups[at].1.push(m.method.clone());
        }
    }
    groups
}

fn percent(score: &Score) -> String {
    score.percent().map_or("-".to_string(), |p| format!("{p:.1}%"))
}

/// How many mutants ended as `status`.
fn count(analysis: &Analysis, status: &Status) -> usize {
    analysis.mutants.iter().filter(|m| m.status == *status).count()
}

/// One line: the mutation score, what it counts, and how long the analysis took.
pub fn headline(analysis: &Analysis) -> String {
    let total = analysis.score();
    let mut invalid: BTreeMap<&str, usize> = BTreeMap::new();
    for mutant in analysis.mutants.iter().filter(|m| m.status == Status::Invalid) {
        *invalid.entry(analysis.languages.get(mutant.file).copied().unwrap_or("JavaScript")).or_default() += 1;
    }
    let invalid: String = invalid.iter().map(|(language, n)| format!(", {n} not valid {language}")).collect();
    let unjudged = count(analysis, &Status::Unjudged);
    format!(
        "mutation score: {} ({} of {} non-equivalent mutants killed; {} presumed equivalent{}{}; {:.2} s)",
        percent(&total),
        total.killed,
        total.killed + total.survived + total.uncovered,
        total.equivalent,
        invalid,
        match (unjudged, analysis.capped) {
            (0, _) => String::new(),
            (_, false) => format!(", {unjudged} not judged within the budget"),
            (_, true) => format!(", {unjudged} not judged within the time cap"),
        },
        analysis.elapsed.as_secs_f64()
    )
}

/// The table of scores and the list of mutants not killed, for people, with the `seed` the analysis drew
/// its random tests from and what the machine's speed decided.
pub fn summary(analysis: &Analysis, program: &ProgramInfo, seed: u64) -> String {
    let mut text = String::new();
    let total = analysis.score();
    let _ = writeln!(
        text,
        "mutation analysis: {} mutants, {} tests, {} runs in {:.2} s (seed {seed})",
        total.total(),
        analysis.tests.len(),
        analysis.runs,
        analysis.elapsed.as_secs_f64()
    );
    let _ =
        writeln!(text, "{:<32} {:>7} {:>7} {:>8} {:>9} {:>7}", "", "killed", "alive", "equiv.", "uncovered", "score");
    let row = |text: &mut String, name: &str, score: &Score| {
        let _ = writeln!(
            text,
            "{name:<32} {:>7} {:>7} {:>8} {:>9} {:>7}",
            score.killed,
            score.survived,
            score.equivalent,
            score.uncovered,
            percent(score)
        );
    };
    for (class, methods) in groups(analysis) {
        let of_class = || analysis.mutants.iter().filter(move |m| m.class == class);
        row(&mut text, &program.classes[class].name, &Score::of(of_class()));
        for method in methods {
            row(&mut text, &format!("  {method}"), &Score::of(of_class().filter(|m| m.method == method)));
        }
    }
    let _ = writeln!(text, "{}", headline(analysis));
    for (title, status) in [
        ("surviving mutants", Status::Survived),
        ("uncovered mutants (no test runs their statement)", Status::Uncovered),
        ("presumed equivalent mutants (random tests never told them apart)", Status::Equivalent),
    ] {
        let listed: Vec<&Mutant> = analysis.mutants.iter().filter(|m| m.status == status).collect();
        if listed.is_empty() {
            continue;
        }
        let _ = writeln!(text, "{title}:");
        for m in listed {
            let _ = writeln!(
                text,
                "  {} {}.{} {}: {} → {}",
                position(program, m),
                program.classes[m.class].name,
                m.method,
                m.edit.operator.name(),
                m.original,
                m.mutated
            );
        }
    }
    for warning in machine_dependent(analysis) {
        let _ = writeln!(text, "warning: {warning}");
    }
    text
}

/// What the wall clock rather than counted work decided in `analysis`: the same seed may then give
/// another score on a quieter or busier machine.
fn machine_dependent(analysis: &Analysis) -> Vec<String> {
    let mut warnings = Vec::new();
    if analysis.capped {
        warnings.push(
            "the analysis was stopped by its time cap (--timeout) before its work budget: this score may differ \
             on another machine"
                .to_string(),
        );
    }
    let runs = analysis.time_capped;
    if runs > 0 {
        warnings.push(format!(
            "{runs} test run{} ended by the time cap of --test-timeout-ms before {} work limit (the machine was \
             busy): this score may differ on another machine",
            if runs == 1 { " was" } else { "s were" },
            if runs == 1 { "its" } else { "their" },
        ));
    }
    warnings
}

fn counts(score: &Score) -> Json {
    json!({
        "score": score.percent(),
        "mutants": score.total(),
        "killed": score.killed,
        "survived": score.survived,
        "equivalent": score.equivalent,
        "uncovered": score.uncovered,
    })
}

fn mutant_json(program: &ProgramInfo, m: &Mutant) -> Json {
    json!({
        "at": position(program, m),
        "file": program.files[m.file].display,
        "line": m.line,
        "column": m.column,
        "operator": m.edit.operator.name(),
        "original": m.original,
        "mutated": m.mutated,
    })
}

/// The JSON report: scores per class and method, the mutants not killed, and totals.
pub fn json_report(analysis: &Analysis, program: &ProgramInfo, seed: u64) -> Json {
    let listed = |mutants: &[&Mutant], status: Status| -> Vec<Json> {
        mutants.iter().filter(|m| m.status == status).map(|m| mutant_json(program, m)).collect()
    };
    let classes: Vec<Json> = groups(analysis)
        .into_iter()
        .map(|(class, methods)| {
            let of_class: Vec<&Mutant> = analysis.mutants.iter().filter(|m| m.class == class).collect();
            let methods: Vec<Json> = methods
                .iter()
                .map(|method| {
                    let mine: Vec<&Mutant> = of_class.iter().copied().filter(|m| m.method == *method).collect();
                    let mut entry = counts(&Score::of(mine.iter().copied()));
                    entry["name"] = json!(method);
                    entry["survivors"] = json!(listed(&mine, Status::Survived));
                    entry["killed_mutants"] = json!(
                        mine.iter()
                            .filter_map(|m| match &m.status {
                                Status::Killed { test, reason } => {
                                    let mut entry = mutant_json(program, m);
                                    entry["by"] = json!(analysis.tests[*test].title);
                                    entry["reason"] = json!(reason);
                                    Some(entry)
                                }
                                _ => None,
                            })
                            .collect::<Vec<_>>()
                    );
                    entry["uncovered_mutants"] = json!(listed(&mine, Status::Uncovered));
                    entry["equivalent_mutants"] = json!(listed(&mine, Status::Equivalent));
                    entry
                })
                .collect();
            let mut entry = counts(&Score::of(of_class.iter().copied()));
            entry["name"] = json!(program.classes[class].name);
            entry["methods"] = json!(methods);
            entry
        })
        .collect();
    let mut report = counts(&analysis.score());
    report["invalid"] = json!(count(analysis, &Status::Invalid));
    report["unjudged"] = json!(count(analysis, &Status::Unjudged));
    report["tests"] = json!(analysis.tests.len());
    report["runs"] = json!(analysis.runs);
    report["capped"] = json!(analysis.capped);
    report["time_capped_runs"] = json!(analysis.time_capped);
    report["elapsed_ms"] = json!(analysis.elapsed.as_millis() as u64);
    report["seed"] = json!(seed);
    report["classes"] = json!(classes);
    report
}
