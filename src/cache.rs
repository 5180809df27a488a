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
///
/// Small pieces are gathered and hashed in blocks: blake3 is several times faster over a few
/// kilobytes at once than over the short strings most keys are made of. The hash is the same.
#[derive(Clone)]
pub struct Fingerprint {
    hasher: blake3::Hasher,
    pending: Vec<u8>,
}

/// Gathered bytes are hashed once there are this many.
const FINGERPRINT_BLOCK: usize = 16 * 1024;

impl Default for Fingerprint {
    fn default() -> Self {
        Self::new()
    }
}

impl Fingerprint {
    pub fn new() -> Fingerprint {
        let mut print = Fingerprint::blank();
        print.bytes(&binary_identity());
        print
    }

    /// A hasher without the binary's identity, for keys that are compared within one build or
    /// stored beside a record of the binary.
    pub fn blank() -> Fingerprint {
        Fingerprint { hasher: blake3::Hasher::new(), pending: Vec::new() }
    }

    pub fn text(&mut self, text: &str) -> &mut Self {
        self.number(text.len() as u64).bytes(text.as_bytes())
    }

    pub fn number(&mut self, n: u64) -> &mut Self {
        self.bytes(&n.to_le_bytes())
    }

    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        if self.pending.len() + bytes.len() > FINGERPRINT_BLOCK {
            self.hasher.update(&self.pending);
            self.pending.clear();
            if bytes.len() > FINGERPRINT_BLOCK {
                self.hasher.update(bytes);
                return self;
            }
        }
        self.pending.extend_from_slice(bytes);
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
        self.bytes(blake3::hash(bytes.unwrap_or_default()).as_bytes())
    }

    /// A file by its bytes (read in pieces: a file may be large).
    pub fn contents(&mut self, path: &Path) -> &mut Self {
        let mut file = blake3::Hasher::new();
        let read = std::fs::File::open(path).and_then(|f| file.update_reader(f).map(|_| ())).is_ok();
        self.number(u64::from(read));
        self.bytes(file.finalize().as_bytes())
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

    fn finalize(&self) -> blake3::Hash {
        let mut hasher = self.hasher.clone();
        hasher.update(&self.pending);
        hasher.finalize()
    }

    pub fn finish(&self) -> String {
        self.finalize().to_hex()[..32].to_string()
    }

    /// [`Fingerprint::finish`] as bytes.
    pub fn hash(&self) -> Hash {
        let mut out = [0; 16];
        out.copy_from_slice(&self.finalize().as_bytes()[..16]);
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

/// Where a catalog's build cache lives: skill packs, folder listings, the similar-skill ranking.
fn cache_dir(root: &Path) -> PathBuf {
    root.join(".catalog").join("cache")
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
    serde_json::from_str::<BuildRecord>(&text).ok().filter(|record| canonical(&record.out) == canonical(out))
}

/// A path as the file system resolves it (`..` and links followed), so that one folder however
/// it is spelled (`public`, `./public`, through a link) has one name in keys and records; as
/// given when it does not exist.
pub fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
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
fn write_whole_with(path: &Path, write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> bool {
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

/// Forgets the last build of `out`, so that the next build does the work again.
pub fn forget(out: &Path) {
    let _ = std::fs::remove_file(record_path(out));
}

/// The skills of one repository as last read, by cache key
/// (`.catalog/cache/skills/<owner>/<name>.msgpack` under the catalog root). A pack is rewritten
/// whole when any of its skills changed; at a few hundred skills per repository that is a few
/// megabytes.
///
/// The file is a header, the entries (postcard: every build decodes all of them, and postcard,
/// which writes no field names or type tags, decodes them in about half the time MessagePack
/// took), then every skill's SKILL.md text. Loading reads the
/// entries only: text is most of what a skill weighs, and is read one skill at a time when a
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

/// A pack file starts with this, then a 16-byte id (a hash of the entries, which names the
/// pack), the entries' length in bytes and their checksum ([`pack_check`]).
const PACK_MAGIC: &[u8; 8] = b"catpack\x03";
const PACK_HEADER: u64 = 8 + 16 + 8 + 8;

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

    /// The text, or, when its pack was replaced since it was loaded (another build of the same
    /// catalog saved it meanwhile), the skill file itself if it still holds the same text
    /// (`text_hash`, [`crate::relate::text_hash`]).
    pub fn read_checked(&self, skill_file: &Path, text_hash: u64) -> crate::error::Result<std::borrow::Cow<'_, str>> {
        self.read().or_else(|err| {
            let again = std::fs::read(skill_file).ok().map(|bytes| crate::parse::decode(&bytes).0);
            match again {
                Some(text) if crate::relate::text_hash(&text) == text_hash => Ok(std::borrow::Cow::Owned(text)),
                _ => Err(err),
            }
        })
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
        let Ok(encoded) = postcard::to_allocvec(&listed) else { return };
        let id = hash_bytes(&encoded);
        let path = Self::path(root, repo);
        let saved = write_whole_with(&path, |file| {
            file.write_all(PACK_MAGIC)?;
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
    Some((id, PACK_HEADER + len, postcard::from_bytes(&encoded).ok()?))
}

/// A pack's id, its entries' length and their checksum, from the start of its file.
fn read_header(file: &mut std::fs::File) -> std::io::Result<(Hash, u64, u64)> {
    use std::io::Read;
    let mut header = [0u8; PACK_HEADER as usize];
    file.read_exact(&mut header)?;
    if &header[..8] != PACK_MAGIC {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "not a skill pack"));
    }
    let id: Hash = header[8..24].try_into().expect("16 bytes");
    let len = u64::from_le_bytes(header[24..32].try_into().expect("8 bytes"));
    let check = u64::from_le_bytes(header[32..].try_into().expect("8 bytes"));
    Ok((id, len, check))
}

/// The similar-skill ranking of the last build of a catalog (`.catalog/cache/similar.msgpack`),
/// valid only for the binary that computed it. MessagePack rather than JSON: at 60,000 skills
/// the JSON was 16 MB and took 40 ms to read.
#[derive(Serialize, Deserialize)]
struct SimilarFile {
    binary: String,
    memo: crate::relate::SimilarMemo,
}

fn similar_path(root: &Path) -> PathBuf {
    cache_dir(root).join("similar.msgpack")
}

fn shown_path(root: &Path) -> PathBuf {
    cache_dir(root).join("shown.bin")
}

/// The keys of the last build's cards and rows (`.catalog/cache/shown.bin`): the binary's
/// identity, then pairs of 16-byte hashes (a skill's facts, what is shown of it). Valid only
/// for the binary that made the cards. Plain bytes: 60,000 pairs are read in a millisecond.
pub fn load_shown(root: &Path) -> crate::render::skill_page::ShownMemo {
    let mut memo = crate::render::skill_page::ShownMemo::default();
    let Ok(bytes) = std::fs::read(shown_path(root)) else { return memo };
    let identity = binary_identity();
    let Some(pairs) = bytes.strip_prefix(identity.as_slice()).filter(|pairs| pairs.len() % 32 == 0) else {
        return memo;
    };
    memo.by_skill.reserve(pairs.len() / 32);
    for pair in pairs.chunks_exact(32) {
        let (skill, shown) = pair.split_at(16);
        memo.by_skill.insert(skill.try_into().expect("16 bytes"), shown.try_into().expect("16 bytes"));
    }
    memo
}

/// Saves [`load_shown`]'s file. One that cannot be written costs the next build the cards.
pub fn save_shown(root: &Path, memo: &crate::render::skill_page::ShownMemo) {
    let mut bytes = binary_identity().to_vec();
    bytes.reserve(memo.by_skill.len() * 32);
    for (skill, shown) in &memo.by_skill {
        bytes.extend_from_slice(skill);
        bytes.extend_from_slice(shown);
    }
    let _ = write_whole_with(&shown_path(root), |file| file.write_all(&bytes));
}

pub fn load_similar(root: &Path) -> Option<crate::relate::SimilarMemo> {
    let file: SimilarFile = rmp_serde::from_slice(&std::fs::read(similar_path(root)).ok()?).ok()?;
    (file.binary == crate::write::hex(&binary_identity())).then_some(file.memo)
}

pub fn save_similar(root: &Path, memo: crate::relate::SimilarMemo) {
    let file = SimilarFile { binary: crate::write::hex(&binary_identity()), memo };
    if let Ok(bytes) = rmp_serde::to_vec(&file) {
        write_whole(&similar_path(root), &bytes);
    }
}

/// A value kept as it was encoded (MessagePack, which unlike the pack's own format reads the
/// flattened and tagged fields of a scan report) until it is first read: most
/// of a cached skill is read only when its own page is rendered again, and decoding every
/// skill's whole record was most of the time a rebuild spent loading the cache. Made with
/// [`Deferred::new`], it holds the value itself; encoded again, it gives the same bytes.
pub struct Deferred<T> {
    encoded: Option<Box<[u8]>>,
    /// Boxed: a skill is moved several times on its way into the catalog, and a frontmatter
    /// held inline made every move 200 bytes longer.
    value: std::sync::OnceLock<Box<T>>,
}

impl<T: serde::de::DeserializeOwned + Default> Deferred<T> {
    pub fn new(value: T) -> Deferred<T> {
        Deferred { encoded: None, value: std::sync::OnceLock::from(Box::new(value)) }
    }

    /// The value, decoded on first use; the default when the bytes do not decode (a pack's
    /// entries are checked against its checksum before they are used, so that is damage in
    /// memory).
    pub fn get(&self) -> &T {
        self.value.get_or_init(|| {
            Box::new(self.encoded.as_deref().and_then(|b| rmp_serde::from_slice(b).ok()).unwrap_or_default())
        })
    }
}

impl<T: serde::de::DeserializeOwned + Default> Default for Deferred<T> {
    fn default() -> Deferred<T> {
        Deferred::new(T::default())
    }
}

impl<T: serde::de::DeserializeOwned + Default + Clone> Clone for Deferred<T> {
    fn clone(&self) -> Deferred<T> {
        match self.value.get() {
            Some(value) => Deferred::new(T::clone(value)),
            None => Deferred { encoded: self.encoded.clone(), value: std::sync::OnceLock::new() },
        }
    }
}

impl<T: serde::de::DeserializeOwned + Default + PartialEq> PartialEq for Deferred<T> {
    fn eq(&self, other: &Deferred<T>) -> bool {
        self.get() == other.get()
    }
}

impl<T: serde::de::DeserializeOwned + Default + std::fmt::Debug> std::fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl<T: Serialize> Serialize for Deferred<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match (self.value.get(), &self.encoded) {
            (None, Some(encoded)) => serializer.serialize_bytes(encoded),
            (value, _) => {
                let encoded = value.map(|v| rmp_serde::to_vec(&**v)).transpose().map_err(serde::ser::Error::custom)?;
                serializer.serialize_bytes(&encoded.unwrap_or_default())
            }
        }
    }
}

impl<'de, T> Deserialize<'de> for Deferred<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Deferred<T>, D::Error> {
        struct Bytes;
        impl<'de> serde::de::Visitor<'de> for Bytes {
            type Value = Box<[u8]>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("encoded bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> std::result::Result<Box<[u8]>, E> {
                Ok(bytes.into())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> std::result::Result<Box<[u8]>, E> {
                Ok(bytes.into_boxed_slice())
            }
        }
        let encoded = deserializer.deserialize_byte_buf(Bytes)?;
        Ok(Deferred { encoded: Some(encoded), value: std::sync::OnceLock::new() })
    }
}

/// The folder listings of a source's last walk (`discover::Listings`), beside its skill pack:
/// named by the repository, and holding the folder it was walked from.
#[derive(Serialize, Deserialize)]
struct ListingsFile {
    binary: Hash,
    source: PathBuf,
    listings: crate::discover::Listings,
}

fn listings_path(root: &Path, repo: &str) -> PathBuf {
    cache_dir(root).join("folders").join(format!("{repo}.msgpack"))
}

/// The listings saved for `repo` walked from `source`; none when there are none, or they were
/// written by another binary or for another folder.
pub fn load_listings(root: &Path, repo: &str, source: &Path) -> crate::discover::Listings {
    std::fs::read(listings_path(root, repo))
        .ok()
        .and_then(|bytes| rmp_serde::from_slice::<ListingsFile>(&bytes).ok())
        .filter(|file| file.binary == binary_identity() && file.source == source)
        .map(|file| file.listings)
        .unwrap_or_default()
}

pub fn save_listings(root: &Path, repo: &str, source: &Path, listings: crate::discover::Listings) {
    let file = ListingsFile { binary: binary_identity(), source: source.to_path_buf(), listings };
    if let Ok(bytes) = rmp_serde::to_vec(&file) {
        write_whole(&listings_path(root, repo), &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_keys_come_back_as_saved_and_a_damaged_file_gives_none() {
        let root = tempfile::tempdir().unwrap();
        let mut memo = crate::render::skill_page::ShownMemo::default();
        memo.by_skill.insert([1; 16], [2; 16]);
        memo.by_skill.insert([3; 16], [4; 16]);
        save_shown(root.path(), &memo);
        assert_eq!(load_shown(root.path()).by_skill, memo.by_skill);
        // A torn pair is damage: every key is made again rather than one read wrong.
        let path = shown_path(root.path());
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert!(load_shown(root.path()).by_skill.is_empty());
    }

    #[test]
    fn a_deferred_value_decodes_when_read_and_encodes_to_the_same_bytes() {
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        struct Record {
            name: String,
            rest: Deferred<Vec<String>>,
        }
        let made = Record { name: "a".into(), rest: Deferred::new(vec!["one".into(), "two".into()]) };
        let bytes = rmp_serde::to_vec(&made).unwrap();
        let loaded: Record = rmp_serde::from_slice(&bytes).unwrap();
        assert!(loaded.rest.value.get().is_none(), "decoded before it was read");
        assert_eq!(rmp_serde::to_vec(&loaded).unwrap(), bytes, "saved again unread");
        assert_eq!(loaded.rest.get(), &["one", "two"]);
        assert_eq!(rmp_serde::to_vec(&loaded).unwrap(), bytes, "saved again once read");
        assert_eq!(loaded, made);
    }

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
    fn gathered_pieces_hash_as_one_stream() {
        let mut print = Fingerprint::blank();
        let mut stream = Vec::new();
        for (i, size) in [3usize, 40_000, 10, FINGERPRINT_BLOCK, 1, FINGERPRINT_BLOCK - 1, 7].into_iter().enumerate() {
            let piece = vec![i as u8; size];
            print.bytes(&piece);
            stream.extend_from_slice(&piece);
        }
        print.text("end");
        stream.extend_from_slice(&3u64.to_le_bytes());
        stream.extend_from_slice(b"end");
        assert_eq!(print.finish(), blake3::hash(&stream).to_hex()[..32]);
    }

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

        // Another build replaces the pack: the old place is refused, and the skill file itself
        // stands in only while it holds the same text.
        let mut other = vec![entry("ccc", Some("third, edited"))];
        SkillPack::save(tmp.path(), "o/r", &mut other);
        assert!(third.read().is_err());
        let skill_file = tmp.path().join("SKILL.md");
        std::fs::write(&skill_file, "third").unwrap();
        let hash = crate::relate::text_hash("third");
        assert_eq!(third.read_checked(&skill_file, hash).unwrap(), "third");
        std::fs::write(&skill_file, "changed").unwrap();
        assert!(third.read_checked(&skill_file, hash).is_err());

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
