//! What a call does to values, the same for every language the parsers read: path builders
//! and decoders work out text; reads of credential stores and downloads taint their result;
//! network sends, interpreters and writes to startup files are sinks. A tainted value that
//! reaches a sink is a finding with its chain (source line, sink line).

use super::targets::{CRED_SOURCE, DECODED_PREFIX, SECRET_CALL, SENDS_IN_SHELL, target_of};
use super::value::{Origin, Val, decode, home_normalized};
use crate::commands::{address_in, judged_run};
use crate::rules::{Severity, known};
use crate::{Sink, text};

/// Which language a script is in: decides how text given to an interpreter is read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Js,
    Shell,
    PowerShell,
}

impl Lang {
    /// The file extension sub-scans of this language's code are named with.
    pub fn ext(self) -> &'static str {
        match self {
            Lang::Python => "py",
            Lang::Js => "js",
            Lang::Shell => "sh",
            Lang::PowerShell => "ps1",
        }
    }
}

/// One call as a parser saw it, its callee's name resolved through imports (`cp.exec` with
/// `cp = require("child_process")` is `child_process.exec`).
pub struct Call<'v> {
    /// Dotted, lower-cased: `os.path.join`, `requests.post`, `?.read` for a method of a value.
    pub name: &'v str,
    pub recv: Option<&'v Val>,
    pub args: &'v [Val],
    pub kwargs: &'v [(String, Val)],
    pub start: usize,
    pub end: usize,
}

/// The first address a call's arguments spell out: what a download reads.
fn address_of(c: &Call) -> String {
    c.args.iter().filter_map(|a| a.text.as_deref()).map(address_in).find(|a| !a.is_empty()).unwrap_or_default()
}

impl Call<'_> {
    fn last(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(self.name)
    }

    fn all(&self) -> impl Iterator<Item = &Val> {
        self.recv.into_iter().chain(self.args.iter()).chain(self.kwargs.iter().map(|(_, v)| v))
    }

    fn kw(&self, name: &str) -> Option<&Val> {
        self.kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    fn arg_text(&self, i: usize) -> Option<&str> {
        self.args.get(i).and_then(|v| v.text.as_deref())
    }
}

/// Rules about a secret's text in the file, which the line readers report where it is written.
const WRITTEN_SECRETS: &[&str] = &["hardcoded-credential", "secret-value", "secret-name"];
const JOINS: &[&str] =
    &["os.path.join", "path.join", "path.resolve", "posixpath.join", "ntpath.join", "path.posix.join"];
const SAME_PATH: &[&str] = &[
    "os.path.expanduser",
    "os.path.expandvars",
    "os.path.abspath",
    "os.path.realpath",
    "os.path.normpath",
    "os.fspath",
    "str",
    "string",
    "path.normalize",
    "pathlib.path",
    "path",
    "purepath",
    "pathlib.purepath",
    "posixpath",
    "windowspath",
];
const SAME_RECV: &[&str] =
    &["expanduser", "resolve", "absolute", "as_posix", "decode", "encode", "tostring", "strip", "trim", "lower"];
