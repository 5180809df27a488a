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
use crate::model::{Catalog, Repo, Skill, slugify};
use crate::parse;
use crate::render::{self, Renderer};
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
    let started = Instant::now();
    let mut config = Config::load(&options.root)?;
    if let Some(base_url) = &options.base_url {
        config.base_url = base_url.clone();
    }
    let mut timings = Vec::new();
    let mut lap = Instant::now();
    let mut stage = |name: &'static str| {
        timings.push((name, lap.elapsed()));
        lap = Instant::now();
    };
    let catalog = load_catalog(&options.root, config);
    stage("discover, parse, analyze");
    let renderer = Renderer::new()?;
    let out_dir = options.out.clone().unwrap_or_else(|| options.root.join("public"));
    let writer = SiteWriter::begin(&out_dir, options.minify)?;
    let stats = render::render_site(&catalog, &renderer, &writer)?;
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

/// Everything up to rendering: the catalog as data, with its diagnostics.
pub fn load_catalog(root: &Path, config: Config) -> Catalog {
    let mut diagnostics = Vec::new();
    let mut sources: Vec<DiscoveredSource> = Vec::new();
    let mut seen_repos: HashMap<RepoId, PathBuf> = HashMap::new();
    for source in &config.sources {
        let repo = RepoId::parse(&source.repo).expect("validated when the config was read");
        let path = root.join(&source.path);
        if !path.is_dir() {
            diagnostics.push(Diagnostic::error(
                root.join(crate::config::CONFIG_FILE),
                None,
                format!("source {} ({}) is not a folder; it is left out", source.repo, source.path.display()),
            ));
            continue;
        }
        if let Some(first) = seen_repos.get(&repo) {
            diagnostics.push(Diagnostic::error(
                root.join(crate::config::CONFIG_FILE),
                None,
                format!(
                    "source {} is listed twice ({} and {}); the second is left out",
                    source.repo,
                    first.display(),
                    source.path.display()
                ),
            ));
            continue;
        }
        seen_repos.insert(repo.clone(), path.clone());
        let (found, diags) = discover::discover_source(repo, &path);
        diagnostics.extend(diags);
        sources.push(found);
    }
    sources.sort_by(|a, b| a.repo.cmp(&b.repo));

    let mut repos = Vec::new();
    let mut skills: Vec<Skill> = Vec::new();
    for source in sources {
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
            .map(|dir| load_skill(&source, dir, repo_index, repo_license_text.as_ref(), &config.suppress))
            .collect();
        let mut repo_skills = Vec::new();
        let mut used_slugs: HashMap<String, PathBuf> = HashMap::new();
        for result in results {
            match result {
                Ok(mut skill) => {
                    diagnostics.append(&mut skill.parsed.diagnostics.clone());
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
        });
    }

    let mut diagnostics: Vec<Diagnostic> = diagnostics.into_iter().map(|d| d.relative_to(root)).collect();
    diagnostics.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    for skill in &mut skills {
        skill.parsed.diagnostics.clear();
    }
    Catalog { config, repos, skills, diagnostics }
}

fn load_skill(
    source: &DiscoveredSource,
    dir: &discover::SkillDir,
    repo_index: usize,
    repo_license: Option<&(String, String)>,
    suppressions: &[crate::scan::suppress::Suppression],
) -> std::result::Result<Skill, Diagnostic> {
    let path = dir.skill_file_path();
    let bytes = std::fs::read(&path).map_err(|e| Diagnostic::error(&path, None, format!("cannot be read: {e}")))?;
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
    })
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
