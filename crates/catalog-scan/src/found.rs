//! Which of the line and secret patterns may match in one file, as the prefilter
//! (`prefilter`) found them: the readers ask it before they run a pattern.

/// What a trigger stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// The first regex of the n-th line pattern (`lines::first_patterns`).
    Line(usize),
    /// The n-th secret shape (`secrets::SHAPES`).
    Shape(usize),
    /// The name of a credential (`secrets::NAME_PATTERN`).
    SecretName,
    /// A value after a secret's label (`secrets::LABELLED_PATTERN`).
    SecretLabel,
    /// A download spelled out in prose (`commands::PROSE_DOWNLOAD`).
    ProseDownload,
}

/// The non-ASCII characters whose case folds to an ASCII letter: LONG S (s) and KELVIN SIGN (k).
pub const FOLDS_TO_ASCII: [char; 2] = ['\u{17F}', '\u{212A}'];

/// Whether `text` holds a character of [`FOLDS_TO_ASCII`]. One vectorised pass for the
/// characters' lead bytes, each found one checked for the whole character: searching for
/// the characters themselves took a pass each, and decoding every character costs more.
pub fn folds_to_ascii(text: &str) -> bool {
    let (mut first, mut second) = ([0u8; 4], [0u8; 4]);
    let first = FOLDS_TO_ASCII[0].encode_utf8(&mut first).as_bytes();
    let second = FOLDS_TO_ASCII[1].encode_utf8(&mut second).as_bytes();
    let (Some(&first_lead), Some(&second_lead)) = (first.first(), second.first()) else { return false };
    let bytes = text.as_bytes();
    memchr::memchr2_iter(first_lead, second_lead, bytes)
        .filter_map(|at| bytes.get(at..))
        .any(|rest| rest.starts_with(first) || rest.starts_with(second))
}

/// Which patterns may match in one file.
pub struct Found {
    /// Every pattern may: the prefilter is off for this text.
    all: bool,
    /// By slot: whether a word of the slot's set of literals is in the text. A key has a slot
    /// for each set of literals its pattern needs a word of.
    slots: Vec<bool>,
    /// The first slot of each key (the line patterns, then the secret shapes, then the name
    /// and the label), and the end of the last: key `k` has the slots `keys[k]..keys[k + 1]`.
    keys: &'static [usize],
    /// Every literal of a line pattern, or of the labelled-value pattern, in the text: (slot,
    /// start, end), sorted. Each of these patterns matches within one line.
    line_hits: Vec<(usize, usize, usize)>,
    lines: usize,
    shapes: usize,
}

impl Found {
    /// Every pattern runs (text the prefilter cannot vouch for, or a test comparing with it).
    pub fn everything() -> Found {
        Found { all: true, slots: Vec::new(), keys: &[], line_hits: Vec::new(), lines: 0, shapes: 0 }
    }

    pub fn is_everything(&self) -> bool {
        self.all
    }

    /// Whether the text holds a word of every set of literals the key's pattern needs.
    pub fn has(&self, key: Key) -> bool {
        self.all || self.slots.get(self.slots_of(key)).is_none_or(|slots| slots.iter().all(|found| *found))
    }

    /// The lines of `text` that hold a word of every set of literals the key's pattern needs
    /// (a line pattern, or the labelled-value pattern), in order, each once: (start, end
    /// before the newline). A match of such a pattern lies on one line and holds a word of
    /// each set, so it lies on one of these lines. All of the text, as one stretch, when the
    /// prefilter is off.
    pub fn lines_holding(&self, key: Key, text: &str) -> Vec<(usize, usize)> {
        debug_assert!(matches!(key, Key::Line(_) | Key::SecretLabel), "{key:?}: its hits are not kept");
        if self.all {
            return vec![(0, text.len())];
        }
        let mut slots = self.slots_of(key);
        let mut lines = self.lines_of(slots.next().expect("a key has a slot"), text);
        for slot in slots {
            let others = self.lines_of(slot, text);
            lines.retain(|line| others.binary_search_by_key(&line.0, |other| other.0).is_ok());
        }
        lines
    }

    /// The lines that hold a word of one slot's set, as [`Self::lines_holding`] lists them.
    fn lines_of(&self, slot: usize, text: &str) -> Vec<(usize, usize)> {
        let from = self.line_hits.partition_point(|hit| hit.0 < slot);
        let to = self.line_hits.partition_point(|hit| hit.0 <= slot);
        let mut lines: Vec<(usize, usize)> = Vec::with_capacity(to - from);
        for &(_, start, end) in self.line_hits.get(from..to).unwrap_or_default() {
            match lines.last_mut() {
                // On a line already listed (hits are sorted by their starts).
                Some(line) if start <= line.1 => line.1 = line.1.max(super::text::lines_around(text, end, end).1),
                _ => lines.push(super::text::lines_around(text, start, end)),
            }
        }
        lines
    }

    /// What the search found, by slot, with the literals of the line patterns; the first slot
    /// of each key, and the number of line patterns and secret shapes.
    pub(super) fn from_slots(
        slots: Vec<bool>,
        mut line_hits: Vec<(usize, usize, usize)>,
        keys: &'static [usize],
        lines: usize,
        shapes: usize,
    ) -> Found {
        line_hits.sort_unstable();
        Found { all: false, slots, keys, line_hits, lines, shapes }
    }

    /// The slots of a key.
    fn slots_of(&self, key: Key) -> std::ops::Range<usize> {
        let k = self.key_index(key);
        match self.keys.get(k..=k + 1) {
            Some(&[first, end]) => first..end,
            _ => 0..0,
        }
    }

    fn key_index(&self, key: Key) -> usize {
        match key {
            Key::Line(i) => i,
            Key::Shape(i) => self.lines + i,
            Key::SecretName => self.lines + self.shapes,
            Key::SecretLabel => self.lines + self.shapes + 1,
            Key::ProseDownload => self.lines + self.shapes + 2,
        }
    }
}

#[cfg(test)]
mod tests {
    /// The lead-byte search finds what a search for the characters finds, beside other
    /// characters with the same lead bytes.
    #[test]
    fn folds_are_found_as_the_characters_are() {
        let pieces = ["a", "\u{17F}", "\u{212A}", "\u{2014}", "\u{15E}", "\u{2122}", "\u{1FF}", "k", "s", " "];
        let mut state = 0x243F_6A88_u32;
        let mut found = 0;
        for _ in 0..10_000 {
            let text = crate::pieces_mixed(&pieces, 6, &mut state);
            let expected = text.contains(super::FOLDS_TO_ASCII);
            assert_eq!(super::folds_to_ascii(&text), expected, "{text:?}");
            found += usize::from(expected);
        }
        assert!(found > 1_000 && found < 9_000, "the mixes should hold both kinds: {found}");
    }
}
