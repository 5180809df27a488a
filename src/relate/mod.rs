//! Relate: facts about a skill that depend on the other skills of the catalog — topics (tags,
//! categories, products), the similar-skill ranking, and copies. Functions of the analyzed
//! catalog; no I/O.

pub mod copies;
pub mod similar;
pub mod taxonomy;
pub mod titles;

use std::borrow::Cow;
use std::hash::{Hash, Hasher};

use rayon::prelude::*;

pub use similar::Match;
pub use taxonomy::{Taxonomy, Topic, Topics};

/// Similar skills kept per skill: five for the compare table, one more for the cards.
pub const SIMILAR_PER_SKILL: usize = 6;
/// Skills of its own repository kept per skill: six for "more from the repository", after
/// those of them the similar skills already show.
pub const SAME_REPO_PER_SKILL: usize = 6 + SIMILAR_PER_SKILL;

#[derive(Debug, Clone, Default)]
pub struct Relations {
    /// Per skill, in catalog order.
    pub topics: Vec<Topics>,
    /// Per skill, best first.
    pub similar: Vec<Vec<Match>>,
    /// Per skill, the other skills of its repository, nearest first by the same measure.
    pub same_repo: Vec<Vec<usize>>,
    /// The key of everything the rankings read, for [`SimilarMemo`].
    pub similar_key: String,
    /// Skills whose ranking stopped on an internal error, by catalog index.
    pub faults: Vec<(usize, crate::fault::Fault)>,
}

/// A similar-skill ranking with the key of everything it read: a build whose key matches an
/// earlier build's reuses its ranking instead of ranking 60,000 skills again. Most edits change
/// a skill's body, which the ranking does not read.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct SimilarMemo {
    pub key: String,
    pub similar: Vec<Vec<Match>>,
    pub same_repo: Vec<Vec<usize>>,
}

/// What relating reads of one skill.
pub struct SkillFacts<'a> {
    /// As the taxonomy classified the skill on its own.
    pub topics: &'a Topics,
    pub name: &'a str,
    pub description: &'a str,
    /// Its digest's title.
    pub title: &'a str,
    /// SKILL.md's text hashed ([`text_hash`]): copies are never each other's similar skills.
    pub text_hash: u64,
    /// What the ranking reads of the skill, hashed ([`similar_digest`]).
    pub similar_digest: crate::hash::Hash,
    /// Its repository's number: the skills ranked for "more from the repository".
    pub repo: usize,
}

/// Topics (each skill's, as the taxonomy classified it when it was read, with names made one
/// per id across the catalog), the similar-skill ranking and each repository's skills ranked
/// for each other; the rankings are taken from `earlier` when what they read is unchanged. `sections` gives a skill's section headings
/// (its digest's body), which only ranking again reads.
pub fn relate(
    skills: &[SkillFacts],
    earlier: Option<SimilarMemo>,
    sections: &(dyn Fn(usize) -> Vec<String> + Sync),
) -> Relations {
    let mut topics: Vec<Topics> = skills.par_iter().map(|s| s.topics.clone()).collect();
    one_name_per_id(&mut topics);
    let read: Vec<Read> = skills.iter().map(|s| (s.similar_digest, s.text_hash, s.repo)).collect();
    let key = similar_key(&read, SIMILAR_PER_SKILL, SAME_REPO_PER_SKILL);
    let ranking = match earlier {
        Some(memo) if memo.key == key && memo.similar.len() == skills.len() && memo.same_repo.len() == skills.len() => {
            similar::Ranking { similar: memo.similar, same_repo: memo.same_repo, faults: Vec::new() }
        }
        _ => {
            let sections: Vec<Vec<String>> = (0..skills.len()).into_par_iter().map(sections).collect();
            let inputs: Vec<similar::SimilarInput> = skills
                .par_iter()
                .zip(&topics)
                .zip(&sections)
                .map(|((skill, topics), sections)| similar::SimilarInput {
                    topics,
                    text: similar_text(skill.name, skill.description, skill.title, sections),
                    content_hash: skill.text_hash,
                    repo: skill.repo,
                })
                .collect();
            similar::rank(&inputs, SIMILAR_PER_SKILL, SAME_REPO_PER_SKILL)
        }
    };
    Relations {
        topics,
        similar: ranking.similar,
        same_repo: ranking.same_repo,
        similar_key: key,
        faults: ranking.faults,
    }
}

