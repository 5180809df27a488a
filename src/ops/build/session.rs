//! What `serve` keeps between builds of one catalog.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::diag::Diagnostic;
use crate::discover::{DiscoveredSource, RepoId};
use crate::model::Catalog;
use crate::relate;
use crate::render;
use crate::sources;

use super::catalog::Found;
use super::repo::{RepoPart, SkillSource};

/// What `serve` keeps between builds, so that a change reads again only the sources it touched:
/// every source as discovered and its repository as built, the similar-skill ranking, the
/// cards other pages show of each skill, and the output's manifests. A source is kept while no
/// change was reported under its folder and what every skill is read with (the sources and
/// suppressions in catalog.toml, the taxonomy) is the same.
#[derive(Default)]
pub struct Session {
    /// What the kept repositories were read with (see [`reading_id`]).
    pub(super) reading: String,
    pub(super) repos: HashMap<RepoId, KeptRepo>,
    pub(super) similar: Option<relate::SimilarMemo>,
    /// The output's manifests as the last build left them.
    pub(super) manifests: crate::write::Manifests,
    /// What the last build's cards and comparison rows were keyed as.
    pub(super) shown: render::shown::ShownMemo,
}

pub(super) struct KeptRepo {
    pub(super) source: DiscoveredSource,
    pub(super) part: RepoPart,
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
    pub(super) fn put_back(&mut self, found: Found) {
        for (source, part) in found.sources.into_iter().zip(found.kept) {
            if let Some(part) = part {
                self.repos.insert(source.repo.clone(), KeptRepo { source, part });
            }
        }
    }

    pub(super) fn take_unchanged(&mut self, source: &sources::ResolvedSource) -> Option<KeptRepo> {
        let kept = self.repos.remove(&source.repo)?;
        let commit = source.git.as_ref().map(|g| g.commit);
        (kept.source.root == source.dir && kept.part.commit == commit).then_some(kept)
    }

    /// Keeps the catalog just rendered, split back into its repositories.
    pub(super) fn keep(
        &mut self,
        catalog: Catalog,
        skill_sources: Vec<SkillSource>,
        sources: Vec<DiscoveredSource>,
        kept: KeptFacts,
    ) {
        let KeptFacts { mut diagnostics, commits } = kept;
        let Catalog { config, repos, skills, diagnostics: joined, relations, editorial } = catalog;
        let relate::Relations { topics, similar, same_repo, similar_key, faults } = relations;
        // A ranking with a skill left out is not kept: the next build ranks again.
        self.similar = faults.is_empty().then_some(relate::SimilarMemo { key: similar_key, similar, same_repo });
        crate::drop_later((config, joined, topics, editorial));
        let mut skills = skills.into_iter();
        let mut skill_sources = skill_sources.into_iter();
        self.repos = repos
            .into_iter()
            .zip(sources)
            .zip(diagnostics.drain(..))
            .zip(commits)
            .map(|(((repo, source), diagnostics), commit)| {
                let skills = skills.by_ref().take(repo.skills.len()).collect();
                let sources = skill_sources.by_ref().take(repo.skills.len()).collect();
                let kept = KeptRepo { source, part: RepoPart { repo, skills, sources, diagnostics, commit } };
                (kept.part.repo.id.clone(), kept)
            })
            .collect();
    }
}

/// What a joined catalog no longer holds of its repositories, for a [`Session`] to keep.
pub(super) struct KeptFacts {
    pub(super) diagnostics: Vec<Vec<Diagnostic>>,
    pub(super) commits: Vec<Option<gix::ObjectId>>,
}
