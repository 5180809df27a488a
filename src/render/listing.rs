//! Listing pages that work without JavaScript: all skills, categories, tags and products
//! (paginated), all repositories, and the home page.

use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::Result;
use crate::model::Catalog;
use crate::write::SiteWriter;

use super::context::*;
use super::keys::{Keyed, Seq};
use super::page_input::Frame;
use super::shown::Shown;
use super::topics::{TopicIndex, TopicKind};
use super::urls::{compact_count, path_to_root};
use super::{Renderer, SiteFn};

/// Skills per listing page.
pub const PAGE_SIZE: usize = 48;
/// Page links on each side of the current page.
const PAGE_WINDOW: usize = 2;
/// Skills in each list of the home page.
const HOME_LIST: usize = 6;
/// Lists on the home page.
const HOME_LISTS: usize = 2;

/// `skills/`, `skills/page/2/`...: the folder of page `n` (1-based) of a listing at `base`.
pub fn page_dir(base: &str, n: usize) -> String {
    if n <= 1 { base.to_string() } else { format!("{base}page/{n}/") }
}

/// What pages of skill cards (listings, repository and owner pages) are written with.
pub struct Listings<'a> {
    pub catalog: &'a Catalog,
    pub renderer: &'a Renderer,
    pub out: &'a SiteWriter,
    pub site: &'a SiteFn<'a>,
    pub shown: &'a Shown<'a>,
    /// What every page's frame is made of: a listing page's context is made from it.
    pub frame: Keyed<'a, Frame>,
    /// Each skill's place in title order ([`title_ranks`]).
    pub title_rank: &'a [u32],
    /// The orders a repository's or an owner's skills are listed in ([`sorts_of`]).
    pub sorts: &'a [Sort],
}

