//! The static search index: sharded so that a browser fetches only what a query needs.
//!
//! - `search/meta.json`: document count, shard size, and the filter values with counts;
//! - `search/docs/<n>.json`: the documents (title, repo, link, description...) `n*DOC_SHARD..`;
//! - `search/terms/<key>.json`: term -> [doc, weight, doc, weight...] for terms whose first two
//!   characters give `key` (see [`shard_key`]);
//! - `search/facets/<facet>/<value>.json`: the documents with that filter value.
//!
//! Documents are numbered in title order, so ties in the browser sort alphabetically.
//! `static/search.js` reads these files; keep the two in step.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;
use serde::Serialize;

use crate::FastMap;
use crate::error::Result;
use crate::hash::Hash;
use crate::model::Catalog;
use crate::relate::taxonomy::words;
use crate::write::SiteWriter;

use super::{facets, keys};

pub const DOC_SHARD: usize = 500;
/// As long as a card's description (`skill_cards` in cards.html): results are shown as cards.
const DESCRIPTION_CHARS: usize = 110;

#[derive(Serialize)]
struct Doc {
    /// Title.
    t: String,
    /// owner/repo.
    r: String,
    /// Page, relative to the site root.
    u: String,
    /// Description, shortened.
    d: String,
    /// Category names.
    c: Vec<String>,
    /// Licence label.
    l: String,
    /// Verdict label.
    v: String,
}

/// One value of a search filter, with how many skills have it.
#[derive(Debug, Clone, Serialize)]
pub struct FacetValue {
    pub id: String,
    pub name: String,
    pub count: usize,
}

/// Filter values per filter (`category`, `agent`, `license`, `verdict`), most used first.
pub type Facets = BTreeMap<&'static str, Vec<FacetValue>>;

#[derive(Serialize)]
struct Meta {
    docs: usize,
    doc_shard: usize,
    /// The term shards that exist: a word whose shard is not here matches nothing, and the
    /// page asks for no file that is not there.
    shards: Vec<String>,
    facets: Facets,
}

/// The file name of the term shard holding `term`: its first two characters, ASCII letters and
/// digits as they are, anything else as `_` and its code point in hex.
pub fn shard_key(term: &str) -> String {
    term.chars()
        .take(2)
        .map(|c| if c.is_ascii_lowercase() || c.is_ascii_digit() { c.to_string() } else { format!("_{:x}", c as u32) })
        .collect()
}

/// Search terms of a text: the same words the taxonomy reads, at least two characters long.
pub fn terms(text: &str) -> impl Iterator<Item = String> + '_ {
    words(text).flat_map(|w| {
        // `write_file` and `node.js` are found by their parts too.
        let parts: Vec<String> = if w.contains(['_', '.']) {
            std::iter::once(w.clone()).chain(w.split(['_', '.']).map(str::to_string)).collect()
        } else {
            vec![w]
        };
        parts.into_iter().filter(|p| p.chars().count() >= 2)
    })
}

/// What one skill adds to the index.
struct Entry {
    /// Its terms, each with the highest weight it has in the skill.
    terms: Vec<(String, u8)>,
    doc: Doc,
}

/// Everything the index's entry of one skill reads, and nothing else ([`entry`] sees only
/// these): [`index_key`] hashes them, so an edit that leaves them as they were (a body edit,
/// most often) keeps the index. Borrowed, so that hashing a large catalog's entries allocates
/// nothing.
#[derive(Serialize)]
struct EntryInputs<'a> {
    title: &'a str,
    name: &'a str,
    topics: &'a crate::relate::Topics,
    repo: &'a crate::discover::RepoId,
    slug: &'a str,
    description: &'a str,
    /// The programs its shell code calls: `python3` finds the skills that run it.
    commands: &'a [String],
    license: &'a str,
    /// The verdict's (id, label).
    verdict: (&'static str, &'static str),
}

fn entry_inputs(catalog: &Catalog, i: usize) -> EntryInputs<'_> {
    let skill = &catalog.skills[i];
    EntryInputs {
        title: &skill.analysis.digest.title,
        name: &skill.name,
        topics: &catalog.relations.topics[i],
        repo: &catalog.repos[skill.repo].id,
        slug: &skill.slug,
        description: &skill.description,
        commands: &skill.analysis.capabilities.commands,
        license: &skill.analysis.license.label,
        verdict: facets::verdict(skill),
    }
}