const HOMES: &[&str] = &["path.home", "pathlib.path.home", "os.homedir", "homedir", "os.path.expanduser"];
const DECODERS: &[&str] = &[
    "b64decode",
    "urlsafe_b64decode",
    "standard_b64decode",
    "decodebytes",
    "decodestring",
    "a2b_base64",
    "atob",
    "unhexlify",
    "a2b_hex",
    "fromhex",
];
const DOWNLOADS: &[&str] = &[
    "requests.get",
    "requests.request",
    "httpx.get",
    "urllib.request.urlopen",
    "urllib2.urlopen",
    "urllib.urlopen",
    "urlopen",
    "fetch",
    "node-fetch",
    "axios",
    "axios.get",
    "got",
    "got.get",
    "https.get",
    "http.get",
    "session.get",
    "client.get",
    "aiohttp.clientsession.get",
];
const NETWORK: &[&str] = &[
    "requests.post",
    "requests.put",
    "requests.patch",
    "requests.get",
    "requests.request",
    "httpx.post",
    "httpx.put",
    "httpx.patch",
    "httpx.get",
    "httpx.request",
    "urllib.request.urlopen",
    "urlopen",
    "fetch",
    "axios",
    "axios.post",
    "axios.put",
    "axios.patch",
    "axios.get",
    "axios.request",
    "got",
    "got.post",
    "http.request",
    "https.request",
    "session.post",
    "session.get",
    "session.put",
];
/// Methods that send their argument, on whatever object.
const SENDS: &[&str] = &[
    "post",
    "sendall",
    "sendto",
    "sendmail",
    "send_message",
    "sendbeacon",
    "upload_file",
    "upload_fileobj",
    "put_object",
    "storbinary",
    "storlines",
];
/// Methods that send when called on a connection.
const NET_WRITES: &[&str] = &["send", "write", "end", "request", "emit"];
const NET_OPENERS: &[&str] = &[
    "socket.socket",
    "socket.create_connection",
    "net.connect",
    "net.createconnection",
    "net.socket",
    "tls.connect",
    "websocket",
    "ws",
    "http.client.httpconnection",
    "http.client.httpsconnection",
    "httplib.httpconnection",
    "httplib.httpsconnection",
    "http.request",
    "https.request",
    "smtplib.smtp",
    "smtplib.smtp_ssl",
    "ftplib.ftp",
    "requests.session",
    "httpx.client",
    "xmlhttprequest",
];
const CODE_EXEC: &[&str] = &[
    "exec",
    "eval",
    "compile",
    "execfile",
    "function",
    "vm.runinthiscontext",
    "vm.runinnewcontext",
    "vm.runincontext",
    "vm.script",
];
const SHELL_EXEC: &[&str] = &[
    "os.system",
    "os.popen",
    "os.execv",
    "os.execvp",
    "os.execl",
    "os.execlp",
    "os.spawnv",
    "os.spawnl",
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.popen",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
    "commands.getoutput",
    "pty.spawn",
    "asyncio.create_subprocess_shell",
    "asyncio.create_subprocess_exec",
    "child_process.exec",
    "child_process.execsync",
    "child_process.spawn",
    "child_process.spawnsync",
    "child_process.execfile",
    "child_process.execfilesync",
    "shelljs.exec",
    "execa",
    "execa.command",
    "bun.spawn",
    "deno.run",
];
/// Calls that write their first argument's file (or the receiver's, for a path object).
const WRITES_FIRST: &[&str] = &[
    "fs.writefilesync",
    "fs.appendfilesync",
    "fs.writefile",
    "fs.appendfile",
    "fs.createwritestream",
    "fs.promises.writefile",
    "fs.promises.appendfile",
    "writefilesync",
    "appendfilesync",
    "writefile",
    "appendfile",
];
/// Calls that write their second argument's file.
const WRITES_SECOND: &[&str] = &[
    "shutil.copy",
    "shutil.copy2",
    "shutil.copyfile",
    "shutil.move",
    "os.symlink",
    "os.rename",
    "os.replace",
    "fs.copyfilesync",
    "fs.copyfile",
    "fs.symlinksync",
    "fs.renamesync",
    "copyfilesync",
    "urllib.request.urlretrieve",
    "urlretrieve",
    "wget.download",
];

/// The calls' sinks report here; sub-scans of code handed to an interpreter too.
/// Reads code found inside code with every reader of code (given by the caller, so that the
/// parsers need not know the line readers).
pub type ReadAgain = fn(&mut Sink, &crate::text::Region);

pub struct Engine<'s, 't> {
    pub sink: &'s mut Sink<'t>,
    pub lang: Lang,
    pub read_again: ReadAgain,
    /// Files written with downloaded content: (path, where the download came from).
    downloaded: Vec<(String, Origin)>,
    /// Files written with a secret (staged to be sent later): (path, where the secret came
    /// from).
    staged: Vec<(String, Origin)>,
    /// Where tokens were read from a credential helper (a CLI, a keyring): sent in an
    /// authentication header, such a token is used, not leaked.
    tokens: Vec<usize>,
}

impl<'s, 't> Engine<'s, 't> {
    pub fn new(sink: &'s mut Sink<'t>, lang: Lang, read_again: ReadAgain) -> Self {
        Engine { sink, lang, read_again, downloaded: Vec::new(), staged: Vec::new(), tokens: Vec::new() }
    }

    /// A token read at `at` from a credential helper: where it came from.
    pub(super) fn token_read(&mut self, at: usize, what: String) -> Origin {
        self.tokens.push(at);
        Origin { source: String::new(), at, what }
    }

    /// Whether a secret is a token from a credential helper.
    pub(super) fn is_token(&self, origin: &Origin) -> bool {
        self.tokens.contains(&origin.at)
    }

    /// Notes that `path` now holds the secret `origin` read: reading the file reads the secret.
    pub(super) fn stage(&mut self, path: &str, origin: &Origin) {
        let what = format!("{}, saved to {path}", origin.what);
        self.staged.push((path.to_string(), Origin { source: String::new(), at: origin.at, what }));
    }

