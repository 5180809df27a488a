//! The install lure ([`INSTALL_LURE`]) found as its two parts: the verb, then the first URL
//! after it, kept when no more than [`LURE_GAP`] characters lie between. A sentence never
//! crosses a blank line or a list item, so a line break between them wraps a paragraph,
//! unless the next line starts with a key (`source: ...`): the lines of a YAML frontmatter
//! are one paragraph to the sentence reader, and each is a value of its own. The
//! pattern whole steps its lazy DFA into a new state at every character of the gap, most of
//! them out of the cache; its two parts are small automata, and the gap is counted here.

#[cfg(test)]
use super::patterns::INSTALL_LURE;
use super::patterns::{LURE_GAP, LURE_URL, LURE_VERB};

/// The verb and the URL of the install lure's first match in `sentence`: its groups 1 and 2.
///
/// The match starts at the first verb with a URL close enough after it; the lazy gap makes
/// the URL the first one after the verb (a later one is further away), and the URL runs as
/// far as its characters do, as the pattern's last part.
pub(super) fn install_lure(sentence: &str) -> Option<(regex::Match<'_>, regex::Match<'_>)> {
    LURE_VERB.find_iter(sentence).find_map(|verb| {
        let url = LURE_URL.find_at(sentence, verb.end())?;
        let gap = sentence.get(verb.end()..url.start())?;
        (!crosses_a_key(gap) && gap.chars().count() <= LURE_GAP).then_some((verb, url))
    })
}

/// Whether a line of `text` after its first starts with a key.
fn crosses_a_key(text: &str) -> bool {
    text.split('\n').skip(1).any(starts_with_key)
}

/// Whether a line starts as a YAML key does: a name, a colon, then a space or nothing.
fn starts_with_key(line: &str) -> bool {
    let line = line.trim_start();
    let name = line.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')).count();
    let after_colon = line.get(name..).and_then(|rest| rest.strip_prefix(':'));
    name > 0 && after_colon.is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two parts find what the whole pattern's groups find.
    #[test]
    fn the_parts_find_the_whole_patterns_groups() {
        assert!(INSTALL_LURE.as_compiled_str().contains(&format!("(?s:.){{0,{LURE_GAP}}}?")));
        let pieces = [
            "download ",
            "Install",
            " get",
            "GRAB",
            "save",
            "ſave",
            "fetched",
            "x",
            " ",
            "\n",
            "é",
            "\u{A0}",
            "http://",
            "HTTPS://",
            "httpſ://",
            "ftp://",
            "://",
            "a.example/p",
            ")",
            "\"",
            "`",
            "<",
            "-",
            "_",
            "a gap of some forty characters, or so...",
        ];
        let mut state = 0x0BAD_5EED_u32;
        let mut found = 0;
        for round in 0..30_000 {
            let sentence = crate::pieces_mixed(&pieces, 4 + round % 16, &mut state);
            if crosses_a_key(&sentence) {
                // The whole pattern does not know keys; a line of one ends the gap.
                continue;
            }
            let whole = INSTALL_LURE.captures(&sentence).map(|c| {
                let (verb, url) = (c.get(1).expect("verb"), c.get(2).expect("url"));
                (verb.range(), url.range())
            });
            let parts = install_lure(&sentence).map(|(verb, url)| (verb.range(), url.range()));
            assert_eq!(parts, whole, "{sentence:?}");
            found += usize::from(whole.is_some());
        }
        assert!(found > 3000, "the mixes should hold lures: {found}");
    }

    /// A line break wraps a sentence, unless the next line is a key of its own.
    #[test]
    fn a_wrapped_line_is_crossed_and_a_key_is_not() {
        assert!(install_lure("Download the helper from\nhttps://dl.example.org/h.exe and run it").is_some());
        let yaml = "description: covers the install path.\nstars: 5\nsource: https://dl.example.org/h.exe";
        assert!(install_lure(yaml).is_none());
        assert!(install_lure("Download it:\n  url: https://dl.example.org/h.exe").is_none());
        assert!(starts_with_key("source: x") && starts_with_key("  key:") && !starts_with_key("https://x"));
    }
}
