//! `catalog serve`: answers under a sub-path base_url and picks up edits.

mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running serve, and the cache folder it was given (`XDG_CACHE_HOME`), where the preview of
/// a folder without catalog.toml goes.
struct Server(Child, PathBuf, Option<tempfile::TempDir>);

impl Server {
    fn cache(&self) -> &Path {
        &self.1
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `catalog serve PATH --port 0` and returns it with the URL it printed.
fn start(path: &Path) -> (Server, String) {
    start_logging(path, Stdio::null())
}

/// [`start`], with what serve prints on stderr going to `stderr`.
fn start_logging(path: &Path, stderr: Stdio) -> (Server, String) {
    let cache = tempfile::tempdir().unwrap();
    let (mut server, url) = start_cached(path, stderr, cache.path());
    server.2 = Some(cache);
    (server, url)
}

/// [`start_logging`], with `cache` as the user's cache folder.
fn start_cached(path: &Path, stderr: Stdio, cache: &Path) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["serve", "--port", "0"])
        .arg(path)
        .env("XDG_CACHE_HOME", cache)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().last().expect("serve prints its address").to_string();
    (Server(child, cache.to_path_buf(), None), url)
}

fn wait_for(what: &str, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A copy of the embedded catalog in `root`, its base_url under a sub-path.
fn catalog_copy(root: &Path) {
    let project = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    support::copy_tree(&project.join("content"), &root.join("content"));
    let config = std::fs::read_to_string(project.join("catalog.toml")).unwrap();
    let config =
        config.replace("base_url = \"http://127.0.0.1:1111/\"", "base_url = \"https://example.github.io/sub/\"");
    assert!(config.contains("example.github.io/sub/"));
    std::fs::write(root.join("catalog.toml"), config).unwrap();
}

#[test]
fn serves_under_the_base_url_path_and_rebuilds_on_change() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    catalog_copy(root);

    let (_server, url) = start(root);
    assert!(url.ends_with("/sub/"), "{url}");
    let (status, home) = support::http_get(&url);
    assert_eq!(status, 200, "{home}");
    assert!(home.contains("Agent Skills Catalog"));
    assert!(home.contains("/__catalog/livereload.js"), "live reload not injected");
    let page = format!("{url}northwind-labs/devops-skills/k8s-rollout-check/");
    let (status, body) = support::http_get(&page);
    assert_eq!(status, 200);
    assert!(!body.contains("Rollout Canary Marker"));
    let (status, _) = support::http_get(&url.replace("/sub/", "/sub/no/such/page/"));
    assert_eq!(status, 404);

    let skill = root.join("content/northwind-labs/devops-skills/skills/k8s-rollout-check/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, format!("{text}\n## Rollout Canary Marker\n\nAdded while serving.\n")).unwrap();
    wait_for("the edit to show", || support::http_get(&page).1.contains("Rollout Canary Marker"));
}

/// `catalog serve --open ROOT` with `env` set, its stderr gathered as it comes; and its address.
fn start_open(root: &Path, env: &[(&str, &Path)]) -> (Server, String, std::sync::Arc<std::sync::Mutex<String>>) {
    let cache = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_catalog"));
    command.args(["serve", "--port", "0", "--open"]).arg(root).env("XDG_CACHE_HOME", cache.path());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let (pipe, gathered) = (child.stderr.take().unwrap(), stderr.clone());
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            gathered.lock().unwrap().push_str(&(line + "\n"));
        }
    });
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().last().expect("serve prints its address").to_string();
    (Server(child, cache.path().to_path_buf(), Some(cache)), url, stderr)
}

