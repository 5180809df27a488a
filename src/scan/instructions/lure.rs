//! The install lure ([`INSTALL_LURE`]) found as its two parts: the verb, then the first URL
//! after it, kept when no more than [`LURE_GAP`] characters of one line lie between. The
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
        let gap = &sentence[verb.end()..url.start()];
        (!gap.contains('\n') && gap.chars().count() <= LURE_GAP).then_some((verb, url))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two parts find what the whole pattern's groups find.
    #[test]
    fn the_parts_find_the_whole_patterns_groups() {
        assert!(INSTALL_LURE.as_compiled_str().contains(&format!(".{{0,{LURE_GAP}}}?")));
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
            let sentence = crate::scan::pieces_mixed(&pieces, 4 + round % 16, &mut state);
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
}
