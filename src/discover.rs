//! Discover: source folders -> skill folders.
//!
//! A skill is a folder holding `SKILL.md` (or `skill.md`). Every other file below it belongs to
//! it, unless it sits inside a nested skill folder. Symbolic links are never followed: a link
//! is listed as a file of its skill, and a `SKILL.md` that is a link is read only when it
//! resolves to a file inside the source root. This is the one place that guarantees no input
//! is read from outside a source.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::diag::Diagnostic;

/// Folders that never hold skills and can be huge.
const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "target", ".venv", "__pycache__"];
/// File names that make a folder a skill, in order of preference.
pub const SKILL_FILE_NAMES: &[&str] = &["SKILL.md", "skill.md"];
/// Names of a licence file, at a repository's root or in a skill folder.
const LICENSE_FILE_NAMES: &[&str] =
    &["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md", "LICENCE.txt", "COPYING", "COPYING.md"];

/// "owner/name" of a repository.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct RepoId {
    pub owner: String,
    pub name: String,
}

impl RepoId {
    pub fn parse(text: &str) -> Option<RepoId> {
        let (owner, name) = text.trim().split_once('/')?;
        let valid = |s: &str| {
            !s.is_empty() && s != "." && s != ".." && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        };
        (valid(owner) && valid(name)).then(|| RepoId { owner: owner.to_string(), name: name.to_string() })
    }

    pub fn full(&self) -> String {
        format!("{}/{}", self.owner, self.name)
    }
}

/// Bytes of a skill folder's files, read once for its cache key and handed on to the reader,
/// the copy hash and the scanner, so that a folder being read is read once, and every stage sees
/// the bytes its key was made from. Holds small files only, up to a budget per folder; the rest
/// are read where they are needed, as before.
#[derive(Debug, Default)]
pub struct FolderBytes {
    files: std::collections::HashMap<String, Vec<u8>>,
}

impl FolderBytes {
    /// Files larger than this are not kept.
    pub const MAX_FILE: u64 = 1024 * 1024;
    /// Nor more than this in all, per folder.
    pub const BUDGET: u64 = 8 * 1024 * 1024;

    pub fn insert(&mut self, path: &str, bytes: Vec<u8>) {
        self.files.insert(path.to_string(), bytes);
    }

    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(Vec::as_slice)
    }

    pub fn take(&mut self, path: &str) -> Option<Vec<u8>> {
        self.files.remove(path)
    }
}

/// One file of a skill folder.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SkillFile {
    /// Path relative to the skill folder, with `/` separators.
    pub path: String,
    pub size: u64,
    pub is_symlink: bool,
    /// Last modification, in nanoseconds since 1970 (0 when not known): with the size, what
    /// tells an incremental build that the file may have changed.
    #[serde(skip)]
    pub modified: u64,
    /// The inode and the last status change (nanoseconds since 1970), where the platform has
    /// them, else 0 and the modification time: they tell a file replaced or its time set back.
    #[serde(skip)]
    pub inode: u64,
    #[serde(skip)]
    pub changed: u64,
}

/// A skill folder as found on disk, before anything in it is read.
#[derive(Debug, Clone)]
pub struct SkillDir {
    /// Absolute (or root-joined) path of the folder.
    pub dir: PathBuf,
    /// The folder relative to the source root, `/`-separated; empty for a skill at the root.
    pub rel_dir: String,
    /// `SKILL.md` or `skill.md`.
    pub skill_file: String,
    /// Every file of the skill, sorted by path; includes the skill file itself.
    pub files: Vec<SkillFile>,
}

impl SkillDir {
    /// The folder's own name; for a skill at the repository root, the repository's name.
    pub fn folder_name<'a>(&'a self, repo: &'a RepoId) -> &'a str {
        self.rel_dir.rsplit('/').next().filter(|s| !s.is_empty()).unwrap_or(&repo.name)
    }

    pub fn skill_file_path(&self) -> PathBuf {
        self.dir.join(&self.skill_file)
    }
}

/// A repository's files as far as the catalog needs them.
#[derive(Debug, Clone)]
pub struct DiscoveredSource {
    pub repo: RepoId,
    pub root: PathBuf,
    /// Skill folders, sorted by `rel_dir`.
    pub skills: Vec<SkillDir>,
    /// The repository's licence file at its root, if any: (file name, path).
    pub license_file: Option<(String, PathBuf)>,
}

