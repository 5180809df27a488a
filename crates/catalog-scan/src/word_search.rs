//! The trigger words of the scanner's literal pass, searched in one pass over a text: an
//! Aho-Corasick automaton (ASCII case-insensitive, as the rule patterns are) walked by hand, a
//! table step per byte, with each word's owners (the patterns and keyword sets it stands for).
//! The words themselves are read from the patterns by [`super::literals`]; a word marked at an
//! edge ([`super::literals::WORD_EDGE`]) is reported only where a word starts or ends there.

use aho_corasick::MatchKind;

use super::literals::{ends_word, is_word_byte, starts_word, text_of};

mod table;
use table::Table;

/// Trigger words searched in one pass, each once, with the owners (patterns, keyword sets) it
/// stands for: the prefilter's and the instruction reader's.
pub struct WordSearch {
    /// The automaton's transitions, as the walk reads them.
    table: Table,
    /// The words' text, by the automaton's pattern id.
    pub words: Vec<String>,
    /// The owners of each word, by the automaton's pattern id.
    pub owners: Vec<Vec<usize>>,
    /// Whether each word counts only where a word starts, and only where one ends, by the
    /// automaton's pattern id. A text may be in the automaton more than once, with its marks
    /// and without.
    starts_word: Vec<bool>,
    ends_word: Vec<bool>,
}

impl WordSearch {
    /// The search for `owned`: each owner's index with its words.
    pub fn new<'a>(owned: impl IntoIterator<Item = (usize, &'a [String])>) -> WordSearch {
        let mut owned_words: Vec<(&str, Vec<usize>)> = Vec::new();
        for (owner, set) in owned {
            for word in set {
                match owned_words.iter_mut().find(|(w, _)| *w == word.as_str()) {
                    Some((_, owners)) => owners.push(owner),
                    None => owned_words.push((word, vec![owner])),
                }
            }
        }
        let (words, owners): (Vec<&str>, Vec<Vec<usize>>) = owned_words.into_iter().unzip();
        let dfa = aho_corasick::dfa::Builder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            // Walked by hand (`each_hit`) through its table laid out again: no prefilter is run.
            .prefilter(false)
            .build(words.iter().map(|w| text_of(w)))
            .expect("valid trigger words");
        let table = Table::of(&dfa, words.iter().map(|w| text_of(w).as_bytes()));
        let starts_word = words.iter().map(|w| starts_word(w)).collect();
        let ends_word = words.iter().map(|w| ends_word(w)).collect();
        let words = words.into_iter().map(|w| text_of(w).to_string()).collect();
        WordSearch { table, words, owners, starts_word, ends_word }
    }

    /// Every occurrence of a word in `text`, overlapping ones too: (start, end, word), in the
    /// order of their ends, as the automaton lists the words that end at one byte. The
    /// automaton is walked by hand, a table step per byte: the library's overlapping iterator
    /// keeps and checks its search state around every step and every match.
    ///
    /// A long text is walked as [`WALKS`] parts at once ([`next_match_of_all`]). A step
    /// waits on the one before it (two dependent table loads), so one walk leaves the core
    /// idle between them; the parts' steps do not wait on each other. Each walk but the first
    /// starts a longest word's length before its part, so by its part its state is the one a
    /// single walk would have: each reports what ends in its own part.
    pub fn each_hit(&self, text: &str, mut hit: impl FnMut(usize, usize, usize)) {
        let bytes = text.as_bytes();
        // Every hit reaches the caller through this, the parts' too: a word that must start
        // or end one is passed over where a word goes on beyond it.
        let word_byte = |at: usize| bytes.get(at).copied().is_some_and(is_word_byte);
        let mut hit = |start: usize, end: usize, word: usize| {
            let marked = |marks: &[bool]| marks.get(word).copied().unwrap_or_default();
            let goes_on_before = marked(&self.starts_word) && start > 0 && word_byte(start - 1);
            let goes_on_after = marked(&self.ends_word) && word_byte(end);
            if !(goes_on_before || goes_on_after) {
                hit(start, end, word);
            }
        };
        let overlap = self.table.longest.saturating_sub(1);
        let part = bytes.len() / WALKS;
        if part < PART_MIN.max(2 * overlap) {
            self.walk(bytes, &mut hit);
            return;
        }
        let start = self.table.start;
        // Walk k starts at `from[k]` and reports what ends after `k * part`, up to where the
        // next part's walk reports.
        let from: [usize; WALKS] = std::array::from_fn(|k| (k * part).saturating_sub(overlap));
        let walks: [&[u8]; WALKS] = from.map(|from| bytes.get(from..).unwrap_or_default());
        // About a word in every 39 bytes (the scanner's literals over a corpus of skills):
        // room for one in 32, so each later part's hits mostly fit one allocation.
        let mut later: [Vec<(usize, usize, usize)>; WALKS] =
            std::array::from_fn(|k| if k == 0 { Vec::new() } else { Vec::with_capacity(part / 32) });
        let mut states = [start; WALKS];
        let mut at = 0;
        while let Some(i) = next_match_of_all(&self.table, &walks, part, at, &mut states) {
            self.hits_at(states[0], i, &mut hit);
            if i >= overlap {
                for ((&state, &from), later) in states.iter().zip(&from).zip(&mut later).skip(1) {
                    self.hits_at(state, from + i, &mut |s, e, w| later.push((s, e, w)));
                }
            }
            at = i + 1;
        }
        // Past the first part's length: the overlap into each next part, the last part's rest.
        let parts = walks.iter().zip(&mut states).zip(from).zip(&mut later);
        for (k, (((&walk, state), from), later)) in parts.enumerate().skip(1) {
            let walk = if k + 1 < WALKS { walk.get(..part + overlap).unwrap_or(walk) } else { walk };
            self.walk_on(walk, part, state, from, &mut |s, e, w| later.push((s, e, w)));
        }
        for (s, e, w) in later.into_iter().flatten() {
            hit(s, e, w);
        }
    }

    /// One walk over all of `bytes`.
    fn walk(&self, bytes: &[u8], hit: &mut impl FnMut(usize, usize, usize)) {
        let mut state = self.table.start;
        self.walk_on(bytes, 0, &mut state, 0, hit);
    }

    /// Walks `bytes[from..]` on from `state`, handing on the words that end there, placed
    /// from `base` (where `bytes` starts in the text).
    fn walk_on(
        &self,
        bytes: &[u8],
        mut from: usize,
        state: &mut u32,
        base: usize,
        hit: &mut impl FnMut(usize, usize, usize),
    ) {
        while let Some(at) = next_match(&self.table, bytes, from, state) {
            self.hits_at(*state, base + at, hit);
            from = at + 1;
        }
    }

    /// The words that end at the byte `at` the walk reached `state` on.
    fn hits_at(&self, state: u32, at: usize, hit: &mut impl FnMut(usize, usize, usize)) {
        for &(word, len) in self.table.words_ending(state) {
            hit(at + 1 - len as usize, at + 1, word as usize);
        }
    }
}

