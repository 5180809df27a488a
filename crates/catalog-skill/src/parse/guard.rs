//! What stands between a frontmatter and the YAML parser: size, nesting and alias limits
//! checked before it runs, the error a refused or unreadable frontmatter gives, and the
//! parser's values as JSON. Used by the strict and the lenient reading alike.

use std::collections::BTreeMap;

use gray_matter::Pod;
use serde_json::Value;

/// Frontmatter larger than this is refused: real ones are a few hundred bytes.
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;
/// Deeper flow nesting than this is refused before the YAML parser (which recurses) sees it.
const MAX_NESTING: usize = 64;
/// More aliases than this is refused: expanding them is how YAML "billion laughs" bombs work.
const MAX_ALIASES: usize = 64;
/// More nodes than this, counting each alias as the nodes it stands for, is refused: the YAML
/// loader copies an anchor's nodes for every alias, so a few aliases that each repeat the one
/// before grow exponentially. Real frontmatter has tens of nodes.
const MAX_EXPANDED_NODES: usize = 100_000;

/// Why a frontmatter could not be read: a message and the line within SKILL.md.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontmatterError {
    pub line: Option<usize>,
    pub message: String,
}

/// Refuses inputs that would make the YAML parser blow up before it is called.
pub(super) fn guard(yaml: &str, yaml_line: usize) -> Result<(), FrontmatterError> {
    if yaml.len() > MAX_FRONTMATTER_BYTES {
        return Err(FrontmatterError {
            line: Some(yaml_line),
            message: format!("frontmatter is {} bytes, over the limit of {MAX_FRONTMATTER_BYTES}", yaml.len()),
        });
    }
    let mut depth = 0usize;
    let mut aliases = 0usize;
    let mut prev = ' ';
    for (index, c) in yaml.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth = depth.saturating_sub(1),
            '*' if prev.is_whitespace() || "[{,:".contains(prev) => aliases += 1,
            _ => {}
        }
        let line = || Some(yaml_line + yaml.get(..index).unwrap_or_default().matches('\n').count());
        if depth > MAX_NESTING {
            return Err(FrontmatterError {
                line: line(),
                message: format!("frontmatter nests deeper than {MAX_NESTING} levels"),
            });
        }
        if aliases > MAX_ALIASES {
            return Err(FrontmatterError {
                line: line(),
                message: format!("frontmatter uses more than {MAX_ALIASES} YAML aliases"),
            });
        }
        prev = c;
    }
    let deepest_indent = yaml.lines().map(|l| l.len() - l.trim_start().len()).max().unwrap_or(0);
    if deepest_indent > MAX_NESTING * 4 {
        return Err(FrontmatterError {
            line: Some(yaml_line),
            message: format!("frontmatter nests deeper than {MAX_NESTING} levels"),
        });
    }
    Ok(())
}

/// Walks the YAML's events and refuses what loading it would blow up: nesting deeper than
/// [`MAX_NESTING`] (loading and converting recurse) and aliases that expand past
/// [`MAX_EXPANDED_NODES`]. The event parser is a state machine, so no input makes it recurse.
/// Syntax errors are left to the loader, which reports them with their line.
pub(super) fn guard_events(yaml: &str, yaml_line: usize) -> Result<(), FrontmatterError> {
    use yaml_rust2::parser::{Event, Parser};
    let mut parser = Parser::new_from_str(yaml);
    let mut nodes = 0usize;
    // Anchor id -> the nodes its value holds, aliases expanded.
    let mut anchored: std::collections::HashMap<usize, usize> = Default::default();
    // Open sequences and maps: (anchor id, nodes counted before them).
    let mut open: Vec<(usize, usize)> = Vec::new();
    loop {
        let Ok((event, mark)) = parser.next_token() else { return Ok(()) };
        let line = Some(yaml_line + mark.line().saturating_sub(1));
        match event {
            Event::StreamEnd => return Ok(()),
            Event::Scalar(_, _, anchor, _) => {
                nodes += 1;
                if anchor > 0 {
                    anchored.insert(anchor, 1);
                }
            }
            Event::Alias(id) => nodes = nodes.saturating_add(anchored.get(&id).copied().unwrap_or(1)),
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                open.push((anchor, nodes));
                nodes += 1;
                if open.len() > MAX_NESTING {
                    return Err(FrontmatterError {
                        line,
                        message: format!("frontmatter nests deeper than {MAX_NESTING} levels"),
                    });
                }
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, start)) = open.pop()
                    && anchor > 0
                {
                    anchored.insert(anchor, nodes - start);
                }
            }
            _ => {}
        }
        if nodes > MAX_EXPANDED_NODES {
            return Err(FrontmatterError {
                line,
                message: format!("frontmatter's aliases expand to more than {MAX_EXPANDED_NODES} values"),
            });
        }
    }
}

pub(super) fn pod_to_json(pod: Pod) -> Value {
    match pod {
        Pod::Null => Value::Null,
        Pod::String(s) => Value::String(s),
        Pod::Integer(i) => Value::from(i),
        Pod::Float(f) => serde_json::Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null),
        Pod::Boolean(b) => Value::Bool(b),
        Pod::Array(items) => Value::Array(items.into_iter().map(pod_to_json).collect()),
        Pod::Hash(map) => {
            // Sorted, so that output never depends on hash order.
            let sorted: BTreeMap<String, Pod> = map.into_iter().collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k, pod_to_json(v))).collect())
        }
    }
}
