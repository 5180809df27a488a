//! Rules for behaviours read across a sentence or a file rather than one line: instructions
//! to the agent ([`super::instructions`]) and what scripts do with values they build
//! ([`super::flows`]). Part of the one rule table ([`super::RULES`]).

use super::types::{Category, Rule, Scope, Severity, p, p_named, whole_file_rule as rule};

/// Bash's socket device with a host and a port: `/dev/tcp/10.0.0.1/4444`.
const DEV_SOCKET: &str = r"/dev/(tcp|udp)/[^\s/]+/\d+";

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
    Rule {
        id: "agent-send-data",
        category: Category::AgentInstructions,
        severity: Severity::High,
        title: "Tells the agent to send the user's data somewhere",
        why: "An instruction to post, upload or mail credentials, files, history or the conversation to an address the skill names sends the user's data to whoever controls it.",
        fix: "Remove it, or send only what the user asked for, to a service the user chose, after showing them.",
        scope: Scope::All,
        // Beside the instruction reader's findings: a blind copy of the mail the agent sends,
        // to an address the skill fixes, which the user's recipients and the user never see.
        patterns: &[p_named(
            Severity::Medium,
            &[r"\b(bcc|blind\s+(carbon\s+)?copy)\b", r"\b[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b"],
        )],
        suppressible: true,
        once_per_file: false,
    },
    // A wallet address and a transfer on one line of prose.
    Rule {
        id: "agent-send-funds",
        category: Category::AgentInstructions,
        severity: Severity::High,
        title: "Tells the agent to send money or crypto to an address",
        why: "An agent with a wallet or a payment tool does what its instructions say; a skill that names an address to send funds to is taking the user's money.",
        fix: "Remove it; payments go where the user says, after the user confirms them.",
        scope: Scope::Prose,
        patterns: &[p(&[
            r"\b(transfer|send|pay|deposit|tip|forward|route)\b.{0,80}?\b(eth|btc|sol|usdt|usdc|bnb|xmr|matic|trx|crypto|coins?|tokens|funds|satoshis|sats|lamports)\b",
            r"\b(0x[0-9a-f]{40}|bc1[02-9ac-hj-np-z]{25,87}|[13][1-9a-km-z]{25,34}|t[1-9a-km-z]{33})\b",
        ])],
        suppressible: true,
        once_per_file: false,
    },
    rule(
        "agent-skip-confirmation",
        Category::AgentInstructions,
        Severity::Medium,
        "Tells the agent not to ask the user before acting",
        "Confirmation is the user's chance to stop an action; a skill that tells the agent to skip it takes that away.",
        "Remove it; let the agent ask as it normally would.",
    ),
    // Said in prose (the instruction reader), or as a flag or setting in code: a command that
    // starts an agent with its permission prompts or sandbox off.
    Rule {
        id: "agent-disable-safety",
        category: Category::AgentInstructions,
        severity: Severity::High,
        title: "Turns off the agent's safety controls",
        why: "Sandboxing, permission prompts and verification are what stop a bad command; skipping permissions, 'yolo' modes or disabling checks removes them for everything that follows.",
        fix: "Remove it; run with the agent's normal permissions and checks.",
        scope: Scope::Code,
        patterns: &[p(&[
            r#"(--dangerously-skip-permissions\b|--allow-dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--permission-mode[=\s]+["']?bypasspermissions\b|["']?defaultmode["']?\s*[:=]\s*["']bypasspermissions\b|--yolo\b|--approval-mode[=\s]+["']?yolo\b|(--sandbox|\s-s)[=\s]+["']?danger-full-access\b)"#,
        ])],
        suppressible: true,
        once_per_file: false,
    },
    rule(
        "agent-config-tamper",
        Category::AgentInstructions,
        Severity::High,
        "Changes the agent's own configuration, memory or hooks",
        "Agent config files (CLAUDE.md, AGENTS.md, settings with hooks, editor rules, MCP server lists) are read at every start: what a skill writes there keeps acting after the skill is gone, and hooks run commands without asking.",
        "Tell the user what to add and let them add it.",
    ),
    rule(
        "agent-command-added",
        Category::AgentInstructions,
        Severity::Medium,
        "Adds a slash command to the agent",
        "A file in .claude/commands/ is a prompt that runs when someone types its name: it cannot run on its own, but it stays after the skill unless the skill removes it, and it may take a name the user already uses.",
        "Print the command for the user to add, or remove the file when done.",
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
        "agent-priority-claim",
        Category::AgentInstructions,
        Severity::Medium,
        "Claims precedence over the agent's other instructions",
        "A skill that says it overrides every other skill or instruction, must run before any reply, or watches every message takes over sessions it was not asked into, and puts its own text above the user's.",
        "Say when the skill applies and let the agent choose it; never rank it above the user or other skills.",
    ),
    rule(
        "agent-erase-traces",
        Category::AgentInstructions,
        Severity::Medium,
        "Erases the record of what was done",
        "Clearing shell history, audit or system logs, or leaving the checks and evidence behind a result out of what is kept, removes what a user or reviewer would use to see what the agent did.",
        "Keep logs, history and the evidence of checks; if the skill cleans up, list exactly what it removes and why.",
    ),
    rule(
        "agent-hidden-instruction",
        Category::AgentInstructions,
        Severity::Medium,
        "Hides instructions to the agent from the reader",
        "Text in HTML comments or invisible characters is read by the agent but not shown to the person reviewing the skill. Templates use comments for notes to whoever fills them in; an instruction that names something risky is rated higher, and a harmful one hidden there fails under its own rule.",
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
            // A socket is a reverse shell once a shell's input comes from it: `bash -i >& ...
            // 0>&1`, `sh <&196`, a loop running each line read. `echo > /dev/tcp/h/443` alone
            // probes a port, and naming the device names the technique: a note.
            p(&[DEV_SOCKET, r"(\b(ba|z|k|da)?sh\s+-i\b|\b0>&1\b|\b0<&\s*\d|\b(ba|z|k|da)?sh\s*<&\s*\d|\bdo\s+\$\w+)"]),
            p_named(Severity::Medium, &[DEV_SOCKET]),
            p(&[r"\b(nc|ncat|netcat)(\.exe)?\b[^|;&\n]*\s-[a-z]*[ec]\s*[^\s]*\b(sh|bash|cmd|powershell|zsh)\b"]),
            p(&[r"\bmkfifo\b", r"\b(nc|ncat|netcat|telnet|openssl\s+s_client)\b"]),
            p(&[r"\bsocat\b.*\bexec:"]),
        ],
        suppressible: true,
        once_per_file: false,
    },
    rule(
        "shell-value-in-code",
        Category::RemoteCode,
        Severity::Medium,
        "Pastes a shell variable into code an interpreter runs",
        "In `python -c \"open('$FILE')\"` the shell puts the variable's value into the program text before Python reads it: a value with a quote in it (a file name, a user's input, a downloaded string) becomes code.",
        "Pass the value as an argument or in the environment (`python -c 'import sys; open(sys.argv[1])' \"$FILE\"`), or put the code in a script file.",
    ),
    rule(
        "self-deleting-script",
        Category::Obfuscation,
        Severity::Medium,
        "Runs a script it wrote and then deletes it",
        "A script assembled at run time, written to a temporary file, run and removed leaves nothing for a reviewer or an incident responder to read: the code that ran is only in the skill's pieces.",
        "Ship the script as a file in the skill and run that; keep what a run produces.",
    ),
    rule(
        "supply-chain-install",
        Category::RemoteCode,
        Severity::Medium,
        "Installs packages from outside the package registry",
        "Packages from a URL, a git branch or a custom index are not the reviewed, versioned releases users expect; an extra index lets an attacker's package win over the real one (dependency confusion).",
        "Install named, pinned versions from the default registry, or vendor the code with the skill.",
    ),
    rule(
        "unpinned-tool-server",
        Category::RemoteCode,
        Severity::Medium,
        "Registers a tool server that runs a package's newest release",
        "A server added to the agent with a moving tag (npx pkg@latest) is downloaded and started again in every session, with whatever code that release holds then: nobody reviewed it, and the skill keeps working after it is gone.",
        "Pin the package to a version (pkg@1.4.2), or tell the user how to add the server themselves.",
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
