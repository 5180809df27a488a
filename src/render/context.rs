//! Template contexts: small typed structs, one per page kind, built from the catalog. Templates
//! only lay these out; every sentence that depends on data is composed here or in the
//! templates from these fields, never from raw maps.

use serde::Serialize;

use crate::agents::AgentInstall;

/// What every page needs.
#[derive(Debug, Clone, Serialize)]
pub struct SiteCtx {
    pub title: String,
    pub description: String,
    /// Relative path from this page to the site root (`../../../`).
    pub root: String,
    /// Absolute URL of this page.
    pub canonical: String,
    pub version: &'static str,
    pub has_report: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Fact {
    pub label: &'static str,
    pub value: String,
    /// False when the value is "not known": the template shows it muted.
    pub known: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Card {
    pub title: String,
    pub repo: String,
    pub description: String,
    /// Relative link from the page showing the card.
    pub href: String,
    pub tokens: String,
    pub license: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileRow {
    pub path: String,
    pub size: String,
    pub href: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    pub title: String,
    pub repo: String,
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
pub struct Qa {
    pub question: String,
    pub answer: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Capabilities {
    pub allowed_tools: Vec<String>,
    pub has_allowed_tools: bool,
    pub commands: Vec<String>,
    pub urls: Vec<String>,
    pub credential_names: Vec<String>,
}

/// One scanner finding as the Safety section lists it.
#[derive(Debug, Clone, Serialize)]
pub struct FindingRow {
    /// `scripts/install.sh:12`
    pub location: String,
    /// The line in the file at its source.
    pub href: String,
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
    /// `passed`, `notes` or `failed`: the CSS class suffix.
    pub verdict: &'static str,
    pub label: String,
    pub summary: String,
    pub findings: Vec<FindingRow>,
    pub files_scanned: usize,
    /// Files not scanned, with why.
    pub skipped: Vec<String>,
    pub follows_spec: bool,
    pub spec_findings: Vec<FindingRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillMd {
    /// Whether the licence lets the page show the file.
    pub republished: bool,
    /// Why not, when not.
    pub withheld_reason: String,
    /// The body as safe HTML (empty when not republished).
    pub html: String,
    pub frontmatter: Vec<KeyValue>,
    /// Relative link to the raw copy, when republished.
    pub raw_href: String,
    /// The file at its source, on the web.
    pub source_href: String,
    pub save_as: String,
    pub other_files: usize,
    pub attribution: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillCtx {
    pub title: String,
    pub name: String,
    pub description: String,
    pub repo: String,
    pub repo_href: String,
    pub repo_web: String,
    pub folder: String,
    pub folder_web: String,
    pub install: Vec<AgentInstall>,
    pub facts: Vec<Fact>,
    pub glance: Vec<String>,
    pub intro: Vec<String>,
    pub when_to_use: Vec<String>,
    pub example_prompts: Vec<String>,
    pub requirements: Vec<String>,
    pub steps: Vec<String>,
    pub steps_source: String,
    /// "at commit 3827781" or "as found in its source folder".
    pub read_at: String,
    pub capabilities: Capabilities,
    pub safety: Safety,
    pub tokens: String,
    pub idle_tokens: String,
    pub words: usize,
    pub skill_md: SkillMd,
    pub files: Vec<FileRow>,
    pub compare: Vec<CompareRow>,
    pub similar: Vec<Card>,
    pub more_from_repo: Vec<Card>,
    pub repo_skill_count: usize,
    pub tags: Vec<String>,
    pub works_with: Vec<String>,
    pub categories: Vec<String>,
    pub faq: Vec<Qa>,
    /// FAQPage JSON-LD, already safe to place inside a script element.
    pub faq_json_ld: String,
    pub license_label: String,
    pub source_line: String,
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
    pub web: String,
    pub facts: Vec<Fact>,
    pub skills: Vec<Card>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RepoPage {
    pub site: SiteCtx,
    pub repo: RepoCtx,
}

#[derive(Debug, Clone, Serialize)]
pub struct RepoRow {
    pub full: String,
    pub href: String,
    pub skills: usize,
    pub license: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct IndexPage {
    pub site: SiteCtx,
    pub skill_count: usize,
    pub repo_count: usize,
    pub skills: Vec<Card>,
    pub repos: Vec<RepoRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReportLine {
    pub level: String,
    pub location: String,
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
