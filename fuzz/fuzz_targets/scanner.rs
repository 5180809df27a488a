//! Any text through every scanner rule, read as Markdown, shell and Python: findings must point
//! inside the text, and nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for path in ["SKILL.md", "scripts/run.sh", "tool.py"] {
        for finding in catalog::scan::scan_text(path, text) {
            assert!(finding.line >= 1 && finding.line <= text.lines().count().max(1) + 1, "{finding:?}");
        }
    }
});
