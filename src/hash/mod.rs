//! Hashes: the 128-bit content hash every key and manifest uses, its hex spelling, a hasher
//! fed in pieces, and the hash of a value's serialized bytes ([`of`]). Pure functions of bytes
//! and values; the stages, the writer and the reuse machinery all hash with these.

pub mod bin;

/// A content hash (the first 128 bits of blake3), of a file or of what a page was rendered from.
pub type Hash = [u8; 16];

pub fn hash_bytes(bytes: &[u8]) -> Hash {
    hash_parts(&[bytes])
}

/// [`hash_bytes`] of the parts put end to end, without putting them end to end first.
pub fn hash_parts(parts: &[&[u8]]) -> Hash {
    let mut hasher = blake3::Hasher::new();
    for part in parts {
        hasher.update(part);
    }
    let mut out = [0; 16];
    out.copy_from_slice(&hasher.finalize().as_bytes()[..16]);
    out
}

pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    push_hex(&mut out, bytes);
    out
}

/// Appends `bytes` in lower-case hex: a manifest holds two hashes per file of the site.
fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for chunk in bytes.chunks(32) {
        let mut digits = [0u8; 64];
        for (pair, &byte) in digits.chunks_exact_mut(2).zip(chunk) {
            pair[0] = DIGITS[usize::from(byte >> 4)];
            pair[1] = DIGITS[usize::from(byte & 15)];
        }
        out.push_str(std::str::from_utf8(&digits[..2 * chunk.len()]).expect("hex digits are ASCII"));
    }
}

/// A hash from its hex digits, as [`push_hex`] writes them (either case is read).
pub fn unhex(text: &str) -> Option<Hash> {
    fn digit(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let mut out = [0u8; 16];
    if text.len() != 32 {
        return None;
    }
    for (byte, pair) in out.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
        *byte = (digit(pair[0])? << 4) | digit(pair[1])?;
    }
    Some(out)
}

/// A blake3 hash fed in a fixed order: text and numbers length-prefixed, so that two sequences
/// of pieces never hash alike.
///
/// Small pieces are gathered and hashed in blocks: blake3 is several times faster over a few
/// kilobytes at once than over the short strings most keys are made of. The hash is the same.
#[derive(Clone)]
pub struct Hasher {
    hasher: blake3::Hasher,
    pending: Vec<u8>,
}

/// Gathered bytes are hashed once there are this many.
const BLOCK: usize = 16 * 1024;

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl Hasher {
    pub fn new() -> Hasher {
        // Room for most keys' pieces at once: growing the block a few bytes at a time copied
        // it over and over.
        Hasher { hasher: blake3::Hasher::new(), pending: Vec::with_capacity(1024) }
    }

    pub fn text(&mut self, text: &str) -> &mut Self {
        self.number(text.len() as u64).bytes(text.as_bytes())
    }

    pub fn number(&mut self, n: u64) -> &mut Self {
        self.bytes(&n.to_le_bytes())
    }

    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        if self.pending.len() + bytes.len() > BLOCK {
            self.hasher.update(&self.pending);
            self.pending.clear();
            if bytes.len() > BLOCK {
                self.hasher.update(bytes);
                return self;
            }
        }
        self.pending.extend_from_slice(bytes);
        self
    }

    fn finalize(&self) -> blake3::Hash {
        let mut hasher = self.hasher.clone();
        hasher.update(&self.pending);
        hasher.finalize()
    }

    /// The hash as 32 hex digits.
    pub fn finish(&self) -> String {
        self.finalize().to_hex()[..32].to_string()
    }

    /// [`Hasher::finish`] as bytes.
    pub fn hash(&self) -> Hash {
        let mut out = [0; 16];
        out.copy_from_slice(&self.finalize().as_bytes()[..16]);
        out
    }
}

/// The hash of `kind` and of `value` as MessagePack: a key derived from the value itself, so
/// that no field of it can be missing from the key. `kind` names what is keyed, so that two
/// kinds never collide.
///
/// The bytes are gathered in a buffer kept per thread and hashed at once: blake3 hashes a
/// whole input several times faster than the pieces MessagePack writes one by one.
pub fn of<T: serde::Serialize + ?Sized>(kind: &str, value: &T) -> Hash {
    /// A buffer that grew past this is let go rather than kept for the next key.
    const KEPT: usize = 1 << 20;
    thread_local! {
        static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    // Taken, not borrowed: a value may hash another while it is serialized.
    let mut bytes = BUFFER.take();
    bytes.clear();
    bytes.extend_from_slice(&(kind.len() as u64).to_le_bytes());
    bytes.extend_from_slice(kind.as_bytes());
    rmp_serde::encode::write(&mut bytes, value).expect("a value in memory serialises");
    let hash = hash_bytes(&bytes);
    if bytes.capacity() <= KEPT {
        BUFFER.set(bytes);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_survive_hex_both_ways() {
        let bytes: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37) ^ 0xa5).collect();
        let expected: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&bytes), expected, "across the 32-byte chunks too");
        let hash: Hash = bytes[..16].try_into().unwrap();
        assert_eq!(unhex(&hex(&hash)), Some(hash));
        assert_eq!(unhex(&hex(&hash).to_uppercase()), Some(hash));
        assert_eq!(unhex(&format!("{}g", &hex(&hash)[..31])), None);
        assert_eq!(unhex(&format!("+{}", &hex(&hash)[..31])), None);
        assert_eq!(unhex(&hex(&hash)[..30]), None);
    }

    #[test]
    fn gathered_pieces_hash_as_one_stream() {
        let mut print = Hasher::new();
        let mut stream = Vec::new();
        for (i, size) in [3usize, 40_000, 10, BLOCK, 1, BLOCK - 1, 7].into_iter().enumerate() {
            let piece = vec![i as u8; size];
            print.bytes(&piece);
            stream.extend_from_slice(&piece);
        }
        print.text("end");
        stream.extend_from_slice(&3u64.to_le_bytes());
        stream.extend_from_slice(b"end");
        assert_eq!(print.finish(), blake3::hash(&stream).to_hex()[..32]);
    }

    #[test]
    fn a_value_hashes_as_its_serialized_bytes() {
        let value = (String::from("title"), vec![1u32, 2, 3], Some(7u64));
        let mut stream = Vec::new();
        stream.extend_from_slice(&4u64.to_le_bytes());
        stream.extend_from_slice(b"card");
        stream.extend_from_slice(&rmp_serde::to_vec(&value).unwrap());
        assert_eq!(of("card", &value), hash_bytes(&stream));
        assert_ne!(of("row", &value), of("card", &value), "the kind is part of the key");
        assert_ne!(of("card", &(String::from("title"), vec![1u32, 2, 4], Some(7u64))), of("card", &value));
    }
}
