//! The lenient reading of a frontmatter that strict YAML rejects, as the loaders of agents read
//! it: top-level `key: value` entries, each parsed as YAML on its own when it can be (so lists
//! and maps come out typed, as the strict path gives them), else read as text. Real files break
//! YAML in a few ways only: text after a block-scalar indicator (`description: | Text`), an
//! unquoted `: ` in a plain value, a value opening with an indicator character (`*`, `@`, a
//! backtick...), continuation lines indented less than YAML needs, tabs, duplicate keys. Each
//! recovery is a note on the line it concerns, with the fix.

use gray_matter::engine::{Engine, YAML};
use serde_json::{Map, Value};

use super::guard::{FrontmatterError, guard_events, pod_to_json};

/// What the lenient reading recovered: the top-level map and a note per recovery, with its
/// 0-based line within the YAML.
#[derive(Debug, Default)]
pub struct Recovered {
    pub map: Map<String, Value>,
    pub notes: Vec<(usize, String)>,
}

/// One top-level entry: `key:` on a line of its own at column 0, and the lines after it that
/// belong to it.
struct Entry<'a> {
    key: &'a str,
    /// 0-based line of the key.
    line: usize,
    /// What follows the colon on the key's line.
    first: &'a str,
    /// The lines after it, with their 0-based line numbers.
    rest: Vec<(usize, &'a str)>,
}

/// Reads `yaml` (which starts on SKILL.md line `yaml_line`) leniently. `None` when not one
/// `key: value` line is there to read; an error when an entry would blow up the YAML loader.
pub fn recover(yaml: &str, yaml_line: usize) -> Result<Option<Recovered>, FrontmatterError> {
    let mut out = Recovered::default();
    let mut entries: Vec<Entry> = Vec::new();
    for (index, line) in yaml.lines().enumerate() {
        if let Some((key, first)) = top_level_key(line) {
            entries.push(Entry { key, line: index, first, rest: Vec::new() });
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            if let Some(entry) = entries.last_mut() {
                entry.rest.push((index, line));
            }
            continue;
        }
        match entries.last_mut() {
            Some(entry) => {
                // A line at column 0 that is no key and no list item continues the value before
                // it, with less indentation than YAML allows.
                if !line.starts_with([' ', '\t', '-']) {
                    out.notes.push((
                        index,
                        format!(
                            "this line continues `{}` with less indentation than YAML needs; read as part of it. Fix: indent it under the key",
                            entry.key
                        ),
                    ));
                }
                entry.rest.push((index, line));
            }
            None => out.notes.push((index, "this line is not `key: value`; ignored. Fix: remove it".to_string())),
        }
    }
    if entries.is_empty() {
        return Ok(None);
    }
    // Duplicate keys: the last one is what agents see.
    let mut last_line: std::collections::HashMap<&str, usize> = Default::default();
    for entry in &entries {
        if let Some(earlier) = last_line.insert(entry.key, entry.line) {
            out.notes.push((
                earlier,
                format!(
                    "`{}` is set again on line {}; the last one is used, as agents read it. Fix: remove one",
                    entry.key,
                    yaml_line + entry.line
                ),
            ));
        }
    }
    for entry in &entries {
        let value = read_entry(entry, yaml_line, &mut out.notes)?;
        out.map.insert(entry.key.to_string(), value);
    }
    out.notes.sort_by_key(|(line, _)| *line);
    Ok(Some(out))
}

/// `key: rest` at column 0, the key a plain or quoted word; `None` for anything else.
fn top_level_key(line: &str) -> Option<(&str, &str)> {
    if line.starts_with([' ', '\t', '#', '-', '[', '{']) {
        return None;
    }
    // The first colon followed by a blank or the end of the line ends the key.
    let bytes = line.as_bytes();
    let at = (0..bytes.len()).find(|&i| {
        bytes.get(i) == Some(&b':') && bytes.get(i + 1).is_none_or(|b| *b == b' ' || *b == b'\t' || *b == b'\r')
    })?;
    let (key, colon_on) = line.split_at_checked(at)?;
    let key = key.trim();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    let plain = !key.is_empty() && !key.contains([' ', '\t', '"', '\'']);
    let value = colon_on.strip_prefix(':')?;
    plain.then(|| (key, value.trim_end_matches('\r')))
}

