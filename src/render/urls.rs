//! URLs: every link between pages is relative (`path_to_root`), so one output works under any
//! sub-path; the few absolute URLs (canonical, sitemap, feed) come from [`absolute`].

/// `owner/repo/skill/` -> `../../../`; `` (the home page) -> ``.
pub fn path_to_root(page_dir: &str) -> String {
    "../".repeat(page_dir.split('/').filter(|s| !s.is_empty()).count())
}

/// The shortest relative link from the page in `from_dir` (`owner/repo/skill/`) to the site path
/// `to` (`owner/repo/other/`, `about/#safety`): a sibling is `../other/`, not a climb to the root
/// and back down, which on a skill page saved about 500 bytes.
pub fn relative(from_dir: &str, to: &str) -> String {
    let from: Vec<&str> = from_dir.split('/').filter(|s| !s.is_empty()).collect();
    let (to_dirs, leaf) = match to.rfind('/') {
        Some(end) => (&to[..end], &to[end + 1..]),
        None => ("", to),
    };
    let to_dirs: Vec<&str> = to_dirs.split('/').filter(|s| !s.is_empty()).collect();
    let shared = from.iter().zip(&to_dirs).take_while(|(a, b)| a == b).count();
    let mut link = "../".repeat(from.len() - shared);
    for dir in &to_dirs[shared..] {
        link.push_str(dir);
        link.push('/');
    }
    link.push_str(leaf);
    if link.is_empty() || link.starts_with('#') { format!("./{link}") } else { link }
}

/// The absolute URL of a site path under `base_url` (which may carry a sub-path).
pub fn absolute(base_url: &str, site_path: &str) -> String {
    format!("{}/{}", base_url.trim_end_matches('/'), site_path.trim_start_matches('/'))
}

/// A page's canonical address: empty without a base URL, since an address relative to the
/// host's root would name the wrong page for a site published under a sub-path.
pub fn canonical(base_url: &str, site_path: &str) -> String {
    if base_url.is_empty() { String::new() } else { absolute(base_url, site_path) }
}

/// The kind of file a site path is, by the site's layout: what the build's size report sums.
pub fn kind_of(path: &str) -> &'static str {
    let segments: Vec<&str> = path.split('/').collect();
    match segments.as_slice() {
        ["static", ..] => "static files",
        ["api", ..] => "API",
        ["search", "index.html"] => "listings",
        ["search", ..] => "search index",
        [".well-known", ..] => "discovery index",
        ["skills" | "categories" | "tags" | "products" | "works-with", ..] => "listings",
        ["agents" | "report" | "about", ..] => "other",
        ["repos" | "owners", _, ..] => "repository and owner listings",
        [_, _, _, file] if file.ends_with(".tar.gz") => "skill archives",
        [_, _, _, "SKILL.md"] => "SKILL.md copies",
        [_, _, _, "index.html"] => "skill pages",
        [_, _, "index.html"] => "repository pages",
        [_, "index.html"] => "owner pages",
        _ => "other",
    }
}

/// 7749 -> "7.7k", 24012 -> "24k", 915 -> "915".
pub fn compact_count(n: usize) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=9_949 => format!("{:.1}k", n as f64 / 1000.0),
        9_950..=999_499 => format!("{}k", (n as f64 / 1000.0).round() as usize),
        _ => format!("{:.1}M", n as f64 / 1_000_000.0),
    }
}

/// A word count as prose gives it: exact below 100, else to the nearest ten.
pub fn about_words(n: usize) -> usize {
    if n < 100 { n } else { (n + 5) / 10 * 10 }
}

/// 2352 bytes -> "2.3 KB".
pub fn file_size(bytes: u64) -> String {
    match bytes {
        0..=999 => format!("{bytes} B"),
        1_000..=999_999 => format!("{:.1} KB", bytes as f64 / 1000.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_000_000.0),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_kind_of_file_is_named_by_its_place() {
        use super::kind_of;
        assert_eq!(kind_of("HKUDS/OpenSpace/code-exec-fallback/index.html"), "skill pages");
        assert_eq!(kind_of("HKUDS/OpenSpace/code-exec-fallback/SKILL.md"), "SKILL.md copies");
        assert_eq!(kind_of("HKUDS/OpenSpace/code-exec-fallback/code-exec-fallback.tar.gz"), "skill archives");
        assert_eq!(kind_of("HKUDS/OpenSpace/index.html"), "repository pages");
        assert_eq!(kind_of("HKUDS/index.html"), "owner pages");
        assert_eq!(kind_of("repos/HKUDS/OpenSpace/by-tokens/2/index.html"), "repository and owner listings");
        assert_eq!(kind_of("tags/python/index.html"), "listings");
        assert_eq!(kind_of("search/terms/ab.json"), "search index");
        assert_eq!(kind_of("index.html"), "other");
    }

    use super::*;

    #[test]
    fn relative_and_absolute() {
        assert_eq!(path_to_root(""), "");
        assert_eq!(path_to_root("a/b/c/"), "../../../");
        assert_eq!(absolute("https://x.github.io/skills/", "/a/b/"), "https://x.github.io/skills/a/b/");
        assert_eq!(absolute("https://x.io", "a/"), "https://x.io/a/");
    }

    #[test]
    fn links_climb_only_as_far_as_they_must() {
        assert_eq!(relative("o/r/s/", "o/r/t/"), "../t/");
        assert_eq!(relative("o/r/s/", "o/r/"), "../");
        assert_eq!(relative("o/r/s/", "o/"), "../../");
        assert_eq!(relative("o/r/s/", "p/r/s/"), "../../../p/r/s/");
        assert_eq!(relative("o/r/s/", "about/#safety"), "../../../about/#safety");
        assert_eq!(relative("o/r/s/", "o/r/s/"), "./");
        assert_eq!(relative("o/r/", "o/r/s/"), "s/");
        assert_eq!(relative("", "o/r/s/"), "o/r/s/");
        assert_eq!(relative("", ""), "./");
        assert_eq!(relative("o/", "static/style.css"), "../static/style.css");
    }

    #[test]
    fn numbers_read_like_prose() {
        assert_eq!(compact_count(7749), "7.7k");
        assert_eq!(compact_count(2330), "2.3k");
        assert_eq!(compact_count(24012), "24k");
        assert_eq!(compact_count(915), "915");
        assert_eq!(about_words(202), 200);
        assert_eq!(about_words(216), 220);
        assert_eq!(about_words(42), 42);
    }
}
