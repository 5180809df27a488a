//! Frontmatter: the YAML between the opening and closing `---` lines of SKILL.md.
//!
//! Parsing is strict first; when that fails, the frontmatter is read leniently, as agents'
//! loaders read it (`super::lenient`), each recovery a note on its line. What no lenient reading
//! recovers is a diagnostic that names the line in SKILL.md.

use std::collections::BTreeMap;

use gray_matter::engine::{Engine, YAML};
use serde_json::Value;

pub use super::guard::{FrontmatterError, MAX_FRONTMATTER_BYTES};
use super::guard::{guard, guard_events, pod_to_json};

/// The spec's fields, typed; every other key kept in `extra`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Frontmatter {
    pub name: Option<String>,
    pub description: Option<String>,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub allowed_tools: Option<AllowedTools>,
    /// `metadata:` as written (the spec asks for a map of strings; real files nest lists too).
    pub metadata: BTreeMap<String, Value>,
    /// Top-level keys outside the spec (slug, category, tags, github_stars...).
    pub extra: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AllowedTools {
    /// One entry per tool pattern, e.g. `Bash(git log:*)`, `Read`.
    pub tools: Vec<String>,
    /// The spec wants a space-separated string; some files write a YAML list.
    pub written_as_list: bool,
}

/// Where the frontmatter and body lie within SKILL.md.
#[derive(Debug, Clone, PartialEq)]
pub struct Split<'a> {
    /// The YAML text, without its `---` lines; `None` when the file has no frontmatter.
    pub yaml: Option<&'a str>,
    /// 1-based line of the first YAML line.
    pub yaml_line: usize,
    pub body: &'a str,
    /// 1-based line where the body starts.
    pub body_line: usize,
}

/// The start of a line that may close the frontmatter: built once, as a searcher's setup costs
/// more than searching one frontmatter.
static CLOSING: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\n---"));

/// Splits a SKILL.md (already decoded, BOM removed) into frontmatter and body. The closing
/// `---` is found by a vectorised search for a line that starts with it, not line by line: the
/// build splits every SKILL.md.
pub fn split(text: &str) -> Split<'_> {
    let no_frontmatter = Split { yaml: None, yaml_line: 1, body: text, body_line: 1 };
    let Some(first_end) = memchr::memchr(b'\n', text.as_bytes()) else {
        return no_frontmatter;
    };
    if text.get(..first_end).map(str::trim_end) != Some("---") {
        return no_frontmatter;
    }
    let yaml_start = first_end + 1;
    let bytes = text.as_bytes();
    // Each "\n---" from the opening line's newline on starts a line that may close it: the
    // first whose rest is blank does.
    for at in CLOSING.find_iter(bytes.get(first_end..).unwrap_or_default()).map(|i| first_end + i) {
        let offset = at + 1;
        let end = memchr::memchr(b'\n', bytes.get(offset..).unwrap_or_default()).map_or(text.len(), |i| offset + i);
        if text.get(offset + 3..end).is_some_and(|rest| rest.trim_end().is_empty())
            && let Some(yaml) = text.get(yaml_start..offset)
            && let Some(body) = text.get((end + 1).min(text.len())..)
        {
            let line = 2 + memchr::memchr_iter(b'\n', yaml.as_bytes()).count();
            return Split { yaml: Some(yaml), yaml_line: 2, body, body_line: line + 1 };
        }
    }
    // An opening `---` with no closing one: not frontmatter, the whole file is body.
    no_frontmatter
}

/// A successful read, and the notes it produced (lenient fallback used, odd field types).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadFrontmatter {
    pub frontmatter: Frontmatter,
    /// (line within SKILL.md, message)
    pub notes: Vec<(Option<usize>, String)>,
    /// Whether strict YAML rejected it and it was read leniently, as agents' loaders do.
    pub lenient: bool,
}

