//! Where a reader puts what it finds: [`Sink`] places each finding in its file (line, column,
//! the text shown) and drops repeats.

use super::{Finding, Rule, Severity, rules, text};

/// Collects findings for one file, dropping repeats.
pub struct Sink<'a> {
    pub file: &'a str,
    pub text: &'a str,
    /// Filled as findings are placed: most files have none.
    lines: text::LineIndex,
    pub(super) findings: Vec<Finding>,
    /// The parsers' budgets this file passed, each once.
    limits: Vec<super::script::Limit>,
    seen: catalog_skill::FastSet<(&'static str, usize, usize)>,
    once: catalog_skill::FastSet<&'static str>,
}

impl<'a> Sink<'a> {
    pub fn new(file: &'a str, text: &'a str) -> Self {
        Sink {
            file,
            text,
            lines: text::LineIndex::default(),
            findings: Vec::new(),
            limits: Vec::new(),
            seen: catalog_skill::FastSet::default(),
            once: catalog_skill::FastSet::default(),
        }
    }

    /// Reports `rule` at the byte range `start..end` of the file's text.
    pub fn report(&mut self, id: &'static str, start: usize, end: usize, message: impl Into<String>) {
        let rule = rules::known(id);
        self.report_at(rule, rule.severity, start, end, message.into());
    }

    pub fn report_with(
        &mut self,
        id: &'static str,
        severity: Severity,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) {
        self.report_at(rules::known(id), severity, start, end, message.into());
    }

    /// Reports `start..end`, showing up to 20 characters of its line on each side.
    pub fn report_in_context(
        &mut self,
        id: &'static str,
        severity: Severity,
        start: usize,
        end: usize,
        message: impl Into<String>,
    ) {
        let text = self.text;
        let (line_start, line_end) = text::lines_around(text, start, end);
        let (before, after) = (text.get(line_start..start), text.get(end..line_end));
        let before =
            before.unwrap_or_default().char_indices().rev().nth(19).map_or(line_start, |(i, _)| line_start + i);
        let after = after.unwrap_or_default().char_indices().nth(20).map_or(line_end, |(i, _)| end + i);
        let rule = rules::known(id);
        self.push(rule, severity, start, before, after, message.into());
    }

    /// Reports at `at`, showing the line `line_start..line_end` it is on.
    pub fn report_line(
        &mut self,
        id: &'static str,
        severity: Option<Severity>,
        at: usize,
        (line_start, line_end): (usize, usize),
        message: String,
    ) {
        let rule = rules::known(id);
        self.push(rule, severity.unwrap_or(rule.severity), at, line_start, line_end, message);
    }

    /// Reports at `at`, showing `shown` instead of the file's text (secrets are masked).
    pub fn report_shown(&mut self, id: &'static str, severity: Severity, at: usize, message: String, shown: String) {
        let before = self.findings.len();
        self.push(rules::known(id), severity, at, at, at, message);
        if self.findings.len() > before {
            self.findings.last_mut().expect("just pushed").matched = shown;
        }
    }

    /// Reports a source-to-sink finding at the sink `start..end`; the source is
    /// `source_delta` lines from the sink's line.
    pub fn report_flow(
        &mut self,
        id: &'static str,
        severity: Severity,
        start: usize,
        end: usize,
        message: String,
        source_delta: isize,
    ) {
        let before = self.findings.len();
        self.push(rules::known(id), severity, start, start, end, message);
        if self.findings.len() > before {
            let finding = self.findings.last_mut().expect("just pushed");
            finding.source_line = finding.line.checked_add_signed(source_delta).filter(|l| *l != finding.line);
            if let Some(source) = finding.source_line {
                finding.message.push_str(&format!(" (line {source} to line {})", finding.line));
            }
        }
    }

    fn report_at(&mut self, rule: &'static Rule, severity: Severity, start: usize, end: usize, message: String) {
        self.push(rule, severity, start, start, end, message);
    }

    /// A finding located at `at`, showing the text `start..end`.
    fn push(&mut self, rule: &'static Rule, severity: Severity, at: usize, start: usize, end: usize, message: String) {
        let at = floor_boundary(self.text, at.min(self.text.len()));
        let start = floor_boundary(self.text, start.min(at));
        let end = floor_boundary(self.text, end.clamp(at, self.text.len()));
        let (line, column) = self.lines.position(self.text, at);
        if self.seen.capacity() == 0 {
            // A file with one finding mostly has several (a SKILL.md's spec notes): room for
            // them at once, not grown one finding at a time. Most files have none.
            self.seen.reserve(8);
            self.findings.reserve(8);
        }
        if !self.seen.insert((rule.id, line, column)) {
            return;
        }
        if rule.once_per_file && !self.once.insert(rule.id) {
            return;
        }
        self.findings.push(Finding {
            rule,
            severity,
            file: self.file.to_string(),
            line,
            column,
            matched: text::visible(self.text.get(start..end).unwrap_or_default()),
            message,
            suppressed: None,
            source_line: None,
        });
    }

    /// Where the findings stand now, for [`Sink::take_back`].
    pub(super) fn mark(&self) -> usize {
        self.findings.len()
    }

    /// Whether a finding was placed since `mark`.
    pub(super) fn found_since(&self, mark: usize) -> bool {
        self.findings.len() > mark
    }

    /// Takes back the findings placed since `mark`, as if they had never been reported: each
    /// one's place in the repeats (and, for a rule reported once per file, the rule) is freed.
    pub(super) fn take_back(&mut self, mark: usize) {
        for finding in self.findings.drain(mark..) {
            self.seen.remove(&(finding.rule.id, finding.line, finding.column));
            if finding.rule.once_per_file {
                self.once.remove(finding.rule.id);
            }
        }
    }

    /// Records that a parser's budget kept it from part of the file.
    pub fn limit(&mut self, limit: super::script::Limit) {
        if !self.limits.contains(&limit) {
            self.limits.push(limit);
        }
    }

    pub fn finish(self) -> Vec<Finding> {
        self.findings
    }

    /// The findings, and the parsers' budgets the file passed.
    pub fn finish_with_limits(self) -> (Vec<Finding>, Vec<super::script::Limit>) {
        (self.findings, self.limits)
    }
}

fn floor_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}
