//! At most one fixed answer per address per game per UTC day. From and Reply-To can be forged,
//! so without a limit anyone could make the host mail a player as often as they mail the host.
//! The record is `mail/fixed-answers/YYYY-MM-DD/HASH`, HASH a digest of the lower-cased
//! address, holding the outbox key of the answer; it is created with `create_new`, so two
//! ingests running at once cannot both claim the day.

use super::super::Error;
use super::super::dir::GameDir;
use super::mail_dir;
use crate::protocol::hash::sha256;
use jiff::Timestamp;
use lettre::Address;
use std::io::Write;
use std::path::PathBuf;

fn record(game: &GameDir, to: &Address, now: Timestamp) -> PathBuf {
    let who = &sha256(to.to_string().to_ascii_lowercase().as_bytes()).hex()[..20];
    mail_dir(game)
        .join("fixed-answers")
        .join(now.strftime("%Y-%m-%d").to_string())
        .join(who)
}

/// Claims today's fixed answer to `to` for the answer `key`. True when it may be queued: the
/// first claim of the day, or the same answer again (a message handled a second time after a
/// crash between the claim and its verdict, whose answer is queued at most once anyway).
pub fn claim(game: &GameDir, to: &Address, now: Timestamp, key: &str) -> Result<bool, Error> {
    let path = record(game, to, now);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
    {
        Ok(mut f) => {
            f.write_all(key.as_bytes())
                .and_then(|_| f.sync_all())
                .map_err(|e| Error::io(&path, e))?;
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let earlier = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
            Ok(earlier == key.as_bytes())
        }
        Err(e) => Err(Error::io(&path, e)),
    }
}
