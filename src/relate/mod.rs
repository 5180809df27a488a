//! Relate: facts about a skill that depend on the other skills of the catalog.

pub mod copies;
