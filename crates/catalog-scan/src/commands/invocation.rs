//! What one shell command does: the program it runs past wrappers, whether it downloads,
//! runs its standard input, decodes, dumps the environment, reads or sends credentials.

use std::sync::LazyLock;

use crate::rule_regex as re;
use regex::Regex;

use super::Mode;
use crate::shell::{self, Command, Script, SubKind, Word, program_name};

/// Hosts (and host/path prefixes) of installers that many people pipe into a shell. A
/// download from one of them is still reported, at a lower severity.
pub const INSTALLER_SOURCES: &[&str] = &[
    "sh.rustup.rs",
    "static.rust-lang.org/rustup",
    "astral.sh",
    "raw.githubusercontent.com/nvm-sh/nvm/",
    "raw.githubusercontent.com/homebrew/install/",
    "deno.land",
    "deno.com",
    "bun.sh",
    "bun.com",
    "get.docker.com",
    "install.python-poetry.org",
    "get.pnpm.io",
    "get.sdkman.io",
    "ollama.com/install.sh",
    "claude.ai/install",
    "fnm.vercel.app",
    "starship.rs",
    "get.volta.sh",
    "pyenv.run",
    "mise.run",
    "install.determinate.systems",
    "nixos.org/nix/install",
    "get.k3s.io",
    "tailscale.com/install.sh",
    "fly.io/install.sh",
    "cli.github.com",
    "get.helm.sh",
    "raw.githubusercontent.com/helm/helm/",
    "dot.net/v1/dotnet-install",
    "foundry.paradigm.xyz",
    "opencode.ai/install",
    "pixi.sh",
    "get.jenkins.io",
    "sh.vector.dev",
    "cli.doppler.com",
    "get.rvm.io",
    "install.julialang.org",
    "download.docker.com",
    // Official installers of well-known developer and security tools, each named with its
    // project's path: the same host serves anyone's files (raw.githubusercontent.com), so only
    // the project's own folder is one.
    "run.linkerd.io/install",
    "clickhouse.com/cli",
    "cli.coderabbit.ai/install.sh",
    "code-server.dev/install.sh",
    "sentry.io/get-cli/",
    "community.chocolatey.org/install.ps1",
    "get.scoop.sh",
    "install.pi-hole.net",
    "railway.com/install.sh",
    "railway.app/install.sh",
    "get.acme.sh",
    "rclone.org/install.sh",
    "goreleaser.com/static/run",
    "deb.nodesource.com/setup_",
    "rpm.nodesource.com/setup_",
    "get.haskellstack.org",
    "get-ghcup.haskell.org",
    "install.zerotier.com",
    "get.rke2.io",
    "get.k0s.sh",
    "get.pulumi.com",
    "sdk.cloud.google.com",
    "aka.ms/install-azd.sh",
    "aka.ms/installazurecli",
    "packages.gitlab.com/install/repositories/",
    "install.meteor.com",
    "yarnpkg.com/install.sh",
    "bootstrap.saltproject.io",
    "raw.githubusercontent.com/aquasecurity/trivy/",
    "raw.githubusercontent.com/anchore/grype/",
    "raw.githubusercontent.com/anchore/syft/",
    "raw.githubusercontent.com/rhysd/actionlint/",
    "raw.githubusercontent.com/nektos/act/",
    "raw.githubusercontent.com/kubescape/kubescape/",
    "raw.githubusercontent.com/trufflesecurity/trufflehog/",
    "raw.githubusercontent.com/databricks/setup-cli/",
    "raw.githubusercontent.com/lokalise/lokalise-cli-2-go/",
    "raw.githubusercontent.com/golangci/golangci-lint/",
    "raw.githubusercontent.com/ohmyzsh/ohmyzsh/",
    "raw.githubusercontent.com/creationix/nvm/",
    "raw.githubusercontent.com/pypa/get-pip/",
    "raw.githubusercontent.com/pnpm/pnpm/",
    "raw.githubusercontent.com/python-poetry/install.python-poetry.org/",
    "raw.githubusercontent.com/cli/cli/",
    "raw.githubusercontent.com/jdx/mise/",
    "raw.githubusercontent.com/opencode-ai/opencode/",
];

