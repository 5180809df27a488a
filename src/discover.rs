//! Discover: source folders -> skill folders.
//!
//! A skill is a folder holding `SKILL.md` (or `skill.md`). Every other file below it belongs to
//! it, unless it sits inside a nested skill folder. Symbolic links are never followed: a link
//! is listed as a file of its skill, and a `SKILL.md` that is a link is read only when it
//! resolves to a file inside the source root. This is the one place that guarantees no input
//! is read from outside a source.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;

/// Folders that never hold skills and can be huge.
mod stat;
use stat::{FileKind, FileStat, StatBase};
pub use stat::{modified_nanos, status};

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
        [&self.owner, "/", &self.name].concat()
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
#[derive(Debug, Clone, serde::Serialize)]
pub struct SkillDir {
    /// Absolute (or root-joined) path of the folder.
    #[serde(serialize_with = "path_lossy")]
    pub dir: PathBuf,
    /// The folder relative to the source root, `/`-separated; empty for a skill at the root.
    pub rel_dir: String,
    /// `SKILL.md` or `skill.md`.
    pub skill_file: String,
    /// Every file of the skill, sorted by path; includes the skill file itself.
    pub files: Vec<SkillFile>,
}

/// A path serialized as text, any byte that is not UTF-8 replaced: what a key hashes of it.
pub fn path_lossy<S: serde::Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&path.to_string_lossy())
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

