//! `pbem ingest`: one incoming message (from stdin, a file or a Maildir) → its game, its order
//! filed exactly as `pbem submit` files it, and an answer queued in the outbox. Automatic
//! messages are recorded and never answered. An order signed by a seat's key is answered in
//! full at that seat's registered address; any other message gets at most a fixed text, once
//! a day, and only at a seat's registered address ([`authenticate`], docs/mail.md). Every message is recorded in the game's
//! `mail/in/` (or `unmatched-mail/` under a root of many games) as `HASH.eml` (written before
//! anything is done) and `HASH.yaml` (the verdict); a message whose verdict is recorded is
//! never handled twice, so a redelivered message changes nothing.

use super::super::dir::{self, GameDir};
use super::super::game::Game;
use super::super::{Error, order};
use super::address;
use super::authenticate::{self, Unverified};
use super::classify;
use super::extract::{self, Candidate};
use super::maildir::{self, Raw};
use super::outbox::{self, Queued};
use super::parse::{self, Mail};
use super::replies::{self, Answer};
use super::throttle;
use super::turn::{host_mailbox, seat_mailbox};
use super::{games_under, read_config, received_dir};
use crate::protocol::envelope;
use crate::protocol::hash::sha256;
use jiff::Timestamp;
use lettre::message::Mailbox;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Messages above this many bytes are refused unread (default 10 MiB).
    pub max_size: u64,
    pub now: Timestamp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// An order was filed; a receipt is queued.
    Accepted,
    /// An order message that could not be used; the answer says why.
    Rejected,
    /// Not an order, or not to be answered (automatic, bounce, list, spam, unknown game).
    Ignored,
    /// This exact message was handled before; nothing was done again.
    Duplicate,
}

/// What was done with one message; also its record in `mail/in/HASH.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    pub source: String,
    pub received: Timestamp,
    pub size: u64,
    pub message_id: Option<String>,
    pub from: String,
    pub subject: String,
    pub game: Option<String>,
    pub verdict: Verdict,
    pub detail: String,
    pub side: Option<String>,
    pub step: Option<u64>,
    pub order: Option<String>,
    /// Outbox key of the answer, when one was queued.
    pub reply: Option<String>,
}

/// The game of a message: one game directory, or a root of many found by id.
struct Games {
    single: Option<PathBuf>,
    by_id: Vec<(String, PathBuf)>,
    root: PathBuf,
}

impl Games {
    fn load(root: &Path) -> Result<Games, Error> {
        let dirs = games_under(root)?;
        if dirs.len() == 1 && dirs[0] == root {
            return Ok(Games {
                single: Some(root.to_path_buf()),
                by_id: Vec::new(),
                root: root.to_path_buf(),
            });
        }
        let mut by_id = Vec::new();
        for d in dirs {
            // A damaged game.yaml must not stop mail for the other games.
            if let Ok(c) = read_config(&d) {
                by_id.push((c.id, d));
            }
        }
        Ok(Games {
            single: None,
            by_id,
            root: root.to_path_buf(),
        })
    }

    fn find(&self, ids: &[Option<String>]) -> Option<PathBuf> {
        if let Some(s) = &self.single {
            return Some(s.clone());
        }
        ids.iter().flatten().find_map(|id| {
            self.by_id
                .iter()
                .find(|(i, _)| i == id)
                .map(|(_, d)| d.clone())
        })
    }

    /// Where messages of no known game are recorded.
    fn unmatched(&self) -> PathBuf {
        self.root.join("unmatched-mail")
    }
}

