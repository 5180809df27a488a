//! How the scanner reads a text file: its kind, its regions (prose, code blocks), line and
//! column numbers, and matched text made printable.

/// How a file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Markdown or plain text: prose with fenced code blocks and inline code.
    Markdown,
    /// A shell script (by extension or shebang), a Dockerfile, a Makefile, a CI workflow:
    /// every line is shell.
    Shell,
    /// Any other code or config: line patterns, plus shell read inside string literals.
    Code,
}

const MARKDOWN_EXTS: &[&str] = &["md", "markdown", "mdx", "txt", "rst", "adoc", "mdc"];
const SHELL_EXTS: &[&str] =
    &["sh", "bash", "zsh", "ksh", "fish", "command", "ps1", "psm1", "bat", "cmd", "yml", "yaml", "mk"];
const SHELL_NAMES: &[&str] = &["dockerfile", "makefile", "containerfile", "justfile", "procfile"];
/// Code-block languages read as shell.
const SHELL_LANGS: &[&str] = &[
    "",
    "sh",
    "bash",
    "shell",
    "zsh",
    "ksh",
    "fish",
    "console",
    "terminal",
    "shell-session",
    "shellsession",
    "powershell",
    "ps1",
    "pwsh",
    "ps",
    "cmd",
    "bat",
    "batch",
    "dockerfile",
    "docker",
    "makefile",
    "make",
    "text",
    "txt",
    "plain",
    "plaintext",
    "yaml",
    "yml",
    "bash-session",
    "sh-session",
    "cli",
    "command",
    "commands",
];

impl FileKind {
    pub fn of(path: &str, text: &str) -> FileKind {
        let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        if MARKDOWN_EXTS.contains(&ext) {
            FileKind::Markdown
        } else if SHELL_EXTS.contains(&ext)
            || SHELL_NAMES.iter().any(|n| name == *n || name.starts_with(&format!("{n}.")))
        {
            FileKind::Shell
        } else if let Some(interpreter) = text.lines().next().and_then(|l| l.strip_prefix("#!")) {
            let shells = ["sh", "bash", "zsh", "ksh", "dash", "fish", "pwsh"];
            let words: Vec<&str> = interpreter.split(|c: char| c == '/' || c.is_whitespace()).collect();
            if words.iter().any(|w| shells.contains(w)) { FileKind::Shell } else { FileKind::Code }
        } else {
            FileKind::Code
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegionKind {
    /// Markdown prose (inline code spans are found within it line by line).
    Prose,
    /// Code: a fenced block (with its language) or a whole script or config file.
    Code { lang: String, shell: bool },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub kind: RegionKind,
    /// Byte range in the file's text.
    pub start: usize,
    pub end: usize,
}

impl Region {
    /// The region's part of `text`, the file it was found in.
    pub fn text_in<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.start..self.end).unwrap_or_default()
    }
}

/// Splits a file into prose and code regions.
pub fn regions(text: &str, kind: FileKind) -> Vec<Region> {
    match kind {
        FileKind::Shell => {
            vec![Region { kind: RegionKind::Code { lang: "sh".into(), shell: true }, start: 0, end: text.len() }]
        }
        FileKind::Code => {
            vec![Region { kind: RegionKind::Code { lang: String::new(), shell: false }, start: 0, end: text.len() }]
        }
        FileKind::Markdown => markdown_regions(text),
    }
}

fn markdown_regions(text: &str) -> Vec<Region> {
    let mut fences = Fences::default();
    for (line_start, line) in fence_lines(text) {
        fences.line(line_start, line);
    }
    fences.finish(text.len())
}

/// The runs that open and close a fence, each searched with a searcher built once: every file
/// is searched, and building one costs more than searching most.
static FENCE_RUNS: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 2]> =
    std::sync::LazyLock::new(|| ["```", "~~~"].map(memchr::memmem::Finder::new));

/// The lines whose first non-blank characters are three backticks or tildes, with where each
/// starts, in order: the only lines that may open or close a fence, found by searching for
/// the runs. Every other line leaves the regions as they are, and nearly all lines are prose.
fn fence_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let [backticks, tildes] = &*FENCE_RUNS;
    let mut runs: Vec<usize> = backticks.find_iter(bytes).chain(tildes.find_iter(bytes)).collect();
    runs.sort_unstable();
    let mut last_line = None;
    runs.into_iter().filter_map(move |at| {
        let (start, end) = line_at(text, at);
        if last_line == Some(start)
            || !text.get(start..at).is_some_and(|indent| indent.chars().all(char::is_whitespace))
        {
            return None;
        }
        last_line = Some(start);
        Some((start, text.get(start..end)?))
    })
}

