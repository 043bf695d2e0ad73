//! The outbox: `outbox/KEY.eml` is a composed message waiting for delivery. A message is queued
//! at most once: its key is stable, and queueing is skipped when `outbox/KEY.eml` or
//! `mail/sent/KEY.eml` exists. After the server accepted it, the message is copied to
//! `mail/sent/` and only then removed from the outbox; a failed delivery leaves it in place
//! with the error in `outbox/KEY.error`.
//!
//! Every queued message passes [`queue`], and there a message to an address that game.yaml
//! does not name (no seat's, no observer's) may be at most [`MAX_TO_UNREGISTERED`] bytes. The
//! answers of `ingest` are built to stay far below that or to go to registered addresses only;
//! this check is what keeps any path, present or future, from making the host a relay of a
//! sender's text to a third party.

use super::super::Error;
use super::super::config::GameConfig;
use super::super::dir::{self, GameDir};
use super::address;
use super::compose::{Draft, compose};
use super::sent_dir;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What [`queue`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Queued {
    /// Written to this file.
    New(PathBuf),
    /// The same message is already in the outbox or was delivered.
    Already(PathBuf),
}

impl Queued {
    pub fn path(&self) -> &PathBuf {
        match self {
            Queued::New(p) | Queued::Already(p) => p,
        }
    }
}

/// The most a message to an address that is neither a seat's nor an observer's may weigh,
/// headers included (docs/mail.md).
pub const MAX_TO_UNREGISTERED: usize = 4 * 1024;

/// Whether game.yaml names `to` as a seat's or an observer's address.
pub fn registered(config: &GameConfig, to: &lettre::Address) -> bool {
    config
        .seats
        .iter()
        .map(|s| s.email.as_str())
        .chain(config.mail.observers.iter().map(String::as_str))
        .filter(|a| !a.is_empty())
        .filter_map(|a| address::mailbox(a, "game.yaml").ok())
        .any(|m| address::same(&m.email, to))
}

/// Queues `draft` unless a message with its key is already queued or delivered. Refuses a
/// message above [`MAX_TO_UNREGISTERED`] bytes to any address game.yaml does not name.
pub fn queue(game: &GameDir, config: &GameConfig, draft: &Draft) -> Result<Queued, Error> {
    let name = format!("{}.eml", draft.key);
    let path = game.outbox().join(&name);
    if path.exists() {
        return Ok(Queued::Already(path));
    }
    let sent = sent_dir(game).join(&name);
    if sent.exists() {
        return Ok(Queued::Already(sent));
    }
    let bytes = compose(draft).map_err(Error::Fail)?;
    if bytes.len() > MAX_TO_UNREGISTERED
        && let Some(stranger) = draft.to.iter().find(|m| !registered(config, &m.email))
    {
        return Err(Error::Fail(format!(
            "not queued: message {} is {} bytes, and {} is no seat's or observer's address in \
             game.yaml; at most {MAX_TO_UNREGISTERED} bytes go to such an address",
            draft.key,
            bytes.len(),
            stranger.email
        )));
    }
    dir::write_atomic(&path, &bytes)?;
    Ok(Queued::New(path))
}

/// A message waiting in the outbox.
#[derive(Debug, Clone)]
pub struct Pending {
    pub key: String,
    pub path: PathBuf,
}

/// Every message waiting in the outbox of `game`, by name.
pub fn pending(game: &GameDir) -> Result<Vec<Pending>, Error> {
    let outbox = game.outbox();
    let Ok(entries) = std::fs::read_dir(&outbox) else {
        return Ok(Vec::new());
    };
    let mut out: Vec<Pending> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let key = name.strip_suffix(".eml")?.to_string();
            (!key.starts_with('.')).then(|| Pending {
                key,
                path: e.path(),
            })
        })
        .collect();
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}

/// The delivery record of a message that failed, kept beside it for the next run.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    pub attempts: u64,
    pub error: String,
}

fn failure_path(game: &GameDir, key: &str) -> PathBuf {
    game.outbox().join(format!("{key}.error"))
}

/// The server accepted the message: keep a copy in `mail/sent/`, then leave the outbox.
pub fn mark_sent(game: &GameDir, p: &Pending, bytes: &[u8]) -> Result<(), Error> {
    dir::write_atomic(&sent_dir(game).join(format!("{}.eml", p.key)), bytes)?;
    std::fs::remove_file(&p.path).map_err(|e| Error::io(&p.path, e))?;
    let f = failure_path(game, &p.key);
    if f.exists() {
        std::fs::remove_file(&f).map_err(|e| Error::io(&f, e))?;
    }
    Ok(())
}

/// Delivery failed: count the attempt and record the error; the message stays queued.
pub fn mark_failed(game: &GameDir, p: &Pending, error: &str) -> Result<Failure, Error> {
    let path = failure_path(game, &p.key);
    let mut f: Failure = if path.exists() {
        crate::yaml::parse(&dir::read_text(&path)?, &path.display().to_string()).unwrap_or_default()
    } else {
        Failure::default()
    };
    f.attempts += 1;
    f.error = error.to_string();
    dir::write_atomic(&path, crate::yaml::encode(&f)?.as_bytes())?;
    Ok(f)
}
