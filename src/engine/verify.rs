//! `pbem verify`: the audit of DESIGN section 2, offline, failing on any discrepancy with the
//! record and field where it is.
//!
//! - public (anyone, journal + game.yaml + reports): journal/ holds the chain and nothing else,
//!   hash chain, host commitments against reveals, step seeds, every public die; every record
//!   has a report, reports/ holds nothing else, and each report is byte for byte what the
//!   journal gives up to its board.
//! - player (with the player's own order files and receipts): each order is in the journal with
//!   the same hash and entropy; each receipt is signed by the host key and matches the journal.
//! - host (when host/ is present): every stored order's signature and binding, every receipt,
//!   the host secrets against their commitments, and a replay of every step from the stored
//!   states, checking state, dice, sealed draws, events, the current views and every report's
//!   board (the public view of the state, which the public files only pin by its hash).

use super::dir;
use super::game::{Game, Secrets};
use super::order;
use super::par;
use super::process::{StepEvents, read_events};
use super::{Error, views};
use crate::protocol::dice::{bot_seed, replay_public, sealed_key_commit, step_seed};
use crate::protocol::envelope::{self, ORDER_NAMESPACE};
use crate::protocol::hash::{Hash32, commitment, sha256};
use crate::protocol::journal::{
    self, HostOp, JOURNAL_FORMAT, JOURNAL_FORMAT_V1, JOURNAL_FORMAT_V2, JOURNAL_FORMAT_V4,
    JOURNAL_FORMAT_V5, OrderEntry, Record,
};
use crate::systems::Reader;
use crate::yaml;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What was checked, for the summary line.
#[derive(Debug, Default)]
pub struct Tally {
    pub records: usize,
    pub dice: usize,
    pub orders: usize,
    pub receipts: usize,
    pub replayed_steps: usize,
    pub sealed_draws: usize,
    /// Sealed draws of earlier steps revealed with their keys (journal/5), each checked
    /// against its key.
    pub reveals: usize,
    pub player_files: usize,
    pub views: usize,
    /// Reports checked up to their board (from the journal alone), and those whose board was
    /// checked too (that needs the states of host/ or archive/).
    pub reports: usize,
    pub report_boards: usize,
    /// Where the host-level checks read from: "host", "archive", or "" when they did not run.
    pub source: &'static str,
    /// What could not be checked with this pbem and why (records resolved by other rules than
    /// this pbem's): not a failure, said so the reader knows what was left out.
    pub notes: Vec<String>,
}

impl Tally {
    /// Adds what another part of the check counted (its notes after this one's).
    fn absorb(&mut self, other: Tally) {
        self.records += other.records;
        self.dice += other.dice;
        self.orders += other.orders;
        self.receipts += other.receipts;
        self.replayed_steps += other.replayed_steps;
        self.sealed_draws += other.sealed_draws;
        self.reveals += other.reveals;
        self.player_files += other.player_files;
        self.views += other.views;
        self.reports += other.reports;
        self.report_boards += other.report_boards;
        self.notes.extend(other.notes);
    }
}

pub struct Options {
    /// Player-level evidence: order files (signed, or with .sig beside them) and receipts.
    pub player_files: Vec<PathBuf>,
    /// Skip the host-level checks even when host/ or archive/ is present.
    pub public_only: bool,
    /// Demand the full replay: fail when neither host/ nor a published archive/ is there.
    pub full: bool,
}

pub fn verify(root: &Path, opts: &Options) -> Result<Tally, Error> {
    let game = Game::open_for_audit(root)?;
    let mut findings = Vec::new();
    let mut tally = Tally::default();
    let records = read_records(&game, &mut findings);
    tally.records = records.len();
    let archive = game.with_dir(game.dir.from_archive())?;
    let source = if opts.public_only {
        None
    } else if game.is_host() {
        Some((&game, "host"))
    } else if archive.is_host() {
        Some((&archive, "archive"))
    } else {
        None
    };
    // The replay runs beside the public checks (they share nothing but what both read), and
    // its findings count only when the public checks found nothing: a replay of a journal
    // that is not sound says nothing more, as when the two ran one after the other.
    let replayed = std::thread::scope(|scope| {
        let replay = source.filter(|_| !records.is_empty()).map(|(g, _)| {
            scope.spawn(|| {
                let (mut findings, mut tally) = (Vec::new(), Tally::default());
                replay_and_derived(g, &records, &mut findings, &mut tally);
                (findings, tally)
            })
        });
        check_public(&game, &records, &mut findings, &mut tally);
        for file in &opts.player_files {
            check_player_file(&game, &records, file, &mut findings);
            tally.player_files += 1;
        }
        check_archive_manifest(&game, &records, &mut findings);
        check_reports(&game, &records, &mut findings, &mut tally);
        replay.map(|handle| handle.join())
    });
    if findings.is_empty() {
        match (source, replayed) {
            (Some((_, name)), Some(Ok((theirs, their_tally)))) => {
                tally.source = name;
                findings.extend(theirs);
                tally.absorb(their_tally);
            }
            (Some(_), Some(Err(_))) => {
                findings.push("internal error (panic) while replaying the game".into())
            }
            (Some(_), None) => {}
            (None, _) if opts.full && !opts.public_only => findings.push(
                "no host/ and no archive/: a full replay needs the sealed archive that `pbem conclude` publishes when the game is over".into(),
            ),
            (None, _) => {}
        }
    }
    if findings.is_empty() {
        Ok(tally)
    } else {
        Err(Error::Verify(findings))
    }
}

fn rec_name(seq: u64) -> String {
    format!("journal/{}", journal::file_name(seq))
}

/// Reads the journal as a verifier: a damaged record is a finding, not a crash, and so is any
/// file in journal/ that is not part of the chain (a record after a gap, another name); a
/// leftover `.tmp*` file of an interrupted write is not a record and is passed over
/// (`game::journal_strays`).
fn read_records(game: &Game, findings: &mut Vec<String>) -> Arc<Vec<(Record, Hash32)>> {
    match super::game::journal_strays(&game.dir) {
        Ok(strays) => findings.extend(
            strays
                .into_iter()
                .map(|(name, why)| format!("journal/{name}: {why}")),
        ),
        Err(e) => findings.push(format!("journal/: cannot be listed: {e}")),
    }
    // `Game::open_for_audit` read every record a moment ago, as strictly as below; only a
    // journal it could not read whole is read again here, to say what is wrong with it.
    if let Some(records) = game.all_records.get().filter(|r| !r.is_empty()) {
        return records.clone();
    }
    let mut out = Vec::new();
    for seq in 0.. {
        let path = game.dir.record(seq);
        if !path.exists() {
            break;
        }
        let name = rec_name(seq);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                findings.push(format!("{name}: cannot read: {e}"));
                break;
            }
        };
        // As `Game::open` reads it: a record that is not UTF-8 is refused, not repaired.
        let Ok(text) = String::from_utf8(bytes) else {
            findings.push(format!("{name}: not UTF-8 text"));
            break;
        };
        let hash = journal::record_hash(text.as_bytes());
        // Game::open_for_audit parsed the same bytes a moment ago.
        if let Some(r) = super::game::parsed_record(&hash) {
            out.push((r, hash));
            continue;
        }
        match yaml::parse::<Record>(&text, &name) {
            Ok(r) => out.push((r, hash)),
            Err(r) => {
                findings.push(format!("{r}"));
                break;
            }
        }
    }
    Arc::new(out)
}

/// Reports are published and mailed, and derived: each must be the bytes pbem gives for its
/// record. Every record needs its report, and reports/ holds nothing else (a leftover `.tmp*`
/// file of an interrupted write is passed over, as in journal/). From the public files alone
/// the part before the board is checked (it is the journal made readable); the board is the
/// rendering of the public view of the state, which the public files only pin by its hash, so
/// [`Derived`] checks it where the states are.
fn check_reports(
    game: &Game,
    records: &[(Record, Hash32)],
    findings: &mut Vec<String>,
    tally: &mut Tally,
) {
    let folder = game.dir.reports();
    match std::fs::read_dir(&folder) {
        Err(e) => findings.push(format!("reports/: cannot be listed: {e}")),
        Ok(entries) => {
            let mut names: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect();
            names.sort();
            for name in names {
                if name.starts_with(".tmp") {
                    continue;
                }
                let seq = name
                    .strip_suffix(".txt")
                    .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|d| d.parse::<u64>().ok())
                    .filter(|seq| format!("{seq:06}.txt") == name);
                match seq {
                    Some(seq) if records.iter().any(|(r, _)| r.seq == seq) => {}
                    Some(seq) => findings.push(format!(
                        "reports/{name}: a report for {}, which is not in the journal",
                        rec_name(seq)
                    )),
                    None => findings.push(format!(
                        "reports/{name}: not a report: reports are named NNNNNN.txt after their journal record, and nothing else belongs in reports/"
                    )),
                }
            }
        }
    }
    for (rec, _) in records {
        let file = format!("reports/{:06}.txt", rec.seq);
        let want = match views::report_head_of(game, records, rec.seq) {
            Ok(w) => w,
            Err(e) => {
                findings.push(format!("{file}: cannot be regenerated: {e}"));
                continue;
            }
        };
        tally.reports += 1;
        match std::fs::read(game.dir.report(rec.seq)) {
            Err(_) => findings.push(format!(
                "{file}: missing: {} has no report (`pbem process` or any host operation rewrites it)",
                rec_name(rec.seq)
            )),
            Ok(bytes) if bytes.starts_with(want.as_bytes()) => {}
            Ok(_) => findings.push(format!(
                "{file}: differs from the report of {} (in the part before the board)",
                rec_name(rec.seq)
            )),
        }
    }
}

