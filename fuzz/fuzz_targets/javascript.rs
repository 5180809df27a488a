//! Any text through the JavaScript and TypeScript reader (oxc): parsed as a script of the kind
//! its first byte picks, its values followed to their sinks, whatever the prefilter would have
//! found. No input may panic or overflow the stack (deep nesting is refused before the parser
//! sees it); findings point inside the text.
#![no_main]

use catalog::scan::{flows::scan_code, script::engine::Lang};
use libfuzzer_sys::fuzz_target;

const PATHS: [&str; 4] = ["scripts/app.js", "scripts/app.ts", "scripts/app.tsx", "scripts/app.mjs"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(code) = std::str::from_utf8(rest) else { return };
    let path = PATHS[usize::from(pick) % PATHS.len()];
    let (findings, _) = scan_code(path, code, Lang::Js);
    for finding in findings {
        assert!(finding.line >= 1 && finding.line <= code.lines().count().max(1) + 1, "{finding:?}");
    }
});
