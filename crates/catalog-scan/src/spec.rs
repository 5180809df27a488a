//! Agent Skills spec conformance (agentskills.io), kept apart from safety: each rule a
//! finding at info or low severity, as the spec itself asks agents to warn and still load.

use super::Sink;
use catalog_skill::parse::ParsedSkill;

/// The top-level keys the spec knows.
pub const SPEC_KEYS: &[&str] = &["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
pub const MAX_NAME: usize = 64;
pub const MAX_DESCRIPTION: usize = 1024;
pub const MAX_COMPATIBILITY: usize = 500;
pub const MAX_BODY_LINES: usize = 500;
pub const MAX_BODY_TOKENS: usize = 5000;

/// Checks SKILL.md (the sink's text) against the spec.
pub fn check(sink: &mut Sink, parsed: Result<&ParsedSkill, String>, folder_name: &str) {
    let text = sink.text;
    let parsed = match parsed {
        Ok(parsed) if parsed.reading == catalog_skill::parse::Reading::NoFrontmatter => {
            sink.report("spec-frontmatter", 0, text.find('\n').unwrap_or(text.len()), "no frontmatter");
            return;
        }
        Ok(parsed) => parsed,
        Err(message) => {
            sink.report("spec-frontmatter", 0, text.find('\n').unwrap_or(text.len()), message);
            return;
        }
    };
    // Where the parser found the frontmatter: `text` is the file it parsed.
    let (yaml_start, yaml) =
        parsed.yaml.clone().and_then(|range| Some((range.start, text.get(range)?))).unwrap_or((0, ""));
    // The frontmatter's top-level lines, each with its place among all its lines: a key is
    // looked for on these alone, as a key that is not indented starts one.
    let top_level: Vec<(usize, usize, &str)> = super::text::lines_inclusive(yaml)
        .enumerate()
        .filter(|(_, (_, line))| line.as_bytes().first().is_some_and(|b| !b.is_ascii_whitespace()))
        .map(|(i, (offset, line))| (i, yaml_start + offset, line))
        .collect();
    // Which top-level line a key is on. A line that does not start with the key's first byte
    // is passed over without comparing the rest.
    let key_line = |key: &str| -> Option<usize> {
        let first = *key.as_bytes().first()?;
        top_level.iter().position(|(_, _, line)| {
            line.as_bytes().first() == Some(&first)
                && line.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
    };
    // Byte range of a top-level line, or (0, 0) for none.
    let line_range = |i: Option<usize>| -> (usize, usize) {
        let line = i.and_then(|i| top_level.get(i));
        line.map_or((0, 0), |&(_, start, line)| (start, start + line.trim_end().len()))
    };
    let key_at = |key: &str| line_range(key_line(key));
    let fm = &parsed.frontmatter;

    // name
    match fm.name.as_deref() {
        None => sink.report("spec-name", 0, 3, "no name"),
        Some(name) => {
            let (s, e) = key_at("name");
            if let Some(problem) = name_problem(name) {
                sink.report("spec-name", s, e, problem);
            } else if name != folder_name {
                sink.report(
                    "spec-name-folder",
                    s,
                    e,
                    format!("name {name:?} differs from the folder name {folder_name:?}"),
                );
            }
        }
    }
    // description
    match fm.description.as_deref() {
        None => sink.report("spec-description", 0, 3, "no description"),
        Some(d) => {
            let (s, e) = key_at("description");
            if let Some(chars) = chars_over(d, MAX_DESCRIPTION) {
                sink.report(
                    "spec-description",
                    s,
                    e,
                    format!("description is {chars} characters, over {MAX_DESCRIPTION}"),
                );
            }
            if memchr::memchr2(b'<', b'>', d.as_bytes()).is_some() {
                sink.report("spec-description-angle", s, e, "description contains < or >");
            }
        }
    }
    if let Some(chars) = fm.compatibility.as_deref().and_then(|c| chars_over(c, MAX_COMPATIBILITY)) {
        let (s, e) = key_at("compatibility");
        sink.report(
            "spec-compatibility",
            s,
            e,
            format!("compatibility is {chars} characters, over {MAX_COMPATIBILITY}"),
        );
    }
    if fm.allowed_tools.as_ref().is_some_and(|a| a.written_as_list) {
        let (s, e) = key_at("allowed-tools");
        sink.report("spec-allowed-tools", s, e, "allowed-tools is a YAML list, not a space-separated string");
    }
    // metadata: a map of strings (a scalar on the key's own line is not a map at all).
    let (ms, me) = key_at("metadata");
    let inline_value = text.get(ms..me).unwrap_or_default().split_once(':').map_or("", |(_, v)| v.trim());
    let scalar = me > ms && !inline_value.is_empty() && !inline_value.starts_with(['{', '#', '&', '|', '>']);
    if scalar || fm.metadata.values().any(|v| !v.is_string()) {
        sink.report("spec-metadata", ms, me, "metadata is not a map of string values");
    }
    // Keys outside the spec: what the frontmatter reader kept aside, and the
    // `allowed_tools` spelling it reads as `allowed-tools`. One note names them all, in the
    // file's order, as the spec's reference validator does: a skill with eight such keys
    // has one thing to fix, not eight.
    let underscored = Some("allowed_tools").filter(|key| key_line(key).is_some());
    let mut unknown: Vec<(&str, Option<usize>)> =
        fm.extra.keys().map(String::as_str).chain(underscored).map(|key| (key, key_line(key))).collect();
    // Keys on no line of their own (a flow mapping) last.
    unknown.sort_by_key(|(_, line)| (line.is_none(), *line));
    if let Some(&(_, first)) = unknown.first() {
        // File line numbers: the frontmatter's first line's, and each key's place after it.
        let first_line = 1 + memchr::memchr_iter(b'\n', text.as_bytes().get(..yaml_start).unwrap_or_default()).count();
        let line_of = |i: usize| top_level.get(i).map(|&(place, _, _)| first_line + place);
        let named: Vec<(&str, Option<usize>)> =
            unknown.iter().map(|(key, line)| (*key, line.and_then(line_of))).collect();
        let (s, e) = line_range(first);
        sink.report("spec-unknown-key", s, e, unknown_keys_message(&named));
    }
    // Body size.
    let body = parsed.body();
    let lines = line_count(body);
    // A body has no more characters than bytes: most are too short for theirs to be counted.
    let may_be_long = catalog_skill::tokens_for_chars(body.len()) > MAX_BODY_TOKENS;
    let tokens = || catalog_skill::tokens_for_chars(body.chars().count());
    if lines > MAX_BODY_LINES || (may_be_long && tokens() > MAX_BODY_TOKENS) {
        let tokens = tokens();
        let start = parsed.body_start.min(text.len());
        let end = text.get(start..).and_then(|rest| rest.find('\n')).map_or(text.len(), |i| start + i);
        sink.report("spec-body-length", start, end, format!("body is {lines} lines and about {tokens} tokens (the spec suggests under {MAX_BODY_LINES} lines and about {MAX_BODY_TOKENS} tokens)"));
    }
}

/// The note on top-level keys outside the spec, each key with its line when it has one of its
/// own (one key: its line is the note's). Written piece by piece: skills with such keys mostly
/// have several, and the formatter's quoting of each was most of this check's time.
fn unknown_keys_message(keys: &[(&str, Option<usize>)]) -> String {
    let many = keys.len() > 1;
    let mut message = String::with_capacity(48 + 24 * keys.len());
    message.push_str(if many { "top-level keys " } else { "top-level key " });
    for (i, (key, line)) in keys.iter().enumerate() {
        message.push_str(match i {
            0 => "",
            i if i + 1 == keys.len() => " and ",
            _ => ", ",
        });
        push_quoted(&mut message, key);
        if let Some(line) = line.filter(|_| many) {
            message.push_str(" (line ");
            message.push_str(itoa::Buffer::new().format(line));
            message.push(')');
        }
    }
    message.push_str(if many { " are not in the spec" } else { " is not in the spec" });
    message
}

/// `text` in double quotes, as `{:?}` writes it: as it is when nothing in it needs escaping.
fn push_quoted(out: &mut String, text: &str) {
    if text.bytes().all(|b| (0x20..0x7F).contains(&b) && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        use std::fmt::Write;
        let _ = write!(out, "{text:?}");
    }
}

/// How many lines `text` has, as `str::lines` counts them (a last line without its newline
/// counts, an empty one after the last newline does not), with a vectorised newline count:
/// every SKILL.md body is counted, and a line-by-line walk was most of this check's time.
fn line_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count() + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// How many characters `text` has, when that is more than `limit`. A text has no more
/// characters than bytes: one within the limit in bytes is not counted, as most are.
fn chars_over(text: &str, limit: usize) -> Option<usize> {
    if text.len() <= limit {
        return None;
    }
    let chars = text.chars().count();
    (chars > limit).then_some(chars)
}

/// What is wrong with a name, by the spec's rules.
pub fn name_problem(name: &str) -> Option<String> {
    if let Some(len) = chars_over(name, MAX_NAME).or(name.is_empty().then_some(0)) {
        return Some(format!("name is {len} characters; the spec allows 1-{MAX_NAME}"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')) {
        // Most names that break a rule are titles ("PDF Tools"): written piece by piece, as
        // the formatter's quoting of each was a tenth of this check's time.
        let mut message = String::with_capacity(name.len() + 56);
        message.push_str("name ");
        push_quoted(&mut message, name);
        message.push_str(" has ");
        use std::fmt::Write;
        let _ = write!(message, "{c:?}");
        message.push_str("; the spec allows a-z, 0-9 and hyphens");
        return Some(message);
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some(format!("name {name:?} starts or ends with a hyphen"));
    }
    if name.contains("--") {
        return Some(format!("name {name:?} has two hyphens in a row"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FileContent, ScanFile, ScanReport, SkillInput, scan_skill};

    /// The scan of a skill whose only file is SKILL.md holding `text`.
    fn scanned(folder: &str, text: &str) -> ScanReport {
        let files = vec![ScanFile { path: "SKILL.md".into(), content: FileContent::Bytes(text.as_bytes().to_vec()) }];
        scan_skill(&SkillInput { folder_name: folder, skill_file: "SKILL.md", files: &files, parsed: None })
    }

    fn spec_ids(folder: &str, text: &str) -> Vec<&'static str> {
        scanned(folder, text).spec_findings().map(|f| f.rule.id).collect()
    }

    /// Keys outside the spec are one finding on the first one's line, naming each with its
    /// own: a top-level key spaced from its colon (not the nested key of that name above it),
    /// and a key with a colon in it.
    #[test]
    fn unknown_keys_are_one_finding_naming_their_lines() {
        let text =
            "---\nname: d\ndescription: x\nmetadata:\n  tags: nested\ntags : [a]\nc:d: 2\nlicense: MIT\nb: 1\n---\n";
        let report = scanned("d", text);
        let found: Vec<(usize, &str, &str)> =
            report.spec_findings().map(|f| (f.line, f.matched.as_str(), f.message.as_str())).collect();
        let message = r#"top-level keys "tags" (line 6), "c:d" (line 7) and "b" (line 9) are not in the spec"#;
        assert_eq!(found, [(6, "tags : [a]", message)]);
        // After a blank line and a comment before the frontmatter's keys, the lines still count.
        let text = "---\n# about\n\nname: d\ndescription: x\nz: 1\na: 2\n---\n";
        let report = scanned("d", text);
        let found: Vec<(usize, &str)> = report.spec_findings().map(|f| (f.line, f.message.as_str())).collect();
        assert_eq!(found, [(6, r#"top-level keys "z" (line 6) and "a" (line 7) are not in the spec"#)]);
        let one = scanned("d", "---\nname: d\ndescription: x\ntags: [a]\n---\n");
        let found: Vec<(usize, &str)> = one.spec_findings().map(|f| (f.line, f.message.as_str())).collect();
        assert_eq!(found, [(4, r#"top-level key "tags" is not in the spec"#)]);
    }

    /// A key on no line of its own is named without one; a lone key's line is the note's.
    #[test]
    fn the_message_names_each_key_once() {
        assert_eq!(unknown_keys_message(&[("a", Some(3))]), r#"top-level key "a" is not in the spec"#);
        assert_eq!(
            unknown_keys_message(&[("a", Some(3)), ("b c", Some(4)), ("d", None)]),
            r#"top-level keys "a" (line 3), "b c" (line 4) and "d" are not in the spec"#
        );
    }

    #[test]
    fn keys_are_quoted_as_debug_quotes_them() {
        for key in ["tags", "c:d", "two words", "say \"hi\"", "back\\slash", "tab\there", "é", "\u{200B}x", ""] {
            let mut quoted = String::new();
            push_quoted(&mut quoted, key);
            assert_eq!(quoted, format!("{key:?}"));
        }
    }

    #[test]
    fn names_follow_the_spec() {
        assert_eq!(name_problem("pdf-tools"), None);
        assert!(name_problem("PDF").is_some());
        assert!(name_problem("-a").is_some());
        assert!(name_problem("a--b").is_some());
        assert!(name_problem(&"a".repeat(65)).is_some());
        // The message quotes the name as `{:?}` does, escapes and all.
        for (name, c) in [("PDF Tools", 'P'), ("a \"b\"\t\u{e9}", ' '), ("x_y", '_')] {
            let want = format!("name {name:?} has {c:?}; the spec allows a-z, 0-9 and hyphens");
            assert_eq!(name_problem(name), Some(want));
        }
    }

    #[test]
    fn each_break_is_its_own_finding() {
        assert!(spec_ids("demo", "---\nname: demo\ndescription: Does a thing.\n---\nBody\n").is_empty());
        assert_eq!(spec_ids("other", "---\nname: demo\ndescription: x\n---\n"), ["spec-name-folder"]);
        assert_eq!(spec_ids("d", "---\nname: d\ndescription: Use <b>\n---\n"), ["spec-description-angle"]);
        assert_eq!(spec_ids("d", "---\nname: d\ndescription: x\ntags: [a]\n---\n"), ["spec-unknown-key"]);
        assert_eq!(spec_ids("d", "---\nname: d\ndescription: x\nmetadata:\n  tags: [a, b]\n---\n"), ["spec-metadata"]);
        assert_eq!(spec_ids("d", "---\nname: d\ndescription: x\nmetadata: just text\n---\n"), ["spec-metadata"]);
        assert!(spec_ids("d", "---\nname: d\ndescription: x\nmetadata:\n  author: me\n---\n").is_empty());
        assert_eq!(spec_ids("d", "---\nname: d\ndescription: x\nallowed_tools: Read\n---\n"), ["spec-unknown-key"]);
        assert_eq!(
            spec_ids("d", "---\nname: d\ndescription: x\nallowed-tools:\n  - Read\n---\n"),
            ["spec-allowed-tools"]
        );
        assert_eq!(spec_ids("d", "---\nname: d\n---\n"), ["spec-description"]);
        assert_eq!(spec_ids("d", "no frontmatter\n"), ["spec-frontmatter"]);
        let long = format!("---\nname: d\ndescription: x\n---\n{}", "line\n".repeat(501));
        assert_eq!(spec_ids("d", &long), ["spec-body-length"]);
        let desc = format!("---\nname: d\ndescription: {}\n---\n", "x".repeat(1025));
        assert_eq!(spec_ids("d", &desc), ["spec-description"]);
    }

    /// The token estimate counts characters, not bytes, and the message names it when the
    /// lines alone are over.
    #[test]
    fn a_body_is_long_by_its_characters() {
        let body = |text: String| format!("---\nname: d\ndescription: x\n---\n{text}");
        assert_eq!(spec_ids("d", &body("word ".repeat(4001))), ["spec-body-length"]);
        assert!(spec_ids("d", &body("é".repeat(10_002))).is_empty(), "20,004 bytes, 10,002 characters");
        let report = scanned("d", &body("é\n".repeat(501)));
        let message = &report.spec_findings().next().expect("over the line limit").message;
        assert!(message.starts_with("body is 501 lines and about 251 tokens"), "{message}");
    }

    /// The name's and the description's limits are in characters: more bytes than the limit
    /// is not too long, and more characters is.
    #[test]
    fn limits_count_characters() {
        let desc = |text: String| format!("---\nname: d\ndescription: {text}\n---\n");
        assert!(spec_ids("d", &desc("é".repeat(1000))).is_empty(), "2,000 bytes, 1,000 characters");
        let report = scanned("d", &desc("é".repeat(1025)));
        let found: Vec<&str> = report.spec_findings().map(|f| f.message.as_str()).collect();
        assert_eq!(found, ["description is 1025 characters, over 1024"]);
        let compat = |text: String| format!("---\nname: d\ndescription: x\ncompatibility: {text}\n---\n");
        assert!(spec_ids("d", &compat("é".repeat(500))).is_empty(), "1,000 bytes, 500 characters");
        let report = scanned("d", &compat("é".repeat(501)));
        let found: Vec<&str> = report.spec_findings().map(|f| f.message.as_str()).collect();
        assert_eq!(found, ["compatibility is 501 characters, over 500"]);
        assert!(name_problem(&"é".repeat(40)).is_some_and(|p| p.contains("has 'é'")), "80 bytes, 40 characters");
        assert!(name_problem(&"é".repeat(65)).is_some_and(|p| p.starts_with("name is 65 characters")));
        assert!(name_problem("").is_some_and(|p| p.starts_with("name is 0 characters")));
    }

    #[test]
    fn lines_are_counted_as_str_lines_counts_them() {
        for text in ["", "a", "a\n", "a\nb", "a\n\n", "\n", "\n\n", "a\r\nb\r\n", "é\nü", "x\n\ny"] {
            assert_eq!(line_count(text), text.lines().count(), "{text:?}");
        }
    }
}
