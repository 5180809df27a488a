//! Write: the only place that writes the site. Every page, asset and copied file of `build`,
//! `serve` and the tests leaves through [`SiteWriter`].
//!
//! Invariants kept here:
//! - nothing is written outside the output folder (paths are checked segment by segment);
//! - the previous site is never half-overwritten: pages go to a staging folder beside the
//!   output, which replaces the old output only once the whole build has been written;
//! - a folder that was not written by `catalog build` is never replaced.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::error::{Error, Result};

/// A file at the output's root that marks it as ours, so that `--out` pointing at a folder of
/// the user's is refused instead of replaced.
pub const MARKER_FILE: &str = ".catalog-build";

pub struct SiteWriter {
    target: PathBuf,
    staging: PathBuf,
    minify: bool,
    /// Deletes the previous build's leftovers in the background.
    cleaner: std::sync::Mutex<Option<std::thread::JoinHandle<()>>>,
    files: AtomicUsize,
    bytes: AtomicU64,
}

impl SiteWriter {
    /// Starts a new site that will replace `target` on [`SiteWriter::publish`].
    pub fn begin(target: &Path, minify: bool) -> Result<SiteWriter> {
        if target.exists() && !is_ours(target) {
            return Err(Error::Output(format!(
                "refusing to replace {}: it is not empty and was not written by catalog build (no {MARKER_FILE} file)",
                target.display()
            )));
        }
        let staging = sibling(target, "staging");
        // Deleting many files is slow on some file systems (seconds per thousand), so what the
        // last build left behind is moved aside and deleted while this build works.
        let cleaner = clear_leftovers(target, &staging)?;
        std::fs::create_dir_all(&staging).map_err(|e| Error::io(&staging, e))?;
        Ok(SiteWriter {
            target: target.to_path_buf(),
            staging,
            minify,
            cleaner: std::sync::Mutex::new(Some(cleaner)),
            files: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
        })
    }

