//! Rules read from shell code: pipelines, substitutions and simple commands, as [`shell`]
//! reads them. Shell code is every code block and inline code span in Markdown, every line of
//! a shell script, and shell commands inside string literals of other code.
//!
//! [`invocation`] says what one command does (downloads, runs its input, reads credentials),
//! [`rules`] turns pipelines and commands into findings, [`blobs`] finds fork bombs and
//! encoded payloads, [`allowed_tools`] compares SKILL.md's commands with its allowed-tools.

mod allowed_tools;
mod blobs;
mod invocation;
mod rules;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use super::rule_regex as re;
use regex::Regex;

use super::Sink;
use super::found::{Found, Key};
use super::shell::{self, Script};
use super::text::{Region, RegionKind, inline_code_spans, line_at};

pub use allowed_tools::check_allowed_tools;
pub use invocation::{INSTALLER_SOURCES, is_installer};
pub use rules::{address_in, download_rule, judged_run};

use blobs::{encoded_blobs, fork_bombs};
use invocation::invocation;
use rules::{command_rules, pipeline_rules, substitution_rules};

/// Lines of non-shell code worth reading for shell inside string literals.
static EMBEDDED_SHELL_HINT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"["'`].*(curl|wget|iwr|irm|invoke-|rm\s+-|base64|crontab|bashrc|zshrc|profile|authorized_keys|sudo|mkfs|\bdd\b|chmod|history|launchctl|systemctl|\.ssh|\.aws|shadow|netrc|\.env\b|xxd|\beval\b|\|)"#,
    )
});
static STRING_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`\n]*)`"#).unwrap());
static WARNS_AGAINST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(never|avoid|don'?t|do\s+not|instead\s+of|rather\s+than|not\s+recommended|insecure|unsafe|dangerous|bad\s+practice|anti-?pattern|beware)\b",
    )
});
static PROMPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^[ \t]*(\$|%|>|PS[^>\n]{0,40}>|[A-Za-z0-9_]+@[A-Za-z0-9_.-]+(:[^$#\n]*)?[$#])[ \t]").unwrap()
});

/// A download spelled out in prose, from its command on: an interpreter running a process
/// substitution of a downloader, or a downloader with a URL or a pipe after it.
pub(crate) const PROSE_DOWNLOAD: &str = r#"\b((ba|z|da|k)?sh|python3?|node|source|eval|iex)\s+(-c\s+)?["']?(<\(|\$\()\s*(curl|wget|iwr|irm)\s+[^\s|)]|\b(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\s+[^|\s][^|\n]*(://|\|)"#;

/// Reads every region's shell code; `found` says whether prose may spell out a download.
pub fn check(sink: &mut Sink, regions: &[Region], found: &Found) {
    let text = sink.text;
    for region in regions {
        match &region.kind {
            RegionKind::Code { shell: true, .. } => {
                let code = region.text_in(text);
                let script = shell::parse(&without_prompts(code), region.start);
                let mut flow = Flow::default();
                analyze(sink, &script, Mode::Code, &mut flow);
                fork_bombs(sink, region.start, code);
                encoded_blobs(sink, region.start, code);
            }
            RegionKind::Code { shell: false, .. } => {
                let code = region.text_in(text);
                let mut offset = region.start;
                for line in code.split_inclusive('\n') {
                    if EMBEDDED_SHELL_HINT.is_match(line) {
                        for caps in STRING_LITERAL.captures_iter(line) {
                            let Some(m) = caps.get(1).or_else(|| caps.get(2)).or_else(|| caps.get(3)) else { continue };
                            let script = shell::parse(m.as_str(), offset + m.start());
                            analyze(sink, &script, Mode::Code, &mut Flow::default());
                        }
                    }
                    offset += line.len();
                }
                fork_bombs(sink, region.start, code);
                encoded_blobs(sink, region.start, code);
            }
            RegionKind::Prose => prose(sink, region.start, region.end, found.has(Key::ProseDownload)),
        }
    }
}

/// A URL, a command substitution and a process substitution: the marks of a download in prose,
/// each searched with a searcher built once (building one costs more than searching most prose
/// regions).
static DOWNLOAD_MARKS: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 3]> =
    std::sync::LazyLock::new(|| ["://", "$(", "<("].map(memchr::memmem::Finder::new));

