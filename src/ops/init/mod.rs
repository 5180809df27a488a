//! `catalog init [DIR]`: starts a new catalog, the way `zola init` starts a site. Writes nothing
//! if any of its files already exists.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// (path in the new catalog, contents)
const FILES: &[(&str, &str)] = &[
    ("catalog.toml", include_str!("catalog.toml")),
    ("data/repos.toml", include_str!("repos.toml")),
    (".github/workflows/pages.yml", include_str!("pages.yml")),
    ("README.md", include_str!("README.md")),
    (".gitignore", "/public\n/.public.*\n/.catalog\n"),
];

/// Creates the files; returns their paths.
pub fn init(dir: &Path) -> Result<Vec<PathBuf>> {
    let existing: Vec<String> =
        FILES.iter().filter(|(path, _)| dir.join(path).exists()).map(|(path, _)| path.to_string()).collect();
    if !existing.is_empty() {
        return Err(Error::Output(format!(
            "{} already has {}; nothing was written",
            dir.display(),
            existing.join(", ")
        )));
    }
    let mut written = Vec::new();
    for (path, contents) in FILES {
        let full = dir.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&full, contents).map_err(|e| Error::io(&full, e))?;
        written.push(full);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_a_catalog_that_builds_and_refuses_to_overwrite() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("new");
        let written = init(&dir).unwrap();
        assert_eq!(written.len(), FILES.len());
        let config = crate::config::Config::load(&dir).expect("the new catalog.toml is valid");
        assert!(config.sources.is_empty());
        std::fs::write(dir.join("README.md"), "mine").unwrap();
        std::fs::remove_file(dir.join("catalog.toml")).unwrap();
        let err = init(&dir).unwrap_err().to_string();
        assert!(err.contains("README.md"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("README.md")).unwrap(), "mine");
        assert!(!dir.join("catalog.toml").exists(), "wrote despite refusing");
    }
}
