//! Test helpers: builds into temp folders, a static file server on 127.0.0.1, headless
//! Chromium, a check that HTML cannot run script, and the generated hostile catalog.

#![allow(dead_code)]

pub mod hostile;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Builds the catalog at `root` into a temp folder (offline); the site is in `site/` of it.
pub fn build_into(root: &Path) -> (tempfile::TempDir, catalog::ops::BuildReport) {
    build_site(root, true)
}

/// As [`build_into`], choosing whether HTML is minified (tests that match markup want it as
/// rendered).
pub fn build_site(root: &Path, minify: bool) -> (tempfile::TempDir, catalog::ops::BuildReport) {
    let out = tempfile::tempdir().unwrap();
    let options = catalog::ops::BuildOptions {
        root: root.to_path_buf(),
        out: Some(out.path().join("site")),
        base_url: None,
        minify,
        offline: true,
    };
    let report = catalog::ops::build(&options).expect("build succeeds");
    (out, report)
}

/// Serves `root` on 127.0.0.1 from a background thread until the test process ends.
/// Returns the base URL, e.g. `http://127.0.0.1:41234/`.
pub fn serve(root: &Path) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let root = root.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let root = root.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request = String::new();
                if reader.read_line(&mut request).is_err() {
                    return;
                }
                // Drain the headers.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = request.split_whitespace().nth(1).unwrap_or("/");
                let path = path.split(['?', '#']).next().unwrap_or("/");
                let (status, body, kind) = match resolve(&root, path) {
                    Some(file) => ("200 OK", std::fs::read(&file).unwrap(), content_type(&file)),
                    None => (
                        "404 Not Found",
                        std::fs::read(root.join("404.html")).unwrap_or_default(),
                        "text/html; charset=utf-8",
                    ),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            });
        }
    });
    format!("http://127.0.0.1:{port}/")
}

fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = url_path.trim_start_matches('/');
    if decoded.split('/').any(|s| s == "..") {
        return None;
    }
    let mut file = root.join(decoded);
    if file.is_dir() {
        file = file.join("index.html");
    }
    file.is_file().then_some(file)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css",
        Some("js") => "text/javascript",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("xml") => "application/xml",
        _ => "text/plain; charset=utf-8",
    }
}

/// Headless Chromium, if installed. Under CI a missing browser is a failure, not a skip.
pub fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"].iter().find_map(|name| {
        std::env::var_os("PATH")
            .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()))
    });
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must install chromium (see .ci/run)");
        eprintln!("chromium not installed: browser test skipped");
    }
    found
}

