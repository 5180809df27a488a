//! Copies: skills whose folders hold the same files, across the catalog.
//!
//! A folder's content hash covers its files' paths (sorted) and bytes, with CRLF line endings
//! read as LF, so a copy checked out on Windows is still the same copy. Skills with the same hash
//! form a copy group; the copy first seen (earliest `first_seen`, then catalog order) is the
//! canonical one, and each copy counts the other owners holding it.

use std::collections::{BTreeSet, HashMap};

use crate::discover::SkillFile;
use crate::time::Timestamp;

/// Files larger than this are hashed by size and path only.
const MAX_HASHED_BYTES: u64 = 16 * 1024 * 1024;

/// A skill's place among identical copies.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Copies {
    /// The content hash of the skill folder; `None` when a file could not be read.
    pub hash: Option<[u8; 32]>,
    /// Index (into `Catalog::skills`) of the copy first seen, when the folder has other copies
    /// in the catalog; it may be the skill itself. Not keyed: an index means nothing without
    /// the catalog, and a page input that names the copy holds its address on its own.
    #[serde(skip)]
    pub canonical: Option<usize>,
    /// Identical copies elsewhere in the catalog.
    pub others: usize,
    /// Owners other than this skill's own holding an identical copy.
    pub used_in: usize,
}

/// The content hash of a skill folder's files (paths relative to the folder, as `discover`
/// lists them). Symbolic links count by their path only. A file's bytes come from `read`, the
/// bytes the folder's reading kept, else from `read_file` (the caller's I/O: relate does none).
pub fn content_hash(
    files: &[SkillFile],
    read: &crate::discover::FolderBytes,
    mut read_file: impl FnMut(&str) -> Option<Vec<u8>>,
) -> Option<[u8; 32]> {
    let mut sorted: Vec<&SkillFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut hasher = blake3::Hasher::new();
    for file in sorted {
        hasher.update(file.path.as_bytes());
        hasher.update(&[0]);
        if file.is_symlink {
            hasher.update(b"link\0");
            continue;
        }
        if file.size > MAX_HASHED_BYTES {
            hasher.update(format!("large {}\0", file.size).as_bytes());
            continue;
        }
        let owned;
        let bytes = match read.get(&file.path) {
            Some(bytes) => bytes,
            None => {
                owned = read_file(&file.path)?;
                &owned
            }
        };
        let normalised = normalise_line_endings(bytes);
        hasher.update(&(normalised.len() as u64).to_le_bytes());
        hasher.update(&normalised);
    }
    Some(*hasher.finalize().as_bytes())
}

/// CRLF -> LF.
fn normalise_line_endings(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    // Most files have no CR at all: a quick scan spares the copy.
    if !bytes.contains(&b'\r') {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    std::borrow::Cow::Owned(out)
}

/// What the grouping needs to know of one skill.
pub struct CopyInput<'a> {
    pub hash: Option<[u8; 32]>,
    pub owner: &'a str,
    pub first_seen: Option<Timestamp>,
}

/// Groups skills by hash. `skills` is in catalog order, which breaks ties between copies first
/// seen at the same time (or at unknown times, which come after every known one).
pub fn group(skills: &[CopyInput]) -> Vec<Copies> {
    let mut groups: HashMap<[u8; 32], Vec<usize>> = HashMap::new();
    for (index, skill) in skills.iter().enumerate() {
        if let Some(hash) = skill.hash {
            groups.entry(hash).or_default().push(index);
        }
    }
    let mut out: Vec<Copies> = skills.iter().map(|s| Copies { hash: s.hash, ..Copies::default() }).collect();
    for members in groups.values().filter(|m| m.len() > 1) {
        let canonical = *members
            .iter()
            .min_by_key(|&&i| (skills[i].first_seen.is_none(), skills[i].first_seen, i))
            .expect("a group has members");
        let owners: BTreeSet<&str> = members.iter().map(|&i| skills[i].owner).collect();
        for &i in members {
            out[i].canonical = Some(canonical);
            out[i].others = members.len() - 1;
            out[i].used_in = owners.len() - usize::from(owners.contains(skills[i].owner));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, size: u64) -> SkillFile {
        SkillFile { path: path.into(), size, is_symlink: false, modified: 0, inode: 0, changed: 0 }
    }

    #[test]
    fn hashes_ignore_line_endings_but_not_content_or_names() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b, c) = (tmp.path().join("a"), tmp.path().join("b"), tmp.path().join("c"));
        for (dir, text, name) in
            [(&a, "x\ny\n", "SKILL.md"), (&b, "x\r\ny\r\n", "SKILL.md"), (&c, "x\ny\n", "skill.md")]
        {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(name), text).unwrap();
        }
        let hash = |dir: &std::path::Path, f: SkillFile| {
            content_hash(&[f], &Default::default(), |rel| std::fs::read(dir.join(rel)).ok())
        };
        let ha = hash(&a, file("SKILL.md", 4)).unwrap();
        assert_eq!(Some(ha), hash(&b, file("SKILL.md", 6)));
        assert_ne!(Some(ha), hash(&c, file("skill.md", 4)));
        std::fs::write(b.join("SKILL.md"), "x\ny\nz").unwrap();
        assert_ne!(Some(ha), hash(&b, file("SKILL.md", 5)));
        assert_eq!(hash(&a, file("missing", 1)), None);
    }

    #[test]
    fn the_copy_first_seen_is_canonical_and_owners_are_counted() {
        let h = Some([1; 32]);
        let input = [
            CopyInput { hash: h, owner: "b", first_seen: Some(Timestamp(20)) },
            CopyInput { hash: Some([2; 32]), owner: "b", first_seen: None },
            CopyInput { hash: h, owner: "a", first_seen: Some(Timestamp(10)) },
            CopyInput { hash: h, owner: "a", first_seen: None },
            CopyInput { hash: h, owner: "c", first_seen: None },
        ];
        let copies = group(&input);
        assert_eq!(copies[0].canonical, Some(2));
        assert_eq!(copies[2].canonical, Some(2));
        assert_eq!(copies[1], Copies { hash: Some([2; 32]), ..Copies::default() });
        // b sees owners a and c; a sees b and c (its own second copy does not count).
        assert_eq!((copies[0].used_in, copies[0].others), (2, 3));
        assert_eq!((copies[2].used_in, copies[2].others), (2, 3));
        assert_eq!(copies[4].used_in, 2);
    }
}
