//! The index agents read to find the catalog's skills by themselves:
//! `/.well-known/agent-skills/index.json`, per the Agent Skills Discovery RFC (v0.2.0), and the
//! artifact of each skill it lists. Pure functions of the catalog and of bytes handed in; the
//! build reads the files and writes what is made here.
//!
//! The rules, which the README states:
//! - a skill is listed when its licence allows redistribution (a known open licence, from the
//!   skill's own licence or its repository's), its frontmatter is valid YAML and it has a
//!   description; an unknown, custom or proprietary licence leaves it out;
//! - a skill that is SKILL.md alone is published as those bytes (the copy beside its page); a
//!   skill with files beside SKILL.md as a `.tar.gz` of its folder ([`archive`]), unless the
//!   folder is over [`MAX_ARCHIVE_BYTES`] or [`MAX_ARCHIVE_FILES`];
//! - names follow the Agent Skills name rule ([`rfc_name`]); the first skill of a name in
//!   catalog order keeps it, a later one is `owner-repo-name`, then numbered if that is taken.

pub mod archive;

use std::collections::HashSet;

use serde::Serialize;

use crate::model::{Catalog, Repo, Skill};

/// Where the index is published, inside the site.
pub const INDEX_PATH: &str = ".well-known/agent-skills/index.json";
/// The folder of [`INDEX_PATH`] back to the site root, for the artifacts' relative URLs.
const INDEX_TO_ROOT: &str = "../../";
pub const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/// The Agent Skills limits on a name and a description.
pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Folders larger than this are left out rather than packed: an index entry is a download an
/// agent may make unasked.
pub const MAX_ARCHIVE_BYTES: u64 = 16 * 1024 * 1024;
pub const MAX_ARCHIVE_FILES: usize = 1000;

/// How a skill is distributed: its SKILL.md, or an archive of its folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ArtifactType {
    #[serde(rename = "skill-md")]
    SkillMd,
    #[serde(rename = "archive")]
    Archive,
}

/// One skill the index lists, before its artifact's digest is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Index into `Catalog::skills`.
    pub skill: usize,
    pub name: String,
    pub kind: ArtifactType,
    /// The artifact's path in the site.
    pub path: String,
}

/// The skills the index lists, in catalog order, named by the rules above.
pub fn listed(catalog: &Catalog) -> Vec<Listed> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for (index, skill) in catalog.skills.iter().enumerate() {
        let repo = &catalog.repos[skill.repo];
        let Some(kind) = artifact_type(skill) else { continue };
        let Some(plain) = rfc_name(&skill.name).or_else(|| rfc_name(skill.folder_name(repo))) else { continue };
        let name = unique_name(&plain, repo, &taken);
        taken.insert(name.clone());
        let dir = skill.url_path(repo);
        let path = match kind {
            // The copy the skill page offers for download.
            ArtifactType::SkillMd => format!("{dir}SKILL.md"),
            ArtifactType::Archive => format!("{dir}{}.tar.gz", skill.slug),
        };
        out.push(Listed { skill: index, name, kind, path });
    }
    out
}

/// How the skill is published, or `None` when it is not.
pub fn artifact_type(skill: &Skill) -> Option<ArtifactType> {
    // An index entry is for agents that follow the spec: they need valid frontmatter.
    let spec_reads_it = skill.reading == crate::parse::Reading::Strict;
    // Agents may install what the index lists without a person reading the page first: a skill
    // the scanner failed, or could not check, is not offered to them.
    let failed = matches!(skill.verdict, crate::scan::Verdict::Failed | crate::scan::Verdict::NotChecked);
    if !skill.analysis.license.redistributable || skill.description.trim().is_empty() || !spec_reads_it || failed {
        return None;
    }
    let packed: Vec<_> = skill.dir.files.iter().filter(|f| !f.is_symlink).collect();
    if packed.iter().all(|f| f.path == skill.dir.skill_file) {
        return Some(ArtifactType::SkillMd);
    }
    let bytes: u64 = packed.iter().map(|f| f.size).sum();
    (bytes <= MAX_ARCHIVE_BYTES && packed.len() <= MAX_ARCHIVE_FILES).then_some(ArtifactType::Archive)
}

