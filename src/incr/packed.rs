//! A value kept as the MessagePack it was stored as, decoded when it is asked for.

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A value of `T` as its MessagePack bytes. It serializes as those bytes (a MessagePack `bin`),
/// so a cache that holds it reads it back without decoding it: a build that reuses 60,000
/// skills decodes only the few whose pages it renders again.
pub struct Packed<T> {
    bytes: Box<[u8]>,
    of: PhantomData<fn() -> T>,
}

impl<T: Serialize + DeserializeOwned> Packed<T> {
    pub fn new(value: &T) -> Packed<T> {
        let bytes = rmp_serde::to_vec(value).expect("a value in memory serialises");
        Packed { bytes: bytes.into_boxed_slice(), of: PhantomData }
    }

    pub fn decode(&self) -> Result<T, rmp_serde::decode::Error> {
        rmp_serde::from_slice(&self.bytes)
    }
}

impl<T> Packed<T> {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl<T> Serialize for Packed<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.bytes)
    }
}

impl<'de, T> serde::Deserialize<'de> for Packed<T> {
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
        let bytes = deserializer.deserialize_byte_buf(Bytes)?;
        Ok(Packed { bytes, of: PhantomData })
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
        // Within another record it is written as a `bin` of those bytes, and read back whole.
        let outer = rmp_serde::to_vec(&(7u8, &packed)).unwrap();
        let (seven, back): (u8, Packed<(String, Vec<u32>)>) = rmp_serde::from_slice(&outer).unwrap();
        assert_eq!((seven, back.bytes()), (7, packed.bytes()));
        assert_eq!(back.decode().unwrap(), value);
        // Bytes that are not a `T` fail to decode rather than give a wrong value.
        let wrong = Packed::<(String, Vec<u32>)> { bytes: Packed::new(&3u8).bytes.clone(), of: PhantomData };
        assert!(wrong.decode().is_err());
    }
}
