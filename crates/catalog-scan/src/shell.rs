//! A small reader of POSIX-shell (and PowerShell-ish) command lines: lists of pipelines of
//! simple commands, each a list of words and redirections, with quotes removed and command
//! substitutions (`$(...)`, backticks, `<(...)`) read recursively.
//!
//! It is not a full shell parser (no here-document bodies, no arithmetic, no case patterns);
//! it reads what safety rules need, never fails, and keeps byte offsets so findings point at
//! the right column. Written here rather than taken from a crate: `shell-words` splits words
//! but knows no pipelines or substitutions, and `conch-parser` is unmaintained and rejects
//! the partial, prompt-prefixed and PowerShell lines that skills are full of. What needs a
//! whole script's syntax (variables, heredocs, strings run by `sh -c`) is read by
//! [`crate::script::shell`] with tree-sitter-bash.

/// Nesting deeper than this is read as plain text.
const MAX_DEPTH: usize = 12;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word with quotes and escapes removed; substitutions kept as written (`$(...)`).
    pub text: String,
    /// Scripts of the substitutions inside the word.
    pub subs: Vec<Sub>,
    /// Byte range within the text that was read.
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sub {
    pub kind: SubKind,
    pub script: Script,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubKind {
    /// `$(...)` or backticks: the output becomes text.
    Command,
    /// `<(...)`: the output becomes a file to read.
    ProcessIn,
    /// `>(...)`
    ProcessOut,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// `>`, `>>`, `<`, `<<`, `<<<`, `&>`, `>&`, `>|`, with any fd number dropped.
    pub op: String,
    pub target: Word,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// Every word, assignments and wrappers (`sudo`, `env`) included.
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// Which pipeline of the script it belongs to, and its stage within it.
    pub pipeline: usize,
    pub stage: usize,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    pub commands: Vec<Command>,
}

impl Script {
    /// Commands grouped by pipeline, in order.
    pub fn pipelines(&self) -> Vec<&[Command]> {
        self.commands.chunk_by(|a, b| a.pipeline == b.pipeline).collect()
    }

    /// Every command, including those inside substitutions, depth first.
    pub fn walk(&self, visit: &mut dyn FnMut(&Command)) {
        for command in &self.commands {
            visit(command);
            for word in command.words.iter().chain(command.redirects.iter().map(|r| &r.target)) {
                for sub in &word.subs {
                    sub.script.walk(visit);
                }
            }
        }
    }
}

/// Reads `text`; offsets in the result are `base` plus offsets in `text`.
pub fn parse(text: &str, base: usize) -> Script {
    let mut parser = Parser { s: text.as_bytes(), text, pos: 0, base, pipeline: 0 };
    parser.list(None, 0)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    base: usize,
    pipeline: usize,
}

/// Words that start or join compound commands; dropped so the command after them is read.
const KEYWORDS: &[&str] = &["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "time"];

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn at(&self, lit: &str) -> bool {
        self.s.get(self.pos..).is_some_and(|rest| rest.starts_with(lit.as_bytes()))
    }

    /// The text from `start` up to the cursor.
    fn since(&self, start: usize) -> &str {
        self.text.get(start..self.pos).unwrap_or_default()
    }

    /// Reads commands until the end, or until `close` at depth > 0.
    fn list(&mut self, close: Option<u8>, depth: usize) -> Script {
        let mut script = Script::default();
        let mut stage = 0usize;
        let mut pipeline = self.next_pipeline();
        loop {
            self.skip_blanks();
            let Some(c) = self.peek() else { break };
            if Some(c) == close {
                self.pos += 1;
                break;
            }
            match c {
                b'#' => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.pos += 1;
                    }
                }
                b'\n' | b';' => {
                    self.pos += 1;
                    if self.peek() == Some(b';') {
                        self.pos += 1;
                    }
                    stage = 0;
                    pipeline = self.next_pipeline();
                }
                b'&' | b'|' if self.at("&&") || self.at("||") => {
                    self.pos += 2;
                    stage = 0;
                    pipeline = self.next_pipeline();
                }
                b'&' if !self.at("&>") => {
                    self.pos += 1;
                    stage = 0;
                    pipeline = self.next_pipeline();
                }
                b'|' => {
                    self.pos += 1;
                    if self.peek() == Some(b'&') {
                        self.pos += 1;
                    }
                    stage += 1;
                }
                b'(' => {
                    // A subshell: its commands join the surrounding flow as a new pipeline.
                    self.pos += 1;
                    if depth < MAX_DEPTH {
                        let inner = self.list(Some(b')'), depth + 1);
                        script.commands.extend(inner.commands);
                    }
                    pipeline = self.next_pipeline();
                    stage = 0;
                }
                b')' => {
                    self.pos += 1;
                }
                _ => {
                    let before = self.pos;
                    if let Some(mut command) = self.command(depth) {
                        command.pipeline = pipeline;
                        command.stage = stage;
                        script.commands.push(command);
                    }
                    if self.pos == before {
                        self.pos += 1;
                    }
                }
            }
        }
        script
    }

    fn next_pipeline(&mut self) -> usize {
        self.pipeline += 1;
        self.pipeline
    }

    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek() {
            if c == b' ' || c == b'\t' || c == b'\r' {
                self.pos += 1;
            } else if c == b'\\' && self.s.get(self.pos + 1) == Some(&b'\n') {
                self.pos += 2;
            } else {
                break;
            }
        }
    }

    fn command(&mut self, depth: usize) -> Option<Command> {
        let start = self.pos;
        let mut words = Vec::new();
        let mut redirects = Vec::new();
        loop {
            self.skip_blanks();
            let Some(c) = self.peek() else { break };
            if matches!(c, b'\n' | b';' | b'|' | b')') || (c == b'&' && !self.at("&>")) {
                break;
            }
            // A `#` that starts a word starts a comment, after a command's words as before them:
            // `curl ... | bash # note` runs bash on the download, not on a file named `#`.
            if c == b'#' {
                break;
            }
            if let Some(op) = self.redirect_op() {
                self.skip_blanks();
                let target = self.word(depth);
                redirects.push(Redirect { op, target });
                continue;
            }
            if c == b'(' && !words.is_empty() {
                // `f() { ...; }` or PowerShell `(...)`: read the parenthesised part as a word.
                let word = self.word(depth);
                words.push(word);
                continue;
            }
            if c == b'(' {
                break;
            }
            let word = self.word(depth);
            if word.start == word.end {
                break;
            }
            let is_keyword = words.is_empty() && KEYWORDS.contains(&word.text.as_str());
            if !is_keyword {
                words.push(word);
            }
        }
        if words.is_empty() && redirects.is_empty() {
            return None;
        }
        Some(Command { words, redirects, pipeline: 0, stage: 0, start: self.base + start, end: self.base + self.pos })
    }

    /// A redirection operator at the cursor (with an optional fd number before it).
    fn redirect_op(&mut self) -> Option<String> {
        let save = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        for op in ["&>>", "&>", "<<<", "<<-", "<<", ">>", ">&", ">|", "<>", "<&", ">", "<"] {
            if self.at(op) {
                // `<(` and `>(` are process substitutions, read as words.
                if (op == "<" || op == ">") && self.s.get(self.pos + 1) == Some(&b'(') {
                    break;
                }
                self.pos += op.len();
                let op = op.trim_end_matches('-');
                return Some(if op == "&>>" { ">>".to_string() } else { op.to_string() });
            }
        }
        self.pos = save;
        None
    }

    fn word(&mut self, depth: usize) -> Word {
        let start = self.pos;
        let mut text = String::new();
        let mut subs = Vec::new();
        let mut parens = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'|' | b'&' if parens == 0 => break,
                b'<' | b'>' if parens == 0 => {
                    if self.s.get(self.pos + 1) == Some(&b'(') && self.pos == start {
                        let kind = if c == b'<' { SubKind::ProcessIn } else { SubKind::ProcessOut };
                        let sub_start = self.pos;
                        self.pos += 2;
                        let script = self.nested(b')', depth);
                        text.push_str(self.since(sub_start));
                        subs.push(Sub { kind, script });
                    } else {
                        break;
                    }
                }
                b'(' => {
                    parens += 1;
                    text.push('(');
                    self.pos += 1;
                }
                b')' => {
                    if parens == 0 {
                        break;
                    }
                    parens -= 1;
                    text.push(')');
                    self.pos += 1;
                }
                b'\'' => {
                    self.pos += 1;
                    let from = self.pos;
                    while self.peek().is_some_and(|c| c != b'\'') {
                        self.pos += 1;
                    }
                    text.push_str(self.since(from));
                    if self.peek().is_some() {
                        self.pos += 1;
                    }
                }
                b'"' => {
                    self.pos += 1;
                    while let Some(c) = self.peek() {
                        match c {
                            b'"' => {
                                self.pos += 1;
                                break;
                            }
                            b'\\' => {
                                if let Some(next) = self.s.get(self.pos + 1) {
                                    if matches!(next, b'"' | b'\\' | b'$' | b'`') {
                                        text.push(*next as char);
                                        self.pos += 2;
                                    } else if *next == b'\n' {
                                        self.pos += 2;
                                    } else {
                                        text.push('\\');
                                        self.pos += 1;
                                    }
                                } else {
                                    self.pos += 1;
                                }
                            }
                            b'$' if self.at("$(") => self.dollar(&mut text, &mut subs, depth),
                            b'`' => self.backtick(&mut text, &mut subs, depth),
                            _ => self.push_char(&mut text),
                        }
                    }
                }
                b'\\' => {
                    self.pos += 1;
                    match self.peek() {
                        Some(b'\n') => self.pos += 1,
                        Some(_) => self.push_char(&mut text),
                        None => {}
                    }
                }
                b'$' if self.at("$(") || self.at("${") => self.dollar(&mut text, &mut subs, depth),
                b'`' => self.backtick(&mut text, &mut subs, depth),
                _ => self.push_char(&mut text),
            }
        }
        Word { text, subs, start: self.base + start, end: self.base + self.pos }
    }

    fn push_char(&mut self, text: &mut String) {
        // The cursor is always at a character's start; were it not, a byte is passed over.
        match self.text.get(self.pos..).and_then(|rest| rest.chars().next()) {
            Some(ch) => {
                text.push(ch);
                self.pos += ch.len_utf8();
            }
            None => self.pos += 1,
        }
    }

    /// `$(...)`, `$((...))` or `${...}` at the cursor.
    fn dollar(&mut self, text: &mut String, subs: &mut Vec<Sub>, depth: usize) {
        let start = self.pos;
        if self.at("$((") {
            self.pos += 3;
            self.skip_balanced(b'(', b')', 2);
        } else if self.at("${") {
            self.pos += 2;
            self.skip_balanced(b'{', b'}', 1);
        } else {
            self.pos += 2;
            let script = self.nested(b')', depth);
            subs.push(Sub { kind: SubKind::Command, script });
        }
        text.push_str(self.since(start));
    }

    fn backtick(&mut self, text: &mut String, subs: &mut Vec<Sub>, depth: usize) {
        let start = self.pos;
        self.pos += 1;
        let from = self.pos;
        while let Some(c) = self.peek().filter(|&c| c != b'`') {
            if c == b'\\' {
                self.pos += 1;
            }
            self.pos += self.text.get(self.pos..).map_or(1, |rest| rest.chars().next().map_or(0, char::len_utf8));
        }
        let to = self.pos.min(self.s.len());
        self.pos = to;
        if depth < MAX_DEPTH {
            let inner_text = self.text.get(..to).unwrap_or_default();
            let mut inner =
                Parser { s: inner_text.as_bytes(), text: inner_text, pos: from, base: self.base, pipeline: 0 };
            subs.push(Sub { kind: SubKind::Command, script: inner.list(None, depth + 1) });
        }
        if self.peek().is_some() {
            self.pos += 1;
        }
        text.push_str(self.since(start));
    }

    /// A nested list up to the matching `close`.
    fn nested(&mut self, close: u8, depth: usize) -> Script {
        if depth >= MAX_DEPTH {
            self.skip_balanced(b'(', close, 1);
            return Script::default();
        }
        let saved = self.pipeline;
        self.pipeline = 0;
        let script = self.list(Some(close), depth + 1);
        self.pipeline = saved;
        script
    }

    fn skip_balanced(&mut self, open: u8, close: u8, mut level: usize) {
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == open {
                level += 1;
            } else if c == close {
                level -= 1;
                if level == 0 {
                    return;
                }
            }
        }
        // Stop on a char boundary at the end.
        self.pos = self.s.len();
    }
}

