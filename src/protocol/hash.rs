//! SHA-256 digests with domain separation and length prefixes.
//!
//! Every hash the protocol publishes is built with [`Transcript`]: a domain tag, then each part
//! prefixed by its length as a big-endian u32. Prefixing makes the encoding injective, so two
//! different lists of parts can never hash the same input bytes (docs/dice.md, "Encoding").

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// A 32-byte value (digest, seed, key or entropy), written as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hash32(pub [u8; 32]);

impl Hash32 {
    pub fn hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Fresh bytes from the operating system's CSPRNG.
    pub fn random() -> std::io::Result<Hash32> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| std::io::Error::other(format!("operating system RNG failed: {e}")))?;
        Ok(Hash32(bytes))
    }

    /// The first 12 hex digits: enough for people to compare heads by eye.
    pub fn short(&self) -> String {
        self.hex()[..12].to_string()
    }
}

impl fmt::Display for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

impl fmt::Debug for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash32({})", self.hex())
    }
}

/// Why a string is not a 32-byte hex value.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("expected 64 hexadecimal digits (32 bytes), got {0}")]
pub struct BadHex(String);

impl FromStr for Hash32 {
    type Err = BadHex;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let describe = || {
            if s.len() != 64 {
                format!("{} characters", s.len())
            } else {
                "a non-hexadecimal character".to_string()
            }
        };
        // Decoded by hand: a game's journal holds thousands of hashes, and opening it must
        // not cost an allocation per hash. Either case is accepted, as `hex` does.
        let digits = s.as_bytes();
        if digits.len() != 64 {
            return Err(BadHex(describe()));
        }
        let nibble = |b: u8| match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        };
        let mut arr = [0u8; 32];
        for (byte, pair) in arr.iter_mut().zip(digits.chunks_exact(2)) {
            match (nibble(pair[0]), nibble(pair[1])) {
                (Some(hi), Some(lo)) => *byte = hi << 4 | lo,
                _ => return Err(BadHex(describe())),
            }
        }
        Ok(Hash32(arr))
    }
}

impl Serialize for Hash32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.hex())
    }
}

impl<'de> Deserialize<'de> for Hash32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Hex;
        impl serde::de::Visitor<'_> for Hex {
            type Value = Hash32;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a SHA-256 hash: 64 hexadecimal digits")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Hash32, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(Hex)
    }
}

/// Plain SHA-256 of some bytes.
pub fn sha256(bytes: &[u8]) -> Hash32 {
    Hash32(Sha256::digest(bytes).into())
}

/// A domain-separated, length-prefixed hash under construction.
pub struct Transcript(Sha256);

impl Transcript {
    /// Starts a hash for one purpose; the domain is hashed like any other part.
    pub fn new(domain: &str) -> Transcript {
        let mut t = Transcript(Sha256::new());
        t.part(domain.as_bytes());
        t
    }

    pub fn part(&mut self, bytes: &[u8]) -> &mut Transcript {
        let len = u32::try_from(bytes.len()).expect("hash part over 4 GiB");
        self.0.update(len.to_be_bytes());
        self.0.update(bytes);
        self
    }

    pub fn str(&mut self, s: &str) -> &mut Transcript {
        self.part(s.as_bytes())
    }

    pub fn u64(&mut self, v: u64) -> &mut Transcript {
        self.part(&v.to_be_bytes())
    }

    pub fn hash(&mut self, h: &Hash32) -> &mut Transcript {
        self.part(&h.0)
    }

    pub fn finish(&mut self) -> Hash32 {
        Hash32(std::mem::take(&mut self.0).finalize().into())
    }
}

/// The commitment to a secret: `H("pbem-commit-v1", secret)`.
pub fn commitment(secret: &Hash32) -> Hash32 {
    Transcript::new("pbem-commit-v1").hash(secret).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        let h = sha256(b"abc");
        assert_eq!(
            h.hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(h.hex().parse::<Hash32>().unwrap(), h);
    }

    #[test]
    fn bad_hex_says_what_was_wrong() {
        assert_eq!(
            "abc".parse::<Hash32>().unwrap_err().to_string(),
            "expected 64 hexadecimal digits (32 bytes), got 3 characters"
        );
        let z = "z".repeat(64);
        assert!(
            z.parse::<Hash32>()
                .unwrap_err()
                .to_string()
                .contains("non-hexadecimal")
        );
    }

    #[test]
    fn hex_of_either_case_parses_and_other_characters_are_refused() {
        let h = sha256(b"abc");
        assert_eq!(h.hex().to_uppercase().parse::<Hash32>().unwrap(), h);
        let mut odd = h.hex();
        odd.replace_range(62..64, "é"); // 64 bytes, a multi-byte character at the end
        assert_eq!(odd.len(), 64);
        assert!(odd.parse::<Hash32>().is_err());
        for bad in ["g", " ", "-", "+"] {
            let mut s = h.hex();
            s.replace_range(10..11, bad);
            assert!(s.parse::<Hash32>().is_err(), "{s}");
        }
    }

    #[test]
    fn a_hash_reads_from_yaml_and_json_strings_only() {
        let h = sha256(b"abc");
        let yaml: Hash32 = crate::yaml::parse(&format!("{}\n", h.hex()), "t").unwrap();
        let json: Hash32 = serde_json::from_str(&format!("\"{}\"", h.hex())).unwrap();
        assert_eq!((yaml, json), (h, h));
        assert!(serde_json::from_str::<Hash32>("12").is_err());
    }

    #[test]
    fn length_prefix_separates_parts() {
        let a = Transcript::new("d").str("ab").str("c").finish();
        let b = Transcript::new("d").str("a").str("bc").finish();
        assert_ne!(a, b);
    }
}
