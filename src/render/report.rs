//! The build report's lines: each diagnostic where a reader finds its file, as a path in its
//! repository linked at the commit read, never the builder's own folders.

use std::path::Path;

use crate::diag::{Diagnostic, Level};
use crate::model::Catalog;

use super::context::ReportLine;

/// `diagnostic` as a report line.
pub fn line(catalog: &Catalog, diagnostic: &Diagnostic) -> ReportLine {
    let at_line = |path: String| match diagnostic.line {
        Some(line) => format!("{path}:{line}"),
        None => path,
    };
    let (location, href) = match in_repository(catalog, &diagnostic.file) {
        Some((repo, path)) => {
            // `?plain=1` shows Markdown as text, so that the line anchor lands.
            let anchor = diagnostic.line.map(|line| format!("?plain=1#L{line}")).unwrap_or_default();
            let href = repo.file_web_url(&path).map(|url| format!("{url}{anchor}"));
            (format!("{}: {}", repo.id.full(), at_line(path)), href)
        }
        None => (at_line(shown_path(&diagnostic.file)), None),
    };
    ReportLine {
        level: match diagnostic.level {
            Level::Error => "error".into(),
            Level::Warning => "warning".into(),
        },
        location,
        href,
        message: diagnostic.message.clone(),
    }
}

/// The repository whose folder holds `file` (the innermost, when sources nest), and the file's
/// path inside it, with `/` between its parts.
fn in_repository<'a>(catalog: &'a Catalog, file: &Path) -> Option<(&'a crate::model::Repo, String)> {
    catalog
        .repos
        .iter()
        .filter_map(|repo| inside(&repo.root, file).map(|rest| (repo, rest)))
        .min_by_key(|(_, rest)| rest.components().count())
        .map(|(repo, rest)| (repo, slash_path(rest)))
}

/// `file`'s path inside the folder `root`. A diagnostic names its file from the catalog's folder
/// (`content/owner/repo/SKILL.md`) while a repository's root may be absolute: a relative file is
/// inside `root` when its first parts are the last parts of `root`.
fn inside<'f>(root: &Path, file: &'f Path) -> Option<&'f Path> {
    let rest = if file.is_absolute() {
        file.strip_prefix(root).ok()?
    } else {
        let parts: Vec<_> = file.components().collect();
        (1..parts.len()).find_map(|n| {
            let head: std::path::PathBuf = parts[..n].iter().collect();
            if root.ends_with(&head) { file.strip_prefix(&head).ok() } else { None }
        })?
    };
    (!rest.as_os_str().is_empty()).then_some(rest)
}

/// A file outside every repository (`catalog.toml`, a data file) by its name from the catalog's
/// folder: its last parts, never the absolute path it was read from.
fn shown_path(file: &Path) -> String {
    if file.is_relative() {
        return slash_path(file);
    }
    let parts: Vec<String> =
        file.components().rev().take(2).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

fn slash_path(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_found_inside_its_repository_from_either_end() {
        let root = Path::new("/home/me/catalog/content/acme/tools");
        let file = Path::new("content/acme/tools/skills/a/SKILL.md");
        assert_eq!(inside(root, file), Some(Path::new("skills/a/SKILL.md")));
        let absolute = Path::new("/home/me/catalog/content/acme/tools/skills/a/SKILL.md");
        assert_eq!(inside(root, absolute), Some(Path::new("skills/a/SKILL.md")));
        assert_eq!(inside(root, Path::new("content/acme/other/SKILL.md")), None);
        assert_eq!(inside(root, Path::new("catalog.toml")), None);
        assert_eq!(shown_path(Path::new("/tmp/x/data/notes/a.toml")), "notes/a.toml");
    }
}
