//! ARCHITECTURE.md's invariants that a reading of the source can hold: each test fails when
//! the code stops doing what the map says.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `src/<dir>`, with its text up to its test module (`_tests.rs` files,
/// test code all through, are left out).
fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root().join("src").join(dir)).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.extension().is_none_or(|e| e != "rs") || name.ends_with("_tests.rs") || name == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        // The file's own test module, `mod tests` (a `mod x_tests;` line declares a file, left out).
        let code = text.split("\n#[cfg(test)]\nmod tests").next().unwrap_or_default().to_string();
        out.push((path.to_path_buf(), code));
    }
    out
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
    assert_eq!(file_system_users("render", &["src/render/mod.rs"]), Vec::<String>::new());
    let (_, module) = sources("render").into_iter().find(|(p, _)| p.ends_with("render/mod.rs")).unwrap();
    let reads = module.matches("std::fs::").count();
    assert_eq!(reads, 2, "render/mod.rs reads the file system {reads} times; ARCHITECTURE.md allows the theme's two");
}

#[test]
fn relate_does_no_io() {
    assert_eq!(file_system_users("relate", &[]), Vec::<String>::new());
}

#[test]
fn no_stage_imports_the_incremental_machinery() {
    for stage in ["discover", "parse", "analyze", "scan", "relate", "render"] {
        for (path, code) in sources(stage) {
            assert!(!code.contains("crate::incr"), "{} imports crate::incr", relative(&path));
        }
    }
    for (path, code) in sources("incr") {
        for stage in ["discover", "parse", "analyze", "scan", "relate", "render"] {
            assert!(!code.contains(&format!("crate::{stage}")), "{} imports crate::{stage}", relative(&path));
        }
    }
}
