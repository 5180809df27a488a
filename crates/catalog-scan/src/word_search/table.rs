//! The automaton's transitions laid out again for the walk, in fewer bytes. The library's DFA
//! gives every byte that is in a word a column of its own, an upper-case letter apart from its
//! lower-case one, and pads each row to a power of two: for the scanner's words, 88 columns in
//! rows of 128 (1.7 MB). Here a letter's two cases share a column and a row is as long as its
//! columns (50, and one more for a match's words: 0.7 MB), so the rows a walk of prose keeps
//! stepping through take fewer cache lines, and the whole table fits a core's second-level
//! cache.

use std::collections::{HashMap, HashSet};

use aho_corasick::Anchored;
use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::dfa::DFA;

pub(super) struct Table {
    /// Each byte's column: bytes that are the same letter but for ASCII case share one, and
    /// bytes in no word (whatever their case) share one.
    columns: [u8; 256],
    /// A row's length: a state's next state in each column, then (in a match state's row)
    /// where its words are in `ending`.
    stride: usize,
    /// The rows: a state is the offset of its row, and the state after it in a column is at
    /// `state + column`.
    next: Vec<u32>,
    /// The states where a word ends come last, from this one on.
    first_match: u32,
    /// Where a walk starts.
    pub start: u32,
    /// The words that end at each match state, from `first_match` on: (word, length).
    ending: Vec<Box<[(u32, u32)]>>,
    /// The longest word's length.
    pub longest: usize,
}

impl Table {
    /// `dfa`'s states and transitions, read through its own stepping: `dfa` is ASCII
    /// case-insensitive over `words`.
    pub fn of<'a>(dfa: &DFA, words: impl IntoIterator<Item = &'a [u8]>) -> Table {
        let in_words: HashSet<u8> = words.into_iter().flatten().map(u8::to_ascii_lowercase).collect();
        // A byte in no word steps like any other such byte: the automaton holds no
        // transition on it, so it falls back to the start state's.
        let mut column_of_folded: HashMap<Option<u8>, u8> = HashMap::new();
        let mut firsts: Vec<u8> = Vec::new();
        let columns: [u8; 256] = std::array::from_fn(|b| {
            let folded = (b as u8).to_ascii_lowercase();
            let key = in_words.contains(&folded).then_some(folded);
            *column_of_folded.entry(key).or_insert_with(|| {
                firsts.push(b as u8);
                u8::try_from(firsts.len() - 1).expect("at most 256 columns")
            })
        });
        // A row: a state's next state by column, then which of `ending` is the state's.
        let stride = firsts.len() + 1;

        // Every state a walk reaches, first found first, with the states after it by column;
        // `index` by the library's state id.
        let start = dfa.start_state(Anchored::No).expect("an unanchored automaton");
        let mut found = vec![start];
        let mut index: HashMap<StateID, usize> = HashMap::new();
        let mut targets: Vec<Vec<usize>> = Vec::new();
        let mut index_of = |state: StateID, found: &mut Vec<StateID>| {
            *index.entry(state).or_insert_with(|| {
                found.push(state);
                found.len() - 1
            })
        };
        index_of(start, &mut found);
        let mut i = 0;
        while let Some(&state) = found.get(i) {
            let after = firsts.iter().map(|&byte| {
                let to = dfa.next_state(Anchored::No, state, byte);
                assert!(!dfa.is_dead(to), "a walk of an unanchored search never dies");
                index_of(to, &mut found)
            });
            targets.push(after.collect());
            i += 1;
        }
        // Match states last, so that one compare tells them; each numbered by where its row
        // starts.
        let (mut order, matching): (Vec<_>, Vec<_>) =
            found.iter().copied().enumerate().partition(|&(_, state)| !dfa.is_match(state));
        let unmatched = order.len();
        let first_match = unmatched * stride;
        order.extend(&matching);
        // Each state's row, by where it was found: `order` numbers every found state once.
        let mut rows: Vec<(usize, u32)> = order
            .iter()
            .enumerate()
            .map(|(row, &(i, _))| (i, u32::try_from(row * stride).expect("the trigger words make fewer states")))
            .collect();
        rows.sort_unstable();
        let row_of: Vec<u32> = rows.into_iter().map(|(_, row)| row).collect();
        // A row: the states after it by column, then (a match state's) which of `ending` is its.
        let next: Vec<u32> = order
            .iter()
            .enumerate()
            .flat_map(|(row, &(i, _))| {
                let after = targets.get(i).map_or(&[][..], Vec::as_slice);
                let after = after.iter().map(|&to| row_of.get(to).copied().unwrap_or_default());
                after.chain([row.saturating_sub(unmatched) as u32])
            })
            .collect();
        let ending = matching
            .iter()
            .map(|&(_, state)| {
                (0..dfa.match_len(state))
                    .map(|i| {
                        let word = dfa.match_pattern(state, i);
                        (word.as_u32(), dfa.pattern_len(word) as u32)
                    })
                    .collect()
            })
            .collect();
        Table {
            columns,
            stride,
            next,
            first_match: u32::try_from(first_match).expect("the trigger words make fewer states"),
            start: row_of.first().copied().unwrap_or_default(),
            ending,
            longest: dfa.max_pattern_len(),
        }
    }

    /// The state after `byte`.
    #[inline(always)]
    // The walk's step, a byte at a time: `columns` has an entry for every byte, and every
    // state is the start of a row the table made, a column for each entry of `columns`.
    #[allow(clippy::indexing_slicing)]
    pub fn next(&self, state: u32, byte: u8) -> u32 {
        self.next[state as usize + usize::from(self.columns[usize::from(byte)])]
    }

    /// Whether a word ends at `state`.
    #[inline(always)]
    pub fn is_match(&self, state: u32) -> bool {
        state >= self.first_match
    }

    /// The words that end at `state`: (word, length).
    pub fn words_ending(&self, state: u32) -> &[(u32, u32)] {
        if state < self.first_match {
            return &[];
        }
        let ending = self.next.get(state as usize + self.stride - 1).and_then(|&i| self.ending.get(i as usize));
        ending.map_or(&[], |words| words)
    }
}
