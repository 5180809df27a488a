//! Sources from git: real repositories built in temp folders with set commit dates, read as
//! work trees and as git URLs, and the facts their pages show.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use catalog::ops::{BuildOptions, BuildReport, build};
use support::{commit_all, git};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn init(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"], "2026-01-01T00:00:00Z");
}

fn skill(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {name} does one thing well.\n---\n\n# {name}\n\n{body}\n")
}

const MIT: &str =
    "MIT License\n\nCopyright (c) 2026 Acme Labs\n\nPermission is hereby granted, free of charge, to any person";

/// A repository with three commits on known dates:
/// 2026-01-05 adds skills/alpha, 2026-02-01 adds skills/beta, 2026-03-01 changes alpha.
fn dated_repo(dir: &Path) -> String {
    init(dir);
    write(&dir.join("LICENSE"), MIT);
    write(&dir.join("skills/alpha/SKILL.md"), &skill("alpha", "Alpha body text."));
    commit_all(dir, "alpha", "2026-01-05T10:00:00Z");
    write(&dir.join("skills/beta/SKILL.md"), &skill("beta", "Beta body text."));
    commit_all(dir, "beta", "2026-02-01T10:00:00Z");
    write(&dir.join("skills/alpha/notes.md"), "notes");
    commit_all(dir, "alpha notes", "2026-03-01T10:00:00Z")
}

fn catalog_toml(root: &Path, sources: &str) {
    write(&root.join("catalog.toml"), &format!("title = \"Test\"\nbase_url = \"https://example.org/\"\n{sources}"));
}

fn build_root(root: &Path, offline: bool) -> (PathBuf, BuildReport) {
    let out = root.join("site");
    let options =
        BuildOptions { root: root.to_path_buf(), out: Some(out.clone()), base_url: None, minify: false, offline };
    let report = build(&options).expect("build succeeds");
    (out, report)
}

