//! allowed-tools in SKILL.md's frontmatter against the shell commands its body runs.

use super::without_prompts;
use crate::Sink;
use crate::shell::{self, program_name};
use crate::text::RegionKind;
use catalog_skill::parse::ParsedSkill;

const BUILTINS: &[&str] = &[
    "cd", "export", "echo", "source", ".", "set", "unset", "true", "false", "test", "[", "[[", "exit", "return",
    "local", "read", "printf", "pwd", "alias", "eval", "for", "case", "esac", "in", "function", "shift", "declare",
    "trap", "wait",
];

/// allowed-tools: unrestricted shell, or commands SKILL.md runs that it does not cover.
pub fn check_allowed_tools(sink: &mut Sink, parsed: &ParsedSkill, files: &[crate::ScanFile]) {
    let Some(allowed) = &parsed.frontmatter.allowed_tools else { return };
    let text = sink.text;
    let at = text.find("allowed-tools").or_else(|| text.find("allowed_tools")).unwrap_or(0);
    let at_end = text.get(at..).and_then(|rest| rest.find('\n')).map_or(text.len(), |i| at + i);
    let bash: Vec<&str> =
        allowed.tools.iter().map(String::as_str).filter(|t| t.starts_with("Bash") || t.starts_with("bash")).collect();
    let unrestricted = allowed.tools.iter().find(|t| {
        matches!(
            t.as_str(),
            "Bash" | "bash" | "Bash(*)" | "Bash(*:*)" | "Bash(:*)" | "Bash(**)" | "*" | "Shell" | "shell"
        )
    });
    if let Some(tool) = unrestricted {
        sink.report("allowed-tools-unrestricted", at, at_end, format!("allowed-tools pre-approves {tool}"));
        return;
    }
    // The commands of SKILL.md's shell blocks (labelled as shell), first word onwards.
    let mut run: Vec<(String, usize, usize)> = Vec::new();
    let body_start = parsed.body_start.min(text.len());
    for region in crate::text::regions(text, crate::text::FileKind::Markdown) {
        let RegionKind::Code { lang, .. } = &region.kind else { continue };
        if region.start < body_start || !matches!(lang.as_str(), "bash" | "sh" | "shell" | "zsh" | "console") {
            continue;
        }
        let script = shell::parse(&without_prompts(region.text_in(text)), region.start);
        for command in &script.commands {
            let Some(run_words) = shell::program(command).and_then(|(i, _)| command.words.get(i..)) else { continue };
            let Some(program) = run_words.first() else { continue };
            let name = program_name(&program.text);
            if BUILTINS.contains(&name.as_str())
                || name.starts_with('$')
                || !name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
            {
                continue;
            }
            let line: Vec<&str> = run_words.iter().map(|w| w.text.as_str()).collect();
            run.push((line.join(" "), command.start, command.end));
        }
    }
    let has_scripts = files.iter().any(|f| {
        let p = f.path.to_ascii_lowercase();
        [".sh", ".py", ".js", ".ts", ".rb", ".pl", ".ps1"].iter().any(|e| p.ends_with(e))
    });
    if bash.is_empty() {
        if let Some((first, start, end)) = run.first() {
            let count = run.len();
            sink.report(
                "allowed-tools-mismatch",
                *start,
                *end,
                format!(
                    "SKILL.md runs {} (first: {first}) but allowed-tools pre-approves no Bash",
                    catalog_skill::plural::count(count, "shell command")
                ),
            );
        } else if has_scripts {
            sink.report(
                "allowed-tools-mismatch",
                at,
                at_end,
                "the skill ships scripts but allowed-tools pre-approves no Bash to run them",
            );
        }
        return;
    }
    let prefixes: Vec<String> = bash
        .iter()
        .filter_map(|t| t.strip_prefix("Bash(").or_else(|| t.strip_prefix("bash(")).and_then(|r| r.strip_suffix(')')))
        .map(|p| p.trim_end_matches('*').trim_end_matches(':').trim_end_matches('*').trim().to_string())
        .collect();
    let uncovered: Vec<&(String, usize, usize)> = run
        .iter()
        .filter(|(line, _, _)| {
            !prefixes.iter().any(|p| p.is_empty() || line.starts_with(p.as_str()) || glob_prefix(p, line))
        })
        .collect();
    if let Some((first, start, end)) = uncovered.first() {
        let names: Vec<String> = uncovered
            .iter()
            .map(|(l, _, _)| l.split_whitespace().next().unwrap_or("").to_string())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .take(5)
            .collect();
        sink.report(
            "allowed-tools-mismatch",
            *start,
            *end,
            format!(
                "SKILL.md runs {first:?}, which allowed-tools ({}) does not cover; uncovered: {}",
                bash.join(" "),
                names.join(", ")
            ),
        );
    }
}

/// `python3 scripts/*.py` style patterns.
fn glob_prefix(pattern: &str, line: &str) -> bool {
    let Some((head, _)) = pattern.split_once('*') else { return false };
    line.starts_with(head)
}