/// The DOM of `url` after its scripts ran (virtual time lets fetches and timers finish).
pub fn dump_dom(browser: &Path, url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("chromium runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A plain HTTP/1.0 GET: (status, body).
pub fn http_get(url: &str) -> (u16, String) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest.split_once('/').map(|(h, p)| (h, format!("/{p}"))).unwrap_or((rest, "/".into()));
    let mut stream = std::net::TcpStream::connect(host).expect("server reachable");
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut response = Vec::new();
    std::io::Read::read_to_end(&mut stream, &mut response).unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

/// Copies a folder tree (test fixtures into temp folders).
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Attributes whose value a browser loads or navigates to.
const URL_ATTRIBUTES: &[&str] = &[
    "href",
    "src",
    "action",
    "formaction",
    "xlink:href",
    "data",
    "poster",
    "background",
    "cite",
    "codebase",
    "ping",
    "srcset",
    "lowsrc",
    "dynsrc",
    "manifest",
    "archive",
];

/// Parses a page as a browser would (HTML5 tree building, scripting on) and lists everything in
/// it that could run script or load another document: script elements other than the site's
/// own script files and JSON-LD data, event-handler attributes, `javascript:`, `vbscript:` and
/// `data:` URLs (however spelled) in URL attributes, `srcdoc`, `<base>`, `<meta
/// http-equiv=refresh>`, embedding elements, inline SVG and MathML, and styles with script URLs.
///
/// `base_url` is the site's address: pages served from any depth (404.html) load the site's
/// script by absolute URL under it.
pub fn script_problems(html: &str, base_url: Option<&str>) -> Vec<String> {
    let doc = scraper::Html::parse_document(html);
    let mut problems = Vec::new();
    let own_script = |src: &str| {
        let path = match base_url.and_then(|base| src.strip_prefix(base)) {
            Some(rest) => rest,
            None if src.contains(':') || src.starts_with("//") || src.starts_with('/') => return false,
            None => src,
        };
        let path = path.trim_start_matches("../");
        path.starts_with("static/") && path.ends_with(".js") && !path.contains(['?', '#', '\\']) && !path.contains("..")
    };
    for element in doc.root_element().descendants().filter_map(scraper::ElementRef::wrap) {
        let el = element.value();
        let name = el.name().to_ascii_lowercase();
        match name.as_str() {
            "script" => {
                let json_ld = el.attr("type") == Some("application/ld+json") && el.attr("src").is_none();
                if !json_ld && !el.attr("src").is_some_and(own_script) {
                    problems.push(format!("script element: {}", element.html()));
                }
                if json_ld {
                    let text: String = element.text().collect();
                    if let Err(e) = serde_json::from_str::<serde_json::Value>(&text) {
                        problems.push(format!("JSON-LD that is not JSON ({e}): {text}"));
                    }
                }
            }
            // The site's own charts: shapes and text only, nothing that links or runs.
            "svg" if is_chart(&element) => {}
            "iframe" | "frame" | "frameset" | "object" | "embed" | "applet" | "portal" | "base" | "svg" | "math" => {
                problems.push(format!("{name} element: {}", element.html()))
            }
            "meta" if el.attr("http-equiv").is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh")) => {
                problems.push(format!("meta refresh: {}", element.html()))
            }
            "style" => {
                let css: String = element.text().collect::<String>().to_ascii_lowercase();
                if css.contains("javascript:") || css.contains("expression(") || css.contains("@import") {
                    problems.push(format!("style element: {}", element.html()));
                }
            }
            _ => {}
        }
        for (attr, value) in el.attrs() {
            let attr = attr.to_ascii_lowercase();
            if attr.starts_with("on") {
                problems.push(format!("event handler {attr}={value:?} on <{name}>"));
            }
            if attr == "srcdoc" {
                problems.push(format!("srcdoc on <{name}>"));
            }
            let is_url = URL_ATTRIBUTES.contains(&attr.as_str()) || attr.ends_with(":href");
            // Browsers drop white space and control characters inside a scheme.
            let compact: String = value.chars().filter(|c| !c.is_whitespace() && !c.is_control()).collect();
            let compact = compact.to_ascii_lowercase();
            let urls: Vec<&str> = if attr == "srcset" { compact.split(',').collect() } else { vec![&compact] };
            if is_url && urls.iter().any(|u| ["javascript:", "vbscript:", "data:"].iter().any(|s| u.starts_with(s))) {
                problems.push(format!("{attr}={value:?} on <{name}>"));
            }
            if attr == "style" && (compact.contains("javascript:") || compact.contains("expression(")) {
                problems.push(format!("style={value:?} on <{name}>"));
            }
        }
    }
    problems
}

/// Whether `svg` is a chart as the site draws them: class `chart`, an image with a title, and
/// nothing inside but titles, descriptions, text, rectangles and lines with plain geometry.
fn is_chart(svg: &scraper::ElementRef) -> bool {
    const ELEMENTS: &[&str] = &["title", "desc", "text", "rect", "line"];
    const ATTRIBUTES: &[&str] =
        &["id", "class", "x", "y", "x1", "x2", "y1", "y2", "width", "height", "rx", "text-anchor"];
    let el = svg.value();
    el.classes().any(|c| c == "chart")
        && el.attr("role") == Some("img")
        && el.attrs().all(|(a, _)| {
            ["class", "role", "viewbox", "width", "height", "aria-labelledby"]
                .contains(&a.to_ascii_lowercase().as_str())
        })
        && svg.descendants().skip(1).filter_map(scraper::ElementRef::wrap).all(|child| {
            ELEMENTS.contains(&child.value().name()) && child.value().attrs().all(|(a, _)| ATTRIBUTES.contains(&a))
        })
}

/// Every file of a site, path relative to it -> bytes.
pub fn site_files(site: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(site)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(site).unwrap().to_path_buf(), std::fs::read(e.path()).unwrap()))
        .collect()
}

// The tests' git helpers, shared with the library's own unit tests.
include!("git.rs");
