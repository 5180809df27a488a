//! A skill page's input: all `skill_page::skill_page` reads, gathered from the catalog before
//! the page is made. The page sees nothing else, and its render key is this input hashed
//! ([`crate::hash::of`]), so that what the page reads and what its key covers are one list.

use serde::{Serialize, Serializer};

use crate::error::Result;
use crate::model::{Catalog, Repo, Skill, SkillPageFacts};
use crate::relate::Topics;
use crate::relate::similar::Match;

use super::SkillTexts;
use super::charts::TokenScale;
use super::context::{EditorsCtx, SiteCtx};
use super::keys::{FactKeys, Keyed};
use super::shown::{Shown, ShownOf};
use super::topics::{TopicIndex, TopicKind};

/// How many cards "More from <repo>" shows.
const MORE_FROM_REPO: usize = 3;
/// How many similar skills a page compares itself with.
const SIMILAR_SHOWN: usize = 4;

/// What every page's frame is made of: the site's context as the root page has it, and the
/// base URL that a page's canonical address is made from.
#[derive(Serialize)]
pub struct Frame {
    pub site: SiteCtx,
    pub base_url: String,
}

impl Frame {
    /// The site's context on the page at `dir` (a folder from the site root) whose canonical
    /// address is `canonical` (its own folder, or the page it copies).
    pub fn site_at(&self, dir: &str, canonical: &str) -> SiteCtx {
        SiteCtx {
            root: super::urls::path_to_root(dir),
            dir: dir.to_string(),
            canonical: super::urls::canonical(&self.base_url, canonical),
            ..self.site.clone()
        }
    }
}

/// Everything skill `index`'s page reads.
#[derive(Serialize)]
pub struct SkillPageInput<'a> {
    pub frame: Keyed<'a, Frame>,
    pub skill: Keyed<'a, Skill>,
    pub repo: Keyed<'a, Repo>,
    pub text: SkillMdText<'a>,
    /// The most bytes of SKILL.md's body the page shows; `None`: all of it.
    pub text_limit: Option<usize>,
    pub page_facts: PageFacts<'a>,
    /// The copy first seen, when the skill has identical copies.
    pub canonical: Option<CanonicalCopy>,
    /// The skill's own card and row.
    pub this: ShownOf<'a>,
    /// "More from the repository", nearest first ([`more_from_repo`]).
    pub more_from_repo: ShownList<'a, Vec<usize>>,
    /// Its similar skills, best first.
    pub similar: ShownList<'a, &'a [Match]>,
    /// The topics it links, in order.
    pub topics: LinkedTopics<'a>,
    pub tokens: TokenPlace,
    /// The editors' notes and the owner's badge, from the catalog's data files.
    pub editors: Option<EditorsCtx>,
    /// The archive of the skill's folder published beside its page (`slug.tar.gz`), if one is.
    pub archive: Option<String>,
}

/// SKILL.md's text. It stands in the key as the key it was read under (`SkillTexts::source_key`):
/// the text is a function of the skill's files and of what they were read with, which that key
/// hashes. Hashing the text itself would read every skill's text on every build.
pub struct SkillMdText<'a> {
    texts: &'a dyn SkillTexts,
    index: usize,
}

impl SkillMdText<'_> {
    pub fn read(&self) -> Result<std::borrow::Cow<'_, str>> {
        self.texts.text(self.index)
    }
}

impl Serialize for SkillMdText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.texts.source_key(self.index))
    }
}

/// The facts only the skill's page reads, keyed as the hash of the bytes they are stored as
/// (made when they were stored: hashing every skill's again would cost more than the rest of
/// a one-skill rebuild's keys), and decoded when the page is made.
pub struct PageFacts<'a> {
    texts: &'a dyn SkillTexts,
    index: usize,
}

impl PageFacts<'_> {
    pub fn decode(&self) -> Result<SkillPageFacts> {
        self.texts.page_facts(self.index)
    }
}

impl Serialize for PageFacts<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.texts.page_facts_key(self.index))
    }
}

/// The copy of a skill first seen, as a copy's page names and links it.
#[derive(Serialize)]
pub struct CanonicalCopy {
    /// Whether it is the skill itself.
    pub is_self: bool,
    /// Its page, from the site root.
    pub address: String,
    /// `owner/name` of its repository.
    pub repo: String,
    /// Its folder in the repository.
    pub folder: String,
}

/// A topic a skill page links: its kind, its name, and the id of its page when it has one.
#[derive(Serialize)]
pub struct LinkedTopic<'a> {
    pub kind: TopicKind,
    pub name: &'a str,
    pub page: Option<&'a str>,
}

/// Where a skill's token cost falls among the catalog's, as its page shows it: the bins'
/// shares, and the share below it. The same after most changes to other skills.
#[derive(Serialize)]
pub struct TokenPlace {
    /// Whether it is the only skill of the catalog.
    pub only_one: bool,
    /// The shares of skills that cost fewer and more tokens, in whole percent: what changes
    /// with other skills seldom, so that their edits seldom make this page again.
    pub below: usize,
    pub above: usize,
}

impl TokenPlace {
    pub fn new(scale: &TokenScale, tokens: usize) -> TokenPlace {
        TokenPlace { only_one: scale.len() <= 1, below: scale.below(tokens), above: scale.above(tokens) }
    }
}

