//! What code does with the values it builds, followed within one block or file: paths put
//! together from pieces (`os.path.join(home, ".aws", "credentials")`, `Path.home() / ".ssh"`,
//! concatenation, template strings), variables assigned from a download or a path, and where
//! they end: a credential source reaching a network sink is exfiltration, a download reaching
//! an interpreter is remote code, a write to a shell startup file, cron, a service, a git hook
//! or an agent's config is persistence. Each such finding names its source and sink lines.
//! Also reverse shells, installs from outside the registry, hard-coded credentials, risky
//! destinations, and base64 literals decoded and read again.

use std::sync::LazyLock;

use super::rule_regex as re;
use regex::Regex;

use super::rules::Severity;
use super::script::targets::{CRED_SOURCE, DECODED_PREFIX, SECRET_CALL, TARGET_RES, TARGETS};
use super::text::{Region, RegionKind};
use super::{Sink, destinations};

static LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`"#).expect("valid"));
static NETWORK_SINK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\brequests\.(post|put|patch|get|request)\s*\(|\bhttpx\.(post|put|get|request)\s*\(|\burlopen\s*\(|urllib\.request\.request\s*\(|\bhttp\.client\.|\.sendall?\s*\(|\bsmtplib\.|\bftplib\.|\bfetch\s*\(|\baxios(\.(post|put|get|request))?\s*\(|\bhttps?\.request\s*\(|xmlhttprequest|sendbeacon|\bnew\s+websocket\s*\(|\binvoke-(webrequest|restmethod)\b|\bnet\.webclient\b|\buploadstring\b|\bcurl\b.*\s(-d|--data\S*|-f|--form|-t|--upload-file)\b|\bwget\b.*--post-(data|file)|\b(nc|ncat)\s+\S+\s+\d+)"#,
    )
});
static DOWNLOAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\brequests\.get\s*\(|\bhttpx\.get\s*\(|\burlopen\s*\(|\burlretrieve\s*\(|\bwget\.download\s*\(|\bfetch\s*\(|\baxios\.get\s*\(|\bhttps?\.get\s*\(|\bdownloadstring\s*\(|\bdownloadfile\s*\(|\binvoke-webrequest\b|\biwr\b|\birm\b)"#,
    )
});
static EXEC_SINK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\bexec\s*\(|\beval\s*\(|\bcompile\s*\(|\bnew\s+function\s*\(|\bvm\.run\w*\s*\(|\bsubprocess\.\w+\s*\(|\bos\.(system|popen|exec\w*|spawn\w*)\s*\(|\bchild_process\b|\bexecsync\s*\(|\bexecfile(sync)?\s*\(|\bspawn(sync)?\s*\(|\biex\b|\binvoke-expression\b|\bstart-process\b|\bimportlib\b|\b__import__\s*\()"#,
    )
});
static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:(?:const|let|var|my|local)\s+)?\$?([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*[\w\[\], ]+)?=[^=]")
        .expect("valid")
});
static WITH_AS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bas\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*$").expect("valid"));
static WRITE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\bopen\s*\([^)]*,\s*(f?["'](a|w|a\+|w\+|ab|wb)["']|mode\s*=)|\.write_text\s*\(|\.write_bytes\s*\(|\bappendfile(sync)?\s*\(|\bwritefile(sync)?\s*\(|\bcreatewritestream\s*\(|\b(add|set)-content\b|\bout-file\b|>>|\bfile\.write\b|\bfile_put_contents\b|\bcopyfile(sync)?\s*\(|\bshutil\.copy\w*\s*\()"#,
    )
});
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
static BASE64_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"["'`]([A-Za-z0-9+/]{24,}={0,2})["'`]"#).expect("valid"));

/// Code found inside code (a heredoc, a string run by an interpreter) read by every reader of
/// code, as a script file of its language would be; the parsers call back here, so that they
/// need not know the line readers.
fn read_again(sink: &mut Sink, region: &Region) {
    super::commands::check(sink, std::slice::from_ref(region));
    check(sink, std::slice::from_ref(region));
}

/// Reads every code region.
pub fn check(sink: &mut Sink, regions: &[Region]) {
    let text = sink.text;
    for region in regions {
        match &region.kind {
            RegionKind::Code { .. } => {
                let code = &text[region.start..region.end];
                let found = Triggers::of(code);
                if found.is_empty() {
                    continue;
                }
                let lines = lines_of(code, region.start);
                if found.has(Group::Shell) {
                    reverse_shells(sink, code, &lines);
                }
                // Parsed when a parser reads the language; the line reader follows the rest.
                // Shell keeps its line reader too: the parser adds variables and strings run
                // as code, the line reader's patterns cover what tree-sitter cannot parse.
                let lang = (found.has(Group::Flow) || found.has(Group::Exec))
                    .then(|| super::script::lang_of(sink.file, region, code))
                    .flatten();
                let parsed = lang.is_some_and(|lang| super::script::check(sink, region, lang, read_again));
                if found.has(Group::Flow) && !(parsed && lang != Some(super::script::engine::Lang::Shell)) {
                    value_flows(sink, &lines);
                }
                if found.has(Group::Line) {
                    line_rules(sink, &lines);
                }
                if found.has(Group::Encoded) {
                    decoded_literals(sink, &lines);
                }
            }
            RegionKind::Prose => {
                if let Some((kind, start, end)) = destinations::find(&text[region.start..region.end]) {
                    let what = format!("links to {kind}");
                    sink.report("risky-destination", region.start + start, region.start + end, what);
                }
            }
        }
    }
}

/// Which readers a block needs, from one pass of a multi-pattern search over it: most code
/// holds none of the words any of them starts from, and is left after that one pass.
#[derive(Clone, Copy)]
enum Group {
    Shell,
    Flow,
    Line,
    Encoded,
    /// Code run from a string: worth parsing to read what the string holds.
    Exec,
}

const TRIGGERS: &[(&str, Group)] = &[
    ("socket", Group::Shell),
    ("tcpclient", Group::Shell),
    ("socat", Group::Shell),
    ("net.connect", Group::Shell),
    ("createconnection", Group::Shell),
    // Sources, sinks and targets of value flows.
    (".ssh", Group::Flow),
    (".aws", Group::Flow),
    ("netrc", Group::Flow),
    ("credentials", Group::Flow),
    ("pgpass", Group::Flow),
    (".kube", Group::Flow),
    (".docker", Group::Flow),
    ("npmrc", Group::Flow),
    ("pypirc", Group::Flow),
    ("gnupg", Group::Flow),
    ("shadow", Group::Flow),
    ("login data", Group::Flow),
    ("cookies", Group::Flow),
    ("logins.json", Group::Flow),
    ("key4.db", Group::Flow),
    ("local state", Group::Flow),
    ("wallet", Group::Flow),
    ("keychain", Group::Flow),
    ("password-store", Group::Flow),
    ("electrum", Group::Flow),
    ("ethereum", Group::Flow),
    ("exodus", Group::Flow),
    ("metamask", Group::Flow),
    ("environ", Group::Flow),
    ("process.env", Group::Flow),
    ("-password", Group::Flow),
    ("env:", Group::Flow),
    ("getenvironmentvariables", Group::Flow),
    ("requests.", Group::Flow),
    ("httpx.", Group::Flow),
    ("urlopen", Group::Flow),
    ("urlretrieve", Group::Flow),
    ("fetch(", Group::Flow),
    ("axios", Group::Flow),
    ("http.get", Group::Flow),
    ("https.get", Group::Flow),
    ("downloadstring", Group::Flow),
    ("downloadfile", Group::Flow),
    ("wget.download", Group::Flow),
    ("invoke-webrequest", Group::Flow),
    ("bashrc", Group::Flow),
    ("profile", Group::Flow),
    ("zshrc", Group::Flow),
    ("zshenv", Group::Flow),
    ("zlogin", Group::Flow),
    ("cshrc", Group::Flow),
    ("config.fish", Group::Flow),
    ("/etc/cron", Group::Flow),
    ("/var/spool/cron", Group::Flow),
    ("launchagents", Group::Flow),
    ("launchdaemons", Group::Flow),
    ("systemd", Group::Flow),
    ("autostart", Group::Flow),
    ("init.d", Group::Flow),
    ("rc.local", Group::Flow),
    (".git/hooks", Group::Flow),
    ("startup", Group::Flow),
    ("currentversion", Group::Flow),
    (".claude", Group::Flow),
    ("claude.md", Group::Flow),
    ("agents.md", Group::Flow),
    ("gemini", Group::Flow),
    (".cursor", Group::Flow),
    ("windsurfrules", Group::Flow),
    ("copilot-instructions", Group::Flow),
    ("mcp.json", Group::Flow),
    ("claude_desktop_config", Group::Flow),
    (".codex", Group::Flow),
    // Code run from strings, and decoders.
    ("system(", Group::Exec),
    ("popen", Group::Exec),
    ("subprocess", Group::Exec),
    ("child_process", Group::Exec),
    ("execsync", Group::Exec),
    ("exec(", Group::Exec),
    // Not "eval" alone: "evaluate" is in most prose-heavy code.
    ("eval(", Group::Exec),
    ("eval \"", Group::Exec),
    ("eval '", Group::Exec),
    ("eval $", Group::Exec),
    ("eval `", Group::Exec),
    ("function(", Group::Exec),
    ("b64decode", Group::Exec),
    ("atob(", Group::Exec),
    ("fromhex", Group::Exec),
    ("unhexlify", Group::Exec),
    ("'base64'", Group::Exec),
    ("\"base64\"", Group::Exec),
    ("'hex'", Group::Exec),
    ("\"hex\"", Group::Exec),
    ("-c ", Group::Exec),
    ("<<", Group::Exec),
    ("sendall", Group::Exec),
    // Line rules.
    ("://", Group::Line),
    ("install", Group::Line),
    ("registry", Group::Line),
    ("password", Group::Line),
    ("passwd", Group::Line),
    ("pwd", Group::Line),
    ("secret", Group::Line),
    ("api_key", Group::Line),
    ("apikey", Group::Line),
    ("access_key", Group::Line),
    ("accesskey", Group::Line),
    ("token", Group::Line),
    ("private_key", Group::Line),
    ("privatekey", Group::Line),
];

static TRIGGER_SEARCH: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(TRIGGERS.iter().map(|(w, _)| w))
        .expect("valid patterns")
});

