//! A repository's history in one walk: the commit the files were read at, its date, and for
//! every path the date of the commit that first added it and of the last commit that changed it.
//!
//! git has no "last commit touching a path" index, so the walk visits every commit reachable
//! from the tip once and diffs its tree with its first parent's (the empty tree for a root
//! commit). Only changed subtrees are descended into, so the cost follows the size of the
//! changes, not of the trees. Dates are committer dates, in seconds since 1970 UTC.
//!
//! A shallow repository has no history before its boundary, so its paths' dates are not known
//! (`paths` is `None`) rather than the boundary commit's date.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};
use gix::diff::tree::recorder::Change;
use gix::objs::FindExt;

use crate::time::Timestamp;

pub type GitError = Box<dyn std::error::Error + Send + Sync>;

/// When one path was first added and last changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathTimes {
    /// The earliest commit that added it (a path deleted and added again keeps the first).
    pub added: Option<Timestamp>,
    /// The latest commit that added, changed or deleted it.
    pub changed: Timestamp,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// Full hash of the commit the files were read at.
    pub commit: String,
    /// Its committer date.
    pub updated: Timestamp,
    /// Paths relative to the repository root, `/`-separated; `None` when the history is not
    /// available (a shallow clone).
    pub paths: Option<BTreeMap<String, PathTimes>>,
    /// Commits visited.
    pub commits: usize,
}

impl History {
    /// The date of the first commit that added `path`.
    pub fn first_seen(&self, path: &str) -> Option<Timestamp> {
        self.paths.as_ref()?.get(path)?.added
    }

    /// The date of the last commit that changed any path below `dir` (`""`: the whole tree).
    pub fn last_changed(&self, dir: &str) -> Option<Timestamp> {
        let paths = self.paths.as_ref()?;
        if dir.is_empty() {
            return paths.values().map(|t| t.changed).max();
        }
        let prefix = format!("{dir}/");
        paths.range(prefix.clone()..).take_while(|(path, _)| path.starts_with(&prefix)).map(|(_, t)| t.changed).max()
    }
}

/// Opens the repository at `git_dir` (a work tree or a git folder) and walks the history of
/// `tip`.
pub fn read(git_dir: &Path, tip: ObjectId) -> Result<History, GitError> {
    let repo = gix::open(git_dir)?;
    walk(&repo, tip)
}

pub fn walk(repo: &gix::Repository, tip: ObjectId) -> Result<History, GitError> {
    let mut repo = repo.clone();
    repo.object_cache_size_if_unset(16 * 1024 * 1024);
    let updated = Timestamp(repo.find_commit(tip)?.time()?.seconds);
    let commit = tip.to_string();
    if repo.is_shallow() {
        return Ok(History { commit, updated, paths: None, commits: 0 });
    }

    let kind = tip.kind();
    let mut times: HashMap<BString, PathTimes> = HashMap::new();
    let mut state = gix::diff::tree::State::default();
    let (mut old_buf, mut new_buf) = (Vec::new(), Vec::new());
    let mut commits = 0;
    for info in repo.rev_walk([tip]).all()? {
        let info = info?;
        commits += 1;
        let commit = info.object()?;
        let time = Timestamp(commit.time()?.seconds);
        let tree = commit.tree_id()?.detach();
        let parent_tree = match info.parent_ids.first() {
            Some(parent) => Some(repo.find_commit(*parent)?.tree_id()?.detach()),
            None => None,
        };
        if parent_tree == Some(tree) {
            continue;
        }
        let old = match parent_tree {
            Some(id) => repo.objects.find_tree_iter(&id, &mut old_buf)?,
            None => gix::objs::TreeRefIter::from_bytes(&[], kind),
        };
        let new = repo.objects.find_tree_iter(&tree, &mut new_buf)?;
        // A fresh recorder each time: it keeps the path it is at between runs.
        let mut recorder = gix::diff::tree::Recorder::default();
        gix::diff::tree(old, new, &mut state, &repo.objects, &mut recorder)?;
        for change in recorder.records.drain(..) {
            let (path, added) = match change {
                Change::Addition { entry_mode, path, .. } if !entry_mode.is_tree() => (path, true),
                Change::Modification { entry_mode, path, .. } if !entry_mode.is_tree() => (path, false),
                Change::Deletion { entry_mode, path, .. } if !entry_mode.is_tree() => (path, false),
                _ => continue,
            };
            let entry = times.entry(path).or_insert(PathTimes { added: None, changed: time });
            entry.changed = entry.changed.max(time);
            if added {
                entry.added = Some(entry.added.map_or(time, |t| t.min(time)));
            }
        }
    }
    let paths = times.into_iter().map(|(path, t)| (path.to_str_lossy().into_owned(), t)).collect();
    Ok(History { commit, updated, paths: Some(paths), commits })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The tests' git helpers: `git(dir, args, date)`, `commit_all(dir, message, date)`.
    include!("../../tests/support/git.rs");

    #[test]
    fn dates_come_from_the_commits_that_added_and_changed_each_path() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
        std::fs::create_dir_all(dir.join("skills/a")).unwrap();
        std::fs::write(dir.join("skills/a/SKILL.md"), "one").unwrap();
        commit_all(dir, "add a", "2026-01-05T10:00:00Z");
        std::fs::create_dir_all(dir.join("skills/b")).unwrap();
        std::fs::write(dir.join("skills/b/SKILL.md"), "b").unwrap();
        commit_all(dir, "add b", "2026-02-01T10:00:00Z");
        std::fs::write(dir.join("skills/a/notes.txt"), "n").unwrap();
        commit_all(dir, "change a", "2026-03-01T10:00:00Z");

        let repo = gix::open(dir).unwrap();
        let tip = repo.head_id().unwrap().detach();
        let history = walk(&repo, tip).unwrap();
        assert_eq!(history.commit, tip.to_string());
        assert_eq!(history.commits, 3);
        assert_eq!(history.updated.iso_date(), "2026-03-01");
        assert_eq!(history.first_seen("skills/a/SKILL.md").unwrap().iso_date(), "2026-01-05");
        assert_eq!(history.first_seen("skills/b/SKILL.md").unwrap().iso_date(), "2026-02-01");
        assert_eq!(history.last_changed("skills/a").unwrap().iso_date(), "2026-03-01");
        assert_eq!(history.last_changed("skills/b").unwrap().iso_date(), "2026-02-01");
        // "skills/a" is not a prefix of "skills/ab".
        assert_eq!(history.last_changed("skills/ab"), None);
        assert_eq!(history.first_seen("skills/c/SKILL.md"), None);
    }
}
