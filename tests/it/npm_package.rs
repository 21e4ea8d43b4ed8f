//! The npm packages (`npm/`): `npm/build.mjs` packs the main package `flycatcher` and this machine's
//! platform package from the release binary; npm installs them from the tarballs with no registry;
//! `npx flycatcher generate` works there and its suite passes under `node --test`. The launcher says
//! what it saw and looked for when no platform package matches, and passes arguments, exit status and
//! signals through. Unix only, as the project's CI: `npm` is `npm.cmd` on Windows, and the signal
//! checks are POSIX ones.
#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::*;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// This machine's platform package name and the way the launcher describes the machine, worked out
/// from what this test was compiled for: the oracle for the launcher's detection in Node.
fn this_platform() -> (String, String) {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    let cpu = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    if os != "linux" {
        return (format!("{os}-{cpu}"), format!("{os} {cpu}"));
    }
    let (suffix, libc) = if cfg!(target_env = "musl") { ("musl", "musl") } else { ("gnu", "glibc") };
    (format!("linux-{cpu}-{suffix}"), format!("linux {cpu} ({libc})"))
}

/// Runs `npm/build.mjs` into `out` with `args`; panics unless it succeeds. Returns the tarballs it
/// printed, in order.
fn build(out: &Path, args: &[&str]) -> Vec<PathBuf> {
    let output = Command::new("node")
        .arg(root().join("npm").join("build.mjs"))
        .arg("--out")
        .arg(out)
        .args(args)
        .output()
        .expect("node runs");
    assert!(output.status.success(), "npm/build.mjs failed: {}", text(&output));
    let tarballs: Vec<PathBuf> = String::from_utf8_lossy(&output.stdout).lines().map(PathBuf::from).collect();
    for tarball in &tarballs {
        assert!(tarball.is_file(), "{} printed but not written: {}", tarball.display(), text(&output));
    }
    tarballs
}

/// A command with npm kept off the network and away from this machine's npm settings: no registry
/// that answers (a request would fail, not hang), an empty cache and user config of its own, and no
/// FLYCATCHER_BINARY, so that the launcher must find the platform package.
fn offline(program: &str, scratch: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .env("npm_config_offline", "true")
        .env("npm_config_registry", "http://127.0.0.1:9/")
        .env("npm_config_cache", scratch.join("npm-cache"))
        .env("npm_config_userconfig", scratch.join("npmrc"))
        .env("npm_config_update_notifier", "false")
        .env_remove("FLYCATCHER_BINARY");
    command
}

/// A scratch project in `scratch/project` with `tarballs` installed by npm, offline.
fn project_with(scratch: &Path, tarballs: &[PathBuf]) -> PathBuf {
    let project = scratch.join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("package.json"), r#"{ "name": "scratch", "private": true }"#).unwrap();
    let output = offline("npm", scratch)
        .args(["install", "--offline", "--no-audit", "--no-fund"])
        .args(tarballs)
        .current_dir(&project)
        .output()
        .expect("npm runs");
    assert!(output.status.success(), "npm install from the tarballs failed: {}", text(&output));
    project
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap()
}

