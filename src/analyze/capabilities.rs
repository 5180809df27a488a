//! What a skill can do on a user's machine, as its text says: the programs its shell code calls,
//! the URLs it mentions, the credential names it uses, and the tools it pre-approves.
//! These are facts for the page, not safety findings.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use crate::discover::RepoId;
use crate::parse::ParsedSkill;

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Capabilities {
    /// Programs called from shell code, first-seen order.
    pub commands: Vec<String>,
    /// URLs in SKILL.md other than links into the skill's own repository.
    pub urls: Vec<String>,
    /// Names ending in _API_KEY, _TOKEN, _SECRET, _KEY or _PASSWORD.
    pub credential_names: Vec<String>,
    /// Tool patterns from `allowed-tools`; empty when the line is absent.
    pub allowed_tools: Vec<String>,
    /// Whether an `allowed-tools` line is present at all.
    pub has_allowed_tools: bool,
}

#[derive(Deserialize)]
struct CommandTable {
    known: BTreeSet<String>,
    shell_langs: BTreeSet<String>,
    shell_words: BTreeSet<String>,
}

static COMMANDS: LazyLock<CommandTable> =
    LazyLock::new(|| toml::from_str(include_str!("../../data/commands.toml")).expect("data/commands.toml is valid"));
static URL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"https?://[^\s<>"'`)\]}|\\]+"#).unwrap());
/// The endings of a credential's name; `_API_KEY` ends in `_KEY`.
const CREDENTIAL_SUFFIXES: [&str; 4] = ["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];
static CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| {
    // Parts may be joined by more than one underscore (`APP__ADMIN__PASSWORD`, nested settings).
    Regex::new(r"\b[A-Z][A-Z0-9]*(?:_+[A-Z0-9]+)*_+(?:API_KEY|TOKEN|SECRET|KEY|PASSWORD)\b").unwrap()
});

pub fn capabilities(skill: &ParsedSkill, repo: &RepoId) -> Capabilities {
    // (line, command) from code blocks and inline code, then in document order.
    let mut found: Vec<(usize, String)> = Vec::new();
    for block in &skill.outline.code_blocks {
        let is_shell = COMMANDS.shell_langs.contains(&block.lang);
        if is_shell || block.lang.is_empty() || block.lang == "text" {
            for (offset, line) in block.text.lines().enumerate() {
                found.extend(commands_in_line(line, is_shell).into_iter().map(|c| (block.line + offset, c)));
            }
        }
    }
    for (code, line) in &skill.outline.inline_code {
        found.extend(commands_in_line(code, false).into_iter().map(|c| (*line, c)));
    }
    found.sort_by_key(|(line, _)| *line);
    let mut commands: Vec<String> = Vec::new();
    for (_, command) in found {
        if !commands.contains(&command) {
            commands.push(command);
        }
    }

    let own_repo = format!("github.com/{}/", repo.full().to_lowercase());
    let own_repo_exact = format!("github.com/{}", repo.full().to_lowercase());
    let mut urls: Vec<String> = Vec::new();
    for m in URL.find_iter(&skill.text) {
        let url = m.as_str().trim_end_matches(['.', ',', ':', ';', '!', '?', '*', '_', '\'']);
        let lower = url.to_lowercase();
        let into_own_repo = lower.contains(&own_repo)
            || lower.ends_with(&own_repo_exact)
            || lower.contains(&format!("{own_repo_exact}.git"));
        if url.len() > "https://".len() && !into_own_repo && !urls.iter().any(|u| u == url) {
            urls.push(url.to_string());
        }
    }

    let mut credential_names: Vec<String> = Vec::new();
    // The pattern starts with nothing a literal search finds, so its automaton would read
    // every byte of every skill; most skills hold none of the suffixes it ends with.
    let may_name_credential = CREDENTIAL_SUFFIXES
        .iter()
        .any(|suffix| memchr::memmem::find(skill.text.as_bytes(), suffix.as_bytes()).is_some());
    if may_name_credential {
        for m in CREDENTIAL.find_iter(&skill.text) {
            if !credential_names.iter().any(|c| c == m.as_str()) {
                credential_names.push(m.as_str().to_string());
            }
        }
    }

    let allowed = skill.frontmatter.allowed_tools.as_ref();
    Capabilities {
        commands,
        urls,
        credential_names,
        allowed_tools: allowed.map(|a| a.tools.clone()).unwrap_or_default(),
        has_allowed_tools: allowed.is_some(),
    }
}

