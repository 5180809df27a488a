//! The sources and sinks every reader of code shares: credential stores and secret reads, the
//! places a write makes persistent, the programs that send data. Line readers (`flows`) and
//! parsers (`script`) match the same tables.

use std::sync::LazyLock;

use regex::Regex;

use crate::rule_regex as re;

/// A credential store, in a path put together from a line's string literals.
pub(crate) static CRED_SOURCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\.ssh/(id_|\*|$)|\.ssh$|^\.ssh/?|\.aws/credentials|\.aws/?$|\.netrc|\.git-credentials|\.pgpass|\.kube/config|\.docker/config\.json|\.npmrc|\.pypirc|\.gnupg|/etc/shadow|login data|cookies\.sqlite|/cookies$|logins\.json|key4\.db|local state$|wallet\.dat|\.config/gh/hosts|\.claude/\.credentials|keychains?/|\.password-store|\.electrum|\.ethereum/keystore|exodus|metamask)"#,
    )
});

/// The whole environment, or a keychain, read in code.
pub(crate) static SECRET_CALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\bdict\s*\(\s*os\.environ\s*\)|\bos\.environ\.(copy|items)\s*\(|\{\s*\*\*os\.environ|json\.dumps\s*\(\s*(dict\()?os\.environ|\bstr\s*\(\s*os\.environ\s*\)|json\.stringify\s*\(\s*process\.env\s*\)|object\.(entries|keys)\s*\(\s*process\.env\s*\)|\{\s*\.\.\.process\.env\s*\}|\bsecurity\s+(find|dump)-(generic|internet)-password|\bdump-keychain\b|\bget-childitem\s+env:|\[environment\]::getenvironmentvariables)"#,
    )
});

/// A command that prints a credential it holds for the user: a CLI's token, a password
/// manager's entry, a cluster's secrets (the program and its arguments, lower-cased).
pub(crate) static TOKEN_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(gh\s+auth\s+token\b|gcloud\s+auth\s+(application-default\s+)?print-(access|identity)-token\b|aws\s+(configure\s+(export-credentials\b|get\s+\S*(secret|token))|sts\s+get-session-token\b)|az\s+account\s+get-access-token\b|kubectl\s+(get|describe)\s+secrets?\b|vault\s+(kv\s+get|read)\b|op\s+(read|item\s+get)\b|bw\s+get\s+(password|item)\b|pass\s+show\b|heroku\s+auth:token\b|doctl\s+auth\s+token\b|git\s+credential\s+fill\b)",
    )
});

/// A header that carries a credential to the service it is for (`Authorization: Bearer ...`,
/// `X-API-Key: ...`): a token sent there is being used, not leaked.
pub(crate) fn is_auth_header(header: &str) -> bool {
    let name = header.split_once(':').map_or("", |(name, _)| name).to_ascii_lowercase();
    ["auth", "token", "key", "bearer"].iter().any(|w| name.contains(w))
}

/// (rule, what, target pattern) for persistence targets, read in literals joined into a path.
pub(crate) const TARGETS: &[(&str, &str, &str)] = &[
    (
        "persistence-shell-rc",
        "a shell startup file",
        r"(^|/)\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)$|\.config/fish/config\.fish$|^/etc/(profile|bash\.bashrc|zshrc|zsh/zshrc|environment)$|^/etc/profile\.d/|powershell_profile\.ps1$|microsoft\.powershell_profile",
    ),
    ("persistence-cron", "cron", r"^/etc/cron|^/var/spool/cron|^/etc/crontab"),
    (
        "persistence-autostart",
        "an autostart location",
        r"library/launchagents|library/launchdaemons|/etc/systemd/|\.config/systemd/|\.config/autostart|/etc/xdg/autostart|/etc/init\.d/|/etc/rc\.local|\.git/hooks/|start menu/programs/startup|currentversion\\\\?run",
    ),
    (
        "persistence-autostart",
        "a file whose commands run whenever a program starts",
        r"\.pth$|(^|/)(sitecustomize|usercustomize)\.py$|\.ssh/config$",
    ),
    (
        "agent-config-tamper",
        "the agent's configuration",
        r"\.claude/(settings(\.local)?\.json|hooks|agents)|\.claude\.json$|(^|/)claude\.md$|(^|/)agents\.md$|(^|/)gemini\.md$|\.cursor/(rules|mcp\.json)|\.cursorrules$|\.windsurfrules$|copilot-instructions\.md$|(^|/)\.?mcp\.json$|claude_desktop_config\.json$|\.codex/config\.toml$|\.gemini/settings\.json$|\.(openclaw|clawdbot)/|(^|/)soul\.md$",
    ),
    // A slash command runs only when someone types its name: a note, not a tamper.
    ("agent-command-added", "a slash command", r"\.claude/commands/"),
];

pub(crate) static TARGET_RES: LazyLock<Vec<Regex>> = LazyLock::new(|| TARGETS.iter().map(|(_, _, p)| re(p)).collect());

/// The first of [`TARGETS`] that `path` names, with what in it names it.
pub(crate) fn target_of(path: &str) -> Option<(&'static (&'static str, &'static str, &'static str), regex::Match<'_>)> {
    TARGET_RES.iter().zip(TARGETS).find_map(|(re, target)| Some((target, re.find(path)?)))
}

/// Programs that send what they are given over the network, in a command line.
pub(crate) static SENDS_IN_SHELL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(curl|wget|nc|ncat|netcat|socat|telnet|scp|rsync|sftp|ftp|invoke-webrequest|invoke-restmethod|iwr|irm)\b")
});

/// The file name given to text decoded from a literal and read again.
pub(crate) const DECODED_PREFIX: &str = "<decoded>.";
