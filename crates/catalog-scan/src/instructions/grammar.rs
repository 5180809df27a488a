//! How the instruction reader reads prose: HTML comments, sentences, quoted text, and whether
//! a verb is said as a command.

use regex::Regex;

use crate::text::{lines_inclusive, mentioned_spans};

/// Byte ranges of `<!-- ... -->` comments (an unclosed one runs to the end).
pub(super) fn html_comments(body: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = body.get(from..).and_then(|rest| rest.find("<!--")) {
        let start = from + i;
        let end = body.get(start + 4..).and_then(|rest| rest.find("-->")).map_or(body.len(), |j| start + 4 + j + 3);
        out.push((start, end));
        from = end;
    }
    out
}

/// Sentences of prose: paragraphs (a blank line, a list item, a heading or a table row starts
/// a new one, and so does a comment's start or end) split after `.`, `!` or `?` and a space or
/// a line's end.
pub(super) fn sentences(body: &str) -> Vec<(usize, usize)> {
    let mut cuts = blocks(body);
    for marker in ["<!--", "-->"] {
        let mut from = 0;
        while let Some(i) = body.get(from..).and_then(|rest| rest.find(marker)) {
            cuts.push(from + i + if marker == "-->" { 3 } else { 0 });
            from += i + marker.len();
        }
    }
    let bytes = body.as_bytes();
    cuts.extend((1..bytes.len()).filter(|i| ends_sentence(bytes, *i)));
    cuts.sort_unstable();
    cuts.dedup();
    let pieces = cuts.iter().copied().zip(cuts.iter().copied().skip(1));
    pieces.filter(|(s, e)| kept(body, *s, *e)).collect()
}

/// The cuts of [`sentences`] that lines make, in order, from 0 to the body's end: where a
/// block starts (a blank line, a heading, a table row, a list item, a quote) and where a
/// blank line ends. No sentence crosses one.
pub(super) fn blocks(body: &str) -> Vec<usize> {
    // Room for a cut in about every 64 bytes (a Markdown paragraph, list item or heading,
    // and the blank lines between them), made at once rather than grown cut by cut.
    let mut cuts = Vec::with_capacity(body.len() / 64 + 2);
    cuts.push(0);
    for (offset, line) in lines_inclusive(body) {
        let (blank, starts) = line_kind(line);
        if blank || starts {
            cuts.push(offset);
        }
        if blank {
            cuts.push(offset + line.len());
        }
    }
    cuts.push(body.len());
    cuts.dedup();
    cuts
}

/// Whether a line is blank, and whether it starts a block ([`starts_block`]). Most lines
/// start with a letter, which is neither; only a line that starts with white space or a
/// non-ASCII character is trimmed (Unicode white space) first.
fn line_kind(line: &str) -> (bool, bool) {
    match line.as_bytes().first() {
        Some(b) if b.is_ascii_alphabetic() => (false, false),
        Some(&b) if b.is_ascii() && !(b as char).is_whitespace() => (false, starts_block(line)),
        _ => (line.trim_start().is_empty(), starts_block(line)),
    }
}

/// The block of [`blocks`] that holds the byte at `at`.
pub(super) fn block_at(blocks: &[usize], at: usize) -> (usize, usize) {
    let i = blocks.partition_point(|c| *c <= at);
    (blocks.get(i.saturating_sub(1)).copied().unwrap_or(0), blocks.get(i).copied().unwrap_or(at + 1))
}

/// The piece between two cuts of [`sentences`] that holds the byte at `at`, found from there
/// alone, within its block and not before `floor` (a cut: where the piece before ends). It is
/// a sentence when [`kept`].
pub(super) fn piece_at(
    body: &str,
    (block_start, block_end): (usize, usize),
    floor: usize,
    at: usize,
) -> (usize, usize) {
    let bytes = body.as_bytes();
    let floor = if floor <= at { floor.max(block_start) } else { block_start };
    let start = last_cut(bytes, floor + 1, at).unwrap_or(floor);
    let end = next_cut(bytes, at + 1, block_end).unwrap_or(block_end);
    (start, end)
}

