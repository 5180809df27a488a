//! A skill's Markdown as safe HTML: raw HTML is shown as text, images become links, links with
//! script-running schemes become plain text, relative links point at the file in its repository,
//! and headings move down two levels so they sit under the page's own.

// Untrusted input must not be able to panic the reader: no unchecked indexing or slicing.
#![deny(clippy::indexing_slicing, clippy::string_slice)]

use pulldown_cmark::{CowStr, Event, HeadingLevel, Parser, Tag, TagEnd};

/// How relative links in the Markdown are resolved.
pub struct LinkBase<'a> {
    /// e.g. `https://github.com/owner/repo/blob/HEAD/skills/x/`; `None` without a repository,
    /// and relative links become plain text.
    pub blob_dir: Option<&'a str>,
}

/// Quotes, lists and emphasis nested deeper than this are flattened: their text is kept, their
/// markup dropped. Markdown can nest without end (`>>>>…`, `- - - …` on one line), and the
/// minifier, like every tree walker after it, recurses once per element.
pub const MAX_NESTING: usize = 32;

pub fn render(markdown: &str, links: &LinkBase) -> String {
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    let mut used_ids: Vec<String> = Vec::new();
    let mut inert_links = 0usize;
    let mut heading_text: Option<String> = None;
    // For each open container: whether its markup was dropped.
    let mut containers: Vec<bool> = Vec::new();

    let events = Parser::new_ext(markdown, crate::parse::markdown::options()).flat_map(|event| {
        let out: Vec<Event> = match event {
            Event::Start(
                Tag::BlockQuote(_) | Tag::List(_) | Tag::Item | Tag::Emphasis | Tag::Strong | Tag::Strikethrough,
            ) => {
                let drop = containers.len() >= MAX_NESTING;
                containers.push(drop);
                if drop { vec![Event::Text(CowStr::Borrowed(" "))] } else { vec![event] }
            }
            Event::End(
                TagEnd::BlockQuote(_)
                | TagEnd::List(_)
                | TagEnd::Item
                | TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough,
            ) => {
                if containers.pop().unwrap_or(false) {
                    vec![]
                } else {
                    vec![event]
                }
            }
            Event::Html(raw) | Event::InlineHtml(raw) => vec![Event::Text(raw)],
            Event::Start(Tag::Heading { level, id: _, classes: _, attrs: _ }) => {
                vec![Event::Start(Tag::Heading { level: shift(level), id: None, classes: vec![], attrs: vec![] })]
            }
            Event::End(TagEnd::Heading(level)) => vec![Event::End(TagEnd::Heading(shift(level)))],
            Event::Start(Tag::Image { dest_url, title, .. }) => match safe_url(&dest_url, links) {
                Some(url) => vec![
                    Event::Start(Tag::Link {
                        link_type: pulldown_cmark::LinkType::Inline,
                        dest_url: url.into(),
                        title,
                        id: CowStr::Borrowed(""),
                    }),
                    Event::Text(CowStr::Borrowed("Image: ")),
                ],
                None => {
                    inert_links += 1;
                    vec![Event::Text(CowStr::Borrowed("Image: "))]
                }
            },
            Event::End(TagEnd::Image) => {
                if inert_links > 0 {
                    inert_links -= 1;
                    vec![]
                } else {
                    vec![Event::End(TagEnd::Link)]
                }
            }
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => match safe_url(&dest_url, links) {
                Some(url) => vec![Event::Start(Tag::Link { link_type, dest_url: url.into(), title, id })],
                None => {
                    inert_links += 1;
                    vec![]
                }
            },
            Event::End(TagEnd::Link) => {
                if inert_links > 0 {
                    inert_links -= 1;
                    vec![]
                } else {
                    vec![Event::End(TagEnd::Link)]
                }
            }
            other => vec![other],
        };
        out
    });

    // Headings get ids (for links to sections) from their text, known once the heading ends.
    // The HTML writer keeps state across events (table heads, footnotes), so it runs once.
    let mut events: Vec<Event> = events.collect();
    let mut open: Option<usize> = None;
    for i in 0..events.len() {
        match events.get(i) {
            Some(Event::Start(Tag::Heading { .. })) => {
                open = Some(i);
                heading_text = Some(String::new());
            }
            Some(Event::End(TagEnd::Heading(_))) => {
                let text = heading_text.take().unwrap_or_default();
                let id = unique_id(&format!("md-{}", crate::slug::slugify(&text)), &mut used_ids);
                if let Some(heading) = open.take().and_then(|start| events.get_mut(start))
                    && let Event::Start(Tag::Heading { level, .. }) = *heading
                {
                    *heading =
                        Event::Start(Tag::Heading { level, id: Some(id.into()), classes: vec![], attrs: vec![] });
                }
            }
            Some(Event::Text(t) | Event::Code(t)) => {
                if let Some(h) = heading_text.as_mut() {
                    h.push_str(t);
                }
            }
            _ => {}
        }
    }
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

fn shift(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H3,
        HeadingLevel::H2 => HeadingLevel::H4,
        HeadingLevel::H3 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

fn unique_id(base: &str, used: &mut Vec<String>) -> String {
    let mut id = base.to_string();
    let mut n = 1;
    while used.contains(&id) {
        n += 1;
        id = format!("{base}-{n}");
    }
    used.push(id.clone());
    id
}

/// The head of `markdown` that a page shows when the whole is longer than `limit` bytes: every
/// top-level block that ends within the limit, so that no list, table or code block is cut in
/// two. `None` when the whole fits. A first block longer than the limit leaves an empty head.
pub fn head_within(markdown: &str, limit: usize) -> Option<&str> {
    if markdown.len() <= limit {
        return None;
    }
    let mut depth = 0usize;
    let mut end = 0usize;
    for (event, range) in Parser::new_ext(markdown, crate::parse::markdown::options()).into_offset_iter() {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if range.end > limit {
                        break;
                    }
                    end = range.end;
                }
            }
            // A rule or a lone HTML block is a block of its own.
            Event::Rule | Event::Html(_) if depth == 0 => {
                if range.end > limit {
                    break;
                }
                end = range.end;
            }
            _ => {}
        }
    }
    Some(markdown.get(..end).unwrap_or_default())
}