pub(super) const DOWNLOADERS: &[&str] =
    &["curl", "wget", "fetch", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "http", "https", "xh", "aria2c"];
pub(super) const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "mksh", "csh", "tcsh"];
pub(super) const SCRIPT_INTERPRETERS: &[&str] =
    &["node", "nodejs", "perl", "ruby", "php", "lua", "deno", "bun", "osascript", "rscript"];
pub(super) const READERS: &[&str] = &[
    "cat",
    "less",
    "more",
    "head",
    "tail",
    "bat",
    "strings",
    "xxd",
    "hexdump",
    "od",
    "base64",
    "cp",
    "mv",
    "scp",
    "rsync",
    "tar",
    "zip",
    "7z",
    "grep",
    "rg",
    "awk",
    "sed",
    "type",
    "get-content",
    "gc",
    "copy-item",
    "jq",
    "sqlite3",
    "nc",
    "ncat",
    "curl",
    "wget",
    "openssl",
    "python",
    "python3",
    "node",
    "tee",
    "sort",
    "uniq",
    "xargs",
    "gpg",
];

pub(super) static CRED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\.ssh/?$|\.ssh/(\*|id_[a-z0-9_]+$|[^/]*_key$|[^/]+\.pem$)|\.aws/credentials$|(^|[/~])[._]netrc$|\.pgpass$|\.gnupg(/|$)|\.git-credentials$|\.docker/config\.json$|\.kube/config$|^/etc/g?shadow$|login data$|/cookies$|cookies\.(sqlite|binarycookies)$|logins\.json$|key4\.db$|keychains?(/|$)|\.keychain(-db)?$|\.password-store)"#,
    )
});
pub(super) static ENV_FILE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(^|/)\.env(\.(local|production|prod|development|dev|staging|test))?$"));

/// The program a command runs, lower-cased, with its arguments.
pub(super) struct Invocation<'a> {
    pub(super) name: String,
    pub(super) args: &'a [Word],
    pub(super) elevated: bool,
}

pub(super) fn invocation(command: &Command) -> Option<Invocation<'_>> {
    let (i, elevated) = shell::program(command)?;
    let (program, args) = command.words.get(i..)?.split_first()?;
    Some(Invocation { name: program_name(&program.text), args, elevated })
}

pub(super) fn is_flag(word: &Word) -> bool {
    word.text.starts_with('-') && word.text.len() > 1
}

pub(super) fn has_flag(args: &[Word], names: &[&str]) -> bool {
    args.iter().any(|w| names.iter().any(|n| w.text.eq_ignore_ascii_case(n)))
}

/// A short-option cluster (`-fsSLo`) holding `letter`; returns what follows the letter
/// in the cluster and the index of the word.
pub(super) fn short_option(args: &[Word], letter: char) -> Option<(usize, &str)> {
    args.iter().enumerate().find_map(|(i, w)| {
        let body = w.text.strip_prefix('-').filter(|body| !body.is_empty() && !body.starts_with('-'))?;
        let (before, after) = body.split_once(letter)?;
        before.chars().all(|c| c.is_ascii_alphanumeric()).then_some((i, after))
    })
}

/// The value of an option: `-o FILE`, `-oFILE`, `--output FILE`, `--output=FILE`.
pub(super) fn option_value<'a>(args: &'a [Word], short: Option<char>, long: &[&str]) -> Option<&'a str> {
    for (i, w) in args.iter().enumerate() {
        for name in long {
            if w.text.eq_ignore_ascii_case(name) {
                return args.get(i + 1).map(|w| w.text.as_str());
            }
            if let Some(v) = w.text.strip_prefix(&format!("{name}=")) {
                return Some(v);
            }
        }
    }
    let letter = short?;
    let (i, rest) = short_option(args, letter)?;
    if rest.is_empty() { args.get(i + 1).map(|w| w.text.as_str()) } else { Some(rest) }
}

