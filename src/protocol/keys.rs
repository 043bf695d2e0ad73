//! OpenSSH ed25519 keys.
//!
//! A player's key is either made by `pbem keygen` ([`SecretKey::generate`] then
//! [`SecretKey::to_openssh`]) or is an existing `~/.ssh/id_ed25519` made by `ssh-keygen -t
//! ed25519`. Both are the same OpenSSH file format, optionally encrypted with a passphrase
//! (bcrypt-pbkdf and aes256-ctr, as ssh-keygen does). Only ed25519 keys are accepted: every other
//! algorithm is refused with a message saying how to make an ed25519 key.
//!
//! This module works on the bytes and text of key files only; reading and writing the files and
//! finding the passphrase (a file or [`PASSPHRASE_ENV`]) is `engine::keyfiles`, which raises the
//! file and environment variants of [`KeyError`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ssh_key::private::{Ed25519Keypair, KeypairData};
use ssh_key::{Algorithm, Cipher, HashAlg, Kdf, LineEnding, PrivateKey};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The environment variable that may hold the passphrase of an encrypted key (read by
/// `engine::keyfiles`; named here because the messages of [`KeyError`] name it).
pub const PASSPHRASE_ENV: &str = "PBEM_PASSPHRASE";

/// bcrypt-pbkdf rounds and salt size used when encrypting a key; the values `ssh-keygen` uses.
const BCRYPT_ROUNDS: u32 = 16;
const BCRYPT_SALT_LEN: usize = 16;

const ACCEPTED_PRIVATE: &str = "expected an OpenSSH ed25519 private key, the file beginning \
     \"-----BEGIN OPENSSH PRIVATE KEY-----\" that `ssh-keygen -t ed25519` or `pbem keygen` writes";
const ACCEPTED_PUBLIC: &str =
    "expected one line \"ssh-ed25519 AAAA... [comment]\", as in the .pub file of an ed25519 key";
const HOW_TO_MAKE: &str = "make one with `ssh-keygen -t ed25519` or `pbem keygen`";

/// Why a key could not be made, read, written or parsed. Every message names the file (or the
/// text) involved and what would have been accepted.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(
        "refusing to overwrite {}: the file already exists; choose another path or move the old \
         file away first",
        path.display()
    )]
    Exists { path: PathBuf },
    #[error("{}: not an OpenSSH private key ({detail}); {ACCEPTED_PRIVATE}", path.display())]
    NotPrivateKey { path: PathBuf, detail: String },
    #[error(
        "{origin}: this is a {algorithm} key, but pbem accepts only ed25519 keys; {HOW_TO_MAKE}"
    )]
    NotEd25519 { origin: String, algorithm: String },
    #[error(
        "{}: the key is encrypted with a passphrase and none was given; put the passphrase in the \
         environment variable {PASSPHRASE_ENV} or in a file named with --passphrase-file FILE",
        path.display()
    )]
    PassphraseNeeded { path: PathBuf },
    #[error(
        "{}: wrong passphrase for this key{}; give the passphrase the key was made with, in the \
         environment variable {PASSPHRASE_ENV} or in a file named with --passphrase-file FILE",
        path.display(),
        if *empty { " (the passphrase given was empty)" } else { "" }
    )]
    WrongPassphrase { path: PathBuf, empty: bool },
    #[error("{origin}: not an OpenSSH public key ({detail}); {ACCEPTED_PUBLIC}")]
    BadPublicKey { origin: String, detail: String },
    #[error(
        "the environment variable {PASSPHRASE_ENV} is not valid UTF-8; set it to the passphrase \
         as text, or use --passphrase-file FILE"
    )]
    PassphraseEnvNotUtf8,
    #[error("{}: the passphrase file is not valid UTF-8; it must hold the passphrase as text", path.display())]
    PassphraseFileNotUtf8 { path: PathBuf },
    #[error("{}: cannot {action}: {detail}", path.display())]
    Crypto {
        action: &'static str,
        path: PathBuf,
        detail: String,
    },
    #[error("cannot make a key: the operating system's random number generator failed: {0}")]
    Rng(String),
}

