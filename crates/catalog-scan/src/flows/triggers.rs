//! Which readers a block of code needs, from one pass of a multi-pattern search over it.

use std::sync::LazyLock;

/// Which readers a block needs, from one pass of a multi-pattern search over it: most code
/// holds none of the words any of them starts from, and is left after that one pass.
#[derive(Clone, Copy)]
pub(super) enum Group {
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
    ("gh/hosts", Group::Flow),
    ("environ", Group::Flow),
    // Credentials printed by a CLI or read from a keyring (`TOKEN_COMMAND`).
    ("auth token", Group::Flow),
    ("print-access-token", Group::Flow),
    ("print-identity-token", Group::Flow),
    ("export-credentials", Group::Flow),
    ("get-session-token", Group::Flow),
    ("get-access-token", Group::Flow),
    ("get secret", Group::Flow),
    ("describe secret", Group::Flow),
    ("kv get", Group::Flow),
    ("op read", Group::Flow),
    ("item get", Group::Flow),
    ("bw get", Group::Flow),
    ("pass show", Group::Flow),
    ("auth:token", Group::Flow),
    ("credential fill", Group::Flow),
    ("keyring", Group::Flow),
    ("keytar", Group::Flow),
    // The whole environment listed in shell, piped or written to a file.
    ("printenv", Group::Flow),
    ("env |", Group::Flow),
    ("env >", Group::Flow),
    ("env>", Group::Flow),
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
    ("bash_login", Group::Flow),
    ("kshrc", Group::Flow),
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
    (".pth", Group::Flow),
    ("sitecustomize", Group::Flow),
    ("usercustomize", Group::Flow),
    (".ssh/config", Group::Flow),
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
    (".openclaw", Group::Flow),
    (".clawdbot", Group::Flow),
    ("soul.md", Group::Flow),
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
    // PowerShell: text run, files downloaded (to be started), encoded commands, the profile.
    ("iex", Group::Exec),
    ("-outfile", Group::Exec),
    ("downloadfile", Group::Exec),
    ("start-bitstransfer", Group::Exec),
    ("invoke-expression", Group::Exec),
    ("-enc", Group::Exec),
    ("-ec ", Group::Exec),
    ("powershell", Group::Exec),
    ("pwsh", Group::Exec),
    ("$profile", Group::Exec),
    ("vm.runin", Group::Exec),
    ("vm.script", Group::Exec),
    ("vm.compilefunction", Group::Exec),
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

pub(super) struct Triggers {
    groups: [bool; 5],
}

impl Triggers {
    pub(super) fn of(code: &str) -> Triggers {
        let mut groups = [false; 5];
        for m in TRIGGER_SEARCH.find_overlapping_iter(code) {
            let group = TRIGGERS.get(m.pattern().as_usize()).and_then(|(_, group)| groups.get_mut(*group as usize));
            if let Some(seen) = group {
                *seen = true;
            }
            if groups.iter().all(|g| *g) {
                break;
            }
        }
        // A base64 literal long enough to decode is seen by its length alone.
        if let Some(encoded) = groups.get_mut(Group::Encoded as usize) {
            *encoded = has_long_word(code);
        }
        Triggers { groups }
    }

    pub(super) fn is_empty(&self) -> bool {
        !self.groups.iter().any(|g| *g)
    }

    pub(super) fn has(&self, group: Group) -> bool {
        self.groups.get(group as usize).copied().unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::{Group, TRIGGERS};
    use crate::literals::{necessary_branches, text_of};
    use crate::script::targets;

    /// Every path and call the flow readers start from is reached: each branch of its pattern
    /// needs a word that holds one of the flow triggers, or the block that matches it is never
    /// read. (`TOKEN_COMMAND`'s triggers are its commands' words in a row, `auth token`, which
    /// a pattern's literals, taken word by word, do not show.)
    #[test]
    fn every_flow_pattern_has_a_trigger() {
        let triggers: Vec<&str> =
            TRIGGERS.iter().filter(|(_, group)| matches!(group, Group::Flow)).map(|(word, _)| *word).collect();
        let patterns = [("CRED_SOURCE", targets::CRED_SOURCE.as_str()), ("SECRET_CALL", targets::SECRET_CALL.as_str())]
            .into_iter()
            .chain(targets::TARGETS.iter().map(|(rule, _, pattern)| (*rule, *pattern)));
        let mut untriggered = Vec::new();
        for (name, pattern) in patterns {
            let branches = necessary_branches(pattern, 8).unwrap_or_else(|| panic!("{name}: a branch with no literal"));
            for branch in branches {
                let reached =
                    branch.iter().any(|set| set.iter().all(|word| triggers.iter().any(|t| text_of(word).contains(t))));
                if !reached {
                    let words: Vec<&str> = branch
                        .iter()
                        .flatten()
                        .map(|word| text_of(word))
                        .filter(|word| !triggers.iter().any(|t| word.contains(t)))
                        .collect();
                    untriggered.push(format!("{name}: {words:?}"));
                }
            }
        }
        assert!(untriggered.is_empty(), "branches no flow trigger reaches:\n{}", untriggered.join("\n"));
    }
}