pub(super) fn is_downloader(inv: &Invocation) -> bool {
    DOWNLOADERS.contains(&inv.name.as_str())
}

/// Whether a download writes the body to standard output (so a pipe can run it).
pub(super) fn downloads_to_stdout(inv: &Invocation) -> bool {
    let stdout = |v: Option<&str>| v.is_none_or(|v| v == "-" || v == "/dev/stdout");
    match inv.name.as_str() {
        "curl" => {
            let remote_name =
                has_flag(inv.args, &["--remote-name", "--remote-name-all"]) || short_option(inv.args, 'O').is_some();
            !remote_name && stdout(option_value(inv.args, Some('o'), &["--output"]))
        }
        "wget" => {
            option_value(inv.args, Some('O'), &["--output-document"]).is_some_and(|v| v == "-" || v == "/dev/stdout")
        }
        "iwr" | "irm" | "invoke-webrequest" | "invoke-restmethod" => !has_flag(inv.args, &["-outfile"]),
        "aria2c" => false,
        _ => !has_flag(inv.args, &["-o", "--output", "--download", "-d"]),
    }
}

/// The file a download writes, when it writes one.
pub(super) fn downloaded_file(inv: &Invocation) -> Option<String> {
    let url = url_of(inv.args)?;
    let from_url = || {
        url.rsplit('/').next().filter(|s| !s.is_empty()).map(|s| s.split(['?', '#']).next().unwrap_or(s).to_string())
    };
    match inv.name.as_str() {
        "curl" => {
            if let Some(v) = option_value(inv.args, Some('o'), &["--output"]) {
                return (v != "-").then(|| v.to_string());
            }
            if has_flag(inv.args, &["--remote-name"]) || short_option(inv.args, 'O').is_some() {
                return from_url();
            }
            None
        }
        "wget" => match option_value(inv.args, Some('O'), &["--output-document"]) {
            Some("-") => None,
            Some(v) => Some(v.to_string()),
            None => from_url(),
        },
        "iwr" | "invoke-webrequest" | "irm" | "invoke-restmethod" => {
            option_value(inv.args, None, &["-outfile"]).map(str::to_string)
        }
        _ => None,
    }
}

pub(super) fn url_of(args: &[Word]) -> Option<&str> {
    args.iter().map(|w| w.text.as_str()).find(|t| t.contains("://")).or_else(|| {
        args.iter().rev().map(|w| w.text.as_str()).find(|t| !t.starts_with('-') && t.contains('.') && !t.contains(' '))
    })
}

/// The address a download reads, as its command spells it: its URL, or
/// [`URL_IN_A_VARIABLE`](crate::destinations::URL_IN_A_VARIABLE) when it names none but
/// reads a variable, or nothing.
pub(super) fn download_source(args: &[Word]) -> String {
    match url_of(args) {
        Some(url) => url.to_string(),
        None if args.iter().any(|w| w.text.contains('$')) => crate::destinations::URL_IN_A_VARIABLE.to_string(),
        None => String::new(),
    }
}

pub fn is_installer(url: &str) -> bool {
    let target = crate::destinations::host_and_path(url);
    let host = target.split(['/', ':']).next().unwrap_or("");
    INSTALLER_SOURCES.iter().any(|source| {
        if source.contains('/') {
            target.starts_with(source) || target.starts_with(&format!("www.{source}"))
        } else {
            host == *source || host.ends_with(&format!(".{source}"))
        }
    })
}

/// The kinds of program that run code they are given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Interpreter {
    Shell,
    Python,
    Other,
}

