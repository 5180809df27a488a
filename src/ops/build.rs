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
use crate::model::{Catalog, Repo, RepoFacts, Skill, SkillHistory, slugify};
use crate::parse;
use crate::progress::{Progress, Stage};
use crate::relate::{self, Taxonomy, copies};
use crate::render::{self, Renderer};
use crate::repo_data;
use crate::sources::{self, history, history::History};
use crate::write::SiteWriter;

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
    pub elapsed: Duration,
    /// Wall time of each stage, in pipeline order.
    pub timings: Vec<(&'static str, Duration)>,
}

pub fn build(options: &BuildOptions) -> Result<BuildReport> {
    build_with(options, Config::load(&options.root)?)
}

/// Builds with a config given rather than read from `root/catalog.toml` (serve's previews).
pub fn build_with(options: &BuildOptions, config: Config) -> Result<BuildReport> {
    build_reporting(options, config, &Progress::default())
}

/// Builds, telling `progress` how far reading and rendering have come.
pub fn build_reporting(options: &BuildOptions, mut config: Config, progress: &Progress) -> Result<BuildReport> {
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
    let catalog = load_catalog_reporting(&options.root, config, mode, progress);
    stage("discover, parse, analyze");
    let renderer = Renderer::with_theme(Some(&options.root))?;
    let out_dir = options.out.clone().unwrap_or_else(|| options.root.join("public"));
    let writer = SiteWriter::begin(&out_dir, options.minify)?;
    let stats = render::render_site(&catalog, &renderer, &writer, progress)?;
    stage("render, write");
    let (files, bytes) = (writer.files_written(), writer.bytes_written());
    let out = writer.publish()?;
    stage("publish");
    Ok(BuildReport {
        out,
        skills: catalog.skills.len(),
        repos: catalog.repos.len(),
        pages: stats.pages,
        files,
        bytes,
        diagnostics: catalog.diagnostics,
        elapsed: started.elapsed(),
        timings,
    })
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
    let (resolved, mut diagnostics) = sources::resolve(root, &config, mode);
    let mut git_at: HashMap<RepoId, sources::GitAt> = HashMap::new();
    let mut sources: Vec<DiscoveredSource> = Vec::new();
    for source in resolved {
        let (found, diags) = discover::discover_source(source.repo.clone(), &source.dir);
        diagnostics.extend(diags);
        if let Some(git) = source.git {
            git_at.insert(source.repo, git);
        }
        sources.push(found);
    }
    sources.sort_by(|a, b| a.repo.cmp(&b.repo));
    let histories: Vec<(Option<History>, Option<Diagnostic>)> = sources
        .par_iter()
        .map(|source| {
            let Some(git) = git_at.get(&source.repo) else {
                return (None, None);
            };
            match history::read(&git.repo_dir, git.commit) {
                Ok(history) => (Some(history), None),
                Err(err) => {
                    let message = format!("its git history could not be read ({err}); its dates are not known");
                    (None, Some(Diagnostic::warning(&source.root, None, message)))
                }
            }
        })
        .collect();
    let (repo_data, data_diag) = repo_data::load(root);
    diagnostics.extend(data_diag);

    let mut repos = Vec::new();
    let mut skills: Vec<Skill> = Vec::new();
    let read = progress.counter(Stage::Read, sources.iter().map(|s| s.skills.len()).sum());
    for (source, (history, history_diag)) in sources.into_iter().zip(histories) {
        diagnostics.extend(history_diag);
        let repo_license_text =
            source.license_file.as_ref().and_then(|(name, path)| read_text(path).map(|t| (name.clone(), t)));
        let repo_license = analyze::license::license(
            None,
            None,
            repo_license_text.as_ref().map(|(name, text)| LicenseText { file: name.clone(), text }),
        );
        let repo_index = repos.len();
        let results: Vec<std::result::Result<Skill, Diagnostic>> = source
            .skills
            .par_iter()
            .map(|dir| {
                let skill = load_skill(&source, dir, repo_index, repo_license_text.as_ref(), &config.suppress);
                read.tick();
                skill
            })
            .collect();
        let mut repo_skills = Vec::new();
        let mut used_slugs: HashMap<String, PathBuf> = HashMap::new();
        for result in results {
            match result {
                Ok(mut skill) => {
                    diagnostics.append(&mut skill.parsed.diagnostics.clone());
                    if let Some(history) = &history {
                        let rel = &skill.dir.rel_dir;
                        let skill_file = if rel.is_empty() {
                            skill.dir.skill_file.clone()
                        } else {
                            format!("{rel}/{}", skill.dir.skill_file)
                        };
                        skill.history = SkillHistory {
                            first_seen: history.first_seen(&skill_file),
                            last_changed: history.last_changed(rel),
                        };
                    }
                    // Two folders that would share a URL both keep a page; the later one (in
                    // folder order, so the same on every build) gets a numbered suffix.
                    let base = skill.slug.clone();
                    let mut n = 1;
                    while used_slugs.contains_key(&skill.slug) {
                        n += 1;
                        skill.slug = format!("{base}-{n}");
                    }
                    if n > 1 {
                        diagnostics.push(Diagnostic::warning(
                            skill.dir.skill_file_path(),
                            None,
                            format!(
                                "its page address {base}/ is taken by {}; this skill's page is {}/",
                                used_slugs[&base].display(),
                                skill.slug
                            ),
                        ));
                    }
                    used_slugs.insert(skill.slug.clone(), skill.dir.dir.clone());
                    repo_skills.push(skills.len());
                    skills.push(skill);
                }
                Err(diag) => diagnostics.push(diag),
            }
        }
        repos.push(Repo {
            id: source.repo.clone(),
            root: source.root.clone(),
            license: repo_license,
            skill_folders: source.skills.len(),
            skills: repo_skills,
            facts: RepoFacts {
                stars: repo_data.get(&source.repo.full()).and_then(|figures| figures.stars),
                commit: history.as_ref().map(|h| h.commit.clone()),
                updated: history.as_ref().map(|h| h.updated),
            },
        });
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
    for skill in &mut skills {
        skill.parsed.diagnostics.clear();
    }
    let taxonomy = load_taxonomy(root, &mut diagnostics);
    let relations = relate::relate(&skills, &taxonomy);
    Catalog { config, repos, skills, diagnostics, relations }
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

fn load_skill(
    source: &DiscoveredSource,
    dir: &discover::SkillDir,
    repo_index: usize,
    repo_license: Option<&(String, String)>,
    suppressions: &[crate::scan::suppress::Suppression],
) -> std::result::Result<Skill, Diagnostic> {
    let path = dir.skill_file_path();
    let bytes = read_skill_md(&path)?;
    let parsed = parse::parse_skill(&path, &bytes)?;
    let folder_name = dir.folder_name(&source.repo).to_string();
    let skill_license = discover::skill_license_file(dir).and_then(|f| {
        let rel = if dir.rel_dir.is_empty() { f.path.clone() } else { format!("{}/{}", dir.rel_dir, f.path) };
        read_text(&dir.dir.join(&f.path)).map(|text| (rel, text))
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
    let files = crate::ops::check::read_skill_files(dir, Some(&bytes));
    let mut scan = crate::scan::scan_skill(&crate::scan::SkillInput {
        folder_name: &folder_name,
        skill_file: &dir.skill_file,
        files: &files,
        parsed: Some(&parsed),
    });
    let prefix =
        if dir.rel_dir.is_empty() { source.repo.full() } else { format!("{}/{}", source.repo.full(), dir.rel_dir) };
    crate::scan::suppress::apply(&mut scan.findings, suppressions, |f| format!("{prefix}/{}", f.file));
    let name = parsed.frontmatter.name.clone().unwrap_or_else(|| folder_name.clone());
    let description = parsed.frontmatter.description.clone().unwrap_or_default();
    let mut parsed = parsed;
    if parsed.frontmatter.name.is_none() {
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
    Ok(Skill {
        repo: repo_index,
        slug: slugify(&folder_name),
        dir: dir.clone(),
        parsed,
        analysis,
        scan,
        name,
        description,
        history: Default::default(),
        copies: copies::Copies { hash: copies::content_hash(&dir.dir, &dir.files), ..Default::default() },
    })
}

/// Reads a SKILL.md, never more of it than the parser accepts: a larger one is left out by its
/// size, not read into memory first.
fn read_skill_md(path: &Path) -> std::result::Result<Vec<u8>, Diagnostic> {
    use std::io::Read;
    let cannot = |e: std::io::Error| Diagnostic::error(path, None, format!("cannot be read: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    let limit = parse::MAX_SKILL_MD_BYTES as u64;
    if size > limit {
        return Err(parse::too_large(path, size));
    }
    // The file may have grown since its size was read.
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(parse::too_large(path, bytes.len() as u64));
    }
    Ok(bytes)
}

/// Licence files are small; a large or unreadable one is treated as absent.
fn read_text(path: &Path) -> Option<String> {
    const MAX_LICENSE_BYTES: u64 = 256 * 1024;
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > MAX_LICENSE_BYTES {
        return None;
    }
    std::fs::read(path).ok().map(|bytes| parse::decode(&bytes).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_skill_md_is_left_out_by_its_size_without_being_read() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("SKILL.md");
        // Sparse: a terabyte that takes no disk, and would take hours and all memory to read.
        std::fs::File::create(&path).unwrap().set_len(1 << 40).unwrap();
        let started = Instant::now();
        let err = read_skill_md(&path).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(err.message.starts_with(&format!("is {} bytes, over the limit", 1u64 << 40)), "{}", err.message);
        std::fs::write(&path, "---\nname: a\n---\n").unwrap();
        assert_eq!(read_skill_md(&path).unwrap(), b"---\nname: a\n---\n");
    }
}
