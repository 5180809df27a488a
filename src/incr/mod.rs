//! Reuse between builds: fingerprints of what a build reads, skill packs (each repository's
//! skills as last read, by cache key), values kept packed until asked for (`Packed`), the
//! `.catalog/` store of memos, and the record of the last build of each output folder. It knows no stage: its values are bytes, hashes and
//! generic serialized records, and the build (`ops::build`) joins them to the stages.
//!
//! Finer-grained reuse lives where the work is: `write` keeps two generations of the site and
//! writes only files that changed; `render` skips pages whose render key is unchanged.

pub mod fingerprint;
pub mod pack;
pub mod packed;
pub mod store;

pub use fingerprint::{FileHash, binary_identity, canonical, settled_before, with_program};
pub use pack::{PackEntry, SkillPack, SkillText};
pub use packed::Packed;
pub use store::{BuildRecord, CACHE_VERSION, cache_dir};