struct Triggers {
    groups: [bool; 5],
}

impl Triggers {
    fn of(code: &str) -> Triggers {
        let mut groups = [false; 5];
        for m in TRIGGER_SEARCH.find_overlapping_iter(code) {
            groups[TRIGGERS[m.pattern().as_usize()].1 as usize] = true;
            if groups.iter().all(|g| *g) {
                break;
            }
        }
        // A base64 literal long enough to decode is seen by its length alone.
        groups[Group::Encoded as usize] = has_long_word(code);
        Triggers { groups }
    }

    fn is_empty(&self) -> bool {
        !self.groups.iter().any(|g| *g)
    }

    fn has(&self, group: Group) -> bool {
        self.groups[group as usize]
    }
}

/// Whether the code holds a run of 24 or more base64 characters.
fn has_long_word(code: &str) -> bool {
    let mut run = 0;
    for b in code.bytes() {
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' {
            run += 1;
            if run >= 24 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

struct Line<'a> {
    text: &'a str,
    start: usize,
    number: usize,
}

fn lines_of(code: &str, base: usize) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut offset = base;
    for (i, line) in code.split_inclusive('\n').enumerate() {
        out.push(Line { text: line.trim_end_matches(['\n', '\r']), start: offset, number: i });
        offset += line.len();
    }
    out
}

