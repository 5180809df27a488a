//! Parse: the bytes of a SKILL.md -> a [`ParsedSkill`] (typed frontmatter, body, outline).
//!
//! Pure: takes bytes, returns data or a diagnostic; never touches the file system.

// Untrusted input must not be able to panic the reader: no unchecked indexing or slicing.
#![deny(clippy::indexing_slicing, clippy::string_slice)]

pub mod frontmatter;
mod guard;
mod lenient;
pub mod markdown;

use std::borrow::Cow;
use std::path::Path;

use crate::diag::Diagnostic;
pub use frontmatter::Frontmatter;
pub use markdown::Outline;

/// SKILL.md files larger than this are not parsed: the largest real ones are ~100 KB.
pub const MAX_SKILL_MD_BYTES: usize = 4 * 1024 * 1024;

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ParsedSkill {
    pub frontmatter: Frontmatter,
    /// The whole file as text (BOM removed, line endings as written).
    pub text: String,
    /// Byte range of the frontmatter's YAML within `text`, between its `---` lines; `None`
    /// without frontmatter. Found once, here: the spec check places its notes by it.
    pub yaml: Option<std::ops::Range<usize>>,
    /// Byte offset of the body within `text`.
    pub body_start: usize,
    /// 1-based line of SKILL.md where the body starts.
    pub body_line: usize,
    pub outline: Outline,
    /// Warnings: the skill was read, with guesses.
    pub diagnostics: Vec<Diagnostic>,
    /// How its frontmatter was read.
    pub reading: Reading,
}

/// How a SKILL.md's frontmatter was read: what decides which agents load it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Reading {
    /// Valid YAML: every agent reads it.
    #[default]
    Strict,
    /// Not valid YAML, read as lenient loaders (Claude Code's among them) read it; agents that
    /// parse strictly do not load it. Each recovery: (line in SKILL.md, what and the fix).
    Lenient(Vec<(Option<usize>, String)>),
    /// No frontmatter at all: Claude Code loads it, named after its folder and described by its
    /// first paragraph; agents that follow the Agent Skills spec need `name` and `description`
    /// and do not.
    NoFrontmatter,
}

impl ParsedSkill {
    pub fn body(&self) -> &str {
        self.text.get(self.body_start..).unwrap_or_default()
    }
}

/// Parses a SKILL.md. `path` only names the file in diagnostics.
pub fn parse_skill(path: &Path, bytes: &[u8]) -> Result<ParsedSkill, Diagnostic> {
    if bytes.len() > MAX_SKILL_MD_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    let mut diagnostics = Vec::new();
    let (text, lossy) = decode(bytes);
    if lossy {
        diagnostics.push(Diagnostic::warning(path, None, "is not valid UTF-8; invalid bytes were replaced"));
    }
    if let Some(problem) = unreadable(&text) {
        return Err(Diagnostic::error(path, Some(problem.line), format!("{}; the skill is left out", problem.why)));
    }
    let split = frontmatter::split(&text);
    let (frontmatter, reading) = match split.yaml {
        None => {
            diagnostics.push(Diagnostic::warning(path, Some(1), NO_FRONTMATTER));
            (Frontmatter::default(), Reading::NoFrontmatter)
        }
        Some(yaml) => {
            let read = frontmatter::read(yaml, split.yaml_line)
                .map_err(|err| Diagnostic::error(path, err.line, format!("{}; the skill is left out", err.message)))?;
            let reading = if read.lenient { Reading::Lenient(read.notes.clone()) } else { Reading::Strict };
            diagnostics.extend(read.notes.into_iter().map(|(line, message)| Diagnostic::warning(path, line, message)));
            (read.frontmatter, reading)
        }
    };
    let yaml = split.yaml.map(|yaml| {
        let start = yaml.as_ptr() as usize - text.as_ptr() as usize;
        start..start + yaml.len()
    });
    let body_start = text.len() - split.body.len();
    let body_line = split.body_line;
    let outline = markdown::outline(split.body, body_line);
    Ok(ParsedSkill { frontmatter, text: text.into_owned(), yaml, body_start, body_line, outline, diagnostics, reading })
}

/// Why a decoded SKILL.md is no Markdown any agent reads, and the line that shows it.
struct Unreadable {
    line: usize,
    why: &'static str,
}

fn unreadable(text: &str) -> Option<Unreadable> {
    if text.trim().is_empty() {
        return Some(Unreadable { line: 1, why: "is empty" });
    }
    if text.starts_with("---\r") && !text.contains('\n') {
        return Some(Unreadable {
            line: 1,
            why: "has CR-only line endings (classic Mac OS), which no agent reads as frontmatter",
        });
    }
    // As text tools tell binary files: many control characters (a few are hostile, not binary;
    // bytes that are not UTF-8 are a warning of their own).
    let junk = |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c');
    let chars = text.chars().count();
    let junk_count = text.chars().filter(|&c| junk(c)).count();
    if junk_count * 20 > chars && junk_count >= 4 {
        let at = text.find(junk).unwrap_or(0);
        return Some(Unreadable {
            line: text.get(..at).unwrap_or_default().matches('\n').count() + 1,
            why: "is a binary file (control characters from this line on), not Markdown",
        });
    }
    None
}

