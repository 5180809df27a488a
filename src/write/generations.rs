//! Publishing: the staging folder sealed as a generation (its manifest, named by what it holds,
//! and its marker), swapped in for the published site in one step; and the folders the writer
//! keeps beside the output.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use crate::error::{Error, Result};
use crate::hash::{hex, unhex};

use super::manifest::Manifest;
use super::{Entry, Held, MARKER_FILE, Manifests, SiteWriter, WriteStats, checked_relative};

impl SiteWriter {
    /// Removes what the older generation has and the new site has not, then swaps the staged
    /// site in for the published one. Until this returns, the published site is whole. On
    /// Linux the swap is one atomic exchange of the two folders; elsewhere it is two renames,
    /// with a moment with no site at the target path (never a mixed one).
    pub fn publish(self) -> Result<(PathBuf, WriteStats)> {
        self.publish_keeping().map(|(target, stats, manifests)| {
            crate::drop_later(manifests);
            (target, stats)
        })
    }

    /// [`SiteWriter::publish`], handing back the manifests of the two generations now on disk
    /// for the next [`SiteWriter::begin_with`].
    pub fn publish_keeping(mut self) -> Result<(PathBuf, WriteStats, Manifests)> {
        let (generation, next) = self.seal_keeping()?;
        let manifests = manifests_dir(&self.target);
        let previous = generation_of(&self.target);
        if self.target.exists() {
            exchange(&self.staging, &self.target)?;
        } else {
            std::fs::rename(&self.staging, &self.target).map_err(|e| Error::io(&self.target, e))?;
        }
        let stats = WriteStats {
            files: self.files_written(),
            bytes: self.bytes_written(),
            written: self.written.load(Ordering::Relaxed),
            reused_pages: self.reused.load(Ordering::Relaxed),
            generation: generation.clone(),
        };
        // Only the manifests of the two generations on disk are kept.
        let keep = [Some(generation.clone()), previous.clone()];
        for entry in std::fs::read_dir(&manifests).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if unhex(name.trim_end_matches(".tmp")).is_some() && !keep.iter().flatten().any(|id| *id == name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        let target = self.target.clone();
        // The old published manifest becomes the older generation's.
        let mut manifests = Manifests::default();
        manifests.held.push((generation.clone(), next));
        if let Some(previous) = previous.filter(|id| *id != generation) {
            manifests.held.push((previous, std::mem::take(&mut self.published)));
        }
        crate::drop_later(self);
        Ok((target, stats, manifests))
    }

    /// Brings the older generation up to what the published site holds, by linking, so that the
    /// next build links and writes only what it changes. The first build after a clean one
    /// otherwise links every file (117,000 at 60,000 skills, seconds); `serve` does it while it
    /// waits for a change. Does nothing when the published site's manifest is not trusted.
    pub fn mirror(target: &Path) -> Result<()> {
        use rayon::prelude::*;
        let writer = SiteWriter::begin(target, false)?;
        if writer.published.is_empty() {
            return Ok(());
        }
        let files: Vec<(&str, Entry)> = writer.published.iter().collect();
        let linked = files.into_par_iter().try_for_each(|(path, entry)| {
            let held = Held { published: Some(entry), staged: writer.staged.get(path) };
            if !writer.place_published(path, entry.content, held)? {
                // Gone from the published site: the next build writes it.
                return Err(Error::Output(format!("{path} is missing from the published site")));
            }
            writer.record(path, entry, held);
            Ok(())
        });
        // An unfinished mirror is left without its marker: the next build starts it afresh.
        linked?;
        writer.seal()?;
        Ok(())
    }

    /// Finishes the staging folder as a generation: removes what the older generation has and
    /// the new site has not, writes the manifest and the marker. Returns the generation.
    fn seal(&self) -> Result<String> {
        self.seal_keeping().map(|(generation, next)| {
            crate::drop_later(next);
            generation
        })
    }

    /// [`SiteWriter::seal`], returning the new generation's manifest too.
    fn seal_keeping(&self) -> Result<(String, Manifest)> {
        use rayon::prelude::*;
        let mut recorded = std::mem::take(&mut *self.next.lock().expect("not poisoned"));
        // Sorted in parallel (stable: of a path recorded twice, the last record counts).
        recorded.par_sort_by(|a, b| a.0.cmp(&b.0));
        let recorded_paths = recorded.len();
        let next = Manifest::from_sorted(recorded);
        // Each path recorded once, and every path of the older generation among them: nothing
        // is gone. A path recorded twice would be counted twice, so then every path is checked.
        let all_kept = next.len() == recorded_paths && self.staged_kept.load(Ordering::Relaxed) == self.staged.len();
        let gone: Vec<&str> = match all_kept {
            true => Vec::new(),
            false => self.staged.iter().map(|(p, _)| p).filter(|p| !next.contains_key(p)).collect(),
        };
        let mut emptied = Vec::new();
        for path in gone {
            let full = self.staging.join(checked_relative(path)?);
            match std::fs::remove_file(&full) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(&full, e)),
                _ => emptied.extend(full.parent().map(Path::to_path_buf)),
            }
        }
        emptied.sort();
        emptied.dedup();
        for dir in emptied.iter().rev() {
            // Removes folders left empty, deepest first; a folder still in use is not empty.
            let mut dir = dir.as_path();
            while dir != self.staging && std::fs::remove_dir(dir).is_ok() {
                let Some(parent) = dir.parent() else { break };
                dir = parent;
            }
        }

