//! Skill packs: each repository's skills as last read, by cache key, with their SKILL.md texts
//! kept apart and read one at a time.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::hash::{Hash, hash_bytes};

use super::store::{HEADER_LEN, after_header, cache_dir, header, write_whole_with};

/// The skills of one repository as last read, by cache key
/// (`.catalog/cache/skills/<owner>/<name>.msgpack` under the catalog root). A pack is rewritten
/// whole when any of its skills changed; at a few hundred skills per repository that is a few
/// megabytes.
///
/// The file is a header, the entries (MessagePack, as everything in the store), then every
/// skill's SKILL.md text. Loading reads the entries only: text is most of what a skill weighs, and is read one skill at a time when a
/// page needs it ([`SkillText`]).
///
/// Each entry may also carry the skill folder's stat signature (its files' sizes, times and
/// inodes): a folder whose signature is unchanged has the same key without its files being read
/// again, as git's index does. A signature is kept only for folders whose files had not changed
/// for a while when they were read, so that a write within the file system's clock tick after
/// the read cannot go unseen.
pub struct SkillPack<T> {
    entries: crate::FastMap<String, (T, Option<SkillText>)>,
    keys_by_stat: crate::FastMap<String, String>,
}

/// One skill of a pack: its cache key, its folder's stat signature, what reading it yielded,
/// and its SKILL.md text.
pub struct PackEntry<T> {
    pub key: String,
    pub stat: Option<String>,
    pub value: T,
    pub text: Option<SkillText>,
}

/// A pack file starts with the store's header (which names the cache version), then a 16-byte
/// id (a hash of the entries, which names the pack), the entries' length in bytes and their
/// checksum ([`pack_check`]).
const PACK_HEADER: u64 = HEADER_LEN as u64 + 16 + 8 + 8;

/// What a pack's entries are checked with when loaded: xxh3 rather than blake3 again, since it
/// guards against damage, not against a forger, and hashing 100 MB of entries with blake3 was a
/// tenth of a 60,000-skill rebuild's CPU time. Seeded with the id, which it covers too.
fn pack_check(id: &Hash, encoded: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(encoded, u64::from_le_bytes(id[..8].try_into().expect("8 bytes")))
}

/// Where a text lies in a pack's text section: `(offset, length)`.
type TextSpan = (u64, u64);

/// A skill's SKILL.md text: in memory when it was just read, else in its repository's pack,
/// read when it is needed. Of a skill's 20 KB in memory, about 8 KB is this text; a build that
/// renders a few pages needs only theirs.
#[derive(Debug, Clone)]
pub enum SkillText {
    InMemory(String),
    Packed(PackedText),
}

/// A text in a pack file, named by the pack's id: a pack replaced since it was loaded (another
/// build of the same catalog) is refused rather than read at the wrong place.
#[derive(Debug, Clone)]
pub struct PackedText {
    path: std::sync::Arc<PathBuf>,
    id: Hash,
    /// From the start of the file.
    offset: u64,
    len: u64,
}

impl SkillText {
    pub fn read(&self) -> crate::error::Result<std::borrow::Cow<'_, str>> {
        match self {
            SkillText::InMemory(text) => Ok(std::borrow::Cow::Borrowed(text)),
            SkillText::Packed(packed) => packed.read().map(std::borrow::Cow::Owned),
        }
    }

    fn len(&self) -> u64 {
        match self {
            SkillText::InMemory(text) => text.len() as u64,
            SkillText::Packed(packed) => packed.len,
        }
    }
}

impl PackedText {
    fn read(&self) -> crate::error::Result<String> {
        use std::io::{Read, Seek};
        let path = self.path.as_path();
        let io = |e: std::io::Error| crate::error::Error::io(path, e);
        let mut file = std::fs::File::open(path).map_err(io)?;
        let (id, _, _) = read_header(&mut file).map_err(io)?;
        if id != self.id {
            let changed = std::io::Error::other("the build cache was replaced while this build read it; build again");
            return Err(io(changed));
        }
        file.seek(std::io::SeekFrom::Start(self.offset)).map_err(io)?;
        let mut bytes = vec![0; self.len as usize];
        file.read_exact(&mut bytes).map_err(io)?;
        String::from_utf8(bytes).map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
    }
}

impl<T: Serialize + serde::de::DeserializeOwned> SkillPack<T> {
    fn path(root: &Path, repo: &str) -> PathBuf {
        cache_dir(root).join("skills").join(format!("{repo}.msgpack"))
    }

    /// The pack of `repo`, empty when there is none or it cannot be read (it was written by
    /// another version, or damaged): its skills are then read again.
    pub fn load(root: &Path, repo: &str) -> SkillPack<T> {
        let mut pack = SkillPack { entries: Default::default(), keys_by_stat: Default::default() };
        let path = Self::path(root, repo);
        let Some((id, texts_from, list)) = read_entries::<T>(&path) else { return pack };
        pack.entries.reserve(list.len());
        pack.keys_by_stat.reserve(list.len());
        let path = std::sync::Arc::new(path);
        for (key, stat, value, span) in list {
            if let Some(stat) = stat {
                pack.keys_by_stat.insert(stat, key.clone());
            }
            let text = span.map(|(offset, len)| {
                SkillText::Packed(PackedText { path: path.clone(), id, offset: texts_from + offset, len })
            });
            pack.entries.insert(key, (value, text));
        }
        pack
    }

    /// The key last found for a folder with this stat signature.
    pub fn key_by_stat(&self, stat: &str) -> Option<String> {
        self.keys_by_stat.get(stat).cloned()
    }

    pub fn take(&mut self, key: &str) -> Option<(T, Option<SkillText>)> {
        self.entries.remove(key)
    }

