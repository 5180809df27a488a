//! Purpose consistency, read from the skill's own frontmatter: a download run from the host of
//! the tool the skill says it is about is that tool's installer, which the user asked for by
//! choosing the skill. It is a note (`remote-code-installer`), like the well-known installers;
//! a download run from any other host still fails.
//!
//! The same for a write the skill says it makes: hooks written by a skill whose name or
//! description speaks of hooks, the agent's instructions file by one that speaks of it, a
//! crontab by one that speaks of scheduling. Declared where the user reads before installing,
//! such a write is a note; the same write in a skill that says nothing of it still fails. A
//! write that turns the agent's safety off is its own rule, which this never lowers.
//!
//! The subject is what the skill's name and description say, which the user reads before
//! installing it; words elsewhere in the skill do not count.

use crate::Finding;
use crate::commands::address_in;
use crate::destinations::host_and_path;

/// Weighs `findings` against what the skill's frontmatter says it is for (its name, or its
/// folder's without one, and its description).
pub fn weigh(findings: &mut [Finding], frontmatter: &catalog_skill::parse::Frontmatter, folder_name: &str) {
    let name = frontmatter.name.as_deref().unwrap_or(folder_name);
    let description = frontmatter.description.as_deref().unwrap_or("");
    installers_of_its_subject(findings, name, description);
    declared_writes(findings, name, description);
}

/// Words too common in descriptions, or in installer addresses, to name a tool.
const COMMON: &[&str] = &[
    "agent",
    "agents",
    "claude",
    "code",
    "install",
    "installer",
    "installs",
    "setup",
    "tool",
    "tools",
    "skill",
    "skills",
    "with",
    "from",
    "that",
    "this",
    "when",
    "your",
    "user",
    "users",
    "using",
    "used",
    "files",
    "file",
    "script",
    "scripts",
    "release",
    "releases",
    "download",
    "downloads",
    "master",
    "main",
    "latest",
    "binary",
    "github",
    "gitlab",
    "raw",
    "http",
    "https",
    "www",
    "cli",
    "app",
    "apps",
    "server",
    "service",
    "cloud",
    "data",
    "help",
    "helps",
    "manage",
    "manages",
    "create",
    "build",
    "run",
    "runs",
    "get",
    "static",
    "cdn",
];

/// Lowers each `remote-code-run` finding whose address is on the host (or, on a code host, in
/// the repository) of a tool the skill's name or description names.
pub fn installers_of_its_subject(findings: &mut [Finding], name: &str, description: &str) {
    // Most skills have no such finding: their name and description are not read.
    if !findings.iter().any(|f| f.rule.id == "remote-code-run") {
        return;
    }
    let subject = words(&format!("{name} {description}"));
    if subject.is_empty() {
        return;
    }
    for finding in findings.iter_mut().filter(|f| f.rule.id == "remote-code-run") {
        let address = match address_in(&finding.message) {
            a if a.is_empty() => address_in(&finding.matched),
            a => a,
        };
        let Some(tool) = address_words(&address).into_iter().find(|w| names(&subject, w)) else { continue };
        finding.rule = crate::rules::known("remote-code-installer");
        finding.severity = finding.rule.severity;
        finding.message.push_str(&format!(" (the installer of {tool}, which the skill's name or description names)"));
    }
}

/// What a write is to, by the words of its finding, and the words a skill's name or description
/// says it with.
const DECLARED_WRITES: &[(&str, &[&str], &[&str])] = &[
    (
        "agent-config-tamper",
        &["hook", "pretooluse", "posttooluse", "sessionstart", "userpromptsubmit"],
        &["hook", "hooks", "pretooluse", "posttooluse", "sessionstart"],
    ),
    ("agent-config-tamper", &["statusline", "status line"], &["statusline", "status"]),
    ("agent-config-tamper", &["claude.md", "agents.md", "gemini.md"], &["claude", "agents", "gemini", "memory"]),
    ("agent-config-tamper", &["settings.json"], &["settings", "plugins", "plugin", "permissions"]),
    (
        "persistence-cron",
        &["cron"],
        &["cron", "crontab", "schedule", "scheduled", "scheduler", "scheduling", "periodic"],
    ),
];