/// The string literals of a line joined with `/`: the path a line builds from pieces.
fn joined_literals(line: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for caps in LITERAL.captures_iter(line) {
        if let Some(m) = caps.get(1).or_else(|| caps.get(2)).or_else(|| caps.get(3)) {
            parts.push(m.as_str());
        }
    }
    let mut path = String::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if !path.is_empty() && !path.ends_with('/') && !part.starts_with('/') {
            path.push('/');
        }
        path.push_str(part);
    }
    // `~`, `$HOME` and `Path.home()` all name the home folder.
    path.replace("${HOME}", "~").replace("$HOME", "~")
}

/// The words a line assigns to (`x = ...`, `const x = ...`).
fn assigned(line: &str) -> Option<&str> {
    ASSIGN.captures(line).and_then(|c| c.get(1)).map(|m| m.as_str())
}

fn mentions(line: &str, names: &[String]) -> Option<usize> {
    names.iter().position(|n| {
        line.match_indices(n.as_str()).any(|(i, _)| {
            let before = line[..i].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_');
            let after = line[i + n.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '_');
            before && after
        })
    })
}

/// Values followed through assignments: where each tracked name came from.
struct Tracked {
    names: Vec<String>,
    /// (line number, what) of the source of each name.
    origins: Vec<(usize, String)>,
}