/// Reads the YAML of a split document. `yaml_line` is the SKILL.md line the YAML starts on.
pub fn read(yaml: &str, yaml_line: usize) -> Result<ReadFrontmatter, FrontmatterError> {
    guard(yaml, yaml_line)?;
    let mut notes = Vec::new();
    guard_events(yaml, yaml_line)?;
    let mut lenient = false;
    // A value opening with a tag of its own (`description: !important ...`) loads in YAML as
    // the text after the tag; loaders that know no such tag refuse it, and lenient ones read
    // it all as text.
    let strict = if has_unknown_tag(yaml) {
        Err("a value opens with a tag YAML does not know".to_string())
    } else {
        YAML::parse(yaml).map_err(|e| e.to_string())
    };
    let map = match strict {
        Ok(pod) => match pod_to_json(pod) {
            Value::Object(map) => map,
            Value::Null => Default::default(),
            other => {
                return Err(FrontmatterError {
                    line: Some(yaml_line),
                    message: format!("frontmatter must be a map of keys, found {}", json_kind(&other)),
                });
            }
        },
        Err(strict_err) => {
            // As agents' loaders read it: entry by entry, what does not parse read as text.
            let Some(recovered) = super::lenient::recover(yaml, yaml_line)? else {
                return Err(yaml_error(&strict_err, yaml_line));
            };
            lenient = true;
            notes.extend(recovered.notes.into_iter().map(|(line, message)| (Some(yaml_line + line), message)));
            recovered.map
        }
    };
    let line_of = |key: &str| {
        yaml.lines()
            .position(|l| l.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with(':')))
            .map(|i| yaml_line + i)
    };
    let mut fm = Frontmatter::default();
    for (key, value) in map {
        match key.as_str() {
            "name" | "description" | "license" | "compatibility" => {
                let text = match value {
                    Value::String(s) => Some(s),
                    Value::Number(n) => Some(n.to_string()),
                    Value::Bool(b) => Some(b.to_string()),
                    Value::Null => None,
                    other => {
                        notes.push((
                            line_of(&key),
                            format!("`{key}` should be a string, found {}; ignored", json_kind(&other)),
                        ));
                        None
                    }
                };
                let text = text.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
                match key.as_str() {
                    "name" => fm.name = text,
                    "description" => fm.description = text,
                    "license" => fm.license = text,
                    _ => fm.compatibility = text,
                }
            }
            "allowed-tools" | "allowed_tools" => {
                fm.allowed_tools = match value {
                    Value::String(s) => Some(AllowedTools { tools: split_tools(&s), written_as_list: false }),
                    Value::Array(items) => Some(AllowedTools {
                        tools: items
                            .iter()
                            .filter_map(|v| v.as_str().map(|s| s.trim().to_string()))
                            .filter(|s| !s.is_empty())
                            .collect(),
                        written_as_list: true,
                    }),
                    Value::Null => None,
                    other => {
                        notes.push((
                            line_of(&key),
                            format!("`allowed-tools` should be a string, found {}; ignored", json_kind(&other)),
                        ));
                        None
                    }
                };
            }
            "metadata" => match value {
                Value::Object(m) => fm.metadata = m.into_iter().collect(),
                Value::Null => {}
                other => notes
                    .push((line_of(&key), format!("`metadata` should be a map, found {}; ignored", json_kind(&other)))),
            },
            _ => {
                fm.extra.insert(key, value);
            }
        }
    }
    Ok(ReadFrontmatter { frontmatter: fm, notes, lenient })
}

/// Splits an allowed-tools string on spaces and commas outside parentheses:
/// `Bash(git log:*) Read, Write` -> [`Bash(git log:*)`, `Read`, `Write`].
pub fn split_tools(text: &str) -> Vec<String> {
    let mut tools = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c.is_whitespace() || c == ',') {
            if !current.is_empty() {
                tools.push(std::mem::take(&mut current));
            }
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        tools.push(current);
    }
    tools
}

/// Whether a top-level value opens with a tag that is not one of YAML's own (`!!str`).
fn has_unknown_tag(yaml: &str) -> bool {
    yaml.lines().filter(|line| !line.starts_with([' ', '\t', '#', '-'])).any(|line| {
        line.split_once(": ").is_some_and(|(_, value)| {
            let value = value.trim_start();
            value.starts_with('!') && !value.starts_with("!!")
        })
    })
}

