//! Host operations between steps (`pbem host …`) and crash recovery of derived files.
//!
//! Every operation takes the game's lock, appends one journal record through
//! [`super::hostop::append`] (nothing the host does is silent) and only then changes
//! `game.yaml`: the record is the commit point, and [`recover`] (run by `process` and by every
//! operation) finishes a `game.yaml` that a crash left behind the journal.
//!
//! - `replace-key`: a side's public key is replaced (a lost key). Orders signed before keep
//!   verifying with the old key: `verify` derives each side's key at each record from the
//!   genesis seats and the later `replace_key`/`hand_over` records.
//! - `hand-over`: the side goes to a new player (key, and optionally name and email).
//! - `rollback`: the game returns to the state after an earlier record. The re-opened step gets
//!   a step number above every number the journal ever opened, with a fresh host commitment, so
//!   no order signed for an abandoned step can ever be used; later records stay published.
//!
//! The operations here withdraw the orders waiting in `inbox/` (they move to `host/withdrawn/`):
//! after a key change an order signed with the old key must not count, and after a rollback the
//! step they were written for is gone. Their players send them again against the new head,
//! which every view prints; `verify` accepts the receipt of such an order because a
//! host-operation record directly follows its basis. (Pause, resume and extend, in
//! `schedule.rs`, withdraw nothing: they leave the step open and its orders valid, see
//! `game::step_bases`.)

use super::config::Seat;
use super::dir;
use super::game::Game;
use super::hostop;
use super::{Error, views};
use crate::protocol::hash::{Hash32, commitment};
use crate::protocol::journal::{self, HostOp, NextStep, Record};
use crate::protocol::keys::PublicKey;
use crate::systems::Phase;
use crate::yaml;
use std::collections::BTreeMap;
use std::path::Path;

/// What an operation did.
pub struct Done {
    pub seq: u64,
    pub head: Hash32,
    pub description: String,
    pub next: Option<NextStep>,
    /// Inbox orders that were withdrawn (file names under host/withdrawn/).
    pub withdrawn: Vec<String>,
}

/// A seat as the journal says it is after some record: key, and name/email when a hand-over
/// set them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatHistory {
    pub key: String,
    pub handed_over: Option<(String, String)>,
    /// A key replacement or hand-over changed this seat after genesis.
    pub by_op: bool,
}

/// Each side's seat after `records[..upto]`, from the genesis seats and the later key
/// replacements and hand-overs. Sides in genesis seat order.
pub fn seats_at(records: &[(Record, Hash32)], upto: usize) -> Vec<(String, SeatHistory)> {
    let mut seats: Vec<(String, SeatHistory)> = Vec::new();
    for (rec, _) in records.iter().take(upto) {
        if let Some(g) = &rec.genesis {
            seats = g
                .seats
                .iter()
                .map(|s| {
                    (
                        s.side.clone(),
                        SeatHistory {
                            key: s.key.clone(),
                            handed_over: None,
                            by_op: false,
                        },
                    )
                })
                .collect();
        }
        match &rec.host_op {
            Some(HostOp::ReplaceKey { side, key, .. }) => {
                if let Some((_, s)) = seats.iter_mut().find(|(n, _)| n == side) {
                    s.key = key.clone();
                    s.by_op = true;
                }
            }
            Some(HostOp::HandOver {
                side,
                name,
                email,
                key,
                ..
            }) => {
                if let Some((_, s)) = seats.iter_mut().find(|(n, _)| n == side) {
                    s.key = key.clone();
                    s.handed_over = Some((name.clone(), email.clone()));
                    s.by_op = true;
                }
            }
            _ => {}
        }
    }
    seats
}

/// The key of `side` that orders used by record `records[i]` must be signed with.
pub fn key_at(records: &[(Record, Hash32)], i: usize, side: &str) -> Option<String> {
    seats_at(records, i)
        .into_iter()
        .find(|(s, _)| s == side)
        .map(|(_, h)| h.key)
}

