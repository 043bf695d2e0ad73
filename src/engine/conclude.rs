//! `pbem conclude`: once a game is over, publish the sealed archive.
//!
//! The host's secrets (master seed, game key), every state, sealed transcript, private event
//! list, order file and receipt are copied into `archive/` (never the host's signing key), a
//! manifest lists each file with its SHA-256, and a last journal record reveals the secrets and
//! pins the manifest's hash. From then on anyone can run `pbem verify --full` and replay the
//! whole game, sealed draws included.

use super::dir;
use super::game::Game;
use super::{Error, views};
use crate::protocol::hash::{Hash32, sha256};
use crate::protocol::journal::{self, Conclusion, JOURNAL_FORMAT, Record};
use crate::yaml;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Host files not archived: the signing key (it would let anyone forge receipts), the lock, and
/// the host's caches of parsed files (engine::cache: derived, rebuilt at will; development
/// builds of 0.3.0 kept the journal's in `journal-cache.json`).
const PRIVATE: [&str; 4] = ["host_key", "host_key.pub", "lock", "journal-cache.json"];

/// `archive/manifest.yaml`: every archived file with its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub game: String,
    pub files: BTreeMap<String, Hash32>,
}

pub const MANIFEST: &str = "manifest.yaml";

pub struct Concluded {
    pub seq: u64,
    pub head: Hash32,
    pub files: usize,
    pub already: bool,
}

pub fn conclude(root: &Path) -> Result<Concluded, Error> {
    let game = Game::open(root)?;
    let _lock = game.dir.lock()?;
    let game = Game::open(root)?;
    if game.last().conclusion.is_some() {
        return Ok(Concluded {
            seq: game.last_seq(),
            head: game.head(),
            files: 0,
            already: true,
        });
    }
    if let Some(step) = game.open_step() {
        return Err(Error::Fail(format!(
            "the game is not over (step {} waits for {}); concluding would publish every secret of a running game",
            step.step,
            step.waiting_for.join(", ")
        )));
    }
    super::ops::recover(&game)?; // the derived files before the last record (hostop.rs)
    let secrets = game.secrets()?;
    let seq = game.last_seq() + 1;
    // The concluded game's state is the final one; every record has a state of its own.
    dir::write_private(&game.dir.state(seq), game.state()?.as_bytes())?;

    let archive = game.dir.archive();
    let mut manifest = Manifest {
        game: game.config.id.clone(),
        files: BTreeMap::new(),
    };
    for file in host_files(&game.dir.host())? {
        let rel = file
            .strip_prefix(game.dir.host())
            .unwrap_or(&file)
            .to_path_buf();
        let name = rel.to_string_lossy().replace('\\', "/");
        if PRIVATE.contains(&name.as_str())
            || name.starts_with(&format!("{}/", super::cache::FOLDER))
        {
            continue;
        }
        let bytes = dir::read(&file)?;
        dir::write_atomic(&archive.join(&rel), &bytes)?;
        manifest.files.insert(name, sha256(&bytes));
    }
    let manifest_text = yaml::encode(&manifest)?;
    dir::write_atomic(&archive.join(MANIFEST), manifest_text.as_bytes())?;

    let mut record = Record {
        pbem: JOURNAL_FORMAT.into(),
        game: game.config.id.clone(),
        seq,
        prev: Some(game.head()),
        genesis: None,
        step: None,
        conclusion: Some(Conclusion {
            master: secrets.master,
            game_key: secrets.game_key,
            archive: sha256(manifest_text.as_bytes()),
        }),
        host_op: None,
        public_state: game.last().public_state,
        next: None,
    };
    record.pbem = game.journal_format(&record).into();
    let bytes = yaml::encode(&record)?;
    dir::write_atomic(&game.dir.record(seq), bytes.as_bytes())?;
    let game = Game::open(root)?;
    views::write_report(&game, seq)?;
    views::refresh(&game)?;
    Ok(Concluded {
        seq,
        head: journal::record_hash(bytes.as_bytes()),
        files: manifest.files.len(),
        already: false,
    })
}

/// Every regular file under `dir`, sorted, so the manifest is deterministic.
fn host_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(&d, e))?;
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}
