//! `generate --shard K/N`: one machine's share of the classes, so that a CI matrix can split a package
//! across machines, and `flycatcher merge`: the shards' reports made one.
//!
//! The classes are sorted by file and name and dealt round-robin: shard K takes every N-th from the K-th.
//! Sorting makes the share independent of the order the files were given in and of the order discovery
//! met the classes; dealing keeps the shards' sizes within one class of each other. Every shard runs
//! with the same seed, and each class's tests depend only on the seed and the class (see [`super::jobs`]),
//! so N shards write the suite one run would.

use std::path::Path;

use serde_json::{Value as Json, json};

use super::merge::merge_reports;
use crate::error::{Error, Result};

/// Shard K of N (K from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 1.
    pub(crate) index: usize,
    /// How many shares.
    pub(crate) count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Shard, String> {
        let wrong = || format!("`{text}` is not a shard: write K/N, e.g. 2/4 for the second of four shares");
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let (index, count) = (index.trim().parse().map_err(|_| wrong())?, count.trim().parse().map_err(|_| wrong())?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {text}: K must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Which of `classes` (file, name) this shard takes, as flags in their order.
    pub(crate) fn takes(&self, classes: &[(&str, &str)]) -> Vec<bool> {
        let mut sorted: Vec<usize> = (0..classes.len()).collect();
        sorted.sort_by_key(|&i| classes[i]);
        let mut taken = vec![false; classes.len()];
        for (rank, &i) in sorted.iter().enumerate() {
            taken[i] = rank % self.count == self.index - 1;
        }
        taken
    }
}

/// `flycatcher merge`: the reports at `paths` (written by `generate --shard K/N --report`) as one
/// report. Shards of other runs (seed, files, N) or given twice, and classes in two reports, are errors.
pub fn merge_files(paths: &[&Path]) -> Result<Json> {
    let mut reports = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Read { file: path.to_path_buf(), source })?;
        let report: Json = serde_json::from_str(&text)
            .map_err(|e| Error::Usage(format!("{}: not a JSON report of flycatcher generate ({e})", path.display())))?;
        reports.push(report);
    }
    let shard = |r: &Json| r["shard"].as_str().and_then(|s| s.parse::<Shard>().ok());
    let first = &reports[0];
    for (path, report) in paths.iter().zip(&reports).skip(1) {
        for (key, what) in [("seed", "seed"), ("sources", "files")] {
            if report[key] != first[key] {
                return Err(Error::Usage(format!(
                    "{}: another run ({what} {} here, {} in {}); merge the shards of one run, made with the same \
                     files and --seed",
                    path.display(),
                    report[key],
                    first[key],
                    paths[0].display()
                )));
            }
        }
        if shard(report).map(|s| s.count) != shard(first).map(|s| s.count) {
            return Err(Error::Usage(format!(
                "{}: shard {} does not split the run as {} (shard {}) does",
                path.display(),
                report["shard"],
                paths[0].display(),
                first["shard"]
            )));
        }
    }
    let mut seen = std::collections::BTreeMap::new();
    for (path, report) in paths.iter().zip(&reports) {
        let names =
            report["classes"].as_array().into_iter().flatten().map(|c| format!("{} ({})", c["name"], c["file"]));
        for class in shard(report).map(|s| format!("shard {s}")).into_iter().chain(names) {
            if let Some(other) = seen.insert(class.clone(), path) {
                return Err(Error::Usage(format!(
                    "{} and {} overlap: both hold {class}; merge each shard once",
                    other.display(),
                    path.display()
                )));
            }
        }
    }
    let mut order: Vec<usize> = (0..reports.len()).collect();
    order.sort_by_key(|&i| shard(&reports[i]).map(|s| s.index));
    let ordered: Vec<Json> = order.iter().map(|&i| reports[i].clone()).collect();
    let mut merged = merge_reports(&ordered);
    merged["sources"] = first["sources"].clone();
    let count = shard(first).map_or(1, |s| s.count);
    merged["shards"] = json!(format!("{} of {count}", reports.len()));
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_sorted_classes_evenly_whatever_their_order() {
        let classes = [("b.js", "B"), ("a.js", "Z"), ("a.js", "A"), ("c.js", "C"), ("a.js", "M")];
        let reversed: Vec<(&str, &str)> = classes.iter().rev().copied().collect();
        let shares = |classes: &[(&str, &str)]| -> Vec<Vec<(String, String)>> {
            (1..=2)
                .map(|index| {
                    let taken = Shard { index, count: 2 }.takes(classes);
                    let mut mine: Vec<(String, String)> = classes
                        .iter()
                        .zip(taken)
                        .filter(|(_, t)| *t)
                        .map(|((f, c), _)| (f.to_string(), c.to_string()))
                        .collect();
                    mine.sort();
                    mine
                })
                .collect()
        };
        let shares_given = shares(&classes);
        assert_eq!(shares_given, shares(&reversed), "the order files are given in does not matter");
        assert_eq!(shares_given[0].len() + shares_given[1].len(), 5);
        assert_eq!(shares_given[0].len(), 3, "{shares_given:?}");
    }

    #[test]
    fn shards_are_parsed_and_checked() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for wrong in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(wrong.parse::<Shard>().is_err(), "{wrong}");
        }
    }
}
