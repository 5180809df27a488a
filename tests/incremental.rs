//! Incremental builds: a rebuild that reuses the last build's work must write the same site,
//! byte for byte, as a clean build of the same input, and must not redo unchanged work.

mod support;

use std::path::Path;

use catalog::ops::build::{Session, build_in_session};
use catalog::ops::{BuildOptions, BuildReport};
use support::{copy_tree, project_root, site_files};

fn options(root: &Path, out: &Path) -> BuildOptions {
    BuildOptions { root: root.to_path_buf(), out: Some(out.to_path_buf()), base_url: None, minify: true, offline: true }
}

fn build(root: &Path, out: &Path) -> BuildReport {
    catalog::ops::build(&options(root, out)).expect("build succeeds")
}

/// How the incremental builds are made: as `catalog build` makes them, from what the last
/// build left on disk; or as `serve` makes them, keeping what it loaded and told what changed.
enum Builder {
    Command,
    Serve(Box<Session>),
}

impl Builder {
    fn build(&mut self, root: &Path, changed: &[&Path]) -> BuildReport {
        match self {
            Builder::Command => build(root, &root.join("public")),
            Builder::Serve(session) => {
                session.changed(&changed.iter().map(|p| p.to_path_buf()).collect::<Vec<_>>());
                let config = catalog::config::Config::load(root).unwrap();
                build_in_session(&options(root, &root.join("public")), config, session).expect("build succeeds")
            }
        }
    }
}

/// Builds `root` incrementally into its `public/` (`changed` names what changed since the last
/// build) and from scratch into a new folder, and checks the two sites are the same. Returns
/// the incremental build's report.
fn rebuild_matches_clean(builder: &mut Builder, root: &Path, changed: &[&Path], step: &str) -> BuildReport {
    let incremental = builder.build(root, changed);
    // The clean build reads a copy of the catalog, without its cache.
    let scratch = tempfile::tempdir().unwrap();
    std::fs::create_dir(scratch.path().join("catalog")).unwrap();
    for entry in std::fs::read_dir(root).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "public" || name.starts_with('.') {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &scratch.path().join("catalog").join(&name));
        } else {
            std::fs::copy(entry.path(), scratch.path().join("catalog").join(&name)).unwrap();
        }
    }
    let clean = build(&scratch.path().join("catalog"), &scratch.path().join("site"));
    assert!(!clean.up_to_date && clean.reused_pages == 0, "{step}: the clean build reused work");
    assert_eq!(
        clean.skills_read,
        incremental.summary.skills + errors(&incremental),
        "{step}: the clean build used a cache"
    );
    let (a, b) = (site_files(&root.join("public")), site_files(&scratch.path().join("site")));
    let only_one: Vec<_> =
        a.keys().filter(|p| !b.contains_key(*p)).chain(b.keys().filter(|p| !a.contains_key(*p))).collect();
    assert!(only_one.is_empty(), "{step}: files in only one of the two sites: {only_one:?}");
    for (path, bytes) in &a {
        assert!(bytes == &b[path], "{step}: {} differs from a clean build", path.display());
    }
    assert_eq!(incremental.summary.diagnostics, clean.summary.diagnostics, "{step}: diagnostics differ");
    incremental
}

/// A copy of the embedded catalog to change.
fn embedded_catalog_copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for folder in ["content", "data"] {
        copy_tree(&project_root().join(folder), &tmp.path().join(folder));
    }
    std::fs::copy(project_root().join("catalog.toml"), tmp.path().join("catalog.toml")).unwrap();
    tmp
}