/// An ed25519 private key (decrypted, ready to sign).
pub struct SecretKey {
    inner: PrivateKey,
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretKey({})", self.public().fingerprint())
    }
}

impl SecretKey {
    /// A new key from the operating system's random number generator.
    pub fn generate(comment: &str) -> Result<SecretKey, KeyError> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| KeyError::Rng(e.to_string()))?;
        let keypair = Ed25519Keypair::from_seed(&seed);
        seed.fill(0);
        let inner = PrivateKey::new(KeypairData::from(keypair), comment)
            .map_err(|e| KeyError::Rng(format!("building the key failed: {e}")))?;
        Ok(SecretKey { inner })
    }

    /// The two files of the key pair as text: the OpenSSH private key (encrypted when
    /// `passphrase` is given and not empty, as `ssh-keygen -N ''` means "no passphrase") and the
    /// public key line `ssh-ed25519 AAAA... comment` with its newline. `path` is only used in
    /// messages.
    pub fn to_openssh(
        &self,
        passphrase: Option<&str>,
        path: &Path,
    ) -> Result<OpensshPair, KeyError> {
        let crypto = |detail: ssh_key::Error| KeyError::Crypto {
            action: "encode the private key",
            path: path.to_path_buf(),
            detail: detail.to_string(),
        };
        let to_write = match passphrase {
            Some(pw) if !pw.is_empty() => {
                let mut salt = vec![0u8; BCRYPT_SALT_LEN];
                let mut check = [0u8; 4];
                getrandom::fill(&mut salt).map_err(|e| KeyError::Rng(e.to_string()))?;
                getrandom::fill(&mut check).map_err(|e| KeyError::Rng(e.to_string()))?;
                let kdf = Kdf::Bcrypt {
                    salt,
                    rounds: BCRYPT_ROUNDS,
                };
                self.inner
                    .encrypt_with(Cipher::Aes256Ctr, kdf, u32::from_be_bytes(check), pw)
                    .map_err(crypto)?
            }
            _ => self.inner.clone(),
        };
        let private = to_write
            .to_openssh(LineEnding::LF)
            .map_err(crypto)?
            .to_string();
        let mut public = self.inner.public_key().to_openssh().map_err(crypto)?;
        public.push('\n');
        Ok(OpensshPair { private, public })
    }

    /// Parses the contents of an OpenSSH private key file; `path` is only used in messages.
    pub fn from_openssh_bytes(
        bytes: &[u8],
        path: &Path,
        passphrase: Option<&str>,
    ) -> Result<SecretKey, KeyError> {
        let not_private = |detail: String| KeyError::NotPrivateKey {
            path: path.to_path_buf(),
            detail,
        };
        let text = String::from_utf8_lossy(bytes);
        let trimmed = text.trim_start();
        if !trimmed.starts_with("-----BEGIN OPENSSH PRIVATE KEY-----") {
            return Err(not_private(describe_non_openssh(trimmed)));
        }
        // ssh-key insists on LF line endings; a key copied through Windows may have CRLF.
        let text = trimmed.replace("\r\n", "\n");
        let parsed = PrivateKey::from_openssh(text.as_bytes())
            .map_err(|e| not_private(format!("it does not decode: {e}")))?;

        // The public half is stored in clear even in an encrypted key, so check the algorithm
        // before asking for a passphrase.
        let algorithm = parsed.algorithm();
        if algorithm != Algorithm::Ed25519 {
            return Err(KeyError::NotEd25519 {
                origin: path.display().to_string(),
                algorithm: algorithm.as_str().to_string(),
            });
        }

        let inner = if parsed.is_encrypted() {
            let Some(pw) = passphrase else {
                return Err(KeyError::PassphraseNeeded {
                    path: path.to_path_buf(),
                });
            };
            parsed.decrypt(pw).map_err(|e| match e {
                // A wrong passphrase shows as mismatched check integers or bad padding.
                ssh_key::Error::Crypto
                | ssh_key::Error::FormatEncoding
                | ssh_key::Error::Encoding(_)
                | ssh_key::Error::PublicKey => KeyError::WrongPassphrase {
                    path: path.to_path_buf(),
                    empty: pw.is_empty(),
                },
                other => KeyError::Crypto {
                    action: "decrypt the private key",
                    path: path.to_path_buf(),
                    detail: other.to_string(),
                },
            })?
        } else {
            parsed
        };
        if inner.key_data().ed25519().is_none() {
            return Err(KeyError::NotEd25519 {
                origin: path.display().to_string(),
                algorithm: inner.algorithm().as_str().to_string(),
            });
        }
        Ok(SecretKey { inner })
    }

    pub fn public(&self) -> PublicKey {
        PublicKey::from_key_data(self.inner.public_key().key_data().clone())
    }

    /// The comment stored with the key (often `user@host`).
    pub fn comment(&self) -> String {
        self.inner.comment().as_str_lossy().to_string()
    }

    /// The underlying ssh-key private key (decrypted), for signing.
    pub fn ssh_key(&self) -> &PrivateKey {
        &self.inner
    }
}

