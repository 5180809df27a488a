//! `catalog build`: config -> discover -> parse -> analyze -> render -> write.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::analyze::{self, LicenseInputs, license::LicenseText};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::discover::{self, DiscoveredSource, RepoId};
use crate::error::Result;
use crate::hash::{Hash, Hasher};
use crate::incr::{self, FileHash, SkillText};
use crate::lazy::Deferred;
use crate::model::{Catalog, Repo, RepoFacts, Skill, SkillHistory};
use crate::ops::skill_files;
use crate::parse;
use crate::progress::{Progress, Stage};
use crate::relate::{self, Taxonomy, copies};
use crate::render::{self, Renderer};
use crate::repo_data;
use crate::slug::slugify;
use crate::sources::{self, history};
use crate::write::{self, SiteWriter};

#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The folder holding catalog.toml.
    pub root: PathBuf,
    /// Where the site goes; defaults to `root/public`.
    pub out: Option<PathBuf>,
    /// Overrides catalog.toml's base_url.
    pub base_url: Option<String>,
    pub minify: bool,
    /// Read git sources from `.catalog/sources/` only, never from the network.
    pub offline: bool,
}

#[derive(Debug)]
pub struct BuildReport {
    pub out: PathBuf,
    pub skills: usize,
    pub repos: usize,
    pub pages: usize,
    pub files: usize,
    pub bytes: u64,
    pub diagnostics: Vec<Diagnostic>,
    /// Skills read, parsed, analyzed and scanned; the others came unchanged from the cache.
    pub skills_read: usize,
    /// Skill folders whose files were read to tell whether they changed; the others had the
    /// same sizes, times and inodes as when their key was last computed.
    pub skills_hashed: usize,
    /// Files whose bytes were written; the others were already in place.
    pub written: usize,
    /// Pages not rendered again: what they are made from had not changed.
    pub reused_pages: usize,
    /// Nothing the build reads had changed since the last build of this output: nothing was
    /// read, rendered or written.
    pub up_to_date: bool,
    pub elapsed: Duration,
    /// Wall time of each stage, in pipeline order.
    pub timings: Vec<(&'static str, Duration)>,
}

impl BuildReport {
    /// Prints how long each stage took, one line each.
    pub fn print_timings(&self) {
        for (stage, time) in &self.timings {
            eprintln!("  {stage}: {:.3}s", time.as_secs_f64());
        }
    }
}

pub fn build(options: &BuildOptions) -> Result<BuildReport> {
    build_with(options, Config::load(&options.root)?)
}

/// Builds with a config given rather than read from `root/catalog.toml` (serve's previews).
pub fn build_with(options: &BuildOptions, config: Config) -> Result<BuildReport> {
    build_reporting(options, config, &Progress::default())
}

/// Builds, telling `progress` how far reading and rendering have come.
pub fn build_reporting(options: &BuildOptions, config: Config, progress: &Progress) -> Result<BuildReport> {
    build_in(options, config, progress, None)
}

/// Builds again in a long-running process: sources the session kept unchanged are neither
/// walked nor loaded again (see [`Session`]).
pub fn build_in_session(options: &BuildOptions, config: Config, session: &mut Session) -> Result<BuildReport> {
    build_in(options, config, &Progress::default(), Some(session))
}

fn build_in(
    options: &BuildOptions,
    mut config: Config,
    progress: &Progress,
    mut session: Option<&mut Session>,
) -> Result<BuildReport> {
    let started = Instant::now();
    if let Some(base_url) = &options.base_url {
        config.base_url = base_url.clone();
    }
    let mut timings = Vec::new();
    let mut lap = Instant::now();
    let mut stage = |name: &'static str| {
        timings.push((name, lap.elapsed()));
        lap = Instant::now();
    };
    let mode = if options.offline { sources::Mode::Offline } else { sources::Mode::Fetch };
    let root = catalog_root(&options.root);
    config.check_source_folders(&root)?;
    let out_dir = options.out.clone().unwrap_or_else(|| options.root.join("public"));
    let found = discover_catalog(&root, &config, mode, session.as_deref_mut());
    let fingerprint = input_fingerprint(options, &root, &config, &found);
    stage("discover");
    let last = incr::store::load_record(&record_path(&out_dir), &out_dir);
    if let Some(record) = last.filter(|r| {
        r.fingerprint == fingerprint && write::generation_of(&out_dir).as_deref() == Some(r.generation.as_str())
    }) {
        if let Some(session) = session {
            session.put_back(found);
        }
        return Ok(BuildReport {
            out: out_dir,
            skills: record.skills,
            repos: record.repos,
            pages: record.pages,
            files: record.files,
            bytes: record.bytes,
            skills_read: 0,
            skills_hashed: 0,
            written: 0,
            reused_pages: record.pages,
            up_to_date: true,
            diagnostics: record.diagnostics,
            elapsed: started.elapsed(),
            timings,
        });
    }
    let renderer = Renderer::with_theme(Some(&root), incr::binary_identity())?;
    // A build that fails from here on leaves an output the record no longer describes.
    incr::store::forget_record(&record_path(&out_dir));
    let known = session.as_deref_mut().map(|session| std::mem::take(&mut session.manifests)).unwrap_or_default();
    // The writer reads the last site's manifests (117,000 files each at 60,000 skills) while the
    // catalog is assembled, whose joining and relating leave a core idle.
    let (writer, (Assembled { catalog, texts }, Reads { skills_read, skills_hashed }, sources, kept)) = rayon::join(
        || SiteWriter::begin_with(&out_dir, options.minify, known),
        || assemble_catalog(&root, config, found, progress, session.as_deref_mut()),
    );
    let writer = writer?;
    stage("parse, analyze, relate");
    // A session keeps the cards' keys in memory; a single build reads and saves them.
    let mut loaded_memo = render::skill_page::ShownMemo::default();
    let shown_memo = match session.as_deref_mut() {
        Some(session) => &mut session.shown,
        None => {
            loaded_memo.by_skill = incr::store::load_pairs(&root, SHOWN_MEMO);
            &mut loaded_memo
        }
    };
    let stats = render::render_site(
        &catalog,
        &renderer,
        &writer,
        progress,
        shown_memo,
        &Texts { catalog: &catalog, texts: &texts },
    )?;
    if session.is_none() && loaded_memo.changed {
        incr::store::save_pairs(&root, SHOWN_MEMO, &loaded_memo.by_skill);
    }
    stage("render, write");
    let (out, written, manifests) = writer.publish_keeping()?;
    stage("publish");
    let record = incr::BuildRecord {
        out: out.clone(),
        fingerprint,
        generation: written.generation.clone(),
        skills: catalog.skills.len(),
        repos: catalog.repos.len(),
        pages: stats.pages,
        files: written.files,
        bytes: written.bytes,
        diagnostics: catalog.diagnostics.clone(),
    };
    incr::store::save_record(&record_path(&out), &record);
    match session {
        Some(session) => {
            session.keep(catalog, texts, sources, kept);
            session.manifests = manifests;
        }
        // Freeing 60,000 skills takes a tenth of a second or more: a command that exits next
        // need not wait for it.
        None => crate::drop_later((catalog, texts, sources, manifests)),
    }
    Ok(BuildReport {
        out,
        skills: record.skills,
        repos: record.repos,
        pages: record.pages,
        files: record.files,
        bytes: record.bytes,
        skills_read,
        skills_hashed,
        written: written.written,
        reused_pages: written.reused_pages,
        up_to_date: false,
        diagnostics: record.diagnostics,
        elapsed: started.elapsed(),
        timings,
    })
}

