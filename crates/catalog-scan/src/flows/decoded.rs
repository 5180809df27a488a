//! Base64 literals decoded and read again as code: what a script hides, it still does.

use std::sync::LazyLock;

use regex::Regex;

use super::Line;
use crate::Sink;
use crate::rules::Severity;
use crate::script::targets::DECODED_PREFIX;

static BASE64_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"["'`]([A-Za-z0-9+/]{24,}={0,2})["'`]"#).expect("valid"));

/// Base64 literals decoded and read again as code: what a script hides, it still does.
pub(super) fn decoded_literals(sink: &mut Sink, lines: &[Line]) {
    if sink.file.starts_with(DECODED_PREFIX) {
        return;
    }
    for line in lines {
        for caps in BASE64_LITERAL.captures_iter(line.text) {
            let m = caps.get(1).expect("group");
            let Some(decoded) = decode_base64(m.as_str()) else { continue };
            let path = format!("{DECODED_PREFIX}{}", decoded_kind(&decoded));
            for finding in crate::scan_text(&path, &decoded) {
                if finding.severity < Severity::Medium {
                    continue;
                }
                let what = format!("decoded from base64: {}", finding.message);
                let start = line.start + m.start();
                sink.report_in_context(
                    finding.rule.id,
                    finding.severity.max(Severity::High),
                    start,
                    start + m.len().min(40),
                    what,
                );
            }
        }
    }
}

fn decoded_kind(text: &str) -> &'static str {
    if text.contains("import ") || text.contains("def ") || text.contains("require(") { "py" } else { "sh" }
}

/// Base64 to text, when it decodes to at least 12 mostly printable bytes.
fn decode_base64(s: &str) -> Option<String> {
    let bytes = crate::script::value::base64(s)?;
    crate::script::value::printable_text(&bytes, 12)
}
