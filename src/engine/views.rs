//! Per-side views and public reports. Both are derived: a view is the system's view of the
//! newest state for that reader, wrapped in a header with the journal head; a report is a
//! journal record made readable plus the public view. Neither holds anything the reader may
//! not know, so they can be regenerated at any time and must come out byte-identical.

use super::Error;
use super::dir;
use super::game::Game;
use super::process::read_events;
use crate::protocol::hash::Hash32;
use crate::protocol::journal::Record;
use crate::systems::Reader;
use serde::Serialize;

#[derive(Serialize)]
struct ViewHeader<'a> {
    pbem: &'static str,
    game: &'a str,
    system: &'a str,
    side: &'a str,
    /// Journal head: the `basis` of your next order.
    head: String,
    record: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    step_title: Option<&'a str>,
    waiting_for: Vec<String>,
    you_must_submit: bool,
    events: Vec<String>,
}

/// The view of `side` after the newest record, as (yaml, text).
pub fn side_view(game: &Game, side: &str) -> Result<(String, String), Error> {
    side_view_at(game, side, game.last_seq())
}

/// The view of `side` as it was right after journal record `seq`.
pub fn side_view_at(game: &Game, side: &str, seq: u64) -> Result<(String, String), Error> {
    let (record, head) = game.record(seq)?;
    let state = dir::read_text(&game.dir.state(seq))?;
    let rendered = game
        .system
        .view(game.data()?, &state, &Reader::Side(side.to_string()))?;
    let events = view_events(game, seq, &Reader::Side(side.to_string()))?;
    let yaml = view_yaml(game, side, seq, record, head, &rendered.yaml, &events)?;
    let next = record.next.as_ref();
    let mut text = String::new();
    text.push_str(&format!(
        "pbem view: game {} ({}), side {side}\n",
        game.config.id,
        game.system.title()
    ));
    text.push_str(&format!(
        "journal head: {head}  (the basis of your next order)\n"
    ));
    text.push_str(&status_line(next, side));
    if let Some(sc) = super::schedule::at_record(game, seq)?
        && (sc.deadline.is_some() || sc.paused_since.is_some())
    {
        let tz = game.config.seat(side).and_then(|s| s.tz.as_ref());
        text.push_str(&format!("{}\n", sc.describe(tz)));
    }
    text.push_str(&events_block(&events));
    text.push('\n');
    text.push_str(&rendered.text);
    Ok((yaml, text))
}

/// The YAML of `side`'s view of `record` (number `seq`, whose file hashes to `head`): the
/// header, then `board`, the system's view of the state after it. `events` are the view's
/// ([`view_events`]). What [`side_view_at`] writes, for a verifier that has the state and
/// events at hand and needs no text.
pub fn view_yaml(
    game: &Game,
    side: &str,
    seq: u64,
    record: &Record,
    head: &Hash32,
    board: &str,
    events: &[String],
) -> Result<String, Error> {
    let next = record.next.as_ref();
    let waiting: Vec<String> = next.map(|n| n.waiting_for.clone()).unwrap_or_default();
    let header = ViewHeader {
        pbem: "view/1",
        game: &game.config.id,
        system: &game.config.system,
        side,
        head: head.hex(),
        record: seq,
        step: next.map(|n| n.step),
        step_title: next.map(|n| n.title.as_str()),
        you_must_submit: waiting.iter().any(|s| s == side),
        waiting_for: waiting,
        events: events.to_vec(),
    };
    Ok(format!(
        "{}board:\n{}",
        crate::yaml::encode(&header)?,
        indent(board)
    ))
}

/// The events a view of record `seq` lists for `reader`: the record's public events, then a
/// side's own, marked `(only you)` (the view's `events:`; a picture is drawn from them too).
pub fn view_events(game: &Game, seq: u64, reader: &Reader) -> Result<Vec<String>, Error> {
    Ok(events_for(&read_events(game, seq)?, reader))
}

/// The lines of a record's events `ev` that `reader`'s view lists ([`view_events`]).
pub fn events_for(ev: &super::process::StepEvents, reader: &Reader) -> Vec<String> {
    let mut events = ev.public.clone();
    if let Reader::Side(side) = reader
        && let Some(mine) = ev.private.get(side)
    {
        events.extend(mine.iter().map(|e| format!("(only you) {e}")));
    }
    events
}