    /// The secret a file written earlier holds.
    pub(super) fn staged(&self, path: &str) -> Option<Origin> {
        self.staged.iter().rev().find(|(p, _)| p == path).map(|(_, origin)| origin.clone())
    }

    /// What a call returns, reporting the sinks it reaches.
    pub fn call(&mut self, c: &Call) -> Val {
        let name = c.name;
        let last = c.last();
        let first = c.args.first();
        // Text builders.
        if JOINS.contains(&name) || (last == "joinpath" && c.recv.is_some()) {
            let parts: Vec<&Val> = c.recv.filter(|_| last == "joinpath").into_iter().chain(c.args.iter()).collect();
            return Val::join(parts);
        }
        let home_arg = c.args.is_empty() || c.arg_text(0) == Some("~");
        if HOMES.contains(&name) && home_arg && (name != "os.path.expanduser" || !c.args.is_empty()) {
            return Val::text("~", c.start);
        }
        if matches!(name, "os.getenv" | "os.environ.get" | "getenv" | "os.environ.setdefault") {
            let home = c.arg_text(0).is_some_and(|k| matches!(k, "HOME" | "USERPROFILE"));
            return if home { Val::text("~", c.start) } else { Val::default() };
        }
        if SAME_PATH.contains(&name) {
            return match c.args {
                [] => Val::default(),
                [only] => {
                    let mut v = only.clone();
                    v.literal = false;
                    v.text = v.text.map(|t| home_normalized(&t));
                    v
                }
                _ => Val::join(c.args),
            };
        }
        if let Some(recv) = c.recv.filter(|_| SAME_RECV.contains(&last) && c.args.iter().all(|a| !a.is_tainted())) {
            let mut v = recv.clone();
            v.literal = false;
            return v;
        }
        if last == "join"
            && let (Some(sep), Some(list)) =
                (c.recv.and_then(|r| r.text.as_deref()), first.and_then(|a| a.items.as_ref()))
        {
            // Python's `sep.join(list)`.
            let text: Vec<String> = list.iter().map(|i| i.text.clone().unwrap_or_default()).collect();
            let mut out = Val::derived(list.iter());
            out.text = Some(text.join(sep));
            return out;
        }
        if last == "join"
            && let Some(list) = c.recv.and_then(|r| r.items.as_ref())
        {
            // JavaScript's `list.join(sep)`.
            let sep = c.arg_text(0).unwrap_or(",");
            let text: Vec<String> = list.iter().map(|i| i.text.clone().unwrap_or_default()).collect();
            let mut out = Val::derived(list.iter());
            out.text = Some(text.join(sep));
            return out;
        }
        if let Some(v) = self.decoded(c) {
            return v;
        }
        let mut out = Val::derived(c.all());
        out.net = NET_OPENERS.contains(&name);
        // Sources.
        if matches!(name, "keyring.get_password" | "keyring.get_credential" | "keytar.getpassword") {
            out.secret = Some(self.token_read(c.start, format!("reads a password with {name}")));
        }
        if let Some(origin) = self.secret_read(c) {
            // A copy of a credential store holds the credentials.
            if WRITES_SECOND.contains(&name)
                && let Some(copy) = c.args.get(1).and_then(|a| a.text.as_deref())
            {
                self.stage(copy, &origin);
            }
            out.secret = Some(origin);
        }
        if DOWNLOADS.contains(&name) || matches!(last, "urlopen" | "downloadstring" | "downloaddata") {
            out.download = Some(Origin { source: address_of(c), at: c.start, what: format!("downloads with {name}") });
        }
        // Sinks.
        self.network_sink(c);
        self.exec_sink(c);
        self.write_sink(c, &mut out);
        out
    }

    /// base64/hex decoders: the decoded text when the input is known.
    fn decoded(&mut self, c: &Call) -> Option<Val> {
        let last = c.last();
        let encoding = |v: Option<&Val>| v.and_then(|v| v.text.as_deref()).map(str::to_ascii_lowercase);
        let input = if DECODERS.contains(&last) {
            c.args.first().or(c.recv.filter(|_| last == "fromhex"))
        } else if (c.name == "codecs.decode"
            && encoding(c.args.get(1)).is_some_and(|e| e.contains("hex") || e.contains("base64")))
            || (c.name == "buffer.from" && encoding(c.args.get(1)).is_some_and(|e| e == "base64" || e == "hex"))
        {
            c.args.first()
        } else {
            return None;
        };
        let input = input?;
        let mut out = Val::derived([input]);
        out.decoded = true;
        out.at = Some(c.start);
        out.text = input.text.as_deref().and_then(decode);
        Some(out)
    }

