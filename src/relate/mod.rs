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
    let mut topics: Vec<Topics> = skills.par_iter().map(|s| taxonomy.classify(s)).collect();
    one_name_per_id(&mut topics);
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

/// Categories and products that share a URL segment (declared as `Testing` by one skill and
/// `testing` by another) are one topic, named as the first skill in catalog order names it:
/// two names would be two pages written to one path, the second over the first.
fn one_name_per_id(topics: &mut [Topics]) {
    let mut names: [std::collections::HashMap<String, String>; 2] = Default::default();
    for skill in topics.iter_mut() {
        for (list, names) in [&mut skill.categories, &mut skill.products].into_iter().zip(names.iter_mut()) {
            for topic in list.iter_mut() {
                topic.name.clone_from(names.entry(topic.id.clone()).or_insert_with(|| topic.name.clone()));
            }
            let mut seen = std::collections::HashSet::new();
            list.retain(|topic| seen.insert(topic.id.clone()));
        }
    }
}

/// A hash of text with line endings normalised, so a CRLF copy is still a copy.
pub fn text_hash(text: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    for line in text.lines() {
        line.trim_end_matches('\r').hash(&mut hasher);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic(id: &str, name: &str) -> Topic {
        Topic { id: id.into(), name: name.into() }
    }

    #[test]
    fn topics_sharing_an_id_take_the_first_name() {
        let mut topics = vec![
            Topics { categories: vec![topic("testing", "Testing")], ..Default::default() },
            Topics { categories: vec![topic("testing", "testing"), topic("testing", "TESTING")], ..Default::default() },
            Topics { products: vec![topic("testing", "a product")], ..Default::default() },
        ];
        one_name_per_id(&mut topics);
        assert_eq!(topics[1].categories, [topic("testing", "Testing")]);
        assert_eq!(topics[2].products, [topic("testing", "a product")], "products are named apart");
    }
}