/// The URL to link to, or `None` when the link must not be followed: schemes that run script
/// (`javascript:`, `vbscript:`, `data:`, however spelled) and anything not http(s), mailto or
/// relative. Relative paths resolve against the skill's folder in its repository.
pub fn safe_url(url: &str, links: &LinkBase) -> Option<String> {
    // Browsers ignore control characters and whitespace inside a scheme; so must we.
    let compact: String = url.chars().filter(|c| !c.is_whitespace() && !c.is_control()).collect();
    let lower = compact.to_ascii_lowercase();
    if let Some((scheme, _)) = lower.split_once(':') {
        let is_scheme = !scheme.is_empty() && !scheme.contains(['/', '?', '#']);
        if is_scheme {
            return matches!(scheme, "http" | "https" | "mailto").then(|| url.trim().to_string());
        }
    }
    if lower.contains("&#") || lower.contains("&colon") {
        // Entity-encoded schemes are not decoded by Markdown link parsing, but refuse them anyway.
        return None;
    }
    let url = url.trim();
    if let Some(anchor) = url.strip_prefix('#') {
        return Some(format!("#md-{}", crate::slug::slugify(anchor)));
    }
    if url.starts_with("//") {
        return Some(format!("https:{url}"));
    }
    let relative = url.trim_start_matches("./");
    if relative.starts_with('/') {
        return None;
    }
    links.blob_dir.map(|dir| format!("{dir}{relative}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: LinkBase = LinkBase { blob_dir: Some("https://github.com/o/r/blob/HEAD/s/") };

    #[test]
    fn shows_raw_html_as_text_and_shifts_headings() {
        let html = render("# Title\n\n<script>alert(1)</script>\n\nText <b onclick=x>b</b>\n", &BASE);
        assert!(html.contains("<h3 id=\"md-title\">Title</h3>"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<b "), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn makes_dangerous_links_inert_and_images_links() {
        let html = render(
            "[a](javascript:alert(1)) [b](JaVaScRiPt:x) [c](data:text/html,x) [d]( vbscript:x) [e](java\tscript:x) ![img](pic.png)",
            &BASE,
        );
        let hrefs: Vec<&str> = html.split("href=\"").skip(1).collect();
        assert_eq!(hrefs.len(), 1, "{html}");
        assert!(hrefs.iter().all(|h| h.starts_with("https://")), "{html}");
        assert!(html.contains("<a href=\"https://github.com/o/r/blob/HEAD/s/pic.png\">Image: img</a>"), "{html}");
        assert!(!html.contains("<img"), "{html}");
    }

    #[test]
    fn flattens_nesting_past_the_limit_and_keeps_the_text() {
        for markdown in [
            format!("{} deep\n", ">".repeat(10_000)),
            format!("{}deep\n", "- ".repeat(10_000)),
            format!("{}deep{}\n", "*a ".repeat(5_000), " b*".repeat(5_000)),
        ] {
            let html = render(&markdown, &BASE);
            let containers = ["blockquote", "ul", "ol", "li", "em", "strong", "del"];
            let (mut depth, mut deepest) = (0usize, 0usize);
            for tag in html.split('<').skip(1) {
                let name = tag.split(['>', ' ']).next().unwrap_or("");
                if containers.contains(&name) {
                    depth += 1;
                    deepest = deepest.max(depth);
                } else if name.strip_prefix('/').is_some_and(|n| containers.contains(&n)) {
                    depth -= 1;
                }
            }
            assert_eq!(depth, 0, "unbalanced markup");
            assert!(deepest <= MAX_NESTING, "nesting {deepest}");
            assert!(html.contains("deep"), "text lost");
        }
    }

    #[test]
    fn a_long_text_is_cut_after_the_last_whole_block_within_the_limit() {
        let text = "# Title\n\nFirst paragraph.\n\n```sh\necho one\necho two\n```\n\n- a\n- b\n\nLast words.\n";
        assert_eq!(head_within(text, text.len()), None, "a text within the limit is whole");
        // A limit inside the list: the head ends after the code block, never inside the list.
        let head = head_within(text, text.find("- b").unwrap()).unwrap();
        assert!(head.trim_end().ends_with("echo two\n```") && !head.contains("- a"), "{head:?}");
        // A limit inside the code block: the head ends after the paragraph before it.
        let head = head_within(text, text.find("echo two").unwrap()).unwrap();
        assert!(head.trim_end().ends_with("First paragraph."), "{head:?}");
        // A first block past the limit: nothing is shown but the link to the file.
        assert_eq!(head_within("A long first paragraph.", 5), Some(""));
        // Multi-byte text: the head is a prefix cut at a block, so at a character boundary.
        let wide = "é".repeat(50) + "\n\n" + &"ü".repeat(50);
        assert_eq!(head_within(&wide, 150).map(str::trim_end), Some("é".repeat(50).as_str()));
    }

    #[test]
    fn tables_keep_body_cells() {
        let html = render("| a | b |\n|---|---|\n| 1 | 2 |\n", &BASE);
        assert!(html.contains("<td>1</td>"), "{html}");
        assert!(html.contains("<th>a</th>"), "{html}");
    }

    #[test]
    fn keeps_web_links_and_anchors() {
        let html = render("[x](https://example.com/a) [y](#When-To-Use) [z](scripts/run.sh)", &BASE);
        assert!(html.contains("href=\"https://example.com/a\""));
        assert!(html.contains("href=\"#md-when-to-use\""));
        assert!(html.contains("href=\"https://github.com/o/r/blob/HEAD/s/scripts/run.sh\""));
    }
}