/// Walks one source folder.
pub fn discover_source(repo: RepoId, root: &Path) -> (DiscoveredSource, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    // Folder (relative) -> its files, for every folder seen; skill folders are picked after.
    let mut files_by_dir: BTreeMap<String, Vec<SkillFile>> = BTreeMap::new();
    let mut skill_dirs: BTreeMap<String, String> = BTreeMap::new();

    let walker = WalkDir::new(root).follow_links(false).sort_by_file_name().into_iter().filter_entry(|entry| {
        entry.depth() == 0
            || !(entry.file_type().is_dir() && SKIPPED_DIRS.contains(&entry.file_name().to_string_lossy().as_ref()))
    });
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().unwrap_or(root).to_path_buf();
                diagnostics.push(Diagnostic::warning(path, None, format!("cannot be read: {err}")));
                continue;
            }
        };
        if entry.file_type().is_dir() {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let Some(rel) = posix_path(rel) else {
            diagnostics.push(Diagnostic::warning(entry.path(), None, "file name is not valid UTF-8; skipped"));
            continue;
        };
        // A named pipe or device blocks or never ends when read: only files and links are listed.
        if !entry.file_type().is_file() && !entry.path_is_symlink() {
            let is_skill_file = SKILL_FILE_NAMES.iter().any(|name| rel.rsplit('/').next() == Some(*name));
            let message = "is not a regular file (a pipe, socket or device); skipped";
            diagnostics.push(if is_skill_file {
                Diagnostic::error(entry.path(), None, format!("{message}, and the skill with it"))
            } else {
                Diagnostic::warning(entry.path(), None, message)
            });
            continue;
        }
        let (dir, name) = match rel.rsplit_once('/') {
            Some((dir, name)) => (dir.to_string(), name.to_string()),
            None => (String::new(), rel.clone()),
        };
        let is_symlink = entry.path_is_symlink();
        let meta = entry.metadata().ok();
        let size = if is_symlink { 0 } else { meta.as_ref().map_or(0, |m| m.len()) };
        let modified = meta.as_ref().map_or(0, modified_nanos);
        let (inode, changed) = meta.as_ref().map_or((0, 0), status);
        if SKILL_FILE_NAMES.contains(&name.as_str()) {
            let usable = !is_symlink || symlink_stays_inside(entry.path(), root);
            if !usable {
                diagnostics.push(Diagnostic::error(
                    entry.path(),
                    None,
                    "is a symbolic link to a file outside the source folder; the skill is left out",
                ));
            } else {
                // SKILL.md wins over skill.md when a folder has both.
                let preferred = skill_dirs.get(&dir).is_none_or(|existing| existing != SKILL_FILE_NAMES[0]);
                if preferred {
                    skill_dirs.insert(dir.clone(), name.clone());
                }
            }
        }
        files_by_dir.entry(dir).or_default().push(SkillFile { path: name, size, is_symlink, modified, inode, changed });
    }

    // Every file goes to its nearest skill folder above it.
    let mut skills: BTreeMap<String, SkillDir> = skill_dirs
        .iter()
        .map(|(rel_dir, skill_file)| {
            let dir = if rel_dir.is_empty() { root.to_path_buf() } else { root.join(rel_dir) };
            (
                rel_dir.clone(),
                SkillDir { dir, rel_dir: rel_dir.clone(), skill_file: skill_file.clone(), files: Vec::new() },
            )
        })
        .collect();
    for (dir, files) in files_by_dir {
        let Some(owner) = nearest_skill_dir(&dir, &skill_dirs) else {
            continue;
        };
        let prefix = if dir.len() > owner.len() {
            format!("{}/", dir[owner.len()..].trim_start_matches('/'))
        } else {
            String::new()
        };
        let skill = skills.get_mut(&owner).expect("owner is a skill dir");
        skill.files.extend(files.into_iter().map(|f| SkillFile { path: format!("{prefix}{}", f.path), ..f }));
    }
    for skill in skills.values_mut() {
        skill.files.sort_by(|a, b| a.path.cmp(&b.path));
    }

    // A licence that is a link is not read, as in skill folders: it may point out of the source.
    let license_file = LICENSE_FILE_NAMES
        .iter()
        .map(|name| (name.to_string(), root.join(name)))
        .find(|(_, p)| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file()));
    let source =
        DiscoveredSource { repo, root: root.to_path_buf(), skills: skills.into_values().collect(), license_file };
    (source, diagnostics)
}

/// The licence file in a skill folder, if it has one of its own.
pub fn skill_license_file(skill: &SkillDir) -> Option<&SkillFile> {
    skill.files.iter().find(|f| !f.is_symlink && LICENSE_FILE_NAMES.contains(&f.path.as_str()))
}

fn nearest_skill_dir(dir: &str, skill_dirs: &BTreeMap<String, String>) -> Option<String> {
    let mut current = dir;
    loop {
        if skill_dirs.contains_key(current) {
            return Some(current.to_string());
        }
        if current.is_empty() {
            return None;
        }
        current = current.rsplit_once('/').map(|(parent, _)| parent).unwrap_or("");
    }
}