    /// Writes one file of the site. `path` is relative to the site root, `/`-separated.
    /// HTML is minified on the way out when the writer was asked to.
    pub fn write(&self, path: &str, bytes: &[u8]) -> Result<()> {
        let full = self.staging.join(checked_relative(path)?);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        let minified;
        let bytes = if self.minify && path.ends_with(".html") {
            minified = minify_html::minify(bytes, &minify_config());
            &minified[..]
        } else {
            bytes
        };
        std::fs::write(&full, bytes).map_err(|e| Error::io(&full, e))?;
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    pub fn files_written(&self) -> usize {
        self.files.load(Ordering::Relaxed)
    }

    pub fn bytes_written(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Swaps the staged site in for the old one. Until this returns, the old site is whole;
    /// between the two renames there is a moment with no site at the target path, never a
    /// mixed one. The old site stays beside the new one (`.NAME.old`) until the next build
    /// deletes it in the background.
    pub fn publish(self) -> Result<PathBuf> {
        std::fs::write(self.staging.join(MARKER_FILE), concat!("catalog ", env!("CARGO_PKG_VERSION"), "\n"))
            .map_err(|e| Error::io(&self.staging, e))?;
        if let Some(cleaner) = self.cleaner.lock().expect("not poisoned").take() {
            let _ = cleaner.join();
        }
        let old = sibling(&self.target, "old");
        if self.target.exists() {
            std::fs::rename(&self.target, &old).map_err(|e| Error::io(&self.target, e))?;
        }
        std::fs::rename(&self.staging, &self.target).map_err(|e| Error::io(&self.target, e))?;
        Ok(self.target.clone())
    }
}

impl Drop for SiteWriter {
    fn drop(&mut self) {
        // A build that failed before publishing leaves no staging folder behind.
        if self.staging.exists() {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// Moves the last build's old site and any abandoned staging or trash folders to fresh trash
/// names (fast renames), then deletes them on a thread.
fn clear_leftovers(target: &Path, staging: &Path) -> Result<std::thread::JoinHandle<()>> {
    let mut doomed = Vec::new();
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    for (n, leftover) in [sibling(target, "old"), staging.to_path_buf()].into_iter().enumerate() {
        if leftover.exists() {
            let trash = sibling(target, &format!("trash-{stamp}-{n}"));
            std::fs::rename(&leftover, &trash).map_err(|e| Error::io(&leftover, e))?;
            doomed.push(trash);
        }
    }
    // Trash from a build that exited before its cleaner finished.
    let trash_prefix =
        format!(".{}.trash-", target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
    if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()).or(Some(Path::new("."))) {
        for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with(&trash_prefix) && !doomed.contains(&entry.path()) {
                doomed.push(entry.path());
            }
        }
    }
    Ok(std::thread::spawn(move || {
        for dir in doomed {
            let _ = std::fs::remove_dir_all(dir);
        }
    }))
}

fn is_ours(target: &Path) -> bool {
    target.join(MARKER_FILE).is_file() || std::fs::read_dir(target).is_ok_and(|mut entries| entries.next().is_none())
}

/// `public` -> `.public.staging` beside it (same file system, so the swap is a rename).
fn sibling(target: &Path, what: &str) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "site".into());
    target.with_file_name(format!(".{name}.{what}"))
}

/// Accepts only plain relative paths: no empty, `.`, `..` or absolute segments, no backslashes
/// or drive letters, no characters that some file systems refuse.
pub fn checked_relative(path: &str) -> Result<PathBuf> {
    let bad = |why: &str| Err(Error::Output(format!("refusing to write {path:?}: {why}")));
    if path.is_empty() || path.starts_with('/') {
        return bad("not a relative path");
    }
    let mut out = PathBuf::new();
    for segment in path.split('/') {
        if segment.is_empty() || segment == "." || segment == ".." {
            return bad("empty, `.` or `..` segment");
        }
        if segment.chars().any(|c| c.is_control() || "\\:*?\"<>|".contains(c)) {
            return bad("a character that is not allowed in file names");
        }
        out.push(segment);
    }
    Ok(out)
}

fn minify_config() -> minify_html::Cfg {
    minify_html::Cfg {
        // Keep markup any browser and validator accepts as written.
        keep_closing_tags: true,
        keep_html_and_head_opening_tags: true,
        minify_css: false,
        minify_js: false,
        ..minify_html::Cfg::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_paths_that_leave_the_site() {
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a//b", "a\\b", "C:x", "a/./b"] {
            assert!(checked_relative(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(checked_relative("a/b/index.html").unwrap(), PathBuf::from("a/b/index.html"));
    }

    #[test]
    fn publishes_atomically_and_keeps_the_old_site_until_then() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let first = SiteWriter::begin(&out, false).unwrap();
        first.write("index.html", b"one").unwrap();
        first.publish().unwrap();

        let second = SiteWriter::begin(&out, false).unwrap();
        second.write("index.html", b"two").unwrap();
        assert_eq!(std::fs::read(out.join("index.html")).unwrap(), b"one", "old site changed before publish");
        drop(second);
        assert_eq!(std::fs::read(out.join("index.html")).unwrap(), b"one", "abandoned build touched the site");
        assert!(!sibling(&out, "staging").exists());

        let third = SiteWriter::begin(&out, false).unwrap();
        third.write("other.html", b"three").unwrap();
        third.publish().unwrap();
        assert!(!out.join("index.html").exists(), "stale file survived");
        assert_eq!(std::fs::read(out.join("other.html")).unwrap(), b"three");
        // The previous site waits beside the new one, and the next build clears it away.
        assert!(sibling(&out, "old").join("index.html").exists());
        let fourth = SiteWriter::begin(&out, false).unwrap();
        fourth.publish().unwrap();
        let leftovers: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("trash") || n.contains("staging"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn refuses_to_replace_a_folder_it_did_not_write() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("thesis.tex"), "precious").unwrap();
        assert!(SiteWriter::begin(tmp.path(), false).is_err());
        assert!(tmp.path().join("thesis.tex").exists());
    }
}