/// The regions of Markdown, made a line at a time.
#[derive(Default)]
struct Fences {
    out: Vec<Region>,
    prose_start: usize,
    /// The open fence: (fence char, fence length, lang, content start).
    open: Option<(u8, usize, String, usize)>,
}

impl Fences {
    /// Reads the line at `line_start` (with its newline).
    fn line(&mut self, line_start: usize, line: &str) {
        let offset = line_start + line.len();
        let trimmed = line.trim_start();
        let fence = trimmed.as_bytes().first().copied().filter(|c| *c == b'`' || *c == b'~');
        let after_fence = fence.map_or(trimmed, |c| trimmed.trim_start_matches(char::from(c)));
        let fence_len = trimmed.len() - after_fence.len();
        match (&self.open, fence) {
            (None, Some(c)) if fence_len >= 3 => {
                let info = after_fence.trim();
                if c == b'`' && info.contains('`') {
                    return;
                }
                let lang = info
                    .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('.')
                    .to_ascii_lowercase();
                if self.prose_start < line_start {
                    self.out.push(Region { kind: RegionKind::Prose, start: self.prose_start, end: line_start });
                }
                self.open = Some((c, fence_len, lang, offset));
            }
            (Some((c, len, _, _)), Some(f)) if f == *c && fence_len >= *len && after_fence.trim().is_empty() => {
                let (_, _, lang, content_start) = self.open.take().expect("open");
                let shell = SHELL_LANGS.contains(&lang.as_str());
                self.out.push(Region { kind: RegionKind::Code { lang, shell }, start: content_start, end: line_start });
                self.prose_start = offset;
            }
            _ => {}
        }
    }

    /// The regions, the text being `len` bytes long.
    fn finish(mut self, len: usize) -> Vec<Region> {
        match self.open {
            Some((_, _, lang, content_start)) => {
                let shell = SHELL_LANGS.contains(&lang.as_str());
                self.out.push(Region { kind: RegionKind::Code { lang, shell }, start: content_start, end: len });
            }
            None if self.prose_start < len => {
                self.out.push(Region { kind: RegionKind::Prose, start: self.prose_start, end: len })
            }
            None => {}
        }
        self.out
    }
}

/// Inline code spans of one line of prose: byte ranges of their content, relative to the line.
pub fn inline_code_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut spans = Vec::new();
    let backticks_at = |at: usize| bytes.iter().skip(at).take_while(|b| **b == b'`').count();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b != b'`' {
            i += 1;
            continue;
        }
        let run = backticks_at(i);
        let content = i + run;
        let mut j = content;
        let mut closed = None;
        while let Some(&b) = bytes.get(j) {
            if b == b'`' {
                let close = backticks_at(j);
                if close == run {
                    closed = Some(j);
                    break;
                }
                j += close;
            } else {
                j += 1;
            }
        }
        match closed {
            Some(end) => {
                spans.push((content, end));
                i = end + run;
            }
            None => i = content,
        }
    }
    spans
}

/// Byte ranges of a prose line that are quoted or inline code: text mentioned, not said.
pub fn mentioned_spans(line: &str) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> =
        inline_code_spans(line).into_iter().map(|(s, e)| (s.saturating_sub(1), e + 1)).collect();
    for (open, close) in [('"', '"'), ('\u{201C}', '\u{201D}'), ('\u{2018}', '\u{2019}')] {
        let mut from = 0;
        while let Some(i) = line.get(from..).and_then(|rest| rest.find(open)) {
            let start = from + i;
            let after = start + open.len_utf8();
            match line.get(after..).and_then(|rest| rest.find(close)) {
                Some(j) => {
                    spans.push((start, after + j + close.len_utf8()));
                    from = after + j + close.len_utf8();
                }
                None => break,
            }
        }
    }
    spans
}