#[test]
fn packed_packages_install_offline_and_npx_writes_a_suite_that_passes() {
    let scratch = tempfile::tempdir().unwrap();
    let scratch = scratch.path();
    // The release workflow ships the binary without line tables (strip -S does the same): the copy
    // packed here is the one users get, and packs in a fifth of the time.
    let binary = scratch.join("flycatcher");
    std::fs::copy(env!("CARGO_BIN_EXE_flycatcher"), &binary).unwrap();
    let strip = Command::new("strip").arg("-S").arg(&binary).output().expect("strip runs");
    assert!(strip.status.success(), "{}", text(&strip));

    let dist = scratch.join("dist");
    let tarballs = build(&dist, &["--binary", binary.to_str().unwrap()]);
    let (platform, _) = this_platform();
    let names: Vec<String> = tarballs.iter().map(|t| t.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, [format!("flycatcher-{VERSION}.tgz"), format!("flycatcher-{platform}-{VERSION}.tgz")]);

    let main = manifest(&dist.join("flycatcher"));
    assert_eq!(main["version"], VERSION);
    assert_eq!(main["bin"]["flycatcher"], "bin/flycatcher");
    let optional = main["optionalDependencies"].as_object().expect("optionalDependencies");
    assert_eq!(optional.len(), 6, "{optional:?}");
    assert!(optional.values().all(|v| v == VERSION), "{optional:?}");
    assert!(optional.contains_key(&format!("@flycatcher/{platform}")), "{optional:?}");
    let ours = manifest(&dist.join(&platform));
    assert_eq!(ours["name"], format!("@flycatcher/{platform}"));
    let mut fields = platform.split('-');
    let os = fields.next().unwrap();
    assert_eq!(ours["os"], serde_json::json!([os]));
    assert_eq!(ours["cpu"], serde_json::json!([fields.next().unwrap()]));
    let libc = fields.next().map(|l| serde_json::json!([if l == "gnu" { "glibc" } else { l }]));
    assert_eq!(ours.get("libc"), libc.as_ref(), "{ours}");

    let project = project_with(scratch, &tarballs);
    let installed = project.join("node_modules/@flycatcher").join(&platform).join("bin/flycatcher");
    let mode = std::fs::metadata(&installed).expect("the platform package is installed").permissions().mode();
    assert_ne!(mode & 0o111, 0, "{} is not executable", installed.display());

    let version = offline("npx", scratch).args(["flycatcher", "--version"]).current_dir(&project).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), format!("flycatcher {VERSION}"), "{}", text(&version));

    std::fs::copy(sample("linked-list.js"), project.join("src/linked-list.js")).unwrap();
    let generate = offline("npx", scratch)
        .args(["flycatcher", "generate", "src/linked-list.js", "--seed", "1", "--quiet"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert!(generate.status.success(), "npx flycatcher generate failed: {}", text(&generate));
    node_test_passes(&suites(&project.join("flycatcher-out")));
}

/// Runs the installed launcher under Node with `preload` required first (a script that makes the
/// process look like another machine).
fn launcher_as(project: &Path, scratch: &Path, preload: &str) -> Output {
    let script = scratch.join("preload.js");
    std::fs::write(&script, preload).unwrap();
    offline("node", scratch)
        .arg("--require")
        .arg(&script)
        .arg(project.join("node_modules/flycatcher/bin/flycatcher"))
        .arg("--version")
        .output()
        .unwrap()
}

/// A preload script making Node report `platform`, `arch` and, on Linux, a C library by the field of
/// the diagnostic report that the launcher reads (`glibcVersionRuntime`, absent under musl).
fn pretend(platform: &str, arch: &str, glibc: Option<&str>) -> String {
    let header = glibc.map_or("{}".to_string(), |v| format!("{{ glibcVersionRuntime: '{v}' }}"));
    format!(
        "Object.defineProperty(process, 'platform', {{ value: '{platform}' }});\n\
         Object.defineProperty(process, 'arch', {{ value: '{arch}' }});\n\
         process.report.getReport = () => ({{ header: {header} }});\n"
    )
}

fn assert_fails_saying(output: &Output, says: &[&str]) {
    assert_eq!(output.status.code(), Some(1), "{}", text(output));
    assert!(output.stdout.is_empty(), "{}", text(output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for words in says {
        assert!(stderr.contains(words), "no {words:?} in:\n{stderr}");
    }
}

#[test]
fn without_a_matching_platform_package_the_launcher_says_what_it_saw_looked_for_and_what_to_do() {
    let scratch = tempfile::tempdir().unwrap();
    let scratch = scratch.path();
    let tarballs = build(&scratch.join("dist"), &["--only", "main"]);
    assert_eq!(tarballs.len(), 1, "{tarballs:?}");
    let project = project_with(scratch, &tarballs);
    let (platform, seen) = this_platform();
    let to_do = ["npm install --include=optional", "cargo install --path .", "FLYCATCHER_BINARY"];

    // This machine, whose package npm could not install (only the main tarball was given).
    let output =
        offline("npx", scratch).args(["flycatcher", "generate", "src/"]).current_dir(&project).output().unwrap();
    let saw = format!("platform seen:      {seen}\n");
    let looked_for = format!("package looked for: @flycatcher/{platform} ");
    assert_fails_saying(&output, &[saw.as_str(), looked_for.as_str()]);
    assert_fails_saying(&output, &to_do);

    // Other machines of the table, told apart by the C library on Linux.
    for (pretence, seen, package) in [
        (pretend("linux", "x64", None), "linux x64 (musl)", "@flycatcher/linux-x64-musl"),
        (pretend("linux", "arm64", Some("2.35")), "linux arm64 (glibc)", "@flycatcher/linux-arm64-gnu"),
        (pretend("darwin", "arm64", None), "darwin arm64", "@flycatcher/darwin-arm64"),
    ] {
        let output = launcher_as(&project, scratch, &pretence);
        let saw = format!("platform seen:      {seen}\n");
        let looked_for = format!("package looked for: {package} ");
        assert_fails_saying(&output, &[saw.as_str(), looked_for.as_str()]);
    }

    // A machine no package is built for: the platforms there are, and how to build from source.
    let output = launcher_as(&project, scratch, &pretend("freebsd", "x64", None));
    let built = "linux-x64-gnu, linux-arm64-gnu, linux-x64-musl, darwin-x64, darwin-arm64, win32-x64";
    assert_fails_saying(
        &output,
        &["no prebuilt binary", "platform seen:      freebsd x64\n", built, "cargo install --path ."],
    );
}

/// Runs the launcher of the repository with FLYCATCHER_BINARY set to a shell script of `body`.
fn launcher_running(scratch: &Path, body: &str) -> Command {
    let script = scratch.join("binary.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = Command::new("node");
    command.arg(root().join("npm/flycatcher/bin/flycatcher")).env("FLYCATCHER_BINARY", &script);
    command
}

#[test]
fn the_launcher_passes_arguments_exit_status_and_signals_through() {
    let scratch = tempfile::tempdir().unwrap();
    let scratch = scratch.path();

    let output = launcher_running(scratch, r#"for a in "$@"; do printf '[%s]\n' "$a"; done; exit 7"#)
        .args(["a b", "", "--seed=1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(7), "{}", text(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "[a b]\n[]\n[--seed=1]\n");

    // The binary dies of a signal: so does the launcher.
    let output = launcher_running(scratch, "kill -TERM $$").output().unwrap();
    assert_eq!(output.status.signal(), Some(libc::SIGTERM), "{}", text(&output));

    // A signal sent to the launcher reaches the binary, whose exit status the launcher then takes. The
    // script gives up by itself after 600 naps, so that a signal lost fails the test instead of hanging it.
    let mut child = launcher_running(
        scratch,
        "trap 'echo forwarded; exit 3' TERM\necho ready\ni=0\nwhile [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\nexit 9",
    )
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "ready\n");
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on the pid of a child this test spawned and has not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!((rest.as_str(), status.code()), ("forwarded\n", Some(3)));

    let output = Command::new("node")
        .arg(root().join("npm/flycatcher/bin/flycatcher"))
        .env("FLYCATCHER_BINARY", scratch.join("missing"))
        .output()
        .unwrap();
    assert_fails_saying(&output, &["could not run", "missing (from FLYCATCHER_BINARY)", "ENOENT"]);
}

#[test]
fn the_build_script_refuses_a_binary_of_another_platform() {
    let scratch = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_flycatcher");
    let (ours, _) = this_platform();
    for other in ["linux-x64-gnu", "linux-arm64-gnu", "darwin-arm64", "win32-x64"].into_iter().filter(|p| *p != ours) {
        let output = Command::new("node")
            .arg(root().join("npm/build.mjs"))
            .args(["--only", "platform", "--platform", other, "--binary", binary, "--out"])
            .arg(scratch.path())
            .output()
            .unwrap();
        assert_fails_saying(&output, &[format!("is not a {other} binary: it ").as_str()]);
    }
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 0, "nothing is packed");
}

/// The platform names the launcher's table, the release workflow's matrix and the package README use.
#[test]
fn the_release_workflow_and_the_readme_name_the_platforms_of_the_launcher() {
    let table = Command::new("node")
        .args(["-p", "require('./npm/flycatcher/lib/platforms.js').PLATFORMS.map((p) => p.name).join(' ')"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(table.status.success(), "{}", text(&table));
    let mut names: Vec<String> = String::from_utf8_lossy(&table.stdout).split_whitespace().map(String::from).collect();
    names.sort();
    assert_eq!(names.len(), 6, "{names:?}");

    let workflow = std::fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    let mut matrix: Vec<String> =
        workflow.lines().filter_map(|l| l.trim().strip_prefix("- platform: ")).map(String::from).collect();
    matrix.sort();
    assert_eq!(matrix, names, "the release matrix builds other platforms than the launcher knows");

    let readme = std::fs::read_to_string(root().join("npm/README.md")).unwrap();
    let mut listed: Vec<String> = readme
        .lines()
        .filter_map(|l| l.split("`@flycatcher/").nth(1))
        .map(|rest| rest.split('`').next().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(listed, names, "npm/README.md lists other platform packages");
}
