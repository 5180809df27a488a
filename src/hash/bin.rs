//! Hashes as byte strings in stored values (`#[serde(with = "crate::hash::bin")]`): serde
//! writes a `[u8; 16]` as a sequence of sixteen numbers, which MessagePack stores as sixteen
//! integers, each encoded and decoded apart. As a `bin` it is one length and the bytes. A
//! one-skill rebuild of 10,000 skills read and wrote about a million such integers.

use serde::de::{Error, SeqAccess, Visitor};
use serde::{Deserializer, Serializer};

pub fn serialize<S: Serializer, const N: usize>(bytes: &[u8; N], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes)
}

pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(deserializer: D) -> Result<[u8; N], D::Error> {
    deserializer.deserialize_bytes(Fixed::<N>)
}

/// An optional hash, as `nil` or a `bin`.
pub mod option {
    use super::*;

    pub fn serialize<S: Serializer, const N: usize>(bytes: &Option<[u8; N]>, serializer: S) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(bytes) => serializer.serialize_some(&AsBin(bytes)),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        deserializer: D,
    ) -> Result<Option<[u8; N]>, D::Error> {
        deserializer.deserialize_option(OptionFixed::<N>)
    }

    struct OptionFixed<const N: usize>;

    impl<'de, const N: usize> Visitor<'de> for OptionFixed<N> {
        type Value = Option<[u8; N]>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "nothing or {N} bytes")
        }
        fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
            super::deserialize(deserializer).map(Some)
        }
    }
}

/// A map from hash to hash, as a sequence of `bin` pairs.
pub mod map {
    use super::*;
    use crate::FastMap;
    use crate::hash::Hash;
    use serde::ser::SerializeSeq;

    pub fn serialize<S: Serializer>(map: &FastMap<Hash, Hash>, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(map.len()))?;
        for (key, value) in map {
            seq.serialize_element(&(AsBin(key), AsBin(value)))?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<FastMap<Hash, Hash>, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = FastMap<Hash, Hash>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("pairs of hashes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut map = FastMap::default();
                map.reserve(seq.size_hint().unwrap_or(0));
                while let Some((FromBin(key), FromBin(value))) = seq.next_element()? {
                    map.insert(key, value);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_seq(Pairs)
    }
}

/// A hash that serializes as a `bin`.
struct AsBin<'a, const N: usize>(&'a [u8; N]);

impl<const N: usize> serde::Serialize for AsBin<'_, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// A hash read from a `bin`.
struct FromBin<const N: usize>([u8; N]);

impl<'de, const N: usize> serde::Deserialize<'de> for FromBin<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer).map(FromBin)
    }
}

/// Exactly `N` bytes.
struct Fixed<const N: usize>;

impl<'de, const N: usize> Visitor<'de> for Fixed<N> {
    type Value = [u8; N];
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{N} bytes")
    }
    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Self::Value, E> {
        bytes.try_into().map_err(|_| E::invalid_length(bytes.len(), &self))
    }
}

#[cfg(test)]
mod tests {
    use crate::hash::Hash;

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Stored {
        #[serde(with = "super")]
        hash: Hash,
        #[serde(with = "super::option")]
        long: Option<[u8; 32]>,
        #[serde(with = "super::option")]
        none: Option<[u8; 32]>,
        #[serde(with = "super::map")]
        map: crate::FastMap<Hash, Hash>,
    }

    #[test]
    fn hashes_are_stored_as_bytes_and_read_back() {
        let stored = Stored {
            hash: [0xa7; 16],
            long: Some([0xf9; 32]),
            none: None,
            map: [([0x81; 16], [0x82; 16]), ([0x83; 16], [0x84; 16])].into_iter().collect(),
        };
        let bytes = rmp_serde::to_vec(&stored).unwrap();
        // Five hashes of 16 bytes and one of 32, a two-byte `bin` header each, and one byte for
        // the struct, the `nil`, the sequence and each pair. As numbers, a byte of 128 or more
        // takes two.
        assert_eq!(bytes.len(), 5 * 18 + 34 + 5, "no hash spelled as numbers");
        assert_eq!(rmp_serde::from_slice::<Stored>(&bytes).unwrap(), stored);
        // A wrong length is an error, not a truncated hash.
        let short = rmp_serde::to_vec(&(serde_bytes_of(&[1; 15]), None::<u8>, None::<u8>, Vec::<u8>::new())).unwrap();
        assert!(rmp_serde::from_slice::<Stored>(&short).is_err());
    }

    fn serde_bytes_of(bytes: &[u8]) -> impl serde::Serialize + '_ {
        super::AsBin::<15>(bytes.try_into().unwrap())
    }
}