fn check_public(
    game: &Game,
    records: &[(Record, Hash32)],
    findings: &mut Vec<String>,
    tally: &mut Tally,
) {
    if records.first().is_some_and(|(r, _)| r.genesis.is_some()) {
        findings.extend(super::ops::seat_findings(game, records));
    }
    let running_rules = journal::rules_after_each(records.iter().map(|(r, _)| r));
    // The component data is public: its bytes must be those the journal pins.
    if let Some(pinned) = journal::data_after(records.iter().map(|(r, _)| r)) {
        match std::fs::read(game.dir.data()) {
            Ok(bytes) if sha256(&bytes) == pinned => {}
            Ok(_) => findings.push(format!(
                "data.yaml: its SHA-256 differs from {pinned}, which the journal pins (genesis.data or the last upgrade)"
            )),
            Err(e) => findings.push(format!("data.yaml: cannot be read: {e}")),
        }
    }
    check_earlier_data(game, records, findings, tally);
    let sides = game.config.side_names();
    for (i, (rec, _)) in records.iter().enumerate() {
        let name = rec_name(i as u64);
        if rec.seq != i as u64 {
            findings.push(format!("{name}: seq: says {}, expected {i}", rec.seq));
        }
        if rec.game != game.config.id {
            findings.push(format!(
                "{name}: game: says {:?}, game.yaml says {:?}",
                rec.game, game.config.id
            ));
        }
        check_format(records, i, &name, findings);
        check_one_kind(rec, i, &name, findings);
        if i == 0 {
            check_genesis(game, rec, &name, findings);
            continue;
        }
        let (prev, prev_hash) = &records[i - 1];
        if rec.prev != Some(*prev_hash) {
            findings.push(format!(
                "{name}: prev: says {}, but the hash of {} is {prev_hash}",
                rec.prev
                    .map(|h| h.hex())
                    .unwrap_or_else(|| "nothing".into()),
                rec_name(i as u64 - 1)
            ));
        }
        if let Some(c) = &rec.conclusion {
            check_conclusion(records, i, c, &name, findings);
            check_kept_public_state(records, i, i - 1, &name, findings);
            if rec.step.is_none() {
                continue;
            }
        }
        if let Some(op) = &rec.host_op {
            check_host_op(records, i, op, &name, findings);
            match op {
                // The state after an earlier record (checked against the records alone), or
                // a state carried over to new rules (checked by the replay).
                HostOp::Rollback { to_record, .. } if (*to_record as usize) < i => {
                    check_kept_public_state(records, i, *to_record as usize, &name, findings)
                }
                HostOp::Rollback { .. } | HostOp::Upgrade { .. } => {}
                _ => check_kept_public_state(records, i, i - 1, &name, findings),
            }
            // A record that also holds a step (a finding of check_one_kind) still has it
            // checked: nothing in a record goes unseen.
            if rec.step.is_none() {
                continue;
            }
        }
        let Some(st) = &rec.step else {
            findings.push(format!(
                "{name}: step: missing (only the genesis and conclusion records may omit it)"
            ));
            continue;
        };
        let Some(opened) = &prev.next else {
            findings.push(format!("{name}: follows a record that closed the game"));
            continue;
        };
        let running = running_rules[i - 1].0;
        if st.rules_version() != running {
            findings.push(format!(
                "{name}: step.rules: {}, but the game ran rules {running} (only `pbem host upgrade` changes them)",
                st.rules_version()
            ));
        }
        if st.number != opened.step {
            findings.push(format!(
                "{name}: step.number: says {}, the open step was {}",
                st.number, opened.step
            ));
        }
        if commitment(&st.host_reveal) != opened.host_commit {
            findings.push(format!(
                "{name}: step.host_reveal: does not match the commitment {} published in {}",
                opened.host_commit,
                rec_name(i as u64 - 1)
            ));
        }
        for o in &st.orders {
            if !opened.waiting_for.contains(&o.side) {
                findings.push(format!(
                    "{name}: step.orders: an order of {}, but the step waited for {}",
                    o.side,
                    opened.waiting_for.join(", ")
                ));
            }
        }
        for w in &opened.waiting_for {
            let ordered = st.orders.iter().any(|o| &o.side == w);
            let defaulted = st.defaults.iter().filter(|d| *d == w).count();
            if ordered && defaulted > 0 {
                findings.push(format!(
                    "{name}: step.defaults: {w} has an order and is also listed as given default orders"
                ));
            } else if defaulted > 1 {
                findings.push(format!("{name}: step.defaults: {w} appears twice"));
            } else if !ordered && defaulted == 0 {
                findings.push(format!(
                    "{name}: step.orders: no order of {w}, which the step waited for"
                ));
            }
        }
        // A bot seat's orders are its bot's: never a player's, never another bot's.
        for o in &st.orders {
            if let Some(bot) = bot_seat(records, &o.side)
                && o.bot.as_deref() != Some(bot)
            {
                findings.push(format!(
                    "{name}: step.orders: {} is played by the {bot} bot (genesis), but its order is {}",
                    o.side,
                    match &o.bot {
                        Some(other) => format!("the {other} bot's"),
                        None => "not a bot's".to_string(),
                    }
                ));
            }
        }
        for d in &st.defaults {
            if !opened.waiting_for.contains(d) {
                findings.push(format!(
                    "{name}: step.defaults: {d}, but the step waited for {}",
                    opened.waiting_for.join(", ")
                ));
            }
        }
        let seats: Vec<(String, Option<Hash32>)> = sides
            .iter()
            .map(|s| {
                (
                    s.clone(),
                    st.orders
                        .iter()
                        .find(|o| &o.side == s)
                        .and_then(|o| o.seed_part()),
                )
            })
            .collect();
        let seed = step_seed(&game.config.id, st.number, &st.host_reveal, &seats);
        if seed != st.seed {
            findings.push(format!(
                "{name}: step.seed: says {}, recomputed {seed}",
                st.seed
            ));
        }
        let mut labels = std::collections::BTreeSet::new();
        for (k, roll) in st.dice.iter().enumerate() {
            tally.dice += 1;
            if !labels.insert(roll.label.clone()) {
                findings.push(format!(
                    "{name}: step.dice[{k}]: label {} appears twice",
                    roll.label
                ));
            }
            let (values, _) = replay_public(&seed, &roll.label, roll.values.len(), roll.faces);
            if values != roll.values {
                findings.push(format!(
                    "{name}: step.dice[{k}] ({}): journal says {:?}, recomputed {:?}",
                    roll.label, roll.values, values
                ));
            }
        }
        check_reveals(records, i, &name, findings, tally);
    }
}

/// Each key commitment of record `i` (journal/5) names a label once; each sealed reveal must
/// name a step an earlier record resolved and whose record committed to this key for this
/// label, once, and hold the values its key gives for its ranges: so anyone can check a revealed
/// draw (a turn's deck order) as soon as it is published, against a key fixed before the draw
/// was used. That the key is the one the game key gives
/// for that step and label, and that the draw is the one the step made, is checked with the
/// host's files ([`check_reveal_keys`]): by the host's `verify`, and by anyone once the game is
/// concluded.
fn check_reveals(
    records: &[(Record, Hash32)],
    i: usize,
    name: &str,
    findings: &mut Vec<String>,
    tally: &mut Tally,
) {
    let Some(st) = &records[i].0.step else {
        return;
    };
    let mut labels = std::collections::BTreeSet::new();
    for (k, c) in st.key_commits.iter().enumerate() {
        if !labels.insert(c.label.as_str()) {
            findings.push(format!(
                "{name}: step.key_commits[{k}] ({}): committed twice",
                c.label
            ));
        }
    }
    if st.reveals.is_empty() {
        return;
    }
    let earlier = steps_before(records, i);
    let mut seen = std::collections::BTreeSet::new();
    for (k, r) in st.reveals.iter().enumerate() {
        tally.reveals += 1;
        let what = format!("{name}: step.reveals[{k}] ({} of step {})", r.label, r.step);
        if !seen.insert((r.step, r.label.as_str())) {
            findings.push(format!("{what}: revealed twice"));
        }
        match earlier.get(&r.step).map(|(_, s)| *s) {
            None => findings.push(format!(
                "{what}: no earlier record resolved step {}",
                r.step
            )),
            Some(drawn) => match drawn.key_commits.iter().find(|c| c.label == r.label) {
                None => findings.push(format!(
                    "{what}: step {} committed to no key for {}",
                    r.step, r.label
                )),
                Some(c) if c.commit != sealed_key_commit(&r.label, &r.key) => {
                    findings.push(format!(
                        "{what}: the key does not open the commitment of step {}",
                        r.step
                    ))
                }
                Some(_) => {}
            },
        }
        if r.range.contains(&0) || r.range.len() != r.values.len() {
            findings.push(format!(
                "{what}: {} ranges and {} values (one value per range, each range at least 1)",
                r.range.len(),
                r.values.len()
            ));
            continue;
        }
        let values = crate::protocol::dice::reveal_values(&r.key, &r.range);
        if values != r.values {
            findings.push(format!(
                "{what}: journal says {:?}, its key gives {values:?}",
                r.values
            ));
        }
    }
}

