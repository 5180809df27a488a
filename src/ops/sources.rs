//! `catalog sources`: each source with the commit it is read at and its skill count, from
//! what is on disk (the cache for git URLs); it never uses the network.

use std::path::Path;

use crate::config::Config;
use crate::discover::{self, RepoId};
use crate::error::Result;
use crate::sources::{self, Kind, Mode};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRow {
    pub repo: String,
    /// `folder`, `git work tree` or `git URL`.
    pub kind: &'static str,
    /// The path or URL (and rev) from catalog.toml.
    pub location: String,
    /// Short commit, when the files come from one.
    pub commit: Option<String>,
    /// Skill folders found; `None` when the source cannot be read (see `problem`).
    pub skills: Option<usize>,
    pub problem: Option<String>,
}

pub fn list(root: &Path) -> Result<Vec<SourceRow>> {
    let config = Config::load(root)?;
    let mut rows = Vec::new();
    for source in &config.sources {
        let (resolved, diagnostics) = sources::resolve_one(root, source, Mode::Offline);
        let kind = if source.git.is_some() { "git URL" } else { "folder" };
        let row = match resolved {
            Some(resolved) => {
                let repo = RepoId::parse(&source.repo).expect("validated when the config was read");
                let (found, _) = discover::discover_source(repo, &resolved.dir);
                SourceRow {
                    repo: source.repo.clone(),
                    kind: match resolved.kind {
                        Kind::Folder => "folder",
                        Kind::WorkTree => "git work tree",
                        Kind::Remote => "git URL",
                    },
                    location: resolved.location,
                    commit: resolved.git.map(|g| g.commit.to_hex_with_len(7).to_string()),
                    skills: Some(found.skills.len()),
                    problem: None,
                }
            }
            None => SourceRow {
                repo: source.repo.clone(),
                kind,
                location: source.location(),
                commit: None,
                skills: None,
                problem: diagnostics.first().map(|d| d.message.clone()),
            },
        };
        rows.push(row);
    }
    Ok(rows)
}
