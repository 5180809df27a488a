//! What a build reads, hashed: files by their size and times or by their bytes, folders file by
//! file, and the running program itself, so that a rebuilt binary never reuses older work.

use std::path::{Path, PathBuf};

use crate::hash::{Hash, Hasher, hash_bytes};

/// A hasher that starts from the running program's identity ([`binary_identity`]): for keys
/// kept from one run to the next.
pub fn with_program() -> Hasher {
    let mut hasher = Hasher::new();
    hasher.bytes(&binary_identity());
    hasher
}

/// Files hashed into a [`Hasher`].
pub trait FileHash {
    /// A file by its size and modification time (not its bytes: reading every file would cost
    /// as much as the build it saves). Missing files count too.
    fn file(&mut self, path: &Path) -> &mut Self;
    /// [`FileHash::contents`] of bytes already read (`None`: the file could not be read).
    fn contents_of(&mut self, bytes: Option<&[u8]>) -> &mut Self;
    /// A file by its bytes (read in pieces: a file may be large).
    fn contents(&mut self, path: &Path) -> &mut Self;
    /// Every file under `dir` (sorted), as [`FileHash::file`].
    fn tree(&mut self, dir: &Path) -> &mut Self;
}

impl FileHash for Hasher {
    fn file(&mut self, path: &Path) -> &mut Self {
        self.text(&path.to_string_lossy());
        match std::fs::metadata(path) {
            Ok(meta) => self.number(meta.len()).number(modified_nanos(&meta)),
            Err(_) => self.number(u64::MAX),
        }
    }

    fn contents_of(&mut self, bytes: Option<&[u8]>) -> &mut Self {
        self.number(u64::from(bytes.is_some()));
        self.bytes(blake3::hash(bytes.unwrap_or_default()).as_bytes())
    }

    fn contents(&mut self, path: &Path) -> &mut Self {
        let mut file = blake3::Hasher::new();
        let read = std::fs::File::open(path).and_then(|f| file.update_reader(f).map(|_| ())).is_ok();
        self.number(u64::from(read));
        self.bytes(file.finalize().as_bytes())
    }

    fn tree(&mut self, dir: &Path) -> &mut Self {
        self.text(&dir.to_string_lossy());
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name().into_iter().flatten() {
            if !entry.file_type().is_dir() {
                self.file(entry.path());
            }
        }
        self
    }
}

fn modified_nanos(meta: &std::fs::Metadata) -> u64 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as u64)
}

/// The running program: its version, and its size and modification time, so that a rebuilt
/// binary (whose templates, rules or tables may differ) never reuses an older build's work.
pub fn binary_identity() -> Hash {
    static IDENTITY: std::sync::OnceLock<Hash> = std::sync::OnceLock::new();
    *IDENTITY.get_or_init(|| {
        let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(p).ok());
        let stamp = exe.map(|m| (m.len(), modified_nanos(&m))).unwrap_or_default();
        hash_bytes(format!("catalog {} {} {}", env!("CARGO_PKG_VERSION"), stamp.0, stamp.1).as_bytes())
    })
}

/// A path as the file system resolves it (`..` and links followed), so that one folder however
/// it is spelled (`public`, `./public`, through a link) has one name in keys and records; as
/// given when it does not exist.
pub fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// How long a file must have been left alone before its stat signature stands for its bytes:
/// longer than any file system's clock tick, so that a write just after a read changes the time.
const SETTLE_NANOS: u64 = 2_000_000_000;

/// The time (nanoseconds since 1970) before which a file or folder counts as settled.
pub fn settled_before() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        .saturating_sub(SETTLE_NANOS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_changes_the_fingerprint() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.md"), "one").unwrap();
        let print = || with_program().tree(tmp.path()).finish();
        let first = print();
        assert_eq!(first, print());
        std::fs::write(tmp.path().join("a.md"), "one, longer").unwrap();
        assert_ne!(first, print());
        let second = print();
        std::fs::write(tmp.path().join("b.md"), "").unwrap();
        assert_ne!(second, print());
    }
}