/// The step records before record `i`, by step number, with their records' `seq`: one pass,
/// however many reveals a record holds.
fn steps_before(
    records: &[(Record, Hash32)],
    i: usize,
) -> BTreeMap<u64, (u64, &crate::protocol::journal::StepRecord)> {
    records[..i]
        .iter()
        .filter_map(|(e, _)| e.step.as_ref().map(|s| (s.number, (e.seq, s))))
        .collect()
}

/// With the game key: each sealed reveal of record `i` holds the stream key the game key gives
/// for its step and label, and the very draw that step's sealed transcript holds.
fn check_reveal_keys(
    game: &Game,
    records: &[(Record, Hash32)],
    i: usize,
    game_key: &Hash32,
    findings: &mut Vec<String>,
) {
    let Some(st) = &records[i].0.step else {
        return;
    };
    let name = rec_name(records[i].0.seq);
    // Each sealed file is read once however many reveals name its step (a record could name
    // one step many times; that must not make verify parse a file per reveal).
    if st.reveals.is_empty() {
        return;
    }
    let mut files: BTreeMap<u64, Result<Vec<crate::protocol::dice::SealedDraw>, String>> =
        BTreeMap::new();
    let earlier = steps_before(records, i);
    for (k, r) in st.reveals.iter().enumerate() {
        let what = format!("{name}: step.reveals[{k}] ({} of step {})", r.label, r.step);
        let Some((drawn_in, seed)) = earlier.get(&r.step).map(|(seq, s)| (*seq, s.seed)) else {
            // Reported by check_reveals.
            continue;
        };
        if crate::protocol::dice::sealed_stream_key(game_key, &seed, &r.label) != r.key {
            findings.push(format!(
                "{what}: the key is not the game key's sealed stream key of that step and label"
            ));
        }
        let file = format!("host/sealed/{drawn_in:06}.yaml");
        let drawn = files.entry(drawn_in).or_insert_with(|| {
            dir::read_text(&game.dir.sealed(drawn_in))
                .map_err(|e| e.to_string())
                .and_then(|t| {
                    yaml::parse::<Vec<crate::protocol::dice::SealedDraw>>(&t, &file)
                        .map_err(|r| r.to_string())
                })
        });
        match drawn {
            Err(e) => findings.push(format!("{what}: {e}")),
            Ok(draws) => {
                let same = draws
                    .iter()
                    .any(|d| d.label == r.label && d.range == r.range && d.values == r.values);
                if !same {
                    findings.push(format!(
                        "{what}: {file} holds no draw {} with these ranges and values",
                        r.label
                    ));
                }
            }
        }
    }
}

/// A record is one thing: the genesis (record 0, and only it), a step, a host operation or the
/// conclusion. A record carrying two would have one of them skipped by the checks of the other.
fn check_one_kind(rec: &Record, i: usize, name: &str, findings: &mut Vec<String>) {
    let kinds: Vec<&str> = [
        ("genesis", rec.genesis.is_some()),
        ("step", rec.step.is_some()),
        ("host_op", rec.host_op.is_some()),
        ("conclusion", rec.conclusion.is_some()),
    ]
    .into_iter()
    .filter_map(|(k, present)| present.then_some(k))
    .collect();
    if kinds.len() > 1 {
        findings.push(format!(
            "{name}: holds {}: a record is exactly one of genesis, step, host_op and conclusion",
            kinds.join(" and ")
        ));
    }
    if i > 0 && rec.genesis.is_some() {
        findings.push(format!("{name}: genesis: only record 0 is the genesis"));
    }
    if let Some(st) = &rec.step {
        let mut sides = std::collections::BTreeSet::new();
        for o in &st.orders {
            if !sides.insert(&o.side) {
                findings.push(format!(
                    "{name}: step.orders: two entries for {}; a step uses one order per side",
                    o.side
                ));
            }
        }
    }
}

/// A record that changes no state (a host operation other than a rollback or an upgrade, the
/// conclusion) keeps the public state of record `from`: checked from the journal alone.
fn check_kept_public_state(
    records: &[(Record, Hash32)],
    i: usize,
    from: usize,
    name: &str,
    findings: &mut Vec<String>,
) {
    if records[i].0.public_state != records[from].0.public_state {
        findings.push(format!(
            "{name}: public_state: differs from that of {}, whose state this record keeps",
            rec_name(from as u64)
        ));
    }
}

/// The data files an upgrade kept (`data/NNNNNN.yaml`, NNNNNN the record that pinned it): each
/// must be named for a pin of the journal and have the bytes it pins. An earlier pin whose file
/// is missing (an upgrade made by an older pbem, which did not keep it) is a note: its bytes
/// are in the published game's history, not here.
fn check_earlier_data(
    game: &Game,
    records: &[(Record, Hash32)],
    findings: &mut Vec<String>,
    tally: &mut Tally,
) {
    let pins = journal::data_pins(records.iter().map(|(r, _)| r));
    let folder = game.dir.root.join("data");
    if let Ok(entries) = std::fs::read_dir(&folder) {
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            let pin = pins
                .iter()
                .find(|(seq, _)| game.dir.earlier_data(*seq).file_name() == Some(name.as_ref()));
            let Some(&(_, pinned)) = pin else {
                findings.push(format!(
                    "data/{name}: not component data the journal pins: data/ holds only NNNNNN.yaml, NNNNNN the genesis or upgrade record that pinned it"
                ));
                continue;
            };
            match std::fs::read(folder.join(&name)) {
                Ok(bytes) if sha256(&bytes) == pinned => {}
                Ok(_) => findings.push(format!(
                    "data/{name}: its SHA-256 differs from {pinned}, which the journal pins"
                )),
                Err(e) => findings.push(format!("data/{name}: cannot be read: {e}")),
            }
        }
    }
    for &(seq, _) in pins.iter().rev().skip(1) {
        if !game.dir.earlier_data(seq).exists() {
            tally.notes.push(format!(
                "the component data {} pinned is not kept in data/ (the upgrade was made by an older pbem); a published game has it in its history",
                rec_name(seq)
            ));
        }
    }
}

/// 1 to 4 for the journal formats this pbem reads.
fn format_number(pbem: &str) -> Option<u8> {
    match pbem {
        JOURNAL_FORMAT_V1 => Some(1),
        JOURNAL_FORMAT_V2 => Some(2),
        JOURNAL_FORMAT => Some(3),
        JOURNAL_FORMAT_V4 => Some(4),
        JOURNAL_FORMAT_V5 => Some(5),
        _ => None,
    }
}

/// The rules of the game after `records[..=i]` ([`journal::rules_after`]).
fn rules_after(records: &[(Record, Hash32)], i: usize) -> (u32, String) {
    journal::rules_after(records.iter().take(i + 1).map(|(r, _)| r))
}

/// The line `verify` prints for a record it cannot replay or regenerate: which rules resolved
/// it and which pbem release has them.
fn other_rules_note(game: &Game, records: &[(Record, Hash32)], i: usize, what: &str) -> String {
    let (rules, release) = rules_after(records, i.saturating_sub(1));
    let rules = records[i]
        .0
        .step
        .as_ref()
        .map(|st| st.rules_version())
        .unwrap_or(rules);
    let id = game.system.id();
    // The data it was resolved with, when an upgrade has replaced it since.
    let pins = journal::data_pins(records.iter().map(|(r, _)| r));
    let then = journal::data_pins(records[..i].iter().map(|(r, _)| r))
        .last()
        .copied();
    let data = match then {
        Some((seq, _)) if pins.last().map(|p| p.0) != Some(seq) => {
            format!(" and data/{} as its data.yaml", journal::file_name(seq))
        }
        _ => String::new(),
    };
    format!(
        "{} {what} by {id} rules {rules}; this pbem {} has {id} rules {}: replay it with pbem {release}{data}",
        rec_name(records[i].0.seq),
        crate::PBEM_VERSION,
        game.system.rules_version()
    )
}

