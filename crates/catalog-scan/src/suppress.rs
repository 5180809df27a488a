//! Suppressions: a rule silenced for a path (and optionally a line), always with a reason. A
//! suppressed finding is still listed, marked as suppressed; it no longer counts for the
//! verdict or the exit code. Secret values can never be suppressed.
//!
//! Two places hold them: `[[suppress]]` tables in catalog.toml (paths as
//! `owner/repo/path/in/repo`), and `.catalogignore` files for `catalog check` (one
//! suppression a line, `RULE PATH[:LINE] REASON`, paths relative to the file's folder).

use serde::{Deserialize, Serialize};

use super::Finding;
use super::rules::rule;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Suppression {
    /// A rule id, e.g. `remote-code-installer`.
    pub rule: String,
    /// A path glob: `*` within a segment, `**` across segments, a trailing `/` for a folder.
    pub path: String,
    /// Only this line of the file.
    #[serde(default)]
    pub line: Option<usize>,
    /// Why the finding is acceptable; shown beside it.
    pub reason: String,
}

impl Suppression {
    /// Why this suppression cannot be used, if it cannot.
    pub fn problem(&self) -> Option<String> {
        let Some(found) = rule(&self.rule) else {
            return Some(format!("suppression names an unknown rule {:?}", self.rule));
        };
        if !found.suppressible {
            return Some(format!("rule {} cannot be suppressed: revoke the secret and remove it instead", self.rule));
        }
        if self.reason.trim().is_empty() {
            return Some(format!("suppression of {} for {} has no reason", self.rule, self.path));
        }
        if self.path.trim().is_empty() {
            return Some(format!("suppression of {} has no path", self.rule));
        }
        None
    }

    pub fn matches(&self, rule_id: &str, path: &str, line: usize) -> bool {
        self.rule == rule_id && self.line.is_none_or(|l| l == line) && glob(&self.path, path)
    }
}

/// Marks every finding a suppression covers. `path_of` gives the path suppressions are
/// written against (e.g. `owner/repo/skills/x/SKILL.md`).
pub fn apply(findings: &mut [Finding], suppressions: &[Suppression], path_of: impl Fn(&Finding) -> String) {
    if suppressions.is_empty() {
        return;
    }
    for finding in findings.iter_mut().filter(|f| f.rule.suppressible) {
        let path = path_of(finding);
        if let Some(s) = suppressions.iter().find(|s| s.matches(finding.rule.id, &path, finding.line)) {
            finding.suppressed = Some(s.reason.trim().to_string());
        }
    }
}

/// Reads a `.catalogignore` file. `prefix` is prepended to every path (the file's folder,
/// relative to where findings' paths start, with a trailing `/`, or empty).
pub fn parse_ignore_file(text: &str, prefix: &str) -> Result<Vec<Suppression>, (usize, String)> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, char::is_whitespace);
        let (Some(rule_id), Some(target)) = (parts.next(), parts.next()) else {
            return Err((line_no, "expected RULE PATH[:LINE] REASON".to_string()));
        };
        let reason = parts.next().unwrap_or("").trim().trim_start_matches("--").trim().to_string();
        let (path, line_number) = match target.rsplit_once(':') {
            Some((p, l)) if l.chars().all(|c| c.is_ascii_digit()) && !l.is_empty() => (p, l.parse().ok()),
            _ => (target, None),
        };
        let path = path.trim_start_matches("./");
        let suppression =
            Suppression { rule: rule_id.to_string(), path: format!("{prefix}{path}"), line: line_number, reason };
        if let Some(problem) = suppression.problem() {
            return Err((line_no, problem));
        }
        out.push(suppression);
    }
    Ok(out)
}

/// Glob match of a whole path. A pattern ending in `/` matches everything below that folder.
pub fn glob(pattern: &str, path: &str) -> bool {
    if let Some(dir) = pattern.strip_suffix('/') {
        return glob(&format!("{dir}/**"), path);
    }
    glob_bytes(pattern.as_bytes(), path.as_bytes())
}

fn glob_bytes(p: &[u8], s: &[u8]) -> bool {
    match p {
        [] => s.is_empty(),
        [b'*', b'*', rest @ ..] => {
            let rest = rest.strip_prefix(b"/").unwrap_or(rest);
            // Every tail of the path, the empty one too.
            std::iter::successors(Some(s), |tail| tail.split_first().map(|(_, after)| after))
                .any(|tail| glob_bytes(rest, tail))
        }
        [b'*', rest @ ..] => {
            let mut tail = s;
            loop {
                if glob_bytes(rest, tail) {
                    return true;
                }
                match tail.split_first() {
                    Some((&c, after)) if c != b'/' => tail = after,
                    _ => return false,
                }
            }
        }
        [b'?', rest @ ..] => s.split_first().is_some_and(|(&c, after)| c != b'/' && glob_bytes(rest, after)),
        [c, rest @ ..] => s.split_first().is_some_and(|(first, after)| first == c && glob_bytes(rest, after)),
    }
}

#[cfg(test)]
// Tests index their own fixed fixtures.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("skills/*/SKILL.md", "skills/a/SKILL.md"));
        assert!(!glob("skills/*/SKILL.md", "skills/a/b/SKILL.md"));
        assert!(glob("skills/**/install.sh", "skills/a/b/install.sh"));
        assert!(glob("skills/**", "skills/a/b"));
        assert!(glob("acme/tools/", "acme/tools/x/y.sh"));
        assert!(glob("**", "anything/at/all"));
        assert!(!glob("a?c", "a/c"));
    }

    #[test]
    fn ignore_files_need_a_known_rule_and_a_reason() {
        let ok = parse_ignore_file("# comment\nremote-code-installer scripts/setup.sh:3 installs uv, pinned\n", "x/")
            .unwrap();
        assert_eq!(ok[0].path, "x/scripts/setup.sh");
        assert_eq!(ok[0].line, Some(3));
        assert_eq!(ok[0].reason, "installs uv, pinned");
        assert_eq!(parse_ignore_file("privilege-sudo SKILL.md\n", "").unwrap_err().0, 1);
        assert!(parse_ignore_file("no-such-rule SKILL.md because\n", "").unwrap_err().1.contains("unknown rule"));
        assert!(
            parse_ignore_file("secret-value SKILL.md it is fine\n", "").unwrap_err().1.contains("cannot be suppressed")
        );
    }

    #[test]
    fn suppressed_findings_stay_listed_and_secrets_never_suppress() {
        let text = "sudo apt-get install jq\ntoken=ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ01\n";
        let mut findings = crate::scan_text("setup.sh", text);
        let all = vec![
            Suppression {
                rule: "privilege-sudo".into(),
                path: "setup.sh".into(),
                line: None,
                reason: "needs apt".into(),
            },
            Suppression { rule: "secret-value".into(), path: "**".into(), line: None, reason: "nope".into() },
        ];
        apply(&mut findings, &all, |f| f.file.clone());
        let sudo = findings.iter().find(|f| f.rule.id == "privilege-sudo").unwrap();
        assert_eq!(sudo.suppressed.as_deref(), Some("needs apt"));
        let secret = findings.iter().find(|f| f.rule.id == "secret-value").unwrap();
        assert!(secret.suppressed.is_none());
    }
}