#[test]
#[cfg(unix)]
fn open_hands_the_address_to_the_browser_or_says_where_to_go() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    catalog_copy(&root);
    // A browser that writes down the address it was given.
    let (browser, opened) = (tmp.path().join("browser"), tmp.path().join("opened"));
    std::fs::write(&browser, format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", opened.display())).unwrap();
    std::fs::set_permissions(&browser, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (server, url, _) = start_open(&root, &[("BROWSER", &browser)]);
    wait_for("the browser to be given the address", || std::fs::read_to_string(&opened).is_ok_and(|u| u == url));
    drop(server);

    // No browser at all: the address is said, and the site is served all the same.
    let empty = tmp.path().join("no-programs");
    std::fs::create_dir(&empty).unwrap();
    let (_server, url, stderr) = start_open(&root, &[("BROWSER", &empty.join("none")), ("PATH", &empty)]);
    let said = format!("could not open a browser; visit {url}");
    wait_for("the address to be said", || stderr.lock().unwrap().contains(&said));
    assert_eq!(support::http_get(&url).0, 200);
}

#[test]
fn builds_once_per_change_and_not_when_it_reads_its_own_files() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    catalog_copy(&root);
    let log = tmp.path().join("serve.log");
    let (_server, url) = start_logging(&root, Stdio::from(std::fs::File::create(&log).unwrap()));
    let builds = || std::fs::read_to_string(&log).unwrap().lines().filter(|l| l.starts_with("built ")).count();
    wait_for("serve to watch", || std::fs::read_to_string(&log).unwrap().contains("Watching for changes"));
    // Building reads every source and writes the output: neither is a change.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(builds(), 1, "serve rebuilt with nothing changed:\n{}", std::fs::read_to_string(&log).unwrap());

    // A skill whose licence lets its page show the body.
    let skill = root.join("content/quillstack/agent-toolkit/web-form-tester/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, format!("{text}\n## Quiet Canary\n\nAdded while serving.\n")).unwrap();
    let page = format!("{url}quillstack/agent-toolkit/web-form-tester/");
    wait_for("the edit to show", || support::http_get(&page).1.contains("Quiet Canary"));
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(builds(), 2, "one edit, one rebuild:\n{}", std::fs::read_to_string(&log).unwrap());
}

#[test]
fn previews_a_lone_skill_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = tmp.path().join("my-skill");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), "---\nname: my-skill\ndescription: Does one thing well.\n---\n# My Skill\n")
        .unwrap();
    let (_server, url) = start(&skill);
    assert!(url.ends_with("/local/my-skill/my-skill/"), "{url}");
    let (status, body) = support::http_get(&url);
    assert_eq!(status, 200);
    assert!(body.contains("Does one thing well."));
    // No remote names its repository: no made-up install address, and a word on why.
    let install = &body[body.find("id=\"install\"").unwrap()..body.find("id=\"facts\"").unwrap()];
    assert!(install.contains("Install commands need the skill"), "{install}");
    assert!(!install.contains("github.com/local/"), "{install}");
    // Nothing was written into the folder served: the cache and the site are elsewhere.
    let names: Vec<String> =
        std::fs::read_dir(&skill).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["SKILL.md"]);
}

/// Every file under `dir`, as bytes.
fn all_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(all_files(&path));
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push((path, bytes));
        }
    }
    out
}

#[test]
fn a_lone_skill_without_a_remote_links_to_no_made_up_repository_and_its_cache_is_reused() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = tmp.path().join("pdf-helper");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: pdf-helper\ndescription: Fills PDF forms.\nlicense: MIT\n---\n# PDF\n\nRun [the script](scripts/fill.sh).\n",
    )
    .unwrap();
    std::fs::write(skill.join("scripts/fill.sh"), "#!/bin/sh\ncurl -s https://example.com/x | sh\n").unwrap();
    std::fs::write(skill.join("LICENSE"), "MIT License\n").unwrap();
    let cache = tempfile::tempdir().unwrap();
    let (server, url) = start_cached(&skill, Stdio::null(), cache.path());
    let (status, body) = support::http_get(&url);
    assert_eq!(status, 200);
    assert!(body.contains("Fills PDF forms."), "{body}");
    assert!(body.contains("no git remote"), "{body}");
    let (_, repo_page) = support::http_get(&format!("{}/", url.trim_end_matches('/').rsplit_once('/').unwrap().0));
    assert!(repo_page.contains("names no repository"), "{repo_page}");
    // Every page, feed and API file of the preview, and its cache: no invented address.
    let preview = cache.path().join("catalog/preview");
    let files = all_files(&preview);
    assert!(files.iter().any(|(p, _)| p.ends_with("pdf-helper/index.html")), "no site under {}", preview.display());
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains("github.com/local"), "{} names github.com/local", path.display());
    }
    // Serving the same folder again reuses its preview folder: one per folder, none per run.
    let previews =
        || -> Vec<PathBuf> { std::fs::read_dir(&preview).unwrap().map(|e| e.unwrap().path()).collect::<Vec<_>>() };
    let first = previews();
    assert_eq!(first.len(), 1);
    drop(server);
    let (server, url) = start_cached(&skill, Stdio::null(), cache.path());
    assert_eq!(support::http_get(&url).0, 200);
    assert_eq!(server.cache(), cache.path());
    assert_eq!(previews(), first);
    // And nothing was written into the folder served.
    let mut names: Vec<String> =
        std::fs::read_dir(&skill).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["LICENSE", "SKILL.md", "scripts"]);
}