    /// Whether every entry was taken (none is stale).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Replaces the pack of `repo` with `entries`, and points their texts at the new pack, so
    /// that texts read in this build are not held in memory any longer. A cache that cannot be
    /// written only costs the next build time; the texts then stay where they were.
    pub fn save(root: &Path, repo: &str, entries: &mut [PackEntry<T>]) {
        let mut spans = Vec::with_capacity(entries.len());
        let mut end = 0;
        for entry in entries.iter() {
            spans.push(entry.text.as_ref().map(|text| {
                let span = (end, text.len());
                end += text.len();
                span
            }));
        }
        let listed: Vec<(&str, &Option<String>, &T, &Option<TextSpan>)> =
            entries.iter().zip(&spans).map(|(e, span)| (e.key.as_str(), &e.stat, &e.value, span)).collect();
        let Ok(encoded) = rmp_serde::to_vec(&listed) else { return };
        let id = hash_bytes(&encoded);
        let path = Self::path(root, repo);
        let saved = write_whole_with(&path, |file| {
            file.write_all(&header())?;
            file.write_all(&id)?;
            file.write_all(&(encoded.len() as u64).to_le_bytes())?;
            file.write_all(&pack_check(&id, &encoded).to_le_bytes())?;
            file.write_all(&encoded)?;
            for entry in entries.iter() {
                if let Some(text) = &entry.text {
                    let text = text.read().map_err(std::io::Error::other)?;
                    file.write_all(text.as_bytes())?;
                }
            }
            Ok(())
        });
        if !saved {
            return;
        }
        let path = std::sync::Arc::new(path);
        let texts_from = PACK_HEADER + encoded.len() as u64;
        for (entry, span) in entries.iter_mut().zip(spans) {
            if let (Some(text), Some((offset, len))) = (&mut entry.text, span) {
                *text = SkillText::Packed(PackedText { path: path.clone(), id, offset: texts_from + offset, len });
            }
        }
    }
}

/// A pack's entries with its id and where its texts start, reading no text.
#[allow(clippy::type_complexity)]
fn read_entries<T: serde::de::DeserializeOwned>(
    path: &Path,
) -> Option<(Hash, u64, Vec<(String, Option<String>, T, Option<TextSpan>)>)> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let (id, len, check) = read_header(&mut file).ok()?;
    // A length beyond the file is damage, not a reason to allocate it.
    if len > file.metadata().ok()?.len() {
        return None;
    }
    let mut encoded = vec![0; len as usize];
    file.read_exact(&mut encoded).ok()?;
    if pack_check(&id, &encoded) != check {
        return None;
    }
    Some((id, PACK_HEADER + len, rmp_serde::from_slice(&encoded).ok()?))
}

/// A pack's id, its entries' length and their checksum, from the start of its file.
fn read_header(file: &mut std::fs::File) -> std::io::Result<(Hash, u64, u64)> {
    use std::io::Read;
    let mut bytes = [0u8; PACK_HEADER as usize];
    file.read_exact(&mut bytes)?;
    let not_ours = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not a skill pack of this cache version");
    let rest = after_header(&bytes).ok_or_else(not_ours)?;
    let id: Hash = rest[..16].try_into().expect("16 bytes");
    let len = u64::from_le_bytes(rest[16..24].try_into().expect("8 bytes"));
    let check = u64::from_le_bytes(rest[24..].try_into().expect("8 bytes"));
    Ok((id, len, check))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_keeps_texts_apart_and_reads_them_back() {
        let tmp = tempfile::tempdir().unwrap();
        let entry = |key: &str, text: Option<&str>| PackEntry {
            key: key.into(),
            stat: Some(format!("stat of {key}")),
            value: key.len() as u64,
            text: text.map(|t| SkillText::InMemory(t.into())),
        };
        let mut entries = vec![entry("a", Some("first — text")), entry("bb", None), entry("ccc", Some("third"))];
        SkillPack::save(tmp.path(), "o/r", &mut entries);
        // Saved texts are read from the pack from then on, not held in memory.
        assert!(matches!(entries[0].text, Some(SkillText::Packed(_))));
        assert_eq!(entries[2].text.as_ref().unwrap().read().unwrap(), "third");

        let mut pack = SkillPack::<u64>::load(tmp.path(), "o/r");
        assert_eq!(pack.key_by_stat("stat of ccc").as_deref(), Some("ccc"));
        let (value, text) = pack.take("a").unwrap();
        assert_eq!((value, text.as_ref().unwrap().read().unwrap().as_ref()), (1, "first — text"));
        assert!(pack.take("bb").unwrap().1.is_none());
        let (_, third) = pack.take("ccc").unwrap();
        let third = third.unwrap();

        // Another build replaces the pack: the old place is refused.
        let mut other = vec![entry("ccc", Some("third, edited"))];
        SkillPack::save(tmp.path(), "o/r", &mut other);
        assert!(third.read().is_err());

        // A damaged pack is no pack: its skills are read again. Even damage that still decodes
        // (one letter of a stat signature) is caught by the checksum.
        let path = SkillPack::<u64>::path(tmp.path(), "o/r");
        let saved = std::fs::read(&path).unwrap();
        assert!(!SkillPack::<u64>::load(tmp.path(), "o/r").is_empty());
        let mut bytes = saved.clone();
        let at = bytes.windows(11).position(|w| w == b"stat of ccc").expect("the stat signature is in the pack");
        bytes[at + 10] = b'd';
        std::fs::write(&path, &bytes).unwrap();
        assert!(SkillPack::<u64>::load(tmp.path(), "o/r").is_empty());
        let mut bytes = saved;
        bytes[PACK_HEADER as usize + 2] ^= 0xff;
        std::fs::write(&path, bytes).unwrap();
        assert!(SkillPack::<u64>::load(tmp.path(), "o/r").is_empty());
    }
}