/// The last path segment of a command word, lower-cased: `/usr/bin/Bash` -> `bash`.
pub fn program_name(word: &str) -> String {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let base = base.strip_suffix(".exe").unwrap_or(base);
    base.to_ascii_lowercase()
}

/// Programs that run the command that follows them.
const WRAPPERS: &[&str] = &[
    "sudo", "doas", "env", "nohup", "exec", "command", "builtin", "time", "nice", "ionice", "stdbuf", "unbuffer",
    "run", "run:",
];

/// The index of the word that is the program actually run, past assignments (`A=1`) and
/// wrappers (`sudo -E`, `env -i X=1`), and whether a privilege wrapper was passed.
pub fn program(command: &Command) -> Option<(usize, bool)> {
    let words = &command.words;
    let mut i = 0;
    let mut elevated = false;
    let mut last_wrapper = None;
    while let Some(word) = words.get(i) {
        let w = &word.text;
        if is_assignment(w) || w == "-" || w.eq_ignore_ascii_case("RUN") && i == 0 {
            i += 1;
            continue;
        }
        let name = program_name(w);
        if WRAPPERS.contains(&name.as_str()) {
            if name == "sudo" || name == "doas" {
                elevated = true;
            }
            last_wrapper = Some(i);
            i += 1;
            // Options of the wrapper, and their values for the few that take one.
            while let Some(option) = words.get(i).filter(|w| w.text.starts_with('-')) {
                let takes_value = matches!(option.text.as_str(), "-u" | "-g" | "-n" | "-C" | "-h" | "-p" | "-U");
                i += if takes_value && name != "env" { 2 } else { 1 };
            }
            continue;
        }
        return Some((i, elevated));
    }
    // A wrapper with nothing after it (`env`, `time`, a bare `sudo`) is the program itself,
    // and runs nothing as root.
    last_wrapper.map(|i| (i, false))
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::*;

    fn words(c: &Command) -> Vec<&str> {
        c.words.iter().map(|w| w.text.as_str()).collect()
    }

    #[test]
    fn reads_pipelines_and_lists() {
        let s = parse("curl -fsSL 'https://x.sh/a b' | sudo bash -s -- --yes && echo \"done $X\"; ls>out", 0);
        assert_eq!(s.commands.len(), 4);
        assert_eq!(words(&s.commands[0]), ["curl", "-fsSL", "https://x.sh/a b"]);
        assert_eq!(words(&s.commands[1]), ["sudo", "bash", "-s", "--", "--yes"]);
        assert_eq!((s.commands[0].pipeline, s.commands[0].stage), (s.commands[1].pipeline, 0));
        assert_eq!(s.commands[1].stage, 1);
        assert_ne!(s.commands[2].pipeline, s.commands[1].pipeline);
        assert_eq!(words(&s.commands[2]), ["echo", "done $X"]);
        assert_eq!(s.commands[3].redirects[0].op, ">");
        assert_eq!(s.commands[3].redirects[0].target.text, "out");
        assert_eq!(s.pipelines().len(), 3);
    }

    #[test]
    fn reads_substitutions_recursively() {
        let s = parse(r#"sh -c "$(curl -fsSL https://e.x/i.sh)""#, 0);
        assert_eq!(s.commands.len(), 1);
        let sub = &s.commands[0].words[2].subs[0];
        assert_eq!(sub.kind, SubKind::Command);
        assert_eq!(words(&sub.script.commands[0]), ["curl", "-fsSL", "https://e.x/i.sh"]);

        let s = parse("bash <(wget -qO- https://e.x/i.sh)", 0);
        assert_eq!(s.commands[0].words[1].subs[0].kind, SubKind::ProcessIn);
        let s = parse("eval `echo aGk= | base64 -d`", 0);
        let inner = &s.commands[0].words[1].subs[0].script;
        assert_eq!(inner.commands.len(), 2);
        assert_eq!(inner.commands[1].stage, 1);
        let mut all = 0;
        s.walk(&mut |_| all += 1);
        assert_eq!(all, 3);
    }

    #[test]
    fn keeps_offsets_and_survives_garbage() {
        let s = parse("  rm -rf /", 10);
        assert_eq!(s.commands[0].start, 12);
        assert_eq!(s.commands[0].words[2].start, 19);
        for junk in ["\"unterminated $(", "`", "$((", "${", ")))(((", "a 2>&1 >", "é | ü", "((((((((((((((((((((x"] {
            let _ = parse(junk, 0);
        }
        let s = parse("if curl -s x | sh; then echo ok; fi", 0);
        assert_eq!(words(&s.commands[0]), ["curl", "-s", "x"]);
        assert_eq!(words(&s.commands[1]), ["sh"]);
    }

    #[test]
    fn finds_the_program_past_wrappers() {
        let s = parse("FOO=1 sudo -E -u root env X=2 /usr/bin/Python3 x.py", 0);
        let (i, elevated) = program(&s.commands[0]).unwrap();
        assert_eq!(program_name(&s.commands[0].words[i].text), "python3");
        assert!(elevated);
    }
}
