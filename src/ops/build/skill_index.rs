//! The discovery index and the skills' archives ([`crate::skill_index`]) joined to the build:
//! the files read here, the archives and the index written through the site writer, and each
//! artifact's SHA-256 kept by its key so that an unchanged skill is neither read nor hashed again.

use std::path::Path;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::hash::{Hash, hash_parts};
use crate::incr;
use crate::model::{Catalog, Skill};
use crate::render::SkillTexts;
use crate::skill_index::{self, ArtifactType, Entry, Listed, archive};
use crate::write::SiteWriter;

/// The artifacts' digests by key, in the catalog's cache.
const DIGEST_MEMO: &str = "skill-index.msgpack";

/// What an artifact is made from: the skill's cache key, a hash of every file's path and bytes
/// (links by where they point), and the artifact's format. Bytes and digest are functions of it.
fn artifact_key(source_key: &str, kind: ArtifactType) -> Hash {
    let format: &[u8] = match kind {
        ArtifactType::SkillMd => b"SKILL.md as read\0",
        ArtifactType::Archive => b"tar.gz 2\0",
    };
    hash_parts(&[format, source_key.as_bytes()])
}

/// Writes every listed skill's archive and the index; SKILL.md copies are the skill pages' own.
pub(super) fn write_skill_index(
    root: &Path,
    catalog: &Catalog,
    texts: &dyn SkillTexts,
    out: &SiteWriter,
) -> Result<()> {
    let earlier: crate::FastMap<Hash, [u8; 32]> =
        incr::store::load_memo::<Vec<(Hash, [u8; 32])>>(root, DIGEST_MEMO).unwrap_or_default().into_iter().collect();
    let listed = skill_index::listed(catalog);
    let made: Vec<Option<(Entry, Hash, [u8; 32])>> = listed
        .par_iter()
        .map(|listed| -> Result<Option<(Entry, Hash, [u8; 32])>> {
            let skill = &catalog.skills[listed.skill];
            let key = artifact_key(texts.source_key(listed.skill), listed.kind);
            let sha256 = match listed.kind {
                ArtifactType::SkillMd => match earlier.get(&key) {
                    Some(sha256) => *sha256,
                    None => Sha256::digest(texts.text(listed.skill)?.as_bytes()).into(),
                },
                ArtifactType::Archive => {
                    let Some(sha256) = write_archive(catalog, listed, key, earlier.get(&key), out)? else {
                        return Ok(None);
                    };
                    sha256
                }
            };
            Ok(Some((Entry::new(listed, skill, &sha256), key, sha256)))
        })
        .collect::<Result<_>>()?;
    let made: Vec<(Entry, Hash, [u8; 32])> = made.into_iter().flatten().collect();
    let entries: Vec<Entry> = made.iter().map(|(entry, _, _)| entry.clone()).collect();
    out.write(skill_index::INDEX_PATH, skill_index::index_json(&entries).as_bytes())?;
    let digests: Vec<(Hash, [u8; 32])> = made.into_iter().map(|(_, key, sha256)| (key, sha256)).collect();
    if digests.len() != earlier.len() || digests.iter().any(|(key, sha256)| earlier.get(key) != Some(sha256)) {
        incr::store::save_memo(root, DIGEST_MEMO, digests);
    }
    Ok(())
}

/// Writes the skill's archive, unless the published site has it from the same key; returns its
/// SHA-256, or `None` when the folder could not be read whole (the skill is then not listed).
fn write_archive(
    catalog: &Catalog,
    listed: &Listed,
    key: Hash,
    known: Option<&[u8; 32]>,
    out: &SiteWriter,
) -> Result<Option<[u8; 32]>> {
    let skill = &catalog.skills[listed.skill];
    if let Some(sha256) = known {
        // Made only when the published file is not from this key (or is gone).
        let (mut made, mut unreadable) = (None, false);
        let written = out.write_bytes(&listed.path, key, || {
            let bytes = pack(skill).inspect_err(|_| unreadable = true)?;
            made = Some(<[u8; 32]>::from(Sha256::digest(&bytes)));
            Ok(bytes)
        });
        return match written {
            Ok(()) => Ok(Some(made.unwrap_or(*sha256))),
            Err(_) if unreadable => Ok(None),
            Err(err) => Err(err),
        };
    }
    let bytes = match pack(skill) {
        Ok(bytes) => bytes,
        Err(_) => return Ok(None),
    };
    let sha256 = Sha256::digest(&bytes).into();
    out.write_bytes(&listed.path, key, || Ok(bytes))?;
    Ok(Some(sha256))
}

/// Whether any execute bit is set (never, where files have no such bits).
fn is_executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// The skill folder's `.tar.gz`: every file but links, SKILL.md under that name whatever the
/// case it was found in.
fn pack(skill: &Skill) -> Result<Vec<u8>> {
    let mut files = Vec::with_capacity(skill.dir.files.len());
    for file in skill.dir.files.iter().filter(|f| !f.is_symlink) {
        let path = skill.dir.dir.join(&file.path);
        // Read only what is still a plain file: a link put in its place since is not followed.
        let meta = std::fs::symlink_metadata(&path).map_err(|e| Error::io(&path, e))?;
        if !meta.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let name = if file.path == skill.dir.skill_file { "SKILL.md".to_string() } else { file.path.clone() };
        files.push(archive::ArchiveFile { path: name, bytes, executable: is_executable(&meta) });
    }
    archive::tar_gz(files).map_err(|e| Error::io(&skill.dir.dir, e))
}