    fn secret_read(&self, c: &Call) -> Option<Origin> {
        let last = c.last();
        if matches!(
            last,
            "exists" | "isfile" | "isdir" | "existssync" | "print" | "log" | "mkdir" | "makedirs" | "chmod"
        ) || WRITES_FIRST.contains(&c.name)
        {
            return None;
        }
        if SHELL_EXEC.contains(&c.name) {
            let line = c.args.first().and_then(Val::shown)?;
            if let Some(m) = SECRET_CALL.find(&line) {
                return Some(Origin {
                    source: String::new(),
                    at: c.start,
                    what: format!("reads {}", text::visible(m.as_str())),
                });
            }
        }
        let opened = c.recv.into_iter().chain(c.args.first());
        opened.filter_map(|v| v.text.as_deref()).find_map(|t| {
            if let Some(origin) = self.staged(t) {
                return Some(origin);
            }
            let path = home_normalized(t);
            let m = CRED_SOURCE.find(&path)?;
            (!path.ends_with(".pub")).then(|| Origin {
                source: String::new(),
                at: c.start,
                what: format!("reads {}", m.as_str()),
            })
        })
    }

    fn network_sink(&mut self, c: &Call) {
        let last = c.last();
        let on_connection = c.recv.is_some_and(|r| r.net) && NET_WRITES.contains(&last);
        if !(NETWORK.contains(&c.name) || SENDS.contains(&last) || on_connection) {
            return;
        }
        // A helper's token in the headers or auth of a request authenticates it.
        let sent = c.kwargs.iter().filter(|(k, _)| !matches!(k.as_str(), "headers" | "auth")).map(|(_, v)| v);
        let in_auth = c.kwargs.iter().filter(|(k, _)| matches!(k.as_str(), "headers" | "auth")).map(|(_, v)| v);
        let leaked = in_auth.filter_map(|v| v.secret.clone()).find(|o| !self.is_token(o));
        if let Some(origin) = c.args.iter().chain(sent).find_map(|v| v.secret.clone()).or(leaked) {
            self.chain("exfiltration", c, &origin, &format!("sends it with {}", c.name.trim_start_matches("?.")));
        }
    }

    fn exec_sink(&mut self, c: &Call) {
        let name = c.name;
        let code = CODE_EXEC.contains(&name);
        let shell = SHELL_EXEC.contains(&name);
        if !(code || shell) {
            return;
        }
        if let Some(origin) = c.args.iter().find_map(|v| v.download.clone()) {
            self.chain("remote-code-run", c, &origin, &format!("runs it with {name}"));
            return;
        }
        let Some(first) = c.args.first() else { return };
        // The command line: a string, a list, or a program and its list of arguments.
        let line = match (first.shown(), c.args.get(1).and_then(|a| a.command_line())) {
            (Some(program), Some(rest)) if shell && first.items.is_none() => Some(format!("{program} {rest}")),
            (line, _) => line,
        };
        let Some(line) = line else { return };
        if shell {
            if let Some((file, origin)) = self.downloaded.iter().find(|(f, _)| line.contains(f.as_str())).cloned() {
                self.chain("remote-code-run", c, &origin, &format!("runs {file} with {name}"));
            }
            if let Some(origin) = c.args.iter().find_map(|v| v.secret.clone())
                && SENDS_IN_SHELL.is_match(&line)
            {
                self.chain("exfiltration", c, &origin, &format!("sends it with {name}"));
            }
        }
        if first.decoded {
            let how = if shell { "runs decoded text as a command" } else { "runs decoded text as code" };
            self.sink.report_in_context(
                "obfuscated-exec",
                known("obfuscated-exec").severity,
                c.start,
                c.end,
                format!("{how} with {name}"),
            );
        }
        // Text worked out from pieces is read again as code; a plain literal was read already.
        if !first.literal || first.items.is_some() {
            let lang = if shell { Lang::Shell } else { self.lang };
            self.rescan(&line, lang, c.start, c.end, &format!("in what {name} runs"));
        }
    }

