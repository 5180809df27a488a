//! The `.catalog/` store: what one build leaves for the next, each file written whole (a reader
//! never sees half of one) and each valid only for the program that wrote it. Every file is
//! MessagePack behind a header that names the cache's layout ([`CACHE_VERSION`]); a file that
//! is missing, damaged, of another layout or written by another program is no file: the work
//! is done again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::hash::Hash;
use crate::summary::BuildSummary;

use super::fingerprint::binary_identity;

/// The layout of every file the store and the skill packs write. Raise it when a stored
/// type or the files' framing changes: files written under another version are then ignored
/// whole, rather than decoded into the wrong shape.
pub const CACHE_VERSION: u32 = 5;

/// What every stored file starts with: a tag, then the cache version (little-endian).
const CACHE_TAG: &[u8; 8] = b"catcache";
pub(super) const HEADER_LEN: usize = 12;

/// The header of a file written now.
pub(super) fn header() -> [u8; HEADER_LEN] {
    header_of(CACHE_VERSION)
}

fn header_of(version: u32) -> [u8; HEADER_LEN] {
    let mut header = [0; HEADER_LEN];
    header[..8].copy_from_slice(CACHE_TAG);
    header[8..].copy_from_slice(&version.to_le_bytes());
    header
}

/// The bytes after the header, when `bytes` starts with this version's header.
pub(super) fn after_header(bytes: &[u8]) -> Option<&[u8]> {
    bytes.strip_prefix(header().as_slice())
}

/// Where a catalog's build cache lives: skill packs, folder listings, memos.
pub fn cache_dir(root: &Path) -> PathBuf {
    root.join(".catalog").join("cache")
}

/// The last build into one output folder: what it read and published, and its summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildRecord {
    pub fingerprint: String,
    /// The site generation it published (see `write::generation_of`).
    pub generation: String,
    #[serde(flatten)]
    pub summary: BuildSummary,
}

/// The record kept at `path` for the output folder `out`; none when there is none, it cannot be
/// read, or it describes another folder.
pub fn load_record(path: &Path, out: &Path) -> Option<BuildRecord> {
    let canonical = super::fingerprint::canonical;
    load_file::<BuildRecord>(path).filter(|record| canonical(&record.summary.out) == canonical(out))
}

/// Saves the record; a cache that cannot be written only costs the next build time.
pub fn save_record(path: &Path, record: &BuildRecord) {
    save_file(path, CACHE_VERSION, record);
}

/// Forgets the record at `path`, so that the next build does the work again.
pub fn forget_record(path: &Path) {
    let _ = std::fs::remove_file(path);
}

/// A stored value behind the identity of the program that wrote it.
#[derive(Serialize, Deserialize)]
struct Stored<T> {
    binary: Hash,
    value: T,
}

/// The value stored at `path` by this program under this cache version.
fn load_file<T: serde::de::DeserializeOwned>(path: &Path) -> Option<T> {
    let bytes = std::fs::read(path).ok()?;
    let stored: Stored<T> = rmp_serde::from_slice(after_header(&bytes)?).ok()?;
    (stored.binary == binary_identity()).then_some(stored.value)
}

/// Stores `value` at `path` for [`load_file`], under the cache version `version`.
fn save_file<T: Serialize>(path: &Path, version: u32, value: T) {
    let mut bytes = header_of(version).to_vec();
    if rmp_serde::encode::write(&mut bytes, &Stored { binary: binary_identity(), value }).is_ok() {
        write_whole(path, &bytes);
    }
}

/// The memo saved as `name` (`.catalog/cache/<name>`) by this program; none when there is none
/// or it cannot be read.
pub fn load_memo<T: serde::de::DeserializeOwned>(root: &Path, name: &str) -> Option<T> {
    load_file(&cache_dir(root).join(name))
}

/// Saves a memo for [`load_memo`]. One that cannot be written costs the next build the work.
pub fn save_memo<T: Serialize>(root: &Path, name: &str, value: T) {
    save_file(&cache_dir(root).join(name), CACHE_VERSION, value);
}

/// Writes `bytes` to a file of its own and renames it over `path`, so that readers, and other
/// builds writing at the same time, only ever see a whole file.
pub(super) fn write_whole(path: &Path, bytes: &[u8]) {
    write_whole_with(path, |file| file.write_all(bytes));
}

/// [`write_whole`], with the bytes written by `write` as they are made rather than gathered in
/// memory first.
pub(super) fn write_whole_with(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> bool {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let Some(dir) = path.parent() else { return false };
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = path.with_extension(format!("tmp-{}-{n}", std::process::id()));
    let written = std::fs::create_dir_all(dir).is_ok()
        && std::fs::File::create(&temp).is_ok_and(|file| {
            let mut file = std::io::BufWriter::with_capacity(256 * 1024, file);
            write(&mut file).and_then(|()| std::io::Write::flush(&mut file)).is_ok()
        });
    if !written || std::fs::rename(&temp, path).is_err() {
        let _ = std::fs::remove_file(&temp);
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostic;

    #[test]
    fn records_round_trip_per_output_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("public");
        let record = BuildRecord {
            fingerprint: "f".into(),
            generation: "g".into(),
            summary: BuildSummary {
                out: out.clone(),
                skills: 1,
                repos: 1,
                pages: 2,
                files: 3,
                bytes: 4,
                diagnostics: vec![Diagnostic::warning("a/SKILL.md", Some(2), "has no `name`")],
                size: Default::default(),
            },
        };
        let path = tmp.path().join("last-build.msgpack");
        save_record(&path, &record);
        let loaded = load_record(&path, &out).unwrap();
        assert_eq!((loaded.fingerprint.as_str(), loaded.summary.diagnostics.len()), ("f", 1));
        assert!(load_record(&path, &tmp.path().join("elsewhere")).is_none());
        forget_record(&path);
        assert!(load_record(&path, &out).is_none());
    }

    #[test]
    fn a_memo_is_read_back_by_the_program_that_wrote_it() {
        let root = tempfile::tempdir().unwrap();
        save_memo(root.path(), "memo.msgpack", vec!["a".to_string()]);
        assert_eq!(load_memo::<Vec<String>>(root.path(), "memo.msgpack"), Some(vec!["a".to_string()]));
        assert_eq!(load_memo::<Vec<String>>(root.path(), "other.msgpack"), None);
        save_memo(root.path(), "memo.msgpack", 7u8);
        assert_eq!(load_memo::<Vec<String>>(root.path(), "memo.msgpack"), None, "another shape is no memo");
        // A memo of the same shape written under another cache version is not read; a torn
        // one neither.
        let path = cache_dir(root.path()).join("memo.msgpack");
        save_file(&path, CACHE_VERSION + 1, vec!["a".to_string()]);
        assert_eq!(load_memo::<Vec<String>>(root.path(), "memo.msgpack"), None, "another version was read");
        save_memo(root.path(), "memo.msgpack", vec!["a".to_string()]);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(load_memo::<Vec<String>>(root.path(), "memo.msgpack"), None, "a torn memo was read");
    }
}
