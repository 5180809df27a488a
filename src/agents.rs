//! The agents a skill can be installed for, and their install commands: a data table
//! (`data/agents.toml`), so that a new agent or a changed command is a data change.

use std::sync::LazyLock;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentTable {
    pub agents: Vec<Agent>,
    pub copy: CopyTemplate,
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
    /// The note of the copy by hand into this agent's folder (`[copy]`).
    pub copy_note: String,
    /// The ways of the agent's own tools or a skills CLI, first first.
    #[serde(default)]
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
pub struct CopyTemplate {
    pub command: String,
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

impl InstallVars<'static> {
    /// Words that stand for a skill's values, for a page that shows every way for every skill.
    pub const WORDS: InstallVars<'static> = InstallVars {
        repo: "OWNER/REPO",
        skill: "SKILL",
        folder: "FOLDER",
        path: "PATH",
        clone_url: "https://github.com/OWNER/REPO.git",
        tree_url: "https://github.com/OWNER/REPO/tree/HEAD/PATH",
    };
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

/// A skill page's install block: the first agent's first way, filled in; and, for the page's
/// script (which also offers the copy by hand for the agent chosen), the value of every placeholder the agents' templates hold
/// (`static/agents.json`), as filling them puts them in: the script swaps names for values and
/// knows no quoting, so what it shows for any agent is what the build would.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct InstallBlock {
    pub agent_id: String,
    pub agent_name: String,
    /// The first agent's first way of its own, or its copy by hand when it has none.
    pub first: InstallOption,
    /// Each placeholder of the skill and its value, as [`fill`] puts it.
    pub values: Vec<(&'static str, String)>,
}

/// The placeholders whose values are the skill's; `{project_dir}` and `{agent}` are the agent's.
const SKILL_PLACEHOLDERS: [&str; 7] = ["repo", "skill", "folder", "path", "clone_url", "tree_url", "copy_from"];

impl AgentTable {
    /// Every way for every agent: its own, then the copy by hand and the sentence.
    pub fn install_for(&self, vars: &InstallVars) -> Vec<AgentInstall> {
        self.agents
            .iter()
            .map(|agent| {
                let fill = |template: &str| fill(template, vars, agent);
                let mut options: Vec<InstallOption> = self.own_ways(agent, vars).collect();
                options.push(self.copy_way(agent, vars));
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

    /// The agent's own ways (its tools, a skills CLI) that apply to the skill, filled in.
    fn own_ways<'a>(&'a self, agent: &'a Agent, vars: &'a InstallVars) -> impl Iterator<Item = InstallOption> + 'a {
        (agent.install.iter().filter(|t| !t.needs_path || !vars.path.is_empty())).map(|t| InstallOption {
            command: fill(&t.command, vars, agent),
            note: fill(&t.note, vars, agent),
            is_prompt: false,
        })
    }

    /// The copy of the skill's folder by hand into the agent's folder, filled in.
    fn copy_way(&self, agent: &Agent, vars: &InstallVars) -> InstallOption {
        InstallOption {
            command: fill(&self.copy.command, vars, agent),
            note: fill(&agent.copy_note, vars, agent),
            is_prompt: false,
        }
    }

    /// A skill page's install block ([`InstallBlock`]); `None` when the table has no agent.
    pub fn install_block(&self, vars: &InstallVars) -> Option<InstallBlock> {
        let agent = self.agents.first()?;
        Some(InstallBlock {
            agent_id: agent.id.clone(),
            agent_name: agent.name.clone(),
            first: self.own_ways(agent, vars).next().unwrap_or_else(|| self.copy_way(agent, vars)),
            values: SKILL_PLACEHOLDERS.iter().filter_map(|&name| Some((name, value(name, vars)?))).collect(),
        })
    }

    /// The table as the skill pages' script reads it (`static/agents.json`): each agent's id,
    /// name, folder, and templates (its own ways, then the copy by hand), unfilled.
    pub fn script_json(&self) -> String {
        let agents: Vec<serde_json::Value> = self
            .agents
            .iter()
            .map(|agent| {
                let mut ways: Vec<serde_json::Value> = (agent.install.iter())
                    .map(|t| serde_json::json!({ "command": t.command, "note": t.note, "needs_path": t.needs_path }))
                    .collect();
                ways.push(serde_json::json!({ "command": self.copy.command, "note": agent.copy_note, "needs_path": false, "by_hand": true }));
                serde_json::json!({ "id": agent.id, "name": agent.name, "project_dir": agent.project_dir, "ways": ways })
            })
            .collect();
        serde_json::json!({ "agents": agents }).to_string()
    }
}

/// The value a skill's placeholder is filled with (quoted for the shell where it is a word);
/// `None` for a name that is not the skill's.
fn value(name: &str, vars: &InstallVars) -> Option<String> {
    Some(match name {
        "repo" => vars.repo.to_string(),
        "skill" => shell_word(vars.skill),
        "folder" => shell_word(vars.folder),
        "path" => shell_word(vars.path),
        "clone_url" => vars.clone_url.to_string(),
        "tree_url" => vars.tree_url.to_string(),
        "copy_from" if vars.path.is_empty() => "skills-src".to_string(),
        "copy_from" => shell_word(&format!("skills-src/{}", vars.path)),
        _ => return None,
    })
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
            "project_dir" => out.push_str(&agent.project_dir),
            "agent" => out.push_str(&agent.name),
            _ => match value(name, vars) {
                Some(value) => out.push_str(&value),
                None => out.push_str(&after[..=close]),
            },
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

    /// What the skill pages' script shows for an agent is a name-for-value swap of the
    /// templates with the values the page carries (`InstallBlock::values`), as written in
    /// `static/catalog.js`: it must be what the build fills in, for every agent and template,
    /// hostile names included.
    #[test]
    fn the_pages_script_fills_every_template_as_the_build_does() {
        let hostile = InstallVars {
            repo: "o/r",
            skill: "it's; rm -rf ~",
            folder: "a b",
            path: "",
            clone_url: "https://github.com/o/r.git",
            tree_url: "https://github.com/o/r/tree/HEAD",
        };
        let pattern = regex::Regex::new(r"\{([a-z_]+)\}").unwrap();
        for vars in [vars(), hostile] {
            let block = AGENTS.install_block(&vars).expect("agents");
            let swap = |template: &str, agent: &Agent| -> String {
                pattern
                    .replace_all(template, |c: &regex::Captures| match &c[1] {
                        "project_dir" => agent.project_dir.clone(),
                        "agent" => agent.name.clone(),
                        name => block
                            .values
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map(|(_, v)| v.clone())
                            .unwrap_or_else(|| c[0].to_string()),
                    })
                    .into_owned()
            };
            for agent in &AGENTS.agents {
                let templates = agent
                    .install
                    .iter()
                    .flat_map(|t| [&t.command, &t.note])
                    .chain([&AGENTS.copy.command, &agent.copy_note]);
                for template in templates {
                    assert_eq!(swap(template, agent), fill(template, &vars, agent), "{} {template}", agent.id);
                }
            }
        }
    }

    #[test]
    fn hostile_names_are_quoted() {
        assert_eq!(shell_word("a b;rm -rf ~"), "'a b;rm -rf ~'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word("ok-name"), "ok-name");
    }
}