/// The text the ranking reads of a skill, as parts: its name as words, its description, its
/// section headings and its title.
pub fn similar_text<'a>(name: &str, description: &'a str, title: &'a str, sections: &'a [String]) -> Vec<Cow<'a, str>> {
    std::iter::once(Cow::Owned(name.replace(['-', '_'], " ")))
        .chain(std::iter::once(Cow::Borrowed(description)))
        .chain(sections.iter().map(|s| Cow::Borrowed(s.as_str())))
        .chain(std::iter::once(Cow::Borrowed(title)))
        .collect()
}

/// A hash of everything [`similar::rank`] reads of one skill: its tags, its product and
/// category ids (as the taxonomy gave them; the ranking reads ids, never names) and
/// [`similar_text`]. Made when the skill is read and kept with it, so that a build checks the
/// ranking's key without walking every skill's text.
pub fn similar_digest(topics: &Topics, text: &[Cow<str>]) -> crate::hash::Hash {
    let mut hasher = crate::hash::Hasher::new();
    hasher.text("t").number(topics.tags.len() as u64);
    for tag in &topics.tags {
        hasher.text(tag);
    }
    for (kind, list) in [("p", &topics.products), ("c", &topics.categories)] {
        hasher.text(kind).number(list.len() as u64);
        for topic in list {
            hasher.text(&topic.id);
        }
    }
    hasher.number(text.len() as u64);
    for part in text {
        hasher.text(part);
    }
    hasher.hash()
}

/// What the rankings read of one skill: its [`similar_digest`], its text hash and its
/// repository's number.
type Read = (crate::hash::Hash, u64, usize);

/// Everything [`similar::rank`] reads, in order: each skill's [`similar_digest`], which
/// skills are copies of each other (from their text hashes; the partition, not the hashes: an
/// edit that leaves a skill unique leaves the ranking as it was) and each skill's repository.
fn similar_key(skills: &[Read], k: usize, same_repo_k: usize) -> String {
    // Each skill's copy class: the first skill with its content hash.
    let mut first_copy: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut hasher = crate::hash::Hasher::new();
    hasher.number(skills.len() as u64).number(k as u64).number(same_repo_k as u64);
    for (i, (digest, text_hash, repo)) in skills.iter().enumerate() {
        hasher.bytes(digest).number(*first_copy.entry(*text_hash).or_insert(i) as u64).number(*repo as u64);
    }
    hasher.finish()
}

