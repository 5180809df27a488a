//! Render keys of skill pages, computed from what a page is made of rather than from its built
//! context. Building and hashing the context of every skill page costs about 100 µs a page,
//! seconds for a large catalog, even when one skill changed; these keys cost a few hashes.
//!
//! The invariant: a skill page's key covers everything `skill_page::skill_ctx` and the page's
//! `SiteCtx` read. A skill is covered by its cache key (its files' bytes and what they were read
//! with: everything parsed, analyzed and scanned is a function of it) and by what the build adds
//! afterwards (slug, history, copies, repository). When `skill_ctx` reads something new, add it
//! here; `tests/incremental.rs` compares incremental builds with clean ones byte for byte.

use rayon::prelude::*;

use crate::cache::Fingerprint;
use crate::model::Catalog;
use crate::write::Hash;

use super::context::SiteCtx;
use super::skill_page;
use super::topics::TopicIndex;

/// Per-build hashes of each skill's and each repository's facts.
pub struct InputKeys {
    skills: Vec<Hash>,
}

/// A hasher named after what it keys, so that two kinds of key never collide.
fn hasher(kind: &str) -> Fingerprint {
    let mut hasher = Fingerprint::blank();
    hasher.text(kind);
    hasher
}

impl InputKeys {
    pub fn new(catalog: &Catalog) -> InputKeys {
        let repos: Vec<Hash> = catalog
            .repos
            .par_iter()
            .map(|repo| {
                hasher("repo")
                    .text(&repo.id.full())
                    .text(&repo.root.to_string_lossy())
                    .text(&format!("{:?}", repo.license))
                    .number(repo.skill_folders as u64)
                    .number(repo.skills.len() as u64)
                    .text(&format!("{:?}", repo.facts))
                    .hash()
            })
            .collect();
        let skills = (0..catalog.skills.len())
            .into_par_iter()
            .map(|i| {
                let skill = &catalog.skills[i];
                let mut hasher = hasher("skill");
                hasher
                    .text(&skill.key)
                    .bytes(&repos[skill.repo])
                    .text(&skill.slug)
                    .text(&format!("{:?}", skill.history))
                    .number(skill.copies.others as u64)
                    .number(skill.copies.used_in as u64)
                    .text(&format!("{:?}", skill.copies.hash));
                // The copy first seen, as its page names and links it.
                if let Some(first) = skill.copies.canonical {
                    let canonical = &catalog.skills[first];
                    let canonical_repo = &catalog.repos[canonical.repo];
                    hasher
                        .number(u64::from(first == i))
                        .text(&canonical.url_path(canonical_repo))
                        .text(&canonical_repo.id.full())
                        .text(&canonical.dir.rel_dir);
                }
                hasher.hash()
            })
            .collect();
        InputKeys { skills }
    }

    /// The key of skill `index`'s page: the skill, the skills it shows (more from its
    /// repository, similar skills), its topics' links and the shared page frame.
    pub fn skill_page(&self, catalog: &Catalog, topic_index: &TopicIndex, site: &SiteCtx, index: usize) -> Hash {
        let mut hasher = hasher("skill page");
        hasher.bytes(&self.skills[index]);
        hasher.text(&serde_json::to_string(site).expect("site context serialises"));
        for other in skill_page::more_from_repo(catalog, index) {
            hasher.text("more").bytes(&self.skills[other]);
        }
        for m in &catalog.relations.similar[index] {
            hasher
                .text("similar")
                .bytes(&self.skills[m.index])
                .number(m.shared as u64)
                .number(u64::from(m.text.to_bits()));
        }
        let links = skill_page::topic_links(catalog, topic_index, index, &site.root);
        hasher.text(&serde_json::to_string(&links).expect("topic links serialise"));
        hasher.hash()
    }
}
