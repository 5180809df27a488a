//! The catalog editors' words about skills, from the catalog's data files: one optional notes
//! file per skill, `data/notes/OWNER/REPO/SLUG.toml` (SLUG is the last segment of the skill
//! page's address, `OWNER/REPO/SLUG/`), and the publishers' badges by owner,
//! `data/publishers.toml`. Pages show them as the maintainers' words, apart from what was read
//! from the skill; they are read here, at the edge, so that render does no I/O.
//!
//! ```toml
//! # data/notes/HKUDS/OpenSpace/code-exec-fallback.toml
//! title = "Code execution fallback"
//! summary = "Runs Python through the shell when the sandbox fails."
//! what_it_does = ["Writes the script to a file", "Runs it with python3"]
//! example_prompts = ["The sandbox keeps timing out; run this through the shell instead."]
//! requirements = ["python3 on the agent's machine"]
//!
//! # data/publishers.toml
//! [HKUDS]
//! badge = "Official"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;

pub const NOTES_DIR: &str = "data/notes";
pub const PUBLISHERS_FILE: &str = "data/publishers.toml";

/// What the editors wrote about one skill; every part is optional. Plain text: pages escape it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillNotes {
    /// A display title; the page still shows the skill's own name beside it.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub what_it_does: Vec<String>,
    #[serde(default)]
    pub example_prompts: Vec<String>,
    #[serde(default)]
    pub requirements: Vec<String>,
}

/// One owner's entry in the publishers' table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Publisher {
    /// A short word shown beside the owner's skills, such as "Official".
    pub badge: String,
}

/// Every notes file read, by the skill page's address without slashes at the ends
/// (`OWNER/REPO/SLUG`), and the publishers' table by owner.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Editorial {
    pub notes: BTreeMap<String, SkillNotes>,
    pub publishers: BTreeMap<String, Publisher>,
}

impl Editorial {
    pub fn notes(&self, repo: &str, slug: &str) -> Option<&SkillNotes> {
        if self.notes.is_empty() {
            return None;
        }
        self.notes.get(&format!("{repo}/{slug}"))
    }

    pub fn badge(&self, owner: &str) -> Option<&str> {
        self.publishers.get(owner).map(|p| p.badge.as_str())
    }

    /// A warning for each notes file that names no skill in `known` (`OWNER/REPO/SLUG`).
    pub fn unmatched(&self, root: &Path, known: impl Fn(&str) -> bool) -> Vec<Diagnostic> {
        self.notes
            .keys()
            .filter(|key| !known(key))
            .map(|key| {
                Diagnostic::warning(
                    root.join(NOTES_DIR).join(format!("{key}.toml")),
                    None,
                    format!("no skill page is at {key}/; these notes are not shown (the file name is the page's last segment)"),
                )
            })
            .collect()
    }
}

/// Reads the publishers' table and every notes file below `root`. A missing file or folder is
/// none; a broken file is an error diagnostic naming its line, and is left out.
pub fn load(root: &Path) -> (Editorial, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut editorial = Editorial::default();
    let publishers = root.join(PUBLISHERS_FILE);
    if let Some(table) = read_toml(&publishers, "no badge is shown", &mut diagnostics) {
        editorial.publishers = table;
    }
    let dir = root.join(NOTES_DIR);
    if !dir.is_dir() {
        return (editorial, diagnostics);
    }
    let walk = walkdir::WalkDir::new(&dir).follow_links(false).sort_by_file_name();
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().map_or_else(|| dir.clone(), Path::to_path_buf);
                diagnostics.push(Diagnostic::error(path, None, format!("cannot be read: {err}")));
                continue;
            }
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let path = entry.path();
        let key = match notes_key(&dir, path) {
            Some(key) => key,
            None => {
                diagnostics.push(Diagnostic::warning(
                    path,
                    None,
                    "left out: notes go in data/notes/OWNER/REPO/SLUG.toml",
                ));
                continue;
            }
        };
        if let Some(notes) = read_toml(path, "the skill is shown without its notes", &mut diagnostics) {
            editorial.notes.insert(key, notes);
        }
    }
    (editorial, diagnostics)
}

/// `OWNER/REPO/SLUG` for `dir/OWNER/REPO/SLUG.toml`, else `None`.
fn notes_key(dir: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(dir).ok()?;
    let parts: Vec<&str> = rel.iter().map(|part| part.to_str()).collect::<Option<_>>()?;
    match parts.as_slice() {
        [owner, repo, file] => Some(format!("{owner}/{repo}/{}", file.strip_suffix(".toml")?)),
        _ => None,
    }
}

/// The file read and parsed as `T`; `None` when it is missing (no diagnostic) or broken (a
/// diagnostic saying what is left out: `left_out`).
fn read_toml<T: serde::de::DeserializeOwned>(
    path: &Path,
    left_out: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<T> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
        Err(err) => {
            diagnostics.push(Diagnostic::error(path, None, format!("cannot be read: {err}; {left_out}")));
            return None;
        }
    };
    toml::from_str(&text)
        .map_err(|err| {
            let line = err.span().map(|span| text[..span.start].matches('\n').count() + 1);
            diagnostics.push(Diagnostic::error(PathBuf::from(path), line, format!("{}; {left_out}", err.message())));
        })
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn reads_notes_by_page_address_and_badges_by_owner() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "data/notes/acme/tools/pdf.toml", "title = \"PDF tools\"\nrequirements = [\"poppler\"]\n");
        write(tmp.path(), "data/publishers.toml", "[acme]\nbadge = \"Official\"\n");
        let (editorial, diagnostics) = load(tmp.path());
        assert_eq!(diagnostics, Vec::new());
        let notes = editorial.notes("acme/tools", "pdf").unwrap();
        assert_eq!(notes.title.as_deref(), Some("PDF tools"));
        assert_eq!(notes.requirements, ["poppler"]);
        assert_eq!(editorial.notes("acme/tools", "other"), None);
        assert_eq!(editorial.badge("acme"), Some("Official"));
        assert_eq!(editorial.badge("other"), None);
    }

    #[test]
    fn a_broken_file_is_an_error_at_its_line_and_left_out() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "data/notes/acme/tools/good.toml", "summary = \"Fine.\"\n");
        write(tmp.path(), "data/notes/acme/tools/bad.toml", "summary = \"Fine.\"\n\ntitel = \"typo\"\n");
        write(tmp.path(), "data/notes/acme/stray.toml", "summary = \"Where?\"\n");
        write(tmp.path(), "data/publishers.toml", "[acme]\nbadge = 1\n");
        let (editorial, diagnostics) = load(tmp.path());
        assert_eq!(editorial.notes.keys().collect::<Vec<_>>(), ["acme/tools/good"]);
        assert!(editorial.publishers.is_empty());
        let shown: Vec<String> = diagnostics.iter().map(|d| d.clone().relative_to(tmp.path()).to_string()).collect();
        assert_eq!(shown.len(), 3, "{shown:?}");
        assert!(shown[0].starts_with("data/publishers.toml:2: error: "), "{shown:?}");
        assert!(shown[1].starts_with("data/notes/acme/stray.toml: warning: left out"), "{shown:?}");
        assert!(shown[2].starts_with("data/notes/acme/tools/bad.toml:3: error: unknown field `titel`"), "{shown:?}");
        assert!(shown[2].ends_with("the skill is shown without its notes"), "{shown:?}");
        let unmatched = editorial.unmatched(tmp.path(), |key| key != "acme/tools/good");
        assert_eq!(unmatched.len(), 1);
    }
}
