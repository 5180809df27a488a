//! One skill folder read as `build` and `check` both read it ([`read_skill`]): SKILL.md within
//! the parser's limit, parsed; every file the scanner reads, scanned. This is the per-skill
//! boundary: whatever goes wrong inside it (a panic in our code or a dependency's, a parser
//! that runs away, a file past a budget) ends as a diagnostic naming the skill's file and the
//! stage, and never stops the catalog.

use std::path::Path;

use crate::diag::Diagnostic;
use crate::discover::{FolderBytes, SkillDir};
use crate::fault::{self, Stage};
use crate::parse::{self, ParsedSkill};
use crate::scan::{
    FileContent, MAX_SCAN_FILE_BYTES, MAX_SCAN_FILES, MAX_SCAN_SKILL_BYTES, ScanFile, ScanReport, SkillInput,
    SkipReason,
};

/// One skill folder as read: SKILL.md parsed, every file scanned, and what to warn about.
pub struct SkillRead {
    /// SKILL.md as parsed; `Err(None)` when the folder holds none (`check` of a single file),
    /// `Err(Some(diagnostic))` when no reading of it recovers a skill, which is left out.
    pub parsed: Result<ParsedSkill, Option<Diagnostic>>,
    /// The safety scan of every file, before the catalog's suppressions.
    pub scan: ScanReport,
    /// The parser's warnings.
    pub reading: Vec<Diagnostic>,
}

impl SkillRead {
    /// A warning per file the check could not finish or read only in part, named below `shown`
    /// (the build prints them; `check` reports them with the scan).
    /// Past a few files, the rest are counted in one line (the skill's page lists them).
    pub fn scan_diagnostics(&self, shown: &Path, skill_file: &str) -> Vec<Diagnostic> {
        const LISTED: usize = 3;
        let unfinished: Vec<&crate::scan::Skipped> = self.scan.unchecked().collect();
        let mut diagnostics: Vec<Diagnostic> = (unfinished.iter().take(LISTED))
            .map(|skipped| {
                let message = format!(
                    "the safety check could not finish on this file ({}); the skill is not checked",
                    skipped.reason
                );
                Diagnostic::warning(shown.join(&skipped.file), None, message)
            })
            .collect();
        if unfinished.len() > LISTED {
            let more = crate::plural::count(unfinished.len() - LISTED, "more file");
            let message = format!("the safety check could not finish on {more} of this skill; its page lists them");
            diagnostics.push(Diagnostic::warning(shown.join(skill_file), None, message));
        }
        let limited = (self.scan.limited.iter())
            .map(|limited| Diagnostic::warning(shown.join(&limited.file), None, limited.limit.to_string()));
        diagnostics.extend(limited);
        diagnostics
    }
}

/// Reads, parses and scans one skill folder. `shown` is the folder as diagnostics name it;
/// `read` holds files already read (the build reads the small ones to key the skill).
pub fn read_skill(dir: &SkillDir, shown: &Path, folder_name: &str, mut read: FolderBytes) -> SkillRead {
    let skill_md = shown.join(&dir.skill_file);
    let parsed = if dir.skill_file.is_empty() {
        Err(None)
    } else {
        let bytes = match read.take(&dir.skill_file) {
            Some(bytes) => Ok(bytes),
            None => read_skill_md(&dir.skill_file_path()),
        };
        bytes
            .map_err(|d| Diagnostic { file: skill_md.clone(), ..d })
            .and_then(|bytes| {
                let parsed = fault::catch(Stage::Parse, || {
                    #[cfg(test)]
                    fault::inject(Stage::Parse, &String::from_utf8_lossy(&bytes));
                    parse::parse_skill(&skill_md, &bytes)
                });
                // The scanner reads SKILL.md too, as read.
                read.insert(&dir.skill_file, bytes);
                parsed.unwrap_or_else(|fault| Err(left_out(&skill_md, &fault)))
            })
            .map_err(Some)
    };
    let files = read_skill_files(dir, &mut read);
    let input = SkillInput { folder_name, skill_file: &dir.skill_file, files: &files, parsed: parsed.as_ref().ok() };
    // The scanner isolates each file; this catches what is left (sorting, the payload notes).
    let scan = fault::catch(Stage::Scan, || crate::scan::scan_skill(&input)).unwrap_or_else(|fault| ScanReport {
        skipped: vec![crate::scan::Skipped {
            file: dir.skill_file.clone(),
            reason: SkipReason::Fault { error: fault.to_string() },
        }],
        ..ScanReport::default()
    });
    let reading = parsed.as_ref().map(|p| p.diagnostics.clone()).unwrap_or_default();
    SkillRead { parsed, scan, reading }
}

/// The error of a skill left out because a stage stopped on its SKILL.md.
pub fn left_out(skill_md: &Path, fault: &fault::Fault) -> Diagnostic {
    Diagnostic::error(skill_md, None, format!("{fault}; the skill is left out"))
}

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

/// Reads the files of one skill folder for the scanner, taking those already `read`, within the
/// scanner's budgets: files of text past them are left unread, which leaves the skill not
/// checked ([`SkipReason::leaves_unchecked`]).
pub fn read_skill_files(dir: &SkillDir, read: &mut FolderBytes) -> Vec<ScanFile> {
    let mut texts = 0;
    let mut budget = MAX_SCAN_SKILL_BYTES;
    dir.files
        .iter()
        .map(|file| {
            // SKILL.md, when the caller read it, is scanned as read, whatever its size.
            let given = if file.path == dir.skill_file { read.take(&file.path) } else { None };
            let text = !file.is_symlink && !is_binary_name(&file.path);
            if given.is_some() || text {
                texts += 1;
            }
            let content = if let Some(bytes) = given {
                budget = budget.saturating_sub(bytes.len() as u64);
                FileContent::Bytes(bytes)
            } else if file.is_symlink {
                FileContent::Skipped(SkipReason::Symlink)
            } else if is_binary_name(&file.path) {
                FileContent::Skipped(SkipReason::Binary)
            } else if texts > MAX_SCAN_FILES {
                FileContent::Skipped(SkipReason::TooMany)
            } else if file.size > MAX_SCAN_FILE_BYTES {
                FileContent::Skipped(SkipReason::TooLarge { bytes: file.size })
            } else if file.size > budget {
                FileContent::Skipped(SkipReason::OverSkillBudget)
            } else if let Some(bytes) = read.take(&file.path) {
                budget = budget.saturating_sub(bytes.len() as u64);
                FileContent::Bytes(bytes)
            } else {
                match std::fs::read(dir.dir.join(&file.path)) {
                    Ok(bytes) => {
                        budget = budget.saturating_sub(bytes.len() as u64);
                        FileContent::Bytes(bytes)
                    }
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
