//! Fatal errors: the ones that stop a command. Everything a single skill gets wrong is a
//! [`crate::diag::Diagnostic`] instead.

use std::path::PathBuf;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Config { path: PathBuf, line: Option<usize>, message: String },
    #[error("template {name}: {message}")]
    Template { name: String, message: String },
    #[error("{0}")]
    Output(String),
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}