    fn write_sink(&mut self, c: &Call, out: &mut Val) {
        let last = c.last();
        let mode_at = if c.name == "?.open" { 0 } else { 1 };
        let mode = c.arg_text(mode_at).or_else(|| c.kw("mode").and_then(|m| m.text.as_deref())).unwrap_or("");
        let opened_for_write =
            matches!(c.name, "open" | "io.open" | "codecs.open" | "?.open") && mode.contains(['w', 'a', 'x', '+']);
        let (path, data) = if opened_for_write {
            let path = if c.name == "?.open" { c.recv } else { c.args.first() };
            if let Some(p) = path.and_then(|p| p.text.clone()) {
                out.writes = Some(p);
            }
            (path, None)
        } else if WRITES_FIRST.contains(&c.name) || (c.recv.is_some() && matches!(last, "write_text" | "write_bytes")) {
            let on_path = c.recv.filter(|_| matches!(last, "write_text" | "write_bytes"));
            let path = on_path.or(c.args.first());
            let data = if on_path.is_some() { c.args.first() } else { c.args.get(1) };
            (path, data)
        } else if WRITES_SECOND.contains(&c.name) {
            let data =
                Some(c.args.first()).flatten().filter(|_| c.name.contains("retrieve") || c.name.contains("download"));
            (c.args.get(1), data)
        } else if let Some((path, data)) = self.written_to_handle(c) {
            if let Some(origin) = data.download.clone() {
                self.downloaded.push((path.clone(), origin));
            }
            if let Some(origin) = &data.secret {
                self.stage(&path, origin);
            }
            return;
        } else {
            return;
        };
        let Some(path) = path else { return };
        if let (Some(text), Some(origin)) = (path.text.as_deref(), data.and_then(|d| d.secret.as_ref())) {
            self.stage(text, origin);
        }
        if let Some(text) = path.text.as_deref() {
            let downloaded_here = (c.name.contains("retrieve") || c.name.contains("download")).then(|| Origin {
                source: address_of(c),
                at: c.start,
                what: format!("downloads with {}", c.name),
            });
            if let Some(origin) = data.and_then(|d| d.download.clone()).or(downloaded_here) {
                self.downloaded.push((text.to_string(), origin));
            }
            let normalized = home_normalized(text);
            if let Some(((rule, what, _), m)) = target_of(&normalized) {
                let origin = Origin {
                    source: String::new(),
                    at: path.at.unwrap_or(c.start),
                    what: format!("names {what} ({})", m.as_str()),
                };
                self.chain(rule, c, &origin, "writes to it");
            }
        }
    }

    /// What a call writes to a file opened earlier, and the file's path: `f.write(data)`,
    /// `json.dump(data, f)`.
    fn written_to_handle<'v>(&self, c: &Call<'v>) -> Option<(String, &'v Val)> {
        let last = c.last();
        let (handle, data) = match last {
            "write" | "writelines" => (c.recv?, c.args.first()?),
            "dump" => (c.args.get(1)?, c.args.first()?),
            _ => return None,
        };
        Some((handle.writes.clone()?, data))
    }

    /// Reports `id` at the call, naming the source line.
    fn chain(&mut self, id: &'static str, c: &Call, origin: &Origin, how: &str) {
        self.flow(id, c.start, c.end, origin, how);
    }

    /// Reports `id` at `start..end` (the sink), naming the source's line.
    pub fn flow(&mut self, id: &'static str, start: usize, end: usize, origin: &Origin, how: &str) {
        let text = self.sink.text;
        let line_of = |at: usize| text.bytes().take(at).filter(|b| *b == b'\n').count();
        let (source, sink) = (line_of(origin.at), line_of(start));
        // Running a download is judged by its address, as every reader judges it.
        let (id, why) = judged_run(id, &origin.source);
        let message = if source == sink {
            format!("{} and {how}{why}", origin.what)
        } else {
            format!("{}, then {how}{why}", origin.what)
        };
        let end = text.get(start..end.min(text.len())).and_then(|s| s.find('\n')).map_or(end, |i| start + i);
        self.sink.report_flow(id, known(id).severity, start, end, message, source as isize - sink as isize);
    }

    /// Code put together at run time, read again as code of `lang`; what it finds is reported
    /// at the call that runs it.
    pub fn rescan(&mut self, code: &str, lang: Lang, start: usize, end: usize, why: &str) {
        thread_local! { static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) }; }
        if DEPTH.get() >= 3 || code.trim().is_empty() {
            return;
        }
        DEPTH.set(DEPTH.get() + 1);
        let path = format!("{}{}", DECODED_PREFIX, lang.ext());
        let found = crate::scan_text(&path, code);
        DEPTH.set(DEPTH.get() - 1);
        for finding in found {
            // Secrets written in the file are reported once, where they are written, masked:
            // the call that runs them would show them in full and count them twice.
            if finding.severity < Severity::Medium || WRITTEN_SECRETS.contains(&finding.rule.id) {
                continue;
            }
            let message = format!("{why}: {}", finding.message);
            self.sink.report_in_context(finding.rule.id, finding.severity, start, end.min(start + 120), message);
        }
    }
}