impl Listings<'_> {
    /// Writes a page made of `frame` and the cards of `skills`, keyed by the frame and by what
    /// the cards show, so that an unchanged page is neither built nor rendered again; `fill`
    /// puts the cards into the frame.
    pub fn write_with_cards<T: Serialize>(
        &self,
        path: &str,
        template: &str,
        frame: T,
        skills: &[usize],
        fill: impl FnOnce(&mut T, Vec<Arc<Card>>),
    ) -> Result<()> {
        self.write_made_with_cards(path, template, frame, skills, |mut frame, cards| {
            fill(&mut frame, cards);
            frame
        })
    }

    /// Writes a page made by `make` from `input` and the cards of `skills`, keyed by the input
    /// and by what the cards show: an unchanged page's context is not even made.
    pub fn write_made_with_cards<I: Serialize, T: Serialize>(
        &self,
        path: &str,
        template: &str,
        input: I,
        skills: &[usize],
        make: impl FnOnce(I, Vec<Arc<Card>>) -> T,
    ) -> Result<()> {
        // The page's input: its own, and each card as its key.
        let cards = Seq(|| skills.iter().map(|&i| self.shown.of(i)));
        let inputs = crate::hash::of("page with cards", &(&input, cards));
        self.renderer.page_from_inputs(self.out, path, template, inputs, || {
            Ok(make(input, skills.iter().map(|&i| self.shown.card(i)).collect()))
        })
    }

    /// Each order of [`Listings::sorts`] of a listing at `base`: its label and its folder.
    pub fn sort_bases(&self, base: &str) -> Vec<(&'static str, String)> {
        self.sorts.iter().map(|&(dir, label, _)| (label, format!("{base}{dir}/"))).collect()
    }

    /// `skills` in title order (the whole catalog's, ranked once).
    pub fn by_title(&self, skills: &[usize]) -> Vec<usize> {
        let mut sorted = skills.to_vec();
        sorted.sort_unstable_by_key(|&i| self.title_rank[i]);
        sorted
    }

    /// Writes a paginated listing of `skills` under `base` (e.g. `categories/data/`). Returns
    /// the folders written.
    pub fn write_listing(
        &self,
        base: &str,
        heading: &str,
        intro: &str,
        parent: (&str, &str),
        skills: &[usize],
        layout: Layout,
    ) -> Result<Vec<String>> {
        self.write_listing_in_order(base, heading, intro, parent, skills, Showing { sorts: &[], layout })
    }

    /// A set of skills (a repository's, an owner's) as paginated listings under `base`, one per
    /// order of [`SORTS`] (`base` + `name/`, `tokens/`, `changed/`); `skills` in title order.
    /// Returns the folders written.
    pub fn write_sorted(&self, base: &str, name: &str, parent: (&str, &str), skills: &[usize]) -> Result<Vec<String>> {
        let catalog = self.catalog;
        let sorts = self.sort_bases(base);
        let mut dirs = Vec::new();
        for &(dir, label, order) in self.sorts {
            let mut sorted = skills.to_vec();
            match order {
                SortOrder::Name => {}
                // Lightest first; then by name.
                SortOrder::Tokens => sorted.sort_by_key(|&i| catalog.skills[i].analysis.cost.tokens),
                // Latest change first, skills without a known date last; then by name.
                SortOrder::Changed => {
                    sorted.sort_by_key(|&i| std::cmp::Reverse(catalog.skills[i].history.last_changed.map(|t| t.0)))
                }
            }
            let heading = format!("{name}: skills by {label}");
            let intro = format!("{}, by {label}.", crate::plural::count(skills.len(), "skill"));
            // The first order shows cards; the others reorder the same skills, one line each.
            let layout = if dirs.is_empty() { Layout::Cards } else { Layout::Rows };
            dirs.extend(self.write_listing_in_order(
                &format!("{base}{dir}/"),
                &heading,
                &intro,
                parent,
                &sorted,
                Showing { sorts: &sorts, layout },
            )?);
        }
        Ok(dirs)
    }

    /// [`Self::write_listing`], with links to the same skills in other orders.
    fn write_listing_in_order(
        &self,
        base: &str,
        heading: &str,
        intro: &str,
        parent: (&str, &str),
        skills: &[usize],
        Showing { sorts, layout }: Showing,
    ) -> Result<Vec<String>> {
        let total_pages = skills.len().div_ceil(PAGE_SIZE).max(1);
        (1..=total_pages)
            .into_par_iter()
            .map(|n| {
                let dir = page_dir(base, n);
                let chunk = &skills[(n - 1) * PAGE_SIZE..(n * PAGE_SIZE).min(skills.len())];
                let input = ListingInput {
                    frame: self.frame,
                    base,
                    dir: &dir,
                    heading,
                    intro,
                    parent,
                    total: skills.len(),
                    page: n,
                    total_pages,
                    sorts,
                    layout,
                };
                self.write_made_with_cards(&format!("{dir}index.html"), "listing.html", &input, chunk, listing_page)?;
                Ok(dir)
            })
            .collect()
    }

    /// The topic pages of one kind: an index of topics, then a listing per topic.
    pub fn write_topics(&self, topics: &TopicIndex, kind: TopicKind) -> Result<Vec<String>> {
        let groups = topics.of(kind);
        let index_dir = format!("{}/", kind.dir());
        let root = path_to_root(&index_dir);
        let rows = topic_rows(groups, &format!("{root}{}/", kind.dir()));
        let (heading, intro) = match kind {
            TopicKind::Category => {
                ("Categories", "Every category, from the skills' frontmatter or inferred from their words.")
            }
            TopicKind::Tag => ("Tags", "Tags from the skills' frontmatter that more than one skill shares."),
            TopicKind::Product => ("Works with", "Products and tools the skills name or call."),
        };
        let page =
            TopicsPage { site: (self.site)(&index_dir), heading: heading.into(), intro: intro.into(), topics: rows };
        self.renderer.page(self.out, &format!("{index_dir}index.html"), "topics.html", &page)?;
        let groups: Vec<_> = groups.iter().collect();
        let listings = groups.into_par_iter().map(|(topic, skills)| {
            let mut skills = skills.clone();
            // In title order: the order of the whole catalog's, ranked once.
            skills.sort_unstable_by_key(|&i| self.title_rank[i]);
            let heading = match kind {
                TopicKind::Category => format!("{} skills", topic.name),
                TopicKind::Tag => format!("Skills tagged “{}”", topic.name),
                TopicKind::Product => format!("Skills that work with {}", topic.name),
            };
            let intro = format!("{}.", crate::plural::count(skills.len(), "skill"));
            let base = kind.page_dir(&topic.id);
            // Categories are the catalog's own map and show cards; tags and products, which
            // authors and words add by the thousand, list a line per skill.
            let layout = if kind == TopicKind::Category { Layout::Cards } else { Layout::Rows };
            self.write_listing(&base, &heading, &intro, (kind.plural(), &index_dir), &skills, layout)
        });
        let listings: Vec<Vec<String>> = listings.collect::<Result<_>>()?;
        Ok(std::iter::once(index_dir).chain(listings.into_iter().flatten()).collect())
    }
}