/// An entry's value: as strict YAML reads the entry alone, else as text.
fn read_entry(entry: &Entry, yaml_line: usize, notes: &mut Vec<(usize, String)>) -> Result<Value, FrontmatterError> {
    // Tabs are not indentation to YAML; agents' loaders read them as spaces.
    let mut text = format!("{}:{}\n", yaml_key(entry.key), entry.first);
    for (index, line) in &entry.rest {
        let indent = line.strip_suffix(line.trim_start()).unwrap_or_default();
        if indent.contains('\t') {
            notes.push((
                *index,
                "indented with a tab, which YAML forbids; read as spaces. Fix: indent with spaces".into(),
            ));
        }
        // A line at column 0 is indented, so that it continues the value.
        let pad = if indent.is_empty() && !line.trim().is_empty() && !line.starts_with('-') { " " } else { "" };
        text.push_str(&format!("{pad}{}{}\n", indent.replace('\t', "  "), line.trim_start()));
    }
    // Each entry is loaded on its own, so it is guarded on its own.
    guard_events(&text, yaml_line + entry.line)?;
    if let Ok(gray_matter::Pod::Hash(map)) = YAML::parse(&text)
        && map.len() == 1
        && let Some((_, pod)) = map.into_iter().next()
    {
        let value = pod_to_json(pod);
        // A value YAML reads as a tag or an anchor is text to agents (`!important ...`).
        if !entry.first.trim_start().starts_with(['!', '&']) {
            return Ok(value);
        }
    }
    let (value, why) = as_text(entry);
    notes.push((entry.line, format!("`{}`: {why}", entry.key)));
    Ok(Value::String(value))
}

/// The key as YAML text, quoted when it must be.
fn yaml_key(key: &str) -> String {
    if key.contains(':') { format!("\"{key}\"") } else { key.to_string() }
}

/// The entry's value read as text the way lenient loaders do, and what was wrong with it.
fn as_text(entry: &Entry) -> (String, String) {
    let first = entry.first.trim();
    let lines: Vec<&str> = entry.rest.iter().map(|(_, l)| *l).collect();
    // `| text`, `>- text`: a block-scalar indicator, then the value's first line.
    if let Some((indicator, after)) = block_indicator(first) {
        let mut parts = vec![after.to_string()];
        let indent =
            lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
        parts.extend(lines.iter().map(|l| l.get(indent..).unwrap_or("").trim_end().to_string()));
        let value = if indicator.starts_with('|') { parts.join("\n") } else { fold(&parts) };
        return (
            value.trim().to_string(),
            format!(
                "text on the same line as the block indicator `{indicator}`; read as the value's first line. Fix: move the text to the next line, indented"
            ),
        );
    }
    let mut parts = vec![first.to_string()];
    parts.extend(lines.iter().map(|l| l.trim().to_string()));
    let joined = fold(&parts);
    let unquoted = [('"', '"'), ('\'', '\'')]
        .iter()
        .find_map(|(open, close)| joined.strip_prefix(*open).and_then(|s| s.strip_suffix(*close)))
        .map(str::to_string);
    let why = match first.chars().next() {
        _ if unquoted.is_some() => "the quoted value is not valid YAML (a quote inside it?); read as the text between the quotes. Fix: escape the inner quotes".to_string(),
        Some(c @ ('*' | '&' | '!' | '-' | '[' | '{' | '@' | '`' | '%' | '?' | '|' | '>' | ',' | '#')) => {
            let shown = if c == '`' { "a backtick".to_string() } else { format!("`{c}`") };
            format!("the value opens with {shown}, which YAML reads as {}; read as text. Fix: quote the value", indicator_meaning(c))
        }
        _ if joined.contains(": ") => "the value holds an unquoted \": \"; read as text. Fix: quote the value".to_string(),
        _ => "the value is not valid YAML; read as text. Fix: quote the value".to_string(),
    };
    (unquoted.unwrap_or(joined).trim().to_string(), why)
}

