//! The vocabulary of the instruction reader: the patterns a sentence is matched against, one
//! per part of a behaviour (a verb, an object, a destination, a flag). Case-insensitive, with
//! ASCII word boundaries ([`crate::rule_regex`]), each compiled when first matched. Each
//! has a keyword group in [`super::keywords`] that any of its matches contains.

use crate::RulePattern;

/// Words that make a sentence a warning, a prohibition or a discussion of the behaviour.
pub(super) static CAUTION: RulePattern = RulePattern::new(
    r"\b(never|not|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|avoid(s|ing)?|no\s+longer|refuse|cannot|can'?t|won'?t|shouldn'?t|prevent(s|ing)?|forbid(den)?|prohibit(ed)?|attack(er|ers|s)?|malicious|malware|inject(ion|ed)|jailbreak|phishing|adversar\w*|threat|vulnerab\w*|red[- ]team|detect(s|ed|ing|ion)?|flag(s|ged)?|warn(s|ing)?|beware|caution|risk(s|y)?|danger(ous)?|unsafe|insecure|scanner|example\s+of|such\s+as|e\.g\.)\b",
);
/// Negation words only: for behaviours that are themselves a negation ("do not ask").
/// Talk about attacks, for a file made the agent's authority: "flagged" or "detected" there
/// describe the task's data ("the citations flagged as fake"), not a warning.
pub(super) static ATTACK_TALK: RulePattern = RulePattern::new(
    r"\b(attack(er|ers|s)?|malicious|malware|injection|jailbreak|phishing|adversar\w*|threat|red[- ]team|warn(s|ing)?|beware|caution|example\s+of|such\s+as)\b",
);
pub(super) static DISCUSSES: RulePattern = RulePattern::new(
    r"\b(attack(er|ers|s)?|malicious|malware|injection|jailbreak|phishing|adversar\w*|threat|red[- ]team|detect(s|ed|ing|ion)?|flag(s|ged)?|warn(s|ing)?|beware|caution|example\s+of|such\s+as)\b",
);

pub(super) static CRED_OBJECT: RulePattern = RulePattern::new(
    r"(~/\.ssh\b|\$home/\.ssh\b|\.ssh/(id_|\*|authorized|known|config)|\bssh\s+private\s+keys?\b|\bprivate\s+ssh\s+keys?\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\baws\s+credentials\b|\.netrc\b|\.git-credentials|\.pgpass\b|\.kube/config|\.docker/config\.json|\.npmrc\b|\.pypirc\b|\bkeychains?\b|\blogin\s+data\b|\bbrowser\s+(cookies|passwords|profiles?|credentials|storage)\b|\bsaved\s+passwords\b|cookies\.sqlite|\bcrypto\s*wallets?\b|\bwallet\.dat\b|\bseed\s+phrases?\b|\bprivate\s+keys?\b|/etc/shadow\b|\.gnupg\b|\.config/gh/hosts|\.claude/\.credentials|\bcredentials\.json\b|\.claude/(history\.jsonl|projects/)|\.codex/(history\.jsonl|sessions/)|\.(bash|zsh|sh|python|psql|mysql)_history\b)",
);
pub(super) static ENV_ALL: RulePattern = RulePattern::new(
    r"(\b(all|every|each|the\s+(whole|entire|full|complete))\s+(of\s+the\s+|of\s+your\s+|your\s+|the\s+)?(environment(\s+variables)?|env(\s+vars?)?|secrets|credentials|tokens|api\s+keys|passwords)\b|\bprintenv\b|\benv\s*\|)",
);
pub(super) static SECRET_WORDS: RulePattern = RulePattern::new(
    r"(\.env\b|\b(credentials?|secrets?|tokens?|api[ _-]?keys?|passwords?|env(ironment)?\s+variables?|cookies|session\s+(data|tokens?|ids?)|conversation(\s+history)?|chat\s+(history|logs?)|transcripts?|prompt\s+history|system\s+prompt|(user'?s?|personal|private|sensitive|confidential)\s+(data|information|files?|documents)|source\s+code|codebase|(shell|command|bash)\s+history)\b)",
);
pub(super) static READ_VERB: RulePattern = RulePattern::new(
    r"\b(read|cat|open|collect|gather|extract|harvest|grab|copy|dump|upload|send|post|include|attach|embed|exfiltrate|print|output|display|list|enumerate|retrieve|fetch|load|locate|search|scan|archive|zip|encode|base64|export|save|store|record|capture|steal)\b",
);
/// The verbs of [`READ_VERB`] that hand what is read on (to a file others get, to the output)
/// beside those of [`SEND_VERB`], which the reader asks as well.
pub(super) static DISCLOSE_VERB: RulePattern =
    RulePattern::new(r"\b(include|attach|embed|paste|share|print|output|display|encode|base64|export|steal)\b");