/// What a skill's filter values are made of beside its entry inputs: the agents it names and
/// its licence's facts. Skills that share these share their agent and licence values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize)]
struct FacetSource<'a> {
    compatibility: Option<&'a str>,
    spdx: Option<&'a str>,
    no_licence: bool,
    license: &'a str,
}

fn facet_source(catalog: &Catalog, i: usize) -> FacetSource<'_> {
    let skill = &catalog.skills[i];
    let license = &skill.analysis.license;
    FacetSource {
        compatibility: skill.compatibility.as_deref(),
        spdx: license.spdx.as_deref(),
        no_licence: license.origin == crate::analyze::license::LicenseOrigin::None,
        license: &license.label,
    }
}

/// The key of the whole index: every document's entry inputs and filter values' sources, in
/// document order. A body edit leaves it as it was.
fn index_key(catalog: &Catalog, order: &[usize], program: &Hash) -> Hash {
    // Each shard of documents streamed into its own key, in parallel; then those keys in order.
    let chunk_keys: Vec<Hash> = order
        .par_chunks(DOC_SHARD)
        .map(|docs| {
            let inputs = keys::Seq(|| docs.iter().map(|&i| (entry_inputs(catalog, i), facet_source(catalog, i))));
            crate::hash::of("search documents", &inputs)
        })
        .collect();
    crate::hash::of("search index", &(program, DOC_SHARD, order.len(), &chunk_keys))
}

/// A filter value: (value id, value label).
type FacetOf<'a> = (Cow<'a, str>, &'a str);

/// Per filter (`category`, `agent`, `license`, `verdict`): each value and its documents, in
/// document order, from the documents' entry inputs and facet sources, which the index's key
/// covers. Agent and licence values are worked out once per distinct source.
fn facet_docs<'a>(catalog: &'a Catalog, order: &[usize]) -> BTreeMap<&'static str, FastMap<FacetOf<'a>, Vec<u32>>> {
    let mut by_source: FastMap<FacetSource, Vec<u32>> = FastMap::default();
    let mut out: BTreeMap<&'static str, FastMap<FacetOf, Vec<u32>>> = BTreeMap::new();
    for (doc, &i) in order.iter().enumerate() {
        let doc = doc as u32;
        let inputs = entry_inputs(catalog, i);
        for c in &inputs.topics.categories {
            out.entry("category")
                .or_default()
                .entry((Cow::Borrowed(c.id.as_str()), c.name.as_str()))
                .or_default()
                .push(doc);
        }
        by_source.entry(facet_source(catalog, i)).or_default().push(doc);
        let (verdict_id, verdict_label) = inputs.verdict;
        out.entry("verdict").or_default().entry((Cow::Borrowed(verdict_id), verdict_label)).or_default().push(doc);
    }
    for (source, docs) in by_source {
        for agent in facets::agents_named(source.compatibility) {
            let name = crate::agents::AGENTS.agents.iter().find(|a| a.id == agent).map_or("", |a| a.name.as_str());
            out.entry("agent").or_default().entry((Cow::Borrowed(agent), name)).or_default().extend(&docs);
        }
        let license_id = crate::slug::slugify(&facets::license_id_of(source.spdx, source.no_licence));
        out.entry("license").or_default().entry((Cow::Owned(license_id), source.license)).or_default().extend(&docs);
    }
    // Sources were visited in no particular order: each value's documents back in order.
    for values in out.values_mut() {
        values.values_mut().for_each(|docs| docs.sort_unstable());
    }
    out
}