/// All page `page` of a paginated listing is made of ([`listing_page`] sees nothing else):
/// borrowed, so that keying the thousands of listing pages an edit leaves as they were makes
/// none of their contexts.
#[derive(Serialize)]
struct ListingInput<'a> {
    frame: Keyed<'a, Frame>,
    /// The listing's first folder, and this page's.
    base: &'a str,
    dir: &'a str,
    heading: &'a str,
    intro: &'a str,
    /// Breadcrumb parent: (name, folder from the site root); empty name for none.
    parent: (&'a str, &'a str),
    /// Skills in the whole listing.
    total: usize,
    /// This page's number (from 1) and the listing's count of pages.
    page: usize,
    total_pages: usize,
    /// The same skills in other orders: (label, base folder).
    sorts: &'a [(&'static str, String)],
    layout: Layout,
}

/// How a listing shows its skills: links to the same skills in other orders (label, base
/// folder), and a card or a line for each.
#[derive(Clone, Copy)]
struct Showing<'a> {
    sorts: &'a [(&'static str, String)],
    layout: Layout,
}

/// A listing page's context, from its input and its cards.
fn listing_page(input: &ListingInput, cards: Vec<Arc<Card>>) -> ListingPage {
    let ListingInput { frame, base, dir, heading, intro, parent, total, page: n, total_pages, sorts, layout } = *input;
    let root = path_to_root(dir);
    let link = |k: usize| format!("{root}{}", page_dir(base, k));
    ListingPage {
        site: frame.site_at(dir, dir),
        heading: if n > 1 { format!("{heading} (page {n} of {total_pages})") } else { heading.to_string() },
        intro: intro.to_string(),
        parent_name: parent.0.to_string(),
        parent_href: if parent.0.is_empty() { String::new() } else { format!("{root}{}", parent.1) },
        total,
        cards,
        layout,
        sorts: sort_links(sorts, base, &root),
        pagination: Pagination {
            current: n,
            total: total_pages,
            prev: if n > 1 { link(n - 1) } else { String::new() },
            next: if n < total_pages { link(n + 1) } else { String::new() },
            pages: page_window(n, total_pages)
                .into_iter()
                .scan(0, |last, k| {
                    let gap_before = k > *last + 1 && *last > 0;
                    *last = k;
                    Some(PageLink { number: k, href: link(k), current: k == n, gap_before })
                })
                .collect(),
        },
    }
}

/// An order of a listing: folder, label, order.
pub type Sort = (&'static str, &'static str, SortOrder);

/// The orders a repository's or an owner's skills are listed in.
pub const SORTS: &[Sort] = &[
    ("name", "name", SortOrder::Name),
    ("tokens", "token cost", SortOrder::Tokens),
    ("changed", "last change", SortOrder::Changed),
];

#[derive(Debug, Clone, Copy)]
pub enum SortOrder {
    Name,
    Tokens,
    Changed,
}

