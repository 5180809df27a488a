//! Scan results for people (text), for programs (JSON) and for code scanning (SARIF 2.1.0).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::rules::{Category, RULES, Rule, Severity};
use super::{Finding, ScanReport, Verdict};

/// One checked skill: where it is (as the user named it) and what the scan found.
#[derive(Debug, Clone)]
pub struct CheckedSkill {
    /// The skill folder, `/`-separated, as shown in output (`.` for the current folder).
    pub path: String,
    pub name: String,
    pub report: ScanReport,
}

impl CheckedSkill {
    /// A finding's file as shown in output: the skill folder joined with the file.
    pub fn file_path(&self, finding_file: &str) -> String {
        if self.path.is_empty() || self.path == "." {
            finding_file.to_string()
        } else {
            format!("{}/{finding_file}", self.path)
        }
    }
}

/// Counts over many skills.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub skills: usize,
    pub failed: usize,
    pub notes: usize,
    pub passed: usize,
    /// Skills with a file the check could not finish and nothing that fails them.
    pub not_checked: usize,
    pub follow_spec: usize,
    /// Active (unsuppressed) findings per rule id.
    pub findings_per_rule: BTreeMap<&'static str, usize>,
    pub suppressed: usize,
    pub files_scanned: usize,
    pub bytes_scanned: u64,
}

pub fn summary(skills: &[CheckedSkill]) -> Summary {
    let mut s = Summary { skills: skills.len(), ..Default::default() };
    for skill in skills {
        match skill.report.verdict() {
            Verdict::Failed => s.failed += 1,
            Verdict::Notes => s.notes += 1,
            Verdict::Passed => s.passed += 1,
            Verdict::NotChecked => s.not_checked += 1,
        }
        if skill.report.follows_spec() {
            s.follow_spec += 1;
        }
        for f in &skill.report.findings {
            if f.is_active() {
                *s.findings_per_rule.entry(f.rule.id).or_default() += 1;
            } else {
                s.suppressed += 1;
            }
        }
        s.files_scanned += skill.report.files_scanned;
        s.bytes_scanned += skill.report.bytes_scanned;
    }
    s
}

/// Plain text: one block per skill with findings at or over `shown` (info hidden unless
/// asked), then a summary line.
pub fn text(skills: &[CheckedSkill], show_info: bool) -> String {
    let mut out = String::new();
    for skill in skills {
        let report = &skill.report;
        let verdict = report.verdict();
        let shown: Vec<&Finding> =
            report.findings.iter().filter(|f| show_info || f.severity > Severity::Info || !f.is_active()).collect();
        let label = if skill.path.is_empty() { "." } else { skill.path.as_str() };
        out.push_str(&format!("{label} ({}): {}", skill.name, verdict.label()));
        out.push_str(if report.follows_spec() { ", follows the Agent Skills spec\n" } else { "\n" });
        for f in shown {
            let state = f.suppressed.as_ref().map(|r| format!(" [suppressed: {r}]")).unwrap_or_default();
            out.push_str(&format!(
                "  {}:{}:{}: {} {}: {} ({}){state}\n",
                skill.file_path(&f.file),
                f.line,
                f.column,
                f.severity,
                f.rule.id,
                f.rule.title,
                f.message
            ));
            if !f.matched.is_empty() && !f.is_spec() {
                out.push_str(&format!("      {}\n", f.matched));
            }
        }
        for s in &report.skipped {
            out.push_str(&format!("  {}: {}\n", skill.file_path(&s.file), s.reason));
        }
        for l in &report.limited {
            out.push_str(&format!("  {}: {}\n", skill.file_path(&l.file), l.limit));
        }
    }
    let s = summary(skills);
    let total: usize = s.findings_per_rule.values().sum();
    out.push_str(&format!(
        "{}: {} failed,{} {} with notes, {} passed; {}{}; {} follow the Agent Skills spec\n",
        catalog_skill::plural::count(s.skills, "skill"),
        s.failed,
        if s.not_checked > 0 { format!(" {} not checked,", s.not_checked) } else { String::new() },
        s.notes,
        s.passed,
        catalog_skill::plural::count(total, "finding"),
        if s.suppressed > 0 { format!(" ({} suppressed)", s.suppressed) } else { String::new() },
        s.follow_spec
    ));
    out
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'static str,
    category: Category,
    severity: Severity,
    title: &'static str,
    file: String,
    line: usize,
    column: usize,
    matched: &'a str,
    message: &'a str,
    why: &'static str,
    fix: &'static str,
    suppressed: Option<&'a str>,
    /// The line of a source-to-sink finding's source.
    #[serde(skip_serializing_if = "Option::is_none")]
    source_line: Option<usize>,
}