/// A host operation never changes the open step, except a rollback, which must open a step
/// number the game has never used (so no old order can be replayed into it), and an upgrade,
/// which keeps the step and its commitment but may change what it waits for under new rules.
/// The record's format marker, and order entries shaped as that format says: journal/1 shows
/// the entropy itself and replaced hashes; journal/2 a version, `dice_entropy` and earlier
/// versions. A game may move from journal/1 to journal/2 (an upgraded host), never back.
fn check_format(records: &[(Record, Hash32)], i: usize, name: &str, findings: &mut Vec<String>) {
    let rec = &records[i].0;
    let Some(format) = format_number(&rec.pbem) else {
        findings.push(format!(
            "{name}: pbem: unknown journal format {:?} (this pbem reads {JOURNAL_FORMAT_V1}, {JOURNAL_FORMAT_V2}, {JOURNAL_FORMAT}, {JOURNAL_FORMAT_V4} and {JOURNAL_FORMAT_V5})",
            rec.pbem
        ));
        return;
    };
    let v2 = format >= 2;
    if i > 0
        && let Some(before) = format_number(&records[i - 1].0.pbem)
        && before > format
    {
        findings.push(format!(
            "{name}: pbem: {} after a {} record",
            rec.pbem,
            records[i - 1].0.pbem
        ));
    }
    // journal/3 states the rules: genesis their version and release, each step its version.
    let versioned = format >= 3;
    if let Some(g) = &rec.genesis
        && (g.rules.is_some() != versioned || g.pbem_version.is_some() != versioned)
    {
        findings.push(format!(
            "{name}: genesis: a {} genesis {} pbem_version and rules",
            rec.pbem,
            if versioned { "states" } else { "has no" }
        ));
    }
    // journal/4 adds the bot fields, journal/5 the sealed reveals; an older record cannot hold
    // them.
    if format < 4 && rec.names_bot() {
        findings.push(format!(
            "{name}: pbem: a {} record names a bot ({JOURNAL_FORMAT_V4} does)",
            rec.pbem
        ));
    }
    if format < 5 && rec.holds_sealed_keys() {
        findings.push(format!(
            "{name}: pbem: a {} record commits to or reveals sealed keys ({JOURNAL_FORMAT_V5} does)",
            rec.pbem
        ));
    }
    if let Some(HostOp::Upgrade { .. }) = &rec.host_op
        && !versioned
    {
        findings.push(format!(
            "{name}: host_op: an upgrade needs {JOURNAL_FORMAT} (rules versions)"
        ));
    }
    let Some(st) = &rec.step else {
        return;
    };
    if st.rules.is_some() != versioned {
        findings.push(format!(
            "{name}: step.rules: a {} step record {} the rules version that resolved it",
            rec.pbem,
            if versioned { "states" } else { "has no" }
        ));
    }
    for (k, o) in st.orders.iter().enumerate() {
        let shaped = if v2 {
            o.version.is_some()
                && o.dice_entropy.is_some()
                && o.entropy.is_none()
                && o.replaced.is_empty()
        } else {
            o.version.is_none()
                && o.dice_entropy.is_none()
                && o.entropy.is_some()
                && o.earlier.is_empty()
        };
        if !shaped {
            let fields = if v2 {
                "version, hash, dice_entropy and earlier"
            } else {
                "hash, entropy and replaced"
            };
            findings.push(format!(
                "{name}: step.orders[{k}]: a {} order entry has {fields}",
                rec.pbem
            ));
        }
        let versions: Vec<u64> = o
            .earlier
            .iter()
            .map(|e| e.version)
            .chain(o.version)
            .collect();
        if versions.windows(2).any(|w| w[0] >= w[1]) {
            findings.push(format!(
                "{name}: step.orders[{k}]: versions {versions:?} do not grow: an order only replaces a smaller version"
            ));
        }
    }
}

fn check_host_op(
    records: &[(Record, Hash32)],
    i: usize,
    op: &crate::protocol::journal::HostOp,
    name: &str,
    findings: &mut Vec<String>,
) {
    let before = &records[i - 1].0.next;
    let after = &records[i].0.next;
    match op {
        HostOp::Rollback { to_record, .. } => {
            if *to_record as usize >= i {
                findings.push(format!(
                    "{name}: host_op.to_record: {to_record} is not an earlier record"
                ));
            }
            if let Some(upgrade) = super::ops::last_upgrade(records, i)
                && *to_record < upgrade
            {
                findings.push(format!(
                    "{name}: host_op.to_record: {to_record} is before the upgrade of record {upgrade}: a rollback never returns to the states of older rules"
                ));
            }
            let used = records[..i]
                .iter()
                .filter_map(|(r, _)| r.next.as_ref().map(|n| n.step))
                .max()
                .unwrap_or(0);
            match after {
                Some(n) if n.step > used => {}
                _ => findings.push(format!(
                    "{name}: next.step: a rollback must open a step number above {used}"
                )),
            }
        }
        HostOp::Pause { at, .. } | HostOp::Resume { at, .. } => {
            let pausing = matches!(op, HostOp::Pause { .. });
            let paused = super::schedule::paused_since(&records[..i]).is_some();
            if pausing == paused {
                findings.push(format!(
                    "{name}: host_op: {} a game that is {}",
                    if pausing { "pauses" } else { "resumes" },
                    if paused {
                        "already paused"
                    } else {
                        "not paused"
                    }
                ));
            }
            if !at.is_empty() && at.parse::<jiff::Timestamp>().is_err() {
                findings.push(format!(
                    "{name}: host_op.at: {at:?} is not an RFC 3339 time"
                ));
            }
            if before != after {
                findings.push(format!(
                    "{name}: next: this host operation must not change the open step"
                ));
            }
        }
        HostOp::Upgrade { from, to, .. } => {
            let (running, _) = rules_after(records, i - 1);
            if *from != running {
                findings.push(format!(
                    "{name}: host_op.from: {from}, but the game ran rules {running}"
                ));
            }
            if to <= from {
                findings.push(format!(
                    "{name}: host_op.to: {to}; an upgrade moves to a later rules version than {from}"
                ));
            }
            match (before, after) {
                (Some(b), Some(a)) if a.step == b.step && a.host_commit == b.host_commit => {}
                _ => findings.push(format!(
                    "{name}: next: an upgrade keeps the open step and its host commitment"
                )),
            }
        }
        HostOp::Extend { step, deadline, .. } => {
            if deadline.parse::<jiff::Timestamp>().is_err() {
                findings.push(format!(
                    "{name}: host_op.deadline: {deadline:?} is not an RFC 3339 time"
                ));
            }
            if before.as_ref().map(|n| n.step) != Some(*step) {
                findings.push(format!("{name}: host_op.step: {step} is not the open step"));
            }
            if before != after {
                findings.push(format!(
                    "{name}: next: an extension must not change the open step"
                ));
            }
        }
        _ => {
            if before != after {
                findings.push(format!(
                    "{name}: next: this host operation must not change the open step"
                ));
            }
        }
    }
}

/// The revealed secrets must open every commitment the host made, and nothing may follow.
fn check_conclusion(
    records: &[(Record, Hash32)],
    i: usize,
    c: &crate::protocol::journal::Conclusion,
    name: &str,
    findings: &mut Vec<String>,
) {
    if i + 1 != records.len() {
        findings.push(format!(
            "{name}: conclusion: records follow the conclusion of the game"
        ));
    }
    if records[i - 1].0.next.is_some() {
        findings.push(format!("{name}: conclusion: the game was not over"));
    }
    if let Some(g) = &records[0].0.genesis
        && commitment(&c.game_key) != g.game_key_commit
    {
        findings.push(format!(
            "{name}: conclusion.game_key: does not open genesis.game_key_commit"
        ));
    }
    for (rec, _) in &records[..i] {
        if let Some(st) = &rec.step
            && journal::host_seed(&c.master, st.number) != st.host_reveal
        {
            findings.push(format!(
                "{name}: conclusion.master: does not derive the host reveal of {}",
                rec_name(rec.seq)
            ));
        }
    }
}

/// A published archive must be exactly what the conclusion record's manifest hash pins.
fn check_archive_manifest(game: &Game, records: &[(Record, Hash32)], findings: &mut Vec<String>) {
    let Some(c) = records.last().and_then(|(r, _)| r.conclusion.as_ref()) else {
        return;
    };
    let dir = game.dir.archive();
    let manifest_path = dir.join(super::conclude::MANIFEST);
    if !manifest_path.exists() {
        return;
    }
    let Ok(text) = dir::read_text(&manifest_path) else {
        findings.push("archive/manifest.yaml: unreadable".into());
        return;
    };
    if sha256(text.as_bytes()) != c.archive {
        findings.push(
            "archive/manifest.yaml: its hash differs from conclusion.archive in the journal".into(),
        );
    }
    let manifest: super::conclude::Manifest = match yaml::parse(&text, "archive/manifest.yaml") {
        Ok(m) => m,
        Err(r) => {
            findings.push(r.to_string());
            return;
        }
    };
    for (name, hash) in &manifest.files {
        if !plain_relative(name) {
            findings.push(format!(
                "archive/manifest.yaml: {name:?} is not a file name inside archive/ (only plain relative names, no `..`)"
            ));
            continue;
        }
        match std::fs::read(dir.join(name)) {
            Ok(bytes) if sha256(&bytes) == *hash => {}
            Ok(_) => findings.push(format!(
                "archive/{name}: differs from its hash in the manifest"
            )),
            Err(_) => findings.push(format!(
                "archive/{name}: listed in the manifest but missing"
            )),
        }
    }
    // The manifest pins the archive: a file it does not list is not part of it.
    let mut present = Vec::new();
    list_files(&dir, "", &mut present);
    for name in present {
        let listed = manifest.files.contains_key(&name);
        if !listed && name != super::conclude::MANIFEST && !name.starts_with(".tmp") {
            findings.push(format!(
                "archive/{name}: not in the manifest (the archive is exactly what the manifest lists)"
            ));
        }
    }
}

/// A relative path of plain names (`state/000001.yaml`): no root, no `.` or `..`, not empty.
fn plain_relative(name: &str) -> bool {
    !name.is_empty()
        && std::path::Path::new(name)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Every file under `dir`, as `/`-separated names relative to it.
fn list_files(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            list_files(&entry.path(), &format!("{name}/"), out);
        } else {
            out.push(name);
        }
    }
}

