//! Secrets: values shaped like real keys and tokens (high, never suppressible) and the names
//! of credentials a skill expects (info, disclosure). Placeholders (`your-key-here`,
//! `AKIAIOSFODNN7EXAMPLE`, `sk-xxxx`, `<token>`) are not secrets.

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::Sink;
use super::found::{Found, Key};
use super::rules::Severity;

/// (what it is, pattern). The first capture group, when present, is the secret part.
pub(super) const SHAPES: &[(&str, &str)] = &[
    ("a private key", r"-----BEGIN ((?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----"),
    ("an AWS access key id", r"\b((?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b"),
    ("a GitHub token", r"\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,})\b"),
    ("a GitHub fine-grained token", r"\b(github_pat_[A-Za-z0-9_]{60,})\b"),
    ("a GitLab token", r"\b(glpat-[A-Za-z0-9_-]{20,})\b"),
    ("a Slack token", r"\b(xox[abposre]-[A-Za-z0-9-]{20,})\b"),
    ("a Slack webhook", r"(https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,})"),
    ("an Anthropic API key", r"\b(sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{60,})"),
    ("an OpenAI API key", r"\b(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,})"),
    ("a Stripe secret key", r"\b((?:sk|rk)_live_[A-Za-z0-9]{20,})\b"),
    ("a Google API key", r"\b(AIza[0-9A-Za-z_-]{35})\b"),
    ("an npm token", r"\b(npm_[A-Za-z0-9]{36})\b"),
    ("a Hugging Face token", r"\b(hf_[A-Za-z]{34})\b"),
];

static SET: LazyLock<RegexSet> =
    LazyLock::new(|| RegexSet::new(SHAPES.iter().map(|(_, p)| super::ascii_boundaries(p))).expect("valid"));
static REGEXES: LazyLock<Vec<Regex>> =
    LazyLock::new(|| SHAPES.iter().map(|(_, p)| Regex::new(&super::ascii_boundaries(p)).expect("valid")).collect());
/// The name of a credential: `OPENAI_API_KEY`, `GITHUB_TOKEN`.
pub(super) const NAME_PATTERN: &str = r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*(?:_API_KEY|_TOKEN|_SECRET|_KEY|_PASSWORD)\b";
static NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(&super::ascii_boundaries(NAME_PATTERN)).expect("valid"));

/// A value written after a label that names a secret (`**API Secret**: `Gs…``), or typed into
/// a password field, in prose: the key shapes above have prefixes, these values need none.
/// A match is on one line (spaces and tabs only between its parts), so it is searched for only
/// on the lines that hold one of its literals ([`Found::lines_holding`]): run over whole files,
/// it was the most costly search of the scanner.
pub(super) const LABELLED_PATTERN: &str = r#"(?i:\b(api[ _-]?key|api[ _-]?secret|consumer[ _-]?(?:key|secret)|access[ _-]?token(?:[ _-]?secret)?|token[ _-]?secret|client[ _-]?secret|secret[ _-]?key|auth[ _-]?token|bearer[ _-]?token|password|passwd|private[ _-]?key|app[ _-]?secret)\b[^:=\n]{0,30}?(?::|=|\bis\b)[ \t]*[*_`"']*)([A-Za-z0-9][A-Za-z0-9_\-+/=.]{7,})|(?i:\b(?:type|enter|input|fill[ \t]+in|use)[ \t]+)["'`]([^"'`\s]{6,})["'`](?i:[ \t]+(?:in|into|as)[ \t]+(?:the[ \t]+)?(?:password|passcode)\b)"#;
static LABELLED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&super::ascii_boundaries(LABELLED_PATTERN)).expect("valid"));

/// Whether a value is a stand-in rather than a secret.
pub fn is_placeholder(value: &str) -> bool {
    if is_placeholder_word(value) {
        return true;
    }
    // Real keys are random: few distinct characters means a pattern, not a key.
    let lower = value.to_ascii_lowercase();
    let body = lower.split_once(['_', '-']).map_or(lower.as_str(), |(_, rest)| rest);
    let distinct = body.chars().collect::<std::collections::BTreeSet<_>>().len();
    distinct < 10
}

/// Whether a value holds a word or mark that stands in for a value (`your-key`, `<token>`).
pub fn is_placeholder_word(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "your",
        "example",
        "changeme",
        "change_me",
        "xxx",
        "placeholder",
        "dummy",
        "sample",
        "fake",
        "redacted",
        "insert",
        "replace",
        "...",
        "…",
        "***",
        "000000",
        "123456",
        "abcdef",
        "abc123",
        "test",
        "demo",
        "secret_here",
        "key_here",
        "token_here",
        "here",
        "<",
        ">",
        "{{",
        "${",
        "foo",
        "bar",
    ];
    WORDS.iter().any(|w| lower.contains(w))
}

