//! ARCHITECTURE.md's invariants that a reading of the source can hold: each test fails when
//! the code stops doing what the map says.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir` (relative to the workspace's root), with its text up to its test module (`_tests.rs` files,
/// test code all through, are left out).
fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root().join(dir)).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.extension().is_none_or(|e| e != "rs") || name.ends_with("_tests.rs") || name == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        // The file's own test module: `#[cfg(test)]` at the start of a line, then `mod tests`
        // or a comment before it (a `mod x_tests;` line declares a file, left out).
        let code = text[..test_module_start(&text)].to_string();
        out.push((path.to_path_buf(), code));
    }
    out
}

/// Where the file's test module begins: a `#[cfg(test)]` line followed, after comment and
/// attribute lines, by `mod tests`; the file's end without one.
fn test_module_start(text: &str) -> usize {
    let mut at = 0;
    while let Some(found) = text[at..].find("\n#[cfg(test)]\n") {
        let start = at + found;
        let after = &text[start + "\n#[cfg(test)]\n".len()..];
        if after
            .lines()
            .find(|l| !l.starts_with("//") && !l.starts_with("#["))
            .is_some_and(|l| l.starts_with("mod tests"))
        {
            return start;
        }
        at = start + 1;
    }
    text.len()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().display().to_string()
}

/// Files of `dir` whose code names the file system, outside the ones allowed.
fn file_system_users(dir: &str, allowed: &[&str]) -> Vec<String> {
    let marks = ["std::fs", "fs::", "File::", "walkdir::", "read_dir", "OpenOptions"];
    sources(dir)
        .into_iter()
        .filter(|(_, code)| marks.iter().any(|m| code.contains(m)))
        .map(|(path, _)| relative(&path))
        .filter(|path| !allowed.contains(&path.as_str()))
        .collect()
}

#[test]
fn render_touches_the_file_system_only_to_load_a_theme() {
    // The renderer reads a theme's templates and static files once, when it is made; pages
    // leave through the SiteWriter they are given.
    assert_eq!(file_system_users("src/render", &["src/render/mod.rs"]), Vec::<String>::new());
    let (_, module) = sources("src/render").into_iter().find(|(p, _)| p.ends_with("render/mod.rs")).unwrap();
    let reads = module.matches("std::fs::").count();
    assert_eq!(reads, 2, "render/mod.rs reads the file system {reads} times; ARCHITECTURE.md allows the theme's two");
}

#[test]
fn relate_does_no_io() {
    assert_eq!(file_system_users("src/relate", &[]), Vec::<String>::new());
}

/// The stages' folders, by the name the site's code imports them under.
const STAGES: [(&str, &str); 7] = [
    ("discover", "src/discover.rs"),
    ("discover", "src/discover"),
    ("parse", "crates/catalog-skill/src/parse"),
    ("analyze", "src/analyze"),
    ("scan", "crates/catalog-scan/src"),
    ("relate", "src/relate"),
    ("render", "src/render"),
];

#[test]
fn no_stage_imports_the_incremental_machinery() {
    for (_, dir) in STAGES {
        let files = sources(dir);
        assert!(!files.is_empty(), "no sources under {dir}");
        for (path, code) in files {
            assert!(!code.contains("crate::incr"), "{} imports crate::incr", relative(&path));
        }
    }
    for (path, code) in sources("src/incr") {
        for (stage, _) in STAGES {
            assert!(!code.contains(&format!("crate::{stage}")), "{} imports crate::{stage}", relative(&path));
        }
    }
}

/// The scanner and the skill reader stand on their own: neither names the site's crate, the
/// skill reader does not name the scanner, and the scanner reads no file (its caller hands it
/// the bytes).
#[test]
fn the_scanner_and_the_skill_reader_import_nothing_of_the_site() {
    for (krate, forbidden) in [("catalog-scan", &["catalog"][..]), ("catalog-skill", &["catalog", "catalog-scan"][..])]
    {
        let manifest = std::fs::read_to_string(root().join("crates").join(krate).join("Cargo.toml")).unwrap();
        let deps: Vec<&str> = manifest
            .lines()
            .skip_while(|l| l.trim() != "[dependencies]")
            .skip(1)
            .take_while(|l| !l.starts_with('['))
            .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim()))
            .collect();
        assert!(!deps.is_empty(), "{krate}'s dependencies not found");
        for name in forbidden {
            assert!(!deps.contains(name), "{krate} depends on {name}");
        }
        let source = format!("crates/{krate}/src");
        for (path, code) in sources(&source) {
            for name in forbidden {
                let path_name = format!("{}::", name.replace('-', "_"));
                assert!(!code.contains(&path_name), "{} names {path_name}", relative(&path));
            }
        }
    }
    assert_eq!(file_system_users("crates/catalog-scan/src", &[]), Vec::<String>::new());
}
