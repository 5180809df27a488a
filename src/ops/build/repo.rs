//! One repository, read or reused: its history, and each skill taken from its cache pack when
//! its key is unchanged, else read, parsed, analyzed and scanned again; page addresses and dates.

use std::path::Path;

use rayon::prelude::*;

use crate::analyze::{self, LicenseInputs, license::LicenseText};
use crate::diag::Diagnostic;
use crate::discover::{self, DiscoveredSource, RepoId};
use crate::hash::{Hash, Hasher};
use crate::incr::{self, FileHash, SkillText};
use crate::model::{Repo, RepoFacts, Skill, SkillHistory, SkillPageFacts};
use crate::ops::skill_files;
use crate::parse;
use crate::relate::{Taxonomy, copies};
use crate::slug::slugify;
use crate::sources::{self, history};

use super::catalog::hash_skill_file;

/// One repository as built on its own: its skills in folder order (page addresses numbered
/// apart, dates from its history), and what reading it found to warn about. The catalog is
/// these, joined (`join_repos`), then related.
pub(super) struct RepoPart {
    pub(super) repo: Repo,
    pub(super) skills: Vec<Skill>,
    /// What the build keeps beside each skill, in the same order.
    pub(super) sources: Vec<SkillSource>,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// The commit its files and dates were read at, for a git source.
    pub(super) commit: Option<gix::ObjectId>,
}

/// One repository, read: its history, its skills (from its cache pack or read again), their
/// page addresses and dates.
pub(super) fn build_repo(
    root: &Path,
    source: &DiscoveredSource,
    git: Option<&sources::GitAt>,
    reading: &Reading,
    read: &crate::progress::Counter<'_>,
) -> (RepoPart, Reads) {
    let mut diagnostics = Vec::new();
    let history = git.and_then(|git| match history::read(&git.repo_dir, git.commit) {
        Ok(history) => Some(history),
        Err(err) => {
            let message = format!("its git history could not be read ({err}); its dates are not known");
            diagnostics.push(Diagnostic::warning(&source.root, None, message));
            None
        }
    });
    let RepoLoad { license, loaded, reads } = load_repo(root, source, reading, read);
    let mut skills: Vec<Skill> = Vec::with_capacity(loaded.len());
    let mut sources: Vec<SkillSource> = Vec::with_capacity(loaded.len());
    // Page address -> the skill (in `skills`) that has it.
    let mut used_slugs: crate::FastMap<String, usize> = crate::FastMap::default();
    for (entry, dir) in loaded.into_iter().zip(&source.skills) {
        let text = entry.text.unwrap_or(SkillText::InMemory(String::new()));
        let (mut skill, skill_source, skill_diagnostics) = match entry.value {
            Ok(loaded) => loaded.into_skill(entry.key, text, dir, &source.repo),
            Err(diag) => {
                diagnostics.push(diag);
                continue;
            }
        };
        diagnostics.extend(skill_diagnostics);
        if let Some(history) = &history {
            let rel = &skill.dir.rel_dir;
            let skill_file =
                if rel.is_empty() { skill.dir.skill_file.clone() } else { format!("{rel}/{}", skill.dir.skill_file) };
            skill.history =
                SkillHistory { first_seen: history.first_seen(&skill_file), last_changed: history.last_changed(rel) };
        }
        // Two folders that would share a URL both keep a page; the later one (in folder order,
        // so the same on every build) gets a numbered suffix.
        if let Some(&taken_by) = used_slugs.get(&skill.slug) {
            let base = std::mem::take(&mut skill.slug);
            skill.slug = (2..)
                .map(|n| format!("{base}-{n}"))
                .find(|slug| !used_slugs.contains_key(slug))
                .expect("a free number");
            diagnostics.push(Diagnostic::warning(
                skill.dir.skill_file_path(),
                None,
                format!(
                    "its page address {base}/ is taken by {}; this skill's page is {}/",
                    skills[taken_by].dir.dir.display(),
                    skill.slug
                ),
            ));
        }
        used_slugs.insert(skill.slug.clone(), skills.len());
        skills.push(skill);
        sources.push(skill_source);
    }
    let repo = Repo {
        id: source.repo.clone(),
        root: source.root.clone(),
        license,
        skill_folders: source.skills.len(),
        skills: Vec::new(),
        facts: RepoFacts {
            stars: None,
            commit: history.as_ref().map(|h| h.commit.clone()),
            updated: history.as_ref().map(|h| h.updated),
        },
        hosted: true,
    };
    (RepoPart { repo, skills, sources, diagnostics, commit: git.map(|g| g.commit) }, reads)
}

/// One repository's skills, from the cache or read again.
pub(super) struct RepoLoad {
    pub(super) license: analyze::license::License,
    /// Per skill folder, in discovery order.
    pub(super) loaded: Vec<incr::PackEntry<Loaded>>,
    pub(super) reads: Reads,
}

