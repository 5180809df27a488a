//! Render keys, derived rather than kept: every page that may be reused is made from a typed
//! input that holds all the page reads (`page_input::SkillPageInput`, `shown::ShownInput`,
//! the API's and the search index's inputs), and its key is [`crate::hash::of`] that input,
//! the hash of its serialized bytes. The code that builds a page sees only its
//! input, so a field the page reads is a field of the input, and every field of the input is
//! in the key: none can be forgotten.
//!
//! What makes that cheap enough to do for every page of every build:
//! - a value that many inputs share (a skill's facts, a repository's, the page frame) is
//!   hashed once per build and stands in the inputs as a [`Keyed`] value, which serializes as
//!   its hash; a skill's facts that reading its folder yields stand as the key they were read
//!   under ([`SkillFactsKey`]), as its SKILL.md text does;
//! - another skill shown on a page stands as the key of its card and row (`shown::ShownOf`),
//!   which a memo keeps by the key of what they are made of, so that an unchanged skill's card
//!   is not made again to be keyed;
//! - packed facts are hashed as their packed bytes, and SKILL.md's text as the key it was
//!   read under (`page_input::SkillMdText`).
//!
//! `tests/incremental.rs` compares incremental builds with clean ones byte for byte.

use std::ops::Deref;

use rayon::prelude::*;
use serde::{Serialize, Serializer};

use crate::hash::Hash;
use crate::model::{Catalog, Repo, Skill};

use super::SkillTexts;

/// A value and the hash of its serialized bytes ([`crate::hash::of`]), made from the value
/// itself: an input that holds it serializes as the hash, and reads the value through it.
pub struct Keyed<'a, T: ?Sized> {
    value: &'a T,
    key: Hash,
}

impl<'a, T: Serialize + ?Sized> Keyed<'a, T> {
    /// `value`, keyed as `kind`.
    pub fn new(kind: &str, value: &'a T) -> Keyed<'a, T> {
        Keyed { value, key: crate::hash::of(kind, value) }
    }
}

impl<'a, T: ?Sized> Keyed<'a, T> {
    /// `value`, standing as `key`: the hash of the inputs `value` is a function of.
    fn standing_as(value: &'a T, key: Hash) -> Keyed<'a, T> {
        Keyed { value, key }
    }

    pub fn key(&self) -> &Hash {
        &self.key
    }

    pub fn value(&self) -> &'a T {
        self.value
    }
}

impl<T: ?Sized> Clone for Keyed<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Keyed<'_, T> {}

impl<T: ?Sized> Deref for Keyed<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T: ?Sized> Serialize for Keyed<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.key)
    }
}

/// Every skill's and every repository's facts, keyed once per build: a repository's struct
/// serialized whole, a skill's as [`SkillFactsKey`].
pub struct FactKeys<'a> {
    pub skills: Vec<Keyed<'a, Skill>>,
    pub repos: Vec<Keyed<'a, Repo>>,
}

impl<'a> FactKeys<'a> {
    /// `texts` names the key each skill was read under.
    pub fn new(catalog: &'a Catalog, texts: &dyn SkillTexts) -> FactKeys<'a> {
        let (skills, repos) = rayon::join(
            || {
                let skill_key = |(index, skill)| {
                    let key = crate::hash::of("skill", &SkillFactsKey::of(skill, texts.source_key(index)));
                    Keyed::standing_as(skill, key)
                };
                catalog.skills.par_iter().enumerate().map(skill_key).collect()
            },
            || catalog.repos.par_iter().map(|repo| Keyed::new("repo", repo)).collect(),
        );
        FactKeys { skills, repos }
    }

    /// Skill `index` and its repository.
    pub fn skill(&self, index: usize) -> (Keyed<'a, Skill>, Keyed<'a, Repo>) {
        let skill = self.skills[index];
        (skill, self.repos[skill.repo])
    }
}

/// What a skill's facts are keyed by: the key its folder was read under, of which every fact
/// that reading yields is a function (the build's skill cache rests on the same: a skill
/// whose key is unchanged is not read again), and the facts the build sets after reading.
/// Hashing that rather than the facts themselves spares walking every skill's analysis on
/// every build: at 10,000 skills, 12 MB serialized into the hasher.
#[derive(Serialize)]
struct SkillFactsKey<'a> {
    read_under: &'a str,
    slug: &'a str,
    dir: &'a crate::discover::SkillDir,
    history: &'a crate::model::SkillHistory,
    copies: &'a crate::relate::copies::Copies,
    title_shared: bool,
}

impl<'a> SkillFactsKey<'a> {
    fn of(skill: &'a Skill, read_under: &'a str) -> SkillFactsKey<'a> {
        // Every field, no `..`: a field added to `Skill` must be placed here, or named as one
        // that reading yields. `repo` is keyed apart (every input holds the repository).
        let Skill {
            repo: _,
            slug,
            dir,
            compatibility: _,
            body_start: _,
            analysis: _,
            verdict: _,
            name: _,
            description: _,
            reading: _,
            topics: _,
            history,
            copies,
            title_shared,
        } = skill;
        SkillFactsKey { read_under, slug, dir, history, copies, title_shared: *title_shared }
    }
}

/// A sequence serialized as the items `items` makes, without collecting them first: the
/// inputs of a file made from thousands of skills are serialized into its key as they come.
pub struct Seq<F>(pub F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Input<'a> {
        shared: Keyed<'a, Vec<String>>,
        own: u32,
    }

    #[test]
    fn a_keyed_value_stands_in_an_input_as_its_key() {
        let shared = vec!["a".to_string(), "b".to_string()];
        let changed = vec!["a".to_string(), "c".to_string()];
        let key =
            |shared: &Vec<String>, own| crate::hash::of("input", &Input { shared: Keyed::new("shared", shared), own });
        assert_ne!(key(&shared, 1), key(&changed, 1), "a change to the shared value changes the key");
        assert_ne!(key(&shared, 1), key(&shared, 2));
        let keyed = Keyed::new("shared", &shared);
        assert_eq!(keyed.len(), 2, "read through the key");
        assert_eq!(rmp_serde::to_vec(&keyed).unwrap(), rmp_serde::to_vec(&serde_bytes_of(keyed.key())).unwrap());
        let seq = Seq(|| shared.iter().map(String::as_str));
        assert_eq!(rmp_serde::to_vec(&seq).unwrap(), rmp_serde::to_vec(&["a", "b"]).unwrap());
    }

    /// The hash as a MessagePack `bin`, as `serialize_bytes` writes it.
    fn serde_bytes_of(hash: &Hash) -> impl Serialize + '_ {
        struct Bytes<'a>(&'a [u8]);
        impl Serialize for Bytes<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_bytes(self.0)
            }
        }
        Bytes(hash)
    }
}
