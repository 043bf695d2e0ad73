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
//! - `hand-over`: the side goes to a new player (key, and optionally name and email). The name
//!   is public (in the record); the address is not: it goes to mail/addresses.yaml under the new
//!   key, written before the record (see `config::Addresses`).
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

use super::config::{Addresses, GameConfig, Seat};
use super::dir::{self, GameDir};
use super::game::Game;
use super::hostop;
use super::{Error, views};
use crate::protocol::hash::{Hash32, commitment, sha256};
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

/// A seat as the journal says it is after some record: its key, every key it had, and the name
/// the last hand-over gave it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatHistory {
    pub key: String,
    /// Every key of the side, genesis first, the current one last.
    pub keys: Vec<String>,
    /// The name the last hand-over gave the seat.
    pub name: Option<String>,
    /// (key, address) of hand-over records written when addresses were still journaled; read
    /// so that such games keep their players' addresses.
    pub journal_emails: Vec<(String, String)>,
    /// A key replacement or hand-over changed this seat after genesis.
    pub by_op: bool,
}

/// Each side's seat after `records[..upto]`, from the genesis seats and the later key
/// replacements and hand-overs. Sides in genesis seat order.
pub fn seats_at(records: &[(Record, Hash32)], upto: usize) -> Vec<(String, SeatHistory)> {
    let mut seats: Vec<(String, SeatHistory)> = Vec::new();
    for (rec, _) in records.iter().take(upto) {
        seat_step(&mut seats, rec);
    }
    seats
}

