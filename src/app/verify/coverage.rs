//! Coverage as c8 measured it: its `coverage-summary.json` (istanbul's summary), line and branch counts
//! of every file it reports, and their total.

use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use crate::error::{Error, Result};

/// Covered and total counts of one kind (lines, branches).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Count {
    /// Covered.
    pub(crate) covered: u64,
    /// In all.
    pub(crate) total: u64,
    /// Covered in percent, as c8 rounds it (100 when there is nothing to cover).
    pub(crate) pct: f64,
}

impl Count {
    fn read(json: &Json) -> Count {
        let number = |key: &str| json.get(key).and_then(Json::as_u64).unwrap_or(0);
        // c8 writes "Unknown" for a percentage of nothing.
        let pct = json.get("pct").and_then(Json::as_f64).unwrap_or(100.0);
        Count { covered: number("covered"), total: number("total"), pct }
    }

    /// The count as JSON.
    pub(crate) fn json(&self) -> Json {
        json!({ "covered": self.covered, "total": self.total, "pct": self.pct })
    }
}

/// One file's coverage.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FileCoverage {
    /// The file.
    pub(crate) path: PathBuf,
    /// Its lines.
    pub(crate) lines: Count,
    /// Its branches.
    pub(crate) branches: Count,
}

/// What c8 reported.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Coverage {
    /// Every file measured, in path order.
    pub(crate) files: Vec<FileCoverage>,
    /// Lines of them all.
    pub(crate) lines: Count,
    /// Branches of them all.
    pub(crate) branches: Count,
}

impl Coverage {
    /// Reads `coverage-summary.json` in `reports`.
    pub(crate) fn read(reports: &Path) -> Result<Coverage> {
        let path = reports.join("coverage-summary.json");
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Read { file: path.clone(), source })?;
        let json: Json = serde_json::from_str(&text)
            .map_err(|e| Error::Usage(format!("{}: c8's summary is not JSON ({e})", path.display())))?;
        Ok(Coverage::from_summary(&json))
    }

    fn from_summary(json: &Json) -> Coverage {
        let mut files: Vec<FileCoverage> = json
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, _)| key.as_str() != "total")
            .map(|(key, entry)| FileCoverage {
                path: PathBuf::from(key),
                lines: Count::read(&entry["lines"]),
                branches: Count::read(&entry["branches"]),
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let total = &json["total"];
        Coverage { files, lines: Count::read(&total["lines"]), branches: Count::read(&total["branches"]) }
    }

    /// The coverage as JSON.
    pub(crate) fn json(&self) -> Json {
        json!({
            "lines": self.lines.json(),
            "branches": self.branches.json(),
            "files": self.files.iter().map(|f| json!({
                "file": f.path.display().to_string(),
                "lines": f.lines.json(),
                "branches": f.branches.json(),
            })).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_read_per_file_and_in_total() {
        let summary = json!({
            "total": {"lines": {"total": 10, "covered": 9, "pct": 90}, "branches": {"total": 0, "covered": 0, "pct": "Unknown"}},
            "/b.js": {"lines": {"total": 4, "covered": 4, "pct": 100}, "branches": {"total": 0, "covered": 0, "pct": 100}},
            "/a.js": {"lines": {"total": 6, "covered": 5, "pct": 83.33}, "branches": {"total": 0, "covered": 0, "pct": 100}},
        });
        let coverage = Coverage::from_summary(&summary);
        assert_eq!(coverage.files[0].path, PathBuf::from("/a.js"));
        assert_eq!(coverage.files[0].lines, Count { covered: 5, total: 6, pct: 83.33 });
        assert_eq!(coverage.lines.pct, 90.0);
        assert_eq!(coverage.branches.pct, 100.0, "nothing to cover is all covered");
    }
}