/// Was an order with this basis and step withdrawn by a host operation (the record right after
/// its basis is a host operation, so the basis went stale before the step was resolved)?
/// Returns that record's number.
pub fn withdrawn_by(records: &[(Record, Hash32)], basis: &Hash32, step: u64) -> Option<u64> {
    let b = records.iter().position(|(_, h)| h == basis)?;
    if records[b].0.next.as_ref().map(|n| n.step) != Some(step) {
        return None;
    }
    let (after, _) = records.get(b + 1)?;
    after.host_op.as_ref().map(|_| after.seq)
}

/// Finishes what a crashed run left undone, under the caller's lock: game.yaml's seats follow
/// the journal's key history; inbox files of steps that are no longer open are removed; missing
/// reports and stale views are rewritten. Writes nothing when everything is in order.
pub fn recover(game: &Game) -> Result<(), Error> {
    sync_seats(game)?;
    let open = game.open_step().map(|n| n.step);
    if let Ok(entries) = std::fs::read_dir(game.dir.inbox()) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let step = name.get(..6).and_then(|d| d.parse::<u64>().ok());
            if step.is_some() && step != open && name.as_bytes().get(6) == Some(&b'-') {
                std::fs::remove_file(entry.path()).map_err(|e| Error::io(&entry.path(), e))?;
            }
        }
    }
    if derived_stale(game)? {
        let game = Game::open(&game.dir.root)?;
        views::refresh(&game)?;
    }
    Ok(())
}

