//! Deadlines: when the open step must be answered, and the host operations that move it.
//!
//! A step's deadline follows from when it opened (`host/clock/NNNNNN.yaml`, see
//! `mail::clock`) and game.yaml's `deadline:` (a length of time, and/or a time of day in a
//! zone). Host operations in the journal then change it: `pause` stops the clock, `resume`
//! starts it again and adds the paused time to the deadline, `extend` sets a new deadline for
//! the open step. All of it is computed in UTC from the journal, so every view and mail of a
//! record shows the same deadline whenever it is made. Every function takes `now`: nothing
//! here reads the system clock.

use super::config::{MissedOrders, Zone};
use super::game::Game;
use super::mail::clock;
use super::summary::{StepOp, time_of};
use super::{Error, hostop};
use crate::protocol::journal::{HostOp, Record};
use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use std::path::Path;

/// The deadline of the step open after a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Schedule {
    pub step: u64,
    /// When the step opened (UTC); absent until a command has seen it open.
    pub opened: Option<Timestamp>,
    /// The deadline (UTC); absent without `deadline:` in game.yaml and no extension, or while
    /// the game is paused.
    pub deadline: Option<Timestamp>,
    /// Orders are still taken this long after the deadline.
    #[serde(serialize_with = "ser_duration")]
    pub grace: SignedDuration,
    /// Set while deadlines are paused: since when.
    pub paused_since: Option<Timestamp>,
    /// The host moved this step's deadline with `pbem extend`.
    pub extended: bool,
}

fn ser_duration<S: serde::Serializer>(d: &SignedDuration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{d:#}"))
}

impl Schedule {
    /// When the missed-order policy applies: the deadline plus the grace period.
    pub fn due_at(&self) -> Option<Timestamp> {
        self.deadline.and_then(|d| d.checked_add(self.grace).ok())
    }

    /// One line for people: the deadline in UTC and, when given, in the reader's zone.
    pub fn describe(&self, tz: Option<&Zone>) -> String {
        if let Some(p) = self.paused_since {
            return format!("deadlines are paused (since {})", show(p, tz));
        }
        match self.deadline {
            None => "no deadline".to_string(),
            Some(d) => {
                let mut s = format!("deadline {}", show(d, tz));
                if self.grace.is_positive() {
                    s.push_str(&format!(" (grace {:#})", self.grace));
                }
                if self.extended {
                    s.push_str(" (extended by the host)");
                }
                s
            }
        }
    }
}

/// A time in UTC (RFC 3339), and first in zone `tz` when one is given:
/// `2026-05-04T17:00:00Z (UTC)`, `2026-05-04 13:00 EDT America/New_York (2026-05-04T17:00:00Z)`.
pub fn show(t: Timestamp, tz: Option<&Zone>) -> String {
    match tz {
        Some(z) if z.name() != "UTC" => {
            let local = t.to_zoned(z.0.clone());
            format!("{} {} ({t})", local.strftime("%Y-%m-%d %H:%M %Z"), z.name())
        }
        _ => format!("{t} (UTC)"),
    }
}

fn parse_at(s: &str) -> Option<Timestamp> {
    s.parse().ok()
}

/// Is the game paused after `records`, and since when?
pub fn paused_since(records: &[(Record, crate::protocol::hash::Hash32)]) -> Option<Timestamp> {
    let mut paused = None;
    for (r, _) in records {
        pause_step(&mut paused, r.host_op.as_ref());
    }
    paused
}

/// [`paused_since`] one record further, given the record's host operation.
pub fn pause_step(paused: &mut Option<Timestamp>, op: Option<&HostOp>) {
    match op {
        Some(HostOp::Pause { at, .. }) if paused.is_none() => *paused = parse_at(at),
        Some(HostOp::Resume { .. }) => *paused = None,
        _ => {}
    }
}

/// What the schedule of a step takes from the journal: whether deadlines were paused before
/// the step opened (after the records before `first`, the record that opened it), and the
/// pauses, resumptions and extensions of records `first..=` the one it is computed after.
struct StepRange<'a> {
    first: u64,
    paused_before: Option<Timestamp>,
    ops: std::borrow::Cow<'a, [StepOp]>,
}

/// The schedule of the step open after record `seq` (None once the game is over). Reads the
/// step's opening time from host/clock; does not record it. The newest record's comes from
/// the journal summary; an earlier one's needs every record.
pub fn at_record(game: &Game, seq: u64) -> Result<Option<Schedule>, Error> {
    if seq == game.last_seq() {
        let Some(open) = game.open_step() else {
            return Ok(None);
        };
        let opened = clock::opened(&game.dir, open.step)?;
        return Ok(Some(compute(game, newest_range(game), open.step, opened)));
    }
    let records = game.records_all()?;
    let upto = records
        .iter()
        .position(|(r, _)| r.seq == seq)
        .ok_or_else(|| Error::Fail(format!("there is no journal record {seq}")))?;
    let records = &records[..=upto];
    let Some(open) = records[upto].0.next.as_ref() else {
        return Ok(None);
    };
    // The first record after which this step is open.
    let mut first = upto;
    while first > 0
        && records[first - 1]
            .0
            .next
            .as_ref()
            .is_some_and(|n| n.step == open.step)
    {
        first -= 1;
    }
    let range = StepRange {
        first: first as u64,
        paused_before: paused_since(&records[..first]),
        ops: records[first..]
            .iter()
            .filter_map(|(r, _)| r.host_op.as_ref().and_then(|op| StepOp::of(r.seq, op)))
            .collect::<Vec<_>>()
            .into(),
    };
    let opened = clock::opened(&game.dir, open.step)?;
    Ok(Some(compute(game, range, open.step, opened)))
}

