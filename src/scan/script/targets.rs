//! The sources and sinks every reader of code shares: credential stores and secret reads, the
//! places a write makes persistent, the programs that send data. Line readers (`flows`) and
//! parsers (`script`) match the same tables.

use std::sync::LazyLock;

use regex::Regex;

use crate::scan::rule_regex as re;

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

/// (rule, what, target pattern) for persistence targets, read in literals joined into a path.
pub(crate) const TARGETS: &[(&str, &str, &str)] = &[
    (
        "persistence-shell-rc",
        "a shell startup file",
        r"(^|/)\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc)$|\.config/fish/config\.fish$|^/etc/(profile|bash\.bashrc|zshrc|environment)$|^/etc/profile\.d/|powershell_profile\.ps1$|microsoft\.powershell_profile",
    ),
    ("persistence-cron", "cron", r"^/etc/cron|^/var/spool/cron|^/etc/crontab"),
    (
        "persistence-autostart",
        "an autostart location",
        r"library/launchagents|library/launchdaemons|/etc/systemd/|\.config/systemd/|\.config/autostart|/etc/xdg/autostart|/etc/init\.d/|/etc/rc\.local|\.git/hooks/|start menu/programs/startup|currentversion\\\\?run",
    ),
    (
        "agent-config-tamper",
        "the agent's configuration",
        r"\.claude/(settings(\.local)?\.json|hooks|commands|agents)|\.claude\.json$|(^|/)claude\.md$|(^|/)agents\.md$|(^|/)gemini\.md$|\.cursor/(rules|mcp\.json)|\.cursorrules$|\.windsurfrules$|copilot-instructions\.md$|(^|/)\.?mcp\.json$|claude_desktop_config\.json$|\.codex/config\.toml$|\.gemini/settings\.json$|\.(openclaw|clawdbot)/|(^|/)soul\.md$",
    ),
];

pub(crate) static TARGET_RES: LazyLock<Vec<Regex>> = LazyLock::new(|| TARGETS.iter().map(|(_, _, p)| re(p)).collect());

/// Programs that send what they are given over the network, in a command line.
pub(crate) static SENDS_IN_SHELL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(curl|wget|nc|ncat|netcat|socat|telnet|scp|rsync|sftp|ftp|invoke-webrequest|invoke-restmethod|iwr|irm)\b")
});

/// The file name given to text decoded from a literal and read again.
pub(crate) const DECODED_PREFIX: &str = "<decoded>.";
