//! Write: the only place that writes the site. Every page, asset and copied file of `build`,
//! `serve` and the tests leaves through [`SiteWriter`].
//!
//! Invariants kept here:
//! - nothing is written outside the output folder (paths are checked segment by segment);
//! - the previous site is never half-overwritten: the new site is made in a second folder beside
//!   the output (`.NAME.staging`) and swapped in whole at the end, in one atomic exchange on
//!   Linux, so a build killed at any moment leaves the previous site at the output path;
//! - a folder that was not written by `catalog build` is never replaced.
//!
//! Builds are incremental at this level: the two folders are kept as two generations of the
//! site, each described by a manifest (path -> content hash, and the render key of the page),
//! stored beside them. A build brings the older generation up to date by writing only files
//! whose bytes changed, hard-linking files that the published site already has, and deleting
//! what is gone; then the two are exchanged. Files are never modified in place, since the two
//! generations share unchanged files.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::error::{Error, Result};
use crate::hash::{Hash, hash_bytes, hash_parts};

/// A file at the output's root that marks it as ours, so that `--out` pointing at a folder of
/// the user's is refused instead of replaced. It also names the folder's generation, whose
/// manifest says what the folder holds.
pub const MARKER_FILE: &str = ".catalog-build";

/// What one file of a generation holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    /// Hash of the file's bytes.
    content: Hash,
    /// Hash of what the page was rendered from, for pages; a page whose key is unchanged is not
    /// rendered again.
    key: Option<Hash>,
    len: u64,
}

mod folders;
mod generations;
mod manifest;
use folders::MadeFolders;
use manifest::Manifest;

pub use generations::{generation_of, manifests_dir};
use generations::{is_ours, old_trash, read_manifest, sibling, unique_stamp};

/// What the published generation and the older one hold at one path.
#[derive(Debug, Clone, Copy)]
struct Held {
    published: Option<Entry>,
    staged: Option<Entry>,
}

/// The manifests a writer left, by generation, for the next writer of the same output to take
/// instead of reading them again: `serve` keeps them between builds (a large site's two
/// manifests list 117,000 files each). A generation not held here is read from disk.
#[derive(Default)]
pub struct Manifests {
    held: Vec<(String, Manifest)>,
}

impl Manifests {
    /// Every file of the generation published last, with its size in bytes, in path order.
    pub fn published_files(&self) -> impl Iterator<Item = (&str, u64)> {
        self.held.first().into_iter().flat_map(|(_, manifest)| manifest.iter().map(|(path, entry)| (path, entry.len)))
    }

    /// The manifest of `generation`, when held.
    fn take(&mut self, generation: &str) -> Option<Manifest> {
        let at = self.held.iter().position(|(id, _)| id == generation)?;
        Some(self.held.swap_remove(at).1)
    }
}

pub struct SiteWriter {
    target: PathBuf,
    staging: PathBuf,
    minify: bool,
    /// What the published site holds, when its manifest could be trusted (else empty).
    published: Manifest,
    /// What the staging folder holds: the generation before the published one, or nothing.
    staged: Manifest,
    /// The new site, filled by every write.
    next: Mutex<Vec<(String, Entry)>>,
    /// Folders of the staging folder made or met by this writer.
    folders: MadeFolders,
    /// Deletes an abandoned staging folder in the background.
    cleaner: Mutex<Option<std::thread::JoinHandle<()>>>,
    files: AtomicUsize,
    bytes: AtomicU64,
    /// Files whose bytes were written (the rest were already in place or linked).
    written: AtomicUsize,
    /// HTML pages whose render key was unchanged, so they were not rendered again.
    reused: AtomicUsize,
    /// Recorded paths that the older generation holds too: when they are all of its paths,
    /// sealing has nothing to remove and skips looking.
    staged_kept: AtomicUsize,
}

