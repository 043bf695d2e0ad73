//! Key files on disk, and where a key's passphrase comes from: the file and environment side of
//! [`crate::protocol::keys`], which only turns bytes into keys and keys into text.
//!
//! `SecretKey::load`, `SecretKey::write` and `PublicKey::read` are defined here (an `impl` of
//! the protocol's types is allowed anywhere in the crate), so the protocol does no file access
//! while every caller keeps the one obvious name.

use super::Error;
use crate::protocol::keys::{KeyError, PASSPHRASE_ENV, PublicKey, SecretKey};
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
#[cfg(unix)]
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

impl SecretKey {
    /// Reads an OpenSSH private key file, decrypting it with `passphrase` when it is encrypted.
    pub fn load(path: &Path, passphrase: Option<&str>) -> Result<SecretKey, KeyError> {
        let bytes = fs::read(path).map_err(|source| KeyError::Io {
            action: "read private key",
            path: path.to_path_buf(),
            source,
        })?;
        SecretKey::from_openssh_bytes(&bytes, path, passphrase)
    }

    /// Writes `path` (the OpenSSH private key, mode 0600, encrypted when `passphrase` is given
    /// and not empty, as `ssh-keygen -N ''` means "no passphrase") and `path.pub` (one line
    /// `ssh-ed25519 AAAA... comment`). Refuses to overwrite either file.
    pub fn write(&self, path: &Path, passphrase: Option<&str>) -> Result<(), KeyError> {
        let pub_path = pub_path(path);
        for p in [path, pub_path.as_path()] {
            if fs::symlink_metadata(p).is_ok() {
                return Err(KeyError::Exists {
                    path: p.to_path_buf(),
                });
            }
        }
        let pair = self.to_openssh(passphrase, path)?;
        write_new(path, pair.private.as_bytes(), 0o600)?;
        if let Err(e) = write_new(&pub_path, pair.public.as_bytes(), 0o644) {
            // Do not leave half a key pair behind.
            let _ = fs::remove_file(path);
            return Err(e);
        }
        Ok(())
    }
}

impl PublicKey {
    /// Reads a `.pub` file holding one ed25519 public key line.
    pub fn read(path: &Path) -> Result<PublicKey, KeyError> {
        let bytes = fs::read(path).map_err(|source| KeyError::Io {
            action: "read public key",
            path: path.to_path_buf(),
            source,
        })?;
        PublicKey::from_openssh_bytes(&bytes, path)
    }
}

/// `pbem keygen`: a new key pair written to `path` and `path.pub`. A folder it must create for
/// them is readable by its owner only (like ~/.ssh).
pub fn make_key_pair(
    path: &Path,
    comment: &str,
    passphrase: Option<&str>,
) -> Result<PublicKey, Error> {
    let key = SecretKey::generate(comment)?;
    if let Some(parent) = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty() && !p.exists())
    {
        create_private_dir(parent)?;
    }
    key.write(path, passphrase)?;
    Ok(key.public())
}

fn create_private_dir(dir: &Path) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::io(dir, e))?;
    }
    Ok(())
}

/// `PATH.pub`: the public key file that belongs to private key `PATH`.
pub fn pub_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".pub");
    PathBuf::from(s)
}

/// Creates `path`, which must not exist, with `mode`, writes `bytes` and syncs.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> Result<(), KeyError> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(mode);
    #[cfg(not(unix))]
    let _ = mode;
    let mut file: File = options.open(path).map_err(|source| {
        if source.kind() == io::ErrorKind::AlreadyExists {
            KeyError::Exists {
                path: path.to_path_buf(),
            }
        } else {
            KeyError::Io {
                action: "create",
                path: path.to_path_buf(),
                source,
            }
        }
    })?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|source| KeyError::Io {
            action: "write",
            path: path.to_path_buf(),
            source,
        })
}

/// The passphrase for an encrypted key: the contents of `file` when given (`--passphrase-file`),
/// else the environment variable `PBEM_PASSPHRASE` when set and not empty, else `None`. One
/// trailing newline (`\n` or `\r\n`) is stripped, as `echo pw > file` adds one.
pub fn passphrase_from_env_or_file(file: Option<&Path>) -> Result<Option<String>, KeyError> {
    passphrase_from(file, std::env::var_os(PASSPHRASE_ENV))
}