/// The text of a key pair's two files ([`SecretKey::to_openssh`]).
pub struct OpensshPair {
    /// `-----BEGIN OPENSSH PRIVATE KEY-----` ..., LF line endings.
    pub private: String,
    /// `ssh-ed25519 AAAA... comment` and a newline.
    pub public: String,
}

/// Says what a file that is not an OpenSSH private key looks like instead.
fn describe_non_openssh(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    if first.is_empty() {
        return "the file is empty".to_string();
    }
    if first.starts_with("ssh-") || first.starts_with("ecdsa-") || first.starts_with("sk-") {
        return "this is a public key; give the private key file, the one without .pub".to_string();
    }
    if first.starts_with("-----BEGIN ") {
        let label = first
            .trim_start_matches("-----BEGIN ")
            .trim_end_matches('-')
            .trim();
        return format!(
            "it is a PEM \"{label}\" file; convert an ed25519 key with `ssh-keygen -p -f FILE`, \
             which rewrites it in OpenSSH format"
        );
    }
    "the file does not begin with \"-----BEGIN OPENSSH PRIVATE KEY-----\"".to_string()
}

/// An ed25519 public key. Equality ignores the comment.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PublicKey {
    /// Always ed25519, always with an empty comment.
    inner: ssh_key::PublicKey,
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.openssh())
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.openssh())
    }
}

impl PublicKey {
    fn from_key_data(key_data: ssh_key::public::KeyData) -> PublicKey {
        PublicKey {
            inner: ssh_key::PublicKey::new(key_data, ""),
        }
    }

    /// A public key from the key inside a signature or another ssh-key structure; refuses any
    /// algorithm but ed25519. `origin` names where the key came from, for the message.
    pub fn from_ssh_key_data(
        key_data: &ssh_key::public::KeyData,
        origin: &str,
    ) -> Result<PublicKey, KeyError> {
        if key_data.ed25519().is_none() {
            return Err(KeyError::NotEd25519 {
                origin: origin.to_string(),
                algorithm: key_data.algorithm().as_str().to_string(),
            });
        }
        Ok(PublicKey::from_key_data(key_data.clone()))
    }

    /// Parses `ssh-ed25519 AAAA... [comment]` (comment optional, surrounding whitespace ok).
    pub fn parse(line: &str) -> Result<PublicKey, KeyError> {
        PublicKey::parse_from(line, &describe_text(line))
    }

    /// Parses the contents of a `.pub` file holding one ed25519 public key line; `path` is only
    /// used in messages.
    pub fn from_openssh_bytes(bytes: &[u8], path: &Path) -> Result<PublicKey, KeyError> {
        let origin = path.display().to_string();
        let text = std::str::from_utf8(bytes).map_err(|_| KeyError::BadPublicKey {
            origin: origin.clone(),
            detail: "the file is not text".to_string(),
        })?;
        PublicKey::parse_from(text, &origin)
    }

