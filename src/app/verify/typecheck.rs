//! The type check of TypeScript suites: `tsc --noEmit --strict` on the suite files, against the user's code,
//! under the project's own `tsconfig.json` when it has one (extended, with strictness forced), else under a
//! configuration of ours (`module: preserve`, which takes ES modules and TypeScript's CommonJS syntax alike,
//! with bundler resolution, which takes `.js`, `.ts` and extensionless specifiers alike).
//! Each error tsc reports in a suite file is a failure of the suite; errors in the user's own files are
//! theirs, and not counted.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::runner::{Outcome, Tools};
use crate::error::{Error, Result};

/// What the check is called in reports: each of its errors is a failed "test" of this name and its place.
pub(crate) const CHECK: &str = "tsc --noEmit --strict";

/// Type-checks `suites` (absolute paths) against the code they import; `code` is a file of the code under
/// test, from which the project's `tsconfig.json` is looked for. `scratch` is a folder of ours for the
/// configuration. Returns one failed outcome per error in a suite file.
pub(crate) fn check(tools: &Tools, suites: &[PathBuf], code: Option<&Path>, scratch: &Path) -> Result<Vec<Outcome>> {
    let config = scratch.join("tsconfig.json");
    let text = configuration(tools, suites, code.and_then(project_config).as_deref());
    std::fs::write(&config, text).map_err(|source| Error::Write { path: config.clone(), source })?;
    let output = std::process::Command::new(tools.bin("tsc"))
        .args(["--project", &config.display().to_string(), "--pretty", "false"])
        .current_dir(scratch)
        .output()
        .map_err(|e| Error::Usage(format!("cannot run tsc ({}): {e}", tools.bin("tsc").display())))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() && !stdout.contains("error TS") {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(Error::Usage(format!("{CHECK} did not run: {}{}", stdout.trim(), stderr.trim())));
    }
    Ok(errors(&stdout, scratch, suites))
}

/// The nearest `tsconfig.json` in the folders above `code`.
fn project_config(code: &Path) -> Option<PathBuf> {
    let absolute = code.canonicalize().ok()?;
    absolute.ancestors().skip(1).map(|dir| dir.join("tsconfig.json")).find(|config| config.is_file())
}

/// The configuration of the check: the project's extended, or ours.
fn configuration(tools: &Tools, suites: &[PathBuf], project: Option<&Path>) -> String {
    let modules = tools.node_modules.display().to_string();
    let mut options = json!({
        "noEmit": true,
        "strict": true,
        "skipLibCheck": true,
        // Projects whose imports name `.ts` files, and suites that follow them, need it (with noEmit).
        "allowImportingTsExtensions": true,
        "types": ["node"],
        "typeRoots": [format!("{modules}/@types")],
    });
    let mut config = json!({ "files": suites.iter().map(|s| s.display().to_string()).collect::<Vec<_>>() });
    match project {
        Some(project) => config["extends"] = json!(project.display().to_string()),
        None => {
            for (key, value) in [
                ("target", json!("es2022")),
                ("module", json!("preserve")),
                ("moduleResolution", json!("bundler")),
                ("esModuleInterop", json!(true)),
                // The runners' own types (vitest, @jest/globals) from the node_modules the runners come from.
                ("paths", json!({ "*": [format!("{modules}/*")] })),
            ] {
                options[key] = value;
            }
        }
    }
    config["compilerOptions"] = options;
    serde_json::to_string_pretty(&config).unwrap_or_default()
}

/// The errors tsc printed (`file(line,col): error TSnnnn: message`, continued on indented lines) that are
/// in one of `suites`; files are named relative to `cwd`.
fn errors(stdout: &str, cwd: &Path, suites: &[PathBuf]) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut in_suite = false;
    for line in stdout.lines() {
        if line.starts_with(' ') {
            if in_suite && let Some(last) = outcomes.last_mut() {
                let reason = last.reason.get_or_insert_with(String::new);
                reason.push(' ');
                reason.push_str(line.trim());
            }
            continue;
        }
        in_suite = false;
        let Some((place, message)) = line.split_once(": error ") else { continue };
        let Some((file, position)) = place.rsplit_once('(') else { continue };
        let path = cwd.join(file);
        let path = path.canonicalize().unwrap_or(path);
        let Some(suite) = suites.iter().find(|s| s.canonicalize().is_ok_and(|s| s == path)) else { continue };
        in_suite = true;
        let name = suite.file_name().unwrap_or_default().to_string_lossy();
        let position = position.trim_end_matches(')').replace(',', ":");
        outcomes.push(Outcome {
            name: format!("{CHECK} > {name}:{position}"),
            passed: false,
            reason: Some(message.to_string()),
        });
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_in_suites_are_failures_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let suite = dir.path().join("A.test.ts");
        std::fs::write(&suite, "").unwrap();
        std::fs::write(dir.path().join("a.ts"), "").unwrap();
        let stdout = "A.test.ts(3,7): error TS2345: Argument of type 'string' is not assignable.\n  \
                      Type 'string' is not 'number'.\na.ts(1,1): error TS7006: Parameter 'x' implicitly has an 'any' type.\n";
        let found = errors(stdout, dir.path(), &[suite]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].name, "tsc --noEmit --strict > A.test.ts:3:7");
        assert_eq!(
            found[0].reason.as_deref(),
            Some("TS2345: Argument of type 'string' is not assignable. Type 'string' is not 'number'.")
        );
    }
}