fn errors(report: &BuildReport) -> usize {
    report.summary.diagnostics.iter().filter(|d| d.level == catalog::diag::Level::Error).count()
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn incremental_rebuilds_are_byte_identical_to_clean_builds() {
    edits_rebuild_like_clean_builds(&mut Builder::Command);
}

#[test]
fn serve_rebuilds_are_byte_identical_to_clean_builds() {
    edits_rebuild_like_clean_builds(&mut Builder::Serve(Box::default()));
}

fn edits_rebuild_like_clean_builds(builder: &mut Builder) {
    let tmp = embedded_catalog_copy();
    let root = tmp.path();

    let first = rebuild_matches_clean(builder, root, &[], "first build");
    assert_eq!((first.reused_pages, first.skills_read), (0, first.summary.skills + errors(&first)));

    let again = builder.build(root, &[]);
    assert!(again.up_to_date, "a build with nothing changed did the work again");
    assert_eq!(
        (again.summary.pages, again.summary.diagnostics.len()),
        (first.summary.pages, first.summary.diagnostics.len())
    );

    let skill = root.join("content/HKUDS/OpenSpace/benchmarks/gdpval/skills/code-exec-fallback/SKILL.md");
    // A file touched but not changed: the build looks again, and reads nothing again.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options().write(true).open(&skill).unwrap().set_modified(later).unwrap();
    let touched = rebuild_matches_clean(builder, root, &[&skill], "a file touched");
    assert!(!touched.up_to_date);
    assert_eq!((touched.skills_read, touched.written), (0, 0), "an unchanged file was read again");

    edit(&skill, "description:", "description: Edited, and longer.");
    let edited = rebuild_matches_clean(builder, root, &[&skill], "one skill edited");
    assert!(!edited.up_to_date);
    assert_eq!(edited.skills_read, 1, "unchanged skills were read again");
    assert!(edited.reused_pages > 0, "every page was rendered again after a one-skill edit");
    assert!(
        edited.written < edited.summary.files / 2,
        "{} of {} files written after a one-skill edit",
        edited.written,
        edited.summary.files
    );

    // The other generation is brought up to date too.
    edit(&skill, "Edited, and longer.", "Edited twice, and longer still.");
    rebuild_matches_clean(builder, root, &[&skill], "the same skill edited again");

    // A body-only edit: the similar-skill ranking, which does not read the body, is reused.
    let mut text = std::fs::read_to_string(&skill).unwrap();
    text.push_str("\nA paragraph added at the end.\n");
    std::fs::write(&skill, text).unwrap();
    let body_only = rebuild_matches_clean(builder, root, &[&skill], "a skill's body edited");
    assert_eq!(body_only.skills_read, 1);

    // A skill that the other skills of its repository show under "More from": their pages
    // change with its description.
    let sibling = root.join("content/northwind-labs/data-skills/skills/csv-profiler/SKILL.md");
    edit(&sibling, "description: Profiles", "description: Edited here. Profiles");
    rebuild_matches_clean(builder, root, &[&sibling], "a skill shown on its siblings' pages edited");

    let new_skill = root.join("content/HKUDS/OpenSpace/brand-new");
    std::fs::create_dir_all(&new_skill).unwrap();
    std::fs::write(
        new_skill.join("SKILL.md"),
        "---\nname: brand-new\ndescription: Appears between builds.\n---\n# New\n",
    )
    .unwrap();
    rebuild_matches_clean(builder, root, &[&new_skill], "a skill added");

    std::fs::remove_dir_all(&new_skill).unwrap();
    rebuild_matches_clean(builder, root, &[&new_skill], "a skill removed");

    // The editors' notes on a skill: its page is rendered again, and no skill is read again.
    let notes = root.join("data/notes/HKUDS/OpenSpace/code-exec-fallback.toml");
    edit(&notes, "summary = \"", "summary = \"Edited. ");
    let noted = rebuild_matches_clean(builder, root, &[&notes], "a skill's notes edited");
    let page = std::fs::read_to_string(root.join("public/HKUDS/OpenSpace/code-exec-fallback/index.html")).unwrap();
    assert!(page.contains("Edited. When the agent"), "the notes edit is not on the page");
    assert_eq!(noted.skills_read, 0, "a notes edit read skills again");
    assert_eq!(noted.written, 1, "a notes edit wrote more than its page");

    let theme = root.join("templates");
    std::fs::create_dir_all(&theme).unwrap();
    let base = std::fs::read_to_string(project_root().join("templates/base.html")).unwrap();
    assert!(base.contains("</footer>"));
    std::fs::write(theme.join("base.html"), base.replacen("</footer>", "<p>Themed.</p></footer>", 1)).unwrap();
    let themed = rebuild_matches_clean(builder, root, &[&theme], "a template overridden");
    assert_eq!(themed.reused_pages, 0, "pages kept after their template changed");

    let config = root.join("catalog.toml");
    edit(&config, "title = \"", "title = \"Renamed ");
    rebuild_matches_clean(builder, root, &[&config], "catalog.toml changed");

    // Skills are classified as they are read: a taxonomy change reaches cached skills.
    let taxonomy = root.join("data/taxonomy.toml");
    edit(&taxonomy, "name = \"", "name = \"Renamed ");
    rebuild_matches_clean(builder, root, &[&taxonomy], "the taxonomy changed");
}

#[test]
fn a_published_site_removed_by_hand_is_built_again() {
    let tmp = embedded_catalog_copy();
    let root = tmp.path();
    let out = root.join("public");
    build(root, &out);
    // A published site removed by hand: the next build is not "up to date".
    std::fs::remove_dir_all(&out).unwrap();
    let report = build(root, &out);
    assert!(!report.up_to_date);
    assert!(out.join("index.html").is_file());
}

#[test]
fn settled_folders_are_recognised_by_their_stat_and_a_same_size_same_time_edit_is_seen() {
    let tmp = embedded_catalog_copy();
    let root = tmp.path();
    // Files count as settled (their stat may stand for their bytes) two seconds after their
    // last change.
    std::thread::sleep(std::time::Duration::from_millis(2_100));
    let first = build(root, &root.join("public"));
    assert_eq!(first.skills_hashed, first.skills_read, "a first build hashes every folder it reads");

    // Something else changes: every skill folder is recognised by its stat alone.
    edit(&root.join("catalog.toml"), "title = \"", "title = \"Renamed ");
    let renamed = rebuild_matches_clean(&mut Builder::Command, root, &[], "catalog.toml changed");
    assert_eq!((renamed.skills_hashed, renamed.skills_read), (0, 0), "settled folders were read again");

    // An edit that keeps the file's size and modification time: its status-change time tells it.
    let skill = root.join("content/northwind-labs/data-skills/skills/csv-profiler/SKILL.md");
    let modified = std::fs::metadata(&skill).unwrap().modified().unwrap();
    edit(&skill, "description: Profiles", "description: PROFILES");
    std::fs::File::options().write(true).open(&skill).unwrap().set_modified(modified).unwrap();
    let edited = rebuild_matches_clean(&mut Builder::Command, root, &[], "an edit keeping size and time");
    assert_eq!((edited.skills_hashed, edited.skills_read), (1, 1));
}

#[test]
fn a_root_spelled_another_way_shares_the_cache() {
    let tmp = embedded_catalog_copy();
    let root = tmp.path();
    let build_at = |root: &Path| {
        catalog::ops::build(&BuildOptions { out: None, ..options(root, Path::new("")) }).expect("build succeeds")
    };
    let first = build_at(root);
    assert!(first.skills_read > 0);

    // The same folder through `..`: the last build still stands.
    assert!(build_at(&root.join("content").join("..")).up_to_date, "a `..` in the root rebuilt the site");

    // Through a link, after an edit: only the edited skill is read again.
    let links = tempfile::tempdir().unwrap();
    let link = links.path().join("catalog");
    std::os::unix::fs::symlink(root, &link).unwrap();
    edit(&root.join("content/northwind-labs/data-skills/skills/csv-profiler/SKILL.md"), "Profiles", "PROFILES");
    let linked = build_at(&link);
    assert_eq!(linked.skills_read, 1, "a link to the root read unchanged skills again");
}

#[test]
fn a_cache_of_another_version_is_ignored_and_the_build_is_still_right() {
    let tmp = embedded_catalog_copy();
    let root = tmp.path();
    let first = build(root, &root.join("public"));
    // Every file the last build left for the next, as a program with another cache layout
    // would have written it: the version after the store's 8-byte tag is another.
    let mut relabelled = 0;
    let mut folders = vec![root.join(".catalog/cache"), root.join(".public.manifests")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let mut bytes = std::fs::read(&path).unwrap();
            if !bytes.starts_with(b"catcache") {
                continue;
            }
            let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
            bytes[8..12].copy_from_slice(&(version + 1).to_le_bytes());
            std::fs::write(&path, bytes).unwrap();
            relabelled += 1;
        }
    }
    assert!(relabelled > 2, "the cache holds {relabelled} files");
    let again = rebuild_matches_clean(&mut Builder::Command, root, &[], "a cache of another version");
    assert!(!again.up_to_date, "the record of another version was read");
    assert_eq!(again.skills_read, first.skills_read, "skills came from packs of another version");
}
