//! The `.catalog/` store: what one build leaves for the next, each file written whole (a reader
//! never sees half of one) and each valid only for the program that wrote it. A file that is
//! missing, damaged or written by another program is no file: the work is done again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::hash::Hash;
use crate::summary::BuildSummary;

use super::fingerprint::binary_identity;

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
    let text = std::fs::read_to_string(path).ok()?;
    let canonical = super::fingerprint::canonical;
    serde_json::from_str::<BuildRecord>(&text).ok().filter(|record| canonical(&record.summary.out) == canonical(out))
}

/// Saves the record; a cache that cannot be written only costs the next build time.
pub fn save_record(path: &Path, record: &BuildRecord) {
    if let Ok(json) = serde_json::to_vec(record) {
        write_whole(path, &json);
    }
}

/// Forgets the record at `path`, so that the next build does the work again.
pub fn forget_record(path: &Path) {
    let _ = std::fs::remove_file(path);
}

/// A value kept from one build for the next (`.catalog/cache/<name>`), in MessagePack behind
/// the identity of the program that wrote it.
#[derive(Serialize, Deserialize)]
struct MemoFile<T> {
    binary: Hash,
    value: T,
}

/// The memo saved as `name` by this program; none when there is none or it cannot be read.
pub fn load_memo<T: serde::de::DeserializeOwned>(root: &Path, name: &str) -> Option<T> {
    let bytes = std::fs::read(cache_dir(root).join(name)).ok()?;
    let file: MemoFile<T> = rmp_serde::from_slice(&bytes).ok()?;
    (file.binary == binary_identity()).then_some(file.value)
}

/// Saves a memo for [`load_memo`]. One that cannot be written costs the next build the work.
pub fn save_memo<T: Serialize>(root: &Path, name: &str, value: T) {
    if let Ok(bytes) = rmp_serde::to_vec(&MemoFile { binary: binary_identity(), value }) {
        write_whole(&cache_dir(root).join(name), &bytes);
    }
}

/// A table of 16-byte hashes by 16-byte hashes kept as `name`: the program's identity, then the
/// pairs. Plain bytes: 60,000 pairs are read in a millisecond. Empty when there is none, it was
/// written by another program, or it is damaged.
pub fn load_pairs(root: &Path, name: &str) -> crate::FastMap<Hash, Hash> {
    let mut pairs_read = crate::FastMap::default();
    let Ok(bytes) = std::fs::read(cache_dir(root).join(name)) else { return pairs_read };
    let identity = binary_identity();
    let Some(pairs) = bytes.strip_prefix(identity.as_slice()).filter(|pairs| pairs.len() % 32 == 0) else {
        return pairs_read;
    };
    pairs_read.reserve(pairs.len() / 32);
    for pair in pairs.chunks_exact(32) {
        let (key, value) = pair.split_at(16);
        pairs_read.insert(key.try_into().expect("16 bytes"), value.try_into().expect("16 bytes"));
    }
    pairs_read
}

/// Saves [`load_pairs`]'s file.
pub fn save_pairs(root: &Path, name: &str, pairs: &crate::FastMap<Hash, Hash>) {
    let mut bytes = binary_identity().to_vec();
    bytes.reserve(pairs.len() * 32);
    for (key, value) in pairs {
        bytes.extend_from_slice(key);
        bytes.extend_from_slice(value);
    }
    let _ = write_whole_with(&cache_dir(root).join(name), |file| file.write_all(&bytes));
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
    fn pairs_come_back_as_saved_and_a_damaged_file_gives_none() {
        let root = tempfile::tempdir().unwrap();
        let mut pairs = crate::FastMap::default();
        pairs.insert([1; 16], [2; 16]);
        pairs.insert([3; 16], [4; 16]);
        save_pairs(root.path(), "pairs.bin", &pairs);
        assert_eq!(load_pairs(root.path(), "pairs.bin"), pairs);
        // A torn pair is damage: every pair is made again rather than one read wrong.
        let path = cache_dir(root.path()).join("pairs.bin");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert!(load_pairs(root.path(), "pairs.bin").is_empty());
    }

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
            },
        };
        let path = tmp.path().join("last-build.json");
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
    }
}