/// What a finished build wrote.
#[derive(Debug, Clone, Default)]
pub struct WriteStats {
    /// Files in the new site, and their bytes.
    pub files: usize,
    pub bytes: u64,
    /// Files whose bytes had to be written (the others were unchanged).
    pub written: usize,
    /// HTML pages not rendered again because what they are made from had not changed.
    pub reused_pages: usize,
    /// The generation published (see [`generation_of`]).
    pub generation: String,
}

impl SiteWriter {
    /// Starts a new site that will replace `target` on [`SiteWriter::publish`].
    pub fn begin(target: &Path, minify: bool) -> Result<SiteWriter> {
        Self::begin_with(target, minify, Manifests::default())
    }

    /// [`SiteWriter::begin`], taking the manifests of the two generations from `known` where
    /// it holds them (see [`SiteWriter::publish_keeping`]).
    pub fn begin_with(target: &Path, minify: bool, mut known: Manifests) -> Result<SiteWriter> {
        if target.exists() && !is_ours(target) {
            return Err(Error::Output(format!(
                "refusing to replace {}: it is not empty and was not written by catalog build (no {MARKER_FILE} file)",
                target.display()
            )));
        }
        let staging = sibling(target, "staging");
        let manifests = manifests_dir(target);
        let (published_id, staged_id) = (generation_of(target), generation_of(&staging));
        let known_published = published_id.as_deref().and_then(|id| known.take(id));
        // A mirrored staging folder is the published generation again (a generation is named by
        // its manifest), and the manifest is held once.
        let known_staged = match &known_published {
            Some(manifest) if staged_id.is_some() && staged_id == published_id => Some(manifest.clone()),
            _ => staged_id.as_deref().and_then(|id| known.take(id)),
        };
        let (published, mut staged) = rayon::join(
            || known_published.or_else(|| read_manifest(&manifests, published_id.as_deref()?)).unwrap_or_default(),
            || known_staged.or_else(|| read_manifest(&manifests, staged_id.as_deref()?)),
        );
        let mut doomed = Vec::new();
        if staged.is_some() {
            // From here until publish the staging folder is half-updated: without its marker, a
            // build killed meanwhile leaves it untrusted, and the next build starts it afresh.
            let marker = staging.join(MARKER_FILE);
            std::fs::remove_file(&marker).map_err(|e| Error::io(&marker, e))?;
        } else if staging.exists() {
            // Abandoned mid-update (or foreign): moved aside (one fast rename) and deleted while
            // this build works, since deleting many files is slow on some file systems.
            let trash = sibling(target, &format!("trash-{}", unique_stamp()));
            std::fs::rename(&staging, &trash).map_err(|e| Error::io(&staging, e))?;
            doomed.push(trash);
            staged = None;
        }
        doomed.extend(old_trash(target));
        std::fs::create_dir_all(&staging).map_err(|e| Error::io(&staging, e))?;
        let cleaner = std::thread::spawn(move || {
            for dir in doomed {
                let _ = std::fs::remove_dir_all(dir);
            }
        });
        Ok(SiteWriter {
            target: target.to_path_buf(),
            staging,
            minify,
            published,
            staged: staged.unwrap_or_default(),
            next: Mutex::new(Vec::new()),
            folders: MadeFolders::default(),
            cleaner: Mutex::new(Some(cleaner)),
            files: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            written: AtomicUsize::new(0),
            reused: AtomicUsize::new(0),
            staged_kept: AtomicUsize::new(0),
        })
    }

    /// Writes one file of the site. `path` is relative to the site root, `/`-separated.
    /// HTML is minified on the way out when the writer was asked to.
    pub fn write(&self, path: &str, bytes: &[u8]) -> Result<()> {
        self.write_keyed(path, None, bytes)
    }

    /// Writes a page (or any file) made from `key` (a hash of its template and everything it
    /// shows), calling `render` only when the published file was not made from the same key.
    pub fn write_page(&self, path: &str, key: Hash, render: impl FnOnce() -> Result<String>) -> Result<()> {
        self.write_bytes(path, key, || render().map(String::into_bytes))
    }