/// The kind of interpreter a program is, if it is one.
fn interpreter(name: &str) -> Option<Interpreter> {
    if SHELLS.contains(&name) || name == "busybox" {
        Some(Interpreter::Shell)
    } else if name.starts_with("python") || name == "py" || name == "pypy3" {
        Some(Interpreter::Python)
    } else if SCRIPT_INTERPRETERS.contains(&name) || matches!(name, "pwsh" | "powershell") {
        Some(Interpreter::Other)
    } else {
        None
    }
}

/// Whether the command runs code it reads from standard input.
pub(super) fn runs_stdin(inv: &Invocation, mode: Mode) -> bool {
    let name = inv.name.as_str();
    let positional: Vec<&str> = inv.args.iter().filter(|w| !is_flag(w)).map(|w| w.text.as_str()).collect();
    let stdin_arg = |p: &[&str]| p.first().is_none_or(|f| *f == "-" || *f == "/dev/stdin");
    if matches!(name, "iex" | "invoke-expression") {
        return true;
    }
    if matches!(name, "source" | ".") {
        return positional.first().is_some_and(|f| *f == "/dev/stdin" || *f == "-");
    }
    let Some(kind) = interpreter(name) else { return false };
    let (is_shell, is_python) = (kind == Interpreter::Shell, kind == Interpreter::Python);
    // Code given on the command line reads what is piped in as data, in prose as in a script.
    let inline_code = (is_python && has_flag(inv.args, &["-c", "-m"]))
        || (name == "node" && has_flag(inv.args, &["-e", "-p", "--eval", "--print"]));
    if inline_code {
        return false;
    }
    if mode == Mode::Prose {
        return true;
    }
    if has_flag(inv.args, &["-c", "-m", "-e", "-E", "-r", "--eval", "-command", "-p"]) {
        return has_flag(inv.args, &["-command"]) && positional.first().is_some_and(|f| *f == "-");
    }
    if is_shell
        && inv.args.iter().any(|w| w.text == "-s" || (is_flag(w) && !w.text.starts_with("--") && w.text.contains('s')))
    {
        return true;
    }
    if name == "deno" || name == "bun" {
        return positional.get(1).is_some_and(|f| *f == "-");
    }
    stdin_arg(&positional)
}

/// Words a command runs as code: `eval ARGS`, `sh -c ARG`, `python -c ARG`, `iex ARGS`, and a
/// script given as `<(...)`.
pub(super) fn evaluated_words<'a>(inv: &Invocation<'a>) -> Vec<&'a Word> {
    let name = inv.name.as_str();
    // A process substitution is a file to the command: code only to one that runs a file it
    // is given (`bash <(curl ...)`), data to the rest (`diff <(curl ...) <(curl ...)`).
    let runs_files = interpreter(name).is_some() || matches!(name, "source" | ".");
    let mut out: Vec<&Word> =
        inv.args.iter().filter(|w| runs_files && w.subs.iter().any(|s| s.kind == SubKind::ProcessIn)).collect();
    if matches!(name, "eval" | "iex" | "invoke-expression" | "source" | ".") {
        out.extend(inv.args.iter());
    }
    let code_flag: &[&str] = if SHELLS.contains(&name) || name.starts_with("python") {
        &["-c"]
    } else if matches!(name, "node" | "nodejs" | "deno" | "bun") {
        &["-e", "--eval", "-p", "--print"]
    } else if matches!(name, "perl" | "ruby") {
        &["-e", "-E"]
    } else if name == "php" {
        &["-r"]
    } else if matches!(name, "pwsh" | "powershell") {
        &["-command", "-c"]
    } else {
        &[]
    };
    for (i, w) in inv.args.iter().enumerate() {
        if code_flag.iter().any(|f| w.text.eq_ignore_ascii_case(f)) {
            out.extend(inv.args.get(i + 1));
        }
    }
    out
}

