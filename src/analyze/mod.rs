//! Analyze: a parsed skill -> the facts its page shows (token cost, capabilities, licence,
//! digest). Pure functions of the parsed skill and the texts handed in; each fact is computed
//! here once and read by every page that shows it.

// Untrusted input must not be able to panic the reader: no unchecked indexing or slicing.
#![deny(clippy::indexing_slicing, clippy::string_slice)]

pub mod capabilities;
pub mod digest;
pub mod license;

pub use capabilities::Capabilities;
pub use digest::{Digest, DigestBody};
pub use license::License;

use crate::discover::RepoId;
use crate::parse::ParsedSkill;

/// The context cost of a skill, by the usual rule of thumb of four characters a token.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cost {
    /// Characters of SKILL.md.
    pub chars: usize,
    /// Tokens the whole SKILL.md costs once loaded.
    pub tokens: usize,
    /// Tokens the name and description cost while the skill waits to be chosen.
    pub idle_tokens: usize,
    /// Words of instructions outside code blocks.
    pub words: usize,
}

pub use catalog_skill::tokens_for_chars;

pub fn cost(skill: &ParsedSkill) -> Cost {
    let chars = skill.text.chars().count();
    let name = skill.frontmatter.name.as_deref().unwrap_or("").chars().count();
    let description = skill.frontmatter.description.as_deref().unwrap_or("").chars().count();
    Cost {
        chars,
        tokens: tokens_for_chars(chars),
        idle_tokens: tokens_for_chars(name + description),
        words: skill.outline.words,
    }
}

/// What analysis knows about one skill, but the body of its digest ([`DigestBody`]), which
/// only the skill's own page and the reading of it use.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Analysis {
    pub cost: Cost,
    pub capabilities: Capabilities,
    pub digest: Digest,
    pub license: License,
}

/// Licence texts found beside the skill, read by the caller.
pub struct LicenseInputs<'a> {
    pub skill_file: Option<license::LicenseText<'a>>,
    pub repo_file: Option<license::LicenseText<'a>>,
}

/// The skill's analysis, and the body of its digest apart (see [`DigestBody`]).
pub fn analyze(
    skill: &ParsedSkill,
    repo: &RepoId,
    folder_name: &str,
    licenses: LicenseInputs,
) -> (Analysis, DigestBody) {
    let (digest, body) = digest::digest(skill, folder_name);
    let analysis = Analysis {
        cost: cost(skill),
        capabilities: capabilities::capabilities(skill, repo),
        digest,
        license: license::license(skill.frontmatter.license.as_deref(), licenses.skill_file, licenses.repo_file),
    };
    (analysis, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_rounding() {
        assert_eq!(tokens_for_chars(2352), 588);
        assert_eq!(tokens_for_chars(93), 23);
        assert_eq!(tokens_for_chars(94), 24);
        assert_eq!(tokens_for_chars(0), 0);
    }
}