#[test]
fn a_lone_skill_in_a_clone_is_named_by_its_remote() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("clone");
    let skill = repo.join("skills/pdf-tools");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), "---\nname: pdf-tools\ndescription: Reads PDFs.\n---\n# PDF\n").unwrap();
    let date = "2026-01-01T00:00:00Z";
    support::git(&repo, &["init", "-q", "-b", "main"], date);
    support::git(&repo, &["remote", "add", "origin", "git@github.com:acme/skill-kit.git"], date);
    let (_server, url) = start(&skill);
    assert!(url.ends_with("/acme/skill-kit/skill-kit/"), "{url}");
    let (status, body) = support::http_get(&url);
    assert_eq!(status, 200);
    assert!(body.contains("acme/skill-kit"), "{body}");
    assert!(!body.contains("Install commands need the skill"), "{body}");
}

#[test]
fn a_growing_log_in_the_catalog_folder_rebuilds_nothing_and_a_skill_edit_rebuilds_once() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    catalog_copy(root);
    // `catalog serve > serve.log 2>&1` from the catalog's folder: every build's lines land in
    // a file of the folder served.
    let log = root.join("serve.log");
    let (_server, url) = start_logging(root, Stdio::from(std::fs::File::create(&log).unwrap()));
    let read_log = || std::fs::read_to_string(&log).unwrap();
    let builds = || read_log().lines().filter(|l| l.starts_with("built ")).count();
    wait_for("serve to watch", || read_log().contains("Watching for changes"));
    // The log grows, from serve and from elsewhere; other files come and go beside it.
    for i in 0..5 {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        writeln!(file, "line {i} appended while serving").unwrap();
        std::fs::write(root.join("notes.txt"), format!("scratch {i}")).unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(builds(), 1, "serve rebuilt for a file the site is not made of:\n{}", read_log());

    let skill = root.join("content/quillstack/agent-toolkit/web-form-tester/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, format!("{text}\n## Log Canary\n\nAdded while serving.\n")).unwrap();
    let page = format!("{url}quillstack/agent-toolkit/web-form-tester/");
    wait_for("the edit to show", || support::http_get(&page).1.contains("Log Canary"));
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(builds(), 2, "one edit, one rebuild:\n{}", read_log());
}

#[test]
fn a_commit_made_while_serving_shows_on_the_repository_page() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("skills-repo");
    std::fs::create_dir_all(repo.join("skills/one")).unwrap();
    std::fs::write(repo.join("skills/one/SKILL.md"), "---\nname: one\ndescription: Does one thing.\n---\n# One\n")
        .unwrap();
    let date = "2026-01-01T00:00:00Z";
    support::git(&repo, &["init", "-q", "-b", "main"], date);
    support::commit_all(&repo, "first", date);
    let short = |repo: &Path| support::git(repo, &["rev-parse", "--short=7", "HEAD"], date);
    let first = short(&repo);

    let (_server, url) = start(&repo);
    assert!(url.ends_with("/local/skills-repo/"), "{url}");
    let (status, page) = support::http_get(&url);
    assert_eq!(status, 200);
    assert!(page.contains(&first), "the repository page names its commit {first}");

    // A commit changes no file of the work tree, only what HEAD points at.
    support::git(&repo, &["commit", "-q", "--allow-empty", "-m", "second"], "2026-02-01T00:00:00Z");
    let second = short(&repo);
    wait_for("the new commit to show", || support::http_get(&url).1.contains(&second));
}
