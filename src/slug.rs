//! URL path segments made from names.

/// Slugs are cut to this many bytes: file systems refuse names over 255 bytes, and a name or
/// category can be any length.
pub const MAX_SLUG_BYTES: usize = 80;

/// A URL-safe path segment: lower-case ASCII letters, digits, `-`, `_` and `.`, never `.` or `..`,
/// at most [`MAX_SLUG_BYTES`] long, and never a name Windows reserves for a device (`con`,
/// `nul.txt`, `com1`...), so that a site can be unpacked on any file system.
pub fn slugify(name: &str) -> String {
    let mut slug = String::with_capacity(name.len().min(MAX_SLUG_BYTES + 1));
    for c in name.chars().flat_map(char::to_lowercase) {
        if slug.len() >= MAX_SLUG_BYTES {
            break;
        }
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_matches(|c| c == '-' || c == '.').to_string();
    if slug.is_empty() {
        return "skill".to_string();
    }
    // Windows refuses these names whatever the extension; a trailing `_` makes them plain names.
    let (stem, rest) = slug.split_at(slug.find('.').unwrap_or(slug.len()));
    let numbered =
        |prefix: &str| stem.strip_prefix(prefix).is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit());
    if matches!(stem, "con" | "prn" | "aux" | "nul") || numbered("com") || numbered("lpt") {
        return format!("{stem}_{rest}");
    }
    slug
}

#[cfg(test)]
mod tests {
    use super::{MAX_SLUG_BYTES, slugify};

    #[test]
    fn slugs_are_safe_segments() {
        assert_eq!(slugify("code-exec-fallback"), "code-exec-fallback");
        assert_eq!(slugify("My Skill!"), "my-skill");
        assert_eq!(slugify("../../etc"), "etc");
        assert_eq!(slugify(".."), "skill");
        assert_eq!(slugify("a<script>b"), "a-script-b");
        assert_eq!(slugify("CON"), "con_");
        assert_eq!(slugify("nul.txt"), "nul_.txt");
        assert_eq!(slugify("Com1"), "com1_");
        assert_eq!(slugify("lpt9."), "lpt9_");
        assert_eq!(slugify("console"), "console");
        assert_eq!(slugify("com10"), "com10");
        let long = slugify(&"<script>alert(1)</script>".repeat(40));
        assert!(long.len() <= MAX_SLUG_BYTES && !long.ends_with('-'), "{long}");
    }
}
