//! Any text through the python reader: parsed by its grammar, its values followed to their
//! sinks, whatever the prefilter would have found. No input may panic or overflow the stack;
//! findings point inside the text.
#![no_main]

use catalog::scan::{flows::scan_code, script::engine::Lang};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(code) = std::str::from_utf8(data) else { return };
    let (findings, _) = scan_code("scripts/tool.py", code, Lang::Python);
    for finding in findings {
        assert!(finding.line >= 1 && finding.line <= code.lines().count().max(1) + 1, "{finding:?}");
    }
});
