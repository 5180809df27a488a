//! Findings from shell code: pipelines that run a download or decoded text, sends of
//! credentials, destructive commands, persistence, history wiping, root.

use std::sync::LazyLock;

use crate::rule_regex as re;
use regex::Regex;

use super::invocation::*;
use super::{Flow, Mode};
use crate::Sink;
use crate::rules::{Category, Severity};
use crate::script::targets::target_of;
use crate::shell::{self, Command};

pub(super) static HISTORY_FILE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(\.(bash|zsh|sh|python|node_repl|psql|mysql)_history$|\.zhistory$|^/var/log(/|$))"));
pub(super) static DISK_DEVICE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^/dev/(sd[a-z]|hd[a-z]|nvme\d|disk\d|rdisk\d|mmcblk\d|vd[a-z]|xvd[a-z]|mapper/|md\d)"));
pub(super) static SYSTEM_DIR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(/|/\*|~|~/|~/\*|\$home|\$\{home\}|\$home/|\$home/\*|\$\{home\}/|\$\{home\}/\*|/(bin|boot|dev|etc|home|lib|lib64|opt|root|sbin|sys|usr|var|system|users|library|applications)/?\*?|c:\\?|c:/|\$env:userprofile\\?|\$env:systemroot)$",
    )
});
/// The persistence rule a write to `target` falls under, from the table of targets every
/// reader of code shares ([`target_of`]); a write to the agent's config is the script readers'.
fn persistence_target(target: &str) -> Option<&'static str> {
    let ((rule, _, _), _) = target_of(target)?;
    (crate::rules::known(rule).category == Category::Persistence).then_some(*rule)
}

/// With the variable empty, `$VAR/`, `$VAR/*` or `$VAR/usr` start at `/` or a system folder;
/// `$VAR/build/out` names a folder below `/` that is not the system's, so it is not reported.
pub(super) fn empty_var_reaches_root(target: &str) -> bool {
    let rest = EMPTY_VAR_PREFIX.replace(target, "/");
    let rest = rest.trim_matches(['"', '\'']);
    SYSTEM_DIR.is_match(rest) || SYSTEM_DIR.is_match(rest.trim_end_matches('/'))
}

/// `$VAR/...` or `${VAR}/...` whose variable may be empty (not HOME, not `${VAR:?}`).
pub(super) static EMPTY_VAR_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\$(\{[a-z_][a-z0-9_]*\}|[a-z_][a-z0-9_]*)/"));

pub(super) fn pipeline_rules(sink: &mut Sink, stages: &[Command], mode: Mode) {
    let invs: Vec<Option<Invocation>> = stages.iter().map(invocation).collect();
    let Some(start) = stages.first().map(|stage| stage.start) else { return };
    for (j, (later, stage)) in invs.iter().zip(stages).enumerate() {
        let Some(later) = later else { continue };
        let end = stage.end;
        if runs_stdin(later, mode) {
            for earlier in invs.iter().take(j).flatten() {
                if is_downloader(earlier) && downloads_to_stdout(earlier) {
                    let url = download_source(earlier.args);
                    report_download(
                        sink,
                        &url,
                        start,
                        end,
                        &format!("downloads {url} and pipes it into {}", later.name),
                    );
                    break;
                }
                if mode == Mode::Code && is_decoder(earlier) {
                    sink.report(
                        "obfuscated-exec",
                        start,
                        end,
                        format!("decodes text with {} and pipes it into {}", earlier.name, later.name),
                    );
                    break;
                }
            }
        }
        if mode == Mode::Code && sends_stdin(later) {
            for (earlier, earlier_stage) in invs.iter().zip(stages).take(j) {
                let Some(earlier) = earlier else { continue };
                if env_dump(earlier) || reads_credentials(earlier_stage, earlier) {
                    sink.report(
                        "exfiltration",
                        start,
                        end,
                        format!("pipes {} into {}, which sends it over the network", earlier.name, later.name),
                    );
                    break;
                }
            }
        }
    }
}

pub(super) fn report_download(sink: &mut Sink, url: &str, start: usize, end: usize, message: &str) {
    let (rule, why) = download_rule(url);
    sink.report(rule, start, end, format!("{message}{why}"));
}

