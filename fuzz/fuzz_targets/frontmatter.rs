//! SKILL.md bytes through decoding, the frontmatter split, YAML (with the lenient fallback and
//! its guards) and the Markdown outline: it must return a skill or a diagnostic, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(skill) = catalog::parse::parse_skill(std::path::Path::new("SKILL.md"), data) {
        // The body offsets must stay inside the text.
        assert!(skill.body().len() <= skill.text.len());
        let _ = catalog::analyze::cost(&skill);
    }
});