fn status_line(next: Option<&crate::protocol::journal::NextStep>, side: &str) -> String {
    match next {
        Some(n) => {
            let you = if n.waiting_for.iter().any(|s| s == side) {
                "  <- your orders are needed"
            } else {
                ""
            };
            format!(
                "open step {}: {}; waiting for {}{you}\n",
                n.step,
                n.title,
                n.waiting_for.join(", ")
            )
        }
        None => "the game is over\n".to_string(),
    }
}

fn events_block(events: &[String]) -> String {
    if events.is_empty() {
        return String::new();
    }
    let mut s = String::from("\nwhat happened:\n");
    for e in events {
        s.push_str(&format!("  - {e}\n"));
    }
    s
}

fn indent(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        if !line.is_empty() {
            out.push_str("  ");
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The public report of record `seq`: what happened, then the public board.
pub fn report_text(game: &Game, seq: u64) -> Result<String, Error> {
    let state = dir::read_text(&game.dir.state(seq))?;
    let public = game.system.view(game.data()?, &state, &Reader::Public)?;
    Ok(report_from(&report_summary(game, seq)?, &public.text))
}

/// [`report_text`] of a record of `records` (a verifier's own reading of the journal), with
/// `state`, the state after the record (`host/state/`, or `archive/state/` once published).
pub fn report_text_of(
    game: &Game,
    records: &[(Record, Hash32)],
    seq: u64,
    state: &str,
) -> Result<String, Error> {
    let public = game.system.view(game.data()?, state, &Reader::Public)?;
    Ok(report_from(
        &report_summary_of(game, records, seq)?,
        &public.text,
    ))
}

/// A report is its summary, an empty line, then the public board.
fn report_from(summary: &str, board: &str) -> String {
    format!("{summary}\n{board}")
}

/// The part of record `seq`'s report that comes before the board, with the line that separates
/// them: computed from the journal and game.yaml alone, so anyone can check it.
pub fn report_head_of(
    game: &Game,
    records: &[(Record, Hash32)],
    seq: u64,
) -> Result<String, Error> {
    Ok(report_from(&report_summary_of(game, records, seq)?, ""))
}

/// The report of record `seq` without the board: orders, seed, events and dice.
pub fn report_summary(game: &Game, seq: u64) -> Result<String, Error> {
    let (record, hash) = game.record(seq)?;
    Ok(summary_of_record(game, record, hash, seq))
}

/// [`report_summary`] of a record of `records`.
pub fn report_summary_of(
    game: &Game,
    records: &[(Record, Hash32)],
    seq: u64,
) -> Result<String, Error> {
    let (record, hash) = records
        .iter()
        .find(|(r, _)| r.seq == seq)
        .ok_or_else(|| Error::Fail(format!("there is no journal record {seq}")))?;
    Ok(summary_of_record(game, record, hash, seq))
}

/// [`report_summary`] of `record`, whose file hashes to `hash`.
fn summary_of_record(game: &Game, record: &Record, hash: &Hash32, seq: u64) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "pbem report: game {} ({}), record {seq}\n",
        game.config.id,
        game.system.title()
    ));
    s.push_str(&format!("record hash: {hash}\n"));
    s.push_str(&record_summary(record));
    match &record.next {
        Some(n) => s.push_str(&format!(
            "next: step {} ({}), waiting for {}\n",
            n.step,
            n.title,
            n.waiting_for.join(", ")
        )),
        None => s.push_str("the game is over\n"),
    }
    s
}

