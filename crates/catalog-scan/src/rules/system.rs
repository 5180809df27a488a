//! Rules for what a script does to the machine's own defences and resources: security
//! controls turned off, root granted for good, a miner started, a password asked for in a
//! dialog made to look like the system's. Line patterns, read in code like the table's
//! ([`super::TABLE`]). Part of the one rule table ([`super::RULES`]).

use super::types::{Category, Rule, Scope, Severity, p};

pub static RULES: &[Rule] = &[
    Rule {
        id: "security-disable",
        category: Category::Obfuscation,
        severity: Severity::High,
        title: "Turns off the system's security controls",
        why: "Antivirus, the firewall, SELinux, Gatekeeper and the audit daemon are what notice and stop a bad program; a script that turns them off, or excludes a folder from scanning, clears the way for whatever runs next.",
        fix: "Remove it; if a tool is blocked, tell the user why and let them decide.",
        scope: Scope::Code,
        patterns: &[
            // Defender: a protection set to off, or a folder or process kept from its scans.
            p(&[r"\bset-mppreference\b.*\s-disable\w+\s+(\$true|1)\b"]),
            p(&[r"\badd-mppreference\b.*\s-exclusion(path|process|extension|ipaddress)\b"]),
            p(&[r"\bsetenforce\s+(0|permissive)\b"]),
            p(&[r"\bspctl\s+--(master|global)-disable\b"]),
            p(&[r"\bufw\s+disable\b"]),
            p(&[
                r"\bsystemctl\s+(stop|disable|mask)\s+(--now\s+)?(auditd|firewalld|apparmor|ufw|fail2ban|clamav-daemon|clamav-freshclam|falcon-sensor|osqueryd|wazuh-agent)\b",
            ]),
            p(&[r"\bauditctl\s+-e\s*0\b"]),
            p(&[r"\bnetsh\s+(advfirewall\s+set\s+\w+\s+state\s+off|firewall\s+set\s+opmode\s+(mode=)?disable)\b"]),
            p(&[r"\bset-netfirewallprofile\b.*\s-enabled\s+(\$false|false|0)\b"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "quarantine-removed",
        category: Category::Obfuscation,
        severity: Severity::Medium,
        title: "Removes macOS's quarantine mark from a file",
        why: "The quarantine mark makes Gatekeeper check a downloaded program's signature before it first runs; clearing it runs an unsigned download without that check, the step lures for macOS stealers ask for.",
        fix: "Ship a signed, notarised program, or tell the user what the program is and let them open it themselves.",
        scope: Scope::Code,
        patterns: &[
            p(&[r"\bxattr\s+(-[a-z]+\s+)*-[a-z]*d[a-z]*\s+com\.apple\.quarantine\b"]),
            // `-c` clears every attribute, the quarantine mark with them.
            p(&[r"\bxattr\s+(-[a-z]+\s+)*-[a-z]*c[a-z]*\s"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "privilege-escalation",
        category: Category::Persistence,
        severity: Severity::High,
        title: "Grants root for good",
        why: "A sudoers line without a password, a set-user-ID program or a library preloaded into every process gives root to whoever comes next, long after the skill is gone.",
        fix: "Remove it; if a step needs root, tell the user to run that step with sudo themselves.",
        scope: Scope::Code,
        patterns: &[
            // A rule without a password, or any rule, written where sudo reads its rules.
            p(&[r"(\bnopasswd\s*:.*(>|\btee\b)|(>>?\s*|\btee\s+(-a\s+)?)/etc/sudoers(\.d/\S*)?)"]),
            p(&[r"(>>?\s*|\btee\s+(-a\s+)?)/etc/ld\.so\.preload\b"]),
            // Set-user-ID: the program runs as its owner (root) for every user.
            p(&[r"\bchmod\s+(-[a-z]+\s+)*([ua]*\+[rwxt]*s[rwxt]*|[4-7][0-7]{3})\s"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "account-created",
        category: Category::Persistence,
        severity: Severity::Medium,
        title: "Creates a login account with a password it sets",
        why: "A new account whose password is written in the skill is a way back into the machine for whoever wrote it; few skills have a reason to make one, so when it is not what the skill is for it is a likely injected step.",
        fix: "Remove it, or tell the user to create the account themselves with a password of their own.",
        scope: Scope::All,
        patterns: &[
            // Said to the agent: an account named, with a password, made or given admin rights.
            p(&[
                r"\b(create|add|make|set\s+up)\s+(a\s+|an\s+)?(new\s+)?(local\s+|system\s+|linux\s+|windows\s+|admin(istrator)?\s+|login\s+|ssh\s+)?(user\s+account|user|account)\s+(named|called)\b",
                r"\bpassword\b",
            ]),
            // A user added, and its password set, in one command line.
            p(&[r"\b(useradd|adduser)\b", r"\bchpasswd\b"]),
            p(&[r"\bnet\s+user\s+\S+\s+\S+\s+/add\b"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "cryptominer",
        category: Category::Destructive,
        severity: Severity::High,
        title: "Runs a cryptocurrency miner",
        why: "A miner spends the user's processor, power and cloud bill on someone else's coins, and usually hides to keep doing it.",
        fix: "Remove it.",
        scope: Scope::Code,
        patterns: &[
            // A miner started with a pool or a wallet, or downloaded.
            p(&[
                r"\b(xmrig|xmr-stak|cpuminer|minerd|cgminer|bfgminer|ethminer|nbminer|lolminer|phoenixminer|srbminer|nanominer)(\.exe)?\s+.*(\s-o\s|--url\b|--pool\b|\s-u\s|--user\b|--donate-level\b|--coin\b|--algo\b|\s-a\s)",
            ]),
            p(&[
                r"\b(curl|wget|invoke-webrequest|iwr)\b.*\b(xmrig|xmr-stak|cpuminer|nbminer|lolminer|phoenixminer|srbminer|nanominer)",
            ]),
            // The mining pools' protocol.
            p(&[r"\bstratum\d?\+(tcp|ssl|tls)://"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    Rule {
        id: "credential-prompt",
        category: Category::Credentials,
        severity: Severity::High,
        title: "Asks for a password in a dialog of its own",
        why: "A script that shows its own password dialog (AppleScript's hidden answer), or puts an alias in front of sudo that reads the password first, looks like the system asking; what the user types goes to the script, the way stealers collect the login password.",
        fix: "Let the system ask (sudo, the keychain); never collect the user's password yourself.",
        scope: Scope::Code,
        patterns: &[
            p(&[r"\bdisplay\s+dialog\b.*\bhidden\s+answer\b"]),
            p(&[r"\bdisplay\s+dialog\b.*\bpassword\b.*\bdefault\s+answer\b"]),
            // `sudo` replaced by an alias that reads the password first.
            p(&[r"\balias\s+sudo\s*=.*\bread\s+-\w*s"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
];
