//! `pbem process`: resolve the open step once every order it waits for is in.
//!
//! Crash safety: everything a step produces is written under new names first (host state,
//! sealed transcript, used orders, events), and the journal record is written last; the record
//! is the commit point. A run that dies earlier leaves the game before the step, and running
//! again recomputes the very same files, since the host seed is derived and the dice are a
//! function of the seed. Reports and views are derived from the journal and are rewritten.

use super::bots;
use super::config::MissedOrders;
use super::dir;
use super::game::Game;
use super::order;
use super::{Error, views};
use crate::protocol::dice::{DICE_ALGORITHM, bot_entropy, bot_seed, step_seed};
use crate::protocol::envelope::{self, ORDER_NAMESPACE};
use crate::protocol::hash::{Hash32, commitment, sha256};
use crate::protocol::journal::{self, JOURNAL_FORMAT, NextStep, OrderEntry, Record, StepRecord};
use crate::systems::Phase;
use crate::yaml;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Events of one record, public and per side, kept host-side (private ones may name secrets).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepEvents {
    pub public: Vec<String>,
    pub private: BTreeMap<String, Vec<String>>,
}

/// What `process` did.
pub struct Processed {
    pub seq: u64,
    pub step: u64,
    pub title: String,
    pub head: Hash32,
    pub next: Option<NextStep>,
    pub outcome: Option<String>,
}

/// Orders of the open step, as read from the inbox, in seat order.
pub struct StepOrders {
    pub docs: BTreeMap<String, String>,
    pub entries: Vec<OrderEntry>,
    pub raw: Vec<(String, Vec<u8>, Option<Vec<u8>>)>,
}

/// Reads and re-checks the inbox orders of the open step; lists the sides still missing.
pub fn collect(game: &Game, step: &NextStep) -> Result<Result<StepOrders, Vec<String>>, Error> {
    let (orders, missing) = collect_partial(game, step)?;
    Ok(if missing.is_empty() {
        Ok(orders)
    } else {
        Err(missing)
    })
}

/// The orders that are in, and the sides (in seat order) whose orders are missing. A bot seat
/// is never missing: its bot writes its orders when the step is processed.
pub fn collect_partial(game: &Game, step: &NextStep) -> Result<(StepOrders, Vec<String>), Error> {
    let state = game.state()?;
    let mut missing = Vec::new();
    let mut out = StepOrders {
        docs: BTreeMap::new(),
        entries: Vec::new(),
        raw: Vec::new(),
    };
    for side in game.config.side_names() {
        if !step.waiting_for.contains(&side) || game.config.bot_of(&side).is_some() {
            continue;
        }
        let path = game.dir.inbox_order(step.step, &side);
        if !path.exists() {
            missing.push(side);
            continue;
        }
        let sig_path = game.dir.inbox_sig(step.step, &side);
        let env = order::open(&path, sig_path.exists().then_some(sig_path.as_path()))?;
        let checked = order::check(game, &env, step.step, &game.open_step_bases(), &state)?;
        if checked.header.side != side {
            return Err(Error::Fail(format!(
                "{}: holds an order of side {}",
                path.display(),
                checked.header.side
            )));
        }
        out.entries.push(OrderEntry {
            side: side.clone(),
            version: Some(checked.version),
            hash: env.signed.document_hash(),
            dice_entropy: Some(journal::dice_entropy(&checked.entropy)),
            entropy: None,
            earlier: order::earlier_versions(game, step.step, &side)?,
            replaced: Vec::new(),
            bot: None,
        });
        out.raw.push((side.clone(), env.raw, env.raw_sig));
        out.docs.insert(side, env.text);
    }
    Ok((out, missing))
}