fn check_genesis(game: &Game, rec: &Record, name: &str, findings: &mut Vec<String>) {
    let Some(g) = &rec.genesis else {
        findings.push(format!("{name}: genesis: missing"));
        return;
    };
    if rec.prev.is_some() {
        findings.push(format!(
            "{name}: prev: the genesis record has no predecessor"
        ));
    }
    if g.host_key != game.config.host_key.openssh() {
        findings.push(format!(
            "{name}: genesis.host_key: differs from host_key in game.yaml"
        ));
    }
    if g.system != game.config.system {
        findings.push(format!(
            "{name}: genesis.system: {:?}, game.yaml says {:?}",
            g.system, game.config.system
        ));
    }
    for seat in &g.seats {
        let said = game.config.bot_of(&seat.side);
        if said != seat.bot.as_deref() {
            findings.push(format!(
                "{name}: genesis.seats: {} is {}, game.yaml says {}",
                seat.side,
                played_by(seat.bot.as_deref()),
                played_by(said)
            ));
        }
        if seat.bot.is_some() && seat.key != g.host_key {
            findings.push(format!(
                "{name}: genesis.seats: {} is a bot seat, whose key must be the host key",
                seat.side
            ));
        }
    }
    // game.yaml's seats are checked against genesis plus the journal's later key replacements
    // and hand-overs (ops::seat_findings), at the end of check_public.
    let _ = g;
}

fn played_by(bot: Option<&str>) -> String {
    match bot {
        Some(b) => format!("played by the {b} bot"),
        None => "a player's seat".to_string(),
    }
}

/// The bot that plays `side`'s seat, as genesis says (no host operation changes it).
fn bot_seat<'a>(records: &'a [(Record, Hash32)], side: &str) -> Option<&'a str> {
    records
        .first()?
        .0
        .genesis
        .as_ref()?
        .seats
        .iter()
        .find(|s| s.side == side)?
        .bot
        .as_deref()
}

/// Where the journal has an order with this hash: used by a step, or received and replaced.
struct Found<'a> {
    seq: u64,
    step: u64,
    entry: &'a OrderEntry,
    /// `None`: the order used; `Some(v)`: an earlier order it replaced, with its version when
    /// the record states one (journal/2).
    replaced: Option<Option<u64>>,
}

fn find_order<'a>(records: &'a [(Record, Hash32)], hash: &Hash32) -> Option<Found<'a>> {
    records.iter().find_map(|(r, _)| {
        let st = r.step.as_ref()?;
        st.orders.iter().find_map(|o| {
            let replaced = if &o.hash == hash {
                None
            } else {
                Some(o.replaced_hash(hash)?)
            };
            Some(Found {
                seq: r.seq,
                step: st.number,
                entry: o,
                replaced,
            })
        })
    })
}

/// What a host-signed receipt proves against the journal: the order it certifies was used, or
/// replaced by a newer version of the same side's orders for the same step.
fn receipt_findings(
    name: &str,
    receipt: &order::Receipt,
    found: &Found,
    findings: &mut Vec<String>,
) {
    let at = rec_name(found.seq);
    if found.entry.side != receipt.side || found.step != receipt.step {
        findings.push(format!(
            "{name}: the receipt's order is in {at} as an order of {} for step {}, but the receipt says {} for step {}",
            found.entry.side, found.step, receipt.side, receipt.step
        ));
        return;
    }
    match found.replaced {
        // The order used: its public part of the entropy must be the receipt's entropy's.
        None => {
            let expected = match found.entry.dice_entropy {
                Some(_) => Some(journal::dice_entropy(&receipt.entropy)),
                None => Some(receipt.entropy),
            };
            if found.entry.seed_part() != expected {
                findings.push(format!(
                    "{name}: the entropy of the order used in {at} is not the receipt's"
                ));
            }
            if receipt.version.is_some() && found.entry.version != receipt.version {
                findings.push(format!(
                    "{name}: the order used in {at} has version {:?}, the receipt says {:?}",
                    found.entry.version, receipt.version
                ));
            }
        }
        // An earlier version: the journal must show it replaced, by a newer version.
        Some(recorded) => {
            if let (Some(got), Some(recorded)) = (receipt.version, recorded)
                && got != recorded
            {
                findings.push(format!(
                    "{name}: {at} lists this order as version {recorded}, the receipt says {got}"
                ));
            }
            if let (Some(got), Some(used)) = (receipt.version, found.entry.version)
                && got >= used
            {
                findings.push(format!(
                    "{name}: the host received version {got} of these orders but {at} used version {used}, which is not newer"
                ));
            }
        }
    }
}

fn check_player_file(
    game: &Game,
    records: &[(Record, Hash32)],
    file: &Path,
    findings: &mut Vec<String>,
) {
    let name = file.display().to_string();
    let Ok(bytes) = std::fs::read(file) else {
        findings.push(format!("{name}: cannot read"));
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    if text.contains("pbem: receipt/") {
        match order::open_receipt(game, &bytes, &name) {
            Err(e) => findings.push(e),
            Ok(r) => match find_order(records, &r.order) {
                Some(found) => receipt_findings(&name, &r, &found, findings),
                None if pending(game, &r.order) => {}
                None if super::ops::withdrawn_by(records, &r.basis, r.step).is_some() => {}
                None => findings.push(format!(
                    "{name}: the host signed a receipt for order {} (step {}, {}) but the journal never used or replaced it",
                    r.order, r.step, r.side
                )),
            },
        }
        return;
    }
    let sig = PathBuf::from(format!("{name}.sig"));
    let env = match order::open(file, sig.exists().then_some(sig.as_path())) {
        Ok(x) => x,
        Err(e) => {
            findings.push(format!("{e}"));
            return;
        }
    };
    let hash = env.signed.document_hash();
    let withdrawn = yaml::parse::<order::Header>(&env.text, &name)
        .ok()
        .and_then(|h| Some((h.basis.parse::<Hash32>().ok()?, h.step)))
        .and_then(|(basis, step)| super::ops::withdrawn_by(records, &basis, step));
    match find_order(records, &hash) {
        Some(_) => {}
        None if pending(game, &hash) => {}
        None if withdrawn.is_some() => {}
        None => findings.push(format!(
            "{name}: order {hash} is not in the journal (neither used nor replaced)"
        )),
    }
}

/// Is an order with this hash waiting in the inbox for the open step?
fn pending(game: &Game, hash: &Hash32) -> bool {
    let Some(step) = game.open_step() else {
        return false;
    };
    step.waiting_for.iter().any(|side| {
        let p = game.dir.inbox_order(step.step, side);
        let s = game.dir.inbox_sig(step.step, side);
        order::open(&p, s.exists().then_some(s.as_path()))
            .map(|e| e.signed.document_hash() == *hash)
            .unwrap_or(false)
    })
}

/// How many runs of records each core replays in [`replay_and_derived`]: more runs than cores
/// let a core that finished its runs take another while a costlier run (a turn of combats)
/// goes on; each run costs one more parse of a stored state.
const RUNS_PER_CORE: usize = 3;

/// The host-level checks, on several threads ([`par::map_chunks`]): the records are split in
/// contiguous runs; each run replays its records ([`replay_record`]) from the host's stored
/// state before its first record, and checks each record's views and report board
/// ([`Derived`]) right after replaying it, while the state the replay gave is still parsed.
/// Every stored state is compared with the replay that must leave it, so the runs together
/// check the same chain as one replay from the start. Findings come in a fixed order,
/// whatever the number of threads: the replay's, record by record, then the views' and
/// reports', then the receipts'.
fn replay_and_derived(
    game: &Game,
    records: &[(Record, Hash32)],
    findings: &mut Vec<String>,
    tally: &mut Tally,
) {
    let Some((secrets, data)) = replay_start(game, records, findings, tally) else {
        return;
    };
    let derived = Derived::new(game, records);
    let mut checked = Vec::new();
    derived.record(0, None, &mut checked, tally);
    let indices: Vec<usize> = (1..records.len()).collect();
    let (runs, receipts) = std::thread::scope(|scope| {
        let receipts = scope.spawn(|| {
            let (mut findings, mut tally) = (Vec::new(), Tally::default());
            check_receipts(game, records, &mut findings, &mut tally);
            (findings, tally)
        });
        let runs = par::map_runs(&indices, RUNS_PER_CORE, |_, run| {
            let Some(&first) = run.first() else {
                return Vec::new();
            };
            let mut state = state_before(game, records, first);
            run.iter()
                .map(|&i| {
                    let (mut replay, mut derived_findings) = (Vec::new(), Vec::new());
                    let mut tally = Tally::default();
                    let replayed = replay_record(
                        game,
                        records,
                        i,
                        &secrets,
                        data,
                        &mut state,
                        &mut replay,
                        &mut tally,
                    );
                    derived.record(i, replayed.as_ref(), &mut derived_findings, &mut tally);
                    (replay, derived_findings, tally)
                })
                .collect()
        });
        (runs, receipts.join())
    });
    for (k, run) in runs.into_iter().enumerate() {
        match run {
            Ok(run) => {
                for (replay, derived_findings, run_tally) in run {
                    findings.extend(replay);
                    checked.extend(derived_findings);
                    tally.absorb(run_tally);
                }
            }
            Err(_) => findings.push(format!(
                "internal error (panic) while replaying the records of run {}",
                k + 1
            )),
        }
    }
    findings.extend(checked);
    match receipts {
        Ok((theirs, their_tally)) => {
            findings.extend(theirs);
            tally.absorb(their_tally);
        }
        Err(_) => findings.push("internal error (panic) while checking receipts".into()),
    }
}

/// What every replay needs, checked once: the host's secrets (matching genesis), the
/// component data, the starting state's public view. None when the replay cannot start.
fn replay_start<'g>(
    game: &'g Game,
    records: &[(Record, Hash32)],
    findings: &mut Vec<String>,
    tally: &mut Tally,
) -> Option<(Secrets, Option<&'g crate::systems::GameData>)> {
    let secrets: Secrets = match game.secrets() {
        Ok(s) => s,
        Err(e) => {
            findings.push(format!("host/secrets.yaml: {e}"));
            return None;
        }
    };
    if let Some(g) = &records[0].0.genesis
        && commitment(&secrets.game_key) != g.game_key_commit
    {
        findings.push("host/secrets.yaml: game_key: does not match genesis.game_key_commit".into());
    }
    // State 0 is the scenario's starting state; its public view must match genesis.
    let state = match dir::read_text(&game.dir.state(0)) {
        Ok(s) => s,
        Err(e) => {
            findings.push(format!("host/state/000000.yaml: {e}"));
            return None;
        }
    };
    let ours = game.system.rules_version();
    // The component data every replay reads (data.yaml, pinned by the journal); a game that
    // only ever ran other rules may have none this pbem can read, and needs none.
    let data = game.data().map_err(|e| e.to_string());
    let data = match (&data, rules_after(records, records.len() - 1).0 == ours) {
        (Ok(d), _) => Some(*d),
        (Err(e), true) => {
            findings.push(format!("data.yaml: {e}"));
            return None;
        }
        (Err(_), false) => None,
    };
    if let (true, Some(data)) = (rules_after(records, 0).0 == ours, data) {
        check_public_state(game, data, &state, &records[0].0, findings);
    } else {
        tally
            .notes
            .push(other_rules_note(game, records, 0, "was set up"));
    }
    Some((secrets, data))
}

