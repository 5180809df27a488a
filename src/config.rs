//! `catalog.toml`: the catalog's title, address and skill sources.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub const CONFIG_FILE: &str = "catalog.toml";

// Serialize: the build's fingerprint and what skills are read with are hashed from these bytes.
#[derive(Debug, Clone, Deserialize, Serialize)]
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
    /// What the site publishes beside its pages (`[publish]`).
    #[serde(default)]
    pub publish: PublishConfig,
    /// A preview of a folder that names no repository (no git remote): its pages say that
    /// install commands need one instead of making up an address.
    #[serde(skip_deserializing)]
    pub without_repository: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
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
    /// The line of catalog.toml its `[[sources]]` table starts on, for errors about it.
    #[serde(skip_deserializing)]
    pub line: Option<usize>,
}

fn default_history() -> bool {
    true
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PublishConfig {
    /// `/.well-known/agent-skills/index.json`, for agents to find the skills by themselves, and
    /// an archive of each listed skill with files beside SKILL.md (a copy of SKILL.md for a
    /// skill that is that file alone). Unset: published for a catalog of up to
    /// [`PublishConfig::SKILL_INDEX_UP_TO`] skills.
    #[serde(default)]
    pub skill_index: Option<bool>,
    /// The most bytes of SKILL.md's body a skill page shows; a longer text is shown up to its
    /// last whole block within the limit, with a link to the whole file. `0`: always whole.
    /// Unset: whole in a catalog of up to [`PublishConfig::WHOLE_TEXTS_UP_TO`] skills, else
    /// [`PublishConfig::TEXT_LIMIT`], and [`PublishConfig::LARGE_TEXT_LIMIT`] above
    /// [`PublishConfig::LARGE_CATALOG`] skills.
    #[serde(default)]
    pub text_limit: Option<usize>,
    /// The JSON API (`api/skills.json`, `api/repos/`). Unset: published for a catalog of up to
    /// [`PublishConfig::LARGE_CATALOG`] skills.
    #[serde(default)]
    pub api: Option<bool>,
}

impl PublishConfig {
    /// The most skills a catalog publishes the discovery index and archives for unless told:
    /// at 6,800 real skills they were 47 MB in 2,900 files and a tenth of the build's time,
    /// which at 60,000 skills is past what a static host holds beside the pages.
    pub const SKILL_INDEX_UP_TO: usize = 2_000;

    /// The catalog size up to which pages show SKILL.md whole unless told.
    pub const WHOLE_TEXTS_UP_TO: usize = 2_000;
    /// The text shown on a page of a larger catalog: SKILL.md texts average 7.8 KB in real
    /// registries, and at 60,000 skills shown whole they alone are half of GitHub Pages' 1 GB.
    pub const TEXT_LIMIT: usize = 4_000;
    /// The catalog size above which pages show less of each text: past it, 4,000 bytes of each
    /// text and a page's other 11 KB put a catalog past GitHub Pages' 1 GB.
    pub const LARGE_CATALOG: usize = 30_000;
    /// The text shown on a page of a catalog of more than [`PublishConfig::LARGE_CATALOG`] skills.
    pub const LARGE_TEXT_LIMIT: usize = 1_500;

    /// The most bytes of SKILL.md a page of a catalog of `skills` shows; `None`: all of it.
    pub fn text_limit_for(&self, skills: usize) -> Option<usize> {
        match self.text_limit {
            Some(0) => None,
            Some(limit) => Some(limit),
            None if skills > Self::LARGE_CATALOG => Some(Self::LARGE_TEXT_LIMIT),
            None => (skills > Self::WHOLE_TEXTS_UP_TO).then_some(Self::TEXT_LIMIT),
        }
    }

    /// Whether a catalog of `skills` publishes the JSON API: at 6,800 real skills it was 12.5 MB,
    /// 1.8 KB a skill, which at 60,000 skills is a tenth of GitHub Pages' 1 GB, and a
    /// one-repository catalog's file would pass the 100 MB a file may hold there.
    pub fn api_for(&self, skills: usize) -> bool {
        self.api.unwrap_or(skills <= Self::LARGE_CATALOG)
    }

    /// Whether a catalog of `skills` publishes the discovery index.
    pub fn skill_index_for(&self, skills: usize) -> bool {
        self.skill_index.unwrap_or(skills <= Self::SKILL_INDEX_UP_TO)
    }
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
        let text = std::fs::read_to_string(&path).map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => Error::Config {
                path: path.clone(),
                line: None,
                message: format!(
                    "not found; `catalog init {}` starts a catalog there, or --root names the folder that holds one",
                    root.display()
                ),
            },
            _ => Error::Io { path: path.clone(), error },
        })?;
        Self::parse(&text, &path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let mut config: Config = toml::from_str(text).map_err(|err| Error::Config {
            path: path.to_path_buf(),
            line: err.span().map(|span| line_at(text, span.start)),
            message: err.message().to_string(),
        })?;
        // Each `[[sources]]` header, in order: the line errors about that source name.
        let headers = text.lines().enumerate().filter(|(_, l)| l.trim_start().starts_with("[[sources]]"));
        for (source, (index, _)) in config.sources.iter_mut().zip(headers) {
            source.line = Some(index + 1);
        }
        for source in &config.sources {
            let error = |message: String| Error::Config { path: path.to_path_buf(), line: source.line, message };
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

    /// Refuses a folder source whose `path` (relative to `root`) is missing or not a folder: a
    /// catalog without it would be published as if the repository held no skills.
    pub fn check_source_folders(&self, root: &Path) -> Result<()> {
        for source in &self.sources {
            let Some(path) = &source.path else { continue };
            let dir = root.join(path);
            let problem = match std::fs::metadata(&dir) {
                Ok(meta) if meta.is_dir() => continue,
                Ok(_) => "is not a folder",
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => "does not exist",
                Err(_) => "cannot be read",
            };
            return Err(Error::Config {
                path: root.join(CONFIG_FILE),
                line: source.line,
                message: format!(
                    "source {}: path {:?} ({}) {problem}",
                    source.repo,
                    path.display().to_string(),
                    dir.display()
                ),
            });
        }
        Ok(())
    }
}

/// The 1-based line of byte `offset` in `text`.
fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config> {
        Config::parse(text, Path::new("catalog.toml"))
    }

    #[test]
    fn the_api_is_left_out_of_large_catalogs_unless_told() {
        let unset = PublishConfig::default();
        assert!(unset.api_for(PublishConfig::LARGE_CATALOG));
        assert!(!unset.api_for(PublishConfig::LARGE_CATALOG + 1));
        assert!(PublishConfig { api: Some(true), ..unset.clone() }.api_for(60_000));
        assert!(!PublishConfig { api: Some(false), ..unset }.api_for(10));
    }

    #[test]
    fn texts_are_cut_shorter_as_the_catalog_grows_unless_told() {
        let unset = PublishConfig::default();
        assert_eq!(unset.text_limit_for(2_000), None);
        assert_eq!(unset.text_limit_for(2_001), Some(PublishConfig::TEXT_LIMIT));
        assert_eq!(unset.text_limit_for(30_000), Some(PublishConfig::TEXT_LIMIT));
        assert_eq!(unset.text_limit_for(30_001), Some(PublishConfig::LARGE_TEXT_LIMIT));
        let whole = PublishConfig { text_limit: Some(0), ..PublishConfig::default() };
        assert_eq!(whole.text_limit_for(60_000), None);
        let set = PublishConfig { text_limit: Some(9_000), ..PublishConfig::default() };
        assert_eq!(set.text_limit_for(60_000), Some(9_000));
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

    #[test]
    fn errors_name_the_line_they_are_about() {
        let line_of = |text: &str| match parse(text).unwrap_err() {
            Error::Config { line, .. } => line,
            other => panic!("{other}"),
        };
        // The unknown key's own line, not the one before it.
        assert_eq!(line_of("title = \"t\"\n\n[[sources]]\npath = \"a\"\nrepo = \"o/a\"\nrevsion = \"x\"\n"), Some(6));
        assert_eq!(line_of("title = \"t\"\ntitel = \"x\"\n"), Some(2));
        // A source's own problems name its `[[sources]]` line.
        let second = "title = \"t\"\n[[sources]]\npath = \"a\"\nrepo = \"o/a\"\n\n[[sources]]\nrepo = \"o/b\"\n";
        assert_eq!(line_of(second), Some(6));
    }

    #[test]
    fn a_missing_or_file_source_path_names_its_sources_line() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("a")).unwrap();
        std::fs::write(tmp.path().join("file"), "x").unwrap();
        let text =
            "title = \"t\"\n[[sources]]\npath = \"a\"\nrepo = \"o/a\"\n[[sources]]\npath = \"PATH\"\nrepo = \"o/b\"\n";
        for (path, says) in [("missing", "does not exist"), ("file", "is not a folder")] {
            let config = parse(&text.replace("PATH", path)).unwrap();
            let err = config.check_source_folders(tmp.path()).unwrap_err();
            let shown = err.to_string();
            assert!(shown.contains("catalog.toml:5: source o/b"), "{shown}");
            assert!(shown.contains(says), "{shown}");
        }
        assert!(parse(&text.replace("PATH", "a")).unwrap().check_source_folders(tmp.path()).is_ok());
    }

    #[test]
    fn a_missing_catalog_toml_says_how_to_start_one() {
        let tmp = tempfile::tempdir().unwrap();
        let shown = Config::load(tmp.path()).unwrap_err().to_string();
        assert!(shown.contains("catalog.toml: not found; `catalog init"), "{shown}");
    }
}
