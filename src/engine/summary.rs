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
    /// The hashes of the records `first..len`, oldest first, in hex, one after the other:
    /// read as one string, and decoded only where an order is checked ([`Summary::bases`]).
    pub bases: String,
    /// Whether deadlines were paused after the records before `first`, and since when
    /// (`schedule::paused_since`).
    pub paused_before: Option<Timestamp>,
    /// The pauses, resumptions and extensions among the records `first..len`: what moves the
    /// open step's deadline (`schedule`), each a few numbers, stored as one line of text
    /// ([`StepOp::write`]): a long pause-and-resume history within one step costs little to read.
    #[serde(with = "step_ops_text")]
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

impl StepOp {
    /// `P` or `R` SEQ TIME, or `E` SEQ STEP TIME; TIME is `SECONDS.NANOSECONDS`, or `-`.
    fn write(&self, out: &mut String) {
        use std::fmt::Write;
        let (kind, seq, step, at) = match self {
            StepOp::Pause(seq, at) => ('P', seq, None, at),
            StepOp::Resume(seq, at) => ('R', seq, None, at),
            StepOp::Extend(seq, step, at) => ('E', seq, Some(step), at),
        };
        // Writing to a String does not fail.
        let _ = write!(out, "{kind} {seq} ");
        if let Some(step) = step {
            let _ = write!(out, "{step} ");
        }
        let _ = match at {
            Some((s, n)) => write!(out, "{s}.{n}"),
            None => write!(out, "-"),
        };
    }

    /// The ops [`StepOp::write`] wrote, separated by `;`. Read byte by byte: a game paused and
    /// resumed many times within one step has many of them, read by every sweep.
    fn parse_all(text: &str) -> Option<Vec<StepOp>> {
        let mut r = Reader(text.as_bytes());
        let mut ops = Vec::new();
        while !r.0.is_empty() {
            if !ops.is_empty() {
                r.byte(b';')?;
            }
            let kind = r.next()?;
            r.byte(b' ')?;
            let seq = r.number()?;
            if kind == b'E' {
                r.byte(b' ')?;
                let step = r.number()?;
                r.byte(b' ')?;
                ops.push(StepOp::Extend(seq, step, r.time()?));
                continue;
            }
            r.byte(b' ')?;
            let at = r.time()?;
            ops.push(match kind {
                b'P' => StepOp::Pause(seq, at),
                b'R' => StepOp::Resume(seq, at),
                _ => return None,
            });
        }
        Some(ops)
    }
}

/// What [`StepOp::parse_all`] has left to read.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn next(&mut self) -> Option<u8> {
        let (first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(*first)
    }

    fn byte(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    /// Digits, at least one, that fit a u64.
    fn number(&mut self) -> Option<u64> {
        let mut n: u64 = 0;
        let mut digits = 0;
        for &b in self.0 {
            if !b.is_ascii_digit() {
                break;
            }
            n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
            digits += 1;
        }
        if digits == 0 {
            return None;
        }
        self.0 = &self.0[digits..];
        Some(n)
    }

    /// A [`Reader::number`], possibly negative, that fits an i64.
    fn signed(&mut self) -> Option<i64> {
        let negative = self.0.first() == Some(&b'-');
        if negative {
            self.0 = &self.0[1..];
        }
        let n = i64::try_from(self.number()?).ok()?;
        Some(if negative { -n } else { n })
    }

    /// `-` (no time) or `SECONDS.NANOSECONDS`, both signed (before 1970 both are negative).
    fn time(&mut self) -> Option<Option<(i64, i32)>> {
        if self.0.first() == Some(&b'-') && self.0.get(1).is_none_or(|b| !b.is_ascii_digit()) {
            self.0 = &self.0[1..];
            return Some(None);
        }
        let secs = self.signed()?;
        self.byte(b'.')?;
        let nanos = i32::try_from(self.signed()?).ok()?;
        Some(Some((secs, nanos)))
    }
}

/// [`Summary::step_ops`] as one string, each op as [`StepOp::write`] writes it, then `;`.
mod step_ops_text {
    use super::StepOp;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(ops: &[StepOp], s: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(32 * ops.len());
        for (i, op) in ops.iter().enumerate() {
            if i > 0 {
                text.push(';');
            }
            op.write(&mut text);
        }
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<StepOp>, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        StepOp::parse_all(&text)
            .ok_or_else(|| D::Error::custom(format!("not step operations: {text:?}")))
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
            bases: String::new(),
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
        self.bases.push_str(&hash.hex());
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
            Some((head, _)) if head.next.is_some() => self.bases(),
            _ => Vec::new(),
        }
    }

    /// The hashes of the records `first..len`, oldest first. (Hex that does not read, which
    /// pbem never writes, gives no hash: no order can name it.)
    pub fn bases(&self) -> Vec<Hash32> {
        self.bases
            .as_bytes()
            .chunks(64)
            .filter_map(|hex| std::str::from_utf8(hex).ok()?.parse().ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Wrap(#[serde(with = "step_ops_text")] Vec<StepOp>);

    #[test]
    fn step_ops_read_back_as_written() {
        let ops = vec![
            StepOp::Pause(3, Some((1_764_000_000, 123_456_789))),
            StepOp::Resume(4, None),
            StepOp::Extend(5, 2, Some((-86_400, -500_000_000))),
            StepOp::Pause(6, Some((0, 0))),
        ];
        let json = serde_json::to_string(&Wrap(ops.clone())).unwrap();
        assert!(
            json.contains("P 3 1764000000.123456789;R 4 -;E 5 2 -86400.-500000000"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Wrap>(&json).unwrap().0, ops);
        assert_eq!(StepOp::parse_all(""), Some(Vec::new()));
    }

    #[test]
    fn step_ops_that_do_not_read_are_refused() {
        for text in [
            "P",
            "P 3",
            "P 3 ",
            "X 3 -",
            "P 3 1.2;",
            "P 3 1.2 ",
            "E 3 -",
            "P 99999999999999999999 -",
            "P 3 1.99999999999",
            "P 3 --",
        ] {
            assert_eq!(StepOp::parse_all(text), None, "{text:?}");
        }
    }
}
