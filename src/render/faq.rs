//! The skill page's questions and answers, and their FAQPage structured data.

use crate::agents::AGENTS;
use crate::analyze::license::LicenseOrigin;
use crate::model::{Repo, Skill};
use crate::scan::Verdict;

use super::context::*;
use super::urls::{compact_count, grouped};

/// What the FAQ answers from, beside the skill itself: what the rest of the page worked out.
pub(super) struct FaqInput<'a> {
    pub(super) title: &'a str,
    pub(super) body: &'a crate::analyze::DigestBody,
    pub(super) install: &'a [crate::agents::AgentInstall],
    pub(super) words: usize,
    pub(super) tokens: &'a str,
    pub(super) alternatives: String,
}

pub(super) fn faq(skill: &Skill, repo: &Repo, input: FaqInput) -> Vec<Qa> {
    let FaqInput { title, body, install, words, tokens, alternatives } = input;
    let a = &skill.analysis;
    // No "what does it do?": the page's lede and "What it does" say it, once.
    let mut faq = Vec::new();
    if !body.when_to_use.is_empty() {
        faq.push(Qa {
            question: format!("When should I use {title}?"),
            answer: format!("{title} fits situations like: {}.", body.when_to_use.join("; ")),
        });
    }
    let folder = skill.folder_name(repo);
    let path = if skill.dir.rel_dir.is_empty() { "the repository root".to_string() } else { skill.dir.rel_dir.clone() };
    for agent in install.iter().take(2) {
        let Some(first) = agent.options.first() else {
            continue;
        };
        let dir =
            AGENTS.agents.iter().find(|x| x.id == agent.id).map(|x| x.project_dir.as_str()).unwrap_or(".agents/skills");
        faq.push(Qa {
            question: format!("How do I install {title} in {}?", agent.name),
            answer: format!(
                "Run `{}`. Or copy the skill folder ({path} in {}) into {dir}/{folder} in your project. {} loads it when a task matches its description.",
                first.command,
                repo.id.full(),
                agent.name
            ),
        });
    }
    if install.len() > 2 {
        let others: Vec<&str> = install[2..].iter().map(|a| a.name.as_str()).collect();
        faq.push(Qa {
            question: format!("Can I use {title} in {}?", list_with_more(&others.iter().map(|s| s.to_string()).collect::<Vec<_>>(), 3, "agent")),
            answer: format!(
                "{} also load SKILL.md folders. Each has its own tab above, with the commands and the folder it loads skills from.",
                others.join(", ")
            ),
        });
    }
    let caps = &a.capabilities;
    if !caps.commands.is_empty() || !body.requirements.is_empty() {
        let mut answer = String::new();
        if !caps.commands.is_empty() {
            answer.push_str(&format!(
                "Going by SKILL.md, {title} calls these command-line tools: {}.",
                caps.commands.join(", ")
            ));
        }
        if !body.requirements.is_empty() {
            answer.push_str(&format!(" Its requirements section lists: {}.", body.requirements.join("; ")));
        }
        faq.push(Qa { question: format!("What does {title} need to run?"), answer: answer.trim().to_string() });
    }
    faq.push(Qa {
        question: format!("Does {title} access the network?"),
        answer: if caps.urls.is_empty() {
            "SKILL.md contains no URLs. Any network use would come from the scripts or tools the agent runs. This is read from the text; nothing was executed.".to_string()
        } else {
            format!(
                "SKILL.md mentions {}: {}. This is read from the text; nothing was executed.",
                crate::plural::count(caps.urls.len(), "URL"),
                caps.urls.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            )
        },
    });
    let verdict = match skill.verdict {
        Verdict::Passed => {
            "found no risky patterns, such as piping downloads into a shell, reading credential files or hidden Unicode"
        }
        Verdict::Notes => "found medium or low findings, listed in the Safety section with their files and lines",
        Verdict::Failed => "found high or critical findings, listed in the Safety section with their files and lines",
    };
    faq.push(Qa {
        question: format!("Is {title} safe to install?"),
        answer: format!(
            "Our automated static check of SKILL.md and the other text files in its folder {verdict}. It is not a guarantee. Review the folder before installing."
        ),
    });
    if a.license.origin != LicenseOrigin::None {
        let whose = match a.license.origin {
            LicenseOrigin::Repository => " (the repository's licence)",
            LicenseOrigin::SkillFile => " (the licence file in its folder)",
            _ => "",
        };
        let shown = if a.license.redistributable {
            "It allows redistribution, so the full SKILL.md is shown on this page."
        } else {
            "It was not recognised as allowing redistribution, so SKILL.md is linked rather than shown."
        };
        faq.push(Qa {
            question: format!("What licence does {title} use?"),
            answer: format!("{title} is published under the {} licence{whose}. {shown}", a.license.label),
        });
    }
    faq.push(Qa {
        question: format!("How many tokens does {title} use?"),
        answer: format!(
            "About {} tokens (SKILL.md is roughly {} characters and {words} words). Agents keep only the skill's name and description in context until a task matches; then they load SKILL.md in full.",
            tokens.trim_start_matches('~'),
            compact_count(a.cost.chars)
        ),
    });
    if !alternatives.is_empty() {
        faq.push(Qa {
            question: format!("What are the alternatives to {title}?"),
            answer: format!(
                "Skills that share tags, products or a category with {title}: {alternatives}. The comparison table on this page puts their stars, adoption, token cost, safety result and licence side by side."
            ),
        });
    }
    faq.push(Qa {
        question: format!("Who maintains {title}?"),
        answer: format!(
            "It is published in {} by {}{}. The repository holds {} {}.{}",
            repo.id.full(),
            repo.id.owner,
            repo.facts.stars.map(|s| format!(", which has {} GitHub stars", grouped(s as usize))).unwrap_or_default(),
            grouped(repo.skills.len()),
            crate::plural::noun(repo.skills.len() as u64, "skill"),
            repo.facts
                .updated
                .map(|t| format!(" The repository was last updated on {}.", t.long_date()))
                .unwrap_or_default()
        ),
    });
    faq
}

/// `a, b, c and d, plus 2 more sections`
pub(super) fn list_with_more(items: &[String], shown: usize, noun: &str) -> String {
    let head: Vec<&str> = items.iter().take(shown).map(String::as_str).collect();
    let mut text = match head.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let more = items.len().saturating_sub(shown);
    if more > 0 {
        text.push_str(&format!(", plus {more} more {}", crate::plural::noun(more as u64, noun)));
    }
    text
}

/// FAQPage structured data; `<` is escaped so the JSON can never close its script element.
pub(super) fn faq_json_ld(faq: &[Qa]) -> String {
    let value = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": faq.iter().map(|qa| serde_json::json!({
            "@type": "Question",
            "name": qa.question,
            "acceptedAnswer": {"@type": "Answer", "text": qa.answer},
        })).collect::<Vec<_>>(),
    });
    value.to_string().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_like_prose() {
        let items: Vec<String> = ["A", "B", "C", "D", "E", "F"].iter().map(|s| s.to_string()).collect();
        assert_eq!(list_with_more(&items, 4, "section"), "A, B, C and D, plus 2 more sections");
        assert_eq!(list_with_more(&items[..1], 4, "section"), "A");
        assert_eq!(list_with_more(&items[..5], 4, "section"), "A, B, C and D, plus 1 more section");
    }

    #[test]
    fn json_ld_cannot_close_its_script() {
        let out = faq_json_ld(&[Qa { question: "</script><script>alert(1)</script>".into(), answer: "&".into() }]);
        assert!(!out.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back["mainEntity"][0]["name"], "</script><script>alert(1)</script>");
    }
}