/// The host's stored state before record `i` (the one after record `i - 1`), where a run of
/// replays starts; empty when it cannot be read (the replay then fails, and the check of
/// record `i - 1` says why).
fn state_before(game: &Game, records: &[(Record, Hash32)], i: usize) -> String {
    let seq = records.get(i.wrapping_sub(1)).map_or(0, |(r, _)| r.seq);
    dir::read_text(&game.dir.state(seq)).unwrap_or_default()
}

/// What the replay of a record read and gave that the checks of the files derived from it
/// (its views and report) need, so that they read and parse nothing again.
struct Replayed {
    /// The host's stored state after the record, as read.
    state: String,
    /// The record's events, when its events file holds exactly the replay's (None: read the
    /// file).
    events: Option<StepEvents>,
}

/// Checks record `i` of the host's files against the journal (signatures and bindings of its
/// orders, the host reveal) and replays it from `state`, which becomes the state after it.
/// Returns what the checks of its views and report need, when the stored state after it
/// could be read.
#[allow(clippy::too_many_arguments)]
fn replay_record(
    game: &Game,
    records: &[(Record, Hash32)],
    i: usize,
    secrets: &Secrets,
    data: Option<&crate::systems::GameData>,
    state: &mut String,
    findings: &mut Vec<String>,
    tally: &mut Tally,
) -> Option<Replayed> {
    let ours = game.system.rules_version();
    {
        let (rec, _) = &records[i];
        let (_, prev_hash) = &records[i - 1];
        let name = rec_name(rec.seq);
        let Some(st) = &rec.step else {
            // A record without a step keeps the state it follows, except a rollback, which
            // returns to the state after an earlier record.
            match &rec.host_op {
                Some(HostOp::Rollback { to_record, .. }) => {
                    *state = dir::read_text(&game.dir.state(*to_record)).unwrap_or_default();
                }
                // The state carried over to new rules: this pbem can redo that only for its
                // own rules.
                Some(HostOp::Upgrade {
                    from,
                    to,
                    data: pinned,
                    ..
                }) if *to == ours => {
                    // Rules 1 states held their data; later ones carry data.yaml over.
                    let before = if *from == 1 { None } else { data };
                    match game.system.upgrade_state(*from, state, before) {
                        Ok((upgraded, data_yaml)) => {
                            if sha256(data_yaml.as_bytes()) != *pinned {
                                findings.push(format!(
                                    "{name}: host_op.data: differs from the data the upgrade gives"
                                ));
                            }
                            if let Some(data) = data {
                                check_public_state(game, data, &upgraded, rec, findings);
                            }
                            *state = upgraded;
                        }
                        Err(e) => findings.push(format!(
                            "{name}: the state cannot be carried over to rules {to}: {e}"
                        )),
                    }
                }
                Some(HostOp::Upgrade { .. }) => {
                    tally.notes.push(other_rules_note(
                        game,
                        records,
                        i,
                        "moved the game to rules",
                    ));
                    *state = dir::read_text(&game.dir.state(rec.seq)).unwrap_or_default();
                }
                _ => {}
            }
            let stored = dir::read_text(&game.dir.state(rec.seq));
            if stored.as_ref().ok() != Some(&*state) {
                findings.push(format!(
                    "host/state/{:06}.yaml: differs from the state this record must leave",
                    rec.seq
                ));
            }
            return stored.ok().map(|state| Replayed {
                state,
                events: None,
            });
        };
        if journal::host_seed(&secrets.master, st.number) != st.host_reveal {
            findings.push(format!(
                "{name}: step.host_reveal: not derived from the host's master seed"
            ));
        }
        let mut docs = BTreeMap::new();
        for o in &st.orders {
            let path = game.dir.used_order(rec.seq, &o.side);
            let sig = game.dir.used_sig(rec.seq, &o.side);
            let fname = format!("host/orders/{:06}-{}.yaml", rec.seq, o.side);
            let env = match order::open(&path, sig.exists().then_some(sig.as_path())) {
                Ok(env) => env,
                Err(e) => {
                    findings.push(format!("{fname}: {e}"));
                    return None;
                }
            };
            tally.orders += 1;
            if env.signed.document_hash() != o.hash {
                findings.push(format!(
                    "{fname}: its hash {} differs from {name} step.orders ({})",
                    env.signed.document_hash(),
                    o.hash
                ));
            }
            // The side's key when this record was made: genesis plus earlier key replacements
            // and hand-overs, so orders signed before a key change keep verifying.
            // A bot's orders are signed by the host key (genesis.host_key, which never changes).
            let key = match &o.bot {
                Some(_) => records[0].0.genesis.as_ref().map(|g| g.host_key.clone()),
                None => super::ops::key_at(records, i, &o.side),
            };
            let Some(key) = key else {
                findings.push(format!("{fname}: side {} has no seat in genesis", o.side));
                return None;
            };
            match crate::protocol::keys::PublicKey::parse(&key) {
                Ok(key) => {
                    if let Err(e) = envelope::verify(&env.signed, &key, ORDER_NAMESPACE) {
                        findings.push(format!("{fname}: signature: {e}"));
                    }
                }
                Err(e) => findings.push(format!("{fname}: the journal's key of {}: {e}", o.side)),
            }
            let header = match data {
                Some(data) => game.system.order_header(data, &env.text, &fname),
                None => yaml::parse::<order::Header>(&env.text, &fname),
            };
            match header {
                Ok(h) => {
                    let mut bad = Vec::new();
                    if h.game != game.config.id {
                        bad.push("game");
                    }
                    if h.step != st.number {
                        bad.push("step");
                    }
                    if h.side != o.side {
                        bad.push("side");
                    }
                    let bases = super::game::step_bases(records, i - 1);
                    if !bases.iter().any(|b| h.basis == b.hex()) {
                        bad.push("basis");
                    }
                    // journal/2 publishes a hash of the entropy; journal/1 the entropy itself.
                    let entropy = h.entropy.parse::<Hash32>().ok();
                    let public = match o.dice_entropy {
                        Some(_) => entropy.map(|e| journal::dice_entropy(&e)),
                        None => entropy,
                    };
                    if public.is_none() || public != o.seed_part() {
                        bad.push("entropy");
                    }
                    if o.version.is_some()
                        && h.version.as_ref().and_then(|v| v.number()) != o.version
                    {
                        bad.push("version");
                    }
                    if o.version.is_some() && h.pbem != order::ORDER_FORMAT {
                        bad.push("pbem");
                    }
                    if !bad.is_empty() {
                        findings.push(format!(
                            "{fname}: binding: {} do not match {name}",
                            bad.join(", ")
                        ));
                    }
                }
                Err(r) => findings.push(r.to_string()),
            }
            docs.insert(o.side.clone(), env.text);
        }
        if st.rules_version() != ours {
            // Resolved by other rules: everything above (signatures, bindings) and the sealed
            // commitment are checked; the replay needs the pbem that has those rules.
            tally
                .notes
                .push(other_rules_note(game, records, i, "was resolved"));
            check_sealed(game, rec.seq, st, &secrets.game_key, None, findings);
            check_reveal_keys(game, records, i, &secrets.game_key, findings);
            *state = dir::read_text(&game.dir.state(rec.seq)).unwrap_or_default();
            return None;
        }
        // A bot's orders must be those its bot writes from the state and the bot seed (docs/
        // dice.md, "Bot orders"); a bot seat given default orders must have a bot that fails.
        if let Some(data) = data {
            check_bots(game, records, i, st, data, state, &docs, findings);
        }
        // Sides that missed the deadline: the system's default orders, rebuilt from the state.
        for side in &st.defaults {
            match super::process::default_document(game, st.number, prev_hash, side, state) {
                Ok(doc) => {
                    docs.insert(side.clone(), doc);
                }
                Err(e) => findings.push(format!("{name}: default orders of {side}: {e}")),
            }
        }
        // Replay the step.
        let Some(data) = data else {
            findings.push(format!("{name}: cannot be replayed without data.yaml"));
            return None;
        };
        match super::step::resolve(
            game.system.as_ref(),
            data,
            state,
            &docs,
            st.number,
            st.seed,
            secrets.game_key,
        ) {
            Err(e) => {
                findings.push(format!("{name}: replay failed: {e}"));
                None
            }
            Ok(res) => {
                tally.replayed_steps += 1;
                let stored = dir::read_text(&game.dir.state(rec.seq));
                if stored.as_ref().ok() != Some(&res.state) {
                    findings.push(format!(
                        "host/state/{:06}.yaml: differs from the replay of {name}",
                        rec.seq
                    ));
                }
                let t = &res.dice;
                if t.public != st.dice {
                    findings.push(format!(
                        "{name}: step.dice: differ from the dice of the replay"
                    ));
                }
                if t.key_commits != st.key_commits {
                    findings.push(format!(
                        "{name}: step.key_commits: differ from the key commitments of the replay"
                    ));
                }
                if t.reveals != st.reveals {
                    findings.push(format!(
                        "{name}: step.reveals: differ from the reveals of the replay"
                    ));
                }
                check_reveal_keys(game, records, i, &secrets.game_key, findings);
                tally.sealed_draws += t.sealed.len();
                check_sealed(
                    game,
                    rec.seq,
                    st,
                    &secrets.game_key,
                    Some(&t.sealed),
                    findings,
                );
                if res.public != st.events {
                    findings.push(format!(
                        "{name}: step.events: differ from the events of the replay"
                    ));
                }
                let events = StepEvents {
                    public: res.public,
                    private: res.private,
                };
                let events = match events_file(game, rec.seq, &events) {
                    EventsFile::Same => Some(events),
                    EventsFile::SamePrivate => None,
                    EventsFile::Differs => {
                        findings.push(format!(
                            "host/events/{:06}.yaml: private events differ from the replay",
                            rec.seq
                        ));
                        None
                    }
                };
                if res.public_state != rec.public_state {
                    findings.push(format!(
                        "{name}: public_state: does not match the public view of the state"
                    ));
                }
                *state = res.state;
                stored.ok().map(|state| Replayed { state, events })
            }
        }
    }
}

