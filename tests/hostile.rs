//! The guarantees the build keeps on hostile input, checked on a generated catalog (see
//! `support::hostile`): it finishes, says what it left out and why, writes only into its out
//! folder, publishes nothing that runs script, gives every skill a distinct URL that any file
//! system can hold, builds the same bytes twice, and a killed build leaves the previous site.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use catalog::diag::Level;
use support::hostile::{self, Expect, HostileCatalog};
use support::script_problems;

/// A hang guard, not a speed test: the build takes seconds.
const WATCHDOG: Duration = Duration::from_secs(120);
const BASE_URL: &str = "https://example.github.io/sub/path/";

/// What a path is, enough to tell whether it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Dir,
    File {
        hash: [u8; 32],
    },
    Link {
        target: PathBuf,
    },
    /// A named pipe: never opened, since reading one blocks.
    Pipe,
}

/// Every path below `root` (links not followed) except those below `skip`.
fn tree(root: &Path, skip: Option<&Path>) -> BTreeMap<PathBuf, Entry> {
    walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| skip.is_none_or(|skip| e.path() != skip))
        .map(|e| e.unwrap())
        .map(|e| {
            let entry = if e.path_is_symlink() {
                Entry::Link { target: std::fs::read_link(e.path()).unwrap() }
            } else if e.file_type().is_dir() {
                Entry::Dir
            } else if e.file_type().is_file() {
                Entry::File { hash: *blake3::hash(&std::fs::read(e.path()).unwrap()).as_bytes() }
            } else {
                Entry::Pipe
            };
            (e.path().to_path_buf(), entry)
        })
        .collect()
}

/// Every file of a site, path relative to it -> bytes.
fn site_files(site: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(site)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| !e.file_type().is_dir())
        .map(|e| {
            let rel = e.path().strip_prefix(site).unwrap().to_str().unwrap().to_string();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

fn build_options(root: &Path, out: &Path) -> catalog::ops::BuildOptions {
    catalog::ops::BuildOptions {
        root: root.to_path_buf(),
        out: Some(out.to_path_buf()),
        base_url: None,
        minify: true,
        offline: true,
    }
}

/// Builds through the library on a thread, failing the test if it has not returned in time.
fn build_guarded(root: &Path, out: &Path) -> catalog::ops::BuildReport {
    let options = build_options(root, out);
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("hostile build".into())
        .spawn(move || {
            let result = std::panic::catch_unwind(|| catalog::ops::build(&options));
            let _ = send.send(result);
        })
        .unwrap();
    match receive.recv_timeout(WATCHDOG) {
        Ok(Ok(result)) => result.expect("the hostile catalog builds"),
        Ok(Err(_)) => panic!("the build panicked"),
        Err(_) => panic!("the build has not finished after {WATCHDOG:?}"),
    }
}

/// The hostile catalog, generated and built once for the tests that only read the result.
struct Built {
    _tmp: tempfile::TempDir,
    catalog: HostileCatalog,
    site: PathBuf,
    report: catalog::ops::BuildReport,
    /// Everything in the temp folder except the site, before and after the build.
    before: BTreeMap<PathBuf, Entry>,
    after: BTreeMap<PathBuf, Entry>,
    files: BTreeMap<String, Vec<u8>>,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let (root, outside, site) = (tmp.path().join("catalog"), tmp.path().join("canary"), tmp.path().join("site"));
        std::fs::create_dir_all(&root).unwrap();
        let started = Instant::now();
        let catalog = hostile::generate(&root, &outside);
        eprintln!("generated {} hostile skill folders in {:?}", catalog.skills.len(), started.elapsed());
        let before = tree(tmp.path(), Some(&site));
        let started = Instant::now();
        let report = build_guarded(&root, &site);
        eprintln!("built the hostile catalog in {:?}: {:?}", started.elapsed(), report.timings);
        let after = tree(tmp.path(), Some(&site));
        let files = site_files(&site);
        Built { _tmp: tmp, catalog, site, report, before, after, files }
    })
}