/// How many walks a long text is split between.
const WALKS: usize = 4;

/// Below this many bytes a part, a text is walked once: more walks cost their setup and the
/// overlaps' bytes again.
const PART_MIN: usize = 128;

/// Steps `state` over `bytes[from..]` up to the first byte that leads to a state where a word
/// ends, and returns that byte's offset. Kept apart from the caller's handling of hits, so that
/// the loop's few values stay in registers: about half the instructions per byte.
#[inline(never)]
fn next_match(table: &Table, bytes: &[u8], from: usize, state: &mut u32) -> Option<usize> {
    let mut current = *state;
    for (i, &byte) in bytes.get(from..).unwrap_or_default().iter().enumerate() {
        current = table.next(current, byte);
        if table.is_match(current) {
            *state = current;
            return Some(from + i);
        }
    }
    *state = current;
    None
}

/// [`next_match`] for [`WALKS`] walks in step over the offsets `from..len` of each (each
/// walk at least `len` bytes long): the first offset at which any reaches a word's end.
#[inline(never)]
// The hot loop of a long text's walks: every walk is at least `len` bytes (the caller's parts
// are) and is cut to `len` first, so `i < len` is in range of each, with no check in the loop.
#[allow(clippy::indexing_slicing)]
fn next_match_of_all(
    table: &Table,
    walks: &[&[u8]; WALKS],
    len: usize,
    from: usize,
    states: &mut [u32; WALKS],
) -> Option<usize> {
    let mut current = *states;
    let walks: [&[u8]; WALKS] = std::array::from_fn(|k| &walks[k][..len]);
    for i in from..len {
        let mut ended = false;
        for (state, byte) in current.iter_mut().zip(walks.map(|walk| walk[i])) {
            *state = table.next(*state, byte);
            ended |= table.is_match(*state);
        }
        if ended {
            *states = current;
            return Some(i);
        }
    }
    *states = current;
    None
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    /// The walk by hand finds what the library's overlapping search finds, in its order.
    #[test]
    fn each_hit_is_a_match_of_the_overlapping_search() {
        let sets: Vec<Vec<String>> = [
            &["nc", "ncat", "at"][..],
            &["user", "us", "er"],
            &["://", "a"],
            &["é"],
            &["~/.ssh", "ed25519", "x-api-key"],
        ]
        .iter()
        .map(|set| set.iter().map(|w| w.to_string()).collect())
        .collect();
        let search = super::WordSearch::new(sets.iter().map(Vec::as_slice).enumerate());
        let library = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(aho_corasick::MatchKind::Standard)
            .build(&search.words)
            .unwrap();
        let pieces = [
            "n", "N", "c", "at", "AT", "us", "USER", "e", "r", ":", "//", "a", " ", "é", "\u{17F}", "\n", "~/", ".SSH",
            "ed", "25519", "X-API", "-key", "_", "0", "\t",
        ];
        let mut state = 0xB7E1_5162_u32;
        // The hits of `count` pieces mixed, walked and searched: the two must agree.
        let mut mixed_hits = |count: usize| {
            let text = crate::pieces_mixed(&pieces, count, &mut state);
            let mut walked = Vec::new();
            search.each_hit(&text, |start, end, word| walked.push((start, end, word)));
            let found: Vec<_> =
                library.find_overlapping_iter(&text).map(|m| (m.start(), m.end(), m.pattern().as_usize())).collect();
            assert_eq!(walked, found, "{text:?}");
            found.len()
        };
        let hits: usize = (0..20_000).map(|_| mixed_hits(10)).sum();
        assert!(hits > 50_000, "the mixes should hold the words: {hits}");
        // Long mixes, walked in parts.
        let long_hits: usize = (0..400).map(|round| mixed_hits(300 + round)).sum();
        assert!(long_hits > 60_000, "the long mixes should hold the words: {long_hits}");
    }

    /// A word marked to start one is found at the text's start, after punctuation, space or a
    /// non-ASCII character, and not inside a word; the same text unmarked is found anywhere.
    #[test]
    fn a_word_start_word_is_found_only_where_a_word_starts() {
        let marked = format!("{}nc", crate::literals::WORD_EDGE);
        let sets = [vec![marked], vec!["nc".to_string()]];
        let search = super::WordSearch::new(sets.iter().map(Vec::as_slice).enumerate());
        let owners_at = |text: &str| {
            let mut found = Vec::new();
            search.each_hit(text, |start, _, word| found.extend(search.owners[word].iter().map(|o| (start, *o))));
            found.sort();
            found
        };
        assert_eq!(owners_at("nc -e sh"), [(0, 0), (0, 1)]);
        assert_eq!(owners_at("(NC.exe)"), [(1, 0), (1, 1)]);
        assert_eq!(owners_at("\u{e9}nc"), [(2, 0), (2, 1)]);
        assert_eq!(owners_at("function _nc"), [(2, 1), (10, 1)]);
        // A long text, walked in parts, the same.
        let long = format!("{} nc", "since once ".repeat(60));
        let found = owners_at(&long);
        assert_eq!(found.iter().filter(|(_, o)| *o == 0).count(), 1, "{found:?}");
        assert_eq!(found.iter().filter(|(_, o)| *o == 1).count(), 121);
    }

    /// A word marked to end one is found before punctuation, space or a non-ASCII character
    /// and at the text's end, not where the word goes on; marked at both edges, it must be a
    /// word of its own.
    #[test]
    fn a_word_end_word_is_found_only_where_a_word_ends() {
        let edge = crate::literals::WORD_EDGE;
        let sets = [vec![format!("user{edge}")], vec![format!("{edge}user{edge}")], vec!["user".to_string()]];
        let search = super::WordSearch::new(sets.iter().map(Vec::as_slice).enumerate());
        let owners = |text: &str| {
            let mut found = Vec::new();
            search.each_hit(text, |_, _, word| found.extend(search.owners[word].iter().copied()));
            found.sort();
            found
        };
        assert_eq!(owners("ask the USER."), [0, 1, 2]);
        assert_eq!(owners("user"), [0, 1, 2]);
        assert_eq!(owners("user\u{e9}"), [0, 1, 2]);
        assert_eq!(owners("superuser"), [0, 2]);
        assert_eq!(owners("username"), [2]);
        assert_eq!(owners("user_id"), [2]);
        let long = format!("{}the user", "usernames ".repeat(60));
        let found = owners(&long);
        assert_eq!((found.iter().filter(|o| **o < 2).count(), found.len()), (2, 63), "{found:?}");
    }

    /// A word across the parts of a long text, at every offset: the parts' walks neither miss
    /// it nor report it twice.
    #[test]
    fn a_word_across_the_parts_is_found_once() {
        let words = [vec!["abcdefghijkl".to_string()], vec!["kl".to_string(), "l".to_string()]];
        let search = super::WordSearch::new(words.iter().map(Vec::as_slice).enumerate());
        for at in 200..=780 {
            let mut text = "x".repeat(1000);
            text.replace_range(at..at + 12, "ABCDEFGHIJKL");
            let mut walked = Vec::new();
            search.each_hit(&text, |start, end, word| walked.push((start, end, search.words[word].clone())));
            let l = at + 11;
            let expected = vec![
                (at, at + 12, "abcdefghijkl".to_string()),
                (l - 1, l + 1, "kl".to_string()),
                (l, l + 1, "l".to_string()),
            ];
            assert_eq!(walked, expected, "word at {at}");
        }
    }
}