/// What a folder held when it was last listed, by folder (relative to the source root, `/`-
/// separated, empty for the root). A name added to a folder, removed or renamed changes the
/// folder's modification and status-change times, so while those and its inode are as they were
/// the folder holds the same names, and need not be opened and read again: at 60,000 skills that
/// is most of a walk's time (about 84,000 folders). Its files are still looked at one by one,
/// since writing a file leaves its folder's times alone. Only listings that had settled when they
/// were read are kept (see [`Walk::settled_before`]), and none with a name that could not be read.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Listings {
    folders: std::collections::HashMap<String, Listing>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Listing {
    /// Inode, modification and status-change times (nanoseconds).
    stamp: (u64, u64, u64),
    /// Sorted by name.
    entries: Vec<(String, EntryKind)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum EntryKind {
    Folder,
    /// Anything else: a file, a link, a pipe. Its own status says which when it is looked at.
    Other,
}

/// How to walk a source: with the listings of the last walk, and the time before which a change
/// counts as settled.
pub struct Walk {
    pub earlier: Listings,
    /// Nanoseconds since 1970: a folder last changed before this is listed for the next walk. A
    /// change within the file system's clock tick after a folder is read may leave its times as
    /// they were, so a folder changed lately is read again next time.
    pub settled_before: u64,
}

impl Walk {
    /// A walk with no earlier listings that keeps none.
    pub fn fresh() -> Walk {
        Walk { earlier: Listings::default(), settled_before: 0 }
    }
}

/// A source as walked: what was found, and the listings for the next walk.
pub struct Walked {
    pub source: DiscoveredSource,
    pub diagnostics: Vec<Diagnostic>,
    pub listings: Listings,
    /// Folders opened and read (the rest were taken from the earlier listings).
    pub folders_read: usize,
    /// Whether `listings` differ from the earlier ones.
    pub listings_changed: bool,
}

/// Walks one source folder.
pub fn discover_source(repo: RepoId, root: &Path) -> (DiscoveredSource, Vec<Diagnostic>) {
    let walked = walk_source(repo, root, Walk::fresh());
    (walked.source, walked.diagnostics)
}

/// Walks one source folder, taking unchanged folders' names from `walk.earlier`.
pub fn walk_source(repo: RepoId, root: &Path, walk: Walk) -> Walked {
    let Walk { mut earlier, settled_before } = walk;
    let mut listings = Listings::default();
    let mut folders_read = 0;
    let base = StatBase::open(root);
    let mut found = Found {
        root,
        base: &base,
        files_by_dir: BTreeMap::new(),
        skill_dirs: BTreeMap::new(),
        diagnostics: Vec::new(),
        rel_path: String::new(),
    };
    // Depth first, each folder's names in order; a folder's files are all listed before the
    // folders below it are entered, which changes nothing: files are grouped by folder.
    let mut folders = vec![(root.to_path_buf(), String::new())];
    while let Some((dir_path, dir)) = folders.pop() {
        // The root may be a link (as the user named it); nothing below it is followed.
        let stat =
            if dir.is_empty() { std::fs::metadata(&dir_path).map(|meta| FileStat::of(&meta)) } else { base.stat(&dir) };
        let stamp = stat.ok().map(|stat| (stat.inode, stat.modified, stat.changed));
        let (listing, keep) = match earlier.folders.remove(&dir).filter(|listing| Some(listing.stamp) == stamp) {
            Some(listing) => (listing, true),
            None => {
                folders_read += 1;
                let Some((entries, complete)) = read_folder(&dir_path, &mut found.diagnostics) else { continue };
                let settled = stamp.is_some_and(|(_, modified, changed)| modified.max(changed) < settled_before);
                (Listing { stamp: stamp.unwrap_or_default(), entries }, complete && settled)
            }
        };
        let below = folders.len();
        for (name, kind) in &listing.entries {
            match kind {
                EntryKind::Folder if SKIPPED_DIRS.contains(&name.as_str()) => {}
                EntryKind::Folder => {
                    let rel = if dir.is_empty() { name.clone() } else { [dir.as_str(), "/", name.as_str()].concat() };
                    folders.push((dir_path.join(name), rel));
                }
                EntryKind::Other => found.file(&dir_path, &dir, name),
            }
        }
        // The stack pops the last folder pushed first: reversed, they are walked in name order.
        folders[below..].reverse();
        if keep {
            listings.folders.insert(dir, listing);
        }
    }
    let listings_changed = folders_read > 0 || !earlier.folders.is_empty();
    let Found { diagnostics, files_by_dir, skill_dirs, .. } = found;
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
            [dir[owner.len()..].trim_start_matches('/'), "/"].concat()
        } else {
            String::new()
        };
        let skill = skills.get_mut(&owner).expect("owner is a skill dir");
        if prefix.is_empty() {
            skill.files.extend(files);
        } else {
            skill.files.extend(files.into_iter().map(|f| SkillFile { path: [prefix.as_str(), &f.path].concat(), ..f }));
        }
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
    Walked { source, diagnostics, listings, folders_read, listings_changed }
}

/// A folder's names, sorted, and whether every name could be read; none when the folder cannot
/// be opened.
fn read_folder(path: &Path, diagnostics: &mut Vec<Diagnostic>) -> Option<(Vec<(String, EntryKind)>, bool)> {
    let read = match std::fs::read_dir(path) {
        Ok(read) => read,
        Err(err) => {
            diagnostics.push(Diagnostic::warning(path, None, format!("cannot be read: {err}")));
            return None;
        }
    };
    let mut entries = Vec::new();
    let mut complete = true;
    for entry in read {
        let entry = match entry.and_then(|entry| Ok((entry.file_type()?, entry))) {
            Ok(entry) => entry,
            Err(err) => {
                diagnostics.push(Diagnostic::warning(path, None, format!("cannot be read: {err}")));
                complete = false;
                continue;
            }
        };
        let (file_type, entry) = entry;
        let Ok(name) = entry.file_name().into_string() else {
            diagnostics.push(Diagnostic::warning(entry.path(), None, "name is not valid UTF-8; skipped"));
            complete = false;
            continue;
        };
        entries.push((name, if file_type.is_dir() { EntryKind::Folder } else { EntryKind::Other }));
    }
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Some((entries, complete))
}

