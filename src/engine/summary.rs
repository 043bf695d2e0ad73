//! The journal summary: what the engine needs of a game's journal without its every record, so
//! that opening a game at record 300 costs what it costs at record 3.
//!
//! It is the fold of the journal from genesis to its head ([`Summary::push`], one record at a
//! time): the head record itself, the records of the open step's range (their hashes are the
//! bases an order may name, their pauses and extensions move its deadline), and what the
//! engine reads of the whole history — each seat's key history, the rules and component data
//! pinned, the last upgrade, the highest step number, the last outcome and each side's missed
//! steps. The same fold gives the summary of a journal read whole (`verify`'s own reading) and
//! brings a stored summary forward by the records written since.
//!
//! The host keeps it in `host/cache/journal-summary.json` (engine::cache), keyed by the hash of
//! its head record's file. The head's hash commits to the whole chain (each record names its
//! predecessor's hash), so a summary whose head is the journal's record of that number, with no
//! record after it, is the summary of this journal; any other (stale, damaged, forged under
//! another key, from another game) is not used, and the journal is read again
//! (`engine::game`). `verify` never reads it.

use super::ops::{self, SeatHistory};
use crate::protocol::hash::Hash32;
use crate::protocol::journal::{self, HostOp, Record};
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Format of the stored summary: a summary of another format is not used (and is rebuilt).
pub const FORMAT: &str = "journal-summary/1";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    pub pbem: String,
    pub game: String,
    /// How many records the journal has (record numbers are 0 to `len - 1`).
    pub len: u64,
    /// The newest record and the hash of its file; None only for an auditor's empty journal.
    pub head: Option<(Record, Hash32)>,
    /// The number of the first record of the head's range: the record that opened the step
    /// open after the head, later ones having left it open (`game::step_bases`).
    pub first: u64,
    /// The hashes of the records `first..len`, oldest first.
    pub bases: Vec<Hash32>,
    /// Whether deadlines were paused after the records before `first`, and since when
    /// (`schedule::paused_since`).
    pub paused_before: Option<Timestamp>,
    /// The pauses, resumptions and extensions among the records `first..len`: what moves the
    /// open step's deadline (`schedule`), each a few numbers (a long pause-and-resume history
    /// within one step costs little to read).
    pub step_ops: Vec<StepOp>,
    /// Each side's seat after the head (`ops::seats_at`).
    pub seats: Vec<(String, SeatHistory)>,
    /// The rules the game runs and the pbem release they came with (`journal::rules_after`).
    pub rules: (u32, String),
    /// The hash data.yaml must have (`journal::data_after`).
    pub data: Option<Hash32>,
    /// The newest `upgrade` record: its number and the data it pins.
    pub last_upgrade: Option<(u64, Hash32)>,
    /// The highest step number the journal ever opened (a rollback opens the next one).
    pub highest_step: u64,
    /// The outcome of the newest step that had one.
    pub outcome: Option<String>,
    /// How many steps gave each side default orders.
    pub defaults: BTreeMap<String, u64>,
    /// The modification time of `journal/` when it was last found to hold its chain and
    /// nothing else (`game::journal_strays`), if that time was already a second old: while it
    /// is unchanged, no name was added, removed or renamed there since, and the folder is not
    /// listed again. Not part of the fold: set by `game` for the host's stored copy.
    pub listed: Option<(i64, i32)>,
}

/// A pause, resumption or extension of the open step's range (`schedule`): the record's number
/// and its times as numbers (seconds, nanoseconds), None where the record's time does not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepOp {
    Pause(u64, Option<(i64, i32)>),
    Resume(u64, Option<(i64, i32)>),
    /// An extension of step `.1`.
    Extend(u64, u64, Option<(i64, i32)>),
}

