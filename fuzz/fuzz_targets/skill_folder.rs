//! A whole skill folder through the reader `build` and `check` share
//! (`catalog::ops::skill_files::read_skill`): the input is split at 0xFF bytes into SKILL.md
//! and the files beside it, handed over in memory (nothing is read from disk), then parsed and
//! scanned. No input may panic past the per-skill boundary, and every file is either scanned
//! or listed with why it was not.
#![no_main]

use std::path::Path;

use catalog::discover::{FolderBytes, SkillDir, SkillFile};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 6] =
    ["SKILL.md", "scripts/run.sh", "scripts/tool.py", "scripts/app.js", "scripts/setup.ps1", "references/guide.md"];

fuzz_target!(|data: &[u8]| {
    let mut read = FolderBytes::default();
    let mut files = Vec::new();
    for (name, bytes) in NAMES.iter().zip(data.split(|b| *b == 0xFF)) {
        files.push(SkillFile {
            path: name.to_string(),
            size: bytes.len() as u64,
            is_symlink: false,
            modified: 0,
            inode: 0,
            changed: 0,
        });
        read.insert(name, bytes.to_vec());
    }
    let dir = SkillDir {
        dir: "/nonexistent/skill".into(),
        rel_dir: String::new(),
        skill_file: "SKILL.md".to_string(),
        files,
    };
    let skill = catalog::ops::skill_files::read_skill(&dir, Path::new("skill"), "skill", read);
    let accounted = skill.scan.files_scanned + skill.scan.skipped.len();
    assert!(accounted >= dir.files.len(), "{} files, {accounted} scanned or skipped", dir.files.len());
    for skipped in skill.scan.unchecked() {
        assert!(!matches!(skipped.reason, catalog::scan::SkipReason::Fault { .. }), "{skipped:?}");
    }
});