/// The game id in a subject tag `[pbem ID]`, if any.
pub fn tag_in(subject: &str) -> Option<String> {
    let start = subject.find("[pbem ")? + "[pbem ".len();
    let rest = &subject[start..];
    let id = rest[..rest.find(']')?].trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// Ingests one message read from `source`.
pub fn ingest(root: &Path, raw: &Raw, source: &str, opts: &Options) -> Result<Outcome, Error> {
    let games = Games::load(root)?;
    let message = read(&games, raw, source, opts);
    let handled = dir::batched(|| handle(message, raw, opts))?;
    dir::batched(|| handled.record())?;
    Ok(handled.outcome)
}

/// At most this many messages share one flush: a crash before it makes the next run handle
/// them again (each is handled the same way twice, see [`ingest_maildir`]), so the batch is
/// bounded, and so is the time before `pbem send` sees only durable answers.
const MAX_BATCH: usize = 256;

/// Ingests every message in `maildir/new`; each handled message moves to `cur/`. A message
/// that could not be handled (an I/O error, a game busy with another command) stays in `new/`
/// for the next run, and the others go on.
///
/// Messages are handled in batches, each with two flushes of the disk instead of two per file
/// written: first what every message of the batch does (its audit copy, its order filed, its
/// answer queued), flushed once; then their verdicts, flushed once; then they move to `cur/`.
/// So a verdict is on disk only once everything it records is, and a message leaves `new/`
/// only once its verdict is: after a crash, every message without a durable verdict is still
/// in `new/`, and handling it again files the same order (the same order twice changes
/// nothing and re-issues its receipt) and queues the same answer (queued at most once). A
/// batch holds at most one message per game, so what a crash can leave half written in a game
/// is at most one message's files, as without batches; and no two copies of one message, so
/// the second is still found to be a duplicate.
pub fn ingest_maildir(
    root: &Path,
    maildir: &Path,
    opts: &Options,
) -> Result<Vec<Result<Outcome, String>>, Error> {
    let games = Games::load(root)?;
    let _lock = maildir::lock(maildir)?;
    let paths = maildir::new_messages(maildir)?;
    let sources: Vec<String> = paths
        .iter()
        .map(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default()
        })
        .collect();
    let mut results: Vec<Option<Result<Outcome, String>>> = vec![None; paths.len()];
    let failed = |source: &str, e: &Error| Some(Err(format!("{source}: {e}")));
    // A message read for a batch that already had its game waits for the next one.
    let mut carried: Option<(usize, Raw, Message)> = None;
    let mut next = 0;
    while next < paths.len() || carried.is_some() {
        let mut batch: Vec<(usize, Handled)> = Vec::new();
        let effects = dir::batched(|| {
            let mut games_in_batch = HashSet::new();
            let mut hashes_in_batch = HashSet::new();
            while batch.len() < MAX_BATCH {
                let (i, raw, message) = match carried.take() {
                    Some(c) => c,
                    None if next < paths.len() => {
                        let i = next;
                        next += 1;
                        match maildir::read_file(&paths[i], opts.max_size) {
                            Ok(raw) => {
                                let message = read(&games, &raw, &sources[i], opts);
                                (i, raw, message)
                            }
                            Err(e) => {
                                results[i] = failed(&sources[i], &e);
                                continue;
                            }
                        }
                    }
                    None => break,
                };
                let game_seen = message
                    .game_dir
                    .as_ref()
                    .is_some_and(|g| games_in_batch.contains(g));
                if game_seen || hashes_in_batch.contains(&message.hash) {
                    carried = Some((i, raw, message));
                    break;
                }
                if let Some(g) = &message.game_dir {
                    games_in_batch.insert(g.clone());
                }
                hashes_in_batch.insert(message.hash.clone());
                match handle(message, &raw, opts) {
                    Ok(h) => batch.push((i, h)),
                    Err(e) => results[i] = failed(&sources[i], &e),
                }
            }
            Ok(())
        });
        if let Err(e) = effects {
            for (i, _) in batch {
                results[i] = failed(&sources[i], &e);
            }
            continue;
        }
        let mut recorded = Vec::new();
        let verdicts = dir::batched(|| {
            for (i, h) in batch {
                match h.record() {
                    Ok(()) => recorded.push((i, h.outcome)),
                    Err(e) => results[i] = failed(&sources[i], &e),
                }
            }
            Ok(())
        });
        for (i, outcome) in recorded {
            results[i] = match &verdicts {
                Err(e) => failed(&sources[i], e),
                Ok(()) => match maildir::mark_seen(maildir, &paths[i]) {
                    Ok(()) => Some(Ok(outcome)),
                    Err(e) => failed(&sources[i], &e),
                },
            };
        }
    }
    Ok(results
        .into_iter()
        .zip(&sources)
        .map(|(r, source)| r.unwrap_or_else(|| Err(format!("{source}: not handled"))))
        .collect())
}

/// A message read and parsed, its game found; nothing written yet.
struct Message {
    /// Names the message's records (`HASH.eml`, `HASH.yaml`).
    hash: String,
    mail: Option<Mail>,
    found: extract::Found,
    tag: Option<String>,
    game_dir: Option<PathBuf>,
    record_dir: PathBuf,
    outcome: Outcome,
}

