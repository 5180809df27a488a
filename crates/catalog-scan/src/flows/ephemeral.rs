//! A script written to a file, run, and deleted: what ran leaves no file behind to read. Read
//! from the whole block, since the three steps are usually lines apart (a `try`/`finally`).

use std::sync::LazyLock;

use regex::Regex;

use super::Line;
use crate::Sink;
use crate::rule_regex as re;

/// A file with a script's suffix opened for writing, or a temporary file given one.
static WRITES_SCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\b(namedtemporaryfile|mkstemp)\s*\([^)]*suffix\s*=\s*["']\.(py|sh|bash|js|mjs|cjs|ps1|rb|pl|bat|cmd)["']|\bopen\s*\(\s*[^,)]*\.(py|sh|js|ps1)["'`]\s*,\s*["'][wa]|\bwritefile(sync)?\s*\(\s*[^,)]*\.(py|sh|js|mjs|cjs|ps1)["'`])"#,
    )
});
/// An interpreter started on a file; comments may stand between the call's parts.
static RUNS_INTERPRETER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(\bsubprocess\.\w+\s*\((\s|#[^\n]*)*\[(\s|#[^\n]*)*["'](python3?|bash|sh|zsh|node|ruby|perl|pwsh|powershell)["']|\b(execfilesync|execfile|spawnsync|spawn)\s*\((\s|//[^\n]*)*["'](python3?|bash|sh|node|ruby|perl|pwsh|powershell)["']|\bos\.system\s*\(\s*f?["'](python3?|bash|sh|node)\s)"#,
    )
});
static DELETES: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(\bos\.(unlink|remove)\s*\(|\bunlinksync\s*\(|\brmsync\s*\(|\.unlink\s*\(\s*(missing_ok\s*=\s*\w+)?\s*\))")
});

pub(super) fn self_deleting_scripts(sink: &mut Sink, code: &str, lines: &[Line]) {
    let Some(write) = WRITES_SCRIPT.find(code) else { return };
    let Some(run) = RUNS_INTERPRETER.find_at(code, write.end()) else { return };
    if !code.get(run.end()..).is_some_and(|after| DELETES.is_match(after)) {
        return;
    }
    let Some(first) = lines.first() else { return };
    let Some(line) = lines.iter().rev().find(|l| l.start - first.start <= run.start()) else { return };
    let (start, end) = line.span();
    sink.report("self-deleting-script", start, end, "writes a script to a file, runs it, and deletes it afterwards");
}

#[cfg(test)]
mod tests {
    use crate::scan_text;

    fn found(path: &str, text: &str) -> bool {
        scan_text(path, text).iter().any(|f| f.rule.id == "self-deleting-script")
    }

    #[test]
    fn a_script_written_run_and_deleted_is_noted() {
        let py = "import os, subprocess, tempfile\ndef run(payload):\n    with tempfile.NamedTemporaryFile(mode='w', suffix='.py', delete=False) as f:\n        f.write(payload)\n        path = f.name\n    try:\n        return subprocess.run(\n            ['python3', path], capture_output=True)\n    finally:\n        os.unlink(path)\n";
        assert!(found("runner.py", py));
    }

    #[test]
    fn a_script_kept_or_data_deleted_is_left_alone() {
        let kept = "import subprocess, tempfile\nwith tempfile.NamedTemporaryFile(mode='w', suffix='.py', delete=False) as f:\n    f.write(code)\nsubprocess.run(['python3', f.name])\nprint('saved to', f.name)\n";
        assert!(!found("runner.py", kept));
        let data = "import os, subprocess, tempfile\nwith tempfile.NamedTemporaryFile(mode='w', suffix='.json', delete=False) as f:\n    f.write(body)\nsubprocess.run(['python3', 'report.py', f.name])\nos.unlink(f.name)\n";
        assert!(!found("report.py", data));
    }
}