    /// [`SiteWriter::write_page`] for a file made of bytes that need not be text (an archive).
    pub fn write_bytes(&self, path: &str, key: Hash, make: impl FnOnce() -> Result<Vec<u8>>) -> Result<()> {
        // The same page minified or not is a different file.
        let key = if self.minify { key } else { hash_parts(&[&key[..], b"as rendered"]) };
        let held = self.held(path);
        if let Some(entry) = held.published.filter(|e| e.key == Some(key))
            && self.place_published(path, entry.content, held)?
        {
            self.record(path, entry, held);
            if path.ends_with(".html") {
                self.reused.fetch_add(1, Ordering::Relaxed);
            }
            return Ok(());
        }
        self.write_held(path, Some(key), &make()?, held)
    }

    /// Writes one file of a group: files made together from one key (the search index's
    /// shards, say), which a later build keeps together with [`SiteWriter::keep_group`].
    pub fn write_in_group(&self, path: &str, group: Hash, bytes: &[u8]) -> Result<()> {
        self.write_keyed(path, Some(group), bytes)
    }

    /// Keeps every file the published site holds of `group` (see [`SiteWriter::write_in_group`]);
    /// returns false, keeping nothing, when it holds none or one of them is gone.
    pub fn keep_group(&self, group: Hash) -> Result<bool> {
        let members: Vec<(&str, Entry)> = self.published.iter().filter(|(_, e)| e.key == Some(group)).collect();
        let held = |path: &str, entry: Entry| Held { published: Some(entry), staged: self.staged.get(path) };
        let all_there = |(path, _): &(&str, Entry)| {
            checked_relative(path).is_ok_and(|relative| self.target.join(relative).is_file())
        };
        if members.is_empty() || !members.iter().all(all_there) {
            return Ok(false);
        }
        for (path, entry) in members {
            let held = held(path, entry);
            if !self.place_published(path, entry.content, held)? {
                let full = self.target.join(checked_relative(path)?);
                return Err(Error::io(&full, std::io::Error::from(std::io::ErrorKind::NotFound)));
            }
            self.record(path, entry, held);
        }
        Ok(true)
    }

    /// What the two generations on disk hold at `path`, looked up once per file written.
    fn held(&self, path: &str) -> Held {
        Held { published: self.published.get(path), staged: self.staged.get(path) }
    }

    fn write_keyed(&self, path: &str, key: Option<Hash>, bytes: &[u8]) -> Result<()> {
        self.write_held(path, key, bytes, self.held(path))
    }

    fn write_held(&self, path: &str, key: Option<Hash>, bytes: &[u8], held: Held) -> Result<()> {
        let relative = checked_relative(path)?;
        let minified;
        let bytes = if self.minify && path.ends_with(".html") {
            minified = minify_html::minify(bytes, &minify_config());
            &minified[..]
        } else {
            bytes
        };
        let content = hash_bytes(bytes);
        let entry = Entry { content, key, len: bytes.len() as u64 };
        if !self.place_published(path, content, held)? {
            let full = self.staging.join(relative);
            self.make_room(path, &full, held)?;
            std::fs::write(&full, bytes).map_err(|e| Error::io(&full, e))?;
            self.written.fetch_add(1, Ordering::Relaxed);
        }
        self.record(path, entry, held);
        Ok(())
    }

    /// Puts the file with `content` at `path` in the staging folder without writing its bytes,
    /// when it is there already or the published site has it (hard-linked, or copied where
    /// links are not available). False when neither holds it.
    fn place_published(&self, path: &str, content: Hash, held: Held) -> Result<bool> {
        if held.staged.is_some_and(|e| e.content == content) {
            return Ok(true);
        }
        if held.published.is_none_or(|e| e.content != content) {
            return Ok(false);
        }
        let relative = checked_relative(path)?;
        let (from, to) = (self.target.join(&relative), self.staging.join(&relative));
        self.make_room(path, &to, held)?;
        if std::fs::hard_link(&from, &to).is_ok() || std::fs::copy(&from, &to).is_ok() {
            return Ok(true);
        }
        // The published file is gone (removed by hand): write it afresh.
        Ok(false)
    }

