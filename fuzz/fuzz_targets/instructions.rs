//! Any text through the instruction reader: prose of SKILL.md and of a reference file, read
//! sentence by sentence for instructions to the agent. No input may panic; findings point
//! inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for path in ["SKILL.md", "references/guide.md", "notes.txt"] {
        for finding in catalog::scan::scan_text(path, text) {
            assert!(finding.line >= 1 && finding.line <= text.lines().count().max(1) + 1, "{finding:?}");
        }
    }
});
