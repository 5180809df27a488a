//! The shapes real SKILL.md files come in (`tests/fixtures/shapes`): each skill gets its page
//! with the name and description agents see, or is left out with one error naming its line;
//! `catalog check` reports the same lines as the build.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use catalog::diag::Level;
use support::{build_into, project_root};

#[derive(serde::Deserialize, Debug)]
struct Expected {
    name: Option<String>,
    description: Option<String>,
    reading: String,
    line: Option<usize>,
}

fn fixture() -> std::path::PathBuf {
    project_root().join("tests/fixtures/shapes")
}

fn expected() -> BTreeMap<String, Expected> {
    toml::from_str(&std::fs::read_to_string(fixture().join("expected.toml")).unwrap()).unwrap()
}

#[test]
fn every_shape_gets_the_name_and_description_agents_see_or_one_error() {
    let expected = expected();
    let folders =
        std::fs::read_dir(fixture().join("skills")).unwrap().filter(|e| e.as_ref().unwrap().path().is_dir()).count();
    assert_eq!(expected.len(), folders, "every fixture folder has its expectation");
    let (out, report) = build_into(&fixture());
    let site = out.path().join("site");
    // Whole records, with the description, are in the repository's file.
    let api: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("api/repos/shapes/skills.json")).unwrap()).unwrap();
    let by_folder: BTreeMap<String, &serde_json::Value> = api["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap().rsplit('/').next().unwrap().to_string(), s))
        .collect();
    let diagnostics_of = |folder: &str| -> Vec<&catalog::diag::Diagnostic> {
        let file = Path::new("skills").join(folder).join("SKILL.md");
        report.summary.diagnostics.iter().filter(|d| d.file == file).collect()
    };
    for (folder, want) in &expected {
        let diagnostics = diagnostics_of(folder);
        let first_line = diagnostics.iter().filter_map(|d| d.line).min();
        if want.reading == "left-out" {
            assert!(!by_folder.contains_key(folder), "{folder} should be left out");
            let errors: Vec<_> = diagnostics.iter().filter(|d| d.level == Level::Error).collect();
            assert_eq!(errors.len(), 1, "{folder}: one error, got {diagnostics:?}");
            assert!(errors[0].line.is_some(), "{folder}: the error names a line");
            continue;
        }
        let skill = by_folder.get(folder).unwrap_or_else(|| panic!("{folder} has no page: {diagnostics:?}"));
        assert_eq!(skill["name"].as_str(), want.name.as_deref(), "{folder}");
        assert_eq!(skill["description"].as_str(), want.description.as_deref(), "{folder}");
        assert!(diagnostics.iter().all(|d| d.level == Level::Warning), "{folder}: {diagnostics:?}");
        let page = std::fs::read_to_string(site.join(format!("shapes/skills/{folder}/index.html"))).unwrap();
        match want.reading.as_str() {
            "strict" => {
                assert!(diagnostics.is_empty(), "{folder}: {diagnostics:?}");
                assert!(!page.contains("class=reading-problem"), "{folder}");
            }
            "lenient" => {
                assert_eq!(first_line, want.line, "{folder}: {diagnostics:?}");
                assert!(
                    page.contains("The frontmatter is not valid YAML; agents that parse strictly will not load it."),
                    "{folder}"
                );
                assert!(page.contains(&format!("SKILL.md:{}", want.line.unwrap())), "{folder}: the line to fix");
            }
            "none" => {
                assert_eq!(first_line, Some(1), "{folder}: {diagnostics:?}");
                assert!(page.contains("SKILL.md has no frontmatter"), "{folder}");
            }
            other => panic!("{folder}: unknown reading {other}"),
        }
    }
}

#[test]
fn typed_values_come_out_of_a_lenient_read_as_the_strict_path_gives_them() {
    let (out, _) = build_into(&fixture());
    let record = |folder: &str| -> serde_json::Value {
        let file: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.path().join("site/api/repos/shapes/skills.json")).unwrap(),
        )
        .unwrap();
        let skills = file["skills"].as_array().unwrap();
        skills.iter().find(|s| s["path"] == folder).unwrap().clone()
    };
    assert_eq!(record("allowed-tools-list")["allowed_tools"], serde_json::json!(["Grep", "Bash(rg:*)"]));
    assert_eq!(record("allowed-tools-comma")["allowed_tools"], serde_json::json!(["Read", "Write", "Edit"]));
    assert_eq!(
        record("allowed-tools-string")["allowed_tools"],
        serde_json::json!(["Bash(git log:*)", "Bash(git blame:*)", "Read"])
    );
    assert_eq!(record("strict")["allowed_tools"], serde_json::json!(["Read", "Write"]));
    // The metadata map, read from a file strict YAML rejects, shows on the page as a map would.
    let page = std::fs::read_to_string(out.path().join("site/shapes/skills/tab-indent/index.html")).unwrap();
    assert!(page.contains("Ada"), "metadata.author is read");
}