fn derived_stale(game: &Game) -> Result<bool, Error> {
    for (rec, _) in &game.records {
        if !game.dir.report(rec.seq).exists() {
            return Ok(true);
        }
    }
    for side in game.config.side_names() {
        for (rec, _) in &game.records {
            if !game.dir.view_of_record(&side, rec.seq).exists() {
                return Ok(true);
            }
        }
        let (yaml, text) = views::side_view(game, &side)?;
        let d = game.dir.views(&side);
        if dir::read_text(&d.join("view.yaml")).ok().as_deref() != Some(yaml.as_str())
            || dir::read_text(&d.join("view.txt")).ok().as_deref() != Some(text.as_str())
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `config` with each seat's key (and name and email after a hand-over) as the journal's key
/// history ends: what `Game::open` uses, whatever game.yaml says.
pub fn config_with_journal_seats(
    config: super::config::GameConfig,
    records: &[(Record, Hash32)],
) -> Result<super::config::GameConfig, Error> {
    Ok(seats_from_history(config, records)?.0)
}

fn seats_from_history(
    mut config: super::config::GameConfig,
    records: &[(Record, Hash32)],
) -> Result<(super::config::GameConfig, bool), Error> {
    let history = seats_at(records, records.len());
    let mut changed = false;
    // Only seats a host operation changed: any other difference from genesis is an edit of
    // game.yaml that `verify` reports, not something to repair silently.
    for (side, h) in history.iter().filter(|(_, h)| h.by_op) {
        let Some(seat) = config.seats.iter_mut().find(|s| &s.side == side) else {
            continue;
        };
        if seat.key.openssh() != h.key {
            seat.key = PublicKey::parse(&h.key).map_err(|e| Error::Fail(e.to_string()))?;
            changed = true;
        }
        if let Some((name, email)) = &h.handed_over
            && (&seat.name != name || &seat.email != email)
        {
            seat.name = name.clone();
            seat.email = email.clone();
            changed = true;
        }
    }
    Ok((config, changed))
}

/// Rewrites game.yaml's seats when the journal's key history says otherwise (a crash between
/// the record and game.yaml). Only seats that a host operation changed are touched.
fn sync_seats(game: &Game) -> Result<(), Error> {
    let path = game.dir.config();
    let text = dir::read_text(&path)?;
    let on_disk: super::config::GameConfig =
        yaml::parse(&text, &path.display().to_string()).map_err(|r| Error::Fail(r.to_string()))?;
    let (config, changed) = seats_from_history(on_disk, &game.records)?;
    if changed {
        dir::write_atomic(&path, yaml::encode(&config)?.as_bytes())?;
    }
    Ok(())
}

/// Moves every inbox file of the open step to host/withdrawn/RECORD-NAME.
fn withdraw_inbox(game: &Game, seq: u64) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(game.dir.inbox()) else {
        return Ok(out);
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if name.starts_with(".tmp") || !path.is_file() {
            continue;
        }
        let to = game
            .dir
            .host()
            .join("withdrawn")
            .join(format!("{seq:06}-{name}"));
        dir::write_private(&to, &dir::read(&path)?)?;
        std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
        out.push(name);
    }
    Ok(out)
}

fn check_reason(reason: &str) -> Result<(), Error> {
    if reason.trim().is_empty() {
        return Err(Error::Fail(
            "--reason: say why (it is published in the journal)".into(),
        ));
    }
    Ok(())
}

/// Opens the game under its lock with any crashed run finished; refuses a game that is over.
fn open_locked(root: &Path) -> Result<(Game, std::fs::File), Error> {
    let game = Game::open(root)?;
    let lock = game.dir.lock()?;
    let game = Game::open(root)?;
    recover(&game)?;
    let game = Game::open(root)?;
    if game.last().conclusion.is_some() {
        return Err(Error::Fail(
            "the game is concluded: nothing may be added to its journal".into(),
        ));
    }
    Ok((game, lock))
}

fn finish(
    root: &Path,
    seq: u64,
    op: &HostOp,
    withdrawn: Vec<String>,
    now: jiff::Timestamp,
) -> Result<Done, Error> {
    let game = Game::open(root)?;
    recover(&game)?; // game.yaml follows the new record
    let game = Game::open(root)?;
    super::mail::turn::after_record(&game, now)?;
    let (rec, head) = game.records.last().cloned().expect("a journal");
    debug_assert_eq!(rec.seq, seq);
    Ok(Done {
        seq,
        head,
        description: hostop::describe(op),
        next: rec.next,
        withdrawn,
    })
}

fn seat_change(
    root: &Path,
    side: &str,
    key: &PublicKey,
    op: impl FnOnce(String) -> HostOp,
    now: jiff::Timestamp,
) -> Result<Done, Error> {
    let (game, _lock) = open_locked(root)?;
    let Some(seat) = game.config.seat(side) else {
        return Err(Error::Fail(format!(
            "no side {side:?}; sides: {}",
            game.config.side_names().join(", ")
        )));
    };
    let new_key = key.openssh();
    if seat.key.openssh() == new_key {
        return Err(Error::Fail(format!(
            "{side} already has this key; nothing to change"
        )));
    }
    if game.config.seats.iter().any(|s| s.key.openssh() == new_key)
        || game.config.host_key.openssh() == new_key
    {
        return Err(Error::Fail(
            "this key already belongs to another seat or to the host; each seat needs its own key"
                .into(),
        ));
    }
    let op = op(new_key);
    let seq = game.last_seq() + 1;
    let withdrawn = withdraw_inbox(&game, seq)?;
    let mut events = vec![hostop::describe(&op)];
    if !withdrawn.is_empty() {
        events.push(format!(
            "orders waiting for the open step were withdrawn ({}): send them again against the new journal head",
            withdrawn.join(", ")
        ));
    }
    let seq = hostop::append(
        &game,
        op.clone(),
        game.last_seq(),
        game.open_step().cloned(),
        events,
    )?;
    finish(root, seq, &op, withdrawn, now)
}

/// `pbem host replace-key`.
pub fn replace_key(
    root: &Path,
    side: &str,
    key: &PublicKey,
    reason: &str,
    now: jiff::Timestamp,
) -> Result<Done, Error> {
    check_reason(reason)?;
    seat_change(
        root,
        side,
        key,
        |key| HostOp::ReplaceKey {
            side: side.to_string(),
            key,
            reason: reason.to_string(),
        },
        now,
    )
}

/// `pbem host hand-over`: a new player with a new key; name and email default to the seat's
/// (an empty email stays empty).
pub fn hand_over(
    root: &Path,
    side: &str,
    key: &PublicKey,
    name: Option<&str>,
    email: Option<&str>,
    reason: &str,
    now: jiff::Timestamp,
) -> Result<Done, Error> {
    check_reason(reason)?;
    let game = Game::open(root)?;
    let seat: Option<Seat> = game.config.seat(side).cloned();
    let (old_name, old_email) = seat.map(|s| (s.name, s.email)).unwrap_or_default();
    let name = name.map(str::to_string).unwrap_or(old_name);
    let email = email.map(str::to_string).unwrap_or(old_email);
    if !email.is_empty() {
        super::mail::address::mailbox(&email, "--email").map_err(Error::Fail)?;
    }
    seat_change(
        root,
        side,
        key,
        |key| HostOp::HandOver {
            side: side.to_string(),
            name,
            email,
            key,
            reason: reason.to_string(),
        },
        now,
    )
}

/// `pbem host rollback`: the state becomes that after record `to`, and the step it was waiting
/// for opens again under a new step number.
pub fn rollback(root: &Path, to: u64, reason: &str, now: jiff::Timestamp) -> Result<Done, Error> {
    check_reason(reason)?;
    let (game, _lock) = open_locked(root)?;
    if to > game.last_seq() {
        return Err(Error::Fail(format!(
            "--to {to}: there is no such record (the newest is {})",
            game.last_seq()
        )));
    }
    let state = dir::read_text(&game.dir.state(to))?;
    let (title, sides) = match game.system.phase(&state)? {
        Phase::Waiting { title, sides } => (title, sides),
        Phase::Finished(_) => {
            return Err(Error::Fail(format!(
                "--to {to}: the game was over after that record; roll back to a record where a step was open"
            )));
        }
    };
    let secrets = game.secrets()?;
    let step = hostop::highest_step(&game) + 1;
    let next = NextStep {
        step,
        title,
        waiting_for: sides,
        host_commit: commitment(&journal::host_seed(&secrets.master, step)),
    };
    let op = HostOp::Rollback {
        to_record: to,
        reason: reason.to_string(),
    };
    let seq = game.last_seq() + 1;
    let withdrawn = withdraw_inbox(&game, seq)?;
    let mut events = vec![
        hostop::describe(&op),
        format!(
            "the step after record {to} opens again as step {step}; orders for earlier step numbers are void"
        ),
    ];
    if !withdrawn.is_empty() {
        events.push(format!(
            "orders waiting in the inbox were withdrawn ({})",
            withdrawn.join(", ")
        ));
    }
    let seq = hostop::append(&game, op.clone(), to, Some(next), events)?;
    finish(root, seq, &op, withdrawn, now)
}

/// For `verify`: game.yaml's seats must be what the journal's key history ends with.
pub fn seat_findings(game: &Game, records: &[(Record, Hash32)]) -> Vec<String> {
    let mut out = Vec::new();
    let history = seats_at(records, records.len());
    let current: Vec<(String, String)> = game
        .config
        .seats
        .iter()
        .map(|s| (s.side.clone(), s.key.openssh()))
        .collect();
    let expected: Vec<(String, String)> = history
        .iter()
        .map(|(s, h)| (s.clone(), h.key.clone()))
        .collect();
    if current != expected {
        out.push(
            "game.yaml: seats: sides or keys differ from the genesis seats with the journal's later key replacements and hand-overs"
                .to_string(),
        );
    }
    let by_side: BTreeMap<_, _> = game.config.seats.iter().map(|s| (&s.side, s)).collect();
    for (side, h) in &history {
        if let (Some((name, email)), Some(seat)) = (&h.handed_over, by_side.get(side))
            && (&seat.name != name || &seat.email != email)
        {
            out.push(format!(
                "game.yaml: seat {side}: name or email differ from the journal's last hand-over"
            ));
        }
    }
    out
}
