//! Reading a skill folder's files, as `build` and `check` both read them: SKILL.md within the
//! parser's limit, the files the scanner reads, and licence texts.

use std::path::Path;

use crate::diag::Diagnostic;
use crate::discover::{FolderBytes, SkillDir};
use crate::parse;
use crate::scan::{FileContent, MAX_SCAN_FILE_BYTES, MAX_SCAN_FILES, ScanFile, SkipReason};

/// File name endings that are never text: not even opened.
const BINARY_EXTS: &[&str] = &[
    "png",
    "jpg",
    "jpeg",
    "gif",
    "webp",
    "ico",
    "bmp",
    "tif",
    "tiff",
    "psd",
    "pdf",
    "zip",
    "gz",
    "tgz",
    "bz2",
    "xz",
    "zst",
    "7z",
    "rar",
    "jar",
    "war",
    "class",
    "so",
    "dylib",
    "dll",
    "exe",
    "bin",
    "o",
    "a",
    "lib",
    "woff",
    "woff2",
    "ttf",
    "otf",
    "eot",
    "mp3",
    "mp4",
    "m4a",
    "wav",
    "ogg",
    "flac",
    "mov",
    "avi",
    "webm",
    "mkv",
    "pyc",
    "wasm",
    "db",
    "sqlite",
    "sqlite3",
    "parquet",
    "xlsx",
    "docx",
    "pptx",
    "xls",
    "doc",
    "ppt",
    "odt",
    "ods",
    "key",
    "numbers",
    "pages",
    "sketch",
    "fig",
    "heic",
    "avif",
    "icns",
    "dmg",
    "pkg",
    "deb",
    "rpm",
    "npy",
    "npz",
    "pkl",
    "pt",
    "onnx",
    "safetensors",
    "h5",
];

/// Reads a SKILL.md, never more of it than the parser accepts: a larger one is left out by its
/// size, not read into memory first.
pub fn read_skill_md(path: &Path) -> std::result::Result<Vec<u8>, Diagnostic> {
    use std::io::Read;
    let cannot = |e: std::io::Error| Diagnostic::error(path, None, format!("cannot be read: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    let limit = parse::MAX_SKILL_MD_BYTES as u64;
    if size > limit {
        return Err(parse::too_large(path, size));
    }
    // The file may have grown since its size was read.
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(parse::too_large(path, bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads the files of one skill folder for the scanner, taking those already `read`.
pub fn read_skill_files(dir: &SkillDir, read: &mut FolderBytes) -> Vec<ScanFile> {
    dir.files
        .iter()
        .enumerate()
        .map(|(index, file)| {
            // SKILL.md, when the caller read it, is scanned as read, whatever its size.
            let given = if file.path == dir.skill_file { read.take(&file.path) } else { None };
            let content = if let Some(bytes) = given {
                FileContent::Bytes(bytes)
            } else if file.is_symlink {
                FileContent::Skipped(SkipReason::Symlink)
            } else if index >= MAX_SCAN_FILES {
                FileContent::Skipped(SkipReason::TooMany)
            } else if file.size > MAX_SCAN_FILE_BYTES {
                FileContent::Skipped(SkipReason::TooLarge { bytes: file.size })
            } else if is_binary_name(&file.path) {
                FileContent::Skipped(SkipReason::Binary)
            } else if let Some(bytes) = read.take(&file.path) {
                FileContent::Bytes(bytes)
            } else {
                match std::fs::read(dir.dir.join(&file.path)) {
                    Ok(bytes) => FileContent::Bytes(bytes),
                    Err(e) => FileContent::Skipped(SkipReason::Unreadable { error: e.to_string() }),
                }
            };
            ScanFile { path: file.path.clone(), content }
        })
        .collect()
}

fn is_binary_name(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.rsplit_once('.').is_some_and(|(_, ext)| BINARY_EXTS.contains(&ext))
}

/// Licence files are small; a large or unreadable one is treated as absent.
pub fn read_text(path: &Path) -> Option<String> {
    const MAX_LICENSE_BYTES: u64 = 256 * 1024;
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > MAX_LICENSE_BYTES {
        return None;
    }
    std::fs::read(path).ok().map(|bytes| parse::decode(&bytes).0.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_huge_skill_md_is_left_out_by_its_size_without_being_read() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("SKILL.md");
        // Sparse: a terabyte that takes no disk, and would take hours and all memory to read.
        std::fs::File::create(&path).unwrap().set_len(1 << 40).unwrap();
        let started = Instant::now();
        let err = read_skill_md(&path).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(err.message.starts_with(&format!("is {} bytes, over the limit", 1u64 << 40)), "{}", err.message);
        std::fs::write(&path, "---\nname: a\n---\n").unwrap();
        assert_eq!(read_skill_md(&path).unwrap(), b"---\nname: a\n---\n");
    }
}