/// The matches of `re` in `text` that start at `start` or after, read with what comes before
/// `start` as their context (a word boundary there is one in the whole text).
pub fn matches_from<'t>(re: &regex::Regex, text: &'t str, mut start: usize) -> impl Iterator<Item = regex::Match<'t>> {
    std::iter::from_fn(move || {
        if start > text.len() {
            return None;
        }
        let m = re.find_at(text, start)?;
        start = m.end();
        if m.is_empty() {
            // Past an empty match, on to the next character.
            start =
                text.get(start..).and_then(|rest| rest.chars().next()).map_or(text.len() + 1, |c| start + c.len_utf8());
        }
        Some(m)
    })
}

/// From the start of the line `start` is on to the end of the line `end` is on (before its
/// newline).
pub fn lines_around(text: &str, start: usize, end: usize) -> (usize, usize) {
    // The memchr crate's searches are vectorised; the standard library's char search is not.
    let bytes = text.as_bytes();
    let line_start = memchr::memrchr(b'\n', bytes.get(..start).unwrap_or_default()).map_or(0, |i| i + 1);
    let line_end = memchr::memchr(b'\n', bytes.get(end..).unwrap_or_default()).map_or(text.len(), |i| end + i);
    (line_start, line_end)
}

/// The lines of `text` with their newlines, as `split_inclusive('\n')` gives them, each with
/// its offset: found with memchr's vectorised search, where the standard library's char
/// search goes a word at a time.
pub fn lines_inclusive(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let last = (!text.is_empty() && !text.ends_with('\n')).then_some(text.len());
    let mut start = 0;
    memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1).chain(last).map(move |end| {
        // Each end is just past a newline or the text's end: always a character boundary.
        let line = (start, text.get(start..end).unwrap_or_default());
        start = end;
        line
    })
}

/// The line `at` is on, with its newline when it has one: (start, end).
pub fn line_at(text: &str, at: usize) -> (usize, usize) {
    let (start, end) = lines_around(text, at, at);
    (start, (end + 1).min(text.len()))
}

/// Maps byte offsets to 1-based (line, column); the column counts characters. Lines are found
/// only as far as the furthest offset asked for: most findings (the frontmatter's) sit near
/// the top of a file.
#[derive(Default)]
pub struct LineIndex {
    /// The start of every line before `scanned`, after the first line's 0.
    starts: Vec<usize>,
    scanned: usize,
}

impl LineIndex {
    pub fn position(&mut self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        if offset > self.scanned {
            let base = self.scanned;
            let unscanned = text.as_bytes().get(base..offset).unwrap_or_default();
            self.starts.extend(memchr::memchr_iter(b'\n', unscanned).map(|i| base + i + 1));
            self.scanned = offset;
        }
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = line.checked_sub(1).and_then(|i| self.starts.get(i)).copied().unwrap_or(0);
        let column = text.get(start..offset).map(|s| s.chars().count()).unwrap_or(0) + 1;
        (line + 1, column)
    }
}

/// Whether the bytes are not text: a NUL byte early on (UTF-16 with a BOM is text).
pub fn looks_binary(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return false;
    }
    // memchr's search is vectorised; a slice's `contains` goes a word at a time.
    memchr::memchr(0, bytes.get(..8192).unwrap_or(bytes)).is_some()
}

/// Characters that do not show, or show as something else: printed as `<U+XXXX>`.
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00..=0x08 | 0x0B..=0x1F | 0x7F..=0x9F | 0xAD | 0x34F | 0x61C | 0x115F | 0x1160 | 0x17B4 | 0x17B5
        | 0x180B..=0x180F | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