// A cut of [`inner_cut`] at `i` has `<` at `i`, or `.`, `!`, `?` or `>` at `i - 1`: the two
// searches below visit only those bytes, found with memchr, instead of testing every byte.

/// The cut a byte of [`inner_cut`]'s marks at `q` may make: before a `<`, after the others.
fn cut_by(bytes: &[u8], q: usize) -> usize {
    if bytes.get(q) == Some(&b'<') { q } else { q + 1 }
}

/// The first cut of [`inner_cut`] in `lo..hi` (1 <= `lo`, `hi` <= the length).
fn next_cut(bytes: &[u8], lo: usize, hi: usize) -> Option<usize> {
    let mut from = lo.checked_sub(1)?;
    // The next `<` or `>`: rare in prose, so searched for again only once passed.
    let mut angle = None;
    while from < hi {
        let window = bytes.get(from..hi)?;
        if angle.is_none_or(|a| a < from) {
            angle = Some(memchr::memchr2(b'<', b'>', window).map_or(hi, |i| from + i));
        }
        let stop = memchr::memchr3(b'.', b'!', b'?', window).map_or(hi, |i| from + i);
        let q = stop.min(angle.unwrap_or(hi));
        if q >= hi {
            return None;
        }
        // Cuts only move forward with their marks: past `hi`, none is left.
        let i = cut_by(bytes, q);
        if i >= hi {
            return None;
        }
        if i >= lo && inner_cut(bytes, i) {
            return Some(i);
        }
        from = q + 1;
    }
    None
}

/// The last cut of [`inner_cut`] in `lo..=hi` (1 <= `lo`, `hi` < the length).
fn last_cut(bytes: &[u8], lo: usize, hi: usize) -> Option<usize> {
    if lo > hi {
        return None;
    }
    let base = lo - 1;
    let mut to = hi + 1;
    let mut angle: Option<Option<usize>> = None;
    while to > base {
        let window = bytes.get(base..to)?;
        if angle.is_none_or(|a| a.is_some_and(|a| a >= to)) {
            angle = Some(memchr::memrchr2(b'<', b'>', window).map(|i| base + i));
        }
        let stop = memchr::memrchr3(b'.', b'!', b'?', window).map(|i| base + i);
        let q = stop.max(angle.flatten())?;
        let i = cut_by(bytes, q);
        if i < lo {
            return None;
        }
        if i <= hi && inner_cut(bytes, i) {
            return Some(i);
        }
        to = q;
    }
    None
}

/// Whether a piece between two cuts is long enough to be a sentence.
pub(super) fn kept(body: &str, start: usize, end: usize) -> bool {
    body.get(start..end).is_some_and(|piece| piece.trim().len() > 3)
}

/// Whether a line starts a block: a heading, a table row, a list item or a quote.
fn starts_block(line: &str) -> bool {
    let trimmed = line.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    trimmed.starts_with(['#', '|', '-', '*', '+', '>'])
        || (digits > 0 && matches!(trimmed.as_bytes().get(digits), Some(b'.' | b')')))
}

/// Whether `.`, `!` or `?` and a space end a sentence before byte `i` ("e.g. " does not).
#[inline]
fn ends_sentence(bytes: &[u8], i: usize) -> bool {
    let Some(&[mark, space]) = i.checked_sub(1).and_then(|before| bytes.get(before..=i)) else {
        return false;
    };
    if !(matches!(mark, b'.' | b'!' | b'?') && matches!(space, b' ' | b'\t' | b'\n' | b'\r')) {
        return false;
    }
    let before = bytes.get(i.saturating_sub(4)..i).unwrap_or_default();
    !before.ends_with(b"e.g.") && !before.ends_with(b"i.e.") && !before.ends_with(b"etc.")
}