/// The JSON API's skills: (repo, folder in the repository) -> the skill's whole record, from the
/// repository files that `api/skills.json` names.
fn api_skills(files: &BTreeMap<String, Vec<u8>>) -> BTreeMap<(String, String), serde_json::Value> {
    let index: serde_json::Value = serde_json::from_slice(&files["api/skills.json"]).unwrap();
    let repo_files: BTreeSet<&str> =
        index["skills"].as_array().unwrap().iter().map(|s| s["api"].as_str().unwrap()).collect();
    let records: BTreeMap<(String, String), serde_json::Value> = repo_files
        .into_iter()
        .flat_map(|file| {
            let file: serde_json::Value = serde_json::from_slice(&files[file]).unwrap();
            file["skills"].as_array().unwrap().clone()
        })
        .map(|s| ((s["repo"].as_str().unwrap().to_string(), s["path"].as_str().unwrap().to_string()), s))
        .collect();
    assert_eq!(records.len(), index["skills"].as_array().unwrap().len(), "every listed skill has one record");
    records
}

#[test]
fn the_generated_catalog_has_every_kind_of_hostile_skill() {
    let built = built();
    let skills = &built.catalog.skills;
    assert!(skills.len() >= 50, "only {} hostile skills", skills.len());
    let folders: BTreeSet<(&str, &str)> = skills.iter().map(|s| (s.source, s.folder.as_str())).collect();
    assert_eq!(folders.len(), skills.len(), "a folder is listed twice");
    for expect in [Expect::Page, Expect::PageWithWarning, Expect::NotASkill] {
        assert!(skills.iter().any(|s| s.expect == expect), "no skill expecting {expect:?}");
    }
    assert!(skills.iter().any(|s| matches!(s.expect, Expect::LeftOut { lines: Some(_) })));
    assert!(skills.iter().any(|s| matches!(s.expect, Expect::LeftOut { lines: None })));
}

