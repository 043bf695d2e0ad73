//! An open game: its configuration, its system, its journal and the host's files.

use super::Error;
use super::config::GameConfig;
use super::dir::{self, GameDir};
use crate::protocol::hash::Hash32;
use crate::protocol::journal::{self, NextStep, Record};
use crate::systems::{self, System};
use crate::yaml;
use serde::{Deserialize, Serialize};

/// The host's secrets (host/secrets.yaml): never published before the game is concluded.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    /// Seeds every step's host reveal (protocol::journal::host_seed).
    pub master: Hash32,
    /// Keys the sealed dice streams; committed in the genesis record.
    pub game_key: Hash32,
}

pub struct Game {
    pub dir: GameDir,
    pub config: GameConfig,
    pub system: Box<dyn System>,
    /// Every record with the hash of its file, in order.
    pub records: Vec<(Record, Hash32)>,
}

impl Game {
    pub fn open(root: &std::path::Path) -> Result<Game, Error> {
        let dir = GameDir::new(root);
        let config_path = dir.config();
        if !config_path.exists() {
            return Err(Error::Fail(format!(
                "{}: no game here (game.yaml is missing); create one with `pbem new`",
                root.display()
            )));
        }
        let text = dir::read_text(&config_path)?;
        let config: GameConfig = yaml::parse(&text, &config_path.display().to_string())
            .map_err(|r| Error::Fail(r.to_string()))?;
        let system = systems::by_id(&config.system)?;
        let records = read_journal(&dir, &config.id)?;
        // The journal is the authority on keys: a key replacement or hand-over counts from its
        // record, even before game.yaml is rewritten after it (engine::ops).
        let config = super::ops::config_with_journal_seats(config, &records)?;
        Ok(Game {
            dir,
            config,
            system,
            records,
        })
    }

    /// Opens a game whose journal may be damaged: the auditor reads the records itself.
    pub fn open_for_audit(root: &std::path::Path) -> Result<Game, Error> {
        let dir = GameDir::new(root);
        let config_path = dir.config();
        let text = dir::read_text(&config_path)?;
        let config: GameConfig = yaml::parse(&text, &config_path.display().to_string())
            .map_err(|r| Error::Fail(r.to_string()))?;
        let system = systems::by_id(&config.system)?;
        let records = read_journal(&dir, &config.id).unwrap_or_default();
        Ok(Game {
            dir,
            config,
            system,
            records,
        })
    }

    pub fn last(&self) -> &Record {
        &self
            .records
            .last()
            .expect("open() refuses an empty journal")
            .0
    }

    pub fn last_seq(&self) -> u64 {
        self.last().seq
    }

    /// Hash of the newest record: the basis every order for the open step must carry.
    pub fn head(&self) -> Hash32 {
        self.records
            .last()
            .expect("open() refuses an empty journal")
            .1
    }

    /// The journal heads an order for the open step may name as its basis (see [`step_bases`]).
    pub fn open_step_bases(&self) -> Vec<Hash32> {
        step_bases(&self.records, self.records.len().saturating_sub(1))
    }

    /// The step now open, or None when the game is over.
    pub fn open_step(&self) -> Option<&NextStep> {
        self.records.last().and_then(|(r, _)| r.next.as_ref())
    }

    /// The host's full state after the newest record.
    pub fn state(&self) -> Result<String, Error> {
        dir::read_text(&self.dir.state(self.last_seq()))
    }

    pub fn secrets(&self) -> Result<Secrets, Error> {
        let path = self.dir.secrets();
        let text = dir::read_text(&path)?;
        yaml::parse(&text, &path.display().to_string()).map_err(|r| Error::Fail(r.to_string()))
    }

    pub fn is_host(&self) -> bool {
        self.dir.secrets().exists()
    }
}

/// The journal heads an order for the step open after record `upto` may name as its basis: the
/// record that opened the step and every later one that left it open (a pause, an extension, a
/// key replacement). Those records change no part of the game an order could depend on, so an
/// order written before them stays valid; a record that opens a new step (a processed step, a
/// rollback) starts a new range.
pub fn step_bases(records: &[(Record, Hash32)], upto: usize) -> Vec<Hash32> {
    let open = |i: usize| {
        records
            .get(i)
            .and_then(|(r, _)| r.next.as_ref())
            .map(|n| n.step)
    };
    let Some(step) = open(upto) else {
        return Vec::new();
    };
    let mut first = upto;
    while first > 0 && open(first - 1) == Some(step) {
        first -= 1;
    }
    records[first..=upto].iter().map(|(_, h)| *h).collect()
}

/// Reads journal/000000.yaml, 000001.yaml, … until the first missing number.
pub fn read_journal(dir: &GameDir, game_id: &str) -> Result<Vec<(Record, Hash32)>, Error> {
    let mut records = Vec::new();
    for seq in 0.. {
        let path = dir.record(seq);
        if !path.exists() {
            break;
        }
        let bytes = dir::read(&path)?;
        let text = String::from_utf8(bytes.clone())
            .map_err(|_| Error::Fail(format!("{}: not UTF-8 text", path.display())))?;
        let record: Record = yaml::parse(&text, &path.display().to_string())
            .map_err(|r| Error::Fail(r.to_string()))?;
        if record.seq != seq || record.game != game_id {
            return Err(Error::Fail(format!(
                "{}: record claims seq {} of game {:?}; expected seq {seq} of {game_id:?}",
                path.display(),
                record.seq,
                record.game
            )));
        }
        records.push((record, journal::record_hash(&bytes)));
    }
    if records.is_empty() {
        return Err(Error::Fail(format!(
            "{}: the journal has no genesis record",
            dir.journal().display()
        )));
    }
    Ok(records)
}
