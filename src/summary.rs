//! What one build made: the counts a build prints and the diagnostics it gave. The build's
//! report and the record kept for the next build hold the same summary.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildSummary {
    /// The output folder written.
    pub out: PathBuf,
    /// Skills with a page.
    pub skills: usize,
    pub repos: usize,
    pub pages: usize,
    /// Files in the site and their bytes.
    pub files: usize,
    pub bytes: u64,
    pub diagnostics: Vec<Diagnostic>,
    /// The site's bytes and files by kind of page, largest first, and its largest file.
    #[serde(default)]
    pub size: SiteSize,
}

/// Where a site's bytes go: what a host's limits are measured against.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SiteSize {
    /// By kind of file, largest first.
    pub parts: Vec<SitePart>,
    /// The largest file and its bytes.
    pub largest: Option<(String, u64)>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SitePart {
    pub kind: String,
    pub files: usize,
    pub bytes: u64,
}

impl SiteSize {
    /// Sums `files` (path and bytes) by the kind `kind_of` names for each path.
    pub fn of<'a>(files: impl Iterator<Item = (&'a str, u64)>, kind_of: impl Fn(&str) -> &'static str) -> SiteSize {
        let mut parts: Vec<SitePart> = Vec::new();
        let mut largest: Option<(&str, u64)> = None;
        for (path, bytes) in files {
            let kind = kind_of(path);
            match parts.iter_mut().find(|p| p.kind == kind) {
                Some(part) => {
                    part.files += 1;
                    part.bytes += bytes;
                }
                None => parts.push(SitePart { kind: kind.to_string(), files: 1, bytes }),
            }
            if largest.is_none_or(|(_, most)| bytes > most) {
                largest = Some((path, bytes));
            }
        }
        parts.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.kind.cmp(&b.kind)));
        SiteSize { parts, largest: largest.map(|(path, bytes)| (path.to_string(), bytes)) }
    }

    /// The parts, one per line: kind, files, bytes and bytes per file.
    pub fn table(&self) -> String {
        self.parts
            .iter()
            .map(|p| {
                format!(
                    "  {:<30} {:>8} files {:>9.1} MB {:>7.1} KB a file\n",
                    p.kind,
                    p.files,
                    p.bytes as f64 / 1e6,
                    p.bytes as f64 / 1e3 / p.files.max(1) as f64
                )
            })
            .collect()
    }
}

/// The limits of the static hosts a catalog is deployed to: a site past one of them does not
/// publish there. GitHub Pages: 1 GB; GitLab Pages: 1 GB and 200,000 files (Cloudflare Pages
/// allows 20,000 files on its free plan; README's deployment section lists them).
pub const HOST_MAX_BYTES: u64 = 1_000_000_000;
pub const HOST_MAX_FILES: usize = 200_000;

impl BuildSummary {
    /// A warning when the site passes a host's limit, naming its largest parts.
    pub fn host_limit_warning(&self) -> Option<Diagnostic> {
        let over = match (self.bytes > HOST_MAX_BYTES, self.files > HOST_MAX_FILES) {
            (false, false) => return None,
            (true, false) => {
                format!("{:.2} GB, past the 1 GB that GitHub Pages and GitLab Pages publish", self.bytes as f64 / 1e9)
            }
            (false, true) => format!("{} files, past the {HOST_MAX_FILES} that GitLab Pages publishes", self.files),
            (true, true) => format!(
                "{:.2} GB in {} files, past the 1 GB and {HOST_MAX_FILES} files that GitHub Pages and GitLab Pages publish",
                self.bytes as f64 / 1e9,
                self.files
            ),
        };
        let largest: Vec<String> = (self.size.parts.iter().take(3))
            .map(|p| format!("{} {:.0} MB in {} files", p.kind, p.bytes as f64 / 1e6, p.files))
            .collect();
        let message = format!(
            "the site is {over}; its largest parts: {}. README's \"Deploying\" section says what to turn off or where else to host it",
            largest.join(", ")
        );
        Some(Diagnostic::warning(&self.out, None, message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(bytes: u64, files: usize) -> BuildSummary {
        let parts = [("skill pages", 700_000_000), ("API", 200_000_000), ("listings", 150_000_000)];
        BuildSummary {
            out: "public".into(),
            skills: 1,
            repos: 1,
            pages: 1,
            files,
            bytes,
            diagnostics: Vec::new(),
            size: SiteSize::of(parts.iter().map(|(kind, bytes)| (*kind, *bytes)), |path| match path {
                "skill pages" => "skill pages",
                "API" => "API",
                _ => "listings",
            }),
        }
    }

    #[test]
    fn a_site_past_a_hosts_limit_is_warned_of_with_its_largest_parts() {
        assert!(summary(999_000_000, 199_000).host_limit_warning().is_none());
        let warning = summary(1_050_000_000, 1_000).host_limit_warning().expect("over 1 GB");
        assert!(warning.message.contains("1.05 GB"), "{}", warning.message);
        assert!(warning.message.contains("skill pages 700 MB in 1 files, API 200 MB"), "{}", warning.message);
        let files = summary(10, 250_000).host_limit_warning().expect("over 200,000 files");
        assert!(files.message.contains("250000 files"), "{}", files.message);
    }
}
