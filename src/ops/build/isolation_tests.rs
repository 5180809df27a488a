//! Fault isolation, end to end: the embedded catalog plus one probe skill whose file carries
//! the marker of a stage ([`crate::fault::inject`], armed by these tests), built beside the
//! same catalog with the marker left out. The stage panics on the probe alone: the build goes
//! on, says which skill, file and stage, and every other skill page is byte for byte what it
//! is without the fault.

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Level};
use crate::fault::Stage;

use super::{BuildOptions, build};

const PROBE_PAGE: &str = "isolated/probe/probe-skill/index.html";

/// The embedded catalog and the probe, with `marker` in the probe's file named `place`; an
/// empty `place` leaves the probe's folder empty.
fn catalog_with(place: &str, marker: &str) -> tempfile::TempDir {
    crate::fault::arm();
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().expect("a temporary folder");
    copy_tree(&project.join("content"), &tmp.path().join("content"));
    let mut config = std::fs::read_to_string(project.join("catalog.toml")).expect("catalog.toml");
    config.push_str("\n[[sources]]\npath = \"content/isolated/probe\"\nrepo = \"isolated/probe\"\n");
    std::fs::write(tmp.path().join("catalog.toml"), config).expect("written");
    let probe = tmp.path().join("content/isolated/probe/probe-skill");
    std::fs::create_dir_all(probe.join("scripts")).expect("made");
    if place.is_empty() {
        return tmp;
    }
    let mark = |file: &str| if file == place { marker } else { "catalog-test-fault:none" };
    let skill = format!(
        "---\nname: probe-skill\ndescription: Sorts a folder of sonnets into anthologies by metre. {}\n---\n\
         # Probe\n\nSort the sonnets by metre, then print the anthology list.\n\n<!-- {} -->\n",
        mark("description"),
        mark("SKILL.md"),
    );
    std::fs::write(probe.join("SKILL.md"), skill).expect("written");
    std::fs::write(probe.join("scripts/sort.sh"), format!("#!/bin/sh\nls sonnets | sort\n# {}\n", mark("script")))
        .expect("written");
    tmp
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().map(|e| e.expect("readable")) {
        let target = to.join(entry.path().strip_prefix(from).expect("below"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("made");
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}

/// Builds `catalog` into its `site/`: the diagnostics and every skill page by its path.
fn built(catalog: &Path) -> (Vec<Diagnostic>, Vec<(PathBuf, Vec<u8>)>) {
    let site = catalog.join("site");
    let options = BuildOptions {
        root: catalog.to_path_buf(),
        out: Some(site.clone()),
        base_url: None,
        minify: false,
        offline: true,
    };
    let report = build(&options).expect("the build finishes");
    let mut pages: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(&site)
        .min_depth(4)
        .max_depth(4)
        .into_iter()
        .map(|e| e.expect("readable"))
        .filter(|e| e.file_name() == "index.html")
        .map(|e| (e.path().strip_prefix(&site).expect("below").to_path_buf(), std::fs::read(e.path()).expect("read")))
        .collect();
    pages.sort();
    (report.summary.diagnostics, pages)
}

/// Builds the catalog with and without the marker of `stage` in `place`: the diagnostics of the
/// faulty build and its probe page, once every other skill page is checked to be the same. A
/// stage whose fault leaves the probe out is compared with a catalog without the probe: the
/// catalog's figures on every page count the skills it holds.
fn isolated(stage: Stage, place: &str) -> (Vec<Diagnostic>, Option<String>) {
    let leaves_out = matches!(stage, Stage::Parse | Stage::Analyze);
    let clean = catalog_with(if leaves_out { "" } else { place }, "catalog-test-fault:none");
    let faulty = catalog_with(place, &format!("catalog-test-fault:{}", stage.as_str()));
    let (clean_diagnostics, clean_pages) = built(clean.path());
    let (diagnostics, pages) = built(faulty.path());
    assert!(!clean_diagnostics.iter().any(|d| d.message.contains("internal error")), "{clean_diagnostics:?}");
    let others = |pages: &[(PathBuf, Vec<u8>)]| -> Vec<(PathBuf, Vec<u8>)> {
        pages.iter().filter(|(path, _)| path != Path::new(PROBE_PAGE)).cloned().collect()
    };
    let (clean_others, others) = (others(&clean_pages), others(&pages));
    assert!(clean_others.len() > 10, "the embedded catalog's pages: {}", clean_others.len());
    assert_eq!(clean_others.len(), others.len());
    for ((path, clean), (_, faulty)) in clean_others.iter().zip(&others) {
        assert!(clean == faulty, "{} differs when the probe's {} stage fails", path.display(), stage.as_str());
    }
    assert_eq!(clean_pages.iter().any(|(path, _)| path == Path::new(PROBE_PAGE)), !leaves_out);
    let probe = pages.into_iter().find(|(path, _)| path == Path::new(PROBE_PAGE));
    (diagnostics, probe.map(|(_, bytes)| String::from_utf8(bytes).expect("UTF-8")))
}

fn naming(diagnostics: &[Diagnostic], file: &str, stage: Stage) -> Diagnostic {
    let stage = format!("in the {} stage", stage.as_str());
    diagnostics
        .iter()
        .find(|d| d.file.ends_with(file) && d.message.contains(&stage) && d.message.contains("injected fault"))
        .unwrap_or_else(|| panic!("no diagnostic names {file} and {stage}: {diagnostics:#?}"))
        .clone()
}

#[test]
fn a_scanner_that_panics_leaves_its_skill_not_checked_and_the_rest_as_it_was() {
    let (diagnostics, page) = isolated(Stage::Scan, "script");
    let diagnostic = naming(&diagnostics, "probe-skill/scripts/sort.sh", Stage::Scan);
    assert_eq!(diagnostic.level, Level::Warning);
    let page = page.expect("the probe keeps its page");
    assert!(page.contains("verdict-not-checked"), "the probe is not checked");
    assert!(!page.contains("verdict-passed"), "the probe is never said to pass");
    assert!(page.contains("could not finish on scripts/sort.sh"), "the safety section names the file");
}

#[test]
fn a_page_that_panics_is_made_in_part_and_reported() {
    let (diagnostics, page) = isolated(Stage::Render, "description");
    naming(&diagnostics, "isolated/probe/probe-skill/SKILL.md", Stage::Render);
    let page = page.expect("the probe keeps a page");
    assert!(page.contains("could not be made in full") && page.contains("probe-skill"), "{page}");
}

#[test]
fn a_ranking_that_panics_leaves_its_skill_without_similar_skills() {
    let (diagnostics, page) = isolated(Stage::Relate, "description");
    naming(&diagnostics, "probe-skill/SKILL.md", Stage::Relate);
    assert!(page.is_some(), "the probe keeps its page");
}

#[test]
fn a_parser_or_analyzer_that_panics_leaves_its_skill_out_with_an_error() {
    for stage in [Stage::Parse, Stage::Analyze] {
        let (diagnostics, page) = isolated(stage, "SKILL.md");
        let diagnostic = naming(&diagnostics, "probe-skill/SKILL.md", stage);
        assert_eq!(diagnostic.level, Level::Error);
        assert!(diagnostic.message.ends_with("the skill is left out"), "{}", diagnostic.message);
        assert!(page.is_none(), "a skill left out has no page");
    }
}

#[test]
fn check_reports_a_panicking_scanner_as_not_checked() {
    let faulty = catalog_with("script", "catalog-test-fault:scan");
    let probe = faulty.path().join("content/isolated/probe");
    let checked = crate::ops::check(&crate::ops::CheckOptions { paths: vec![probe], no_ignore: false })
        .expect("the check finishes");
    assert_eq!(checked.skills.len(), 1);
    let report = &checked.skills[0].report;
    assert_eq!(report.verdict(), crate::scan::Verdict::NotChecked);
    let unchecked: Vec<&str> = report.unchecked().map(|s| s.file.as_str()).collect();
    assert_eq!(unchecked, ["scripts/sort.sh"]);
}
