//! Render keys computed from what a page is made of rather than from its built context.
//! Building and hashing the context of every skill page costs about 100 µs a page, seconds for
//! a large catalog, even when one skill changed; these keys cost a few hashes.
//!
//! The invariants:
//! - a skill page's key covers everything `skill_page::skill_ctx` and the page's `SiteCtx`
//!   read. The skill itself is covered by its cache key (its files' bytes and what they were
//!   read with: everything parsed, analyzed and scanned is a function of it) and by what the
//!   build adds afterwards (slug, history, copies, repository), and the editors' notes and
//!   badge (`skill_page::editors`, from the catalog's data files). When `skill_ctx` reads
//!   something new, add it here;
//! - the page frame (`SiteCtx`) is hashed once per build without the page's root and canonical
//!   address, with the base URL (`frame_key`): `render_site`'s `site` closure makes every
//!   other field the same on every page, and a skill page's root and canonical address follow
//!   from the base URL and the skill's facts (its slug, repository and canonical copy);
//! - another skill shown on a page (a card, a row of the comparison table) is covered by what
//!   is shown of it (`shown::shown_key`): the card and the row themselves, hashed. An edit that
//!   leaves them as they were (most body edits) re-renders no other page.
//!
//! `tests/incremental.rs` compares incremental builds with clean ones byte for byte.

use rayon::prelude::*;
use serde::Serialize;

use crate::hash::{Hash, Hasher};
use crate::model::Catalog;

use super::charts::TokenScale;
use super::context::SiteCtx;
use super::skill_page;
use super::topics::TopicIndex;

/// Per-build hashes of each skill's facts, and of what other pages show of it.
pub struct InputKeys {
    skills: Vec<Hash>,
    shown: Vec<Hash>,
}

/// A hasher named after what it keys, so that two kinds of key never collide.
fn hasher(kind: &str) -> Hasher {
    let mut hasher = Hasher::new();
    hasher.text(kind);
    hasher
}

/// Each skill's own facts: its cache key (everything read from its folder, and what it was
/// read with), slug, history, copies and repository.
pub fn skill_keys(catalog: &Catalog, texts: &dyn super::SkillTexts) -> Vec<Hash> {
    let repos: Vec<Hash> = catalog
        .repos
        .par_iter()
        .map(|repo| {
            hasher("repo")
                .text(&repo.id.full())
                .text(&repo.root.to_string_lossy())
                .bytes(&rmp_serde::to_vec(&repo.license).expect("a licence serialises"))
                .number(repo.skill_folders as u64)
                .number(repo.skills.len() as u64)
                .bytes(&rmp_serde::to_vec(&repo.facts).expect("repository facts serialise"))
                .hash()
        })
        .collect();
    (0..catalog.skills.len())
        .into_par_iter()
        .map(|i| {
            let skill = &catalog.skills[i];
            let mut hasher = hasher("skill");
            hasher
                .text(texts.source_key(i))
                .bytes(&repos[skill.repo])
                .text(&skill.slug)
                .number(u64::from(skill.history.first_seen.is_some()))
                .number(skill.history.first_seen.map_or(0, |t| t.0 as u64))
                .number(u64::from(skill.history.last_changed.is_some()))
                .number(skill.history.last_changed.map_or(0, |t| t.0 as u64))
                .number(skill.copies.others as u64)
                .number(skill.copies.used_in as u64)
                .bytes(&skill.copies.hash.map_or([0; 33], |h| {
                    let mut known = [1; 33];
                    known[1..].copy_from_slice(&h);
                    known
                }));
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
        .collect()
}

impl InputKeys {
    /// The keys of a build: each skill's own facts ([`skill_keys`]) and what other pages show
    /// of it ([`super::shown::shown_key`], as `shown::Shown::new` gives them).
    pub fn new(skills: Vec<Hash>, shown: Vec<Hash>) -> InputKeys {
        InputKeys { skills, shown }
    }

    /// Skill `index`'s own facts: its cache key, slug, history, copies and repository.
    pub fn skill(&self, index: usize) -> &Hash {
        &self.skills[index]
    }

    /// The key of a page made of `frame` (its context without its cards) and the cards of
    /// `skills`, in order.
    pub fn with_cards(&self, frame: &impl Serialize, skills: impl IntoIterator<Item = usize>) -> Hash {
        let mut hasher = hasher("page with cards");
        hasher.text(&serde_json::to_string(frame).expect("page frame serialises"));
        for skill in skills {
            hasher.bytes(&self.shown[skill]);
        }
        hasher.hash()
    }

    /// The key of skill `index`'s page: the skill, the skills it shows (more from its
    /// repository, similar skills), the editors' notes and badge, its topics' links, where its
    /// token cost falls among the catalog's (`token_scale`: the bins' shares and the share
    /// below it, as the page shows them) and the page frame (see [`frame_key`]).
    /// The page's root and canonical address are functions of its address (the skill's slug
    /// and repository, and the copy it names as canonical: all in the skill's facts) and of
    /// the base URL (in the frame).
    pub fn skill_page(
        &self,
        catalog: &Catalog,
        topic_index: &TopicIndex,
        token_scale: &TokenScale,
        frame: &Hash,
        index: usize,
    ) -> Hash {
        let mut hasher = hasher("skill page");
        hasher.bytes(&self.skills[index]).bytes(frame);
        hasher.text("tokens").number(token_scale.len() as u64);
        for share in token_scale.shares() {
            hasher.number(share as u64);
        }
        hasher.number(token_scale.below(catalog.skills[index].analysis.cost.tokens) as u64);
        // The editors' notes and the owner's badge, from the catalog's data files.
        let editors = skill_page::editors(catalog, index);
        hasher.text("editors").text(&serde_json::to_string(&editors).expect("editors' notes serialise"));
        for other in skill_page::more_from_repo(catalog, index) {
            hasher.text("more").bytes(&self.shown[other]);
        }
        for m in &catalog.relations.similar[index] {
            hasher
                .text("similar")
                .bytes(&self.shown[m.index])
                .number(m.shared as u64)
                .number(u64::from(m.text.to_bits()));
        }
        // The topics the page links, as `skill_page::topic_links` reads them: each one's name,
        // and its page when it has one (linked from the page's root, which follows from the
        // skill's address).
        for (kind, name, page) in skill_page::linked_topics(catalog, topic_index, index) {
            hasher.text(kind.dir()).text(name).text(page.unwrap_or("no page"));
        }
        hasher.hash()
    }
}

/// The part of every page's `SiteCtx` that is the same on every page: all of it but the
/// page's root and canonical address; and the base URL that the canonical address is made
/// from, with the page's address, which a page's key covers.
pub fn frame_key(site: &SiteCtx, base_url: &str) -> Hash {
    let frame = SiteCtx { root: String::new(), canonical: String::new(), ..site.clone() };
    let mut hasher = hasher("frame");
    hasher.text(&serde_json::to_string(&frame).expect("site context serialises")).text(base_url);
    hasher.hash()
}