/// A message whose effects are written; its verdict is not yet.
struct Handled {
    outcome: Outcome,
    /// Where the verdict goes; None for a duplicate, whose verdict is already recorded.
    verdict: Option<PathBuf>,
}

impl Handled {
    fn record(&self) -> Result<(), Error> {
        match &self.verdict {
            Some(path) => dir::write_atomic(path, crate::yaml::encode(&self.outcome)?.as_bytes()),
            None => Ok(()),
        }
    }
}

fn read(games: &Games, raw: &Raw, source: &str, opts: &Options) -> Message {
    let hash = {
        let mut h = raw.bytes.clone();
        h.extend_from_slice(&raw.size.to_be_bytes());
        sha256(&h).hex()[..20].to_string()
    };
    let mail = parse::parse(&raw.bytes);
    let empty = Mail::default();
    let m = mail.as_ref().unwrap_or(&empty);
    let found = if raw.truncated() || mail.is_none() {
        extract::Found::default()
    } else {
        extract::find(&m.parts)
    };
    let order_game = found.orders.first().and_then(|c| extract::game_id(&c.doc));
    let tag = tag_in(&m.subject);
    let game_dir = games.find(&[order_game, tag.clone()]);
    let record_dir = match &game_dir {
        Some(d) => received_dir(&GameDir::new(d)),
        None => games.unmatched(),
    };
    let outcome = Outcome {
        source: source.to_string(),
        received: opts.now,
        size: raw.size,
        message_id: m
            .message_id
            .as_deref()
            .map(|id| address::header_text(id, 200)),
        // Bounded: a header can be megabytes long, and this record is printed by `ingest`.
        from: address::header_text(&m.from_text, 200),
        subject: address::header_text(&m.subject, 200),
        game: None,
        verdict: Verdict::Ignored,
        detail: String::new(),
        side: None,
        step: None,
        order: None,
        reply: None,
    };
    Message {
        hash,
        mail,
        found,
        tag,
        game_dir,
        record_dir,
        outcome,
    }
}

/// Does what `message` asks (or finds it handled before); its verdict is left to
/// [`Handled::record`], to be written once all this is on disk.
fn handle(message: Message, raw: &Raw, opts: &Options) -> Result<Handled, Error> {
    let Message {
        hash,
        mail,
        found,
        tag,
        game_dir,
        record_dir,
        mut outcome,
    } = message;
    let verdict_path = record_dir.join(format!("{hash}.yaml"));
    if verdict_path.exists() {
        let earlier: Result<Outcome, _> = crate::yaml::parse(
            &dir::read_text(&verdict_path)?,
            &verdict_path.display().to_string(),
        );
        outcome.verdict = Verdict::Duplicate;
        outcome.detail = match earlier {
            Ok(e) => format!(
                "handled before ({:?}: {}); nothing done again",
                e.verdict, e.detail
            ),
            Err(_) => "handled before; nothing done again".into(),
        };
        return Ok(Handled {
            outcome,
            verdict: None,
        });
    }
    // The audit copy first: whatever happens next, the message is kept.
    dir::write_atomic(&record_dir.join(format!("{hash}.eml")), &raw.bytes)?;
    decide(
        &mut outcome,
        game_dir.as_deref(),
        mail.as_ref(),
        &found,
        raw,
        tag,
        &hash,
        opts,
    )?;
    Ok(Handled {
        outcome,
        verdict: Some(verdict_path),
    })
}

