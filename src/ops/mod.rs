//! Commands: each a thin orchestration of the pipeline stages.

pub mod build;
pub mod check;

pub use build::{BuildOptions, BuildReport, build, load_catalog};
pub use check::{CheckOptions, check};
