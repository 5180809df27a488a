//! `catalog serve`: build, serve on 127.0.0.1 under the base_url's path, watch the inputs,
//! rebuild on change and reload open pages (server-sent events). A failed rebuild is shown in
//! the terminal and over the page; the last good site stays served.
//!
//! PATH may be a catalog (a folder with catalog.toml), a repository of skills or one skill
//! folder; for the last two a one-repository catalog is made around it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;

use crate::config::{CONFIG_FILE, Config, SourceConfig};
use crate::discover::SKILL_FILE_NAMES;
use crate::ops::build::{BuildOptions, Session, build_in_session};
use crate::slug::slugify;

/// Paths under this prefix belong to the server, not the site.
const SERVER_PREFIX: &str = "/__catalog/";
const LIVERELOAD_JS: &[u8] = include_bytes!("livereload.js");

#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// A catalog root, a repository or a skill folder.
    pub path: PathBuf,
    /// 0 picks a free port.
    pub port: u16,
    pub open: bool,
    /// List every diagnostic after each build, not only the errors.
    pub verbose: bool,
}

/// What to build for a PATH: the catalog root, its config, and the page to open first.
#[derive(Debug, Clone)]
pub struct ServePlan {
    /// The folder holding catalog.toml (a catalog), or a folder of the serve's own outside the
    /// path served (a repository or a skill, which get nothing written into them).
    pub root: PathBuf,
    /// The path served, as the user gave it (canonical).
    pub served: PathBuf,
    pub config: Config,
    /// Site path of the page to open (`""` for the home page).
    pub start: String,
    /// What the site is made of: a change under one of these triggers a rebuild, a change
    /// anywhere else (a log file, the output, the cache) does not.
    pub watch: Vec<PathBuf>,
}

/// The folders and files of a catalog that make its site, beside its sources.
const CATALOG_INPUTS: &[&str] = &[CONFIG_FILE, "templates", "static", "data"];

impl ServePlan {
    pub fn for_path(path: &Path) -> anyhow::Result<ServePlan> {
        let path = path.canonicalize().with_context(|| format!("{} does not exist", path.display()))?;
        if path.join(CONFIG_FILE).is_file() {
            let config = Config::load(&path)?;
            let mut watch: Vec<PathBuf> = CATALOG_INPUTS.iter().map(|name| path.join(name)).collect();
            watch.extend(config.sources.iter().filter_map(|s| s.path.as_ref()).map(|p| path.join(p)));
            return Ok(ServePlan { root: path.clone(), served: path, config, start: String::new(), watch });
        }
        let is_skill = SKILL_FILE_NAMES.iter().any(|name| path.join(name).is_file());
        let folder = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "skill".into());
        // The repository named by the git remote of the work tree the folder is in; without
        // one, an address to build pages under, which the pages never show as a repository.
        let remote = github_repo_of(&path);
        let without_repository = remote.is_none();
        let repo = remote.unwrap_or_else(|| format!("local/{}", slugify(&folder)));
        let config = Config {
            title: format!("Preview of {folder}"),
            base_url: "/".into(),
            description: String::new(),
            sources: vec![SourceConfig {
                path: Some(path.clone()),
                git: None,
                rev: None,
                history: true,
                repo: repo.clone(),
                line: None,
            }],
            suppress: Vec::new(),
            publish: Default::default(),
            without_repository,
        };
        // A lone skill sits at its source's root, so its page is owner/repo/<repo name>/.
        let start = if is_skill {
            format!("{repo}/{}/", repo.rsplit('/').next().unwrap_or_default())
        } else {
            format!("{repo}/")
        };
        let root = preview_root(&path);
        std::fs::create_dir_all(&root).with_context(|| format!("creating {}", root.display()))?;
        Ok(ServePlan { root, served: path.clone(), config, start, watch: vec![path] })
    }
}