/// The order document a side that missed the deadline is given: the system's default orders
/// under the usual header, made by the host, unsigned, with no entropy. `verify` rebuilds it
/// from the state to replay the step.
pub fn default_document(
    game: &Game,
    step: u64,
    basis: &Hash32,
    side: &str,
    state: &str,
) -> Result<String, Error> {
    let orders = game.system.default_orders(game.data()?, state, side)?;
    let mut doc = format!(
        "pbem: {}\ngame: {}\nstep: {step}\nside: {side}\nbasis: {basis}\nentropy: ''\n",
        super::order::ORDER_FORMAT,
        game.config.id
    );
    let orders = orders.trim_end();
    if orders.is_empty() || orders == "{}" {
        doc.push_str("orders: {}\n");
    } else {
        doc.push_str("orders:\n");
        for line in orders.lines() {
            doc.push_str(&format!("  {line}\n").replace("  \n", "\n"));
        }
    }
    Ok(doc)
}

/// How `process` was asked to run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Give every missing side its default orders once the deadline has passed, whatever the
    /// missed-order policy (or at once in a game without deadlines). The host's decision,
    /// recorded in the journal as `defaults`.
    pub force_defaults: bool,
}

/// Resolves the open step of the game in `root`, at the system clock's time.
pub fn process(root: &Path) -> Result<Option<Processed>, Error> {
    process_at(root, jiff::Timestamp::now())
}

/// Resolves the open step; `now` is when the next step opens (recorded host-side for its
/// deadline) and the Date of the mails the step produces.
pub fn process_at(root: &Path, now: jiff::Timestamp) -> Result<Option<Processed>, Error> {
    process_with(root, now, Options::default())
}

/// Resolves the open step when every order is in, or when the deadline (plus grace) has passed
/// and the missed-order policy (or `--force-defaults`) gives the missing sides default orders.
pub fn process_with(
    root: &Path,
    now: jiff::Timestamp,
    opts: Options,
) -> Result<Option<Processed>, Error> {
    let game = Game::open(root)?;
    let _lock = game.dir.lock()?;
    process_locked(root, now, opts)
}

/// At most this many steps that wait for bot seats alone are played after a processed step (a
/// game of bot seats only ends long before; the next `process` goes on).
pub const BOT_STEPS_AT_ONCE: usize = 50;

/// After a processed step: plays the steps that wait for bot seats alone, each with `process`
/// (at most [`BOT_STEPS_AT_ONCE`]), so a person playing against the bot gets the bot's turns
/// from the same `process` run or sweep. Stops at a step that waits for a person, or at the end.
pub fn bot_steps(
    root: &Path,
    mut process: impl FnMut() -> Result<Option<Processed>, Error>,
) -> Result<Vec<Processed>, Error> {
    let mut out = Vec::new();
    for _ in 0..BOT_STEPS_AT_ONCE {
        let game = Game::open(root)?;
        let Some(step) = game.open_step() else {
            break;
        };
        if !step
            .waiting_for
            .iter()
            .all(|s| game.config.bot_of(s).is_some())
        {
            break;
        }
        match process()? {
            Some(p) => out.push(p),
            None => break,
        }
    }
    Ok(out)
}

