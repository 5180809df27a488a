//! The types of the rule table, and the constructors its entries are written with.

use serde::Serialize;

/// How bad a finding is. Ordered: `Info < Low < Medium < High < Critical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 5] =
        [Severity::Info, Severity::Low, Severity::Medium, Severity::High, Severity::Critical];

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        Severity::ALL.into_iter().find(|s| s.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a rule is about. `Spec` rules are conformance, kept apart from the safety verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    RemoteCode,
    Credentials,
    Secrets,
    HiddenUnicode,
    Destructive,
    Obfuscation,
    Exfiltration,
    Persistence,
    AgentInstructions,
    Permissions,
    Spec,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::RemoteCode => "remote-code",
            Category::Credentials => "credentials",
            Category::Secrets => "secrets",
            Category::HiddenUnicode => "hidden-unicode",
            Category::Destructive => "destructive",
            Category::Obfuscation => "obfuscation",
            Category::Exfiltration => "exfiltration",
            Category::Persistence => "persistence",
            Category::AgentInstructions => "agent-instructions",
            Category::Permissions => "permissions",
            Category::Spec => "spec",
        }
    }
}

/// Which text of a skill a line pattern reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Markdown and plain-text prose (SKILL.md, references), outside code blocks, inline code
    /// and quotations.
    Prose,
    /// Code: fenced blocks and inline code in Markdown, and every script or config file.
    Code,
    /// Every line of every text file.
    All,
}

/// A line pattern: every regex in `all` must match the line; the finding sits at the first
/// one's match.
#[derive(Debug, Clone, Copy)]
pub struct Pattern {
    pub all: &'static [&'static str],
    /// The severity its findings have, when not the rule's: a line that only names what a rule
    /// is about (an address in a deny-list) is a lower tier of evidence than one that acts on
    /// it. A rule lists such a pattern after the ones that act, which share its first regex:
    /// where both match, the finding is theirs.
    pub severity: Option<Severity>,
}

pub(crate) const fn p(all: &'static [&'static str]) -> Pattern {
    Pattern { all, severity: None }
}

/// A line pattern whose findings are `severity`, below its rule's (see [`Pattern::severity`]).
pub(crate) const fn p_named(severity: Severity, all: &'static [&'static str]) -> Pattern {
    Pattern { all, severity: Some(severity) }
}

#[derive(Debug, Clone)]
pub struct Rule {
    /// Stable id, kebab-case; what suppressions, SARIF and the page name.
    pub id: &'static str,
    pub category: Category,
    /// The default severity; a finding may be reported lower or higher (e.g. `rm -rf $DIR/`
    /// is high, `rm -rf /` critical) and says so.
    pub severity: Severity,
    pub title: &'static str,
    /// Why it matters, in one or two sentences.
    pub why: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// Where line patterns apply; ignored for rules found by code only.
    pub scope: Scope,
    /// Line patterns (regex, case-insensitive); empty for rules found by code only.
    pub patterns: &'static [Pattern],
    /// Whether a suppression may silence it (never for secret values).
    pub suppressible: bool,
    /// Report only the first finding per file (and, with `per_text`, per matched text).
    pub once_per_file: bool,
}

/// A rule without line patterns: its findings come from a reader that looks at more than one
/// line (the spec checks, instructions, flows).
pub(crate) const fn whole_file_rule(
    id: &'static str,
    category: Category,
    severity: Severity,
    title: &'static str,
    why: &'static str,
    fix: &'static str,
) -> Rule {
    Rule {
        id,
        category,
        severity,
        title,
        why,
        fix,
        scope: Scope::All,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    }
}
