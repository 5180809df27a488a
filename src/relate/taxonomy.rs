//! Tags, categories and "works with" products of a skill: from its frontmatter first, then
//! inferred from its words through the taxonomy data table (`data/taxonomy.toml`).

use std::collections::{BTreeMap, HashSet};

use serde::Deserialize;

use crate::parse::frontmatter::value_text;
use crate::slug::slugify;
use crate::{FastMap, FastSet};

/// Tags kept per skill: frontmatter lists can be long and noisy.
const MAX_TAGS: usize = 12;

#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Taxonomy {
    #[serde(default = "default_min_hits")]
    pub min_hits: usize,
    pub categories: Vec<TopicDef>,
    pub products: Vec<TopicDef>,
    /// Every keyword of every topic, as [`WordSet`] looks them up.
    #[serde(skip)]
    keywords: Keywords,
}

/// The keywords, left out of `Debug` and of the serialized taxonomy (which keys every skill):
/// they are made from the topics, and a hash map's order changes from run to run.
#[derive(Clone, Default)]
struct Keywords {
    /// Each keyword, to the topics that list it.
    uses: FastMap<String, KeywordUse>,
    /// The first words of keywords of two and three words: only a phrase that starts with one
    /// is looked up.
    heads: FastSet<String>,
}

/// The categories and products (by their index) that list one keyword, once per listing.
#[derive(Clone, Default)]
struct KeywordUse {
    categories: Vec<usize>,
    products: Vec<usize>,
}

impl std::fmt::Debug for Keywords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Keywords({} from the topics)", self.uses.len())
    }
}

fn default_min_hits() -> usize {
    2
}

#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TopicDef {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub commands: Vec<String>,
}

/// A category or product as pages show it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Topic {
    /// URL segment.
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Topics {
    /// Lower-case tags from the frontmatter.
    pub tags: Vec<String>,
    pub categories: Vec<Topic>,
    pub products: Vec<Topic>,
}

pub const EMBEDDED: &str = include_str!("../../data/taxonomy.toml");

impl Taxonomy {
    pub fn embedded() -> Taxonomy {
        Self::parse(EMBEDDED).expect("data/taxonomy.toml is valid")
    }

    pub fn parse(text: &str) -> Result<Taxonomy, toml::de::Error> {
        let mut taxonomy: Taxonomy = toml::from_str(text)?;
        // Keywords in the form `WordSet` holds phrases, so that each lookup is one hash probe
        // (tokenising every keyword for every skill was a tenth of reading a skill).
        for def in taxonomy.categories.iter_mut().chain(taxonomy.products.iter_mut()) {
            for keyword in &mut def.keywords {
                *keyword = words(keyword).collect::<Vec<_>>().join(" ");
            }
        }
        let keywords = &mut taxonomy.keywords;
        for (index, def) in taxonomy.categories.iter().enumerate() {
            for keyword in &def.keywords {
                keywords.uses.entry(keyword.clone()).or_default().categories.push(index);
            }
        }
        for (index, def) in taxonomy.products.iter().enumerate() {
            for keyword in &def.keywords {
                keywords.uses.entry(keyword.clone()).or_default().products.push(index);
            }
        }
        for keyword in keywords.uses.keys() {
            if let Some((head, _)) = keyword.split_once(' ') {
                keywords.heads.insert(head.to_string());
            }
        }
        Ok(taxonomy)
    }