/// Where the preview of a repository or skill folder keeps its cache and site: the user's cache
/// folder, one folder per path served, so that serving it again reuses the cache and nothing
/// grows per run. Never inside the folder served, which gets nothing written into it.
fn preview_root(served: &Path) -> PathBuf {
    let absolute = |var: &str| std::env::var_os(var).map(PathBuf::from).filter(|p| p.is_absolute());
    let cache = absolute("XDG_CACHE_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".cache")))
        .filter(|cache| !cache.starts_with(served))
        .unwrap_or_else(std::env::temp_dir);
    let key = blake3::hash(served.as_os_str().as_encoded_bytes()).to_hex();
    cache.join("catalog/preview").join(&key[..16])
}

/// `owner/name` from the `origin` remote of the git work tree `path` is in, when it is on
/// GitHub.
fn github_repo_of(path: &Path) -> Option<String> {
    let top = path.ancestors().find(|dir| dir.join(".git").exists())?;
    let git = top.join(".git");
    // A linked work tree or submodule has a `.git` file naming its git folder.
    let git_dir = if git.is_file() {
        let text = std::fs::read_to_string(&git).ok()?;
        let named = PathBuf::from(text.trim().strip_prefix("gitdir:")?.trim());
        let dir = if named.is_absolute() { named } else { top.join(named) };
        // A linked work tree's config is in the main repository's folder.
        match std::fs::read_to_string(dir.join("commondir")) {
            Ok(common) => dir.join(common.trim()),
            Err(_) => dir,
        }
    } else {
        git
    };
    let config = std::fs::read_to_string(git_dir.join("config")).ok()?;
    let mut in_origin = false;
    let url = config.lines().map(str::trim).find_map(|line| {
        if line.starts_with('[') {
            in_origin = line == "[remote \"origin\"]";
            return None;
        }
        if !in_origin {
            return None;
        }
        let (key, value) = line.split_once('=')?;
        (key.trim() == "url").then(|| value.trim().to_string())
    })?;
    let rest = url.split("github.com").nth(1)?.trim_start_matches([':', '/']);
    let rest = rest.trim_end_matches('/').trim_end_matches(".git");
    crate::discover::RepoId::parse(rest).map(|id| id.full())
}

/// The path part of a base URL: `https://x.github.io/skills/` -> `/skills/`.
pub fn base_path(base_url: &str) -> String {
    let after_scheme = base_url.split_once("://").map(|(_, rest)| rest).unwrap_or(base_url);
    let path = after_scheme.find('/').map(|i| &after_scheme[i..]).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    if path.ends_with('/') { path.to_string() } else { format!("{path}/") }
}

/// Clients of the event stream.
#[derive(Clone, Default)]
struct Subscribers(Arc<Mutex<Vec<Sender<String>>>>);

impl Subscribers {
    fn subscribe(&self) -> Receiver<String> {
        let (tx, rx) = channel();
        self.0.lock().expect("not poisoned").push(tx);
        rx
    }

    fn broadcast(&self, event: &str, data: &str) {
        let message = format!("event: {event}\ndata: {}\n\n", data.replace('\n', "\ndata: "));
        self.0.lock().expect("not poisoned").retain(|tx| tx.send(message.clone()).is_ok());
    }
}

/// A response body that streams events as they come.
struct EventStream {
    rx: Receiver<String>,
    pending: Vec<u8>,
}

impl Read for EventStream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() {
            // A comment line every 15 s notices closed connections.
            match self.rx.recv_timeout(Duration::from_secs(15)) {
                Ok(message) => self.pending = message.into_bytes(),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => self.pending = b": ping\n\n".to_vec(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

pub fn serve(options: &ServeOptions) -> anyhow::Result<()> {
    let plan = ServePlan::for_path(&options.path)?;
    let server = tiny_http::Server::http(("127.0.0.1", options.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{}: {e}", options.port))?;
    let port = server.server_addr().to_ip().map(|a| a.port()).unwrap_or(options.port);
    let prefix = base_path(&plan.config.base_url);
    let base_url = format!("http://127.0.0.1:{port}{prefix}");
    // The preview goes beside the cache: the catalog's, or the serve's own folder.
    let out = plan.root.join(".catalog/serve/site");
    // Rebuilds read git sources from the cache; only the first build may fetch them.
    let build_options = BuildOptions {
        root: plan.root.clone(),
        out: Some(out.clone()),
        base_url: Some(base_url.clone()),
        minify: false,
        offline: true,
    };
    let first_options = BuildOptions { offline: false, ..build_options.clone() };

    // Sources no change was reported under stay loaded between builds.
    let mut session = Session::default();
    let first = build_in_session(&first_options, plan.config.clone(), &mut session)
        .map_err(|e| anyhow::anyhow!("the first build failed: {e}"))?;
    let rebuild = {
        let plan = plan.clone();
        let build_options = build_options.clone();
        let verbose = options.verbose;
        move |changed: Option<&[PathBuf]>| -> Result<Rebuilt, String> {
            match changed {
                Some(paths) => session.changed(paths),
                None => session.forget(),
            }
            // The config may have changed too; a catalog re-reads it on every build.
            let config = if plan.root.join(CONFIG_FILE).is_file() {
                Config::load(&plan.root).map_err(|e| e.to_string())?
            } else {
                plan.config.clone()
            };
            let report = build_in_session(&build_options, config, &mut session).map_err(|e| e.to_string())?;
            crate::diag::print_all(&report.summary.diagnostics, verbose);
            if verbose {
                report.print_timings();
            }
            Ok(Rebuilt { summary: built(&report), mirror: report.written > MIRROR_AFTER_WRITTEN })
        }
    };
    crate::diag::print_all(&first.summary.diagnostics, options.verbose);
    eprintln!("{}", built(&first));
    let start_url = format!("{base_url}{}", plan.start);
    // The first line on stdout is the address, for people and for scripts.
    println!("Serving {} at {start_url}", plan.served.display());
    if plan.config.without_repository {
        eprintln!(
            "{} has no git remote naming its repository: the pages show no install commands, which need one",
            plan.served.display()
        );
    }
    if options.open {
        open_browser(&start_url);
    }

    let subscribers = Subscribers::default();
    watch(&plan, &out, subscribers.clone(), rebuild)?;

    for request in server.incoming_requests() {
        let subscribers = subscribers.clone();
        let out = out.clone();
        let prefix = prefix.clone();
        std::thread::spawn(move || respond(request, &out, &prefix, &subscribers));
    }
    Ok(())
}

fn watch(
    plan: &ServePlan,
    out: &Path,
    subscribers: Subscribers,
    mut rebuild: impl FnMut(Option<&[PathBuf]>) -> Result<Rebuilt, String> + Send + 'static,
) -> anyhow::Result<()> {
    use notify::{RecursiveMode, Watcher};
    let out_parent = out.parent().unwrap_or(out).to_path_buf();
    // Outputs and caches are never inputs, even inside a source.
    let generated: Vec<PathBuf> =
        ["public", ".catalog", "target"].iter().map(|d| plan.root.join(d)).chain([out_parent]).collect();
    let inputs = plan.watch.clone();
    let own_git = plan.root.join(".git");
    let git_inputs = own_git.clone();
    // Only what the site is made of: a log file written into the catalog's folder (`catalog
    // serve > serve.log`) would otherwise rebuild the site on every line the rebuild logs.
    let ignored = move |path: &Path| {
        let made_of = inputs.iter().any(|input| path.starts_with(input)) || path.starts_with(&git_inputs);
        !made_of || generated.iter().any(|g| path.starts_with(g)) || !is_input(path)
    };
    let (tx, rx) = channel::<notify::Result<notify::Event>>();
    // Only changes: opening and reading (which every build does to the whole tree) would flood
    // the kernel's event queue, and an overflowed queue means rereading everything.
    let config = notify::Config::default().with_event_kinds(notify::EventKindMask::CORE);
    let mut watcher = notify::RecommendedWatcher::new(tx, config)?;
    // The catalog's own folder holds the outputs, whose writes are no change (and would flood
    // the queue too): it is watched alone, for catalog.toml and inputs made later, and each
    // input folder on its own.
    watcher
        .watch(&plan.root, RecursiveMode::NonRecursive)
        .with_context(|| format!("watching {}", plan.root.display()))?;
    for entry in std::fs::read_dir(&plan.root)?.flatten() {
        watch_input(&mut watcher, &entry.path(), &ignored);
    }
    // The catalog's own repository, whose commits date the skills in it: what moves its HEAD.
    if own_git.is_dir() {
        let _ = watcher.watch(&own_git, RecursiveMode::NonRecursive);
        let _ = watcher.watch(&own_git.join("refs/heads"), RecursiveMode::Recursive);
    }
    // Inputs directly in the catalog's folder were watched above; the folder itself (a source
    // at ".") never is as a whole, since it holds the outputs.
    let deeper = |p: &&PathBuf| **p != plan.root && p.parent() != Some(plan.root.as_path()) && p.is_dir();
    for path in plan.watch.iter().filter(deeper) {
        watcher.watch(path, RecursiveMode::Recursive).with_context(|| format!("watching {}", path.display()))?;
    }
    let root = plan.root.clone();
    let out = out.to_path_buf();
    // After the first build (and any rebuild that wrote much), the older generation of the
    // site is linked up to the published one while no change waits, so that a rebuild writes
    // only what it changes. A mirror that fails costs the next build that time, nothing else.
    let mirror = move || drop(crate::write::SiteWriter::mirror(&out));
    std::thread::spawn(move || {
        mirror();
        eprintln!("Watching for changes; Ctrl+C stops.");
        while let Ok(event) = rx.recv() {
            // A save is often several events (write, rename, attributes): build once they stop.
            let mut changes = Changes::default();
            changes.add(event, &ignored);
            while let Ok(event) = rx.recv_timeout(QUIET_BEFORE_BUILD) {
                changes.add(event, &ignored);
            }
            for path in changes.paths.iter().filter(|p| p.parent() == Some(root.as_path())) {
                watch_input(&mut watcher, path, &ignored);
            }
            let changed: Option<&[PathBuf]> = match &changes.lost {
                // What changed is not known, so nothing loaded is trusted.
                Some(err) => {
                    eprintln!("watching: {err}; reading everything again");
                    None
                }
                None => {
                    let Some(first) = changes.paths.first() else { continue };
                    eprintln!("changed: {}", first.display());
                    Some(&changes.paths)
                }
            };
            match rebuild(changed) {
                Ok(rebuilt) => {
                    eprintln!("{}", rebuilt.summary);
                    subscribers.broadcast("reload", "");
                    if rebuilt.mirror {
                        mirror();
                    }
                }
                Err(err) => {
                    eprintln!("error: {err}");
                    subscribers.broadcast("build-error", &err);
                }
            }
        }
    });
    Ok(())
}

/// Whether a change at `path` can change the site: not inside a dependency folder, nor inside a
/// git repository's own files, except those that move its HEAD (a commit or a checkout changes
/// the dates and commit the pages show, while the work tree may stay as it was).
fn is_input(path: &Path) -> bool {
    let parts: Vec<&str> = path.components().filter_map(|c| c.as_os_str().to_str()).collect();
    if parts.contains(&"node_modules") {
        return false;
    }
    match parts.iter().position(|part| *part == ".git") {
        None => true,
        Some(at) => matches!(parts[at + 1..], ["HEAD"] | ["packed-refs"] | ["refs", "heads", _, ..]),
    }
}

/// Watches one entry of the catalog's folder, and everything under it.
fn watch_input(watcher: &mut impl notify::Watcher, path: &Path, ignored: impl Fn(&Path) -> bool) {
    if !ignored(path) && path.is_dir() {
        // A folder that went away again is no error: its removal is a change like any other.
        let _ = watcher.watch(path, notify::RecursiveMode::Recursive);
    }
}

/// What a rebuild did, as the watcher needs it.
struct Rebuilt {
    /// The line to print.
    summary: String,
    /// Whether to link the older generation up to the new one while no change waits.
    mirror: bool,
}

/// After a rebuild that wrote this many files or fewer, the older generation is not mirrored:
/// the next build links those few files itself, while a mirror walks the whole site (about
/// 0.3 s at 60,000 skills), and an edit made meanwhile would wait for it.
const MIRROR_AFTER_WRITTEN: usize = 2_000;

/// The line serve prints after each build (scripts and tests wait for it).
fn built(report: &crate::ops::BuildReport) -> String {
    format!("built {} in {:.2}s", crate::plural::count(report.summary.skills, "skill"), report.elapsed.as_secs_f64())
}

/// How long the watcher must be quiet before a change is built.
const QUIET_BEFORE_BUILD: Duration = Duration::from_millis(50);

/// What the watcher reported since the last build.
#[derive(Default)]
struct Changes {
    paths: Vec<PathBuf>,
    /// Why changes may have gone unreported (the watcher's queue overflowed, it failed).
    lost: Option<String>,
}

impl Changes {
    fn add(&mut self, event: notify::Result<notify::Event>, ignored: impl Fn(&Path) -> bool) {
        match event {
            Err(err) => self.lost = Some(err.to_string()),
            Ok(event) if event.need_rescan() => self.lost = Some("the watcher lost events".into()),
            // Reading a file or a folder (the build itself does) changes nothing.
            Ok(event) if event.kind.is_access() => {}
            Ok(event) => self.paths.extend(event.paths.into_iter().filter(|p| !ignored(p))),
        }
    }
}

fn respond(request: tiny_http::Request, out: &Path, prefix: &str, subscribers: &Subscribers) {
    let url = request.url().split(['?', '#']).next().unwrap_or("/").to_string();
    let header = |name: &str, value: &str| {
        tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
    };
    if url == format!("{SERVER_PREFIX}events") {
        let stream = EventStream { rx: subscribers.subscribe(), pending: b": connected\n\n".to_vec() };
        let response = tiny_http::Response::new(
            200.into(),
            vec![header("Content-Type", "text/event-stream"), header("Cache-Control", "no-cache")],
            stream,
            None,
            None,
        );
        let _ = request.respond(response);
        return;
    }
    if url == format!("{SERVER_PREFIX}livereload.js") {
        let _ = request.respond(
            tiny_http::Response::from_data(LIVERELOAD_JS).with_header(header("Content-Type", "text/javascript")),
        );
        return;
    }
    if url == "/" && prefix != "/" {
        let _ = request.respond(tiny_http::Response::empty(302).with_header(header("Location", prefix)));
        return;
    }
    let file = url
        .strip_prefix(prefix)
        .or_else(|| (url.as_str() == prefix.trim_end_matches('/')).then_some(""))
        .and_then(|rest| site_file(out, rest));
    let (status, path) = match file {
        Some(path) => (200, path),
        None => (404, out.join("404.html")),
    };
    let mut body = std::fs::read(&path).unwrap_or_default();
    let kind = content_type(&path);
    if kind.starts_with("text/html") {
        body = inject_livereload(body);
    }
    let response = tiny_http::Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", kind))
        .with_header(header("Cache-Control", "no-store"));
    let _ = request.respond(response);
}

/// The file for a path below the site root, never outside it.
fn site_file(out: &Path, rest: &str) -> Option<PathBuf> {
    let decoded = percent_decode(rest);
    if decoded.split('/').any(|s| s == ".." || s.contains('\\')) {
        return None;
    }
    let mut file = out.join(decoded.trim_start_matches('/'));
    if file.is_dir() {
        file = file.join("index.html");
    }
    file.is_file().then_some(file)
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let (b'%', Some(byte)) = (bytes[i], hex) {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn inject_livereload(body: Vec<u8>) -> Vec<u8> {
    let tag = format!("<script src=\"{SERVER_PREFIX}livereload.js\" defer></script>");
    let text = String::from_utf8_lossy(&body);
    match text.rfind("</body>") {
        Some(at) => format!("{}{tag}{}", &text[..at], &text[at..]).into_bytes(),
        None => format!("{text}{tag}").into_bytes(),
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("xml") => "application/xml",
        Some("md" | "txt") => "text/plain; charset=utf-8",
        Some("gz") => "application/gzip",
        _ => "application/octet-stream",
    }
}

/// Opens `url` in the user's browser (`$BROWSER`, else the desktop's default); without one,
/// says where to go. On a thread of its own: serving never waits for it, not even for a text
/// browser that keeps the terminal until it is closed.
fn open_browser(url: &str) {
    let url = url.to_string();
    std::thread::spawn(move || {
        if webbrowser::open(&url).is_err() {
            eprintln!("could not open a browser; visit {url}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_moves_a_repository_s_head_counts_among_its_git_files() {
        for input in ["r/skills/a/SKILL.md", "r/.git/HEAD", "r/.git/packed-refs", "r/.git/refs/heads/main"] {
            assert!(is_input(Path::new(input)), "{input}");
        }
        for other in ["r/.git/index", "r/.git/objects/ab/cdef", "r/.git/refs/remotes/origin/main", "r/node_modules/x"] {
            assert!(!is_input(Path::new(other)), "{other}");
        }
    }

    #[test]
    fn base_paths() {
        assert_eq!(base_path("https://x.github.io/skills/"), "/skills/");
        assert_eq!(base_path("https://x.github.io/skills"), "/skills/");
        assert_eq!(base_path("http://127.0.0.1:1111/"), "/");
        assert_eq!(base_path("/"), "/");
    }

    #[test]
    fn site_files_stay_inside_the_site() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("a")).unwrap();
        std::fs::write(tmp.path().join("a/index.html"), "x").unwrap();
        assert!(site_file(tmp.path(), "a/").is_some());
        assert!(site_file(tmp.path(), "../etc/passwd").is_none());
        assert!(site_file(tmp.path(), "%2e%2e/etc/passwd").is_none());
    }

    #[test]
    fn livereload_goes_before_the_end_of_body() {
        let out = String::from_utf8(inject_livereload(b"<html><body>x</body></html>".to_vec())).unwrap();
        assert!(out.contains("x<script src=\"/__catalog/livereload.js\" defer></script></body>"));
    }
}