    fn parse_from(text: &str, origin: &str) -> Result<PublicKey, KeyError> {
        let bad = |detail: String| KeyError::BadPublicKey {
            origin: origin.to_string(),
            detail,
        };
        let line = text.trim();
        if line.is_empty() {
            return Err(bad("it is empty".to_string()));
        }
        if line.lines().count() > 1 {
            return Err(bad("it has more than one line".to_string()));
        }
        if line.starts_with("-----BEGIN") {
            return Err(bad(
                "this looks like a private key; give the .pub file or its line".to_string(),
            ));
        }
        let algorithm = line.split_whitespace().next().unwrap_or("");
        if algorithm != "ssh-ed25519" {
            // Recognise the other OpenSSH algorithms to give the better message.
            if let Ok(alg) = Algorithm::new(algorithm)
                && !matches!(alg, Algorithm::Other(_))
            {
                return Err(KeyError::NotEd25519 {
                    origin: origin.to_string(),
                    algorithm: alg.as_str().to_string(),
                });
            }
            return Err(bad(format!(
                "it begins with \"{}\" instead of \"ssh-ed25519\"",
                truncate(algorithm, 40)
            )));
        }
        let key = ssh_key::PublicKey::from_openssh(line)
            .map_err(|e| bad(format!("the key does not decode: {e}")))?;
        PublicKey::from_ssh_key_data(key.key_data(), origin)
    }

    /// `ssh-ed25519 AAAA...`, without a comment.
    pub fn openssh(&self) -> String {
        // Encoding 32 bytes of ed25519 key into a String cannot fail; fall back to an explicit
        // marker rather than panicking should the library ever disagree.
        self.inner
            .to_openssh()
            .unwrap_or_else(|e| format!("ssh-ed25519 <unencodable key: {e}>"))
    }

    /// `SHA256:...`, as `ssh-keygen -l` prints it.
    pub fn fingerprint(&self) -> String {
        self.inner.fingerprint(HashAlg::Sha256).to_string()
    }

    /// The 32 raw bytes of the ed25519 key.
    pub fn ed25519_bytes(&self) -> [u8; 32] {
        self.inner
            .key_data()
            .ed25519()
            .map(|k| k.0)
            .unwrap_or_default()
    }

    /// The underlying ssh-key public key data.
    pub fn key_data(&self) -> &ssh_key::public::KeyData {
        self.inner.key_data()
    }
}

impl Serialize for PublicKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.openssh())
    }
}

impl<'de> Deserialize<'de> for PublicKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PublicKey::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for PublicKey {
    type Err = KeyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PublicKey::parse(s)
    }
}

fn describe_text(text: &str) -> String {
    format!("public key \"{}\"", truncate(text.trim(), 40))
}

