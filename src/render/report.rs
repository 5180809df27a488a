//! The build report's lines: each diagnostic where a reader finds its file, as a path in its
//! repository linked at the commit read, never the builder's own folders.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Level};
use crate::model::Catalog;

use super::context::ReportLine;

/// Writes the report's lines. Built once per report: a catalog's warnings run to tens of
/// thousands and its repositories to hundreds, so each file is looked up, not compared with
/// every repository.
pub struct Locator<'a> {
    catalog: &'a Catalog,
    roots: Roots<'a>,
}

impl<'a> Locator<'a> {
    pub fn new(catalog: &'a Catalog) -> Self {
        Locator { catalog, roots: Roots::from_roots(catalog.repos.iter().map(|repo| repo.root.as_path())) }
    }

    /// `diagnostic` as a report line.
    pub fn line(&self, diagnostic: &Diagnostic) -> ReportLine {
        let at_line = |path: String| match diagnostic.line {
            Some(line) => format!("{path}:{line}"),
            None => path,
        };
        let (location, href) = match self.roots.find(&diagnostic.file) {
            Some((index, rest)) => {
                let repo = &self.catalog.repos[index];
                let path = slash_path(rest);
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
}

/// The repositories' folders, each by its whole path and by every run of its last parts
/// (`content/acme/tools`, `acme/tools`, `tools`), to the first repository it names.
struct Roots<'a>(HashMap<&'a Path, usize>);

impl<'a> Roots<'a> {
    fn from_roots(roots: impl Iterator<Item = &'a Path>) -> Self {
        let mut map = HashMap::new();
        for (index, root) in roots.enumerate() {
            map.entry(root).or_insert(index);
            let mut tail = root.components();
            while tail.next().is_some() && tail.clone().next().is_some() {
                map.entry(tail.as_path()).or_insert(index);
            }
        }
        Roots(map)
    }

    /// The repository whose folder holds `file` (the innermost, when sources nest), and the
    /// file's path inside it. An absolute file is inside a root that is one of its folders; a
    /// relative one (diagnostics name files from the catalog's folder,
    /// `content/owner/repo/SKILL.md`) is inside a root whose last parts are its first parts.
    fn find<'f>(&self, file: &'f Path) -> Option<(usize, &'f Path)> {
        let (index, rest) = if file.is_absolute() {
            file.ancestors().skip(1).find_map(|folder| Some((*self.0.get(folder)?, file.strip_prefix(folder).ok()?)))
        } else {
            let parts: Vec<_> = file.components().collect();
            (1..parts.len()).rev().find_map(|n| {
                let head: PathBuf = parts[..n].iter().collect();
                Some((*self.0.get(head.as_path())?, file.strip_prefix(&head).ok()?))
            })
        }?;
        (!rest.as_os_str().is_empty()).then_some((index, rest))
    }
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
        let roots =
            [Path::new("/home/me/catalog/content/acme/tools"), Path::new("/home/me/catalog/content/acme/tools/nested")];
        let locator = Roots::from_roots(roots.iter().copied());
        let found = |file: &str| locator.find(Path::new(file)).map(|(index, rest)| (index, slash_path(rest)));
        assert_eq!(found("content/acme/tools/skills/a/SKILL.md"), Some((0, "skills/a/SKILL.md".into())));
        assert_eq!(
            found("/home/me/catalog/content/acme/tools/skills/a/SKILL.md"),
            Some((0, "skills/a/SKILL.md".into()))
        );
        // The innermost of nested sources, from either end.
        assert_eq!(found("acme/tools/nested/SKILL.md"), Some((1, "SKILL.md".into())));
        assert_eq!(found("/home/me/catalog/content/acme/tools/nested/x/SKILL.md"), Some((1, "x/SKILL.md".into())));
        assert_eq!(found("content/acme/other/SKILL.md"), None);
        assert_eq!(found("catalog.toml"), None);
        assert_eq!(found("/home/me/catalog/catalog.toml"), None);
        assert_eq!(shown_path(Path::new("/tmp/x/data/notes/a.toml")), "notes/a.toml");
    }
}
