//! The prefilter of the instruction reader: one multi-pattern pass over a file's prose finds,
//! by group, the words each behaviour cannot be said without (its object, a flag, an uncommon
//! verb). A sentence is matched against a behaviour's patterns only when it holds them, so most
//! sentences are never matched against a pattern.
//!
//! Each group lists, for every alternative of the pattern it stands for, a piece of text that
//! any match of that alternative contains (ASCII, matched case-insensitively). That makes the
//! groups necessary conditions: the prefilter never drops a sentence a pattern would match.
//! The two non-ASCII characters that fold to ASCII letters (LONG S, KELVIN SIGN) would defeat
//! that; prose holding either is read in full.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// A set of keyword groups found in a sentence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Found(u32);

/// One group of keywords. Only the rarer part of each behaviour is searched for (its object, a
/// flag, an uncommon verb): the common words (read, write, run, install a tool...) are in
/// nearly every sentence, and finding them would cost more than matching the few sentences
/// that hold the rare part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Group {
    /// `CRED_OBJECT`
    Cred,
    /// What `ENV_ALL` takes all of.
    EnvAll,
    /// `SEND_VERB`
    Send,
    /// `AGENT_CONFIG`
    Config,
    /// `HIDDEN_OUTPUT`
    Hidden,
    /// A URL's `://`: install lures and fetched instructions.
    Url,
    /// The verb of `INSTALL_LURE`.
    Lure,
    /// `ODD_PATH`
    OddPath,
    /// What `FETCHED_AUTHORITY` tells the agent to follow.
    Fetched,
    /// The flags of `DISABLE_SAFETY`.
    SafetyFlag,
    /// The verbs of `DISABLE_SAFETY`.
    SafetyVerb,
    /// What the first and third forms of `SKIP_CONFIRM` say is skipped.
    Confirm,
    /// How the second form of `SKIP_CONFIRM` asks.
    Ask,
    /// `PRIORITY_CLAIM`
    Priority,
    /// What `ERASE_TRACES` erases.
    Traces,
    /// What `DROP_EVIDENCE` leaves out.
    Evidence,
    /// The verbs of `CARRY_SECRET`.
    Carry,
}

impl Found {
    pub const ALL: Found = Found(u32::MAX);

    pub fn has(self, group: Group) -> bool {
        self.0 & (1 << group as u8) != 0
    }

    pub fn read_secrets(self) -> bool {
        self.has(Group::Cred) || self.has(Group::EnvAll)
    }

    pub fn send_data(self) -> bool {
        self.has(Group::Send)
    }

    pub fn config_tamper(self) -> bool {
        self.has(Group::Config)
    }

    pub fn hidden_output(self) -> bool {
        self.has(Group::Hidden)
    }

    pub fn install_lure(self) -> bool {
        self.has(Group::Lure) && self.has(Group::Url)
    }

    pub fn odd_path(self) -> bool {
        self.has(Group::OddPath)
    }

    pub fn fetched_authority(self) -> bool {
        self.has(Group::Url) && self.has(Group::Fetched)
    }

    pub fn disable_safety(self) -> bool {
        self.has(Group::SafetyFlag) || self.has(Group::SafetyVerb)
    }

    pub fn skip_confirmation(self) -> bool {
        self.has(Group::Confirm) || self.has(Group::Ask)
    }

    pub fn priority_claim(self) -> bool {
        self.has(Group::Priority)
    }

    pub fn erase_traces(self) -> bool {
        self.has(Group::Traces)
    }

    pub fn drop_evidence(self) -> bool {
        self.has(Group::Evidence)
    }

    pub fn carry_secret(self) -> bool {
        self.has(Group::Carry)
    }

    /// Whether any behaviour may be in a sentence with these words.
    pub fn any(self) -> bool {
        self.read_secrets()
            || self.send_data()
            || self.config_tamper()
            || self.hidden_output()
            || self.install_lure()
            || self.odd_path()
            || self.fetched_authority()
            || self.disable_safety()
            || self.skip_confirmation()
            || self.priority_claim()
            || self.erase_traces()
            || self.drop_evidence()
            || self.carry_secret()
    }
}

impl std::ops::BitOr for Found {
    type Output = Found;