/// Whether [`sentences`] cuts a block at byte `i` (0 < `i` < the body's length): a comment's
/// start or end, or the end of a sentence.
#[inline]
fn inner_cut(bytes: &[u8], i: usize) -> bool {
    bytes.get(i..).is_some_and(|rest| rest.starts_with(b"<!--"))
        || bytes.get(..i).is_some_and(|before| before.ends_with(b"-->"))
        || ends_sentence(bytes, i)
}

/// Whether the byte at `at` of the sentence is quoted or inline code.
pub(super) fn quoted(sentence: &str, at: usize) -> bool {
    within(&mentioned_spans(sentence), at)
}

fn within(spans: &[(usize, usize)], at: usize) -> bool {
    spans.iter().any(|(s, e)| *s <= at && at < *e)
}

/// The first match of `verb` that is not quoted.
pub(super) fn said<'a>(verb: &Regex, sentence: &'a str) -> Option<regex::Match<'a>> {
    first_unquoted(verb, sentence, |_| true)
}

/// The first match of `verb` that is not quoted and is said as a command (or anywhere, in
/// hidden text, which has no reason to be there but to be obeyed).
pub(super) fn commanded<'a>(verb: &Regex, sentence: &'a str, hidden: bool) -> Option<regex::Match<'a>> {
    first_unquoted(verb, sentence, |at| hidden || imperative(sentence, at))
}

/// The first match of `verb` that is not quoted and passes `also`. The sentence's quoted
/// spans are found once, at its first match: a verb pattern matches a sentence several times.
fn first_unquoted<'a>(verb: &Regex, sentence: &'a str, also: impl Fn(usize) -> bool) -> Option<regex::Match<'a>> {
    let spans = std::cell::OnceCell::new();
    verb.find_iter(sentence)
        .find(|m| !within(spans.get_or_init(|| mentioned_spans(sentence)), m.start()) && also(m.start()))
}

/// Words that may stand before an imperative verb in its clause: "then", "you must",
/// "make sure to", "silently".
const LEAD_INS: &[&str] = &[
    "then",
    "and",
    "also",
    "now",
    "first",
    "next",
    "finally",
    "always",
    "immediately",
    "automatically",
    "silently",
    "quietly",
    "secretly",
    "please",
    "just",
    "simply",
    "you",
    "must",
    "should",
    "will",
    "need",
    "to",
    "have",
    "make",
    "sure",
    "be",
    "remember",
    "important",
    "note",
    "critical",
    "required",
    "mandatory",
    "step",
    "do",
    "so",
    "still",
    "additionally",
    "afterwards",
    "afterward",
    "after",
    "that",
    "this",
    "it",
    "before",
    "proceeding",
    "otherwise",
];

/// Whether the verb at `at` starts its clause as a command: nothing before it in the clause
/// but lead-ins ("Then read ...", "You must send ..."). A description ("The tool sends ...",
/// "enables agents to sync ...") has a subject or another verb before it.
pub(super) fn imperative(sentence: &str, at: usize) -> bool {
    let Some(before) = sentence.get(..at) else {
        return false;
    };
    let clause = before.rsplit([',', ';', ':', '(', '\u{2014}', '!']).next().unwrap_or(before);
    clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty() && !w.bytes().all(|b| b.is_ascii_digit()))
        .all(|w| LEAD_INS.iter().any(|lead_in| lead_in.eq_ignore_ascii_case(w)))
}