fn posix_path(path: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = path.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

fn symlink_stays_inside(link: &Path, root: &Path) -> bool {
    match (link.canonicalize(), root.canonicalize()) {
        (Ok(target), Ok(root)) => target.starts_with(root) && target.is_file(),
        _ => false,
    }
}

/// A file's modification time in nanoseconds since 1970; 0 when the system does not say.
pub fn modified_nanos(meta: &std::fs::Metadata) -> u64 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as u64)
}

/// The inode and the status-change time in nanoseconds (see [`SkillFile::changed`]).
pub fn status(meta: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (
            meta.ino(),
            (meta.ctime().max(0) as u64).saturating_mul(1_000_000_000).saturating_add(meta.ctime_nsec() as u64),
        )
    }
    #[cfg(not(unix))]
    {
        (0, modified_nanos(meta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn repo() -> RepoId {
        RepoId::parse("acme/skills").unwrap()
    }

    #[test]
    fn finds_skills_and_assigns_files_to_the_nearest_one() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::create_dir_all(root.join("skills/a/scripts")).unwrap();
        fs::create_dir_all(root.join("skills/a/nested")).unwrap();
        fs::create_dir_all(root.join("skills/b")).unwrap();
        fs::create_dir_all(root.join("node_modules/x")).unwrap();
        fs::write(root.join("skills/a/SKILL.md"), "---\nname: a\n---\n").unwrap();
        fs::write(root.join("skills/a/scripts/run.sh"), "echo").unwrap();
        fs::write(root.join("skills/a/nested/skill.md"), "---\nname: nested\n---\n").unwrap();
        fs::write(root.join("skills/a/nested/notes.txt"), "n").unwrap();
        fs::write(root.join("skills/b/skill.md"), "").unwrap();
        fs::write(root.join("node_modules/x/SKILL.md"), "").unwrap();
        fs::write(root.join("LICENSE"), "MIT").unwrap();

        let (source, diags) = discover_source(repo(), root);
        assert!(diags.is_empty(), "{diags:?}");
        let dirs: Vec<&str> = source.skills.iter().map(|s| s.rel_dir.as_str()).collect();
        assert_eq!(dirs, ["skills/a", "skills/a/nested", "skills/b"]);
        let a_files: Vec<&str> = source.skills[0].files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(a_files, ["SKILL.md", "scripts/run.sh"]);
        assert_eq!(source.skills[1].skill_file, "skill.md");
        assert_eq!(source.skills[1].files.len(), 2);
        assert_eq!(source.license_file.as_ref().map(|(n, _)| n.as_str()), Some("LICENSE"));
    }

    #[cfg(unix)]
    #[test]
    fn never_follows_symlinks_out_of_the_root() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::create_dir_all(outside.path().join("evil")).unwrap();
        fs::write(outside.path().join("evil/SKILL.md"), "---\nname: evil\n---\n").unwrap();
        fs::write(outside.path().join("secret"), "secret").unwrap();
        let root = tmp.path();
        fs::create_dir_all(root.join("linked")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("evil"), root.join("evil-dir")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.join("linked/SKILL.md")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.join("LICENSE")).unwrap();

        let (source, diags) = discover_source(repo(), root);
        assert!(source.skills.is_empty(), "{:?}", source.skills);
        assert_eq!(source.license_file, None, "a licence linked from outside is read");
        assert_eq!(diags.len(), 1);
        assert!(diags[0].message.contains("outside the source folder"));
    }

    #[cfg(unix)]
    #[test]
    fn lists_no_pipes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::create_dir_all(root.join("a")).unwrap();
        fs::create_dir_all(root.join("b")).unwrap();
        fs::write(root.join("a/SKILL.md"), "---\nname: a\n---\n").unwrap();
        for pipe in ["a/notes.md", "b/SKILL.md"] {
            let made = std::process::Command::new("mkfifo").arg(root.join(pipe)).status().unwrap();
            assert!(made.success());
        }
        let (source, diags) = discover_source(repo(), root);
        let dirs: Vec<&str> = source.skills.iter().map(|s| s.rel_dir.as_str()).collect();
        assert_eq!(dirs, ["a"]);
        let files: Vec<&str> = source.skills[0].files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(files, ["SKILL.md"]);
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(diags.iter().any(|d| d.level == crate::diag::Level::Error && d.file.ends_with("b/SKILL.md")));
    }

    #[test]
    fn repo_ids_reject_paths() {
        assert!(RepoId::parse("a/b").is_some());
        assert!(RepoId::parse("../b").is_none());
        assert!(RepoId::parse("a/b/c").is_none());
        assert!(RepoId::parse("nobody").is_none());
    }
}
