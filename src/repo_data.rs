//! `data/repos.toml` beside catalog.toml: figures about repositories that only their host knows,
//! such as stars, keyed by `owner/name`. `catalog stats` refreshes it; `catalog build` only
//! reads it, so a build never needs the network.
//!
//! ```toml
//! ["HKUDS/OpenSpace"]
//! stars = 7749
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::error::{Error, Result};

pub const REPO_DATA_FILE: &str = "data/repos.toml";

/// What the data file says about one repository; every figure is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepoFigures {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stars: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
    /// When the host last received a push, as the host gives it (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pushed_at: Option<String>,
}

/// `owner/name` -> figures, sorted.
pub type RepoData = BTreeMap<String, RepoFigures>;

pub fn path(root: &Path) -> PathBuf {
    root.join(REPO_DATA_FILE)
}

/// Reads the data file; a missing file is empty, a broken one is a diagnostic.
pub fn load(root: &Path) -> (RepoData, Option<Diagnostic>) {
    let path = path(root);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return (RepoData::new(), None),
        Err(err) => return (RepoData::new(), Some(Diagnostic::error(path, None, format!("cannot be read: {err}")))),
    };
    match parse(&text) {
        Ok(data) => (data, None),
        Err((line, message)) => (
            RepoData::new(),
            Some(Diagnostic::error(path, line, format!("{message}; its figures (stars) are left out"))),
        ),
    }
}

fn parse(text: &str) -> std::result::Result<RepoData, (Option<usize>, String)> {
    toml::from_str(text).map_err(|err| {
        let line = err.span().map(|span| text[..span.start].matches('\n').count() + 1);
        (line, err.message().to_string())
    })
}

/// Writes the data file, sorted, so the same figures always give the same bytes.
pub fn save(root: &Path, data: &RepoData) -> Result<()> {
    let path = path(root);
    let body = toml::to_string(data).map_err(|e| Error::Output(format!("{}: {e}", path.display())))?;
    let text = format!(
        "# Repository figures by owner/name, refreshed by `catalog stats` (GitHub REST API).\n\
         # Edit by hand for repositories it cannot reach; see README.md.\n\n{body}"
    );
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    std::fs::write(&path, text).map_err(|e| Error::io(&path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_unknown_keys() {
        let tmp = tempfile::tempdir().unwrap();
        let mut data = RepoData::new();
        data.insert("HKUDS/OpenSpace".into(), RepoFigures { stars: Some(7749), ..Default::default() });
        save(tmp.path(), &data).unwrap();
        let text = std::fs::read_to_string(path(tmp.path())).unwrap();
        assert!(text.contains("[\"HKUDS/OpenSpace\"]\nstars = 7749\n"), "{text}");
        assert_eq!(load(tmp.path()), (data, None));
        std::fs::write(path(tmp.path()), "[\"a/b\"]\nstar = 1\n").unwrap();
        let (data, diag) = load(tmp.path());
        assert!(data.is_empty());
        assert_eq!(diag.unwrap().line, Some(2));
    }
}