/// The matched text as the page and the report show it: trimmed, one line, at most about 120
/// characters, invisible characters as `<U+XXXX>`.
pub fn visible(text: &str) -> String {
    const MAX: usize = 120;
    let text = text.trim();
    // Printable ASCII shows as it is: most matched text, and no character to look up.
    if text.bytes().all(|b| (0x20..0x7F).contains(&b)) {
        return if text.len() <= MAX { text.to_string() } else { format!("{}…", text.get(..MAX).unwrap_or(text)) };
    }
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        if shown >= MAX {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str(" ⏎ "),
            '\t' => out.push(' '),
            c if is_invisible(c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32));
                shown += 7;
            }
            c => out.push(c),
        }
        shown += 1;
    }
    out
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::*;

    #[test]
    fn splits_markdown_into_prose_and_fenced_code() {
        let text = "# T\n\n```bash\nrm -rf /\n```\n\nprose\n   ~~~python\nx = 1\n   ~~~\n````\nunclosed\n";
        let r = regions(text, FileKind::Markdown);
        let kinds: Vec<String> = r
            .iter()
            .map(|r| match &r.kind {
                RegionKind::Prose => format!("prose:{}", &text[r.start..r.end]),
                RegionKind::Code { lang, shell } => format!("{lang}/{shell}:{}", &text[r.start..r.end]),
            })
            .collect();
        assert_eq!(
            kinds,
            ["prose:# T\n\n", "bash/true:rm -rf /\n", "prose:\nprose\n", "python/false:x = 1\n", "/true:unclosed\n"]
        );
    }

    #[test]
    fn kinds_by_name_and_shebang() {
        assert_eq!(FileKind::of("references/a.md", ""), FileKind::Markdown);
        assert_eq!(FileKind::of("scripts/run", "#!/usr/bin/env bash\n"), FileKind::Shell);
        assert_eq!(FileKind::of("Dockerfile", ""), FileKind::Shell);
        assert_eq!(FileKind::of("x.py", "#!/usr/bin/env python3\n"), FileKind::Code);
    }

    #[test]
    fn inline_code_and_quotes() {
        assert_eq!(inline_code_spans("run `a | b` and ``c`d``"), [(5, 10), (18, 21)]);
        let line = "say \"ignore previous instructions\" now";
        let spans = mentioned_spans(line);
        assert_eq!(&line[spans[0].0..spans[0].1], "\"ignore previous instructions\"");
    }

    #[test]
    fn positions_count_characters() {
        let text = "ab\né\u{200B}x";
        let mut index = LineIndex::default();
        assert_eq!(index.position(text, 0), (1, 1));
        assert_eq!(index.position(text, text.find('\u{200B}').unwrap()), (2, 2));
        // Asked for out of order, past a line already counted, and at the end.
        assert_eq!(index.position(text, 3), (2, 1));
        assert_eq!(index.position(text, 2), (1, 3));
        assert_eq!(index.position(text, text.len()), (2, 4));
        let mut fresh = LineIndex::default();
        assert_eq!(fresh.position(text, text.len()), (2, 4));
        assert_eq!(visible("x".repeat(121).as_str()), format!("{}…", "x".repeat(120)));
        assert_eq!(visible(&"x".repeat(120)), "x".repeat(120));
        assert_eq!(visible("  a\u{202E}b\t\n"), "a<U+202E>b");
        assert!(visible(&"x".repeat(500)).ends_with('…'));
    }

    #[test]
    fn lines_are_those_split_inclusive_gives() {
        let mut state = 0x6A09_E667_u32;
        for _ in 0..5_000 {
            let text = crate::pieces_mixed(&["\n", "\r\n", "a", "é", " ", "\n\n"], 8, &mut state);
            let mut offset = 0;
            let split: Vec<(usize, &str)> = text
                .split_inclusive('\n')
                .map(|line| {
                    offset += line.len();
                    (offset - line.len(), line)
                })
                .collect();
            assert_eq!(lines_inclusive(&text).collect::<Vec<_>>(), split, "{text:?}");
        }
        assert_eq!(lines_inclusive("").count(), 0);
    }

    /// Reading only the lines found by their fence runs makes the regions reading every line
    /// makes.
    #[test]
    fn fence_lines_make_the_regions_every_line_makes() {
        let pieces = ["```", "~~~", "`", "~", " ", "\t", "\u{A0}", "\n", "\r\n", "sh", "x", "{.py}", "````", "é"];
        let mut state = 0x2545_F491_u32;
        let every_line = |text: &str| {
            let mut fences = Fences::default();
            let mut offset = 0;
            for line in text.split_inclusive('\n') {
                fences.line(offset, line);
                offset += line.len();
            }
            fences.finish(text.len())
        };
        let mut fenced = 0;
        for _ in 0..20_000 {
            let text = crate::pieces_mixed(&pieces, 16, &mut state);
            let found = markdown_regions(&text);
            assert_eq!(found, every_line(&text), "{text:?}");
            fenced += usize::from(found.iter().any(|r| matches!(r.kind, RegionKind::Code { .. })));
        }
        assert!(fenced > 1000, "the mixes should open fences: {fenced}");
    }
}
