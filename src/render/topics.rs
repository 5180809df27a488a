//! Which topic pages exist and what they list: computed once per build from the relations, read
//! by every page that links to a category, tag or product.

use std::collections::BTreeMap;

use crate::FastMap;
use crate::model::Catalog;
use crate::relate::Topic;
use crate::slug::slugify;

/// A tag gets its own page only when this many skills share it; rarer tags are shown unlinked
/// (search finds their skills): two-skill tags were 40% of the tag pages.
pub const MIN_SKILLS_PER_TAG_PAGE: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum TopicKind {
    Category,
    Tag,
    Product,
}

impl TopicKind {
    /// The folder of the kind's pages.
    pub fn dir(self) -> &'static str {
        match self {
            TopicKind::Category => "categories",
            TopicKind::Tag => "tags",
            TopicKind::Product => "works-with",
        }
    }

    /// The site path of the page of the topic with `id`.
    pub fn page_dir(self, id: &str) -> String {
        format!("{}/{id}/", self.dir())
    }

    pub fn plural(self) -> &'static str {
        match self {
            TopicKind::Category => "Categories",
            TopicKind::Tag => "Tags",
            TopicKind::Product => "Works with",
        }
    }
}

#[derive(Debug, Default)]
pub struct TopicIndex {
    pub categories: BTreeMap<Topic, Vec<usize>>,
    pub tags: BTreeMap<Topic, Vec<usize>>,
    pub products: BTreeMap<Topic, Vec<usize>>,
    /// Every tag of a skill, and the id of its page when it has one: a skill page's key reads
    /// each of its tags, and this is looked up without making the tag a topic each time.
    tag_pages: FastMap<String, Option<String>>,
}

impl TopicIndex {
    pub fn new(catalog: &Catalog) -> TopicIndex {
        // Gathered by borrowed name first: a topic is cloned, and a tag made a slug, once per
        // distinct topic rather than once per skill (30 ms at 60,000 skills before).
        let mut categories: FastMap<&Topic, Vec<usize>> = Default::default();
        let mut products: FastMap<&Topic, Vec<usize>> = Default::default();
        let mut tags: FastMap<&str, Vec<usize>> = Default::default();
        for (i, topics) in catalog.relations.topics.iter().enumerate() {
            for c in &topics.categories {
                categories.entry(c).or_default().push(i);
            }
            for p in &topics.products {
                products.entry(p).or_default().push(i);
            }
            for t in &topics.tags {
                tags.entry(t).or_default().push(i);
            }
        }
        let owned = |map: FastMap<&Topic, Vec<usize>>| -> BTreeMap<Topic, Vec<usize>> {
            map.into_iter().map(|(topic, skills)| (topic.clone(), skills)).collect()
        };
        let mut index = TopicIndex {
            categories: owned(categories),
            products: owned(products),
            tags: BTreeMap::new(),
            tag_pages: FastMap::default(),
        };
        for (tag, skills) in tags {
            let topic = tag_topic(tag);
            let has_page = skills.len() >= MIN_SKILLS_PER_TAG_PAGE;
            index.tag_pages.insert(tag.to_string(), has_page.then(|| topic.id.clone()));
            if has_page {
                index.tags.insert(topic, skills);
            }
        }
        index
    }

    pub fn of(&self, kind: TopicKind) -> &BTreeMap<Topic, Vec<usize>> {
        match kind {
            TopicKind::Category => &self.categories,
            TopicKind::Tag => &self.tags,
            TopicKind::Product => &self.products,
        }
    }

    /// The id of a skill's tag's page ([`tag_topic`]), if it has one.
    pub fn tag_page(&self, tag: &str) -> Option<&str> {
        self.tag_pages.get(tag).and_then(|id| id.as_deref())
    }
}

/// A tag as a topic: its slug is the URL segment.
pub fn tag_topic(tag: &str) -> Topic {
    Topic { id: slugify(tag), name: tag.to_string() }
}