pub(super) static SEND_VERB: RulePattern = RulePattern::new(
    r"\b(send|post|upload|transmit|forward|submit|exfiltrate|e-?mail\s+(it|them|this|these|the|all|every|a\s+copy|to)|beacon|leak|relay|deliver|sync|report\s+back|phone\s+home|push)\b",
);
pub(super) static DESTINATION: RulePattern = RulePattern::new(
    r#"((https?|wss?|ftp)://[^\s"'`<>)]+|\bwebhooks?\b|\b[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b|\b(remote|external|our|my|collection|logging|telemetry)\s+(server|endpoint|host|service|api)\b|\bip\s+address\b)"#,
);
/// Sending a key to the API it authenticates is not exfiltration.
pub(super) static AUTH_HEADER: RulePattern = RulePattern::new(
    r"(\b(header|authorization|bearer|authenticate|auth\s+token|x-api-key)\b|\b(with|using|via)\s+(a|an|the|your)?\s*(bot\s+|api\s+|access\s+|auth\s+)?(token|key|credentials)\b)",
);
/// Negations that are themselves an instruction a skill must not give: keeping something
/// from the user. With [`SKIP_CONFIRM`]'s, they do not make a sentence a warning.
pub(super) static KEEP_FROM_USER: RulePattern = RulePattern::new(
    r"\b(do\s+not|don'?t|never|without)\s+(tell|telling|inform|informing|notify|notifying|mention|mentioning|alert|alerting)\b",
);
/// Not asking the user before acting, told outright or excused by a claim that the user has
/// approved everything already.
pub(super) static SKIP_CONFIRM: RulePattern = RulePattern::new(
    r"(\b(users?|human|operator|owner)\s+(has|have|had)\s+(already\s+)?(pre-?)?(approved|authori[sz]ed|consented\s+to)\s+(all|any|every|each)\b|\b(do\s+not|don'?t|never|no\s+need\s+to|without)\s+(ask|asking|prompt|prompting|wait|waiting|seek|seeking|request|requesting|get|getting)\s+(the\s+)?(user|human|operator|them)?('?s)?\s*(for\s+)?(their\s+)?(permission|confirmation|approval|consent|authori[sz]ation)\b|\b(do\s+not|don'?t|never)\s+(ask|asking|prompt|check\s+with|confirm\s+with)\s+(the\s+)?(user|human|operator)\s+(before|first|whether|if)\b|\b(skip|bypass|suppress)\s+(the\s+|any\s+|all\s+)?(user\s+)?(confirmation|approval|permission)\s*(prompts?|steps?|dialogs?|checks?)?\b)",
);
/// Actions whose confirmation matters: skipping the question before formatting does not.
pub(super) static CONSEQUENTIAL: RulePattern = RulePattern::new(
    r"\b(delet\w*|remov\w*|rm|drop\w*|overwrit\w*|force\w*|push\w*|deploy\w*|publish\w*|send\w*|upload\w*|post\w*|install\w*|run\w*|execut\w*|commit\w*|merg\w*|pay\w*|purchas\w*|transfer\w*|e-?mail\w*|shar\w*|proceed\w*|continu\w*|any\s+(action|step|change|command)s?|anything|permission\s+to)\b",
);
pub(super) static DISABLE_SAFETY: RulePattern = RulePattern::new(
    r"(--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|\bbypasspermissions\b|\bdangerously_?skip_?permissions\b|--yolo\b|\byolo\s+mode\b|\b(disable|disabling|turn\s+off|switch\s+off|bypass|circumvent|deactivate|evade|skip|ignore)\s+(the\s+|all\s+|any\s+|your\s+|its\s+|claude'?s\s+|the\s+agent'?s\s+)?(sandbox(ing)?|safety\s+(checks?|rules|filters?|guardrails|settings|measures)|security\s+(checks?|controls?|warnings|policies|restrictions|settings)|permission\s+(checks?|prompts?|system|requests)|guardrails|content\s+filters?|approval\s+(prompts?|steps?)|(ssl|tls|certificate|signature|integrity|checksum)\s+(verification|checks?|validation)|antivirus|windows\s+defender|firewall|gatekeeper|edr)\b)",
);
pub(super) static WRITE_VERB: RulePattern = RulePattern::new(
    r"\b(write|add|append|insert|modify|edit|update|create|overwrite|replace|inject|put|register|save|store|set|install|place|patch)\b",
);
pub(super) static AGENT_CONFIG: RulePattern = RulePattern::new(
    r"(\bclaude\.md\b|\bagents\.md\b|\bgemini\.md\b|\.claude/(settings(\.local)?\.json|commands|agents|hooks|skills)|\.claude\.json\b|\.cursor/(rules|mcp\.json)|\.cursorrules\b|\.windsurfrules\b|copilot-instructions\.md|\.mcp\.json\b|\bmcp\.json\b|claude_desktop_config\.json|\.codex/config|\.gemini/settings|\b(pre|post)tooluse\b|\bsessionstart\b|\buserpromptsubmit\b|\.git/hooks\b|\bsystem\s+prompt\b|\bmemory\s+(file|store)\b|\b(soul|memory)\.md\b|\.openclaw/|\.clawdbot/)",
);
/// A path outside the skill and the user's project, in the places an attacker can plant a file.
pub(super) static ODD_PATH: RulePattern = RulePattern::new(
    r#"(^|[\s`'"(])(/(root|app|opt|srv|mnt|data|workspace|var|tmp|home|etc|private|shared|media)(/[^\s`'"),;]+)+)"#,
);
pub(super) static EXISTS: RulePattern = RulePattern::new(
    r"\b(if|when|whenever|once)\b.{0,160}?\b(exists|is\s+present|are\s+present|is\s+available|is\s+found)\b",
);
pub(super) static AUTHORITY: RulePattern = RulePattern::new(
    r"(\b(treat|regard|consider|accept)\s+(it|this|that|them|these|its\s+\w+|the\s+[\w-]+(\s+[\w-]+)?)\s+as\b|\b(authoritative|canonical|source\s+of\s+truth|takes?\s+precedence|higher\s+priority|overrides?|supersedes?)\b|\b(follow|obey|honou?r)\s+(its|their|the\s+file'?s)\b|\b(follow|obey|honou?r|apply|consult|inherit|use|read|load)\b.{0,100}?\b(instructions|directives|policy|policies|contract|handoff|runbook|playbook|precedent|guidance|note)\b|\b(defines?|records?)\s+(the|a|an)\b|\b(vendor(s|ed)?|cop(y|ies|ied|ying)|embed(s|ded|ding)?|inlin(e|es|ed|ing)|past(e|es|ed|ing))\b.{0,100}?\binto\b|\b(consult(s|ed|ing)?|defer\s+to|according\s+to)\b)",
);
pub(super) static FETCHED_AUTHORITY: RulePattern = RulePattern::new(
    r"\b(fetch|download|load|read|curl|get|retrieve|visit)\b.{0,100}?(https?://\S+).{0,100}?\b(follow|execute|obey|apply|run|do)\b.{0,60}?\b(instructions|commands|steps|directives|whatever|it\s+says)\b",
);
macro_rules! lure_verb {
    () => {
        r"\b(download|install|fetch|get|grab|save)\b"
    };
}
macro_rules! lure_url {
    () => {
        r#"((https?|ftp)://[^\s"'`<>)]+)"#
    };
}
/// A fetching verb, then, within [`LURE_GAP`] characters of the sentence, a URL: what the
/// install lure's keywords are read from, and what [`super::lure::install_lure`] finds as its
/// two parts.
pub(super) static INSTALL_LURE: RulePattern = RulePattern::new(concat!(lure_verb!(), "(?s:.){0,100}?", lure_url!()));
pub(super) static LURE_VERB: RulePattern = RulePattern::new(lure_verb!());
pub(super) static LURE_URL: RulePattern = RulePattern::new(lure_url!());
/// The most characters between the install lure's verb and its URL (`.{0,100}?` above).
pub(super) const LURE_GAP: usize = 100;
pub(super) static RUN_VERB: RulePattern =
    RulePattern::new(r"\b(run|runs|execute|launch|open|install|chmod|double-click|start|invoke|unzip|extract)\b");
