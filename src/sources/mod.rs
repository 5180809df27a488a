//! Sources: where each `[[sources]]` entry's files are read from, and the git commit they are
//! read at.
//!
//! - A folder that is the top of a git work tree: its files as they are, and the history of its
//!   HEAD commit.
//! - A plain folder, or a folder inside another git work tree: its files, and no git facts. The
//!   enclosing repository's commits are not commits of the repository the folder is a copy of,
//!   so its dates would be wrong facts; they are "not known".
//! - A git URL: fetched into `.catalog/sources/<owner>/<name>/` ([`fetch`]), or with
//!   [`Mode::Offline`] read from there as last fetched. A source that cannot be fetched is a
//!   diagnostic; its cached copy, if any, is still used.

pub mod fetch;
pub mod history;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use rayon::prelude::*;

use crate::config::{CONFIG_FILE, Config, SourceConfig};
use crate::diag::Diagnostic;
use crate::discover::RepoId;

/// The cache of fetched sources, relative to the catalog root.
pub const CACHE_DIR: &str = ".catalog/sources";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Fetch git sources before reading them.
    Fetch,
    /// Read git sources from the cache only.
    Offline,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A plain folder, or one inside another repository's work tree.
    Folder,
    /// The top folder of a git work tree.
    WorkTree,
    /// A git URL, read from the cache.
    Remote,
}

/// The commit a source's files were read at, and where its history is.
#[derive(Debug, Clone)]
pub struct GitAt {
    /// A work tree or bare git folder, for [`history::read`].
    pub repo_dir: PathBuf,
    pub commit: ObjectId,
}

/// A source ready for `discover`.
#[derive(Debug, Clone)]
pub struct ResolvedSource {
    pub repo: RepoId,
    /// The folder to read the files from.
    pub dir: PathBuf,
    pub kind: Kind,
    /// `None` when the files do not come from a commit of `repo`.
    pub git: Option<GitAt>,
    /// The source as written in catalog.toml, for messages.
    pub location: String,
}

/// `.catalog/sources/<owner>/<name>`
pub fn cache_dir(root: &Path, repo: &RepoId) -> PathBuf {
    root.join(CACHE_DIR).join(&repo.owner).join(&repo.name)
}

/// Resolves every source, fetching git sources in parallel (unless offline). Sources that
/// cannot be read are left out with a diagnostic; the order of `config.sources` is kept.
pub fn resolve(root: &Path, config: &Config, mode: Mode) -> (Vec<ResolvedSource>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut seen: HashMap<&str, &SourceConfig> = HashMap::new();
    let mut unique = Vec::new();
    for source in &config.sources {
        if let Some(first) = seen.get(source.repo.as_str()) {
            diagnostics.push(Diagnostic::error(
                root.join(CONFIG_FILE),
                None,
                format!(
                    "source {} is listed twice ({} and {}); the second is left out",
                    source.repo,
                    first.location(),
                    source.location()
                ),
            ));
            continue;
        }
        seen.insert(&source.repo, source);
        unique.push(source);
    }
    let results: Vec<(Option<ResolvedSource>, Vec<Diagnostic>)> =
        unique.par_iter().map(|source| resolve_one(root, source, mode)).collect();
    let mut resolved = Vec::new();
    for (source, diags) in results {
        resolved.extend(source);
        diagnostics.extend(diags);
    }
    (resolved, diagnostics)
}

/// Resolves one source (see [`resolve`]).
pub fn resolve_one(root: &Path, source: &SourceConfig, mode: Mode) -> (Option<ResolvedSource>, Vec<Diagnostic>) {
    let repo = RepoId::parse(&source.repo).expect("validated when the config was read");
    let config_file = root.join(CONFIG_FILE);
    let location = source.location();
    match (&source.path, &source.git) {
        (Some(path), _) => {
            let dir = root.join(path);
            if !dir.is_dir() {
                let message = format!("source {} ({location}) is not a folder; it is left out", source.repo);
                return (None, vec![Diagnostic::error(config_file, None, message)]);
            }
            let (kind, git) = match work_tree_head(&dir) {
                Some(git) => (Kind::WorkTree, Some(git)),
                None => (Kind::Folder, None),
            };
            (Some(ResolvedSource { repo, dir, kind, git, location }), Vec::new())
        }
        (None, Some(url)) => {
            let paths = fetch::CachePaths::new(&cache_dir(root, &repo));
            let mut diagnostics = Vec::new();
            let mut fetch_error = None;
            let fetched = match mode {
                Mode::Fetch => match fetch::fetch(url, source.rev.as_deref(), &paths.git_dir, source.history) {
                    Ok(commit) => {
                        let _ = std::fs::write(&paths.origin, format!("{location}\n"));
                        Some(commit)
                    }
                    Err(err) => {
                        fetch_error = Some(error_chain(&*err));
                        None
                    }
                },
                Mode::Offline => {
                    let cached = std::fs::read_to_string(&paths.origin).unwrap_or_default();
                    if !cached.is_empty() && cached.trim_end() != location {
                        diagnostics.push(Diagnostic::warning(
                            &config_file,
                            None,
                            format!(
                                "source {}: the cache holds {}, not {location}; build without --offline to fetch it",
                                source.repo,
                                cached.trim_end()
                            ),
                        ));
                    }
                    None
                }
            };
            let commit = match (fetched, fetch::cached_commit(&paths.git_dir)) {
                (Some(commit), _) => commit,
                (None, Ok(commit)) => {
                    if let Some(err) = fetch_error {
                        diagnostics.push(Diagnostic::warning(
                            &config_file,
                            None,
                            format!(
                                "source {} ({location}) could not be fetched: {err}; the copy fetched before, at commit {commit}, is used",
                                source.repo
                            ),
                        ));
                    }
                    commit
                }
                (None, Err(_)) => {
                    let message = match fetch_error {
                        Some(err) => format!(
                            "source {} ({location}) could not be fetched: {err}; there is no copy in the cache, so it is left out",
                            source.repo
                        ),
                        None => format!(
                            "source {} ({location}) is not in the cache (.catalog/sources/) and --offline forbids fetching it; it is left out",
                            source.repo
                        ),
                    };
                    diagnostics.push(Diagnostic::error(&config_file, None, message));
                    return (None, diagnostics);
                }
            };
            if let Err(err) = fetch::check_out(&paths, commit) {
                diagnostics.push(Diagnostic::error(
                    &config_file,
                    None,
                    format!("source {}: the files of commit {commit} could not be written: {err}", source.repo),
                ));
                return (None, diagnostics);
            }
            let git = GitAt { repo_dir: paths.git_dir.clone(), commit };
            (Some(ResolvedSource { repo, dir: paths.files, kind: Kind::Remote, git: Some(git), location }), diagnostics)
        }
        (None, None) => unreachable!("validated when the config was read"),
    }
}

/// The HEAD commit of the git work tree whose top folder is `dir`; `None` for a plain folder,
/// a folder inside another work tree, or a repository without commits.
pub fn work_tree_head(dir: &Path) -> Option<GitAt> {
    let repo = gix::open(dir).ok()?;
    let top = repo.workdir()?.canonicalize().ok()?;
    if top != dir.canonicalize().ok()? {
        return None;
    }
    let commit = repo.head_id().ok()?.detach();
    Some(GitAt { repo_dir: dir.to_path_buf(), commit })
}

fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        let text = inner.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = inner.source();
    }
    message
}
