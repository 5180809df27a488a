//! The catalog assembled: every source discovered (or kept by a serve session), each
//! repository read or reused, joined and related; and the fingerprint of all a build reads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::Config;
use crate::diag::Diagnostic;
use crate::discover::{self, DiscoveredSource, RepoId};
use crate::error::Result;
use crate::hash::{Hash, Hasher};
use crate::incr::{self, FileHash};
use crate::model::{Catalog, Repo, Skill, SkillPageFacts};
use crate::notes;
use crate::parse;
use crate::progress::{Progress, Stage};
use crate::relate::{self, Taxonomy, copies};
use crate::render;
use crate::repo_data;
use crate::sources;

use super::repo::{Reading, Reads, RepoPart, SkillSource, build_repo};
use super::session::{KeptFacts, KeptRepo, Session};
use super::{BuildOptions, SIMILAR_MEMO, listings_memo};

/// What render reads of a catalog's skills beside the catalog, in catalog order: their SKILL.md
/// texts (in memory when just read, else read from the skill's cache pack when a page asks: a
/// build that renders a few pages needs only theirs) and the keys they were read under.
pub(super) struct Texts<'a> {
    pub(super) catalog: &'a Catalog,
    pub(super) sources: &'a [SkillSource],
}

impl render::SkillTexts for Texts<'_> {
    fn page_facts(&self, index: usize) -> Result<SkillPageFacts> {
        self.sources[index].page.decode().map_err(|err| {
            let damaged = std::io::Error::new(std::io::ErrorKind::InvalidData, err);
            crate::error::Error::io(self.catalog.skills[index].dir.skill_file_path(), damaged)
        })
    }

    fn page_facts_key(&self, index: usize) -> &Hash {
        self.sources[index].page.hash()
    }

    fn source_key(&self, index: usize) -> &str {
        &self.sources[index].key
    }

    /// The text, or, when its pack was replaced since it was loaded (another build of the same
    /// catalog saved it meanwhile), the skill file itself if it still holds the same text.
    fn text(&self, index: usize) -> Result<std::borrow::Cow<'_, str>> {
        let skill = &self.catalog.skills[index];
        let source = &self.sources[index];
        source.text.read().or_else(|err| {
            let again =
                std::fs::read(skill.dir.skill_file_path()).ok().map(|bytes| parse::decode(&bytes).0.into_owned());
            match again {
                Some(text) if relate::text_hash(&text) == source.text_hash => Ok(std::borrow::Cow::Owned(text)),
                _ => Err(err),
            }
        })
    }
}

/// A discovered file by its path and what its metadata says: size, modification and
/// status-change times, inode, and whether it is a link.
pub(super) fn hash_skill_file(hasher: &mut Hasher, file: &discover::SkillFile) {
    hasher
        .text(&file.path)
        .number(file.size)
        .number(file.modified)
        .number(file.inode)
        .number(file.changed)
        .number(u64::from(file.is_symlink));
}

/// Everything a build reads, as sizes and modification times (see [`incr::fingerprint`]).
pub(super) fn input_fingerprint(options: &BuildOptions, root: &Path, config: &Config, found: &Found) -> String {
    let out = match &options.out {
        Some(out) => std::path::absolute(out).unwrap_or_else(|_| out.clone()),
        None => root.join("public"),
    };
    let mut print = incr::with_program();
    print
        .text(&serde_json::to_string(config).expect("the config serializes"))
        .text(&out.to_string_lossy())
        .number(u64::from(options.minify));
    for folder in ["catalog.toml", "templates", "static", "data"] {
        print.tree(&root.join(folder));
    }
    // Each source on its own, in parallel: 170,000 files at 60,000 skills.
    let sources: Vec<Hash> = found
        .sources
        .par_iter()
        .map(|source| {
            let mut print = Hasher::new();
            print.text(&source.repo.full()).text(&source.root.to_string_lossy());
            if let Some(git) = found.git_at.get(&source.repo) {
                print.text(&git.commit.to_string());
            }
            if let Some((_, license)) = &source.license_file {
                print.file(license);
            }
            for skill in &source.skills {
                print.text(&skill.rel_dir).text(&skill.skill_file);
                for file in &skill.files {
                    hash_skill_file(&mut print, file);
                }
            }
            print.hash()
        })
        .collect();
    for source in &sources {
        print.bytes(source);
    }
    for diag in &found.diagnostics {
        print.text(&diag.to_string());
    }
    print.finish()
}