/// Lowers to a note each write of [`DECLARED_WRITES`] whose object the skill's name or
/// description names.
pub fn declared_writes(findings: &mut [Finding], name: &str, description: &str) {
    let lowered =
        |f: &Finding| f.severity > crate::Severity::Medium && DECLARED_WRITES.iter().any(|(r, _, _)| *r == f.rule.id);
    if !findings.iter().any(lowered) {
        return;
    }
    let subject = lower_words(&format!("{name} {description}"));
    for finding in findings.iter_mut().filter(|f| lowered(f)) {
        let what = format!("{} {}", finding.message, finding.matched).to_ascii_lowercase();
        let declared = DECLARED_WRITES.iter().any(|(rule, objects, words)| {
            *rule == finding.rule.id
                && objects.iter().any(|o| what.contains(o))
                && words.iter().any(|w| subject.iter().any(|s| s == w))
        });
        if declared {
            finding.severity = crate::Severity::Medium;
            finding.message.push_str(" (a write the skill's name or description says it makes)");
        }
    }
}

/// The distinct lower-case words of `text`.
fn lower_words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The words of `text` that can name a tool: four letters or more, without the common ones.
fn words(text: &str) -> Vec<String> {
    lower_words(text).into_iter().filter(|w| w.len() >= 4 && !COMMON.contains(&w.as_str())).collect()
}

/// The words of an address that can name a tool: the host's labels, and on a code host the
/// owner's and the repository's names.
fn address_words(address: &str) -> Vec<String> {
    let target = host_and_path(address);
    let (host, path) = target.split_once('/').unwrap_or((&target, ""));
    let host = host.split(':').next().unwrap_or(host);
    let code_host = matches!(host, "github.com" | "raw.githubusercontent.com" | "gitlab.com" | "codeberg.org");
    let source = if code_host { path.split('/').take(2).collect::<Vec<_>>().join(" ") } else { host.to_string() };
    words(&source)
}

/// Whether the subject names `word` of an address: the same word, or one the address's word
/// begins with (`flux` for `fluxcd`).
fn names(subject: &[String], word: &str) -> bool {
    subject.iter().any(|s| word == s || (word.starts_with(s.as_str()) && s.len() >= 4))
}

#[cfg(test)]
mod tests {
    use crate::scan_text;

    #[test]
    fn a_write_the_description_declares_is_a_note() {
        let text = "Add a `PreToolUse` hook to `.claude/settings.json` that blocks `git commit --no-verify`.\n";
        let judged = |name: &str, description: &str| {
            let mut findings = scan_text("SKILL.md", text);
            super::declared_writes(&mut findings, name, description);
            findings.iter().map(|f| (f.rule.id, f.severity.as_str())).collect::<Vec<_>>()
        };
        assert_eq!(
            judged("block-no-verify-hook", "A hook that stops commits that skip checks."),
            [("agent-config-tamper", "medium")]
        );
        assert_eq!(judged("release-notes", "Formats release notes."), [("agent-config-tamper", "high")]);
    }

    fn judged(name: &str, description: &str, line: &str) -> Vec<(&'static str, &'static str)> {
        let mut findings = scan_text("install.sh", line);
        super::installers_of_its_subject(&mut findings, name, description);
        findings.iter().map(|f| (f.rule.id, f.severity.as_str())).collect()
    }

    #[test]
    fn the_installer_of_the_tool_a_skill_is_about_is_a_note() {
        let line = "curl -fsSL https://windsurf.com/install.sh | bash\n";
        assert_eq!(
            judged("windsurf-install-auth", "Install Windsurf and sign in.", line),
            [("remote-code-installer", "medium")]
        );
        let repo = "curl -sfL https://raw.githubusercontent.com/acme/lokalise-cli-install/master/install.sh | sh\n";
        assert_eq!(judged("ci", "Runs Lokalise in CI.", repo), [("remote-code-installer", "medium")]);
        // Another host, or words that name no tool, still fail.
        assert_eq!(judged("notes", "Takes notes for the user.", line), [("remote-code-run", "critical")]);
        let common = "curl -fsSL https://get.agent-tools.net/install.sh | bash\n";
        assert_eq!(judged("agent-tools", "Installs agent tools.", common), [("remote-code-run", "critical")]);
    }
}