#[test]
fn binary_and_oversized_skill_md_files_are_left_out_with_one_error_each() {
    let tmp = tempfile::tempdir().unwrap();
    support::copy_tree(&fixture(), tmp.path());
    let skills = tmp.path().join("skills");
    std::fs::create_dir_all(skills.join("binary")).unwrap();
    // An image saved under the name SKILL.md: bytes of every value.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend((0..=255u8).cycle().take(8192));
    std::fs::write(skills.join("binary/SKILL.md"), png).unwrap();
    std::fs::create_dir_all(skills.join("oversized")).unwrap();
    let big = format!("---\nname: oversized\ndescription: big\n---\n{}", "word ".repeat(1024 * 1024));
    std::fs::write(skills.join("oversized/SKILL.md"), big).unwrap();
    let (out, report) = build_into(tmp.path());
    for (folder, says) in [("binary", "binary"), ("oversized", "over the limit")] {
        let file = Path::new("skills").join(folder).join("SKILL.md");
        let errors: Vec<_> = report.summary.diagnostics.iter().filter(|d| d.file == file).collect();
        assert_eq!(errors.len(), 1, "{folder}: {errors:?}");
        assert_eq!(errors[0].level, Level::Error);
        assert!(errors[0].message.contains(says), "{}", errors[0]);
        assert!(!out.path().join(format!("site/shapes/skills/{folder}")).exists());
    }
}

#[test]
fn check_reports_each_lenient_read_and_left_out_skill_as_the_build_does() {
    let tmp = tempfile::tempdir().unwrap();
    support::copy_tree(&fixture(), tmp.path());
    let (_out, report) = build_into(tmp.path());
    let built: std::collections::BTreeSet<String> =
        report.summary.diagnostics.iter().filter(|d| d.file.ends_with("SKILL.md")).map(|d| d.to_string()).collect();
    assert!(built.len() > 20, "{built:?}");
    let run = |quiet: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_catalog"));
        command.current_dir(tmp.path()).args(["check", "skills", "--fail-on", "none"]);
        if quiet {
            command.arg("-q");
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stderr).unwrap()
    };
    let checked: std::collections::BTreeSet<String> = run(false).lines().map(str::to_string).collect();
    assert_eq!(checked, built);
    // `-q` keeps the one error: the skill left out.
    let quiet: Vec<String> = run(true).lines().map(str::to_string).collect();
    assert_eq!(quiet.len(), 1, "{quiet:?}");
    assert!(quiet[0].starts_with("skills/no-key-lines/SKILL.md:2: error: "), "{quiet:?}");
}

/// The page's text, tags dropped and white space collapsed.
fn text_of(html: &str) -> String {
    let no_tags = regex::Regex::new(r"(?s)<script.*?</script>|<[^>]+>").unwrap().replace_all(html, " ");
    no_tags.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_page_and_the_api_count_the_skills_alike_and_the_one_left_out_once() {
    let (out, report) = build_into(&fixture());
    let site = out.path().join("site");
    let read = |page: &str| std::fs::read_to_string(site.join(page)).unwrap();
    let json = |page: &str| -> serde_json::Value { serde_json::from_str(&read(page)).unwrap() };
    let pages = report.summary.skills;
    assert_eq!(pages, 24);
    let (index, repo) = (json("api/skills.json"), json("api/repos/shapes/skills.json"));
    assert_eq!((index["count"].as_u64(), index["left_out"].as_u64()), (Some(24), Some(1)));
    assert_eq!((repo["count"].as_u64(), repo["left_out"].as_u64()), (Some(24), Some(1)));
    let home = text_of(&read("index.html"));
    assert!(home.contains("24 skills ( 1 more left out ) · 1 repository · 1 owner ·"), "{home}");
    assert!(home.contains("All 1 repository"), "{home}");
    let repo_html = read("shapes/skills/index.html");
    let repo_page = text_of(&repo_html);
    assert!(repo_page.contains("Skills 24 Left out 1 more left out"), "{repo_page}");
    assert!(repo_page.contains("All 24 skills in this repo"), "{repo_page}");
    assert!(repo_html.contains("href=../../report/"), "the left-out count links the report");
    let skill_page = text_of(&read("shapes/skills/strict/index.html"));
    assert!(skill_page.contains("Skills in repo 24"), "{skill_page}");
    assert!(skill_page.contains("All skills in shapes/skills"), "{skill_page}");
    assert!(
        read("report/index.html").contains("shapes/skills: no-key-lines/SKILL.md:2"),
        "by its path in its repository"
    );
}

#[test]
fn the_build_line_counts_in_words() {
    let out = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["build", "--offline", "--root"])
        .arg(fixture())
        .arg("--out")
        .arg(out.path().join("site"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("built 24 skills from 1 repository: "), "{stderr}");
    assert!(regex::Regex::new(r"; 1 error, \d+ warnings\n").unwrap().is_match(&stderr), "{stderr}");
}

#[test]
fn a_missing_source_folder_stops_the_build_with_exit_2_and_its_line_even_under_q() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("catalog.toml"),
        "title = \"t\"\n\n[[sources]]\npath = \"no-such-folder\"\nrepo = \"o/r\"\n",
    )
    .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["build", "-q", "--root"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("catalog.toml:3: source o/r: path \"no-such-folder\""), "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(!tmp.path().join("public").exists(), "no site is published");
    // Where there is no catalog.toml, the error says how to start one.
    let empty = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["build", "--root"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("`catalog init"));
}