/// Categories, products and tags that share a URL segment (declared as `Testing` by one skill and
/// `testing` by another) are one topic, named as the first skill in catalog order names it:
/// two names would be two pages written to one path, the second over the first.
fn one_name_per_id(topics: &mut [Topics]) {
    // The first name of each id, then only the topics named otherwise (or repeated in one
    // skill's list) are changed: a pass that cloned every id took 30 ms at 60,000 skills.
    let mut renamed: Vec<(usize, usize, usize, String)> = Vec::new();
    let mut repeated = false;
    for kind in 0..2 {
        fn list(skill: &Topics, kind: usize) -> &[Topic] {
            if kind == 0 { &skill.categories } else { &skill.products }
        }
        let mut first: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
        for (index, skill) in topics.iter().enumerate() {
            for (at, topic) in list(skill, kind).iter().enumerate() {
                let name = *first.entry(topic.id.as_str()).or_insert(topic.name.as_str());
                if name != topic.name {
                    renamed.push((index, kind, at, name.to_string()));
                }
                repeated |= list(skill, kind)[..at].iter().any(|earlier| earlier.id == topic.id);
            }
        }
    }
    // Tags likewise: `data science` and `data-science` have one page, `tags/data-science/`, so
    // they are one tag, written as the first skill in catalog order writes it. Each distinct tag
    // is made a slug once.
    let mut renamed_tags: Vec<(usize, usize, String)> = Vec::new();
    {
        let mut slug_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut numbers: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut first_written: Vec<&str> = Vec::new();
        for (index, skill) in topics.iter().enumerate() {
            for (at, tag) in skill.tags.iter().enumerate() {
                let slug = *slug_of.entry(tag.as_str()).or_insert_with(|| {
                    let next = first_written.len();
                    *numbers.entry(crate::slug::slugify(tag)).or_insert_with(|| {
                        first_written.push(tag.as_str());
                        next
                    })
                });
                if first_written[slug] != tag {
                    renamed_tags.push((index, at, first_written[slug].to_string()));
                }
                repeated |= skill.tags[..at].iter().any(|earlier| slug_of.get(earlier.as_str()) == Some(&slug));
            }
        }
    }
    for (index, kind, at, name) in renamed {
        let skill = &mut topics[index];
        let list = if kind == 0 { &mut skill.categories } else { &mut skill.products };
        list[at].name = name;
    }
    for (index, at, tag) in renamed_tags {
        topics[index].tags[at] = tag;
    }
    if repeated {
        for skill in topics.iter_mut() {
            for list in [&mut skill.categories, &mut skill.products] {
                let mut seen = std::collections::HashSet::new();
                list.retain(|topic| seen.insert(topic.id.clone()));
            }
            let mut seen = std::collections::HashSet::new();
            skill.tags.retain(|tag| seen.insert(tag.clone()));
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
    fn the_ranking_key_follows_what_the_ranking_reads() {
        let tagged = Topics { tags: vec!["pdf".into()], ..Default::default() };
        let plain = Topics::default();
        fn input(topics: &Topics, text: &str, text_hash: u64) -> Read {
            (similar_digest(topics, &[text.into()]), text_hash, 0)
        }
        let key = |skills: &[Read]| similar_key(skills, SIMILAR_PER_SKILL, SAME_REPO_PER_SKILL);
        let base = key(&[input(&tagged, "read pdf files", 1), input(&plain, "send mail", 2)]);
        assert_eq!(base, key(&[input(&tagged, "read pdf files", 1), input(&plain, "send mail", 2)]));
        // A body edit changes the content hash but leaves every skill unique: same key.
        assert_eq!(base, key(&[input(&tagged, "read pdf files", 7), input(&plain, "send mail", 2)]));
        // Two skills that become copies of each other, new text, new topics: new keys.
        assert_ne!(base, key(&[input(&tagged, "read pdf files", 2), input(&plain, "send mail", 2)]));
        assert_ne!(base, key(&[input(&tagged, "read pdf pages", 1), input(&plain, "send mail", 2)]));
        assert_ne!(base, key(&[input(&plain, "read pdf files", 1), input(&plain, "send mail", 2)]));
        assert_ne!(base, key(&[input(&plain, "send mail", 2), input(&tagged, "read pdf files", 1)]));
        // A skill in another repository: the same similar skills, not the same repository's.
        let moved = (input(&plain, "send mail", 2).0, 2, 1);
        assert_ne!(base, key(&[input(&tagged, "read pdf files", 1), moved]));
        // The ranking reads topic ids, never names.
        let named = |name| Topics { categories: vec![topic("documents", name)], ..Default::default() };
        assert_eq!(input(&named("Documents"), "x", 1), input(&named("Docs"), "x", 1));
        assert_ne!(input(&named("Documents"), "x", 1), input(&plain, "x", 1));
    }

    #[test]
    fn the_nearest_skill_of_its_repository_comes_first() {
        let pdf = Topics { tags: vec!["pdf".into()], ..Default::default() };
        let plain = Topics::default();
        // (topics, name, description, repository)
        let skills = [
            (&pdf, "read-pdf", "Reads PDF files and extracts their tables.", 0),
            (&plain, "send-mail", "Sends mail through SMTP.", 0),
            (&plain, "zip-folders", "Packs files into zip archives.", 0),
            (&pdf, "fill-pdf-forms", "Fills the fields of PDF forms.", 0),
            (&pdf, "pdf-tables", "Reads PDF files and extracts their tables.", 1),
        ];
        let facts: Vec<SkillFacts> = skills
            .iter()
            .enumerate()
            .map(|(i, &(topics, name, description, repo))| SkillFacts {
                topics,
                name,
                description,
                title: name,
                text_hash: i as u64,
                similar_digest: similar_digest(topics, &[]),
                repo,
            })
            .collect();
        let relations = relate(&facts, None, &|_| Vec::new());
        let nearest = |i: usize| relations.same_repo[i].clone();
        // The one sharing a tag, then the one sharing a word, then the rest: never another
        // repository's, however alike.
        assert_eq!(nearest(0), [3, 2, 1]);
        assert_eq!(nearest(1), [0, 2, 3], "nothing in common: catalog order");
        assert!(nearest(4).is_empty());
        assert_eq!(relations.similar[0][0].index, 4, "the catalog's ranking still looks everywhere");
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

    #[test]
    fn tags_with_one_page_are_one_tag() {
        let tags = |tags: &[&str]| Topics { tags: tags.iter().map(|t| t.to_string()).collect(), ..Default::default() };
        let mut topics = vec![tags(&["data science", "x"]), tags(&["data-science", "y", "data science"]), tags(&["x"])];
        one_name_per_id(&mut topics);
        assert_eq!(topics[0].tags, ["data science", "x"]);
        assert_eq!(topics[1].tags, ["data science", "y"], "renamed as first written, then one of each");
        assert_eq!(topics[2].tags, ["x"]);
    }
}