fn text_of(html: &str) -> String {
    let no_tags = regex::Regex::new(r"(?s)<script.*?</script>|<[^>]+>").unwrap().replace_all(html, " ");
    let decoded = no_tags.replace("&#x27;", "'").replace("&#39;", "'").replace("&amp;", "&").replace("&quot;", "\"");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn page(site: &Path, path: &str) -> String {
    std::fs::read_to_string(site.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn a_work_tree_gives_the_commit_and_the_dates() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let head = dated_repo(&root.join("repos/acme-skills"));
    catalog_toml(root, "[[sources]]\npath = \"repos/acme-skills\"\nrepo = \"acme/skills\"\n");
    let (site, report) = build_root(root, true);
    assert!(report.summary.diagnostics.is_empty(), "{:?}", report.summary.diagnostics);

    let alpha_html = page(&site, "acme/skills/alpha/index.html");
    let alpha = text_of(&alpha_html);
    let short = &head[..7];
    for expected in [
        format!("at commit {short}"),
        "Repo updated March 1, 2026".to_string(),
        "First seen January 5, 2026".to_string(),
        "Licence MIT".to_string(),
    ] {
        assert!(alpha.contains(&expected), "missing {expected:?} in:\n{alpha}");
    }
    // Links name the commit, not HEAD.
    assert!(alpha_html.contains(&format!("https://github.com/acme/skills/tree/{head}/skills/alpha")), "folder link");
    assert!(alpha_html.contains(&format!("https://github.com/acme/skills/blob/{head}/LICENSE")), "licence link");
    assert!(!alpha_html.contains("/blob/HEAD/"));
    assert!(alpha.contains("Last change March 1, 2026"), "{alpha}");
    let beta = text_of(&page(&site, "acme/skills/beta/index.html"));
    assert!(beta.contains("First seen February 1, 2026"), "{beta}");
    assert!(beta.contains("Last change February 1, 2026"), "{beta}");

    let repo_page = text_of(&page(&site, "acme/skills/index.html"));
    assert!(repo_page.contains(&format!("Commit {short}")), "{repo_page}");
    assert!(repo_page.contains("Updated March 1, 2026"), "{repo_page}");
    let owner_page = text_of(&page(&site, "acme/index.html"));
    assert!(owner_page.contains("acme/skills") && owner_page.contains("All 2 skills"), "{owner_page}");
}

#[test]
fn a_plain_folder_says_not_known_and_never_invents_a_date() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(&root.join("plain/skills/gamma/SKILL.md"), &skill("gamma", "Gamma."));
    // A folder inside the catalog's own repository is a copy, not the repository it names.
    init(root);
    catalog_toml(root, "[[sources]]\npath = \"plain\"\nrepo = \"acme/plain\"\n");
    commit_all(root, "catalog", "2026-04-01T00:00:00Z");
    let (site, _) = build_root(root, true);
    let text = text_of(&page(&site, "acme/plain/gamma/index.html"));
    // Once, with the reason.
    assert!(text.contains("Last change Not known: its source has no git history"), "{text}");
    assert!(!text.contains("Repo updated") && !text.contains("First seen"), "{text}");
    assert!(text.contains("as found in its source folder"), "{text}");
    assert!(text.contains("Last change Not known"), "{text}");
    assert!(!text.contains("April 1, 2026") && !text.contains("2026-04-01"), "a date was shown: {text}");
}

#[test]
fn identical_copies_count_other_owners_and_link_the_first_seen() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    dated_repo(&root.join("repos/acme-skills"));
    // A second owner copies alpha later, with Windows line endings.
    let fork = root.join("repos/zed-tools");
    init(&fork);
    let original = root.join("repos/acme-skills/skills/alpha");
    for name in ["SKILL.md", "notes.md"] {
        let text = std::fs::read_to_string(original.join(name)).unwrap().replace('\n', "\r\n");
        write(&fork.join("copied/alpha").join(name), &text);
    }
    write(&fork.join("own/SKILL.md"), &skill("own", "Own."));
    commit_all(&fork, "copy alpha", "2026-05-01T00:00:00Z");
    catalog_toml(
        root,
        "[[sources]]\npath = \"repos/zed-tools\"\nrepo = \"zed/tools\"\n\
         [[sources]]\npath = \"repos/acme-skills\"\nrepo = \"acme/skills\"\n",
    );
    let (site, _) = build_root(root, true);

    let canonical_html = page(&site, "acme/skills/alpha/index.html");
    let copy_html = page(&site, "zed/tools/alpha/index.html");
    for html in [&canonical_html, &copy_html] {
        assert!(text_of(html).contains("Used in 1 other owner"), "{}", text_of(html));
    }
    assert!(text_of(&canonical_html).contains("This is the first copy seen"));
    assert!(copy_html.contains("href=\"../../../acme/skills/alpha/\""), "copy does not link the canonical copy");
    assert!(copy_html.contains("<link rel=\"canonical\" href=\"https://example.org/acme/skills/alpha/\""));
    // Skills that are not copied say nothing of copies.
    let own = text_of(&page(&site, "zed/tools/own/index.html"));
    assert!(!own.contains("Used in 1") && !own.contains("first copy seen"), "{own}");
    assert!(!text_of(&page(&site, "acme/skills/beta/index.html")).contains("Used in 1"));
}

#[test]
fn a_skill_without_any_licence_is_described_but_not_republished() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let repo = root.join("repos/bare");
    init(&repo);
    write(&repo.join("skills/delta/SKILL.md"), &skill("delta", "The secret sauce paragraph."));
    let head = commit_all(&repo, "delta", "2026-06-01T00:00:00Z");
    catalog_toml(root, "[[sources]]\npath = \"repos/bare\"\nrepo = \"acme/bare\"\n");
    let (site, _) = build_root(root, true);
    let html = page(&site, "acme/bare/delta/index.html");
    let text = text_of(&html);
    assert!(!text.contains("The secret sauce paragraph."), "SKILL.md text republished");
    assert!(text.contains("delta does one thing well."), "description missing");
    assert!(text.contains("No licence was found"), "{text}");
    assert!(html.contains(&format!("https://github.com/acme/bare/blob/{head}/skills/delta/SKILL.md")));
    assert!(!site.join("acme/bare/delta/SKILL.md").exists());
}