/// Runs the shapes, labels and names whose literals the prefilter found in the file, a file
/// of the kind `kind`.
pub fn check(sink: &mut Sink, text: &str, kind: super::text::FileKind, found: &Found) {
    let shapes: Vec<usize> = if found.is_everything() {
        SET.matches(text).into_iter().collect()
    } else {
        (0..SHAPES.len()).filter(|k| found.has(Key::Shape(*k))).collect()
    };
    for shape in shapes {
        let (Some(&(what, _)), Some(regex)) = (SHAPES.get(shape), REGEXES.get(shape)) else { continue };
        for caps in regex.captures_iter(text) {
            let whole = caps.get(0).expect("match");
            let secret = caps.get(1).unwrap_or(whole);
            if shape == 0 {
                if private_key_is_placeholder(text.get(whole.end()..).unwrap_or_default()) {
                    continue;
                }
            } else if is_placeholder(secret.as_str()) || !looks_random(secret.as_str()) {
                continue;
            }
            let shown = mask(secret.as_str(), shape == 0);
            sink.report_shown("secret-value", Severity::High, whole.start(), format!("{what}: {shown}"), shown);
        }
    }
    if found.has(Key::SecretLabel) && kind == super::text::FileKind::Markdown {
        labelled_values(sink, text, found);
    }
    let names = if found.has(Key::SecretName) { NAME.find_iter(text) } else { NAME.find_iter("") };
    for m in names {
        let after = text.get(m.end()..).unwrap_or_default();
        let value = assigned_value(after);
        let message = match value {
            Some(v) if is_placeholder(v) => format!("names the credential {} (with a placeholder value)", m.as_str()),
            _ => format!("names the credential {}", m.as_str()),
        };
        sink.report_shown("secret-name", Severity::Info, m.start(), message, m.as_str().to_string());
    }
}

/// Values written after a secret's label in prose: a long random one is a leaked key (high),
/// a shorter one a password written into the skill (medium).
fn labelled_values(sink: &mut Sink, text: &str, found: &Found) {
    // In code blocks the assignment reader speaks for such values.
    let mut regions: Option<Vec<super::text::Region>> = None;
    let lines = found.lines_holding(Key::SecretLabel, text);
    let matches = lines.into_iter().flat_map(|(start, end)| {
        super::text::matches_from(&LABELLED, text.get(..end).unwrap_or_default(), start).map(move |m| (m, end))
    });
    for (m, line_end) in matches {
        // The groups of the match found: most lines hold none, and that needs no groups.
        let Some(caps) = text.get(..line_end).and_then(|line| LABELLED.captures_at(line, m.start())) else { continue };
        let at = m.start();
        let regions = regions.get_or_insert_with(|| super::text::regions(text, super::text::FileKind::Markdown));
        if regions.iter().any(|r| r.start <= at && at < r.end && r.kind != super::text::RegionKind::Prose) {
            continue;
        }
        let (Some(value), label) = (caps.get(2).or_else(|| caps.get(3)), caps.get(1)) else { continue };
        let v = value.as_str();
        let distinct = v.chars().collect::<std::collections::BTreeSet<_>>().len();
        if is_placeholder_word(v) || !looks_random(v) || distinct < 6 {
            continue;
        }
        let random = v.len() >= 20
            && v.chars().any(|c| c.is_ascii_uppercase())
            && v.chars().any(|c| c.is_ascii_lowercase())
            && distinct >= 12;
        let severity = if random { Severity::High } else { Severity::Medium };
        let name = label.map_or("a password field", |l| l.as_str());
        let shown = mask(v, false);
        let message = format!("writes a value for {name} into the skill: {shown}");
        sink.report_shown("hardcoded-credential", severity, value.start(), message, shown);
    }
}

/// `=value`, `: value`, `="value"` right after a name.
fn assigned_value(after: &str) -> Option<&str> {
    let rest = after.strip_prefix('=').or_else(|| after.strip_prefix(": ")).or_else(|| after.strip_prefix('='))?;
    let rest = rest.trim_start_matches(['"', '\'']);
    let end = rest.find(|c: char| c.is_whitespace() || c == '"' || c == '\'').unwrap_or(rest.len());
    rest.get(..end).filter(|v| !v.is_empty())
}