/// What discovery found: every source's skill folders and files, before any is read; and, for
/// a source a [`Session`] kept unchanged, its repository as last built.
pub(super) struct Found {
    pub(super) sources: Vec<DiscoveredSource>,
    pub(super) kept: Vec<Option<RepoPart>>,
    pub(super) git_at: HashMap<RepoId, sources::GitAt>,
    pub(super) diagnostics: Vec<Diagnostic>,
}

pub(super) fn discover_catalog(
    root: &Path,
    config: &Config,
    mode: sources::Mode,
    session: Option<&mut Session>,
) -> Found {
    let (resolved, mut diagnostics) = sources::resolve(root, config, mode);
    let mut kept: Vec<Option<KeptRepo>> = match session {
        Some(session) => resolved.iter().map(|source| session.take_unchanged(source)).collect(),
        None => resolved.iter().map(|_| None).collect(),
    };
    // Sources are walked in parallel: walking is mostly waiting on metadata, one folder at a time.
    let walked: Vec<(DiscoveredSource, Vec<Diagnostic>, Option<RepoPart>)> = resolved
        .par_iter()
        .zip(kept.par_iter_mut())
        .map(|(source, kept)| match kept.take() {
            Some(KeptRepo { source, part, .. }) => (source, Vec::new(), Some(part)),
            None => {
                let repo = source.repo.full();
                // Listings saved for another folder are no listings of this one.
                let earlier = incr::store::load_memo::<(PathBuf, discover::Listings)>(root, &listings_memo(&repo))
                    .filter(|(dir, _)| *dir == source.dir)
                    .map(|(_, listings)| listings)
                    .unwrap_or_default();
                let walk = discover::Walk { earlier, settled_before: incr::settled_before() };
                let walked = discover::walk_source(source.repo.clone(), &source.dir, walk);
                if walked.listings_changed {
                    incr::store::save_memo(root, &listings_memo(&repo), (&source.dir, walked.listings));
                }
                (walked.source, walked.diagnostics, None)
            }
        })
        .collect();
    let git_at: HashMap<RepoId, sources::GitAt> =
        resolved.into_iter().filter_map(|source| Some((source.repo, source.git?))).collect();
    let mut walked: Vec<(DiscoveredSource, Option<RepoPart>)> = walked
        .into_iter()
        .map(|(found, diags, part)| {
            diagnostics.extend(diags);
            (found, part)
        })
        .collect();
    walked.sort_by(|a, b| a.0.repo.cmp(&b.0.repo));
    let (sources, kept) = walked.into_iter().unzip();
    Found { sources, kept, git_at, diagnostics }
}

/// What every skill is read with beside its own folder, as one string: kept repositories are
/// reused only while it holds.
pub(super) fn reading_id(config: &Config, taxonomy_id: &str) -> String {
    serde_json::to_string(&(&config.sources, &config.suppress, taxonomy_id)).expect("the config serializes")
}

