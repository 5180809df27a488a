//! What other pages show of each skill: its card and its row of a comparison table, made from
//! a typed input (the skill's and its repository's facts, keyed), and their keys.

use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use serde::{Serialize, Serializer};

use crate::hash::Hash;
use crate::model::{Repo, Skill};
use crate::scan::Verdict;

use super::context::*;
use super::keys::{FactKeys, Keyed};
use super::urls::compact_count;

/// What a row shows for a value not known.
pub const NO_VALUE: &str = "—";

/// All a skill's card and row are made of: [`card`] and [`compare_row`] see nothing else.
#[derive(Serialize)]
pub struct ShownInput<'a> {
    /// The program that makes them: a memo of their keys outlives a build.
    pub program: &'a Hash,
    pub skill: Keyed<'a, Skill>,
    pub repo: Keyed<'a, Repo>,
}

/// What other pages show of each skill: its card and its comparison row, made when a page
/// that shows them is rendered (most pages of an incremental build are not), and their keys.
pub struct Shown<'a> {
    facts: &'a FactKeys<'a>,
    program: &'a Hash,
    made: Vec<OnceLock<(Arc<Card>, Arc<CompareRow>)>>,
    keys: Vec<Hash>,
}

/// The [`shown_key`] of each skill by the key of its [`ShownInput`], which covers everything
/// its card and row are made of. `serve` keeps the last build's and `build` saves it in the
/// cache, so that a build makes only the changed skills' cards to key them.
#[derive(Default)]
pub struct ShownMemo {
    pub by_skill: ShownKeys,
    /// Whether the last build changed it (a skill's card was made again, or a skill is gone).
    pub changed: bool,
}

/// The shown keys by input key, as the cache stores them: hashes as bytes.
#[derive(Default, Serialize, serde::Deserialize)]
pub struct ShownKeys(#[serde(with = "crate::hash::bin::map")] pub crate::FastMap<Hash, Hash>);

/// Another skill as a page shows it: its card and row, standing in the page's input as their
/// key ([`shown_key`]).
#[derive(Clone, Copy)]
pub struct ShownOf<'a> {
    shown: &'a Shown<'a>,
    index: usize,
}

impl ShownOf<'_> {
    pub fn card(&self) -> Arc<Card> {
        self.shown.get(self.index).0
    }

    pub fn row(&self) -> Arc<CompareRow> {
        self.shown.get(self.index).1
    }
}

impl Serialize for ShownOf<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.shown.keys[self.index])
    }
}

impl<'a> Shown<'a> {
    /// Every skill's [`shown_key`], from `memo` when it holds the key of the skill's
    /// [`ShownInput`], else from its card and row, made now (and kept for the pages that show
    /// them). Then `memo` holds this build's.
    pub fn new(facts: &'a FactKeys<'a>, program: &'a Hash, memo: &mut ShownMemo) -> Shown<'a> {
        let count = facts.skills.len();
        let mut shown = Shown { facts, program, made: (0..count).map(|_| OnceLock::new()).collect(), keys: Vec::new() };
        let earlier = &memo.by_skill.0;
        let keyed: Vec<(Hash, Hash, bool)> = (0..count)
            .into_par_iter()
            .map(|i| {
                let input = crate::hash::of("shown input", &shown.input(i));
                match earlier.get(&input) {
                    Some(&key) => (input, key, false),
                    None => {
                        let (card, row) = shown.get(i);
                        (input, shown_key(&card, &row), true)
                    }
                }
            })
            .collect();
        let made_again = keyed.iter().any(|&(_, _, made)| made);
        let by_skill: crate::FastMap<Hash, Hash> = keyed.iter().map(|&(input, key, _)| (input, key)).collect();
        memo.changed = made_again || by_skill.len() != memo.by_skill.0.len();
        crate::drop_later(std::mem::replace(&mut memo.by_skill.0, by_skill));
        shown.keys = keyed.into_iter().map(|(_, key, _)| key).collect();
        shown
    }

    /// Skill `index` as a page shows it.
    pub fn of(&'a self, index: usize) -> ShownOf<'a> {
        ShownOf { shown: self, index }
    }

    /// Skill `index`'s card, linked from the site root.
    pub fn card(&self, index: usize) -> Arc<Card> {
        self.get(index).0
    }

    /// Frees the cards on another thread ([`crate::drop_later`]).
    pub fn drop_later(self) {
        crate::drop_later(self.made);
    }

    fn input(&self, index: usize) -> ShownInput<'a> {
        let (skill, repo) = self.facts.skill(index);
        ShownInput { program: self.program, skill, repo }
    }

    fn get(&self, index: usize) -> (Arc<Card>, Arc<CompareRow>) {
        self.made[index]
            .get_or_init(|| {
                let input = self.input(index);
                (Arc::new(card(&input)), Arc::new(compare_row(&input)))
            })
            .clone()
    }
}

/// The key of what other pages show of a skill: its card and comparison row, hashed.
pub fn shown_key(card: &Card, row: &CompareRow) -> Hash {
    // Links are from the site root: a page's own root is part of its key.
    crate::hash::of("shown", &(card, row))
}

/// A skill as a card, linked from the site root.
fn card(input: &ShownInput) -> Card {
    let (skill, repo) = (input.skill.value(), input.repo.value());
    Card {
        title: skill.analysis.digest.title.clone(),
        repo: repo.id.full(),
        folder: told_apart(skill),
        description: skill.description.clone(),
        href: skill.url_path(repo),
        tokens: format!("~{}", compact_count(skill.analysis.cost.tokens)),
        license: skill.analysis.license.label.clone(),
    }
}

/// The folder that tells a skill from another of its repository with the same title.
fn told_apart(skill: &crate::model::Skill) -> Option<String> {
    skill.title_shared.then(|| if skill.dir.rel_dir.is_empty() { ".".to_string() } else { skill.dir.rel_dir.clone() })
}

/// A row of the "Similar skills" table, linked from the site root.
fn compare_row(input: &ShownInput) -> CompareRow {
    let (skill, repo) = (input.skill.value(), input.repo.value());
    CompareRow {
        title: skill.analysis.digest.title.clone(),
        repo: repo.id.full(),
        folder: told_apart(skill),
        href: skill.url_path(repo),
        is_self: false,
        stars: repo.facts.stars.map(|s| compact_count(s as usize)).unwrap_or_else(|| NO_VALUE.to_string()),
        used_in: match skill.copies.used_in {
            0 => NO_VALUE.to_string(),
            n => n.to_string(),
        },
        tokens: format!("~{}", compact_count(skill.analysis.cost.tokens)),
        auto_check: match skill.verdict {
            Verdict::Passed => "Pass",
            Verdict::Notes => "Notes",
            Verdict::NotChecked => "Not checked",
            Verdict::Failed => "Fail",
        }
        .to_string(),
        license: skill.analysis.license.label.clone(),
        updated: repo.facts.updated.map(|t| t.iso_date()).unwrap_or_else(|| NO_VALUE.to_string()),
    }
}