/// The catalog root as every key spells it: canonical, so that `.`, a relative or absolute path
/// and a link to the folder share one cache (`serve` and `build` among them), since the paths
/// of the skill folders found below it are part of their keys.
fn catalog_root(root: &Path) -> PathBuf {
    incr::canonical(root)
}

/// The record of the last build of `out`, beside its manifests (`.NAME.manifests/last-build.json`),
/// so that it goes wherever the output goes and a build into a temporary folder leaves the
/// catalog's folder untouched.
fn record_path(out: &Path) -> PathBuf {
    write::manifests_dir(out).join("last-build.json")
}

/// The keys of the last build's cards and rows by the key of each skill's facts
/// ([`render::skill_page::ShownMemo`]), in the catalog's cache.
const SHOWN_MEMO: &str = "shown.bin";

/// The similar-skill ranking of the last build, with the key of what it read
/// ([`relate::SimilarMemo`]), in the catalog's cache.
const SIMILAR_MEMO: &str = "similar.msgpack";

/// Each source's folder listings as last walked (`discover::Listings`), in the catalog's cache:
/// named by the repository, and holding the folder it was walked from.
fn listings_memo(repo: &str) -> String {
    format!("folders/{repo}.msgpack")
}

/// The SKILL.md texts of a catalog's skills, in catalog order: in memory when just read, else
/// read from the skill's cache pack when a page asks (a build that renders a few pages needs
/// only theirs).
struct Texts<'a> {
    catalog: &'a Catalog,
    texts: &'a [SkillText],
}