fn passphrase_from(file: Option<&Path>, env: Option<OsString>) -> Result<Option<String>, KeyError> {
    if let Some(path) = file {
        let bytes = fs::read(path).map_err(|source| KeyError::Io {
            action: "read passphrase file",
            path: path.to_path_buf(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|_| KeyError::PassphraseFileNotUtf8 {
            path: path.to_path_buf(),
        })?;
        return Ok(Some(strip_one_newline(text)));
    }
    match env {
        None => Ok(None),
        Some(v) if v.is_empty() => Ok(None),
        Some(v) => {
            let text = v
                .into_string()
                .map_err(|_| KeyError::PassphraseEnvNotUtf8)?;
            Ok(Some(strip_one_newline(text)))
        }
    }
}

fn strip_one_newline(mut s: String) -> String {
    if s.ends_with("\r\n") {
        s.truncate(s.len() - 2);
    } else if s.ends_with('\n') {
        s.truncate(s.len() - 1);
    }
    s
}

/// Every key problem stops the command with the key's own message.
impl From<KeyError> for Error {
    fn from(e: KeyError) -> Error {
        Error::Fail(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_trailing_newline_is_stripped() {
        assert_eq!(strip_one_newline("pw\n".into()), "pw");
        assert_eq!(strip_one_newline("pw\r\n".into()), "pw");
        assert_eq!(strip_one_newline("pw\n\n".into()), "pw\n");
        assert_eq!(strip_one_newline("pw".into()), "pw");
    }

    #[test]
    fn passphrase_file_wins_over_environment() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("pw");
        fs::write(&f, "from-file\n").unwrap();
        let got = passphrase_from(Some(&f), Some("from-env".into())).unwrap();
        assert_eq!(got.as_deref(), Some("from-file"));
    }

    #[test]
    fn passphrase_comes_from_environment_without_file() {
        assert_eq!(
            passphrase_from(None, Some("from-env".into())).unwrap(),
            Some("from-env".to_string())
        );
        assert_eq!(passphrase_from(None, Some("".into())).unwrap(), None);
        assert_eq!(passphrase_from(None, None).unwrap(), None);
    }

    #[test]
    fn missing_passphrase_file_is_named() {
        let err = passphrase_from(Some(Path::new("/nonexistent/pw")), None).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/pw"), "{err}");
    }

    #[test]
    fn pub_path_appends_suffix() {
        assert_eq!(pub_path(Path::new("a/id")), PathBuf::from("a/id.pub"));
    }

    #[test]
    fn written_key_loads_back_with_and_without_passphrase() {
        let dir = tempfile::tempdir().unwrap();
        let key = SecretKey::generate("c").unwrap();
        let plain = dir.path().join("plain");
        let enc = dir.path().join("enc");
        key.write(&plain, None).unwrap();
        key.write(&enc, Some("pw")).unwrap();
        assert_eq!(
            SecretKey::load(&plain, None).unwrap().public(),
            key.public()
        );
        assert_eq!(
            SecretKey::load(&enc, Some("pw")).unwrap().public(),
            key.public()
        );
        assert!(matches!(
            SecretKey::load(&enc, None),
            Err(KeyError::PassphraseNeeded { .. })
        ));
        assert_eq!(PublicKey::read(&pub_path(&enc)).unwrap(), key.public());
    }

    #[test]
    fn a_missing_key_file_is_named_with_what_was_read() {
        let err = SecretKey::load(Path::new("/nonexistent/id"), None).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot read private key /nonexistent/id: "),
            "{err}"
        );
        let err = PublicKey::read(Path::new("/nonexistent/id.pub")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot read public key /nonexistent/id.pub: "),
            "{err}"
        );
    }

    #[test]
    fn make_key_pair_creates_a_private_folder_for_the_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys/id");
        let public = make_key_pair(&path, "me", None).unwrap();
        assert_eq!(PublicKey::read(&pub_path(&path)).unwrap(), public);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join("keys"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
        }
    }
}
