//! Shell read with tree-sitter-bash, for what the line reader ([`crate::shell`]) cannot
//! see: values followed through variables (`F=~/.aws/credentials; curl -F "f=@$F" ...`,
//! `X=$(curl ...); eval "$X"`), strings run by `sh -c`, `eval`, `python -c`, `node -e`, and
//! heredocs (`python3 - <<EOF`, `cat > run.py <<EOF`) read as code of their language.

use std::collections::HashMap;

use tree_sitter::Node;

use super::engine::{Engine, Lang};
use super::targets::{CRED_SOURCE, SECRET_CALL, TOKEN_COMMAND, is_auth_header};
use super::value::{Origin, Val, home_normalized};
use crate::commands::address_in;
use crate::text::{Region, RegionKind};

const BUDGET: usize = 400_000;
const MAX_DEPTH: usize = 150;

const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "ash"];
const SENDERS: &[&str] = &["curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "http", "https", "xh"];
const READERS: &[&str] = &[
    "cat", "head", "tail", "less", "more", "base64", "xxd", "gpg", "tar", "zip", "strings", "sqlite3", "jq", "gzip",
    "openssl", "od", "hexdump",
];

pub fn walk(engine: &mut Engine, code: &str, base: usize) {
    let tree = super::tree_sitter_parse(&tree_sitter_bash::LANGUAGE.into(), code);
    let Some(tree) = tree else { return };
    let mut walker = Walker { eng: engine, src: code, base, vars: HashMap::new(), budget: BUDGET, depth: 0 };
    walker.stmt(tree.root_node());
}

struct Walker<'e, 's, 't, 'c> {
    eng: &'e mut Engine<'s, 't>,
    src: &'c str,
    base: usize,
    vars: HashMap<String, Val>,
    budget: usize,
    depth: usize,
}

fn named<'c>(node: Node<'c>) -> Vec<Node<'c>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// A command as read: its program (base name, lower-cased), its words' values, and whether a
/// variable was put in while reading them.
struct Read {
    program: String,
    words: Vec<Val>,
    expanded: bool,
}

