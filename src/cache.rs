//! What an incremental build remembers between runs: a fingerprint of everything a build reads
//! (the binary, the options, catalog.toml, the theme and data files, every source file's path,
//! size and modification time, every git commit read), and the summary of the last build of
//! each output folder, kept beside it. A build whose fingerprint matches the last one, with that output still
//! in place, has nothing to do.
//!
//! Finer-grained reuse lives where the work is: `write` keeps two generations of the site and
//! writes only files that changed; `render` skips pages whose render key is unchanged.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::write::{Hash, hash_bytes};

/// Hashes of what a build reads, fed in a fixed order.
#[derive(Clone)]
pub struct Fingerprint(blake3::Hasher);

impl Default for Fingerprint {
    fn default() -> Self {
        Self::new()
    }
}

impl Fingerprint {
    pub fn new() -> Fingerprint {
        let mut hasher = blake3::Hasher::new();
        hasher.update(&binary_identity());
        Fingerprint(hasher)
    }

    /// A hasher without the binary's identity, for keys that are compared within one build or
    /// stored beside a record of the binary.
    pub fn blank() -> Fingerprint {
        Fingerprint(blake3::Hasher::new())
    }

    pub fn text(&mut self, text: &str) -> &mut Self {
        self.0.update(&(text.len() as u64).to_le_bytes());
        self.0.update(text.as_bytes());
        self
    }

    pub fn number(&mut self, n: u64) -> &mut Self {
        self.0.update(&n.to_le_bytes());
        self
    }

    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(bytes);
        self
    }

    /// A discovered file by its path and what its metadata says: size, modification and
    /// status-change times, inode, and whether it is a link.
    pub fn skill_file(&mut self, file: &crate::discover::SkillFile) -> &mut Self {
        self.text(&file.path)
            .number(file.size)
            .number(file.modified)
            .number(file.inode)
            .number(file.changed)
            .number(u64::from(file.is_symlink))
    }

    /// A file by its size and modification time (not its bytes: reading every file would cost
    /// as much as the build it saves). Missing files count too.
    pub fn file(&mut self, path: &Path) -> &mut Self {
        self.text(&path.to_string_lossy());
        match std::fs::metadata(path) {
            Ok(meta) => self.number(meta.len()).number(crate::discover::modified_nanos(&meta)),
            Err(_) => self.number(u64::MAX),
        }
    }

    /// [`Fingerprint::contents`] of bytes already read (`None`: the file could not be read).
    pub fn contents_of(&mut self, bytes: Option<&[u8]>) -> &mut Self {
        self.number(u64::from(bytes.is_some()));
        self.0.update(blake3::hash(bytes.unwrap_or_default()).as_bytes());
        self
    }

    /// A file by its bytes (read in pieces: a file may be large).
    pub fn contents(&mut self, path: &Path) -> &mut Self {
        let mut file = blake3::Hasher::new();
        let read = std::fs::File::open(path).and_then(|f| file.update_reader(f).map(|_| ())).is_ok();
        self.number(u64::from(read));
        self.0.update(file.finalize().as_bytes());
        self
    }

    /// Every file under `dir` (sorted), as [`Fingerprint::file`].
    pub fn tree(&mut self, dir: &Path) -> &mut Self {
        self.text(&dir.to_string_lossy());
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name().into_iter().flatten() {
            if !entry.file_type().is_dir() {
                self.file(entry.path());
            }
        }
        self
    }

    pub fn finish(&self) -> String {
        self.0.finalize().to_hex()[..32].to_string()
    }

    /// [`Fingerprint::finish`] as bytes.
    pub fn hash(&self) -> Hash {
        let mut out = [0; 16];
        out.copy_from_slice(&self.0.finalize().as_bytes()[..16]);
        out
    }
}

/// The running program: its version, and its size and modification time, so that a rebuilt
/// binary (whose templates, rules or tables may differ) never reuses an older build's work.
pub fn binary_identity() -> Hash {
    static IDENTITY: std::sync::OnceLock<Hash> = std::sync::OnceLock::new();
    *IDENTITY.get_or_init(|| {
        let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(p).ok());
        let stamp = exe.map(|m| (m.len(), crate::discover::modified_nanos(&m))).unwrap_or_default();
        hash_bytes(format!("catalog {} {} {}", env!("CARGO_PKG_VERSION"), stamp.0, stamp.1).as_bytes())
    })
}

/// The summary of the last build into one output folder.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildRecord {
    pub out: PathBuf,
    pub fingerprint: String,
    /// The site generation it published (see `write::generation_of`).
    pub generation: String,
    pub skills: usize,
    pub repos: usize,
    pub pages: usize,
    pub files: usize,
    pub bytes: u64,
    pub diagnostics: Vec<Diagnostic>,
}

/// Beside the output's manifests (`.NAME.manifests/last-build.json`), so that it goes wherever
/// the output goes and a build into a temporary folder leaves the catalog's folder untouched.
fn record_path(out: &Path) -> PathBuf {
    crate::write::manifests_dir(out).join("last-build.json")
}

pub fn load(out: &Path) -> Option<BuildRecord> {
    let text = std::fs::read_to_string(record_path(out)).ok()?;
    serde_json::from_str::<BuildRecord>(&text).ok().filter(|record| record.out == out)
}

/// Saves the record; a cache that cannot be written only costs the next build time.
pub fn save(record: &BuildRecord) {
    if let Ok(json) = serde_json::to_vec(record) {
        write_whole(&record_path(&record.out), &json);
    }
}

/// Writes `bytes` to a file of its own and renames it over `path`, so that readers, and other
/// builds writing at the same time, only ever see a whole file.
fn write_whole(path: &Path, bytes: &[u8]) {
    write_whole_with(path, |file| file.write_all(bytes));
}

