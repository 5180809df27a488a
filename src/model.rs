//! The catalog as the render stage sees it: repositories and skills, each with the facts of
//! every stage before, and the stable URL path of its page.

use std::borrow::Cow;
use std::path::PathBuf;

use crate::analyze::{Analysis, License};
use crate::cache::SkillText;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::discover::{RepoId, SkillDir};
use crate::parse::frontmatter::Frontmatter;

#[derive(Debug)]
pub struct Catalog {
    pub config: Config,
    /// Sorted by owner/name.
    pub repos: Vec<Repo>,
    /// Sorted by repository, then folder.
    pub skills: Vec<Skill>,
    /// Everything the build could not read or had to guess, sorted by file and line.
    pub diagnostics: Vec<Diagnostic>,
    /// Topics and similar skills, per skill (the relate stage).
    pub relations: crate::relate::Relations,
}

#[derive(Debug)]
pub struct Repo {
    pub id: RepoId,
    /// The folder the repository was read from.
    pub root: PathBuf,
    /// The licence of the repository itself (its root LICENSE file).
    pub license: License,
    /// Number of skill folders found, including those whose SKILL.md could not be read.
    pub skill_folders: usize,
    /// Indices into `Catalog::skills`, in folder order.
    pub skills: Vec<usize>,
    /// Repository-level facts from git and the catalog's data files; `None` is "not known".
    pub facts: RepoFacts,
    /// Whether `id` names a repository on GitHub. A lone folder previewed without a git remote
    /// gets an id to build pages under, which no link may present as an address.
    pub hosted: bool,
}

/// Facts about a repository that its files alone do not give.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct RepoFacts {
    /// GitHub stars, from the catalog's repository data file.
    pub stars: Option<u64>,
    /// The commit the files were read at (full hash).
    pub commit: Option<String>,
    /// The date of that commit: when the repository was last updated.
    pub updated: Option<Timestamp>,
}

impl RepoFacts {
    /// `3827781`: the commit as people quote it.
    pub fn short_commit(&self) -> Option<&str> {
        self.commit.as_deref().map(|c| &c[..c.len().min(7)])
    }
}

/// Facts about one skill's history and copies across the catalog.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SkillHistory {
    /// When its SKILL.md was first committed.
    pub first_seen: Option<Timestamp>,
    /// When a file of the skill last changed.
    pub last_changed: Option<Timestamp>,
}

/// A moment, as seconds since 1970-01-01 UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// (year, month 1-12, day 1-31) in UTC.
    pub fn civil(self) -> (i64, u32, u32) {
        // Howard Hinnant's days-to-civil algorithm.
        let z = self.0.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        (year, month, day)
    }

    /// `August 12, 2026`
    pub fn long_date(self) -> String {
        const MONTHS: [&str; 12] = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        let (y, m, d) = self.civil();
        format!("{} {d}, {y}", MONTHS[m as usize - 1])
    }

    /// `2026-08-12`
    pub fn iso_date(self) -> String {
        let (y, m, d) = self.civil();
        format!("{y:04}-{m:02}-{d:02}")
    }

    /// `2026-08-12T10:00:00Z`, for feeds and sitemaps.
    pub fn rfc3339(self) -> String {
        let secs = self.0.rem_euclid(86_400);
        format!("{}T{:02}:{:02}:{:02}Z", self.iso_date(), secs / 3600, secs / 60 % 60, secs % 60)
    }
}

impl Repo {
    /// Skill folders left out of the catalog (their SKILL.md could not be read); each has an
    /// error in the build report.
    pub fn left_out(&self) -> usize {
        self.skill_folders.saturating_sub(self.skills.len())
    }

    /// `owner/name/`
    pub fn url_path(&self) -> String {
        format!("{}/{}/", self.id.owner, self.id.name)
    }

    /// The repository on GitHub; `None` when it has no address there.
    pub fn web_url(&self) -> Option<String> {
        self.hosted.then(|| format!("https://github.com/{}", self.id.full()))
    }

    /// What web links to files name the version by: the commit read, else `HEAD`.
    pub fn web_rev(&self) -> &str {
        self.facts.commit.as_deref().unwrap_or("HEAD")
    }

    /// The web address of a file (path relative to the repository root) at the commit read.
    pub fn file_web_url(&self, path: &str) -> Option<String> {
        self.web_url().map(|web| format!("{web}/blob/{}/{path}", self.web_rev()))
    }
}