/// The range of the step open after the newest record, from the journal summary.
fn newest_range(game: &Game) -> StepRange<'_> {
    StepRange {
        first: game.journal.first,
        paused_before: game.journal.paused_before,
        ops: game.journal.step_ops.as_slice().into(),
    }
}

/// The schedule of the open step; records `now` as its opening time if none is recorded yet
/// (as the mail commands do). The caller holds the game's lock.
pub fn current(game: &Game, now: Timestamp) -> Result<Option<Schedule>, Error> {
    let Some(open) = game.open_step() else {
        return Ok(None);
    };
    let opened = clock::record_opened(&game.dir, open.step, now)?;
    Ok(Some(compute(
        game,
        newest_range(game),
        open.step,
        Some(opened),
    )))
}

fn compute(game: &Game, range: StepRange<'_>, step: u64, opened: Option<Timestamp>) -> Schedule {
    let config = game.config.deadline.as_ref();
    let grace = config.map(|c| c.grace()).unwrap_or(SignedDuration::ZERO);
    let first = range.first;
    let mut deadline = opened.and_then(|o| config.and_then(|c| c.deadline(o)));
    let mut extended = false;
    let mut paused: Option<Timestamp> = range.paused_before;
    for op in range.ops.iter() {
        match *op {
            StepOp::Pause(_, at) if paused.is_none() => paused = time_of(at),
            StepOp::Resume(i, at) => {
                if let (Some(from), Some(to)) = (paused.take(), time_of(at))
                    && i > first
                {
                    // Only the part of the pause after the step opened moves its deadline.
                    let from = opened.map(|o| o.max(from)).unwrap_or(from);
                    let length = to.duration_since(from);
                    if length.is_positive() {
                        deadline = deadline.and_then(|d| d.checked_add(length).ok());
                    }
                }
            }
            StepOp::Extend(i, s, d) if s == step && i > first => {
                deadline = time_of(d);
                extended = true;
            }
            _ => {}
        }
    }
    Schedule {
        step,
        opened,
        deadline: if paused.is_some() { None } else { deadline },
        grace,
        paused_since: paused,
        extended,
    }
}

/// Whether the open step may be resolved now, given which orders are missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Due {
    /// Every order is in.
    AllIn,
    /// The deadline and grace have passed: resolve with defaults for `missing`, `late` after
    /// the grace period ended.
    Defaults { late: SignedDuration },
    /// Not yet: why, for people.
    NotYet(String),
    /// The deadline passed, but the policy leaves the decision to the host.
    NeedsHost(String),
}

/// Decides what the deadline allows for the open step with `missing` sides.
pub fn due(
    game: &Game,
    sched: &Schedule,
    missing: &[String],
    now: Timestamp,
    force_defaults: bool,
) -> Due {
    if missing.is_empty() {
        return Due::AllIn;
    }
    let waiting = format!(
        "step {} ({}) is waiting for orders from: {}",
        sched.step,
        game.open_step().map(|s| s.title.as_str()).unwrap_or(""),
        missing.join(", ")
    );
    if let Some(p) = sched.paused_since {
        return Due::NotYet(format!(
            "{waiting}; deadlines are paused since {p} (pbem resume)"
        ));
    }
    let Some(due_at) = sched.due_at() else {
        if force_defaults {
            return Due::Defaults {
                late: SignedDuration::ZERO,
            };
        }
        return Due::NotYet(format!("{waiting}; the game has no deadline"));
    };
    if now < due_at {
        return Due::NotYet(format!("{waiting}; {}", sched.describe(None)));
    }
    let late = now.duration_since(due_at);
    match (game.config.missed_orders, force_defaults) {
        // With `bot`, process has the bot write the missing orders instead of the defaults.
        (MissedOrders::Default | MissedOrders::Bot, _) | (_, true) => Due::Defaults { late },
        (MissedOrders::Wait, false) => Due::NotYet(format!(
            "{waiting}; the deadline {due_at} has passed, and missed_orders is `wait`"
        )),
        (MissedOrders::Host, false) => Due::NeedsHost(format!(
            "{waiting}; the deadline {due_at} has passed and missed_orders is `host`: \
             give the missing sides their default orders with `pbem process --force-defaults`, \
             or move the deadline with `pbem extend`"
        )),
    }
}

/// What a pause, resume or extension did.
#[derive(Debug, Clone, Serialize)]
pub struct HostOpDone {
    pub record: u64,
    pub op: String,
    pub schedule: Option<Schedule>,
}