/// Token shapes with a fixed prefix still need a random-looking body: digits and letters.
fn looks_random(value: &str) -> bool {
    let body = value.split_once(['_', '-']).map_or(value, |(_, rest)| rest);
    let digits = body.chars().any(|c| c.is_ascii_digit());
    let letters = body.chars().any(|c| c.is_ascii_alphabetic());
    digits && letters
}

/// A private key block whose body is missing, elided or made up.
fn private_key_is_placeholder(after_header: &str) -> bool {
    let mut body_end = after_header.find("-----END").unwrap_or(after_header.len().min(8192));
    while !after_header.is_char_boundary(body_end) {
        body_end -= 1;
    }
    let body = after_header.get(..body_end).unwrap_or_default();
    let base64: usize = body.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '+' || *c == '/').count();
    base64 < 200 || is_placeholder_body(body)
}

fn is_placeholder_body(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    ["...", "…", "your", "example", "placeholder", "redacted", "<", "xxxx"].iter().any(|w| lower.contains(w))
}

/// The first few characters, then an ellipsis: enough to find it, not enough to use it.
fn mask(secret: &str, header: bool) -> String {
    if header {
        return format!("-----BEGIN {secret}----- (key material not shown)");
    }
    let keep = secret.char_indices().nth(8).map_or(secret.len(), |(i, _)| i);
    format!("{}…({} characters)", secret.get(..keep).unwrap_or(secret), secret.chars().count())
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use crate::scan_text;

    fn found(text: &str) -> Vec<(&'static str, String)> {
        scan_text("SKILL.md", text).into_iter().map(|f| (f.rule.id, f.matched)).collect()
    }

    #[test]
    fn real_token_shapes_are_found_and_masked() {
        let gh = format!("ghp_{}", "a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ01");
        let found = found(&format!("token = \"{gh}\"\n"));
        assert_eq!(found[0].0, "secret-value");
        assert!(found[0].1.starts_with("ghp_a1B2") && !found[0].1.contains("XyZ01"), "{}", found[0].1);
        assert_eq!(super::super::scan_text("x", "AKIAZ7Q2M4X9R3T5B6WP\n")[0].rule.id, "secret-value");
        let key = format!(
            "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----\n",
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW".repeat(4)
        );
        assert_eq!(super::super::scan_text("k", &key)[0].rule.id, "secret-value");
    }

    #[test]
    fn values_after_a_secret_label_in_prose() {
        let text = "- **API Secret**: `e5Tq1Vb8NcZx6Lk2Mp9Rw4Yh7Gs3Jd0Fa`\n";
        let findings = super::super::scan_text("SKILL.md", text);
        let f = findings.iter().find(|f| f.rule.id == "hardcoded-credential").expect("found");
        assert_eq!(f.severity.as_str(), "high");
        assert!(f.matched.starts_with("e5Tq1Vb8…") && !f.matched.contains("Jd0Fa"), "{}", f.matched);
        let typed = super::super::scan_text("SKILL.md", "Type \"Maple2024x\" into the password field.\n");
        assert_eq!(typed[0].severity.as_str(), "medium");
        for quiet in [
            "- **API Key**: your key from the dashboard\n",
            "API key: `sk-xxxxxxxxxxxxxxxxxxxx`\n",
            "Password: `<your-password>`\n",
            "The password is required.\n",
        ] {
            assert!(found(quiet).iter().all(|(id, _)| *id != "hardcoded-credential"), "{quiet}");
        }
        let block = "```python\npassword = \"Voiture7x9q\"\n```\n";
        let in_block = super::super::scan_text("SKILL.md", block);
        assert_eq!(in_block.iter().filter(|f| f.rule.id == "hardcoded-credential").count(), 1, "{in_block:?}");
        // In code, the assignment reader speaks for such values.
        assert!(super::super::scan_text("x.sh", "# api key: Q7vLm2Xc9RtB4kPz8WnY3sHd\n").is_empty());
    }

    #[test]
    fn placeholders_are_disclosure_only() {
        assert_eq!(found("OPENAI_API_KEY=your-key-here\n"), [("secret-name", "OPENAI_API_KEY".to_string())]);
        assert!(found("aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n").is_empty());
        assert!(found("token: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n").is_empty());
        assert!(found("-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----\n").is_empty());
        assert!(found("export ANTHROPIC_API_KEY=\"sk-ant-api03-...\"\n").iter().all(|(id, _)| *id == "secret-name"));
        assert!(found("use the sk-learn-compatible-estimator-interface-for-models\n").is_empty());
    }
}