pub(super) static PROGRAM_WORD: RulePattern = RulePattern::new(
    r"(\b(installer|binary|executable|helper|agent|setup|tool|program|utility|script|plugin|extension|update|patch|driver)\b|\.(exe|msi|pkg|dmg|sh|ps1|bat|cmd|appimage|deb|rpm|jar|zip|7z|rar|scr|vbs|bin|run)\b)",
);
/// A password the download is opened with (an archive its scanners cannot look into), or
/// protection to turn off before running it.
pub(super) static PASSWORD_ARCHIVE: RulePattern = RulePattern::new(
    r#"(\b(password[- ]protected|password\s*[:=]|passcode|(with|using|enter|use|type)\s+(the\s+)?(archive\s+|zip\s+|extraction\s+)?password|password\s+is|disable\s+(antivirus|defender|gatekeeper))\b|\bpassword\s+[`'"])"#,
);
pub(super) static OUTPUT_VERB: RulePattern = RulePattern::new(
    r"\b(keep|add|preserve|insert|create|embed|carry|place|put|write|move|store|include|emit|hide|stash|tuck)\b",
);
pub(super) static HIDDEN_OUTPUT: RulePattern = RulePattern::new(
    r"\b(hidden|veryhidden|very\s+hidden|non-rendered|not\s+rendered|invisible|display:\s*none|white[- ]on[- ]white)\b.{0,40}?\b(sheet|worksheet|tab|field|block|template|comment|metadata|carrier|element|column|row|text|section|div|span|payload|marker|area|folder|directory|file|appendix)s?\b",
);
pub(super) static ADDRESSED: RulePattern =
    RulePattern::new(r"\b(you|your|assistant|agent|ai|claude|llm|model|codex|copilot|gpt|gemini|cursor|bot)\b");
