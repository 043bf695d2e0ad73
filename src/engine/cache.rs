//! The host's caches of parsed files, in `host/cache/`: what a command would otherwise parse
//! from YAML on every run. Each is derived from a file of the game and keyed by the SHA-256 of
//! that file's bytes, so a cache that is stale, damaged or from another game is simply not used
//! (and rewritten). Only the host's own commands read them, for the host's own files; `verify`
//! never does, and `conclude` does not archive them.
//!
//! - `journal-summary.json`: the journal summary ([`super::summary`]), keyed by the hash of
//!   the head record's file: what opening a game reads instead of every record;
//! - `journal.jsonl`: the parsed journal, a line per record, appended to ([`super::game`]);
//!   read only by what needs every record (`Game::records_all`);
//! - `data.json`: the parsed data.yaml, as JSON;
//! - `state.json`: the newest state, parsed, as JSON.
//!
//! A twin file is one line `pbem-cache/1 SHA256-HEX` of the source's bytes, then the JSON.

use super::Error;
use super::dir::{self, GameDir};
use crate::protocol::hash::{Hash32, sha256};
use std::path::PathBuf;

const MARKER: &str = "pbem-cache/1";

/// The folder `conclude` leaves out of the archive.
pub const FOLDER: &str = "cache";

pub fn path(dir: &GameDir, name: &str) -> PathBuf {
    dir.host().join(FOLDER).join(name)
}

/// The JSON of twin `name` if it was made from bytes hashing to `source`.
pub fn read_twin(dir: &GameDir, name: &str, source: &Hash32) -> Option<String> {
    let keyed = read_keyed(dir, name)?;
    (keyed.key == *source).then(|| keyed.json().to_string())
}

/// A twin as read: the hash it is keyed by, and its JSON.
pub struct Keyed {
    pub key: Hash32,
    text: String,
    json_at: usize,
}

impl Keyed {
    pub fn json(&self) -> &str {
        &self.text[self.json_at..]
    }
}

/// Twin `name` and the hash it is keyed by, for a cache whose source is known only once it is
/// read (the journal summary names its head record): the caller must check that key against
/// the source before using anything of the JSON.
pub fn read_keyed(dir: &GameDir, name: &str) -> Option<Keyed> {
    let text = std::fs::read_to_string(path(dir, name)).ok()?;
    let newline = text.find('\n')?;
    let hex = text[..newline].strip_prefix(MARKER)?.strip_prefix(' ')?;
    let key = hex.parse::<Hash32>().ok()?;
    Some(Keyed {
        key,
        text,
        json_at: newline + 1,
    })
}

/// Writes twin `name` of the bytes hashing to `source`. A cache: written whole (a reader sees
/// the old or the new file) but never flushed; after a crash it is current or found stale.
/// Only where the host's folder exists (a player's copy of a game has none).
pub fn write_twin(dir: &GameDir, name: &str, source: &Hash32, json: &str) -> Result<(), Error> {
    if !dir.host().is_dir() {
        return Ok(());
    }
    let file = path(dir, name);
    let folder = file.parent().expect("a cache file has a folder");
    std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    dir::write_unflushed(
        &file,
        format!("{MARKER} {}\n{json}", source.hex()).as_bytes(),
    )
}

/// Keys a twin by its source text.
pub fn key(text: &str) -> Hash32 {
    sha256(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> (tempfile::TempDir, GameDir) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("host")).unwrap();
        let dir = GameDir::new(tmp.path());
        (tmp, dir)
    }

    #[test]
    fn a_twin_is_read_back_for_the_source_it_was_made_from() {
        let (_tmp, dir) = game();
        write_twin(&dir, "x.json", &key("a: 1\n"), "{\"a\":1}").unwrap();
        assert_eq!(
            read_twin(&dir, "x.json", &key("a: 1\n")).as_deref(),
            Some("{\"a\":1}")
        );
    }

    #[test]
    fn a_twin_of_other_bytes_is_not_used() {
        let (_tmp, dir) = game();
        write_twin(&dir, "x.json", &key("a: 1\n"), "{\"a\":1}").unwrap();
        assert_eq!(read_twin(&dir, "x.json", &key("a: 2\n")), None);
    }

    #[test]
    fn a_damaged_twin_is_not_used() {
        let (_tmp, dir) = game();
        std::fs::create_dir_all(path(&dir, "")).unwrap();
        for text in [
            "",
            "{\"a\":1}",
            "pbem-cache/1 zz\n{}",
            "pbem-cache/2 00\n{}",
        ] {
            std::fs::write(path(&dir, "x.json"), text).unwrap();
            assert_eq!(read_twin(&dir, "x.json", &key("a: 1\n")), None, "{text:?}");
        }
    }

    #[test]
    fn no_twin_is_written_without_the_host_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = GameDir::new(tmp.path());
        write_twin(&dir, "x.json", &key("a"), "{}").unwrap();
        assert!(!path(&dir, "x.json").exists());
    }
}
