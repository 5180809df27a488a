//! The skill's own words, sorted into the page's reader-facing sections: what it does, when
//! an agent uses it, requirements, workflow steps, example prompts. Everything is taken from
//! the description and the Markdown outline; nothing is invented.

use std::sync::LazyLock;

use regex::Regex;

use crate::parse::ParsedSkill;
use crate::parse::frontmatter::value_text;

/// Where the steps of a skill were read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StepsSource {
    StepHeadings,
    NumberedList,
}

impl StepsSource {
    pub fn label(self) -> &'static str {
        match self {
            StepsSource::StepHeadings => "step headings",
            StepsSource::NumberedList => "a numbered list",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Digest {
    /// The display title: metadata title, else the first `#` heading, else the name in title case.
    pub title: String,
}

/// The rest of the digest, which the skill's own page, the taxonomy and the similar-skill
/// ranking read; kept apart from [`Digest`], which every page that lists the skill reads.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DigestBody {
    /// Paragraphs that introduce the skill, from the body before its first section.
    pub intro: Vec<String>,
    pub when_to_use: Vec<String>,
    pub example_prompts: Vec<String>,
    pub requirements: Vec<String>,
    pub steps: Vec<String>,
    /// Where `steps` came from: "step headings" or "a numbered list".
    pub steps_source: Option<StepsSource>,
    /// Titles of the body's main sections (the level below the title).
    pub sections: Vec<String>,
}

static WHEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bwhen\b|\buse cases?\b|\btriggers?\b|\buse this\b|\bwhen this helps\b").unwrap()
});
static EXAMPLE_PROMPTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)example (prompts?|requests?|queries|questions)|sample prompts?|trigger phrases|example usage prompts",
    )
    .unwrap()
});
static REQUIREMENTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)requirements?|prerequisites?|dependencies|you will need|before you start").unwrap()
});
static WORKFLOW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)workflow|steps?|process|procedure|instructions|how to use|usage|the pattern").unwrap()
});
static STEP_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^(?:step|phase|stage)\s*(\d+)\s*[:.)\-–—]?\s*(.*)$|^(\d+)[.)]\s+(.+)$").unwrap());

pub fn digest(skill: &ParsedSkill, folder_name: &str) -> (Digest, DigestBody) {
    let outline = &skill.outline;
    let fm = &skill.frontmatter;
    let heading_text = |section: &crate::parse::markdown::Section| {
        section.heading.and_then(|h| outline.headings.get(h)).map_or("", |h| h.text.as_str())
    };

    let explicit_title = ["title", "display_name", "display-name"]
        .iter()
        .find_map(|k| fm.metadata.get(*k).or_else(|| fm.extra.get(*k)).and_then(value_text));
    let h1 = outline.headings.iter().find(|h| h.level == 1).map(|h| h.text.clone()).filter(|t| !t.is_empty());
    let name = fm.name.clone().unwrap_or_else(|| folder_name.to_string());
    let title = explicit_title.or(h1).unwrap_or_else(|| title_case(&name));

    // Intro: paragraphs before the first heading, or right under the H1.
    let mut intro: Vec<String> = Vec::new();
    for section in &outline.sections {
        let level = section.heading.and_then(|h| outline.headings.get(h)).map(|h| h.level);
        if level.is_none() || level == Some(1) {
            intro.extend(section.paragraphs.iter().take(2).cloned());
        } else {
            break;
        }
    }

    let top_level = outline.headings.iter().filter(|h| h.level > 1).map(|h| h.level).min();
    let sections: Vec<String> =
        outline.headings.iter().filter(|h| Some(h.level) == top_level).map(|h| h.text.clone()).collect();

    let mut when_to_use = Vec::new();
    let mut example_prompts = Vec::new();
    let mut requirements = Vec::new();
    for section in &outline.sections {
        let title = heading_text(section);
        if title.is_empty() {
            continue;
        }
        if EXAMPLE_PROMPTS.is_match(title) {
            example_prompts
                .extend(section.items.iter().map(|i| i.trim_matches(|c| c == '"' || c == '“' || c == '”').to_string()));
        } else if WHEN.is_match(title) && !REQUIREMENTS.is_match(title) {
            // A "When to use" section written as prose counts as one case.
            let cases = if section.items.is_empty() { &section.paragraphs } else { &section.items };
            when_to_use.extend(cases.iter().cloned());
        } else if REQUIREMENTS.is_match(title) {
            requirements.extend(section.items.iter().cloned());
        }
    }

    // Steps: "Step 1: ..." headings first; else the first numbered list under a workflow heading.
    let mut steps: Vec<String> = outline
        .headings
        .iter()
        .filter(|h| h.level > 1)
        .filter_map(|h| STEP_HEADING.captures(&h.text))
        .map(|caps| caps.get(2).or(caps.get(4)).map(|m| m.as_str().trim().to_string()).unwrap_or_default())
        .filter(|s| !s.is_empty())
        .collect();
    let mut steps_source = (!steps.is_empty()).then_some(StepsSource::StepHeadings);
    if steps.len() < 2 {
        steps.clear();
        steps_source = None;
        if let Some(section) =
            outline.sections.iter().find(|s| s.ordered && s.items.len() >= 2 && WORKFLOW.is_match(heading_text(s)))
        {
            steps = section.items.iter().map(|i| first_sentence(i)).collect();
            steps_source = Some(StepsSource::NumberedList);
        }
    }

    (Digest { title }, DigestBody { intro, when_to_use, example_prompts, requirements, steps, steps_source, sections })
}

/// `code-exec-fallback` -> `Code Exec Fallback`.
pub fn title_case(name: &str) -> String {
    name.split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The item's lead: text before the first ": " or sentence end, so steps read as short titles.
fn first_sentence(item: &str) -> String {
    let cut = item.find(": ").or_else(|| item.find(". ")).unwrap_or(item.len());
    let lead = item.get(..cut).unwrap_or(item).trim().trim_end_matches('.');
    lead.chars().take(120).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn digest_of(text: &str) -> (Digest, DigestBody) {
        let parsed = crate::parse::parse_skill(Path::new("SKILL.md"), text.as_bytes()).unwrap();
        digest(&parsed, "folder")
    }

    #[test]
    fn sorts_sections_into_the_digest() {
        let (d, body) = digest_of(
            "---\nname: my-skill\n---\n# My Skill\n\nDoes things.\n\n## When to Use\n\n- Case one\n- Case two\n\n## Requirements\n\n- Python 3\n\n## Steps\n\n### Step 1: Write it\n\n### Step 2: Run it\n\n## Example prompts\n\n- \"Do the thing\"\n",
        );
        assert_eq!(d.title, "My Skill");
        assert_eq!(body.intro, ["Does things."]);
        assert_eq!(body.when_to_use, ["Case one", "Case two"]);
        assert_eq!(body.requirements, ["Python 3"]);
        assert_eq!(body.steps, ["Write it", "Run it"]);
        assert_eq!(body.steps_source, Some(StepsSource::StepHeadings));
        assert_eq!(body.example_prompts, ["Do the thing"]);
        assert_eq!(body.sections, ["When to Use", "Requirements", "Steps", "Example prompts"]);
    }

    #[test]
    fn numbered_workflow_lists_are_steps() {
        let (d, body) =
            digest_of("---\nname: my-skill\n---\n## Workflow\n\n1. Read the file: carefully\n2. Fix it. Then more.\n");
        assert_eq!(d.title, "My Skill");
        assert_eq!(body.steps, ["Read the file", "Fix it"]);
        assert_eq!(body.steps_source, Some(StepsSource::NumberedList));
    }
}
