//! Template contexts: small typed structs, one per page kind, built from the catalog. Templates
//! only lay these out; every sentence that depends on data is composed here or in the
//! templates from these fields, never from raw maps.

use std::sync::Arc;

use serde::Serialize;

use crate::agents::InstallBlock;

/// What every page needs.
#[derive(Debug, Clone, Serialize)]
pub struct SiteCtx {
    pub title: String,
    pub description: String,
    /// Relative path from this page to the site root (`../../../`).
    pub root: String,
    /// This page's folder from the site root (`owner/repo/skill/`), for links that need not
    /// climb to the root (`link` filter).
    pub dir: String,
    /// Absolute URL of this page.
    pub canonical: String,
    pub version: &'static str,
    pub has_report: bool,
    /// Whether feed.xml exists (it needs dated skills).
    pub has_feed: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Fact {
    pub label: &'static str,
    pub value: String,
    /// False when the value is "not known": the template shows it muted.
    pub known: bool,
    /// Where the value comes from, when it is a file that can be linked (a licence).
    pub href: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Card {
    pub title: String,
    pub repo: String,
    /// The skill's folder, when another skill of its repository has the same title.
    pub folder: Option<String>,
    pub description: String,
    /// Link from the site root: templates prefix the showing page's root.
    pub href: String,
    pub tokens: String,
    pub license: String,
}

/// A category, tag or product; `href` is empty when the topic has no page of its own.
#[derive(Debug, Clone, Serialize)]
pub struct TopicLink {
    pub name: String,
    pub href: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileRow {
    pub path: String,
    pub size: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    pub title: String,
    pub repo: String,
    /// As [`Card::folder`].
    pub folder: Option<String>,
    pub href: String,
    pub is_self: bool,
    pub stars: String,
    pub used_in: String,
    pub tokens: String,
    pub auto_check: String,
    pub license: String,
    pub updated: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Capabilities {
    pub allowed_tools: Vec<String>,
    pub has_allowed_tools: bool,
    pub commands: Vec<String>,
    pub urls: Vec<String>,
    pub credential_names: Vec<String>,
    /// What SKILL.md holds none of, as one sentence ("SKILL.md holds no shell command that runs a
    /// program and no URLs outside its own repository."), so that each empty kind is not a box of
    /// its own; empty when it holds every kind.
    pub absent: String,
}

/// One scanner finding as the Safety section lists it.
#[derive(Debug, Clone, Serialize)]
pub struct FindingRow {
    /// `scripts/install.sh:12`
    pub location: String,
    /// The line in the file at its source; `None` without a repository.
    pub href: Option<String>,
    pub rule: &'static str,
    pub severity: &'static str,
    pub title: &'static str,
    pub why: &'static str,
    pub message: String,
    pub matched: String,
    /// The reason, when a suppression covers it; empty otherwise.
    pub suppressed: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Safety {
    /// `passed`, `notes`, `not-checked` or `failed`: the CSS class suffix.
    pub verdict: &'static str,
    /// Where the check looked and how serious its findings are: the list's heading.
    pub summary: String,
    /// Findings above info that no suppression covers.
    pub active: usize,
    pub findings: Vec<FindingRow>,
    /// Files the check could not finish, with why: the reason the skill is not checked.
    pub unchecked: Vec<String>,
    /// Files not scanned for want of text (binaries, links), and files the parsers left to
    /// the line readers, with why.
    pub skipped: Vec<String>,
    pub follows_spec: bool,
    pub spec_findings: Vec<FindingRow>,
    /// Why some agents will not load SKILL.md as written (empty when every agent reads it),
    /// and the lines to fix.
    pub reading_problem: String,
    pub reading_fixes: Vec<ReadingFix>,
}

/// One line of a frontmatter read leniently: where, what was wrong and the fix.
#[derive(Debug, Clone, Serialize)]
pub struct ReadingFix {
    pub location: String,
    pub href: Option<String>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillMd {
    /// Whether the licence lets the page show the file.
    pub republished: bool,
    /// Why not, when not.
    pub withheld_reason: String,
    /// The body as safe HTML (empty when not republished): the whole, or its head ([`TextCut`]).
    pub html: String,
    /// Set when the page shows only the head of a long text.
    pub cut: Option<TextCut>,
    pub frontmatter: Vec<KeyValue>,
    /// Relative link to the raw copy, when republished.
    pub raw_href: String,
    /// The file at its source, on the web; `None` without a repository.
    pub source_href: Option<String>,
    pub save_as: String,
    pub other_files: usize,
    pub attribution: String,
    /// "SKILL.md covers …", when the file is not shown; empty otherwise.
    pub sections: String,
}

/// The most files a skill page lists: a few folders hold hundreds (fonts, test data).
pub const FILES_LISTED: usize = 12;

/// How much of a long SKILL.md's body a page shows (its first whole blocks): "3.9 KB", "12.4 KB".
#[derive(Debug, Clone, Serialize)]
pub struct TextCut {
    pub shown: String,
    pub whole: String,
}

/// The strip at the top of a skill page: each of these facts is shown there only, and the
/// sections below give the detail.
#[derive(Debug, Clone, Serialize)]
pub struct SkillSummary {
    /// `passed`, `notes` or `failed`.
    pub verdict: &'static str,
    /// `Passed`, `Notes` or `Failed`.
    pub verdict_word: &'static str,
    /// "no findings", "2 findings".
    pub findings: String,
    /// "~588".
    pub tokens: String,
    /// "more than 40% of this catalog's skills".
    pub token_place: String,
    pub stars: Fact,
    pub license: Fact,
    pub last_change: Fact,
    /// "All 11 agents", "3 agents" or the one agent its `compatibility` names.
    pub agents: String,
    /// Every agent's name, for the agents' tile.
    pub agent_names: String,
}

/// A column of the comparison table: the field of [`CompareRow`] it shows.
#[derive(Debug, Clone, Serialize)]
pub struct CompareColumn {
    pub key: &'static str,
    pub label: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillCtx {
    pub title: String,
    pub summary: SkillSummary,
    pub name: String,
    pub description: String,
    /// SKILL.md has no frontmatter: the name and description were taken from its folder and
    /// first paragraph.
    pub no_frontmatter: bool,
    pub owner: String,
    /// Relative link to the owner's page.
    pub owner_href: String,
    /// The short commit the files were read at; empty when not known.
    pub commit: String,
    /// When a file of the skill last changed (long date); empty when not known.
    pub last_changed: String,
    pub repo: String,
    pub repo_href: String,
    /// The repository and the folder on the web; `None` without a repository.
    pub repo_web: Option<String>,
    pub folder: String,
    pub folder_web: Option<String>,
    /// The archive of the folder published beside the page, relative to it.
    pub archive: Option<String>,
    /// Every agent's first way and the ways that differ only in its folder; `None` without a
    /// repository to install from.
    pub install: Option<InstallBlock>,
    /// What the page says instead of install commands when there is no repository.
    pub no_repository: &'static str,
    pub facts: Vec<Fact>,
    pub intro: Vec<String>,
    pub when_to_use: Vec<String>,
    pub example_prompts: Vec<String>,
    pub requirements: Vec<String>,
    pub steps: Vec<String>,
    pub steps_source: String,
    pub capabilities: Capabilities,
    pub safety: Safety,
    pub tokens: String,
    pub idle_tokens: String,
    pub skill_md: SkillMd,
    /// The first [`FILES_LISTED`] of the folder's files; the folder on the web has the rest.
    pub files: Vec<FileRow>,
    /// How many files the list leaves out.
    pub files_more: usize,
    pub compare: Vec<Arc<CompareRow>>,
    /// The comparison table's columns: those whose value differs between rows.
    pub compare_columns: Vec<CompareColumn>,
    /// The columns left out, each with the value every row has: "Licence: MIT".
    pub compare_same: Vec<String>,
    pub more_from_repo: Vec<Arc<Card>>,
    pub tags: Vec<TopicLink>,
    pub works_with: Vec<TopicLink>,
    pub categories: Vec<TopicLink>,
    /// Identical copies of the folder elsewhere in the catalog, when there are any.
    pub copies: Option<CopiesCtx>,
    /// The catalog editors' words, when they wrote any or list the owner's badge.
    pub editors: Option<EditorsCtx>,
}

/// What the catalog's editors say of a skill (its notes file) and of its owner (the
/// publishers' badge): the maintainers' words, which the page keeps apart from the skill's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditorsCtx {
    pub badge: Option<String>,
    pub notes: crate::notes::SkillNotes,
}

/// A skill's identical copies: how many, and the one first seen.
#[derive(Debug, Clone, Serialize)]
pub struct CopiesCtx {
    /// Copies elsewhere in the catalog.
    pub others: usize,
    /// Owners other than this skill's own holding a copy.
    pub used_in: usize,
    /// Whether this skill is the copy first seen.
    pub is_canonical: bool,
    /// Relative link to the copy first seen.
    pub canonical_href: String,
    /// `owner/repo/folder` of the copy first seen.
    pub canonical_label: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillPage {
    pub site: SiteCtx,
    pub skill: SkillCtx,
}

#[derive(Debug, Clone, Serialize)]
pub struct RepoCtx {
    pub full: String,
    pub owner: String,
    /// Relative link to the owner's page.
    pub owner_href: String,
    /// `None` without a repository on the web.
    pub web: Option<String>,
    pub facts: Vec<Fact>,
    /// Its skills' verdicts and token cost, as inline SVG ([`super::figures`]).
    pub charts: Vec<String>,
    /// Its skills by name: all of them, or the first page when [`SortLink`]s lead to the rest.
    pub skills: Vec<Arc<Card>>,
    pub total: usize,
    pub sorts: Vec<SortLink>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RepoPage {
    pub site: SiteCtx,
    pub repo: RepoCtx,
}

/// All repositories and skills of one owner.
#[derive(Debug, Clone, Serialize)]
pub struct OwnerCtx {
    pub owner: String,
    /// `None` when none of the owner's repositories is on the web.
    pub web: Option<String>,
    pub repos: Vec<RepoRow>,
    /// Its skills' verdicts and token cost, as inline SVG ([`super::figures`]).
    pub charts: Vec<String>,
    /// Its skills by name: all of them, or the first page when [`SortLink`]s lead to the rest.
    pub skills: Vec<Arc<Card>>,
    pub total: usize,
    pub sorts: Vec<SortLink>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OwnerPage {
    pub site: SiteCtx,
    pub owner: OwnerCtx,
}

#[derive(Debug, Clone, Serialize)]
pub struct RepoRow {
    pub full: String,
    pub href: String,
    pub skills: usize,
    pub license: String,
    pub stars: String,
    pub updated: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct IndexPage {
    pub site: SiteCtx,
    pub skill_count: usize,
    /// Skill folders left out (each with an error in the build report).
    pub left_out: usize,
    pub repo_count: usize,
    pub owner_count: usize,
    pub category_count: usize,
    pub categories: Vec<TopicRow>,
    /// The catalog in figures, as inline SVG ([`super::figures::home`]).
    pub charts: Vec<String>,
    /// Lists of skills, each a different view: no two show the same skills.
    pub lists: Vec<HomeList>,
    pub repos: Vec<RepoRow>,
}

/// One list of skill cards on the home page.
#[derive(Debug, Clone, Serialize)]
pub struct HomeList {
    /// The section's id.
    pub id: &'static str,
    pub heading: &'static str,
    pub cards: Vec<Arc<Card>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReportLine {
    pub level: String,
    /// `owner/repo: path/SKILL.md:3`, or a file of the catalog's own.
    pub location: String,
    /// The file at its source, at the line, when its repository is on the web.
    pub href: Option<String>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReportPage {
    pub site: SiteCtx,
    pub lines: Vec<ReportLine>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlainPage {
    pub site: SiteCtx,
}

/// A skill's page when making the full one stopped on an internal error: what the catalog
/// knows of the skill without the page's own work.
#[derive(Debug, Clone, Serialize)]
pub struct FallbackPage {
    pub site: SiteCtx,
    pub page: FallbackCtx,
}

#[derive(Debug, Clone, Serialize)]
pub struct FallbackCtx {
    pub title: String,
    pub description: String,
    pub repo: String,
    pub repo_href: String,
    pub verdict: &'static str,
    pub verdict_word: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct PageLink {
    pub number: usize,
    pub href: String,
    pub current: bool,
    /// Pages left out between this link and the one before it.
    pub gap_before: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pagination {
    pub current: usize,
    pub total: usize,
    pub prev: String,
    pub next: String,
    pub pages: Vec<PageLink>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ListingPage {
    pub site: SiteCtx,
    pub heading: String,
    pub intro: String,
    /// Breadcrumb parent: (name, href); empty name for none.
    pub parent_name: String,
    pub parent_href: String,
    pub total: usize,
    pub cards: Vec<Arc<Card>>,
    pub layout: Layout,
    pub pagination: Pagination,
    /// The same skills in other orders (empty for a listing with one order).
    pub sorts: Vec<SortLink>,
}

/// How a listing shows each skill: a card with its description, or one line (title,
/// repository, tokens) where the skills are listed again elsewhere with cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    Cards,
    Rows,
}

/// A link to one order of a listing.
#[derive(Debug, Clone, Serialize)]
pub struct SortLink {
    pub label: &'static str,
    pub href: String,
    pub current: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct TopicRow {
    /// The value a search filter uses.
    pub id: String,
    pub name: String,
    pub href: String,
    pub count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct TopicsPage {
    pub site: SiteCtx,
    pub heading: String,
    pub intro: String,
    pub topics: Vec<TopicRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReposPage {
    pub site: SiteCtx,
    pub repos: Vec<RepoRow>,
}

/// How each agent installs skills: every way, with words standing for a skill's values.
#[derive(Debug, Clone, Serialize)]
pub struct AgentsPage {
    pub site: SiteCtx,
    pub agents: Vec<crate::agents::AgentInstall>,
}

/// How each part of a skill page is read: the explanations every page links to instead of
/// repeating them.
#[derive(Debug, Clone, Serialize)]
pub struct AboutPage {
    pub site: SiteCtx,
    /// The catalog's text limit ("4.0 KB"), when long SKILL.md texts are cut.
    pub text_limit: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SearchPage {
    pub site: SiteCtx,
    pub categories: Vec<TopicRow>,
    pub agents: Vec<TopicRow>,
    pub licenses: Vec<TopicRow>,
    pub verdicts: Vec<TopicRow>,
}
