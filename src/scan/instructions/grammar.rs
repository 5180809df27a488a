//! How the instruction reader reads prose: HTML comments, sentences, quoted text, and whether
//! a verb is said as a command.

use regex::Regex;

use crate::scan::text::mentioned_spans;

/// Byte ranges of `<!-- ... -->` comments (an unclosed one runs to the end).
pub(super) fn html_comments(body: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = body[from..].find("<!--") {
        let start = from + i;
        let end = body[start + 4..].find("-->").map_or(body.len(), |j| start + 4 + j + 3);
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
        while let Some(i) = body[from..].find(marker) {
            cuts.push(from + i + if marker == "-->" { 3 } else { 0 });
            from += i + marker.len();
        }
    }
    let bytes = body.as_bytes();
    cuts.extend((1..bytes.len()).filter(|i| ends_sentence(bytes, *i)));
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2).map(|w| (w[0], w[1])).filter(|(s, e)| kept(body, *s, *e)).collect()
}

/// The cuts of [`sentences`] that lines make, in order, from 0 to the body's end: where a
/// block starts (a blank line, a heading, a table row, a list item, a quote) and where a
/// blank line ends. No sentence crosses one.
pub(super) fn blocks(body: &str) -> Vec<usize> {
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
}

/// The block of [`blocks`] that holds the byte at `at`.
pub(super) fn block_at(blocks: &[usize], at: usize) -> (usize, usize) {
    let i = blocks.partition_point(|c| *c <= at);
    (blocks[i.saturating_sub(1)], blocks.get(i).copied().unwrap_or(at + 1))
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
    let start = (floor + 1..=at).rev().find(|i| inner_cut(bytes, *i)).unwrap_or(floor);
    let end = (at + 1..block_end).find(|i| inner_cut(bytes, *i)).unwrap_or(block_end);
    (start, end)
}

/// Whether a piece between two cuts is long enough to be a sentence.
pub(super) fn kept(body: &str, start: usize, end: usize) -> bool {
    body.is_char_boundary(start) && body.is_char_boundary(end) && body[start..end].trim().len() > 3
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
    if !(matches!(bytes[i - 1], b'.' | b'!' | b'?') && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r')) {
        return false;
    }
    let before = &bytes[i.saturating_sub(4)..i];
    !before.ends_with(b"e.g.") && !before.ends_with(b"i.e.") && !before.ends_with(b"etc.")
}

/// Whether [`sentences`] cuts a block at byte `i` (0 < `i` < the body's length): a comment's
/// start or end, or the end of a sentence.
#[inline]
fn inner_cut(bytes: &[u8], i: usize) -> bool {
    bytes[i..].starts_with(b"<!--") || (i >= 3 && &bytes[i - 3..i] == b"-->") || ends_sentence(bytes, i)
}

/// Whether the byte at `at` of the sentence is quoted or inline code.
pub(super) fn quoted(sentence: &str, at: usize) -> bool {
    mentioned_spans(sentence).iter().any(|(s, e)| *s <= at && at < *e)
}

/// The first match of `verb` that is not quoted.
pub(super) fn said<'a>(verb: &Regex, sentence: &'a str) -> Option<regex::Match<'a>> {
    verb.find_iter(sentence).find(|m| !quoted(sentence, m.start()))
}

/// The first match of `verb` that is not quoted and is said as a command (or anywhere, in
/// hidden text, which has no reason to be there but to be obeyed).
pub(super) fn commanded<'a>(verb: &Regex, sentence: &'a str, hidden: bool) -> Option<regex::Match<'a>> {
    verb.find_iter(sentence).find(|m| !quoted(sentence, m.start()) && (hidden || imperative(sentence, m.start())))
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
    let before = &sentence[..at];
    let clause = before.rsplit([',', ';', ':', '(', '\u{2014}', '!']).next().unwrap_or(before);
    clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty() && !w.bytes().all(|b| b.is_ascii_digit()))
        .all(|w| LEAD_INS.contains(&w.to_ascii_lowercase().as_str()))
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