        let generation = generation_id(&next);
        let manifests = manifests_dir(&self.target);
        write_manifest(&manifests, &generation, &next)?;
        let marker = self.staging.join(MARKER_FILE);
        std::fs::write(&marker, format!("catalog {}\ngeneration {generation}\n", env!("CARGO_PKG_VERSION")))
            .map_err(|e| Error::io(&marker, e))?;
        if let Some(cleaner) = self.cleaner.lock().expect("not poisoned").take() {
            let _ = cleaner.join();
        }
        Ok((generation, next))
    }
}

impl Drop for SiteWriter {
    fn drop(&mut self) {
        if let Some(cleaner) = self.cleaner.lock().ok().and_then(|mut c| c.take()) {
            let _ = cleaner.join();
        }
    }
}

/// Swaps two folders in one step where the system can (Linux `renameat2` with
/// `RENAME_EXCHANGE`); elsewhere, or on a file system that refuses it, with three renames.
fn exchange(staging: &Path, target: &Path) -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        if renameat_with(CWD, staging, CWD, target, RenameFlags::EXCHANGE).is_ok() {
            return Ok(());
        }
    }
    let aside = sibling(target, &format!("swap-{}", unique_stamp()));
    std::fs::rename(target, &aside).map_err(|e| Error::io(target, e))?;
    std::fs::rename(staging, target).map_err(|e| Error::io(target, e))?;
    std::fs::rename(&aside, staging).map_err(|e| Error::io(staging, e))
}

/// The generation a folder holds, from its marker file; none without one.
pub fn generation_of(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(MARKER_FILE)).ok()?;
    let id = text.lines().find_map(|line| line.strip_prefix("generation "))?;
    (id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())).then(|| id.to_string())
}

/// A generation is named by the hash of its files' paths and contents, so the same site is the
/// same generation and the marker file is the same on every build of the same input, whatever
/// the render keys.
fn generation_id(manifest: &Manifest) -> String {
    let mut hasher = blake3::Hasher::new();
    for (path, entry) in manifest.iter() {
        hasher.update(path.as_bytes());
        hasher.update(&[0]);
        hasher.update(&entry.content);
    }
    hex(&hasher.finalize().as_bytes()[..16])
}

/// Stores a manifest as `.NAME.manifests/<generation>`.
fn write_manifest(dir: &Path, id: &str, manifest: &Manifest) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let (file, temp) = (dir.join(id), dir.join(format!("{id}.tmp")));
    std::fs::write(&temp, manifest.bytes()).map_err(|e| Error::io(&temp, e))?;
    std::fs::rename(&temp, &file).map_err(|e| Error::io(&file, e))
}

/// A manifest as written by [`write_manifest`]; none when missing or damaged (the build then
/// writes every file).
pub(super) fn read_manifest(dir: &Path, id: &str) -> Option<Manifest> {
    Manifest::parse(std::fs::read(dir.join(id)).ok()?)
}

pub(super) fn unique_stamp() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{nanos}-{}", std::process::id())
}

/// Trash folders of builds that exited before their cleaner finished, and the old site that
/// earlier versions kept beside the output.
pub(super) fn old_trash(target: &Path) -> Vec<PathBuf> {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefixes = [format!(".{name}.trash-"), format!(".{name}.swap-"), format!(".{name}.old")];
    let parent = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::read_dir(parent)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            prefixes.iter().any(|p| name.starts_with(p.as_str()))
        })
        .map(|entry| entry.path())
        .collect()
}

pub(super) fn is_ours(target: &Path) -> bool {
    target.join(MARKER_FILE).is_file() || std::fs::read_dir(target).is_ok_and(|mut entries| entries.next().is_none())
}

/// Where the manifests of an output's two generations are kept: `.NAME.manifests` beside it.
pub fn manifests_dir(target: &Path) -> PathBuf {
    sibling(target, "manifests")
}

/// `public` -> `.public.staging` beside it (same file system, so the swap is a rename).
pub(super) fn sibling(target: &Path, what: &str) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "site".into());
    target.with_file_name(format!(".{name}.{what}"))
}