pub(super) static IMPERATIVE: RulePattern = RulePattern::new(
    r"\b(must|always|never|ignore|disregard|execute|run|send|read|include|do\s+not|don'?t|make\s+sure|ensure|instead|secretly|silently|pretend|forget|override|you\s+will|you\s+are\s+now)\b",
);
/// A skill that claims precedence over everything else the agent is told, or to run on every
/// message: how a skill takes over a session it was not asked into.
pub(super) static PRIORITY_CLAIM: RulePattern = RulePattern::new(
    r"(\b(overrides?|supersedes?|takes?\s+precedence\s+over|(has\s+)?veto\s+power\s+over|outranks?)\s+(all|any|every)\s+(other\s+)?(skills?|instructions|rules|prompts|frameworks|agents|tools|guidelines|modes)\b|\b(ignore|abort|disregard)\W+(\(\w+\)\s+)?(all|any)\s+(subsequent|following|other|remaining)\s+(instructions|skills|rules|steps)\b|\b(before|prior\s+to)\s+(responding|replying|answering|reacting)\s+to\s+(any|every|all)\b|\b(check(ing|s)?|scan(ning|s)?|monitor(ing|s)?|intercept(ing|s)?|read(ing|s)?)\s+(every|each|all)\s+(user input|user message|user prompt)s?\b|\b((at|on)\s+(the\s+)?(start|beginning)\s+of|first\s+(action|step)\s+(on|in|of))\s+(every|each|any)\s+(new\s+)?([\w-]+\s+){0,2}?(sessions?|conversations?|instances?|chats?)\b|\bauto-?(load|activate|invoke|run|execute|trigger)(s|d|ed|ing)?\b.{0,40}?\b(for|on)\s+(any|every|each|all)\s+([\w-]+\s+){0,2}?(tasks?|requests?|messages?|prompts?|conversations?|sessions?|questions?)\b)",
);
/// Erasing the record of what was done: history, audit or system logs, traces.
pub(super) static ERASE_TRACES: RulePattern = RulePattern::new(
    r"(\b(clear(s|ing)?|clean(s|ing)?\s*up|cleanup|wip(e|es|ing)|scrub(s|bing)?|eras(e|es|ing)|delet(e|es|ing)|purg(e|es|ing)|remov(e|es|ing)|shred(s|ding)?|truncat(e|es|ing))\b.{0,40}?\b(shell\s+history|bash\s+history|command\s+history|zsh\s+history|(audit|system|access|security|event)\s+logs?|logs?\s+(and|&)\s+traces|traces?\s+of|footprints?|forensic\s+\w+)\b|\btrace\s+removal\b|\banti-?forensics?\b|\b(disabl(e|es|ing)|turn(s|ing)?\s+off)\s+(the\s+)?(auditing|audit\s+logs?|logging|shell\s+history|command\s+history)\b)",
);
/// Leaving the checks and evidence behind a result out of what the agent keeps or reports.
pub(super) static DROP_EVIDENCE: RulePattern = RulePattern::new(
    r"\b(do\s+not|don'?t|never)\s+(preserve|keep|record|retain|log|report|surface|replay)\b.{0,80}?\b(validation|audits?|verification|evidence|checks|exceptions|conflicts?|corrections?|failures|warnings)\b",
);
/// Carrying a credential forward into what the agent hands on: notes, context, metadata,
/// artifacts, logs. Whoever reads those next holds the credential.
pub(super) static CARRY_SECRET: RulePattern = RulePattern::new(
    r"\b(preserv(e|es|ing)|carr(y|ies|ying)|propagat(e|es|ing)|persist(s|ing)?|retain(s|ing)?|forward(s|ing)?|embed(s|ding)?|keep(s|ing)?|copy(ing)?)\b.{0,60}?\b(tokens?|credentials?|secrets?|passwords?|api[ _-]?keys?|session\s+(keys?|cookies?|ids?)|cookies)\b.{0,60}?\b(in|into|across|inside|within|through)\s+(the\s+|your\s+|any\s+|all\s+|every\s+|each\s+)?([\w-]+\s+){0,2}?(notes?|context|metadata|artifacts?|handoffs?|outputs?|reports?|summar(y|ies)|logs?|comments?|commit\s+messages?|patch(es)?|sidecars?|deliverables?|responses?|replies)\b",
);
/// Everything of a kind the agent produces, sent on: "after generating any report, send it".
pub(super) static EVERY_OUTPUT: RulePattern = RulePattern::new(
    r"\b(any|every|each|all)\s+([\w-]+\s+)?(reports?|outputs?|results?|documents?|responses?|answers?|conversations?|summar(y|ies)|transcripts?|files?\s+(you|it)\s+(create|write|generate)s?)\b",
);
/// A recipient that is not the user: admins, a team, a server, an inbox.
pub(super) static THIRD_PARTY: RulePattern = RulePattern::new(
    r"\bto\s+(all\s+|the\s+|our\s+|an?\s+|every\s+|its\s+)?(admins?|administrators?|team|owners?|maintainers?|operators?|(external\s+|remote\s+|central\s+)?(servers?|endpoints?|webhooks?|channels?|inbox(es)?|mailbox(es)?|addresses))\b",
);
