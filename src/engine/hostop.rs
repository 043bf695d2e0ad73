//! Host operations as journal records: nothing the host does between steps is silent. Each
//! operation (see `protocol::journal::HostOp`) appends one record; the callers that implement an
//! operation decide the state it leaves the game in and the step that is open after it.

use super::dir;
use super::game::Game;
use super::{Error, views};
use crate::protocol::hash::sha256;
use crate::protocol::journal::{HostOp, JOURNAL_FORMAT, NextStep, Record};
use crate::systems::Reader;
use crate::yaml;

/// Appends a host-operation record and rewrites the derived files. The caller holds the game's
/// lock. `state_seq` is the record whose state the game has afterwards (the newest for most
/// operations, an earlier one for a rollback); `next` is the step open afterwards; `events` are
/// public lines for the report and views. Returns the new record's number.
pub fn append(
    game: &Game,
    op: HostOp,
    state_seq: u64,
    next: Option<NextStep>,
    events: Vec<String>,
) -> Result<u64, Error> {
    let state = dir::read_text(&game.dir.state(state_seq))?;
    let public = game.system.view(game.data()?, &state, &Reader::Public)?;
    append_with_state(
        game,
        op,
        state,
        sha256(public.yaml.as_bytes()),
        next,
        events,
    )
}

/// [`append`] for an operation that gives the game a new state (an upgrade of its rules), with
/// the hash of that state's public view.
pub fn append_with_state(
    game: &Game,
    op: HostOp,
    state: String,
    public_state: crate::protocol::hash::Hash32,
    next: Option<NextStep>,
    events: Vec<String>,
) -> Result<u64, Error> {
    if game.last().conclusion.is_some() {
        return Err(Error::Fail(
            "the game is concluded: nothing may be added to its journal".into(),
        ));
    }
    let seq = game.last_seq() + 1;
    dir::write_private(&game.dir.state(seq), state.as_bytes())?;
    let ev = super::process::StepEvents {
        public: events,
        private: Default::default(),
    };
    dir::write_private(
        &super::process::events_path(game, seq),
        yaml::encode(&ev)?.as_bytes(),
    )?;
    let mut record = Record {
        pbem: JOURNAL_FORMAT.into(),
        game: game.config.id.clone(),
        seq,
        prev: Some(game.head()),
        genesis: None,
        step: None,
        conclusion: None,
        host_op: Some(op),
        public_state,
        next,
    };
    record.pbem = game.journal_format(&record).into();
    dir::write_atomic(&game.dir.record(seq), yaml::encode(&record)?.as_bytes())?;
    let game = Game::open(&game.dir.root)?;
    // An upgrade's record pins new component data: install it before anything reads it.
    super::ops::install_upgraded_data(&game)?;
    views::write_report(&game, seq)?;
    views::refresh_newest(&game)?;
    Ok(seq)
}

/// The step numbers the journal has ever opened, so a rollback can open a fresh one.
pub fn highest_step(game: &Game) -> u64 {
    game.journal.highest_step
}

/// Public description of an operation, for reports.
pub fn describe(op: &HostOp) -> String {
    match op {
        HostOp::ReplaceKey { side, key, reason } => {
            format!("host replaced the key of {side} with {key} ({reason})")
        }
        HostOp::HandOver {
            side, name, reason, ..
        } => format!("host handed {side} to {name} ({reason})"),
        HostOp::Pause { reason, .. } => format!("host paused the game ({reason})"),
        HostOp::Resume { reason, .. } => format!("host resumed the game ({reason})"),
        HostOp::Extend {
            step,
            deadline,
            reason,
        } => {
            format!("host extended the deadline of step {step} to {deadline} ({reason})")
        }
        HostOp::Rollback { to_record, reason } => {
            format!(
                "host rolled the game back to record {to_record} ({reason}); later records stay in the journal"
            )
        }
        HostOp::Upgrade {
            from,
            to,
            pbem_version,
            reason,
            ..
        } => format!(
            "host moved the game from rules {from} to rules {to} of pbem {pbem_version} ({reason}); steps from here on are resolved by them"
        ),
    }
}
