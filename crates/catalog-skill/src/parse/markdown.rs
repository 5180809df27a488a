//! The Markdown body read into an outline: headings, sections with their list items, code
//! blocks, inline code, links and a word count. Analysis reads only this outline; rendering the
//! body to HTML is done by `render::markdown`.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The Markdown flavour used everywhere: GitHub's tables, strikethrough, task lists, footnotes.
pub fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS | Options::ENABLE_FOOTNOTES
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Outline {
    pub headings: Vec<Heading>,
    /// The text before the first heading, then one section per heading.
    pub sections: Vec<Section>,
    pub code_blocks: Vec<CodeBlock>,
    /// Inline code spans with their line.
    pub inline_code: Vec<(String, usize)>,
    pub links: Vec<Link>,
    /// Words of the body's text outside code blocks (list numbers count, as they do in the
    /// file; punctuation and Markdown markers do not).
    pub words: usize,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    /// 1-based line in SKILL.md.
    pub line: usize,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Section {
    /// Index into `headings`; `None` for the text before the first heading.
    pub heading: Option<usize>,
    /// Top-level list items of the section, as plain text.
    pub items: Vec<String>,
    /// Whether those items came from a numbered list.
    pub ordered: bool,
    /// Paragraphs directly in the section, as plain text.
    pub paragraphs: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CodeBlock {
    /// The info string's first word, lower-cased; empty for an unlabelled or indented block.
    pub lang: String,
    pub text: String,
    /// 1-based line of the block's first content line in SKILL.md.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Link {
    pub url: String,
    pub line: usize,
    pub is_image: bool,
}

/// Maps byte offsets of the body to 1-based SKILL.md lines.
struct LineIndex {
    starts: Vec<usize>,
    first_line: usize,
}

impl LineIndex {
    fn new(text: &str, first_line: usize) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Self { starts, first_line }
    }

    fn line(&self, offset: usize) -> usize {
        self.first_line + self.starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }
}

/// Reads a body that starts at SKILL.md line `first_line`.
pub fn outline(body: &str, first_line: usize) -> Outline {
    let lines = LineIndex::new(body, first_line);
    let mut out = Outline { sections: vec![Section::default()], ..Default::default() };

    let mut heading: Option<(u8, String, usize)> = None;
    let mut code: Option<(String, String, usize)> = None;
    let mut list_depth = 0usize;
    let mut item_text: Option<String> = None;
    let mut paragraph: Option<String> = None;
    let mut code_words = 0usize;

    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some((heading_level(level), String::new(), lines.line(range.start)))
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, text, line)) = heading.take() {
                    out.headings.push(Heading { level, text: collapse(&text), line });
                    out.sections.push(Section { heading: Some(out.headings.len() - 1), ..Default::default() });
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
                        .next()
                        .unwrap_or("")
                        .to_lowercase(),
                    CodeBlockKind::Indented => String::new(),
                };
                let block = body.get(range.clone()).unwrap_or_default();
                code_words += count_words(block);
                let first = lines.line(range.start) + usize::from(block.trim_start().starts_with(['`', '~']));
                code = Some((lang, String::new(), first));
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((lang, text, line)) = code.take() {
                    out.code_blocks.push(CodeBlock { lang, text, line });
                }
            }
            Event::Start(Tag::List(start)) => {
                list_depth += 1;
                if list_depth == 1 {
                    let section = out.sections.last_mut().expect("always one section");
                    if section.items.is_empty() {
                        section.ordered = start.is_some();
                    }
                }
            }
            Event::End(TagEnd::List(_)) => list_depth = list_depth.saturating_sub(1),
            Event::Start(Tag::Item) if list_depth == 1 => item_text = Some(String::new()),
            Event::End(TagEnd::Item) if list_depth == 1 => {
                if let Some(text) = item_text.take().map(|t| collapse(&t)).filter(|t| !t.is_empty()) {
                    out.sections.last_mut().expect("always one section").items.push(text);
                }
            }
            Event::Start(Tag::Paragraph) if list_depth == 0 => paragraph = Some(String::new()),
            Event::End(TagEnd::Paragraph) if list_depth == 0 => {
                if let Some(text) = paragraph.take().map(|t| collapse(&t)).filter(|t| !t.is_empty()) {
                    out.sections.last_mut().expect("always one section").paragraphs.push(text);
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                out.links.push(Link { url: dest_url.to_string(), line: lines.line(range.start), is_image: false });
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                out.links.push(Link { url: dest_url.to_string(), line: lines.line(range.start), is_image: true });
            }
            Event::Text(text) => {
                if let Some((_, code_text, _)) = code.as_mut() {
                    code_text.push_str(&text);
                    continue;
                }
                push_text(&mut heading, &mut item_text, &mut paragraph, &text);
            }
            Event::Code(text) => {
                out.inline_code.push((text.to_string(), lines.line(range.start)));
                push_text(&mut heading, &mut item_text, &mut paragraph, &text);
            }
            Event::SoftBreak | Event::HardBreak => push_text(&mut heading, &mut item_text, &mut paragraph, " "),
            // Nested list items keep their parent's text readable: a space between them.
            Event::Start(Tag::Item) => push_text(&mut heading, &mut item_text, &mut paragraph, " "),
            _ => {}
        }
    }
    out.words = count_words(body).saturating_sub(code_words);
    out
}

