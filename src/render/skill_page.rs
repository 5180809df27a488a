//! The skill page's context: every section of the page, from the page's input
//! ([`super::page_input::SkillPageInput`]) and nothing else.

use std::sync::Arc;

use crate::agents::{AGENTS, InstallVars};
use crate::analyze::license::LicenseOrigin;
use crate::model::Skill;
use crate::parse::Reading;
use crate::parse::frontmatter::value_text;
use crate::plural::list_with_more;
use crate::scan::{Finding, Verdict};

use super::context::*;
use super::markdown::{self, LinkBase};
use super::page_input::{CanonicalCopy, LinkedTopic, SkillPageInput};
use super::topics::TopicKind;
use super::urls::{self, about_words, compact_count, file_size, path_to_root};

const NOT_KNOWN: &str = "Not known";

/// The skill page made of `input`, and nothing else: what it reads is what its key covers.
pub fn skill_page(input: &SkillPageInput) -> crate::error::Result<SkillPage> {
    let (skill, repo) = (input.skill.value(), input.repo.value());
    let dir = skill.url_path(repo);
    let frame = input.frame.value();
    // Identical copies name the copy first seen as the canonical page.
    let canonical = match &input.canonical {
        Some(copy) if !copy.is_self => copy.address.as_str(),
        _ => dir.as_str(),
    };
    Ok(SkillPage { site: frame.site_at(&dir, canonical), skill: skill_ctx(input)? })
}

