//! Any text through every scanner rule: findings must point inside the text, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for path in ["SKILL.md", "scripts/run.sh", "tool.py"] {
        for finding in catalog::scan::scan_text(path, text, false) {
            assert!(finding.line >= 1 && finding.line <= text.lines().count().max(1) + 1, "{finding:?}");
        }
    }
});