/// [`write_whole`], with the bytes written by `write` as they are made rather than gathered in
/// memory first.
fn write_whole_with(path: &Path, write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let Some(dir) = path.parent() else { return };
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = path.with_extension(format!("tmp-{}-{n}", std::process::id()));
    let written = std::fs::create_dir_all(dir).is_ok()
        && std::fs::File::create(&temp).is_ok_and(|file| {
            let mut file = std::io::BufWriter::with_capacity(256 * 1024, file);
            write(&mut file).and_then(|()| std::io::Write::flush(&mut file)).is_ok()
        });
    if !written || std::fs::rename(&temp, path).is_err() {
        let _ = std::fs::remove_file(&temp);
    }
}

/// Forgets the last build of `out`, so that the next build does the work again.
pub fn forget(out: &Path) {
    let _ = std::fs::remove_file(record_path(out));
}

/// The skills of one repository as last read, by cache key
/// (`.catalog/cache/skills/<owner>/<name>.msgpack` under the catalog root: MessagePack, smaller
/// and quicker to read and write than JSON for a cache nobody reads by hand). A pack is rewritten
/// whole when any of its skills changed; at a few hundred skills per repository that is a few
/// megabytes.
///
/// Each entry may also carry the skill folder's stat signature (its files' sizes, times and
/// inodes): a folder whose signature is unchanged has the same key without its files being read
/// again, as git's index does. A signature is kept only for folders whose files had not changed
/// for a while when they were read, so that a write within the file system's clock tick after
/// the read cannot go unseen.
pub struct SkillPack<T> {
    entries: std::collections::HashMap<String, T>,
    keys_by_stat: std::collections::HashMap<String, String>,
}

/// Cache key, stat signature, value.
pub type PackEntry<T> = (String, Option<String>, T);

impl<T: Serialize + serde::de::DeserializeOwned> SkillPack<T> {
    fn path(root: &Path, repo: &str) -> PathBuf {
        root.join(".catalog").join("cache").join("skills").join(format!("{repo}.msgpack"))
    }

    /// The pack of `repo`, empty when there is none or it cannot be read (it was written by
    /// another version, or damaged): its skills are then read again.
    pub fn load(root: &Path, repo: &str) -> SkillPack<T> {
        let list = std::fs::read(Self::path(root, repo))
            .ok()
            .and_then(|bytes| rmp_serde::from_slice::<Vec<PackEntry<T>>>(&bytes).ok())
            .unwrap_or_default();
        let mut pack = SkillPack { entries: Default::default(), keys_by_stat: Default::default() };
        for (key, stat, value) in list {
            if let Some(stat) = stat {
                pack.keys_by_stat.insert(stat, key.clone());
            }
            pack.entries.insert(key, value);
        }
        pack
    }

    /// The key last found for a folder with this stat signature.
    pub fn key_by_stat(&self, stat: &str) -> Option<String> {
        self.keys_by_stat.get(stat).cloned()
    }

    pub fn take(&mut self, key: &str) -> Option<T> {
        self.entries.remove(key)
    }

    /// Whether every entry was taken (none is stale).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Replaces the pack of `repo` with `entries`; a cache that cannot be written only costs the
    /// next build time.
    pub fn save(root: &Path, repo: &str, entries: &[PackEntry<T>]) {
        // Streamed to the file: a repository's pack is megabytes, and growing one buffer that
        // large cost more than encoding it.
        write_whole_with(&Self::path(root, repo), |file| {
            rmp_serde::encode::write(file, entries).map_err(std::io::Error::other)
        });
    }
}

/// The similar-skill ranking of the last build of a catalog (`.catalog/cache/similar.json`),
/// valid only for the binary that computed it.
#[derive(Serialize, Deserialize)]
struct SimilarFile {
    binary: String,
    memo: crate::relate::SimilarMemo,
}

fn similar_path(root: &Path) -> PathBuf {
    root.join(".catalog").join("cache").join("similar.json")
}

pub fn load_similar(root: &Path) -> Option<crate::relate::SimilarMemo> {
    let file: SimilarFile = serde_json::from_slice(&std::fs::read(similar_path(root)).ok()?).ok()?;
    (file.binary == crate::write::hex(&binary_identity())).then_some(file.memo)
}

pub fn save_similar(root: &Path, memo: crate::relate::SimilarMemo) {
    let file = SimilarFile { binary: crate::write::hex(&binary_identity()), memo };
    if let Ok(json) = serde_json::to_vec(&file) {
        write_whole(&similar_path(root), &json);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_changes_the_fingerprint() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.md"), "one").unwrap();
        let print = || Fingerprint::new().tree(tmp.path()).finish();
        let first = print();
        assert_eq!(first, print());
        std::fs::write(tmp.path().join("a.md"), "one, longer").unwrap();
        assert_ne!(first, print());
        let second = print();
        std::fs::write(tmp.path().join("b.md"), "").unwrap();
        assert_ne!(second, print());
    }

    #[test]
    fn records_round_trip_per_output_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let record = BuildRecord {
            out: out.clone(),
            fingerprint: "f".into(),
            generation: "g".into(),
            skills: 1,
            repos: 1,
            pages: 2,
            files: 3,
            bytes: 4,
            diagnostics: vec![Diagnostic::warning("a/SKILL.md", Some(2), "has no `name`")],
        };
        save(&record);
        let loaded = load(&out).unwrap();
        assert_eq!((loaded.fingerprint.as_str(), loaded.diagnostics.len()), ("f", 1));
        assert!(load(&tmp.path().join("elsewhere")).is_none());
        forget(&out);
        assert!(load(&out).is_none());
    }
}