/// At most `max` characters of `s`, with an ellipsis when cut.
fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_counts_characters() {
        assert_eq!(truncate("abcdef", 3), "abc...");
        assert_eq!(truncate("ééé", 5), "ééé");
    }

    #[test]
    fn public_key_round_trips_through_openssh_and_ignores_comment() {
        let key = SecretKey::generate("me@example.org").unwrap().public();
        let line = key.openssh();
        assert!(line.starts_with("ssh-ed25519 AAAA"), "{line}");
        assert!(
            !line.contains(' ') || line.matches(' ').count() == 1,
            "{line}"
        );
        assert_eq!(PublicKey::parse(&line).unwrap(), key);
        let commented = format!("  {line} someone else's comment with spaces \n");
        assert_eq!(PublicKey::parse(&commented).unwrap(), key);
    }

    #[test]
    fn public_key_rejects_other_algorithms_naming_them() {
        let err = PublicKey::parse("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ user").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("ssh-rsa") && msg.contains("only ed25519"),
            "{msg}"
        );
    }

    #[test]
    fn public_key_rejects_garbage_saying_what_is_expected() {
        for text in [
            "",
            "hello",
            "ssh-ed25519",
            "ssh-ed25519 !!!!",
            "ssh-ed25519 AAAA",
        ] {
            let msg = PublicKey::parse(text).unwrap_err().to_string();
            assert!(msg.contains("ssh-ed25519 AAAA..."), "{text:?}: {msg}");
        }
    }

    #[test]
    fn public_key_serde_is_its_openssh_line() {
        let key = SecretKey::generate("").unwrap().public();
        let json = serde_json::to_string(&key).unwrap();
        assert_eq!(json, format!("\"{}\"", key.openssh()));
        let back: PublicKey = serde_json::from_str(&json).unwrap();
        assert_eq!(back, key);
    }

    #[test]
    fn fingerprint_has_ssh_keygen_form() {
        let fp = SecretKey::generate("").unwrap().public().fingerprint();
        assert!(fp.starts_with("SHA256:") && fp.len() == 7 + 43, "{fp}");
    }

    #[test]
    fn private_key_text_parses_back_with_and_without_passphrase() {
        let key = SecretKey::generate("c").unwrap();
        let path = Path::new("k");
        let plain = key.to_openssh(None, path).unwrap();
        let enc = key.to_openssh(Some("pw"), path).unwrap();
        let parse = |text: &str, pw| SecretKey::from_openssh_bytes(text.as_bytes(), path, pw);
        assert_eq!(parse(&plain.private, None).unwrap().public(), key.public());
        assert_eq!(
            parse(&enc.private, Some("pw")).unwrap().public(),
            key.public()
        );
        assert!(matches!(
            parse(&enc.private, None),
            Err(KeyError::PassphraseNeeded { .. })
        ));
        assert!(matches!(
            parse(&enc.private, Some("nope")),
            Err(KeyError::WrongPassphrase { .. })
        ));
        assert_eq!(PublicKey::parse(&enc.public).unwrap(), key.public());
    }

    #[test]
    fn an_empty_passphrase_leaves_the_private_key_unencrypted() {
        let key = SecretKey::generate("c").unwrap();
        let text = key.to_openssh(Some(""), Path::new("k")).unwrap().private;
        let back = SecretKey::from_openssh_bytes(text.as_bytes(), Path::new("k"), None).unwrap();
        assert_eq!(back.public(), key.public());
    }

    #[test]
    fn public_key_file_bytes_parse_and_non_text_is_named() {
        let key = SecretKey::generate("c").unwrap();
        let line = key.to_openssh(None, Path::new("k")).unwrap().public;
        let parsed = PublicKey::from_openssh_bytes(line.as_bytes(), Path::new("k.pub")).unwrap();
        assert_eq!(parsed, key.public());
        let msg = PublicKey::from_openssh_bytes(b"\xff\xfe", Path::new("k.pub"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("k.pub") && msg.contains("not text"), "{msg}");
    }

    #[test]
    fn private_key_with_crlf_line_endings_loads() {
        let key = SecretKey::generate("c").unwrap();
        let p = Path::new("k");
        let crlf = key
            .to_openssh(Some("pw"), p)
            .unwrap()
            .private
            .replace('\n', "\r\n");
        let loaded = SecretKey::from_openssh_bytes(crlf.as_bytes(), p, Some("pw")).unwrap();
        assert_eq!(loaded.public(), key.public());
    }

    #[test]
    fn private_key_parser_explains_wrong_files() {
        let key = SecretKey::generate("c").unwrap();
        let pair = key.to_openssh(None, Path::new("k")).unwrap();
        let parse = |bytes: &[u8], name: &str| {
            SecretKey::from_openssh_bytes(bytes, Path::new(name), None)
                .unwrap_err()
                .to_string()
        };
        let err = parse(pair.public.as_bytes(), "k.pub");
        assert!(err.contains("public key") && err.contains("k.pub"), "{err}");
        let err = parse(b"\x00\xff garbage", "junk");
        assert!(err.contains("BEGIN OPENSSH PRIVATE KEY"), "{err}");
        let text = &pair.private;
        let err = parse(&text.as_bytes()[..text.len() / 2], "truncated");
        assert!(
            err.contains("truncated") && err.contains("not an OpenSSH"),
            "{err}"
        );
    }
}