#[test]
fn git_urls_are_fetched_cached_and_read_offline_and_a_broken_one_is_a_diagnostic() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    let upstream = tmp.path().join("upstream");
    let head = dated_repo(&upstream);
    git(&upstream, &["tag", "v1", &head], "2026-03-01T10:00:00Z");
    write(&upstream.join("skills/later/SKILL.md"), &skill("later", "After v1."));
    commit_all(&upstream, "later", "2026-07-01T00:00:00Z");
    let url = format!("file://{}", upstream.display());
    catalog_toml(
        &root,
        &format!(
            "[[sources]]\ngit = \"{url}\"\nrev = \"v1\"\nrepo = \"acme/skills\"\n\
             [[sources]]\ngit = \"http://127.0.0.1:9/nobody/nothing.git\"\nrepo = \"nobody/nothing\"\n"
        ),
    );

    let (site, report) = build_root(&root, false);
    let unreachable: Vec<String> = report.summary.diagnostics.iter().map(|d| d.to_string()).collect();
    assert!(
        unreachable.iter().any(|d| d.contains("nobody/nothing") && d.contains("could not be fetched")),
        "{unreachable:?}"
    );
    assert_eq!(unreachable.len(), 1, "one diagnostic for the unreachable source: {unreachable:?}");
    assert_eq!(report.summary.skills, 2, "the tagged commit has alpha and beta");
    let text = text_of(&page(&site, "acme/skills/alpha/index.html"));
    assert!(text.contains(&format!("at commit {}", &head[..7])), "{text}");
    assert!(text.contains("First seen January 5, 2026") && text.contains("Repo updated March 1, 2026"), "{text}");
    assert!(root.join(".catalog/sources/acme/skills/files/skills/alpha/SKILL.md").is_file());

    // Offline, with the upstream gone: the cache still builds.
    std::fs::remove_dir_all(&upstream).unwrap();
    let (site, report) = build_root(&root, true);
    assert_eq!(report.summary.skills, 2);
    assert!(text_of(&page(&site, "acme/skills/alpha/index.html")).contains("First seen January 5, 2026"));
    assert!(
        report.summary.diagnostics.iter().any(|d| d.message.contains("--offline")),
        "{:?}",
        report.summary.diagnostics
    );

    // Offline with another rev than the cache holds: used, with a warning.
    let toml = std::fs::read_to_string(root.join("catalog.toml")).unwrap();
    std::fs::write(root.join("catalog.toml"), toml.replace("rev = \"v1\"", "rev = \"v2\"")).unwrap();
    let (_, report) = build_root(&root, true);
    assert_eq!(report.summary.skills, 2);
    assert!(
        report.summary.diagnostics.iter().any(|d| d.message.contains("the cache holds") && d.message.contains("at v1"))
    );
    std::fs::write(root.join("catalog.toml"), toml).unwrap();

    // Online again, the upstream unreachable: a diagnostic, and the cached copy is used.
    let (_, report) = build_root(&root, false);
    assert_eq!(report.summary.skills, 2);
    assert!(
        report
            .summary
            .diagnostics
            .iter()
            .any(|d| d.message.contains("acme/skills") && d.message.contains("fetched before"))
    );

    // `catalog sources` lists the commit and the skill count from the cache.
    let out = Command::new(env!("CARGO_BIN_EXE_catalog")).args(["sources", "--root"]).arg(&root).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains(&format!("acme/skills  {url} at v1 (git URL), at commit {}, 2 skills", &head[..7])),
        "{stdout}"
    );
    assert!(stdout.contains("nobody/nothing") && stdout.contains("not in the cache"), "{stdout}");
}