/// The orders of [`SORTS`] that order anything in `catalog`: by last change only when some
/// skill's date is known (else it is the order by name again). Found once a build.
pub fn sorts_of(catalog: &Catalog) -> Vec<Sort> {
    let dated = catalog.skills.iter().any(|s| s.history.last_changed.is_some());
    SORTS.iter().copied().filter(|(_, _, order)| dated || !matches!(order, SortOrder::Changed)).collect()
}

/// Links to each order of `sorts` (label, base folder) from a page whose root is `root`, the
/// one at `current` marked.
pub fn sort_links(sorts: &[(&'static str, String)], current: &str, root: &str) -> Vec<SortLink> {
    sorts
        .iter()
        .map(|(label, base)| SortLink { label, href: format!("{root}{base}"), current: base == current })
        .collect()
}

/// Pages linked from page `n` of `total`: the first, the last, and two on each side of `n`.
/// A fixed number, so a listing of 1,000 pages does not link every page from every page.
fn page_window(n: usize, total: usize) -> Vec<usize> {
    let near = n.saturating_sub(PAGE_WINDOW).max(1)..=(n + PAGE_WINDOW).min(total);
    let mut pages: Vec<usize> = std::iter::once(1).chain(near).chain(std::iter::once(total)).collect();
    pages.dedup();
    pages
}

/// Topics as rows linking to their pages under `dir_href` (e.g. `../categories/`), most
/// skills first, then by name.
pub fn topic_rows(
    groups: &std::collections::BTreeMap<crate::relate::Topic, Vec<usize>>,
    dir_href: &str,
) -> Vec<TopicRow> {
    let mut rows: Vec<TopicRow> = groups
        .iter()
        .map(|(topic, skills)| TopicRow {
            id: topic.id.clone(),
            name: topic.name.clone(),
            href: format!("{dir_href}{}/", topic.id),
            count: skills.len(),
        })
        .collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)));
    rows
}

/// Every skill, sorted by title.
pub fn skills_by_title(catalog: &Catalog) -> Vec<usize> {
    let mut order: Vec<usize> = (0..catalog.skills.len()).collect();
    // By title, case aside, ties in catalog order.
    order.par_sort_by_cached_key(|&i| (catalog.skills[i].analysis.digest.title.to_lowercase(), i));
    order
}

/// Each skill's place in `by_title` (every skill, as [`skills_by_title`] orders them).
pub fn title_ranks(by_title: &[usize]) -> Vec<u32> {
    let mut ranks = vec![0; by_title.len()];
    for (rank, &skill) in by_title.iter().enumerate() {
        ranks[skill] = rank as u32;
    }
    ranks
}

/// A repository as a table row on a page whose root is `root`.
pub fn repo_row(r: &crate::model::Repo, root: &str) -> RepoRow {
    RepoRow {
        full: r.id.full(),
        href: format!("{root}{}", r.url_path()),
        skills: r.skills.len(),
        license: r.license.label.clone(),
        stars: r.facts.stars.map(|s| compact_count(s as usize)).unwrap_or_else(|| "—".into()),
        updated: r.facts.updated.map(|t| t.iso_date()).unwrap_or_else(|| "—".into()),
    }
}

pub fn repo_rows(catalog: &Catalog, root: &str) -> Vec<RepoRow> {
    catalog.repos.iter().map(|r| repo_row(r, root)).collect()
}

/// Whether the home page may hold the skill up as an example: its frontmatter is valid YAML
/// (every agent reads it), its description says something (a sentence of a few words, not a
/// fragment), and its check passed or gave notes only. The listings still show every skill.
fn showcased(skill: &crate::model::Skill) -> bool {
    const FEWEST_WORDS: usize = 4;
    matches!(skill.reading, crate::parse::Reading::Strict)
        && skill.description.split_whitespace().count() >= FEWEST_WORDS
        && matches!(skill.verdict, crate::scan::Verdict::Passed | crate::scan::Verdict::Notes)
}