    /// A skill's topics, from what the taxonomy reads of it: its frontmatter, name, description
    /// and analysis (headings, steps, commands).
    pub fn classify(
        &self,
        fm: &crate::parse::frontmatter::Frontmatter,
        name: &str,
        description: &str,
        analysis: &crate::analyze::Analysis,
        body: &crate::analyze::DigestBody,
    ) -> Topics {
        let mut tags: Vec<String> = Vec::new();
        for value in frontmatter_values(fm, &["tags", "keywords", "topics"]) {
            for tag in value.split(',') {
                let tag = tag.trim().trim_start_matches('#').to_lowercase();
                if !tag.is_empty() && tag.len() <= 40 && !tags.contains(&tag) && tags.len() < MAX_TAGS {
                    tags.push(tag);
                }
            }
        }

        let words = WordSet::new(
            &self.keywords,
            [fm.name.as_deref().unwrap_or(""), &name.replace(['-', '_'], " "), description]
                .into_iter()
                .chain(body.sections.iter().map(String::as_str))
                .chain(body.steps.iter().map(String::as_str))
                .chain(tags.iter().map(String::as_str)),
        );

        let mut categories = Vec::new();
        for declared in frontmatter_values(fm, &["category", "categories"]) {
            let topic = self.category_named(&declared).unwrap_or_else(|| declared_category(&declared));
            if !categories.contains(&topic) {
                categories.push(topic);
            }
        }
        // Each category's keywords found, counted once per keyword it lists.
        let mut hits = vec![0usize; self.categories.len()];
        let mut named_products = vec![false; self.products.len()];
        for uses in words.found.values() {
            uses.categories.iter().for_each(|&c| hits[c] += 1);
            uses.products.iter().for_each(|&p| named_products[p] = true);
        }
        if categories.is_empty() {
            let mut best: Vec<(usize, &TopicDef)> =
                hits.iter().copied().zip(&self.categories).filter(|(hits, _)| *hits >= self.min_hits).collect();
            best.sort_by_key(|b| std::cmp::Reverse(b.0));
            if let Some(&(top, _)) = best.first() {
                categories = best.iter().take_while(|(hits, _)| *hits == top).take(2).map(|(_, c)| topic(c)).collect();
            }
        }

        let commands: HashSet<&str> = analysis.capabilities.commands.iter().map(String::as_str).collect();
        let products = self
            .products
            .iter()
            .zip(named_products)
            .filter(|(p, named)| *named || p.commands.iter().any(|c| commands.contains(c.as_str())))
            .map(|(p, _)| topic(p))
            .collect();

        Topics { tags, categories, products }
    }

    /// The taxonomy's category that `name` names by its id, name or an alias, written with
    /// spaces or as an identifier (`data_analysis`, `data-analysis`, "Data analysis").
    fn category_named(&self, name: &str) -> Option<Topic> {
        let wanted = spaced(name);
        self.categories
            .iter()
            .find(|c| {
                spaced(&c.id) == wanted || spaced(&c.name) == wanted || c.aliases.iter().any(|a| spaced(a) == wanted)
            })
            .map(topic)
    }
}

/// Lower case, `_` and `-` read as spaces, runs of spaces as one.
fn spaced(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A category the frontmatter declares that the taxonomy does not hold. Pages show categories
/// by name, so an identifier is made one (`tool_guide` is "Tool guide"); a value with spaces or
/// capitals is a name already and is kept as written. Its page is found at its name's slug.
fn declared_category(declared: &str) -> Topic {
    let declared = declared.trim();
    let identifier = !declared.contains(char::is_whitespace) && !declared.contains(char::is_uppercase);
    let name = if identifier {
        let words = spaced(declared);
        let mut chars = words.chars();
        chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
    } else {
        declared.to_string()
    };
    Topic { id: slugify(&name), name }
}

fn topic(def: &TopicDef) -> Topic {
    Topic { id: def.id.clone(), name: def.name.clone() }
}

/// Values under the given keys in `metadata` or at the top level, lists flattened.
fn frontmatter_values(fm: &crate::parse::frontmatter::Frontmatter, keys: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for key in keys {
        for value in [fm.metadata.get(*key), fm.extra.get(*key)].into_iter().flatten() {
            match value {
                serde_json::Value::Array(items) => out.extend(items.iter().filter_map(value_text)),
                other => out.extend(value_text(other)),
            }
        }
    }
    out.retain(|v| !v.trim().is_empty());
    out
}

/// The taxonomy keywords among the words of a text and its two- and three-word phrases, for
/// whole-word keyword lookups. Only keywords are kept: a skill has thousands of phrases and
/// the taxonomy a few hundred keywords.
struct WordSet<'t> {
    found: FastMap<&'t str, &'t KeywordUse>,
}

