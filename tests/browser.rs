//! The built site in a real browser (headless Chromium).

mod support;

use std::path::PathBuf;

use catalog::ops::{BuildOptions, build};

fn built_site() -> (tempfile::TempDir, PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    build(&BuildOptions { root, out: Some(site.clone()), base_url: None, minify: true, offline: true }).unwrap();
    (out, site)
}

fn results_of(dom: &str) -> String {
    let doc = scraper::Html::parse_document(dom);
    let sel = scraper::Selector::parse("#search-results .card-title").unwrap();
    doc.select(&sel).map(|e| e.text().collect::<String>()).collect::<Vec<_>>().join("\n")
}

#[test]
fn search_finds_a_skill_by_a_word_of_its_description() {
    let Some(browser) = support::chromium() else { return };
    let (_out, site) = built_site();
    let base = support::serve(&site);

    // "pandas" appears only in CSV Profiler's description, not in its name.
    let dom = support::dump_dom(&browser, &format!("{base}search/?q=pandas"));
    let results = results_of(&dom);
    assert!(results.contains("CSV Profiler"), "results: {results:?}\n{dom}");
    assert!(!results.contains("Slack Release Announcer"), "{results}");

    // Typing a prefix finds it too, and a filter narrows the results.
    let dom = support::dump_dom(&browser, &format!("{base}search/?q=pand"));
    assert!(results_of(&dom).contains("CSV Profiler"));
    let dom = support::dump_dom(&browser, &format!("{base}search/?q=python&license=mit"));
    let filtered = results_of(&dom);
    assert!(filtered.contains("Code Execution Fallback"), "{filtered}");
    assert!(!filtered.contains("CSV Profiler"), "licence filter ignored: {filtered}");

    // A word nobody uses finds nothing, and says so.
    let dom = support::dump_dom(&browser, &format!("{base}search/?q=zzyzxq"));
    assert!(results_of(&dom).is_empty());
    assert!(dom.contains("No skills match."));
}

#[test]
fn the_site_works_under_a_sub_path() {
    let Some(browser) = support::chromium() else { return };
    let out = tempfile::tempdir().unwrap();
    // Serve the folder that holds the site, so pages live under /sub/.
    let site = out.path().join("sub");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    build(&BuildOptions {
        root,
        out: Some(site),
        base_url: Some("https://example.github.io/sub/".into()),
        minify: true,
        offline: true,
    })
    .unwrap();
    let base = support::serve(out.path());
    let dom = support::dump_dom(&browser, &format!("{base}sub/search/?q=pandas"));
    assert!(results_of(&dom).contains("CSV Profiler"), "{dom}");
}

#[test]
fn a_page_opened_as_a_file_says_so_and_links_to_index_files() {
    let Some(browser) = support::chromium() else { return };
    let (_out, site) = built_site();
    let page = site.join("northwind-labs/devops-skills/k8s-rollout-check/index.html");
    let dom = support::dump_dom(&browser, &format!("file://{}", page.display()));
    let doc = scraper::Html::parse_document(&dom);
    let notes: Vec<String> =
        doc.select(&scraper::Selector::parse(".file-note").unwrap()).map(|e| e.text().collect()).collect();
    assert_eq!(notes.len(), 1, "one line says the page is a file: {dom}");
    assert!(notes[0].contains("catalog serve --open"), "{notes:?}");
    let hrefs: Vec<&str> =
        doc.select(&scraper::Selector::parse("a[href]").unwrap()).filter_map(|a| a.value().attr("href")).collect();
    assert!(hrefs.contains(&"../../../skills/index.html"), "{hrefs:?}");
    assert!(hrefs.iter().all(|h| !h.ends_with('/') || h.contains("://")), "a folder link left: {hrefs:?}");

    // Served, the page has no such line and its links stay as written.
    let base = support::serve(&site);
    let dom = support::dump_dom(&browser, &format!("{base}northwind-labs/devops-skills/k8s-rollout-check/"));
    assert!(!dom.contains("file-note") && dom.contains("../../../skills/\""), "{dom}");
}