/// Turns the YAML parser's message (`... at byte B line L column C`) into a SKILL.md line.
fn yaml_error(message: &str, yaml_line: usize) -> FrontmatterError {
    static LINE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(.*?)(?::\s*)?\s+at byte \d+ line (\d+) column (\d+)").unwrap()
    });
    if let Some(caps) = LINE.captures(message) {
        let yaml_rel: usize = caps[2].parse().unwrap_or(1);
        let column = &caps[3];
        let what = caps[1].trim();
        let what = what
            .strip_prefix("Deserialize error:")
            .or_else(|| what.strip_prefix("deserialize error:"))
            .unwrap_or(what)
            .trim();
        return FrontmatterError {
            line: Some(yaml_line + yaml_rel.saturating_sub(1)),
            message: format!(
                "frontmatter is not valid YAML: {what} (column {column}), and no line of it reads as `key: value`"
            ),
        };
    }
    FrontmatterError {
        line: Some(yaml_line),
        message: format!("frontmatter is not valid YAML: {message}, and no line of it reads as `key: value`"),
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

/// A metadata or extra value as display text: strings as they are, lists joined by ", ".
pub fn value_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(value_text).collect();
            (!parts.is_empty()).then(|| parts.join(", "))
        }
        Value::Null | Value::Object(_) => None,
    }
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::*;

    #[test]
    fn splits_frontmatter_and_counts_body_lines() {
        let text = "---\nname: a\ndescription: b\n---\n# Title\n";
        let split = split(text);
        assert_eq!(split.yaml, Some("name: a\ndescription: b\n"));
        assert_eq!(split.body, "# Title\n");
        assert_eq!(split.body_line, 5);
        assert_eq!(super::split("# no frontmatter").yaml, None);
        assert_eq!(super::split("---\nname: a\nno close").yaml, None);
    }

    /// The closing line found by searching equals the one a walk line by line finds, on the
    /// shapes real files have: CRLF, trailing spaces, `----`, `--- x`, an empty frontmatter,
    /// `---` indented in a block scalar, `---` as the last bytes.
    #[test]
    fn split_closes_where_a_line_walk_does() {
        fn walked(text: &str) -> Option<(&str, usize, usize)> {
            let mut lines = text.split_inclusive('\n');
            if lines.next()?.trim_end() != "---" {
                return None;
            }
            let yaml_start = text.find('\n')? + 1;
            let mut offset = yaml_start;
            for (i, line) in lines.enumerate() {
                if line.trim_end() == "---" {
                    let body_start = offset + line.len();
                    return Some((&text[yaml_start..offset], body_start, i + 3));
                }
                offset += line.len();
            }
            None
        }
        let texts = [
            "---\nname: a\n---\nbody\n",
            "---\r\nname: a\r\n---\r\nbody",
            "---  \nname: a\n---\t \n",
            "---\n---\n# empty\n",
            "---\nname: a\n----\n--- x\n---",
            "---\nd: |\n  ---\n  text\n---\nafter\n---\n",
            "---\nname: a\nno close\n",
            "---\n",
            "---",
            "--- \n\n\n---\n\n",
            "# no frontmatter\n---\n",
        ];
        for text in texts {
            let split = split(text);
            let found = split.yaml.map(|yaml| (yaml, text.len() - split.body.len(), split.body_line));
            assert_eq!(found, walked(text), "{text:?}");
            if found.is_none() {
                assert_eq!((split.body, split.body_line), (text, 1), "{text:?}");
            }
        }
    }

    #[test]
    fn reads_spec_fields_and_keeps_unknown_keys() {
        let yaml = "name: pdf\ndescription: Reads PDFs.\nlicense: MIT\nallowed-tools: Bash(git log:*) Read\nmetadata:\n  tags: [a, b]\nslug: x\n";
        let read = read(yaml, 2).unwrap();
        let fm = read.frontmatter;
        assert_eq!(fm.name.as_deref(), Some("pdf"));
        assert_eq!(fm.license.as_deref(), Some("MIT"));
        assert_eq!(fm.allowed_tools.unwrap().tools, ["Bash(git log:*)", "Read"]);
        assert_eq!(value_text(&fm.metadata["tags"]).as_deref(), Some("a, b"));
        assert_eq!(fm.extra["slug"], Value::String("x".into()));
        assert!(read.notes.is_empty());
    }

    #[test]
    fn lenient_reading_takes_unquoted_colons_as_text() {
        let yaml = "name: sql\ndescription: Reviews SQL: finds injection risks\n";
        let read = read(yaml, 2).unwrap();
        assert!(read.lenient);
        assert_eq!(read.frontmatter.description.as_deref(), Some("Reviews SQL: finds injection risks"));
        assert_eq!(read.notes.len(), 1);
        assert_eq!(read.notes[0].0, Some(3));
    }

    #[test]
    fn broken_yaml_is_read_leniently_with_a_note_on_its_line() {
        let yaml = "name: broken\ndescription: [unclosed, \"oops\n  bad: x: y\n";
        let read = read(yaml, 2).unwrap();
        assert!(read.lenient);
        assert_eq!(read.frontmatter.name.as_deref(), Some("broken"));
        assert_eq!(read.frontmatter.description.as_deref(), Some("[unclosed, \"oops bad: x: y"));
        assert_eq!(read.notes.iter().map(|n| n.0).collect::<Vec<_>>(), [Some(3)]);
    }

    #[test]
    fn yaml_without_one_key_names_the_skill_md_line() {
        let err = read("[unclosed, \"oops\n  x\n", 2).unwrap_err();
        assert!(err.message.starts_with("frontmatter is not valid YAML"), "{}", err.message);
        assert!(err.line.is_some_and(|line| (2..=4).contains(&line)), "{:?}", err.line);
    }

    #[test]
    fn refuses_alias_bombs_and_deep_nesting() {
        let mut bomb = String::from("a: &a [x, x]\n");
        for i in 0..70 {
            bomb.push_str(&format!("b{i}: [*a, *a]\n"));
        }
        assert!(read(&bomb, 2).unwrap_err().message.contains("aliases"));
        let deep = format!("a: {}{}\n", "[".repeat(100), "]".repeat(100));
        assert!(read(&deep, 2).unwrap_err().message.contains("nests deeper"));
    }

    #[test]
    fn refuses_aliases_that_double_under_the_alias_count() {
        // 60 aliases, each level twice the one before: 2^30 values once loaded.
        let mut bomb = String::from("name: x\na0: &a0 [x, x]\n");
        for i in 1..31 {
            bomb.push_str(&format!("a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1));
        }
        let err = read(&bomb, 2).unwrap_err();
        assert!(err.message.contains("expand"), "{}", err.message);
        // The line is one of the anchors' (SKILL.md lines 3 to 33).
        assert!(err.line.is_some_and(|line| (3..=33).contains(&line)), "{:?}", err.line);
        // A few aliases are fine.
        let fine = read("name: x\nbase: &b {k: v}\none: *b\ntwo: *b\n", 2).unwrap();
        assert_eq!(fine.frontmatter.extra["two"], fine.frontmatter.extra["one"]);
    }

    #[test]
    fn refuses_block_sequences_nested_on_one_line() {
        let deep = format!("name: x\nx:\n{}x\n", "- ".repeat(10_000));
        let err = read(&deep, 2).unwrap_err();
        assert!(err.message.contains("nests deeper"), "{}", err.message);
        assert_eq!(err.line, Some(4));
    }

    #[test]
    fn a_syntax_error_before_a_bomb_does_not_let_the_lenient_pass_load_it() {
        // Read leniently, each entry is loaded alone, where the aliases point at nothing.
        let mut bomb = String::from("description: a: b\na0: &a0 [x, x]\n");
        for i in 1..31 {
            bomb.push_str(&format!("a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1));
        }
        let read = read(&bomb, 2).unwrap();
        assert_eq!(read.frontmatter.extra["a30"], Value::String("&a30 [*a29, *a29]".into()));
        // One entry that is a bomb by itself is refused.
        let mut one = String::from("description: a: b\nbomb:\n  a0: &a0 [x, x]\n");
        for i in 1..31 {
            one.push_str(&format!("  a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1));
        }
        assert!(super::read(&one, 2).unwrap_err().message.contains("expand"));
    }

    #[test]
    fn splits_tool_lists_outside_parentheses() {
        assert_eq!(split_tools("Bash(git log:*) Read, Write"), ["Bash(git log:*)", "Read", "Write"]);
        assert!(split_tools("  ").is_empty());
    }
}
