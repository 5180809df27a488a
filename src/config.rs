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
    /// A folder holding the repository's files, relative to catalog.toml.
    pub path: PathBuf,
    /// The repository the folder is a copy of, as "owner/name".
    pub repo: String,
}

fn default_base_url() -> String {
    "/".to_string()
}

impl Config {
    /// Reads `root/catalog.toml`.
    pub fn load(root: &Path) -> Result<Config> {
        let path = root.join(CONFIG_FILE);
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
        Self::parse(&text, &path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let config: Config = toml::from_str(text).map_err(|err| {
            let line = err.span().map(|span| text[..span.start].lines().count().max(1));
            Error::Config { path: path.to_path_buf(), line, message: err.message().to_string() }
        })?;
        for source in &config.sources {
            if crate::discover::RepoId::parse(&source.repo).is_none() {
                return Err(Error::Config {
                    path: path.to_path_buf(),
                    line: None,
                    message: format!("source repo {:?} is not of the form \"owner/name\"", source.repo),
                });
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
