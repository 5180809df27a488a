//! Commands: each a thin orchestration of the pipeline stages.

pub mod build;

pub use build::{BuildOptions, BuildReport, build, load_catalog};