impl render::SkillTexts for Texts<'_> {
    /// The text, or, when its pack was replaced since it was loaded (another build of the same
    /// catalog saved it meanwhile), the skill file itself if it still holds the same text.
    fn text(&self, index: usize) -> Result<std::borrow::Cow<'_, str>> {
        let skill = &self.catalog.skills[index];
        self.texts[index].read().or_else(|err| {
            let again = std::fs::read(skill.dir.skill_file_path()).ok().map(|bytes| parse::decode(&bytes).0);
            match again {
                Some(text) if relate::text_hash(&text) == skill.text_hash => Ok(std::borrow::Cow::Owned(text)),
                _ => Err(err),
            }
        })
    }
}

/// A discovered file by its path and what its metadata says: size, modification and
/// status-change times, inode, and whether it is a link.
fn hash_skill_file(hasher: &mut Hasher, file: &discover::SkillFile) {
    hasher
        .text(&file.path)
        .number(file.size)
        .number(file.modified)
        .number(file.inode)
        .number(file.changed)
        .number(u64::from(file.is_symlink));
}

/// Everything a build reads, as sizes and modification times (see [`incr::fingerprint`]).
fn input_fingerprint(options: &BuildOptions, root: &Path, config: &Config, found: &Found) -> String {
    let out = match &options.out {
        Some(out) => std::path::absolute(out).unwrap_or_else(|_| out.clone()),
        None => root.join("public"),
    };
    let mut print = incr::with_program();
    print.text(&format!("{config:?}")).text(&out.to_string_lossy()).number(u64::from(options.minify));
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

/// Everything up to rendering, with git sources read from the cache only (no network).
pub fn load_catalog(root: &Path, config: Config) -> Catalog {
    load_catalog_with(root, config, sources::Mode::Offline)
}

/// Everything up to rendering: the catalog as data, with its diagnostics. With
/// [`sources::Mode::Fetch`], git sources are fetched first.
pub fn load_catalog_with(root: &Path, config: Config, mode: sources::Mode) -> Catalog {
    load_catalog_reporting(root, config, mode, &Progress::default())
}

fn load_catalog_reporting(root: &Path, config: Config, mode: sources::Mode, progress: &Progress) -> Catalog {
    let root = catalog_root(root);
    let found = discover_catalog(&root, &config, mode, None);
    assemble_catalog(&root, config, found, progress, None).0.catalog
}

/// What discovery found: every source's skill folders and files, before any is read; and, for
/// a source a [`Session`] kept unchanged, its repository as last built.
struct Found {
    sources: Vec<DiscoveredSource>,
    kept: Vec<Option<RepoPart>>,
    git_at: HashMap<RepoId, sources::GitAt>,
    diagnostics: Vec<Diagnostic>,
}

fn discover_catalog(root: &Path, config: &Config, mode: sources::Mode, session: Option<&mut Session>) -> Found {
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

/// One repository as built on its own: its skills in folder order (page addresses numbered
/// apart, dates from its history), and what reading it found to warn about. The catalog is
/// these, joined (`join_repos`), then related.
struct RepoPart {
    repo: Repo,
    skills: Vec<Skill>,
    /// The skills' SKILL.md texts, in the same order.
    texts: Vec<SkillText>,
    diagnostics: Vec<Diagnostic>,
    /// The commit its files and dates were read at, for a git source.
    commit: Option<gix::ObjectId>,
}

/// What `serve` keeps between builds, so that a change reads again only the sources it touched:
/// every source as discovered and its repository as built, the similar-skill ranking, the
/// cards other pages show of each skill, and the output's manifests. A source is kept while no
/// change was reported under its folder and what every skill is read with (the sources and
/// suppressions in catalog.toml, the taxonomy) is the same.
#[derive(Default)]
pub struct Session {
    /// What the kept repositories were read with (see [`reading_id`]).
    reading: String,
    repos: HashMap<RepoId, KeptRepo>,
    similar: Option<relate::SimilarMemo>,
    /// The output's manifests as the last build left them.
    manifests: crate::write::Manifests,
    /// What the last build's cards and comparison rows were keyed as.
    shown: render::skill_page::ShownMemo,
}

struct KeptRepo {
    source: DiscoveredSource,
    part: RepoPart,
}

impl Session {
    /// Forgets every source with a changed path in or above its folder.
    pub fn changed(&mut self, paths: &[PathBuf]) {
        self.repos.retain(|_, kept| {
            !paths.iter().any(|path| path.starts_with(&kept.source.root) || kept.source.root.starts_with(path))
        });
    }

    /// Forgets every source (a change may have gone unreported).
    pub fn forget(&mut self) {
        self.repos.clear();
    }

    /// Takes back what discovery took for a build that found nothing to do.
    fn put_back(&mut self, found: Found) {
        for (source, part) in found.sources.into_iter().zip(found.kept) {
            if let Some(part) = part {
                self.repos.insert(source.repo.clone(), KeptRepo { source, part });
            }
        }
    }

    fn take_unchanged(&mut self, source: &sources::ResolvedSource) -> Option<KeptRepo> {
        let kept = self.repos.remove(&source.repo)?;
        let commit = source.git.as_ref().map(|g| g.commit);
        (kept.source.root == source.dir && kept.part.commit == commit).then_some(kept)
    }

    /// Keeps the catalog just rendered, split back into its repositories.
    fn keep(&mut self, catalog: Catalog, texts: Vec<SkillText>, sources: Vec<DiscoveredSource>, kept: KeptFacts) {
        let KeptFacts { mut diagnostics, commits } = kept;
        let Catalog { config, repos, skills, diagnostics: joined, relations } = catalog;
        let relate::Relations { topics, similar, similar_key } = relations;
        self.similar = Some(relate::SimilarMemo { key: similar_key, similar });
        crate::drop_later((config, joined, topics));
        let mut skills = skills.into_iter();
        let mut texts = texts.into_iter();
        self.repos = repos
            .into_iter()
            .zip(sources)
            .zip(diagnostics.drain(..))
            .zip(commits)
            .map(|(((repo, source), diagnostics), commit)| {
                let skills = skills.by_ref().take(repo.skills.len()).collect();
                let texts = texts.by_ref().take(repo.skills.len()).collect();
                let kept = KeptRepo { source, part: RepoPart { repo, skills, texts, diagnostics, commit } };
                (kept.part.repo.id.clone(), kept)
            })
            .collect();
    }
}

/// What a joined catalog no longer holds of its repositories, for a [`Session`] to keep.
struct KeptFacts {
    diagnostics: Vec<Vec<Diagnostic>>,
    commits: Vec<Option<gix::ObjectId>>,
}

/// What every skill is read with beside its own folder, as one string: kept repositories are
/// reused only while it holds.
fn reading_id(config: &Config, taxonomy_id: &str) -> String {
    format!("{:?} {:?} {taxonomy_id}", config.sources, config.suppress)
}

/// Reads, parses, analyzes and relates every discovered skill; also says how many skills were
/// read (the others came from the cache), and gives back the sources and each repository's
/// diagnostics, for a [`Session`] to keep.
fn assemble_catalog(
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
    let taxonomy_id = crate::hash::hex(&crate::hash::hash_bytes(format!("{taxonomy:?}").as_bytes()));
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
    let (mut repos, mut skills, texts) = join_repos(parts, &repo_data, &mut diagnostics, skill_folders);
    for repo in &mut repos {
        repo.hosted = !config.without_repository;
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

    let mut diagnostics: Vec<Diagnostic> = diagnostics.into_iter().map(|d| d.relative_to(root)).collect();
    diagnostics.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    diagnostics.extend(taxonomy_diag);
    let earlier = earlier.or_else(|| incr::store::load_memo::<relate::SimilarMemo>(root, SIMILAR_MEMO));
    let unchanged = earlier.as_ref().map(|memo| memo.key.clone());
    let facts: Vec<relate::SkillFacts> = skills
        .iter()
        .map(|s| relate::SkillFacts {
            topics: &s.topics,
            name: &s.name,
            description: &s.description,
            digest: &s.analysis.digest,
            text_hash: s.text_hash,
            similar_digest: s.similar_digest,
        })
        .collect();
    let relations = relate::relate(&facts, earlier);
    drop(facts);
    if unchanged.as_deref() != Some(relations.similar_key.as_str()) {
        let memo = relate::SimilarMemo { key: relations.similar_key.clone(), similar: relations.similar.clone() };
        incr::store::save_memo(root, SIMILAR_MEMO, memo);
    }
    (Assembled { catalog: Catalog { config, repos, skills, diagnostics, relations }, texts }, reads, sources, kept)
}

/// A catalog, with its skills' SKILL.md texts in the same order.
struct Assembled {
    catalog: Catalog,
    texts: Vec<SkillText>,
}

/// The repositories, joined into one catalog's: skills numbered across the catalog, stars from
/// the catalog's data file, every repository's diagnostics with the rest.
fn join_repos(
    parts: Vec<RepoPart>,
    repo_data: &repo_data::RepoData,
    diagnostics: &mut Vec<Diagnostic>,
    skill_folders: usize,
) -> (Vec<Repo>, Vec<Skill>, Vec<SkillText>) {
    let mut repos = Vec::with_capacity(parts.len());
    let mut skills: Vec<Skill> = Vec::with_capacity(skill_folders);
    let mut texts: Vec<SkillText> = Vec::with_capacity(skill_folders);
    for RepoPart { mut repo, skills: repo_skills, texts: repo_texts, diagnostics: repo_diagnostics, .. } in parts {
        let repo_index = repos.len();
        repo.skills = (skills.len()..skills.len() + repo_skills.len()).collect();
        repo.facts.stars = repo_data.get(&repo.id.full()).and_then(|figures| figures.stars);
        skills.extend(repo_skills.into_iter().map(|mut skill| {
            skill.repo = repo_index;
            skill
        }));
        texts.extend(repo_texts);
        diagnostics.extend(repo_diagnostics);
        repos.push(repo);
    }
    (repos, skills, texts)
}

/// One repository, read: its history, its skills (from its cache pack or read again), their
/// page addresses and dates.
fn build_repo(
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
    let mut texts: Vec<SkillText> = Vec::with_capacity(loaded.len());
    // Page address -> the skill (in `skills`) that has it.
    let mut used_slugs: crate::FastMap<String, usize> = crate::FastMap::default();
    for (entry, dir) in loaded.into_iter().zip(&source.skills) {
        let text = entry.text.unwrap_or(SkillText::InMemory(String::new()));
        let (mut skill, skill_diagnostics) = match entry.value {
            Ok(loaded) => loaded.into_skill(entry.key, dir, &source.repo),
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
        texts.push(text);
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
    (RepoPart { repo, skills, texts, diagnostics, commit: git.map(|g| g.commit) }, reads)
}

/// The catalog's own `data/taxonomy.toml` when it has one, else the embedded default.
fn load_taxonomy(root: &Path, diagnostics: &mut Vec<Diagnostic>) -> Taxonomy {
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

/// One repository's skills, from the cache or read again.
struct RepoLoad {
    license: analyze::license::License,
    /// Per skill folder, in discovery order.
    loaded: Vec<incr::PackEntry<Loaded>>,
    reads: Reads,
}

/// How much of the sources a build read again.
#[derive(Default)]
struct Reads {
    skills_read: usize,
    skills_hashed: usize,
}

/// What every skill is read with, beside its own files and its repository's licence.
struct Reading<'a> {
    suppress: &'a [crate::scan::suppress::Suppression],
    taxonomy: &'a Taxonomy,
    /// A hash of the taxonomy, for the skills' keys.
    taxonomy_id: &'a str,
}

/// Loads the skills of one repository: from its cache pack when a skill's key (its files'
/// bytes, the repository's licence, the suppressions, the taxonomy) is unchanged, else by
/// reading it; then saves the pack when anything in it changed.
fn load_repo(
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
struct LoadedSkill {
    frontmatter: Deferred<parse::Frontmatter>,
    compatibility: Option<String>,
    /// Byte offset of the body in SKILL.md's text, which the pack keeps apart.
    body_start: usize,
    /// What reading it found to warn about.
    diagnostics: Vec<Diagnostic>,
    analysis: analyze::Analysis,
    scan: Deferred<crate::scan::ScanReport>,
    verdict: crate::scan::Verdict,
    topics: crate::relate::Topics,
    name: String,
    description: String,
    reading: parse::Reading,
    content_hash: Option<[u8; 32]>,
    text_hash: u64,
    similar_digest: Hash,
}

type Loaded = std::result::Result<LoadedSkill, Diagnostic>;

impl LoadedSkill {
    fn into_skill(self, key: String, dir: &discover::SkillDir, repo: &RepoId) -> (Skill, Vec<Diagnostic>) {
        // The repository's index is set when the repositories are joined (`join_repos`).
        let skill = Skill {
            key,
            repo: 0,
            slug: slugify(dir.folder_name(repo)),
            dir: dir.clone(),
            frontmatter: self.frontmatter,
            compatibility: self.compatibility,
            body_start: self.body_start,
            analysis: self.analysis,
            scan: self.scan,
            verdict: self.verdict,
            topics: self.topics,
            name: self.name,
            description: self.description,
            reading: self.reading,
            text_hash: self.text_hash,
            similar_digest: self.similar_digest,
            history: Default::default(),
            copies: copies::Copies { hash: self.content_hash, ..Default::default() },
        };
        (skill, self.diagnostics)
    }
}

/// What every skill of a repository is read with, hashed once per repository.
fn skill_context(source: &DiscoveredSource, repo_license: Option<&(String, String)>, reading: &Reading) -> Hash {
    let mut context = incr::with_program();
    context
        .text(&source.repo.full())
        .text(&source.root.to_string_lossy())
        .text(&format!("{:?}", reading.suppress))
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
fn stat_signature(context: &Hash, dir: &discover::SkillDir) -> String {
    let mut stat = Hasher::new();
    stat.bytes(context).text("stat").text(&dir.dir.to_string_lossy()).text(&dir.skill_file);
    for file in &dir.files {
        hash_skill_file(&mut stat, file);
    }
    stat.finish()
}

/// The cache key of one skill folder: its context and every file's path and bytes (a link by
/// where it points; links are never followed); and the small files' bytes, for reading it.
fn skill_key(context: &Hash, dir: &discover::SkillDir) -> (String, discover::FolderBytes) {
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

fn read_skill(
    source: &DiscoveredSource,
    dir: &discover::SkillDir,
    mut read: discover::FolderBytes,
    repo_license: Option<&(String, String)>,
    reading: &Reading,
) -> std::result::Result<(LoadedSkill, String), Diagnostic> {
    let path = dir.skill_file_path();
    let content_hash = copies::content_hash(&dir.dir, &dir.files, &read);
    // Kept bytes are under FolderBytes::MAX_FILE; the parser holds SKILL.md to its own limit.
    let bytes = match read.take(&dir.skill_file) {
        Some(bytes) => bytes,
        None => skill_files::read_skill_md(&path)?,
    };
    let parsed = parse::parse_skill(&path, &bytes)?;
    let folder_name = dir.folder_name(&source.repo).to_string();
    let skill_license = discover::skill_license_file(dir).and_then(|f| {
        let rel = if dir.rel_dir.is_empty() { f.path.clone() } else { format!("{}/{}", dir.rel_dir, f.path) };
        skill_files::read_text(&dir.dir.join(&f.path)).map(|text| (rel, text))
    });
    let analysis = analyze::analyze(
        &parsed,
        &source.repo,
        &folder_name,
        LicenseInputs {
            skill_file: skill_license.as_ref().map(|(file, text)| LicenseText { file: file.clone(), text }),
            repo_file: repo_license.map(|(file, text)| LicenseText { file: file.clone(), text }),
        },
    );
    // The scanner reads SKILL.md too, as read.
    read.insert(&dir.skill_file, bytes);
    let files = skill_files::read_skill_files(dir, &mut read);
    let mut scan = crate::scan::scan_skill(&crate::scan::SkillInput {
        folder_name: &folder_name,
        skill_file: &dir.skill_file,
        files: &files,
        parsed: Some(&parsed),
    });
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
    let topics = reading.taxonomy.classify(&parsed.frontmatter, &name, &description, &analysis);
    let text_hash = crate::relate::text_hash(&parsed.text);
    let similar_digest =
        crate::relate::similar_digest(&topics, &crate::relate::similar_text(&name, &description, &analysis.digest));
    // The outline served analysis and the scanner, whose results the pages read; neither the
    // cache nor the catalog keeps it (about a quarter of a skill's size in both). The text is
    // kept apart from the rest (`incr::SkillText`).
    let parse::ParsedSkill { frontmatter, text, body_start, diagnostics, reading: read_as, body_line: _, outline: _ } =
        parsed;
    let loaded = LoadedSkill {
        compatibility: frontmatter.compatibility.clone(),
        frontmatter: Deferred::new(frontmatter),
        body_start,
        diagnostics,
        analysis,
        verdict: scan.verdict(),
        scan: Deferred::new(scan),
        topics,
        name,
        description,
        reading: read_as,
        content_hash,
        text_hash,
        similar_digest,
    };
    Ok((loaded, text))
}