/// Reads the prose lines that may hold a command: lines with inline code, and lines with a
/// URL, a pipe or a process substitution, which every spelled-out download has. They are
/// found by searching the region for those marks, not by visiting every line: prose is nearly
/// all of a catalog's text, and few of its lines hold any. Without a downloader's name in the
/// file (`downloads`), only inline code is read: Markdown tables and links have pipes and URLs.
fn prose(sink: &mut Sink, start: usize, end: usize, downloads: bool) {
    let prose = sink.text.get(start..end).unwrap_or_default();
    let bytes = prose.as_bytes();
    // Every mark, with whether it is inline code (else a download's), in text order.
    let mut marks: Vec<(usize, bool)> =
        memchr::memchr2_iter(b'`', b'|', bytes).map(|at| (at, bytes.get(at) == Some(&b'`'))).collect();
    for finder in DOWNLOAD_MARKS.iter() {
        marks.extend(finder.find_iter(bytes).map(|at| (at, false)));
    }
    marks.sort_unstable();
    let mut marks = marks.into_iter().peekable();
    while let Some(&(first, _)) = marks.peek() {
        let (at, end) = line_at(prose, first);
        let (mut code, mut download) = (false, false);
        while let Some((_, inline_code)) = marks.next_if(|&(mark, _)| mark < end) {
            code |= inline_code;
            download |= !inline_code;
        }
        let line = prose.get(at..end).unwrap_or_default();
        let offset = start + at;
        // A command named in a warning ("never `curl … | sh`", its sentence perhaps begun on
        // the line before) is not an instruction. Only lines whose code gave a finding are
        // asked: most inline code gives none, and the warning words are a costlier search.
        let warned = || {
            let previous = at.checked_sub(1).and_then(|before| prose.get(line_at(prose, before).0..at));
            let previous = previous.unwrap_or_default();
            WARNS_AGAINST.is_match(line)
                || (!previous.trim_end().ends_with(['.', ':']) && WARNS_AGAINST.is_match(previous))
        };
        if code {
            let mark = sink.mark();
            for (s, e) in inline_code_spans(line) {
                let Some(code) = line.get(s..e) else { continue };
                let script = shell::parse(code, offset + s);
                analyze(sink, &script, Mode::Code, &mut Flow::default());
            }
            if sink.found_since(mark) && warned() {
                sink.take_back(mark);
            }
        }
        if download && downloads {
            prose_downloads(sink, line, offset);
        }
    }
}

/// Prose that spells out `curl https://... | bash` or `bash <(curl ...)` without code
/// formatting is still an instruction the agent may follow: read it from the command on.
/// Talk about the pattern ("never curl | bash") names no download, so it is left alone.
fn prose_downloads(sink: &mut Sink, line: &str, offset: usize) {
    static COMMAND_START: LazyLock<Regex> = LazyLock::new(|| re(PROSE_DOWNLOAD));
    if let Some(m) = COMMAND_START.find(line) {
        let script = shell::parse(line.get(m.start()..).unwrap_or_default(), offset + m.start());
        analyze(sink, &script, Mode::Prose, &mut Flow::default());
    }
}

/// Blanks out shell prompts (`$ `, `PS C:\> `, `user@host:~$ `) keeping every offset.
pub(super) fn without_prompts(code: &str) -> String {
    PROMPT.replace_all(code, |caps: &regex::Captures| " ".repeat(caps[0].len())).into_owned()
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Code,
    /// Natural-language text: only downloads run by an interpreter count, and any
    /// interpreter after the pipe counts.
    Prose,
}

/// What earlier commands of the same code block did: files downloaded (name -> URL).
#[derive(Default)]
pub(super) struct Flow {
    pub(super) downloaded: Vec<(String, String)>,
}

fn analyze(sink: &mut Sink, script: &Script, mode: Mode, flow: &mut Flow) {
    for pipeline in script.pipelines() {
        pipeline_rules(sink, pipeline, mode);
    }
    if mode == Mode::Prose {
        for command in &script.commands {
            if let Some(inv) = invocation(command) {
                substitution_rules(sink, command, &inv);
            }
        }
        return;
    }
    for command in &script.commands {
        command_rules(sink, command, flow);
        for word in command.words.iter().chain(command.redirects.iter().map(|r| &r.target)) {
            for sub in &word.subs {
                analyze(sink, &sub.script, mode, &mut Flow::default());
            }
        }
    }
}