impl Tracked {
    fn new() -> Self {
        Tracked { names: Vec::new(), origins: Vec::new() }
    }

    fn add(&mut self, name: &str, origin: (usize, String)) {
        if !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_string());
            self.origins.push(origin);
        }
    }

    /// The origin a line draws on: one of the tracked names it mentions.
    fn used_by(&self, line: &str) -> Option<&(usize, String)> {
        mentions(line, &self.names).map(|i| &self.origins[i])
    }

    /// Names assigned from a tracked name carry its origin (`data = r.text`).
    fn propagate(&mut self, line: &str) {
        if let Some(name) = assigned(line)
            && let Some(origin) = self.used_by(line.split_once('=').map_or("", |(_, rhs)| rhs)).cloned()
        {
            self.add(name, origin);
        }
    }
}

fn value_flows(sink: &mut Sink, lines: &[Line]) {
    let mut secrets = Tracked::new();
    let mut downloads = Tracked::new();
    let mut paths: Vec<Tracked> = TARGETS.iter().map(|_| Tracked::new()).collect();
    let mut secret_lines: Vec<(usize, String)> = Vec::new();
    for line in lines {
        let text = line.text;
        let path = joined_literals(text);
        // Sources on this line.
        let cred = CRED_SOURCE
            .find(&path)
            .map(|m| format!("reads {}", m.as_str()))
            .or_else(|| SECRET_CALL.find(text).map(|m| format!("reads {}", super::text::visible(m.as_str()))));
        if let Some(what) = &cred {
            secret_lines.push((line.number, what.clone()));
            if let Some(name) = assigned(text) {
                secrets.add(name, (line.number, what.clone()));
            }
        }
        if let Some(m) = DOWNLOAD.find(text)
            && let Some(name) = assigned(text)
        {
            downloads.add(name, (line.number, format!("downloads with {}", m.as_str().trim_end_matches('('))));
        }
        for (i, target) in TARGET_RES.iter().enumerate() {
            if let Some(m) = target.find(&path) {
                let what = format!("{} ({})", TARGETS[i].1, m.as_str());
                if let Some(name) = assigned(text) {
                    paths[i].add(name, (line.number, what.clone()));
                }
                if WRITE.is_match(text) {
                    report_chain(sink, TARGETS[i].0, line, (line.number, what), "writes to it");
                }
            }
        }
        // `with open(path) as f:` hands the file's origin to `f`.
        if let Some(caps) = WITH_AS.captures(text)
            && let Some(name) = caps.get(1)
        {
            for tracked in [&mut secrets, &mut downloads] {
                if let Some(origin) = tracked.used_by(text).cloned() {
                    tracked.add(name.as_str(), origin);
                }
            }
        }
        secrets.propagate(text);
        downloads.propagate(text);
        for p in &mut paths {
            p.propagate(text);
        }
        // Sinks on this line.
        if let Some(m) = NETWORK_SINK.find(text) {
            let origin = secrets.used_by(text).cloned().or_else(|| {
                // A credential read anywhere in the same block reaches a sink that sends a
                // file's contents or a body built from variables.
                secret_lines.first().filter(|_| text.contains("open(") || text.contains("read")).cloned()
            });
            let origin = origin.or_else(|| cred.clone().map(|w| (line.number, w)));
            if let Some(origin) = origin {
                let how = format!("sends it with {}", super::text::visible(m.as_str()).trim_end_matches('('));
                report_chain(sink, "exfiltration", line, origin, &how);
            }
        }
        if let Some(m) = EXEC_SINK.find(text) {
            let origin = downloads.used_by(text).cloned().or_else(|| {
                DOWNLOAD
                    .find(text)
                    .map(|d| (line.number, format!("downloads with {}", d.as_str().trim_end_matches('('))))
            });
            if let Some(origin) = origin {
                let how = format!("runs it with {}", super::text::visible(m.as_str()).trim_end_matches('('));
                report_chain(sink, "remote-code-run", line, origin, &how);
            }
        }
        if WRITE.is_match(text) {
            for (i, p) in paths.iter().enumerate() {
                if let Some(origin) = p.used_by(text).cloned() {
                    report_chain(sink, TARGETS[i].0, line, origin, "writes to it");
                }
            }
        }
    }
}

