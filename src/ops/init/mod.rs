//! `catalog init [DIR]`: starts a new catalog, the way `zola init` starts a site; `catalog init
//! --skills [DIR]` adds the workflow that checks a repository of skills. Writes nothing if any of
//! its files already exists.
//!
//! The workflows use this project's GitHub Action (`action.yml` at its root), named by the
//! reference the binary was built with, so they need no setting.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// (path in the new catalog, contents); `{{action}}` stands for the action's reference.
const CATALOG_FILES: &[(&str, &str)] = &[
    ("catalog.toml", include_str!("catalog.toml")),
    ("data/repos.toml", include_str!("repos.toml")),
    (".github/workflows/pages.yml", include_str!("pages.yml")),
    ("README.md", include_str!("README.md")),
    (".gitignore", "/public\n/.public.*\n/.catalog\n"),
];

/// What `--skills` writes into a repository of skills.
const SKILLS_FILES: &[(&str, &str)] = &[(".github/workflows/catalog-check.yml", include_str!("check.yml"))];

/// Stands for the action's `uses:` value in the workflow templates.
const ACTION_SLOT: &str = "{{action}}";

/// The GitHub Action the written workflows use: `owner/repo@ref`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRef {
    /// `owner/repo`.
    pub repo: String,
    /// A tag, a branch or a commit.
    pub git_ref: String,
}

impl ActionRef {
    /// Reads `owner/repo@ref`.
    pub fn parse(text: &str) -> Option<ActionRef> {
        let (repo, git_ref) = text.trim().split_once('@')?;
        let (owner, name) = repo.split_once('/')?;
        let part = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
        let ref_ok = !git_ref.is_empty() && git_ref.bytes().all(|b| b.is_ascii_graphic() && b != b'#');
        (part(owner) && part(name) && ref_ok)
            .then(|| ActionRef { repo: repo.to_string(), git_ref: git_ref.to_string() })
    }

    /// The action this binary was installed from: `CATALOG_ACTION` as set when it was compiled
    /// (by the release workflow and by the action's own install), else the GitHub repository
    /// in Cargo.toml at this version's tag. `None` when neither names one.
    pub fn of_this_build() -> Option<ActionRef> {
        if let Some(action) = option_env!("CATALOG_ACTION").and_then(ActionRef::parse) {
            return Some(action);
        }
        let repo = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/').trim_end_matches(".git");
        let repo = repo.strip_prefix("https://github.com/")?;
        ActionRef::parse(&format!("{repo}@v{}", env!("CARGO_PKG_VERSION")))
    }

    /// Stands in when this build does not know its repository: the workflow says where to
    /// name it, and `catalog init` says so too.
    pub fn placeholder() -> ActionRef {
        ActionRef { repo: "OWNER/REPO".into(), git_ref: format!("v{}", env!("CARGO_PKG_VERSION")) }
    }

    /// The `uses:` value; a commit carries the version it is in a comment, as pinned actions do.
    fn uses(&self) -> String {
        let is_commit = self.git_ref.len() == 40 && self.git_ref.bytes().all(|b| b.is_ascii_hexdigit());
        if is_commit {
            format!("{}@{} # v{}", self.repo, self.git_ref, env!("CARGO_PKG_VERSION"))
        } else {
            format!("{}@{}", self.repo, self.git_ref)
        }
    }
}

/// What to write, and where the action comes from.
#[derive(Debug, Clone)]
pub struct InitOptions {
    /// Only the workflow that checks a repository of skills.
    pub skills: bool,
    /// The action the workflows use.
    pub action: ActionRef,
}

/// Creates the files; returns their paths.
pub fn init(dir: &Path, options: &InitOptions) -> Result<Vec<PathBuf>> {
    let files = if options.skills { SKILLS_FILES } else { CATALOG_FILES };
    let existing: Vec<String> =
        files.iter().filter(|(path, _)| dir.join(path).exists()).map(|(path, _)| path.to_string()).collect();
    if !existing.is_empty() {
        return Err(Error::Output(format!(
            "{} already has {}; nothing was written",
            dir.display(),
            existing.join(", ")
        )));
    }
    let uses = options.action.uses();
    let mut written = Vec::new();
    for (path, contents) in files {
        let full = dir.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&full, contents.replace(ACTION_SLOT, &uses)).map_err(|e| Error::io(&full, e))?;
        written.push(full);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(skills: bool) -> InitOptions {
        InitOptions {
            skills,
            action: ActionRef::parse("acme/catalog@0123456789abcdef0123456789abcdef01234567").unwrap(),
        }
    }

    #[test]
    fn creates_a_catalog_that_builds_and_refuses_to_overwrite() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("new");
        let written = init(&dir, &options(false)).unwrap();
        assert_eq!(written.len(), CATALOG_FILES.len());
        let config = crate::config::Config::load(&dir).expect("the new catalog.toml is valid");
        assert!(config.sources.is_empty());
        std::fs::write(dir.join("README.md"), "mine").unwrap();
        std::fs::remove_file(dir.join("catalog.toml")).unwrap();
        let err = init(&dir, &options(false)).unwrap_err().to_string();
        assert!(err.contains("README.md"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("README.md")).unwrap(), "mine");
        assert!(!dir.join("catalog.toml").exists(), "wrote despite refusing");
    }

    #[test]
    fn the_pages_workflow_uses_the_action_pinned_and_needs_no_variable() {
        let tmp = tempfile::tempdir().unwrap();
        init(tmp.path(), &options(false)).unwrap();
        let workflow = std::fs::read_to_string(tmp.path().join(".github/workflows/pages.yml")).unwrap();
        let pinned =
            format!("uses: acme/catalog@0123456789abcdef0123456789abcdef01234567 # v{}\n", env!("CARGO_PKG_VERSION"));
        assert!(workflow.contains(&pinned), "{workflow}");
        assert!(!workflow.contains(ACTION_SLOT) && !workflow.contains("vars."), "{workflow}");
        assert!(workflow.contains("persist-credentials: false"));
    }

    #[test]
    fn skills_writes_only_the_check_workflow_and_refuses_to_overwrite() {
        let tmp = tempfile::tempdir().unwrap();
        let written = init(tmp.path(), &options(true)).unwrap();
        assert_eq!(written, vec![tmp.path().join(".github/workflows/catalog-check.yml")]);
        assert!(!tmp.path().join("catalog.toml").exists());
        let workflow = std::fs::read_to_string(&written[0]).unwrap();
        for needed in [
            "mode: check",
            "github/codeql-action/upload-sarif@",
            "sarif_file: catalog.sarif",
            "security-events: write",
            "uses: acme/catalog@0123456789abcdef0123456789abcdef01234567",
        ] {
            assert!(workflow.contains(needed), "{needed} missing from\n{workflow}");
        }
        std::fs::write(&written[0], "mine").unwrap();
        assert!(init(tmp.path(), &options(true)).is_err());
        assert_eq!(std::fs::read_to_string(&written[0]).unwrap(), "mine");
    }

    #[test]
    fn action_references_are_read_strictly() {
        let tag = ActionRef::parse("acme/catalog@v1.2.0").unwrap();
        assert_eq!((tag.repo.as_str(), tag.git_ref.as_str()), ("acme/catalog", "v1.2.0"));
        assert_eq!(tag.uses(), "acme/catalog@v1.2.0");
        for bad in ["acme/catalog", "acme@v1", "/catalog@v1", "acme/cat alog@v1", "acme/catalog@", "a/b@v1 # x"] {
            assert_eq!(ActionRef::parse(bad), None, "{bad}");
        }
    }
}
