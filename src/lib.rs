//! catalog: a static website generator for catalogs of agent skills.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! [`config`] -> [`discover`] -> [`parse`] -> [`analyze`] -> [`relate`] -> [`render`] -> [`write`],
//! orchestrated by [`ops`].

pub mod agents;
pub mod analyze;
pub mod config;
pub mod discover;
pub mod error;
pub mod hash;
pub mod incr;
pub mod memory;
pub mod model;
pub mod notes;
pub mod ops;
pub mod progress;
pub mod relate;
pub mod render;
pub mod repo_data;
pub mod skill_index;
pub mod slug;
pub mod sources;
pub mod summary;
pub mod time;
pub mod write;

// The crates beside the site, under the names the site's modules use.
pub use catalog_scan as scan;
pub use catalog_skill::{FastMap, FastSet, diag, fault, parse, plural};

/// Drops `value` on another thread. Freeing the per-skill tables of a large catalog (hundreds
/// of thousands of small allocations) takes tens of milliseconds that no result waits for.
pub fn drop_later<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}
