//! Fatal errors: the ones that stop a command. Everything a single skill gets wrong is a
//! [`crate::diag::Diagnostic`] instead.

use std::path::PathBuf;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The cause is part of the message, not a `source`: printed as a chain, it would show twice.
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Config { path: PathBuf, line: Option<usize>, message: String },
    #[error("template {name}: {message}")]
    Template { name: String, message: String },
    #[error("{0}")]
    Output(String),
    /// `check` was given a folder without a SKILL.md in it or below it.
    #[error("{}: no SKILL.md found in this folder or below it", .0.display())]
    NoSkills(PathBuf),
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        Error::Io { path: path.into(), error }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_error_names_its_file_and_its_cause_once() {
        let err = Error::io("public/index.html", std::io::Error::from_raw_os_error(28));
        let text = format!("{:#}", anyhow::Error::from(err).context("building the catalog"));
        assert!(text.starts_with("building the catalog: public/index.html: "), "{text}");
        assert_eq!(text.matches("(os error 28)").count(), 1, "{text}");
    }
}
