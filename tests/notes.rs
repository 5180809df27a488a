//! The catalog editors' notes (`data/notes/OWNER/REPO/SLUG.toml`) and publishers' badges
//! (`data/publishers.toml`): shown apart from what was read from the skill, and a broken file
//! reported at its line without stopping the build.

mod support;

use std::path::Path;

use support::{build_into, project_root};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(site: &Path, page: &str) -> String {
    std::fs::read_to_string(site.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The markup of the page's section `id` (up to the next section), quotes dropped.
fn section<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    // The minifier orders attributes its own way: the section's id, then its opening tag.
    let at = html.find(&format!(" id={id}>")).or_else(|| html.find(&format!(" id={id} ")))?;
    let start = html[..at].rfind("<section")?;
    let end = html[start + 1..].find("<section").map_or(html.len(), |at| start + 1 + at);
    Some(&html[start..end])
}

#[test]
fn the_reference_skill_shows_its_notes_apart_from_what_was_read() {
    let (out, report) = build_into(&project_root());
    let site = out.path().join("site");
    let html = read(&site, "HKUDS/OpenSpace/code-exec-fallback/index.html").replace('"', "");
    let editors = section(&html, "editors").expect("no editors section");
    for expected in [
        "From the catalog's editors",
        "<span class=badge>Official</span>",
        "the skill has it write the Python script to a file",
        "<li>python3 where the shell runs</li>",
        "execute_code_sandbox timed out twice",
    ] {
        assert!(editors.contains(expected), "missing {expected:?} in {editors}");
    }
    // The display title heads the page; the skill's own name and title are still shown.
    assert!(html.contains("<h1>Code execution fallback</h1>"), "no display title");
    assert!(html.contains("Named <code>code-exec-fallback</code>, “Code Execution Fallback” in its SKILL.md"));
    // The derived sections (those SKILL.md gives anything for) hold none of the editors' words.
    for id in ["what", "when", "prompts", "requirements", "steps"] {
        let Some(derived) = section(&html, id) else { continue };
        assert!(!derived.contains("python3 where the shell runs") && !derived.contains("timed out twice"), "{id}");
    }
    // Other owners have no badge and their skills no notes.
    let other = read(&site, "northwind-labs/data-skills/csv-profiler/index.html").replace('"', "");
    assert!(section(&other, "editors").is_none());
    assert!(!report.summary.diagnostics.iter().any(|d| d.file.starts_with("data")), "{:?}", report.summary.diagnostics);
}

#[test]
fn a_broken_notes_file_is_reported_at_its_line_and_the_page_still_built() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write(
        root,
        "catalog.toml",
        "title = \"Notes\"\nbase_url = \"http://127.0.0.1:1111/\"\n\n[[sources]]\npath = \"repo\"\nrepo = \"acme/tools\"\n",
    );
    for name in ["pdf-reader", "csv-reader"] {
        write(
            root,
            &format!("repo/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: Reads files.\n---\n# {name}\n"),
        );
    }
    write(root, "data/publishers.toml", "[acme]\nbadge = \"Verified\"\n");
    write(root, "data/notes/acme/tools/pdf-reader.toml", "summary = \"Reads <script>alert(1)</script> PDFs.\"\n");
    // A badge belongs to the publishers' table, not to a skill's notes.
    write(root, "data/notes/acme/tools/csv-reader.toml", "summary = \"Reads CSV.\"\n\nbadge = \"Official\"\n");
    write(root, "data/notes/acme/tools/gone.toml", "summary = \"No such skill.\"\n");

    let (out, report) = build_into(root);
    let site = out.path().join("site");
    let lines: Vec<String> = report.summary.diagnostics.iter().map(|d| d.to_string()).collect();
    assert!(
        lines.iter().any(|l| l.starts_with("data/notes/acme/tools/csv-reader.toml:3: error: unknown field `badge`")
            && l.ends_with("the skill is shown without its notes")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("data/notes/acme/tools/gone.toml: warning: no skill page")),
        "{lines:?}"
    );
    // The report page lists it too.
    assert!(read(&site, "report/index.html").contains("csv-reader.toml"));

    let csv = read(&site, "acme/tools/csv-reader/index.html").replace('"', "");
    let editors = section(&csv, "editors").expect("the owner's badge is shown without notes");
    assert!(editors.contains("<span class=badge>Verified</span>") && !editors.contains("Official"), "{editors}");
    assert!(!csv.contains("Reads CSV."), "notes of a broken file were shown");

    let pdf = read(&site, "acme/tools/pdf-reader/index.html").replace('"', "");
    let editors = section(&pdf, "editors").unwrap();
    assert!(editors.contains("<span class=badge>Verified</span>"), "{editors}");
    assert!(editors.contains("Reads &lt;script>alert(1)&lt;/script> PDFs."), "{editors}");
}
