//! `catalog.toml`: the catalog's title, address and skill sources.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};

pub const CONFIG_FILE: &str = "catalog.toml";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Shown in every page title and the site header.
    pub title: String,
    /// The absolute address the site is served from, e.g. `https://owner.github.io/skills/`.
    /// Pages link to each other relatively, so this only feeds canonical URLs, the sitemap and
    /// the feed.
    #[serde(default = "default_base_url")]
    pub base_url: String,
    /// One line under the title on the home page.
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub sources: Vec<SourceConfig>,
    /// Scanner findings accepted with a reason; paths are `owner/repo/path/in/repo` globs.
    #[serde(default)]
    pub suppress: Vec<crate::scan::suppress::Suppression>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceConfig {
    /// A folder holding the repository's files, relative to catalog.toml: a git work tree or a
    /// plain folder. Exactly one of `path` and `git` is set.
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// A git URL (https, ssh, file, or a local path) to clone into `.catalog/sources/`.
    #[serde(default)]
    pub git: Option<String>,
    /// With `git`: the branch, tag or commit to read; the remote's default branch when absent.
    #[serde(default)]
    pub rev: Option<String>,
    /// With `git`: whether to fetch the whole history (for first-seen and last-changed dates).
    /// `false` fetches only the commit read, and those dates are not known.
    #[serde(default = "default_history")]
    pub history: bool,
    /// The repository the folder is a copy of, as "owner/name".
    pub repo: String,
}

fn default_history() -> bool {
    true
}

impl SourceConfig {
    /// What the source is, as the user wrote it: its path or its URL (and rev).
    pub fn location(&self) -> String {
        match (&self.path, &self.git, &self.rev) {
            (Some(path), _, _) => path.display().to_string(),
            (None, Some(url), Some(rev)) => format!("{url} at {rev}"),
            (None, Some(url), None) => url.clone(),
            (None, None, _) => String::new(),
        }
    }
}

fn default_base_url() -> String {
    "/".to_string()
}

impl Config {
    /// Reads `root/catalog.toml`.
    pub fn load(root: &Path) -> Result<Config> {
        let path = root.join(CONFIG_FILE);
        let text = std::fs::read_to_string(&path).map_err(|error| Error::Io { path: path.clone(), error })?;
        Self::parse(&text, &path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let config: Config = toml::from_str(text).map_err(|err| {
            let line = err.span().map(|span| text[..span.start].lines().count().max(1));
            Error::Config { path: path.to_path_buf(), line, message: err.message().to_string() }
        })?;
        for source in &config.sources {
            let error = |message: String| Error::Config { path: path.to_path_buf(), line: None, message };
            if crate::discover::RepoId::parse(&source.repo).is_none() {
                return Err(error(format!("source repo {:?} is not of the form \"owner/name\"", source.repo)));
            }
            match (&source.path, &source.git) {
                (Some(_), Some(_)) => {
                    return Err(error(format!("source {} sets both `path` and `git`; set one", source.repo)));
                }
                (None, None) => {
                    return Err(error(format!(
                        "source {} sets neither `path` (a folder) nor `git` (a URL); set one",
                        source.repo
                    )));
                }
                (Some(_), None) if source.rev.is_some() || !source.history => {
                    return Err(error(format!(
                        "source {}: `rev` and `history` apply to `git` sources only; a folder is read as it is",
                        source.repo
                    )));
                }
                _ => {}
            }
        }
        for suppression in &config.suppress {
            if let Some(problem) = suppression.problem() {
                return Err(Error::Config { path: path.to_path_buf(), line: None, message: problem });
            }
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config> {
        Config::parse(text, Path::new("catalog.toml"))
    }

    #[test]
    fn sources_are_folders_or_git_urls() {
        let config = parse(
            "title = \"t\"\n[[sources]]\npath = \"a\"\nrepo = \"o/a\"\n\
             [[sources]]\ngit = \"https://github.com/o/b\"\nrev = \"v1\"\nrepo = \"o/b\"\n",
        )
        .unwrap();
        assert_eq!(config.sources[0].path.as_deref(), Some(Path::new("a")));
        assert_eq!(config.sources[1].git.as_deref(), Some("https://github.com/o/b"));
        assert_eq!(config.sources[1].location(), "https://github.com/o/b at v1");
        assert!(config.sources[1].history);
    }

    #[test]
    fn a_source_needs_exactly_one_location() {
        let both = parse("title = \"t\"\n[[sources]]\npath = \"a\"\ngit = \"u\"\nrepo = \"o/a\"\n");
        assert!(both.unwrap_err().to_string().contains("both `path` and `git`"));
        let neither = parse("title = \"t\"\n[[sources]]\nrepo = \"o/a\"\n");
        assert!(neither.unwrap_err().to_string().contains("neither"));
        let rev_on_folder = parse("title = \"t\"\n[[sources]]\npath = \"a\"\nrev = \"main\"\nrepo = \"o/a\"\n");
        assert!(rev_on_folder.unwrap_err().to_string().contains("`git` sources only"));
        let typo = parse("title = \"t\"\n[[sources]]\ngit = \"u\"\nrevision = \"x\"\nrepo = \"o/a\"\n");
        assert!(typo.is_err());
    }
}