/// `plain` if no skill before took it, else `owner-repo-plain`, else that numbered.
fn unique_name(plain: &str, repo: &Repo, taken: &HashSet<String>) -> String {
    if !taken.contains(plain) {
        return plain.to_string();
    }
    let long = rfc_name(&format!("{}-{}-{plain}", repo.id.owner, repo.id.name)).unwrap_or_else(|| plain.to_string());
    if !taken.contains(&long) {
        return long;
    }
    (2..)
        .map(|n| {
            let suffix = format!("-{n}");
            let head = cut(&long, MAX_NAME_CHARS - suffix.len());
            format!("{head}{suffix}")
        })
        .find(|name| !taken.contains(name))
        .expect("some number is free")
}

/// `text` made a name by the Agent Skills rule: 1 to 64 of `a-z`, `0-9` and `-`, no `-` first,
/// last or twice in a row. `None` when nothing of it is left.
pub fn rfc_name(text: &str) -> Option<String> {
    let mut name = String::with_capacity(text.len());
    for c in text.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            name.push(c);
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = cut(&name, MAX_NAME_CHARS);
    (!name.is_empty()).then(|| name.to_string())
}

/// The first `max` characters of an ASCII name, without a trailing `-`.
fn cut(name: &str, max: usize) -> &str {
    name[..name.len().min(max)].trim_end_matches('-')
}

/// Whether `name` follows the Agent Skills name rule.
pub fn is_rfc_name(name: &str) -> bool {
    (1..=MAX_NAME_CHARS).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// One entry of the index.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ArtifactType,
    pub description: String,
    /// Relative to the index, so that the site works under any address (RFC 3986 resolution).
    pub url: String,
    /// `sha256:` and the hex SHA-256 of the artifact's bytes.
    pub digest: String,
}

impl Entry {
    pub fn new(listed: &Listed, skill: &Skill, sha256: &[u8; 32]) -> Entry {
        Entry {
            name: listed.name.clone(),
            kind: listed.kind,
            description: description(&skill.description),
            url: format!("{INDEX_TO_ROOT}{}", listed.path),
            digest: format!("sha256:{}", crate::hash::hex(sha256)),
        }
    }
}

/// The description within the spec's 1,024 characters, cut at a word when longer.
fn description(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_DESCRIPTION_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
    let head = head.rsplit_once(char::is_whitespace).map_or(head.as_str(), |(words, _)| words).trim_end();
    format!("{head}…")
}

#[derive(Serialize)]
struct Index<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    skills: &'a [Entry],
}

/// The index file's bytes.
pub fn index_json(entries: &[Entry]) -> String {
    let mut text = serde_json::to_string_pretty(&Index { schema: SCHEMA, skills: entries }).expect("serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_agent_skills_rule() {
        assert_eq!(rfc_name("PDF Processing").as_deref(), Some("pdf-processing"));
        assert_eq!(rfc_name("--a__b  c--").as_deref(), Some("a-b-c"));
        assert_eq!(rfc_name("café au lait").as_deref(), Some("caf-au-lait"));
        assert_eq!(rfc_name("日本語"), None);
        let long = rfc_name(&"ab-".repeat(40)).unwrap();
        assert!(long.len() <= MAX_NAME_CHARS && is_rfc_name(&long), "{long}");
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", &"a".repeat(65)] {
            assert!(!is_rfc_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn long_descriptions_are_cut_at_a_word() {
        let text = "word ".repeat(400);
        let cut = description(&text);
        assert!(cut.chars().count() <= MAX_DESCRIPTION_CHARS);
        assert!(cut.ends_with("word…"), "{cut}");
        assert_eq!(description(" short "), "short");
    }

    #[test]
    fn a_repeated_name_is_made_unique_by_its_repository_then_a_number() {
        let repo = |full: &str| Repo {
            id: crate::discover::RepoId::parse(full).unwrap(),
            root: Default::default(),
            license: crate::analyze::license::license(None, None, None),
            skill_folders: 0,
            skills: Vec::new(),
            facts: Default::default(),
            hosted: true,
        };
        let mut taken = HashSet::new();
        for (full, want) in [("a/x", "pdf"), ("b/y", "b-y-pdf"), ("b/y", "b-y-pdf-2"), ("b/y", "b-y-pdf-3")] {
            let name = unique_name("pdf", &repo(full), &taken);
            assert_eq!(name, want);
            taken.insert(name);
        }
        let long = unique_name("pdf", &repo(&format!("{}/{}", "o".repeat(39), "r".repeat(60))), &taken);
        assert!(is_rfc_name(&long), "{long}");
    }
}