    fn bitor(self, other: Found) -> Found {
        Found(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for Found {
    fn bitor_assign(&mut self, other: Found) {
        self.0 |= other.0;
    }
}

/// Each group's keywords: for every alternative of its pattern, text any match contains.
const GROUPS: &[(Group, &[&str])] = &[
    // `browser (cookies|passwords|profiles|credentials|storage)` by its second word, rarer.
    (
        Group::Cred,
        &[
            "ssh",
            "id_",
            "credentials",
            "netrc",
            "pgpass",
            ".kube/",
            "docker/config",
            "npmrc",
            "pypirc",
            "keychain",
            "login",
            "cookies",
            "password",
            "profile",
            "storage",
            "wallet",
            "phrase",
            "private",
            "/etc/shadow",
            "gnupg",
            "gh/hosts",
            "history",
            "claude/projects",
            "codex/sessions",
        ],
    ),
    (Group::EnvAll, &["env", "secrets", "credentials", "tokens", "keys", "password"]),
    (
        Group::Send,
        &[
            "send",
            "post",
            "upload",
            "transmit",
            "forward",
            "submit",
            "exfiltrate",
            "mail",
            "beacon",
            "leak",
            "relay",
            "deliver",
            "sync",
            "report",
            "phone",
            "push",
        ],
    ),
    (
        Group::Config,
        &[
            "claude",
            "agents.md",
            "gemini",
            "cursor",
            "windsurf",
            "copilot",
            "mcp.json",
            "codex",
            "tooluse",
            "sessionstart",
            "userpromptsubmit",
            ".git/hooks",
            "prompt",
            "memory",
        ],
    ),
    (Group::Hidden, &["hidden", "rendered", "invisible", "display:", "white"]),
    (Group::Url, &["://"]),
    (Group::Lure, &["download", "install", "fetch", "get", "grab", "save"]),
    // `/tmp/` is left out: a path under it is a placeholder, never an authority.
    (
        Group::OddPath,
        &[
            "/root/",
            "/app/",
            "/opt/",
            "/srv/",
            "/mnt/",
            "/data/",
            "/workspace/",
            "/var/",
            "/home/",
            "/etc/",
            "/private/",
            "/shared/",
            "/media/",
        ],
    ),
    (Group::Fetched, &["instructions", "commands", "steps", "directives", "whatever", "says"]),
    (Group::SafetyFlag, &["dangerously", "bypasspermissions", "yolo"]),
    (Group::SafetyVerb, &["disabl", "off", "bypass", "circumvent", "deactivate", "evade", "skip", "ignore"]),
    (Group::Confirm, &["permission", "confirm", "approv", "consent", "authori"]),
    (Group::Ask, &["ask", "prompt", "check", "confirm"]),
    (
        Group::Priority,
        &[
            "overrid",
            "supersed",
            "precedence",
            "auto",
            "veto",
            "outrank",
            "ignore",
            "abort",
            "disregard",
            "responding",
            "replying",
            "answering",
            "reacting",
            "user input",
            "user message",
            "user prompt",
            "start",
            "beginning",
            "first",
        ],
    ),
    (Group::Traces, &["history", "log", "trace", "footprint", "forensic", "audit"]),
    (
        Group::Evidence,
        &[
            "validation",
            "audit",
            "verification",
            "evidence",
            "checks",
            "exceptions",
            "conflict",
            "correction",
            "failures",
            "warnings",
        ],
    ),
    (Group::Carry, &["preserv", "carr", "propagat", "persist", "retain", "forward", "embed", "keep", "copy"]),
];

struct Search {
    automaton: AhoCorasick,
    /// The groups of each keyword, by pattern id.
    groups: Vec<Found>,
}

static SEARCH: LazyLock<Search> = LazyLock::new(|| {
    let mut words: Vec<&str> = Vec::new();
    let mut groups: Vec<Found> = Vec::new();
    for (group, keywords) in GROUPS {
        for word in *keywords {
            let i = words.iter().position(|w| w == word).unwrap_or_else(|| {
                words.push(word);
                groups.push(Found::default());
                words.len() - 1
            });
            groups[i] |= Found(1 << *group as u8);
        }
    }
    let automaton = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .kind(Some(AhoCorasickKind::DFA))
        .build(&words)
        .expect("valid keywords");
    Search { automaton, groups }
});

/// The non-ASCII characters whose case folds to an ASCII letter: LONG S (s) and KELVIN SIGN (k).
const FOLDS_TO_ASCII: [char; 2] = ['\u{17F}', '\u{212A}'];

/// Every keyword in `text`, overlapping ones too: (byte offset, its groups), in order. `None`
/// when the text holds a character the case-insensitive patterns fold to ASCII: then every
/// sentence must be read.
pub fn find(text: &str) -> Option<Vec<(usize, Found)>> {
    if text.contains(FOLDS_TO_ASCII) {
        return None;
    }
    let search = &*SEARCH;
    Some(
        search
            .automaton
            .find_overlapping_iter(text)
            .map(|m| (m.start(), search.groups[m.pattern().as_usize()]))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Found {
        find(text).expect("no folding characters").into_iter().fold(Found::default(), |all, (_, f)| all | f)
    }

    #[test]
    fn groups_are_found_case_insensitively_and_overlapping() {
        let f = found("DOWNLOAD the installer from https://x.example and run it");
        assert!(f.has(Group::Lure) && f.has(Group::Url) && f.install_lure());
        // "Confirmation" holds "confirm", a word of two groups.
        let f = found("Skip the CONFIRMATION dialog");
        assert!(f.has(Group::Confirm) && f.has(Group::Ask) && f.has(Group::SafetyVerb));
        assert!(found("Read ~/.SSH/id_rsa").read_secrets());
        assert!(!found("Read the chapter and summarise it.").any());
        assert!(find("Read the \u{17F}ecrets").is_none());
    }

    #[test]
    fn every_group_has_keywords_in_lower_case_ascii() {
        for (group, words) in GROUPS {
            assert!(!words.is_empty(), "{group:?}");
            for w in *words {
                assert!(w.is_ascii() && !w.chars().any(|c| c.is_ascii_uppercase()), "{w}");
            }
        }
    }
}
