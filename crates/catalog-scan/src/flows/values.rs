//! Values followed through a block line by line: where each name came from (a credential, a
//! download, a path to a persistent place) and the sink it reaches.

use std::sync::LazyLock;

use regex::Regex;

use super::Line;
use crate::Sink;
use crate::rule_regex as re;
use crate::script::targets::{CRED_SOURCE, SECRET_CALL, TARGET_RES, TARGETS};

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
            let (Some(before), Some(after)) = (line.get(..i), line.get(i + n.len()..)) else { return false };
            let before = before.chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_');
            let after = after.chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '_');
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
        mentions(line, &self.names).and_then(|i| self.origins.get(i))
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

pub(super) fn value_flows(sink: &mut Sink, lines: &[Line]) {
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
            .or_else(|| SECRET_CALL.find(text).map(|m| format!("reads {}", crate::text::visible(m.as_str()))));
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
        for ((target, &(id, kind, _)), tracked) in TARGET_RES.iter().zip(TARGETS).zip(&mut paths) {
            if let Some(m) = target.find(&path) {
                let what = format!("{kind} ({})", m.as_str());
                if let Some(name) = assigned(text) {
                    tracked.add(name, (line.number, what.clone()));
                }
                if WRITE.is_match(text) {
                    report_chain(sink, id, line, (line.number, what), "writes to it");
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
                let how = format!("sends it with {}", crate::text::visible(m.as_str()).trim_end_matches('('));
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
                let how = format!("runs it with {}", crate::text::visible(m.as_str()).trim_end_matches('('));
                report_chain(sink, "remote-code-run", line, origin, &how);
            }
        }
        if WRITE.is_match(text) {
            for (p, &(id, _, _)) in paths.iter().zip(TARGETS) {
                if let Some(origin) = p.used_by(text).cloned() {
                    report_chain(sink, id, line, origin, "writes to it");
                }
            }
        }
    }
}

/// Reports at the sink line, naming the source line (numbers relative to the block).
fn report_chain(sink: &mut Sink, id: &'static str, at: &Line, origin: (usize, String), how: &str) {
    let message =
        if origin.0 == at.number { format!("{} and {how}", origin.1) } else { format!("{}, then {how}", origin.1) };
    let severity = crate::rules::known(id).severity;
    let (start, end) = at.span();
    sink.report_flow(id, severity, start, end, message, origin_line(at, origin.0));
}

/// The source line's number counted from the sink's line.
fn origin_line(at: &Line, origin: usize) -> isize {
    origin as isize - at.number as isize
}