#[test]
fn every_skill_gets_a_page_or_a_diagnostic_naming_its_file_and_line() {
    let built = built();
    let api = api_skills(&built.files);
    let diagnostics = &built.report.summary.diagnostics;
    let about = |file: &str, level: Level| -> Vec<&catalog::diag::Diagnostic> {
        diagnostics.iter().filter(|d| d.level == level && d.file == Path::new(file)).collect()
    };
    let mut failures = Vec::new();
    for skill in &built.catalog.skills {
        let page = api.get(&(skill.repo.to_string(), skill.folder.clone()));
        let file = skill.skill_md();
        let errors = about(&file, Level::Error);
        let warnings = about(&file, Level::Warning);
        let what = format!("{file} ({}, expected {:?})", skill.attack, skill.expect);
        match &skill.expect {
            Expect::Page | Expect::PageWithWarning => {
                if page.is_none() {
                    failures.push(format!("{what}: no page; diagnostics {errors:?}"));
                }
                if !errors.is_empty() {
                    failures.push(format!("{what}: errors {errors:?}"));
                }
                if skill.expect == Expect::PageWithWarning && warnings.is_empty() {
                    failures.push(format!("{what}: no warning"));
                }
                if let Some(page) = page
                    && !built.files.contains_key(&format!("{}/index.html", page["id"].as_str().unwrap()))
                {
                    failures.push(format!("{what}: the API names a page that was not written"));
                }
            }
            Expect::LeftOut { lines } => {
                if let Some(page) = page {
                    failures.push(format!("{what}: has a page {}", page["url"]));
                }
                match errors.as_slice() {
                    [] => failures.push(format!("{what}: no error diagnostic")),
                    [error] => {
                        if let Some((first, last)) = lines
                            && !error.line.is_some_and(|line| (*first..=*last).contains(&line))
                        {
                            failures.push(format!("{what}: {error} is not on lines {first}-{last}"));
                        }
                        if error.message.trim().is_empty() {
                            failures.push(format!("{what}: an empty message"));
                        }
                    }
                    many => failures.push(format!("{what}: {} errors {many:?}", many.len())),
                }
            }
            Expect::NotASkill => {
                if let Some(page) = page {
                    failures.push(format!("{what}: has a page {}", page["url"]));
                }
            }
        }
    }
    // Nothing else got a page, and every diagnostic names a file of the catalog.
    let expected: BTreeSet<(String, String)> =
        built.catalog.skills.iter().map(|s| (s.repo.to_string(), s.folder.clone())).collect();
    for key in api.keys().filter(|k| !expected.contains(k)) {
        failures.push(format!("unexpected page for {key:?}"));
    }
    for d in diagnostics {
        if std::fs::symlink_metadata(built.catalog.root.join(&d.file)).is_err() {
            failures.push(format!("diagnostic names no file of the catalog: {d}"));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(built.report.summary.skills, api.len());
}

#[test]
fn the_build_writes_nothing_outside_its_out_folder_and_reads_nothing_from_outside_its_sources() {
    let built = built();
    // The build's own bookkeeping, and nothing else, may appear beside the out folder: the site's
    // second generation and the manifests of both (see `write`), and the skill cache under the
    // catalog's `.catalog/` (see `cache`). None is named by anything a skill says.
    let name = built.site.file_name().unwrap().to_string_lossy().into_owned();
    let bookkeeping = [
        built.site.with_file_name(format!(".{name}.staging")),
        built.site.with_file_name(format!(".{name}.manifests")),
        built.catalog.root.join(".catalog"),
    ];
    let mut changes = Vec::new();
    for (path, entry) in &built.after {
        match built.before.get(path) {
            None if bookkeeping.iter().any(|b| path.starts_with(b)) => {}
            None => changes.push(format!("new: {}", path.display())),
            Some(old) if old != entry => changes.push(format!("changed: {}", path.display())),
            _ => {}
        }
    }
    for path in built.before.keys().filter(|p| !built.after.contains_key(*p)) {
        changes.push(format!("removed: {}", path.display()));
    }
    assert!(changes.is_empty(), "{changes:#?}");

    // Nothing in the site is a link, and nothing from outside the sources is in it.
    // Below the out folder: how the folder itself is swapped in is the writer's business.
    for entry in walkdir::WalkDir::new(&built.site).min_depth(1).follow_links(false) {
        let entry = entry.unwrap();
        assert!(!entry.path_is_symlink(), "{} is a link", entry.path().display());
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    // Whole lines of /etc/passwd (`user:x:uid:gid:...`) appear nowhere else.
    let secrets: Vec<&str> =
        passwd.lines().filter(|l| l.matches(':').count() >= 6).chain([built.catalog.canary.as_str()]).collect();
    assert!(secrets.len() > 1, "no /etc/passwd line to look for");
    for (path, bytes) in &built.files {
        let text = String::from_utf8_lossy(bytes);
        for secret in &secrets {
            assert!(!text.contains(secret), "{path} holds {secret:?} from outside the sources");
        }
    }
}

#[test]
fn no_page_can_run_script_and_payloads_show_as_text() {
    let built = built();
    let mut pages = 0;
    let mut failures = Vec::new();
    for (path, bytes) in &built.files {
        if !path.ends_with(".html") {
            continue;
        }
        pages += 1;
        let problems = script_problems(std::str::from_utf8(bytes).expect("pages are UTF-8"), Some(BASE_URL));
        failures.extend(problems.into_iter().map(|p| format!("{path}: {p}")));
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    assert!(pages > built.report.summary.skills, "{pages} pages");

    // Each inline payload is on its skill's page, as text.
    let api = api_skills(&built.files);
    for (i, payload) in hostile::SCRIPT_PAYLOADS.iter().enumerate() {
        let skill = &api[&(hostile::PAYLOADS_REPO.to_string(), format!("inline-html-{i:02}"))];
        let page = format!("{}/index.html", skill["id"].as_str().unwrap());
        let doc = scraper::Html::parse_document(std::str::from_utf8(&built.files[&page]).unwrap());
        let text: String = doc.root_element().text().collect();
        assert!(text.contains(payload), "{page}: payload {payload:?} not shown as text");
    }
}

#[test]
fn the_script_checker_catches_every_payload_it_is_shown() {
    for payload in hostile::SCRIPT_PAYLOADS.iter().filter(|p| !p.starts_with("<!")) {
        let html = format!("<!doctype html><html><head></head><body><p>{payload}</p></body></html>");
        assert!(!script_problems(&html, None).is_empty(), "{payload:?} not caught");
    }
    for (kind, url) in hostile::URL_PAYLOADS.iter().filter(|(_, u)| !u.contains('&')) {
        let html = format!("<a href=\"{}\">x</a>", url.replace('"', "&quot;"));
        assert!(!script_problems(&html, None).is_empty(), "{kind}: {url:?} not caught");
    }
    // Entity-encoded schemes are decoded by the HTML parser before the check.
    assert!(!script_problems("<a href=\"&#106;avascript:x\">x</a>", None).is_empty());
    let own = "<script src=../../static/catalog.js></script><script type=application/ld+json>{}</script>";
    assert!(script_problems(own, None).is_empty());
    let abs = format!("<script src={BASE_URL}static/catalog.js></script>");
    assert!(script_problems(&abs, Some(BASE_URL)).is_empty());
    assert!(!script_problems(&abs, None).is_empty());
    assert!(!script_problems("<script type=application/ld+json>{\"a\":</script>", None).is_empty());
}

#[test]
fn files_beside_skill_md_are_never_published_as_pages_or_images() {
    let built = built();
    // The bytes of every file of every skill other than SKILL.md, read where the sources are.
    let mut skill_files = BTreeMap::new();
    for skill in &built.catalog.skills {
        let dir = built.catalog.root.join(skill.source).join(&skill.folder);
        for entry in walkdir::WalkDir::new(&dir).follow_links(false).into_iter().flatten() {
            if entry.file_type().is_file() && entry.file_name() != "SKILL.md" {
                skill_files.insert(std::fs::read(entry.path()).unwrap(), entry.path().to_path_buf());
            }
        }
    }
    assert!(skill_files.values().any(|p| p.extension().is_some_and(|e| e == "svg")));
    let active = ["html", "htm", "xhtml", "xht", "svg", "svgz", "xml", "xsl", "mht", "mhtml", "shtml"];
    for (path, bytes) in &built.files {
        if let Some(source) = skill_files.get(bytes) {
            panic!("{path} is a copy of {}", source.display());
        }
        let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
        // HTML pages are parsed by the script check; the site writes no other kind of page.
        if !active.contains(&ext.as_str()) || ext == "html" {
            continue;
        }
        assert!(ext == "svg" || ext == "xml", "{path}: a browser renders this as a document");
        // SVG and XML the site publishes hold no script.
        let text = String::from_utf8_lossy(bytes);
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for node in doc.descendants().filter(|n| n.is_element()) {
            assert!(!node.tag_name().name().eq_ignore_ascii_case("script"), "{path}: script element");
            for attr in node.attributes() {
                let value = attr.value().trim().to_ascii_lowercase();
                assert!(!attr.name().to_ascii_lowercase().starts_with("on"), "{path}: {}", attr.name());
                assert!(!value.starts_with("javascript:"), "{path}: {}={value}", attr.name());
            }
        }
    }
}

#[test]
fn every_page_of_the_hostile_site_carries_a_content_security_policy_without_inline_script() {
    let built = built();
    let selector = scraper::Selector::parse("meta[http-equiv='Content-Security-Policy']").unwrap();
    let mut pages = 0;
    for (path, bytes) in built.files.iter().filter(|(p, _)| p.ends_with(".html")) {
        pages += 1;
        let doc = scraper::Html::parse_document(std::str::from_utf8(bytes).unwrap());
        let csps: Vec<&str> = doc.select(&selector).filter_map(|m| m.value().attr("content")).collect();
        let [csp] = csps.as_slice() else { panic!("{path}: {} CSP meta tags", csps.len()) };
        let script_src = csp
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with("script-src"))
            .or_else(|| csp.split(';').map(str::trim).find(|d| d.starts_with("default-src")))
            .unwrap_or_else(|| panic!("{path}: no script-src in {csp}"));
        assert!(!script_src.contains("unsafe-inline") && !script_src.contains("unsafe-eval"), "{path}: {csp}");
        assert!(!script_src.contains('*') && !script_src.contains("data:"), "{path}: {csp}");
        assert!(csp.contains("default-src 'none'"), "{path}: {csp}");
        // The tag sits in the head, before anything a skill wrote.
        let head = doc.select(&scraper::Selector::parse("head meta[http-equiv]").unwrap()).count();
        assert!(head >= 1, "{path}: CSP not in the head");
    }
    assert!(pages > built.report.summary.skills);
}

#[test]
fn two_builds_of_the_hostile_catalog_are_byte_identical() {
    let built = built();
    let tmp = tempfile::tempdir().unwrap();
    build_guarded(&built.catalog.root, &tmp.path().join("site"));
    let second = site_files(&tmp.path().join("site"));
    assert_eq!(built.files.keys().collect::<Vec<_>>(), second.keys().collect::<Vec<_>>());
    for (path, bytes) in &built.files {
        assert!(bytes == &second[path], "{path} differs between two builds");
    }
}

/// Why a path segment cannot be a file name on Windows or another common file system.
fn unsafe_segment(segment: &str) -> Option<&'static str> {
    const RESERVED: &[&str] = &["con", "prn", "aux", "nul", "conin$", "conout$"];
    let stem = segment.split('.').next().unwrap_or("").trim_end().to_ascii_lowercase();
    let numbered = ["com", "lpt"]
        .iter()
        .any(|p| stem.strip_prefix(p).is_some_and(|n| n.chars().count() == 1 && "0123456789¹²³".contains(n)));
    if segment.is_empty() || segment == "." || segment == ".." {
        Some("empty or dots")
    } else if segment.chars().any(|c| c.is_control() || "<>:\"|?*\\/".contains(c)) {
        Some("a character Windows refuses")
    } else if segment.ends_with('.') || segment.ends_with(' ') {
        Some("a trailing dot or space")
    } else if RESERVED.contains(&stem.as_str()) || numbered {
        Some("a reserved device name")
    } else if segment.len() > 255 {
        Some("longer than 255 bytes")
    } else {
        None
    }
}

#[test]
fn every_skill_has_its_own_url_and_every_output_path_is_safe_on_any_file_system() {
    assert!(unsafe_segment("con.json").is_some() && unsafe_segment("COM1").is_some());
    assert!(unsafe_segment("a:b").is_some() && unsafe_segment("a.").is_some() && unsafe_segment("a ").is_some());
    assert!(unsafe_segment("console").is_none() && unsafe_segment("index.html").is_none());

    let built = built();
    let api = api_skills(&built.files);
    let mut urls: BTreeMap<String, &(String, String)> = BTreeMap::new();
    for (key, skill) in &api {
        let url = skill["url"].as_str().unwrap().to_lowercase();
        if let Some(other) = urls.insert(url.clone(), key) {
            panic!("{key:?} and {other:?} share the URL {url} (compared without case)");
        }
    }
    // Names that differ only in case each have a page.
    let case_only = built.catalog.skills.iter().filter(|s| s.folder.eq_ignore_ascii_case("case-only")).count();
    assert!(case_only >= 2);
    assert_eq!(api.keys().filter(|(_, folder)| folder.eq_ignore_ascii_case("case-only")).count(), case_only);

    let mut failures = Vec::new();
    let mut folded: BTreeMap<String, &str> = BTreeMap::new();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for path in built.files.keys() {
        for segment in path.split('/') {
            if let Some(why) = unsafe_segment(segment) {
                failures.push(format!("{path}: segment {segment:?} is {why}"));
            }
        }
        let mut parts: Vec<&str> = path.split('/').collect();
        parts.pop();
        for n in 1..=parts.len() {
            dirs.insert(parts[..n].join("/"));
        }
    }
    for path in built.files.keys().map(String::as_str).chain(dirs.iter().map(String::as_str)) {
        if let Some(other) = folded.insert(path.to_lowercase(), path) {
            failures.push(format!("{path:?} and {other:?} differ only in case"));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));

    // No file was written twice (one page over another that shares its path): the site holds
    // as many files as the build wrote, its marker file aside.
    let marker = built.files.contains_key(catalog::write::MARKER_FILE) as usize;
    assert_eq!(built.files.len() - marker, built.report.summary.files, "some paths were written more than once");
}

/// Runs the binary's build of `root` into `out`.
fn spawn_build(root: &Path, out: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["-q", "build", "--offline", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary starts")
}

fn wait_guarded(child: &mut Child) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > WATCHDOG {
            let _ = child.kill();
            panic!("the build has not finished after {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A site as path -> content hash, or `None` when the folder is missing.
fn snapshot(site: &Path) -> Option<BTreeMap<String, [u8; 32]>> {
    site.is_dir().then(|| site_files(site).into_iter().map(|(p, b)| (p, *blake3::hash(&b).as_bytes())).collect())
}

#[test]
fn a_killed_build_leaves_the_previous_site_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    std::fs::create_dir_all(&root).unwrap();
    let catalog = hostile::generate(&root, &tmp.path().join("canary"));
    let out = tmp.path().join("site");
    // Two versions of the catalog, told apart by one skill: A has it, B has it changed and one
    // skill more.
    let changed = root.join("payloads/raw-html-blocks/SKILL.md");
    let added = root.join("payloads/added-later");
    let version_a = std::fs::read(&changed).unwrap();
    let mut version_b = version_a.clone();
    version_b.extend_from_slice(b"\n## Added later\n\nA second version of this skill.\n");
    let set_version = |b: bool| {
        std::fs::write(&changed, if b { &version_b } else { &version_a }).unwrap();
        if b {
            std::fs::create_dir_all(&added).unwrap();
            std::fs::write(added.join("SKILL.md"), "---\nname: added-later\ndescription: New in B.\n---\n# B\n")
                .unwrap();
        } else if added.exists() {
            std::fs::remove_dir_all(&added).unwrap();
        }
    };
    let full_build = |b: bool| {
        set_version(b);
        let started = Instant::now();
        let status = wait_guarded(&mut spawn_build(&root, &out));
        assert!(status.success(), "build of version {} failed: {status}", if b { "B" } else { "A" });
        (snapshot(&out).expect("the site exists"), started.elapsed())
    };
    let (site_b, _) = full_build(true);
    // Once there is a site, a watcher looks at the out folder as often as it can: a moment at
    // which it is missing is a moment at which a kill would leave no site. It starts before the
    // build that is timed, so kill moments are measured under the same load.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (stop, out) = (stop.clone(), out.clone());
        std::thread::spawn(move || {
            let mut missing = 0usize;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                if std::fs::metadata(&out).is_err() {
                    missing += 1;
                }
            }
            missing
        })
    };
    let (site_a, duration) = full_build(false);
    assert_ne!(site_a, site_b, "the two versions build the same site");
    eprintln!("one full build of the hostile catalog with the binary: {duration:?} ({} skills)", catalog.skills.len());

    let runs = 20;
    let mut outcomes = Vec::new();
    for run in 0..runs {
        // Build whichever version the site is not, so every run can replace it.
        let current = snapshot(&out).expect("the site exists before the run");
        let to_b = current == site_a;
        assert!(to_b || current == site_b, "run {run}: the site is neither version before the run");
        set_version(to_b);
        let (from, to) = if to_b { (&site_a, &site_b) } else { (&site_b, &site_a) };
        // Kill moments spread over the whole build and past its usual end: build times vary.
        let delay = duration.mul_f64(0.05 + 1.45 * run as f64 / (runs - 1) as f64);
        let mut child = spawn_build(&root, &out);
        std::thread::sleep(delay);
        let finished = child.try_wait().unwrap().is_some();
        let _ = child.kill();
        let _ = wait_guarded(&mut child);
        let after = snapshot(&out);
        let outcome = match &after {
            None => "missing",
            Some(site) if site == from => "previous",
            Some(site) if site == to => "new",
            Some(_) => "mixed",
        };
        outcomes.push(format!(
            "run {run}: killed after {delay:?}{}: {outcome}",
            if finished { " (had finished)" } else { "" }
        ));
        if outcome != "previous" && outcome != "new" {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            panic!(
                "run {run}, killed after {delay:?}: the out folder is {outcome}, neither the previous site nor the new one\n{}",
                outcomes.join("\n")
            );
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let missing = watcher.join().unwrap();
    eprintln!("{}", outcomes.join("\n"));
    assert_eq!(
        missing, 0,
        "the out folder was missing at {missing} looks during {runs} builds: a kill then leaves no site"
    );
}