    /// Makes the parent folder of `path` (checked, at `full` in the staging folder), and removes
    /// what the older generation had there: files are replaced, never changed in place, since
    /// the two generations share unchanged files.
    fn make_room(&self, path: &str, full: &Path, held: Held) -> Result<()> {
        if held.staged.is_some() {
            match std::fs::remove_file(full) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(full, e)),
                _ => {}
            }
        } else {
            let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
            self.folders.make(&self.staging, parent)?;
        }
        Ok(())
    }

    fn record(&self, path: &str, entry: Entry, held: Held) {
        if held.staged.is_some() {
            self.staged_kept.fetch_add(1, Ordering::Relaxed);
        }
        self.next.lock().expect("not poisoned").push((path.to_string(), entry));
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(entry.len, Ordering::Relaxed);
    }

    pub fn files_written(&self) -> usize {
        self.files.load(Ordering::Relaxed)
    }

    pub fn bytes_written(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
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
        if !allowed_in_name(segment) {
            return bad("a character that is not allowed in file names");
        }
        out.push(segment);
    }
    Ok(out)
}

/// No control character, nor a character that some file systems refuse in names.
fn allowed_in_name(segment: &str) -> bool {
    let refused = |b: u8| matches!(b, 0..=0x1f | 0x7f | b'\\' | b':' | b'*' | b'?' | b'"' | b'<' | b'>' | b'|');
    match segment.is_ascii() {
        // Byte by byte: every file of the site is checked, the first rebuild links them all.
        true => !segment.bytes().any(refused),
        false => !segment.chars().any(|c| c.is_control() || u8::try_from(c).is_ok_and(refused)),
    }
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

    fn read(path: PathBuf) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn rejects_paths_that_leave_the_site() {
        // Control characters, ASCII and not (U+0085), and a refused character after a non-ASCII one.
        let named = ["a|b", "a\tb", "a\u{7f}b", "\u{e9}\u{85}", "\u{e9}?"];
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a//b", "a\\b", "C:x", "a/./b"].into_iter().chain(named) {
            assert!(checked_relative(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(checked_relative("a/b/index.html").unwrap(), PathBuf::from("a/b/index.html"));
        assert!(checked_relative("caf\u{e9}/\u{fc}ber/index.html").is_ok());
    }

    #[test]
    fn a_group_is_kept_whole_while_its_key_holds() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let (one, two) = (hash_bytes(b"one"), hash_bytes(b"two"));
        let build = |key: Hash, files: &[(&str, &str)], other: &str| {
            let writer = SiteWriter::begin(&out, false).unwrap();
            let kept = writer.keep_group(key).unwrap();
            if !kept {
                for (path, text) in files {
                    writer.write_in_group(path, key, text.as_bytes()).unwrap();
                }
            }
            // A file outside the group, written with no key, never joins it.
            writer.write("other.json", other.as_bytes()).unwrap();
            let (_, stats) = writer.publish().unwrap();
            (kept, stats)
        };
        assert!(!build(one, &[("g/a.json", "a"), ("g/b.json", "b")], "x").0, "nothing to keep yet");
        let (kept, stats) = build(one, &[], "y");
        assert!(kept);
        assert_eq!((read(out.join("g/a.json")), read(out.join("g/b.json"))), ("a".into(), "b".into()));
        assert_eq!(stats.files, 3);
        // Another key writes the group afresh; a member no longer written is gone.
        assert!(!build(two, &[("g/a.json", "A")], "y").0);
        assert_eq!(read(out.join("g/a.json")), "A");
        assert!(!out.join("g/b.json").exists());
        // A member removed by hand: the group is written again rather than kept without it.
        std::fs::remove_file(out.join("g/a.json")).unwrap();
        assert!(!build(two, &[("g/a.json", "A")], "y").0);
        assert_eq!(read(out.join("g/a.json")), "A");
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
        assert_eq!(read(out.join("index.html")), "one", "old site changed before publish");
        drop(second);
        assert_eq!(read(out.join("index.html")), "one", "abandoned build touched the site");

        let third = SiteWriter::begin(&out, false).unwrap();
        third.write("a/b/other.html", b"three").unwrap();
        third.publish().unwrap();
        assert!(!out.join("index.html").exists(), "stale file survived");
        assert_eq!(read(out.join("a/b/other.html")), "three");

        let fourth = SiteWriter::begin(&out, false).unwrap();
        fourth.write("index.html", b"four").unwrap();
        fourth.publish().unwrap();
        assert_eq!(read(out.join("index.html")), "four");
        assert!(!out.join("a").exists(), "emptied folders are removed");
        let leftovers: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("trash") || n.contains("swap"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn writes_only_what_changed_and_never_changes_a_shared_file() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let build = |pages: &[(&str, &str)]| {
            let writer = SiteWriter::begin(&out, false).unwrap();
            for (path, text) in pages {
                writer.write(path, text.as_bytes()).unwrap();
            }
            writer.publish().unwrap().1
        };
        assert_eq!(build(&[("a.html", "a1"), ("b.html", "b1")]).written, 2);
        // The second generation links what is unchanged.
        assert_eq!(build(&[("a.html", "a1"), ("b.html", "b2")]).written, 1);
        let older = sibling(&out, "staging");
        assert_eq!(read(older.join("b.html")), "b1", "the older generation was changed in place");
        // The third build updates the oldest generation: b2 is linked from the published one.
        assert_eq!(build(&[("a.html", "a1"), ("b.html", "b2")]).written, 0);
        assert_eq!(build(&[("a.html", "a3"), ("b.html", "b2")]).written, 1);
        assert_eq!((read(out.join("a.html")), read(out.join("b.html"))), ("a3".into(), "b2".into()));
        assert_eq!((read(older.join("a.html")), read(older.join("b.html"))), ("a1".into(), "b2".into()));
    }

    #[test]
    fn handed_over_manifests_build_what_manifests_read_from_disk_build() {
        // The same builds twice: once reading the manifests, once taking them from the last.
        // After the second, the older generation is mirrored, as serve does while it waits.
        let builds: [&[(&str, &str)]; 4] = [
            &[("a.html", "a1"), ("b.html", "b1")],
            &[("a.html", "a1"), ("b.html", "b2"), ("c/d.html", "d1")],
            &[("a.html", "a1"), ("c/d.html", "d1")],
            &[("a.html", "a4"), ("b.html", "b2")],
        ];
        let run = |handed_over: bool| {
            let tmp = tempfile::tempdir().unwrap();
            let out = tmp.path().join("public");
            let mut held = Manifests::default();
            let mut stats = Vec::new();
            for (step, pages) in builds.into_iter().enumerate() {
                if step == 2 {
                    SiteWriter::mirror(&out).unwrap();
                }
                let given = std::mem::take(&mut held);
                let writer = match handed_over {
                    true => SiteWriter::begin_with(&out, false, given),
                    false => SiteWriter::begin(&out, false),
                }
                .unwrap();
                for (path, text) in pages {
                    writer.write(path, text.as_bytes()).unwrap();
                }
                let (_, written, manifests) = writer.publish_keeping().unwrap();
                stats.push((written.files, written.written, written.generation));
                if handed_over {
                    // What was handed over is what is on disk.
                    for (id, manifest) in known_of(manifests, &mut held) {
                        assert_eq!(Some(manifest), read_manifest(&manifests_dir(&out), &id));
                    }
                }
            }
            let files = |dir: &Path| {
                let mut all: Vec<(String, String)> = walkdir::WalkDir::new(dir)
                    .into_iter()
                    .flatten()
                    .filter(|e| e.file_type().is_file() && e.file_name() != MARKER_FILE)
                    .map(|e| (e.path().strip_prefix(dir).unwrap().display().to_string(), read(e.path().into())))
                    .collect();
                all.sort();
                all
            };
            (stats, files(&out), files(&sibling(&out, "staging")))
        };
        assert_eq!(run(true), run(false));
    }

    /// Checks out the manifests handed over and puts them back for the next build.
    fn known_of(manifests: Manifests, known: &mut Manifests) -> Vec<(String, Manifest)> {
        known.held.extend(manifests.held.iter().cloned());
        manifests.held
    }

    #[test]
    fn a_mirrored_generation_holds_the_published_files_and_the_next_build_starts_from_it() {
        use std::os::unix::fs::MetadataExt;
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let writer = SiteWriter::begin(&out, false).unwrap();
        for (path, text) in [("a.html", "a1"), ("d/b.html", "b1")] {
            writer.write(path, text.as_bytes()).unwrap();
        }
        writer.publish().unwrap();
        SiteWriter::mirror(&out).unwrap();
        let older = sibling(&out, "staging");
        assert_eq!(generation_of(&older), generation_of(&out));
        for path in ["a.html", "d/b.html"] {
            let (published, mirrored) = (out.join(path).metadata().unwrap(), older.join(path).metadata().unwrap());
            assert_eq!(published.ino(), mirrored.ino(), "{path} was copied, not linked");
        }
        // The next build starts from the mirror: nothing to link, one file to write, and the
        // generation it replaces is left whole.
        let writer = SiteWriter::begin(&out, false).unwrap();
        writer.write("a.html", b"a2").unwrap();
        writer.write("d/b.html", b"b1").unwrap();
        assert_eq!(writer.publish().unwrap().1.written, 1);
        assert_eq!((read(out.join("a.html")), read(older.join("a.html"))), ("a2".into(), "a1".into()));
        assert_eq!(read(older.join("d/b.html")), "b1");
        let manifests = std::fs::read_dir(manifests_dir(&out)).unwrap().count();
        assert_eq!(manifests, 2, "the manifests of the two generations, and no other");
    }

    #[test]
    fn a_page_with_an_unchanged_key_is_not_rendered_again() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let calls = AtomicUsize::new(0);
        let build = |key: u8| {
            let writer = SiteWriter::begin(&out, false).unwrap();
            writer
                .write_page("p/index.html", [key; 16], || {
                    calls.fetch_add(1, Ordering::Relaxed);
                    Ok(format!("page {key}"))
                })
                .unwrap();
            writer.publish().unwrap().1
        };
        build(1);
        assert_eq!(build(1).reused_pages, 1);
        build(2);
        assert_eq!(calls.load(Ordering::Relaxed), 2);
        assert_eq!(read(out.join("p/index.html")), "page 2");
    }

    #[test]
    fn a_build_killed_while_updating_leaves_an_untrusted_staging_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        for text in ["one", "two"] {
            let writer = SiteWriter::begin(&out, false).unwrap();
            writer.write("index.html", text.as_bytes()).unwrap();
            writer.publish().unwrap();
        }
        // Begun and abandoned without publishing, as a killed build would leave it.
        let writer = SiteWriter::begin(&out, false).unwrap();
        writer.write("index.html", b"half").unwrap();
        std::mem::forget(writer);
        assert!(generation_of(&sibling(&out, "staging")).is_none());
        let writer = SiteWriter::begin(&out, false).unwrap();
        writer.write("index.html", b"three").unwrap();
        assert_eq!(writer.publish().unwrap().1.written, 1);
        assert_eq!(read(out.join("index.html")), "three");
    }

    #[test]
    fn refuses_to_replace_a_folder_it_did_not_write() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("thesis.tex"), "precious").unwrap();
        assert!(SiteWriter::begin(tmp.path(), false).is_err());
        assert!(tmp.path().join("thesis.tex").exists());
    }
}
