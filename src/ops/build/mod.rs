//! `catalog build`: discover the sources, read each repository or reuse it, analyze and relate
//! the skills, render the site, write it and publish it. Each step is a stage's function of
//! plain data; this module and its parts join the stages to the reuse machinery (`incr`).

mod catalog;
#[cfg(test)]
mod isolation_tests;
mod repo;
mod session;
mod skill_index;

pub use session::Session;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::error::Result;
use crate::incr;
use crate::model::Catalog;
use crate::progress::Progress;
use crate::render::{self, Renderer};
use crate::sources;
use crate::summary::BuildSummary;
use crate::write::{self, SiteWriter};

use catalog::{Assembled, Texts, assemble_catalog, discover_catalog, input_fingerprint};
use repo::Reads;

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
    /// The same summary the build record keeps for the next build.
    pub summary: BuildSummary,
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
            reused_pages: record.summary.pages,
            summary: BuildSummary { out: out_dir, ..record.summary },
            skills_read: 0,
            skills_hashed: 0,
            written: 0,
            up_to_date: true,
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
    let (writer, (Assembled { catalog, sources: skill_sources }, Reads { skills_read, skills_hashed }, sources, kept)) =
        rayon::join(
            || SiteWriter::begin_with(&out_dir, options.minify, known),
            || assemble_catalog(&root, config, found, progress, session.as_deref_mut()),
        );
    let writer = writer?;
    stage("parse, analyze, relate");
    // A session keeps the cards' keys in memory; a single build reads and saves them.
    let mut loaded_memo = render::shown::ShownMemo::default();
    let shown_memo = match session.as_deref_mut() {
        Some(session) => &mut session.shown,
        None => {
            loaded_memo.by_skill = incr::store::load_memo(&root, SHOWN_MEMO).unwrap_or_default();
            &mut loaded_memo
        }
    };
    let stats = render::render_site(
        &catalog,
        &renderer,
        &writer,
        progress,
        shown_memo,
        &Texts { catalog: &catalog, sources: &skill_sources },
    )?;
    if session.is_none() && loaded_memo.changed {
        incr::store::save_memo(&root, SHOWN_MEMO, &loaded_memo.by_skill);
    }
    stage("render, write");
    if catalog.config.publish.skill_index_for(catalog.skills.len()) {
        let texts = Texts { catalog: &catalog, sources: &skill_sources };
        skill_index::write_skill_index(&root, &catalog, &texts, &writer)?;
        stage("skill index");
    }
    let (out, written, manifests) = writer.publish_keeping()?;
    stage("publish");
    let size = crate::summary::SiteSize::of(manifests.published_files(), render::urls::kind_of);
    let mut summary = BuildSummary {
        out,
        skills: catalog.skills.len(),
        repos: catalog.repos.len(),
        pages: stats.pages,
        files: written.files,
        bytes: written.bytes,
        diagnostics: catalog.diagnostics.iter().chain(&stats.diagnostics).cloned().collect(),
        size,
    };
    summary.diagnostics.extend(summary.host_limit_warning());
    let record = incr::BuildRecord { fingerprint, generation: written.generation.clone(), summary };
    incr::store::save_record(&record_path(&record.summary.out), &record);
    match session {
        Some(session) => {
            session.keep(catalog, skill_sources, sources, kept);
            session.manifests = manifests;
        }
        // Freeing 60,000 skills takes a tenth of a second or more: a command that exits next
        // need not wait for it.
        None => crate::drop_later((catalog, skill_sources, sources, manifests)),
    }
    Ok(BuildReport {
        summary: record.summary,
        skills_read,
        skills_hashed,
        written: written.written,
        reused_pages: written.reused_pages,
        up_to_date: false,
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

/// The record of the last build of `out`, beside its manifests (`.NAME.manifests/last-build.msgpack`),
/// so that it goes wherever the output goes and a build into a temporary folder leaves the
/// catalog's folder untouched.
fn record_path(out: &Path) -> PathBuf {
    write::manifests_dir(out).join("last-build.msgpack")
}

/// The keys of the last build's cards and rows by the key of what each was made of
/// ([`render::shown::ShownMemo`]), in the catalog's cache.
const SHOWN_MEMO: &str = "shown.msgpack";

/// The similar-skill ranking of the last build, with the key of what it read
/// ([`crate::relate::SimilarMemo`]), in the catalog's cache.
const SIMILAR_MEMO: &str = "similar.msgpack";

/// Each source's folder listings as last walked (`discover::Listings`), in the catalog's cache:
/// named by the repository, and holding the folder it was walked from.
fn listings_memo(repo: &str) -> String {
    format!("folders/{repo}.msgpack")
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