fn skill_ctx(input: &SkillPageInput) -> crate::error::Result<SkillCtx> {
    let (skill, repo) = (input.skill.value(), input.repo.value());
    let page = input.page_facts.decode()?;
    let analysis = &skill.analysis;
    let digest = &analysis.digest;
    let body = &page.body;
    let caps = &analysis.capabilities;
    let cost = &analysis.cost;
    let title = digest.title.clone();
    let page_dir = skill.url_path(repo);
    let root = path_to_root(&page_dir);
    let folder = skill.dir.rel_dir.clone();
    let folder_name = skill.folder_name(repo).to_string();
    let repo_web = repo.web_url();
    // Links name the commit the files were read at, so they show what this page describes.
    let rev = repo.web_rev();
    let folder_web = repo_web.as_ref().map(|repo_web| match (folder.is_empty(), &repo.facts.commit) {
        (true, None) => repo_web.clone(),
        (true, Some(commit)) => format!("{repo_web}/tree/{commit}"),
        (false, _) => format!("{repo_web}/tree/{rev}/{folder}"),
    });
    // The folder as a prefix of paths in the repository: "" at its root, else "folder/".
    let in_folder = if folder.is_empty() { String::new() } else { format!("{folder}/") };
    let blob_dir = repo.file_web_url(&in_folder);
    let blob_dir = blob_dir.as_deref();
    // Without a repository there is nothing on the web to link to: no link rather than a made-up one.
    let at_source = |path: &str| blob_dir.map(|dir| format!("{dir}{path}"));
    let tokens = format!("~{}", compact_count(cost.tokens));
    let editors = input.editors.clone();
    let words = about_words(cost.words);
    let license = &analysis.license;

    // Without a repository there is nothing to install from: the page says so instead.
    let install = repo_web.as_ref().and_then(|web| {
        AGENTS.install_block(&InstallVars {
            repo: &repo.id.full(),
            skill: &skill.name,
            folder: &folder_name,
            path: &folder,
            clone_url: &format!("{web}.git"),
            tree_url: folder_web.as_deref().unwrap_or_default(),
        })
    });

    let known = |value: String| Fact { label: "", value, known: true, href: None };
    let maybe = |value: Option<String>| match value {
        Some(value) => Fact { label: "", value, known: true, href: None },
        None => Fact { label: "", value: NOT_KNOWN.to_string(), known: false, href: None },
    };
    // Stars, licence, token cost and last change are the summary's; the facts are the rest.
    // The name is in the page's head when the editors' title stands over it.
    let named_above = editors.as_ref().is_some_and(|e| e.notes.title.is_some());
    let mut facts = vec![
        Fact { label: "Skill name", ..known(skill.name.clone()) },
        Fact { label: "SKILL.md length", ..known(format!("{words} words")) },
        Fact { label: "Files", ..known(skill.dir.files.len().to_string()) },
        Fact { label: "Skills in repo", ..known(repo.skills.len().to_string()) },
    ];
    // Without git history no date is known: the summary's last change says so once, with the
    // reason, instead of "Not known" in three places.
    let no_history = repo.facts.commit.is_none();
    if !no_history {
        facts.push(Fact { label: "Repo updated", ..maybe(repo.facts.updated.map(|t| t.long_date())) });
        facts.push(Fact { label: "First seen", ..maybe(skill.history.first_seen.map(|t| t.long_date())) });
    }
    if named_above {
        facts.remove(0);
    }
    let copies = copies_ctx(skill, input.canonical.as_ref(), &root);
    if let Some(copies) = &copies {
        facts.push(Fact { label: "Used in", ..known(crate::plural::count(copies.used_in, "other owner")) });
    }

    // The description is the page's lede; "What it does" adds SKILL.md's own paragraphs, the
    // author's text, quoted only where the licence allows it.
    let mut intro = Vec::new();
    if license.redistributable {
        intro.extend(body.intro.iter().filter(|p| **p != skill.description).cloned());
    }

    let holder = license.holder.clone().unwrap_or_else(|| repo.id.owner.clone());
    let attribution = match license.spdx.as_deref() {
        Some(id) => format!("© {holder}, {id}"),
        None => format!("© {holder}"),
    };
    let other_files = skill.dir.files.len().saturating_sub(1);
    let source_href = at_source(&skill.dir.skill_file);
    let mut cut = None;
    let skill_md = SkillMd {
        republished: license.redistributable,
        withheld_reason: withheld_reason(license),
        html: if license.redistributable {
            let text = input.text.read()?;
            let body = text.get(skill.body_start..).unwrap_or_default();
            let limit = input.text_limit;
            let head = limit.and_then(|limit| markdown::head_within(body, limit));
            if let Some(head) = head {
                cut = Some(TextCut { shown: file_size(head.len() as u64), whole: file_size(body.len() as u64) });
            }
            markdown::render(head.unwrap_or(body), &LinkBase { blob_dir })
        } else {
            String::new()
        },
        cut,
        frontmatter: frontmatter_rows(&page.frontmatter, &skill.name, &skill.description),
        raw_href: repo
            .file_raw_url(&format!("{in_folder}{}", skill.dir.skill_file))
            .unwrap_or_else(|| "SKILL.md".to_string()),
        source_href,
        save_as: format!(".claude/skills/{folder_name}/SKILL.md"),
        other_files,
        attribution,
        // Its headings: what a page that may not show the file can say of its content.
        sections: if license.redistributable || body.sections.is_empty() {
            String::new()
        } else {
            format!("SKILL.md covers {}.", list_with_more(&body.sections, 6, "section"))
        },
    };

    let files_more = skill.dir.files.len().saturating_sub(FILES_LISTED);
    let files = skill
        .dir
        .files
        .iter()
        .take(FILES_LISTED)
        .map(|f| FileRow { path: f.path.clone(), size: file_size(f.size) })
        .collect();

    let more_from_repo = input.more_from_repo.iter().map(|other| other.card()).collect();

    let this_row = CompareRow { is_self: true, ..CompareRow::clone(&input.this.row()) };
    let mut compare = vec![Arc::new(this_row)];

    let (tags, categories, works_with) = topic_links(input.topics.iter(), &root);
    compare.extend(input.similar.iter().map(|other| other.row()));
    let (compare_columns, compare_same) = compare_columns(&compare);
    let safety = safety(skill, &page.scan, blob_dir);
    let token_place = super::figures::skill_tokens(&input.tokens);
    // The agents it names in `compatibility`, else every agent (as search and the API say).
    let works_with_ids = super::facets::agents(skill);
    let agent_names: Vec<&str> =
        AGENTS.agents.iter().filter(|a| works_with_ids.contains(&a.id.as_str())).map(|a| a.name.as_str()).collect();
    let summary = SkillSummary {
        verdict: safety.verdict,
        verdict_word: match skill.verdict {
            Verdict::Passed => "Passed",
            Verdict::Notes => "Notes",
            Verdict::NotChecked => "Not checked",
            Verdict::Failed => "Failed",
        },
        findings: match safety.active {
            0 => "no findings".to_string(),
            n => crate::plural::count(n, "finding"),
        },
        tokens: tokens.clone(),
        token_place,
        stars: Fact { label: "GitHub stars", ..maybe(repo.facts.stars.map(|s| compact_count(s as usize))) },
        license: Fact {
            label: "Licence",
            href: license.file.as_deref().and_then(|file| repo.file_web_url(file)),
            ..maybe((license.origin != LicenseOrigin::None).then(|| license.label.clone()))
        },
        last_change: if no_history {
            Fact {
                label: "Last change",
                value: "Not known: its source has no git history".to_string(),
                known: false,
                href: None,
            }
        } else {
            Fact { label: "Last change", ..maybe(skill.history.last_changed.map(|t| t.long_date())) }
        },
        agents: match agent_names.as_slice() {
            [one] => one.to_string(),
            names if names.len() == AGENTS.agents.len() => {
                format!("All {}", crate::plural::count(names.len(), "agent"))
            }
            names => crate::plural::count(names.len(), "agent"),
        },
        // "All 11 agents" names them on the agents page the install block links.
        agent_names: if agent_names.len() == AGENTS.agents.len() { String::new() } else { agent_names.join(", ") },
    };

    Ok(SkillCtx {
        summary,
        name: skill.name.clone(),
        description: skill.description.clone(),
        no_frontmatter: skill.reading == Reading::NoFrontmatter,
        owner: repo.id.owner.clone(),
        owner_href: urls::relative(&page_dir, &format!("{}/", repo.id.owner)),
        commit: repo.facts.short_commit().unwrap_or_default().to_string(),
        last_changed: skill.history.last_changed.map(|t| t.long_date()).unwrap_or_default(),
        repo: repo.id.full(),
        repo_href: urls::relative(&page_dir, &repo.url_path()),
        repo_web: repo_web.clone(),
        folder: folder.clone(),
        folder_web,
        archive: input.archive.clone(),
        install,
        no_repository: NO_REPOSITORY,
        facts,
        intro,
        when_to_use: body.when_to_use.clone(),
        example_prompts: body.example_prompts.clone(),
        requirements: body.requirements.clone(),
        steps: body.steps.clone(),
        steps_source: body.steps_source.map(|s| s.label()).unwrap_or("").to_string(),
        capabilities: Capabilities {
            allowed_tools: caps.allowed_tools.clone(),
            has_allowed_tools: caps.has_allowed_tools,
            commands: caps.commands.clone(),
            urls: caps.urls.clone(),
            credential_names: caps.credential_names.clone(),
            absent: absent_capabilities(caps),
        },
        safety,
        tokens: compact_count(cost.tokens),
        idle_tokens: compact_count(cost.idle_tokens),
        skill_md,
        files,
        files_more,
        compare,
        compare_columns,
        compare_same,
        more_from_repo,
        tags,
        works_with,
        categories,
        copies,
        editors,
        title,
    })
}