/// The programs a line of shell calls. In a shell block every simple command's first word
/// counts; elsewhere only known programs at the start of the line.
fn commands_in_line(line: &str, is_shell: bool) -> Vec<String> {
    let line = line.trim();
    let line = line
        .strip_prefix("$ ")
        .or_else(|| line.strip_prefix("> "))
        .or_else(|| line.strip_prefix("PS> "))
        .unwrap_or(line);
    if line.starts_with('#') || line.is_empty() {
        return Vec::new();
    }
    let segments: Vec<&str> = if is_shell { shell_segments(line) } else { vec![line] };
    let mut found = Vec::new();
    for segment in segments {
        let mut words =
            segment.split_whitespace().skip_while(|w| is_assignment(w) || *w == "sudo" || *w == "exec" || *w == "time");
        let Some(word) = words.next() else { continue };
        // A quoted first word is a string (an item of a list, a line of a message), not a program.
        if is_shell && word.starts_with(['"', '\'']) {
            continue;
        }
        let word = word.trim_matches(|c| c == '(' || c == ')' || c == '"' || c == '\'');
        let name = word.rsplit('/').next().unwrap_or(word);
        let known = COMMANDS.known.contains(name);
        let plausible = is_shell
            && !COMMANDS.shell_words.contains(name)
            && name.len() > 1
            && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        if known || plausible {
            // Scripts are named by their path (`scripts/check.sh`), programs by their name.
            let shown = if word.contains('/') && !known { word } else { name };
            found.push(shown.to_string());
        }
        if !is_shell {
            break;
        }
    }
    found
}

/// A line of shell cut where a new command may start: at `|`, `||`, `&&`, `;` and `&` outside
/// quotes, and at `$(` and a backquote outside single quotes (a substitution runs inside double
/// quotes too). What a quoted string holds (`grep -E "a|b"`) is an argument, not a command.
fn shell_segments(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let (mut single, mut double) = (false, false);
    // A `$(` opens a command of its own, quotes outside it aside, until its `)`.
    let mut outer_double: Vec<bool> = Vec::new();
    let mut segments = Vec::new();
    let (mut start, mut i) = (0, 0);
    while let Some(&b) = bytes.get(i) {
        let cut = match b {
            b'\\' if !single => {
                i += 2;
                continue;
            }
            b'\'' if !double => {
                single = !single;
                0
            }
            b'"' if !single => {
                double = !double;
                0
            }
            b'`' if !single => 1,
            b'$' if !single && bytes.get(i + 1) == Some(&b'(') => {
                outer_double.push(double);
                double = false;
                2
            }
            b')' if !single && !double && !outer_double.is_empty() => {
                double = outer_double.pop().unwrap_or(false);
                0
            }
            b'|' | b'&' if !single && !double => {
                if bytes.get(i + 1) == Some(&b) {
                    2
                } else {
                    1
                }
            }
            b';' if !single && !double => 1,
            _ => 0,
        };
        if cut > 0 {
            segments.push(line.get(start..i).unwrap_or_default());
            start = i + cut;
            i += cut;
        } else {
            i += 1;
        }
    }
    segments.push(line.get(start..).unwrap_or_default());
    segments
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(name, _)| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn caps(text: &str) -> Capabilities {
        let parsed = crate::parse::parse_skill(Path::new("SKILL.md"), text.as_bytes()).unwrap();
        capabilities(&parsed, &RepoId::parse("acme/skills").unwrap())
    }

    #[test]
    fn reads_commands_from_shell_blocks_and_inline_code() {
        let c = caps(
            "---\nname: a\n---\nRun `python3 x.py`, not `the thing`.\n\n```bash\nFOO=1 docker compose up && jq . | sudo tee x\nif true; then echo hi; fi\n./scripts/run.sh\n```\n\n```\n- Command: \"python3 y.py\"\n```\n",
        );
        assert_eq!(c.commands, ["python3", "docker", "jq", "tee", "./scripts/run.sh"]);
    }

    #[test]
    fn quoted_text_is_an_argument_not_a_command() {
        let c = caps(
            "---\nname: a\n---\n```bash\npython -m markitdown out.pptx | grep -iE \"xxxx|lorem|ipsum\"\necho 'a; rm -rf x' && date\necho \"today: $(uname -a)\"\nDIR=\"$HOME/$(pwd | sed 's|/|-|g')/x\"\n```\n",
        );
        assert_eq!(c.commands, ["python", "grep", "date", "uname", "sed"]);
    }

    #[test]
    fn urls_leave_out_the_skills_own_repository() {
        let c = caps(
            "---\nname: a\n---\nSee https://github.com/acme/skills/tree/main/a and https://api.slack.com/methods/x. Also (https://example.com/y).\n",
        );
        assert_eq!(c.urls, ["https://api.slack.com/methods/x", "https://example.com/y"]);
    }

    #[test]
    fn credential_names_by_suffix() {
        let c = caps(
            "---\nname: a\n---\nexport OPENAI_API_KEY=x SLACK_BOT_TOKEN GITHUB_TOKEN DB_PASSWORD MY_KEYS lower_token APP__ADMIN__PASSWORD\n",
        );
        assert_eq!(
            c.credential_names,
            ["OPENAI_API_KEY", "SLACK_BOT_TOKEN", "GITHUB_TOKEN", "DB_PASSWORD", "APP__ADMIN__PASSWORD"]
        );
    }
}
