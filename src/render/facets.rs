//! Facets that search filters and the JSON API share: a skill's safety verdict, the agents it
//! names, its licence.

use crate::agents::AGENTS;
use crate::model::Skill;
use crate::scan::Verdict;

/// (id, label) of the skill's safety verdict.
pub fn verdict(skill: &Skill) -> (&'static str, &'static str) {
    match skill.verdict {
        Verdict::Passed => ("passed", "Auto-check passed"),
        Verdict::Notes => ("notes", "Auto-check notes"),
        Verdict::NotChecked => ("not-checked", "Auto-check not finished"),
        Verdict::Failed => ("failed", "Auto-check failed"),
    }
}

/// The agents a skill can be used with: those its `compatibility` field names, else all of
/// them (every agent in the table loads SKILL.md folders).
pub fn agents(skill: &Skill) -> Vec<&'static str> {
    agents_named(skill.compatibility.as_deref())
}

/// [`agents`] from the `compatibility` field alone.
pub fn agents_named(compatibility: Option<&str>) -> Vec<&'static str> {
    let all = || AGENTS.agents.iter().map(|a| a.id.as_str()).collect();
    let Some(compatibility) = compatibility else { return all() };
    let text = compatibility.to_lowercase();
    let named: Vec<&'static str> = AGENTS
        .agents
        .iter()
        .filter(|a| names_word(&text, &a.name.to_lowercase()) || names_word(&text, &a.id))
        .map(|a| a.id.as_str())
        .collect();
    if named.is_empty() { all() } else { named }
}

/// Whether `text` holds `word` as a whole word: "declines" names no Cline, "precursor" no Cursor.
fn names_word(text: &str, word: &str) -> bool {
    let inside_word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    text.match_indices(word).any(|(at, _)| {
        !inside_word(text[..at].chars().next_back()) && !inside_word(text[at + word.len()..].chars().next())
    })
}

/// The licence as a facet value: the SPDX id, "custom" or "unknown".
pub fn license_id(skill: &Skill) -> String {
    let license = &skill.analysis.license;
    license_id_of(license.spdx.as_deref(), license.origin == crate::analyze::license::LicenseOrigin::None)
}

/// [`license_id`] from the SPDX id, when recognised, and whether no licence was found at all.
pub fn license_id_of(spdx: Option<&str>, no_licence: bool) -> String {
    match (spdx, no_licence) {
        (Some(id), _) => id.to_string(),
        (None, true) => "unknown".into(),
        (None, false) => "custom".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_are_named_by_whole_words() {
        assert_eq!(agents_named(Some("Claude Code, Cline and Roo Code")), ["claude-code", "roo-code", "cline"]);
        assert_eq!(agents_named(Some("Works in Kiro; needs goose 1.25")), ["kiro", "goose"]);
        let all: Vec<&str> = AGENTS.agents.iter().map(|a| a.id.as_str()).collect();
        // No agent named: every agent, since all of them load SKILL.md folders.
        assert_eq!(agents_named(Some("declines precursors")), all);
        assert_eq!(agents_named(None), all);
    }
}
