//! When each step opened, recorded host-side (`host/clock/NNNNNN.yaml`, UTC) the first time
//! pbem sees the step open: at `new`, after `process`, or by any mail command that finds it
//! missing. The deadline and the reminder time follow from game.yaml's `deadline:`. This is the
//! minimum the next deadline work (per-step deadlines, time zones, grace, pause) builds on.

use super::super::Error;
use super::super::config::GameConfig;
use super::super::dir::{self, GameDir};
use crate::yaml;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opened {
    pub step: u64,
    /// RFC 3339, UTC.
    pub opened: Timestamp,
}

fn path(game: &GameDir, step: u64) -> PathBuf {
    game.host().join("clock").join(format!("{step:06}.yaml"))
}

/// The recorded opening time of `step`, if any.
pub fn opened(game: &GameDir, step: u64) -> Result<Option<Timestamp>, Error> {
    let p = path(game, step);
    if !p.exists() {
        return Ok(None);
    }
    let o: Opened = yaml::parse(&dir::read_text(&p)?, &p.display().to_string())
        .map_err(|r| Error::Fail(r.to_string()))?;
    Ok(Some(o.opened))
}

/// Records that `step` opened at `now`, unless a time is already recorded; returns the
/// recorded time.
pub fn record_opened(game: &GameDir, step: u64, now: Timestamp) -> Result<Timestamp, Error> {
    if let Some(t) = opened(game, step)? {
        return Ok(t);
    }
    let o = Opened { step, opened: now };
    dir::write_atomic(&path(game, step), yaml::encode(&o)?.as_bytes())?;
    Ok(now)
}

/// The deadline game.yaml gives a step that opened at `opened` (before any pause or
/// extension: `engine::schedule` applies those).
pub fn deadline(config: &GameConfig, opened: Timestamp) -> Option<Timestamp> {
    config.deadline.as_ref()?.deadline(opened)
}

/// When the reminder for a step that opened at `opened` is due.
pub fn reminder_due(config: &GameConfig, opened: Timestamp) -> Option<Timestamp> {
    let lead = config.deadline.as_ref()?.remind_before?;
    deadline(config, opened)?.checked_sub(lead.0).ok()
}

/// `--now`: an RFC 3339 time (any offset; stored as UTC), or the system clock.
pub fn now_or(arg: Option<&str>) -> Result<Timestamp, Error> {
    match arg {
        None => Ok(Timestamp::now()),
        Some(s) => s.parse().map_err(|e| {
            Error::Fail(format!(
                "--now {s:?}: not an RFC 3339 time such as 2026-05-01T12:00:00Z ({e})"
            ))
        }),
    }
}
