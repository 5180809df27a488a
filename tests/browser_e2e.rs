//! Built sites in a real browser: `tests/browser/check-site.mjs` drives the system Chromium with
//! playwright-core over every page (no dialog, no payload reaching a sink, no console error, no
//! CSP violation, no foreign request), then search, copy buttons, keyboard access to the install
//! tabs, axe-core, and screenshots into `target/screenshots/`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use catalog::ops::{BuildOptions, build};

/// The hostile catalog's source folder: the one line to change to build another hostile catalog.
fn hostile_root() -> PathBuf {
    support::project_root().join("tests/fixtures/hostile")
}

/// The hostile catalog, built to be served under a sub-path as a GitHub Pages project site is.
fn hostile_site() -> Site {
    Site::build(&hostile_root(), "/sub/path/")
}

fn embedded_site() -> Site {
    Site::build(&support::project_root(), "/")
}

/// A built site and where it is to be served. 404.html links to the assets through `base_url`
/// (it is served at any depth), so the site is built for the port and path it is served at.
struct Site {
    _dir: tempfile::TempDir,
    path: PathBuf,
    port: u16,
    mount: String,
    /// Holds the port until the script is about to bind it, so no other test takes it meanwhile.
    reserved: Option<std::net::TcpListener>,
}

impl Site {
    fn build(root: &Path, mount: &str) -> Site {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("site");
        let reserved = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = reserved.local_addr().unwrap().port();
        let options = BuildOptions {
            root: root.to_path_buf(),
            out: Some(path.clone()),
            base_url: Some(format!("http://127.0.0.1:{port}{mount}")),
            minify: true,
            offline: true,
        };
        build(&options).expect("build succeeds");
        Site { _dir: dir, path, port, mount: mount.to_string(), reserved: Some(reserved) }
    }
}

fn browser_dir() -> PathBuf {
    support::project_root().join("tests/browser")
}

/// Node, if installed. Under CI a missing node is a failure, not a skip (as for chromium).
fn node() -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join("node")).find(|p| p.is_file()));
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must install nodejs and npm (see .ci/run)");
        eprintln!("node not installed: browser test skipped");
    }
    found
}

/// Installs the pinned node packages once per test run when they are missing or older than the
/// lock file. Tests run as threads of one process, so a OnceLock keeps two from running `npm ci`
/// into the same folder at once.
fn node_packages() -> Result<(), String> {
    static READY: OnceLock<Result<(), String>> = OnceLock::new();
    READY
        .get_or_init(|| {
            let dir = browser_dir();
            let installed = dir.join("node_modules/.package-lock.json");
            let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
            if modified(&installed).is_some_and(|i| modified(&dir.join("package-lock.json")).is_some_and(|l| i >= l)) {
                return Ok(());
            }
            let output = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                .arg(&dir)
                .output()
                .map_err(|e| format!("npm could not run: {e}"))?;
            if output.status.success() {
                Ok(())
            } else {
                Err(format!("npm ci failed:\n{}", String::from_utf8_lossy(&output.stderr)))
            }
        })
        .clone()
}

struct Tools {
    node: PathBuf,
    chromium: PathBuf,
}

/// Node, Chromium and the node packages, or None (with a message) when the machine lacks them.
fn tools() -> Option<Tools> {
    let chromium = support::chromium()?;
    let node = node()?;
    if let Err(e) = node_packages() {
        assert!(std::env::var_os("CI").is_none(), "{e}");
        eprintln!("{e}\nbrowser test skipped");
        return None;
    }
    Some(Tools { node, chromium })
}

/// Runs the script over `site` (extra arguments after the folder) and returns its exit code and
/// its JSON report.
fn check(tools: &Tools, site: &Path, args: &[&str]) -> (i32, serde_json::Value) {
    let output = Command::new(&tools.node)
        .arg(browser_dir().join("check-site.mjs"))
        .arg(site)
        .arg("--chromium")
        .arg(&tools.chromium)
        // Two cores are shared by every test running at once.
        .args(["--concurrency", "2"])
        .args(args)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("no JSON report ({e}):\n{stdout}\nstderr:\n{}", String::from_utf8_lossy(&output.stderr))
    });
    (output.status.code().unwrap_or(-1), report)
}