fn entry(inputs: EntryInputs) -> Entry {
    let mut weights: HashMap<String, u8> = HashMap::new();
    let mut add = |text: &str, weight: u8| {
        for term in terms(text) {
            let entry = weights.entry(term).or_default();
            *entry = (*entry).max(weight);
        }
    };
    let repo = inputs.repo.full();
    add(inputs.title, 3);
    add(&inputs.name.replace('-', " "), 3);
    add(inputs.name, 3);
    for tag in &inputs.topics.tags {
        add(tag, 2);
    }
    for topic in inputs.topics.categories.iter().chain(&inputs.topics.products) {
        add(&topic.name, 2);
    }
    add(&repo, 2);
    add(inputs.description, 1);
    for command in inputs.commands {
        add(command, 1);
    }
    Entry {
        terms: weights.into_iter().collect(),
        doc: Doc {
            t: inputs.title.to_string(),
            u: format!("{repo}/{}/", inputs.slug),
            r: repo,
            d: shorten(inputs.description, DESCRIPTION_CHARS),
            c: inputs.topics.categories.iter().map(|c| c.name.clone()).collect(),
            l: inputs.license.to_string(),
            v: inputs.verdict.1.to_string(),
        },
    }
}

/// Writes the index of the skills in `order` (title order), unless the published one was made
/// from the same inputs; returns the filter values, which the search page offers.
/// `program`: the identity of the running program, part of the index's key.
pub fn write_index(catalog: &Catalog, order: &[usize], program: &Hash, out: &SiteWriter) -> Result<Facets> {
    let (key, facet_docs) = rayon::join(|| index_key(catalog, order, program), || facet_docs(catalog, order));
    let mut meta = Meta { docs: order.len(), doc_shard: DOC_SHARD, shards: Vec::new(), facets: BTreeMap::new() };
    for (name, values) in &facet_docs {
        let mut list: Vec<FacetValue> = values
            .iter()
            .map(|((id, label), ids)| FacetValue { id: id.to_string(), name: label.to_string(), count: ids.len() })
            .collect();
        list.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)).then(a.id.cmp(&b.id)));
        meta.facets.insert(name, list);
    }
    if out.keep_group(key)? {
        return Ok(meta.facets);
    }

    // Each skill's part in parallel, then merged in document order, so that every posting list
    // is sorted by document.
    let entries: Vec<Entry> = order.par_iter().map(|&i| entry(entry_inputs(catalog, i))).collect();
    let mut docs = Vec::with_capacity(entries.len());
    let mut postings: HashMap<String, Vec<u32>> = HashMap::new();
    for (doc, entry) in entries.into_iter().enumerate() {
        let doc = doc as u32;
        for (term, weight) in entry.terms {
            postings.entry(term).or_default().extend([doc, u32::from(weight)]);
        }
        docs.push(entry.doc);
    }

    docs.par_chunks(DOC_SHARD).enumerate().try_for_each(|(n, chunk)| {
        out.write_in_group(&format!("search/docs/{n}.json"), key, &serde_json::to_vec(chunk).expect("docs serialise"))
    })?;
    let mut shards: BTreeMap<String, BTreeMap<&str, &Vec<u32>>> = BTreeMap::new();
    for (term, flat) in &postings {
        shards.entry(shard_key(term)).or_default().insert(term, flat);
    }
    meta.shards = shards.keys().cloned().collect();
    shards.par_iter().try_for_each(|(shard, terms)| {
        out.write_in_group(
            &format!("search/terms/{shard}.json"),
            key,
            &serde_json::to_vec(terms).expect("terms serialise"),
        )
    })?;
    for (name, values) in &facet_docs {
        for ((id, _), ids) in values {
            out.write_in_group(
                &format!("search/facets/{name}/{id}.json"),
                key,
                &serde_json::to_vec(ids).expect("ids serialise"),
            )?;
        }
    }
    out.write_in_group("search/meta.json", key, &serde_json::to_vec(&meta).expect("meta serialises"))?;
    Ok(meta.facets)
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map(|(head, _)| head).unwrap_or(&cut);
    format!("{}…", cut.trim_end_matches([',', '.', ';', ':']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_keys_are_safe_file_names() {
        assert_eq!(shard_key("python"), "py");
        assert_eq!(shard_key("c++"), "c_2b");
        assert_eq!(shard_key("été"), "_e9t");
        assert!(crate::write::checked_relative(&format!("search/terms/{}.json", shard_key("../x"))).is_ok());
    }

    #[test]
    fn terms_split_identifiers() {
        let t: Vec<String> = terms("Use write_file with Node.js a").collect();
        assert_eq!(t, ["use", "write_file", "write", "file", "with", "node.js", "node", "js"]);
    }
}