/// Reads, parses, analyzes and relates every discovered skill; also says how many skills were
/// read (the others came from the cache), and gives back the sources and each repository's
/// diagnostics, for a [`Session`] to keep.
pub(super) fn assemble_catalog(
    root: &Path,
    config: Config,
    found: Found,
    progress: &Progress,
    session: Option<&mut Session>,
) -> (Assembled, Reads, Vec<DiscoveredSource>, KeptFacts) {
    let Found { sources, kept, git_at, mut diagnostics } = found;
    let (repo_data, data_diag) = repo_data::load(root);
    diagnostics.extend(data_diag);
    let mut taxonomy_diag = Vec::new();
    let taxonomy = load_taxonomy(root, &mut taxonomy_diag);
    // Skills are classified as they are read, so the taxonomy is part of every skill's key.
    let taxonomy_id =
        crate::hash::hex(&crate::hash::hash_bytes(&rmp_serde::to_vec(&taxonomy).expect("a taxonomy serialises")));
    let reading = Reading { suppress: &config.suppress, taxonomy: &taxonomy, taxonomy_id: &taxonomy_id };
    let reading_now = reading_id(&config, &taxonomy_id);
    let keeping = session.is_some();
    let (earlier, kept) = match session {
        Some(session) if session.reading == reading_now => (session.similar.take(), kept),
        Some(session) => {
            session.reading = reading_now;
            (None, kept.into_iter().map(|_| None).collect())
        }
        None => (None, kept),
    };

    let skill_folders = sources.iter().map(|s| s.skills.len()).sum();
    let read = progress.counter(Stage::Read, skill_folders);
    // Repositories in parallel as well as the skills in each: loading and saving a repository's
    // cache pack is one thread's work, and would otherwise leave the other cores idle.
    let built: Vec<(RepoPart, Reads)> = sources
        .par_iter()
        .zip(kept)
        .map(|(source, kept)| match kept {
            Some(part) => (part, Reads::default()),
            None => build_repo(root, source, git_at.get(&source.repo), &reading, &read),
        })
        .collect();
    let reads = built.iter().fold(Reads::default(), |sum, (_, r)| Reads {
        skills_read: sum.skills_read + r.skills_read,
        skills_hashed: sum.skills_hashed + r.skills_hashed,
    });
    let parts: Vec<RepoPart> = built.into_iter().map(|(part, _)| part).collect();
    let kept = KeptFacts {
        diagnostics: if keeping { parts.iter().map(|p| p.diagnostics.clone()).collect() } else { Vec::new() },
        commits: parts.iter().map(|p| p.commit).collect(),
    };
    let (mut repos, mut skills, skill_sources) = join_repos(parts, &repo_data, &mut diagnostics, skill_folders);
    for repo in &mut repos {
        repo.hosted = !config.without_repository;
    }
    // Dates come from git: say once which sources have none, rather than leave pages to say
    // "Not known" unexplained.
    let undated: Vec<String> = repos.iter().filter(|r| r.facts.commit.is_none()).map(|r| r.id.full()).collect();
    if !undated.is_empty() {
        let (has, their) = if undated.len() == 1 { ("has", "its") } else { ("have", "their") };
        let message = format!(
            "{} {has} no git history, so {their} pages give no dates: {}. Point `path` at the top of a git work tree (a clone with its history) for first-seen and updated dates",
            crate::plural::count(undated.len(), "source"),
            crate::plural::list_with_more(&undated, 3, "source"),
        );
        diagnostics.push(Diagnostic::warning(root.join("catalog.toml"), None, message));
    }
    let (editorial, notes_diags) = notes::load(root);
    diagnostics.extend(notes_diags);
    if !editorial.notes.is_empty() {
        let pages: std::collections::HashSet<String> =
            skills.iter().map(|s| format!("{}/{}", repos[s.repo].id.full(), s.slug)).collect();
        diagnostics.extend(editorial.unmatched(root, |key| pages.contains(key)));
    }

    let inputs: Vec<copies::CopyInput> = skills
        .iter()
        .map(|s| copies::CopyInput {
            hash: s.copies.hash,
            owner: &repos[s.repo].id.owner,
            first_seen: s.history.first_seen,
        })
        .collect();
    let groups = copies::group(&inputs);
    for (skill, copies) in skills.iter_mut().zip(groups) {
        skill.copies = copies;
    }
    let shared = relate::titles::shared_in_repo(skills.iter().map(|s| (s.repo, s.analysis.digest.title.as_str())));
    for (skill, shared) in skills.iter_mut().zip(shared) {
        skill.title_shared = shared;
    }

    let mut diagnostics: Vec<Diagnostic> = diagnostics.into_iter().map(|d| d.relative_to(root)).collect();
    diagnostics.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    diagnostics.extend(taxonomy_diag);
    let earlier = earlier.or_else(|| incr::store::load_memo::<relate::SimilarMemo>(root, SIMILAR_MEMO));
    let unchanged = earlier.as_ref().map(|memo| memo.key.clone());
    let facts: Vec<relate::SkillFacts> = skills
        .iter()
        .zip(&skill_sources)
        .map(|(s, source)| relate::SkillFacts {
            topics: &s.topics,
            name: &s.name,
            description: &s.description,
            title: &s.analysis.digest.title,
            text_hash: source.text_hash,
            similar_digest: source.similar_digest,
            repo: s.repo,
        })
        .collect();
    // The bytes were written by this build or checked against their pack's checksum.
    let sections = |i: usize| skill_sources[i].page.decode().map(|page| page.body.sections).unwrap_or_default();
    let relations = relate::relate(&facts, earlier, &sections);
    drop(facts);
    for (index, fault) in &relations.faults {
        let skill = &skills[*index];
        let message = format!("{fault}; the skill is shown without similar skills");
        diagnostics.push(Diagnostic::warning(skill.dir.skill_file_path(), None, message).relative_to(root));
    }
    // A ranking with a skill left out is not kept: the next build ranks again.
    if unchanged.as_deref() != Some(relations.similar_key.as_str()) && relations.faults.is_empty() {
        let memo = relate::SimilarMemo {
            key: relations.similar_key.clone(),
            similar: relations.similar.clone(),
            same_repo: relations.same_repo.clone(),
        };
        incr::store::save_memo(root, SIMILAR_MEMO, memo);
    }
    let catalog = Catalog { config, repos, skills, diagnostics, relations, editorial };
    (Assembled { catalog, sources: skill_sources }, reads, sources, kept)
}