/// The comparison table's columns that differ between its rows, and the others as "Label:
/// value" (none is left out of a table of one row: it compares nothing), but for facts no row
/// knows.
fn compare_columns(rows: &[Arc<CompareRow>]) -> (Vec<CompareColumn>, Vec<String>) {
    let value = |row: &CompareRow, key: &str| -> String {
        match key {
            "stars" => row.stars.clone(),
            "used_in" => row.used_in.clone(),
            "tokens" => row.tokens.clone(),
            "auto_check" => row.auto_check.clone(),
            "license" => row.license.clone(),
            _ => row.updated.clone(),
        }
    };
    let mut shown = Vec::new();
    let mut same = Vec::new();
    for (key, label) in [
        ("stars", "Stars"),
        ("used_in", "Used in"),
        ("tokens", "Tokens"),
        ("auto_check", "Auto-check"),
        ("license", "Licence"),
        ("updated", "Repo updated"),
    ] {
        let first = value(&rows[0], key);
        if rows.len() > 1 && rows.iter().all(|r| value(r, key) == first) {
            // A fact no row knows ("—") is not said at all.
            if first != super::shown::NO_VALUE {
                same.push(format!("{label}: {first}"));
            }
        } else {
            shown.push(CompareColumn { key, label });
        }
    }
    (shown, same)
}