fn push_text(
    heading: &mut Option<(u8, String, usize)>,
    item: &mut Option<String>,
    paragraph: &mut Option<String>,
    text: &str,
) {
    if let Some((_, h, _)) = heading.as_mut() {
        h.push_str(text);
    } else if let Some(i) = item.as_mut() {
        i.push_str(text);
    } else if let Some(p) = paragraph.as_mut() {
        p.push_str(text);
    }
}

fn heading_level(level: HeadingLevel) -> u8 {
    level as u8
}

/// Runs of whitespace as one space, none at the ends.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut push = |word: &str| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    };
    // Byte-wise for ASCII text, which is most of it (vertical tab is whitespace only to `char`).
    if text.is_ascii() && !text.contains('\x0B') {
        text.split_ascii_whitespace().for_each(&mut push);
    } else {
        text.split_whitespace().for_each(&mut push);
    }
    out
}

/// A word is a run of letters or digits, joined by apostrophes, hyphens or underscores
/// (`don't`, `write_file`, `step-by-step` are one word each).
pub fn count_words(text: &str) -> usize {
    let mut words = 0;
    let mut in_word = false;
    let mut prev_joiner = false;
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        // ASCII, most of any text, byte by byte; anything else as the `char` it starts.
        let class = if byte.is_ascii() {
            at += 1;
            if byte.is_ascii_alphanumeric() {
                Class::Letter
            } else if matches!(byte, b'\'' | b'-' | b'_') {
                Class::Joiner
            } else {
                Class::Other
            }
        } else {
            let c = text.get(at..).and_then(|rest| rest.chars().next()).unwrap_or(' ');
            at += c.len_utf8();
            if c.is_alphanumeric() {
                Class::Letter
            } else if c == '’' {
                Class::Joiner
            } else {
                Class::Other
            }
        };
        match class {
            Class::Letter => {
                words += usize::from(!in_word);
                in_word = true;
                prev_joiner = false;
            }
            Class::Joiner if in_word && !prev_joiner => prev_joiner = true,
            _ => {
                in_word = false;
                prev_joiner = false;
            }
        }
    }
    words
}

#[derive(Clone, Copy)]
enum Class {
    Letter,
    Joiner,
    Other,
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::*;

    const BODY: &str = "# Title\n\nIntro text here.\n\n## When to Use\n\n- First case\n- Second `case`\n  - nested\n\n## Steps\n\n### Step 1: Do it\n\n```bash\npython3 run.py\n```\n\nSee [docs](https://example.com) and ![img](a.png).\n";

    #[test]
    fn outlines_headings_sections_and_code() {
        let o = outline(BODY, 10);
        let headings: Vec<(u8, &str, usize)> = o.headings.iter().map(|h| (h.level, h.text.as_str(), h.line)).collect();
        assert_eq!(headings, [(1, "Title", 10), (2, "When to Use", 14), (2, "Steps", 20), (3, "Step 1: Do it", 22)]);
        assert_eq!(o.sections[1].paragraphs, ["Intro text here."]);
        assert_eq!(o.sections[2].items, ["First case", "Second case nested"]);
        assert_eq!(o.code_blocks.len(), 1);
        assert_eq!(o.code_blocks[0].lang, "bash");
        assert_eq!(o.code_blocks[0].text, "python3 run.py\n");
        assert_eq!(o.code_blocks[0].line, 25);
        assert_eq!(o.links.len(), 2);
        assert!(o.links[1].is_image);
        assert_eq!(o.inline_code, [("case".to_string(), 17)]);
    }

    #[test]
    fn counts_words_outside_code_blocks() {
        assert_eq!(count_words("don't write_file step-by-step, ok?"), 4);
        assert_eq!(count_words("- -- ## 1."), 1);
        assert_eq!(count_words("café’s naïve-ish"), 2);
        assert_eq!(collapse("  a\t b\n\nc  "), "a b c");
        assert_eq!(collapse("a\u{A0}\u{2003}b\x0Bc"), "a b c");
        let o = outline("one two\n\n```bash\nthree four five\n```\n\n    six seven\n\n1. eight\n", 1);
        assert_eq!(o.words, 4);
    }
}
