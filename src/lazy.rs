//! A value kept in the bytes it was serialized as until it is first read: a record loaded from
//! disk whose parts are read only now and then decodes only those parts.

use serde::{Deserialize, Serialize};

/// A value kept as it was encoded (MessagePack, which unlike the pack's own format reads the
/// flattened and tagged fields of a scan report) until it is first read: most
/// of a cached skill is read only when its own page is rendered again, and decoding every
/// skill's whole record was most of the time a rebuild spent loading the cache. Made with
/// [`Deferred::new`], it holds the value itself; encoded again, it gives the same bytes.
pub struct Deferred<T> {
    encoded: Option<Box<[u8]>>,
    /// Boxed: a skill is moved several times on its way into the catalog, and a frontmatter
    /// held inline made every move 200 bytes longer.
    value: std::sync::OnceLock<Box<T>>,
}

impl<T: serde::de::DeserializeOwned + Default> Deferred<T> {
    pub fn new(value: T) -> Deferred<T> {
        Deferred { encoded: None, value: std::sync::OnceLock::from(Box::new(value)) }
    }

    /// The value, decoded on first use; the default when the bytes do not decode (a pack's
    /// entries are checked against its checksum before they are used, so that is damage in
    /// memory).
    pub fn get(&self) -> &T {
        self.value.get_or_init(|| {
            Box::new(self.encoded.as_deref().and_then(|b| rmp_serde::from_slice(b).ok()).unwrap_or_default())
        })
    }
}

impl<T: serde::de::DeserializeOwned + Default> Default for Deferred<T> {
    fn default() -> Deferred<T> {
        Deferred::new(T::default())
    }
}

impl<T: serde::de::DeserializeOwned + Default + Clone> Clone for Deferred<T> {
    fn clone(&self) -> Deferred<T> {
        match self.value.get() {
            Some(value) => Deferred::new(T::clone(value)),
            None => Deferred { encoded: self.encoded.clone(), value: std::sync::OnceLock::new() },
        }
    }
}

impl<T: serde::de::DeserializeOwned + Default + PartialEq> PartialEq for Deferred<T> {
    fn eq(&self, other: &Deferred<T>) -> bool {
        self.get() == other.get()
    }
}

impl<T: serde::de::DeserializeOwned + Default + std::fmt::Debug> std::fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl<T: Serialize> Serialize for Deferred<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match (self.value.get(), &self.encoded) {
            (None, Some(encoded)) => serializer.serialize_bytes(encoded),
            (value, _) => {
                let encoded = value.map(|v| rmp_serde::to_vec(&**v)).transpose().map_err(serde::ser::Error::custom)?;
                serializer.serialize_bytes(&encoded.unwrap_or_default())
            }
        }
    }
}

impl<'de, T> Deserialize<'de> for Deferred<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Deferred<T>, D::Error> {
        struct Bytes;
        impl<'de> serde::de::Visitor<'de> for Bytes {
            type Value = Box<[u8]>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("encoded bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> std::result::Result<Box<[u8]>, E> {
                Ok(bytes.into())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> std::result::Result<Box<[u8]>, E> {
                Ok(bytes.into_boxed_slice())
            }
        }
        let encoded = deserializer.deserialize_byte_buf(Bytes)?;
        Ok(Deferred { encoded: Some(encoded), value: std::sync::OnceLock::new() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deferred_value_decodes_when_read_and_encodes_to_the_same_bytes() {
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        struct Record {
            name: String,
            rest: Deferred<Vec<String>>,
        }
        let made = Record { name: "a".into(), rest: Deferred::new(vec!["one".into(), "two".into()]) };
        let bytes = rmp_serde::to_vec(&made).unwrap();
        let loaded: Record = rmp_serde::from_slice(&bytes).unwrap();
        assert!(loaded.rest.value.get().is_none(), "decoded before it was read");
        assert_eq!(rmp_serde::to_vec(&loaded).unwrap(), bytes, "saved again unread");
        assert_eq!(loaded.rest.get(), &["one", "two"]);
        assert_eq!(rmp_serde::to_vec(&loaded).unwrap(), bytes, "saved again once read");
        assert_eq!(loaded, made);
    }
}