/// What the host's events file of a record holds against the replay's events.
enum EventsFile {
    /// The replay's events, byte for byte.
    Same,
    /// Other bytes (a file another pbem wrote, or none) with the same private events, or a
    /// file that cannot be read (not a finding here).
    SamePrivate,
    /// Other private events.
    Differs,
}

/// Whether the host's events file of record `seq` holds the replay's private events
/// (`replayed`; its public ones are checked against the record). The file `process` wrote is
/// the replay's events encoded, byte for byte, so that is compared first: encoding is several
/// times cheaper than parsing. Bytes that differ are parsed and only the private events
/// compared.
fn events_file(game: &Game, seq: u64, replayed: &StepEvents) -> EventsFile {
    let path = super::process::events_path(game, seq);
    if let (Ok(stored), Ok(ours)) = (dir::read(&path), crate::yaml::encode(replayed))
        && stored == ours.as_bytes()
    {
        return EventsFile::Same;
    }
    match read_events(game, seq) {
        Ok(ev) if ev.private != replayed.private => EventsFile::Differs,
        _ => EventsFile::SamePrivate,
    }
}

/// The bot orders of step record `records[i]` recomputed from `state` (the state before the
/// step) and compared with the used documents `docs`.
#[allow(clippy::too_many_arguments)]
fn check_bots(
    game: &Game,
    records: &[(Record, Hash32)],
    i: usize,
    st: &journal::StepRecord,
    data: &crate::systems::GameData,
    state: &str,
    docs: &BTreeMap<String, String>,
    findings: &mut Vec<String>,
) {
    let name = rec_name(records[i].0.seq);
    let basis = records[i - 1].1;
    let write = |side: &str, bot: &str| {
        let seed = bot_seed(&game.config.id, st.number, &st.host_reveal, side);
        super::bots::document(
            game.system.as_ref(),
            data,
            state,
            &game.config.id,
            st.number,
            side,
            &basis,
            bot,
            &seed,
        )
    };
    for o in &st.orders {
        let Some(bot) = &o.bot else { continue };
        let fname = format!("host/orders/{:06}-{}.yaml", records[i].0.seq, o.side);
        match write(&o.side, bot) {
            Ok(doc) if docs.get(&o.side) == Some(&doc) => {}
            Ok(_) => findings.push(format!(
                "{fname}: not the orders the {bot} bot writes for {} from the state and the bot seed of {name}",
                o.side
            )),
            Err(e) => findings.push(format!("{fname}: recomputing the bot's orders: {e}")),
        }
    }
    for side in &st.defaults {
        if let Some(bot) = bot_seat(records, side)
            && write(side, bot).is_ok()
        {
            findings.push(format!(
                "{name}: step.defaults: {side} is played by the {bot} bot, whose orders for this step are accepted, yet it was given default orders"
            ));
        }
    }
}

/// The files derived from each record and the state after it: every view ever written (views
/// are private to their side, so an auditor outside the game may not have them: then there is
/// nothing to check) and every byte of every report, board included. Walked record by record
/// with the replay, so each state is parsed once for all of them; `finish` walks what the replay
/// did not reach (it stops early when the host's secrets or first state are unreadable).
/// `game` reads its states from host/ or from the published archive/.
struct Derived<'a> {
    game: &'a Game,
    records: &'a [(Record, Hash32)],
    ours: Vec<bool>,
    sides: Vec<String>,
    views: bool,
}

impl<'a> Derived<'a> {
    fn new(game: &'a Game, records: &'a [(Record, Hash32)]) -> Derived<'a> {
        Derived {
            game,
            records,
            ours: ours_after_each(game, records),
            sides: game.config.side_names(),
            views: game.dir.root.join("views").is_dir(),
        }
    }

    /// Checks the views and report of record `i`, from what its replay read and gave
    /// (`replayed`), or else from the files.
    fn record(
        &self,
        i: usize,
        replayed: Option<&Replayed>,
        findings: &mut Vec<String>,
        tally: &mut Tally,
    ) {
        if !self.ours[i] {
            return; // drawn by other rules (the replay note says which)
        }
        let (game, seq) = (self.game, self.records[i].0.seq);
        // What the replay read and gave, else the files (an error is said for each file
        // that needs it).
        let (read_state, read_ev);
        let state = match replayed {
            Some(r) => Ok(r.state.as_str()),
            None => {
                read_state = dir::read_text(&game.dir.state(seq)).map_err(|e| e.to_string());
                read_state.as_deref().map_err(|e| e.clone())
            }
        };
        let events = match replayed.and_then(|r| r.events.as_ref()) {
            Some(ev) => Ok(ev),
            None => {
                read_ev = read_events(game, seq).map_err(|e| e.to_string());
                read_ev.as_ref().map_err(|e| e.clone())
            }
        };
        let newest = i + 1 == self.records.len();
        for side in self.views.then_some(&self.sides).into_iter().flatten() {
            let want = match self.view_of(i, side, &state, &events) {
                Ok(yaml) => yaml,
                Err(e) => {
                    findings.push(format!(
                        "views/{side}/{seq:06}.yaml: cannot be regenerated: {e}"
                    ));
                    continue;
                }
            };
            tally.views += 1;
            let path = game.dir.view_of_record(side, seq);
            if dir::read_text(&path).ok().as_deref() != Some(want.as_str()) {
                findings.push(format!(
                    "views/{side}/{seq:06}.yaml: missing, or differs from the view the journal and state give"
                ));
            }
            // The current view is the newest record's.
            let current = game.dir.views(side).join("view.yaml");
            if newest && dir::read_text(&current).ok().as_deref() != Some(want.as_str()) {
                findings.push(format!(
                    "views/{side}/view.yaml: differs from the view the journal and state give"
                ));
            }
        }
        let file = format!("reports/{seq:06}.txt");
        let want = match state
            .map_err(Error::Fail)
            .and_then(|state| views::report_text_of(game, self.records, seq, state))
        {
            Ok(w) => w,
            Err(e) => {
                findings.push(format!("{file}: cannot be regenerated: {e}"));
                return;
            }
        };
        tally.report_boards += 1;
        if std::fs::read(game.dir.report(seq)).ok().as_deref() != Some(want.as_bytes()) {
            findings.push(format!(
                "{file}: differs from the report of {} and the state after it (in the board)",
                rec_name(seq)
            ));
        }
    }

    /// The YAML of `side`'s view of record `i`, from the state after it and its events.
    fn view_of(
        &self,
        i: usize,
        side: &str,
        state: &Result<&str, String>,
        events: &Result<&StepEvents, String>,
    ) -> Result<String, Error> {
        let (record, head) = &self.records[i];
        let (state, events) = match (state, events) {
            (Ok(state), Ok(events)) => (*state, *events),
            (Err(e), _) | (_, Err(e)) => return Err(Error::Fail(e.clone())),
        };
        let reader = Reader::Side(side.to_string());
        let board = self
            .game
            .system
            .view_yaml(self.game.data()?, state, &reader)?;
        let events = views::events_for(events, &reader);
        views::view_yaml(self.game, side, record.seq, record, head, &board, &events)
    }
}

