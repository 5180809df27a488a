//! Conformance to the Agent Skills spec: notes at info or low, apart from safety, which never
//! change the verdict. Found by the spec check ([`crate::spec`]). Part of the one rule
//! table ([`super::RULES`]).

use super::types::{Category, Rule, Severity, whole_file_rule};

pub static RULES: &[Rule] = &[
    spec_rule(
        "spec-frontmatter",
        Severity::Low,
        "Frontmatter missing or not valid YAML",
        "The spec asks for YAML frontmatter between --- lines; agents that cannot read it skip the skill or guess.",
        "Start SKILL.md with ---, the YAML keys, then ---, and quote values that hold \": \".",
    ),
    spec_rule(
        "spec-name",
        Severity::Low,
        "name breaks the spec's rules",
        "The spec's name is 1-64 characters of a-z, 0-9 and single hyphens, not starting or ending with a hyphen; agents may refuse other names.",
        "Rename the skill to lower-case words joined by single hyphens.",
    ),
    spec_rule(
        "spec-name-folder",
        Severity::Low,
        "name differs from the folder name",
        "The spec asks that name equal the skill's folder name; agents install and address the skill by folder.",
        "Rename the folder or the skill so they match.",
    ),
    spec_rule(
        "spec-description",
        Severity::Low,
        "description missing or too long",
        "The description (1-1024 characters) is all an agent reads when deciding to use the skill.",
        "Write one or two sentences on what the skill does and when to use it.",
    ),
    spec_rule(
        "spec-description-angle",
        Severity::Info,
        "description contains < or >",
        "Anthropic's validator rejects angle brackets in the description, which is shown inside XML-like prompts.",
        "Write the brackets as words, or drop them.",
    ),
    spec_rule(
        "spec-compatibility",
        Severity::Info,
        "compatibility is too long",
        "The spec limits compatibility to 500 characters.",
        "Shorten it to the environments the skill needs.",
    ),
    spec_rule(
        "spec-metadata",
        Severity::Info,
        "metadata is not a map of strings",
        "The spec's metadata is a map from string keys to string values; other shapes may be dropped by agents.",
        "Write every metadata value as a string.",
    ),
    spec_rule(
        "spec-allowed-tools",
        Severity::Info,
        "allowed-tools written as a list",
        "The spec's allowed-tools is one space-separated string; some agents ignore a YAML list.",
        "Write allowed-tools: Read Grep Bash(git status:*) on one line.",
    ),
    spec_rule(
        "spec-unknown-key",
        Severity::Info,
        "Top-level keys outside the spec",
        "The spec knows name, description, license, compatibility, metadata and allowed-tools; other keys are ignored by agents.",
        "Move them under metadata.",
    ),
    spec_rule(
        "spec-body-length",
        Severity::Info,
        "SKILL.md body is long",
        "The spec recommends a body under 500 lines and about 5,000 tokens; longer bodies cost context every time the skill loads.",
        "Move detail into reference files that the agent reads only when needed.",
    ),
];

const fn spec_rule(
    id: &'static str,
    severity: Severity,
    title: &'static str,
    why: &'static str,
    fix: &'static str,
) -> Rule {
    whole_file_rule(id, Category::Spec, severity, title, why, fix)
}
