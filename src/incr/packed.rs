//! A value kept as the MessagePack it was stored as, decoded when it is asked for, with the
//! hash of those bytes.

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::hash::Hash;

/// A value of `T` as its MessagePack bytes, and their hash. It serializes as the hash and the
/// bytes (two MessagePack `bin`s), so a cache that holds it reads it back without decoding it:
/// a build that reuses 60,000 skills decodes only the few whose pages it renders again, and
/// hashes none of them again (a page's key holds the hash of the facts it is made of).
pub struct Packed<T> {
    bytes: Box<[u8]>,
    hash: Hash,
    of: PhantomData<fn() -> T>,
}

impl<T: Serialize + DeserializeOwned> Packed<T> {
    pub fn new(value: &T) -> Packed<T> {
        let bytes = rmp_serde::to_vec(value).expect("a value in memory serialises");
        Packed { hash: crate::hash::hash_bytes(&bytes), bytes: bytes.into_boxed_slice(), of: PhantomData }
    }

    pub fn decode(&self) -> Result<T, rmp_serde::decode::Error> {
        rmp_serde::from_slice(&self.bytes)
    }
}

impl<T> Packed<T> {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The hash of [`Packed::bytes`] ([`crate::hash::hash_bytes`]), made when they were packed.
    pub fn hash(&self) -> &Hash {
        &self.hash
    }
}

/// Bytes that serialize as a MessagePack `bin`.
struct Bin<'a>(&'a [u8]);

impl Serialize for Bin<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// A MessagePack `bin`, read back.
struct OwnedBin(Box<[u8]>);

impl<'de> serde::Deserialize<'de> for OwnedBin {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl<'de> serde::de::Visitor<'de> for Bytes {
            type Value = Box<[u8]>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("packed bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Self::Value, E> {
                Ok(bytes.into())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> Result<Self::Value, E> {
                Ok(bytes.into_boxed_slice())
            }
        }
        deserializer.deserialize_byte_buf(Bytes).map(OwnedBin)
    }
}

impl<T> Serialize for Packed<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (Bin(&self.hash), Bin(&self.bytes)).serialize(serializer)
    }
}

impl<'de, T> serde::Deserialize<'de> for Packed<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (hash, bytes) = <(OwnedBin, OwnedBin)>::deserialize(deserializer)?;
        let hash: Hash = (*hash.0).try_into().map_err(|_| serde::de::Error::custom("a packed value's hash"))?;
        Ok(Packed { bytes: bytes.0, hash, of: PhantomData })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_value_is_stored_as_its_bytes_and_decoded_on_demand() {
        let value = (String::from("name"), vec![1u32, 2, 3]);
        let packed = Packed::new(&value);
        assert_eq!(packed.bytes(), rmp_serde::to_vec(&value).unwrap());
        assert_eq!(packed.hash(), &crate::hash::hash_bytes(packed.bytes()));
        // Within another record it is written as `bin`s of its hash and bytes, and read back whole.
        let outer = rmp_serde::to_vec(&(7u8, &packed)).unwrap();
        let (seven, back): (u8, Packed<(String, Vec<u32>)>) = rmp_serde::from_slice(&outer).unwrap();
        assert_eq!((seven, back.bytes(), back.hash()), (7, packed.bytes(), packed.hash()));
        assert_eq!(back.decode().unwrap(), value);
        // Bytes that are not a `T` fail to decode rather than give a wrong value.
        let wrong =
            Packed::<(String, Vec<u32>)> { bytes: Packed::new(&3u8).bytes.clone(), hash: [0; 16], of: PhantomData };
        assert!(wrong.decode().is_err());
    }
}
