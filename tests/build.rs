//! End-to-end: build catalogs into temp folders and read the pages back.

mod support;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use support::{build_into, project_root, script_problems, site_files};

/// The hostile fixture's base_url.
const BASE_URL: &str = "https://example.github.io/sub/path/";

fn read(site: &Path, page: &str) -> String {
    std::fs::read_to_string(site.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The page's text, tags dropped and white space collapsed, for asserting on sentences.
fn text_of(html: &str) -> String {
    let no_tags = regex::Regex::new(r"(?s)<script.*?</script>|<[^>]+>").unwrap().replace_all(html, " ");
    let decoded = no_tags
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn reference_skill_page_has_the_reference_figures() {
    let (out, report) = build_into(&project_root());
    let site = out.path().join("site");
    assert!(report.summary.skills >= 10, "embedded catalog has {} skills", report.summary.skills);
    let html = read(&site, "HKUDS/OpenSpace/code-exec-fallback/index.html");
    let text = text_of(&html);
    for expected in [
        "Token cost ~588 tokens",
        "SKILL.md length 200 words",
        "Files 2",
        "Licence MIT",
        "About 23 tokens (name and description) until it runs",
        "Shell commands in SKILL.md call: python3",
        "SKILL.md holds no URLs outside its own repository and no names of API keys, tokens, secrets or passwords.",
        "Pre-approves nothing (no allowed-tools line)",
        "3 steps, taken from step headings in SKILL.md. Write the Python Script Execute via Shell Handle Output",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Stars come from data/repos.toml; dates are not known for a folder inside the project's
    // own repository, and say so rather than show the project's dates.
    assert!(text.contains("GitHub stars 7.7k"), "{text}");
    assert!(text.contains("Last change Not known: its source has no git history"), "{text}");
    assert!(!text.contains("Repo updated Not known") && !text.contains("First seen Not known"), "{text}");
    assert!(text.contains("as found in its source folder"), "{text}");
    // What every page once said of how it is read is one link away, on the about page.
    let about = text_of(&read(&site, "about/index.html"));
    for moved in [
        "From allowed-tools in the SKILL.md frontmatter.",
        "From URLs in SKILL.md, links to its own repository left out.",
        "Four characters a token",
        "A static check of SKILL.md and every text file in its folder, not a guarantee",
        "headings moved down two levels",
        "Stars are the repository's",
    ] {
        assert!(about.contains(moved), "missing {moved:?} in:\n{about}");
    }
    // The raw file is published beside the page, byte for byte.
    let raw = std::fs::read(site.join("HKUDS/OpenSpace/code-exec-fallback/SKILL.md")).unwrap();
    let original = std::fs::read(
        project_root().join("content/HKUDS/OpenSpace/benchmarks/gdpval/skills/code-exec-fallback/SKILL.md"),
    )
    .unwrap();
    assert_eq!(raw, original);
}

#[test]
fn the_skill_page_opens_with_its_summary_and_says_each_fact_once() {
    let (out, _) = build_into(&project_root());
    let site = out.path().join("site");
    let html = read(&site, "HKUDS/OpenSpace/code-exec-fallback/index.html").replace('"', "");
    let main = &html[html.find("<main").unwrap()..html.find("</main>").unwrap()];
    assert!(main.find("id=summary").unwrap() < main.find("id=install").unwrap(), "the summary comes first");
    let summary = &main[main.find("id=summary").unwrap()..main.find("id=install").unwrap()];
    let summary_text = text_of(summary);
    for expected in [
        "Auto-check Passed no findings",
        "Token cost ~588 tokens",
        "GitHub stars 7.7k",
        "Licence MIT",
        "Last change Not known",
        "Works with All 11 agents",
    ] {
        assert!(summary_text.contains(expected), "missing {expected:?} in:\n{summary_text}");
    }
    // Its token cost placed among the catalog's in words: lighter or heavier than most.
    let place = regex::Regex::new(r"(lighter|heavier) than \d+% of skills here").unwrap();
    assert!(place.is_match(&summary_text), "{summary_text}");
    // The description once; stars, licence and token cost nowhere else among the facts. The
    // SKILL.md section quotes the file whole, frontmatter and all.
    let skill_md = main.find("id=skill-md").unwrap();
    let text = text_of(&format!("{}{}", &main[..skill_md], &main[main.find("id=files").unwrap()..]));
    // A fact no row of the comparison knows is not said ("Used in: —").
    assert!(!text.contains("The same in every row"), "{text}");
    let description = "Fallback pattern for executing Python code when execute_code_sandbox fails";
    assert_eq!(text.matches(description).count(), 1, "{text}");
    for once in ["GitHub stars 7.7k", "Licence MIT", "Token cost ~"] {
        assert_eq!(text.matches(once).count(), 1, "{once} more than once:\n{text}");
    }
    // Later sections say what is new: the verdict is the strip's (the safety section says where
    // the check looked), a count or a list shown in one place only.
    // (The editors' notes are their own words, apart from what was read of the skill.)
    let editors = main.find("id=editors").unwrap()..main.find("id=facts").unwrap();
    let before_skill_md = text_of(&format!("{}{}", &main[..editors.start], &main[editors.end..skill_md]));
    for once in ["Passed", "200 words", "python3", "Sandbox has missing dependencies", "Write the Python Script", "MIT"]
    {
        assert_eq!(before_skill_md.matches(once).count(), 1, "{once} more than once:\n{before_skill_md}");
    }
    assert!(!text.contains("Auto-check passed"), "{text}");
    assert!(!text.contains("1 other file") && !text.contains("199 skills"), "{text}");
    // Every question the FAQ asked is answered by a section above, so there is none, and no
    // FAQPage structured data without visible questions and answers to match it.
    assert!(!html.contains("id=faq") && !html.contains("FAQPage"));
    // One command in view, the first agent's, and every agent's ways one link away: the copy by
    // hand is the page script's, from the agents' table, and on the agents page without it.
    let install = &main[main.find("id=install").unwrap()..main.find("id=editors").unwrap()];
    assert_eq!(install.matches("<div class=cmd").count(), 1, "{install}");
    assert!(!install.contains("git clone"), "{install}");
    assert!(text_of(install).contains("-a claude-code") && install.contains("agents/#claude-code"), "{install}");
}

#[test]
fn the_home_repository_and_owner_pages_draw_their_figures() {
    let (out, _) = build_into(&project_root());
    let site = out.path().join("site");
    let home = read(&site, "index.html").replace('"', "");
    for title in ["Skills per category", "Automated check verdicts", "Skills by token cost when loaded"] {
        assert!(home.contains(&format!(">{title}")), "home: no {title} chart");
    }
    let charts = regex::Regex::new(r"<svg [^>]*class=chart").unwrap();
    assert!(charts.find_iter(&home).count() >= 3);
    // Each chart says its figures in words: every skill counted once among the verdicts.
    let verdicts =
        regex::Regex::new(r"<desc id=chart-verdicts-d>Passed: (\d+); Notes: (\d+); Failed: (\d+).</desc>").unwrap();
    let counts = verdicts.captures(&home).expect("verdicts described");
    let total: usize = (1..=3).map(|i| counts[i].parse::<usize>().unwrap()).sum();
    let skills = std::fs::read_to_string(site.join("api/skills.json")).unwrap();
    let listed = serde_json::from_str::<serde_json::Value>(&skills).unwrap()["skills"].as_array().unwrap().len();
    assert_eq!(total, listed);
    for page in ["northwind-labs/devops-skills/index.html", "northwind-labs/index.html"] {
        let html = read(&site, page).replace('"', "");
        assert_eq!(charts.find_iter(&html).count(), 2, "{page}");
    }
    // No two lists of the home page show the same skills.
    let lists = regex::Regex::new(r"(?s)<section [^>]*id=(newest|starred|lightest|some)[ >].*?</section>").unwrap();
    let shown: Vec<Vec<String>> = lists
        .find_iter(&home)
        .map(|list| {
            let mut hrefs: Vec<String> = regex::Regex::new(r"card-title href=([^ >]+)")
                .unwrap()
                .captures_iter(list.as_str())
                .map(|c| c[1].to_string())
                .collect();
            hrefs.sort();
            hrefs
        })
        .collect();
    assert!(!shown.is_empty());
    for (i, a) in shown.iter().enumerate() {
        assert!(shown[i + 1..].iter().all(|b| b != a), "the same list twice on the home page");
    }
}

#[test]
fn every_skill_page_has_every_section_in_the_reference_order() {
    let (out, report) = build_into(&project_root());
    let site = out.path().join("site");
    // In this order; the last field says whether every page has it (a page leaves out a
    // section with nothing to say: what SKILL.md does not give, similar skills where none
    // shares anything, related topics where the skill has none).
    let sections = [
        ("id=summary", true),
        ("id=install", true),
        ("id=facts", true),
        ("id=what", false),
        ("id=when", false),
        ("id=prompts", false),
        ("id=requirements", false),
        ("id=steps", false),
        ("id=machine", true),
        ("id=safety", true),
        ("id=skill-md", true),
        ("id=files", true),
        ("id=similar", false),
        ("id=more", true),
        ("id=related", false),
    ];
    let mut pages = 0;
    for entry in walkdir::WalkDir::new(&site) {
        let entry = entry.unwrap();
        // Skill pages are three folders deep: owner/repo/skill/index.html.
        if entry.file_name() != "index.html" || entry.depth() != 4 {
            continue;
        }
        pages += 1;
        let html = std::fs::read_to_string(entry.path()).unwrap().replace('"', "");
        let mut last = 0;
        for (section, always) in sections {
            let Some(at) = html.find(section) else {
                assert!(!always, "{}: no {section}", entry.path().display());
                continue;
            };
            assert!(at > last, "{}: {section} out of order", entry.path().display());
            last = at;
        }
        // How each part is read is said once, on the about page every skill page links to.
        assert!(
            html.contains("href=../../../about/#machine>"),
            "{}: no link to how it is read",
            entry.path().display()
        );
        // No section is kept only to say that it has nothing to say.
        for empty in ["gives no example prompts", "lists no requirements", "says no more than its description"] {
            assert!(!html.contains(empty), "{}: {empty}", entry.path().display());
        }
    }
    assert_eq!(pages, report.summary.skills);
}

#[test]
fn every_agent_in_the_table_has_its_ways_a_search_filter_and_a_place_in_the_api() {
    let (out, _) = build_into(&project_root());
    let site = out.path().join("site");
    let page = read(&site, "agents/index.html");
    let script: serde_json::Value = serde_json::from_str(&read(&site, "static/agents.json")).unwrap();
    let search = read(&site, "search/index.html");
    let api: serde_json::Value =
        serde_json::from_str(&read(&site, "api/repos/northwind-labs/devops-skills.json")).unwrap();
    let k8s = api["skills"].as_array().unwrap().iter().find(|s| s["name"] == "k8s-rollout-check").unwrap();
    let agents = catalog::agents::AGENTS.agents.iter();
    assert_eq!(agents.len(), 11);
    for agent in agents {
        let section = regex::Regex::new(&format!(r#"<section[^>]* id="?{}"?[ >]"#, agent.id)).unwrap();
        assert!(section.is_match(&page), "{} has no section on the agents page", agent.id);
        assert!(page.contains(&agent.docs), "{} links its documentation", agent.id);
        let picked = script["agents"].as_array().unwrap().iter().find(|a| a["id"] == agent.id.as_str());
        assert!(picked.is_some_and(|a| !a["ways"].as_array().unwrap().is_empty()), "{} can be picked", agent.id);
        let by_hand = picked.unwrap()["ways"].as_array().unwrap().iter().filter(|w| w["by_hand"] == true).count();
        assert_eq!(by_hand, 1, "{} has one copy by hand for the page's script", agent.id);
        assert!(search.contains(&format!(">{}</option>", agent.name)), "{} is a search filter", agent.id);
        // A compatibility that names no agent: every agent of the table.
        assert!(k8s["agents"].as_array().unwrap().iter().any(|a| a == agent.id.as_str()), "{}", agent.id);
    }
}

#[test]
fn the_home_page_holds_up_only_healthy_skills_and_the_listing_shows_all() {
    let (out, _) = build_into(&project_root());
    let site = out.path().join("site");
    let broken = "northwind-labs/devops-skills/broken-frontmatter/";
    assert!(!read(&site, "index.html").contains(broken), "the home page lists a skill whose frontmatter is broken");
    let listed = walkdir::WalkDir::new(site.join("skills"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "index.html")
        .any(|e| std::fs::read_to_string(e.path()).unwrap().contains(broken));
    assert!(listed, "the skills listing leaves out a skill");
}

#[test]
fn skills_of_one_repository_with_one_title_are_told_apart_by_their_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("skills");
    for (folder, name) in [("pdf/extract", "pdf-extract"), ("office/pdf", "office-pdf"), ("charts", "charts")] {
        let title = if name == "charts" { "Charts" } else { "PDF Tools" };
        std::fs::create_dir_all(repo.join(folder)).unwrap();
        let text =
            format!("---\nname: {name}\ndescription: Works with files of many kinds.\n---\n\n# {title}\n\nText.\n");
        std::fs::write(repo.join(folder).join("SKILL.md"), text).unwrap();
    }
    std::fs::write(
        tmp.path().join("catalog.toml"),
        "title = \"Titles\"\n[[sources]]\npath = \"skills\"\nrepo = \"acme/tools\"\n",
    )
    .unwrap();
    let (out, _) = build_into(tmp.path());
    let listing = read(&out.path().join("site"), "skills/index.html");
    let text = text_of(&listing);
    // Each of the two cards titled alike names its folder; the third, titled alone, does not.
    assert!(text.contains("acme/tools · pdf/extract") && text.contains("acme/tools · office/pdf"), "{text}");
    assert!(!text.contains("acme/tools · charts"), "{text}");
}

#[test]
fn broken_frontmatter_is_read_leniently_with_a_warning_on_its_line() {
    let (out, report) = build_into(&project_root());
    let broken: Vec<String> = report
        .summary
        .diagnostics
        .iter()
        .filter(|d| d.file.ends_with("broken-frontmatter/SKILL.md"))
        .map(|d| d.to_string())
        .collect();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].starts_with("content/northwind-labs/devops-skills/skills/broken-frontmatter/SKILL.md:3: warning:"),
        "{}",
        broken[0]
    );
    // Agents that read leniently load it, so it has its page, which says who does not.
    let site = out.path().join("site");
    let page = text_of(&read(&site, "northwind-labs/devops-skills/broken-frontmatter/index.html"));
    assert!(page.contains("The frontmatter is not valid YAML; agents that parse strictly will not load it."), "{page}");
    assert!(page.contains("SKILL.md:3"), "{page}");
    assert!(site.join("northwind-labs/devops-skills/docker-compose-doctor/index.html").exists());
    // The site's build report lists it too, by its path in its repository, linked at its line.
    let report_page = read(&site, "report/index.html");
    assert!(
        report_page.contains("northwind-labs/devops-skills: skills/broken-frontmatter/SKILL.md:3"),
        "{report_page}"
    );
    assert!(report_page.contains("/blob/HEAD/skills/broken-frontmatter/SKILL.md?plain=1#L3"), "{report_page}");
    assert!(!report_page.contains("content/northwind-labs"), "no path of the builder's folders");
}

#[test]
fn no_script_from_a_skill_reaches_the_page() {
    let (out, report) = build_into(&project_root().join("tests/fixtures/hostile"));
    let site = out.path().join("site");
    assert_eq!(report.summary.skills, 2);
    for page in [
        "evil-org/payloads/script-payload/index.html",
        "evil-org/payloads/index.html",
        "index.html",
        "404.html",
        "report/index.html",
    ] {
        let problems = script_problems(&read(&site, page), Some(BASE_URL));
        assert!(problems.is_empty(), "{page}: {problems:#?}");
    }
    // The payloads are still shown, as text.
    let doc = scraper::Html::parse_document(&read(&site, "evil-org/payloads/script-payload/index.html"));
    let text: String = doc.root_element().text().collect();
    assert!(text.contains("<script>alert('body')</script>"), "payload text missing");
}

#[test]
fn the_script_checker_catches_payloads() {
    // The checker above must be able to fail.
    assert_eq!(script_problems("<p><script>alert(1)</script></p>", None).len(), 1);
    assert_eq!(script_problems("<a href=' JaVaScript:x'>a</a><b onclick=x>b</b>", None).len(), 2);
    assert!(script_problems("<p>&lt;script&gt;</p><script src=../static/catalog.js></script>", None).is_empty());
}

#[test]
fn links_are_relative_and_canonical_urls_use_the_base_url() {
    let (out, _) = build_into(&project_root().join("tests/fixtures/hostile"));
    let html = read(&out.path().join("site"), "evil-org/payloads/script-payload/index.html");
    assert!(html.contains("href=../../../static/style.css"), "stylesheet not relative");
    assert!(html.contains("https://example.github.io/sub/path/evil-org/payloads/script-payload/"), "canonical");
}

#[test]
fn a_skill_without_a_licence_is_not_republished() {
    let (out, _) = build_into(&project_root());
    let site = out.path().join("site");
    let dir = site.join("northwind-labs/data-skills/csv-profiler");
    let text = text_of(&std::fs::read_to_string(dir.join("index.html")).unwrap());
    assert!(text.contains("No licence was found"), "{text}");
    assert!(!dir.join("SKILL.md").exists(), "raw file published without a licence");
    assert!(text.contains("Licence Not known"));
}

#[test]
fn cli_summarises_and_strict_fails_on_diagnostics() {
    let out = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_catalog"))
            .args(["build", "--root"])
            .arg(project_root())
            .arg("--out")
            .arg(out.path().join("site"))
            .args(extra)
            .output()
            .unwrap()
    };
    let ok = run(&[]);
    let stderr = String::from_utf8_lossy(&ok.stderr);
    assert!(ok.status.success(), "{stderr}");
    assert!(stderr.contains("broken-frontmatter/SKILL.md:"), "{stderr}");
    assert!(regex::Regex::new(r"built \d+ skills from 4 repositories").unwrap().is_match(&stderr), "{stderr}");
    let strict = run(&["--strict"]);
    assert_eq!(strict.status.code(), Some(1));
    let missing =
        Command::new(env!("CARGO_BIN_EXE_catalog")).args(["build", "--root", "/nonexistent/catalog"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("catalog.toml"));
}

#[test]
fn similar_skills_rank_the_fixture_family_first() {
    let (out, report) = build_into(&project_root());
    let site = out.path().join("site");
    let api: serde_json::Value = serde_json::from_slice(&std::fs::read(site.join("api/skills.json")).unwrap()).unwrap();
    // Whole records are in each skill's repository file.
    let similar_of = |id: &str| -> Vec<String> {
        let brief =
            api["skills"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap_or_else(|| panic!("no {id}"));
        let file: serde_json::Value =
            serde_json::from_slice(&std::fs::read(site.join(brief["api"].as_str().unwrap())).unwrap()).unwrap();
        let skill = file["skills"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap();
        skill["similar"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
    };
    assert_eq!(
        similar_of("northwind-labs/data-skills/python-script-runner")[0],
        "northwind-labs/data-skills/python-script-runner-plus"
    );
    assert_eq!(
        similar_of("northwind-labs/data-skills/python-script-runner-plus")[0],
        "northwind-labs/data-skills/python-script-runner"
    );
    // Every skill page compares each similar skill the API lists, a row each (its own values
    // are the summary strip's); one with none (the broken-frontmatter fixture shares no topic)
    // has no such section.
    for skill in api["skills"].as_array().unwrap() {
        let page = format!("{}index.html", skill["id"].as_str().unwrap().to_string() + "/");
        let doc = scraper::Html::parse_document(&read(&site, &page));
        let rows = doc.select(&scraper::Selector::parse("#similar tbody tr").unwrap()).count();
        let similar = similar_of(skill["id"].as_str().unwrap()).len();
        assert_eq!(rows, similar, "{page}");
    }
    assert_eq!(api["count"].as_u64().unwrap() as usize, report.summary.skills);
}

#[test]
fn sitemap_robots_and_api_are_valid() {
    let (out, report) = build_into(&project_root().join("tests/fixtures/hostile"));
    let site = out.path().join("site");
    let sitemap = read(&site, "sitemap.xml");
    let doc = roxmltree::Document::parse(&sitemap).expect("sitemap is well-formed XML");
    let locs: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("loc")).filter_map(|n| n.text()).collect();
    assert!(locs.iter().all(|l| l.starts_with("https://example.github.io/sub/path/")), "{locs:?}");
    assert!(locs.contains(&"https://example.github.io/sub/path/evil-org/payloads/script-payload/"));
    assert!(locs.contains(&"https://example.github.io/sub/path/"));
    assert!(read(&site, "robots.txt").contains("Sitemap: https://example.github.io/sub/path/sitemap.xml"));

    // The documented shape of the JSON API (README, "JSON API").
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Index {
        title: String,
        count: usize,
        left_out: usize,
        skills: Vec<Brief>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Brief {
        id: String,
        name: String,
        title: String,
        repo: String,
        api: String,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Skill {
        id: String,
        name: String,
        title: String,
        description: String,
        repo: String,
        path: String,
        url: String,
        api: String,
        license: String,
        license_spdx: Option<String>,
        tokens: usize,
        idle_tokens: usize,
        words: usize,
        files: usize,
        categories: Vec<String>,
        tags: Vec<String>,
        products: Vec<String>,
        agents: Vec<String>,
        commands: Vec<String>,
        urls: Vec<String>,
        credential_names: Vec<String>,
        allowed_tools: Option<Vec<String>>,
        verdict: String,
        stars: Option<u64>,
        first_seen: Option<String>,
        last_changed: Option<String>,
        similar: Vec<String>,
    }
    let index: Index =
        serde_json::from_slice(&std::fs::read(site.join("api/skills.json")).unwrap()).expect("api/skills.json shape");
    assert_eq!(index.count, report.summary.skills);
    // Each skill left out has one error (this fixture's errors are all about skills).
    let errors = report.summary.diagnostics.iter().filter(|d| d.level == catalog::diag::Level::Error).count();
    assert_eq!(index.left_out, errors);
    assert!(index.title.contains("Hostile"));
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RepoFile {
        repo: String,
        count: usize,
        left_out: usize,
        skills: Vec<Skill>,
    }
    for skill in &index.skills {
        let file: RepoFile =
            serde_json::from_slice(&std::fs::read(site.join(&skill.api)).unwrap()).expect("per-repository shape");
        assert_eq!(file.repo, skill.repo);
        assert_eq!(file.count, file.skills.len());
        assert!(file.left_out <= index.left_out);
        let records: Vec<&Skill> = file.skills.iter().filter(|s| s.id == skill.id).collect();
        assert_eq!(records.len(), 1, "{} lists {}", skill.api, skill.id);
        let record = records[0];
        assert_eq!((&record.name, &record.title, &record.api), (&skill.name, &skill.title, &skill.api));
        assert!(record.url.starts_with("https://example.github.io/sub/path/"));
    }
}

#[test]
fn a_catalog_overrides_templates_and_static_files_one_by_one() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let fixture = project_root().join("tests/fixtures/hostile");
    std::fs::copy(fixture.join("catalog.toml"), root.join("catalog.toml")).unwrap();
    let skills = root.join("skills/no-name");
    std::fs::create_dir_all(&skills).unwrap();
    std::fs::copy(fixture.join("skills/no-name/SKILL.md"), skills.join("SKILL.md")).unwrap();
    std::fs::create_dir_all(root.join("templates")).unwrap();
    std::fs::create_dir_all(root.join("static")).unwrap();
    let base = std::fs::read_to_string(project_root().join("templates/base.html")).unwrap();
    std::fs::write(
        root.join("templates/base.html"),
        base.replace("<footer class=\"site-footer\">", "<footer class=\"site-footer themed\">"),
    )
    .unwrap();
    std::fs::write(root.join("static/style.css"), "body { color: rebeccapurple }").unwrap();
    std::fs::write(root.join("static/logo.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>").unwrap();

    let (out, _) = build_into(root);
    let site = out.path().join("site");
    assert!(read(&site, "index.html").contains("site-footer themed"), "template override ignored");
    assert!(read(&site, "evil-org/payloads/no-name/index.html").contains("site-footer themed"));
    assert_eq!(read(&site, "static/style.css"), "body { color: rebeccapurple }");
    assert!(site.join("static/logo.svg").is_file());
    // Files not overridden come from the embedded defaults.
    assert_eq!(
        std::fs::read(site.join("static/catalog.js")).unwrap(),
        std::fs::read(project_root().join("static/catalog.js")).unwrap()
    );
}

#[test]
fn two_builds_of_the_same_input_are_byte_identical() {
    let (first, _) = build_into(&project_root());
    let (second, _) = build_into(&project_root());
    let a = site_files(&first.path().join("site"));
    let b = site_files(&second.path().join("site"));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, bytes) in &a {
        assert!(bytes == &b[path], "{} differs between two builds", path.display());
    }
}

#[test]
fn every_page_carries_a_content_security_policy_without_inline_script() {
    let (out, _) = build_into(&project_root().join("tests/fixtures/hostile"));
    let selector = scraper::Selector::parse("meta[http-equiv='Content-Security-Policy']").unwrap();
    let mut pages = 0;
    for (path, bytes) in site_files(&out.path().join("site")) {
        if path.extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        pages += 1;
        let doc = scraper::Html::parse_document(&String::from_utf8(bytes).unwrap());
        let csp = doc
            .select(&selector)
            .next()
            .and_then(|m| m.value().attr("content"))
            .unwrap_or_else(|| panic!("{}: no CSP", path.display()));
        assert!(csp.contains("script-src 'self'"), "{}: {csp}", path.display());
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{}: {csp}", path.display());
        assert!(csp.contains("default-src 'none'"), "{}: {csp}", path.display());
    }
    assert!(pages > 5);
}

#[test]
fn folders_that_would_share_a_page_address_both_get_a_page() {
    let root = tempfile::tempdir().unwrap();
    let catalog =
        "title = \"T\"\nbase_url = \"https://example.org/\"\n\n[[sources]]\npath = \"repo\"\nrepo = \"acme/skills\"\n";
    std::fs::write(root.path().join("catalog.toml"), catalog).unwrap();
    // Three folders whose names make the same URL segment, `my-skill`; in folder order (by
    // bytes): "My Skill" < "My-Skill" < "my-skill".
    let folders =
        [("My Skill", "Alpha", "my-skill"), ("My-Skill", "Bravo", "my-skill-2"), ("my-skill", "Charlie", "my-skill-3")];
    for (folder, heading, _) in folders {
        let dir = root.path().join("repo").join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        let text = format!("---\nname: {}\ndescription: One of three.\n---\n\n# {heading}\n", folder.to_lowercase());
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
    }
    let (out, report) = build_into(root.path());
    let site = out.path().join("site");
    assert_eq!(report.summary.skills, 3);
    for (folder, heading, page) in folders {
        let html = read(&site, &format!("acme/skills/{page}/index.html"));
        let others = folders.iter().filter(|f| f.1 != heading);
        let text = text_of(&html);
        let title = text.split(" · ").next().unwrap_or_default().to_string();
        assert!(
            title.contains(heading) && others.clone().all(|f| !title.contains(f.1)),
            "{page} is not {folder}'s page: {title}"
        );
    }
    let taken: Vec<&str> =
        report.summary.diagnostics.iter().map(|d| d.message.as_str()).filter(|m| m.contains("is taken by")).collect();
    assert_eq!(taken.len(), 2, "{taken:?}");
    assert!(taken[0].contains("My Skill") && taken[0].contains("my-skill-2/"), "{taken:?}");
    assert!(taken[1].contains("My Skill") && taken[1].contains("my-skill-3/"), "{taken:?}");
}

#[test]
fn a_large_repository_is_listed_a_page_at_a_time_in_every_order_it_has() {
    let tmp = tempfile::tempdir().unwrap();
    // 50 skills, one more than a page: skill-00 is the heaviest, skill-49 the lightest.
    for i in 0..50 {
        let dir = tmp.path().join(format!("src/skill-{i:02}"));
        std::fs::create_dir_all(&dir).unwrap();
        let body = "Words of instructions. ".repeat(100 - i);
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: skill-{i:02}\ndescription: Skill {i}.\n---\n{body}\n"),
        )
        .unwrap();
    }
    std::fs::write(
        tmp.path().join("catalog.toml"),
        "title = \"T\"\n[[sources]]\npath = \"src\"\nrepo = \"acme/many\"\n",
    )
    .unwrap();
    let (out, report) = build_into(tmp.path());
    assert_eq!(report.summary.skills, 50);
    let site = out.path().join("site");
    let cards = |html: &str| -> Vec<String> {
        // A card's title, or a row's link (`<li><a href=...>`).
        regex::Regex::new(r#"(?:class="?card-title"? |<li><a )href="?[^" >]*?(skill-\d\d)/"#)
            .unwrap()
            .captures_iter(html)
            .map(|c| c[1].to_string())
            .collect()
    };
    // An owner of one repository links the repository's listings rather than repeat them.
    assert!(!site.join("owners/acme").exists());
    for (page, base) in [("acme/many/index.html", "repos/acme/many/"), ("acme/index.html", "repos/acme/many/")] {
        let html = read(&site, page);
        let shown = cards(&html);
        assert_eq!(shown.len(), 48, "{page}: the first page only");
        assert_eq!(shown[0], "skill-00", "{page}: by name");
        // No date is known: an order by last change would be the order by name again.
        for order in ["name", "tokens"] {
            assert!(html.contains(&format!("{base}{order}/")), "{page} links its {order} order");
        }
        assert!(!html.contains(&format!("{base}changed/")), "{page}");
        let by_name = read(&site, &format!("{base}name/index.html"));
        assert_eq!(cards(&by_name).len(), 48);
        assert_eq!(cards(&read(&site, &format!("{base}name/page/2/index.html"))), ["skill-48", "skill-49"]);
        // Lightest first, a line each: the cards are in the order by name.
        let tokens_html = read(&site, &format!("{base}tokens/index.html"));
        assert!(tokens_html.contains("skill-rows") && !tokens_html.contains("card-title"), "{base}");
        let by_tokens = cards(&tokens_html);
        assert_eq!(&by_tokens[..2], ["skill-49", "skill-48"], "{base}");
        assert!(text_of(&by_name).contains("Sort by name · token cost"), "{}", text_of(&by_name));
    }
    // A repository that fits one page has none of these.
    let (out, _) = build_into(&project_root());
    assert!(!out.path().join("site/repos/northwind-labs").exists());
}

#[test]
fn search_lists_its_shards_and_finds_the_programs_a_skill_runs() {
    let (out, _) = build_into(&project_root());
    let site = out.path().join("site");
    let meta: serde_json::Value = serde_json::from_str(&read(&site, "search/meta.json")).unwrap();
    let listed: BTreeSet<String> =
        meta["shards"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    let written: BTreeSet<String> = std::fs::read_dir(site.join("search/terms"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".json").to_string())
        .collect();
    assert_eq!(listed, written, "the page asks only for shards that exist, and knows every one");
    // `python3` is in no title, name or description of the fixture runner; its shell code calls it.
    let shard: serde_json::Value = serde_json::from_str(&read(&site, "search/terms/py.json")).unwrap();
    let docs: Vec<u64> = shard["python3"]
        .as_array()
        .expect("python3 is a term")
        .iter()
        .step_by(2)
        .map(|d| d.as_u64().unwrap())
        .collect();
    let pages: Vec<String> = (0..)
        .map_while(|n| std::fs::read_to_string(site.join(format!("search/docs/{n}.json"))).ok())
        .flat_map(|shard| serde_json::from_str::<Vec<serde_json::Value>>(&shard).unwrap())
        .map(|d| d["u"].as_str().unwrap().to_string())
        .collect();
    assert!(docs.iter().any(|&d| pages[d as usize].ends_with("/python-script-runner/")), "{docs:?}");
}
