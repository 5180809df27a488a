//! The catalog as the render stage sees it: repositories and skills, each with the facts of
//! every stage before, and the stable URL path of its page.

use std::path::PathBuf;

use crate::analyze::{Analysis, License};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::discover::{RepoId, SkillDir};
use crate::parse::ParsedSkill;

#[derive(Debug)]
pub struct Catalog {
    pub config: Config,
    /// Sorted by owner/name.
    pub repos: Vec<Repo>,
    /// Sorted by repository, then folder.
    pub skills: Vec<Skill>,
    /// Everything the build could not read or had to guess, sorted by file and line.
    pub diagnostics: Vec<Diagnostic>,
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
}

impl Repo {
    /// `owner/name/`
    pub fn url_path(&self) -> String {
        format!("{}/{}/", self.id.owner, self.id.name)
    }

    pub fn web_url(&self) -> String {
        format!("https://github.com/{}", self.id.full())
    }
}

#[derive(Debug)]
pub struct Skill {
    /// Index into `Catalog::repos`.
    pub repo: usize,
    /// The URL segment of the page: the folder name made URL-safe, unique within the repository.
    pub slug: String,
    pub dir: SkillDir,
    pub parsed: ParsedSkill,
    pub analysis: Analysis,
    /// What the safety scanner found in every text file of the skill folder.
    pub scan: crate::scan::ScanReport,
    /// The frontmatter name, else the folder name.
    pub name: String,
    pub description: String,
}

impl Skill {
    /// `owner/name/slug/`
    pub fn url_path(&self, repo: &Repo) -> String {
        format!("{}{}/", repo.url_path(), self.slug)
    }

    pub fn folder_name<'a>(&'a self, repo: &'a Repo) -> &'a str {
        self.dir.folder_name(&repo.id)
    }
}

/// A URL-safe path segment: lower-case ASCII letters, digits, `-`, `_` and `.`, never `.` or `..`.
pub fn slugify(name: &str) -> String {
    let mut slug = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_matches(|c| c == '-' || c == '.').to_string();
    if slug.is_empty() { "skill".to_string() } else { slug }
}

#[cfg(test)]
mod tests {
    use super::slugify;

    #[test]
    fn slugs_are_safe_segments() {
        assert_eq!(slugify("code-exec-fallback"), "code-exec-fallback");
        assert_eq!(slugify("My Skill!"), "my-skill");
        assert_eq!(slugify("../../etc"), "etc");
        assert_eq!(slugify(".."), "skill");
        assert_eq!(slugify("a<script>b"), "a-script-b");
    }
}