/// [`seats_at`] one record further: `seats` after the record before `rec`, made the seats
/// after it (the journal summary folds the journal with it, record by record).
pub fn seat_step(seats: &mut Vec<(String, SeatHistory)>, rec: &Record) {
    if let Some(g) = &rec.genesis {
        *seats = g
            .seats
            .iter()
            .map(|s| {
                (
                    s.side.clone(),
                    SeatHistory {
                        key: s.key.clone(),
                        keys: vec![s.key.clone()],
                        name: None,
                        journal_emails: Vec::new(),
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
                s.keys.push(key.clone());
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
                s.keys.push(key.clone());
                s.name = Some(name.clone());
                if let Some(email) = email {
                    s.journal_emails.push((key.clone(), email.clone()));
                }
                s.by_op = true;
            }
        }
        _ => {}
    }
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
/// the journal's key history and any email address in it moves to mail/addresses.yaml;
/// inbox files of steps that are no longer open are removed; missing reports and stale views are
/// rewritten. Writes nothing when everything is in order.
pub fn recover(game: &Game) -> Result<(), Error> {
    sync_config(game)?;
    install_upgraded_data(game)?;
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
    if game.rules().0 != game.system.rules_version() {
        // A game of other rules waits for `pbem host upgrade` (or the pbem it runs): these rules
        // may not read its state, and its views are those of its own rules.
        return Ok(false);
    }
    // Only the newest record's derived files can be missing: every command that appends a
    // record recovers first (process, conclude, every host operation: `open_locked` here and
    // `schedule::run_op`).
    let newest = game.last_seq();
    if !game.dir.report(newest).exists() {
        return Ok(true);
    }
    for side in game.config.side_names() {
        if !game.dir.view_of_record(&side, newest).exists() || !views::is_current(game, &side) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The configuration `Game::open` uses: game.yaml as read (`on_disk`), with each seat's key
/// and name as the journal's key history ends, whatever game.yaml says, and the addresses of
/// mail/addresses.yaml (`config::Addresses`; an older game.yaml's own addresses count until
/// they are moved there).
pub fn effective_config(
    dir: &GameDir,
    on_disk: GameConfig,
    history: &[(String, SeatHistory)],
) -> Result<GameConfig, Error> {
    let file = Addresses::read(dir)?;
    let (mut config, _) = seats_from_history(on_disk.clone(), history)?;
    for seat in &mut config.seats {
        // A seat genesis does not know is an edit of game.yaml that `verify` reports.
        let Some((_, h)) = history.iter().find(|(s, _)| *s == seat.side) else {
            continue;
        };
        let in_yaml = on_disk
            .seat(&seat.side)
            .filter(|s| !s.email.is_empty())
            .map(|s| (s.key.openssh(), s.email.clone()));
        seat.email = address_of(&seat.side, h, in_yaml.as_ref(), file.as_ref());
    }
    let mut mail = file.map(|a| a.mail).unwrap_or_default();
    if !on_disk.mail.from.is_empty() {
        mail.from = on_disk.mail.from.clone();
    }
    for o in &on_disk.mail.observers {
        if !mail.observers.contains(o) {
            mail.observers.push(o.clone());
        }
    }
    config.mail = mail;
    Ok(config)
}

/// The address of `side`: that of its newest key with one. For each key, in order: game.yaml's
/// address if game.yaml names that key (an older game, or the host's edit, not yet moved), the
/// entry of mail/addresses.yaml, an old hand-over record's address. An entry with an empty
/// address counts (that player has none).
fn address_of(
    side: &str,
    h: &SeatHistory,
    in_yaml: Option<&(String, String)>,
    file: Option<&Addresses>,
) -> String {
    h.keys
        .iter()
        .rev()
        .find_map(|k| {
            in_yaml
                .filter(|(key, _)| key == k)
                .map(|(_, e)| e.clone())
                .or_else(|| file.and_then(|a| a.email_for(side, k)).map(str::to_string))
                .or_else(|| {
                    h.journal_emails
                        .iter()
                        .rev()
                        .find(|(key, _)| key == k)
                        .map(|(_, e)| e.clone())
                })
        })
        .unwrap_or_default()
}

/// `config` with the keys and names of the seats a host operation changed, as the journal's key
/// history ends; true when that changed anything.
fn seats_from_history(
    mut config: GameConfig,
    history: &[(String, SeatHistory)],
) -> Result<(GameConfig, bool), Error> {
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
        if let Some(name) = &h.name
            && &seat.name != name
        {
            seat.name = name.clone();
            changed = true;
        }
    }
    Ok((config, changed))
}

/// mail/addresses.yaml as it must be for the game's effective configuration: the entries the
/// journal's key history can reach (an entry for a key it never gave that side is left from a
/// hand-over a crash stopped before its record), plus an entry for a seat's current key wherever
/// the file would otherwise give another address (an address still in game.yaml).
fn wanted_addresses(
    effective: &GameConfig,
    current: Option<&Addresses>,
    history: &[(String, SeatHistory)],
) -> Addresses {
    let mut a = current.cloned().unwrap_or_default();
    a.seats.retain(|e| {
        history
            .iter()
            .any(|(side, h)| *side == e.side && h.keys.contains(&e.key))
    });
    a.mail = effective.mail.clone();
    for seat in &effective.seats {
        let Some((_, h)) = history.iter().find(|(s, _)| *s == seat.side) else {
            continue;
        };
        if address_of(&seat.side, h, None, Some(&a)) != seat.email {
            a.set(&seat.side, &h.key, &seat.email);
        }
    }
    a
}

/// Rewrites game.yaml when the journal's key history says otherwise (a crash between a record
/// and game.yaml) or when it still holds email addresses, which first go to
/// mail/addresses.yaml; also drops address entries a crashed hand-over left. Writes nothing when
/// all is in order.
fn sync_config(game: &Game) -> Result<(), Error> {
    let current = Addresses::read(&game.dir)?;
    let wanted = wanted_addresses(&game.config, current.as_ref(), &game.journal.seats);
    // Addresses first: game.yaml gives up its addresses only once they are in the host's file.
    if wanted != current.unwrap_or_default() {
        wanted.write(&game.dir)?;
    }
    let path = game.dir.config();
    let text = dir::read_text(&path)?;
    let on_disk: GameConfig =
        yaml::parse(&text, &path.display().to_string()).map_err(|r| Error::Fail(r.to_string()))?;
    let had_addresses = on_disk.holds_addresses();
    let (config, changed) = seats_from_history(on_disk, &game.journal.seats)?;
    if changed || had_addresses {
        dir::write_atomic(&path, yaml::encode(&config.public())?.as_bytes())?;
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
    let (rec, head) = (game.last().clone(), game.head());
    debug_assert_eq!(rec.seq, seq);
    Ok(Done {
        seq,
        head,
        description: hostop::describe(op),
        next: rec.next,
        withdrawn,
    })
}

/// Replaces the key of `side`'s seat by a journal record `op(new key, the seat now)`. `email`:
/// the address of the new key's holder (a hand-over's `--email`), None to keep the seat's.
fn seat_change(
    root: &Path,
    side: &str,
    key: &PublicKey,
    email: Option<&str>,
    op: impl FnOnce(String, &Seat) -> HostOp,
    now: jiff::Timestamp,
) -> Result<Done, Error> {
    let (game, _lock) = open_locked(root)?;
    let Some(seat) = game.config.seat(side) else {
        return Err(Error::Fail(format!(
            "no side {side:?}; sides: {}",
            game.config.side_names().join(", ")
        )));
    };
    if let Some(bot) = &seat.bot {
        return Err(Error::Fail(format!(
            "{side} is played by the host's {bot} bot and has no player key to replace"
        )));
    }
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
    // The new holder's address goes to the host's file, never into the public record. It is
    // written before the record, under the new key, so a crash in between leaves an entry no
    // key of the journal reaches (recovery removes it) and the seat keeps its old address.
    if let Some(email) = email
        && email != seat.email
    {
        let mut a = Addresses::read(&game.dir)?.unwrap_or_default();
        a.set(side, &new_key, email);
        a.write(&game.dir)?;
    }
    let op = op(new_key, seat);
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
        None,
        |key, _| HostOp::ReplaceKey {
            side: side.to_string(),
            key,
            reason: reason.to_string(),
        },
        now,
    )
}

/// `pbem host hand-over`: a new player with a new key; name and email default to the seat's
/// (an empty email stays empty). The name is published in the record, the email is not.
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
    if let Some(email) = email.filter(|e| !e.is_empty()) {
        super::mail::address::mailbox(email, "--email").map_err(Error::Fail)?;
    }
    seat_change(
        root,
        side,
        key,
        email,
        |key, seat| HostOp::HandOver {
            side: side.to_string(),
            name: name
                .map(str::to_string)
                .unwrap_or_else(|| seat.name.clone()),
            email: None,
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
    if let Some((upgrade, _)) = game.journal.last_upgrade
        && to < upgrade
    {
        return Err(Error::Fail(format!(
            "--to {to}: record {upgrade} moved the game to other rules; the states before it are \
             those of the old rules, so roll back to record {upgrade} or later"
        )));
    }
    let state = dir::read_text(&game.dir.state(to))?;
    let (title, sides) = match game.system.phase(game.data()?, &state)? {
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

/// `pbem host upgrade`: the game moves to this pbem's rules version. The state is carried over
/// as the new rules read it ([`crate::systems::Rules::upgrade_state`]); the open step keeps its
/// number and host commitment; orders waiting in the inbox were checked under the old rules, so
/// they are withdrawn and the players send them again.
pub fn upgrade(root: &Path, reason: &str, now: jiff::Timestamp) -> Result<Done, Error> {
    check_reason(reason)?;
    let (game, _lock) = open_locked(root)?;
    let (from, release) = game.rules();
    let to = game.system.rules_version();
    let id = game.system.id();
    if from == to {
        return Err(Error::Fail(format!(
            "the game already runs {id} rules {to}, those of this pbem {}: nothing to upgrade",
            crate::PBEM_VERSION
        )));
    }
    if from > to {
        return Err(Error::Fail(format!(
            "the game runs {id} rules {from} (pbem {release}), newer than this pbem's {id} rules {to}: a game never moves back to older rules"
        )));
    }
    let Some(open) = game.open_step().cloned() else {
        return Err(Error::Fail(
            "the game is over: there is no step left for new rules to resolve".into(),
        ));
    };
    // A game whose states held their data (rules 1) has no data.yaml: the upgrade makes one.
    let old_data = match game.journal.data {
        Some(_) => Some(game.data()?),
        None => None,
    };
    let (state, data_yaml) = game
        .system
        .upgrade_state(from, &game.state()?, old_data)
        .map_err(|e| {
            Error::Fail(format!(
                "{id} rules {to} cannot carry this game's state over: {e}"
            ))
        })?;
    let data = game.system.parse_data(&data_yaml)?;
    let next = match game.system.phase(&data, &state)? {
        Phase::Waiting { title, sides } => NextStep {
            title,
            waiting_for: sides,
            ..open
        },
        Phase::Finished(_) => {
            return Err(Error::Fail(format!(
                "{id} rules {to} find this game over; upgrading would end it without a step"
            )));
        }
    };
    let op = HostOp::Upgrade {
        from,
        to,
        pbem_version: crate::PBEM_VERSION.into(),
        reason: reason.to_string(),
        data: sha256(data_yaml.as_bytes()),
    };
    let seq = game.last_seq() + 1;
    let withdrawn = withdraw_inbox(&game, seq)?;
    let mut events = vec![hostop::describe(&op)];
    if !withdrawn.is_empty() {
        events.push(format!(
            "orders waiting for the open step were withdrawn ({}): check them against the new rules and send them again",
            withdrawn.join(", ")
        ));
    }
    // The data the steps so far were resolved with stays public beside the new one, so a pbem
    // of the old rules can still replay them. Written before the record: a crash in between
    // leaves a copy of the data still pinned, which verify accepts.
    keep_earlier_data(&game)?;
    // The new data goes under a new name first; the record commits it; then it becomes
    // data.yaml (hostop::append_with_state, or recover() after a crash).
    dir::write_private(&upgraded_data(&game, seq), data_yaml.as_bytes())?;
    let public = game
        .system
        .view(&data, &state, &crate::systems::Reader::Public)?;
    let seq = hostop::append_with_state(
        &game,
        op.clone(),
        state,
        sha256(public.yaml.as_bytes()),
        Some(next),
        events,
    )?;
    finish(root, seq, &op, withdrawn, now)
}

/// The newest `upgrade` record among `records[..upto]`, by number.
pub fn last_upgrade(records: &[(Record, Hash32)], upto: usize) -> Option<u64> {
    records[..upto]
        .iter()
        .rev()
        .find(|(r, _)| matches!(r.host_op, Some(HostOp::Upgrade { .. })))
        .map(|(r, _)| r.seq)
}

/// Where `upgrade` keeps the data it gives the game at record `seq` (host-side).
fn upgraded_data(game: &Game, seq: u64) -> std::path::PathBuf {
    game.dir.host().join("data").join(format!("{seq:06}.yaml"))
}

/// Copies data.yaml, which the journal pins now, to `data/NNNNNN.yaml` (public), NNNNNN the
/// record that pinned it: what `upgrade` does before it replaces data.yaml.
pub(crate) fn keep_earlier_data(game: &Game) -> Result<(), Error> {
    let Some(pinned) = game.journal.data else {
        // Rules 1: the states held their data; there is no data.yaml to keep.
        return Ok(());
    };
    // The pin is the newest upgrade's, or genesis's when there was none.
    let pinned_by = game.journal.last_upgrade.map_or(0, |(seq, _)| seq);
    let path = game.dir.data();
    let bytes = dir::read(&path)?;
    if sha256(&bytes) != pinned {
        return Err(Error::Fail(format!(
            "{}: differs from the component data the journal pins (SHA-256 {pinned}); restore it from the published game",
            path.display()
        )));
    }
    dir::write_atomic(&game.dir.earlier_data(pinned_by), &bytes)
}

/// Makes data.yaml the data the newest upgrade record pins, from the host's copy: right after
/// the record is written, and again by `recover` after a crash in between.
pub(crate) fn install_upgraded_data(game: &Game) -> Result<(), Error> {
    let Some((seq, data)) = game.journal.last_upgrade else {
        return Ok(());
    };
    let current = dir::read(&game.dir.data()).ok().map(|b| sha256(&b));
    if current == Some(data) {
        return Ok(());
    }
    let copy = upgraded_data(game, seq);
    if let Ok(bytes) = dir::read(&copy)
        && sha256(&bytes) == data
    {
        dir::write_atomic(&game.dir.data(), &bytes)?;
    }
    Ok(())
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
    // Addresses are not checked: they are the host's (mail/addresses.yaml), not public facts.
    let by_side: BTreeMap<_, _> = game.config.seats.iter().map(|s| (&s.side, s)).collect();
    for (side, h) in &history {
        if let (Some(name), Some(seat)) = (&h.name, by_side.get(side))
            && &seat.name != name
        {
            out.push(format!(
                "game.yaml: seat {side}: name differs from the journal's last hand-over"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn before_an_upgrade_the_pinned_data_is_kept_public_under_the_record_that_pinned_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("game");
        let seats = ["beeler", "mercenary"]
            .iter()
            .map(|s| (s.to_string(), SecretKey::generate(s).unwrap().public()))
            .collect();
        let game = crate::engine::new::create(crate::engine::new::NewGame {
            dir: root.clone(),
            system: "kummen".into(),
            scenario: None,
            seats,
            names: Vec::new(),
            emails: Vec::new(),
            id: Some("keep".into()),
            data: None,
            mail: Default::default(),
            deadline: None,
        })
        .unwrap();
        keep_earlier_data(&game).unwrap();
        let kept = std::fs::read(game.dir.earlier_data(0)).unwrap();
        assert_eq!(kept, std::fs::read(game.dir.data()).unwrap());
        assert!(root.join("data/000000.yaml").exists());
    }
    use crate::engine::config::{CONFIG_FORMAT, SeatAddress};
    use crate::protocol::hash::sha256;
    use crate::protocol::journal::{Genesis, SeatKey};
    use crate::protocol::keys::SecretKey;

    fn key() -> PublicKey {
        SecretKey::generate("test").unwrap().public()
    }

    fn record(seq: u64, genesis: Option<Genesis>, host_op: Option<HostOp>) -> (Record, Hash32) {
        let r = Record {
            pbem: journal::JOURNAL_FORMAT.into(),
            game: "g".into(),
            seq,
            prev: None,
            genesis,
            step: None,
            conclusion: None,
            host_op,
            public_state: sha256(b"public"),
            next: None,
        };
        (r, sha256(&seq.to_be_bytes()))
    }

    /// A journal: genesis with mercenary holding `first`, then `ops`.
    fn journal_of(first: &PublicKey, ops: Vec<HostOp>) -> Vec<(Record, Hash32)> {
        let genesis = Genesis {
            system: "kummen".into(),
            scenario: "s".into(),
            dice: "pbem-dice-v1".into(),
            seats: vec![SeatKey {
                side: "mercenary".into(),
                key: first.openssh(),
                bot: None,
            }],
            host_key: key().openssh(),
            game_key_commit: sha256(b"k"),
            pbem_version: None,
            rules: None,
            data: None,
        };
        let mut out = vec![record(0, Some(genesis), None)];
        for (i, op) in ops.into_iter().enumerate() {
            out.push(record(i as u64 + 1, None, Some(op)));
        }
        out
    }

    fn history(records: &[(Record, Hash32)]) -> SeatHistory {
        seats_at(records, records.len()).remove(0).1
    }

    fn file(entries: &[(&PublicKey, &str)]) -> Addresses {
        Addresses {
            seats: entries
                .iter()
                .map(|(k, e)| SeatAddress {
                    side: "mercenary".into(),
                    key: k.openssh(),
                    email: e.to_string(),
                })
                .collect(),
            ..Addresses::default()
        }
    }

    fn config(k: &PublicKey, email: &str) -> GameConfig {
        GameConfig {
            pbem: CONFIG_FORMAT.into(),
            id: "g".into(),
            system: "kummen".into(),
            scenario: "s".into(),
            seats: vec![Seat {
                side: "mercenary".into(),
                name: String::new(),
                key: k.clone(),
                bot: None,
                email: email.into(),
                tz: None,
            }],
            host_key: key(),
            mail: Default::default(),
            deadline: None,
            missed_orders: Default::default(),
        }
    }

    #[test]
    fn a_hand_over_record_written_when_addresses_were_journaled_still_gives_the_address() {
        let (a, b) = (key(), key());
        let op = format!(
            "op: hand_over\nside: mercenary\nname: Carol\nemail: carol@example.org\nkey: {}\nreason: r\n",
            b.openssh()
        );
        let op: HostOp = yaml::parse(&op, "old record").unwrap();
        let records = journal_of(&a, vec![op]);
        let h = history(&records);
        assert_eq!(address_of("mercenary", &h, None, None), "carol@example.org");
        // The host's file wins once the address has moved there.
        let moved = file(&[(&b, "carol@new.example.org")]);
        assert_eq!(
            address_of("mercenary", &h, None, Some(&moved)),
            "carol@new.example.org"
        );
    }

    #[test]
    fn a_new_hand_over_record_has_no_address_field() {
        let op = HostOp::HandOver {
            side: "mercenary".into(),
            name: "Carol".into(),
            email: None,
            key: key().openssh(),
            reason: "r".into(),
        };
        assert!(!yaml::encode(&op).unwrap().contains("email"));
    }

    #[test]
    fn a_key_replacement_keeps_the_address_of_the_players_earlier_key() {
        let (a, b) = (key(), key());
        let records = journal_of(
            &a,
            vec![HostOp::ReplaceKey {
                side: "mercenary".into(),
                key: b.openssh(),
                reason: "lost".into(),
            }],
        );
        let f = file(&[(&a, "alice@example.org")]);
        assert_eq!(
            address_of("mercenary", &history(&records), None, Some(&f)),
            "alice@example.org"
        );
    }

    #[test]
    fn an_entry_for_a_key_the_journal_never_gave_the_side_is_not_used_and_is_dropped() {
        // A hand-over wrote Carol's entry, then crashed before its record.
        let (a, carol) = (key(), key());
        let records = journal_of(&a, vec![]);
        let f = file(&[(&a, "alice@example.org"), (&carol, "carol@example.org")]);
        assert_eq!(
            address_of("mercenary", &history(&records), None, Some(&f)),
            "alice@example.org"
        );
        let wanted = wanted_addresses(
            &config(&a, "alice@example.org"),
            Some(&f),
            &seats_at(&records, records.len()),
        );
        assert_eq!(wanted, file(&[(&a, "alice@example.org")]));
    }

    #[test]
    fn an_address_written_into_game_yaml_wins_and_moves_to_the_file_under_the_current_key() {
        let a = key();
        let records = journal_of(&a, vec![]);
        let f = file(&[(&a, "old@example.org")]);
        let in_yaml = (a.openssh(), "new@example.org".to_string());
        assert_eq!(
            address_of("mercenary", &history(&records), Some(&in_yaml), Some(&f)),
            "new@example.org"
        );
        let wanted = wanted_addresses(
            &config(&a, "new@example.org"),
            Some(&f),
            &seats_at(&records, records.len()),
        );
        assert_eq!(wanted, file(&[(&a, "new@example.org")]));
    }

    #[test]
    fn a_game_without_addresses_gets_no_address_entries() {
        let a = key();
        let records = journal_of(&a, vec![]);
        assert!(
            wanted_addresses(&config(&a, ""), None, &seats_at(&records, records.len())).is_empty()
        );
    }
}
