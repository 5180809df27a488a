//! What other pages show of each skill: its card and its row of a comparison table, and their
//! keys.

use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use crate::hash::Hash;
use crate::model::Catalog;
use crate::scan::Verdict;

use super::context::*;
use super::urls::compact_count;

/// What other pages show of each skill: its card and its comparison row, made when a page
/// that shows them is rendered (most pages of an incremental build are not).
pub struct Shown<'a> {
    catalog: &'a Catalog,
    made: Vec<OnceLock<(Arc<Card>, Arc<CompareRow>)>>,
}

/// The [`shown_key`] of each skill by the key of the skill facts its card and row were
/// made from (the render keys' `skill_keys`), which covers everything they show. `serve` keeps the last
/// build's and `build` saves it in the cache, so that a build makes only the changed skills'
/// cards to key them.
#[derive(Default)]
pub struct ShownMemo {
    pub by_skill: crate::FastMap<Hash, Hash>,
    /// Whether the last build changed it (a skill's card was made again, or a skill is gone).
    pub changed: bool,
}

impl<'a> Shown<'a> {
    /// Every skill's [`shown_key`], from `memo` when it holds the skill's facts, else
    /// from its card and row, made now (and kept for the pages that show them); `skill_keys`
    /// are the render keys' `skill_keys`. Then `memo` holds this build's.
    pub fn new(catalog: &'a Catalog, skill_keys: &[Hash], memo: &mut ShownMemo) -> (Shown<'a>, Vec<Hash>) {
        let shown = Shown { catalog, made: (0..catalog.skills.len()).map(|_| OnceLock::new()).collect() };
        let earlier = &memo.by_skill;
        let keys: Vec<(Hash, bool)> = (0..catalog.skills.len())
            .into_par_iter()
            .map(|i| match earlier.get(&skill_keys[i]) {
                Some(&key) => (key, false),
                None => {
                    let (card, row) = shown.get(i);
                    (shown_key(&card, &row), true)
                }
            })
            .collect();
        let made_again = keys.iter().any(|&(_, made)| made);
        let by_skill: crate::FastMap<Hash, Hash> =
            skill_keys.iter().copied().zip(keys.iter().map(|&(key, _)| key)).collect();
        memo.changed = made_again || by_skill.len() != memo.by_skill.len();
        crate::drop_later(std::mem::replace(&mut memo.by_skill, by_skill));
        (shown, keys.into_iter().map(|(key, _)| key).collect())
    }

    /// Skill `index`'s card, linked from the site root.
    pub fn card(&self, index: usize) -> Arc<Card> {
        self.get(index).0
    }

    /// Skill `index`'s row of a comparison table, linked from the site root.
    pub fn row(&self, index: usize) -> Arc<CompareRow> {
        self.get(index).1
    }

    /// Frees the cards on another thread ([`crate::drop_later`]).
    pub fn drop_later(self) {
        crate::drop_later(self.made);
    }

    fn get(&self, index: usize) -> (Arc<Card>, Arc<CompareRow>) {
        self.made[index]
            .get_or_init(|| (Arc::new(card(self.catalog, index)), Arc::new(compare_row(self.catalog, index))))
            .clone()
    }
}

/// The key of what other pages show of a skill: its card and comparison row, hashed.
pub fn shown_key(card: &Card, row: &CompareRow) -> Hash {
    // Links are from the site root: a page's own root is part of its key. MessagePack rather
    // than JSON: nothing to escape, and 60,000 cards are keyed on every build.
    let mut bytes = b"shown\0".to_vec();
    rmp_serde::encode::write(&mut bytes, &(card, row)).expect("cards serialise");
    crate::hash::hash_bytes(&bytes)
}

/// A skill as a card, linked from the site root.
fn card(catalog: &Catalog, index: usize) -> Card {
    let skill = &catalog.skills[index];
    let repo = &catalog.repos[skill.repo];
    Card {
        title: skill.analysis.digest.title.clone(),
        repo: repo.id.full(),
        description: skill.description.clone(),
        href: skill.url_path(repo),
        tokens: format!("~{}", compact_count(skill.analysis.cost.tokens)),
        license: skill.analysis.license.label.clone(),
    }
}

/// A row of the "Compare with similar skills" table, linked from the site root.
fn compare_row(catalog: &Catalog, index: usize) -> CompareRow {
    let skill = &catalog.skills[index];
    let repo = &catalog.repos[skill.repo];
    CompareRow {
        title: skill.analysis.digest.title.clone(),
        repo: repo.id.full(),
        href: skill.url_path(repo),
        is_self: false,
        stars: repo.facts.stars.map(|s| compact_count(s as usize)).unwrap_or_else(|| "—".to_string()),
        used_in: match skill.copies.used_in {
            0 => "—".to_string(),
            n => n.to_string(),
        },
        tokens: format!("~{}", compact_count(skill.analysis.cost.tokens)),
        auto_check: match skill.verdict {
            Verdict::Passed => "Pass",
            Verdict::Notes => "Notes",
            Verdict::Failed => "Fail",
        }
        .to_string(),
        license: skill.analysis.license.label.clone(),
        updated: repo.facts.updated.map(|t| t.iso_date()).unwrap_or_else(|| "—".to_string()),
    }
}