impl<'t> WordSet<'t> {
    fn new<'a>(keywords: &'t Keywords, texts: impl Iterator<Item = &'a str>) -> WordSet<'t> {
        let mut found = FastMap::default();
        let mut phrase = String::new();
        for text in texts {
            let words: Vec<String> = words(text).collect();
            for (at, word) in words.iter().enumerate() {
                let longest = if keywords.heads.contains(word) { 3 } else { 1 };
                for len in 1..=longest.min(words.len() - at) {
                    phrase.clear();
                    for (i, word) in words[at..at + len].iter().enumerate() {
                        if i > 0 {
                            phrase.push(' ');
                        }
                        phrase.push_str(word);
                    }
                    if let Some((keyword, uses)) = keywords.uses.get_key_value(phrase.as_str()) {
                        found.insert(keyword.as_str(), uses);
                    }
                }
            }
        }
        WordSet { found }
    }

    /// Whether the texts hold `phrase`, a taxonomy keyword: words as [`words`] gives them,
    /// joined by one space.
    #[cfg(test)]
    fn contains(&self, phrase: &str) -> bool {
        self.found.contains_key(phrase)
    }
}

/// Lower-case words: letters, digits and the `.`, `+`, `#` inside names like node.js or c++.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '+' || c == '#' || c == '_'))
        .map(|w| w.trim_matches('.').to_lowercase())
        .filter(|w| !w.is_empty())
}

/// Topics grouped: topic -> skill indices, sorted by topic name.
pub fn group<'a>(items: impl Iterator<Item = (usize, &'a Topic)>) -> BTreeMap<Topic, Vec<usize>> {
    let mut groups: BTreeMap<Topic, Vec<usize>> = BTreeMap::new();
    for (index, topic) in items {
        groups.entry(topic.clone()).or_default().push(index);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_taxonomy_is_valid_and_ids_are_url_safe() {
        let t = Taxonomy::embedded();
        assert!(t.categories.len() >= 10);
        for def in t.categories.iter().chain(&t.products) {
            assert_eq!(slugify(&def.id), def.id, "id {:?} is not a URL segment", def.id);
        }
    }

    #[test]
    fn whole_word_phrases() {
        let t = Taxonomy::parse(
            "products = []\n[[categories]]\nid = \"x\"\nname = \"X\"\nkeywords = [\"docker compose\", \"node.js\", \
             \"compose stacks with node.js\", \"dock\", \"stacks with node.js\", \"kafka\"]\n",
        )
        .unwrap();
        let set = WordSet::new(&t.keywords, ["Run Docker Compose stacks with node.js"].into_iter());
        assert!(set.contains("docker compose"));
        assert!(set.contains("node.js"));
        assert!(set.contains("stacks with node.js"));
        // Phrases of four words and more are not looked up; parts of words never match.
        assert!(!set.contains("compose stacks with node.js"));
        assert!(!set.contains("dock"));
        assert!(!set.contains("kafka"));
        // Keywords are put in that form when the taxonomy is read.
        let t = Taxonomy::parse(
            "products = []\n[[categories]]\nid = \"x\"\nname = \"X\"\nkeywords = [\"Node.js  Tools\"]\n",
        )
        .unwrap();
        assert_eq!(t.categories[0].keywords, ["node.js tools"]);
    }

    #[test]
    fn declared_categories_are_shown_by_name_never_by_identifier() {
        let t = Taxonomy::embedded();
        assert_eq!(t.category_named("code_review").map(|c| c.name), Some("Code Quality & Review".to_string()));
        assert_eq!(t.category_named("Code  Review").map(|c| c.id), Some("code-review".to_string()));
        let guide = t.category_named("tool_guide").unwrap_or_else(|| declared_category("tool_guide"));
        assert_eq!(guide, Topic { id: "tool-guide".into(), name: "Tool guide".into() });
        assert_eq!(declared_category("tool-guide"), guide);
        assert_eq!(declared_category("Developer Tooling").name, "Developer Tooling");
        assert_eq!(declared_category(" security_audits ").name, "Security audits");
    }

    #[test]
    fn two_readings_of_a_taxonomy_print_the_same() {
        // Skills' cache keys hash this text: a difference would read every skill again.
        assert_eq!(format!("{:?}", Taxonomy::embedded()), format!("{:?}", Taxonomy::embedded()));
    }
}