#[derive(Debug)]
pub struct Skill {
    /// The cache key it was read under: a hash of its files' bytes and of what they were read
    /// with. Everything parsed, analyzed and scanned below is a function of it.
    pub key: String,
    /// Index into `Catalog::repos`.
    pub repo: usize,
    /// The URL segment of the page: the folder name made URL-safe, unique within the repository.
    pub slug: String,
    pub dir: SkillDir,
    /// Decoded when first read: only the skill's own page shows it (see [`crate::cache::Deferred`]).
    pub frontmatter: crate::cache::Deferred<Frontmatter>,
    /// The frontmatter's `compatibility`, which every build's search filters read.
    pub compatibility: Option<String>,
    /// SKILL.md as text (BOM removed, line endings as written).
    pub text: SkillText,
    /// Byte offset of the body within the text.
    pub body_start: usize,
    pub analysis: Analysis,
    /// What the safety scanner found in every text file of the skill folder, decoded when
    /// first read: only the skill's own page lists it.
    pub scan: crate::cache::Deferred<crate::scan::ScanReport>,
    /// The scan's verdict, which cards, rows and the search filters show of every skill.
    pub verdict: crate::scan::Verdict,
    /// The frontmatter name, else the folder name.
    pub name: String,
    pub description: String,
    /// How its frontmatter was read (strictly, leniently, or there was none).
    pub reading: crate::parse::Reading,
    /// Tags, categories and products, as the taxonomy classifies the skill on its own.
    pub topics: crate::relate::Topics,
    /// SKILL.md's text hashed, line endings aside ([`crate::relate::text_hash`]): skills with the
    /// same text are never ranked as each other's similar skills.
    pub text_hash: u64,
    /// What the similar-skill ranking reads of this skill, hashed ([`crate::relate::similar_digest`]).
    pub similar_digest: crate::write::Hash,
    /// Dates from git; `None` is "not known".
    pub history: SkillHistory,
    /// Identical copies of the folder across the catalog.
    pub copies: crate::relate::copies::Copies,
}

impl Skill {
    /// `owner/name/slug/`
    pub fn url_path(&self, repo: &Repo) -> String {
        format!("{}{}/", repo.url_path(), self.slug)
    }

    pub fn folder_name<'a>(&'a self, repo: &'a Repo) -> &'a str {
        self.dir.folder_name(&repo.id)
    }

    /// SKILL.md as text, as it was read.
    pub fn text(&self) -> crate::error::Result<Cow<'_, str>> {
        self.text.read_checked(&self.dir.skill_file_path(), self.text_hash)
    }

    /// SKILL.md's body: the text after the frontmatter.
    pub fn body(&self) -> crate::error::Result<Cow<'_, str>> {
        let start = self.body_start;
        Ok(match self.text()? {
            Cow::Borrowed(text) => Cow::Borrowed(text.get(start..).unwrap_or_default()),
            Cow::Owned(text) => Cow::Owned(text.get(start..).unwrap_or_default().to_string()),
        })
    }
}

/// Slugs are cut to this many bytes: file systems refuse names over 255 bytes, and a name or
/// category can be any length.
pub const MAX_SLUG_BYTES: usize = 80;

/// A URL-safe path segment: lower-case ASCII letters, digits, `-`, `_` and `.`, never `.` or `..`,
/// at most [`MAX_SLUG_BYTES`] long, and never a name Windows reserves for a device (`con`,
/// `nul.txt`, `com1`...), so that a site can be unpacked on any file system.
pub fn slugify(name: &str) -> String {
    let mut slug = String::with_capacity(name.len().min(MAX_SLUG_BYTES + 1));
    for c in name.chars().flat_map(char::to_lowercase) {
        if slug.len() >= MAX_SLUG_BYTES {
            break;
        }
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_matches(|c| c == '-' || c == '.').to_string();
    if slug.is_empty() {
        return "skill".to_string();
    }
    // Windows refuses these names whatever the extension; a trailing `_` makes them plain names.
    let (stem, rest) = slug.split_at(slug.find('.').unwrap_or(slug.len()));
    let numbered =
        |prefix: &str| stem.strip_prefix(prefix).is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit());
    if matches!(stem, "con" | "prn" | "aux" | "nul") || numbered("com") || numbered("lpt") {
        return format!("{stem}_{rest}");
    }
    slug
}

#[cfg(test)]
mod tests {
    use super::{MAX_SLUG_BYTES, Timestamp, slugify};

    #[test]
    fn timestamps_format_as_utc_dates() {
        assert_eq!(Timestamp(0).iso_date(), "1970-01-01");
        assert_eq!(Timestamp(1_786_536_000).long_date(), "August 12, 2026");
        assert_eq!(Timestamp(1_786_528_800).rfc3339(), "2026-08-12T10:00:00Z");
        assert_eq!(Timestamp(951_782_400).iso_date(), "2000-02-29");
        assert_eq!(Timestamp(-86_400).iso_date(), "1969-12-31");
    }

    #[test]
    fn slugs_are_safe_segments() {
        assert_eq!(slugify("code-exec-fallback"), "code-exec-fallback");
        assert_eq!(slugify("My Skill!"), "my-skill");
        assert_eq!(slugify("../../etc"), "etc");
        assert_eq!(slugify(".."), "skill");
        assert_eq!(slugify("a<script>b"), "a-script-b");
        assert_eq!(slugify("CON"), "con_");
        assert_eq!(slugify("nul.txt"), "nul_.txt");
        assert_eq!(slugify("Com1"), "com1_");
        assert_eq!(slugify("lpt9."), "lpt9_");
        assert_eq!(slugify("console"), "console");
        assert_eq!(slugify("com10"), "com10");
        let long = slugify(&"<script>alert(1)</script>".repeat(40));
        assert!(long.len() <= MAX_SLUG_BYTES && !long.ends_with('-'), "{long}");
    }
}
