//! The catalog as the render stage sees it: repositories and skills, each with the facts of
//! every stage before, and the stable URL path of its page.

use std::path::PathBuf;

use crate::analyze::{Analysis, DigestBody, License};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::discover::{RepoId, SkillDir};
use crate::parse::frontmatter::Frontmatter;
use crate::time::Timestamp;

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
    /// The catalog editors' notes and publishers' badges, from the catalog's data files.
    pub editorial: crate::notes::Editorial,
}

/// Serialized (`Serialize`), its whole self is what render keys hash of it (`render::keys`).
#[derive(Debug, serde::Serialize)]
pub struct Repo {
    pub id: RepoId,
    /// The folder the repository was read from.
    #[serde(serialize_with = "crate::discover::path_lossy")]
    pub root: PathBuf,
    /// The licence of the repository itself (its root LICENSE file).
    pub license: License,
    /// Number of skill folders found, including those whose SKILL.md could not be read.
    pub skill_folders: usize,
    /// Indices into `Catalog::skills`, in folder order. Keyed as their count: an index means
    /// nothing without the catalog, which no page input holds; the skills a page shows of a
    /// repository are in its input on their own.
    #[serde(serialize_with = "count")]
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

impl Repo {
    /// Skill folders left out of the catalog (their SKILL.md could not be read); each has an
    /// error in the build report.
    pub fn left_out(&self) -> usize {
        self.skill_folders.saturating_sub(self.skills.len())
    }

    /// `owner/name/`
    pub fn url_path(&self) -> String {
        [&self.id.owner, "/", &self.id.name, "/"].concat()
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

    /// The address of a file's bytes as they are (path relative to the repository root), at the
    /// commit read.
    pub fn file_raw_url(&self, path: &str) -> Option<String> {
        self.web_url().map(|web| format!("{web}/raw/{}/{path}", self.web_rev()))
    }
}

/// Serialized (`Serialize`), its whole self is what render keys hash of it (`render::keys`).
#[derive(Debug, serde::Serialize)]
pub struct Skill {
    /// Index into `Catalog::repos`. Not keyed: the repository is in every page input beside
    /// the skill, keyed whole.
    #[serde(skip)]
    pub repo: usize,
    /// The URL segment of the page: the folder name made URL-safe, unique within the repository.
    pub slug: String,
    pub dir: SkillDir,
    /// The frontmatter's `compatibility` field: the agents it names.
    pub compatibility: Option<String>,
    /// Byte offset of the body within SKILL.md's text, which the orchestrator hands render apart
    /// (`render::SkillTexts`).
    pub body_start: usize,
    pub analysis: Analysis,
    /// What the safety scanner made of the skill folder's files (the findings themselves are
    /// in [`SkillPageFacts`]).
    pub verdict: crate::scan::Verdict,
    /// The frontmatter name, else the folder name.
    pub name: String,
    pub description: String,
    /// How its frontmatter was read (strictly, leniently, or there was none).
    pub reading: crate::parse::Reading,
    /// Tags, categories and products, as the taxonomy classifies the skill on its own.
    pub topics: crate::relate::Topics,
    /// Dates from git; `None` is "not known".
    pub history: SkillHistory,
    /// Identical copies of the folder across the catalog.
    pub copies: crate::relate::copies::Copies,
    /// Whether another skill of its repository has the same display title
    /// ([`crate::relate::titles`]): cards and rows then name its folder too.
    #[serde(default)]
    pub title_shared: bool,
}

/// The facts of a skill that only its own page reads: its frontmatter, its digest's body and
/// what the safety scanner found. The build hands them to render one skill at a time
/// (`render::SkillTexts`), beside the catalog: a build that renders a few skill pages needs
/// only theirs.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct SkillPageFacts {
    pub frontmatter: Frontmatter,
    pub body: DigestBody,
    /// What the safety scanner found in every text file of the skill folder.
    pub scan: crate::scan::ScanReport,
}

/// A list keyed as its length (see [`Repo::skills`]).
fn count<S: serde::Serializer>(list: &[usize], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(list.len() as u64)
}

impl Skill {
    /// `owner/name/slug/`
    pub fn url_path(&self, repo: &Repo) -> String {
        [&repo.url_path(), self.slug.as_str(), "/"].concat()
    }

    pub fn folder_name<'a>(&'a self, repo: &'a Repo) -> &'a str {
        self.dir.folder_name(&repo.id)
    }

    /// Its SKILL.md as a path in its repository, named by the repository: `owner/name/dir/SKILL.md`.
    pub fn repo_path(&self, repo: &Repo) -> String {
        match self.dir.rel_dir.as_str() {
            "" => format!("{}/{}", repo.id.full(), self.dir.skill_file),
            rel => format!("{}/{rel}/{}", repo.id.full(), self.dir.skill_file),
        }
    }
}