/// [`process_with`] for a caller that already holds the game's lock (`process --all`).
pub fn process_locked(
    root: &Path,
    now: jiff::Timestamp,
    opts: Options,
) -> Result<Option<Processed>, Error> {
    let game = Game::open(root)?;
    super::ops::recover(&game)?; // finish the derived files of a run that crashed (ops.rs)
    let Some(step) = game.open_step().cloned() else {
        return Ok(None);
    };
    game.require_current_rules()?;
    let (mut orders, missing) = collect_partial(&game, &step)?;
    // (side, bot name) of every side whose orders a bot writes: the bot seats the step waits
    // for, and under `missed_orders: bot` the sides that missed the deadline.
    let mut bots: Vec<(String, String)> = step
        .waiting_for
        .iter()
        .filter_map(|side| Some((side.clone(), game.config.bot_of(side)?.to_string())))
        .collect();
    let mut defaults = Vec::new();
    if !missing.is_empty() {
        let sched = super::schedule::current(&game, now)?.expect("the step is open");
        match super::schedule::due(&game, &sched, &missing, now, opts.force_defaults) {
            super::schedule::Due::AllIn => {}
            super::schedule::Due::Defaults { .. }
                if game.config.missed_orders == MissedOrders::Bot && !opts.force_defaults =>
            {
                bots.extend(
                    missing
                        .iter()
                        .map(|s| (s.clone(), bots::DEFAULT.to_string())),
                );
            }
            super::schedule::Due::Defaults { .. } => {
                let state = game.state()?;
                for side in &missing {
                    let doc = default_document(&game, step.step, &game.head(), side, &state)?;
                    orders.docs.insert(side.clone(), doc);
                }
                defaults = missing;
            }
            super::schedule::Due::NotYet(why) | super::schedule::Due::NeedsHost(why) => {
                return Err(Error::Waiting(why));
            }
        }
    }
    let secrets = game.secrets()?;
    let reveal = journal::host_seed(&secrets.master, step.step);
    if commitment(&reveal) != step.host_commit {
        return Err(Error::Fail(format!(
            "{}: the host seed does not match the commitment published for step {}; host/secrets.yaml is damaged",
            game.dir.secrets().display(),
            step.step
        )));
    }
    if !bots.is_empty() {
        let state = game.state()?;
        let host = crate::protocol::keys::SecretKey::load(&game.dir.host_key(), None)
            .map_err(|e| Error::Fail(e.to_string()))?;
        for (side, name) in &bots {
            let seed = bot_seed(&game.config.id, step.step, &reveal, side);
            let doc = bots::document(
                game.system.as_ref(),
                game.data()?,
                &state,
                &game.config.id,
                step.step,
                side,
                &game.head(),
                name,
                &seed,
            )
            .map_err(|e| Error::Fail(format!("step {} cannot be processed: {e}", step.step)))?;
            let signed = envelope::sign(doc.as_bytes(), &host, ORDER_NAMESPACE)
                .map_err(|e| Error::Fail(format!("signing the bot's orders of {side}: {e}")))?;
            orders.entries.push(OrderEntry {
                side: side.clone(),
                version: Some(1),
                hash: sha256(doc.as_bytes()),
                dice_entropy: Some(journal::dice_entropy(&bot_entropy(&seed))),
                entropy: None,
                earlier: Vec::new(),
                replaced: Vec::new(),
                bot: Some(name.clone()),
            });
            orders.raw.push((side.clone(), signed, None));
            orders.docs.insert(side.clone(), doc);
        }
        // The journal lists orders in seat order.
        let seat_order = game.config.side_names();
        orders
            .entries
            .sort_by_key(|e| seat_order.iter().position(|s| *s == e.side));
    }
    let seats: Vec<(String, Option<Hash32>)> = game
        .config
        .side_names()
        .into_iter()
        .map(|side| {
            let e = orders
                .entries
                .iter()
                .find(|o| o.side == side)
                .and_then(|o| o.seed_part());
            (side, e)
        })
        .collect();
    let seed = step_seed(&game.config.id, step.step, &reveal, &seats);
    let state = game.state()?;
    let res = super::step::resolve(
        game.system.as_ref(),
        game.data()?,
        &state,
        &orders.docs,
        step.step,
        seed,
        secrets.game_key,
    )?;
    let seq = game.last_seq() + 1;
    let sealed_yaml = yaml::encode(&res.dice.sealed)?;
    let (next, outcome) = match res.phase.clone() {
        Phase::Waiting { title, sides } => (
            Some(NextStep {
                step: step.step + 1,
                title,
                waiting_for: sides,
                host_commit: commitment(&journal::host_seed(&secrets.master, step.step + 1)),
            }),
            None,
        ),
        Phase::Finished(o) => (None, Some(o.summary)),
    };
    let mut record = Record {
        pbem: JOURNAL_FORMAT.into(),
        game: game.config.id.clone(),
        seq,
        prev: Some(game.head()),
        genesis: None,
        step: Some(StepRecord {
            number: step.step,
            title: step.title.clone(),
            rules: Some(game.system.rules_version()),
            orders: orders.entries.clone(),
            host_reveal: reveal,
            seed,
            dice_algorithm: DICE_ALGORITHM.into(),
            dice: res.dice.public.clone(),
            sealed_commit: journal::sealed_commit(&secrets.game_key, step.step, &sealed_yaml),
            events: res.public.clone(),
            outcome: outcome.clone(),
            defaults,
            key_commits: res.dice.key_commits.clone(),
            reveals: res.dice.reveals.clone(),
        }),
        conclusion: None,
        host_op: None,
        public_state: res.public_state,
        next: next.clone(),
    };
    record.pbem = game.journal_format(&record).into();

    // Everything under new names first, flushed to disk together; the journal record last, on
    // its own: it is the commit point.
    let events = StepEvents {
        public: res.public,
        private: res.private,
    };
    dir::batched(|| {
        dir::write_private(&game.dir.state(seq), res.state.as_bytes())?;
        dir::write_private(&game.dir.sealed(seq), sealed_yaml.as_bytes())?;
        dir::write_private(&events_path(&game, seq), yaml::encode(&events)?.as_bytes())?;
        for (side, raw, raw_sig) in &orders.raw {
            dir::write_private(&game.dir.used_order(seq, side), raw)?;
            if let Some(s) = raw_sig {
                dir::write_private(&game.dir.used_sig(seq, side), s)?;
            }
        }
        Ok(())
    })?;
    let record_bytes = yaml::encode(&record)?;
    dir::write_atomic(&game.dir.record(seq), record_bytes.as_bytes())?;
    let head = journal::record_hash(record_bytes.as_bytes());
    super::game::remember_record(head, &record);

    // What follows the record is derived from it (recover() redoes what a crash loses), except
    // the opening time of the next step: one flush for all of it.
    let game = dir::batched(|| {
        clear_inbox(&game, step.step)?;
        if let Some(n) = &next {
            // The next step opens now: its deadline counts from here (views and mail show it).
            super::mail::clock::record_opened(&game.dir, n.step, now)?;
        }
        let game = Game::open(root)?;
        game.cache_state(&res.state);
        views::write_report(&game, seq)?;
        views::refresh_newest(&game)?;
        Ok(game)
    })?;
    // Mail is derived like the views: queueing again later (`pbem send`) gives the same messages.
    super::mail::turn::after_record(&game, now).map_err(|e| {
        Error::Fail(format!(
            "step {} was processed (journal head {head}), but its mail could not be queued: {e}; \
             fix that and run `pbem send`, which queues it again",
            step.step
        ))
    })?;
    Ok(Some(Processed {
        seq,
        step: step.step,
        title: step.title,
        head,
        next,
        outcome,
    }))
}

pub fn events_path(game: &Game, seq: u64) -> std::path::PathBuf {
    game.dir
        .host()
        .join("events")
        .join(format!("{seq:06}.yaml"))
}

/// Reads the events of record `seq` (none for genesis).
pub fn read_events(game: &Game, seq: u64) -> Result<StepEvents, Error> {
    let path = events_path(game, seq);
    if !path.exists() {
        return Ok(StepEvents::default());
    }
    yaml::parse(&dir::read_text(&path)?, &path.display().to_string())
        .map_err(|r| Error::Fail(r.to_string()))
}

/// Removes the inbox files of a processed step (they are kept in host/orders/).
fn clear_inbox(game: &Game, step: u64) -> Result<(), Error> {
    let prefix = format!("{step:06}-");
    let inbox = game.dir.inbox();
    let Ok(entries) = std::fs::read_dir(&inbox) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            std::fs::remove_file(entry.path()).map_err(|e| Error::io(&entry.path(), e))?;
        }
    }
    Ok(())
}