impl StepOp {
    /// The step operation of record `seq`, if its host operation is one.
    pub fn of(seq: u64, op: &HostOp) -> Option<StepOp> {
        let at = |t: &str| {
            t.parse::<Timestamp>()
                .ok()
                .map(|t| (t.as_second(), t.subsec_nanosecond()))
        };
        match op {
            HostOp::Pause { at: t, .. } => Some(StepOp::Pause(seq, at(t))),
            HostOp::Resume { at: t, .. } => Some(StepOp::Resume(seq, at(t))),
            HostOp::Extend { step, deadline, .. } => Some(StepOp::Extend(seq, *step, at(deadline))),
            _ => None,
        }
    }
}

/// The time a [`StepOp`] holds.
pub fn time_of(t: Option<(i64, i32)>) -> Option<Timestamp> {
    t.and_then(|(s, n)| Timestamp::new(s, n).ok())
}

impl Summary {
    /// The summary of an empty journal of game `game`.
    pub fn new(game: &str) -> Summary {
        Summary {
            pbem: FORMAT.to_string(),
            game: game.to_string(),
            len: 0,
            head: None,
            first: 0,
            bases: Vec::new(),
            paused_before: None,
            step_ops: Vec::new(),
            seats: Vec::new(),
            rules: journal::rules_after(std::iter::empty()),
            data: None,
            last_upgrade: None,
            highest_step: 0,
            outcome: None,
            defaults: BTreeMap::new(),
            listed: None,
        }
    }

    /// The summary of `records`, a journal from genesis on.
    pub fn of(game: &str, records: &[(Record, Hash32)]) -> Summary {
        let mut s = Summary::new(game);
        for (record, hash) in records {
            s.push(record.clone(), *hash);
        }
        s
    }

    /// Adds the next record, whose file hashes to `hash`.
    pub fn push(&mut self, record: Record, hash: Hash32) {
        // A record continues the head's range when it leaves the same step open (a pause, an
        // extension, a key replacement); anything else (a processed step, a rollback, the end)
        // starts a new one (`game::step_bases`).
        let open = |r: &Record| r.next.as_ref().map(|n| n.step);
        let continues = match (&self.head, open(&record)) {
            (Some((head, _)), Some(step)) => open(head) == Some(step),
            _ => false,
        };
        if !continues {
            self.paused_before = self.paused_now();
            self.first = self.len;
            self.bases.clear();
            self.step_ops.clear();
        }
        self.bases.push(hash);
        if let Some(op) = record
            .host_op
            .as_ref()
            .and_then(|op| StepOp::of(self.len, op))
        {
            self.step_ops.push(op);
        }
        ops::seat_step(&mut self.seats, &record);
        // Only genesis and an upgrade set the rules and the data (journal::rules_after,
        // journal::data_after): the fold asks those functions about the record that sets them.
        if record.genesis.is_some() || matches!(record.host_op, Some(HostOp::Upgrade { .. })) {
            self.rules = journal::rules_after([&record]);
            self.data = journal::data_after([&record]);
        }
        if let Some(HostOp::Upgrade { data, .. }) = &record.host_op {
            self.last_upgrade = Some((record.seq, *data));
        }
        if let Some(n) = &record.next {
            self.highest_step = self.highest_step.max(n.step);
        }
        if let Some(st) = &record.step {
            if let Some(o) = &st.outcome {
                self.outcome = Some(o.clone());
            }
            // A side counts once per step, as `status` counts steps.
            for side in st.defaults.iter().collect::<BTreeSet<_>>() {
                *self.defaults.entry(side.clone()).or_default() += 1;
            }
        }
        self.len += 1;
        self.head = Some((record, hash));
    }

    /// Whether deadlines are paused after the head, and since when.
    pub fn paused_now(&self) -> Option<Timestamp> {
        let mut paused = self.paused_before;
        for op in &self.step_ops {
            match op {
                StepOp::Pause(_, at) if paused.is_none() => paused = time_of(*at),
                StepOp::Resume(..) => paused = None,
                _ => {}
            }
        }
        paused
    }

    /// The hashes an order for the step open after the head may name (`game::step_bases`).
    pub fn open_step_bases(&self) -> Vec<Hash32> {
        match &self.head {
            Some((head, _)) if head.next.is_some() => self.bases.clone(),
            _ => Vec::new(),
        }
    }
}