/// Every check, over a whole site; fails with the script's report.
fn check_everything(tools: &Tools, site: &mut Site, label: &str) -> serde_json::Value {
    let screenshots = support::project_root().join("target/screenshots");
    let port = site.port.to_string();
    site.reserved = None;
    let (code, report) = check(
        tools,
        &site.path,
        &["--port", &port, "--mount", &site.mount, "--label", label, "--screenshots", screenshots.to_str().unwrap()],
    );
    assert!(code == 0 && report["ok"] == true, "{label}: browser checks failed:\n{report:#}");
    eprintln!("{label}: {} pages checked in {} ms", report["checks"]["pages"]["pages"], report["ms"]);
    report
}

#[test]
fn the_embedded_catalog_passes_every_browser_check() {
    let Some(tools) = tools() else { return };
    let mut site = embedded_site();
    let report = check_everything(&tools, &mut site, "embedded");
    assert!(report["checks"]["pages"]["pages"].as_u64().unwrap() > 20, "{report:#}");
    for check in ["pages", "search", "copy", "keyboard", "axe", "screenshots"] {
        assert_eq!(report["checks"][check]["ok"], true, "{check} did not run: {report:#}");
    }
}

#[test]
fn no_payload_of_the_hostile_catalog_runs_in_a_browser() {
    let Some(tools) = tools() else { return };
    let mut site = hostile_site();
    let report = check_everything(&tools, &mut site, "hostile");
    assert_eq!(report["checks"]["pages"]["ok"], true, "{report:#}");
}

/// The checker must be able to fail: a site of deliberately bad pages, one fault each, and one
/// clean page that must not be blamed for the others.
#[test]
fn the_checker_reports_a_payload_that_runs() {
    let Some(tools) = tools() else { return };
    let dir = tempfile::tempdir().unwrap();
    let page = |path: &str, head: &str, body: &str| {
        let folder = dir.path().join(path);
        std::fs::create_dir_all(&folder).unwrap();
        let html = format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">{head}<title>{path}</title></head>\
             <body><main>{body}</main></body></html>"
        );
        std::fs::write(folder.join("index.html"), html).unwrap();
    };
    page("", "", "<img src=\"missing.png\" alt=\"\" onerror=\"alert('payload ran')\">");
    page("sentinel", "", "<svg onload=\"__pwned('svg')\"></svg>");
    page("external", "", "<script src=\"https://evil.example/x.js\"></script>");
    page(
        "blocked",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">",
        "<a href=\"javascript:__pwned('href')\">link</a><p onmouseover=\"__pwned('hover')\">hover</p>",
    );
    page("clean", "", "<p>Nothing to see.</p>");

    let (code, report) = check(&tools, dir.path(), &["--checks", "pages"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["ok"], false);
    let failures: Vec<(String, String)> = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["page"].as_str().unwrap_or("").to_string(), f["message"].as_str().unwrap().to_string()))
        .collect();
    let reported = |page: &str, needle: &str| failures.iter().any(|(p, m)| p == page && m.contains(needle));
    assert!(reported("", "reached alert(payload ran)"), "{report:#}");
    assert!(reported("", "404 for"), "missing image: {report:#}");
    assert!(reported("sentinel/", "reached __pwned(svg)"), "{report:#}");
    assert!(reported("external/", "request to https://evil.example/x.js"), "{report:#}");
    assert!(reported("blocked/", "Content-Security-Policy violation"), "{report:#}");
    assert!(reported("blocked/", "unsafe markup: <a> has href=javascript:"), "{report:#}");
    assert!(!failures.iter().any(|(p, _)| p == "clean/"), "a clean page was blamed: {report:#}");
}
