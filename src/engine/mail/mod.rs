//! Play by email (docs/mail.md): orders arrive by mail, views, reports, receipts and reminders
//! leave by mail. Every part has one job:
//!
//! - [`address`]: addresses and header text from game data or players, made safe for headers;
//! - [`compose`]: a deterministic RFC 5322 message from a draft (Message-ID, Date, boundary);
//! - [`outbox`]: the queue in `outbox/`, with stable names so nothing is queued twice;
//! - [`clock`]: when each step opened (host/clock/), its deadline and reminder time;
//! - [`turn`]: the mails after a journal record (views, reports);
//! - [`remind`]: reminders for missing orders;
//! - [`send`]: delivery of the outbox by SMTP, a sendmail program or into a directory;
//! - [`parse`], [`classify`], [`extract`], [`authenticate`], [`replies`], [`throttle`],
//!   [`ingest`], [`maildir`]: incoming mail.
//!
//! Host-only records of mail live in `mail/` beside `host/` (never published, not archived by
//! `pbem conclude`: incoming mail carries players' addresses and routing headers).

pub mod address;
pub mod authenticate;
pub mod classify;
pub mod clock;
pub mod compose;
pub mod extract;
pub mod ingest;
pub mod maildir;
pub mod outbox;
pub mod parse;
pub mod remind;
pub mod replies;
pub mod send;
pub mod throttle;
pub mod turn;

use super::Error;
use super::config::GameConfig;
use super::dir::{self, GameDir};
use crate::yaml;
use std::path::{Path, PathBuf};

/// Messages above this size are refused without being read whole (`pbem ingest --max-size`).
pub const DEFAULT_MAX_MESSAGE_BYTES: u64 = 10 * 1024 * 1024;

/// `mail/` of a game: host-only records of incoming and delivered mail.
pub fn mail_dir(game: &GameDir) -> PathBuf {
    game.root.join("mail")
}

/// Incoming messages and what was done with each.
pub fn received_dir(game: &GameDir) -> PathBuf {
    mail_dir(game).join("in")
}

/// Copies of delivered messages: the ledger that keeps a message from being queued twice.
pub fn sent_dir(game: &GameDir) -> PathBuf {
    mail_dir(game).join("sent")
}

/// The games a command applies to: `root` itself when it holds game.yaml, otherwise every
/// direct subdirectory that does, sorted by name.
pub fn games_under(root: &Path) -> Result<Vec<PathBuf>, Error> {
    if root.join("game.yaml").exists() {
        return Ok(vec![root.to_path_buf()]);
    }
    let entries = std::fs::read_dir(root).map_err(|e| Error::io(root, e))?;
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("game.yaml").is_file())
        .collect();
    out.sort();
    if out.is_empty() {
        return Err(Error::Fail(format!(
            "{}: neither a game directory (no game.yaml) nor a directory of games",
            root.display()
        )));
    }
    Ok(out)
}

/// Reads game.yaml alone (cheaper than opening the whole game), for finding a game by id.
pub fn read_config(game_root: &Path) -> Result<GameConfig, Error> {
    let path = game_root.join("game.yaml");
    let text = dir::read_text(&path)?;
    yaml::parse(&text, &path.display().to_string()).map_err(|r| Error::Fail(r.to_string()))
}

/// The subject tag every mail of a game carries and `ingest` looks for: `[pbem GAME-ID]`.
pub fn subject_tag(game_id: &str) -> String {
    format!("[pbem {}]", address::header_text(game_id, 64))
}