pub fn json(skills: &[CheckedSkill]) -> String {
    let skills_json: Vec<Value> = skills
        .iter()
        .map(|skill| {
            let findings: Vec<JsonFinding> = skill
                .report
                .findings
                .iter()
                .map(|f| JsonFinding {
                    rule: f.rule.id,
                    category: f.rule.category,
                    severity: f.severity,
                    title: f.rule.title,
                    file: skill.file_path(&f.file),
                    line: f.line,
                    column: f.column,
                    matched: &f.matched,
                    message: &f.message,
                    why: f.rule.why,
                    fix: f.rule.fix,
                    suppressed: f.suppressed.as_deref(),
                    source_line: f.source_line,
                })
                .collect();
            json!({
                "path": skill.path,
                "name": skill.name,
                "verdict": skill.report.verdict(),
                "follows_spec": skill.report.follows_spec(),
                "findings": findings,
                "skipped": skill.report.skipped.iter().map(|s| json!({"file": skill.file_path(&s.file), "reason": s.reason.to_string(), "unchecked": s.reason.leaves_unchecked()})).collect::<Vec<_>>(),
                "limited": skill.report.limited.iter().map(|l| json!({"file": skill.file_path(&l.file), "reason": l.limit.to_string()})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let out = json!({
        "tool": "catalog",
        "version": env!("CARGO_PKG_VERSION"),
        "skills": skills_json,
        "summary": summary(skills),
    });
    serde_json::to_string_pretty(&out).expect("JSON values serialize")
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "note",
    }
}

/// GitHub code scanning's `security-severity`: over 9 critical, 7-8.9 high, 4-6.9 medium.
fn security_severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "9.5",
        Severity::High => "8.0",
        Severity::Medium => "5.5",
        Severity::Low => "3.0",
        Severity::Info => "1.0",
    }
}

fn sarif_rule(rule: &Rule) -> Value {
    let properties = if rule.category == Category::Spec {
        json!({ "tags": ["spec"], "precision": "medium" })
    } else {
        json!({
            "tags": ["security", rule.category.as_str()],
            "security-severity": security_severity(rule.severity),
            "precision": "medium",
        })
    };
    let name: String = rule
        .id
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect();
    json!({
        "id": rule.id,
        "name": name,
        "shortDescription": { "text": rule.title },
        "fullDescription": { "text": rule.why },
        "help": { "text": rule.fix, "markdown": format!("**{}**\n\n{}\n\nFix: {}", rule.title, rule.why, rule.fix) },
        "defaultConfiguration": { "level": sarif_level(rule.severity) },
        "properties": properties,
    })
}

/// Percent-encodes what a URI reference cannot hold as is; keeps `/`.
pub fn uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A source-to-sink finding as one thread: the source's line, then the sink's.
fn code_flow(uri: &str, source_line: usize, f: &Finding) -> Value {
    let location = |line: usize, text: &str| {
        json!({ "location": {
            "physicalLocation": { "artifactLocation": { "uri": uri, "uriBaseId": "%SRCROOT%" }, "region": { "startLine": line.max(1) } },
            "message": { "text": text },
        }})
    };
    json!([{ "threadFlows": [{ "locations": [location(source_line, "source"), location(f.line, "sink")] }] }])
}

/// SARIF 2.1.0: one run, one rule entry per rule id of the table, one result per finding.
pub fn sarif(skills: &[CheckedSkill]) -> String {
    let rules: Vec<Value> = RULES.iter().map(sarif_rule).collect();
    let mut results = Vec::new();
    for skill in skills {
        for f in &skill.report.findings {
            let rule_index =
                RULES.iter().position(|r| r.id == f.rule.id).expect("every finding's rule is in the table");
            let mut result = json!({
                "ruleId": f.rule.id,
                "ruleIndex": rule_index,
                "level": sarif_level(f.severity),
                "message": { "text": format!("{}: {}", f.rule.title, f.message) },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri_path(&skill.file_path(&f.file)), "uriBaseId": "%SRCROOT%" },
                        "region": {
                            "startLine": f.line.max(1),
                            "startColumn": f.column.max(1),
                            "snippet": { "text": f.matched },
                        },
                    },
                }],
                "properties": { "severity": f.severity.as_str(), "skill": skill.name },
            });
            // `result` is the object just written.
            if let Some(fields) = result.as_object_mut() {
                if let Some(source) = f.source_line {
                    fields.insert("codeFlows".into(), code_flow(&uri_path(&skill.file_path(&f.file)), source, f));
                }
                if let Some(reason) = &f.suppressed {
                    fields.insert("suppressions".into(), json!([{ "kind": "external", "justification": reason }]));
                }
            }
            results.push(result);
        }
    }
    // Files the check could not finish: the run did not succeed on them, which code scanning
    // shows as a tool notification rather than as a finding.
    let notifications: Vec<Value> = skills
        .iter()
        .flat_map(|skill| {
            skill.report.unchecked().map(move |s| {
                json!({
                    "level": "error",
                    "message": { "text": format!("{}: {}", skill.name, s.reason) },
                    "locations": [{ "physicalLocation": {
                        "artifactLocation": { "uri": uri_path(&skill.file_path(&s.file)), "uriBaseId": "%SRCROOT%" },
                    }}],
                })
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "catalog",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://agentskills.io",
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "invocations": [{
                "executionSuccessful": notifications.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).expect("JSON values serialize")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_encoded() {
        assert_eq!(uri_path("skills/my skill/SKILL.md"), "skills/my%20skill/SKILL.md");
        assert_eq!(uri_path("a/é"), "a/%C3%A9");
    }
}