impl<'c> Walker<'_, '_, '_, 'c> {
    fn text(&self, node: Node) -> &'c str {
        super::node_text(self.src, node)
    }

    fn at(&self, node: Node) -> usize {
        self.base + node.start_byte()
    }

    fn spend(&mut self) -> bool {
        if self.budget == 0 || self.depth > MAX_DEPTH {
            return false;
        }
        self.budget -= 1;
        true
    }

    /// Statements in order; returns the value the last command wrote to its output.
    fn stmt(&mut self, node: Node<'c>) -> Val {
        if !self.spend() {
            return Val::default();
        }
        self.depth += 1;
        let out = match node.kind() {
            "variable_assignment" => {
                self.assign(node);
                Val::default()
            }
            "command" => self.command(node),
            "pipeline" => self.pipeline(node),
            "redirected_statement" => self.redirected(node),
            "comment" | "heredoc_body" => Val::default(),
            _ => {
                let mut last = Val::default();
                for child in named(node) {
                    last = self.stmt(child);
                }
                last
            }
        };
        self.depth -= 1;
        out
    }

    fn assign(&mut self, node: Node<'c>) {
        let Some(name) = node.child_by_field_name("name") else { return };
        let value = node.child_by_field_name("value").map(|v| self.word(v).0).unwrap_or_default();
        self.vars.insert(self.text(name).to_string(), value);
    }

    /// A word's value, and whether a variable was expanded in it.
    fn word(&mut self, node: Node<'c>) -> (Val, bool) {
        if !self.spend() {
            return (Val::default(), false);
        }
        match node.kind() {
            "word" | "number" => (Val::literal(unescape(self.text(node)), self.at(node)), false),
            "raw_string" => {
                let t = self.text(node);
                (Val::literal(t.trim_start_matches('\'').trim_end_matches('\''), self.at(node)), false)
            }
            "ansi_c_string" => {
                (Val::literal(self.text(node).trim_start_matches('$').trim_matches('\''), self.at(node)), false)
            }
            "string_content" => (Val::literal(self.text(node), self.at(node)), false),
            "simple_expansion" | "expansion" => {
                let name = named(node).into_iter().find(|n| n.kind() == "variable_name").map(|n| self.text(n));
                match name {
                    Some("HOME") => (Val::text("~", self.at(node)), false),
                    Some(name) => match self.vars.get(name) {
                        Some(v) => (v.clone(), true),
                        None => (Val::text(self.text(node), self.at(node)), false),
                    },
                    None => (Val::text(self.text(node), self.at(node)), false),
                }
            }
            "command_substitution" => {
                let mut out = Val::default();
                for child in named(node) {
                    let v = self.stmt(child);
                    out.absorb(&v);
                }
                (out, false)
            }
            "string" | "concatenation" => {
                let mut out = Val::text("", self.at(node));
                let mut expanded = false;
                for child in named(node) {
                    let (v, e) = self.word(child);
                    expanded |= e;
                    out = out.concat(&v);
                }
                out.literal = !expanded && named(node).iter().all(|n| n.kind() == "string_content");
                (out, expanded)
            }
            _ => (Val::text(self.text(node), self.at(node)), false),
        }
    }

    fn read(&mut self, node: Node<'c>) -> Option<Read> {
        let mut words = Vec::new();
        let mut expanded = false;
        for child in named(node) {
            match child.kind() {
                "variable_assignment" => self.assign(child),
                "command_name" => {
                    let inner = named(child).first().copied().unwrap_or(child);
                    let (v, e) = self.word(inner);
                    expanded |= e;
                    words.push(v);
                }
                "file_redirect" | "herestring_redirect" | "comment" => {}
                _ if !words.is_empty() => {
                    let (v, e) = self.word(child);
                    expanded |= e;
                    words.push(v);
                }
                _ => {}
            }
        }
        let first = words.first()?.text.clone().unwrap_or_default();
        let mut program = first.rsplit('/').next().unwrap_or(&first).to_ascii_lowercase();
        // Past `sudo`, `env`, `nohup`, `exec`: the program they run.
        let mut skip = 0;
        while matches!(program.as_str(), "sudo" | "env" | "nohup" | "exec" | "command" | "time" | "doas")
            && skip + 1 < words.len()
        {
            skip += 1;
            while words.get(skip).and_then(|w| w.text.as_deref()).is_some_and(|t| t.starts_with('-') || t.contains('='))
            {
                skip += 1;
            }
            let Some(next) = words.get(skip).and_then(|w| w.text.clone()) else { break };
            program = next.rsplit('/').next().unwrap_or(&next).to_ascii_lowercase();
        }
        words.drain(..skip);
        Some(Read { program, words, expanded })
    }

    fn command(&mut self, node: Node<'c>) -> Val {
        let Some(read) = self.read(node) else { return Val::default() };
        let (start, end) = (self.at(node), self.base + node.end_byte());
        let args = read.words.get(1..).unwrap_or_default();
        let texts: Vec<String> = args.iter().map(|a| a.text.clone().unwrap_or_default()).collect();
        let mut out = Val::derived(args.iter());
        let name = read.program.as_str();
        // Sources.
        if READERS.contains(&name)
            && let Some(m) = texts
                .iter()
                .filter(|t| !t.ends_with(".pub"))
                .find_map(|t| CRED_SOURCE.find(&home_normalized(t)).map(|m| m.as_str().to_string()))
        {
            out.secret = Some(Origin { source: String::new(), at: start, what: format!("{name} reads {m}") });
        }
        // A file a secret was written to earlier, read again.
        if READERS.contains(&name)
            && let Some(origin) = texts.iter().find_map(|t| self.eng.staged(t))
        {
            out.secret = Some(origin);
        }
        if matches!(name, "env" | "printenv") && args.is_empty() {
            out.secret =
                Some(Origin { source: String::new(), at: start, what: format!("{name} lists the whole environment") });
        }
        let line = std::iter::once(name.to_string()).chain(texts.iter().cloned()).collect::<Vec<_>>().join(" ");
        if name == "security" && SECRET_CALL.is_match(&line) {
            out.secret =
                Some(Origin { source: String::new(), at: start, what: "reads a password from the keychain".into() });
        }
        if let Some(m) = TOKEN_COMMAND.find(&line) {
            out.secret = Some(self.eng.token_read(start, format!("{} prints a credential", m.as_str())));
        }
        let short = |t: &str, c: char| t.starts_with('-') && !t.starts_with("--") && t.contains(c);
        let to_stdout = match name {
            "curl" => !texts
                .iter()
                .any(|t| short(t, 'o') || short(t, 'O') || t.starts_with("--output") || t.starts_with("--remote-name")),
            _ => {
                texts.iter().any(|t| t.ends_with("O-"))
                    || texts.windows(2).any(|w| matches!(w, [flag, dash] if flag == "-O" && dash == "-"))
            }
        };
        if matches!(name, "curl" | "wget") && to_stdout && texts.iter().any(|t| t.contains("://")) {
            let source = texts.iter().find(|t| t.contains("://")).map(|t| address_in(t)).unwrap_or_default();
            out.download = Some(Origin { source, at: start, what: format!("downloads with {name}") });
        }
        // A helper's token in an authentication header or `-u` is used to log in.
        let authenticates = |i: usize| {
            let (Some(before), Some(arg)) = (i.checked_sub(1).and_then(|b| texts.get(b)), texts.get(i)) else {
                return false;
            };
            matches!(before.as_str(), "-u" | "--user" | "--oauth2-bearer")
                || (matches!(before.as_str(), "-H" | "--header") && is_auth_header(arg))
        };
        // Sinks: a secret given to a sender, or a file holding one uploaded; a download given
        // to an interpreter.
        if SENDERS.contains(&name)
            && let Some(origin) = args
                .iter()
                .enumerate()
                .filter_map(|(i, a)| a.secret.clone().filter(|o| !(authenticates(i) && self.eng.is_token(o))))
                .next()
        {
            self.eng.flow("exfiltration", start, end, &origin, &format!("sends it with {name}"));
        } else if SENDERS.contains(&name)
            && let Some((file, origin)) = uploaded(&texts).find_map(|f| Some((f, self.eng.staged(f)?)))
        {
            self.eng.flow("exfiltration", start, end, &origin, &format!("sends {file} with {name}"));
        }
        let interpreter = SHELLS.contains(&name)
            || name.starts_with("python")
            || matches!(name, "node" | "eval" | "source" | "." | "perl" | "ruby");
        if interpreter && let Some(origin) = args.iter().find_map(|a| a.download.clone()) {
            self.eng.flow("remote-code-run", start, end, &origin, &format!("runs it with {name}"));
        }
        // Code given as a string.
        let code_flag =
            |flags: &[&str]| texts.iter().position(|t| flags.contains(&t.as_str())).and_then(|i| texts.get(i + 1));
        let code = if SHELLS.contains(&name) {
            code_flag(&["-c"]).map(|c| (c.clone(), Lang::Shell))
        } else if name.starts_with("python") {
            code_flag(&["-c"]).map(|c| (c.clone(), Lang::Python))
        } else if matches!(name, "node" | "nodejs" | "deno" | "bun") {
            code_flag(&["-e", "--eval", "-p", "--print"]).map(|c| (c.clone(), Lang::Js))
        } else if name == "eval" {
            Some((texts.join(" "), Lang::Shell))
        } else {
            None
        };
        if let Some((code, lang)) = code {
            self.eng.rescan(&code, lang, start, end, &format!("in the code {name} runs"));
        } else if read.expanded {
            // The command again with its variables put in: what it does at run time.
            let resolved =
                read.words.iter().map(|w| quote(w.text.as_deref().unwrap_or(""))).collect::<Vec<_>>().join(" ");
            self.eng.rescan(&resolved, Lang::Shell, start, end, "with its variables filled in");
        }
        out
    }

    fn pipeline(&mut self, node: Node<'c>) -> Val {
        let mut carried = Val::default();
        for stage in named(node) {
            let value = self.stmt(stage);
            let program = if stage.kind() == "command" { self.read_name(stage) } else { String::new() };
            let (start, end) = (self.at(node), self.base + node.end_byte());
            if SENDERS.contains(&program.as_str())
                && let Some(origin) = carried.secret.clone()
            {
                self.eng.flow("exfiltration", start, end, &origin, &format!("pipes it into {program}"));
            }
            let runs_input = SHELLS.contains(&program.as_str()) || program.starts_with("python") || program == "node";
            if runs_input
                && !self.code_inline(stage, &program)
                && let Some(origin) = carried.download.clone()
            {
                self.eng.flow("remote-code-run", start, end, &origin, &format!("pipes it into {program}"));
            }
            carried.absorb(&value);
        }
        carried
    }

    /// Whether an interpreter is given its code on the command line (`python3 -c CODE`,
    /// `python3 -m json.tool`, `node -e CODE`, `sh -c CMD`): what is piped into it is then its
    /// data, not code it runs. The inline code is read on its own as the command's argument.
    fn code_inline(&self, command: Node, program: &str) -> bool {
        if command.kind() != "command" {
            return false;
        }
        let flags: &[&str] = if program.starts_with("python") {
            &["-c", "-m"]
        } else if program == "node" {
            &["-e", "-p", "--eval", "--print"]
        } else {
            &["-c"]
        };
        let mut cursor = command.walk();
        command
            .children_by_field_name("argument", &mut cursor)
            .any(|arg| flags.contains(&self.text(arg).trim_matches(['"', '\''])))
    }

    fn read_name(&self, command: Node) -> String {
        let name = command.child_by_field_name("name").map(|n| self.text(n)).unwrap_or("");
        name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase()
    }

    /// A command with redirections: a heredoc fed to an interpreter or written to a script
    /// is read as code of that language.
    fn redirected(&mut self, node: Node<'c>) -> Val {
        let body = node.child_by_field_name("body");
        let value = body.map(|b| self.stmt(b)).unwrap_or_default();
        let program = body.filter(|b| b.kind() == "command").map(|b| self.read_name(b)).unwrap_or_default();
        let mut written: Option<String> = None;
        let mut heredocs = Vec::new();
        for child in named(node) {
            match child.kind() {
                "file_redirect" => {
                    if let Some(dest) = child.child_by_field_name("destination") {
                        written = Some(self.text(dest).to_ascii_lowercase());
                        // `env > /tmp/e`: the file holds what the command printed.
                        let output = self.text(child).trim_start_matches(|c: char| c.is_ascii_digit());
                        if output.starts_with(['>', '&'])
                            && let Some(origin) = value.secret.clone()
                            && let Some(path) = self.word(dest).0.text
                        {
                            self.eng.stage(&path, &origin);
                        }
                    }
                }
                "heredoc_redirect" => {
                    heredocs.extend(named(child).into_iter().filter(|n| n.kind() == "heredoc_body"));
                }
                _ => {}
            }
        }
        for body in heredocs {
            let ext = written.as_deref().and_then(|w| w.rsplit_once('.')).map(|(_, e)| e.to_string());
            let lang = if program.starts_with("python") || ext.as_deref() == Some("py") {
                Some(Lang::Python)
            } else if matches!(program.as_str(), "node" | "deno" | "bun")
                || matches!(ext.as_deref(), Some("js" | "mjs" | "cjs" | "ts"))
            {
                Some(Lang::Js)
            } else {
                None
            };
            if let Some(lang) = lang {
                let label = lang.ext().to_string();
                let region = Region {
                    kind: RegionKind::Code { lang: label, shell: false },
                    start: self.at(body),
                    end: self.base + body.end_byte(),
                };
                // Every reader of code, as for a script file of that language: the parser,
                // and the line readers (shell in its string literals, line patterns).
                (self.eng.read_again)(&mut *self.eng.sink, &region);
            }
        }
        value
    }
}

/// The files a sender's arguments upload: `-T FILE`, `--upload-file FILE`, `-d @FILE`,
/// `-F name=@FILE`; not the file it writes (`-o FILE`).
fn uploaded(texts: &[String]) -> impl Iterator<Item = &str> {
    texts.iter().enumerate().filter_map(|(i, t)| {
        let before = i.checked_sub(1).and_then(|b| texts.get(b));
        let writes = before.is_some_and(|b| matches!(b.as_str(), "-o" | "--output" | "-O" | "--output-document"));
        let file = t.split_once('@').map_or(t.as_str(), |(_, f)| f).split(';').next().unwrap_or("");
        (!writes && !file.is_empty()).then_some(file)
    })
}

/// A word as the shell would need it written to mean itself.
fn quote(word: &str) -> String {
    if !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || "|&;<>()$`\"'\\".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn unescape(word: &str) -> String {
    if !word.contains('\\') {
        return word.to_string();
    }
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}
