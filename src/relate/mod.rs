//! Relate: facts about a skill that depend on the other skills of the catalog — topics (tags,
//! categories, products), the similar-skill ranking, and copies. Functions of the analyzed
//! catalog; no I/O.

pub mod copies;
pub mod similar;
pub mod taxonomy;

use std::hash::{Hash, Hasher};

use rayon::prelude::*;

use crate::model::Skill;
pub use similar::Match;
pub use taxonomy::{Taxonomy, Topic, Topics};

/// Similar skills kept per skill: five for the compare table, one more for the cards.
pub const SIMILAR_PER_SKILL: usize = 6;

#[derive(Debug, Clone, Default)]
pub struct Relations {
    /// Per skill, in catalog order.
    pub topics: Vec<Topics>,
    /// Per skill, best first.
    pub similar: Vec<Vec<Match>>,
}

pub fn relate(skills: &[Skill], taxonomy: &Taxonomy) -> Relations {
    let topics: Vec<Topics> = skills.par_iter().map(|s| taxonomy.classify(s)).collect();
    let inputs: Vec<similar::SimilarInput> = skills
        .iter()
        .zip(&topics)
        .map(|(skill, topics)| similar::SimilarInput {
            topics,
            text: std::iter::once(skill.name.replace(['-', '_'], " "))
                .chain(std::iter::once(skill.description.clone()))
                .chain(skill.analysis.digest.sections.iter().cloned())
                .chain(std::iter::once(skill.analysis.digest.title.clone()))
                .collect::<Vec<_>>()
                .join(" "),
            content_hash: text_hash(&skill.parsed.text),
        })
        .collect();
    let similar = similar::rank(&inputs, SIMILAR_PER_SKILL);
    Relations { topics, similar }
}

/// A hash of text with line endings normalised, so a CRLF copy is still a copy.
pub fn text_hash(text: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    for line in text.lines() {
        line.trim_end_matches('\r').hash(&mut hasher);
    }
    hasher.finish()
}