/// What a walk has found so far.
struct Found<'a> {
    root: &'a Path,
    /// Files are looked at relative to the root (see [`StatBase`]).
    base: &'a StatBase,
    /// A buffer for a file's path relative to the root.
    rel_path: String,
    /// Folder (relative) -> its files, for every folder seen; skill folders are picked after.
    files_by_dir: BTreeMap<String, Vec<SkillFile>>,
    /// Folder (relative) -> its skill file's name.
    skill_dirs: BTreeMap<String, String>,
    diagnostics: Vec<Diagnostic>,
}

impl Found<'_> {
    /// Looks at one name of folder `dir` that is not a folder.
    fn file(&mut self, dir_path: &Path, dir: &str, name: &str) {
        self.rel_path.clear();
        if !dir.is_empty() {
            self.rel_path.push_str(dir);
            self.rel_path.push('/');
        }
        self.rel_path.push_str(name);
        // The full path, for messages only.
        let path = || dir_path.join(name);
        let meta = match self.base.stat(&self.rel_path) {
            Ok(meta) => meta,
            Err(err) => {
                self.diagnostics.push(Diagnostic::warning(path(), None, format!("cannot be read: {err}")));
                return;
            }
        };
        let is_symlink = meta.kind == FileKind::Symlink;
        let is_skill_file = SKILL_FILE_NAMES.contains(&name);
        // A named pipe or device blocks or never ends when read: only files and links are listed.
        if !is_symlink && meta.kind != FileKind::File {
            // A folder where a file was a moment ago is walked next time.
            if meta.kind != FileKind::Dir {
                let path = path();
                let message = "is not a regular file (a pipe, socket or device); skipped";
                self.diagnostics.push(if is_skill_file {
                    Diagnostic::error(&path, None, format!("{message}, and the skill with it"))
                } else {
                    Diagnostic::warning(&path, None, message)
                });
            }
            return;
        }
        if is_skill_file {
            if is_symlink && !symlink_stays_inside(&path(), self.root) {
                self.diagnostics.push(Diagnostic::error(
                    path(),
                    None,
                    "is a symbolic link to a file outside the source folder; the skill is left out",
                ));
            } else if self.skill_dirs.get(dir).is_none_or(|existing| existing != SKILL_FILE_NAMES[0]) {
                // SKILL.md wins over skill.md when a folder has both.
                self.skill_dirs.insert(dir.to_string(), name.to_string());
            }
        }
        self.files_by_dir.entry(dir.to_string()).or_default().push(SkillFile {
            path: name.to_string(),
            size: if is_symlink { 0 } else { meta.size },
            is_symlink,
            modified: meta.modified,
            inode: meta.inode,
            changed: meta.changed,
        });
    }
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