/// The skill's tags, categories and products, linked to their pages when they have one.
fn topic_links<'a>(
    topics: impl Iterator<Item = LinkedTopic<'a>>,
    root: &str,
) -> (Vec<TopicLink>, Vec<TopicLink>, Vec<TopicLink>) {
    let (mut tags, mut categories, mut products) = (Vec::new(), Vec::new(), Vec::new());
    for topic in topics {
        let link = TopicLink {
            name: topic.name.to_string(),
            href: topic.page.map(|id| format!("{root}{}", topic.kind.page_dir(id))).unwrap_or_default(),
        };
        match topic.kind {
            TopicKind::Tag => tags.push(link),
            TopicKind::Category => categories.push(link),
            TopicKind::Product => products.push(link),
        }
    }
    (tags, categories, products)
}

/// The Safety section: the verdict, each finding with its file:line (linked to the line at its
/// source), rule, severity and why; then spec conformance.
fn safety(skill: &Skill, scan: &crate::scan::ScanReport, blob_dir: Option<&str>) -> Safety {
    let row = |f: &Finding| {
        // GitHub renders Markdown unless asked for the plain file, which has line anchors.
        let plain = if f.file.to_ascii_lowercase().ends_with(".md") { "?plain=1" } else { "" };
        FindingRow {
            location: format!("{}:{}", f.file, f.line),
            href: blob_dir.map(|dir| format!("{dir}{}{plain}#L{}", f.file, f.line)),
            rule: f.rule.id,
            severity: f.severity.as_str(),
            title: f.rule.title,
            why: f.rule.why,
            message: f.message.clone(),
            matched: f.matched.clone(),
            suppressed: f.suppressed.clone().unwrap_or_default(),
        }
    };
    // Credential names are shown under "What it can do"; the list holds everything else.
    let mut listed: Vec<&Finding> = scan.safety_findings().filter(|f| f.rule.id != "secret-name").collect();
    listed.sort_by_key(|f| std::cmp::Reverse((f.is_active(), f.severity)));
    let active = listed.iter().filter(|f| f.is_active() && f.severity > crate::scan::Severity::Info).count();
    let serious = listed.iter().filter(|f| f.is_active() && f.severity >= crate::scan::Severity::High).count();
    let others = scan.files_scanned.saturating_sub(1);
    // How many files the folder holds is a fact of its own, above.
    let where_ = match others {
        0 => "SKILL.md",
        1 => "SKILL.md or the file beside it",
        _ => "SKILL.md or the files beside it",
    };
    let verdict = scan.verdict();
    // The verdict and the count are the summary strip's; this says where the check looked and
    // how serious what it found is, over the list itself.
    let summary = match verdict {
        Verdict::Passed => format!("The automated check found no risky patterns in {where_}."),
        Verdict::Notes => format!("Findings in {where_}, none of them high or critical:"),
        Verdict::NotChecked => {
            let files: Vec<&str> = scan.unchecked().map(|s| s.file.as_str()).collect();
            format!(
                "The automated check could not finish on {}, so this skill is not said to pass. {}",
                list_with_more(&files.iter().map(|f| f.to_string()).collect::<Vec<_>>(), 3, "file"),
                if active > 0 { "What it found elsewhere:" } else { "It found nothing in the rest." }
            )
        }
        Verdict::Failed => {
            format!("Findings in {where_}, {serious} of them high or critical. Read them before installing:")
        }
    };
    Safety {
        verdict: verdict.as_str(),
        summary,
        active,
        findings: listed.into_iter().map(row).collect(),
        unchecked: unchecked_lines(scan),
        skipped: (scan.skipped.iter().filter(|s| !s.reason.leaves_unchecked()))
            .map(|s| format!("{}: {}", s.file, s.reason))
            .chain(scan.limited.iter().map(|l| format!("{}: {}", l.file, l.limit)))
            .collect(),
        follows_spec: scan.follows_spec() && skill.reading == Reading::Strict,
        spec_findings: scan.spec_findings().map(row).collect(),
        reading_problem: reading_problem(&skill.reading).to_string(),
        reading_fixes: match &skill.reading {
            Reading::Lenient(notes) => notes
                .iter()
                .map(|(line, message)| {
                    let line = line.unwrap_or(1);
                    ReadingFix {
                        location: format!("{}:{line}", skill.dir.skill_file),
                        href: blob_dir.map(|dir| format!("{dir}{}?plain=1#L{line}", skill.dir.skill_file)),
                        message: message.clone(),
                    }
                })
                .collect(),
            _ => Vec::new(),
        },
    }
}