/// How much of the sources a build read again.
#[derive(Default)]
pub(super) struct Reads {
    pub(super) skills_read: usize,
    pub(super) skills_hashed: usize,
}

/// What every skill is read with, beside its own files and its repository's licence.
pub(super) struct Reading<'a> {
    pub(super) suppress: &'a [crate::scan::suppress::Suppression],
    pub(super) taxonomy: &'a Taxonomy,
    /// A hash of the taxonomy, for the skills' keys.
    pub(super) taxonomy_id: &'a str,
}

/// Loads the skills of one repository: from its cache pack when a skill's key (its files'
/// bytes, the repository's licence, the suppressions, the taxonomy) is unchanged, else by
/// reading it; then saves the pack when anything in it changed.
pub(super) fn load_repo(
    root: &Path,
    source: &DiscoveredSource,
    reading: &Reading,
    read: &crate::progress::Counter<'_>,
) -> RepoLoad {
    let repo_license_text =
        source.license_file.as_ref().and_then(|(name, path)| skill_files::read_text(path).map(|t| (name.clone(), t)));
    let license = analyze::license::license(
        None,
        None,
        repo_license_text.as_ref().map(|(name, text)| LicenseText { file: name.clone(), text }),
    );
    let context = skill_context(source, repo_license_text.as_ref(), reading);
    let mut pack = incr::SkillPack::<Loaded>::load(root, &source.repo.full());
    let settled_before = incr::settled_before();
    // Per folder: its key, from its stat signature when that is unchanged, else from its bytes
    // (which are kept for reading it, if it must be read); and the signature to keep, when its
    // files have settled.
    let keys: Vec<(String, Option<String>, Option<discover::FolderBytes>)> = source
        .skills
        .par_iter()
        .map(|dir| {
            let stat = stat_signature(&context, dir);
            match pack.key_by_stat(&stat) {
                Some(key) => (key, Some(stat), None),
                None => {
                    let settled = dir.files.iter().all(|f| f.modified < settled_before && f.changed < settled_before);
                    let (key, bytes) = skill_key(&context, dir);
                    (key, settled.then_some(stat), Some(bytes))
                }
            }
        })
        .collect();
    let skills_hashed = keys.iter().filter(|(_, _, bytes)| bytes.is_some()).count();
    // A folder hashed again whose signature can now be kept makes the pack worth saving.
    let newly_settled = keys.iter().any(|(_, stat, bytes)| bytes.is_some() && stat.is_some());
    // A cache hit, or what to read the skill from.
    type Lookup = Result<(Loaded, Option<SkillText>), Option<discover::FolderBytes>>;
    let keyed: Vec<(String, Option<String>, Lookup)> = keys
        .into_iter()
        .map(|(key, stat, bytes)| {
            let hit = pack.take(&key).ok_or(bytes);
            (key, stat, hit)
        })
        .collect();
    let skills_read = keyed.iter().filter(|(_, _, hit)| hit.is_err()).count();
    let stale = !pack.is_empty() || skills_read > 0 || newly_settled;
    let mut loaded: Vec<incr::PackEntry<Loaded>> = keyed
        .into_par_iter()
        .zip(source.skills.par_iter())
        .map(|((key, stat, hit), dir)| {
            let (value, text) = hit.unwrap_or_else(|bytes| {
                match read_skill(source, dir, bytes.unwrap_or_default(), repo_license_text.as_ref(), reading) {
                    Ok((loaded, text)) => (Ok(loaded), Some(SkillText::InMemory(text))),
                    Err(diagnostic) => (Err(diagnostic), None),
                }
            });
            read.tick();
            incr::PackEntry { key, stat, value, text }
        })
        .collect();
    if stale {
        incr::SkillPack::save(root, &source.repo.full(), &mut loaded);
    }
    RepoLoad { license, loaded, reads: Reads { skills_read, skills_hashed } }
}

/// What reading one skill folder yields: everything about the skill that depends only on its
/// files, the repository's licence and the catalog's suppressions. Kept in the build cache, so
/// an unchanged skill is not read, parsed, analyzed or scanned again.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct LoadedSkill {
    pub(super) compatibility: Option<String>,
    /// Byte offset of the body in SKILL.md's text, which the pack keeps apart.
    pub(super) body_start: usize,
    /// What reading it found to warn about.
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) analysis: analyze::Analysis,
    pub(super) verdict: crate::scan::Verdict,
    pub(super) topics: crate::relate::Topics,
    pub(super) name: String,
    pub(super) description: String,
    pub(super) reading: parse::Reading,
    #[serde(with = "crate::hash::bin::option")]
    pub(super) content_hash: Option<[u8; 32]>,
    pub(super) text_hash: u64,
    #[serde(with = "crate::hash::bin")]
    pub(super) similar_digest: Hash,
    /// What only the skill's page reads, left packed: a build decodes only the skills whose
    /// pages it renders again (and every skill's headings, when it ranks similar skills again).
    pub(super) page: incr::Packed<SkillPageFacts>,
}

