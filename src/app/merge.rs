//! One JSON report from the reports of disjoint shares of a run's classes: the units of `--jobs` (in class
//! order) and the shards of `--shard`, brought together by `flycatcher merge`. Counts and times add up,
//! classes follow one another in the order given, warnings said by several shares are said once, and a
//! parameter type is taken from the share that tested its class (every share learns the types of the
//! classes its own classes need, so the same parameter may be decided by several).

use std::collections::BTreeSet;

use serde_json::{Value as Json, json};

/// The fields that add up across shares (at the top of the report, then under `time`).
const SUMS: [&str; 7] = ["executions", "elapsed_ms", "elected", "kept", "failing", "work", "passes_work"];
const TIME_SUMS: [&str; 4] = ["generating_ms", "minimising_ms", "mutation_ms", "stability_ms"];

/// Merges `reports` (each the report of a run over other classes, with one seed) in their order.
pub(crate) fn merge_reports(reports: &[Json]) -> Json {
    let mut merged = json!({});
    for key in SUMS {
        merged[key] = json!(reports.iter().filter_map(|r| r[key].as_u64()).sum::<u64>());
    }
    let mut time = json!({});
    for key in TIME_SUMS {
        time[key] = json!(reports.iter().filter_map(|r| r["time"][key].as_u64()).sum::<u64>());
    }
    merged["time"] = time;
    merged["seed"] = reports.first().map_or(Json::Null, |r| r["seed"].clone());
    merged["budget"] = reports.first().map_or(Json::Null, |r| r["budget"].clone());
    let items = |key: &'static str| reports.iter().flat_map(move |r| r[key].as_array().cloned().unwrap_or_default());
    merged["classes"] = json!(items("classes").collect::<Vec<_>>());
    merged["types"] = json!(types(reports));
    merged["unstable"] = json!(items("unstable").collect::<Vec<_>>());
    merged["changed"] = json!(items("changed").collect::<Vec<_>>());
    merged["reopened"] = json!(items("reopened").collect::<Vec<_>>());
    let mut said = BTreeSet::new();
    merged["warnings"] = json!(items("warnings").filter(|w| said.insert(w.to_string())).collect::<Vec<_>>());
    merged
}

/// Decided parameter types: those of each share's own classes first, then those of classes no share
/// tested, from the first share that decided them.
fn types(reports: &[Json]) -> Vec<Json> {
    let own =
        |report: &Json, ty: &Json| report["classes"].as_array().into_iter().flatten().any(|c| c["name"] == ty["class"]);
    let key = |ty: &Json| (ty["class"].to_string(), ty["function"].to_string(), ty["parameter"].to_string());
    let mut seen = BTreeSet::new();
    let mut types = Vec::new();
    for mine in [true, false] {
        for report in reports {
            for ty in report["types"].as_array().into_iter().flatten() {
                if own(report, ty) == mine && seen.insert(key(ty)) {
                    types.push(ty.clone());
                }
            }
        }
    }
    types
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(class: &str, executions: u64, types: Json, warnings: Json) -> Json {
        json!({
            "executions": executions, "elapsed_ms": 10, "elected": 1, "failing": 0, "seed": 7,
            "time": { "generating_ms": 10, "minimising_ms": 1, "stability_ms": 2 },
            "classes": [{ "name": class, "methods": [] }],
            "types": types, "unstable": [], "warnings": warnings,
        })
    }

    #[test]
    fn counts_add_up_and_types_come_from_the_share_that_tested_their_class() {
        let ty =
            |class: &str, ty: &str| json!({ "class": class, "function": "constructor", "parameter": "x", "type": ty });
        let a = report("A", 5, json!([ty("B", "string"), ty("A", "number"), ty("C", "number")]), json!(["w", "a"]));
        let b = report("B", 6, json!([ty("B", "number"), ty("C", "string")]), json!(["w"]));
        let merged = merge_reports(&[a, b]);
        assert_eq!(merged["executions"], 11);
        assert_eq!(merged["time"]["stability_ms"], 4);
        assert_eq!(merged["classes"].as_array().unwrap().len(), 2);
        assert_eq!(merged["warnings"], json!(["w", "a"]));
        let decided: Vec<String> =
            merged["types"].as_array().unwrap().iter().map(|t| format!("{}:{}", t["class"], t["type"])).collect();
        assert_eq!(decided, ["\"A\":\"number\"", "\"B\":\"number\"", "\"C\":\"number\""]);
    }
}
