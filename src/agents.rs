//! The agents a skill can be installed for, and their install commands: a data table
//! (`data/agents.toml`), so that a new agent or a changed command is a data change.

use std::sync::LazyLock;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentTable {
    pub agents: Vec<Agent>,
    pub prompt: PromptTemplate,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Agent {
    pub id: String,
    pub name: String,
    pub docs: String,
    pub project_dir: String,
    pub loads_from: Vec<String>,
    #[serde(default)]
    pub notice: Option<String>,
    pub install: Vec<InstallTemplate>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstallTemplate {
    pub command: String,
    pub note: String,
    /// Only offered when the skill lives in a subfolder (the command takes `--path`).
    #[serde(default)]
    pub needs_path: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptTemplate {
    pub text: String,
    pub note: String,
}

pub static AGENTS: LazyLock<AgentTable> =
    LazyLock::new(|| toml::from_str(include_str!("../data/agents.toml")).expect("data/agents.toml is valid"));

/// What the placeholders of an install template stand for, for one skill.
pub struct InstallVars<'a> {
    pub repo: &'a str,
    pub skill: &'a str,
    pub folder: &'a str,
    /// Folder inside the repository; empty for a skill at the root.
    pub path: &'a str,
    pub clone_url: &'a str,
    pub tree_url: &'a str,
}

/// One way to install, ready to show.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct InstallOption {
    pub command: String,
    pub note: String,
    /// A sentence for the agent, not a shell command.
    pub is_prompt: bool,
}

/// One agent's tab on a skill page.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AgentInstall {
    pub id: String,
    pub name: String,
    pub docs: String,
    pub loads_from: Vec<String>,
    pub notice: Option<String>,
    pub options: Vec<InstallOption>,
}

impl AgentTable {
    pub fn install_for(&self, vars: &InstallVars) -> Vec<AgentInstall> {
        self.agents
            .iter()
            .map(|agent| {
                let fill = |template: &str| fill(template, vars, agent);
                let mut options: Vec<InstallOption> = agent
                    .install
                    .iter()
                    .filter(|t| !t.needs_path || !vars.path.is_empty())
                    .map(|t| InstallOption { command: fill(&t.command), note: fill(&t.note), is_prompt: false })
                    .collect();
                options.push(InstallOption {
                    command: fill(&self.prompt.text),
                    note: fill(&self.prompt.note),
                    is_prompt: true,
                });
                AgentInstall {
                    id: agent.id.clone(),
                    name: agent.name.clone(),
                    docs: agent.docs.clone(),
                    loads_from: agent.loads_from.clone(),
                    notice: agent.notice.clone(),
                    options,
                }
            })
            .collect()
    }
}

/// Replaces each `{placeholder}` of `template` in one pass (a value is never read again as a
/// template, and it is the hottest string work of a build: agents x commands x skills).
fn fill(template: &str, vars: &InstallVars, agent: &Agent) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let Some(close) = after.find('}') else { break };
        let name = &after[1..close];
        match name {
            "repo" => out.push_str(vars.repo),
            "skill" => out.push_str(&shell_word(vars.skill)),
            "folder" => out.push_str(&shell_word(vars.folder)),
            "path" => out.push_str(&shell_word(vars.path)),
            "clone_url" => out.push_str(vars.clone_url),
            "tree_url" => out.push_str(vars.tree_url),
            "copy_from" if vars.path.is_empty() => out.push_str("skills-src"),
            "copy_from" => out.push_str(&shell_word(&format!("skills-src/{}", vars.path))),
            "project_dir" => out.push_str(&agent.project_dir),
            "agent" => out.push_str(&agent.name),
            _ => out.push_str(&after[..=close]),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Quotes a word for a POSIX shell when it holds anything but safe characters, so that a
/// skill named `a b;rm` cannot turn a copied command into two.
pub fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./@:+".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> InstallVars<'static> {
        InstallVars {
            repo: "HKUDS/OpenSpace",
            skill: "code-exec-fallback",
            folder: "code-exec-fallback",
            path: "benchmarks/gdpval/skills/code-exec-fallback",
            clone_url: "https://github.com/HKUDS/OpenSpace.git",
            tree_url: "https://github.com/HKUDS/OpenSpace/tree/HEAD/benchmarks/gdpval/skills/code-exec-fallback",
        }
    }

    #[test]
    fn every_agent_with_filled_commands() {
        let tabs = AGENTS.install_for(&vars());
        let names: Vec<&str> = tabs.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Claude Code",
                "Codex",
                "Cursor",
                "Gemini CLI",
                "GitHub Copilot",
                "OpenCode",
                "Windsurf",
                "Kiro",
                "Roo Code",
                "Cline",
                "Goose"
            ]
        );
        assert_eq!(
            tabs[0].options[0].command,
            "npx skills add HKUDS/OpenSpace --skill code-exec-fallback -a claude-code"
        );
        assert_eq!(
            tabs[0].options[2].command,
            "git clone --depth 1 https://github.com/HKUDS/OpenSpace.git skills-src && mkdir -p .claude/skills && cp -r skills-src/benchmarks/gdpval/skills/code-exec-fallback .claude/skills/code-exec-fallback && rm -rf skills-src"
        );
        assert!(tabs.iter().all(|t| t.options.last().unwrap().is_prompt));
        assert!(tabs.iter().flat_map(|t| &t.options).all(|o| !o.command.contains('{')), "unfilled placeholder");
        assert!(tabs[3].notice.as_deref().unwrap().contains("Antigravity"));
        assert!(!tabs[1].options.iter().any(|o| o.command.contains("$skill-installer")));
    }

    #[test]
    fn every_agent_installs_into_a_folder_it_loads_and_links_its_makers_page() {
        let tabs = AGENTS.install_for(&vars());
        for (agent, tab) in AGENTS.agents.iter().zip(&tabs) {
            assert!(agent.docs.starts_with("https://"), "{}", agent.id);
            let project = format!("{}/", agent.project_dir);
            assert!(agent.loads_from.contains(&project), "{} loads from {:?}", agent.id, agent.loads_from);
            // The copy goes where the agent looks, and the sentence for the agent names that folder.
            let copy = tab.options.iter().find(|o| o.command.starts_with("git clone")).expect("a copy command");
            assert!(
                copy.command.contains(&format!(
                    "cp -r skills-src/benchmarks/gdpval/skills/code-exec-fallback {project}code-exec-fallback"
                )),
                "{}",
                copy.command
            );
            assert!(
                tab.options.last().unwrap().command.contains(&format!("into {project}code-exec-fallback/")),
                "{}",
                agent.id
            );
        }
        let cline = tabs.iter().find(|t| t.id == "cline").unwrap();
        assert!(cline.notice.as_deref().unwrap().contains("Enable Skills"));
        let windsurf = tabs.iter().find(|t| t.id == "windsurf").unwrap();
        assert!(windsurf.options[0].note.contains("~/.codeium/windsurf/skills/"));
    }

    #[test]
    fn hostile_names_are_quoted() {
        assert_eq!(shell_word("a b;rm -rf ~"), "'a b;rm -rf ~'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word("ok-name"), "ok-name");
    }
}
