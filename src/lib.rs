//! catalog: a static website generator for catalogs of agent skills.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! [`config`] -> [`discover`] -> [`parse`] -> [`analyze`] -> [`relate`] -> [`render`] -> [`write`],
//! orchestrated by [`ops`].

pub mod agents;
pub mod analyze;
pub mod config;
pub mod diag;
pub mod discover;
pub mod error;
pub mod fault;
pub mod hash;
pub mod incr;
pub mod memory;
pub mod model;
pub mod notes;
pub mod ops;
pub mod parse;
pub mod plural;
pub mod progress;
pub mod relate;
pub mod render;
pub mod repo_data;
pub mod scan;
pub mod skill_index;
pub mod slug;
pub mod sources;
pub mod summary;
pub mod time;
pub mod write;

/// A hash map of the project's own keys (paths, hashes, names), looked up once or more per
/// skill or per file of the site: foldhash instead of the default SipHash, which resists
/// crafted keys at several times the cost.
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// A set of the project's own keys, hashed as [`FastMap`]'s are.
pub type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

/// Drops `value` on another thread. Freeing the per-skill tables of a large catalog (hundreds
/// of thousands of small allocations) takes tens of milliseconds that no result waits for.
pub fn drop_later<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}