/// Whether the sentence as a whole is a command: its first word is a verb of doing.
pub(super) fn starts_imperative(sentence: &str) -> bool {
    const STARTS: &[&str] = &[
        "run",
        "start",
        "restart",
        "launch",
        "use",
        "pass",
        "add",
        "invoke",
        "execute",
        "always",
        "set",
        "enable",
        "open",
        "call",
        "append",
        "include",
        "configure",
        "spawn",
        "then",
        "now",
        "first",
        "please",
        "make",
        "ensure",
        "you",
        "remember",
        "relaunch",
        "switch",
        "turn",
        "disable",
        "bypass",
        "skip",
    ];
    sentence
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty() && !w.bytes().all(|b| b.is_ascii_digit()))
        .is_some_and(|w| STARTS.contains(&w.to_ascii_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cuts and blocks found by their marks are those a visit of every byte or line finds.
    #[test]
    fn cuts_and_blocks_found_by_their_marks_are_those_of_every_byte() {
        let pieces = [
            ".", "!", "?", " ", "\t", "\n", "\r\n", "<!--", "-->", "<", ">", "e.g.", "etc.", "word", "é", "\u{A0}",
            "#", "- ", "12.", "3)", "|", "\n\n", "  ", "x", "\u{B}",
        ];
        let every_line = |body: &str| {
            let mut cuts = vec![0];
            let mut offset = 0;
            for line in body.split_inclusive('\n') {
                let blank = line.trim_start().is_empty();
                if blank || starts_block(line) {
                    cuts.push(offset);
                }
                offset += line.len();
                if blank {
                    cuts.push(offset);
                }
            }
            cuts.push(body.len());
            cuts.dedup();
            cuts
        };
        let mut state = 0x1F12_3BB5_u32;
        let mut cuts_found = 0;
        for _ in 0..20_000 {
            let body = crate::pieces_mixed(&pieces, 14, &mut state);
            assert_eq!(blocks(&body), every_line(&body), "{body:?}");
            let bytes = body.as_bytes();
            for lo in 1..bytes.len() {
                let next = (lo..bytes.len()).find(|i| inner_cut(bytes, *i));
                assert_eq!(next_cut(bytes, lo, bytes.len()), next, "{body:?} from {lo}");
                let last = (lo..bytes.len()).rev().find(|i| inner_cut(bytes, *i));
                assert_eq!(last_cut(bytes, lo, bytes.len() - 1), last, "{body:?} back to {lo}");
                for hi in lo..bytes.len() {
                    let next = (lo..hi).find(|i| inner_cut(bytes, *i));
                    assert_eq!(next_cut(bytes, lo, hi), next, "{body:?} in {lo}..{hi}");
                    let last = (lo..=hi).rev().find(|i| inner_cut(bytes, *i));
                    assert_eq!(last_cut(bytes, lo, hi), last, "{body:?} in {lo}..={hi}");
                    cuts_found += usize::from(next.is_some());
                }
            }
        }
        assert!(cuts_found > 100_000, "the mixes should hold cuts: {cuts_found}");
    }

    #[test]
    fn the_sentence_around_a_byte_is_the_one_the_whole_split_finds() {
        let bodies = [
            "# Title\n\nFirst read the file. Then send it, e.g. to the team!\n- item one\n- item two? yes\n",
            "1. Download it\n2) Run it.\n   continued here\n\n> quoted. text\n| a | b |\nplain <!-- hidden. --> after\n",
            "é ü. Ça va? Oui.\tNon.\r\nend etc. more i.e. this\n   \n\nlast line without newline",
            "a. b\n\n\nc",
        ];
        for body in bodies {
            let whole = sentences(body);
            for at in (0..body.len()).filter(|i| body.is_char_boundary(*i)) {
                let block = block_at(&blocks(body), at);
                let (start, end) = piece_at(body, block, 0, at);
                assert!(start <= at && at < end, "{body:?} at {at}");
                let listed = whole.iter().find(|(s, e)| *s <= at && at < *e);
                match listed {
                    Some(sentence) => assert_eq!(*sentence, (start, end), "{body:?} at {at}"),
                    None => assert!(!kept(body, start, end), "{body:?} at {at}: {start}..{end}"),
                }
            }
        }
    }
}