/// For each record, whether the game ran this pbem's rules after it.
fn ours_after_each(game: &Game, records: &[(Record, Hash32)]) -> Vec<bool> {
    let ours = game.system.rules_version();
    journal::rules_after_each(records.iter().map(|(r, _)| r))
        .into_iter()
        .map(|(rules, _)| rules == ours)
        .collect()
}

/// The stored sealed transcript must carry the journal's commitment (computed over the bytes as
/// stored, so a change in how YAML is written never breaks an old game) and hold exactly the
/// draws the replay made (`replayed`; None for a step this pbem cannot replay).
fn check_sealed(
    game: &Game,
    seq: u64,
    st: &crate::protocol::journal::StepRecord,
    game_key: &Hash32,
    replayed: Option<&[crate::protocol::dice::SealedDraw]>,
    findings: &mut Vec<String>,
) {
    let name = format!("host/sealed/{seq:06}.yaml");
    let stored = match dir::read_text(&game.dir.sealed(seq)) {
        Ok(t) => t,
        Err(e) => {
            findings.push(format!("{name}: {e}"));
            return;
        }
    };
    if journal::sealed_commit(game_key, st.number, &stored) != st.sealed_commit {
        findings.push(format!(
            "{name}: does not match step.sealed_commit of {}",
            rec_name(seq)
        ));
    }
    match yaml::parse::<Vec<crate::protocol::dice::SealedDraw>>(&stored, &name) {
        Ok(_) if replayed.is_none() => {}
        Ok(draws) if Some(draws.as_slice()) == replayed => {}
        Ok(_) => findings.push(format!(
            "{name}: differs from the sealed draws of the replay"
        )),
        Err(r) => findings.push(r.to_string()),
    }
}

fn check_public_state(
    game: &Game,
    data: &crate::systems::GameData,
    state: &str,
    rec: &Record,
    findings: &mut Vec<String>,
) {
    match game.system.view(data, state, &Reader::Public) {
        Ok(v) if sha256(v.yaml.as_bytes()) == rec.public_state => {}
        Ok(_) => findings.push(format!(
            "{}: public_state: does not match the public view of the state",
            rec_name(rec.seq)
        )),
        Err(e) => findings.push(format!("{}: state unreadable: {e}", rec_name(rec.seq))),
    }
}

fn check_receipts(
    game: &Game,
    records: &[(Record, Hash32)],
    findings: &mut Vec<String>,
    tally: &mut Tally,
) {
    let Ok(entries) = std::fs::read_dir(game.dir.receipts()) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        tally.receipts += 1;
        let name = format!(
            "host/receipts/{}",
            path.file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default()
        );
        let Ok(bytes) = std::fs::read(&path) else {
            findings.push(format!("{name}: cannot read"));
            continue;
        };
        match order::open_receipt(game, &bytes, &name) {
            Err(e) => findings.push(e),
            Ok(r) => {
                let known = find_order(records, &r.order).is_some()
                    || pending(game, &r.order)
                    || super::ops::withdrawn_by(records, &r.basis, r.step).is_some();
                if !known {
                    findings.push(format!(
                        "{name}: receipt for order {} that the journal neither used nor replaced",
                        r.order
                    ));
                }
            }
        }
    }
}

impl Tally {
    pub fn summary(&self) -> String {
        format!(
            "{} records, {} reports ({} with their board), {} public dice, {} orders, {} receipts, {} steps replayed from {}, {} sealed draws, {} views, {} player files",
            self.records,
            self.reports,
            self.report_boards,
            self.dice,
            self.orders,
            self.receipts,
            self.replayed_steps,
            if self.source.is_empty() {
                "nothing (public checks only)"
            } else {
                self.source
            },
            self.sealed_draws,
            self.views,
            self.player_files
        ) + &if self.reveals > 0 {
            format!(", {} sealed reveals", self.reveals)
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::{
        SealedKeyCommit, SealedReveal, reveal_values, sealed_key_commit, shuffle_ranges,
    };
    use crate::protocol::journal::StepRecord;

    const KEY: Hash32 = Hash32([0x5A; 32]);
    const LABEL: &str = "deck/actions/t1";

    /// The step record that shuffled the deck and committed to its key.
    fn shuffled(seq: u64, number: u64) -> (Record, Hash32) {
        let mut r = step(seq, number, vec![]);
        if let Some(st) = r.0.step.as_mut() {
            st.key_commits.push(SealedKeyCommit {
                label: LABEL.into(),
                commit: sealed_key_commit(LABEL, &KEY),
            });
        }
        r
    }

    fn step(seq: u64, number: u64, reveals: Vec<SealedReveal>) -> (Record, Hash32) {
        let record = Record {
            pbem: JOURNAL_FORMAT_V5.into(),
            game: "g".into(),
            seq,
            prev: None,
            genesis: None,
            step: Some(StepRecord {
                number,
                title: String::new(),
                rules: Some(1),
                orders: vec![],
                host_reveal: Hash32::default(),
                seed: Hash32([seq as u8; 32]),
                dice_algorithm: String::new(),
                dice: vec![],
                sealed_commit: Hash32::default(),
                events: vec![],
                outcome: None,
                defaults: vec![],
                key_commits: vec![],
                reveals,
            }),
            conclusion: None,
            host_op: None,
            public_state: Hash32::default(),
            next: None,
        };
        (record, Hash32::default())
    }

    fn deck_reveal(of_step: u64) -> SealedReveal {
        let range = shuffle_ranges(9);
        SealedReveal {
            step: of_step,
            label: LABEL.into(),
            key: KEY,
            values: reveal_values(&KEY, &range),
            range,
        }
    }

    fn findings_of(records: &[(Record, Hash32)]) -> (Vec<String>, usize) {
        let mut findings = Vec::new();
        let mut tally = Tally::default();
        check_reveals(
            records,
            records.len() - 1,
            "journal/x",
            &mut findings,
            &mut tally,
        );
        (findings, tally.reveals)
    }

    #[test]
    fn a_reveal_of_an_earlier_committed_key_that_gives_its_values_passes() {
        let records = [shuffled(1, 1), step(2, 2, vec![deck_reveal(1)])];
        assert_eq!(findings_of(&records), (vec![], 1));
    }

    #[test]
    fn a_reveal_of_a_key_the_step_did_not_commit_to_is_a_finding() {
        let (found, _) = findings_of(&[step(1, 1, vec![]), step(2, 2, vec![deck_reveal(1)])]);
        assert!(found[0].contains("step 1 committed to no key"), "{found:?}");
    }

    #[test]
    fn a_reveal_whose_key_does_not_open_the_commitment_is_a_finding() {
        // Another key, with the values it gives: consistent in itself, not the one committed.
        let mut r = deck_reveal(1);
        r.key = Hash32([0x11; 32]);
        r.values = reveal_values(&r.key, &r.range);
        let (found, _) = findings_of(&[shuffled(1, 1), step(2, 2, vec![r])]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("does not open the commitment"),
            "{found:?}"
        );
    }

    #[test]
    fn a_revealed_value_the_key_does_not_give_is_a_finding() {
        let mut r = deck_reveal(1);
        r.values[0] = (r.values[0] + 1) % 9;
        let (found, _) = findings_of(&[shuffled(1, 1), step(2, 2, vec![r])]);
        assert_eq!(found.len(), 1);
        assert!(found[0].contains("its key gives"), "{found:?}");
    }

    #[test]
    fn a_reveal_of_a_step_no_earlier_record_resolved_is_a_finding() {
        let (found, _) = findings_of(&[step(1, 1, vec![]), step(2, 2, vec![deck_reveal(2)])]);
        assert!(
            found[0].contains("no earlier record resolved step 2"),
            "{found:?}"
        );
    }

    #[test]
    fn a_draw_revealed_twice_in_one_record_is_a_finding() {
        let records = [
            shuffled(1, 1),
            step(2, 2, vec![deck_reveal(1), deck_reveal(1)]),
        ];
        let (found, _) = findings_of(&records);
        assert!(
            found.iter().any(|m| m.contains("revealed twice")),
            "{found:?}"
        );
    }

    #[test]
    fn a_reveal_with_fewer_values_than_ranges_is_a_finding_not_a_panic() {
        let mut r = deck_reveal(1);
        r.values.pop();
        let (found, _) = findings_of(&[shuffled(1, 1), step(2, 2, vec![r])]);
        assert!(found[0].contains("one value per range"), "{found:?}");
    }

    #[test]
    fn a_record_older_than_journal_5_may_not_reveal() {
        let mut records = vec![step(1, 1, vec![]), step(2, 2, vec![deck_reveal(1)])];
        records[1].0.pbem = JOURNAL_FORMAT_V4.into();
        let mut findings = Vec::new();
        check_format(&records, 1, "journal/000002.yaml", &mut findings);
        assert!(
            findings
                .iter()
                .any(|m| m.contains("commits to or reveals sealed keys (journal/5 does)")),
            "{findings:?}"
        );
    }
}