fn run_op(
    root: &Path,
    now: Timestamp,
    make: impl FnOnce(&Game, Option<&Schedule>) -> Result<(HostOp, Vec<String>), Error>,
) -> Result<HostOpDone, Error> {
    let game = Game::open(root)?;
    let _lock = game.dir.lock()?;
    let game = Game::open(root)?;
    super::ops::recover(&game)?; // before its record: see ops::recover
    let sched = current(&game, now)?;
    let (op, mut events) = make(&game, sched.as_ref())?;
    events.insert(0, hostop::describe(&op));
    let name = match &op {
        HostOp::Pause { .. } => "pause",
        HostOp::Resume { .. } => "resume",
        HostOp::Extend { .. } => "extend",
        _ => "host operation",
    };
    let seq = hostop::append(
        &game,
        op,
        game.last_seq(),
        game.open_step().cloned(),
        events,
    )?;
    let game = Game::open(root)?;
    let schedule = at_record(&game, seq)?;
    // The players hear of it like of a step: their view (with the new deadline) by mail.
    super::mail::turn::after_record(&game, now)?;
    Ok(HostOpDone {
        record: seq,
        op: name.into(),
        schedule,
    })
}

fn reason_ok(reason: &str) -> Result<(), Error> {
    if reason.trim().is_empty() {
        return Err(Error::Fail(
            "--reason: say why; it is published in the journal".into(),
        ));
    }
    Ok(())
}

/// `pbem pause`: deadlines stop running.
pub fn pause(root: &Path, reason: &str, now: Timestamp) -> Result<HostOpDone, Error> {
    reason_ok(reason)?;
    run_op(root, now, |game, _| {
        if let Some(p) = game.journal.paused_now() {
            return Err(Error::Fail(format!(
                "the game is already paused (since {p})"
            )));
        }
        if game.open_step().is_none() {
            return Err(Error::Fail("the game is over: nothing to pause".into()));
        }
        Ok((
            HostOp::Pause {
                reason: reason.into(),
                at: now.to_string(),
            },
            vec![format!("deadlines are paused from {now}")],
        ))
    })
}

/// `pbem resume`: deadlines run again, moved by the time the game was paused.
pub fn resume(root: &Path, reason: &str, now: Timestamp) -> Result<HostOpDone, Error> {
    reason_ok(reason)?;
    run_op(root, now, |game, _| {
        let Some(p) = game.journal.paused_now() else {
            return Err(Error::Fail("the game is not paused".into()));
        };
        if now < p {
            return Err(Error::Fail(format!(
                "--now {now} is before the pause began ({p})"
            )));
        }
        Ok((
            HostOp::Resume {
                reason: reason.into(),
                at: now.to_string(),
            },
            vec![format!(
                "deadlines run again from {now}; the open step's deadline moves by {:#}",
                now.duration_since(p)
            )],
        ))
    })
}

/// How `pbem extend` moves the deadline.
pub enum Extension {
    Until(Timestamp),
    By(SignedDuration),
}

/// `--until`: RFC 3339 (`2026-05-04T20:00:00+02:00`, `…Z`) or a time in a named zone
/// (`2026-05-04T20:00[Europe/Oslo]`); stored in UTC.
pub fn parse_time(s: &str) -> Result<Timestamp, Error> {
    if let Ok(t) = s.parse::<Timestamp>() {
        return Ok(t);
    }
    s.parse::<jiff::Zoned>()
        .map(|z| z.timestamp())
        .map_err(|e| {
            Error::Fail(format!(
                "{s:?}: not a time; write RFC 3339 (2026-05-04T20:00:00+02:00) or a time in a zone \
             (2026-05-04T20:00[Europe/Oslo]) ({e})"
            ))
        })
}

/// `pbem extend`: moves the open step's deadline later (never earlier).
pub fn extend(
    root: &Path,
    how: Extension,
    reason: &str,
    now: Timestamp,
) -> Result<HostOpDone, Error> {
    reason_ok(reason)?;
    run_op(root, now, |game, sched| {
        let Some(open) = game.open_step() else {
            return Err(Error::Fail(
                "the game is over: no deadline to extend".into(),
            ));
        };
        let sched = sched.expect("an open step has a schedule");
        if sched.paused_since.is_some() {
            return Err(Error::Fail(
                "the game is paused: resume it first (the paused time is added then)".into(),
            ));
        }
        let new = match how {
            Extension::Until(t) => t,
            Extension::By(d) => sched
                .deadline
                .unwrap_or(now)
                .checked_add(d)
                .map_err(|e| Error::Fail(format!("--by: {e}")))?,
        };
        if let Some(old) = sched.deadline
            && new <= old
        {
            return Err(Error::Fail(format!(
                "the new deadline {new} is not later than the current one ({old}); an extension never shortens a deadline"
            )));
        }
        if new <= now {
            return Err(Error::Fail(format!(
                "the new deadline {new} is not in the future (now {now})"
            )));
        }
        Ok((
            HostOp::Extend {
                step: open.step,
                deadline: new.to_string(),
                reason: reason.into(),
            },
            Vec::new(),
        ))
    })
}
