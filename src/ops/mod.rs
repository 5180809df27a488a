//! Commands: each a thin orchestration of the pipeline stages.

pub mod build;
pub mod check;
pub mod init;
pub mod serve;
pub mod skill_files;
pub mod sources;
pub mod stats;

pub use build::{BuildOptions, BuildReport, build, build_reporting, build_with, load_catalog, load_catalog_with};
pub use check::{CheckOptions, check};