/// What skill pages' inputs are gathered from, once per build.
pub struct Sources<'a> {
    pub catalog: &'a Catalog,
    pub facts: &'a FactKeys<'a>,
    pub frame: Keyed<'a, Frame>,
    pub shown: &'a Shown<'a>,
    pub topic_index: &'a TopicIndex,
    pub token_scale: &'a TokenScale,
    pub texts: &'a dyn SkillTexts,
    pub text_limit: Option<usize>,
    /// Whether the discovery index, with its archives of skill folders, is published.
    pub archives: bool,
}

impl<'a> Sources<'a> {
    /// Skill `index`'s page input.
    pub fn skill_page(&self, index: usize) -> SkillPageInput<'a> {
        let catalog = self.catalog;
        let (skill, repo) = self.facts.skill(index);
        let canonical = skill.copies.canonical.map(|first| {
            let copy = &catalog.skills[first];
            let copy_repo = &catalog.repos[copy.repo];
            CanonicalCopy {
                is_self: first == index,
                address: copy.url_path(copy_repo),
                repo: copy_repo.id.full(),
                folder: copy.dir.rel_dir.clone(),
            }
        });
        SkillPageInput {
            frame: self.frame,
            skill,
            repo,
            text: SkillMdText { texts: self.texts, index },
            text_limit: self.text_limit,
            page_facts: PageFacts { texts: self.texts, index },
            canonical,
            this: self.shown.of(index),
            more_from_repo: ShownList { shown: self.shown, items: more_from_repo(catalog, index) },
            similar: ShownList { shown: self.shown, items: shown_similar(catalog, index) },
            topics: LinkedTopics { topics: &catalog.relations.topics[index], topic_index: self.topic_index },
            tokens: TokenPlace::new(self.token_scale, skill.analysis.cost.tokens),
            editors: editors(catalog, index),
            archive: (self.archives
                && crate::skill_index::artifact_type(&catalog.skills[index])
                    == Some(crate::skill_index::ArtifactType::Archive))
            .then(|| format!("{}.tar.gz", catalog.skills[index].slug)),
        }
    }
}

/// The similar skills a page shows and the API lists, best first.
pub fn shown_similar(catalog: &Catalog, index: usize) -> &[crate::relate::similar::Match] {
    let similar = &catalog.relations.similar[index];
    similar.get(..SIMILAR_SHOWN).unwrap_or(similar)
}

/// The other skills of the skill's repository shown under "More from", nearest first (the
/// repository's own ranking by the similar skills' measure, `relate`'s): those the similar
/// skills already show are left out, so that no card is on the page twice.
fn more_from_repo(catalog: &Catalog, index: usize) -> Vec<usize> {
    let similar = shown_similar(catalog, index);
    catalog.relations.same_repo[index]
        .iter()
        .copied()
        .filter(|&j| similar.iter().all(|m| m.index != j))
        .take(MORE_FROM_REPO)
        .collect()
}

/// The topics a skill page links, in order: its tags, then its categories, then its products.
/// A tag is named by itself, and its page is its slug's ([`super::topics::tag_topic`]).
/// Serialized as the list [`LinkedTopics::iter`] gives, without gathering it.
#[derive(Clone, Copy)]
pub struct LinkedTopics<'a> {
    topics: &'a Topics,
    topic_index: &'a TopicIndex,
}

impl<'a> LinkedTopics<'a> {
    pub fn iter(&self) -> impl Iterator<Item = LinkedTopic<'a>> + use<'a> {
        let (topics, topic_index) = (self.topics, self.topic_index);
        let tags = topics.tags.iter().map(move |tag| LinkedTopic {
            kind: TopicKind::Tag,
            name: tag,
            page: topic_index.tag_page(tag),
        });
        let listed = move |kind: TopicKind| {
            move |topic: &'a crate::relate::Topic| LinkedTopic {
                kind,
                name: &topic.name,
                page: topic_index.of(kind).contains_key(topic).then_some(topic.id.as_str()),
            }
        };
        tags.chain(topics.categories.iter().map(listed(TopicKind::Category)))
            .chain(topics.products.iter().map(listed(TopicKind::Product)))
    }
}

impl Serialize for LinkedTopics<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Other skills as a page shows them, in order: each stands in the page's input as the key of
/// its card and row ([`ShownOf`]). `items` names them without a list of their own.
pub struct ShownList<'a, T> {
    shown: &'a Shown<'a>,
    items: T,
}

/// The other skills a [`ShownList`] names, in order.
pub trait SkillIndices {
    fn count(&self) -> usize;
    fn at(&self, position: usize) -> usize;
}

impl SkillIndices for Vec<usize> {
    fn count(&self) -> usize {
        self.len()
    }
    fn at(&self, position: usize) -> usize {
        self[position]
    }
}

impl SkillIndices for &[Match] {
    fn count(&self) -> usize {
        self.len()
    }
    fn at(&self, position: usize) -> usize {
        self[position].index
    }
}

impl<'a, T: SkillIndices> ShownList<'a, T> {
    pub fn iter(&self) -> impl Iterator<Item = ShownOf<'a>> + '_ {
        (0..self.items.count()).map(|position| self.shown.of(self.items.at(position)))
    }
}

impl<T: SkillIndices> Serialize for ShownList<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// The editors' notes on skill `index` and its owner's badge, when there are any.
fn editors(catalog: &Catalog, index: usize) -> Option<EditorsCtx> {
    let skill = &catalog.skills[index];
    let repo = &catalog.repos[skill.repo];
    let notes = catalog.editorial.notes(&repo.id.full(), &skill.slug).cloned();
    let badge = catalog.editorial.badge(&repo.id.owner).map(str::to_string);
    (notes.is_some() || badge.is_some()).then(|| EditorsCtx { badge, notes: notes.unwrap_or_default() })
}
