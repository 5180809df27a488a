//! One agent skill's `SKILL.md`, read: [`parse`] turns its bytes into a typed frontmatter, body
//! and outline or a [`diag::Diagnostic`]; [`fault`] is the per-skill boundary every stage's
//! work on one skill runs inside. The site (`catalog`) and the scanner (`catalog-scan`) both
//! read skills through this crate, and it imports neither.

pub mod diag;
pub mod fault;
pub mod parse;
pub mod plural;

/// The tokens a text of `chars` characters costs once loaded: characters / 4, rounded half up.
pub fn tokens_for_chars(chars: usize) -> usize {
    (chars + 2) / 4
}

/// A hash map of the project's own keys (paths, hashes, names, rule ids), looked up once or
/// more per skill or per file: foldhash instead of the default SipHash, which resists crafted
/// keys at several times the cost.
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// A set of the project's own keys, hashed as [`FastMap`]'s are.
pub type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;