fn symlink_stays_inside(link: &Path, root: &Path) -> bool {
    match (link.canonicalize(), root.canonicalize()) {
        (Ok(target), Ok(root)) => target.starts_with(root) && target.is_file(),
        _ => false,
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
    fn a_name_read_from_the_root_has_the_metadata_std_reads() {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("a/b")).unwrap();
        fs::write(root.path().join("a/b/SKILL.md"), "---\nname: x\n---\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("SKILL.md", root.path().join("a/b/link")).unwrap();
        let base = StatBase::open(root.path());
        #[cfg(unix)]
        assert!(matches!(base, StatBase::Folder(_)));
        for (rel, kind) in [("a", FileKind::Dir), ("a/b/SKILL.md", FileKind::File), ("a/b/link", FileKind::Symlink)] {
            if cfg!(not(unix)) && kind == FileKind::Symlink {
                continue;
            }
            let by_std = FileStat::of(&fs::symlink_metadata(root.path().join(rel)).unwrap());
            assert_eq!(base.stat(rel).unwrap(), by_std, "{rel}");
            assert_eq!(by_std.kind, kind, "{rel}");
        }
        assert!(base.stat("a/missing").is_err());
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

    fn now_nanos() -> u64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    }

    /// A walk's skill folders and their files, to compare walks by.
    fn shape(walked: &Walked) -> Vec<(String, Vec<(String, u64)>)> {
        let files = |s: &SkillDir| s.files.iter().map(|f| (f.path.clone(), f.size)).collect();
        walked.source.skills.iter().map(|s| (s.rel_dir.clone(), files(s))).collect()
    }

    /// A source whose folders last changed a clock tick or more before `settled_before`, so that
    /// any later change moves their times.
    fn settled_source() -> (tempfile::TempDir, u64) {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::create_dir_all(root.join("skills/a/scripts")).unwrap();
        fs::create_dir_all(root.join("skills/b")).unwrap();
        fs::write(root.join("skills/a/SKILL.md"), "---\nname: a\n---\n").unwrap();
        fs::write(root.join("skills/a/scripts/run.sh"), "echo").unwrap();
        fs::write(root.join("skills/b/SKILL.md"), "---\nname: b\n---\n").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        (tmp, now_nanos())
    }

    #[test]
    fn an_unchanged_folder_is_not_read_again_but_its_files_are_looked_at() {
        let (tmp, settled_before) = settled_source();
        let root = tmp.path();
        let first = walk_source(repo(), root, Walk { earlier: Listings::default(), settled_before });
        assert_eq!(first.folders_read, 5, "the root, skills, a, a/scripts, b");
        assert!(first.listings_changed);
        std::thread::sleep(std::time::Duration::from_millis(50));
        fs::write(root.join("skills/b/SKILL.md"), "---\nname: b\ndescription: longer now\n---\n").unwrap();

        let again = walk_source(repo(), root, Walk { earlier: first.listings.clone(), settled_before });
        assert_eq!(again.folders_read, 0);
        assert!(!again.listings_changed);
        assert_eq!(again.listings, first.listings);
        assert_eq!(shape(&again), shape(&walk_source(repo(), root, Walk::fresh())));
        assert_ne!(shape(&again), shape(&first), "the edited SKILL.md's new size is seen");
    }

    #[test]
    fn names_added_removed_or_renamed_are_found_in_a_listed_folder() {
        let (tmp, settled_before) = settled_source();
        let root = tmp.path();
        let first = walk_source(repo(), root, Walk { earlier: Listings::default(), settled_before });
        std::thread::sleep(std::time::Duration::from_millis(50));
        fs::write(root.join("skills/a/notes.md"), "notes").unwrap();
        fs::rename(root.join("skills/a/scripts/run.sh"), root.join("skills/a/scripts/go.sh")).unwrap();
        fs::remove_file(root.join("skills/b/SKILL.md")).unwrap();
        fs::create_dir_all(root.join("skills/c")).unwrap();
        fs::write(root.join("skills/c/SKILL.md"), "---\nname: c\n---\n").unwrap();

        let again = walk_source(repo(), root, Walk { earlier: first.listings, settled_before });
        let fresh = walk_source(repo(), root, Walk::fresh());
        assert_eq!(shape(&again), shape(&fresh));
        let dirs: Vec<&str> = again.source.skills.iter().map(|s| s.rel_dir.as_str()).collect();
        assert_eq!(dirs, ["skills/a", "skills/c"]);
        assert_eq!(again.folders_read, 5, "skills, a, a/scripts, b and the new c; not the root");
        assert!(again.listings_changed);
    }

    #[test]
    fn a_folder_changed_lately_is_listed_for_no_later_walk() {
        let (tmp, _) = settled_source();
        let walked = walk_source(repo(), tmp.path(), Walk { earlier: Listings::default(), settled_before: 0 });
        assert_eq!(walked.listings, Listings::default());
        assert_eq!(walked.source.skills.len(), 2);
    }

    #[test]
    fn repo_ids_reject_paths() {
        assert!(RepoId::parse("a/b").is_some());
        assert!(RepoId::parse("../b").is_none());
        assert!(RepoId::parse("a/b/c").is_none());
        assert!(RepoId::parse("nobody").is_none());
    }
}
