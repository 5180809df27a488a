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
}
