//! The folders of the staging folder, each made once per build.

use std::path::Path;
use std::sync::Mutex;

use crate::error::{Error, Result};

/// Folders known to exist under the staging folder, by their `/`-separated path relative to it.
/// The first rebuild after a clean build links every file of the site into an empty staging
/// folder; asking the file system for each file's folder (a `mkdir` that fails, then a `stat`)
/// cost two calls per file that already had its folder, a third of that build's folder calls.
#[derive(Default)]
pub(super) struct MadeFolders {
    known: Mutex<crate::FastSet<String>>,
}

impl MadeFolders {
    /// Makes `dir` (a checked relative path, `/`-separated; empty for `root` itself) under
    /// `root`, with whichever of its parents this writer has not made or met yet.
    pub(super) fn make(&self, root: &Path, dir: &str) -> Result<()> {
        let missing: Vec<&str> = {
            let known = self.known.lock().expect("not poisoned");
            std::iter::successors(Some(dir), |at| at.rsplit_once('/').map(|(parent, _)| parent))
                .take_while(|at| !at.is_empty() && !known.contains(*at))
                .collect()
        };
        if missing.is_empty() {
            return Ok(());
        }
        for folder in missing.iter().rev() {
            let full = root.join(folder);
            match std::fs::create_dir(&full) {
                Ok(()) => {}
                // Left by the older generation, or made meanwhile by another thread.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && full.is_dir() => {}
                Err(e) => return Err(Error::io(&full, e)),
            }
        }
        self.known.lock().expect("not poisoned").extend(missing.into_iter().map(String::from));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_parents_and_accepts_folders_already_there() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("old/kept")).unwrap();
        let folders = MadeFolders::default();
        for dir in ["a/b/c", "a/b/d", "a", "old/kept/new", "", "a/b/c"] {
            folders.make(root, dir).unwrap();
            assert!(root.join(dir).is_dir(), "{dir:?} not made");
        }
        // A file where a folder is wanted is an error, not a folder taken as made.
        std::fs::write(root.join("file"), "").unwrap();
        assert!(folders.make(root, "file/x").is_err());
        assert!(folders.make(root, "file").is_err());
    }

    #[test]
    fn threads_making_the_same_folders_all_succeed() {
        let tmp = tempfile::tempdir().unwrap();
        let folders = MadeFolders::default();
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let (folders, root) = (&folders, tmp.path());
                scope.spawn(move || {
                    for i in 0..50 {
                        folders.make(root, &format!("x/{}/y/{thread}", i % 5)).unwrap();
                    }
                });
            }
        });
        assert_eq!(std::fs::read_dir(tmp.path().join("x")).unwrap().count(), 5);
    }
}