/// What running a download from `url` (as its command spells it) is: a well-known installer, an
/// address no host answers to, or code from the network; and the words the finding adds. Every
/// reader, of shell lines, scripts and PowerShell, asks this one function.
pub fn download_rule(url: &str) -> (&'static str, &'static str) {
    if is_installer(url) {
        ("remote-code-installer", " (a well-known installer)")
    } else if crate::destinations::names_no_reachable_host(url) {
        ("remote-code-placeholder", " (an address no host answers to)")
    } else {
        ("remote-code-run", "")
    }
}

/// Rule `id` as found by a reader, judged again by the address its download reads when it is
/// remote-code-run and the address is known ([`download_rule`]); with the words it adds.
pub fn judged_run(id: &'static str, address: &str) -> (&'static str, &'static str) {
    if id == "remote-code-run" && !address.is_empty() { download_rule(address) } else { (id, "") }
}

/// The first address (`scheme://...`) in `text`, up to a space, quote or bracket; empty for none.
pub fn address_in(text: &str) -> String {
    let Some(scheme_end) = text.find("://") else { return String::new() };
    let before = text.get(..scheme_end).unwrap_or_default();
    // The scheme's first letter follows the last character that is not one (all ASCII).
    let start =
        before.char_indices().rev().find(|(_, c)| !c.is_ascii_alphanumeric()).map_or(0, |(i, c)| i + c.len_utf8());
    let rest = text.get(start..).unwrap_or_default();
    let end = rest.find(|c: char| c.is_whitespace() || "'\"()`<>|;".contains(c)).unwrap_or(rest.len());
    rest.get(..end).unwrap_or_default().to_string()
}

/// Code handed to an interpreter through a substitution: `bash <(curl ...)`,
/// `sh -c "$(curl ...)"`, `eval "$(echo ... | base64 -d)"`.
pub(super) fn substitution_rules(sink: &mut Sink, command: &Command, inv: &Invocation) {
    let name = inv.name.as_str();
    for word in evaluated_words(inv) {
        for sub in &word.subs {
            if let Some(url) = script_downloads(&sub.script) {
                report_download(
                    sink,
                    &url,
                    command.start,
                    command.end,
                    &format!("runs the download of {url} with {name}"),
                );
            } else if script_decodes(&sub.script) {
                sink.report("obfuscated-exec", command.start, command.end, format!("runs decoded text with {name}"));
            }
        }
    }
}