#[test]
fn shallow_fetches_know_the_commit_but_not_the_history() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    let upstream = tmp.path().join("upstream");
    let head = dated_repo(&upstream);
    let url = format!("file://{}", upstream.display());
    catalog_toml(&root, &format!("[[sources]]\ngit = \"{url}\"\nhistory = false\nrepo = \"acme/skills\"\n"));
    let (site, report) = build_root(&root, false);
    assert!(report.summary.diagnostics.is_empty(), "{:?}", report.summary.diagnostics);
    let text = text_of(&page(&site, "acme/skills/alpha/index.html"));
    assert!(text.contains(&format!("at commit {}", &head[..7])), "{text}");
    assert!(text.contains("Repo updated March 1, 2026"), "{text}");
    assert!(text.contains("First seen Not known"), "{text}");
}

#[test]
fn a_rev_can_be_a_commit_or_a_branch() {
    let tmp = tempfile::tempdir().unwrap();
    let upstream = tmp.path().join("upstream");
    dated_repo(&upstream);
    let first = git(&upstream, &["rev-list", "--max-parents=0", "HEAD"], "2026-01-01T00:00:00Z");
    git(&upstream, &["branch", "old", &first], "2026-01-01T00:00:00Z");
    let url = format!("file://{}", upstream.display());
    for rev in [first.as_str(), "old"] {
        let root = tmp.path().join(format!("catalog-{rev}"));
        catalog_toml(&root, &format!("[[sources]]\ngit = \"{url}\"\nrev = \"{rev}\"\nrepo = \"acme/skills\"\n"));
        let (site, report) = build_root(&root, false);
        assert!(report.summary.diagnostics.is_empty(), "{rev}: {:?}", report.summary.diagnostics);
        assert_eq!(report.summary.skills, 1, "{rev}: only alpha existed at the first commit");
        let text = text_of(&page(&site, "acme/skills/alpha/index.html"));
        assert!(text.contains(&format!("at commit {}", &first[..7])), "{rev}: {text}");
        assert!(text.contains("Repo updated January 5, 2026"), "{rev}: {text}");
    }
}

#[test]
fn the_feed_lists_dated_skills_newest_first_and_the_home_page_shows_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    dated_repo(&root.join("repos/acme-skills"));
    catalog_toml(root, "[[sources]]\npath = \"repos/acme-skills\"\nrepo = \"acme/skills\"\n");
    let (site, _) = build_root(root, true);
    let feed = page(&site, "feed.xml");
    let doc = roxmltree::Document::parse(&feed).expect("feed is well-formed XML");
    let atom = "http://www.w3.org/2005/Atom";
    assert_eq!(doc.root_element().tag_name().namespace(), Some(atom));
    let entries: Vec<roxmltree::Node> =
        doc.root_element().children().filter(|n| n.has_tag_name((atom, "entry"))).collect();
    let titles: Vec<&str> = entries
        .iter()
        .map(|e| e.children().find(|c| c.has_tag_name((atom, "title"))).and_then(|t| t.text()).unwrap_or(""))
        .collect();
    assert_eq!(titles, ["beta", "alpha"], "newest first");
    let published = entries[1].children().find(|c| c.has_tag_name((atom, "published"))).and_then(|t| t.text());
    assert_eq!(published, Some("2026-01-05T10:00:00Z"));
    let updated = entries[1].children().find(|c| c.has_tag_name((atom, "updated"))).and_then(|t| t.text());
    assert_eq!(updated, Some("2026-03-01T10:00:00Z"));
    assert!(feed.contains("<id>https://example.org/acme/skills/beta/</id>"));
    let home = page(&site, "index.html");
    assert!(home.contains("id=\"newest\"") || home.contains("id=newest"), "home page lists the newest skills");
    assert!(home.contains("feed.xml"), "pages link the feed");
}