/// The home page's lists of skills: the newest (when dates are known), from the most-starred
/// repositories (when more than one repository has stars: with one, it would be a list in
/// catalog order) or else the lightest to load; a first page by name only when there is no
/// other. At most [`HOME_LISTS`], and none that shows the same skills as an earlier one.
fn home_lists(catalog: &Catalog, shown: &Shown, by_title: &[usize]) -> Vec<HomeList> {
    let skills = (0..catalog.skills.len()).filter(|&i| showcased(&catalog.skills[i]));
    let mut newest: Vec<usize> = skills.clone().filter(|&i| catalog.skills[i].history.first_seen.is_some()).collect();
    newest.sort_by_key(|&i| (std::cmp::Reverse(catalog.skills[i].history.first_seen), i));
    let stars = |i: usize| catalog.repos[catalog.skills[i].repo].facts.stars;
    let starred_repos = catalog.repos.iter().filter(|r| r.facts.stars.is_some()).count();
    let mut starred: Vec<usize> =
        if starred_repos > 1 { skills.clone().filter(|&i| stars(i).is_some()).collect() } else { Vec::new() };
    starred.sort_by_key(|&i| (std::cmp::Reverse(stars(i)), i));
    let mut lightest: Vec<usize> = skills.collect();
    // Ties in catalog order.
    lightest.sort_by_key(|&i| (catalog.skills[i].analysis.cost.tokens, i));
    if starred.is_empty() {
        starred = lightest;
    }
    let starred_view = if starred_repos > 1 {
        ("starred", "From the most-starred repositories")
    } else {
        ("lightest", "Lightest to load")
    };
    let views = [
        ("newest", "Newest skills", newest),
        (starred_view.0, starred_view.1, starred),
        ("some", "Skills by name", by_title.iter().copied().filter(|&i| showcased(&catalog.skills[i])).collect()),
    ];
    let mut lists: Vec<HomeList> = Vec::new();
    let mut seen: Vec<Vec<usize>> = Vec::new();
    for (id, heading, mut order) in views {
        order.truncate(HOME_LIST);
        let mut set = order.clone();
        set.sort_unstable();
        let fallback_only = id == "some" && !lists.is_empty();
        if order.is_empty() || seen.contains(&set) || lists.len() == HOME_LISTS || fallback_only {
            continue;
        }
        seen.push(set);
        lists.push(HomeList { id, heading, cards: order.into_iter().map(|i| shown.card(i)).collect() });
    }
    lists
}

/// The home page; `by_title` is every skill in title order ([`skills_by_title`]).
pub fn home(catalog: &Catalog, topics: &TopicIndex, shown: &Shown, by_title: &[usize], site: &SiteFn) -> IndexPage {
    let categories = topic_rows(&topics.categories, "categories/");
    let charts = super::figures::home(catalog, &categories);
    let mut repos = repo_rows(catalog, "");
    repos.sort_by(|a, b| b.skills.cmp(&a.skills).then(a.full.cmp(&b.full)));
    repos.truncate(12);
    let mut owners: Vec<&str> = catalog.repos.iter().map(|r| r.id.owner.as_str()).collect();
    owners.dedup();
    IndexPage {
        site: site(""),
        skill_count: catalog.skills.len(),
        left_out: catalog.repos.iter().map(|r| r.left_out()).sum(),
        repo_count: catalog.repos.len(),
        owner_count: owners.len(),
        category_count: topics.categories.len(),
        categories,
        charts,
        lists: home_lists(catalog, shown, by_title),
        repos,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pagination_links_the_ends_and_the_neighbours_only() {
        assert_eq!(page_window(1, 1), vec![1]);
        assert_eq!(page_window(1, 3), vec![1, 2, 3]);
        assert_eq!(page_window(1, 100), vec![1, 2, 3, 100]);
        assert_eq!(page_window(50, 100), vec![1, 48, 49, 50, 51, 52, 100]);
        assert_eq!(page_window(100, 100), vec![1, 98, 99, 100]);
        assert_eq!(page_window(4, 6), vec![1, 2, 3, 4, 5, 6]);
    }
}