/// The warning for a SKILL.md without frontmatter, which some agents load and others do not.
pub const NO_FRONTMATTER: &str = "has no frontmatter (a `---` line, YAML, then `---`): Claude Code loads it, named after its folder and described by its first paragraph; agents that follow the Agent Skills spec do not. Fix: add `name` and `description` between `---` lines at the top";

/// The diagnostic for a SKILL.md of `size` bytes, over [`MAX_SKILL_MD_BYTES`].
pub fn too_large(path: &Path, size: u64) -> Diagnostic {
    Diagnostic::error(
        path,
        None,
        format!("is {size} bytes, over the limit of {MAX_SKILL_MD_BYTES}; the skill is left out"),
    )
}

/// Decodes UTF-8 (with or without BOM) and UTF-16 with a BOM; anything else is read lossily.
/// Returns the text, borrowed from `bytes` when they are valid UTF-8 (most files: no copy is
/// made), and whether bytes had to be replaced.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    let utf16 = |le: bool| {
        let (pairs, _) = bytes.get(2..).unwrap_or_default().as_chunks::<2>();
        let units = pairs.iter().map(|&pair| if le { u16::from_le_bytes(pair) } else { u16::from_be_bytes(pair) });
        let mut lossy = !bytes.len().is_multiple_of(2);
        let text = char::decode_utf16(units)
            .map(|r| {
                r.unwrap_or_else(|_| {
                    lossy = true;
                    char::REPLACEMENT_CHARACTER
                })
            })
            .collect::<String>();
        (Cow::Owned(text), lossy)
    };
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => lossy_utf8(rest),
        [0xFF, 0xFE, ..] => utf16(true),
        [0xFE, 0xFF, ..] => utf16(false),
        _ => lossy_utf8(bytes),
    }
}

fn lossy_utf8(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), false),
        Err(_) => (String::from_utf8_lossy(bytes), true),
    }
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::*;

    /// The frontmatter's place is where the split found its YAML, in the text as decoded (a
    /// BOM removed, CRLF kept), and none without frontmatter.
    #[test]
    fn the_yaml_range_is_the_split_yaml() {
        let files: [&[u8]; 4] = [
            b"---\nname: a\ndescription: b\n---\n# A\n",
            b"\xEF\xBB\xBF---\r\nname: a\r\ndescription: b\r\n---  \r\nbody\r\n",
            b"---\n---\nbody\n",
            b"# no frontmatter\n",
        ];
        for bytes in files {
            let parsed = parse_skill(Path::new("SKILL.md"), bytes).unwrap();
            let yaml = parsed.yaml.clone().map(|range| &parsed.text[range]);
            assert_eq!(yaml, frontmatter::split(&parsed.text).yaml, "{:?}", parsed.text);
        }
        let parsed = parse_skill(Path::new("SKILL.md"), b"\xEF\xBB\xBF---\r\nname: a\r\n---\r\n").unwrap();
        assert_eq!(parsed.yaml, Some(5..14));
    }

    #[test]
    fn decodes_boms_and_utf16() {
        assert_eq!(decode(b"\xEF\xBB\xBFhi"), (Cow::Borrowed("hi"), false));
        let utf16: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("hé".encode_utf16().flat_map(|u| u.to_le_bytes())).collect();
        assert_eq!(decode(&utf16), (Cow::Owned("hé".to_string()), false));
        assert!(decode(b"a\xFFb").1);
    }

    #[test]
    fn a_skill_without_frontmatter_is_read_with_a_warning_on_line_1() {
        let parsed = parse_skill(Path::new("x/SKILL.md"), b"# Just markdown\n\nFirst paragraph.\n").unwrap();
        assert_eq!(parsed.reading, Reading::NoFrontmatter);
        assert_eq!(parsed.frontmatter, Frontmatter::default());
        assert_eq!(parsed.diagnostics[0].line, Some(1));
        assert_eq!(parsed.diagnostics[0].to_string().split(':').next(), Some("x/SKILL.md"));
    }

    #[test]
    fn a_binary_skill_md_is_left_out_at_its_first_nul() {
        let mut bytes = b"---\nname: a\n---\nx\n".to_vec();
        bytes.extend((0..=255u8).cycle().take(4096));
        let err = parse_skill(Path::new("SKILL.md"), &bytes).unwrap_err();
        assert_eq!(err.line, Some(5));
        assert!(err.message.contains("binary"), "{}", err.message);
        // A few control characters in a text are no binary file.
        assert!(parse_skill(Path::new("SKILL.md"), b"---\nname: a\x00b\n---\ntext \x01 and more text\n").is_ok());
        assert_eq!(parse_skill(Path::new("SKILL.md"), b"").unwrap_err().line, Some(1));
    }

    #[test]
    fn parses_a_crlf_skill() {
        let parsed =
            parse_skill(Path::new("SKILL.md"), b"---\r\nname: a\r\ndescription: b\r\n---\r\n# T\r\n\r\ntext\r\n")
                .unwrap();
        assert_eq!(parsed.frontmatter.name.as_deref(), Some("a"));
        assert_eq!(parsed.body_line, 5);
        assert_eq!(parsed.outline.headings[0].text, "T");
    }
}