#[allow(clippy::too_many_arguments)]
fn decide(
    out: &mut Outcome,
    game_dir: Option<&Path>,
    mail: Option<&Mail>,
    found: &extract::Found,
    raw: &Raw,
    tag: Option<String>,
    hash: &str,
    opts: &Options,
) -> Result<(), Error> {
    let ignore = |out: &mut Outcome, why: String| {
        out.verdict = Verdict::Ignored;
        out.detail = why;
        Ok(())
    };
    let Some(mail) = mail else {
        return ignore(out, "not a mail message: no headers".into());
    };
    if let Some(why) = classify::automatic(mail) {
        return ignore(out, format!("{why}: recorded, never answered"));
    }
    let Some(game_dir) = game_dir else {
        return ignore(
            out,
            match tag {
                Some(t) => format!(
                    "no game {:?} is run here: recorded, not answered",
                    address::header_text(&t, 100)
                ),
                None => "not an order: no [pbem GAME] tag in the subject and no signed order \
                         of a game run here"
                    .into(),
            },
        );
    };
    let game = Game::open(game_dir)?;
    out.game = Some(game.config.id.clone());
    let host = host_mailbox(&game.config)?;
    if let (Some(h), Some(f)) = (&host, &mail.from)
        && address::same(&h.email, f)
    {
        return ignore(
            out,
            "sent by this host's own address: never answered".into(),
        );
    }
    if found.orders.is_empty() && found.problems.is_empty() && !raw.truncated() && tag.is_none() {
        return ignore(
            out,
            "not an order: no [pbem GAME] tag in the subject and no order attached".into(),
        );
    }
    // Who stands behind the message decides what may be said and to whom, so it is settled
    // before anything of the message is read as an order or quoted.
    let reply = Reply {
        game: &game,
        mail,
        host: host.as_ref(),
        hash,
        opts,
    };
    match authenticate::seat_of_message(
        &game.config,
        mail,
        &found.orders,
        !found.problems.is_empty(),
        raw.truncated().then_some(opts.max_size),
    ) {
        Ok(side) => from_seat(out, &reply, &found.orders, &side),
        Err(why) => unverified(out, &reply, why),
    }
}

/// What every answer to one message needs.
struct Reply<'a> {
    game: &'a Game,
    mail: &'a Mail,
    /// The host's From; None when mail is off.
    host: Option<&'a Mailbox>,
    hash: &'a str,
    opts: &'a Options,
}

impl Reply<'_> {
    fn answer<'a>(&'a self, from: &'a Mailbox, to: Mailbox) -> Answer<'a> {
        Answer {
            game: &self.game.config.id,
            from,
            to,
            message_hash: self.hash,
            in_reply_to: self.mail.message_id.clone(),
            now: self.opts.now,
        }
    }
}

/// The seat's registered mailbox, or why nothing is mailed (appended to the record).
fn seat_or_why(out: &mut Outcome, game: &Game, side: &str) -> Result<Option<Mailbox>, Error> {
    let seat = seat_mailbox(&game.config, side)?;
    if seat.is_none() {
        out.detail.push_str(&format!(
            " (not mailed: side {side} has no address in game.yaml, and what concerns a \
             seat's order goes only to that seat's registered address)"
        ));
    }
    Ok(seat)
}

/// Every order in the message is validly signed by `side`'s key: it is filed as `pbem submit`
/// files it, and the receipt or the rejection goes to the seat's registered address, whatever
/// From and Reply-To say (a copy of a signed order can be mailed by anyone).
fn from_seat(
    out: &mut Outcome,
    r: &Reply<'_>,
    orders: &[Candidate],
    side: &str,
) -> Result<(), Error> {
    out.side = Some(side.to_string());
    let problems = match orders {
        [c] => match submit(r.game, c)? {
            Ok(acc) => return accepted(out, r, c, acc),
            Err(rejections) => rejections,
        },
        several => {
            let names: Vec<String> = several
                .iter()
                .map(|c| address::header_text(&c.label, 100))
                .collect();
            vec![format!(
                "{} different orders in one message ({}): send one order per message",
                names.len(),
                names.join(", ")
            )]
        }
    };
    out.verdict = Verdict::Rejected;
    out.detail = record_text(&problems.join("; "));
    let Some(host) = r.host else {
        out.detail.push_str(MAIL_OFF);
        return Ok(());
    };
    let Some(to) = seat_or_why(out, r.game, side)? else {
        return Ok(());
    };
    let draft = replies::rejection(r.answer(host, to), &problems);
    queue_answer(out, r.game, &draft)?;
    Ok(())
}

/// No seat's signature: nothing of the message is quoted anywhere, the order is not even
/// parsed, and the only answer is a fixed text to a seat's registered address among Reply-To
/// and From, once a day at most. Anyone else gets nothing, so forged senders cannot turn the
/// host into a source of backscatter.
fn unverified(out: &mut Outcome, r: &Reply<'_>, why: Unverified) -> Result<(), Error> {
    out.verdict = Verdict::Rejected;
    out.detail = why.text().replace('\n', " ");
    let Some(host) = r.host else {
        out.detail.push_str(MAIL_OFF);
        return Ok(());
    };
    let to = authenticate::seat_at_sender(&r.game.config, r.mail)
        .map(|side| seat_mailbox(&r.game.config, &side))
        .transpose()?
        .flatten();
    let Some(to) = to else {
        out.detail.push_str(
            " (not answered: neither Reply-To nor From is a seat's registered address, and a \
             message without a seat's signature is answered nowhere else)",
        );
        return Ok(());
    };
    let address = to.email.clone();
    let draft = replies::fixed(r.answer(host, to), why);
    if !throttle::claim(&r.game.dir, &address, r.opts.now, &draft.key)? {
        out.detail.push_str(&format!(
            " (not answered: {address} already had its fixed answer of the day)"
        ));
        return Ok(());
    }
    queue_answer(out, r.game, &draft)?;
    Ok(())
}

