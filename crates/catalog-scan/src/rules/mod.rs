//! The rule table: every rule the scanner can report, with what it means and how to fix it.
//!
//! A rule is one entry here. Rules with `patterns` are found by the generic line matcher in
//! [`super::lines`]; the others are found by code (the shell reader, the Unicode, secret and
//! spec checks), which names the rule by its id. A test checks that every id is unique and
//! that every id the code emits has an entry.

mod behaviour;
mod spec;
mod system;
mod types;

pub use types::*;
/// The cloud instance metadata service's addresses and paths.
const METADATA_ADDRESS: &str = r"(169\.254\.169\.254|169\.254\.170\.2\b|\bmetadata\.google\.internal\b|/computemetadata/v1|/latest/meta-data\b|\bfd00:ec2::254\b)";
/// A program or call that makes a request: what turns an address on a line into a request.
const HTTP_CLIENT: &str = r"(\b(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|urlopen|httpx|aiohttp|axios|webclient|httpclient|nc|ncat)\b|\brequests\.(get|post|put|request|session)\b|\bhttps?\.(get|request)\s*\(|\bfetch\s*\(|\burllib\b|net/http)";
const CRED_PATH: &str = r#"(\.ssh/id_[a-z0-9_]+|\.ssh/[^\s'"]*_key\b|\.aws/credentials|\.netrc\b|_netrc\b|\.pgpass\b|\.gnupg\b|\.git-credentials|\.docker/config\.json|\.kube/config\b|/etc/shadow\b|login\s?data|cookies\.sqlite|logins\.json|key4\.db|\.password-store|keychains?/)"#;
const READ_FN: &str = r#"(\bopen\s*\(|read_text\s*\(|read_bytes\s*\(|readfile(sync)?\s*\(|\bget-content\b|file\.read\b|fs\.read|\breadlines\s*\()"#;
const SEND_FN: &str = r#"(requests\.(post|put|patch|get)\s*\(|httpx\.(post|put|get)\s*\(|urlopen\s*\(|\bfetch\s*\(|axios(\.post|\.put)?\s*\(|http\.request\s*\(|invoke-(webrequest|restmethod)|xmlhttprequest|sendbeacon)"#;

/// Every rule: this file's table, then the behaviour rules ([`behaviour`]) and those of the
/// machine's defences ([`system`]), then the spec's ([`spec`]). Order: the page and SARIF
/// list rules in this order.
pub static RULES: std::sync::LazyLock<Vec<Rule>> = std::sync::LazyLock::new(|| {
    TABLE.iter().chain(behaviour::RULES).chain(system::RULES).chain(spec::RULES).cloned().collect()
});

