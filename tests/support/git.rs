// Included by tests/support/mod.rs and by the unit tests of src/sources/history.rs: the one
// git helper of the tests.

/// Runs git in `dir` with a fixed identity and commit date.
pub fn git(dir: &std::path::Path, args: &[&str], date: &str) -> String {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "Ada")
        .env("GIT_AUTHOR_EMAIL", "ada@example.org")
        .env("GIT_COMMITTER_NAME", "Ada")
        .env("GIT_COMMITTER_EMAIL", "ada@example.org")
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Commits every change in `dir` at `date`; returns the new HEAD.
pub fn commit_all(dir: &std::path::Path, message: &str, date: &str) -> String {
    git(dir, &["add", "-A"], date);
    git(dir, &["commit", "-q", "-m", message], date);
    git(dir, &["rev-parse", "HEAD"], date)
}