pub(super) type Loaded = std::result::Result<LoadedSkill, Diagnostic>;

/// What the build keeps beside each skill of the catalog, which the model does not hold: the
/// cache key it was read under, its SKILL.md text, and what the similar-skill ranking's memo is
/// keyed by.
pub(super) struct SkillSource {
    /// A hash of its files' bytes and of what they were read with: every fact of the skill
    /// that reading it yields, and its text, are functions of it.
    pub(super) key: String,
    pub(super) text: SkillText,
    /// SKILL.md's text hashed, line endings aside ([`crate::relate::text_hash`]): skills with
    /// the same text are never ranked as each other's similar skills.
    pub(super) text_hash: u64,
    /// What the similar-skill ranking reads of the skill, hashed ([`crate::relate::similar_digest`]).
    pub(super) similar_digest: Hash,
    /// The facts only the skill's page reads, as they were stored.
    pub(super) page: incr::Packed<SkillPageFacts>,
}

impl LoadedSkill {
    fn into_skill(
        self,
        key: String,
        text: SkillText,
        dir: &discover::SkillDir,
        repo: &RepoId,
    ) -> (Skill, SkillSource, Vec<Diagnostic>) {
        // The repository's index is set when the repositories are joined (`join_repos`).
        let skill = Skill {
            repo: 0,
            slug: slugify(dir.folder_name(repo)),
            dir: dir.clone(),
            compatibility: self.compatibility,
            body_start: self.body_start,
            analysis: self.analysis,
            verdict: self.verdict,
            topics: self.topics,
            name: self.name,
            description: self.description,
            reading: self.reading,
            history: Default::default(),
            copies: copies::Copies { hash: self.content_hash, ..Default::default() },
            title_shared: false,
        };
        let source =
            SkillSource { key, text, text_hash: self.text_hash, similar_digest: self.similar_digest, page: self.page };
        (skill, source, self.diagnostics)
    }
}

/// What every skill of a repository is read with, hashed once per repository.
pub(super) fn skill_context(
    source: &DiscoveredSource,
    repo_license: Option<&(String, String)>,
    reading: &Reading,
) -> Hash {
    let mut context = incr::with_program();
    context
        .text(&source.repo.full())
        .text(&source.root.to_string_lossy())
        .text(&serde_json::to_string(&reading.suppress).expect("suppressions serialize"))
        .text(reading.taxonomy_id);
    if let Some((name, text)) = repo_license {
        context.text(name).text(text);
    }
    // Hashed once: each skill's keys start from the hash, not from the pieces (the licence
    // text among them), which every skill hashed again.
    context.hash()
}

/// A skill folder's stat signature: its context, and every file's path, size, modification
/// and status-change times and inode. Unchanged, it stands for the folder's cache key.
pub(super) fn stat_signature(context: &Hash, dir: &discover::SkillDir) -> String {
    let mut stat = Hasher::new();
    stat.bytes(context).text("stat").text(&dir.dir.to_string_lossy()).text(&dir.skill_file);
    for file in &dir.files {
        hash_skill_file(&mut stat, file);
    }
    stat.finish()
}

/// The cache key of one skill folder: its context and every file's path and bytes (a link by
/// where it points; links are never followed); and the small files' bytes, for reading it.
pub(super) fn skill_key(context: &Hash, dir: &discover::SkillDir) -> (String, discover::FolderBytes) {
    let mut key = Hasher::new();
    key.bytes(context).text(&dir.dir.to_string_lossy()).text(&dir.skill_file);
    let mut kept = discover::FolderBytes::default();
    let mut budget = discover::FolderBytes::BUDGET;
    for file in &dir.files {
        let path = dir.dir.join(&file.path);
        key.text(&file.path);
        if file.is_symlink {
            key.text("link").text(&std::fs::read_link(&path).unwrap_or_default().to_string_lossy());
        } else if file.size <= discover::FolderBytes::MAX_FILE.min(budget) {
            let bytes = std::fs::read(&path).ok();
            key.contents_of(bytes.as_deref());
            if let Some(bytes) = bytes {
                budget = budget.saturating_sub(bytes.len() as u64);
                kept.insert(&file.path, bytes);
            }
        } else {
            key.contents(&path);
        }
    }
    (key.finish(), kept)
}