/// The files the check could not finish, with why: the first few, then how many more.
fn unchecked_lines(scan: &crate::scan::ScanReport) -> Vec<String> {
    const LISTED: usize = 10;
    let mut lines: Vec<String> = scan.unchecked().take(LISTED).map(|s| format!("{}: {}", s.file, s.reason)).collect();
    let more = scan.unchecked().count().saturating_sub(LISTED);
    if more > 0 {
        lines.push(format!("and {} more", crate::plural::count(more, "file")));
    }
    lines
}

/// What a preview of a folder without a git remote says instead of install commands.
const NO_REPOSITORY: &str = "Install commands need the skill's repository, and this folder names none (it has no git remote). Push it to GitHub, or add an `origin` remote, and the commands appear here.";

/// What the spec-conformance part says of a SKILL.md some agents do not load as written.
fn reading_problem(reading: &Reading) -> &'static str {
    match reading {
        Reading::Strict => "",
        Reading::Lenient(_) => {
            "The frontmatter is not valid YAML; agents that parse strictly will not load it. Lenient loaders (Claude Code's among them) read it as this page shows. Fix each line below:"
        }
        Reading::NoFrontmatter => {
            "SKILL.md has no frontmatter. Claude Code loads it, named after its folder and described by its first paragraph (as this page shows); agents that follow the Agent Skills spec need `name` and `description` in frontmatter and will not load it. Fix: add both between `---` lines at the top of SKILL.md."
        }
    }
}

/// The skill's identical copies, when it has any.
fn copies_ctx(skill: &Skill, canonical: Option<&CanonicalCopy>, root: &str) -> Option<CopiesCtx> {
    let copies = &skill.copies;
    let first = canonical?;
    let label = match first.folder.as_str() {
        "" => first.repo.clone(),
        folder => format!("{}/{folder}", first.repo),
    };
    Some(CopiesCtx {
        others: copies.others,
        used_in: copies.used_in,
        is_canonical: first.is_self,
        canonical_href: if first.is_self { "./".to_string() } else { format!("{root}{}", first.address) },
        canonical_label: label,
    })
}

fn withheld_reason(license: &crate::analyze::License) -> String {
    match license.origin {
        _ if license.redistributable => String::new(),
        LicenseOrigin::None => {
            "No licence was found for this skill or its repository, so its files are not republished here. Read SKILL.md at its source.".to_string()
        }
        _ => format!(
            "Its licence ({}) was not recognised as one that allows redistribution, so its files are not republished here. Read SKILL.md at its source.",
            license.label
        ),
    }
}

/// The kinds of capability SKILL.md shows none of, as a sentence.
fn absent_capabilities(caps: &crate::analyze::Capabilities) -> String {
    let absent: Vec<String> = [
        // Builtins (`echo`, `export`) run no program, and the list counts programs; a link into
        // the skill's own repository is no outside address.
        (caps.commands.is_empty(), "no shell command that runs a program"),
        (caps.urls.is_empty(), "no URLs outside its own repository"),
        (caps.credential_names.is_empty(), "no names of API keys, tokens, secrets or passwords"),
    ]
    .into_iter()
    .filter(|(empty, _)| *empty)
    .map(|(_, words)| words.to_string())
    .collect();
    if absent.is_empty() {
        String::new()
    } else {
        format!("SKILL.md holds {}.", list_with_more(&absent, absent.len(), "kind"))
    }
}

/// The frontmatter's fields as rows, but for a name and a description the page's head already
/// shows as they are written, and the allowed tools, each listed under what the skill can do.
fn frontmatter_rows(fm: &crate::parse::frontmatter::Frontmatter, name: &str, description: &str) -> Vec<KeyValue> {
    let mut rows = Vec::new();
    let mut push = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            rows.push(KeyValue { key: k.to_string(), value: v });
        }
    };
    push("name", fm.name.clone().filter(|n| n != name));
    push("description", fm.description.clone().filter(|d| d != description));
    push("license", fm.license.clone());
    push("compatibility", fm.compatibility.clone());
    for (k, v) in &fm.metadata {
        push(&format!("metadata.{k}"), value_text(v));
    }
    for (k, v) in &fm.extra {
        push(k, value_text(v));
    }
    rows
}
