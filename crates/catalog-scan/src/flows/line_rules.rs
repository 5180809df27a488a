//! Rules read one line at a time in code: installs from outside the registry, hard-coded
//! credentials, risky destinations; and reverse shells, read from the words of a whole block.

use std::sync::LazyLock;

use regex::Regex;

use super::Line;
use crate::rule_regex as re;
use crate::rules::Severity;
use crate::{Sink, destinations};

static SUPPLY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\b(pip3?|uv\s+pip|python3?\s+-m\s+pip|pipx)\s+install\b[^\n;&|]*?(\s(--extra-index-url|--index-url|-i|--trusted-host|-f|--find-links)[\s=]\S+|\sgit\+\S+|\s(https?|ftp)://\S+)|\b(npm|pnpm|yarn|bun)\s+(install|i|add)\b[^\n;&|]*?\s(git\+\S+|github:\S+|(https?|ftp)://\S+|\S+\.tgz\b|--registry[\s=]\S+)|\bnpm\s+config\s+set\s+registry\b|\bcargo\s+install\b[^\n;&|]*\s--git\s|\bgem\s+install\b[^\n;&|]*\s--source\s)"#,
    )
});
static HARDCODED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"\b([a-z0-9_]*(password|passwd|pwd|secret|api_?key|apikey|access_?key|auth_?token|access_?token|private_?key|client_?secret|bot_?token)[a-z0-9_]*)["']?\s*[:=]\s*["']([^"'\s]{8,})["']"#,
    )
});
/// A password given to a program on its command line, as a literal.
static PASSWORD_FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[\s"'\[,(])--?(password|passwd|pass|pwd)(?:=|["']?\s*,\s*["']|\s+)["']?([^\s"'$<{%()\[\]]{4,})"#,
    )
    .expect("valid")
});

pub(super) fn reverse_shells(sink: &mut Sink, code: &str, lines: &[Line]) {
    let lower = code.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let shapes: [(&[&str], &[&str], &[&str]); 4] = [
        // Python, Ruby, Perl: a socket whose descriptors become a shell's.
        (
            &["socket"],
            &["connect(", "tcpsocket", "socket.create_connection"],
            &["dup2", "pty.spawn", "/bin/sh", "/bin/bash", "cmd.exe"],
        ),
        // Node: a socket piped into a spawned shell.
        (
            &["net.socket", "net.connect", "createconnection"],
            &["child_process"],
            &["/bin/sh", "/bin/bash", "cmd.exe", "'sh'", "\"sh\"", "powershell"],
        ),
        // PowerShell: a TCP client's stream read into Invoke-Expression.
        (&["tcpclient"], &["getstream"], &["iex", "invoke-expression", "out-string"]),
        // Any language: a shell bound to a socket by a helper.
        (&["socat"], &["exec:"], &["sh", "bash"]),
    ];
    for (a, b, c) in shapes {
        if has(a) && has(b) && has(c) {
            let named = lines.iter().find(|l| b.iter().any(|w| l.text.to_ascii_lowercase().contains(w)));
            let Some(at) = named.or(lines.first()) else { continue };
            let (start, end) = at.span();
            sink.report("reverse-shell", start, end, "connects to a remote host and hands it a shell");
        }
    }
}

pub(super) fn line_rules(sink: &mut Sink, lines: &[Line]) {
    for line in lines {
        let text = line.text;
        let risky = destinations::find(text);
        if let Some((kind, start, end)) = risky {
            sink.report("risky-destination", line.start + start, line.start + end, format!("talks to {kind}"));
        }
        if let Some(m) = SUPPLY.find(text) {
            let severity = if risky.is_some() || m.as_str().contains("--trusted-host") {
                Severity::High
            } else {
                Severity::Medium
            };
            let what = format!("installs from outside the registry: {}", crate::text::visible(m.as_str()));
            sink.report_in_context(
                "supply-chain-install",
                severity,
                line.start + m.start(),
                line.start + m.end(),
                what,
            );
        }
        if let Some(caps) = HARDCODED.captures(text)
            && let (Some(name), Some(value)) = (caps.get(1), caps.get(3))
            && looks_real(value.as_str())
        {
            let shown =
                format!("{} = {}…", name.as_str(), value.as_str().get(..3.min(value.len())).unwrap_or_default());
            let what = format!("assigns a literal value to {}", name.as_str());
            sink.report_shown("hardcoded-credential", Severity::Medium, line.start + name.start(), what, shown);
        } else if let Some(value) = literal_password(text) {
            let shown = format!("{}…", value.as_str().chars().take(2).collect::<String>());
            let what = "passes a literal password on a command line".to_string();
            sink.report_shown("hardcoded-credential", Severity::Medium, line.start + value.start(), what, shown);
        }
    }
}

/// A literal password flag (`--password=hunter2`, `"--password", "s3cret"`): not a variable, a
/// placeholder or a stand-in word.
fn literal_password(line: &str) -> Option<regex::Match<'_>> {
    let value = PASSWORD_FLAG.captures(line)?.get(2)?;
    let lower = value.as_str().to_ascii_lowercase();
    let stand_in = STAND_INS.iter().any(|s| lower.contains(s))
        || ["pass", "pwd", "passwd", "admin", "root", "file", "stdin", "env"].contains(&lower.as_str())
        || lower.starts_with('-');
    (!stand_in && !crate::secrets::is_placeholder_word(value.as_str())).then_some(value)
}

/// Words that stand in for a value in examples and templates.
const STAND_INS: &[&str] = &[
    "your",
    "example",
    "xxx",
    "changeme",
    "change_me",
    "placeholder",
    "dummy",
    "test",
    "sample",
    "fake",
    "secret",
    "password",
    "token",
    "redacted",
    "replace",
    "insert",
    "here",
    "todo",
    "none",
    "null",
    "<",
    "${",
    "{{",
    "$(",
    "%(",
    "process.env",
    "environ",
    "getenv",
    "***",
    "...",
];

/// A value that is not a placeholder, a reference or a word.
fn looks_real(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    if crate::secrets::is_placeholder(value) || STAND_INS.iter().any(|s| lower.contains(s)) {
        return false;
    }
    let digits = value.chars().filter(char::is_ascii_digit).count();
    let letters = value.chars().filter(char::is_ascii_alphabetic).count();
    let distinct = value.chars().collect::<std::collections::HashSet<_>>().len();
    digits > 0 && letters > 0 && distinct >= 6 && !value.contains(['.', '/']) || value.starts_with("-----begin")
}