/// Reports at the sink line, naming the source line (numbers relative to the block).
fn report_chain(sink: &mut Sink, id: &'static str, at: &Line, origin: (usize, String), how: &str) {
    let message =
        if origin.0 == at.number { format!("{} and {how}", origin.1) } else { format!("{}, then {how}", origin.1) };
    let severity = super::rules::known(id).severity;
    let indent = at.text.len() - at.text.trim_start().len();
    sink.report_flow(id, severity, at.start + indent, at.start + at.text.len(), message, origin_line(at, origin.0));
}

/// The source line's number counted from the sink's line.
fn origin_line(at: &Line, origin: usize) -> isize {
    origin as isize - at.number as isize
}

fn reverse_shells(sink: &mut Sink, code: &str, lines: &[Line]) {
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
            let at =
                lines.iter().find(|l| b.iter().any(|w| l.text.to_ascii_lowercase().contains(w))).unwrap_or(&lines[0]);
            let indent = at.text.len() - at.text.trim_start().len();
            sink.report(
                "reverse-shell",
                at.start + indent,
                at.start + at.text.len(),
                "connects to a remote host and hands it a shell",
            );
        }
    }
}

fn line_rules(sink: &mut Sink, lines: &[Line]) {
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
            let what = format!("installs from outside the registry: {}", super::text::visible(m.as_str()));
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
            let shown = format!("{} = {}…", name.as_str(), &value.as_str()[..3.min(value.len())]);
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
    (!stand_in && !super::secrets::is_placeholder_word(value.as_str())).then_some(value)
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
    if super::secrets::is_placeholder(value) || STAND_INS.iter().any(|s| lower.contains(s)) {
        return false;
    }
    let digits = value.chars().filter(char::is_ascii_digit).count();
    let letters = value.chars().filter(char::is_ascii_alphabetic).count();
    let distinct = value.chars().collect::<std::collections::HashSet<_>>().len();
    digits > 0 && letters > 0 && distinct >= 6 && !value.contains(['.', '/']) || value.starts_with("-----begin")
}

/// Base64 literals decoded and read again as code: what a script hides, it still does.
fn decoded_literals(sink: &mut Sink, lines: &[Line]) {
    if sink.file.starts_with(DECODED_PREFIX) {
        return;
    }
    for line in lines {
        for caps in BASE64_LITERAL.captures_iter(line.text) {
            let m = caps.get(1).expect("group");
            let Some(decoded) = decode_base64(m.as_str()) else { continue };
            let path = format!("{DECODED_PREFIX}{}", decoded_kind(&decoded));
            for finding in super::scan_text(&path, &decoded, false) {
                if finding.severity < Severity::Medium {
                    continue;
                }
                let what = format!("decoded from base64: {}", finding.message);
                let start = line.start + m.start();
                sink.report_in_context(
                    finding.rule.id,
                    finding.severity.max(Severity::High),
                    start,
                    start + m.len().min(40),
                    what,
                );
            }
        }
    }
}

fn decoded_kind(text: &str) -> &'static str {
    if text.contains("import ") || text.contains("def ") || text.contains("require(") { "py" } else { "sh" }
}

/// Base64 to text, when it decodes to at least 12 mostly printable bytes.
fn decode_base64(s: &str) -> Option<String> {
    let bytes = super::script::value::base64(s)?;
    super::script::value::printable_text(&bytes, 12)
}
