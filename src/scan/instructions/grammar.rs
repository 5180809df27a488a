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
    let mut cuts = vec![0];
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let starts_block = trimmed.is_empty()
            || trimmed.starts_with(['#', '|', '-', '*', '+', '>'])
            || trimmed
                .split_once(['.', ')'])
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if starts_block {
            cuts.push(offset);
        }
        offset += line.len();
        if trimmed.is_empty() {
            cuts.push(offset);
        }
    }
    for marker in ["<!--", "-->"] {
        let mut from = 0;
        while let Some(i) = body[from..].find(marker) {
            cuts.push(from + i + if marker == "-->" { 3 } else { 0 });
            from += i + marker.len();
        }
    }
    let bytes = body.as_bytes();
    for i in 1..bytes.len() {
        if matches!(bytes[i - 1], b'.' | b'!' | b'?') && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
            // "e.g. " and "i.e. " do not end a sentence.
            let before = &bytes[i.saturating_sub(4)..i];
            if !before.ends_with(b"e.g.") && !before.ends_with(b"i.e.") && !before.ends_with(b"etc.") {
                cuts.push(i);
            }
        }
    }
    cuts.push(body.len());
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|(s, e)| body.is_char_boundary(*s) && body.is_char_boundary(*e) && body[*s..*e].trim().len() > 3)
        .collect()
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