/// A `$VAR` or `${VAR}` in the double-quoted program text of `python -c`, `node -e`, `perl -e`
/// and the like: the shell pastes the value in before the interpreter parses it.
static SHELL_VAR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$\{?[A-Za-z_][A-Za-z0-9_]*").expect("valid"));

fn shell_value_in_code(sink: &mut Sink, command: &Command, inv: &Invocation) {
    let name = inv.name.as_str();
    // A shell reading `-c "..."` expands its variables the same way it would read them
    // itself; `eval` and `source` run shell code too.
    if SHELLS.contains(&name) || matches!(name, "eval" | "source" | "." | "busybox") {
        return;
    }
    let text = sink.text;
    for word in evaluated_words(inv) {
        let double_quoted = text.get(word.start..word.end).is_some_and(|raw| raw.starts_with('"'));
        if double_quoted && let Some(var) = SHELL_VAR.find(&word.text) {
            let what = format!("{name} runs program text with {} pasted in by the shell", var.as_str());
            sink.report_with("shell-value-in-code", Severity::Medium, command.start, command.end, what);
            return;
        }
    }
}

pub(super) fn command_rules(sink: &mut Sink, command: &Command, flow: &mut Flow) {
    let (start, end) = (command.start, command.end);
    let Some(inv) = invocation(command) else {
        redirect_rules(sink, command, None);
        return;
    };
    let name = inv.name.as_str();
    let args = inv.args;

    substitution_rules(sink, command, &inv);
    shell_value_in_code(sink, command, &inv);

    // Download, (chmod +x,) run.
    if is_downloader(&inv) {
        if let (Some(file), Some(url)) = (downloaded_file(&inv), url_of(args)) {
            flow.downloaded.push((file, url.to_string()));
        }
    } else if !flow.downloaded.is_empty() {
        let program_word =
            shell::program(command).and_then(|(i, _)| command.words.get(i)).map_or("", |w| w.text.as_str());
        let script_arg = if SHELLS.contains(&name) || name.starts_with("python") || SCRIPT_INTERPRETERS.contains(&name)
        {
            args.iter().find(|w| !is_flag(w)).map(|w| w.text.as_str())
        } else {
            None
        };
        let ran = flow.downloaded.iter().find(|(file, _)| {
            let base = file.rsplit('/').next().unwrap_or(file);
            let runs_path = program_word.contains('/') && program_word.rsplit('/').next() == Some(base);
            runs_path || script_arg.is_some_and(|s| s.rsplit('/').next() == Some(base))
        });
        if let Some((file, url)) = ran {
            let message = format!("runs {file}, downloaded from {url} earlier in the same block");
            let url = url.clone();
            report_download(sink, &url, start, end, &message);
        }
    }

    // Destructive deletes.
    if matches!(name, "rm" | "remove-item" | "ri" | "del" | "rmdir" | "rd") {
        let recursive = args.iter().any(|w| {
            let t = w.text.as_str();
            t == "--recursive"
                || t.eq_ignore_ascii_case("-recurse")
                || t == "-r"
                || (t.starts_with('-') && !t.starts_with("--") && (t.contains('r') || t.contains('R')) && t.len() <= 5)
        });
        let no_preserve = has_flag(args, &["--no-preserve-root"]);
        // An empty word (`rm -rf ""`, or a variable known to be empty, filled in) names no
        // file: rm refuses it. `/` trimmed of its slash is the root.
        for target in args.iter().filter(|w| !is_flag(w) && !w.text.is_empty()) {
            let t = target.text.trim_end_matches('/');
            let t = if t.is_empty() { "/" } else { t };
            if recursive && (SYSTEM_DIR.is_match(t) || SYSTEM_DIR.is_match(&target.text)) {
                sink.report("destructive-delete", start, end, format!("deletes {} recursively", target.text));
            } else if recursive
                && EMPTY_VAR_PREFIX.is_match(&target.text)
                && empty_var_reaches_root(&target.text)
                && !target.text.to_ascii_lowercase().starts_with("${home}")
                && !target.text.to_ascii_lowercase().starts_with("$home")
            {
                sink.report_with(
                    "destructive-delete",
                    Severity::High,
                    start,
                    end,
                    format!("deletes {} recursively; if the variable is empty or unset this starts at /", target.text),
                );
            }
        }
        if no_preserve {
            sink.report("destructive-delete", start, end, "rm --no-preserve-root");
        }
    }
    // Disks.
    if name.starts_with("mkfs")
        || name == "wipefs"
        || (name == "diskutil" && args.iter().any(|w| w.text.eq_ignore_ascii_case("eraseDisk")))
    {
        sink.report("destructive-disk", start, end, format!("{name} erases a file system"));
    }
    if name == "dd"
        && let Some(dev) = args.iter().find_map(|w| w.text.strip_prefix("of=")).filter(|d| DISK_DEVICE.is_match(d))
    {
        sink.report("destructive-disk", start, end, format!("dd writes to the device {dev}"));
    }
    if name == "shred" && args.iter().any(|w| DISK_DEVICE.is_match(&w.text)) {
        sink.report("destructive-disk", start, end, "shred on a device");
    }
    // Permissions for everyone on system folders.
    if matches!(name, "chmod" | "chown") && has_flag(args, &["-r", "-R", "--recursive"]) {
        let wide = args.iter().any(|w| w.text.ends_with("777") || w.text.contains("a+rwx") || w.text.contains("o+w"));
        if (wide || name == "chown")
            && args
                .iter()
                .filter(|w| !is_flag(w))
                .any(|w| SYSTEM_DIR.is_match(w.text.trim_end_matches('/')) || w.text == "/")
        {
            let what = if name == "chown" { "changes the owner of" } else { "makes world-writable" };
            sink.report("world-writable", start, end, format!("{what} a system or home folder, recursively"));
        }
    }
    // History and logs.
    let positional: Vec<&str> = args.iter().filter(|w| !is_flag(w)).map(|w| w.text.as_str()).collect();
    let history_wipe = (name == "history" && has_flag(args, &["-c", "-cw", "-wc"]))
        || (name == "unset" && positional.contains(&"HISTFILE"))
        || (matches!(name, "rm" | "shred" | "truncate" | "unlink")
            && positional.iter().any(|p| HISTORY_FILE.is_match(p)))
        || (name == "clear-history")
        || (name == "journalctl"
            && args.iter().any(|w| w.text.starts_with("--rotate") || w.text.starts_with("--vacuum-time=1s")));
    let histfile_assign = command.words.iter().chain(args.iter()).any(|w| {
        let t = w.text.as_str();
        t == "HISTFILE=/dev/null" || t == "HISTSIZE=0" || t == "HISTFILESIZE=0" || t == "SAVEHIST=0"
    });
    if history_wipe || histfile_assign {
        sink.report("history-wipe", start, end, "erases shell history or logs");
    }
    // Cron.
    if name == "crontab" {
        let installs = positional.iter().any(|p| *p == "-" || !p.starts_with('-'))
            || (positional.is_empty() && !has_flag(args, &["-l", "-e", "-r", "-u"]));
        if installs {
            sink.report("persistence-cron", start, end, "installs a crontab");
        } else if has_flag(args, &["-e"]) {
            sink.report_with("persistence-cron", Severity::Medium, start, end, "edits the crontab");
        }
    }
    // Autostart.
    let starts_service = (name == "systemctl" && positional.first() == Some(&"enable"))
        || (name == "launchctl" && positional.first().is_some_and(|p| matches!(*p, "load" | "bootstrap" | "enable")))
        || (name == "update-rc.d" && positional.iter().any(|p| matches!(*p, "defaults" | "enable")))
        || (name == "chkconfig" && positional.contains(&"on"));
    if starts_service {
        sink.report(
            "persistence-autostart",
            start,
            end,
            format!("{name} {} registers it to start automatically", positional.first().unwrap_or(&"")),
        );
    }
    // Keychains.
    if name == "security"
        && positional
            .first()
            .is_some_and(|p| p.starts_with("find-") && p.ends_with("password") || *p == "dump-keychain")
    {
        sink.report("credential-file-read", start, end, "reads a password from the keychain");
    }
    // Credential files (the destination of a copy is written, not read).
    let copies = matches!(name, "cp" | "mv" | "install" | "ln" | "copy-item" | "rsync" | "scp");
    let destination = if copies { args.iter().rposition(|w| !is_flag(w)) } else { None };
    for (i, word) in args.iter().enumerate() {
        if Some(i) == destination {
            continue;
        }
        let Some(kind) = cred_kind(&word.text) else { continue };
        let previous = i.checked_sub(1).and_then(|p| args.get(p)).map(|w| w.text.as_str()).unwrap_or("");
        let upload = word.text.contains('@') || matches!(previous, "-T" | "--upload-file" | "-InFile" | "--post-file");
        let remote_copy = matches!(name, "scp" | "rsync" | "sftp")
            && args
                .iter()
                .any(|w| !is_flag(w) && w.text.contains(':') && !w.text.contains("://") && !w.text.starts_with('/'));
        if ((is_downloader(&inv) || name == "nc") && upload) || remote_copy {
            sink.report("exfiltration", start, end, format!("sends {} over the network", word.text));
        } else if READERS.contains(&name) {
            match kind {
                Cred::Secret => sink.report("credential-file-read", start, end, format!("{name} reads {}", word.text)),
                Cred::EnvFile => sink.report("credential-env-file", start, end, format!("{name} reads {}", word.text)),
            }
        } else if matches!(kind, Cred::Secret) {
            sink.report("credential-path", start, end, format!("{name} uses {}", word.text));
        }
    }
    // A sender whose arguments are the environment or a credential file.
    if is_downloader(&inv) || matches!(name, "nc" | "ncat") {
        for word in args {
            for sub in &word.subs {
                let leaks = sub
                    .script
                    .commands
                    .iter()
                    .any(|c| invocation(c).is_some_and(|i| env_dump(&i) || reads_credentials(c, &i)));
                if leaks {
                    sink.report(
                        "exfiltration",
                        start,
                        end,
                        format!("{name} sends the output of {}", crate::text::visible(&word.text)),
                    );
                }
            }
        }
    }
    // An agent told to start a tool server from whatever a package's newest release is.
    if let Some(spec) = unpinned_server(&inv) {
        sink.report(
            "unpinned-tool-server",
            start,
            end,
            format!("registers a tool server with {name} that runs {spec}, whatever that release is when it starts"),
        );
    }
    // Root.
    if inv.elevated
        || matches!(name, "pkexec" | "gsudo")
        || (name == "su" && has_flag(args, &["-c"]))
        || (name == "runas" && args.iter().any(|w| w.text.to_ascii_lowercase().contains("admin")))
    {
        sink.report("privilege-sudo", start, end, "runs a command as root");
    }
    redirect_rules(sink, command, Some(&inv));
}

/// Rules on the files a command writes: redirections, `tee`, `cp`/`mv`/`install` targets,
/// `sed -i`, PowerShell's content cmdlets.
pub(super) fn redirect_rules(sink: &mut Sink, command: &Command, inv: Option<&Invocation>) {
    let (start, end) = (command.start, command.end);
    let mut targets: Vec<(&str, bool)> = command
        .redirects
        .iter()
        .filter(|r| matches!(r.op.as_str(), ">" | ">>" | ">|" | "&>"))
        .map(|r| (r.target.text.as_str(), r.op != ">>"))
        .collect();
    let mut input_only_truncate = command.words.is_empty()
        || inv.is_some_and(|i| {
            matches!(i.name.as_str(), ":" | "true" | "echo" | "printf" | "cat")
                && i.args.iter().all(|w| w.text.is_empty() || w.text == "/dev/null")
        });
    if let Some(inv) = inv {
        let positional: Vec<&str> = inv.args.iter().filter(|w| !is_flag(w)).map(|w| w.text.as_str()).collect();
        match inv.name.as_str() {
            "tee" => targets.extend(positional.iter().map(|p| (*p, !has_flag(inv.args, &["-a", "--append"])))),
            "cp" | "mv" | "install" | "ln" | "copy-item" | "move-item" if positional.len() >= 2 => {
                targets.extend(positional.last().map(|p| (*p, true)))
            }
            "sed" if inv.args.iter().any(|w| w.text.starts_with("-i")) => {
                targets.extend(positional.iter().skip(1).map(|p| (*p, false)))
            }
            "add-content" | "set-content" | "out-file" => targets.extend(positional.iter().map(|p| (*p, false))),
            "truncate" => {
                input_only_truncate = true;
                targets.extend(positional.iter().map(|p| (*p, true)));
            }
            _ => {}
        }
    }
    for (target, truncates) in targets {
        let target = target.trim_matches(|c| c == '"' || c == '\'');
        let profile = target.eq_ignore_ascii_case("$profile").then_some("persistence-shell-rc");
        if let Some(rule) = persistence_target(target).or(profile) {
            sink.report(rule, start, end, format!("writes to {target}"));
        } else if target.ends_with("authorized_keys") || target.ends_with("authorized_keys2") {
            sink.report("ssh-authorized-keys", start, end, format!("writes to {target}"));
        } else if DISK_DEVICE.is_match(target) {
            sink.report("destructive-disk", start, end, format!("writes to the device {target}"));
        } else if truncates && input_only_truncate && HISTORY_FILE.is_match(target) {
            sink.report("history-wipe", start, end, format!("empties {target}"));
        }
    }
}

/// `claude mcp add NAME -- npx -y pkg@latest` and its like in other agents' CLIs: the package
/// spec of a server registered unpinned (a moving tag), started again at every session.
fn unpinned_server(inv: &Invocation) -> Option<String> {
    const AGENTS: &[&str] = &["claude", "codex", "gemini", "cursor-agent", "qwen", "amp", "opencode", "goose"];
    const RUNNERS: &[&str] = &["npx", "bunx", "pnpx", "uvx", "pipx", "dlx"];
    const MOVING: &[&str] = &["@latest", "@next", "@alpha", "@beta", "@canary", "@nightly", "@dev"];
    if !AGENTS.contains(&inv.name.as_str()) {
        return None;
    }
    let words: Vec<&str> = inv.args.iter().map(|w| w.text.as_str()).collect();
    let add = words.windows(2).position(|w| matches!(w, ["mcp", "add" | "add-json"]))?;
    let rest = words.get(add + 2..)?;
    let runner = rest.iter().position(|w| RUNNERS.contains(&w.rsplit('/').next().unwrap_or(w)))?;
    rest.get(runner + 1..)?
        .iter()
        .filter(|w| !w.starts_with('-'))
        .find(|w| MOVING.iter().any(|m| w.to_ascii_lowercase().ends_with(m)))
        .map(|w| w.to_string())
}