pub(super) fn is_decoder(inv: &Invocation) -> bool {
    let args = inv.args;
    match inv.name.as_str() {
        "base64" | "base32" | "basenc" => has_flag(args, &["-d", "--decode", "-D"]),
        "xxd" => has_flag(args, &["-r", "-r -p", "-rp", "-pr"]),
        "openssl" => args.iter().any(|w| w.text.contains("base64")) && has_flag(args, &["-d"]),
        "printf" => args.iter().any(|w| w.text.contains("\\x") || w.text.contains("\\u00")),
        "echo" => has_flag(args, &["-e", "-ne", "-en"]) && args.iter().any(|w| w.text.contains("\\x")),
        "rev" => true,
        "tr" => args.iter().any(|w| w.text.to_ascii_lowercase().contains("n-za-m")),
        "certutil" => has_flag(args, &["-decode", "/decode"]),
        _ => false,
    }
}

/// Whether a script, as a substitution, produces downloaded (or decoded) text.
pub(super) fn script_downloads(script: &Script) -> Option<String> {
    script
        .commands
        .iter()
        .filter_map(invocation)
        .find(|inv| is_downloader(inv) && downloads_to_stdout(inv))
        .map(|inv| download_source(inv.args))
}

pub(super) fn script_decodes(script: &Script) -> bool {
    script.commands.iter().filter_map(invocation).any(|inv| is_decoder(&inv))
}

pub(super) fn env_dump(inv: &Invocation) -> bool {
    let positional = inv.args.iter().filter(|w| !is_flag(w)).count();
    match inv.name.as_str() {
        "env" | "printenv" => positional == 0,
        "set" => inv.args.is_empty(),
        "export" => has_flag(inv.args, &["-p"]),
        "cat" | "strings" => inv.args.iter().any(|w| w.text.starts_with("/proc/") && w.text.ends_with("/environ")),
        "get-childitem" | "gci" | "dir" | "ls" => inv.args.iter().any(|w| w.text.eq_ignore_ascii_case("env:")),
        _ => false,
    }
}

pub(super) enum Cred {
    Secret,
    EnvFile,
}

pub(super) fn cred_kind(path: &str) -> Option<Cred> {
    let path = path.trim_matches(|c| c == '"' || c == '\'');
    let path = path.strip_prefix('@').unwrap_or(path);
    let path =
        path.split_once('=').filter(|(k, _)| !k.contains('/')).map_or(path, |(_, v)| v.strip_prefix('@').unwrap_or(v));
    if path.ends_with(".pub") {
        return None;
    }
    if CRED.is_match(path) {
        Some(Cred::Secret)
    } else if ENV_FILE.is_match(path) {
        Some(Cred::EnvFile)
    } else {
        None
    }
}

pub(super) fn reads_credentials(command: &Command, inv: &Invocation) -> bool {
    let reader = READERS.contains(&inv.name.as_str());
    (reader && inv.args.iter().any(|w| cred_kind(&w.text).is_some()))
        || command.redirects.iter().any(|r| r.op == "<" && cred_kind(&r.target.text).is_some())
}

/// Whether a command sends its standard input over the network.
pub(super) fn sends_stdin(inv: &Invocation) -> bool {
    let args = inv.args;
    match inv.name.as_str() {
        "nc" | "ncat" | "netcat" | "socat" | "telnet" => true,
        "curl" => args.iter().enumerate().any(|(i, w)| {
            let t = w.text.as_str();
            let next = args.get(i + 1).map(|w| w.text.as_str()).unwrap_or("");
            t.ends_with("@-")
                || (matches!(t, "-d" | "--data" | "--data-binary" | "--data-urlencode" | "--json" | "-F" | "--form")
                    && next.ends_with("@-"))
                || (matches!(t, "-T" | "--upload-file") && next == "-")
        }),
        "wget" => args.iter().any(|w| w.text.starts_with("--post-file=/dev/stdin") || w.text == "--post-file=-"),
        "http" | "https" | "xh" => true,
        _ => false,
    }
}
