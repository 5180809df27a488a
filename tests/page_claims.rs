//! What a skill page says, held against the SKILL.md it was made from: no section without
//! content, no claim of emptiness the file contradicts, "What it does" in the skill's own words,
//! and no two skills a listing shows alike. Over the project's own catalog always, and over the
//! real registry `../shared/registry-dev/` (6,796 skills) when it is there.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

/// One skill as the site's API lists it: its page and its SKILL.md.
struct Listed {
    page: PathBuf,
    skill_md: PathBuf,
    repo: String,
}

/// Every failed claim, by kind, with the pages that make it.
#[derive(Default)]
struct Findings(BTreeMap<&'static str, Vec<String>>);

impl Findings {
    fn add(&mut self, kind: &'static str, page: &Path, detail: &str) {
        self.0.entry(kind).or_default().push(format!("{}: {detail}", page.display()));
    }

    fn assert_none(&self, pages: usize) {
        let summary: Vec<String> = self
            .0
            .iter()
            .map(|(kind, pages)| format!("{kind}: {} pages, e.g. {:?}", pages.len(), &pages[..pages.len().min(3)]))
            .collect();
        assert!(self.0.is_empty(), "of {pages} skill pages:\n{}", summary.join("\n"));
    }
}

#[test]
fn the_projects_own_catalog_says_only_what_its_skills_hold() {
    let root = support::project_root();
    let (out, _) = support::build_site(&root, false);
    let sources = sources_of(&root);
    check_site(&out.path().join("site"), &sources);
}

#[test]
fn a_real_registry_says_only_what_its_skills_hold() {
    let tarball = support::project_root().join("../shared/registry-dev/registry-dev.tar.gz");
    if !tarball.is_file() {
        eprintln!("skipped: {} is not there", tarball.display());
        return;
    }
    let corpus = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("tar").arg("-xzf").arg(&tarball).arg("-C").arg(corpus.path()).status();
    assert!(status.expect("tar runs").success(), "tar could not unpack {}", tarball.display());
    // One source per OWNER--REPO folder, as the registry's README describes it.
    let mut toml = String::from("title = \"Registry\"\n");
    let mut folders: Vec<_> =
        std::fs::read_dir(corpus.path().join("registry")).unwrap().map(|e| e.unwrap().path()).collect();
    folders.sort();
    for folder in folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let Some((owner, repo)) = name.split_once("--") else { continue };
        toml.push_str(&format!("[[sources]]\npath = \"registry/{name}\"\nrepo = \"{owner}/{repo}\"\n"));
    }
    std::fs::write(corpus.path().join("catalog.toml"), toml).unwrap();
    let (out, _) = support::build_site(corpus.path(), false);
    check_site(&out.path().join("site"), &sources_of(corpus.path()));
}

/// Each source's folder by its repository, as `catalog.toml` at `root` lists them.
fn sources_of(root: &Path) -> BTreeMap<String, PathBuf> {
    let config: toml::Table = std::fs::read_to_string(root.join("catalog.toml")).unwrap().parse().unwrap();
    config["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|source| (source["repo"].as_str().unwrap().to_string(), root.join(source["path"].as_str().unwrap())))
        .collect()
}

fn check_site(site: &Path, sources: &BTreeMap<String, PathBuf>) {
    let skills = listed(site, sources);
    assert!(!skills.is_empty(), "the API lists no skill");
    let mut findings = Findings::default();
    for skill in &skills {
        let html = std::fs::read_to_string(&skill.page).unwrap();
        let skill_md = String::from_utf8_lossy(&std::fs::read(&skill.skill_md).unwrap()).into_owned();
        check_page(&html, &skill_md, skill, &mut findings);
    }
    check_listings(site, &mut findings);
    findings.assert_none(skills.len());
}

/// The skills of every repository's API file, with their pages and SKILL.md files.
fn listed(site: &Path, sources: &BTreeMap<String, PathBuf>) -> Vec<Listed> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(site.join("api/repos")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "json") {
            continue;
        }
        let api: serde_json::Value = serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
        for skill in api["skills"].as_array().unwrap() {
            let repo = skill["repo"].as_str().unwrap().to_string();
            let folder = sources[&repo].join(skill["path"].as_str().unwrap());
            // The page's address, absolute where the catalog has a base URL.
            let url = skill["url"].as_str().unwrap();
            let path = url.split_once("://").map_or(url, |(_, rest)| rest.split_once('/').map_or("", |(_, path)| path));
            let page = site.join(path.trim_start_matches('/')).join("index.html");
            // Agents read the file in any case (`skill.md`).
            let skill_md = std::fs::read_dir(&folder)
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .find(|path| path.file_name().is_some_and(|name| name.eq_ignore_ascii_case("SKILL.md")))
                .unwrap_or_else(|| panic!("no SKILL.md in {}", folder.display()));
            out.push(Listed { page, skill_md, repo });
        }
    }
    out
}

static SECTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?s)<section id="([\w-]+)"[^>]*>(.*?)</section>"#).unwrap());
static HEADING: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<h2[^>]*>.*?</h2>").unwrap());
static NOT_FOUND: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<dt>Not found</dt><dd>(.*?)</dd>").unwrap());
static PARAGRAPH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)<p>(.*?)</p>").unwrap());
static STEPS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\d+) steps?, taken from").unwrap());
/// An address a reader would follow: a scheme, then a letter or digit.
static URL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"https?://([A-Za-z0-9][^\s<>"'`)\]]*)"#).unwrap());
/// A credential's name: capitals, digits and underscores ending in one of the four suffixes.
static CREDENTIAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)[A-Z][A-Z0-9_]*_(KEY|TOKEN|SECRET|PASSWORD)(?-u:\b)").unwrap());

fn check_page(html: &str, skill_md: &str, skill: &Listed, findings: &mut Findings) {
    let page = skill.page.as_path();
    for section in SECTION.captures_iter(html) {
        if text_of(&HEADING.replace(&section[2], "")).is_empty() {
            findings.add("a section with nothing in it", page, &section[1]);
        }
    }
    if let Some(absent) = NOT_FOUND.captures(html).map(|c| text_of(&c[1])) {
        let own = format!("github.com/{}", skill.repo.to_lowercase());
        let outside = URL
            .captures_iter(skill_md)
            .map(|c| c[1].to_lowercase())
            .find(|url| !(url.starts_with(&own) && url[own.len()..].chars().next().is_none_or(|c| "/.#?".contains(c))));
        if absent.contains("no URLs") && outside.is_some() {
            findings.add("\"no URLs\" where SKILL.md holds one", page, outside.as_deref().unwrap_or_default());
        }
        if absent.contains("no names of API keys")
            && let Some(name) = CREDENTIAL.find(skill_md)
        {
            findings.add("\"no names of API keys\" where SKILL.md names one", page, name.as_str());
        }
    }
    if html.contains("Pre-approves nothing") && frontmatter_has(skill_md, &["allowed-tools", "allowed_tools"]) {
        findings.add("\"pre-approves nothing\" where the frontmatter has allowed-tools", page, "");
    }
    // "What it does" quotes the body's opening prose: each paragraph's first words are the
    // file's, compared letter by letter (emphasis and links set words apart in Markdown only).
    let letters_of_file = letters(&without_link_targets(skill_md));
    if let Some(what) = SECTION.captures_iter(html).find(|s| &s[1] == "what") {
        for paragraph in PARAGRAPH.captures_iter(&what[2]) {
            let opening: String = letters(&text_of(&paragraph[1])).chars().take(60).collect();
            if !letters_of_file.contains(&opening) {
                findings.add("\"What it does\" in words SKILL.md does not hold", page, &opening);
            }
        }
    }
    if let Some(steps) = SECTION.captures_iter(html).find(|s| &s[1] == "steps") {
        let said: usize = STEPS.captures(&steps[2]).map_or(0, |c| c[1].parse().unwrap());
        let listed = steps[2].matches("<li>").count();
        if said != listed {
            findings.add("a step count that is not the steps listed", page, &format!("{said} said, {listed} listed"));
        }
    }
}

/// No two skills a listing shows alike: where titles collide, the lines differ.
fn check_listings(site: &Path, findings: &mut Findings) {
    static ITEM: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?s)<li class="card">\s*<a class="card-title"[^>]*>(.*?)</a>(.*?)</li>|<li><a href="[^"]*">([^<]*)</a> <span class="muted">(.*?)</span></li>"#).unwrap()
    });
    for entry in walkdir::WalkDir::new(site) {
        let entry = entry.unwrap();
        if entry.file_name() != "index.html" {
            continue;
        }
        let html = std::fs::read_to_string(entry.path()).unwrap();
        let mut shown: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for item in ITEM.captures_iter(&html) {
            let title = item.get(1).or(item.get(3)).map_or("", |m| m.as_str());
            let rest = item.get(2).or(item.get(4)).map_or("", |m| m.as_str());
            shown.entry(text_of(title)).or_default().push(text_of(rest));
        }
        for (title, lines) in shown {
            let mut distinct = lines.clone();
            distinct.sort();
            distinct.dedup();
            if distinct.len() < lines.len() {
                findings.add("two skills shown alike in a listing", entry.path(), &title);
            }
        }
    }
}

fn frontmatter_has(skill_md: &str, keys: &[&str]) -> bool {
    let mut lines = skill_md.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return false;
    }
    lines.take_while(|line| line.trim_end() != "---").any(|line| {
        keys.iter().any(|key| line.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with(':')))
    })
}

/// Markdown links as their text alone: `[text](target)` is `text`.
fn without_link_targets(markdown: &str) -> String {
    static TARGET: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\]\([^)]*\)").unwrap());
    TARGET.replace_all(markdown, "]").into_owned()
}

/// The letters and digits of a text, in lower case.
fn letters(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// An HTML fragment's text: tags dropped, the entities templates write read back.
fn text_of(html: &str) -> String {
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[^>]*>").unwrap());
    let text = TAG.replace_all(html, " ");
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&#x2F;", "/")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