const TABLE: &[Rule] = &[
    // ---- Remote code ----
    Rule {
        id: "remote-code-run",
        category: Category::RemoteCode,
        severity: Severity::Critical,
        title: "Runs code downloaded from the network",
        why: "A download piped or handed to an interpreter runs whatever the server sends at that moment, with your user's rights; nobody reviewed that code, and it can change after the skill was checked.",
        fix: "Download the script to a file, check its hash or signature, review it, then run it; or install the tool from a package manager.",
        scope: Scope::Code,
        patterns: &[
            // PowerShell runs a download only where the two are one expression: the download as
            // iex's argument, or piped into it. Both words on one line (a detection query, a
            // list of strings, a regex alternation) name the technique; they do not use it.
            p(&[
                r"\b(iex|invoke-expression)\s*\(?\s*\(?\s*(\(\s*new-object\s+(system\.)?net\.webclient\s*\)\s*\.\s*download(string|data)|iwr\b|irm\b|invoke-webrequest|invoke-restmethod)",
            ]),
            p(&[
                r"(\biwr\b|\birm\b|invoke-webrequest|invoke-restmethod|\.download(string|data)\s*\([^)|]*\))[^|;\n]*\|\s*(iex|invoke-expression)\b",
            ]),
            p(&[r"\bexec\s*\(\s*(requests\.get|urllib\.request\.urlopen|urlopen)\s*\("]),
            p(&[r"\beval\s*\(\s*await\s*\(?\s*(await\s+)?fetch\s*\("]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "remote-code-installer",
        category: Category::RemoteCode,
        severity: Severity::Medium,
        title: "Runs a well-known installer straight from the network",
        why: "Installers such as rustup, uv, nvm, Homebrew, Deno or Bun are widely used, but piping them into a shell still runs unreviewed code from the network.",
        fix: "Prefer a package manager, or pin the installer's version and say what it installs so users can choose.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "remote-code-placeholder",
        category: Category::RemoteCode,
        severity: Severity::Medium,
        title: "Pipes a download from a placeholder address into a shell",
        why: "The address names no host that code could come from (none at all, a name reserved for examples, a loopback or defanged address, a placeholder): as written it runs nothing from the network, but a copy with the blank filled in runs unreviewed code.",
        fix: "Name the real installer's address, pinned to a version, or describe the step in words.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Credentials ----
    Rule {
        id: "credential-file-read",
        category: Category::Credentials,
        severity: Severity::High,
        title: "Reads a credential file",
        why: "SSH keys, cloud credentials, .netrc, .pgpass, GnuPG keys, browser cookie and login stores, keychains and /etc/shadow give access to other systems; a skill that reads them can leak them.",
        fix: "Let the tool that needs the credential read it itself (ssh, aws, git credential helpers); never print, copy or upload the file.",
        scope: Scope::Code,
        patterns: &[p(&[CRED_PATH, READ_FN])],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "credential-env-file",
        category: Category::Credentials,
        severity: Severity::Medium,
        title: "Reads a .env file",
        why: ".env files usually hold API keys and passwords; printing or copying one puts them in the agent's context and logs.",
        fix: "Load the variables the skill needs by name instead of reading the whole file into the conversation.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "credential-path",
        category: Category::Credentials,
        severity: Severity::Low,
        title: "Names a credential file in a command",
        why: "The command touches a credential file (an SSH key, cloud credentials, a keychain) without reading it out; worth a look.",
        fix: "Make sure the file is only passed to the program that needs it.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Secrets ----
    Rule {
        id: "secret-value",
        category: Category::Secrets,
        severity: Severity::High,
        title: "Contains what looks like a real secret",
        why: "A private key or an API token in a published skill is exposed to everyone who reads it, and to every agent that loads it.",
        fix: "Revoke the secret now, remove it from the file and its history, and read it from an environment variable instead.",
        scope: Scope::All,
        patterns: &[],
        suppressible: false,
        once_per_file: false,
    },
    Rule {
        id: "secret-name",
        category: Category::Secrets,
        severity: Severity::Info,
        title: "Names a credential",
        why: "The skill expects a credential such as an API key or token; the agent will use it on your behalf.",
        fix: "Nothing to fix: this is disclosure. Say in SKILL.md what the credential is for and the least access it needs.",
        scope: Scope::All,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Hidden Unicode ----
    Rule {
        id: "unicode-bidi",
        category: Category::HiddenUnicode,
        severity: Severity::High,
        title: "Bidirectional control characters",
        why: "Bidi controls reorder how text is displayed, so what a reviewer sees differs from what the agent reads (\"Trojan Source\").",
        fix: "Remove the control characters; right-to-left text displays correctly without them.",
        scope: Scope::All,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "unicode-tag",
        category: Category::HiddenUnicode,
        severity: Severity::Critical,
        title: "Hidden text in Unicode tag characters",
        why: "Tag characters are invisible in editors and on GitHub, but models read them as text: they can carry instructions nobody sees.",
        fix: "Remove the tag characters (U+E0000 to U+E007F).",
        scope: Scope::All,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "unicode-invisible",
        category: Category::HiddenUnicode,
        severity: Severity::Medium,
        title: "Invisible characters",
        why: "Zero-width and other default-ignorable characters hide text, split words so filters miss them, or make two different strings look the same.",
        fix: "Remove them; a byte-order mark belongs only at the very start of a file.",
        scope: Scope::All,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "unicode-variation-selector",
        category: Category::HiddenUnicode,
        severity: Severity::Medium,
        title: "Stray variation selectors",
        why: "Variation selectors outside emoji presentation are invisible and can encode hidden data.",
        fix: "Remove them; only U+FE0F after an emoji is needed.",
        scope: Scope::All,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Destructive ----
    Rule {
        id: "destructive-delete",
        category: Category::Destructive,
        severity: Severity::Critical,
        title: "Deletes the file system, the home folder, or a path that may be empty",
        why: "rm -rf on /, ~ or $HOME destroys the machine's or the user's files; rm -rf \"$DIR/\" deletes from / when DIR is empty.",
        fix: "Delete only paths the skill created, under a checked variable: \"${DIR:?}/build\".",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "destructive-disk",
        category: Category::Destructive,
        severity: Severity::Critical,
        title: "Overwrites a disk or file system",
        why: "mkfs, wipefs, or dd and redirects onto a device erase everything on it.",
        fix: "Never format or write raw devices from a skill.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "fork-bomb",
        category: Category::Destructive,
        severity: Severity::Critical,
        title: "Fork bomb",
        why: "A function that pipes into itself in the background spawns processes until the machine stops responding.",
        fix: "Remove it.",
        scope: Scope::Code,
        patterns: &[p(&[r"%0\s*\|\s*%0"])],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "world-writable",
        category: Category::Destructive,
        severity: Severity::High,
        title: "Makes system or home folders writable by everyone",
        why: "chmod -R 777 on /, ~ or a system folder lets any user or process change every file there, and breaks programs that check permissions (ssh, sudo).",
        fix: "Give the narrowest permission to the one path that needs it.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "history-wipe",
        category: Category::Destructive,
        severity: Severity::High,
        title: "Wipes shell history or system logs",
        why: "Clearing history or logs removes the record of what ran: a common step in hiding what a script did.",
        fix: "Remove it; a skill never needs to erase history or logs.",
        scope: Scope::Code,
        patterns: &[p(&[
            r"\b(wevtutil(\.exe)?\s+cl|clear-eventlog|remove-item\s+.*\(get-psreadlineoption\)\.historysavepath)\b",
        ])],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Obfuscation ----
    Rule {
        id: "obfuscated-exec",
        category: Category::Obfuscation,
        severity: Severity::Critical,
        title: "Runs decoded or obfuscated code",
        why: "Code that is base64- or hex-decoded into a shell or eval hides what it does from anyone reading the skill.",
        fix: "Ship the code as readable source.",
        scope: Scope::Code,
        patterns: &[
            p(&[
                r"\b(exec|eval|compile)\s*\(\s*(base64\.b64decode|base64\.decodebytes|codecs\.decode|bytes\.fromhex|zlib\.decompress|marshal\.loads|__import__\s*\(\s*.base64)",
            ]),
            p(&[r"\beval\s*\(\s*(atob|buffer\.from|unescape|string\.fromcharcode)\s*\("]),
            p(&[r"\bnew\s+function\s*\(\s*(atob|buffer\.from)\s*\("]),
            p(&[r"\b(powershell|pwsh)(\.exe)?\b.*\s-(encodedcommand|enc|ec|e)\s+[a-z0-9+/=]{16,}"]),
            p(&[
                r"\b(iex|invoke-expression)\s*\(?\s*(\[\s*(system\.)?text\.encoding\s*\]\s*::\s*\w+\s*\.\s*getstring\s*\(\s*)?\[\s*(system\.)?convert\s*\]\s*::\s*frombase64string",
            ]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "encoded-blob",
        category: Category::Obfuscation,
        severity: Severity::Medium,
        title: "Long encoded blob in code",
        why: "A long base64 or hex string in a script can hide a payload that no reviewer reads.",
        fix: "Ship the content as a readable file, or say what the blob is and how it was made.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Exfiltration ----
    Rule {
        id: "exfiltration",
        category: Category::Exfiltration,
        severity: Severity::Critical,
        title: "Sends environment variables or credential files to a URL",
        why: "The environment and credential files hold API keys and tokens; sending them to a server hands them to whoever runs it.",
        fix: "Send only the data the task needs, never the whole environment or a credential file.",
        scope: Scope::Code,
        patterns: &[
            p(&[
                SEND_FN,
                r"(\bos\.environ\s*[,)}]|dict\s*\(\s*os\.environ\s*\)|os\.environ\.copy\s*\(|json\.dumps\s*\(\s*os\.environ)",
            ]),
            p(&[
                SEND_FN,
                r"(json\.stringify\s*\(\s*process\.env\s*\)|body\s*:\s*process\.env\b|data\s*:\s*process\.env\b)",
            ]),
            p(&[SEND_FN, CRED_PATH, READ_FN]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Persistence and privilege ----
    Rule {
        id: "persistence-cron",
        category: Category::Persistence,
        severity: Severity::High,
        title: "Installs a cron job",
        why: "A cron job keeps running after the task is done, without the user being asked again.",
        fix: "Tell the user how to schedule the job themselves instead of installing it.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "persistence-shell-rc",
        category: Category::Persistence,
        severity: Severity::Medium,
        title: "Edits a shell startup file",
        why: "Lines added to ~/.bashrc, ~/.zshrc or ~/.profile run in every new shell, long after the skill is gone.",
        fix: "Print the line and let the user add it.",
        scope: Scope::Code,
        patterns: &[p(&[r"(add-content|set-content|out-file)\b.*\$profile\b"])],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "persistence-autostart",
        category: Category::Persistence,
        severity: Severity::Medium,
        title: "Registers something to start automatically",
        why: "Launch agents, systemd units, autostart entries and scheduled tasks keep a program running across reboots; an editor task run when a folder opens, Python's .pth and sitecustomize files, ssh's config and global git settings run a command again whenever that program starts.",
        fix: "Ask the user to enable the service themselves, and say what it does.",
        scope: Scope::Code,
        patterns: &[
            p(&[r"(\bschtasks(\.exe)?\s+/create\b|\bregister-scheduledtask\b|currentversion\\run\b)"]),
            // An editor task that runs when the folder is opened.
            p(&[r#""runon"\s*:\s*"folderopen""#]),
            // Settings of every repository that run a program: hooks, the ssh command, the pager.
            p(&[r"\bgit\s+config\s+(--global|--system)\s+.*\bcore\.(hookspath|sshcommand|pager|fsmonitor)\b"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "ssh-authorized-keys",
        category: Category::Persistence,
        severity: Severity::High,
        title: "Adds an SSH authorized key",
        why: "A key added to authorized_keys lets its owner log in to this account from anywhere.",
        fix: "Never add keys from a skill; tell the user how to do it for their own key.",
        // Written from code (the shell reader), or a key of the skill's own that the text
        // says to add.
        scope: Scope::All,
        patterns: &[p(&[
            r"\b(add|append|write|put|insert|copy|paste)\b.{0,200}?\bauthorized_keys\b",
            r"\b(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp\d+)\s+aaaa[0-9a-z+/]{20,}",
        ])],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "privilege-sudo",
        category: Category::Persistence,
        severity: Severity::Low,
        title: "Runs commands as root",
        why: "sudo, doas or su give a command full control of the machine; an agent should not hold that without the user's explicit approval.",
        fix: "Avoid root where a user-level install works; otherwise tell the user to run that step themselves.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: true,
    },
    // ---- Instructions to the agent ----
    Rule {
        id: "agent-override",
        category: Category::AgentInstructions,
        severity: Severity::High,
        title: "Tells the agent to override its instructions",
        why: "Text that tells the agent to ignore its previous instructions or its rules is how prompt injection takes over an agent.",
        fix: "Remove it; a skill adds instructions, it never cancels the user's or the agent's.",
        scope: Scope::Prose,
        patterns: &[
            p(&[
                r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+|my\s+)?(previous|prior|above|earlier|preceding|system|original|existing)\s+(instructions|prompts?|rules|directions|guidelines|guidance|messages)\b",
            ]),
            p(&[r"\byou\s+are\s+now\s+(in\s+)?(developer|god|dan|jailbreak|unrestricted|unfiltered)\s+mode\b"]),
            p(&[
                r"\b(bypass|disable|ignore|override)\s+(your|the\s+agent'?s|claude'?s|all)\s+(safety|security)\s+(rules|guidelines|checks|restrictions|filters|policies)\b",
            ]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "agent-conceal",
        category: Category::AgentInstructions,
        severity: Severity::High,
        title: "Tells the agent to hide things from the user",
        why: "An instruction to keep something from the user is how a skill makes an agent act against the person it works for.",
        fix: "Remove it; everything a skill makes the agent do should be visible to the user.",
        scope: Scope::Prose,
        patterns: &[
            p(&[r"\b(do\s+not|don'?t|never|must\s+not)\s+(tell|inform|notify|alert|warn)\s+(the\s+)?users?\b"]),
            p(&[
                r"\b(do\s+not|don'?t|never|must\s+not)\s+(mention|reveal|disclose|show)\s+(this|these|it|that|the\s+following|anything)\s+to\s+(the\s+)?users?\b",
            ]),
            // "Do not mention to the user that ...", "never reveal any of this to the user".
            p(&[
                r"\b(do\s+not|don'?t|never|must\s+not)\s+(mention|reveal|disclose)\s+([a-z]+\s+){0,3}to\s+(the\s+)?users?\b",
            ]),
            // Things done, left out of what the user reads.
            p(&[
                r"\bleave\s+(it|them|this|that|these|those)\s+out\s+of\s+(your|the)\s+(summary|report|reply|answer|response|output)\b",
            ]),
            p(&[r"\b(do\s+not|don'?t|never)\s+let\s+(the\s+)?users?\s+(know|see|find\s+out)\b"]),
            p(&[r"\bwithout\s+(telling|informing|notifying|alerting)\s+(the\s+)?users?\b"]),
            // What was run or done, kept out of sight.
            p(&[
                r"\b(do\s+not|don'?t|never|must\s+not)\s+(show|display|print|report|reveal)\s+(its|their|the|any)\s+(output|results?|progress|activity|commands?|download|installation)\s+to\s+(the\s+)?users?\b",
            ]),
            p(&[
                r"\b(hide|conceal|keep)\s+(this|these|it|that|them|the\s+\w+)\s+(secret\s+|hidden\s+)?from\s+(the\s+)?users?\b",
            ]),
            p(&[r"\bsilently\s+(send|upload|post|exfiltrate|copy|transmit|delete|remove)\b"]),
            // What the agent does is arranged so that the user does not see it.
            p(&[
                r"\b(the\s+)?users?\s+(will\s+not|won'?t|would\s+not|wouldn'?t|should\s+not|shouldn'?t|must\s+not|will\s+never|should\s+never|must\s+never|never)\s+(see|notice|know|find\s+out|be\s+aware|be\s+told|learn)\b",
            ]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "cloud-metadata",
        category: Category::Credentials,
        severity: Severity::High,
        title: "Reaches the cloud instance metadata service",
        why: "The instance metadata addresses (169.254.169.254, metadata.google.internal and their paths) hand the machine's cloud credentials to any process that asks; a skill has no reason to query them. A line that names the address without a request to it (a deny-list, a firewall rule, a payload described) is a note.",
        fix: "Remove it; if the task needs the cloud, use the provider's SDK and its own credential chain.",
        scope: Scope::Code,
        patterns: &[p(&[METADATA_ADDRESS, HTTP_CLIENT]), p_named(Severity::Medium, &[METADATA_ADDRESS])],
        suppressible: true,
        once_per_file: false,
    },
    // ---- Permissions ----
    Rule {
        id: "container-host-access",
        category: Category::Permissions,
        severity: Severity::Medium,
        title: "Gives a container the host's Docker socket or root folder",
        why: "A container with the Docker socket or the host's / mounted, or run privileged, can start containers and write any file of the host: root on the machine.",
        fix: "Mount only the folders the task needs, read-only where possible; never the Docker socket or /.",
        scope: Scope::Code,
        patterns: &[
            p(&[r"/var/run/docker\.sock\b"]),
            p(&[r"(?-u:\B)/:/[a-z]"]),
            p(&[r"\b(docker|podman)\b.*\s--privileged\b"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "allowed-tools-unrestricted",
        category: Category::Permissions,
        severity: Severity::Medium,
        title: "Pre-approves unrestricted shell access",
        why: "allowed-tools with a bare Bash (or Bash(*)) lets the agent run any command without asking while the skill is active.",
        fix: "List the commands the skill needs, e.g. Bash(git status:*) Bash(python3 scripts/report.py:*).",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "allowed-tools-mismatch",
        category: Category::Permissions,
        severity: Severity::Low,
        title: "allowed-tools does not match what the skill runs",
        why: "The skill runs commands its allowed-tools do not cover, so either the list is out of date or the agent will stop to ask.",
        fix: "Make allowed-tools list exactly the commands SKILL.md and its scripts run.",
        scope: Scope::Code,
        patterns: &[],
        suppressible: true,
        once_per_file: false,
    },
];

/// Each rule by its id: findings name their rule by id, a few for every skill scanned.
static BY_ID: std::sync::LazyLock<catalog_skill::FastMap<&'static str, &'static Rule>> =
    std::sync::LazyLock::new(|| RULES.iter().map(|r| (r.id, r)).collect());

/// The rule with this id.
pub fn rule(id: &str) -> Option<&'static Rule> {
    BY_ID.get(id).copied()
}

/// The rule with this id, for ids the scanner's own code emits.
pub(crate) fn known(id: &'static str) -> &'static Rule {
    rule(id).unwrap_or_else(|| panic!("rule {id} is missing from the table"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_fully_described() {
        let mut seen = std::collections::HashSet::new();
        for rule in RULES.iter() {
            assert!(seen.insert(rule.id), "duplicate rule id {}", rule.id);
            assert!(rule.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", rule.id);
            assert!(!rule.title.is_empty() && !rule.why.is_empty() && !rule.fix.is_empty(), "{}", rule.id);
            assert_eq!(rule.category == Category::Spec, rule.id.starts_with("spec-"), "{}", rule.id);
            if rule.category == Category::Spec {
                assert!(rule.severity <= Severity::Low, "spec rules warn, they never fail: {}", rule.id);
            }
        }
        assert!(!rule("secret-value").unwrap().suppressible);
    }

    /// The crate's README lists every rule under its class, so that a reader finds them all.
    #[test]
    fn the_readme_lists_every_rule() {
        let readme = include_str!("../../README.md");
        let listed = readme.split("## Rule classes").nth(1).expect("a Rule classes section");
        let missing: Vec<&str> = RULES.iter().map(|r| r.id).filter(|id| !listed.contains(&format!("`{id}`"))).collect();
        assert!(missing.is_empty(), "README.md's Rule classes lack {missing:?}");
    }

    #[test]
    fn every_pattern_compiles() {
        for rule in RULES.iter() {
            for pattern in rule.patterns {
                for re in pattern.all {
                    regex::RegexBuilder::new(re)
                        .case_insensitive(true)
                        .build()
                        .unwrap_or_else(|e| panic!("{}: {e}", rule.id));
                }
            }
        }
    }

    #[test]
    fn severities_order_and_parse() {
        assert!(Severity::Critical > Severity::High && Severity::Low > Severity::Info);
        assert_eq!(Severity::parse("HIGH"), Some(Severity::High));
        assert_eq!(Severity::parse("severe"), None);
    }
}
