//! Diagnostics: what a stage could not read or had to guess, with the file and line it concerns.
//!
//! A diagnostic never stops the build; the build summary prints them and `--strict` turns them
//! into a failing exit code.

use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The input was read, but something in it was guessed or left out.
    Warning,
    /// The input (a skill, a source) could not be used at all.
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    pub level: Level,
    /// The file the diagnostic is about, as the user would type it (relative to the catalog root
    /// where possible).
    pub file: PathBuf,
    /// 1-based line, where one is known.
    pub line: Option<usize>,
    pub message: String,
}

impl Diagnostic {
    pub fn error(file: impl Into<PathBuf>, line: Option<usize>, message: impl Into<String>) -> Self {
        Self { level: Level::Error, file: file.into(), line, message: message.into() }
    }

    pub fn warning(file: impl Into<PathBuf>, line: Option<usize>, message: impl Into<String>) -> Self {
        Self { level: Level::Warning, file: file.into(), line, message: message.into() }
    }

    /// The same diagnostic with its path shown relative to `base` (when it lies below it).
    pub fn relative_to(mut self, base: &Path) -> Self {
        if let Ok(rel) = self.file.strip_prefix(base) {
            self.file = rel.to_path_buf();
        }
        self
    }
}

/// Past this many, a command lists errors only and counts the rest.
const LISTED_IN_FULL: usize = 20;

/// Prints diagnostics to stderr: every one when `all` or when there are few, else the errors
/// and a count (the site's report page lists every one).
pub fn print_all(diagnostics: &[Diagnostic], all: bool) {
    let listed = all || diagnostics.len() <= LISTED_IN_FULL;
    for diag in diagnostics.iter().filter(|d| listed || d.level == Level::Error) {
        eprintln!("{diag}");
    }
    if !listed {
        eprintln!(
            "... {} in all; -v lists every one, and the site's report/ page has them too",
            crate::plural::count(diagnostics.len(), "diagnostic")
        );
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Warning => "warning",
            Level::Error => "error",
        };
        match self.line {
            Some(line) => write!(f, "{}:{}: {}: {}", self.file.display(), line, level, self.message),
            None => write!(f, "{}: {}: {}", self.file.display(), level, self.message),
        }
    }
}