fn record_summary(record: &Record) -> String {
    let mut s = String::new();
    if let Some(g) = &record.genesis {
        s.push_str(&format!(
            "game created: {} scenario {}; dice {}\n",
            g.system, g.scenario, g.dice
        ));
        for seat in &g.seats {
            s.push_str(&format!("  seat {}: {}\n", seat.side, seat.key));
        }
    }
    if let Some(op) = &record.host_op {
        s.push_str(&format!(
            "host operation: {}\n",
            super::hostop::describe(op)
        ));
    }
    if let Some(c) = &record.conclusion {
        s.push_str("game concluded: the host's secrets are revealed and archive/ is published\n");
        s.push_str(&format!(
            "  master seed {}\n  game key    {}\n  archive manifest {}\n",
            c.master, c.game_key, c.archive
        ));
        s.push_str("  anyone can now replay every step and sealed draw: pbem verify --full\n");
    }
    if let Some(st) = &record.step {
        s.push_str(&format!("step {}: {}\n", st.number, st.title));
        for o in &st.orders {
            let version = o
                .version
                .map(|v| format!("version {v}, "))
                .unwrap_or_default();
            s.push_str(&format!(
                "  order of {}: {} ({version}{} {})\n",
                o.side,
                o.hash,
                if o.dice_entropy.is_some() {
                    "dice entropy"
                } else {
                    "entropy"
                },
                o.seed_part().map(|e| e.short()).unwrap_or_default()
            ));
            if let Some(bot) = &o.bot {
                s.push_str(&format!(
                    "    WRITTEN BY THE BOT ({bot}): the host's bot wrote these orders from {}'s view, \
                     signed by the host key; anyone with the state can recompute them (pbem verify)\n",
                    o.side
                ));
            }
            for e in &o.earlier {
                s.push_str(&format!(
                    "    replaced earlier version {}: {}\n",
                    e.version, e.hash
                ));
            }
            for r in &o.replaced {
                s.push_str(&format!("    replaced earlier order {r}\n"));
            }
        }
        for side in &st.defaults {
            s.push_str(&format!(
                "  {side} missed the deadline: DEFAULT ORDERS (the system's, made by the host, unsigned; no entropy)\n"
            ));
        }
        s.push_str(&format!(
            "  host reveal {}\n  step seed {}\n",
            st.host_reveal, st.seed
        ));
        s.push_str(&events_block(&st.events));
        if !st.dice.is_empty() {
            s.push_str(&format!(
                "\ndice ({}; recompute any with `pbem dice`):\n",
                st.dice_algorithm
            ));
            for d in &st.dice {
                let vals: Vec<String> = d.values.iter().map(|v| v.to_string()).collect();
                let result = if d.result.is_empty() {
                    String::new()
                } else {
                    format!("  {}", d.result)
                };
                s.push_str(&format!(
                    "  {}: {} [{}]{result}\n",
                    d.label,
                    d.notation(),
                    vals.join(", ")
                ));
            }
        }
        if let Some(o) = &st.outcome {
            s.push_str(&format!("\nresult: {o}\n"));
        }
    }
    s
}

pub fn write_report(game: &Game, seq: u64) -> Result<(), Error> {
    dir::write_atomic(&game.dir.report(seq), report_text(game, seq)?.as_bytes())
}

/// Rewrites every side's view (and any report missing after a crash) from the journal.
pub fn refresh(game: &Game) -> Result<(), Error> {
    let records = game.records_all()?;
    for (record, _) in records {
        if !game.dir.report(record.seq).exists() {
            write_report(game, record.seq)?;
        }
    }
    let last = game.last_seq();
    for side in game.config.side_names() {
        // Every record's view is kept, so a player can compare what they were sent with what the
        // journal gives, and `verify` can check every view ever written.
        for (record, _) in records {
            let path = game.dir.view_of_record(&side, record.seq);
            if record.seq != last && !path.exists() {
                let (yaml, _) = side_view_at(game, &side, record.seq)?;
                dir::write_atomic(&path, yaml.as_bytes())?;
            }
        }
    }
    refresh_newest(game)
}

/// The newest record's views, after a command that wrote that record (and its report): the
/// files of every earlier record are complete (`ops::recover` ran before the record was
/// appended), so this costs the same at record 300 as at record 3.
pub fn refresh_newest(game: &Game) -> Result<(), Error> {
    let last = game.last_seq();
    for side in game.config.side_names() {
        // The newest view, rendered once: its record's file, the text, and view.yaml last, so
        // that view.yaml equal to the newest record's view means this side is up to date
        // ([`is_current`]).
        let (yaml, text) = side_view(game, &side)?;
        let dir = game.dir.views(&side);
        let newest = game.dir.view_of_record(&side, last);
        dir::write_atomic(&newest, yaml.as_bytes())?;
        dir::write_atomic(&dir.join("view.txt"), text.as_bytes())?;
        dir::link_atomic(&newest, &dir.join("view.yaml"), yaml.as_bytes())?;
    }
    Ok(())
}

/// Whether `side`'s views were written by a [`refresh`] after the newest record: without
/// rendering anything (a process run checks this before it starts).
pub fn is_current(game: &Game, side: &str) -> bool {
    let dir = game.dir.views(side);
    let newest = dir::read(&game.dir.view_of_record(side, game.last_seq()));
    newest.is_ok()
        && dir::read(&dir.join("view.yaml")).ok() == newest.ok()
        && dir.join("view.txt").exists()
}
