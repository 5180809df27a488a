//! Rules for behaviours read across a sentence or a file rather than one line: instructions
//! to the agent ([`super::instructions`]) and what scripts do with values they build
//! ([`super::flows`]). Part of the one rule table ([`super::rules::RULES`]).

use super::rules::{Category, Rule, Scope, Severity, p, whole_file_rule};

const fn rule(
    id: &'static str,
    category: Category,
    severity: Severity,
    title: &'static str,
    why: &'static str,
    fix: &'static str,
) -> Rule {
    whole_file_rule(id, category, severity, title, why, fix)
}

pub static RULES: &[Rule] = &[
    // ---- Instructions to the agent, read sentence by sentence ----
    rule(
        "agent-read-secrets",
        Category::AgentInstructions,
        Severity::High,
        "Tells the agent to read credentials or the whole environment",
        "SSH keys, cloud credential files, keychains, browser stores and the full set of environment variables give whoever receives them the user's accounts; a skill that has the agent collect them is harvesting.",
        "Remove the instruction; ask the user for the one value the task needs.",
    ),
    rule(
        "agent-send-data",
        Category::AgentInstructions,
        Severity::High,
        "Tells the agent to send the user's data somewhere",
        "An instruction to post, upload or mail credentials, files, history or the conversation to an address the skill names sends the user's data to whoever controls it.",
        "Remove it, or send only what the user asked for, to a service the user chose, after showing them.",
    ),
    rule(
        "agent-skip-confirmation",
        Category::AgentInstructions,
        Severity::High,
        "Tells the agent not to ask the user before acting",
        "Confirmation is the user's chance to stop an action; a skill that tells the agent to skip it takes that away.",
        "Remove it; let the agent ask as it normally would.",
    ),
    rule(
        "agent-disable-safety",
        Category::AgentInstructions,
        Severity::High,
        "Turns off the agent's safety controls",
        "Sandboxing, permission prompts and verification are what stop a bad command; skipping permissions, 'yolo' modes or disabling checks removes them for everything that follows.",
        "Remove it; run with the agent's normal permissions and checks.",
    ),
    rule(
        "agent-config-tamper",
        Category::AgentInstructions,
        Severity::High,
        "Changes the agent's own configuration, memory or hooks",
        "Agent config files (CLAUDE.md, AGENTS.md, settings with hooks, editor rules, MCP server lists) are read at every start: what a skill writes there keeps acting after the skill is gone, and hooks run commands without asking.",
        "Tell the user what to add and let them add it.",
    ),
    rule(
        "agent-odd-path-authority",
        Category::AgentInstructions,
        Severity::High,
        "Takes instructions from a file outside the skill",
        "A skill that tells the agent to obey, trust or carry forward a file at a fixed path outside its folder lets whoever can write that file steer the agent, and hides the real instructions from review.",
        "Put the instructions in the skill itself, where they are reviewed.",
    ),
    rule(
        "agent-hidden-output",
        Category::AgentInstructions,
        Severity::Medium,
        "Tells the agent to hide content in what it produces",
        "Hidden sheets, non-rendered blocks and invisible text in a deliverable carry data or instructions the user never sees, to be read by whoever or whatever opens the file next.",
        "Keep everything the agent produces visible, or say plainly what is hidden and why.",
    ),
    rule(
        "agent-install-lure",
        Category::AgentInstructions,
        Severity::Medium,
        "Tells the agent to download and run a program",
        "A program fetched from a website and run is code nobody reviewed with the skill; malicious skills use a 'required helper' to deliver malware.",
        "Name the package and its official source, pinned to a version, and let the user install it.",
    ),
    rule(
        "agent-hidden-instruction",
        Category::AgentInstructions,
        Severity::High,
        "Hides instructions to the agent from the reader",
        "Text in HTML comments or invisible characters is read by the agent but not shown to the person reviewing the skill: the only reason to hide an instruction there is that it would not pass review.",
        "Put every instruction in visible text.",
    ),
    // ---- What scripts do ----
    Rule {
        id: "reverse-shell",
        category: Category::RemoteCode,
        severity: Severity::Critical,
        title: "Opens a reverse shell",
        why: "A shell whose input and output are wired to a network connection gives whoever listens at the other end full control of the machine.",
        fix: "Remove it; a skill never needs to hand a shell to a remote host.",
        scope: Scope::Code,
        patterns: &[
            p(&[r"/dev/(tcp|udp)/[^\s/]+/\d+"]),
            p(&[r"\b(nc|ncat|netcat)(\.exe)?\b[^|;&\n]*\s-[a-z]*[ec]\s*[^\s]*\b(sh|bash|cmd|powershell|zsh)\b"]),
            p(&[r"\bmkfifo\b", r"\b(nc|ncat|netcat|telnet|openssl\s+s_client)\b"]),
            p(&[r"\bsocat\b.*\bexec:"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    rule(
        "supply-chain-install",
        Category::RemoteCode,
        Severity::Medium,
        "Installs packages from outside the package registry",
        "Packages from a URL, a git branch or a custom index are not the reviewed, versioned releases users expect; an extra index lets an attacker's package win over the real one (dependency confusion).",
        "Install named, pinned versions from the default registry, or vendor the code with the skill.",
    ),
    rule(
        "hardcoded-credential",
        Category::Secrets,
        Severity::Medium,
        "A password or key written into the skill",
        "A real-looking value assigned to a password, token or key in a file anyone can read is either a leaked secret or a backdoor account.",
        "Read the value from the environment or a secret store, and rotate it if it was real.",
    ),
    rule(
        "unscannable-payload",
        Category::Obfuscation,
        Severity::Medium,
        "Ships an archive or a compiled program",
        "An archive or a binary in a skill holds code that no reviewer and no static scanner reads; a skill can hide its real files in one.",
        "Ship the files themselves as source, or say where the binary comes from and how to check it.",
    ),
    rule(
        "risky-destination",
        Category::Exfiltration,
        Severity::Medium,
        "Talks to a kind of address used to receive stolen data",
        "Raw IP addresses, paste sites, tunnels, request catchers, chat-bot APIs and URL shorteners hide who receives the data and are where stolen data is usually dropped.",
        "Use the service's own documented domain, or say why this address is needed.",
    ),
];