pub(super) fn read_skill(
    source: &DiscoveredSource,
    dir: &discover::SkillDir,
    read: discover::FolderBytes,
    repo_license: Option<&(String, String)>,
    reading: &Reading,
) -> std::result::Result<(LoadedSkill, String), Diagnostic> {
    let path = dir.skill_file_path();
    let content_hash = copies::content_hash(&dir.files, &read, |rel| std::fs::read(dir.dir.join(rel)).ok());
    let folder_name = dir.folder_name(&source.repo).to_string();
    // Read, parsed and scanned as `check` reads it: the per-skill boundary.
    let read = skill_files::read_skill(dir, &dir.dir, &folder_name, read);
    let scan_diagnostics = read.scan_diagnostics(&dir.dir, &dir.skill_file);
    let skill_files::SkillRead { parsed, mut scan, reading: read_diagnostics } = read;
    let parsed = parsed.map_err(|left_out| {
        left_out.unwrap_or_else(|| Diagnostic::error(&path, None, "has no SKILL.md; the skill is left out"))
    })?;
    let skill_license = discover::skill_license_file(dir).and_then(|f| {
        let rel = if dir.rel_dir.is_empty() { f.path.clone() } else { format!("{}/{}", dir.rel_dir, f.path) };
        skill_files::read_text(&dir.dir.join(&f.path)).map(|text| (rel, text))
    });
    let analyzed = crate::fault::catch(crate::fault::Stage::Analyze, || {
        #[cfg(test)]
        crate::fault::inject(crate::fault::Stage::Analyze, &parsed.text);
        analyze::analyze(
            &parsed,
            &source.repo,
            &folder_name,
            LicenseInputs {
                skill_file: skill_license.as_ref().map(|(file, text)| LicenseText { file: file.clone(), text }),
                repo_file: repo_license.map(|(file, text)| LicenseText { file: file.clone(), text }),
            },
        )
    });
    let (analysis, body) = analyzed.map_err(|fault| skill_files::left_out(&path, &fault))?;
    let prefix =
        if dir.rel_dir.is_empty() { source.repo.full() } else { format!("{}/{}", source.repo.full(), dir.rel_dir) };
    crate::scan::suppress::apply(&mut scan.findings, reading.suppress, |f| format!("{prefix}/{}", f.file));
    let name = parsed.frontmatter.name.clone().unwrap_or_else(|| folder_name.clone());
    // Without frontmatter, the first paragraph describes the skill, as Claude Code reads it.
    let first_paragraph = || {
        let described = parsed.outline.sections.iter().flat_map(|s| &s.paragraphs).next().cloned();
        described.filter(|_| parsed.reading == parse::Reading::NoFrontmatter)
    };
    let description = parsed.frontmatter.description.clone().or_else(first_paragraph).unwrap_or_default();
    let mut parsed = parsed;
    // The parser's warnings, then the scanner's.
    parsed.diagnostics = read_diagnostics;
    parsed.diagnostics.extend(scan_diagnostics);
    // Without frontmatter, its warning says where the name comes from.
    if parsed.frontmatter.name.is_none() && parsed.reading != parse::Reading::NoFrontmatter {
        parsed.diagnostics.push(Diagnostic::warning(
            &path,
            None,
            format!("has no `name`; the folder name {folder_name:?} is used"),
        ));
    }
    if description.is_empty() {
        parsed.diagnostics.push(Diagnostic::warning(
            &path,
            None,
            "has no `description`; agents cannot tell when to use it",
        ));
    }
    let topics = crate::fault::catch(crate::fault::Stage::Analyze, || {
        reading.taxonomy.classify(&parsed.frontmatter, &name, &description, &analysis, &body)
    })
    .map_err(|fault| skill_files::left_out(&path, &fault))?;
    let text_hash = crate::relate::text_hash(&parsed.text);
    let similar_text = crate::relate::similar_text(&name, &description, &analysis.digest.title, &body.sections);
    let similar_digest = crate::relate::similar_digest(&topics, &similar_text);
    // The outline served analysis and the scanner, whose results the pages read; neither the
    // cache nor the catalog keeps it (about a quarter of a skill's size in both). The text is
    // kept apart from the rest (`incr::SkillText`).
    let parse::ParsedSkill {
        frontmatter,
        text,
        body_start,
        diagnostics,
        reading: read_as,
        body_line: _,
        outline: _,
        yaml: _,
    } = parsed;
    let loaded = LoadedSkill {
        compatibility: frontmatter.compatibility.clone(),
        body_start,
        diagnostics,
        analysis,
        verdict: scan.verdict(),
        topics,
        name,
        description,
        reading: read_as,
        content_hash,
        text_hash,
        similar_digest,
        page: incr::Packed::new(&SkillPageFacts { frontmatter, body, scan }),
    };
    Ok((loaded, text))
}
