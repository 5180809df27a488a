//! Remote sources: fetch a git URL into a bare repository in the cache, then write the files of
//! the commit read into a plain folder beside it, for `discover` to walk like any other source.
//!
//! Layout, per source: `.catalog/sources/<owner>/<name>/git/` (bare repository; the commit read
//! is the ref `refs/catalog/source`), `files/` (its files), `files.commit` (the commit whose
//! files are in `files/`) and `fetched-from` (the URL and rev last fetched). Only the configured rev is fetched; with `history = false` only its
//! commit (a shallow fetch of depth 1).

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use gix::ObjectId;
use gix::remote::Direction;
use gix::remote::fetch::{Shallow, Tags};

use super::history::GitError;

/// The ref the fetched commit is stored under.
pub const SOURCE_REF: &str = "refs/catalog/source";

/// The cache folders of one source.
#[derive(Debug, Clone)]
pub struct CachePaths {
    pub git_dir: PathBuf,
    pub files: PathBuf,
    pub marker: PathBuf,
    /// The URL and rev last fetched, one line, as `SourceConfig::location` gives them.
    pub origin: PathBuf,
}

impl CachePaths {
    pub fn new(source_dir: &Path) -> CachePaths {
        CachePaths {
            git_dir: source_dir.join("git"),
            files: source_dir.join("files"),
            marker: source_dir.join("files.commit"),
            origin: source_dir.join("fetched-from"),
        }
    }
}

/// HTTPS goes through reqwest and rustls (for git fetches and `catalog stats`), whose crypto
/// provider is chosen here, once: ring, since reqwest's default, aws-lc, needs cmake and a long
/// C build.
pub fn https_ready() {
    static TLS: std::sync::Once = std::sync::Once::new();
    TLS.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Fetches `rev` (the remote's HEAD when `None`) of `url` into the bare repository at
/// `git_dir`, creating it when needed, and returns the commit fetched.
pub fn fetch(url: &str, rev: Option<&str>, git_dir: &Path, history: bool) -> Result<ObjectId, GitError> {
    https_ready();
    let repo = if git_dir.join("HEAD").is_file() {
        gix::open(git_dir)?
    } else {
        std::fs::create_dir_all(git_dir)?;
        gix::init_bare(git_dir)?
    };
    let spec = format!("+{}:{SOURCE_REF}", rev.unwrap_or("HEAD"));
    let remote = repo.remote_at(url)?.with_refspecs([spec.as_str()], Direction::Fetch)?.with_fetch_tags(Tags::None);
    let shallow = if !history {
        Shallow::DepthAtRemote(NonZeroU32::MIN)
    } else if repo.is_shallow() {
        Shallow::undo()
    } else {
        Shallow::NoChange
    };
    remote
        .connect(Direction::Fetch)?
        .prepare_fetch(gix::progress::Discard, Default::default())?
        .with_shallow(shallow)
        .receive(gix::progress::Discard, &AtomicBool::new(false))?;
    cached_commit(git_dir)
}

/// The commit last fetched into `git_dir`.
pub fn cached_commit(git_dir: &Path) -> Result<ObjectId, GitError> {
    let repo = gix::open(git_dir)?;
    let mut reference = repo.find_reference(SOURCE_REF)?;
    Ok(reference.peel_to_commit()?.id)
}

/// Makes `paths.files` hold exactly the files of `commit`. Does nothing when it already does.
/// Entries whose names could escape the folder (`..`, `.git`, separators) are skipped, symbolic
/// links are recreated as links (never followed by `discover`), submodules are left out.
pub fn check_out(paths: &CachePaths, commit: ObjectId) -> Result<(), GitError> {
    let hex = commit.to_string();
    if paths.files.is_dir() && std::fs::read_to_string(&paths.marker).is_ok_and(|m| m.trim() == hex) {
        return Ok(());
    }
    let repo = gix::open(&paths.git_dir)?;
    let tree = repo.find_commit(commit)?.tree_id()?.detach();
    let staging = paths.files.with_extension("new");
    if staging.exists() {
        std::fs::remove_dir_all(&staging)?;
    }
    std::fs::create_dir_all(&staging)?;
    write_tree(&repo, tree, &staging)?;
    if paths.files.exists() {
        std::fs::remove_dir_all(&paths.files)?;
    }
    std::fs::rename(&staging, &paths.files)?;
    std::fs::write(&paths.marker, format!("{hex}\n"))?;
    Ok(())
}

fn write_tree(repo: &gix::Repository, tree: ObjectId, dir: &Path) -> Result<(), GitError> {
    let tree = repo.find_tree(tree)?;
    let entries: Vec<(gix::objs::tree::EntryMode, String, ObjectId)> = tree
        .decode()?
        .entries
        .iter()
        .filter_map(|e| safe_name(e.filename).map(|name| (e.mode, name.to_string(), e.oid.to_owned())))
        .collect();
    for (mode, name, oid) in entries {
        let path = dir.join(&name);
        if mode.is_tree() {
            std::fs::create_dir(&path)?;
            write_tree(repo, oid, &path)?;
        } else if mode.is_link() {
            #[cfg(unix)]
            {
                let target = repo.find_blob(oid)?;
                let target = std::str::from_utf8(&target.data)?;
                std::os::unix::fs::symlink(target, &path)?;
            }
        } else if mode.is_blob() {
            std::fs::write(&path, &repo.find_blob(oid)?.data)?;
        }
    }
    Ok(())
}

/// A tree entry name that stays inside its folder on every platform, or `None`.
fn safe_name(name: &gix::bstr::BStr) -> Option<&str> {
    let name = std::str::from_utf8(name).ok()?;
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name.eq_ignore_ascii_case(".git")
        || name.contains(['/', '\\', '\0', ':']);
    (!bad).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_tree_names_are_skipped() {
        assert_eq!(safe_name("SKILL.md".into()), Some("SKILL.md"));
        for bad in ["..", ".", ".GIT", "a/b", "a\\b", "c:x", ""] {
            assert_eq!(safe_name(bad.into()), None, "{bad}");
        }
    }
}