/// A catalog, with what the build keeps beside each of its skills, in the same order.
pub(super) struct Assembled {
    pub(super) catalog: Catalog,
    pub(super) sources: Vec<SkillSource>,
}

/// The repositories, joined into one catalog's: skills numbered across the catalog, stars from
/// the catalog's data file, every repository's diagnostics with the rest.
pub(super) fn join_repos(
    parts: Vec<RepoPart>,
    repo_data: &repo_data::RepoData,
    diagnostics: &mut Vec<Diagnostic>,
    skill_folders: usize,
) -> (Vec<Repo>, Vec<Skill>, Vec<SkillSource>) {
    let mut repos = Vec::with_capacity(parts.len());
    let mut skills: Vec<Skill> = Vec::with_capacity(skill_folders);
    let mut sources: Vec<SkillSource> = Vec::with_capacity(skill_folders);
    for RepoPart { mut repo, skills: repo_skills, sources: repo_sources, diagnostics: repo_diagnostics, .. } in parts {
        let repo_index = repos.len();
        repo.skills = (skills.len()..skills.len() + repo_skills.len()).collect();
        repo.facts.stars = repo_data.get(&repo.id.full()).and_then(|figures| figures.stars);
        skills.extend(repo_skills.into_iter().map(|mut skill| {
            skill.repo = repo_index;
            skill
        }));
        sources.extend(repo_sources);
        diagnostics.extend(repo_diagnostics);
        repos.push(repo);
    }
    (repos, skills, sources)
}

/// The catalog's own `data/taxonomy.toml` when it has one, else the embedded default.
pub(super) fn load_taxonomy(root: &Path, diagnostics: &mut Vec<Diagnostic>) -> Taxonomy {
    let path = root.join("data/taxonomy.toml");
    let Ok(text) = std::fs::read_to_string(&path) else { return Taxonomy::embedded() };
    match Taxonomy::parse(&text) {
        Ok(taxonomy) => taxonomy,
        Err(err) => {
            let line = err.span().map(|span| text[..span.start].lines().count().max(1));
            diagnostics.push(Diagnostic::error(
                PathBuf::from("data/taxonomy.toml"),
                line,
                format!("{}; the embedded taxonomy is used instead", err.message()),
            ));
            Taxonomy::embedded()
        }
    }
}
