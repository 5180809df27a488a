//! Markdown from strangers to HTML: never a panic, never a script or image element, an event
//! handler attribute or a script-running link in the output.
#![no_main]

use catalog::render::markdown::{LinkBase, render};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let html = render(text, &LinkBase { blob_dir: Some("https://github.com/o/r/blob/HEAD/s/") });
    for (tag, attributes) in tags(&html.to_ascii_lowercase()) {
        assert!(
            !matches!(tag.as_str(), "script" | "img" | "iframe" | "object" | "embed" | "svg" | "style"),
            "<{tag}> in {html:?}"
        );
        for (name, value) in attributes {
            assert!(!name.starts_with("on"), "handler attribute {name:?} in {html:?}");
            if name == "href" || name == "src" {
                // What a browser runs or loads is decided by the scheme, the text before the first
                // colon: `https:'/p` is as harmless as `https://p`.
                let scheme = value.split_once(':').map(|(scheme, _)| scheme);
                let ok = value.starts_with('#') || matches!(scheme, Some("https" | "http" | "mailto"));
                assert!(ok, "unexpected link {value:?} in {html:?}");
            }
        }
    }
});

/// Every tag as (name, [(attribute, value)]), read as a browser would: quoted values may hold
/// anything, and text between tags is skipped.
fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut chars = html.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '<' {
            continue;
        }
        let mut tag = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '>' {
                break;
            }
            tag.push(c);
            chars.next();
        }
        let mut attributes = Vec::new();
        let (mut name, mut value) = (String::new(), String::new());
        let mut quote: Option<char> = None;
        let mut in_value = false;
        for c in chars.by_ref() {
            match (quote, c) {
                (Some(q), c) if c == q => {
                    quote = None;
                    attributes.push((std::mem::take(&mut name), std::mem::take(&mut value)));
                    in_value = false;
                }
                (Some(_), c) => value.push(c),
                (None, '"' | '\'') if in_value => quote = Some(c),
                (None, '=') => in_value = true,
                (None, '>') => break,
                (None, c) if c.is_whitespace() => {
                    if !name.is_empty() && !in_value {
                        attributes.push((std::mem::take(&mut name), String::new()));
                    }
                }
                (None, c) if in_value => value.push(c),
                (None, c) => name.push(c),
            }
        }
        if !name.is_empty() {
            attributes.push((name, value));
        }
        out.push((tag, attributes));
    }
    out
}