/// Plain multi-line text folded as YAML folds it: lines joined by spaces, a blank line a break.
fn fold(parts: &[String]) -> String {
    let mut out = String::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            out.push('\n');
        } else {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push(' ');
            }
            out.push_str(part);
        }
    }
    out.trim().to_string()
}

/// `|`, `>`, `|-`, `>+2`... followed by a blank and text: the indicator and the text.
fn block_indicator(value: &str) -> Option<(&str, &str)> {
    if !value.starts_with(['|', '>']) {
        return None;
    }
    let flags = value.get(1..).unwrap_or_default();
    let end = flags.find(|c: char| !(c == '-' || c == '+' || c.is_ascii_digit())).map_or(value.len(), |i| i + 1);
    let (indicator, after) = value.split_at_checked(end)?;
    let text = after.strip_prefix([' ', '\t'])?.trim();
    (!text.is_empty() && !text.starts_with('#')).then_some((indicator, text))
}

fn indicator_meaning(c: char) -> &'static str {
    match c {
        '*' => "an alias",
        '&' => "an anchor",
        '!' => "a tag",
        '-' => "a list item",
        '[' => "a list",
        '{' => "a map",
        '|' | '>' => "a block scalar",
        '#' => "a comment",
        '%' => "a directive",
        '?' => "a complex key",
        _ => "a reserved indicator",
    }
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::*;

    fn text(yaml: &str, key: &str) -> String {
        recover(yaml, 2).unwrap().unwrap().map[key].as_str().unwrap().to_string()
    }

    #[test]
    fn text_after_a_block_indicator_is_the_value() {
        assert_eq!(text("description: | Renders charts.\n  From CSV.\n", "description"), "Renders charts.\nFrom CSV.");
        assert_eq!(text("description: >- Renders charts\n  from CSV.\n", "description"), "Renders charts from CSV.");
    }

    #[test]
    fn values_opening_with_indicators_are_text() {
        for c in ["*", "&", "!", "@", "`", "%", "[", "{"] {
            let yaml = format!("name: x\ndescription: {c}bold{c} reads files\n");
            let recovered = recover(&yaml, 2).unwrap().unwrap();
            assert_eq!(recovered.map["description"], Value::String(format!("{c}bold{c} reads files")), "{c}");
            assert_eq!(recovered.notes.len(), 1, "{c}: {:?}", recovered.notes);
            assert_eq!(recovered.notes[0].0, 1);
        }
    }

    #[test]
    fn typed_entries_stay_typed_beside_a_broken_one() {
        let yaml = "name: x\ndescription: Deploy: builds\nallowed-tools:\n  - Read\n  - Bash(git:*)\nmetadata:\n  version: 1\n";
        let recovered = recover(yaml, 2).unwrap().unwrap();
        assert_eq!(recovered.map["allowed-tools"], serde_json::json!(["Read", "Bash(git:*)"]));
        assert_eq!(recovered.map["metadata"], serde_json::json!({"version": 1}));
        assert_eq!(recovered.map["description"], Value::String("Deploy: builds".into()));
    }

    #[test]
    fn stray_lines_tabs_and_duplicates() {
        let yaml = "name: x\ndescription: first\nthat continues\nmetadata:\n\tauthor: me\ndescription: second\n";
        let recovered = recover(yaml, 2).unwrap().unwrap();
        assert_eq!(recovered.map["description"], Value::String("second".into()));
        assert_eq!(recovered.map["metadata"], serde_json::json!({"author": "me"}));
        let lines: Vec<usize> = recovered.notes.iter().map(|(l, _)| *l).collect();
        // The stray line, the tab, the first description (set again later).
        assert!(lines.contains(&2) && lines.contains(&4) && lines.contains(&1), "{:?}", recovered.notes);
    }

    #[test]
    fn nothing_to_read_is_none() {
        assert!(recover("just text\n", 2).unwrap().is_none());
        assert!(recover("- a\n- b\n", 2).unwrap().is_none());
    }
}