/// At most this much of a verdict's detail is recorded: a signed order can still be large.
const MAX_DETAIL_BYTES: usize = 4 * 1024;

fn record_text(text: &str) -> String {
    if text.len() <= MAX_DETAIL_BYTES {
        return text.to_string();
    }
    let mut end = MAX_DETAIL_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} [cut: {} bytes in all]", &text[..end], text.len())
}

const MAIL_OFF: &str = " (no reply: mail/addresses.yaml has no mail.from)";

fn queued_key(q: Queued) -> String {
    q.path()
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// Queues the answer to this message (through the outbox's size check) and records its key.
fn queue_answer(
    out: &mut Outcome,
    game: &Game,
    draft: &super::compose::Draft,
) -> Result<(), Error> {
    out.reply = Some(queued_key(outbox::queue(&game.dir, &game.config, draft)?));
    Ok(())
}

/// Submits the order exactly as `pbem submit` does, from memory: rejections name the
/// attachment as the player named it (the signature as `NAME.sig`).
fn submit(game: &Game, c: &Candidate) -> Result<Result<order::Accepted, Vec<String>>, Error> {
    let sig = c
        .sig
        .as_ref()
        .map(|s| (format!("{}.sig", c.file_name), s.clone()));
    let name = address::header_text(&c.label, 100);
    match order::submit_bytes(game, name, c.doc.clone(), sig) {
        Ok(acc) => Ok(Ok(acc)),
        Err(Error::Rejected(rs)) => Ok(Err(rs.into_iter().map(|r| r.to_string()).collect())),
        Err(e) => Err(e),
    }
}

fn accepted(
    out: &mut Outcome,
    r: &Reply<'_>,
    c: &Candidate,
    acc: order::Accepted,
) -> Result<(), Error> {
    let (game, mail) = (r.game, r.mail);
    out.verdict = Verdict::Accepted;
    out.side = Some(acc.side.clone());
    out.step = Some(acc.step);
    out.order = Some(acc.hash.hex());
    out.detail = format!("order {} of {} for step {}", acc.hash, acc.side, acc.step);
    let seat = seat_mailbox(&game.config, &acc.side)?;
    let note = match (&seat, &mail.from) {
        (Some(s), Some(f)) if !address::same(&s.email, f) => Some(format!(
            "this order was mailed from {}, which is not the address registered for {} ({}). \
             The signature is what authenticates an order, so it is accepted; if you did not \
             send it, tell the host.",
            address::header_text(f.as_ref(), 200),
            acc.side,
            s.email
        )),
        (Some(s), None) => Some(format!(
            "this order came without a valid sender address; the address registered for {} is {}.",
            acc.side, s.email
        )),
        _ => None,
    };
    if let Some(n) = &note {
        out.detail.push_str(&format!("; sender mismatch: {n}"));
    }
    let Some(host) = r.host else {
        out.detail.push_str(MAIL_OFF);
        return Ok(());
    };
    // The receipt echoes the orders, which may name secrets: it goes to the seat's own
    // address, never to whoever sent the mail.
    let Some(to) = seat_or_why(out, game, &acc.side)? else {
        return Ok(());
    };
    let title = game
        .open_step()
        .filter(|s| s.step == acc.step)
        .map(|s| s.title.clone())
        .unwrap_or_default();
    let document = String::from_utf8_lossy(&envelope::strip_embedded_signature(&c.doc)).to_string();
    let draft = replies::receipt(r.answer(host, to), &acc, &title, &document, note.as_deref());
    queue_answer(out, game, &draft)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_is_found_anywhere_in_the_subject() {
        assert_eq!(
            tag_in("Re: [pbem kummen-demo] step 3").as_deref(),
            Some("kummen-demo")
        );
        assert_eq!(tag_in("orders"), None);
        assert_eq!(tag_in("[pbem ]"), None);
    }
}
